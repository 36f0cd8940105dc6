"""SimFind equals the all-pairs definition, stays linear on identical copies, and groups well."""

import functools
import enum

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simgui.core.search.analysis import find_groups
from simgui.core.search.keys import SKEW, UNIFORM, KeyScheme, compute_keys
from simgui.core.search import simfind
from simgui.core.search.simfind import (SearchSpace, _project, classes_of, expand_pairs,
                                 find_pairs, pair_distances)
from simgui.core.store import StoredFiles
from tests.reference import reference_pairs
# imported here, not in a test: a module of @given tests imported inside one is a
# nested @given to hypothesis, which fails its health check when run alone
from tests.test_analysis import collection as analysis_collection

# these tests check the paper's search itself: the content check after it is off
Tolerances = functools.partial(simfind.Tolerances, content=0.0)


@st.composite
def collections(draw):
    """Files that cluster: a few base tables, small perturbations, shared and tiny sizes;
    drawn part by part, so that a failure shrinks to a few files and small numbers."""
    n = draw(st.integers(0, 30))
    spread = draw(st.sampled_from([3, 50, 5000]))
    bases = draw(st.lists(st.lists(st.integers(0, spread - 1), min_size=16, max_size=16),
                          min_size=1, max_size=max(1, n // 3)))
    bump = st.none() | st.lists(st.integers(0, 2), min_size=16, max_size=16)
    size = st.tuples(st.sampled_from([0, 10, 63, 64, 100, 150, 1000, 1400, 5000, 100_000]),
                     st.sampled_from([0, 0, 0, 1]))
    files = draw(st.lists(st.tuples(st.integers(0, len(bases) - 1), bump, size),
                          min_size=n, max_size=n))
    tables = np.array([np.add(bases[b], d if d is not None else 0) for b, d, _ in files],
                      np.int64).reshape(n, 16)
    sizes = np.array([s + plus for _, _, (s, plus) in files], np.int64)
    exts = (draw(st.lists(st.sampled_from(["txt", "pdf"]), min_size=n, max_size=n))
            if draw(st.booleans()) else None)
    return sizes, tables, exts


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
    assert np.flatnonzero(c.is_first).tolist() == sorted(c.first.tolist())


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
    # no fingerprints here: the share of content in common is unknown, not a guess
    assert first.members[1].sum_distance == 5 and np.isnan(first.members[1].similarity)


def test_reference_folders_give_the_reference_file():
    t = np.arange(16) * 50
    files = stored(["/old/x", "/keep/x"], [5000, 5000], [t, t], [b"h" * 16] * 2,
                   mtimes=[1, 2])
    assert find_groups(files, Tolerances(), references=["/keep"])[0].reference.path == "/keep/x"
    assert find_groups(files, Tolerances())[0].reference.path == "/old/x"


def test_identical_content_needs_equal_hashes_not_just_tables():
    t = np.arange(16) * 50
    files = stored(["/a", "/b"], [5000, 5000], [t, t], [b"1" * 16, b"2" * 16])
    (group,) = find_groups(files, Tolerances())
    assert not group.members[0].identical and group.members[0].sum_distance == 0


def test_search_space_needs_matching_lengths():
    import pytest
    with pytest.raises(ValueError):
        SearchSpace.build(np.zeros(3, np.int64), np.zeros((2, 16), np.int64))


@settings(max_examples=150, deadline=None)
@given(collections(), st.sampled_from([0.05, 1.0, 10.0]), st.sampled_from([0.05, 1.0, 10.0]))
def test_one_file_mode_agrees_with_all_pairs(data, key_tol, sum_tol):
    from simgui.core.search.simfind import similar_to

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
    (group,) = find_groups(files, Tolerances())
    assert {m.path: m.identical for m in group.members} == {"/a.bak": True, "/b.txt": False}


def test_one_file_under_two_paths_is_not_its_own_copy():
    t = np.arange(16) * 50
    files = stored(["/data/x.jpg", "/home/me/link/x.jpg", "/data/y.jpg"], [5000] * 3, [t, t, t],
                   [b"h" * 16] * 3)
    files = StoredFiles(**{**files.__dict__, "inodes": np.array([7, 7, 8])})  # same inode twice
    (group,) = find_groups(files, Tolerances())
    assert sorted(m.path for m in group.files) == ["/data/x.jpg", "/data/y.jpg"]
    assert {m.index for m in group.files} == {0, 2}


# --------------------------------------------------------------------------- larger and adversarial
# The grid search against a vectorised all-pairs reference, spelled like tests/reference.py.


def brute_force_pairs(sizes, tables, keys, key_tol, sum_tol, size_factor=1.5, exts=None,
                      min_similar_size=64, fractions=None):
    """reference_pairs, one row of pairs at a time; ``fractions``: per-file (key, sum)
    tolerance in percent (overrides), else the same for all."""
    sizes = np.asarray(sizes, np.int64)
    tables = np.asarray(tables, np.int64)
    n = len(sizes)
    exts = None if exts is None else np.asarray(exts)
    out = []
    for i in range(n - 1):
        j = np.arange(i + 1, n)
        kt, st_ = (key_tol, sum_tol) if fractions is None else fractions[i]
        big = np.maximum(sizes[i], sizes[j])
        small = np.minimum(sizes[i], sizes[j])
        same = np.ones(len(j), bool) if exts is None else exts[j] == exts[i]
        dist = np.abs(tables[j] - tables[i]).sum(axis=1)
        tiny = small < min_similar_size
        copy = (sizes[j] == sizes[i]) & (dist == 0)
        hit = ((np.abs(keys[i] - keys[j]) <= np.maximum(1.0, big * (kt / 100.0)))
               & (big <= size_factor * small)
               & (dist <= np.maximum(1.0, (sizes[i] + sizes[j]) * (st_ / 100.0) / 2.0)))
        ok = same & np.where(tiny, copy, hit)
        out.extend((i, int(b)) for b in j[ok])
    return out


def clustered(n, seed, *, types=3, spread=0.02, size_sd=0.05, base_size=20_000):
    """Files crowded into a few tight clusters: many in one size band and one grid cell."""
    rng = np.random.default_rng(seed)
    rates = rng.dirichlet(np.ones(16), types) * 0.5
    kind = rng.integers(0, types, n)
    sizes = np.maximum(1, base_size * np.exp(rng.normal(0, size_sd, n))).astype(np.int64)
    tables = rng.poisson(sizes[:, None] * rates[kind] * np.exp(rng.normal(0, spread, (n, 16))))
    return sizes, tables.astype(np.int64)


def check(sizes, tables, key_tol, sum_tol, *, scheme=SKEW, size_factor=1.5, exts=None,
          expand_identical=True):
    got = find_pairs(sizes, tables, key_tolerance=key_tol, sum_tolerance=sum_tol, scheme=scheme,
                     size_factor=size_factor, extensions=exts, expand_identical=expand_identical)
    keys = compute_keys(tables, scheme, exts)
    expected = brute_force_pairs(sizes, tables, keys, key_tol, sum_tol, size_factor, exts)
    assert got.tolist() == [list(p) for p in expected]
    return got


def test_crowded_band_and_cell_equal_all_pairs():
    sizes, tables = clustered(2500, 1)
    for key_tol, sum_tol in [(1.0, 1.0), (3.2, 1.0), (0.05, 0.05), (10.0, 10.0)]:
        got = check(sizes, tables, key_tol, sum_tol)
    assert len(got) > 10_000  # really crowded: most files pair with many others


def test_wide_sizes_and_size_factors_equal_all_pairs():
    rng = np.random.default_rng(2)
    n = 2500
    sizes = np.exp(rng.uniform(0, np.log(2.0 ** 40), n)).astype(np.int64)
    sizes[:300] = rng.integers(0, 100, 300)  # empty and tiny files too
    rates = rng.dirichlet(np.ones(16), 4)[rng.integers(0, 4, n)] * 0.5
    tables = rng.poisson(sizes[:, None] * rates).astype(np.int64)  # counts beyond 2**31 too
    near = rng.integers(0, n, 800)  # near-copies across the whole range of sizes
    sizes[near[:400]] = (sizes[near[400:]] * rng.uniform(0.7, 1.4, 400)).astype(np.int64)
    tables[near[:400]] = (tables[near[400:]] * rng.uniform(0.99, 1.01, (400, 16))).astype(np.int64)
    assert tables.max() > 2 ** 31
    for size_factor in [1.0, 1.5, 3.0, 100.0]:
        for key_tol, sum_tol in [(1.0, 1.0), (10.0, 50.0), (0.0, 0.0)]:
            check(sizes, tables, key_tol, sum_tol, size_factor=size_factor)


def test_equal_keys_everywhere_equal_all_pairs():
    # the Skew key ignores 12 of the 16 tags: tables differing only there share a key
    rng = np.random.default_rng(3)
    n = 2000
    sizes = np.full(n, 50_000, np.int64) + rng.integers(0, 3, n)
    tables = np.zeros((n, 16), np.int64)
    tables[:, :4] = [1000, 800, 700, 600]
    tables[:, 4:] = 1500 + rng.integers(-400, 400, (n, 12))
    keys = compute_keys(tables, SKEW)
    assert len(np.unique(keys)) == 1
    check(sizes, tables, 1.0, 1.0)
    check(sizes, tables, 1.0, 3.0)


def test_huge_classes_expand_to_every_pair_or_a_star():
    rng = np.random.default_rng(4)
    base = rng.integers(500, 600, 16)
    sizes = np.full(1200, 40_000, np.int64)
    tables = np.tile(base, (1200, 1))
    tables[700:] += rng.integers(0, 3, (500, 16))  # a cloud of near-copies around the class
    sizes[900:] += rng.integers(-50, 50, 300)
    check(sizes, tables, 1.0, 1.0)
    star = find_pairs(sizes, tables, key_tolerance=1.0, sum_tolerance=1.0, expand_identical=False)
    full = find_pairs(sizes, tables, key_tolerance=1.0, sum_tolerance=1.0)
    space = SearchSpace.build(sizes, tables)
    copies = np.diff(space.classes.members_start)
    assert len(full) - len(star) == int((copies * (copies - 1) // 2 - (copies - 1)).sum())
    assert star.tolist() == sorted(star.tolist())


def test_extensions_sharing_a_key_stripe_and_a_custom_scheme():
    # 'htm' and 'html' share their first three characters, so their keys share a stripe:
    # only the extension test keeps them apart
    sizes, tables = clustered(2400, 5, types=2, spread=0.01)
    exts = list(np.random.default_rng(5).choice(["htm", "html", "txt"], len(sizes)))
    check(sizes, tables, 1.0, 1.0, exts=exts)
    signed = KeyScheme("signed", (3.0, -2.0, 0.5, -6.0) + (1.0, -1.0) * 6)  # negative keys
    check(sizes, tables, 2.0, 1.0, scheme=signed)
    check(sizes, tables, 2.0, 1.0, scheme=signed, exts=exts)


def test_overrides_match_per_extension_all_pairs():
    sizes, tables = clustered(2000, 6, types=2, spread=0.01)
    exts = list(np.random.default_rng(6).choice(["ps", "pdf", "txt"], len(sizes)))
    overrides = {"ps": Tolerances(0.2, 0.1), "pdf": Tolerances(8.0, 4.0)}
    got = find_pairs(sizes, tables, key_tolerance=1.0, sum_tolerance=1.0, extensions=exts,
                     overrides=overrides)
    per_file = [(overrides[e].key, overrides[e].sum) if e in overrides else (1.0, 1.0)
                for e in exts]
    keys = compute_keys(tables, SKEW, exts)
    expected = brute_force_pairs(sizes, tables, keys, 1.0, 1.0, exts=exts, fractions=per_file)
    assert got.tolist() == [list(p) for p in expected]


def test_work_split_across_threads_gives_the_same_pairs(monkeypatch):
    import simgui.core.search.simfind as simfind
    import simgui.core.search.workers as workers

    sizes, tables = clustered(3000, 7, types=4, spread=0.03, size_sd=0.5)
    copies = np.random.default_rng(7).integers(0, 3000, 400)  # classes of several copies
    sizes, tables = np.concatenate((sizes, sizes[copies])), np.concatenate((tables, tables[copies]))
    whole = [find_pairs(sizes, tables, key_tolerance=2.0, sum_tolerance=2.0,
                        expand_identical=e).tolist() for e in (True, False)]
    monkeypatch.setattr(simfind, "_CHUNK_FILES", 37)
    monkeypatch.setattr(workers, "PARALLEL_FROM", 10)
    split = [find_pairs(sizes, tables, key_tolerance=2.0, sum_tolerance=2.0,
                        expand_identical=e).tolist() for e in (True, False)]
    assert split == whole
    space = SearchSpace.build(sizes, tables)
    pairs = space.class_pairs(Tolerances(2.0, 2.0))
    assert (pairs[:, 0] < pairs[:, 1]).all() and len(np.unique(pairs, axis=0)) == len(pairs)
    monkeypatch.setattr(workers, "PARALLEL_FROM", 0)  # even nothing at all is split safely
    assert find_pairs(np.zeros(0, np.int64), np.zeros((0, 16), np.int64),
                      key_tolerance=2.0, sum_tolerance=2.0).shape == (0, 2)


def test_expanding_a_pair_of_unknown_files_is_refused():
    from simgui.core.search.simfind import expand_pairs

    classes = classes_of(np.array([5, 5, 7]), np.ones((3, 16), np.int64))
    assert expand_pairs(classes, np.array([[0, 2]])).tolist() == [[0, 1], [0, 2], [1, 2]]
    for bad in ([[0, 3]], [[-1, 2]]):
        with pytest.raises(ValueError, match="out of range"):
            expand_pairs(classes, np.array(bad))


def test_hash_collisions_never_merge_or_split_classes(monkeypatch):
    import simgui.core.search.simfind as simfind
    import simgui.core.search.workers as workers

    def colliding(lo, hi, sizes, tables, ext, extra, out):
        # a function of the row, as a hash must be, with only three values
        out[lo:hi] = np.uint64(12345) * (tables[lo:hi].sum(axis=1) % 3).astype(np.uint64)
        return 0

    monkeypatch.setattr(simfind, "_row_hashes", colliding)
    monkeypatch.setattr(workers, "PARALLEL_FROM", 10)  # runs must not be cut between threads
    rng = np.random.default_rng(8)
    tables = rng.integers(0, 2, (600, 16))
    tables[::2] = tables[rng.integers(0, 6, 300)]  # half are copies of six rows
    sizes = rng.integers(0, 2, 600)
    sizes[::2] = 1
    ext = rng.integers(0, 2, 600)
    ext[::2] = 0
    c = classes_of(sizes, tables, ext)
    groups = {}
    for i, row in enumerate(zip(sizes.tolist(), map(tuple, tables.tolist()), ext.tolist())):
        groups.setdefault(row, []).append(i)
    got = sorted(c.members[c.members_start[k]:c.members_start[k + 1]].tolist()
                 for k in range(len(c.first)))
    assert got == sorted(groups.values())  # members ascending within each class
    assert (c.first == c.members[c.members_start[:-1]]).all()
    assert c.is_first.tolist() == [i in set(c.first.tolist()) for i in range(600)]
    assert all(c.of_file[m] == k for k in range(len(c.first))
               for m in c.members[c.members_start[k]:c.members_start[k + 1]])


def test_pairs_exactly_on_both_limits_with_extension_offsets():
    # Uniform keys of integer tables plus an extension's integer offset (near 2**44) are
    # exact: the pair (0, 1) is exactly on the key limit (100) and the sum-table limit
    # (100); (0, 2) is one count beyond both.
    tables = np.full((3, 16), 100, np.int64)
    tables[1, 15] += 100
    tables[2, 15] += 101
    sizes = np.full(3, 10_000, np.int64)
    for exts in (None, ["abc"] * 3):
        got = check(sizes, tables, 1.0, 1.0, scheme=UNIFORM, exts=exts)
        assert got.tolist() == [[0, 1], [1, 2]]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**42),
       st.one_of(st.floats(-1e3, 1e3).filter(lambda w: abs(w) >= 1e-3),
                 st.sampled_from([1e-6, 3.0e5, 1e100])),
       st.sampled_from([0.0, 0.3, 1.0, 3.2]), st.booleans(), st.integers(0, 2**32 - 1))
def test_keys_decide_at_their_limit_whatever_their_magnitude(shift, weight, key_tol, with_ext,
                                                             seed):
    # The one-word filter tests keys to a power-of-two quantum: pairs whose keys
    # differ by up to twice the key limit, on keys of any magnitude (a large count,
    # an extension's offset near 2**44, weights from a millionth to 1e100) and any
    # alignment to the quantum, are found exactly as by the all-pairs reference.
    # Equal sizes and a loose sum-table tolerance leave the key to decide.
    rng = np.random.default_rng(seed)
    n = 60
    size = int(rng.integers(1000, 100_000))  # a limit that is no whole number of quanta
    sizes = np.full(n, size, np.int64)
    tables = np.full((n, 16), 300, np.int64)
    limit = max(1.0, size * key_tol / 100)
    tables[:, 0] = shift + rng.integers(0, int(np.clip(2 * limit / abs(weight), 1, 2**40)) + 1, n)
    scheme = KeyScheme("one tag", (weight,) + (0.0,) * 15)
    exts = ["dat"] * n if with_ext else None
    got = find_pairs(sizes, tables, key_tolerance=key_tol, sum_tolerance=50.0, scheme=scheme,
                     extensions=exts)
    keys = compute_keys(tables, scheme, exts)
    assert [tuple(p) for p in got.tolist()] == reference_pairs(sizes, tables, key_tol, 50.0, keys,
                                                               1.5, exts)


@pytest.mark.parametrize("key_tol,sum_tol", [(1e300, 1e300), (1.0, 1e30), (1e30, 1.0)])
def test_tolerances_far_beyond_any_distance_equal_all_pairs(key_tol, sum_tol):
    # a reach wider than 64 bits once made garbage grid boxes: no pairs, or a crash
    rng = np.random.default_rng(0)
    sizes, tables = rng.integers(100, 10_000, 50), rng.integers(0, 100, (50, 16))
    check(sizes, tables, key_tol, sum_tol)


def test_extreme_tables_and_sizes_equal_all_pairs():
    # found by review: a reach of 2**61 counts or more is infinite, not cut short; a
    # band of huge totals coarsens its own cells, not every band's past 63 bits;
    # min_similar_size 0 searches empty files too
    zero = KeyScheme("zero", (0.0,) * 16)
    tables = np.zeros((2, 16), np.int64)
    tables[1, 0] = 2**62
    sizes = np.array([1000, 1000])
    for sum_tol in (1e18, 1e30):
        assert check(sizes, tables, 1.0, sum_tol, scheme=zero).tolist() == [[0, 1]]
    sizes = np.array([100, 100, 10**15, 10**15])
    tables = np.zeros((4, 16), np.int64)
    tables[0, 0], tables[1, 1], tables[1, 2] = 2**59, 2**59, -2**59
    tables[2:] = 1000
    tables[3, 0] += 10**14
    assert check(sizes, tables, 1.0, 100.0, scheme=zero).tolist() == [[2, 3]]
    sizes, tables = np.zeros(3, np.int64), np.zeros((3, 16), np.int64)
    tables[1, 0], tables[2, 0] = 1, 5
    got = find_pairs(sizes, tables, key_tolerance=1.0, sum_tolerance=1.0, scheme=UNIFORM,
                     min_similar_size=0)
    assert got.tolist() == [[0, 1]] == [list(p) for p in reference_pairs(
        sizes, tables, 1.0, 1.0, compute_keys(tables, UNIFORM), min_similar_size=0)]


@pytest.mark.parametrize("size", [-1, 2**62])
def test_sizes_out_of_range_are_refused(size):
    with pytest.raises(ValueError, match="file sizes must be"):
        find_pairs(np.array([10, size]), np.zeros((2, 16), np.int64))


@pytest.mark.parametrize("bad", [float("inf"), float("nan"), -0.5])
def test_tolerances_are_finite_and_not_negative(bad):
    for args in ((bad, 1.0), (1.0, bad)):
        with pytest.raises(ValueError, match="finite"):
            Tolerances(*args)


def test_extensions_are_numbered_and_keyed_alike_whatever_their_type():
    rng = np.random.default_rng(11)
    tables = rng.integers(0, 500, (40, 16))
    sizes = tables.sum(axis=1) * 2
    names = [["txt", "ps", "", "TXT"][i] for i in rng.integers(0, 4, 40)]
    plain = SearchSpace.build(sizes, tables, extensions=names)
    assert plain.extensions == tuple(sorted(set(names)))
    assert [plain.extensions[i] for i in plain.ext_ids] == names
    assert plain.keys.tolist() == compute_keys(tables, SKEW, names).tolist()
    for other in (np.array(names), iter(names), tuple(names)):
        space = SearchSpace.build(sizes, tables, extensions=other)
        assert space.extensions == plain.extensions
        assert all(type(e) is str for e in space.extensions)
        assert space.ext_ids.tolist() == plain.ext_ids.tolist()
        assert space.keys.tolist() == plain.keys.tolist()
    numbers = SearchSpace.build(sizes, tables, extensions=[len(e) for e in names])
    assert numbers.extensions == tuple(sorted({str(len(e)) for e in names}))

    class Shouting(str):  # a str whose str() is not itself
        def __str__(self):
            return self.upper()

    Kind = enum.Enum("Kind", {"TXT": "txt", "PS": "ps", "NONE": "", "UPPER": "TXT"}, type=str)
    for items in ([Shouting(e) for e in names], [Kind(e) for e in names], [[e] for e in names],
                  [np.str_(e) for e in names]):
        as_text = [str(e) for e in items]
        space = SearchSpace.build(sizes, tables, extensions=items)
        assert space.extensions == tuple(sorted(set(as_text)))
        assert [space.extensions[i] for i in space.ext_ids] == as_text
        assert space.keys.tolist() == compute_keys(tables, SKEW, as_text).tolist()
    # equal to a plain string (same hash) but not the same str(): numbered apart
    for mixed in (["txt", Shouting("txt")], ["txt", Kind("txt")]):
        space = SearchSpace.build(sizes[:2], tables[:2], extensions=mixed)
        assert space.extensions == tuple(sorted({str(e) for e in mixed}))
        assert len(set(space.ext_ids.tolist())) == 2
    with pytest.raises(ValueError):
        SearchSpace.build(sizes, tables, extensions=names[:-1])


@pytest.mark.parametrize("whole_up_to", [0, 8, 10**9])
def test_key_windows_and_whole_cell_scans_each_equal_all_pairs(monkeypatch, whole_up_to):
    # A neighbour cell is scanned in a key window (from where the previous file's
    # started, in blocks) or whole, by its size: force each way, and a mix.
    import simgui.core.search.simfind as simfind

    monkeypatch.setattr(simfind, "_SCAN_WHOLE_UP_TO", whole_up_to)
    sizes, tables = clustered(2500, 1)  # crowded cells, windows over many blocks
    check(sizes, tables, 1.0, 1.0)
    check(sizes, tables, 0.05, 3.2)
    rng = np.random.default_rng(8)
    sizes = np.full(700, 50_000, np.int64) + rng.integers(0, 3, 700)
    tables = np.tile(np.array([1000, 800, 700, 600] + [1500] * 12), (700, 1))
    tables[:, :4] += rng.integers(-40, 40, (700, 4)) * (rng.random((700, 1)) < 0.5)
    tables[:, 4:] += rng.integers(-400, 400, (700, 12))  # runs of equal keys across blocks
    check(sizes, tables, 1.0, 1.0)
    sizes, tables = clustered(1500, 9, types=2, spread=0.01, size_sd=0.3)
    exts = list(rng.choice(["htm", "html", "txt"], len(sizes)))
    check(sizes, tables, 2.0, 1.0, exts=exts)


@settings(max_examples=150, deadline=None)
@given(collections(), st.sampled_from([0.0, 1.0, 10.0]), st.sampled_from([0.0, 1.0, 10.0]))
def test_key_windows_alone_equal_all_pairs_reference(data, key_tol, sum_tol):
    import simgui.core.search.simfind as simfind

    sizes, tables, exts = data
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simfind, "_SCAN_WHOLE_UP_TO", 0)
        got = find_pairs(sizes, tables, key_tolerance=key_tol, sum_tolerance=sum_tol,
                         extensions=exts)
    keys = compute_keys(tables, SKEW, exts)
    assert [tuple(p) for p in got.tolist()] == reference_pairs(sizes, tables, key_tol, sum_tol,
                                                              keys, 1.5, exts)


def test_a_window_start_serves_every_later_file_of_the_cell(monkeypatch):
    # x2 follows x1 in key order but, being larger, reaches further back into the next
    # size band: a window start advanced for x1 alone would skip x2's partner y.  (Three
    # files make cells scanned whole, so key windows are forced.)
    import simgui.core.search.simfind as simfind

    monkeypatch.setattr(simfind, "_SCAN_WHOLE_UP_TO", 0)
    first_tag = KeyScheme("first tag", (1.0,) + (0.0,) * 15)
    sizes = np.array([12_000, 16_500, 24_000], np.int64)
    tables = np.full((3, 16), 500, np.int64)
    tables[:, 0] = [5000, 5100, 3000]
    got = check(sizes, tables, 10.0, 11.0, scheme=first_tag)
    assert [1, 2] in got.tolist()


def test_cells_end_in_key_order_however_they_arrive():
    # The cell sort leaves each cell only roughly in key order (by a coarse level of the
    # key); an insertion sort finishes it, and a cell it would take too long for is
    # sorted whole.  Either way: key order, stable, each file's place recorded.
    import simgui.core.search.simfind as simfind

    rng = np.random.default_rng(12)
    cells, rep_key, order = [0], [], []
    for n, shuffled in [(0, False), (1, False), (2, True), (31, True), (300, False),
                        (300, True), (2000, True), (2000, False)]:
        keys = np.sort(rng.integers(0, n // 3 + 2, n)).astype(np.float64)  # ties too
        if n == 300:  # NaN compares false with anything, yet must go last (as numpy's sorts)
            keys[rng.choice(n, n // 10, replace=False)] = np.nan
        arrival = np.arange(n)
        if shuffled:
            rng.shuffle(arrival)
        else:  # nearly in order: a few neighbours swapped
            for i in rng.integers(0, max(n - 1, 1), n // 20):
                arrival[i], arrival[i + 1] = arrival[i + 1], arrival[i]
        order.append(len(rep_key) + arrival)
        rep_key.extend(keys[rng.permutation(n)] if shuffled else keys)
        cells.append(cells[-1] + n)
    rep_key = np.array(rep_key)
    order = np.concatenate(order).astype(np.int64)
    arrived = order.copy()
    cell_start = np.array(cells, np.int64)
    key = np.empty(len(order))
    position = np.empty(len(order), np.int64)
    simfind._order_cells(0, len(cells) - 1, cell_start, order, rep_key, key, position)
    for p0, p1 in zip(cells[:-1], cells[1:]):
        came = arrived[p0:p1]
        assert order[p0:p1].tolist() == came[np.argsort(rep_key[came], kind="stable")].tolist()
    assert np.array_equal(key, rep_key[order], equal_nan=True)
    assert np.array_equal(position[order], np.arange(len(order)))


@pytest.mark.parametrize("whole_up_to", [0, 64, 10**9])
def test_work_counts_bound_each_other(monkeypatch, whole_up_to):
    # every pair found was a candidate (within the key window) that passed the filter,
    # and every file that passed was looked at; the filter tests the key only to its
    # quantum, so some files outside the window pass it too
    import simgui.core.search.simfind as simfind

    monkeypatch.setattr(simfind, "_SCAN_WHOLE_UP_TO", whole_up_to)
    sizes, tables = clustered(2500, 1)
    space = SearchSpace.build(sizes, tables)
    pairs, work = space._class_pairs_counted(Tolerances(1.0, 1.0))
    assert 0 < len(pairs) == work["pairs"] <= min(work["filtered"], work["examined"])
    assert max(work["filtered"], work["examined"]) <= work["looked_at"]
    # counting is for benchmarks: the search alone finds the same pairs, counts none
    quiet, idle = space._class_pairs_counted(Tolerances(1.0, 1.0), counting=False)
    assert quiet.tolist() == pairs.tolist() and idle["examined"] == 0
    assert idle["filtered"] == work["filtered"] and idle["looked_at"] == work["looked_at"]
    if whole_up_to == 10**9:  # every neighbour cell whole: more looked at than in the windows
        assert work["examined"] < work["looked_at"]


@pytest.mark.parametrize("first", ["txt", "bak"])
def test_copies_in_several_extensions_match_in_each_of_them(first):
    # a.txt and a.bak are copies (one class); b.bak is an edit of them.  Whichever
    # copy comes first, b.bak must find the class through a.bak's extension.
    other = {"txt": "bak", "bak": "txt"}[first]
    t = np.arange(16) * 50 + 300
    files = stored([f"/a.{first}", f"/a.{other}", "/b.bak", "/c.txt"], [5000] * 4,
                   [t, t, t + np.array([2] + [0] * 15), t + np.array([0, 3] + [0] * 14)],
                   [b"h" * 16, b"h" * 16, b"g" * 16, b"k" * 16], exts=[first, other, "bak", "txt"])
    (group,) = find_groups(files, Tolerances(1, 1))
    assert sorted(m.path for m in group.files) == ["/a.bak", "/a.txt", "/b.bak", "/c.txt"]
    space = SearchSpace.build(files.sizes, files.tables, extensions=files.extensions,
                              class_extra=np.array([0, 0, 1, 2]),  # the content hashes
                              classes_by_extension=False)
    assert space.mixed_extensions and len(space.classes.first) == 3
    pairs = space.class_pairs(Tolerances(1, 1))
    of = space.classes.of_file
    # b.bak and c.txt each match the class once, in their own extension; not each other
    found = sorted(tuple(sorted((of[a], of[b]))) for a, b in pairs)
    assert found == sorted([tuple(sorted((of[0], of[2]))), tuple(sorted((of[0], of[3])))])
    assert all(space.ext_ids[a] == space.ext_ids[b] for a, b in pairs)


def test_classes_sharing_two_extensions_pair_once():
    t = np.arange(16) * 50 + 300
    u = t + np.array([2] + [0] * 15)
    sizes = np.full(4, 5000, np.int64)
    tables = np.array([t, t, u, u])
    exts = ["txt", "bak", "bak", "txt"]
    space = SearchSpace.build(sizes, tables, extensions=exts, classes_by_extension=False)
    assert space.search_reps().tolist() == [0, 1, 2, 3]
    pairs = space.class_pairs(Tolerances(1, 1))
    assert len(pairs) == 1 and space.ext_ids[pairs[0, 0]] == space.ext_ids[pairs[0, 1]]
    full = find_pairs(sizes, tables, key_tolerance=1, sum_tolerance=1, extensions=exts)
    assert full.tolist() == [[0, 3], [1, 2]]  # copies are only classes when asked


def test_distances_of_copies_in_other_extensions_leave_out_the_offsets():
    # a.txt and a.bak are copies, b.bak an edit: expanded, the class pairs a.txt with
    # b.bak too, and its key distance is the keys' own, not the extensions' offsets'
    t = np.arange(16) * 50 + 300
    u = t + np.array([2] + [0] * 15)
    sizes = np.full(3, 5000, np.int64)
    tables = np.array([t, t, u])
    space = SearchSpace.build(sizes, tables, extensions=["txt", "bak", "bak"],
                              class_extra=np.array([0, 0, 1]), classes_by_extension=False)
    pairs = expand_pairs(space.classes, space.class_pairs(Tolerances(1, 1)))
    assert pairs.tolist() == [[0, 1], [0, 2], [1, 2]]
    key_distance, sum_distance = pair_distances(space, pairs)
    plain = compute_keys(tables, SKEW)
    assert key_distance.tolist() == [0.0, abs(plain[2] - plain[0]), abs(plain[2] - plain[1])]
    assert sum_distance.tolist() == [0, 2, 2]


def test_an_override_names_an_extension_however_it_is_written():
    from simgui.core.search.simfind import parse_override

    for written in ("ps", ".ps", "*.ps", " PS ", ". ps"):
        ext, tol = parse_override(f"{written}=3.2,0.23")
        assert (ext, tol.key, tol.sum) == ("ps", 3.2, 0.23)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from([0, 1, 2**30 - 1, 2**31 - 1, 2**40]),
                          st.integers(0, 2**40)), min_size=16, max_size=16),
       st.sampled_from([np.int32, np.int64]))
def test_projections_equal_the_hadamard_rows(table, dtype):
    import simgui.core.search.simfind as simfind

    table = np.array(table, np.int64)
    if dtype == np.int32:
        table %= 2**31  # the search keeps tables in 32 bits only when they fit
    table = table.astype(dtype)
    hadamard = np.array([[(-1) ** bin(j & t).count("1") for t in range(16)] for j in range(16)])
    got = np.empty(9, np.int64)
    _projections(table, got)
    rows = hadamard.astype(object) @ table.astype(object).tolist()  # exact, in Python ints
    assert got.tolist() == [sum(table.tolist()), rows[1]] + [rows[j] for j in range(3, 16, 2)]
    assert np.array_equal(simfind._PROJECTIONS, hadamard[3::2])


@njit(cache=False)
def _projections(table, out):
    _project(table, 0, out)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 300), st.booleans(),
       st.sampled_from([(1.0, 1.0), (3.2, 3.2), (10.0, 5.0)]))
def test_only_pairs_of_classes_in_several_extensions_are_thinned(seed, n, override, tol):
    """class_pairs thins to one pair per class pair only the pairs touching a class
    searched in several extensions; the result equals thinning every pair."""
    files = analysis_collection(seed, n)
    space = SearchSpace.build(files.sizes, files.tables, extensions=files.extensions,
                              class_extra=np.frombuffer(b"".join(files.hashes), np.int64)
                              .reshape(n, 2), classes_by_extension=False)
    overrides = {"bin": Tolerances(0.5, 0.5)} if override else None
    key_frac, sum_frac = space.fractions(Tolerances(*tol), overrides)
    every, _ = simfind._similar_pairs(space.search_reps(), space.sizes, space.tables,
                                      np.ascontiguousarray(space.keys, np.float64),
                                      np.ascontiguousarray(space.ext_ids, np.int64),
                                      key_frac, sum_frac, space.extension_offsets(),
                                      space.size_factor, False)
    fixed = list(space.override_ids(overrides))
    preferred = np.isin(space.ext_ids[every[:, 0]], fixed) if fixed else None
    expected = every[space.one_per_class_pair(every, preferred)]
    np.testing.assert_array_equal(space.class_pairs(Tolerances(*tol), overrides), expected)
