"""Hit counts and groups at any tolerance, as lookups: what sliders and the paper's Figures 6-7 need.

One search at the ceiling tolerances collects every candidate pair (of file
classes) with the smallest key tolerance and the smallest sum-table tolerance
at which it would be a hit.  Counting key hits, sum-table hits and groups at
a lower (key, sum) tolerance is then a lookup and one linear pass, not a
search.  Counts are of file pairs: a pair of classes of sizes p and q stands
for p*q pairs, and a class of k copies for k(k-1)/2 pairs that hit at any
tolerance.

Key hits need every pair within the key ceiling whatever its sum-table
distance, which can be tens of millions: of those only the smallest key
tolerance is kept (sorted, 16 bytes a pair).  Pairs that can be sum-table hits
below the sum ceiling keep both tolerances and their classes, for sum-table
hits and groups.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simgui.core.simfind import SearchSpace, Tolerances

#: No sum table is further than 16 x the size from another (each bit position
#: starts at most one counted match), so this sum tolerance disables the test.
_ANY_SUM_TOLERANCE = 3200.0
#: The sliders' top (the issue's range, 0.01 % .. 10 %).
MAX_TOLERANCE = 10.0


@dataclass(frozen=True)
class HitCounts:
    key_hits: int  # file pairs passing the key test and the size filter
    sum_hits: int  # of those, pairs passing the sum-table test too: similar pairs
    groups: int  # groups find_groups would form (with the same reference order)
    all_pairs: int  # n(n-1)/2, to express the others as fractions


@dataclass(frozen=True)
class Assignment:
    """Which group each class falls in at some tolerance (greedy, in ``class_order``)."""

    group_of_class: np.ndarray  # int64 (c,): group number, or -1 for no group
    leaders: np.ndarray  # int64 (g,): the class whose best file is each group's reference


@dataclass(frozen=True)
class ToleranceStats:
    space: SearchSpace
    min_key: np.ndarray | None  # float64 (m,): every candidate's smallest key tolerance, sorted
    key_weight_cum: np.ndarray | None  # int64 (m+1,): file pairs of the first i candidates
    # candidates that can be sum-table hits below max_sum
    class_a: np.ndarray  # int64 (h,)
    class_b: np.ndarray
    weight: np.ndarray  # int64 (h,): file pairs each class pair stands for
    hit_key: np.ndarray  # float64 (h,): smallest key tolerance (percent) that hits
    hit_sum: np.ndarray  # float64 (h,): smallest sum-table tolerance that hits
    # the same pairs as adjacency lists of classes, both directions, for grouping
    adjacent_start: np.ndarray  # int64 (c+1,)
    adjacent_edge: np.ndarray  # int64 (2h,): index into hit_key / hit_sum
    adjacent_class: np.ndarray  # int64 (2h,)
    within: int  # pairs inside classes: hits at every tolerance
    max_key: float
    max_sum: float
    class_order: np.ndarray  # classes in the order grouping takes them

    @classmethod
    def build(cls, space: SearchSpace, max_key: float = MAX_TOLERANCE,
              priority: np.ndarray | None = None, *,
              max_sum: float = MAX_TOLERANCE, key_hits: bool = True) -> ToleranceStats:
        """Candidates up to key tolerance ``max_key`` percent (the slider's top);
        groups and sum-table hits are available up to ``max_sum``.

        ``priority``: file indices, best reference first (as find_groups orders
        them), so that groups match find_groups; default: index order.
        ``key_hits=False`` skips the pairs that only pass the key test (a
        search at the ceilings, for groups at one tolerance): key hits are then
        not counted.
        """
        ceiling = Tolerances(max_key, _ANY_SUM_TOLERANCE if key_hits else max_sum)
        pairs = space.class_pairs(ceiling)
        a, b = pairs[:, 0], pairs[:, 1]
        sizes = space.sizes
        big = np.maximum(sizes[a], sizes[b]).astype(np.float64)
        dk = np.abs(space.keys[a] - space.keys[b])
        l1 = np.abs(space.tables[a] - space.tables[b]).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            # "at least 1": distances up to 1 hit at any tolerance
            min_key = np.where(dk <= 1, 0.0, 100.0 * dk / np.maximum(big, 1))
            min_sum = np.where(l1 <= 1, 0.0, 200.0 * l1 / np.maximum(sizes[a] + sizes[b], 1))
        del pairs, big, dk, l1
        classes = space.classes
        counts = np.diff(classes.members_start)
        ca, cb = classes.of_file[a], classes.of_file[b]
        weight = counts[ca] * counts[cb]

        if key_hits:
            by_key = np.argsort(min_key, kind="stable")
            key_weight_cum = np.zeros(len(by_key) + 1, np.int64)
            np.cumsum(weight[by_key], out=key_weight_cum[1:])
            sorted_key = min_key[by_key]
        else:
            sorted_key = key_weight_cum = None

        keep = min_sum <= max_sum
        ca, cb, weight, hit_key, hit_sum = ca[keep], cb[keep], weight[keep], min_key[keep], \
            min_sum[keep]
        n_classes = len(classes.first)
        src = np.concatenate([ca, cb])
        order = np.argsort(src, kind="stable")
        adjacent_start = np.searchsorted(src[order], np.arange(n_classes + 1)).astype(np.int64)
        edge = np.concatenate([np.arange(len(ca)), np.arange(len(ca))])[order]
        other = np.concatenate([cb, ca])[order]

        if priority is None:
            priority = np.arange(len(sizes))
        # a class's turn comes with its best file
        of_file = classes.of_file[np.asarray(priority)]
        _, first_seen = np.unique(of_file, return_index=True)
        class_order = of_file[np.sort(first_seen)]
        return cls(space, sorted_key, key_weight_cum, ca, cb, weight, hit_key, hit_sum,
                   adjacent_start, edge.astype(np.int64), other.astype(np.int64),
                   int((counts * (counts - 1) // 2).sum()), float(max_key), float(max_sum),
                   class_order)

    def _check(self, tolerances: Tolerances, key_hits: bool = False) -> None:
        if key_hits and self.min_key is None:
            raise ValueError("these statistics were built without key hits")
        if tolerances.key > self.max_key or tolerances.sum > self.max_sum:
            raise ValueError(f"tolerances above the {self.max_key} % key and {self.max_sum} % "
                             "sum-table tolerance these statistics cover")

    def counts(self, tolerances: Tolerances) -> HitCounts:
        """Key hits, sum-table hits and groups at ``tolerances`` (within the ceilings)."""
        self._check(tolerances, key_hits=True)
        key_hits = self.key_weight_cum[np.searchsorted(self.min_key, tolerances.key, "right")]
        sum_hit = (self.hit_key <= tolerances.key) & (self.hit_sum <= tolerances.sum)
        n = len(self.space.sizes)
        return HitCounts(
            key_hits=int(key_hits) + self.within,
            sum_hits=int(self.weight[sum_hit].sum()) + self.within,
            groups=len(self.assign(tolerances).leaders),
            all_pairs=n * (n - 1) // 2)

    def assign(self, tolerances: Tolerances) -> Assignment:
        """Groups at ``tolerances``, as find_groups forms them: classes are taken in
        ``class_order``; an unclaimed class claims its unclaimed neighbours."""
        self._check(tolerances)
        sizes = np.diff(self.space.classes.members_start)
        group_of_class = np.full(len(sizes), -1, np.int64)
        leaders = np.empty(len(sizes), np.int64)
        g = _greedy_groups(self.adjacent_start, self.adjacent_class, self.adjacent_edge,
                           self.hit_key, self.hit_sum, float(tolerances.key),
                           float(tolerances.sum), sizes, self.class_order, group_of_class,
                           leaders)
        return Assignment(group_of_class, leaders[:g].copy())

    def curve(self, key_tolerances, sum_tolerances=None) -> dict[str, np.ndarray]:
        """Figures 6-7: key hits, sum-table hits and their ratio against tolerance.

        With one list, key and sum-table tolerances move together, as in the paper.
        """
        key_tolerances = np.asarray(key_tolerances, dtype=np.float64)
        sum_tolerances = key_tolerances if sum_tolerances is None else np.asarray(sum_tolerances)
        for k, s in zip(key_tolerances, sum_tolerances):
            self._check(Tolerances(k, s), key_hits=True)
        key_hits = self.key_weight_cum[np.searchsorted(self.min_key, key_tolerances, "right")] \
            + self.within
        sum_hits = np.array([
            int(self.weight[(self.hit_key <= k) & (self.hit_sum <= s)].sum()) + self.within
            for k, s in zip(key_tolerances, sum_tolerances)], dtype=np.int64)
        n = len(self.space.sizes)
        total = max(n * (n - 1) // 2, 1)
        return {"key_tolerance": key_tolerances, "sum_tolerance": sum_tolerances,
                "key_hits": key_hits, "sum_hits": sum_hits,
                "ratio": np.divide(sum_hits, np.maximum(key_hits, 1)),
                "key_fraction": key_hits / total, "sum_fraction": sum_hits / total}


@njit(cache=True)
def _greedy_groups(starts, neighbours, edges, hit_key, hit_sum, key_tol, sum_tol, class_sizes,
                   order, group_of_class, leaders):
    claimed = np.zeros(class_sizes.shape[0], np.bool_)
    groups = 0
    for c in order:
        if claimed[c]:
            continue
        claimed[c] = True
        near = 0
        for i in range(starts[c], starts[c + 1]):
            d = neighbours[i]
            e = edges[i]
            if not claimed[d] and hit_key[e] <= key_tol and hit_sum[e] <= sum_tol:
                claimed[d] = True
                group_of_class[d] = groups
                near += 1
        if near or class_sizes[c] > 1:
            group_of_class[c] = groups
            leaders[groups] = c
            groups += 1
    return groups
