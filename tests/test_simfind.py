"""SimFind equals the all-pairs definition, stays linear on identical copies, and groups well."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.analysis import find_groups
from simgui.core.keys import SKEW, UNIFORM, compute_keys
from simgui.core.simfind import SearchSpace, Tolerances, classes_of, find_pairs
from simgui.core.store import StoredFiles
from tests.reference import reference_pairs


@st.composite
def collections(draw):
    """Files that cluster: a few base tables, small perturbations, shared and tiny sizes."""
    n = draw(st.integers(0, 30))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    bases = rng.integers(0, draw(st.sampled_from([3, 50, 5000])), (max(1, n // 3), 16))
    tables = bases[rng.integers(0, len(bases), n)]
    tables = tables + rng.integers(0, 3, (n, 16)) * (rng.random((n, 1)) < 0.5)
    sizes = rng.choice([0, 10, 63, 64, 100, 150, 1000, 1400, 5000, 100_000], n)
    sizes = sizes + rng.integers(0, 2, n) * (rng.random(n) < 0.3)
    exts = list(rng.choice(["txt", "pdf"], n)) if draw(st.booleans()) else None
    return sizes.astype(np.int64), tables.astype(np.int64), exts


@settings(max_examples=300, deadline=None)
@given(collections(), st.sampled_from([0.0, 0.05, 1.0, 3.2, 10.0]),
       st.sampled_from([0.0, 0.05, 1.0, 3.2, 10.0]), st.sampled_from([SKEW, UNIFORM]),
       st.sampled_from([1.0, 1.5, 3.0]))
def test_find_pairs_equals_all_pairs_reference(data, key_tol, sum_tol, scheme, size_factor):
    sizes, tables, exts = data
    got = find_pairs(sizes, tables, key_tolerance=key_tol, sum_tolerance=sum_tol, scheme=scheme,
                     size_factor=size_factor, extensions=exts)
    keys = compute_keys(tables, scheme, exts)
    expected = reference_pairs(sizes, tables, key_tol, sum_tol, keys, size_factor, exts)
    assert [tuple(p) for p in got.tolist()] == expected


def test_thousands_of_identical_files_stay_linear():
    n = 20_000
    sizes = np.zeros(n, np.int64)  # e.g. empty files
    tables = np.zeros((n, 16), np.int64)
    star = find_pairs(sizes, tables, expand_identical=False)
    assert len(star) == n - 1  # (first, other), never n(n-1)/2
    assert set(star[:, 0].tolist()) == {0}


def test_classes_hold_equal_rows_only():
    rng = np.random.default_rng(5)
    tables = rng.integers(0, 3, (500, 16))
    sizes = rng.integers(0, 3, 500)
    c = classes_of(sizes, tables)
    for k in range(len(c.first)):
        rows = c.members[c.members_start[k]:c.members_start[k + 1]]
        assert (tables[rows] == tables[rows[0]]).all() and (sizes[rows] == sizes[rows[0]]).all()
    assert len(c.first) == len({(s, *t) for s, t in zip(sizes.tolist(), tables.tolist())})


def test_per_extension_overrides_apply_to_their_extension_only():
    sizes = np.full(4, 10_000, np.int64)
    tables = np.full((4, 16), 100, np.int64)
    tables[1, 4] += 40  # tag d3, which the Skew key ignores: 0.4 % of the mean size
    tables[3, 4] += 40
    exts = ["ps", "ps", "txt", "txt"]
    tight = {"ps": Tolerances(key=1.0, sum=0.1)}
    pairs = find_pairs(sizes, tables, key_tolerance=1, sum_tolerance=1, extensions=exts,
                       overrides=tight)
    assert pairs.tolist() == [[2, 3]]


def stored(paths, sizes, tables, hashes, mtimes=None, exts=None):
    n = len(paths)
    return StoredFiles(ids=np.arange(n), paths=list(paths), sizes=np.array(sizes, np.int64),
                       mtimes_ns=np.array(mtimes if mtimes is not None else range(n), np.int64),
                       devices=np.ones(n, np.int64), inodes=np.arange(n),
                       tables=np.array(tables, np.int64), hashes=list(hashes),
                       extensions=list(exts or ["bin"] * n))


def test_groups_have_one_reference_and_members_within_tolerance():
    base = np.arange(16) * 100 + 1000
    tables = [base, base, base + np.array([5] + [0] * 15), base * 3, base * 3 + 1]
    files = stored(["/a/1", "/a/2", "/b/3", "/c/4", "/c/5"],
                   [30_000, 30_000, 30_000, 90_000, 90_000], tables,
                   [b"h1" * 8, b"h1" * 8, b"h2" * 8, b"h3" * 8, b"h4" * 8])
    groups = find_groups(files, Tolerances(1, 1))
    assert len(groups) == 2
    seen = [m.path for g in groups for m in g.files]
    assert len(seen) == len(set(seen)) == 5  # every file in exactly one group
    first = next(g for g in groups if g.reference.path == "/a/1")  # the oldest is reference
    assert [(m.path, m.identical) for m in first.members] == [("/a/2", True), ("/b/3", False)]
    assert first.members[1].sum_distance == 5 and 99 < first.members[1].similarity < 100


def test_reference_folders_give_the_reference_file():
    t = np.arange(16) * 50
    files = stored(["/old/x", "/keep/x"], [5000, 5000], [t, t], [b"h" * 16] * 2,
                   mtimes=[1, 2])
    assert find_groups(files, references=["/keep"])[0].reference.path == "/keep/x"
    assert find_groups(files)[0].reference.path == "/old/x"


def test_identical_content_needs_equal_hashes_not_just_tables():
    t = np.arange(16) * 50
    files = stored(["/a", "/b"], [5000, 5000], [t, t], [b"1" * 16, b"2" * 16])
    (group,) = find_groups(files)
    assert not group.members[0].identical and group.members[0].sum_distance == 0


def test_search_space_needs_matching_lengths():
    import pytest
    with pytest.raises(ValueError):
        SearchSpace.build(np.zeros(3, np.int64), np.zeros((2, 16), np.int64))


@settings(max_examples=150, deadline=None)
@given(collections(), st.sampled_from([0.05, 1.0, 10.0]), st.sampled_from([0.05, 1.0, 10.0]))
def test_one_file_mode_agrees_with_all_pairs(data, key_tol, sum_tol):
    from simgui.core.simfind import similar_to

    sizes, tables, exts = data
    if len(sizes) == 0:
        return
    files = stored([f"/{i}" for i in range(len(sizes))], sizes, tables, [b"h" * 16] * len(sizes),
                   exts=exts)
    hits, _ = similar_to(tables[0], sizes[0], files, Tolerances(key_tol, sum_tol),
                         extension=exts[0] if exts else None)
    keys = compute_keys(tables, SKEW, exts)
    expected = {j for i, j in reference_pairs(sizes, tables, key_tol, sum_tol, keys,
                                              extensions=exts) if i == 0}
    assert set(hits.tolist()) - {0} == expected


def test_identical_files_group_whatever_their_extension():
    t = np.arange(16) * 50
    files = stored(["/a.txt", "/a.bak", "/b.txt"], [5000, 5000, 5000], [t, t, t + 1],
                   [b"h" * 16, b"h" * 16, b"g" * 16], exts=["txt", "bak", "txt"])
    (group,) = find_groups(files)
    assert {m.path: m.identical for m in group.members} == {"/a.bak": True, "/b.txt": False}


def test_one_file_under_two_paths_is_not_its_own_copy():
    t = np.arange(16) * 50
    files = stored(["/data/x.jpg", "/home/me/link/x.jpg", "/data/y.jpg"], [5000] * 3, [t, t, t],
                   [b"h" * 16] * 3)
    files = StoredFiles(**{**files.__dict__, "inodes": np.array([7, 7, 8])})  # same inode twice
    (group,) = find_groups(files)
    assert sorted(m.path for m in group.files) == ["/data/x.jpg", "/data/y.jpg"]
    assert {m.index for m in group.files} == {0, 2}
