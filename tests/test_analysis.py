"""Groups at any tolerance from one Analysis equal a brute-force grouping at that tolerance."""

import functools
import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import pytest
from simgui.core.search.analysis import Analysis, SearchSettings, find_groups
from simgui.core.search.keys import SKEW, compute_keys
from simgui.core.search import methods, simfind
from simgui.core.store import StoredFiles
from tests.reference import reference_pairs

# these tests check the paper's search itself: the content check after it is off
Tolerances = functools.partial(simfind.Tolerances, content=0.0)


def collection(seed: int, n: int) -> StoredFiles:
    """Clusters of near-equal tables, some exact copies, a few extensions, shared mtimes."""
    rng = np.random.default_rng(seed)
    base = rng.integers(100, 2000, (max(1, n // 4), 16))
    pick = rng.integers(0, len(base), n)
    tables = base[pick] + rng.integers(0, 40, (n, 16)) * (rng.random((n, 1)) < 0.6)
    sizes = (tables.sum(axis=1) * rng.choice([1.0, 1.0, 1.2, 2.0], n)).astype(np.int64)
    copy_of = np.where(rng.random(n) < 0.3, rng.integers(0, n, n), np.arange(n))
    tables, sizes = tables[copy_of], sizes[copy_of]
    hashes = [int(c).to_bytes(16, "little") for c in copy_of]
    exts = [["txt", "bin", "bak"][i % 3] if rng.random() < 0.3 else "txt" for i in range(n)]
    return StoredFiles(ids=np.arange(n), paths=[f"/d{i % 3}/f{i:04d}" for i in range(n)],
                       sizes=sizes, mtimes_ns=rng.integers(0, 4, n), devices=np.ones(n, np.int64),
                       inodes=np.arange(n), tables=tables.astype(np.int64), hashes=hashes,
                       extensions=exts)


_FACTORS = [1.0, 1.0, 1.2, 2.0]


def build_collection(bases, picks, copies, exts, mtimes) -> StoredFiles:
    """Files from drawn parts: ``picks`` (base index, perturbation or None, size factor
    index) per file, ``copies`` the file each is a copy of (itself when not a copy)."""
    n = len(picks)
    tables = np.array([np.add(bases[b], d if d is not None else 0) for b, d, _ in picks],
                      np.int64).reshape(n, 16)
    sizes = (tables.sum(axis=1) * np.array([_FACTORS[f] for _, _, f in picks])).astype(np.int64)
    copy_of = np.array([c if c < n else i for i, c in enumerate(copies)], np.int64)
    tables, sizes = tables[copy_of], sizes[copy_of]
    return StoredFiles(ids=np.arange(n), paths=[f"/d{i % 3}/f{i:04d}" for i in range(n)],
                       sizes=sizes, mtimes_ns=np.array(mtimes, np.int64).reshape(n),
                       devices=np.ones(n, np.int64), inodes=np.arange(n), tables=tables,
                       hashes=[int(c).to_bytes(16, "little") for c in copy_of], extensions=exts)


@st.composite
def collections(draw, min_size: int = 0, max_size: int = 40) -> StoredFiles:
    """The same shape as :func:`collection`, drawn part by part so that hypothesis can
    shrink a failure to a few files and small numbers."""
    n = draw(st.integers(min_size, max_size))
    row = st.lists(st.integers(100, 1999), min_size=16, max_size=16)
    bases = draw(st.lists(row, min_size=1, max_size=max(1, n // 4)))
    bump = st.none() | st.lists(st.integers(0, 39), min_size=16, max_size=16)
    picks = draw(st.lists(st.tuples(st.integers(0, len(bases) - 1), bump, st.integers(0, 3)),
                          min_size=n, max_size=n))
    # a file is a copy of another with probability about 0.3 (an index past the end: itself)
    copies = draw(st.lists(st.integers(0, max(0, int(n * 1.4))), min_size=n, max_size=n))
    exts = draw(st.lists(st.sampled_from(["txt", "txt", "txt", "bin", "bak"]),
                         min_size=n, max_size=n))
    mtimes = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return build_collection(bases, picks, copies, exts, mtimes)


def reference_groups(files: StoredFiles, tol: Tolerances, references=(),
                     overrides=None) -> list[list[str]]:
    """The grouping rule, spelled out: classes of identical files (the lowest index
    of each extension in a class stands for the class in the search: copies match in
    each of their extensions), best files first, an unclaimed class claims every
    unclaimed class similar to it.  ``overrides``: extension ->
    the tolerances its files are compared at instead of ``tol``."""
    n = len(files)
    klass = {}
    of_file = []
    for i in range(n):
        k = (int(files.sizes[i]), tuple(files.tables[i]), files.hashes[i])
        of_file.append(klass.setdefault(k, len(klass)))
    reps = {}
    for i in range(n):
        reps.setdefault((of_file[i], files.extensions[i]), i)
    keys = compute_keys(files.tables, SKEW, files.extensions)
    rep_list = sorted(reps.values())
    rep_ext = [files.extensions[i] for i in rep_list]
    overrides = overrides or {}
    pairs = []
    for ext, t in [(None, tol)] + list(overrides.items()):
        found = reference_pairs(files.sizes[rep_list], files.tables[rep_list], t.key, t.sum,
                                keys[rep_list], extensions=rep_ext)
        pairs += [(a, b) for a, b in found
                  if (rep_ext[a] == ext if ext else rep_ext[a] not in overrides)]
    near = {c: set() for c in set(of_file)}
    for a, b in pairs:
        ca, cb = of_file[rep_list[a]], of_file[rep_list[b]]
        near[ca].add(cb)
        near[cb].add(ca)

    def in_ref(p):
        return any(p.startswith(r + "/") for r in references)

    priority = sorted(range(n), key=lambda i: (not in_ref(files.paths[i]),
                                               int(files.mtimes_ns[i]), len(files.paths[i]), i))
    claimed, groups = set(), []
    for best in priority:
        c = of_file[best]
        if c in claimed:
            continue
        claimed.add(c)
        taken = [d for d in near[c] if d not in claimed]
        claimed.update(taken)
        members = [i for i in range(n) if of_file[i] in taken or (of_file[i] == c and i != best)]
        if members:
            groups.append([files.paths[best]] + sorted(files.paths[i] for i in members))
    return sorted(groups)


def as_lists(table) -> list[list[str]]:
    out = []
    for g in table.groups():
        out.append([g.reference.path] + sorted(m.path for m in g.members))
    return sorted(out)


@settings(max_examples=60, deadline=None)
@given(collections(),
       st.lists(st.sampled_from([0.0, 0.1, 0.5, 1.0, 3.2, 10.0]), min_size=2, max_size=2),
       st.booleans())
def test_groups_at_any_tolerance_equal_the_brute_force_rule(files, tol, with_reference):
    tolerances = Tolerances(*tol)
    refs = ("/d1",) if with_reference else ()
    analysis = Analysis.build(files, SearchSettings(references=refs))
    table = analysis.groups(tolerances)
    expected = reference_groups(files, tolerances, refs)
    assert as_lists(table) == expected
    assert analysis.counts(tolerances).groups == len(expected)
    # the one-tolerance path (the command line's) agrees
    assert sorted([g.reference.path] + sorted(m.path for m in g.members)
                  for g in find_groups(files, tolerances, references=refs)) == expected
    # every group as objects at once is each group as objects, field for field (with
    # Python values, not numpy scalars; repr, as an unknown similarity is NaN)
    assert repr(table.groups()) == repr([table.group(g) for g in range(len(table))])
    assert all(type(m.size) is int and type(m.similarity) is float and type(m.identical) is bool
               for g in table.groups() for m in g.files)


@settings(max_examples=40, deadline=None)
@given(collections(),
       st.sampled_from([0.0, 0.1, 1.0, 3.2, 10.0]),
       st.sampled_from([(0.0, 0.0), (0.1, 0.05), (1.0, 1.0), (10.0, 10.0)]))
def test_per_extension_overrides_fix_their_files_tolerances(files, slider, override):
    n = len(files)
    files = dataclasses.replace(files,
                                extensions=[["bin", "txt"][i % 2] for i in range(n)])
    overrides = {"bin": Tolerances(*override)}
    tolerances = Tolerances(slider, slider)
    expected = reference_groups(files, tolerances, overrides=overrides)
    # the window's path: one analysis for every slider position
    analysis = Analysis.build(files, SearchSettings(overrides=(("bin", *override),)))
    assert as_lists(analysis.groups(tolerances)) == expected
    assert analysis.counts(tolerances).groups == len(expected)
    # the command line's path
    assert sorted([g.reference.path] + sorted(m.path for m in g.members)
                  for g in find_groups(files, tolerances, overrides=overrides)) == expected


@settings(max_examples=30, deadline=None)
@given(collections(min_size=2))
def test_group_rows_carry_distances_to_their_reference(files):
    table = Analysis.build(files).groups(Tolerances(3.2, 3.2))
    keys = SKEW.keys(files.tables)
    bytes_seen = []
    for g in range(len(table)):
        lo, hi = table.start[g], table.start[g + 1]
        ref = table.rows[lo]
        assert table.identical[lo] and table.similarity[lo] == 100 and table.sum_distance[lo] == 0
        for r in range(lo + 1, hi):
            f = table.rows[r]
            assert table.sum_distance[r] == np.abs(files.tables[f] - files.tables[ref]).sum()
            assert np.isclose(table.key_distance[r], abs(keys[f] - keys[ref]))
            same = files.hashes[f] == files.hashes[ref] and table.sum_distance[r] == 0 \
                and files.sizes[f] == files.sizes[ref]
            assert table.identical[r] == same
            assert (table.similarity[r] == 100) == same
        # identical members first, then by distance
        order = list(zip(~table.identical[lo + 1:hi], table.sum_distance[lo + 1:hi]))
        assert order == sorted(order)
        bytes_seen.append(int(files.sizes[table.rows[lo + 1:hi]].sum()))
        assert table.group_bytes[g] == bytes_seen[-1]
    assert bytes_seen == sorted(bytes_seen, reverse=True)  # largest groups first


def test_empty_store_gives_no_groups_and_zero_counts():
    files = collection(0, 0)
    analysis = Analysis.build(files)
    assert len(analysis.groups(Tolerances())) == 0
    counts = analysis.counts(Tolerances())
    assert (counts.key_hits, counts.sum_hits, counts.groups, counts.all_pairs) == (0, 0, 0, 0)


def test_tolerances_above_the_ceiling_are_refused():
    import pytest
    analysis = Analysis.build(collection(1, 10), ceiling=Tolerances(1, 1))
    with pytest.raises(ValueError):
        analysis.groups(Tolerances(2, 1))
    with pytest.raises(ValueError):
        analysis.counts(Tolerances(1, 1))  # built without key hits


def test_the_sum_ceiling_comes_down_when_pairs_exceed_the_budget():
    from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, ToleranceStats
    files = collection(5, 6000)
    space = Analysis.build(files).space
    assert ToleranceStats.build(space, max_found=10**12).max_sum == 10.0
    low = ToleranceStats.build(
        space, max_found=len(space.class_pairs(Tolerances(10, 10))) // 4).max_sum
    assert low < 10.0
    full = Analysis.build(files).stats
    lowered = ToleranceStats.build(space, 10.0, None, max_sum=low)
    assert lowered.pairs_kept < full.pairs_kept  # fewer pairs kept
    # below the ceiling, groups and counts stay exact; above it, counts at every step
    # still are (the search tallied every pair), groups are refused
    tol = Tolerances(10.0, low)
    # (groups differ by the order classes are taken in: the analysis's, not index order)
    assert dataclasses.replace(lowered.counts(tol), groups=0) == \
        dataclasses.replace(full.counts(tol), groups=0)
    steps = TOLERANCE_STEPS[::5]
    for key, value in lowered.curve(steps).items():
        np.testing.assert_array_equal(value, full.curve(steps)[key])
    with pytest.raises(ValueError):
        lowered.assign(Tolerances(10.0, 10.0))


def test_the_sum_ceiling_does_not_depend_on_extension_numbering():
    # one dense kind of file; the odd file's extension sorts before or after it
    from simgui.core.search.simfind import SearchSpace
    from simgui.core.search.tolerance_stats import ToleranceStats
    rng = np.random.default_rng(0)
    tables = rng.integers(1000, 1010, (4000, 16))
    sizes = tables.sum(axis=1) * 3
    ceilings = {odd: ToleranceStats.build(SearchSpace.build(
        sizes, tables, extensions=["txt"] * 3999 + [odd]), max_found=200_000).max_sum
        for odd in ("aaa", "zzz")}
    assert ceilings["aaa"] == ceilings["zzz"] < 10.0


def test_overridden_extensions_count_against_the_pair_budget():
    from simgui.core.search.simfind import SearchSpace
    from simgui.core.search.tolerance_stats import ToleranceStats
    rng = np.random.default_rng(1)
    tables = rng.integers(1000, 1300, (4000, 16))
    sizes = tables.sum(axis=1) * 3
    space = SearchSpace.build(sizes, tables, extensions=["ps", "txt"] * 2000)
    budget = 2 * len(space.class_pairs(Tolerances(10.0, 0.5)))
    plain = ToleranceStats.build(space, max_found=budget).max_sum
    loose = ToleranceStats.build(space, max_found=budget,
                                 overrides={"ps": Tolerances(10.0, 10.0)}).max_sum
    assert loose < plain < 10.0
    # only similar pairs of an overridden extension are met (and counted as key hits)
    tight = {"ps": Tolerances(10.0, 0.01)}
    held = ToleranceStats.build(space, 0.01, overrides=tight)
    any_sum = Tolerances(0.01, 3200.0)
    assert held.key_hits_at[0] == len(space.class_pairs(any_sum, tight)) < \
        len(space.class_pairs(any_sum, {"ps": Tolerances(10.0, 3200.0)}))


def test_reference_rule_chooses_each_groups_reference():
    import pytest
    files = collection(11, 40)
    keys = {"oldest": files.mtimes_ns, "newest": -files.mtimes_ns, "largest": -files.sizes}
    for rule, key in keys.items():
        table = Analysis.build(files, SearchSettings(reference_rule=rule)).groups(Tolerances(3.2, 3.2))
        assert len(table)
        for g in range(len(table)):
            rows = table.rows[table.start[g]:table.start[g + 1]].tolist()
            ref = rows[0]
            # the reference is the best of its copies (other members may lead no class)
            copies = [f for f in rows if files.hashes[f] == files.hashes[ref]]
            assert key[ref] == min(key[f] for f in copies)
    with pytest.raises(ValueError):
        Analysis.build(files, SearchSettings(reference_rule="random"))


def two_classes_of_copies(exts, a_table, b_table, size) -> StoredFiles:
    """Copies /a.<exts[0]>, /a.<exts[1]> and copies /b.<exts[0]>, /b.<exts[1]>."""
    exts = list(exts) * 2
    return StoredFiles(ids=np.arange(4), paths=[f"/{c}.{e}" for c, e in zip("aabb", exts)],
                       sizes=np.full(4, size, np.int64), mtimes_ns=np.arange(4),
                       devices=np.ones(4, np.int64), inodes=np.arange(4),
                       tables=np.array([a_table, a_table, b_table, b_table], np.int64),
                       hashes=[b"a" * 16, b"a" * 16, b"b" * 16, b"b" * 16], extensions=exts)


def test_copies_matching_in_an_overridden_extension_match_at_any_slider():
    # classes {a.ps, a.txt} and {b.ps, b.txt} match in both extensions; in txt by its
    # own fixed tolerances, so they are one group even with the sliders at 0 (the ps
    # match, which the sliders move, must not be the one kept)
    t = np.arange(16) * 50 + 300
    u = t + np.array([3] + [0] * 15)
    for order in (["txt", "ps"], ["ps", "txt"]):
        files = two_classes_of_copies(order, t, u, 5000)
        analysis = Analysis.build(files, SearchSettings(overrides=(("txt", 5.0, 5.0),)))
        for sliders in (Tolerances(0, 0), Tolerances(10, 10)):
            assert as_lists(analysis.groups(sliders)) == [
                [f"/a.{order[0]}"] + sorted([f"/a.{order[1]}", "/b.ps", "/b.txt"])]
        assert analysis.counts(Tolerances(0, 0)).groups == 1


def test_copies_matching_in_two_extensions_count_the_closer_match():
    # keys carry their extension's offset (near 2**44), so one class pair's key distance
    # rounds differently in md (3.29004) and in pdf (3.28906): at a key limit between
    # them (3.2891) the pair is a hit in pdf, and the sliders must agree with a search
    t = np.array([2028, 1443, 546, 851, 1760, 1117, 376, 1545, 2545, 2457, 311, 2071, 841, 410,
                  1672, 1600])
    u = t.copy()
    u[2] += 1
    tolerances = Tolerances(0.01, 10)
    for order in (["md", "pdf"], ["pdf", "md"]):
        files = two_classes_of_copies(order, t, u, 32891)
        expected = reference_groups(files, tolerances)
        assert len(expected) == 1 and len(expected[0]) == 4
        analysis = Analysis.build(files, SearchSettings())
        assert as_lists(analysis.groups(tolerances)) == expected
        assert analysis.counts(tolerances).groups == 1
        assert len(find_groups(files, tolerances)) == 1


@settings(max_examples=40, deadline=None)
@given(collections(min_size=2, max_size=60), st.sampled_from([1.0, 3.2, 10.0]))
def test_members_identical_to_each_other_are_marked_copies_of_the_first(files, tol):
    # the rule: a member not identical to the reference is a copy of the first row of
    # its group holding the same content (size, sum table, hash), if that is another row
    n = len(files)
    table = Analysis.build(files, SearchSettings()).groups(Tolerances(tol, tol))
    content = [(int(files.sizes[f]), tuple(files.tables[f]), files.hashes[f]) for f in range(n)]
    for g in range(len(table)):
        lo, hi = int(table.start[g]), int(table.start[g + 1])
        first_with = {}
        for r in range(lo, hi):
            first_with.setdefault(content[table.rows[r]], r)
        for r in range(lo, hi):
            first = first_with[content[table.rows[r]]]
            expected = first if first < r and not table.identical[r] else -1
            assert table.copy_of[r] == expected
            # a set's files follow each other, and each knows the set's size
            if expected >= 0:
                assert all(table.copy_of[q] == first for q in range(first + 1, r + 1))
            same = sum(1 for q in range(lo, hi) if content[table.rows[q]] == content[table.rows[r]])
            assert table.copies[r] == (same if same > 1 and not table.identical[r] and r > lo
                                       else 0)


def copies_beside_a_similar_reference() -> StoredFiles:
    """Like git's RelNotes: three copies /r/{a,b,c}/2.37.5.txt, the older reference
    /r/2.34.5.txt a few counts away from them, and /r/2.35.5.txt near both."""
    t = np.arange(16) * 50 + 300
    edit = t + np.array([2] + [0] * 15)
    paths = ["/r/2.34.5.txt", "/r/b/2.37.5.txt", "/r/a/2.37.5.txt", "/r/c/2.37.5.txt",
             "/r/2.35.5.txt"]
    return StoredFiles(ids=np.arange(5), paths=paths, sizes=np.full(5, 5000, np.int64),
                       mtimes_ns=np.array([0, 1, 1, 1, 2]), devices=np.ones(5, np.int64),
                       inodes=np.arange(5),
                       tables=np.array([t, edit, edit, edit, edit + 5 * (t < 400)]),
                       hashes=[b"r" * 16, b"c" * 16, b"c" * 16, b"c" * 16, b"s" * 16],
                       extensions=["txt"] * 5)


def test_copies_of_each_other_only_similar_to_the_reference_are_named_in_the_export():
    import io

    from simgui.core.search.export import write_groups

    files = copies_beside_a_similar_reference()
    (group,) = Analysis.build(files, SearchSettings()).groups(Tolerances(3.2, 1.0)).groups()
    assert group.reference.path == "/r/2.34.5.txt"
    by_path = {m.path: m for m in group.members}
    assert not any(m.identical for m in group.members)
    assert by_path["/r/a/2.37.5.txt"].copy_of == ""  # the first of the copies, by path
    assert by_path["/r/b/2.37.5.txt"].copy_of == "/r/a/2.37.5.txt"
    assert by_path["/r/c/2.37.5.txt"].copy_of == "/r/a/2.37.5.txt"
    assert by_path["/r/2.35.5.txt"].copy_of == ""
    out = io.StringIO()
    write_groups([group], out, "csv")
    lines = out.getvalue().splitlines()
    assert lines[0].endswith(",copy_of")
    assert sum(line.endswith(",/r/a/2.37.5.txt") for line in lines) == 2


def test_a_file_stored_through_a_linked_folder_is_in_its_reference_folder(tmp_path):
    # /real/keep holds b; the store knows b through the link /via -> /real/keep (a scan
    # with --follow-symlinks).  With /real as the reference folder, b is the group's
    # reference, as clean-up protects it, though a is older
    (tmp_path / "real" / "keep").mkdir(parents=True)
    (tmp_path / "via").symlink_to(tmp_path / "real" / "keep")
    table = np.arange(16, dtype=np.int64) * 40 + 100
    files = StoredFiles(ids=np.arange(2), paths=[str(tmp_path / "other" / "a"),
                                                 str(tmp_path / "via" / "b")],
                        sizes=np.full(2, 20_000, np.int64), mtimes_ns=np.array([1, 2]),
                        devices=np.ones(2, np.int64), inodes=np.arange(2),
                        tables=np.stack([table, table]), hashes=[b"h" * 16] * 2,
                        extensions=["bin", "bin"])
    settings = SearchSettings(reference_rule="oldest", references=(str(tmp_path / "real"),))
    table_ = Analysis.build(files, settings).groups(Tolerances(1, 1))
    assert as_lists(table_) == [[str(tmp_path / "via" / "b"), str(tmp_path / "other" / "a")]]
    without = dataclasses.replace(settings, references=())
    assert as_lists(Analysis.build(files, without).groups(Tolerances(1, 1)))[0][0].endswith("a")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 400), st.lists(
    st.tuples(st.sampled_from([0.1, 0.5, 1.0, 3.2, 5.0, 10.0]),
              st.sampled_from([0.1, 0.5, 1.0, 3.2, 5.0, 10.0])), min_size=2, max_size=6),
       st.booleans())
def test_slider_moves_on_one_analysis_equal_fresh_analyses(seed, n, moves, references):
    """One analysis keeps each class's distances to its last reference from move to
    move (group_rows.ClassRecords); every move's table equals that of an analysis that
    measured everything afresh, column for column."""
    files = collection(seed, n)
    settings_ = SearchSettings(references=("/d1",) if references else ())
    kept = Analysis.build(files, settings_)
    for key, sum_ in moves:
        tolerances = Tolerances(key, sum_)
        got = kept.groups(tolerances)
        expected = Analysis.build(files, settings_).groups(tolerances)
        for name in ("start", "rows", "key_distance", "sum_distance", "identical",
                     "group_bytes", "copy_of"):
            np.testing.assert_array_equal(getattr(got, name), getattr(expected, name),
                                          err_msg=name)


def test_similarities_kept_between_moves_are_the_ones_measured_afresh():
    """A group table's similarities are measured once per file and reference
    (Analysis.similarities): moving the sliders over their range and back gives, at
    each setting, what measuring every file against its reference gives."""
    files = collection(21, 600)
    rng = np.random.default_rng(4)
    # signatures of copies are equal; of the rest, related ones share some slots
    own = rng.integers(0, 2**32, (600, 128), dtype=np.uint32)
    family = rng.integers(0, 150, 600)
    kept = rng.random((600, 128)) < rng.uniform(0.3, 1.0, (600, 1))
    signatures = np.where(kept, own[family], own)
    copy_of = np.array([int.from_bytes(h, "little") for h in files.hashes])
    signatures = signatures[copy_of]
    fingerprinted = rng.random(600) < 0.95  # some without: their similarity unknown
    fingerprinted = fingerprinted[copy_of]
    files = dataclasses.replace(files, signatures=signatures, fingerprinted=fingerprinted)
    analysis = Analysis.build(files)
    steps = [0.01, 0.5, 3.2, 10.0, 1.0, 0.1, 10.0, 2.0]
    for key, sum_ in zip(steps, steps[::-1]):
        table = analysis.groups(Tolerances(key, sum_))
        ref = np.repeat(table.rows[table.start[:-1]], np.diff(table.start))
        fresh = methods.pair_similarity("paper", analysis.files, table.rows, ref,
                                        table.identical)
        np.testing.assert_array_equal(table.similarity, fresh)
