"""File names that are not UTF-8: Linux names are bytes, and every one must round-trip
through the store, the journal, clean-up, undo, exports and the command's output."""

import base64
import csv
import io
import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.cli import main
from simgui.core.cleanup import journal
from simgui.core.cleanup.actions import Outcome
from simgui.core.cleanup.journal import PlannedRow
from simgui.core.search.export import json_ready
from simgui.core.store import FileRecord, Store
from tests.test_cli_search import home  # noqa: F401  (fixture)

BAD = b"bad\xff.bin"  # \xff never occurs in UTF-8
LATIN = b"\xe9t\xe9.txt"  # 'ete' with accents, in Latin-1: not UTF-8 either


@pytest.fixture
def odd_tree(tmp_path):
    """Two groups of copies; the newer copy of each (which clean-up acts on) and one kept
    copy have names that are not UTF-8.  Returns (root, {path bytes: content})."""
    rng = np.random.default_rng(24)
    one, two = rng.bytes(5000), rng.bytes(7000)
    root = os.fsencode(tmp_path / "files")
    files = {root + b"/a/keep.bin": one, root + b"/b/" + BAD: one,
             root + b"/c/" + LATIN: two, root + b"/b/" + LATIN: two}
    for i, (path, content) in enumerate(files.items()):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)
        os.utime(path, ns=(10**18 + i * 10**9,) * 2)  # a/keep.bin, then c/, oldest: kept
    return root, files


def run(capsysbinary, *argv):
    code = main(list(argv))
    out, err = capsysbinary.readouterr()
    return code, out, err


def exact(record: dict, key: str) -> bytes:
    """A path of a JSON record as bytes: ``<key>_base64`` when the name is not UTF-8."""
    if f"{key}_base64" in record:
        return base64.b64decode(record[f"{key}_base64"])
    return record[key].encode("utf-8")


def test_clean_up_journal_and_undo_keep_names_that_are_not_utf8(odd_tree, home, tmp_path,
                                                                  capsysbinary):
    root, files = odd_tree
    db = str(tmp_path / "s.db")
    assert run(capsysbinary, "scan", "-q", "--db", db, os.fsdecode(root))[0] == 0

    # exports: JSON names the exact bytes beside readable text; CSV holds the bytes
    code, out, _ = run(capsysbinary, "groups", "--db", db)
    members = [f for g in json.loads(out) for f in g["files"]]
    assert code == 0 and {exact(f, "path") for f in members} == set(files)
    odd = [f for f in members if "path_base64" in f]
    assert len(odd) == 3 and all("\ufffd" in f["path"] for f in odd)
    code, out, _ = run(capsysbinary, "groups", "--db", db, "--format", "csv")
    rows = csv.DictReader(io.StringIO(out.decode("utf-8", "surrogateescape"), newline=""))
    assert code == 0 and {os.fsencode(r["path"]) for r in rows} == set(files)
    code, out, _ = run(capsysbinary, "pairs", "--db", db, "--format", "json")
    pairs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and {frozenset((exact(p, "path_a"), exact(p, "path_b")))
                          for p in pairs} == {frozenset(list(files)[:2]),
                                              frozenset(list(files)[2:])}

    # clean-up: both newer copies go to the trash, and the journal says so
    code, out, err = run(capsysbinary, "remove", "--db", db, "--yes")
    assert code == 0 and b"2 done" in out, err
    gone = [root + b"/b/" + BAD, root + b"/b/" + LATIN]
    assert not any(os.path.lexists(p) for p in gone)
    code, out, err = run(capsysbinary, "journal", "--db", db)
    assert code == 0 and b"completed" in out, err
    code, out, err = run(capsysbinary, "journal", "--db", db, "1")
    assert code == 0 and all(p in out for p in gone), err  # the names' own bytes, as ls
    moved = [line for line in out.splitlines() if b" -> " in line]
    assert len(moved) == 2 and all(  # each line names where its file went once
        line.count(line.split(b" -> ")[1].split(b"  ")[0]) == 1 for line in moved)
    code, out, _ = run(capsysbinary, "journal", "--db", db, "1", "--json")
    entries = [json.loads(line) for line in out.splitlines()]
    assert sorted(exact(e, "path") for e in entries) == sorted(gone)
    assert {exact(e, "kept") for e in entries} == {root + b"/a/keep.bin", root + b"/c/" + LATIN}
    assert all(os.path.basename(exact(e, "path")) in exact(e, "message") for e in entries)

    # undo puts each file back under its exact byte name
    code, out, err = run(capsysbinary, "undo", "--db", db)
    assert code == 0 and b"2 done" in out, err
    assert sorted(os.listdir(root + b"/b")) == sorted([BAD, LATIN])
    for path, content in files.items():
        with open(path, "rb") as f:
            assert f.read() == content
    code, out, _ = run(capsysbinary, "journal", "--db", db, "2")
    assert code == 0 and all(p in out for p in gone)


def test_store_keeps_issues_and_errors_that_name_odd_files(tmp_path):
    name = os.fsdecode(os.fsencode(str(tmp_path)) + b"/" + BAD)
    with Store(tmp_path / "s.db") as store:
        scan_id = store.begin_scan([str(tmp_path)])
        why = f"symbolic link to {name}, not followed"
        store.add_issues(scan_id, [(os.fsencode(name), "error", why)])
        store.save_files([FileRecord(os.fsencode(name), 1, 2, 3, 4, "bin", None, None,
                                     f"cannot read {name}")], store.tagset_id(), scan_id)
        assert store.issues(scan_id) == [(name, "error", why)]
        assert list(store.errors()) == [(name, f"cannot read {name}")]


def test_json_ready_adds_exact_bytes_only_for_names_that_are_not_utf8():
    plain = {"path": "/x/\u00e9t\u00e9.txt", "size": 3, "roots": ["/x"]}
    assert json_ready(plain) == plain
    odd = os.fsdecode(b"/x/" + BAD)
    out = json_ready({"path": odd, "nested": {"roots": ["/x", odd]}, "n": None})
    assert out["path"] == "/x/bad\ufffd.bin"
    assert base64.b64decode(out["path_base64"]) == b"/x/" + BAD
    assert out["nested"]["roots"] == ["/x", "/x/bad\ufffd.bin"]
    assert [base64.b64decode(b) for b in out["nested"]["roots_base64"]] == [b"/x",
                                                                         b"/x/" + BAD]
    json.dumps(out).encode("ascii")  # plain JSON any reader takes


# any name a Linux file system can hold: every byte but '/' and NUL
_NAMES = st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b and b"\0" not in b)


def test_any_byte_name_round_trips_through_the_journal(tmp_path):
    with Store(tmp_path / "s.db") as store:

        @settings(max_examples=200, deadline=None)
        @given(name=_NAMES)
        def check(name):
            path = os.fsdecode(os.fsencode(str(tmp_path)) + b"/" + name)
            trashed = os.fsdecode(b"/trash/files/" + name)
            message = f"sent to the trash: {trashed}"
            row = PlannedRow(seq=0, action="trash", path=path, identity=(1, 2, 3, 4),
                             kept=path + ".kept", kept_identity=(1, 2, 3, 5))
            batch_id = journal.begin(store, "trash", f"trash {path}", lambda _: [row])
            recorder = journal.Recorder(store, batch_id)
            recorder.add(0, Outcome("done", message, trashed, {"kind": "trash", "at": trashed}))
            recorder.finish("completed")
            [entry] = journal.entries(store, batch_id)
            assert (entry.path, entry.message, entry.target, entry.kept) == (
                path, message, trashed, path + ".kept")
            assert os.fsencode(entry.path) == os.fsencode(str(tmp_path)) + b"/" + name
            assert journal.batch(store, batch_id).description == f"trash {path}"

        check()


def test_window_shows_and_exports_names_that_are_not_utf8(qtbot, window, tmp_path, odd_tree):
    from tests.test_gui_window import scan

    root, files = odd_tree
    scan(qtbot, window, os.fsdecode(root))
    model = window.model
    assert model.rowCount() == 2
    window.grab()  # every name painted, none crashing Qt
    for row in range(model.rowCount()):
        group = model.index(row, 0)
        for member in range(model.rowCount(group)):
            for column in range(model.columnCount(group)):
                model.data(model.index(member, column, group))
    out = tmp_path / "groups.csv"
    window.export_groups(str(out))
    text = out.read_bytes().decode("utf-8", "surrogateescape")
    assert {os.fsencode(r["path"]) for r in csv.DictReader(io.StringIO(text, newline=""))} \
        == set(files)
    window.export_groups(str(tmp_path / "groups.json"))
    exported = json.loads((tmp_path / "groups.json").read_text(encoding="utf-8"))
    assert {exact(f, "path") for g in exported for f in g["files"]} == set(files)


class _Crash(BaseException):
    """The process dies here: nothing after it runs."""


def test_a_batch_cut_off_after_trashing_odd_names_is_recovered_and_undone(
        odd_tree, home, tmp_path, capsysbinary):
    """As the issue found stores: files trashed, their rows still 'planned'.  The next
    command settles them from the file system, and undo puts them back."""
    root, files = odd_tree
    db = str(tmp_path / "s.db")
    assert run(capsysbinary, "scan", "-q", "--db", db, os.fsdecode(root))[0] == 0

    def add(self, seq, outcome):
        raise _Crash()  # after the first file was trashed, before its result was written

    with pytest.MonkeyPatch.context() as crash:  # (monkeypatch holds the throwaway home)
        crash.setattr(journal.Recorder, "flush_quietly", lambda self: None)
        crash.setattr(journal.Recorder, "add", add)
        with pytest.raises(_Crash):
            main(["remove", "--db", db, "--yes"])
    capsysbinary.readouterr()
    trashed = [p for p in files if not os.path.lexists(p)]
    assert len(trashed) == 1 and os.path.basename(trashed[0]) in (BAD, LATIN)
    code, out, err = run(capsysbinary, "journal", "--db", db, "1", "--json")
    states = {exact(e, "path"): e["state"] for e in map(json.loads, out.splitlines())}
    assert code == 0 and states[trashed[0]] == "done", err
    code, out, err = run(capsysbinary, "undo", "--db", db)
    assert code == 0 and b"1 done" in out, err
    for path, content in files.items():
        with open(path, "rb") as f:
            assert f.read() == content


def test_the_log_keeps_a_name_that_is_not_utf8(tmp_path, monkeypatch, capsys):
    import logging

    from simgui.core.logs import log_path, setup_logging

    monkeypatch.setenv("SIMGUI_LOG_DIR", str(tmp_path / "logs"))
    logger = logging.getLogger("simgui")
    before = list(logger.handlers)
    try:
        setup_logging()
        logging.getLogger("simgui.test").warning("cannot read %s", os.fsdecode(b"/t/bad\xff.bin"))
        for handler in logger.handlers:
            handler.flush()
        assert "/t/bad\\udcff.bin" in log_path().read_text(encoding="utf-8")
        assert "Logging error" not in capsys.readouterr().err
    finally:
        for handler in logger.handlers[len(before):]:
            logger.removeHandler(handler)
            handler.close()


def test_extensions_that_are_not_utf8_are_stored_and_keep_files_apart(tmp_path, capsysbinary):
    """A name whose extension is not UTF-8 (``notes.\\xe9``) made the store refuse the
    whole scan: the extension is kept as text, with the bytes escaped, and the extension
    rule still tells such files apart."""
    root = tmp_path / "t"
    root.mkdir()
    text = b"".join(b"line %d of some notes\n" % i for i in range(300))
    edits = {b"a.\xe9": text, b"b.\xe9": text.replace(b"line 7 ", b"LINE 7 "),
             b"c.\xff": text.replace(b"line 9 ", b"LINE 9 "), b"d.txt": text + b"end\n"}
    for name, content in edits.items():
        with open(os.fsencode(root) + b"/" + name, "wb") as f:
            f.write(content)
    db = str(tmp_path / "s.db")
    assert run(capsysbinary, "scan", "--db", db, "-q", str(root))[0] == 0
    with Store(db) as store:
        files = store.files()
    assert sorted(files.extensions) == ["\\udce9", "\\udce9", "\\udcff", "txt"]
    code, out, _ = run(capsysbinary, "pairs", "--db", db, "--format", "csv")
    assert code == 0
    pairs = {frozenset(os.path.basename(p) for p in (row[0], row[1])) for row in csv.reader(
        io.StringIO(out.decode("utf-8", "surrogateescape")))}
    assert frozenset({"a.\udce9", "b.\udce9"}) in pairs
    assert not any("c.\udcff" in pair and len(pair) == 2 for pair in pairs)


@given(st.lists(st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b
                                                           and b"\\" not in b
                                                           and b"\0" not in b),
                min_size=1, max_size=4))
def test_a_path_shown_with_its_odd_bytes_as_xNN_reads_back_as_itself(parts):
    """What the window shows of a name that is not UTF-8 (\\xNN, as ls -b) is what a user
    can type back: unshown_path undoes shown_path for every name without a backslash."""
    from simgui.core.shown import shown_path, unshown_path

    path = os.fsdecode(b"/" + b"/".join(parts))
    assert unshown_path(shown_path(path)) == path


def test_a_control_character_in_a_name_is_shown_as_xNN():
    """A newline in a name broke a row of the window's lists and its confirmation in two:
    it shows as \\x0a, as ls -b writes it, and reads back as itself."""
    from simgui.core.shown import shown_path, unshown_path

    path = os.fsdecode(b"/data/two\nlines\ttab\x7f.txt")
    assert shown_path(path) == "/data/two\\x0alines\\x09tab\\x7f.txt"
    assert unshown_path(shown_path(path)) == path
    assert shown_path("/data/plain é.txt") == "/data/plain é.txt"
