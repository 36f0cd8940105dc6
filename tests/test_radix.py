"""The radix sort orders words exactly as a stable sort on the chosen bits does."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgui.core.search.workers as workers
from simgui.core.search.kernels.radix import sort_bits

TOP = 2 ** 64 - 1


def reference(words, lo_bit, hi_bit):
    """Python's stable sort on the field, read with Python's integers."""
    field = lambda w: (w >> lo_bit) & ((1 << (hi_bit - lo_bit)) - 1)  # noqa: E731
    return sorted(words, key=field)


edges = st.sampled_from([0, 1, 2, 0xFF, 0x7FF, 0x800, 2 ** 32, 2 ** 63 - 1, 2 ** 63, TOP - 1, TOP])
word_lists = st.lists(st.one_of(st.integers(0, TOP), edges), max_size=300)


@st.composite
def bit_ranges(draw):
    lo = draw(st.integers(0, 64))
    return lo, draw(st.integers(lo, 64))


@settings(max_examples=300, deadline=None)
@given(word_lists, bit_ranges())
def test_matches_a_stable_sort_on_the_bits(words, bits):
    got = sort_bits(np.array(words, dtype=np.uint64), *bits)
    assert got.dtype == np.uint64
    assert [int(w) for w in got] == reference(words, *bits)


@settings(max_examples=60, deadline=None)
@given(word_lists, bit_ranges(), st.integers(1, 7))
def test_split_between_threads_changes_nothing(words, bits, parallel_from):
    words = np.array(words, dtype=np.uint64)
    whole = sort_bits(words, *bits)
    old = workers.PARALLEL_FROM
    workers.PARALLEL_FROM = parallel_from  # (a fixture would not reset between examples)
    try:
        assert sort_bits(words, *bits).tolist() == whole.tolist()
    finally:
        workers.PARALLEL_FROM = old


def test_tiny_inputs_and_the_callers_array_is_left_alone():
    for words in ([], [5], [7, 3], [3, 3, 1], [TOP, 0, TOP]):
        a = np.array(words, dtype=np.uint64)
        before = a.copy()
        got = sort_bits(a)
        assert got.tolist() == sorted(words)
        assert a.tolist() == before.tolist()
        got[:] = 0  # a new array, not a view of the caller's
        assert a.tolist() == before.tolist()


def test_large_runs_of_equal_digits_and_an_index_below():
    # what the search sorts: a code above an index, runs of equal codes, all-zero digits
    rng = np.random.default_rng(4)
    codes = rng.integers(0, 40, 200_000).astype(np.uint64) << np.uint64(30)
    words = codes | np.arange(200_000, dtype=np.uint64)
    # the index fills the low 18 bits, in order already: sorting above them sorts all
    got = sort_bits(words, 18, 64)
    assert (got == np.sort(words)).all()
    assert (sort_bits(codes) == np.sort(codes)).all()
    assert (sort_bits(np.full(100_000, 77, np.uint64)) == 77).all()


def test_bits_outside_a_word_are_refused():
    for bits in ((-1, 10), (10, 65), (20, 10)):
        with pytest.raises(ValueError):
            sort_bits(np.zeros(3, np.uint64), *bits)
