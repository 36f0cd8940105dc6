"""The ignore list: kept in the store (migration 6), left out of the groups by a small
separate step, and edited on the command line (``simgui ignore``)."""

import dataclasses
import json
import os
import sqlite3

import numpy as np
import pytest

from simgui.cli import main
from simgui.core.search.ignoring import groups_without_ignored, without_ignored
from simgui.core.store import SCHEMA_VERSION, Store
from simgui.core.store import ignored


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "s.db") as s:
        yield s


def test_pairs_are_kept_once_whatever_their_order(store):
    assert ignored.ignored_pairs(store) == []
    assert ignored.ignore(store, [("/b", "/a"), ("/a", "/b"), ("/a", "/a")]) == 1
    assert ignored.ignore(store, [("/a", "/b"), ("/a", "/c")]) == 1
    assert ignored.ignored_pairs(store) == [("/a", "/b"), ("/a", "/c")]
    assert ignored.unignore(store, [("/c", "/a"), ("/x", "/y")]) == 1
    assert ignored.ignored_pairs(store) == [("/a", "/b")]
    assert ignored.clear(store) == 1
    assert ignored.ignored_pairs(store) == []


def test_names_that_are_not_utf8_survive(store):
    odd = os.fsdecode(b"/photos/caf\xe9.jpg")
    ignored.ignore(store, [(odd, "/photos/cafe.jpg")])
    assert set(ignored.ignored_pairs(store)[0]) == {odd, "/photos/cafe.jpg"}


def test_the_list_survives_reopening_and_has_its_own_migration(tmp_path):
    with Store(tmp_path / "s.db") as s:
        ignored.ignore(s, [("/a", "/b")])
    with Store(tmp_path / "s.db") as s:
        assert ignored.ignored_pairs(s) == [("/a", "/b")]
    db = sqlite3.connect(tmp_path / "s.db")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT count(*) FROM ignored_pairs").fetchone()[0] == 1


def _table():
    """Two groups of three files: 0 with 1 and 2; 3 with 4 and 5 (2 and 5 only similar)."""
    from simgui.core.search.groups import GroupTable
    from simgui.core.store import StoredFiles

    n = 6
    tables = np.repeat(np.arange(32, dtype=np.int64).reshape(2, 16) * 10 + 100, 3, axis=0)
    tables[[2, 5], 0] += 3
    sizes = tables.sum(axis=1)
    files = StoredFiles(ids=np.arange(n), paths=[f"/f/{i}" for i in range(n)],
                        sizes=sizes, mtimes_ns=np.arange(n, dtype=np.int64),
                        devices=np.zeros(n, np.int64), inodes=np.arange(n), tables=tables,
                        hashes=[bytes([i]) * 16 for i in range(n)], extensions=[""] * n)
    identical = np.array([True, True, False] * 2)
    return GroupTable(files, np.arange(n), np.array([0, 3, 6]), np.arange(n),
                      np.array([0, 0, 1.5] * 2), np.array([0, 0, 3] * 2), identical,
                      np.array([100, 100, 99.5] * 2), np.array([sizes[1] + sizes[2],
                                                              sizes[4] + sizes[5]]),
                      np.full(n, -1))


def _groups(table):
    return [[table.files.paths[f] for f in table.rows[table.start[g]:table.start[g + 1]]]
            for g in range(len(table))]


def test_ignored_members_leave_their_group_and_lone_references_go():
    table = _table()
    before = _groups(table)
    assert sorted(len(g) for g in before) == [3, 3]
    first, second = before
    # one member of the first group; every member of the second
    pairs = [(first[0], first[1])] + [(m, second[0]) for m in second[1:]]
    after = without_ignored(table, pairs)
    assert _groups(after) == [[first[0], first[2]]]
    lo, hi = after.start[0], after.start[1]
    assert after.group_bytes[0] == sum(int(after.files.sizes[f]) for f in after.rows[lo + 1:hi])
    for column in ("identical", "similarity", "sum_distance", "key_distance"):
        kept = [list(table.rows).index(f) for f in after.rows]
        assert np.array_equal(getattr(after, column), getattr(table, column)[kept])
    assert without_ignored(table, []) is table
    assert without_ignored(table, [("/f/0", "/elsewhere")]) is table
    # the same on groups as objects
    groups = groups_without_ignored(table.groups(), pairs)
    assert [[m.path for m in g.files] for g in groups] == _groups(after)


def _table_with_copies():
    """:func:`_table`, its files 1 and 2 identical copies of each other (an edit of 0)."""
    table = _table()
    files = table.files
    hashes = list(files.hashes)
    hashes[2] = hashes[1]
    sizes = files.sizes.copy()
    sizes[2] = sizes[1]
    return dataclasses.replace(table, files=dataclasses.replace(files, hashes=hashes,
                                                                sizes=sizes))


def test_copies_of_each_other_that_left_a_group_make_their_own():
    # "Not Duplicates" on a whole group: 1 and 2 are not duplicates of 0, but 1 and 2
    # are identical copies of each other, which must still be found
    table = _table_with_copies()
    sizes = table.files.sizes
    first, second = _groups(table)
    pairs = [(m, first[0]) for m in first[1:]]
    after = without_ignored(table, pairs)
    assert _groups(after) == [second, [first[1], first[2]]]
    copies = slice(after.start[1], after.start[2])
    assert after.identical[copies].all() and (after.similarity[copies] == 100).all()
    assert (after.sum_distance[copies] == 0).all() and (after.copy_of[copies] == -1).all()
    assert after.group_bytes[1] == sizes[2]
    # the same on groups as objects, numbered after the others
    groups = groups_without_ignored(table.groups(), pairs)
    assert [[m.path for m in g.files] for g in groups] == _groups(after)
    assert [g.id for g in groups] == [2, 3] and groups[1].all_identical
    # a member whose pair is ignored takes its identical copy with it: the content is
    # not a duplicate of the reference, so no copy of it may be acted on as similar to it
    assert _groups(without_ignored(table, pairs[:1])) == [second, [first[1], first[2]]]
    assert [[m.path for m in g.files] for g in groups_without_ignored(
        table.groups(), pairs[:1])] == [second, [first[1], first[2]]]


def test_a_pair_ignored_in_a_group_of_copies_that_left_is_left_out_too():
    # the copies that left a group make a group: "Not Duplicates" there works as anywhere
    table = _table_with_copies()
    first, second = _groups(table)
    pairs = [(first[0], first[1]), (first[1], first[2])]
    assert _groups(without_ignored(table, pairs)) == [second]
    assert [[m.path for m in g.files] for g in groups_without_ignored(
        table.groups(), pairs)] == [second]


# -- the command line ------------------------------------------------------------------------

@pytest.fixture
def db(tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    for name in "abc":
        (folder / name).write_text(name)
    path = str(tmp_path / "s.db")
    assert main(["scan", str(folder), "--db", path, "--quiet"]) == 0
    capsys.readouterr()
    return path, folder


def test_ignore_add_list_remove_clear(db, capsys, monkeypatch):
    path, folder = db
    monkeypatch.chdir(folder)
    assert main(["ignore", "add", "a", "b", "c", "--db", path]) == 0
    assert "2 pairs added" in capsys.readouterr().out
    assert main(["ignore", "add", "b", "a", "--db", path]) == 0
    assert "0 pairs added to the ignore list (1 already there)" in capsys.readouterr().out
    assert main(["ignore", "list", "--db", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{folder / 'a'}\t{folder / 'b'}", f"{folder / 'a'}\t{folder / 'c'}"]
    assert main(["ignore", "list", "--json", "--db", path]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0] == {"path_a": str(folder / "a"), "path_b": str(folder / "b")}
    assert main(["ignore", "remove", "c", "a", "--db", path]) == 0
    assert "1 pair taken off" in capsys.readouterr().out
    assert main(["ignore", "clear", "--db", path]) == 0
    assert "1 pair taken off" in capsys.readouterr().out
    assert main(["ignore", "list", "--db", path]) == 0
    assert "empty" in capsys.readouterr().out


def test_ignore_refuses_a_file_with_itself_and_a_missing_store(db, capsys, tmp_path):
    path, folder = db
    assert main(["ignore", "add", str(folder / "a"), str(folder / "a"), "--db", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simgui: ") and "named twice" in err and len(err.splitlines()) == 1
    missing = str(tmp_path / "none.db")
    assert main(["ignore", "add", "x", "y", "--db", missing]) == 2
    assert "no store at" in capsys.readouterr().err
    assert not os.path.exists(missing)


def test_pairs_groups_and_remove_leave_ignored_pairs_apart(tmp_path, capsys):
    root = tmp_path / "files"
    root.mkdir()
    data = np.random.default_rng(7).integers(0, 256, 20_000, dtype=np.uint8).tobytes()
    for name in ("a.bin", "b.bin", "c.bin"):
        (root / name).write_bytes(data)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(root)]) == 0
    assert main(["ignore", "add", str(root / "a.bin"), str(root / "b.bin"), "--db", db]) == 0
    capsys.readouterr()
    assert main(["pairs", "--db", db, "--format", "json"]) == 0
    pairs = {frozenset(os.path.basename(json.loads(line)[k]) for k in ("path_a", "path_b"))
             for line in capsys.readouterr().out.splitlines()}
    assert frozenset({"a.bin", "b.bin"}) not in pairs and pairs
    assert main(["groups", "--db", db]) == 0
    (group,) = json.loads(capsys.readouterr().out)
    names = {os.path.basename(f["path"]) for f in group["files"]}
    assert names in ({"a.bin", "c.bin"}, {"b.bin", "c.bin"})


def test_an_ignored_file_and_its_copy_are_never_removed_as_similar(tmp_path, capsys):
    # R, and M and M2: identical edits of R. "M is not a duplicate of R" holds for M2 too:
    # a remove with similar files included must keep one of them, not trash both
    root = tmp_path / "files"
    root.mkdir()
    words = " ".join(f"word{i}" for i in range(3000))
    (root / "R.txt").write_text(words)
    edit = words.replace("word1 ", "WORD1 ")
    (root / "M.txt").write_text(edit)
    (root / "M2.txt").write_text(edit)
    os.utime(root / "R.txt", ns=(1_600_000_000_000_000_000,) * 2)  # the oldest: kept
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(root)]) == 0
    assert main(["ignore", "add", str(root / "R.txt"), str(root / "M.txt"), "--db", db]) == 0
    assert main(["remove", "--db", db, "--include-similar", "--delete", "--yes"]) == 0
    left = sorted(p.name for p in root.iterdir())
    assert "R.txt" in left and len(left) == 2 and left != ["R.txt"]
    assert {(root / n).read_text() for n in left} == {words, edit}
