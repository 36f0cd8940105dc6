"""How many pairs a search will find, estimated before it runs, and how many fit in memory.

Dense collections (many files of one size and type) can have billions of pairs
within a wide tolerance, and every search holds the pairs it finds.  Their number
is estimated from a random sample of the files (pairs grow with the square of the
files), and set against the memory the system has available now, so that a search
at one tolerance (``simgui groups``, ``pairs``, the benchmarks) that would not fit
stops before it starts, and says which tolerance would (:func:`check_affordable`),
instead of being killed by the system.

The sliders' analysis needs no estimate: it keeps the sum-table hits up to the
largest slider step whose hits fit :func:`pair_budget`, counted as it finds them
(tolerance_stats.HeldHits), and tallies the key candidates without keeping them.

Below these limits everything stays exact: the estimate only decides whether to
search, never what a search finds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from simgui.core.memory import NotEnoughMemory, available_memory
from simgui.core.search.simfind import SearchSpace, Tolerances
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS
from simgui.core.units import format_bytes

#: Peak bytes per pair a search holds, measured with tracemalloc: 242 for a search at
#: one tolerance (benchmarks/bench_simfind.py's corpus, 100,000 files); KEPT for each
#: sum-table hit the sliders' statistics keep.  Kept for the slider steps alone
#: (ToleranceStats.build's ``steps_only``, the window's), a pair is held in 13 bytes
#: while the search runs and takes 22 at the peak of the build (its 13 and the 9 its
#: list keeps); on a store of /usr (116,843 files, 5.3 million pairs kept, the content
#: check on) the build peaked at 202 MB, 38 bytes a pair with the search's own buffers
#: (about 2 million pairs a thread, whatever the collection), 84 before.  32 planned: those
#: buffers weigh less a pair in a larger collection.  (It was 90 while each pair
#: kept its tolerances and share in float64, 180 while each pair was in two adjacency
#: lists.  With a content floor, the hits it drops are dropped a chunk of the search at
#: a time, as they are found, so they cost nothing that grows with the collection.)
BYTES_PER_PAIR = 250
BYTES_PER_KEPT_PAIR = 32
#: The share of the available memory a search may plan to use (the rest: the files'
#: columns, the window, the estimate's error).
SHARE_OF_MEMORY = 0.5
#: The budget when the system does not say what it has (not Linux, no /proc).
FALLBACK_BYTES = 4 << 30
#: Files in the sample the estimate searches.
SAMPLE = 2_000


def pair_budget(bytes_per_pair: int = BYTES_PER_KEPT_PAIR,
                available: int | None = None) -> int:
    """Pairs a search may hold: a share of the memory available now (at least a
    million, so a small machine still searches what it can)."""
    if available is None:
        available = available_memory()
    if available is None:
        available = FALLBACK_BYTES
    return max(1_000_000, int(available * SHARE_OF_MEMORY) // bytes_per_pair)


class _Sample:
    """A random sample of a space's searched files, searched like the whole."""

    def __init__(self, space: SearchSpace, seed: int = 0):
        reps = space.search_reps()
        self.whole = len(reps) <= SAMPLE
        if self.whole:
            self.space, self.scale = space, 1.0
            self.files = np.arange(len(space.sizes))
            return
        sample = np.sort(np.random.default_rng(seed).choice(reps, SAMPLE, replace=False))
        self.files = sample  # the space's file of each of the sample's
        self.scale = (len(reps) / SAMPLE) ** 2
        small = SearchSpace.build(space.sizes[sample], space.tables[sample],
                                  size_factor=space.size_factor,
                                  min_similar_size=space.min_similar_size,
                                  class_extra=space.ext_ids[sample].reshape(-1, 1))
        # the keys of the sample are the space's (scheme and extensions included)
        self.space = dataclasses.replace(small, keys=space.keys[sample],
                                         ext_ids=space.ext_ids[sample],
                                         extensions=space.extensions)

    def pairs(self, tolerances: Tolerances,
              overrides: Mapping[str, Tolerances] | None = None) -> float:
        """Estimated class pairs of the whole space at ``tolerances``."""
        return len(self.space.class_pairs(tolerances, overrides)) * self.scale

    def fitting_steps(self, count, steps: int, budget: int) -> int:
        """How many of the first ``steps`` slider steps give pairs that fit ``budget``
        with a margin for the estimate's error (half of it); ``count(step)``: the
        estimated pairs at a step, growing with it.  A bisection."""
        lo, hi = 0, steps  # steps below lo fit, from hi on they do not
        while lo < hi:
            mid = (lo + hi) // 2
            if count(float(TOLERANCE_STEPS[mid])) <= budget / 2:
                lo = mid + 1
            else:
                hi = mid
        return lo


def check_affordable(space: SearchSpace, tolerances: Tolerances,
                     overrides: Mapping[str, Tolerances] | None = None, *,
                     budget: int | None = None, seed: int = 0) -> None:
    """Raise :class:`NotEnoughMemory` if a search of ``space`` at ``tolerances`` would
    find more pairs than ``budget`` (default: what the memory available now holds),
    naming the largest key tolerance, at the same sum-table tolerance, that fits."""
    if budget is None:
        budget = pair_budget(BYTES_PER_PAIR)
    sample = _Sample(space, seed)
    if sample.whole:
        return
    expected = sample.pairs(tolerances, overrides)
    if expected <= budget / 2:
        return
    fits = sample.fitting_steps(
        lambda step: sample.pairs(Tolerances(step, tolerances.sum), overrides),
        int(np.searchsorted(TOLERANCE_STEPS, tolerances.key)), budget)
    available = available_memory() or FALLBACK_BYTES
    advice = (f"a key tolerance of {TOLERANCE_STEPS[fits - 1]:g} % fits" if fits else
              "no key tolerance fits at this sum-table tolerance; lower it too")
    raise NotEnoughMemory(
        f"at key tolerance {tolerances.key:g} % and sum-table tolerance {tolerances.sum:g} % "
        f"these {len(space.sizes):,} files have about {expected:,.0f} candidate pairs, which "
        f"need about {format_bytes(expected * BYTES_PER_PAIR)} of memory, and "
        f"{format_bytes(available)} is available: {advice}")
