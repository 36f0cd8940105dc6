"""Hit counts at any tolerance, as lookups: what sliders and the paper's Figures 6-7 need.

One search at the largest tolerances collects every candidate pair (of file
classes) with the smallest key tolerance and the smallest sum-table tolerance
at which it would be a hit.  Counting key hits, sum-table hits and groups at a
smaller (key, sum) tolerance is then a filter over those arrays, not a search.
Counts are of file pairs: a pair of classes of sizes p and q stands for p*q
pairs, and a class of k copies for k(k-1)/2 pairs that hit at any tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simgui.core.simfind import SearchSpace, Tolerances

#: No sum table is further than 16 x the size from another (each bit position
#: starts at most one counted match), so this sum tolerance disables the test.
_ANY_SUM_TOLERANCE = 3200.0


@dataclass(frozen=True)
class HitCounts:
    key_hits: int  # file pairs passing the key test and the size filter
    sum_hits: int  # of those, pairs passing the sum-table test too: similar pairs
    groups: int  # groups find_groups would form (without reference folders)
    all_pairs: int  # n(n-1)/2, to express the others as fractions


@dataclass(frozen=True)
class ToleranceStats:
    space: SearchSpace
    class_a: np.ndarray  # int64 (m,): classes of each candidate pair
    class_b: np.ndarray
    weight: np.ndarray  # int64 (m,): file pairs each class pair stands for
    min_key: np.ndarray  # float64 (m,): smallest key tolerance (percent) that hits
    min_sum: np.ndarray  # float64 (m,): smallest sum-table tolerance that hits
    within: int  # pairs inside classes: hits at every tolerance
    max_key: float
    class_order: np.ndarray  # classes in the order grouping takes them

    @classmethod
    def build(cls, space: SearchSpace, max_key: float = 10.0,
              priority: np.ndarray | None = None) -> ToleranceStats:
        """Candidates up to key tolerance ``max_key`` percent (the slider's top).

        ``priority``: file indices, best reference first (as find_groups orders
        them), so that group counts match find_groups; default: index order.
        """
        pairs = space.class_pairs(Tolerances(max_key, _ANY_SUM_TOLERANCE))
        a, b = pairs[:, 0], pairs[:, 1]
        sizes = space.sizes
        big = np.maximum(sizes[a], sizes[b]).astype(np.float64)
        dk = np.abs(space.keys[a] - space.keys[b])
        l1 = np.abs(space.tables[a] - space.tables[b]).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            # "at least 1": distances up to 1 hit at any tolerance
            min_key = np.where(dk <= 1, 0.0, 100.0 * dk / np.maximum(big, 1))
            min_sum = np.where(l1 <= 1, 0.0, 200.0 * l1 / np.maximum(sizes[a] + sizes[b], 1))
        classes = space.classes
        counts = np.diff(classes.members_start)
        ca, cb = classes.of_file[a], classes.of_file[b]
        within = int((counts * (counts - 1) // 2).sum())
        if priority is None:
            priority = np.arange(len(sizes))
        # a class's turn comes with its best file
        of_file = classes.of_file[np.asarray(priority)]
        _, first_seen = np.unique(of_file, return_index=True)
        class_order = of_file[np.sort(first_seen)]
        return cls(space, ca, cb, counts[ca] * counts[cb], min_key, min_sum, within,
                   float(max_key), class_order)

    def counts(self, tolerances: Tolerances) -> HitCounts:
        """Key hits, sum-table hits and groups at ``tolerances`` (key <= max_key)."""
        if tolerances.key > self.max_key:
            raise ValueError(f"key tolerance above the {self.max_key} % these statistics cover")
        key_hit = self.min_key <= tolerances.key
        sum_hit = key_hit & (self.min_sum <= tolerances.sum)
        n = len(self.space.sizes)
        return HitCounts(
            key_hits=int(self.weight[key_hit].sum()) + self.within,
            sum_hits=int(self.weight[sum_hit].sum()) + self.within,
            groups=self.groups(sum_hit),
            all_pairs=n * (n - 1) // 2)

    def groups(self, edge_mask: np.ndarray) -> int:
        """How many groups the greedy grouping forms over the chosen class pairs."""
        classes = self.space.classes
        c = len(classes.first)
        src = np.concatenate([self.class_a[edge_mask], self.class_b[edge_mask]])
        dst = np.concatenate([self.class_b[edge_mask], self.class_a[edge_mask]])
        order = np.argsort(src, kind="stable")
        starts = np.searchsorted(src[order], np.arange(c + 1))
        sizes = np.diff(classes.members_start)
        return _greedy_groups(starts, dst[order], sizes, self.class_order)

    def curve(self, key_tolerances, sum_tolerances=None) -> dict[str, np.ndarray]:
        """Figures 6-7: key hits, sum-table hits and their ratio against tolerance.

        With one list, key and sum-table tolerances move together, as in the paper.
        """
        key_tolerances = np.asarray(key_tolerances, dtype=np.float64)
        sum_tolerances = key_tolerances if sum_tolerances is None else np.asarray(sum_tolerances)
        key_hits = np.array([self.counts(Tolerances(k, s)).key_hits
                             for k, s in zip(key_tolerances, sum_tolerances)])
        sum_hits = np.array([self.counts(Tolerances(k, s)).sum_hits
                             for k, s in zip(key_tolerances, sum_tolerances)])
        n = len(self.space.sizes)
        total = max(n * (n - 1) // 2, 1)
        return {"key_tolerance": key_tolerances, "sum_tolerance": sum_tolerances,
                "key_hits": key_hits, "sum_hits": sum_hits,
                "ratio": np.divide(sum_hits, np.maximum(key_hits, 1)),
                "key_fraction": key_hits / total, "sum_fraction": sum_hits / total}


@njit(cache=True)
def _greedy_groups(starts, neighbours, class_sizes, order):
    claimed = np.zeros(class_sizes.shape[0], np.bool_)
    groups = 0
    for c in order:
        if claimed[c]:
            continue
        claimed[c] = True
        near = 0
        for i in range(starts[c], starts[c + 1]):
            d = neighbours[i]
            if not claimed[d]:
                claimed[d] = True
                near += 1
        if near or class_sizes[c] > 1:
            groups += 1
    return groups
