"""The rows of a group table in kernels: what every slider move computes for each file
in a group.

:meth:`Analysis.groups` measures each member against its group's reference and
orders the rows; as numpy expressions over a million files (350,000 rows in
130,000 groups) that took 270 ms a slider move, most of it temporary (rows, 16)
arrays and a six-key lexsort.  These kernels do the same in one pass each.  The
tests hold them to the numpy expressions they replace.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgui.core.search import workers as _threads


def member_distances(rows: np.ndarray, ref: np.ndarray, tables: np.ndarray,
                     keys: np.ndarray, hashes: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: the L1 distance of file ``rows[i]``'s sum table to file ``ref[i]``'s,
    the distance of their ``keys``, and whether their content ``hashes`` ((n, 2)) are
    equal."""
    m = len(rows)
    sum_distance = np.empty(m, np.int64)
    key_distance = np.empty(m, np.float64)
    same_hash = np.empty(m, np.bool_)
    rows = np.ascontiguousarray(rows, np.int64)
    ref = np.ascontiguousarray(ref, np.int64)
    # on the slider moves' pool (a search may be holding the other), half here
    parts = 2 if m >= _threads.PARALLEL_FROM and _threads.workers() > 1 else 1
    cuts = np.linspace(0, m, parts + 1).astype(np.int64)

    def run(i):
        return _distances_in(cuts[i], cuts[i + 1], rows, ref, tables, keys, hashes,
                             sum_distance, key_distance, same_hash)

    _threads.beside(run, range(1, parts), lambda: run(0))
    return sum_distance, key_distance, same_hash


@njit(nogil=True, cache=True)
def _distances_in(lo, hi, rows, ref, tables, keys, hashes, sum_distance, key_distance,
                  same_hash):
    for i in range(lo, hi):
        a = rows[i]
        b = ref[i]
        d = 0
        for t in range(tables.shape[1]):
            x = np.int64(tables[a, t]) - np.int64(tables[b, t])
            d += x if x >= 0 else -x
        sum_distance[i] = d
        key_distance[i] = abs(keys[a] - keys[b])
        same_hash[i] = (hashes[a, 0] == hashes[b, 0]) & (hashes[a, 1] == hashes[b, 1])
    return 0


def member_order(group: np.ndarray, is_reference: np.ndarray, identical: np.ndarray,
                 sum_distance: np.ndarray, class_rank: np.ndarray, path_rank: np.ndarray,
                 n_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """The order of the rows, and where each group's begin in it (``n_groups + 1``):
    by group, then the reference first, identical copies next, then by sum-table
    distance, then by class and by path (``np.lexsort`` of those keys, ``path_rank``
    unique, so the order is total)."""
    m = len(group)
    order = np.empty(m, np.int64)
    start = np.zeros(n_groups + 1, np.int64)
    _order_in(np.ascontiguousarray(group, np.int64), is_reference, identical, sum_distance,
              class_rank, path_rank, order, start)
    return order, start


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


@njit(nogil=True, cache=True)
def _order_in(group, is_reference, identical, sum_distance, class_rank, path_rank, order,
              start):
    # a counting sort by group (rows of a group keep their order: ascending)
    for i in range(group.shape[0]):
        start[group[i] + 1] += 1
    for g in range(start.shape[0] - 1):
        start[g + 1] += start[g]
    fill = start[:-1].copy()
    grouped = np.empty(group.shape[0], np.int64)
    for i in range(group.shape[0]):
        grouped[fill[group[i]]] = i
        fill[group[i]] += 1
    # the keys gathered into that order once, so the sorts below compare neighbours in
    # memory, not rows scattered over the table (half the time at 400,000 rows)
    is_reference = is_reference[grouped]
    identical = identical[grouped]
    sum_distance = sum_distance[grouped]
    class_rank = class_rank[grouped]
    path_rank = path_rank[grouped]
    for i in range(group.shape[0]):
        order[i] = i
    # each group's rows: an insertion sort for the usual few, stable sorts for long ones
    for g in range(start.shape[0] - 1):
        lo, hi = start[g], start[g + 1]
        if hi - lo <= 32:
            for i in range(lo + 1, hi):
                x = order[i]
                j = i - 1
                while j >= lo and _before(x, order[j], is_reference, identical, sum_distance,
                                          class_rank, path_rank):
                    order[j + 1] = order[j]
                    j -= 1
                order[j + 1] = x
            continue
        # a long group: stable sorts from the last key to the first
        by = np.argsort(path_rank[lo:hi], kind="mergesort")
        by = by[np.argsort(class_rank[lo:hi][by], kind="mergesort")]
        by = by[np.argsort(sum_distance[lo:hi][by], kind="mergesort")]
        by = by[np.argsort(1 - identical[lo:hi][by].astype(np.int64), kind="mergesort")]
        by = by[np.argsort(1 - is_reference[lo:hi][by].astype(np.int64), kind="mergesort")]
        order[lo:hi] = lo + by
    for i in range(order.shape[0]):
        order[i] = grouped[order[i]]
    return 0


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
