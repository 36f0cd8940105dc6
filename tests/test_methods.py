"""The simhash and MinHash methods: pair searches against brute force, and the same
answers from the store, the analysis the window uses and the command line."""

import json
import sqlite3

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.cli import main
from simgui.core.search import methods
from simgui.core.search.analysis import Analysis, MissingFingerprints, SearchSettings, find_groups
from simgui.core.reading.fingerprints import SLOTS, fingerprints
from simgui.core.reading.scanner import ScanOptions, scan
from simgui.core.search.simfind import SearchSpace, Tolerances
from simgui.core.search.tolerances import LOWEST_MIN_CONTENT
from simgui.core.store import MINHASH_SLOTS, Store
from tests.reference import tag_free_bytes


def brute_simhash(fps, bits):
    out = []
    for i in range(len(fps)):
        for j in range(i + 1, len(fps)):
            if bin(int(fps[i]) ^ int(fps[j])).count("1") <= bits:
                out.append((i, j))
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=40), st.integers(0, 6), st.data())
def test_simhash_pairs_equal_brute_force(values, bits, data):
    # near neighbours and duplicates, so that every distance up to the limit occurs
    for v in list(values[:10]):
        flips = data.draw(st.lists(st.integers(0, 63), max_size=bits + 1, unique=True))
        values.append(v ^ sum(1 << f for f in flips))
    fps = np.array(values, np.uint64)
    pairs, difference = methods.simhash_pairs(fps, bits)
    assert [tuple(p) for p in pairs.tolist()] == brute_simhash(fps, bits)
    for (i, j), d in zip(pairs.tolist(), difference.tolist()):
        assert d == pytest.approx(bin(int(fps[i]) ^ int(fps[j])).count("1") * 100 / 64)


def test_simhash_refuses_distances_it_cannot_search():
    with pytest.raises(ValueError):
        methods.simhash_pairs(np.zeros(3, np.uint64), methods.SIMHASH_MAX_BITS + 1)


def test_lsh_bands_fit_the_signature_and_centre_on_the_threshold():
    for threshold in (0.3, 0.5, 0.6, 0.8, 0.9):
        bands, rows = methods.lsh_bands(threshold)
        assert bands * rows <= SLOTS
        # the curve's steepest point, (1/b)^(1/r), sits near the threshold
        assert abs((1 / bands) ** (1 / rows) - threshold) < 0.15
    with pytest.raises(ValueError):
        methods.lsh_bands(1.0)


def signatures_with_planted_pairs(rng, n, resemblances):
    sigs = rng.integers(0, 2**32, (n, SLOTS), dtype=np.uint32)
    planted = []
    for k, r in enumerate(resemblances):
        a, b = 2 * k, 2 * k + 1
        sigs[b] = sigs[a]
        change = rng.choice(SLOTS, SLOTS - int(round(r * SLOTS)), replace=False)
        sigs[b, change] = rng.integers(0, 2**32, len(change), dtype=np.uint32)
        planted.append((a, b))
    return sigs, planted


def test_minhash_pairs_are_verified_and_find_the_clearly_similar():
    rng = np.random.default_rng(5)
    sigs, planted = signatures_with_planted_pairs(rng, 400, [1.0, 0.95, 0.9, 0.85, 0.8, 0.75,
                                                             0.4, 0.3, 0.1])
    pairs, difference = methods.minhash_pairs(sigs, 0.5)
    equal = (sigs[pairs[:, 0]] == sigs[pairs[:, 1]]).sum(axis=1)
    assert (equal >= 64).all()  # nothing below the threshold is reported
    assert np.allclose(difference, 100 * (SLOTS - equal) / SLOTS)
    found = {tuple(p) for p in pairs.tolist()}
    assert set(planted[:6]) <= found  # resemblance >= 0.75: found
    assert not set(planted[6:]) & found  # 0.4 and less: never
    assert (pairs[:, 0] < pairs[:, 1]).all()


def test_minhash_threshold_boundary_is_inclusive():
    rng = np.random.default_rng(6)
    sigs, planted = signatures_with_planted_pairs(rng, 4, [0.75])
    equal = int((sigs[0] == sigs[1]).sum())
    assert [tuple(p) for p in methods.minhash_pairs(sigs, equal / SLOTS)[0].tolist()] == planted
    assert methods.minhash_pairs(sigs, (equal + 1) / SLOTS)[0].tolist() == []


def test_the_store_spells_out_the_signature_length():
    assert MINHASH_SLOTS == SLOTS


@pytest.fixture
def tree(tmp_path):
    rng = np.random.default_rng(7)
    root = tmp_path / "files"
    root.mkdir()
    for i in range(6):
        base = rng.integers(0, 256, 20_000, dtype=np.uint8)
        (root / f"f{i}.bin").write_bytes(base.tobytes())
        edited = base.copy()
        edited[rng.choice(len(base), 10, replace=False)] ^= 0x20
        (root / f"f{i}~edit.bin").write_bytes(edited.tobytes())
        if i % 2:
            other = np.concatenate([base[:15_000], rng.integers(0, 256, 20, dtype=np.uint8),
                                    base[15_000:]])
            (root / f"f{i}~insert.bin").write_bytes(other.tobytes())
    (root / "f0 copy.bin").write_bytes((root / "f0.bin").read_bytes())
    (root / "small.txt").write_bytes(b"too small to be similar")
    return root


def scanned(tree, tmp_path, fingerprints_on=True):
    store = Store(tmp_path / "s.sqlite3")
    scan(store, [tree], ScanOptions(fingerprints=fingerprints_on))
    return store


def test_scan_stores_the_fingerprints_of_each_file(tree, tmp_path):
    store = scanned(tree, tmp_path)
    files = store.files()
    assert files.fingerprinted.all()
    for k, path in enumerate(files.paths):
        simhash, signature = fingerprints(open(path, "rb").read())
        assert int(files.simhashes[k]) == simhash  # all 64 bits, the top one too
        assert files.signatures[k].tolist() == signature.tolist()


def test_files_scanned_without_fingerprints_are_read_again_once(tree, tmp_path):
    store = scanned(tree, tmp_path, fingerprints_on=False)
    assert not store.files().fingerprinted.any()
    report = scan(store, [tree], ScanOptions(fingerprints=True))
    assert report.files_read == report.files_found
    again = scan(store, [tree], ScanOptions(fingerprints=True))
    assert again.files_read == 0 and again.files_unchanged == again.files_found
    # a scan without fingerprints keeps those it has
    scan(store, [tree], ScanOptions())
    assert store.files().fingerprinted.all()


def test_an_older_store_gains_empty_fingerprint_columns(tmp_path):
    path = tmp_path / "old.sqlite3"
    with Store(path) as store:
        pass
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE files DROP COLUMN simhash")
    db.execute("ALTER TABLE files DROP COLUMN minhash")
    db.execute("INSERT INTO files (path, size, mtime_ns, device, inode, extension, tagset_id, "
               "sum_table, content_hash, scanned_at) VALUES (x'2f61', 3, 1, 1, 1, '', 1, ?, ?, 0)",
               (bytes(128), bytes(16)))
    db.execute("ALTER TABLE batches DROP COLUMN roots")  # and those of later migrations
    for column in ("hash", "width", "height", "format", "error"):
        db.execute(f"ALTER TABLE files DROP COLUMN picture_{column}")
    db.execute("PRAGMA user_version = 2")  # a store from before migration 3 (fingerprints)
    db.commit()
    db.close()
    with Store(path) as store:
        files = store.files()
        assert files.paths == ["/a"] and not files.fingerprinted.any()


@pytest.mark.parametrize("method", ["simhash", "minhash"])
def test_groups_hold_each_edit_with_its_source(tree, tmp_path, method):
    files = scanned(tree, tmp_path).files()
    groups = find_groups(files, Tolerances(0, methods.default_difference(method)), method=method)
    members = sorted(sorted(m.path.rsplit("/", 1)[1] for m in g.files) for g in groups)
    assert members == sorted(
        sorted([f"f{i}.bin", f"f{i}~edit.bin"] + ([f"f{i}~insert.bin"] if i % 2 else [])
               + (["f0 copy.bin"] if i == 0 else [])) for i in range(6))
    for g in groups:
        for m in g.members:
            if m.identical:
                assert m.similarity == 100
            else:
                assert 100 - methods.default_difference(method) <= m.similarity < 100


@pytest.mark.parametrize("method", ["simhash", "minhash"])
def test_slider_counts_and_groups_equal_a_search_at_each_difference(tree, tmp_path, method):
    files = scanned(tree, tmp_path).files()
    analysis = Analysis.build(files, SearchSettings(method=method))
    space = SearchSpace.build(files.sizes, files.tables, extensions=files.extensions,
                              class_extra=analysis.hashes)
    n = len(files)
    a, b = np.triu_indices(n, 1)
    difference = methods.differences(method, files.simhashes[a], files.signatures[a],
                                     files.simhashes[b], files.signatures[b])
    same_ext = np.array([files.extensions[i] == files.extensions[j] for i, j in zip(a, b)])
    big = np.maximum(files.sizes[a], files.sizes[b])
    eligible = (same_ext & (big <= 1.5 * np.minimum(files.sizes[a], files.sizes[b]))
                & (np.minimum(files.sizes[a], files.sizes[b]) >= 64))
    identical = (analysis.hashes[a] == analysis.hashes[b]).all(axis=1)
    assert len(space.classes.first) < n  # the copy makes a class
    for step in (0.0, 3.125, 10.0, methods.ceiling_difference(method)):
        tolerances = Tolerances(0, step)
        counts, table = analysis.at(tolerances)
        expected = int((identical | (eligible & (difference <= step))).sum())
        assert counts.sum_hits == expected
        one_search = find_groups(files, tolerances, method=method)
        assert [[m.path for m in g.files] for g in table.groups()] == \
            [[m.path for m in g.files] for g in one_search]


def test_a_method_without_fingerprints_says_how_to_get_them(tree, tmp_path):
    files = scanned(tree, tmp_path, fingerprints_on=False).files()
    with pytest.raises(MissingFingerprints, match="scan again"):
        Analysis.build(files, SearchSettings(method="minhash"))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_command_line_methods(tree, tmp_path, capsys):
    db = str(tmp_path / "cli.sqlite3")
    with Store(db) as store:  # as an older simgui stored them: no fingerprints
        scan(store, [tree], ScanOptions(fingerprints=False))
    for method in ("simhash", "paper"):
        code, _, err = run(capsys, "pairs", "--db", db, "--method", method)
        assert code == 2 and "no content fingerprints" in err and "simgui scan" in err
    assert "--no-check" in err  # the paper's method can still run as published
    assert run(capsys, "pairs", "--db", db, "--no-check")[0] == 0
    # a plain scan reads those files once more, and says why
    code, _, err = run(capsys, "scan", "--db", db, str(tree))
    assert code == 0 and "read once more" in err and "without the content fingerprints" in err
    code, out, _ = run(capsys, "pairs", "--db", db, "--method", "minhash", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    names = {tuple(sorted(r[k].rsplit("/", 1)[1] for k in ("path_a", "path_b"))) for r in rows}
    assert ("f2.bin", "f2~edit.bin") in names and code == 0
    assert all(r["similarity"] >= 60 for r in rows)
    code, out, _ = run(capsys, "similar", "--db", db, "--method", "simhash",
                       str(tree / "f3.bin"), "--format", "json")
    hits = [json.loads(line)["path"].rsplit("/", 1)[1] for line in out.splitlines()]
    assert sorted(hits) == ["f3~edit.bin", "f3~insert.bin"]
    for bad in (["--method", "simhash", "--threshold", "9"],
                ["--method", "simhash", "--threshold", "2.5"],
                ["--method", "minhash", "--threshold", "30"], ["--threshold", "3"]):
        code, _, err = run(capsys, "groups", "--db", db, *bad)
        assert code == 2 and "--threshold" in err


@pytest.mark.parametrize("method", ["simhash", "minhash"])
def test_histograms_count_every_pair_once(method):
    rng = np.random.default_rng(8)
    n = 50
    simhashes = rng.integers(0, 2**63, n, dtype=np.uint64)
    signatures = rng.integers(0, 2**32, (n, SLOTS), dtype=np.uint32)
    signatures[1] = signatures[0]
    simhashes[1] = simhashes[0]
    sampled = methods.distance_histogram(method, simhashes, signatures, sample=20_000)
    assert sampled.sum() == pytest.approx(n * (n - 1) / 2)
    assert len(sampled) == len(methods.distance_bins(method))
    a, b = np.triu_indices(n, 1)
    difference = methods.differences(method, simhashes[a], signatures[a], simhashes[b],
                                     signatures[b])
    exact = methods.pair_histogram(method, difference, np.ones(len(a)))
    assert exact.sum() == len(a)
    same = methods.distance_bins(method) == (0 if method == "simhash" else 100)
    assert exact[same][0] == 1  # the planted pair, and random ones are never that close
    # the sample puts its weight where the exact histogram has it
    assert abs(np.argmax(sampled) - np.argmax(exact)) <= 2


def test_the_resemblance_check_removes_unrelated_pairs_a_high_tolerance_lets_in(tmp_path,
                                                                               capsys):
    """The paper's method at 10 % / 10 % pairs unrelated random files of similar size (their
    sum tables are all near the average); the MinHash check keeps only the real edits."""
    rng = np.random.default_rng(9)
    root = tmp_path / "random"
    root.mkdir()
    for i in range(8):
        base = rng.integers(0, 256, 30_000 + 50 * i, dtype=np.uint8)
        (root / f"r{i}.bin").write_bytes(base.tobytes())
        if i < 3:
            base[rng.choice(len(base), 30, replace=False)] ^= 1
            (root / f"r{i}~edit.bin").write_bytes(base.tobytes())
    files = scanned(root, tmp_path).files()
    loose = Tolerances(10, 10, 0)
    plain = find_groups(files, loose)
    checked = find_groups(files, Tolerances(10, 10))  # the content check is the default
    names = lambda groups: sorted(sorted(m.path.rsplit("/", 1)[1] for m in g.files)
                                  for g in groups)
    # without the check, unrelated random files join the groups
    assert sum(len(g.files) for g in plain) > sum(len(g.files) for g in checked)
    assert names(checked) == [[f"r{i}.bin", f"r{i}~edit.bin"] for i in range(3)]
    analysis = Analysis.build(files)
    counts = analysis.counts(Tolerances(10, 10))
    assert counts.similar == 3 and counts.sum_hits > counts.similar  # the check is last
    # with the check on, the window keeps only pairs it can confirm at some setting, so
    # it cannot be turned off on that analysis (the window searches again) ...
    assert analysis.stats.content_floor == LOWEST_MIN_CONTENT
    assert analysis.stats.pairs_kept == 3
    with pytest.raises(ValueError, match="content check cannot be lower"):
        analysis.counts(loose)
    # ... whereas built with the check off, it can be turned on and off live
    unchecked = Analysis.build(files, SearchSettings(content_check=False))
    assert unchecked.counts(Tolerances(10, 10)) == counts
    plain_counts = unchecked.counts(loose)
    assert plain_counts.key_hits == counts.key_hits and plain_counts.sum_hits == counts.sum_hits
    assert plain_counts.similar == plain_counts.sum_hits
    assert [[m.path for m in g.files] for g in analysis.groups(Tolerances(10, 10)).groups()] \
        == [[m.path for m in g.files] for g in checked]

    db = str(tmp_path / "s.sqlite3")
    code, out, _ = run(capsys, "pairs", "--db", db, "--key-tolerance", "10", "--sum-tolerance",
                       "10", "--format", "json")
    pairs = sorted(tuple(sorted(json.loads(l)[k].rsplit("/", 1)[1] for k in ("path_a", "path_b")))
                   for l in out.splitlines())
    assert code == 0 and pairs == [(f"r{i}.bin", f"r{i}~edit.bin") for i in range(3)]
    code, out, _ = run(capsys, "similar", "--db", db, "--key-tolerance", "10",
                       "--sum-tolerance", "10", str(root / "r1.bin"))
    assert code == 0 and out.split()[-1].endswith("r1~edit.bin") and len(out.splitlines()) == 1
    code, out, _ = run(capsys, "pairs", "--db", db, "--key-tolerance", "10", "--sum-tolerance",
                       "10", "--no-check")
    assert code == 0 and len(out.splitlines()) - 1 > 3  # unrelated files, unconfirmed


def test_a_content_floor_keeps_every_pair_the_check_can_confirm(tmp_path):
    """An analysis built with the check on keeps only the pairs with at least the lowest
    share of content the check can be set to; at every setting of the check its counts
    and groups equal those of one that kept every pair."""
    rng = np.random.default_rng(4)
    root = tmp_path / "edits"
    root.mkdir()
    for i in range(6):
        base = rng.integers(0, 256, 20_000 + 40 * i, dtype=np.uint8)
        (root / f"b{i}.bin").write_bytes(base.tobytes())
        for share in (0.01, 0.2, 0.5, 0.8, 0.95):  # of the bytes rewritten
            edit = base.copy()
            cut = int(len(edit) * share)
            edit[:cut] = rng.integers(0, 256, cut, dtype=np.uint8)
            (root / f"b{i}~{share}.bin").write_bytes(edit.tobytes())
    files = scanned(root, tmp_path).files()
    floored = Analysis.build(files)
    full = Analysis.build(files, SearchSettings(content_check=False))
    assert floored.stats.content_floor == LOWEST_MIN_CONTENT and full.stats.content_floor == 0
    assert 0 < floored.stats.pairs_kept < full.stats.pairs_kept
    # every pair with its tolerances and share, nothing left out: what the counts must be
    from simgui.core.search.tolerance_stats import ToleranceStats
    whole = ToleranceStats.build(floored.space, 10.0,
                                 content=methods.ContentShares(floored.files.signatures))
    # (between the slider steps, each asks a search of its own, which a search at one
    # tolerance, the command line's, must agree with)
    for key, sum_ in ((10.0, 10.0), (3.2, 5.0), (1.0, 0.5), (3.25, 5.55), (0.0, 0.0)):
        for content in (LOWEST_MIN_CONTENT, 25.0, 50.0, 90.0):
            at = Tolerances(key, sum_, content)
            counts, table = floored.at(at)
            expected = whole.counts(at)
            assert (counts.key_hits, counts.similar) == (expected.key_hits, expected.similar)
            # sum-table hits below the floor are not kept: unknown between the steps
            on_steps = floored.stats.on_steps(at)
            assert counts.sum_hits == (expected.sum_hits if on_steps else None)
            assert counts.groups == full.counts(at).groups == len(table)
            groups = [[m.path for m in g.files] for g in table.groups()]
            assert groups == [[m.path for m in g.files] for g in full.groups(at).groups()]
            assert groups == [[m.path for m in g.files] for g in find_groups(files, at)]


def test_the_index_and_fingerprints_are_part_of_the_core_api():
    import simgui.core as core

    index = core.HammingIndex(6, 3)
    a, _ = core.fingerprints(b"some content to fingerprint" * 20)
    index.add(np.array([a], np.uint64))
    found = index.find_all(np.array([a ^ 0b101], np.uint64))
    assert [f.tolist() for f in found] == [[a]]


def test_check_compares_files_whose_sum_tables_are_equal_but_contents_differ(tmp_path, capsys):
    """Bytes holding no tag give all-zero sum tables: one class for the paper's method, but
    the check must still compare their contents (review: pairs --check reported a-b)."""
    rng = np.random.default_rng(12)
    from simgui.core.reading.sumtable import sum_table

    quiet = tag_free_bytes()
    assert len(quiet) >= 4
    root = tmp_path / "quiet"
    root.mkdir()
    a = rng.choice(quiet, 4000).astype(np.uint8)
    b = rng.choice(quiet, 4000).astype(np.uint8)
    c = a.copy()
    c[100:110] = quiet[0]
    for name, data in (("a.bin", a), ("b.bin", b), ("c.bin", c)):
        assert not any(sum_table(data.tobytes()))
        (root / name).write_bytes(data.tobytes())
    db = str(tmp_path / "q.sqlite3")
    assert run(capsys, "scan", "--db", db, "-q", "--fingerprints", str(root))[0] == 0
    code, out, _ = run(capsys, "pairs", "--db", db, "--check", "30", "--format", "json")
    found = sorted(tuple(sorted(json.loads(l)[k].rsplit("/", 1)[1] for k in ("path_a", "path_b")))
                   for l in out.splitlines())
    assert code == 0 and found == [("a.bin", "c.bin")]


def test_similar_by_fingerprints_keeps_the_smallest_similar_size(tmp_path, capsys):
    root = tmp_path / "tiny"
    root.mkdir()
    (root / "a.txt").write_bytes(b"password=hunter0\n")
    (root / "b.txt").write_bytes(b"password=hunter1\n")
    (root / "c.txt").write_bytes(b"password=hunter0\n")
    db = str(tmp_path / "t.sqlite3")
    run(capsys, "scan", "--db", db, "-q", "--fingerprints", str(root))
    for method in ("simhash", "minhash"):
        code, out, _ = run(capsys, "similar", "--db", db, "--method", method,
                           str(root / "a.txt"), "--format", "json")
        assert code == 0
        assert [json.loads(l)["path"].rsplit("/", 1)[1] for l in out.splitlines()] == ["c.txt"]


@pytest.mark.parametrize("threshold", ["nan", "inf", "-inf"])
def test_non_finite_thresholds_are_refused(tmp_path, capsys, threshold):
    db = str(tmp_path / "n.sqlite3")
    for method in ("simhash", "minhash"):
        code, _, err = run(capsys, "groups", "--db", db, "--method", method,
                           f"--threshold={threshold}")
        assert code == 2 and "--threshold" in err


def _planted_at(threshold: float) -> float:
    """The smallest resemblance a signature can have at or above ``threshold``."""
    return math.ceil(threshold * SLOTS) / SLOTS


def _candidate_probability(resemblance: float) -> float:
    bands, rows = methods.lsh_bands(methods.LSH_TUNED_FOR)
    return 1 - (1 - resemblance ** rows) ** bands


def test_banding_finds_nearly_every_pair_at_the_default_threshold():
    at_default = _planted_at(methods.MINHASH_DEFAULT)
    assert _candidate_probability(at_default) >= 0.97
    rng = np.random.default_rng(21)
    sigs, planted = signatures_with_planted_pairs(rng, 600, [at_default] * 300)
    found = {tuple(p) for p in methods.minhash_pairs(sigs, methods.MINHASH_DEFAULT)[0].tolist()}
    assert len(set(planted) & found) >= 0.97 * len(planted)


def test_banding_at_the_slider_floor_finds_what_its_probability_says():
    # at the floor (40 %) a true pair becomes a candidate less often than at the default:
    # the share found must be what the banding promises, within four standard deviations
    floor = _planted_at(methods.MINHASH_FLOOR)
    p = _candidate_probability(floor)
    assert 0.85 <= p < 0.97, p  # (0.91: the slider's bottom trades some recall for reach)
    rng = np.random.default_rng(22)
    n = 400
    sigs, planted = signatures_with_planted_pairs(rng, 2 * n, [floor] * n)
    pairs = methods.minhash_pairs(sigs, methods.MINHASH_FLOOR)[0]
    share = len(set(planted) & {tuple(q) for q in pairs.tolist()}) / n
    assert abs(share - p) <= 4 * math.sqrt(p * (1 - p) / n), (share, p)
    equal = (sigs[pairs[:, 0]] == sigs[pairs[:, 1]]).sum(axis=1)
    assert (equal >= floor * SLOTS).all()  # every pair reported is at or above the floor


def test_fingerprint_methods_match_copies_in_each_of_their_extensions():
    # a.txt and a.bak are copies; b.bak differs from them in one simhash bit, c.txt in
    # two, d.bak in 32: b and c each find the class through their own extension, once
    t = np.arange(16) * 50 + 300
    sizes = np.full(5, 5000, np.int64)
    exts = ["txt", "bak", "bak", "txt", "bak"]
    space = SearchSpace.build(sizes, np.tile(t, (5, 1)), extensions=exts,
                              class_extra=np.array([0, 0, 1, 2, 3]), classes_by_extension=False)
    simhashes = np.array([0, 0, 1, 3, 0xFFFFFFFF], np.uint64)
    signatures = np.zeros((5, SLOTS), np.uint32)
    pairs, difference = methods.class_pairs(space, "simhash", simhashes, signatures, 5.0)
    of = space.classes.of_file
    found = {tuple(sorted((int(of[a]), int(of[b])))): d for (a, b), d in zip(pairs.tolist(),
                                                                            difference)}
    assert found == {tuple(sorted((int(of[0]), int(of[2])))): methods.bits_to_difference(1),
                     tuple(sorted((int(of[0]), int(of[3])))): methods.bits_to_difference(2)}
    assert all(space.ext_ids[a] == space.ext_ids[b] for a, b in pairs)
