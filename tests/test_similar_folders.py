"""Similar folders: exact figures on small trees, a brute-force reference, the command line."""

from __future__ import annotations

import base64
import csv
import io
import itertools
import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.cli import main
from simgui.core.search.analysis import Analysis
from simgui.core.search.groups import GroupTable
from simgui.core.search.similar_folders import FolderIndex, find_similar_folders, walk
from simgui.core.search.simfind import Tolerances
from simgui.core.store import Store, StoredFiles


def table(spec) -> GroupTable:
    """A GroupTable from (path, size, content, group or None, similarity to the group's
    reference); a group's reference is its most similar file."""
    n = len(spec)
    files = StoredFiles(
        ids=np.arange(n), paths=[s[0] for s in spec],
        sizes=np.array([s[1] for s in spec], np.int64), mtimes_ns=np.zeros(n, np.int64),
        devices=np.ones(n, np.int64), inodes=np.arange(n, dtype=np.int64),
        tables=np.zeros((n, 16), np.int64),
        hashes=[int(s[2]).to_bytes(16, "little") for s in spec], extensions=[""] * n)
    groups: dict[int, list[int]] = {}
    for i, s in enumerate(spec):
        if s[3] is not None:
            groups.setdefault(s[3], []).append(i)
    rows, start, sim, same = [], [0], [], []
    for members in groups.values():
        members = sorted(members, key=lambda i: -spec[i][4])
        for i in members:
            rows.append(i)
            sim.append(spec[i][4])
            same.append(spec[i][2] == spec[members[0]][2])
        start.append(len(rows))
    k = len(rows)
    return GroupTable(files, np.arange(n), np.array(start, np.int64), np.array(rows, np.int64),
                      np.zeros(k), np.zeros(k, np.int64), np.array(same, bool),
                      np.array(sim, float), np.zeros(len(groups), np.int64),
                      np.full(k, -1, np.int64))


def figures(p):
    return (p.a, p.b, round(p.similarity, 2), round(p.a_in_b, 2), round(p.b_in_a, 2),
            p.files_a, p.files_b, p.identical, p.similar, p.only_a, p.only_b, p.bytes_a,
            p.bytes_b, p.nested)


def test_a_backup_with_edits_deletions_and_additions():
    pairs = find_similar_folders(table([
        ("/home/docs/a", 100, 1, 0, 100), ("/backup/docs/a", 100, 1, 0, 100),
        ("/home/docs/b", 200, 2, 1, 100), ("/backup/docs/b", 210, 3, 1, 90),  # edited
        ("/home/docs/c", 300, 4, None, 100),  # deleted from the backup
        ("/home/docs/d", 400, 5, 2, 100), ("/backup/docs/d", 400, 5, 2, 100),
        ("/backup/docs/e", 50, 6, None, 100),  # added
    ]))
    # matched: home a, b, d = 700 of 1000; backup a, b, d = 710 of 760; b is only 90 %
    # similar, so it counts at 90 %: home 100 + 180 + 400 = 680 (68 %), backup 100 + 189 +
    # 400 = 689 (90.66 %), together 1,369 of 1,760 (77.78 %)
    assert [figures(p) for p in pairs] == [
        ("/home/docs", "/backup/docs", 77.78, 68.0, 90.66, 4, 4, 4, 2, 1, 1, 1000, 760, False)]
    assert pairs[0].bytes_to_free == 710 and pairs[0].identical_bytes_b == 500


def test_a_subset_copied_elsewhere_is_contained():
    spec = [(f"/photos/p{i}", 1000, i, i, 100) for i in range(4)]
    spec += [(f"/usb/some/p{i}", 1000, i, i, 100) for i in range(2)]
    [pair] = find_similar_folders(table(spec))
    assert figures(pair) == ("/photos", "/usb/some", 66.67, 50.0, 100.0, 4, 2, 4, 0, 2, 0,
                             4000, 2000, False)


def test_nested_copies_are_folded_under_the_top_most_pair():
    spec = [("/x/proj/src/m.py", 700, 1, 0, 100), ("/y/old/proj/src/m.py", 700, 1, 0, 100),
            ("/x/proj/doc/r.md", 300, 2, 1, 100), ("/y/old/proj/doc/r.md", 300, 2, 1, 100)]
    [top] = find_similar_folders(table(spec))
    # /x and /y/old hold nothing but proj: the same files, never a side
    assert (top.a, top.b, top.similarity, top.nested) == ("/x/proj", "/y/old/proj", 100.0, False)
    assert [(c.a, c.b, c.similarity) for c in top.children] == [
        ("/x/proj/src", "/y/old/proj/src", 100.0), ("/x/proj/doc", "/y/old/proj/doc", 100.0)]


def test_a_folder_copied_into_its_own_subfolder_is_compared_without_it():
    spec = [("/w/f1", 500, 1, 0, 100), ("/w/copy/f1", 500, 1, 0, 100),
            ("/w/f2", 300, 2, 1, 100), ("/w/copy/f2", 300, 2, 1, 100),
            ("/w/copy/new", 200, 3, None, 100)]
    [pair] = find_similar_folders(table(spec))
    # "/w without /w/copy" holds f1 and f2 only: it is not scored as containing itself
    assert figures(pair) == ("/w", "/w/copy", 88.89, 100.0, 80.0, 2, 3, 4, 0, 0, 1, 800, 1000,
                             True)
    index = FolderIndex(table(spec))
    assert {(f.side, f.relative, f.status) for f in index.diff("/w", "/w/copy")} == {
        ("a", "f1", "identical"), ("a", "f2", "identical"), ("b", "f1", "identical"),
        ("b", "f2", "identical"), ("b", "new", "only")}


def test_empty_and_single_file_folders():
    spec = [("/e1/empty", 0, 1, 0, 100), ("/e2/empty", 0, 1, 0, 100),  # nothing to free
            ("/s1/one", 10, 2, 1, 100), ("/s2/one", 10, 2, 1, 100),
            ("/s3/other", 10, 3, None, 100)]
    assert [figures(p) for p in find_similar_folders(table(spec), 0.0)] == [
        ("/s1", "/s2", 100.0, 100.0, 100.0, 1, 1, 2, 0, 0, 0, 10, 10, False)]


def test_similar_files_carry_their_similarity_in_the_diff():
    index = FolderIndex(table([("/a/x", 100, 1, 0, 100), ("/b/x", 110, 2, 0, 87.5),
                               ("/b/y", 5, 3, None, 100)]))
    assert index.diff("/a", "/b") == [
        *[s for s in index.diff("/a", "/b") if s.side == "a"],
        *[s for s in index.diff("/a", "/b") if s.side == "b"]]
    by_path = {s.path: s for s in index.diff("/a", "/b")}
    assert (by_path["/a/x"].status, by_path["/a/x"].match, by_path["/a/x"].similarity) == (
        "similar", "/b/x", 87.5)
    assert by_path["/b/y"].status == "only"


def test_folders_of_edited_files_are_never_100_percent_alike(tmp_path):
    # every file of b is an edit of a's (a real scan: the similarity is MinHash's), so
    # every file has a match, yet the folders are not the same contents
    words = [f"word{i % 97}-{i * 7919 % 10007}" for i in range(6000)]
    for k in range(3):
        (tmp_path / "a").mkdir(exist_ok=True)
        (tmp_path / "b").mkdir(exist_ok=True)
        text = " ".join(words[k * 2000:(k + 1) * 2000])
        (tmp_path / "a" / f"f{k}.txt").write_text(text)
        (tmp_path / "b" / f"f{k}.txt").write_text(text.replace("word5-", "WORD5-"))
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    with Store(db) as store:
        files = store.files()
    groups = Analysis.build(files).groups(Tolerances())
    assert len(groups) == 3 and not groups.identical.all()
    [pair] = find_similar_folders(groups)
    assert pair.similar == 6 and pair.identical == 0
    assert 50 < pair.similarity < 100 and pair.a_in_b < 100 and pair.b_in_a < 100
    # each side's share is its files' similarities, weighed by their sizes
    sims = {m.path: m.similarity for g in groups.groups() for m in g.files}
    a_files = [str(tmp_path / "a" / f"f{k}.txt") for k in range(3)]
    sizes = [os.path.getsize(f) for f in a_files]
    side_a = pair.a_in_b if pair.a.endswith("/a") else pair.b_in_a
    expected = sum(size * min(sims[f], sims[f.replace("/a/", "/b/")])
                   for f, size in zip(a_files, sizes)) / sum(sizes)
    assert side_a == pytest.approx(expected, abs=0.01)


def test_a_pair_of_identical_copies_is_not_beaten_by_a_child_holding_an_edit():
    # /s is wholly in /p as an identical copy; /p/c holds only a 90 % edit of it. The
    # pair (/s, /p/c) is more alike, but holds less of /s: it does not hide (/s, /p)
    spec = [("/s/f", 100, 0, 0, 100.0), ("/p/f2", 100, 0, 0, 100.0),
            ("/p/c/g", 100, 1, 0, 90.0), ("/p/junk", 400, 2, None, 100.0)]
    found = {frozenset((p.a, p.b)) for p in walk(find_similar_folders(
        table(spec), 30.0, max_folders=None))}
    assert frozenset(("/s", "/p")) in found
    assert found == set(brute_force(spec, 30.0))


def test_an_unknown_similarity_is_never_an_identical_copy():
    # no fingerprints, no check: the similarity is not known (NaN); the folders are not
    # 100 % alike for it, since the files are not identical
    pairs = find_similar_folders(table([("/a/x", 100, 1, 0, 100.0),
                                        ("/b/x", 100, 2, 0, float("nan"))]))
    assert len(pairs) == 1 and 99.0 < pairs[0].similarity < 100.0


def test_ubiquitous_files_make_no_candidates_but_count_in_scores():
    spec = [(f"/p{i}/LICENSE", 1000, 1, 0, 100) for i in range(6)]
    spec += [("/p0/code", 100, 2, 1, 100), ("/p1/code", 100, 2, 1, 100)]
    spec += [(f"/p{i}/own", 100, 10 + i, None, 100) for i in range(2, 6)]
    everything = {(p.a, p.b) for p in walk(find_similar_folders(table(spec), 50.0,
                                                               max_folders=None))}
    few = {(p.a, p.b) for p in walk(find_similar_folders(table(spec), 50.0, max_folders=3))}
    assert len(everything) == 15  # every two of the six share the large LICENSE
    assert few == {("/p0", "/p1")}  # only the pair sharing rarer content is a candidate
    [pair] = find_similar_folders(table(spec), 50.0, max_folders=3)
    assert pair.similarity == 100.0  # the LICENSE counts once the pair is found


def test_a_folder_reached_through_two_paths_is_not_its_own_copy():
    # the store knows /real's files under a second name too (scanned through a link or a
    # bind mount): one file each, so /link never pairs with /real; /copy holds copies
    paths = ["/real/a", "/real/b", "/link/a", "/link/b", "/copy/a", "/copy/b"]
    inodes = [1, 2, 1, 2, 3, 4]
    content = [1, 2, 1, 2, 1, 2]
    n = len(paths)
    files = StoredFiles(
        ids=np.arange(n), paths=paths, sizes=np.array([5000, 9000] * 3, np.int64),
        mtimes_ns=np.zeros(n, np.int64), devices=np.ones(n, np.int64),
        inodes=np.array(inodes, np.int64),
        tables=np.array([[c * 100] * 16 for c in content], np.int64),
        hashes=[c.to_bytes(16, "little") for c in content], extensions=["bin"] * n)
    tol = Tolerances(content=0.0)
    groups = Analysis.build(files, ceiling=tol).groups(tol)
    pairs = [(p.a, p.b, p.similarity) for p in walk(find_similar_folders(groups, 0.0))]
    assert pairs in ([("/copy", "/real", 100.0)], [("/copy", "/link", 100.0)])


# -- against a brute-force reference ----------------------------------------------------


def brute_force(spec, min_similarity):
    """Every two folders (not a folder holding only one subfolder; a folder holding
    another only with files of its own, compared without it), scored file by file,
    less those as alike as a pair with one side moved up to its parent, or less alike
    than one with a side moved down to a child that holds every match of the other."""
    files = [(s[0], s[1], s[2], s[3] if s[3] is not None else ("own", s[2]),
              100 if s[3] is None else s[4]) for s in spec]
    # (a group's files of one content share one similarity, as in real tables)
    folders = set()
    for path, *_ in files:
        d = os.path.dirname(path)
        while True:
            folders.add(d)
            if os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)

    def inside(path, folder):
        return path.startswith(folder.rstrip("/") + "/")

    def own_files(f):
        return any(os.path.dirname(p) == f for p, *_ in files)

    def only_child(f):
        return not own_files(f) and sum(os.path.dirname(g) == f for g in folders if g != f) == 1

    sides = sorted(f for f in folders if not only_child(f))
    out = {}
    for a, b in itertools.combinations(sides, 2):
        if inside(b, a) or inside(a, b):
            outer, inner = (a, b) if inside(b, a) else (b, a)
            if not own_files(outer):
                continue
            xs = [f for f in files if inside(f[0], outer) and not inside(f[0], inner)]
            ys = [f for f in files if inside(f[0], inner)]
        else:
            outer, inner = a, b
            xs = [f for f in files if inside(f[0], a)]
            ys = [f for f in files if inside(f[0], b)]
        mx = sum(f[1] for f in xs if any(g[3] == f[3] for g in ys))
        my = sum(f[1] for f in ys if any(g[3] == f[3] for g in xs))

        def hundredths(similarity):  # a similarity in hundredths of a percent, never
            whole = 10_000 if similarity >= 100 else 9_999  # whole but for a copy
            return min(math.floor(similarity * 100 + 1e-6), whole)

        def shared(f, other):
            """f's bytes in the other side, in bytes times 10,000: whole for an
            identical file there, else at the best similarity of its group there
            (the lower of the two files' similarities to the reference)."""
            if any(g[2] == f[2] for g in other):
                return f[1] * 10_000
            near = [min(hundredths(f[4]), hundredths(g[4])) for g in other if g[3] == f[3]]
            return f[1] * max(near) if near else 0

        sx = sum(shared(f, ys) for f in xs)
        sy = sum(shared(f, xs) for f in ys)
        ident = (sum(any(g[2] == f[2] for g in ys) for f in xs)
                 + sum(any(g[2] == f[2] for g in xs) for f in ys))
        total = sum(f[1] for f in xs) + sum(f[1] for f in ys)
        if total == 0 or mx + my == 0:
            continue
        similarity = (sx + sy) / (total * 100)
        if similarity >= min_similarity:
            out[frozenset((outer, inner))] = (similarity, {outer: len(xs), inner: len(ys)},
                                              ident, {outer: sx, inner: sy})

    def up(f):  # the nearest folder above that is a side
        while os.path.dirname(f) != f:
            f = os.path.dirname(f)
            if f in sides:
                return f
        return None

    # a pair with one side moved up that is as alike, or moved down that is more alike,
    # says more than this one: this one is left out
    # (and every match of the side that stays is in the child)
    kept = {}
    for key, (similarity, files, ident, matched) in out.items():
        a, b = sorted(key)
        ups = [frozenset((up(a), b)), frozenset((a, up(b)))]
        downs = [k for k in out if len(k & key) == 1
                 and up(next(iter(k - key))) in key - k]
        if not (any(m in out and out[m][0] >= similarity for m in ups if len(m) == 2)
                or any(out[m][0] > similarity
                       and out[m][3][next(iter(m & key))] == matched[next(iter(m & key))]
                       for m in downs)):
            kept[key] = (round(similarity, 6), files, ident)
    return kept


names = st.sampled_from(["a", "b", "c"])


@st.composite
def trees(draw):
    n = draw(st.integers(1, 14))
    sizes = draw(st.lists(st.integers(0, 60), min_size=8, max_size=8))
    group_of = draw(st.lists(st.sampled_from([None, 0, 1, 2]), min_size=8, max_size=8))
    # each content's similarity to its group's reference, to two decimals (100: a copy)
    similarities = draw(st.lists(st.one_of(st.just(100.0), st.integers(0, 9999).map(
        lambda h: h / 100)), min_size=8, max_size=8))
    spec, seen = [], set()
    for i in range(n):
        parts = draw(st.lists(names, min_size=1, max_size=3))
        path = "/" + "/".join(parts) + f"/f{i}"
        content = draw(st.integers(0, 7))
        group = group_of[content]
        spec.append((path, sizes[content], content, group, similarities[content]))
        seen.add(path)
    return spec


@settings(max_examples=150, deadline=None)
@given(trees(), st.sampled_from([0.0, 30.0, 50.0, 80.0, 100.0]))
def test_pairs_equal_the_brute_force_reference(spec, min_similarity):
    # a group is a set of files whatever their contents; a file in no group matches
    # only its identical copies
    spec = [(p, size, c, g, sim) for p, size, c, g, sim in spec]
    found = {}
    for p in walk(find_similar_folders(table(spec), min_similarity, max_folders=None)):
        key = frozenset((p.a, p.b))
        assert key not in found
        assert p.files_a + p.files_b == p.identical + p.similar + p.only_a + p.only_b
        found[key] = (round(p.similarity, 6), {p.a: p.files_a, p.b: p.files_b}, p.identical)
    assert found == brute_force(spec, min_similarity)


# -- the command line -------------------------------------------------------------------


@pytest.fixture
def backup_tree(tmp_path):
    """home/docs and a backup of it with one file edited, one deleted and one added."""
    rng = np.random.default_rng(0)
    home = tmp_path / "home" / "docs"
    old = tmp_path / "backup" / "docs"
    home.mkdir(parents=True)
    old.mkdir(parents=True)
    for name, size in (("a.bin", 4000), ("b.bin", 6000), ("gone.bin", 3000)):
        data = rng.integers(0, 256, size, np.uint8).tobytes()
        (home / name).write_bytes(data)
        if name != "gone.bin":
            (old / name).write_bytes(data)
    (old / "new.bin").write_bytes(rng.integers(0, 256, 1000, np.uint8).tobytes())
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(tmp_path / "home"), str(tmp_path / "backup")]) == 0
    return tmp_path, db


def test_cli_csv_columns_and_figures(backup_tree, capsys):
    root, db = backup_tree
    capsys.readouterr()
    assert main(["folders", "--db", db, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert list(rows[0]) == ["folder_a", "folder_b", "similarity", "a_in_b", "b_in_a",
                             "files_a", "files_b", "identical", "similar", "only_a", "only_b",
                             "bytes_a", "bytes_b"]
    assert [(r["folder_a"], r["folder_b"], r["similarity"], r["a_in_b"], r["b_in_a"],
             r["identical"], r["only_a"], r["only_b"]) for r in rows] == [
        (str(root / "home" / "docs"), str(root / "backup" / "docs"), "83.33", "76.92",
         "90.91", "4", "1", "1")]  # 10,000 of 13,000 bytes, 10,000 of 11,000


def test_cli_table_and_diff(backup_tree, capsys):
    root, db = backup_tree
    capsys.readouterr()
    assert main(["folders", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "83.3 %" in out and str(root / "backup" / "docs") in out
    assert main(["folders", "--db", db, "--diff", str(root / "home" / "docs"),
                 str(root / "backup" / "docs"), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {(r["side"], r["relative"], r["status"]) for r in rows} == {
        ("a", "a.bin", "identical"), ("a", "b.bin", "identical"), ("a", "gone.bin", "only"),
        ("b", "a.bin", "identical"), ("b", "b.bin", "identical"), ("b", "new.bin", "only")}
    # the text names A and B as typed, in its header as in its rows, either way round
    home, backup = str(root / "home" / "docs"), str(root / "backup" / "docs")
    for a, b, a_only, a_in_b in ((home, backup, "gone.bin", 76.9), (backup, home, "new.bin",
                                                                     90.9)):
        assert main(["folders", "--db", db, "--diff", a, b]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[:2] == [f"A {a}", f"B {b}"]
        assert f"{a_in_b} % of A is in B" in lines[2]
        assert any(line.startswith("A  only") and line.endswith(a_only) for line in lines)


def test_cli_bad_folder_is_a_one_line_error(backup_tree, capsys):
    root, db = backup_tree
    capsys.readouterr()
    assert main(["folders", "--db", db, "--diff", str(root / "nowhere"), str(root)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simgui: ") and err.count("\n") == 1 and "nowhere" in err


def test_cli_json_keeps_non_utf8_folder_names(tmp_path, capsys):
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9"
    for side in (b"/one", b"/two"):
        os.makedirs(raw + side)
        with open(raw + side + b"/x.bin", "wb") as f:
            f.write(b"same bytes " * 300)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", os.fsdecode(raw)]) == 0
    capsys.readouterr()
    assert main(["folders", "--db", db, "--format", "json"]) == 0
    [row] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {base64.b64decode(row["folder_a_base64"]),
            base64.b64decode(row["folder_b_base64"])} == {raw + b"/one", raw + b"/two"}
    assert row["folded"] == [] and row["similarity"] == 100.0


def test_cli_json_lists_the_pairs_folded_under_a_pair(tmp_path, capsys):
    for side in ("x", "y"):
        for sub in ("photos", "music"):
            folder = tmp_path / side / sub
            folder.mkdir(parents=True)
            (folder / "f.bin").write_bytes(sub.encode() * 2000)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(tmp_path / "x"), str(tmp_path / "y")]) == 0
    capsys.readouterr()
    assert main(["folders", "--db", db, "--format", "json"]) == 0
    [row] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (row["folder_a"], row["folder_b"]) == (str(tmp_path / "x"), str(tmp_path / "y"))
    assert sorted((f["folder_a"], f["folder_b"]) for f in row["folded"]) == [
        (str(tmp_path / "x" / sub), str(tmp_path / "y" / sub)) for sub in ("music", "photos")]


# -- trashing a folder whose every file has a copy outside it ---------------------------


@pytest.fixture
def copied_tree(tmp_path, monkeypatch):
    """home/docs (a, b, sub/c) and old/docs, an exact copy of a and sub/c, scanned."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    rng = np.random.default_rng(1)
    home, old = tmp_path / "home" / "docs", tmp_path / "old" / "docs"
    for root in (home, old):
        (root / "sub").mkdir(parents=True)
    data = {name: rng.integers(0, 256, size, np.uint8).tobytes()
            for name, size in (("a.bin", 5000), ("b.bin", 9000), ("sub/c.bin", 7000))}
    for name, content in data.items():
        (home / name).write_bytes(content)
        if name != "b.bin":
            (old / name).write_bytes(content)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(tmp_path / "home"), str(tmp_path / "old")]) == 0
    return home, old, db, data


def test_trash_a_folder_whose_files_all_have_copies_then_undo(copied_tree, capsys):
    home, old, db, data = copied_tree
    capsys.readouterr()
    assert main(["folders", "--db", db, "--trash", str(old), "--yes"]) == 0
    out = capsys.readouterr().out
    assert "Send 2 files" in out and "byte for byte" in out
    assert not (old / "a.bin").exists() and not (old / "sub" / "c.bin").exists()
    assert not old.exists()  # the folder goes too, its folders emptied by the batch
    assert (home / "a.bin").read_bytes() == data["a.bin"]  # the kept copies stay
    assert main(["undo", "--db", db]) == 0
    assert (old / "a.bin").read_bytes() == data["a.bin"]
    assert (old / "sub" / "c.bin").read_bytes() == data["sub/c.bin"]


def test_a_trashed_folder_keeps_what_the_store_did_not_know(copied_tree, capsys):
    home, old, db, data = copied_tree
    (old / "sub" / "new since the scan.txt").write_text("not scanned")
    (old / "empty before").mkdir()
    capsys.readouterr()
    assert main(["folders", "--db", db, "--trash", str(old), "--yes"]) == 0
    assert (old / "sub" / "new since the scan.txt").exists()  # so its folders stay
    assert not (old / "a.bin").exists()
    assert (old / "empty before").is_dir()  # held no file acted on: undo would not remake it


def test_trashing_a_folder_is_refused_when_one_file_would_be_lost(copied_tree, capsys):
    home, old, db, data = copied_tree
    capsys.readouterr()
    assert main(["folders", "--db", db, "--trash", str(home), "--yes"]) == 1
    err = capsys.readouterr().err
    assert "b.bin" in err and "no identical copy outside" in err and err.count("\n") == 1
    assert {p.name for p in home.rglob("*.bin")} == {"a.bin", "b.bin", "c.bin"}


def test_a_kept_copy_changed_since_the_scan_saves_the_file(copied_tree, capsys):
    home, old, db, data = copied_tree
    kept = home / "a.bin"
    st = kept.stat()
    changed = bytearray(data["a.bin"])
    changed[10] ^= 0xFF  # same size, same time: only the bytes tell
    kept.write_bytes(bytes(changed))
    os.utime(kept, ns=(st.st_atime_ns, st.st_mtime_ns))
    capsys.readouterr()
    main(["folders", "--db", db, "--trash", str(old), "--yes"])
    assert (old / "a.bin").read_bytes() == data["a.bin"]  # its only copy now: left alone
    assert not (old / "sub" / "c.bin").exists()


def test_trash_dry_run_changes_nothing(copied_tree, capsys):
    home, old, db, data = copied_tree
    capsys.readouterr()
    assert main(["folders", "--db", db, "--trash", str(old), "--dry-run"]) == 0
    assert "Send 2 files" in capsys.readouterr().out
    assert (old / "a.bin").exists() and (old / "sub" / "c.bin").exists()
