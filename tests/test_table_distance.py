"""The vector L1 distance of two sum tables equals the count-by-count definition."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simgui.core.search.kernels.table_distance import l1_rows

INT32 = (-(2**31), 2**31 - 1)
#: int64 counts whose differences (and their sum over 16 counts) still fit in 64 bits
INT64 = (-(2**58), 2**58)


def l1(a, b) -> int:
    """The definition, in Python integers."""
    return sum(abs(int(u) - int(v)) for u, v in zip(a, b))


@njit(cache=False)
def _distance(tables, a, b):
    return l1_rows(tables, a, b)


def tables(dtype, bounds):
    low, high = bounds
    count = st.one_of(st.sampled_from([low, low + 1, -1, 0, 1, high - 1, high]),
                      st.integers(low, high))
    return st.lists(st.lists(count, min_size=16, max_size=16), min_size=1, max_size=6).map(
        lambda rows: np.array(rows, dtype))


@settings(max_examples=300, deadline=None)
@given(st.one_of(tables(np.int32, INT32), tables(np.int64, INT64)), st.data())
def test_the_distance_of_any_two_rows_is_the_sum_of_absolute_differences(rows, data):
    a = data.draw(st.integers(0, len(rows) - 1))
    b = data.draw(st.integers(0, len(rows) - 1))
    assert _distance(rows, a, b) == l1(rows[a], rows[b])
    assert _distance(rows, np.int32(a), np.uint64(b)) == l1(rows[a], rows[b])  # any index type


def test_rows_are_found_in_a_large_array_and_a_row_is_at_distance_zero_from_itself():
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 10**6, (5000, 16)).astype(np.int32)
    for a, b in rng.integers(0, 5000, (50, 2)):
        assert _distance(rows, a, b) == l1(rows[a], rows[b])
        assert _distance(rows, a, a) == 0
