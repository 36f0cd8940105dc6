"""Slow, obviously correct reference implementations the fast kernels are checked against."""

from __future__ import annotations

from simgui.core.tags import DEFAULT_TAGS


def reference_sum_table(data: bytes, tags=DEFAULT_TAGS) -> list[int]:
    """DESIGN.md, literally: every bit position, every window, the skip counter."""
    bits = "".join(f"{byte:08b}" for byte in data)
    tag_number = {tag: t for t, tag in enumerate(tags)}
    counts = [0] * len(tags)
    last_counted = [None] * len(tags)
    for p in range(len(bits) - 7):
        t = tag_number.get(int(bits[p:p + 8], 2))
        if t is not None and (last_counted[t] is None or p >= last_counted[t] + 8):
            counts[t] += 1
            last_counted[t] = p
    return counts
