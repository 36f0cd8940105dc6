"""The group table's kernels equal the numpy expressions they replace."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.search.group_rows import member_distances, member_order


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 60), st.integers(0, 400),
       st.sampled_from([np.int32, np.int64]), st.booleans())
def test_member_distances_equal_numpy(seed, n, m, dtype, extreme):
    rng = np.random.default_rng(seed)
    if extreme:  # runs of the largest counts, and equal rows
        tables = rng.choice([0, 2**31 - 1], (n, 16)).astype(dtype)
    else:
        tables = rng.integers(0, 1000, (n, 16)).astype(dtype)
    keys = rng.normal(0, 1e6, n)
    hashes = rng.integers(0, 3, (n, 2))
    rows, ref = rng.integers(0, n, m), rng.integers(0, n, m)
    sum_distance, key_distance, same_hash = member_distances(rows, ref, tables, keys, hashes)
    expected = np.abs(tables[rows].astype(np.int64) - tables[ref]).sum(axis=1)
    np.testing.assert_array_equal(sum_distance, expected)
    np.testing.assert_array_equal(key_distance, np.abs(keys[rows] - keys[ref]))
    np.testing.assert_array_equal(same_hash, (hashes[rows] == hashes[ref]).all(axis=1))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30), st.integers(0, 600),
       st.integers(1, 4))
def test_member_order_equals_a_lexsort(seed, n_groups, m, spread):
    """Groups of every size (insertion and merge sort), many ties before the path."""
    rng = np.random.default_rng(seed)
    # a few groups hold most rows, so some are long
    group = np.minimum(rng.geometric(0.3, m) - 1, n_groups - 1).astype(np.int64)
    is_reference = np.zeros(m, bool)
    for g in np.unique(group):
        is_reference[rng.choice(np.flatnonzero(group == g))] = True
    identical = rng.random(m) < 0.3
    sum_distance = rng.integers(0, spread, m)
    class_rank = rng.integers(0, spread, m)
    path_rank = rng.permutation(m)
    order, start = member_order(group, is_reference, identical, sum_distance, class_rank,
                                path_rank, n_groups)
    expected = np.lexsort((path_rank, class_rank, sum_distance, ~identical, ~is_reference,
                           group))
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(start, np.searchsorted(group[expected],
                                                         np.arange(n_groups + 1)))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30), st.integers(1, 600), st.booleans(),
       st.sampled_from(["int", "float", "nan"]))
def test_order_within_groups_equals_the_views_lexsort(seed, n_groups, m, descending, kind):
    """The groups view's member order: reference first, then by the column (ties in row
    order, unknown values last), short groups and long ones."""
    from simgui.core.search.group_rows import order_within_groups

    rng = np.random.default_rng(seed)
    sizes = np.bincount(np.minimum(rng.geometric(0.3, m) - 1, n_groups - 1),
                        minlength=n_groups)
    sizes = sizes[sizes > 0]
    start = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    rows = int(start[-1])
    group_of_row = np.repeat(np.arange(len(sizes)), sizes)
    if kind == "int":
        key = rng.integers(0, 5, rows)
    else:
        key = rng.integers(0, 5, rows).astype(np.float64) / 3
        if kind == "nan":
            key[rng.random(rows) < 0.2] = np.nan
    is_ref = np.zeros(rows, bool)
    is_ref[start[:-1]] = True
    expected = np.lexsort((np.arange(rows), -key if descending else key, ~is_ref, group_of_row))
    np.testing.assert_array_equal(order_within_groups(start, key, descending), expected)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 300), st.sampled_from([10, 2**40, 2**61]))
def test_largest_first_equals_a_lexsort(seed, n, top):
    """One key where it fits, a lexsort where it does not (bytes near 2**61)."""
    from simgui.core.search.group_rows import largest_first

    rng = np.random.default_rng(seed)
    group_bytes = rng.integers(0, top, n) if n else np.zeros(0, np.int64)
    group_bytes[rng.random(n) < 0.3] = 0  # ties
    tie = rng.permutation(n * 3)[:n]  # distinct ranks, not 0 .. n-1
    np.testing.assert_array_equal(largest_first(group_bytes, tie),
                                  np.lexsort((tie, -group_bytes)))
