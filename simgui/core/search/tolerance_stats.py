"""Hit counts and groups at any tolerance, as lookups: what sliders and the paper's Figures 6-7 need.

One search at the ceiling tolerances meets every candidate pair (of file
classes) and finds the smallest key tolerance and the smallest sum-table
tolerance at which it would be a hit.  Counts are of file pairs: a pair of
classes of sizes p and q stands for p*q pairs, and a class of k copies for
k(k-1)/2 pairs that hit at any tolerance.

- Key hits and sum-table hits at the slider steps (:data:`TOLERANCE_STEPS`)
  come from a histogram over the pairs of steps that the search fills as it
  meets each candidate, without keeping it (key candidates are tens of times
  the similar pairs: 56 million at 10 % among 100,000 files): O(1) lookups over
  the whole range, in 600 KB (and one more per chunk of the search while it runs).
  So do the similar pairs (those the content check confirms) at every key and sum-table
  step, for the check's setting: one pass over the pairs kept when the check moves.
- Groups are one greedy pass over adjacency lists of the pairs kept: the
  sum-table hits up to ``max_sum`` (what the memory available holds, counted as the
  search finds them, see :class:`HeldHits`), each list sorted by the slider step at or
  above its sum-table tolerance, so the pass stops at the first step beyond the
  slider: a few milliseconds for 100,000 files.  Each pair is in one list only, that of
  the class the pass takes first: a class claims only classes after it (those before
  it have all been claimed by its turn), so half the memory holds as many pairs.  Sum-table
  hits between steps are counted from the same lists.
- The window's statistics (``steps_only``) keep each pair as its neighbour, its key and
  sum-table steps and its equal MinHash slots: 9 bytes, where its tolerances, share and
  weight took 36, and 22 at the peak of the build, where 86 were taken.  On a real
  collection of a million files, the sum-table slider groups up to 1.1 % within 2 GB
  instead of 0.51 % (docs/speed.md).
"""
from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numba import njit

from simgui.core.search.methods import fewest_slots
from simgui.core.search.simfind import SearchSpace, Tolerances
from simgui.core.search import workers as _threads
from simgui.core.search.workers import map_threads
from simgui.core.search.steps import (  # noqa: F401  (TOLERANCE_STEPS, step_at_or_above: re-exported)
    ANY_SUM_TOLERANCE, MAX_TOLERANCE, TOLERANCE_STEPS, hits_at_steps, pair_tolerances,
    pair_tolerances_in, step_at_or_above, tally,
)


@njit(nogil=True, cache=True, inline="always")
def _beyond_all_later(value, tolerance):
    """Whether a list sorted as :func:`_adjacency` sorts it misses ``tolerance`` from
    ``value`` (itself above ``tolerance``) on: every later value lies above the step
    below ``value``'s, or, above the top step, at or above ``value``."""
    j = step_at_or_above(value)
    return j == TOLERANCE_STEPS.shape[0] or (j > 0 and TOLERANCE_STEPS[j - 1] >= tolerance)


@dataclass(frozen=True)
class HitCounts:
    #: file pairs passing the key test and the size filter (counted at the slider
    #: steps only: None between them)
    key_hits: int | None
    #: of those, pairs passing the sum-table test too: the paper's similar pairs (None
    #: between the steps when only the pairs above a content floor were kept)
    sum_hits: int | None
    groups: int  # groups find_groups would form (with the same reference order)
    all_pairs: int  # n(n-1)/2, to express the others as fractions
    #: of the sum-table hits, those the content check confirms (copies always are): the
    #: pairs called similar; equal to sum_hits when the check is off
    similar: int = -1

    def __post_init__(self):
        if self.similar < 0:
            object.__setattr__(self, "similar", self.sum_hits)


@dataclass(frozen=True)
class Assignment:
    """The classes of each group at some tolerance (greedy, in ``class_order``): group
    g's are ``group_classes[group_start[g]:group_start[g + 1]]``, its leader first (the
    class whose best file is the group's reference)."""

    group_start: np.ndarray  # int64 (g+1,)
    group_classes: np.ndarray  # int64
    n_classes: int

    @property
    def leaders(self) -> np.ndarray:
        return self.group_classes[self.group_start[:-1]]

    @property
    def group_of_class(self) -> np.ndarray:
        """int64 (n_classes,): each class's group, -1 for none."""
        out = np.full(self.n_classes, -1, np.int64)
        out[self.group_classes] = np.repeat(np.arange(len(self.group_start) - 1),
                                            np.diff(self.group_start))
        return out


@dataclass(frozen=True)
class ToleranceStats:
    space: SearchSpace
    key_hits_at: np.ndarray | None  # int64 (steps,): file pairs hit at each key step
    # candidates that can be sum-table hits below max_sum, as adjacency lists of
    # classes in the order grouping takes them: class class_order[p]'s neighbours are
    # adjacent_class[adjacent_start[p]:adjacent_start[p+1]] (so that the grouping pass
    # reads the lists in sequence), sorted by the step at or above hit_sum; each pair
    # appears once, in the list of its class that comes first in class_order (the
    # neighbours are the classes after it)
    adjacent_start: np.ndarray  # int64 (len(class_order) + 1,)
    adjacent_class: np.ndarray  # int32 (h,) (int64 from 2**31 classes)
    #: float64 (h,): smallest key tolerance (percent) that hits; None in statistics
    #: built for the slider steps alone (``steps_only``), which keep hit_key_step
    hit_key: np.ndarray | None
    hit_sum: np.ndarray | None  # float64 (h,): smallest sum-table tolerance that hits, ditto
    #: uint32 (h,) (int64 where a class has 65,536 files or more): file pairs each class
    #: pair stands for; None with ``steps_only`` (see :meth:`pair_weights`)
    weight: np.ndarray | None
    #: float64 (h,): estimated share of content in common, percent (NaN: unknown), for
    #: the content check (Tolerances.content); None when no pair has one, or where
    #: hit_slots holds it
    hit_content: np.ndarray | None
    # sum_hits_at[i, j]: file pairs hit at key TOLERANCE_STEPS[i] and sum TOLERANCE_STEPS[j]
    sum_hits_at: np.ndarray | None
    within: int  # pairs inside classes: hits at every tolerance
    max_key: float  # groups and counts up to this key tolerance,
    max_sum: float  # groups up to this sum-table tolerance,
    class_order: np.ndarray  # classes that can be in a group, in the order grouping takes them
    #: and counts up to this one (at the steps above max_sum), as the search tallied them
    counted_sum: float = -1.0
    #: the pairs kept all have at least this share of content in common (0: all kept),
    #: so the content check cannot be set lower, nor off
    content_floor: float = 0.0
    #: uint16 (h,): the slider step at or above hit_key and hit_sum (len(TOLERANCE_STEPS)
    #: above the top): what a grouping at slider steps reads, a third of the bytes
    hit_key_step: np.ndarray | None = None
    hit_sum_step: np.ndarray | None = None
    #: uint8 (h,): with ``steps_only`` and the content check, each pair's equal MinHash
    #: slots, whose share is ``slot_shares[hit_slots]`` (one byte a pair, not eight)
    hit_slots: np.ndarray | None = None
    slot_shares: np.ndarray | None = None
    #: with ``steps_only``: [(the equal slots the check last asked for, the weight of the
    #: pairs that pass it at each key and sum-table step, cumulative)], see
    #: :meth:`_confirmed_at_steps`
    _confirmed: list = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.counted_sum < self.max_sum:
            object.__setattr__(self, "counted_sum", self.max_sum)
        object.__setattr__(self, "_confirmed", [None])

    @property
    def pairs_kept(self) -> int:
        """The pairs of classes kept for groups (each is in one list)."""
        return len(self.adjacent_class)

    @property
    def steps_only(self) -> bool:
        """Whether these statistics group and count at the slider steps alone."""
        return self.hit_key is None

    @property
    def has_content(self) -> bool:
        """Whether the pairs kept have their shares of content (the check can be made)."""
        return self.hit_content is not None or self.hit_slots is not None

    def pair_weights(self) -> np.ndarray:
        """The file pairs each pair kept stands for (made from the classes' sizes where
        they are not kept)."""
        if self.weight is not None:
            return self.weight
        counts = np.diff(self.space.classes.members_start)
        owner = np.repeat(self.class_order, np.diff(self.adjacent_start))
        return counts[owner] * counts[self.adjacent_class]

    @classmethod
    def build(cls, space: SearchSpace, max_key: float = MAX_TOLERANCE,
              priority: np.ndarray | None = None, *,
              max_sum: float = MAX_TOLERANCE, key_hits: bool = True,
              content=None, overrides: Mapping[str, Tolerances] | None = None,
              content_floor: float = 0.0, max_kept: int | None = None,
              max_found: int | None = None, steps_only: bool = False) -> ToleranceStats:
        """Counts up to key tolerance ``max_key`` percent (the slider's top) and every
        sum-table step; groups up to ``max_key`` and ``max_sum``.

        One search at the ceilings tallies every key candidate as it meets it (a
        histogram over the pairs of slider steps) and keeps only the sum-table hits
        at ``max_sum``: the memory grows with those, not with the candidates.
        ``priority``: file indices, best reference first (as find_groups orders
        them), so that groups match find_groups; default: index order.
        ``key_hits=False`` skips the tally (a search at the ceilings, for groups at
        one tolerance): hits are then not counted.
        ``content``: ``content(pairs) -> float64 percent``, each pair's estimated share
        of content in common, for the content check after the sum table (a pair it
        rejects is a key and sum-table hit but never a similar pair); None: no check.
        ``overrides``: extension -> its own fixed tolerances (the paper's fix for
        formats with large shared headers); pairs of those extensions are hits at
        every tolerance or at none, whatever the sliders say, and only their
        similar pairs are met (and counted as key hits).
        ``content_floor``: keep for groups only the pairs with at least this share of
        content in common (the lowest the content check can be set to): the others
        can be similar at no setting of the check, which cannot then go lower, nor off
        (a new search does that).
        ``max_kept``: keep for groups at most this many pairs: ``max_sum`` is lowered to
        the largest slider step whose pairs are no more (counted exactly, once the
        search has found them; the counts still reach ``max_sum``).
        ``max_found``: hold at most this many pairs while searching: ``max_sum`` is
        lowered, a step at a time, as the pairs found pass it (see :class:`HeldHits`).
        ``steps_only``: group and count at the slider steps alone (what the window's
        sliders need), keeping each pair in 9 bytes instead of 36 and building in about
        a quarter of the memory (see :meth:`_build_on_steps`); with key hits only, and a
        content check only from MinHash slots (methods.ContentShares).  There
        ``max_found`` bounds the pairs of classes searched in several extensions too (the
        search does not hold them): the same statistics as without where ``max_kept`` is
        ``max_found``, as the window asks.
        """
        if steps_only:
            if not key_hits:
                raise ValueError("statistics for the slider steps alone count key hits")
            return cls._build_on_steps(space, max_key, priority, max_sum, content, overrides,
                                       content_floor, max_kept, max_found)
        fixed = space.override_ids(overrides)
        counts = np.diff(space.classes.members_start)
        hist = None
        if key_hits:
            weight = counts[space.classes.of_file]
            # under the floor, dropped as the search goes: a real collection's hits are
            # mostly unrelated files, too many to hold all at once at a million files
            above_floor = None
            if content is not None and content_floor > 0:
                at_least = getattr(content, "at_least", None)  # (methods.ContentShares)
                above_floor = ((lambda pairs: at_least(pairs, content_floor)) if at_least
                               else (lambda pairs: content(pairs) >= content_floor))
            held = None
            if max_found is not None:
                held = HeldHits(space, max_sum, max_found, _fixed_extensions(space, fixed))
            pairs, hist = space.tallied_pairs(Tolerances(max_key, ANY_SUM_TOLERANCE), max_sum,
                                              weight, overrides, keep=above_floor, hold=held)
            if held is not None:
                pairs = np.concatenate((held.pairs(), pairs))
                max_sum = min(max_sum, held.ceiling)
        else:
            pairs = space.class_pairs(Tolerances(max_key, max_sum), overrides)
        min_key, min_sum = pair_tolerances(pairs, space.sizes, space.keys, space.tables)
        if not key_hits:
            # every pair the search found is a hit at the ceiling, whatever the rounding
            np.minimum(min_key, max_key, out=min_key)
            np.minimum(min_sum, max_sum, out=min_sum)
        if fixed:
            # the search found exactly those extensions' hits at their own tolerances
            mine = np.isin(space.ext_ids[pairs[:, 0]], list(fixed))
            min_key[mine] = 0.0
            min_sum[mine] = 0.0
        shared = None if content is None else content(pairs)
        keep = None  # the pairs that go on, taken once
        if shared is not None and content_floor > 0:
            keep = shared >= content_floor  # NaN (no fingerprints) never passes the check
        if max_kept is not None and (len(pairs) if keep is None else keep.sum()) > max_kept:
            max_sum = _largest_step_holding(min_sum if keep is None else min_sum[keep],
                                            max_sum, max_kept)
            # only the pairs kept go on (from_pairs would drop the rest too): the others,
            # found under the search's own budget, were held beside the groups' lists
            # while those were made, and took as much memory again (a million real files)
            below = min_sum <= max_sum
            keep = below if keep is None else keep & below
        if keep is not None:
            pairs, min_key, min_sum = pairs[keep], min_key[keep], min_sum[keep]
            shared = None if shared is None else shared[keep]
        # handed over, so that the file pairs are let go once their classes are known
        handed = [pairs]
        del pairs
        stats = cls._from_handed(space, handed, min_key, min_sum, priority, max_key=max_key,
                                 max_sum=max_sum, key_hits=key_hits, content=shared,
                                 tallied=hist)
        if shared is not None and content_floor > 0:
            stats = dataclasses.replace(stats, content_floor=float(content_floor))
        return stats

    @classmethod
    def _build_on_steps(cls, space: SearchSpace, max_key: float, priority, max_sum: float,
                        content, overrides, content_floor: float, max_kept: int | None,
                        max_found: int | None) -> ToleranceStats:
        """:meth:`build` with ``steps_only``: each pair found is held from the start as its
        two files (four bytes each below 2**31 files), its key and sum-table steps (two
        bytes each) and its equal MinHash slots (one byte), 13 bytes where the pairs and
        their tolerances and shares in float64 took 48, and kept in its list as its
        neighbour, steps and slots (9 bytes, where 36 were kept); its weight is made
        from the sizes of its classes when it is counted.  Groups and counts are the
        same as :meth:`build`'s at every slider step (tests/test_tolerance_stats.py)."""
        if max_sum < TOLERANCE_STEPS[0]:
            raise ValueError(f"statistics for the slider steps alone group from the first "
                             f"step ({TOLERANCE_STEPS[0]:g} %) on")
        fixed = space.override_ids(overrides)
        counts = np.diff(space.classes.members_start)
        slots_of = shares = above_floor = None
        need = 0
        if content is not None:
            slots_of = getattr(content, "equal_slots", None)
            if slots_of is None:
                raise ValueError("statistics for the slider steps alone take the content "
                                 "check from MinHash slots (methods.ContentShares)")
            shares = content.shares_of_slots()
            if content_floor > 0:
                need = content.slots_needed(content_floor)
                above_floor = (lambda pairs: content.at_least(pairs, content_floor))
        held = HeldHits(space, max_sum, np.iinfo(np.int64).max if max_found is None
                        else max_found, _fixed_extensions(space, fixed), slots=slots_of,
                        need=need)
        extra, hist = space.tallied_pairs(Tolerances(max_key, ANY_SUM_TOLERANCE), max_sum,
                                          counts[space.classes.of_file], overrides,
                                          keep=above_floor, hold=held)
        # the pairs of classes searched in several extensions, which the search thinned
        # itself: held by the same rules (the floor, the fixed tolerances, the budget)
        held(extra)
        del extra
        pairs, key_step, sum_step, slots = held.columns()
        top = held.top
        if max_kept is not None and len(pairs) > max_kept:
            top = _top_step_holding(np.bincount(sum_step, minlength=len(TOLERANCE_STEPS) + 1),
                                    top, max_kept)
            keep = sum_step <= top
            pairs, key_step, sum_step = pairs[keep], key_step[keep], sum_step[keep]
            slots = None if slots is None else slots[keep]
        handed = [pairs]
        del pairs
        return cls._from_stepped(space, handed, key_step, sum_step, slots, priority, hist,
                                 max_key=max_key, max_sum=float(TOLERANCE_STEPS[top]),
                                 shares=shares, content_floor=content_floor if need else 0.0)

    @classmethod
    def _from_stepped(cls, space: SearchSpace, handed: list[np.ndarray], key_step, sum_step,
                      slots, priority, hist, *, max_key: float, max_sum: float, shares,
                      content_floor: float) -> ToleranceStats:
        """The adjacency lists of :meth:`_build_on_steps`' pairs (handed over in a list of
        one, let go once their classes are known)."""
        classes = space.classes
        counts, index, ca, cb = _classes_of_pairs(classes, handed)
        key_hits_at, sum_hits_at = hits_at_steps(hist)
        class_order = _grouping_order(classes, priority, len(space.sizes), ca, cb, counts)
        position = np.full(len(counts), -1, index)
        position[class_order] = np.arange(len(class_order))
        _to_lists(ca, cb, position)  # ca: the list each pair joins, cb: its neighbour
        del position
        start, neighbour, key_step, sum_step, slots = _adjacency_on_steps(
            ca, cb, key_step, sum_step, slots, len(class_order))
        return cls(space, key_hits_at, start, neighbour, None, None, None, None, sum_hits_at,
                   int((counts * (counts - 1) // 2).sum()), float(max_key), float(max_sum),
                   class_order, counted_sum=MAX_TOLERANCE, content_floor=float(content_floor),
                   hit_key_step=key_step, hit_sum_step=sum_step, hit_slots=slots,
                   slot_shares=shares)

    @classmethod
    def from_pairs(cls, space: SearchSpace, pairs: np.ndarray, min_key: np.ndarray,
                   min_sum: np.ndarray, priority: np.ndarray | None = None, *,
                   max_key: float, max_sum: float, key_hits: bool = True,
                   content: np.ndarray | None = None,
                   tallied: np.ndarray | None = None) -> ToleranceStats:
        """Statistics over pairs of classes (one pair of files each, as
        :meth:`SearchSpace.class_pairs` gives them) found by any search, with the
        smallest key and sum-table tolerance at which each is a hit (the other
        methods put their difference in the sum-table tolerance and 0 in the key);
        ``content``: each pair's share of content in common in percent, for the
        content check (None: no check is possible).  ``tallied``: the search's own
        tally of every pair it met (see :func:`simgui.core.search.steps.tally`), when
        ``pairs`` are only those it kept; else, with ``key_hits``, they are tallied here."""
        return cls._from_handed(space, [pairs], min_key, min_sum, priority, max_key=max_key,
                                max_sum=max_sum, key_hits=key_hits, content=content,
                                tallied=tallied)

    @classmethod
    def _from_handed(cls, space: SearchSpace, handed: list[np.ndarray], min_key: np.ndarray,
                     min_sum: np.ndarray, priority: np.ndarray | None = None, *,
                     max_key: float, max_sum: float, key_hits: bool = True,
                     content: np.ndarray | None = None,
                     tallied: np.ndarray | None = None) -> ToleranceStats:
        """:meth:`from_pairs`, the pairs handed over in a list of one (emptied here): where
        the caller holds them no more, their 16 bytes a pair are let go as soon as their
        classes are known, and the classes' as soon as each pair's list is."""
        classes = space.classes
        counts, index, ca, cb = _classes_of_pairs(classes, handed)
        key_hits_at = sum_hits_at = None
        if key_hits:
            key_hits_at, sum_hits_at = hits_at_steps(
                tally(min_key, min_sum, counts[ca] * counts[cb]) if tallied is None
                else tallied)
        keep = min_sum <= max_sum
        shared = np.full(len(ca), np.nan) if content is None else content
        if not keep.all():
            ca, cb, min_key, min_sum, shared = ca[keep], cb[keep], min_key[keep], \
                min_sum[keep], shared[keep]
        class_order = _grouping_order(classes, priority, len(space.sizes), ca, cb, counts)
        position = np.full(len(counts), -1, index)
        position[class_order] = np.arange(len(class_order))
        # each pair goes to the list of its class that grouping takes first
        la, lb = position[ca], position[cb]
        first_a = la < lb
        owner = np.where(first_a, la, lb)
        other = np.where(first_a, cb, ca)
        # (with the columns a file or a class each, no longer needed while the lists are
        # made: at a million files about 30 MB)
        del la, lb, first_a, ca, cb, position
        *adjacency, hit_content, key_step, sum_step = _adjacency(
            owner, other, min_key, min_sum, shared, class_order, counts)
        return cls(space, key_hits_at, *adjacency, None if content is None else hit_content,
                   sum_hits_at, int((counts * (counts - 1) // 2).sum()), float(max_key),
                   float(max_sum), class_order,
                   counted_sum=MAX_TOLERANCE if tallied is not None else float(max_sum),
                   hit_key_step=key_step, hit_sum_step=sum_step)

    def on_steps(self, tolerances: Tolerances) -> bool:
        """Whether both tolerances are slider steps."""
        return _step_index(tolerances.key) is not None and \
            _step_index(tolerances.sum) is not None

    def check_within(self, tolerances: Tolerances) -> None:
        """Raises ValueError where ``tolerances`` pass the ceilings or the content floor
        of these statistics (whether or not they are on the steps)."""
        self._check(tolerances, on_steps=False)

    def _check(self, tolerances: Tolerances, key_hits: bool = False,
               on_steps: bool = True) -> None:
        """Groups (and with ``key_hits`` counts) can be had at ``tolerances``."""
        if key_hits and self.key_hits_at is None:
            raise ValueError("these statistics were built without key hits")
        if tolerances.key > self.max_key or tolerances.sum > self.max_sum:
            raise ValueError(f"tolerances above the {self.max_key} % key and {self.max_sum} % "
                             "sum-table tolerance these statistics cover")
        if self.content_floor > 0 and not tolerances.content >= self.content_floor:
            raise ValueError(f"these statistics keep the pairs with at least "
                             f"{self.content_floor:g} % of their content in common only: the "
                             "content check cannot be lower, nor off")
        if on_steps and self.steps_only and not self.on_steps(tolerances):
            raise ValueError(f"these statistics group at the slider steps only, and "
                             f"{tolerances.key:g} % / {tolerances.sum:g} % is not one "
                             "(see TOLERANCE_STEPS)")

    def _check_counts(self, key: float, sum_: float) -> None:
        """Hits can be counted at ``key`` and ``sum_``: within the ceilings, or at a
        step up to the tallied sum-table range."""
        if self.key_hits_at is None:
            raise ValueError("these statistics were built without key hits")
        if key > self.max_key or (sum_ > self.max_sum and not (
                sum_ <= self.counted_sum and _step_index(sum_) is not None)):
            raise ValueError(f"tolerances above the {self.max_key} % key and "
                             f"{self.counted_sum} % sum-table tolerance these statistics count")

    def counts(self, tolerances: Tolerances) -> HitCounts:
        """Key hits, sum-table hits and groups at ``tolerances`` (within the ceilings)."""
        return self.counts_and_groups(tolerances)[0]

    def assign(self, tolerances: Tolerances) -> Assignment:
        """Groups at ``tolerances``, as find_groups forms them: classes are taken in
        ``class_order``; an unclaimed class claims its unclaimed neighbours."""
        self._check(tolerances)
        sizes = np.diff(self.space.classes.members_start)
        group_classes = np.empty(len(self.class_order), np.int64)
        group_start = np.empty(len(self.class_order) + 1, np.int64)
        key_step, sum_step = _step_index(tolerances.key), _step_index(tolerances.sum)
        # at slider steps (every move of the window's sliders): the steps of the hits
        at_steps = self.hit_key_step is not None and key_step is not None \
            and sum_step is not None
        content, least = self._content_test(tolerances)
        g, m = _greedy_groups(self.adjacent_start, self.adjacent_class,
                              self.hit_key_step if at_steps else self.hit_key,
                              self.hit_sum_step if at_steps else self.hit_sum,
                              content, float(key_step if at_steps else tolerances.key),
                              float(sum_step if at_steps else tolerances.sum),
                              least, sizes, self.class_order,
                              group_start, group_classes, at_steps)
        return Assignment(group_start[:g + 1].copy(), group_classes[:m].copy(), len(sizes))

    def counts_and_groups(self, tolerances: Tolerances) -> tuple[HitCounts, Assignment]:
        """Both at once, which is what a slider move needs.  Groups are one sequential
        pass; the pairs the content check confirms are counted beside it on the other
        worker threads (passes over every pair within the slider: 200 ms at 7.7 million
        pairs on one thread, measured while each pair was in two lists)."""
        self._check(tolerances, key_hits=True)
        n = len(self.space.sizes)
        sum_hits = self._sum_hits(tolerances.key, tolerances.sum)
        similar = sum_hits
        if tolerances.content > 0 and self.steps_only:
            # a lookup, in a table made once for the check's setting
            assignment = self.assign(tolerances)
            confirmed = self._confirmed_at_steps(self._content_test(tolerances)[1])
            similar = int(confirmed[_step_index(tolerances.key),
                                    _step_index(tolerances.sum)]) + self.within
        elif tolerances.content > 0:
            content, least = self._content_test(tolerances)
            cuts = _even_cuts(self.adjacent_start, max(1, _threads.workers() - 1)
                              if self.pairs_kept >= _threads.PARALLEL_FROM else 1)

            def run(i):
                return _weight_within(cuts[i], cuts[i + 1], self.adjacent_start, self.hit_key,
                                      self.hit_sum, self.weight, content,
                                      float(tolerances.key), float(tolerances.sum), least)

            assignment, within = _threads.beside(run, range(len(cuts) - 1),
                                                 lambda: self.assign(tolerances))
            similar = sum(within) + self.within
        else:
            assignment = self.assign(tolerances)
        return HitCounts(key_hits=self._key_hits(tolerances.key), sum_hits=sum_hits,
                         groups=len(assignment.group_start) - 1, all_pairs=n * (n - 1) // 2,
                         similar=similar), assignment

    def _confirmed_at_steps(self, least: float) -> np.ndarray:
        """int64 (steps, steps): the file pairs kept whose equal MinHash slots are at least
        ``least`` and that are hits at key step i and sum-table step j, cumulative.  One
        pass over every pair kept, on the worker threads, made again only when the
        content check moves: a move of the other sliders looks its count up (the pass
        over the pairs within them took 38 ms a move at 12 million pairs)."""
        memo = self._confirmed[0]  # (one read: another thread may replace it)
        if memo is not None and memo[0] == least:
            return memo[1]
        n = len(TOLERANCE_STEPS)
        cuts = _even_cuts(self.adjacent_start, _threads.workers()
                          if self.pairs_kept >= _threads.PARALLEL_FROM else 1)
        sizes = np.diff(self.space.classes.members_start)
        least_slots = min(int(least), int(np.iinfo(self.hit_slots.dtype).max))

        def run(i):
            hist = np.zeros((n + 1, n + 1), np.int64)
            _tally_confirmed(cuts[i], cuts[i + 1], self.adjacent_start, self.adjacent_class,
                             self.hit_key_step, self.hit_sum_step, self.hit_slots,
                             self.class_order, sizes, least_slots, hist)
            return hist

        hist = sum(map_threads(run, range(len(cuts) - 1)), np.zeros((n + 1, n + 1), np.int64))
        table = hist[:n, :n].cumsum(axis=0).cumsum(axis=1)
        self._confirmed[0] = (least, table)
        return table

    def counts_from_pairs(self, tolerances: Tolerances, assignment: Assignment) -> HitCounts:
        """Counts at ``tolerances`` of statistics built without key hits (a search at one
        tolerance), from the pairs they keep: key hits unknown (None)."""
        self._check(tolerances)
        content, least = self._content_test(tolerances)
        n = len(self.space.sizes)
        sum_hits = self._sum_hits(tolerances.key, tolerances.sum)
        similar = _weight_within(0, len(self.adjacent_start) - 1, self.adjacent_start,
                                 self.hit_key, self.hit_sum, self.weight, content,
                                 float(tolerances.key), float(tolerances.sum), least) \
            + self.within
        return HitCounts(key_hits=None, sum_hits=sum_hits,
                         groups=len(assignment.group_start) - 1, all_pairs=n * (n - 1) // 2,
                         similar=similar)

    def _content_test(self, tolerances: Tolerances) -> tuple[np.ndarray, float]:
        """What the content check compares, and the least it lets pass: the pairs'
        shares and ``tolerances.content``, or their equal MinHash slots and the fewest
        whose share is ``tolerances.content`` or more (the same test); 0: the check is
        off."""
        if tolerances.content > 0 and not self.has_content:
            raise ValueError("these statistics were built without the content of their "
                             "pairs, so the content check cannot be made")
        if tolerances.content <= 0:  # any array of the right length: the check is off
            return (self.hit_sum_step if self.steps_only else self.hit_sum), 0.0
        if self.hit_slots is not None:
            return self.hit_slots, float(fewest_slots(self.slot_shares, tolerances.content))
        return self.hit_content, float(tolerances.content)

    def _key_hits(self, key: float) -> int | None:
        """Key hits are tallied at the steps (the pairs that are only key hits are not
        kept), so None between them; above the top step every pair counted is one."""
        i = _step_index(key)
        if i is None and key > TOLERANCE_STEPS[-1]:
            i = len(TOLERANCE_STEPS) - 1
        return None if i is None else int(self.key_hits_at[i]) + self.within

    def _sum_hits(self, key: float, sum_: float) -> int | None:
        """Tallied at the steps; between them counted from the pairs kept (None when
        those are only the ones above a content floor)."""
        i, j = _step_index(key), _step_index(sum_)
        if i is not None and j is not None and self.sum_hits_at is not None:
            return int(self.sum_hits_at[i, j]) + self.within
        if self.content_floor > 0 or self.steps_only:
            return None
        return _weight_within(0, len(self.adjacent_start) - 1, self.adjacent_start,
                              self.hit_key, self.hit_sum, self.weight,
                              self.hit_sum, float(key), float(sum_), 0.0) + self.within

    def curve(self, key_tolerances, sum_tolerances=None) -> dict[str, np.ndarray]:
        """Figures 6-7: key hits, sum-table hits and their ratio against tolerance.

        With one list, key and sum-table tolerances move together, as in the paper.
        """
        key_tolerances = np.asarray(key_tolerances, dtype=np.float64)
        sum_tolerances = key_tolerances if sum_tolerances is None else np.asarray(sum_tolerances)
        for k, s in zip(key_tolerances, sum_tolerances):
            self._check_counts(k, s)
            if self._key_hits(k) is None:
                raise ValueError(f"key hits are counted at the slider steps, and {k:g} % is "
                                 "not one (see TOLERANCE_STEPS)")
        key_hits = np.array([self._key_hits(k) for k in key_tolerances], dtype=np.int64)
        sum_hits = [self._sum_hits(k, s) for k, s in zip(key_tolerances, sum_tolerances)]
        if None in sum_hits:
            raise ValueError("these statistics count sum-table hits at the slider steps only")
        sum_hits = np.array(sum_hits, dtype=np.int64)
        n = len(self.space.sizes)
        total = max(n * (n - 1) // 2, 1)
        return {"key_tolerance": key_tolerances, "sum_tolerance": sum_tolerances,
                "key_hits": key_hits, "sum_hits": sum_hits,
                "ratio": np.divide(sum_hits, np.maximum(key_hits, 1)),
                "key_fraction": key_hits / total, "sum_fraction": sum_hits / total}


#: Pairs HeldHits takes at a time.
_HELD_SLICE = 1 << 16


class HeldHits:
    """The sum-table hits a search keeps for groups, held as it finds them, up to a
    ceiling it lowers a slider step at a time whenever they pass ``budget``: at the end,
    exactly the hits up to the largest step whose hits fit (a hit below the first step
    is kept whatever their number), with no estimate made before the search.

    ``hold(pairs)`` is called on the search's threads with each chunk's hits; pairs of
    extensions in ``fixed`` (their own tolerances) are hits at every step.  Each hit is
    held as its two files (four bytes each below 2**31 files), its key and sum-table
    steps, and with ``slots`` (``slots(pairs)``, methods.ContentShares.equal_slots) its
    equal MinHash slots, of which it needs at least ``need``."""

    def __init__(self, space: SearchSpace, ceiling: float, budget: int,
                 fixed: np.ndarray | None = None, *, slots=None, need: int = 0):
        self.space, self.budget = space, int(budget)
        self.fixed = fixed if fixed is not None and fixed.any() else None
        self.slots, self.need = slots, int(need)
        self.keys = np.ascontiguousarray(space.keys, np.float64)
        self.index = np.int32 if len(space.sizes) < 2**31 else np.int64
        # index of the top step kept (every pair found is a hit at ``ceiling``)
        self.top = max(int(np.searchsorted(TOLERANCE_STEPS, ceiling, side="right")) - 1, 0)
        self.ceiling = float(ceiling)
        #: (files, key step, sum-table step, equal slots or None) of each chunk
        self.parts: list[list] = []
        self.per_step = np.zeros(len(TOLERANCE_STEPS) + 1, np.int64)
        self.lock = threading.Lock()

    def __call__(self, pairs: np.ndarray) -> None:
        # (in slices: a chunk of the search can give millions, and each pair's
        # tolerances take 16 bytes while its steps are found)
        for lo in range(0, len(pairs), _HELD_SLICE):
            self._hold(pairs[lo:lo + _HELD_SLICE])

    def _hold(self, pairs: np.ndarray) -> None:
        slots = None
        if self.slots is not None:
            slots = self.slots(pairs)
            if self.need:
                enough = slots >= self.need
                pairs, slots = pairs[enough], slots[enough]
        m = len(pairs)
        min_key, min_sum = np.empty(m), np.empty(m)
        pair_tolerances_in(0, m, pairs, self.space.sizes, self.keys, self.space.tables,
                           min_key, min_sum)
        if self.fixed is not None:
            mine = self.fixed[self.space.ext_ids[pairs[:, 0]]]
            min_key[mine] = 0.0
            min_sum[mine] = 0.0
        # the first step at which each is a hit (271 steps, and one past them)
        step = np.searchsorted(TOLERANCE_STEPS, min_sum).astype(np.uint16)
        key_step = np.searchsorted(TOLERANCE_STEPS, min_key).astype(np.uint16)
        del min_key, min_sum
        with self.lock:
            inside = step <= self.top
            self.parts.append([pairs[inside].astype(self.index), key_step[inside],
                               step[inside], None if slots is None else slots[inside]])
            self.per_step += np.bincount(step[inside], minlength=len(self.per_step))
            top = _top_step_holding(self.per_step, self.top, self.budget)
            if top < self.top:
                self.top = top
                self.ceiling = float(TOLERANCE_STEPS[top])
                for part in self.parts:
                    inside = part[2] <= top
                    if not inside.all():
                        part[:] = [None if c is None else c[inside] for c in part]
                self.per_step[self.top + 1:] = 0

    def pairs(self) -> np.ndarray:
        """What was held, at the final ceiling: the pairs of files (int64)."""
        return self.columns()[0].astype(np.int64)

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """What was held, at the final ceiling, and let go here: (files, key step,
        sum-table step, equal slots or None), each column made whole while the chunks'
        let go of theirs (so a column's bytes at most are held twice)."""
        parts, self.parts = self.parts, []
        out = []
        for i, empty in enumerate((np.zeros((0, 2), self.index), np.zeros(0, np.uint16),
                                   np.zeros(0, np.uint16), np.zeros(0, np.uint8))):
            column = [p[i] for p in parts]
            for p in parts:
                p[i] = None
            if i == 3 and (self.slots is None or not column):
                out.append(None if self.slots is None else empty)
                continue
            out.append(np.concatenate(column) if column else empty)
            del column
        return tuple(out)


def _largest_step_holding(min_sum: np.ndarray, max_sum: float, max_kept: int) -> float:
    """The largest slider step up to ``max_sum`` at which at most ``max_kept`` of the pairs
    (each a hit from sum-table tolerance ``min_sum``) are hits.  The first step's pairs
    are kept whatever their number (the slider's lowest step always groups), and below
    the first step ``max_sum`` itself."""
    top = int(np.searchsorted(TOLERANCE_STEPS, max_sum, side="right")) - 1  # at or below
    if top < 0:
        return float(max_sum)
    steps = np.searchsorted(TOLERANCE_STEPS, min_sum)  # each pair's first step
    per_step = np.bincount(steps, minlength=len(TOLERANCE_STEPS) + 1)
    return float(TOLERANCE_STEPS[_top_step_holding(per_step, top, max_kept)])


def _top_step_holding(per_step: np.ndarray, top: int, most: int) -> int:
    """The largest step index up to ``top`` at which at most ``most`` pairs are hits
    (``per_step``: the pairs first hit at each step); the first step whatever its
    number."""
    fits = np.flatnonzero(np.cumsum(per_step)[:top + 1] <= most)
    return int(fits[-1]) if len(fits) else 0


def _step_index(tolerance: float) -> int | None:
    i = int(np.searchsorted(TOLERANCE_STEPS, tolerance))
    return i if i < len(TOLERANCE_STEPS) and TOLERANCE_STEPS[i] == tolerance else None


def _fixed_extensions(space: SearchSpace, fixed) -> np.ndarray:
    """bool per extension id: those with their own fixed tolerances (``fixed``, as
    :meth:`SearchSpace.override_ids` gives them)."""
    out = np.zeros(int(space.ext_ids.max(initial=0)) + 1, np.bool_)
    out[list(fixed)] = True
    return out


def _even_cuts(start: np.ndarray, parts: int) -> np.ndarray:
    """int64: ranges of the lists that ``start`` bounds, ``parts`` of them or fewer, each
    of about as many pairs (list i of ``start[i]`` .. ``start[i + 1]``), as the bounds
    0 = cuts[0] < ... < cuts[-1] = the lists."""
    n_lists, m = len(start) - 1, int(start[-1])
    cuts = np.searchsorted(start, np.linspace(0, m, parts + 1)[1:-1])
    return np.unique(np.concatenate(([0], cuts, [n_lists]))).astype(np.int64)


def _classes_of_pairs(classes, handed: list[np.ndarray]):
    """(each class's size, the type of class numbers, the classes of each pair of files
    handed over in a list of one, which is emptied: the pairs are let go here).  Class
    numbers take four bytes where they fit: these columns, per pair, are much of the
    memory the statistics take while they are made."""
    pairs = handed.pop()
    counts = np.diff(classes.members_start)
    index = np.int32 if len(counts) < 2**31 else np.int64
    of_file = classes.of_file.astype(index)
    ca, cb = of_file[pairs[:, 0]], of_file[pairs[:, 1]]
    return counts, index, ca, cb


def _grouping_order(classes, priority, n_files: int, ca: np.ndarray, cb: np.ndarray,
                    counts: np.ndarray) -> np.ndarray:
    """The classes that can be in a group, in the order grouping takes them: a class's
    turn comes with its best file (``priority``: files, best first; None: index
    order).  A single file with no candidate pair (pairs ``ca[i]``, ``cb[i]`` of
    classes) forms no group and joins none: the grouping pass skips them (six in ten
    classes of a million synthetic files)."""
    if priority is None:
        priority = np.arange(n_files)
    of_file = classes.of_file[np.asarray(priority)]
    _, first_seen = np.unique(of_file, return_index=True)
    class_order = of_file[np.sort(first_seen)]
    degree = np.bincount(ca, minlength=len(counts)) + np.bincount(cb, minlength=len(counts))
    return class_order[(degree[class_order] > 0) | (counts[class_order] > 1)]


@njit(nogil=True, cache=True)
def _to_lists(ca, cb, position):
    """In place: each pair of classes ``ca[p]``, ``cb[p]`` becomes the list it joins (of
    its class that grouping takes first, by ``position``) in ``ca`` and the other class
    in ``cb``."""
    for p in range(ca.shape[0]):
        a = ca[p]
        b = cb[p]
        if position[a] < position[b]:
            ca[p] = position[a]
        else:
            ca[p] = position[b]
            cb[p] = a
    return 0


def _adjacency_on_steps(owner, other, key_step, sum_step, slots, n_lists):
    """:func:`_adjacency` for :meth:`ToleranceStats._build_on_steps`: pairs dealt to their
    lists in one pass (9 bytes a pair made while the 13 given are held), then each list
    sorted by its sum-table step where it lies, on the worker threads.  Returns (start,
    neighbour, key_step, sum_step, slots)."""
    start = np.zeros(n_lists + 1, np.int64)
    start[1:] = np.cumsum(np.bincount(owner, minlength=n_lists))
    m = int(start[-1])
    neighbour = np.empty(m, other.dtype)
    keys, sums = np.empty(m, np.uint16), np.empty(m, np.uint16)
    has_slots = slots is not None
    dealt_slots = np.empty(m if has_slots else 0, slots.dtype if has_slots else np.uint8)
    given_slots = slots if has_slots else dealt_slots
    _deal_on_steps(owner, other, key_step, sum_step, given_slots, has_slots, start, neighbour,
                   keys, sums, dealt_slots)
    cuts = _even_cuts(start, _threads.workers() * _PARTS_PER_THREAD
                      if m >= _threads.PARALLEL_FROM else 1)
    map_threads(lambda i: _sort_on_steps(cuts[i], cuts[i + 1], start, neighbour, keys, sums,
                                         dealt_slots, has_slots),
                range(len(cuts) - 1))
    return start, neighbour, keys, sums, dealt_slots if has_slots else None


@njit(nogil=True, cache=True)
def _deal_on_steps(owner, other, key_step, sum_step, slots, has_slots, start, neighbour, keys,
                   sums, dealt_slots):
    """Each pair to the end of its list so far (in the order given)."""
    fill = start[:-1].copy()
    for p in range(owner.shape[0]):
        c = owner[p]
        x = fill[c]
        neighbour[x] = other[p]
        keys[x] = key_step[p]
        sums[x] = sum_step[p]
        if has_slots:
            dealt_slots[x] = slots[p]
        fill[c] = x + 1
    return 0


@njit(nogil=True, cache=True, inline="always")
def _longest(start, c0, c1):
    """The length of the longest of lists c0 .. c1-1."""
    longest = 0
    for c in range(c0, c1):
        longest = max(longest, start[c + 1] - start[c])
    return longest


@njit(nogil=True, cache=True)
def _sort_on_steps(c0, c1, start, neighbour, keys, sums, slots, has_slots):
    """Lists c0 .. c1-1 sorted by sum-table step where they lie, stably: a counting sort
    (no comparisons), and an insertion sort for short lists."""
    longest = _longest(start, c0, c1)
    n_buckets = TOLERANCE_STEPS.shape[0] + 1
    at = np.empty(n_buckets + 1, np.int64)
    t_neighbour = np.empty(longest, neighbour.dtype)
    t_keys = np.empty(longest, np.uint16)
    t_sums = np.empty(longest, np.uint16)
    t_slots = np.empty(longest if has_slots else 0, slots.dtype)
    for c in range(c0, c1):
        lo = start[c]
        hi = start[c + 1]
        if hi - lo < 2:
            continue
        if hi - lo <= 32:
            for i in range(lo + 1, hi):
                s = sums[i]
                j = i
                if sums[j - 1] <= s:
                    continue
                n, k = neighbour[i], keys[i]
                sl = slots[i] if has_slots else 0
                while j > lo and sums[j - 1] > s:
                    neighbour[j] = neighbour[j - 1]
                    keys[j] = keys[j - 1]
                    sums[j] = sums[j - 1]
                    if has_slots:
                        slots[j] = slots[j - 1]
                    j -= 1
                neighbour[j] = n
                keys[j] = k
                sums[j] = s
                if has_slots:
                    slots[j] = sl
            continue
        at[:] = 0
        for i in range(lo, hi):
            at[sums[i] + 1] += 1
        for b in range(n_buckets):
            at[b + 1] += at[b]
        for i in range(lo, hi):
            x = at[sums[i]]
            at[sums[i]] = x + 1
            t_neighbour[x] = neighbour[i]
            t_keys[x] = keys[i]
            t_sums[x] = sums[i]
            if has_slots:
                t_slots[x] = slots[i]
        for x in range(hi - lo):
            neighbour[lo + x] = t_neighbour[x]
            keys[lo + x] = t_keys[x]
            sums[lo + x] = t_sums[x]
            if has_slots:
                slots[lo + x] = t_slots[x]
    return 0


#: parts of the adjacency lists dealt by each thread, one after another
_PARTS_PER_THREAD = 4


def _adjacency(owner, other, min_key, min_sum, content, class_order, class_counts):
    """Pairs of classes as adjacency lists: class ``other[p]`` joins list ``owner[p]``.
    Each list is sorted by the slider step at or above the sum-table tolerance (the
    selective test), and above the top step by the tolerance itself: a pass over a list
    stops at the first step beyond the slider.

    Each pair's weight (the file pairs it stands for) is made from ``class_counts``
    where it is dealt, in four bytes where no class has 65,536 files.

    Returns (start, neighbour, hit_key, hit_sum, hit_weight, hit_content, key_step,
    sum_step), the last two the steps at or above hit_key and hit_sum; list l is
    start[l] .. start[l + 1].  The lists are cut into ranges of about as many edges
    each, a few per worker thread, and each range's are dealt and sorted by one."""
    n_lists = len(class_order)
    start = np.zeros(n_lists + 1, np.int64)
    start[1:] = np.cumsum(np.bincount(owner, minlength=n_lists))
    m = int(start[-1])
    neighbour = np.empty(m, np.int32 if other.max(initial=0) < 2**31 else np.int64)
    hit_key = np.empty(m, np.float64)
    hit_sum = np.empty(m, np.float64)
    hit_weight = np.empty(m, np.uint32 if class_counts.max(initial=1) < 2**16 else np.int64)
    hit_content = np.empty(m, np.float64)
    key_step = np.empty(m, np.uint16)
    sum_step = np.empty(m, np.uint16)
    # more parts than threads: each part's records (40 bytes an edge) live while it is
    # dealt, so at most a thread's worth of them at once (each part reads every pair)
    cuts = _even_cuts(start, _threads.workers() * _PARTS_PER_THREAD
                      if len(owner) >= _threads.PARALLEL_FROM else 1)
    map_threads(lambda i: _adjacency_of(cuts[i], cuts[i + 1], owner, other, min_key, min_sum,
                                        content, class_order, class_counts, start, neighbour,
                                        hit_key, hit_sum, hit_weight, hit_content, key_step,
                                        sum_step),
                range(len(cuts) - 1))
    return start, neighbour, hit_key, hit_sum, hit_weight, hit_content, key_step, sum_step


@njit(nogil=True, cache=True)
def _adjacency_of(c0, c1, owner, other, min_key, min_sum, content, class_order, class_counts,
                  start, neighbour, hit_key, hit_sum, hit_weight, hit_content, key_step,
                  sum_step):
    """Lists c0 .. c1-1 (see :func:`_adjacency`): every pair is read, those joining these
    lists are dealt to them as one 40-byte record, then each list is sorted where it
    lies."""
    base = start[c0]
    fill = start[c0:c1] - base
    # hit_sum, hit_key, neighbour, weight, content
    records = np.empty((start[c1] - base, 5), np.float64)
    for p in range(owner.shape[0]):
        c = owner[p]
        if c0 <= c < c1:
            x = fill[c - c0]
            records[x, 0] = min_sum[p]
            records[x, 1] = min_key[p]
            records[x, 2] = other[p]  # class numbers and weights stay exact below 2**53
            records[x, 3] = class_counts[class_order[c]] * class_counts[other[p]]
            records[x, 4] = content[p]
            fill[c - c0] = x + 1
    longest = _longest(start, c0, c1)
    n_buckets = TOLERANCE_STEPS.shape[0] + 1
    at = np.empty(n_buckets + 1, np.int64)
    bucket = np.empty(longest, np.int64)
    placed = np.empty(longest, np.int64)
    for c in range(c0, c1):
        lo = start[c] - base
        k = start[c + 1] - start[c]
        # a counting sort on the step at or above each hit_sum: stable, and no
        # comparisons (a comparison sort took 50-80 ns an edge, most of the build)
        at[:] = 0
        for i in range(k):
            b = step_at_or_above(records[lo + i, 0])
            bucket[i] = b
            at[b + 1] += 1
        for b in range(n_buckets):
            at[b + 1] += at[b]
        above = at[n_buckets - 1]  # where the values above the top step begin
        for i in range(k):
            placed[at[bucket[i]]] = lo + i
            at[bucket[i]] += 1
        if k - above > 1:
            # above the top step (the fingerprint methods' differences reach 60 %)
            # no step bounds a value: these few are sorted by value itself
            by = np.argsort(records[placed[above:k], 0], kind="mergesort")
            placed[above:k] = placed[above:k][by]
        for i in range(k):
            r = placed[i]
            q = base + lo + i
            hit_sum[q] = records[r, 0]
            hit_key[q] = records[r, 1]
            neighbour[q] = np.int64(records[r, 2])
            hit_weight[q] = np.int64(records[r, 3])
            hit_content[q] = records[r, 4]
            key_step[q] = step_at_or_above(records[r, 1])
            sum_step[q] = step_at_or_above(records[r, 0])
    return 0


@njit(nogil=True, cache=True, inline="always")
def _confirmed(content, min_content):
    """The content check: off at 0; an unknown share (NaN) never passes it."""
    return min_content <= 0.0 or content >= min_content


@njit(nogil=True, cache=True)
def _weight_within(c0, c1, starts, hit_key, hit_sum, weight, content, key_tol, sum_tol,
                   min_content):
    """The weight of the pairs within the tolerances, from lists c0 .. c1-1."""
    total = 0
    for c in range(c0, c1):
        for i in range(starts[c], starts[c + 1]):
            if hit_sum[i] > sum_tol:
                if _beyond_all_later(hit_sum[i], sum_tol):
                    break
                continue
            if hit_key[i] <= key_tol and _confirmed(content[i], min_content):
                total += weight[i]
    return total


@njit(nogil=True, cache=True)
def _tally_confirmed(c0, c1, starts, neighbours, key_step, sum_step, slots, order, class_sizes,
                     least, hist):
    """Adds to ``hist[i, j]`` the weight of the pairs of lists c0 .. c1-1 with at least
    ``least`` equal slots, first hit at key step i and sum-table step j."""
    for c in range(c0, c1):
        size = class_sizes[order[c]]
        for i in range(starts[c], starts[c + 1]):
            if slots[i] >= least:
                hist[key_step[i], sum_step[i]] += size * class_sizes[neighbours[i]]
    return 0


@njit(nogil=True, cache=True)
def _greedy_groups(starts, neighbours, hit_key, hit_sum, content, key_tol, sum_tol, min_content,
                   class_sizes, order, group_start, group_classes, at_steps):
    """Groups as (group count, classes written): see :class:`Assignment`.  With
    ``at_steps``, ``hit_key`` and ``hit_sum`` are the hits' slider steps and the
    tolerances step indices: a hit's tolerance is at or below a step exactly when its
    step is (see steps.on_steps), a third of the bytes to read."""
    claimed = np.zeros(class_sizes.shape[0], np.bool_)
    groups = 0
    m = 0
    for p in range(order.shape[0]):  # class order[p]'s list is the p-th
        c = order[p]
        if claimed[c]:
            continue
        claimed[c] = True
        near = 0
        group_classes[m] = c  # the leader first
        for i in range(starts[p], starts[p + 1]):
            if hit_sum[i] > sum_tol:
                # each list is sorted by step: at a step, every later hit is beyond it
                if at_steps or _beyond_all_later(hit_sum[i], sum_tol):
                    break
                continue
            d = neighbours[i]
            if hit_key[i] <= key_tol and not claimed[d] and _confirmed(content[i], min_content):
                claimed[d] = True
                near += 1
                group_classes[m + near] = d
        if near or class_sizes[c] > 1:
            group_start[groups] = m
            m += near + 1
            groups += 1
    group_start[groups] = m
    return groups, m
