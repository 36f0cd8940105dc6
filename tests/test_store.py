import sqlite3

import numpy as np
import pytest

from simgui.core.store import (
    APPLICATION_ID, SCHEMA_VERSION, FileRecord, Store, StoreError, default_db_path,
)


def record(path: bytes, size=10, error=None) -> FileRecord:
    table = None if error else np.arange(16, dtype=np.int64) + size
    return FileRecord(path, size, 123, 1, hash(path) & 0xFFFF, "txt", table,
                      None if error else b"h" * 16, error)


def test_new_store_is_versioned_wal_and_marked_as_ours(tmp_path):
    with Store(tmp_path / "s.db") as store:
        assert store.schema_version == SCHEMA_VERSION
    db = sqlite3.connect(tmp_path / "s.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_env_variable_overrides_default_location(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMGUI_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv("SIMGUI_DB")
    assert default_db_path().name == "simgui.sqlite3"


def test_files_round_trip_including_undecodable_names(tmp_path):
    weird = b"/data/caf\xe9-\xff.txt"  # not UTF-8
    with Store(tmp_path / "s.db") as store:
        tagset = store.tagset_id()
        scan_id = store.begin_scan(["/data"])
        store.save_files([record(weird, 20), record(b"/data/b.txt", 30),
                          record(b"/data/bad", 5, error="permission denied")], tagset, scan_id)
        files = store.files()
        assert len(files) == 2
        assert [p.encode("utf-8", "surrogateescape") for p in files.paths] == [
            b"/data/b.txt", weird]
        assert files.tables.shape == (2, 16) and files.tables[0, 0] == 30
        known = store.known_files([b"/data"])
        assert set(known) == {weird, b"/data/b.txt", b"/data/bad"}
        assert not known[b"/data/bad"].ok
        stats = store.stats()
        assert (stats["files"], stats["bytes"], stats["errors"]) == (2, 50, 1)


def test_known_files_are_limited_to_the_root(tmp_path):
    with Store(tmp_path / "s.db") as store:
        tagset, scan_id = store.tagset_id(), store.begin_scan([])
        store.save_files([record(b"/a/x"), record(b"/a/y/z"), record(b"/ab/x"), record(b"/a")],
                         tagset, scan_id)
        assert set(store.known_files([b"/a"])) == {b"/a", b"/a/x", b"/a/y/z"}
        assert len(store.known_files([b"/"])) == 4


def test_garbage_file_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "s.db"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="not a simgui store"):
        Store(path)
    assert path.read_bytes().startswith(b"this is not")  # left untouched


def test_truncated_database_is_refused(tmp_path):
    path = tmp_path / "s.db"
    with Store(path) as store:
        store.save_files([record(b"/a/x")], store.tagset_id(), store.begin_scan([]))
    sqlite3.connect(path).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\xff" * 3000)
    with pytest.raises(StoreError):
        with Store(path) as store:
            store.stats()


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE contacts (name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="another program"):
        Store(path)


def test_store_from_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "s.db"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer simgui"):
        Store(path)


def test_interrupted_scan_is_marked_on_next_open(tmp_path):
    path = tmp_path / "s.db"
    with Store(path) as store:
        store.begin_scan(["/x"])  # never finished: the process "died"
    with Store(path) as store:
        assert store.stats()["last_scan"]["status"] == "interrupted"


def test_full_disk_fails_cleanly_and_keeps_earlier_data(tmp_path):
    with Store(tmp_path / "s.db") as store:
        tagset, scan_id = store.tagset_id(), store.begin_scan([])
        store.save_files([record(b"/keep")], tagset, scan_id)
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 1}")  # the "disk" is now full
        big = [record(b"/big/%06d" % i) for i in range(5000)]
        with pytest.raises(StoreError, match="full"):
            store.save_files(big, tagset, scan_id)
        files = store.files()
        assert files.paths == ["/keep"]  # nothing half-written


def test_only_a_corrupt_file_is_called_damaged():
    from simgui.core.store import is_damage

    def error(cls, message, code):
        exc = cls(message)
        exc.sqlite_errorcode = code
        return exc

    assert is_damage(error(sqlite3.DatabaseError, "database disk image is malformed",
                           sqlite3.SQLITE_CORRUPT))
    assert is_damage(error(sqlite3.DatabaseError, "file is not a database",
                           sqlite3.SQLITE_NOTADB))
    # a constraint, a lock or a full disk is no reason to move the store (and its
    # journal, what undo needs) aside
    assert not is_damage(error(sqlite3.IntegrityError, "UNIQUE constraint failed",
                               sqlite3.SQLITE_CONSTRAINT_UNIQUE))
    assert not is_damage(error(sqlite3.OperationalError, "database is locked",
                               sqlite3.SQLITE_BUSY))
    assert not is_damage(error(sqlite3.OperationalError, "database or disk is full",
                               sqlite3.SQLITE_FULL))
    assert is_damage(sqlite3.DatabaseError("database disk image is malformed"))  # no code


def test_a_tag_set_saved_meanwhile_by_another_process_is_found(tmp_path):
    class Racing:
        """The connection, but another store saves the tag set right after it is looked up."""

        def __init__(self, real, other, tags):
            self.real, self.other, self.tags = real, other, tags

        def execute(self, sql, *args):
            result = self.real.execute(sql, *args)
            if sql.startswith("SELECT id FROM tagsets") and self.other is not None:
                other, self.other = self.other, None
                other.tagset_id(self.tags)
            return result

        def __getattr__(self, name):
            return getattr(self.real, name)

    tags = tuple(range(16))
    with Store(tmp_path / "s.db") as first, Store(tmp_path / "s.db") as second:
        real = first._db
        first._db = Racing(real, second, tags)
        try:
            assert first.tagset_id(tags) == second.tagset_id(tags)
        finally:
            first._db = real


def test_a_first_save_into_an_empty_store_builds_its_indexes_after_the_rows(tmp_path,
                                                                          monkeypatch):
    """(A fifth less time for a large first scan.)  The indexes come back, equal to the
    schema's, and hold every row; into a store with files, nothing is dropped."""
    from simgui.core.store import database

    monkeypatch.setattr(database, "_BUILD_INDEXES_FROM", 2)
    with Store(tmp_path / "s.db") as store:
        db = store.connection
        schema = sorted(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                                   "AND tbl_name = 'files'").fetchall(), key=str)
        scan_id = store.begin_scan(["/r"])
        rows = [(b"/r/%d" % i, i % 3, i, 1, i, "txt", bytes([i % 3]) * 16, None, None)
                for i in range(50)]
        drops = []
        db.set_trace_callback(lambda sql: drops.append(sql) if "DROP" in sql else None)
        store.save_walked(rows, scan_id)
        db.set_trace_callback(None)
        assert len(drops) == 2
        assert sorted(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                                 "AND tbl_name = 'files'").fetchall(), key=str) == schema
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM files INDEXED BY files_size "
                          "WHERE size = 1").fetchone() == (17,)
        # a store that has files keeps its indexes while it saves
        drops = []
        db.set_trace_callback(lambda sql: drops.append(sql) if "DROP" in sql else None)
        store.save_walked([(b"/r/x%d" % i, 5, i, 1, 100 + i, "", None, None, None)
                           for i in range(5)], scan_id)
        db.set_trace_callback(None)
        assert drops == []


def test_save_walked_keeps_each_field_the_scan_and_its_time(tmp_path):
    """The time and the scan are written into the statement once, not bound per row:
    each row still gets them, and its own fields, an error naming a file whose name is
    not UTF-8 among them."""
    import os
    import time

    from simgui.core.store.database import text_of

    with Store(tmp_path / "s.db") as store:
        scan_id = store.begin_scan(["/r"])
        before = time.time()
        why = "cannot read " + os.fsdecode(b"/r/caf\xe9")
        rows = [(b"/r/b", 3, 7, 1, 2, "txt", bytes(range(16)), -5, None),
                (b"/r/caf\xe9", 4, 8, 1, 3, "", None, None, why)]
        store.save_walked(rows, scan_id)
        after = time.time()
        got = store.connection.execute(
            "SELECT path, size, mtime_ns, device, inode, extension, content_hash, "
            "prefix_hash, error, scan_id, scanned_at FROM files ORDER BY path").fetchall()
    assert [row[:8] for row in got] == [row[:8] for row in rows]
    assert [text_of(row[8]) for row in got] == [None, why]
    assert all(row[9] == scan_id and before <= row[10] <= after for row in got)


def test_every_migration_can_run_again(tmp_path):
    """Two processes may upgrade one store at once, and a store may have been upgraded
    by hand or half-way: a migration whose version is reached does nothing, and one
    that adds a column the table has skips it."""
    from simgui.core.store.database import SCHEMA_VERSION

    path = tmp_path / "s.db"
    with Store(path) as store:
        for number in range(1, SCHEMA_VERSION + 1):
            store._migrate(number)  # reached already: nothing
    with sqlite3.connect(path) as raw:  # the column is there, the version says it is not
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert "prefix_hash" in [r[1] for r in store.connection.execute(
            "PRAGMA table_info(files)")]
