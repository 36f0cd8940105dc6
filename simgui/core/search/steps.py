"""The sliders' steps, and the smallest tolerance at which a pair is a hit.

A pair of files is a key hit from some key tolerance on and a sum-table hit from
some sum-table tolerance on; both are found here with the search's own tests, to
the last rounding, and moved onto the slider steps so that a count at a step
equals a search at it bit for bit.  The search (simfind) uses this to tally the
pairs it meets without keeping them, and the statistics (tolerance_stats) to
count and group the pairs they keep.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgui.core.search.workers import in_chunks

#: No sum table is further than 16 x the size from another (each bit position
#: starts at most one counted match), so this sum tolerance disables the test.
ANY_SUM_TOLERANCE = 3200.0
#: The sliders' top (the issue's range, 0.01 % .. 10 %).
MAX_TOLERANCE = 10.0
#: Slider positions: two significant digits from 0.010 % to 10 % (0.010, 0.011,
#: ..., 0.99, 1.0, 1.1, ..., 9.9, 10), so every round value a user would type,
#: 3.2 among them, is a step.  Counts at steps are O(1) lookups.
TOLERANCE_STEPS = np.array(sorted({round(m / 10 * 10.0**e, 4) for e in (-2, -1, 0)
                                   for m in range(10, 100)} | {MAX_TOLERANCE}))
#: Steps per percent of the lookup table below: finer than the closest two steps.
_STEP_GRID = 1000
#: Entry i: the first step at or above i / _STEP_GRID.
_FIRST_STEP = np.searchsorted(TOLERANCE_STEPS,
                              np.arange(int(MAX_TOLERANCE * _STEP_GRID) + 1) / _STEP_GRID)


@njit(nogil=True, cache=True, inline="always")
def step_at_or_above(value):
    """``np.searchsorted(TOLERANCE_STEPS, value)``: the first step at or above ``value``
    (len(TOLERANCE_STEPS) above the top or for NaN).  A table lookup and a step or two,
    not a binary search with its unpredictable branches: this runs for every pair."""
    n = TOLERANCE_STEPS.shape[0]
    if not value <= TOLERANCE_STEPS[n - 1]:
        return n
    if value <= TOLERANCE_STEPS[0]:
        return 0
    # one cell lower than value * grid, so rounding never starts past the answer
    j = _FIRST_STEP[max(np.int64(value * _STEP_GRID) - 1, 0)]
    while TOLERANCE_STEPS[j] < value:
        j += 1
    return j


@njit(inline="always")
def key_hit(dk, big, key_tolerance):
    """The search's key test, to the last rounding (simfind's sweep and reference)."""
    return dk <= max(1.0, big * (key_tolerance / 100.0))


@njit(inline="always")
def sum_hit(l1, total, sum_tolerance):
    """The search's sum-table test, to the last rounding."""
    return l1 <= max(1.0, total * (sum_tolerance / 100.0) / 2.0)


@njit(inline="always")
def on_steps(value, hit, distance, size):
    """``value`` moved, if rounding needs it, so that ``value <= step`` is exactly ``hit``
    at every step: lookups at slider steps then equal searches bit for bit."""
    steps = TOLERANCE_STEPS
    n = steps.shape[0]
    j = step_at_or_above(value)
    while j < n and not hit(distance, size, steps[j]):
        j += 1
    while j > 0 and hit(distance, size, steps[j - 1]):
        j -= 1
    if j < n and value > steps[j]:
        value = steps[j]
    if j > 0 and value <= steps[j - 1]:
        value = np.nextafter(steps[j - 1], np.inf)
    return value


def pair_tolerances(pairs, sizes, keys, tables):
    """Smallest key and sum-table tolerance (percent) at which each pair is a hit."""
    m = pairs.shape[0]
    min_key = np.empty(m, np.float64)
    min_sum = np.empty(m, np.float64)
    in_chunks(pair_tolerances_in, m, pairs, sizes, keys, tables, min_key, min_sum)
    return min_key, min_sum


@njit(nogil=True, cache=True)
def pair_tolerances_in(lo, hi, pairs, sizes, keys, tables, min_key, min_sum):
    for p in range(lo, hi):
        a = pairs[p, 0]
        b = pairs[p, 1]
        l1 = 0
        for t in range(tables.shape[1]):
            d = tables[a, t] - tables[b, t]
            l1 += d if d >= 0 else -d
        min_key[p], min_sum[p] = smallest_tolerances(abs(keys[a] - keys[b]), sizes[a],
                                                     sizes[b], l1)


@njit(nogil=True, cache=True, inline="always")
def smallest_tolerances(dk, size_a, size_b, l1):
    """The smallest key and sum-table tolerance (percent, on the steps) at which two
    files whose keys are ``dk`` apart and whose sum tables ``l1`` apart are a hit."""
    big = max(size_a, size_b)
    # "at least 1": distances up to 1 hit at any tolerance
    k = 0.0 if dk <= 1 else 100.0 * dk / max(big, 1)
    total = size_a + size_b
    v = 0.0 if l1 <= 1 else 200.0 * l1 / max(total, 1)
    return (on_steps(k, key_hit, dk, big) if k > 0 else 0.0,
            on_steps(v, sum_hit, l1, total) if v > 0 else 0.0)


def tally(min_key: np.ndarray, min_sum: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``hist[i, j]``: the weight of the pairs first hit at key step i and sum-table step
    j (j = len(TOLERANCE_STEPS): at no sum-table step); pairs hit at no key step are left
    out.  What :func:`hits_at_steps` turns into counts."""
    n = len(TOLERANCE_STEPS)
    hist = np.zeros((n, n + 1), np.int64)
    _tally_in(min_key, min_sum, weight, hist)
    return hist


@njit(nogil=True, cache=True)
def _tally_in(min_key, min_sum, weight, hist):
    n = TOLERANCE_STEPS.shape[0]
    for p in range(min_key.shape[0]):
        i = step_at_or_above(min_key[p])
        if i < n:
            hist[i, step_at_or_above(min_sum[p])] += weight[p]
    return 0


def hits_at_steps(hist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From a :func:`tally`: the pairs hit at each key step (whatever their sum tables),
    and at each key step i and sum-table step j, as cumulative counts: a pair is
    counted from the first step at or above its smallest tolerance, the ``<=`` test a
    search makes, so lookups equal searches exactly."""
    n = len(TOLERANCE_STEPS)
    return hist.sum(axis=1).cumsum(), hist[:, :n].cumsum(axis=0).cumsum(axis=1)
