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


def reference_pairs(sizes, tables, key_tolerance, sum_tolerance, keys, size_factor=1.5,
                    extensions=None, min_similar_size=64) -> list[tuple[int, int]]:
    """SimFind by comparing every pair, straight from DESIGN.md (symmetric form);
    files under ``min_similar_size`` bytes pair only with exact copies of their table."""
    pairs = []
    n = len(sizes)
    for i in range(n):
        for j in range(i + 1, n):
            big, small = max(sizes[i], sizes[j]), min(sizes[i], sizes[j])
            if extensions is not None and extensions[i] != extensions[j]:
                continue
            if small < min_similar_size:
                if sizes[i] == sizes[j] and list(tables[i]) == list(tables[j]):
                    pairs.append((i, j))
                continue
            if abs(keys[i] - keys[j]) > max(1.0, big * (key_tolerance / 100.0)):
                continue
            if big > size_factor * small:
                continue
            distance = sum(abs(int(a) - int(b)) for a, b in zip(tables[i], tables[j]))
            if distance > max(1.0, (sizes[i] + sizes[j]) * (sum_tolerance / 100.0) / 2.0):
                continue
            pairs.append((i, j))
    return pairs


def reference_sum_table_by_matches(data: bytes, tags=DEFAULT_TAGS) -> list[int]:
    """The same rule, applied to the list of matches: fast enough for inputs of
    tens of kilobytes, and simple enough to trust (it is itself checked against
    ``reference_sum_table``)."""
    import numpy as np

    bits = np.unpackbits(np.frombuffer(bytes(data), dtype=np.uint8)).astype(np.int64)
    if len(bits) < 8:
        return [0] * len(tags)
    windows = np.zeros(len(bits) - 7, dtype=np.int64)
    for k in range(8):  # window at p: bits p .. p+7, most significant first
        windows = (windows << 1) | bits[k:len(bits) - 7 + k]
    counts = []
    for tag in tags:
        count, last_counted = 0, None
        for p in np.flatnonzero(windows == tag).tolist():
            if last_counted is None or p >= last_counted + 8:
                count += 1
                last_counted = p
        counts.append(count)
    return counts
