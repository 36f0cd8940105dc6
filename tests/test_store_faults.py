"""The store under faults: a full disk says so, a read-only store can still be read, and
a read-only install and home still start (numba's kernel cache)."""

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from simgui import _kernel_cache
from simgui.cli import main
from simgui.core.cleanup import journal
from simgui.core.cleanup.actions import Outcome
from simgui.core.cleanup.journal import PlannedRow
from simgui.core.store import FileRecord, Store, StoreError
from simgui.core.store.database import _MIGRATIONS, APPLICATION_ID, READABLE_FROM, SCHEMA_VERSION
from tests.test_bytes_paths import home  # noqa: F401  (fixture)

PACKAGE = os.path.dirname(os.path.abspath(_kernel_cache.__file__))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def scanned(tmp_path, capsys):
    """Two copies and one other file, scanned into a store."""
    rng = np.random.default_rng(6)
    same = rng.bytes(20_000)
    root = tmp_path / "files"
    root.mkdir()
    (root / "old.bin").write_bytes(same)
    (root / "new.bin").write_bytes(same)
    (root / "other.bin").write_bytes(rng.bytes(20_000))
    os.utime(root / "old.bin", ns=(1, 10**9))
    db = str(tmp_path / "s.db")
    assert main(["scan", "-q", "--db", db, str(root)]) == 0
    capsys.readouterr()
    return root, db


# -- a full disk ----------------------------------------------------------------------


class _FullAtCommit:
    """A connection whose COMMIT fails as on a full disk: SQLite rolls the transaction
    back by itself and reports SQLITE_FULL, so a ROLLBACK after it finds none."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def execute(self, sql, *args):
        if sql.strip().upper() == "COMMIT":
            self._db.execute("ROLLBACK")
            exc = sqlite3.OperationalError("database or disk is full")
            exc.sqlite_errorcode = sqlite3.SQLITE_FULL
            raise exc
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def _row(path="/t/a"):
    return PlannedRow(seq=0, action="trash", path=path, identity=(1, 2, 3, 4))


def test_a_full_disk_at_commit_says_so_not_cannot_rollback(tmp_path):
    with Store(tmp_path / "s.db") as store:
        with pytest.MonkeyPatch.context() as full:
            full.setattr(Store, "connection", property(lambda s: _FullAtCommit(s._db)))
            with pytest.raises(StoreError) as caught:
                journal.begin(store, "trash", "a batch", lambda _: [_row()])
        message = str(caught.value)
        assert "the disk holding the store is full" in message and "free space" in message
        assert "nothing was changed" in message and "rollback" not in message
        assert "\n" not in message
        assert journal.batches(store) == []  # all of it or none of it


def test_a_full_disk_while_journaling_results_says_the_clean_up_stopped(tmp_path):
    with Store(tmp_path / "s.db") as store:
        batch_id = journal.begin(store, "trash", "a batch", lambda _: [_row()])
        recorder = journal.Recorder(store, batch_id)
        recorder.pending.append(("done", "gone", None, None, 0.0, batch_id, 0))
        with pytest.MonkeyPatch.context() as full:
            full.setattr(Store, "connection", property(lambda s: _FullAtCommit(s._db)))
            with pytest.raises(StoreError,
                               match="disk holding the store is full.*'simgui journal'"):
                recorder.finish("completed")
        assert [e.state for e in journal.entries(store, batch_id)] == ["planned"]


def test_a_full_disk_when_saving_scan_results_says_so(tmp_path):
    with Store(tmp_path / "s.db") as store:
        tagset, scan_id = store.tagset_id(), store.begin_scan([])
        store._db = _FullAtCommit(store._db)
        record = FileRecord(b"/a", 1, 2, 3, 4, "txt", np.zeros(16, np.int64), b"h" * 16)
        with pytest.raises(StoreError, match="disk holding the store is full") as caught:
            store.save_files([record], tagset, scan_id)
        assert "rollback" not in str(caught.value)
        store._db = store._db._db
        assert len(store.files()) == 0


def test_a_store_that_cannot_grow_keeps_the_journal_consistent(tmp_path):
    """A real SQLITE_FULL (a page limit in place of a full disk) while journaling."""
    with Store(tmp_path / "s.db") as store:
        db = store.connection
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages + 2}")
        rows = [PlannedRow(seq=i, action="trash", path=f"/t/{i:06d}" + "x" * 200,
                           identity=(1, 2, 3, i)) for i in range(3000)]
        with pytest.raises(StoreError, match="disk holding the store is full"):
            journal.begin(store, "trash", "many", lambda _: rows)
        assert journal.batches(store) == []


def test_remove_on_a_full_disk_is_one_line_and_changes_nothing(scanned, home, capsys,
                                                               monkeypatch):
    root, db = scanned
    before = sorted(os.listdir(root))
    monkeypatch.setattr(Store, "connection", property(lambda s: _FullAtCommit(s._db)))
    code, out, err = run(capsys, "remove", "--db", db, "--yes")
    assert code == 2 and err.count("\n") == 1, err
    assert "disk holding the store is full" in err and "nothing was changed" in err
    assert sorted(os.listdir(root)) == before


# -- a read-only store -------------------------------------------------------------------


def _read_only(monkeypatch, path, *, folder=False):
    """Make the store at ``path`` (or its folder) read-only for this process, as chmod
    would for a user who is not root: os.access says so, and SQLite, asked to open it
    for writing, opens it for reading only."""
    path = os.path.abspath(path)
    denied = os.path.dirname(path) if folder else path
    real_access, real_connect = os.access, sqlite3.connect

    def access(p, mode, *args, **kwargs):
        if mode & os.W_OK and os.path.abspath(os.fsdecode(p)) == denied:
            return False
        return real_access(p, mode, *args, **kwargs)

    def connect(database, *args, **kwargs):
        if not kwargs.get("uri") and os.path.abspath(os.fspath(database)) == path:
            kwargs["uri"] = True
            return real_connect(f"file:{path}?mode=ro", *args, **kwargs)
        return real_connect(database, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(sqlite3, "connect", connect)


def _snapshot(db: str):
    folder = os.path.dirname(db)
    with open(db, "rb") as f:
        return sorted(os.listdir(folder)), hashlib.sha256(f.read()).hexdigest()


@pytest.mark.parametrize("folder", [False, True], ids=["file", "folder"])
def test_reading_commands_work_on_a_read_only_store(scanned, home, capsys, monkeypatch,
                                                    folder):
    root, db = scanned
    assert run(capsys, "remove", "--db", db, "--yes")[0] == 0  # a batch in the journal
    before = _snapshot(db)
    _read_only(monkeypatch, db, folder=folder)
    code, out, err = run(capsys, "stats", "--db", db)
    assert code == 0 and "Files:     2" in out, err
    code, out, err = run(capsys, "groups", "--db", db)
    assert code == 0 and out.strip() == "[]", err  # the copy went to the trash
    code, out, err = run(capsys, "journal", "--db", db)
    assert code == 0 and "completed" in out, err
    code, out, err = run(capsys, "journal", "--db", db, "1")
    assert code == 0 and "new.bin" in out, err
    code, out, err = run(capsys, "remove", "--db", db, "--dry-run")
    assert code == 0 and err == "", err
    assert _snapshot(db) == before  # nothing written, not even beside the store


@pytest.mark.parametrize("folder", [False, True], ids=["file", "folder"])
def test_writing_commands_say_in_one_line_that_the_store_is_read_only(scanned, home, capsys,
                                                                      monkeypatch, folder):
    root, db = scanned
    before, files = _snapshot(db), sorted(os.listdir(root))
    _read_only(monkeypatch, db, folder=folder)
    for argv in (["scan", str(root)], ["remove", "--yes"], ["undo"]):
        code, out, err = run(capsys, argv[0], "--db", db, *argv[1:])
        assert code == 2 and err.count("\n") == 1, (argv, err)
        assert err.startswith(f"simgui: store {db} cannot be written: ")
        assert "read-only" in err and (os.path.dirname(db) in err if folder else True)
    assert _snapshot(db) == before and sorted(os.listdir(root)) == files


def _old_store(path, version: int) -> str:
    db = str(path)
    con = sqlite3.connect(db)
    for script in _MIGRATIONS[:version]:
        con.executescript(script)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute(f"PRAGMA user_version = {version}")
    con.commit()
    con.close()
    return db


def test_a_read_only_store_of_a_much_older_schema_says_it_cannot_be_updated(tmp_path, capsys,
                                                                           monkeypatch):
    db = _old_store(tmp_path / "old.db", READABLE_FROM - 1)
    _read_only(monkeypatch, db)
    code, out, err = run(capsys, "stats", "--db", db)
    assert code == 2 and err.count("\n") == 1
    assert "read-only" in err and "older simgui" in err and "cannot be updated" in err


def test_a_read_only_store_of_the_last_release_can_still_be_read(tmp_path, capsys,
                                                                 monkeypatch):
    # version 0.1 wrote schema 3; what reading commands query has not changed since
    db = _old_store(tmp_path / "v3.db", READABLE_FROM)
    assert READABLE_FROM < SCHEMA_VERSION
    _read_only(monkeypatch, db)
    for command in (["stats"], ["groups"], ["journal"], ["remove", "--dry-run"],
                    ["groups", "--identical-only", "--reference", str(tmp_path)]):
        code, out, err = run(capsys, *command, "--db", db)
        assert code == 0, (command, err)


# -- a read-only install and home: numba's cache ------------------------------------------


def test_kernel_cache_is_left_to_numba_when_it_finds_a_writable_one():
    ok = {"/pkg/a/__pycache__", "/pkg/b/__pycache__", "/home/u/.cache/numba",
          "/home/u/.cache/simgui/numba", "/mine"}
    usable = ok.__contains__
    folders = ["/pkg/a", "/pkg/b"]
    numba, own = "/home/u/.cache/numba", "/home/u/.cache/simgui/numba"
    assert _kernel_cache.choose(folders, numba, own, None, usable) is None
    assert _kernel_cache.choose(folders + ["/ro"], numba, own, None, usable) is None
    assert _kernel_cache.choose(["/ro"], "/ro-home", own, None, usable) == own
    assert _kernel_cache.choose(["/ro"], "/ro-home", "/ro-home/simgui", None, usable) == ""
    assert _kernel_cache.choose(["/ro"], "/ro-home", None, None, usable) == ""
    assert _kernel_cache.choose(["/ro"], "/ro-home", None, "/mine", usable) is None
    # given as a function, simgui's own cache folder is asked for only when needed
    asked = []
    own_later = lambda: asked.append(own) or own  # noqa: E731
    assert _kernel_cache.choose(folders, numba, own_later, None, usable) is None
    assert asked == []
    assert _kernel_cache.choose(["/ro"], "/ro-home", own_later, None, usable) == own
    assert asked == [own]


def test_usable_asks_os_access_and_refuses_a_file_in_the_way(tmp_path, monkeypatch):
    (tmp_path / "file").write_bytes(b"")
    assert _kernel_cache.usable(str(tmp_path / "new" / "deeper"))
    assert not _kernel_cache.usable(str(tmp_path / "file" / "cache"))
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as a read-only folder
    assert not _kernel_cache.usable(str(tmp_path / "new"))


def test_kernel_cache_falls_back_to_a_temporary_folder_and_says_so(monkeypatch, capsys):
    import numba.core.config as config

    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)  # restored afterwards
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(_kernel_cache, "choose", lambda *args: "")
    _kernel_cache.set_up()
    folder = os.environ["NUMBA_CACHE_DIR"]
    try:
        assert os.path.isdir(folder) and config.CACHE_DIR == folder
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"temporary folder {folder}" in err
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_commands_start_with_a_read_only_install_and_home(tmp_path):
    """The package's __pycache__ folders and the home cannot be written (each a file
    where a folder should be: chmod does not stop root): simgui still starts, every
    kernel module imports, and the temporary cache is said once and removed at exit."""
    copy = tmp_path / "install"
    shutil.copytree(PACKAGE, copy / "simgui", ignore=shutil.ignore_patterns("__pycache__"))
    for folder, _, _ in os.walk(copy / "simgui"):
        open(os.path.join(folder, "__pycache__"), "wb").close()
    (tmp_path / "home").write_bytes(b"")  # a file: nothing can be made under it
    (tmp_path / "tmp").mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH")}
    env.update(HOME=str(tmp_path / "home"), PYTHONPATH=str(copy), TMPDIR=str(tmp_path / "tmp"),
               PYTHONDONTWRITEBYTECODE="1")
    code = textwrap.dedent(f"""
        import importlib, pkgutil, sys
        import simgui, simgui.core
        assert simgui.__file__.startswith({str(copy)!r}), simgui.__file__
        for m in pkgutil.walk_packages(simgui.core.__path__, "simgui.core."):
            importlib.import_module(m.name)
        from simgui.cli import main
        sys.exit(main(["--version"]))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith("simgui ")
    assert result.stderr.count("temporary folder") == 1, result.stderr
    assert os.listdir(tmp_path / "tmp") == []  # removed at exit
