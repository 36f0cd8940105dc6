"""The rows of a group table in kernels: what every slider move computes for each file
in a group.

:func:`group_columns` turns the classes a grouping assigned into the table
:meth:`Analysis.groups` returns: each group's files, measured against its
reference and ordered, groups largest first.  As numpy expressions over a
million files (400,000 rows in 130,000 groups) that took 270 ms a slider move,
then about 90 ms as four kernels over arrays of every file; now two passes over
the grouped classes, the second writing each group's rows in sequence, about 45 ms
(docs/speed.md).
The tests hold it to the numpy expressions it replaces.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from simgui.core.search import workers as _threads
from simgui.core.search.kernels.cache_lines import prefetch_read


#: The fields of a class's record (:class:`ClassRecords`): its first file, where its
#: files begin in ``members``, how many they are, the size of one, the first file's rank
#: by path, and the reference it was last measured against (-1: none yet), with the
#: sum-table and key distance to it (the key a float64 in the same bits).
FIRST, START, COUNT, SIZE, RANK, REFERENCE, SUM, KEY = range(8)


class ClassRecords:
    """What a grouping reads of each class, one 64-byte record each.

    At a million files the classes of a group are far apart in memory, and each
    array read for a class is a cache miss: one record is one miss.  A record also
    keeps the class's distances to the reference it was last measured against: a
    file's sum table is two more misses, and most classes keep their reference from
    one slider step to the next.  One grouping at a time writes them (``lock``)."""

    def __init__(self, members_start: np.ndarray, first: np.ndarray, sizes: np.ndarray,
                 path_rank: np.ndarray):
        records = _aligned_records(len(first))
        records[:, FIRST] = first
        records[:, START] = members_start[:-1]
        records[:, COUNT] = np.diff(members_start)
        records[:, SIZE] = sizes[first]
        records[:, RANK] = path_rank[first]
        records[:, REFERENCE] = -1
        self.records = records
        self.lock = threading.Lock()

    def __reduce__(self):  # a copy (another process) measures afresh
        records = self.records.copy()
        records[:, REFERENCE] = -1
        return _records_from, (records,)


def _records_from(records: np.ndarray) -> ClassRecords:
    made = ClassRecords.__new__(ClassRecords)
    made.records = _aligned_records(len(records))
    made.records[:] = records
    made.lock = threading.Lock()
    return made


def _aligned_records(n: int) -> np.ndarray:
    """(n, 8) int64 zeros, each row on one 64-byte cache line (numpy aligns to 16)."""
    buffer = np.zeros(n * 8 + 8, np.int64)
    skip = (-buffer.ctypes.data % 64) // 8
    return buffer[skip:skip + n * 8].reshape(n, 8)


def group_columns(group_start: np.ndarray, group_classes: np.ndarray, class_best: np.ndarray,
                  classes: ClassRecords, members: np.ndarray, tables: np.ndarray,
                  keys: np.ndarray, hashes: np.ndarray, sizes: np.ndarray,
                  path_rank: np.ndarray) -> dict[str, np.ndarray]:
    """The columns of a group table (see :class:`GroupTable`) from a grouping.

    Group g holds the classes ``group_classes[group_start[g]:group_start[g + 1]]``, the
    first its leader, whose best file ``class_best[leader]`` is the reference; class
    c's files are ``members[start:start + count]`` (its record in ``classes``) and share
    size, sum table, key and hash (its first file stands for them).  Groups are
    renumbered largest first (bytes besides the reference), ties by the reference's
    ``path_rank``; each group's rows are the reference, its identical copies, then the
    rest by sum-table distance, class and path.  Per row: the file, its key distance
    (``keys``) and sum-table distance (``tables``) to the reference, whether it is
    identical to it (equal size, sum table and ``hashes``), and the earlier row of a
    copy of it among the members (-1 if none).
    """
    with classes.lock:
        return _columns(np.ascontiguousarray(group_start, np.int64),
                        np.ascontiguousarray(group_classes, np.int64), class_best,
                        classes.records, members, tables, keys, hashes, sizes, path_rank)


def _columns(group_start, group_classes, class_best, records, members, tables, keys, hashes,
             sizes, path_rank):
    n_groups = len(group_start) - 1
    references = np.ascontiguousarray(class_best[group_classes[group_start[:-1]]], np.int64)
    count = np.empty(n_groups, np.int64)
    group_bytes = np.empty(n_groups, np.int64)
    # on the slider moves' pool (a search may be holding the other), half here
    parts = 2 if len(group_classes) >= _threads.PARALLEL_FROM and _threads.workers() > 1 else 1
    cuts = np.searchsorted(group_start, np.linspace(0, len(group_classes), parts + 1))
    cuts[0], cuts[-1] = 0, n_groups
    _threads.beside(lambda i: _group_sizes(cuts[i], cuts[i + 1], group_start, group_classes,
                                           records, count, group_bytes),
                    range(1, parts),
                    lambda: _group_sizes(cuts[0], cuts[1], group_start, group_classes, records,
                                         count, group_bytes))
    group_bytes -= sizes[references]
    by_size = largest_first(group_bytes, path_rank[references])  # old number of each new
    start = np.zeros(n_groups + 1, np.int64)
    np.cumsum(count[by_size], out=start[1:])
    m = int(start[-1])
    rows = np.empty(m, np.int64)
    key_distance = np.empty(m, np.float64)
    sum_distance = np.empty(m, np.int64)
    identical = np.empty(m, np.bool_)
    copy_of = np.empty(m, np.int64)
    cuts = np.searchsorted(start, np.linspace(0, m, parts + 1)).astype(np.int64)
    cuts[0], cuts[-1] = 0, n_groups
    floats = records.view(np.float64)

    def run(i):
        return _fill(cuts[i], cuts[i + 1], by_size, group_start, group_classes, references,
                     records, floats, members, tables, keys, hashes, sizes, path_rank, start,
                     rows, key_distance, sum_distance, identical, copy_of)

    _threads.beside(run, range(1, parts), lambda: run(0))
    return dict(start=start, rows=rows, key_distance=key_distance, sum_distance=sum_distance,
                identical=identical, group_bytes=group_bytes[by_size], copy_of=copy_of)


#: classes ahead whose records are asked for before they are read (see cache_lines)
_AHEAD = 16


@njit(nogil=True, cache=True)
def _group_sizes(g0, g1, group_start, group_classes, records, count, group_bytes):
    """The file count and bytes of groups g0 .. g1-1."""
    last = group_start[g1] - 1
    for g in range(g0, g1):
        k = 0
        b = 0
        for j in range(group_start[g], group_start[g + 1]):
            prefetch_read(records, group_classes[min(j + _AHEAD, last)])
            c = group_classes[j]
            k += records[c, COUNT]
            b += records[c, COUNT] * records[c, SIZE]
        count[g] = k
        group_bytes[g] = b
    return 0


@njit(nogil=True, cache=True)
def _fill(g0, g1, by_size, group_start, group_classes, references, records, floats, members,
          tables, keys, hashes, sizes, path_rank, start, rows, key_distance, sum_distance,
          identical, copy_of):
    """The rows of groups g0 .. g1-1 (new numbers; ``by_size[g]`` is the old one), each
    group's written in sequence, measured once per class (``floats``: the records' bits
    as float64, for the key), then ordered where they lie."""
    base = start[g0]
    span = start[g1] - base
    is_ref = np.zeros(span, np.bool_)
    class_rank = np.empty(span, np.int64)
    own_rank = np.empty(span, np.int64)
    q = base
    for g in range(g0, g1):
        # the records of a group a few ahead (the groups are read in their new order,
        # so their classes lie far apart): one miss each, overlapped
        ahead = by_size[min(g + 2, g1 - 1)]
        for j in range(group_start[ahead], group_start[ahead + 1]):
            prefetch_read(records, group_classes[j])
        old = by_size[g]
        r = references[old]
        for j in range(group_start[old], group_start[old + 1]):
            c = group_classes[j]
            f0 = records[c, FIRST]
            if records[c, REFERENCE] == r:
                d = records[c, SUM]
                key = floats[c, KEY]
            else:
                d = 0
                for t in range(tables.shape[1]):
                    x = np.int64(tables[f0, t]) - np.int64(tables[r, t])
                    d += x if x >= 0 else -x
                key = abs(keys[f0] - keys[r])
                records[c, SUM] = d
                floats[c, KEY] = key
                records[c, REFERENCE] = r  # last: the distances are in place
            same = False
            if d == 0:
                same = (sizes[f0] == sizes[r]) & (hashes[f0, 0] == hashes[r, 0]) \
                    & (hashes[f0, 1] == hashes[r, 1])
            rank = records[c, RANK]
            k = records[c, COUNT]
            for i in range(k):
                f = f0 if k == 1 else members[records[c, START] + i]
                rows[q] = f
                key_distance[q] = key
                sum_distance[q] = d
                identical[q] = same
                is_ref[q - base] = f == r
                class_rank[q - base] = rank
                own_rank[q - base] = rank if k == 1 else path_rank[f]
                q += 1
    order = np.empty(span, np.int64)
    for i in range(span):
        order[i] = i
    dist = sum_distance[base:base + span]
    same = identical[base:base + span]
    for g in range(g0, g1):
        lo, hi = start[g] - base, start[g + 1] - base
        if hi - lo <= 32:
            for i in range(lo + 1, hi):
                x = order[i]
                j = i - 1
                while j >= lo and _before(x, order[j], is_ref, same, dist, class_rank,
                                          own_rank):
                    order[j + 1] = order[j]
                    j -= 1
                order[j + 1] = x
        else:  # stable sorts from the last key to the first
            by = np.argsort(own_rank[lo:hi], kind="mergesort")
            by = by[np.argsort(class_rank[lo:hi][by], kind="mergesort")]
            by = by[np.argsort(dist[lo:hi][by], kind="mergesort")]
            by = by[np.argsort(1 - same[lo:hi][by].astype(np.int64), kind="mergesort")]
            by = by[np.argsort(1 - is_ref[lo:hi][by].astype(np.int64), kind="mergesort")]
            order[lo:hi] = lo + by
    # the columns in that order
    rows[base:base + span] = rows[base:base + span][order]
    key_distance[base:base + span] = key_distance[base:base + span][order]
    sum_distance[base:base + span] = dist[order]
    identical[base:base + span] = same[order]
    class_rank = class_rank[order]
    # a class's rows follow each other: each not identical to the reference points at
    # its class's first row
    for g in range(g0, g1):
        run = -1
        for i in range(start[g] - base, start[g + 1] - base):
            if run < 0 or class_rank[i] != class_rank[i - 1]:
                run = i
            copy_of[base + i] = base + run if run < i and not identical[base + i] else -1
    return 0


@njit(nogil=True, cache=True, inline="always")
def _before(a, b, is_reference, identical, sum_distance, class_rank, path_rank):
    """Row a comes before row b of the same group."""
    if is_reference[a] != is_reference[b]:
        return is_reference[a]
    if identical[a] != identical[b]:
        return identical[a]
    if sum_distance[a] != sum_distance[b]:
        return sum_distance[a] < sum_distance[b]
    if class_rank[a] != class_rank[b]:
        return class_rank[a] < class_rank[b]
    return path_rank[a] < path_rank[b]


def order_within_groups(start: np.ndarray, key: np.ndarray, descending: bool) -> np.ndarray:
    """Rows in display order for a view sorted by a column: each group's rows
    (``start[g]`` .. ``start[g + 1]``, the reference first) keep the reference first,
    then the rest by ``key`` (float64 or int64 per row), rising or falling, ties in
    row order; ``np.lexsort((rows, ±key, ~is_reference, group))``, a group at a time."""
    order = np.arange(int(start[-1]), dtype=np.int64)
    if np.issubdtype(key.dtype, np.integer):
        key = key.astype(np.int64)
        if descending:
            key = -key
    else:
        key = -key.astype(np.float64) if descending else key.astype(np.float64)
        key[np.isnan(key)] = np.inf  # unknown values last, as a sort puts NaN
    _within_in(np.ascontiguousarray(start, np.int64), np.ascontiguousarray(key), order)
    return order


@njit(nogil=True, cache=True)
def _within_in(start, key, order):
    for g in range(start.shape[0] - 1):
        lo, hi = start[g] + 1, start[g + 1]  # the reference stays first
        if hi - lo <= 32:
            for i in range(lo + 1, hi):
                x = order[i]
                j = i - 1
                while j >= lo and key[x] < key[order[j]]:
                    order[j + 1] = order[j]
                    j -= 1
                order[j + 1] = x
        elif hi > lo:
            by = np.argsort(key[lo:hi], kind="mergesort")  # stable: ties in row order
            order[lo:hi] = lo + by
    return 0


def largest_first(group_bytes: np.ndarray, tie: np.ndarray) -> np.ndarray:
    """Groups largest first, equal ones by ``tie`` (distinct non-negative ranks):
    ``np.lexsort((tie, -group_bytes))``, as one sort of one key where both fit in 63
    bits (a third of the time at 130,000 groups)."""
    group_bytes = np.asarray(group_bytes, np.int64)
    tie = np.asarray(tie, np.int64)
    if not len(tie):
        return np.zeros(0, np.int64)
    bits = max(1, int(tie.max()).bit_length())
    top = int(group_bytes.max())
    if group_bytes.min() >= 0 and top.bit_length() + bits <= 62:
        return np.argsort(((top - group_bytes) << bits) | tie)
    return np.lexsort((tie, -group_bytes))
