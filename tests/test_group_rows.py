"""The group table's kernels equal the numpy expressions they replace."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.search.group_rows import ClassRecords, group_columns


def numpy_columns(group_of_class, leaders, class_best, members_start, members, first, tables,
                  keys, hashes, sizes, path_rank):
    """The group table as numpy expressions over every file (what Analysis.groups did)."""
    n, n_groups = len(sizes), len(leaders)
    of_file = np.empty(n, np.int64)
    of_file[members] = np.repeat(np.arange(len(first)), np.diff(members_start))
    file_group = group_of_class[of_file]
    rows = np.flatnonzero(file_group >= 0)
    group = file_group[rows]
    references = class_best[leaders]
    is_reference = np.zeros(n, bool)
    is_reference[references] = True
    ref = references[group]
    sum_distance = np.abs(tables[rows].astype(np.int64) - tables[ref]).sum(axis=1)
    key_distance = np.abs(keys[rows] - keys[ref])
    same_hash = (hashes[rows] == hashes[ref]).all(axis=1)
    identical = (sum_distance == 0) & (sizes[rows] == sizes[ref]) & same_hash
    member_bytes = np.where(is_reference[rows], 0, sizes[rows])
    group_bytes = np.bincount(group, weights=member_bytes, minlength=n_groups).astype(np.int64)
    new_number = np.empty(n_groups, np.int64)
    new_number[np.lexsort((path_rank[references], -group_bytes))] = np.arange(n_groups)
    group = new_number[group]
    of_class = of_file[rows]
    order = np.lexsort((path_rank[rows], path_rank[first[of_class]], sum_distance, ~identical,
                        ~is_reference[rows], group))
    of_class, identical = of_class[order], identical[order]
    at = np.arange(len(order))
    run = np.maximum.accumulate(np.where(np.diff(of_class, prepend=-1) != 0, at, 0))
    by_number = np.empty(n_groups, np.int64)
    by_number[new_number] = group_bytes
    return dict(start=np.searchsorted(group[order], np.arange(n_groups + 1)), rows=rows[order],
                key_distance=key_distance[order], sum_distance=sum_distance[order],
                identical=identical, group_bytes=by_number,
                copy_of=np.where((run < at) & ~identical, run, -1))


def random_classes(rng, n_classes, spread, extreme, dtype):
    """Classes of one file or many, their files sharing size, sum table, key and hash;
    ties in every key before the path; tables of the largest counts when ``extreme``."""
    class_sizes = rng.geometric(0.5, n_classes)
    n = int(class_sizes.sum())
    members_start = np.concatenate(([0], np.cumsum(class_sizes))).astype(np.int64)
    members = rng.permutation(n).astype(np.int64)
    members[:] = np.concatenate([np.sort(members[members_start[c]:members_start[c + 1]])
                                 for c in range(n_classes)])
    first = members[members_start[:-1]]
    class_tables = rng.choice([0, 2**31 - 1], (n_classes, 16)) if extreme \
        else rng.integers(0, spread, (n_classes, 16))
    of_file = np.repeat(np.arange(n_classes), class_sizes)[np.argsort(members)]
    tables = class_tables[of_file].astype(dtype)
    sizes = rng.integers(1, spread + 1, n_classes)[of_file] * 1000
    hashes = rng.integers(0, 2, (n_classes, 2))[of_file]
    keys = rng.normal(0, 1e6, n_classes)[of_file]
    class_best = members[members_start[:-1] + rng.integers(0, class_sizes)]
    return dict(class_best=class_best, members_start=members_start, members=members,
                first=first, tables=tables, keys=keys, hashes=hashes, sizes=sizes,
                path_rank=rng.permutation(n))


def random_grouping(rng, n_classes):
    """(group_of_class, leaders): a share of the classes in no group, a few groups
    holding many classes (long groups take the merge sorts)."""
    n_groups = int(rng.integers(0, n_classes + 1))
    group_of_class = np.full(n_classes, -1, np.int64)
    leaders = rng.choice(n_classes, n_groups, replace=False).astype(np.int64)
    group_of_class[leaders] = np.arange(n_groups)
    if n_groups:
        rest = np.flatnonzero(group_of_class < 0)
        joined = rest[rng.random(len(rest)) < 0.6]
        group_of_class[joined] = np.minimum(rng.geometric(0.2, len(joined)) - 1, n_groups - 1)
    return group_of_class, leaders


def columns(lists, classes, records=None):
    """group_columns over the classes of random_classes, with their ``records``
    (default: fresh ones)."""
    c = classes
    if records is None:
        records = ClassRecords(c["members_start"], c["first"], c["sizes"], c["path_rank"])
    return group_columns(*lists, c["class_best"], records, c["members"], c["tables"],
                         c["keys"], c["hashes"], c["sizes"], c["path_rank"])


def as_lists(rng, group_of_class, leaders):
    """(group_start, group_classes) as the grouping pass writes them: each group's
    leader first, its other classes after it in any order."""
    classes = []
    for g, leader in enumerate(leaders):
        others = np.flatnonzero(group_of_class == g)
        classes += [[leader], rng.permutation(others[others != leader])]
    sizes = np.bincount(group_of_class[group_of_class >= 0], minlength=len(leaders))
    start = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    return start, np.concatenate(classes).astype(np.int64) if classes else np.zeros(0, np.int64)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(1, 4), st.booleans(),
       st.sampled_from([np.int32, np.int64]))
def test_group_columns_equal_numpy(seed, n_classes, spread, extreme, dtype):
    rng = np.random.default_rng(seed)
    classes = random_classes(rng, n_classes, spread, extreme, dtype)
    group_of_class, leaders = random_grouping(rng, n_classes)
    got = columns(as_lists(rng, group_of_class, leaders), classes)
    expected = numpy_columns(group_of_class, leaders, **classes)
    assert got.keys() == expected.keys()
    for name in expected:
        np.testing.assert_array_equal(got[name], expected[name], err_msg=name)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 200), st.integers(1, 5))
def test_distances_kept_from_earlier_groupings_equal_fresh_ones(seed, n_classes, moves):
    """Slider moves regroup the same classes; each measures only the classes whose
    reference changed, and its table equals one measured afresh."""
    rng = np.random.default_rng(seed)
    classes = random_classes(rng, n_classes, 3, False, np.int64)
    records = None
    for _ in range(moves):
        group_of_class, leaders = random_grouping(rng, n_classes)
        if rng.random() < 0.5:  # another file of its class leads some groups
            start = classes["members_start"]
            classes["class_best"] = classes["members"][start[:-1] + rng.integers(
                0, np.diff(start))]
        if records is None:
            records = ClassRecords(classes["members_start"], classes["first"],
                                   classes["sizes"], classes["path_rank"])
        got = columns(as_lists(rng, group_of_class, leaders), classes, records)
        expected = numpy_columns(group_of_class, leaders, **classes)
        for name in expected:
            np.testing.assert_array_equal(got[name], expected[name], err_msg=name)


def test_group_columns_on_two_threads_equal_numpy(monkeypatch):
    """Above PARALLEL_FROM grouped classes the groups are dealt to two threads by rows:
    classes of several files, records kept from move to move."""
    import simgui.core.search.workers as workers

    monkeypatch.setattr(workers, "PARALLEL_FROM", 10)
    monkeypatch.setattr(workers, "workers", lambda: 2)
    rng = np.random.default_rng(5)
    n_classes = 2000
    classes = random_classes(rng, n_classes, 3, False, np.int64)
    records = ClassRecords(classes["members_start"], classes["first"], classes["sizes"],
                           classes["path_rank"])
    for _ in range(3):
        group_of_class, leaders = random_grouping(rng, n_classes)
        got = columns(as_lists(rng, group_of_class, leaders), classes, records)
        expected = numpy_columns(group_of_class, leaders, **classes)
        for name in expected:
            np.testing.assert_array_equal(got[name], expected[name], err_msg=name)


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
