"""Answers kept for the next look (simgui.core.store.answers): ``simgui groups`` on a store
whose files and ignore list have not changed writes what it wrote last time, byte for
byte, without searching; any row written to either makes it search again."""

import base64
import os
import sqlite3

import pytest

from simgui import cli
from simgui.cli import main
from simgui.core.search import analysis
from simgui.core.store import SCHEMA_VERSION, Store, answers, ignored


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    (root / "sub").mkdir(parents=True)
    text = b"".join(b"line %d of a text that is long enough\n" % i for i in range(400))
    (root / "a.txt").write_bytes(text)
    (root / "sub" / "a.txt").write_bytes(text)  # a copy
    (root / "b.txt").write_bytes(text[:-40] + b"another ending of the same long text.\n")
    (root / os.fsdecode(b"caf\xe9.txt")).write_bytes(text + b"one more line\n")
    return root


def groups(capsysbinary, db, *options):
    assert main(["groups", "--db", str(db), *options]) == 0
    return capsysbinary.readouterr().out


@pytest.fixture
def searches(monkeypatch):
    """How many searches ``simgui groups`` made."""
    made = []
    find = analysis.find_group_table

    def counted(*args, **kwargs):
        made.append(1)
        return find(*args, **kwargs)

    monkeypatch.setattr(analysis, "find_group_table", counted)
    return made


@pytest.fixture
def db(tree, tmp_path, capsysbinary):
    path = tmp_path / "s.db"
    assert main(["scan", "--db", str(path), "-q", str(tree)]) == 0
    capsysbinary.readouterr()
    return path


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_second_look_writes_the_same_without_a_search(db, tree, capsysbinary, searches,
                                                          fmt):
    first = groups(capsysbinary, db, "--format", fmt)
    # a name that is not UTF-8 survives the keeping (JSON gives its bytes in base64)
    odd = os.fsencode(tree) + b"/caf\xe9.txt"
    assert (odd if fmt == "csv" else base64.b64encode(odd)) in first
    assert len(searches) == 1
    assert groups(capsysbinary, db, "--format", fmt) == first
    assert len(searches) == 1
    # a rescan that finds nothing changed writes no file's row
    assert main(["scan", "--db", str(db), "-q", str(db.parent / "tree")]) == 0
    capsysbinary.readouterr()
    assert groups(capsysbinary, db, "--format", fmt) == first
    assert len(searches) == 1


def test_other_options_are_another_question(db, capsysbinary, searches):
    wide = groups(capsysbinary, db, "--format", "csv")
    narrow = groups(capsysbinary, db, "--format", "csv", "--key-tolerance", "0.01",
                    "--sum-tolerance", "0.01")
    assert len(searches) == 2 and narrow != wide
    assert groups(capsysbinary, db, "--format", "csv") == wide
    assert groups(capsysbinary, db, "--format", "csv", "--key-tolerance", "0.01",
                  "--sum-tolerance", "0.01") == narrow
    assert len(searches) == 2
    identical = groups(capsysbinary, db, "--format", "csv", "--identical-only")
    assert identical != wide and b"b.txt" not in identical
    assert groups(capsysbinary, db, "--format", "csv", "--identical-only") == identical


def test_a_changed_file_is_searched_again(db, tree, capsysbinary, searches):
    before = groups(capsysbinary, db, "--format", "csv")
    assert b"b.txt" in before
    (tree / "b.txt").write_bytes(b"nothing like the others at all\n" * 3)
    assert main(["scan", "--db", str(db), "-q", str(tree)]) == 0
    capsysbinary.readouterr()
    after = groups(capsysbinary, db, "--format", "csv")
    assert len(searches) == 2
    assert b"b.txt" not in after


def test_a_forgotten_file_is_searched_again(db, tree, capsysbinary, searches):
    groups(capsysbinary, db, "--format", "csv")
    os.remove(tree / "sub" / "a.txt")
    assert main(["scan", "--db", str(db), "-q", str(tree)]) == 0
    capsysbinary.readouterr()
    assert b"sub/a.txt" not in groups(capsysbinary, db, "--format", "csv")
    assert len(searches) == 2


def test_an_ignored_pair_is_searched_again(db, tree, capsysbinary, searches):
    before = groups(capsysbinary, db, "--format", "csv")
    assert os.fsencode(tree / "sub" / "a.txt") in before
    with Store(db) as store:
        ignored.ignore(store, [(str(tree / "a.txt"), str(tree / "sub" / "a.txt"))])
    after = groups(capsysbinary, db, "--format", "csv")
    assert after != before
    with Store(db) as store:
        ignored.clear(store)
    assert groups(capsysbinary, db, "--format", "csv") == before


def test_any_row_written_by_anyone_counts(db, capsysbinary, searches):
    """The version is kept by triggers, so a change the store's code did not make (another
    program, a later simgui) still counts."""
    groups(capsysbinary, db, "--format", "csv")
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE files SET mtime_ns = mtime_ns + 1 WHERE id = (SELECT min(id) FROM files)")
    groups(capsysbinary, db, "--format", "csv")
    assert len(searches) == 2
    with sqlite3.connect(db) as raw:
        raw.execute("INSERT INTO files (path, size, mtime_ns, device, inode, extension, "
                    "scanned_at) SELECT path || 'x', size, mtime_ns, device, inode + 1, "
                    "extension, scanned_at FROM files WHERE id = (SELECT min(id) FROM files)")
    groups(capsysbinary, db, "--format", "csv")
    assert len(searches) == 3
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM files WHERE id = (SELECT max(id) FROM files)")
    groups(capsysbinary, db, "--format", "csv")
    assert len(searches) == 4
    with Store(db) as store:
        version = answers.files_version(store)
        scan_id = store.begin_scan(["/x"])
        store.forget_files([])  # nothing forgotten: no row written
        store.finish_scan(scan_id, "completed", files_read=0, files_unchanged=0,
                          bytes_read=0, errors=0, skipped=0)
        assert answers.files_version(store) == version


def test_a_read_only_store_answers_without_keeping(db, capsysbinary, searches, monkeypatch):
    with Store(db) as store:
        store.connection.execute("DELETE FROM kept_answers")
    monkeypatch.setattr(cli, "_open_store", lambda args: Store(args.db, read_only=True))
    first = groups(capsysbinary, db, "--format", "csv")
    assert groups(capsysbinary, db, "--format", "csv") == first
    assert len(searches) == 2
    with Store(db, read_only=True) as store:
        assert store.connection.execute("SELECT count(*) FROM kept_answers").fetchone() == (0,)


def test_a_damaged_answer_is_answered_anew(db, capsysbinary, searches):
    first = groups(capsysbinary, db, "--format", "csv")
    with Store(db) as store:
        store.connection.execute("UPDATE kept_answers SET answer = x'00'")
    assert groups(capsysbinary, db, "--format", "csv") == first
    assert len(searches) == 2
    assert groups(capsysbinary, db, "--format", "csv") == first
    assert len(searches) == 2  # kept again


def test_only_the_newest_answers_are_kept(db, capsysbinary):
    for tolerance in range(answers.KEPT + 2):
        groups(capsysbinary, db, "--format", "csv", "--key-tolerance", str(tolerance + 1))
    with Store(db) as store:
        questions = [q for (q,) in store.connection.execute("SELECT question FROM kept_answers")]
    assert len(questions) == answers.KEPT
    assert not any("'key_tolerance': 1.0" in q for q in questions)


def test_a_busy_store_keeps_no_answer_and_does_not_wait_long(db):
    with Store(db) as store, sqlite3.connect(db, isolation_level=None) as writer:
        version = answers.files_version(store)
        writer.execute("BEGIN IMMEDIATE")  # a scan writing
        assert not answers.keep_answer(store, "q", version, "an answer")
        writer.execute("ROLLBACK")
        assert answers.kept_answer(store, "q", version) is None
        assert answers.keep_answer(store, "q", version, "an answer \udce9")
        assert answers.kept_answer(store, "q", version) == "an answer \udce9"
        assert answers.kept_answer(store, "q", version + "1") is None


def test_no_answer_is_kept_where_it_could_go_stale(db, tree, capsysbinary, searches):
    """--reference folders' links can change without the store; a terminal's table is
    drawn for its width."""
    for options in (["--reference", str(tree / "sub")], ["--override", "txt=1,1"]):
        groups(capsysbinary, db, "--format", "csv", *options)
        groups(capsysbinary, db, "--format", "csv", *options)
    assert len(searches) == 4
    assert cli._groups_question(cli.build_parser().parse_args(
        ["groups", "--format", "table"]), "table") is None


def test_a_store_of_the_last_release_gains_the_version(tmp_path, tree, capsysbinary):
    path = tmp_path / "old.db"
    assert main(["scan", "--db", str(path), "-q", str(tree)]) == 0
    capsysbinary.readouterr()
    with sqlite3.connect(path) as raw:  # as simgui with schema 6 left it
        for name in ("file_changed", "file_forgotten", "pair_ignored",
                     "pair_changed", "pair_unignored"):
            raw.execute(f"DROP TRIGGER {name}")
        raw.execute("DROP TABLE files_version")
        raw.execute("DROP TABLE kept_answers")
        raw.execute("PRAGMA user_version = 6")
    first = groups(capsysbinary, path, "--format", "csv")
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert answers.files_version(store).startswith("0:")
    assert groups(capsysbinary, path, "--format", "csv") == first
