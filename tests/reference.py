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


_U64 = (1 << 64) - 1


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return z ^ (z >> 31)


def reference_features(data: bytes) -> list[int]:
    """simgui.core.reading.fingerprints' features, literally (see its docstring)."""
    golden, select = 0x9E3779B97F4A7C15, 0xD6E8FEB86659FD93
    n = len(data)
    if n == 0:
        return []
    if n < 16:
        low, high = int.from_bytes(data[:8], "little"), int.from_bytes(data[8:], "little")
        return [_mix64(_mix64((low + golden) & _U64) ^ (high + (n << 56)))]
    features, smallest = [], None
    for p in range(n - 15):
        v = int.from_bytes(data[p:p + 8], "little")
        w = int.from_bytes(data[p + 8:p + 16], "little")
        h = (v * select) & _U64
        smallest = h if smallest is None else min(smallest, h)
        if h >> 60 == 0:
            features.append(_mix64(_mix64((v + golden) & _U64) ^ w))
    return features or [_mix64((smallest + golden) & _U64)]


def reference_fingerprints(data: bytes, slots: int = 128) -> tuple[int, list[int]]:
    """Simhash (bit b set when at least half the counted features have it) and the
    densified one-permutation MinHash slots, as 32-bit hashes."""
    features = reference_features(data)
    recent, counted = [0] * 8192, []  # a feature still remembered here is not counted again
    for f in features:
        if recent[f % 8192] != f:
            recent[f % 8192] = f
            counted.append(f)
    simhash = 0
    for b in range(64):
        ones = sum((f >> b) & 1 for f in counted)
        if 2 * ones >= len(counted):
            simhash |= 1 << b
    shift = 64 - (slots.bit_length() - 1)
    bins: list[int | None] = [None] * slots
    for f in features:
        slot, value = f >> shift, f & ((1 << shift) - 1)
        if bins[slot] is None or value < bins[slot]:
            bins[slot] = value
    signature = []
    for j in range(slots):
        value = _U64
        for step in range(slots):  # the next non-empty bin to the right, wrapping
            donor = bins[(j + step) % slots]
            if donor is not None:
                value = donor + (step << shift)
                break
        signature.append(_mix64(value) >> 32)
    return simhash, signature


def tag_free_bytes(tags=DEFAULT_TAGS) -> list[int]:
    """Bytes no two of which (in either order, or one twice) hold a tag in any 8-bit
    window across them: any string of them has a sum table of zeros."""
    quiet: list[int] = []
    for b in range(256):
        if all(not any(reference_sum_table(bytes(pair), tags)) for q in quiet + [b]
               for pair in ((q, b), (b, q))):
            quiet.append(b)
    return quiet
