"""The SQLite store: scan results (a cache) and, later, the user's decisions.

One file per user, WAL mode.  The schema carries a version (``user_version``)
and numbered migrations run in order; a migration may drop and rebuild cached
scan results but never user decisions.  Paths are stored as the bytes the file
system gave (``os.fsencode``), so any file name round-trips exactly.

One thread writes: a Store object belongs to the thread that opened it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import operator
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from simgui.core.memory import collector_paused, handing_freed_memory_back
from simgui.core.tags import DEFAULT_TAGS, TAG_COUNT, tags_from_hex, tags_to_hex

if TYPE_CHECKING:
    import numpy as np
# numpy is imported where columns are built, not here: 'simgui stats', 'journal' and
# 'undo' open the store and must start without it (issue 25: at most 100 ms)

APPLICATION_ID = 0x53494D47  # "SIMG": marks a SQLite file as ours
ENV_DB = "SIMGUI_DB"
_SQLITE_MAGIC = b"SQLite format 3\x00"


#: What to tell a user whose store is damaged on disk.
DAMAGED_ADVICE = ("the store is damaged; your files are not affected: move the store aside "
                  "and scan again")


def is_damage(exc: BaseException) -> bool:
    """SQLite found the file corrupt or not a database (not a lock, a full disk, a
    constraint or a read-only file, which are no reason to discard the store)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    return isinstance(exc, sqlite3.DatabaseError) and "malformed" in str(exc)


class StoreError(Exception):
    """The store cannot be used; the message says why in one line."""

    #: whether files were acted on before the store failed (the journal's
    #: ResultsUnsaved): then the failure is not "bad usage" but a partial result
    files_acted_on = False


def is_full(exc: BaseException) -> bool:
    """SQLite could not grow the store: the disk (or a size limit) is full."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF == sqlite3.SQLITE_FULL:
        return True
    return isinstance(exc, sqlite3.Error) and "database or disk is full" in str(exc)


def is_read_only(exc: BaseException) -> bool:
    """SQLite may not write the store (the file, its folder or the file system is read-only)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF == sqlite3.SQLITE_READONLY:
        return True
    return isinstance(exc, sqlite3.Error) and "readonly database" in str(exc)


#: what a failed write leaves behind, unless the writer says otherwise
_KEPT = "what was saved before this failure is kept"


def store_failure(path, doing: str, exc: BaseException, then: str = _KEPT) -> StoreError:
    """A failed SQLite call as one line: what failed, why in words, and what to do.
    ``then`` says what the failure left behind (a full disk or a read-only store)."""
    head = f"store {path}: failed {doing}"
    if is_full(exc):
        return StoreError(f"{head}: the disk holding the store is full ({exc}); free space "
                          f"there and run again; {then}")
    if is_read_only(exc):
        return StoreError(f"{head}: the store cannot be written ({exc}): the file, its folder "
                          f"or its file system is read-only; {then}")
    return StoreError(f"{head}: {exc}" + (f" ({DAMAGED_ADVICE})" if is_damage(exc) else ""))


def rollback_quietly(db: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already done so itself (it does
    on a full disk or an I/O error): a failing ROLLBACK must not hide why it was needed."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


#: a row's first field (its path), to sort rows by
_FIRST = operator.itemgetter(0)


def text_value(text: str | None):
    """A text for a TEXT column that may hold file names: the str itself when it is valid
    UTF-8, else its bytes as a BLOB (a name's undecodable bytes are surrogate escapes in a
    str, which SQLite cannot bind as text); :func:`text_of` turns either back."""
    if text is None:
        return None
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a lone surrogate no file name decodes to
            return text.encode("utf-8", "surrogatepass")


def text_of(value) -> str | None:
    """A text written by :func:`text_value` (older rows are plain TEXT), as the str it was."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return value


def default_db_path() -> Path:
    """``$SIMGUI_DB`` if set, else ``simgui.sqlite3`` in the user data directory."""
    override = os.environ.get(ENV_DB)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return platformdirs.user_data_path("simgui", appauthor=False) / "simgui.sqlite3"


_MIGRATIONS: list[str] = [
    # 1: scan results
    """
    CREATE TABLE tagsets (
        id INTEGER PRIMARY KEY,
        tags TEXT NOT NULL UNIQUE            -- '00 74 65 ...'
    );
    CREATE TABLE scans (
        id INTEGER PRIMARY KEY,
        started_at REAL NOT NULL,
        finished_at REAL,
        roots TEXT NOT NULL,                 -- JSON list of the folders asked for
        status TEXT NOT NULL,                -- running, completed, cancelled, interrupted, failed
        files_read INTEGER NOT NULL DEFAULT 0,
        files_unchanged INTEGER NOT NULL DEFAULT 0,
        bytes_read INTEGER NOT NULL DEFAULT 0,
        errors INTEGER NOT NULL DEFAULT 0,
        skipped INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path BLOB NOT NULL UNIQUE,           -- os.fsencode(absolute path)
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        device INTEGER NOT NULL,
        inode INTEGER NOT NULL,
        extension TEXT NOT NULL,
        tagset_id INTEGER REFERENCES tagsets(id),
        sum_table BLOB,                      -- 16 little-endian int64, tag order
        content_hash BLOB,                   -- xxh3-128 of the whole content
        scanned_at REAL NOT NULL,
        scan_id INTEGER,
        error TEXT                           -- why the file could not be read
    );
    CREATE INDEX files_size ON files(size);
    CREATE INDEX files_inode ON files(device, inode);
    CREATE TABLE scan_issues (
        scan_id INTEGER NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
        path BLOB NOT NULL,
        kind TEXT NOT NULL,                  -- skipped, error
        message TEXT NOT NULL
    );
    CREATE INDEX scan_issues_scan ON scan_issues(scan_id);
    """,
    # 2: the action journal (user history: a later migration must keep it)
    """
    CREATE TABLE batches (
        id INTEGER PRIMARY KEY,
        created_at REAL NOT NULL,
        finished_at REAL,
        action TEXT NOT NULL,                -- trash, delete, move, hardlink, symlink, undo
        status TEXT NOT NULL,                -- running, completed, cancelled, interrupted
        description TEXT NOT NULL,
        target_dir BLOB,
        undo_of INTEGER REFERENCES batches(id),
        pid INTEGER NOT NULL,                -- who runs it: a live batch is not a crashed one
        host TEXT NOT NULL
    );
    CREATE TABLE journal (
        id INTEGER PRIMARY KEY,
        batch_id INTEGER NOT NULL REFERENCES batches(id),
        seq INTEGER NOT NULL,
        group_id INTEGER,
        action TEXT NOT NULL,                -- as batches.action, or restore
        path BLOB NOT NULL,                  -- the file acted on, as scanned
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        device INTEGER NOT NULL,
        inode INTEGER NOT NULL,
        content_hash BLOB,
        kept BLOB,                           -- the copy that stays
        kept_device INTEGER,
        kept_inode INTEGER,
        by_identity INTEGER NOT NULL DEFAULT 0,
        target BLOB,                         -- where it went (move, restore, trash)
        temp BLOB,                           -- temporary name used on the way
        state TEXT NOT NULL,                 -- planned, done, skipped, failed, unknown
        message TEXT NOT NULL DEFAULT '',
        undo TEXT,                           -- JSON of what undo needs, NULL: not undoable
        undone_by INTEGER REFERENCES batches(id),
        updated_at REAL NOT NULL
    );
    CREATE INDEX journal_batch ON journal(batch_id, seq);
    """,
    # 3: fingerprints of the simhash and MinHash methods (NULL: not computed)
    """
    ALTER TABLE files ADD COLUMN simhash INTEGER;  -- 64 bits, as a signed integer
    ALTER TABLE files ADD COLUMN minhash BLOB;     -- 128 little-endian uint32 slots
    """,
    # 4: the scanned folders a batch acted in, which its undo walks from (JSON list of
    # the hex of each path's bytes; NULL: a batch journaled before, walked from /)
    """
    ALTER TABLE batches ADD COLUMN roots BLOB;
    """,
    # 5: pictures (simgui.core.reading.pictures): the 64-bit perceptual hash (as a signed
    # integer), the size as shown and Pillow's format name; picture_error: why a file named
    # as a picture did not decode.  All NULL: not a picture, or not decoded yet.
    """
    ALTER TABLE files ADD COLUMN picture_hash INTEGER;
    ALTER TABLE files ADD COLUMN picture_width INTEGER;
    ALTER TABLE files ADD COLUMN picture_height INTEGER;
    ALTER TABLE files ADD COLUMN picture_format TEXT;
    ALTER TABLE files ADD COLUMN picture_error TEXT;
    """,
    # 6: the ignore list: pairs of files the user said are not duplicates (user history,
    # like the journal: a later migration must keep it); path_a < path_b, by bytes
    """
    CREATE TABLE IF NOT EXISTS ignored_pairs (
        path_a BLOB NOT NULL,
        path_b BLOB NOT NULL,
        added_at REAL NOT NULL,
        PRIMARY KEY (path_a, path_b)
    );
    """,
    # 7: answers kept for the next look (simgui.core.store.answers), and a counter that
    # every row of the files and the ignore list changed or removed raises (a row added
    # raises their largest rowid: a trigger on every row a scan adds cost it a fifth)
    """
    CREATE TABLE IF NOT EXISTS files_version (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL
    );
    INSERT OR IGNORE INTO files_version (id, version) VALUES (1, 0);
    CREATE TRIGGER IF NOT EXISTS file_changed AFTER UPDATE ON files
        BEGIN UPDATE files_version SET version = version + 1; END;
    CREATE TRIGGER IF NOT EXISTS file_forgotten AFTER DELETE ON files
        BEGIN UPDATE files_version SET version = version + 1; END;
    CREATE TRIGGER IF NOT EXISTS pair_ignored AFTER INSERT ON ignored_pairs
        BEGIN UPDATE files_version SET version = version + 1; END;
    CREATE TRIGGER IF NOT EXISTS pair_changed AFTER UPDATE ON ignored_pairs
        BEGIN UPDATE files_version SET version = version + 1; END;
    CREATE TRIGGER IF NOT EXISTS pair_unignored AFTER DELETE ON ignored_pairs
        BEGIN UPDATE files_version SET version = version + 1; END;
    CREATE TABLE IF NOT EXISTS kept_answers (
        question TEXT PRIMARY KEY,           -- the command and every option that shapes it
        files_version TEXT NOT NULL,         -- see answers.files_version
        used_at REAL NOT NULL,
        answer BLOB NOT NULL                 -- zlib of the text, UTF-8 (surrogates passed)
    );
    """,
    # 8: the xxh3-64 of a file's first 4 KiB (as a signed integer) where the identical
    # stage compared it by prefix, so that a later stage reads the prefix of the file
    # unchanged no more (simgui.core.reading.identical); every row written for a changed
    # file clears or replaces it
    """
    ALTER TABLE files ADD COLUMN prefix_hash INTEGER;
    """,
]
SCHEMA_VERSION = len(_MIGRATIONS)
#: the oldest schema a read-only store may have: what reading commands query is the same
#: from it on (migration 4 adds only what undo, a writing command, reads)
READABLE_FROM = 3
#: the first schema with the picture columns (older read-only stores read as having none)
PICTURES_FROM = 5
#: the first schema with the files' prefix hashes (likewise)
PREFIXES_FROM = 8
#: simgui.core.reading.fingerprints.SLOTS, spelled out so that opening a store loads no numba
MINHASH_SLOTS = 128
_KEEP_ISSUES_OF_SCANS = 20
#: rows a save into an empty store needs for its indexes to be built after them
_BUILD_INDEXES_FROM = 10_000
#: rows of one chunk of Store.files: each column of a chunk is one SQLite value, which
#: must stay under SQLite's 1 GB length limit (MinHash signatures: 512 bytes a row)
_FILES_CHUNK = 1 << 18
#: one chunk of Store.files as one row: count, last path, 10 integer columns (each as
#: decimal numbers and commas, SQLite's fastest way to give many integers at once), sum
#: tables, signatures (zeros if none) and content hashes back to back, and paths,
#: extensions and picture formats with NUL between them (no name holds one)
_FILES_INTEGERS = (
    "id", "size", "mtime_ns", "device", "inode", "coalesce(simhash, 0)",
    "coalesce(picture_hash, 0)", "coalesce(picture_width, -1)", "coalesce(picture_height, -1)",
    # fingerprinted, is a picture, and the content hash's length (-1: none)
    "(minhash IS NOT NULL AND simhash IS NOT NULL) + 2 * (picture_hash IS NOT NULL) "
    "+ 4 * (coalesce(length(content_hash), -1) + 1)")
_FILES_CHUNK_SQL = (
    "SELECT count(*), max(path), "
    + "".join(f"group_concat({column}), " for column in _FILES_INTEGERS) +
    "CAST(coalesce(group_concat(sum_table, ''), '') AS BLOB), "
    "CAST(coalesce(group_concat(coalesce(minhash, zeroblob(" + str(4 * MINHASH_SLOTS) + ")), "
    "''), '') AS BLOB), "
    "CAST(coalesce(group_concat(content_hash, ''), '') AS BLOB), "
    "CAST(group_concat(path, char(0)) AS BLOB), group_concat(extension, char(0)), "
    "group_concat(coalesce(picture_format, ''), char(0)) "
    "FROM (SELECT id, path, size, mtime_ns, device, inode, sum_table, content_hash, "
    "extension, simhash, minhash, {pictures} FROM files "
    "WHERE error IS NULL AND tagset_id = ? {after} ORDER BY path LIMIT ?)")
#: one chunk of Store.known_files (paths at or under a root, after a path) as one row:
#: count, last path, the paths with NUL between them, and its integers as decimal text
_KNOWN_CHUNK_SQL = (
    "SELECT count(*), max(path), CAST(group_concat(path, char(0)) AS BLOB), "
    "group_concat(extension, char(0)), "
    "group_concat(id), group_concat(size), group_concat(mtime_ns), group_concat(device), "
    "group_concat(inode), group_concat(tagset), group_concat(flags) "
    "FROM (SELECT path, extension, id, size, mtime_ns, device, inode, "
    "coalesce(tagset_id, -1) AS tagset, "
    # ok (a sum table and no error), fingerprinted, pictured
    "(sum_table IS NOT NULL AND error IS NULL) + 2 * (minhash IS NOT NULL) "
    "+ 4 * (picture_hash IS NOT NULL OR picture_error IS NOT NULL) AS flags FROM files "
    "WHERE (path = ? OR (path > ? AND path < ?)) AND path > ? ORDER BY path LIMIT ?)")


#: os.fsdecode is UTF-8 with surrogate escapes: Store.files decodes all paths at once
_FS_UTF8 = (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()) == (
    "utf-8", "surrogateescape")


def _statements(script: str) -> Iterator[str]:
    """The SQL statements of a migration (a trigger's body holds semicolons too)."""
    statement = ""
    for part in script.split(";"):
        statement += part + ";"
        if sqlite3.complete_statement(statement):
            if statement.strip(" \n;"):
                yield statement
            statement = ""
    if statement.strip(" \n;"):
        yield statement


class KnownColumns(NamedTuple):
    """The stored files under some folders as columns (see Store.known_columns)."""

    paths: list[bytes]
    extensions: list[str]  # as stored: the extension of the path
    ids: np.ndarray  # int64, each column's
    sizes: np.ndarray
    mtimes_ns: np.ndarray
    devices: np.ndarray
    inodes: np.ndarray
    tagsets: np.ndarray  # -1: none
    flags: np.ndarray  # bits: 1 ok (a sum table, no error), 2 fingerprinted, 4 pictured


class KnownFile(NamedTuple):
    """What the store remembers of a path: enough to tell if it changed (a tuple, so
    that ``known_files`` makes one per stored file without a Python call each)."""

    id: int
    size: int
    mtime_ns: int
    device: int
    inode: int
    tagset_id: int | None
    ok: bool  # has a sum table and no error
    fingerprinted: bool = False  # has the simhash and MinHash fingerprints too
    pictured: bool = False  # has a picture hash, or the reason it has none


@dataclass(frozen=True)
class FileRecord:
    """One scanned file, as the scanner hands it to the store."""

    path: bytes
    size: int
    mtime_ns: int
    device: int
    inode: int
    extension: str
    sum_table: np.ndarray | None
    content_hash: bytes | None
    error: str | None = None
    simhash: int | None = None  # unsigned 64-bit, when fingerprints were asked for
    minhash: np.ndarray | None = None  # uint32 (128,)
    # a picture's (simgui.core.reading.pictures): hash (unsigned 64-bit), size as shown,
    # format; or why it did not decode.  All None: not a picture.
    picture_hash: int | None = None
    picture_width: int | None = None
    picture_height: int | None = None
    picture_format: str | None = None
    picture_error: str | None = None


@dataclass(frozen=True)
class StoredFiles:
    """Column arrays of every readable file, ready for keys and SimFind."""

    ids: np.ndarray          # int64 (n,)
    paths: list[str]
    sizes: np.ndarray        # int64 (n,)
    mtimes_ns: np.ndarray    # int64 (n,)
    devices: np.ndarray      # int64 (n,)
    inodes: np.ndarray       # int64 (n,)
    tables: np.ndarray       # int64 (n, 16)
    hashes: list[bytes]
    extensions: list[str]
    # fingerprints (simgui.core.reading.fingerprints); rows without are zero and not fingerprinted
    simhashes: np.ndarray | None = None  # uint64 (n,)
    signatures: np.ndarray | None = None  # uint32 (n, 128)
    fingerprinted: np.ndarray | None = None  # bool (n,)
    # pictures (simgui.core.reading.pictures); rows that are none: hash 0, sizes -1, format ""
    picture_hashes: np.ndarray | None = None  # uint64 (n,)
    picture_widths: np.ndarray | None = None  # int64 (n,)
    picture_heights: np.ndarray | None = None  # int64 (n,)
    picture_formats: list[str] | None = None
    is_picture: np.ndarray | None = None  # bool (n,)

    def __len__(self) -> int:
        return len(self.ids)

    def take(self, index) -> StoredFiles:
        """The files at ``index`` (integer positions), in that order."""
        import numpy as np

        index = np.asarray(index, np.int64)
        pick = index.tolist()
        return StoredFiles(
            ids=self.ids[index], paths=[self.paths[i] for i in pick], sizes=self.sizes[index],
            mtimes_ns=self.mtimes_ns[index], devices=self.devices[index],
            inodes=self.inodes[index], tables=self.tables[index],
            hashes=[self.hashes[i] for i in pick], extensions=[self.extensions[i] for i in pick],
            simhashes=None if self.simhashes is None else self.simhashes[index],
            signatures=None if self.signatures is None else self.signatures[index],
            fingerprinted=None if self.fingerprinted is None else self.fingerprinted[index],
            picture_hashes=None if self.picture_hashes is None else self.picture_hashes[index],
            picture_widths=None if self.picture_widths is None else self.picture_widths[index],
            picture_heights=None if self.picture_heights is None
            else self.picture_heights[index],
            picture_formats=None if self.picture_formats is None
            else [self.picture_formats[i] for i in pick],
            is_picture=None if self.is_picture is None else self.is_picture[index])


def _check_file_header(path: Path) -> None:
    try:
        with open(path, "rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot open store {path}: {exc.strerror or exc}") from None
    if head and head != _SQLITE_MAGIC:
        raise StoreError(f"{path} is not a simgui store (not an SQLite database)")


def _unwritable(path: Path) -> str | None:
    """Why this process cannot write the store at ``path`` (None: it can).  SQLite
    writes beside the file too (its -wal and -shm files), so the folder counts."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if path.exists() and not os.access(path, os.W_OK):
        why = "the file is read-only"
    elif not os.access(folder, os.W_OK | os.X_OK):
        why = f"the folder {folder} is read-only"
    else:
        return None
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f"{folder} is on a read-only file system"
    except OSError:
        pass
    return why


def _read_only_uri(path: Path, immutable: bool) -> str:
    from urllib.parse import quote

    return (f"file:{quote(os.fsencode(path.absolute()))}?mode=ro"
            + ("&immutable=1" if immutable else ""))


class Store:
    """An open store.  Use as a context manager or call :meth:`close`.

    ``read_only``: False (the default), the store must be writable, and a one-line
    StoreError says why it is not; True, open it for reading only; None, for writing
    when this process may, else for reading only (the reading commands: a store the user
    cannot write still shows its files, groups and journal).  :attr:`read_only` says
    which it got; a store opened for reading is never migrated or changed.
    """

    def __init__(self, path: str | os.PathLike | None = None, *,
                 read_only: bool | None = False):
        self.path = Path(path) if path is not None else default_db_path()
        _check_file_header(self.path)
        why = None if read_only else _unwritable(self.path)
        if why and read_only is False:
            raise StoreError(f"store {self.path} cannot be written: {why} (the reading "
                             "commands, such as stats, groups and remove --dry-run, still "
                             "work on it)")
        self.read_only = bool(read_only) or (why is not None and self.path.exists())
        if self.read_only:
            self._open_read_only()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open store {self.path}: {exc}") from None
        try:
            self._setup()
        except sqlite3.Error as exc:
            self._db.close()
            if is_read_only(exc) and read_only is None and self.path.exists():
                # the file system said no where os.access said yes (root squash, say)
                self.read_only = True
                self._open_read_only()
                return
            if is_read_only(exc):
                raise StoreError(f"store {self.path} cannot be written: {exc}") from None
            if is_full(exc):
                raise store_failure(self.path, "opening the store", exc) from None
            raise StoreError(f"{self.path} is not a usable simgui store: {exc}") from None
        except StoreError:
            self._db.close()
            raise

    # -- opening and migrating ------------------------------------------------

    def _open_read_only(self) -> None:
        """Open for reading only, and write nothing, not even beside the store: without a
        -wal file all the data is in the store file itself, and SQLite is told the file
        will not change (else it would leave -wal and -shm files as read-only as the
        store, which keep it read-only even after the user makes it writable again)."""
        wal = self.path.with_name(self.path.name + "-wal")
        # with a -wal file, read it too; without a -shm file and the right to make one,
        # SQLite cannot: then the committed data of the store file only
        for immutable in dict.fromkeys((not wal.exists(), True)):
            try:
                self._db = sqlite3.connect(_read_only_uri(self.path, immutable), uri=True,
                                           isolation_level=None)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open store {self.path} for reading: {exc}") from None
            try:
                version = self._check_schema()
                break
            except StoreError:
                self._db.close()
                raise
            except sqlite3.Error as exc:
                self._db.close()
                if not immutable:
                    continue
                raise StoreError(f"cannot open store {self.path} for reading: {exc}"
                                 + (f" ({DAMAGED_ADVICE})" if is_damage(exc) else "")) from None
        if version < READABLE_FROM:
            self._db.close()
            raise StoreError(
                f"store {self.path} is read-only and was written by an older simgui (schema "
                f"{version}, this one needs {SCHEMA_VERSION}): it cannot be updated; make it "
                "writable and run any simgui command once")

    def _check_schema(self) -> int:
        """Refuse another program's database and a newer simgui's store; the schema version."""
        db = self._db
        db.execute("PRAGMA busy_timeout = 5000")
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        has_tables = db.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        if app_id != APPLICATION_ID and (has_tables or app_id != 0):
            raise StoreError(f"{self.path} is an SQLite database of another program, "
                             "not a simgui store; choose another file with --db")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer simgui (schema {version}, "
                             f"this one knows {SCHEMA_VERSION}); upgrade simgui")
        return version

    def _setup(self) -> None:
        db = self._db
        version = self._check_schema()
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        for number in range(version + 1, SCHEMA_VERSION + 1):
            self._migrate(number)
        # a scan still 'running' here was cut off (crash, kill): say so
        with self._write():
            db.execute("UPDATE scans SET status = 'interrupted' WHERE status = 'running'")

    def _migrate(self, number: int) -> None:
        script = _MIGRATIONS[number - 1]
        with self._write():
            # another process may have upgraded the store since this one read its version
            if self._db.execute("PRAGMA user_version").fetchone()[0] >= number:
                return
            for statement in _statements(script):
                if not self._adds_a_column_it_has(statement):
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version = {number}")

    def _adds_a_column_it_has(self, statement: str) -> bool:
        """Whether ``statement`` adds a column its table has already (a store upgraded
        by hand, or half-way), which SQLite refuses: every migration can run again."""
        words = statement.split()
        if [w.upper() for w in words[:2] + words[3:5]] != ["ALTER", "TABLE", "ADD", "COLUMN"]:
            return False
        table, column = words[2], words[5].rstrip(";")
        return any(row[1] == column
                   for row in self._db.execute(f"PRAGMA table_info({table})").fetchall())

    class _Transaction:
        def __init__(self, db: sqlite3.Connection):
            self.db = db

        def __enter__(self):
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, exc_type, exc, tb):
            if exc_type is None:
                try:
                    self.db.execute("COMMIT")
                    return False
                except sqlite3.Error:
                    rollback_quietly(self.db)  # the COMMIT's error is the one to tell
                    raise
            rollback_quietly(self.db)
            return False

    def _write(self) -> Store._Transaction:
        """A transaction: all of it lands or none of it does."""
        return Store._Transaction(self._db)

    @contextlib.contextmanager
    def writing(self, doing: str, then: str = _KEPT) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction for a core module that owns tables (the journal): all
        of it lands or none does, and a SQLite failure is a one-line StoreError saying what
        failed (``doing``), why, and what it left behind (``then``)."""
        db = self.connection
        with _Guard(self.path, doing, then), Store._Transaction(db):
            yield db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection, for core modules that own tables (the journal)."""
        return self._db

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    # -- tag sets ---------------------------------------------------------------

    def tagset_id(self, tags: Sequence[int] = DEFAULT_TAGS) -> int:
        text = tags_to_hex(tags)
        row = self._db.execute("SELECT id FROM tagsets WHERE tags = ?", (text,)).fetchone()
        if row:
            return row[0]
        with self._guard("saving the tag set"), self._write():
            # another process (the window, a command) may save the same set meanwhile
            self._db.execute("INSERT OR IGNORE INTO tagsets (tags) VALUES (?)", (text,))
            return self._db.execute("SELECT id FROM tagsets WHERE tags = ?",
                                    (text,)).fetchone()[0]

    def tagset(self, tagset_id: int) -> tuple[int, ...]:
        row = self._db.execute("SELECT tags FROM tagsets WHERE id = ?", (tagset_id,)).fetchone()
        if row is None:
            raise StoreError(f"unknown tag set {tagset_id}")
        return tags_from_hex(row[0])

    # -- scans ------------------------------------------------------------------

    def begin_scan(self, roots: Iterable[str]) -> int:
        with self._guard("starting the scan"), self._write():
            return self._db.execute(
                "INSERT INTO scans (started_at, roots, status) VALUES (?, ?, 'running')",
                (time.time(), json.dumps(list(roots)))).lastrowid

    def finish_scan(self, scan_id: int, status: str, *, files_read: int, files_unchanged: int,
                    bytes_read: int, errors: int, skipped: int) -> None:
        with self._guard("finishing the scan"), self._write():
            self._db.execute(
                "UPDATE scans SET finished_at = ?, status = ?, files_read = ?, "
                "files_unchanged = ?, bytes_read = ?, errors = ?, skipped = ? WHERE id = ?",
                (time.time(), status, files_read, files_unchanged, bytes_read, errors, skipped,
                 scan_id))
            # keep the issue lists of recent scans only
            self._db.execute(
                "DELETE FROM scan_issues WHERE scan_id NOT IN "
                "(SELECT id FROM scans ORDER BY id DESC LIMIT ?)", (_KEEP_ISSUES_OF_SCANS,))

    def scanned_roots(self) -> list[str]:
        """Every folder any scan was asked for, newest scan first, each once."""
        with self._guard("reading the scans"):
            rows = self._db.execute("SELECT roots FROM scans ORDER BY id DESC").fetchall()
        return list(dict.fromkeys(root for (text,) in rows for root in json.loads(text)))

    def known_files(self, roots: Iterable[bytes]) -> dict[bytes, KnownFile]:
        """Every stored file at or under the given roots, by path (see
        :meth:`known_columns`), each KnownFile made in C."""
        known = self.known_columns(roots)
        make = functools.partial(tuple.__new__, KnownFile)
        with collector_paused():
            return dict(zip(known.paths, map(make, zip(
                *(v.tolist() for v in (known.ids, known.sizes, known.mtimes_ns,
                                       known.devices, known.inodes)),
                [None if t < 0 else t for t in known.tagsets.tolist()],
                *((known.flags & bit).astype(bool).tolist() for bit in (1, 2, 4))))))

    def known_columns(self, roots: Iterable[bytes]) -> KnownColumns:
        """Every stored file at or under the given roots, once, as columns: what a rescan
        compares with the walk, read in bulk (as :meth:`files` is)."""
        import numpy as np

        chunks = []
        with self._guard("reading the stored files"):
            own = not self._db.in_transaction  # the chunks: one snapshot of the store
            if own:
                self._db.execute("BEGIN")
            try:
                for root in roots:
                    below = root.rstrip(b"/") + b"/"
                    # every path under 'root/' sorts between 'root/' and 'root0' ('0'
                    # follows '/'); the first chunk starts after b"", before every path
                    after = b""
                    while True:
                        chunk = self._db.execute(
                            _KNOWN_CHUNK_SQL, (root, below, below[:-1] + b"0", after,
                                               _FILES_CHUNK)).fetchone()
                        if chunk[0]:
                            chunks.append(chunk)
                        if chunk[0] < _FILES_CHUNK:
                            break
                        after = chunk[1]
            finally:
                if own:
                    self._db.execute("COMMIT")
        paths: list[bytes] = []
        extensions: list[str] = []
        columns: list[list[np.ndarray]] = [[] for _ in range(7)]
        for n, _, chunk_paths, chunk_extensions, *texts in chunks:
            values = [np.fromstring(text, np.int64, sep=",") for text in texts]
            if any(len(v) != n for v in values):
                raise StoreError(f"store {self.path}: a stored file's size, time or "
                                 f"identity is not an integer ({DAMAGED_ADVICE})")
            paths += chunk_paths.split(b"\0")
            extensions += chunk_extensions.split("\0")
            for column, v in zip(columns, values):
                column.append(v)
        ids, *rest = [np.concatenate(c) if c else np.zeros(0, np.int64) for c in columns]
        if len(chunks) > 1:  # roots within roots: each file once
            _, first = np.unique(ids, return_index=True)
            if len(first) < len(ids):
                first.sort()
                paths = [paths[i] for i in first.tolist()]
                extensions = [extensions[i] for i in first.tolist()]
                ids, rest = ids[first], [c[first] for c in rest]
        return KnownColumns(paths, extensions, ids, *rest)

    def save_files(self, records: Sequence[FileRecord], tagset_id: int, scan_id: int) -> None:
        """Insert or replace scan results, all in one transaction."""
        now = time.time()
        rows = [(r.path, r.size, r.mtime_ns, r.device, r.inode, r.extension,
                 tagset_id if r.sum_table is not None else None,
                 None if r.sum_table is None else _table_blob(r.sum_table),
                 r.content_hash, now, scan_id, text_value(r.error),
                 None if r.simhash is None else _signed64(r.simhash),
                 None if r.minhash is None else _minhash_blob(r.minhash),
                 None if r.picture_hash is None else _signed64(r.picture_hash),
                 r.picture_width, r.picture_height, r.picture_format,
                 text_value(r.picture_error)) for r in records]
        with self._guard("saving scan results"), self._write():
            self._db.executemany(
                "INSERT INTO files (path, size, mtime_ns, device, inode, extension, tagset_id, "
                "sum_table, content_hash, scanned_at, scan_id, error, simhash, minhash, "
                "picture_hash, picture_width, picture_height, picture_format, picture_error) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(path) DO UPDATE SET size = excluded.size, "
                "mtime_ns = excluded.mtime_ns, device = excluded.device, "
                "inode = excluded.inode, extension = excluded.extension, "
                "tagset_id = excluded.tagset_id, sum_table = excluded.sum_table, "
                "content_hash = excluded.content_hash, scanned_at = excluded.scanned_at, "
                "scan_id = excluded.scan_id, error = excluded.error, "
                "simhash = excluded.simhash, minhash = excluded.minhash, "
                "picture_hash = excluded.picture_hash, picture_width = excluded.picture_width, "
                "picture_height = excluded.picture_height, "
                "picture_format = excluded.picture_format, "
                "picture_error = excluded.picture_error, prefix_hash = NULL", rows)

    def forget_files(self, ids: Iterable[int]) -> int:
        """Remove files (gone from disk) from the store; returns how many."""
        ids = list(ids)
        with self._guard("removing vanished files"), self._write():
            for start in range(0, len(ids), 500):
                part = ids[start:start + 500]
                self._db.execute(
                    f"DELETE FROM files WHERE id IN ({','.join('?' * len(part))})", part)
        return len(ids)

    def add_issues(self, scan_id: int, issues: Iterable[tuple[bytes, str, str]]) -> None:
        """Record (path, kind, message) for things a scan skipped or could not read."""
        rows = [(scan_id, path, kind, text_value(message)) for path, kind, message in issues]
        if rows:
            with self._guard("saving scan issues"), self._write():
                self._db.executemany(
                    "INSERT INTO scan_issues (scan_id, path, kind, message) VALUES (?, ?, ?, ?)",
                    rows)

    def issues(self, scan_id: int | None = None) -> list[tuple[str, str, str]]:
        """(path, kind, message) of a scan (the last one by default)."""
        if scan_id is None:
            row = self._db.execute("SELECT max(id) FROM scans").fetchone()
            scan_id = row[0]
        rows = self._db.execute("SELECT path, kind, message FROM scan_issues WHERE scan_id = ? "
                                "ORDER BY rowid", (scan_id,))
        return [(os.fsdecode(p), k, text_of(m)) for p, k, m in rows]

    # -- reading results --------------------------------------------------------

    def stats(self) -> dict:
        """Counts for ``simgui stats``: files, bytes, errors, last_scan, and identity_only:
        the files stored by ``scan --identical-only`` (no sum table: not searched for
        similar files)."""
        with self._guard("reading the store's counts"):
            files, total = self._db.execute("SELECT count(*), coalesce(sum(size), 0) FROM files "
                                            "WHERE error IS NULL").fetchone()
            errors = self._db.execute(
                "SELECT count(*) FROM files WHERE error IS NOT NULL").fetchone()[0]
            row = self._db.execute(
                "SELECT id, started_at, finished_at, roots, status, files_read, files_unchanged, "
                "bytes_read, errors, skipped FROM scans ORDER BY id DESC LIMIT 1").fetchone()
        last = None
        if row:
            last = {"id": row[0], "started_at": _iso(row[1]),
                    "finished_at": _iso(row[2]) if row[2] else None,
                    "roots": json.loads(row[3]), "status": row[4], "files_read": row[5],
                    "files_unchanged": row[6], "bytes_read": row[7], "errors": row[8],
                    "skipped": row[9]}
        return {"files": files, "bytes": total, "errors": errors, "last_scan": last,
                "store": str(self.path), "identity_only": self.identity_only()}

    def identity_only(self) -> int:
        """Files stored by ``scan --identical-only``: a size and perhaps a hash, no sum
        table, so a similar search does not see them."""
        with self._guard("reading the store's counts"):
            return self._db.execute("SELECT count(*) FROM files WHERE error IS NULL AND "
                                    "sum_table IS NULL").fetchone()[0]

    def files(self, tagset_id: int | None = None) -> StoredFiles:
        """Every file with a sum table (of ``tagset_id``, default: the default tags), in
        path order.  Read in bulk, not row by row: SQLite joins each column of a chunk of
        rows into one value (integers as decimal text, blobs back to back, texts with NUL
        between them), which numpy or one decode takes apart; a Python object per field
        made this a third of a second look's time (issue 25).  What the chunks took is
        handed back, not kept for later searches (see core.memory)."""
        with handing_freed_memory_back():
            return self._files(tagset_id)

    def _files(self, tagset_id: int | None) -> StoredFiles:
        import operator

        import numpy as np

        if tagset_id is None and not self.read_only:
            tagset_id = self.tagset_id(DEFAULT_TAGS)
        parts = []
        with self._guard("reading the stored files"):
            if tagset_id is None:  # looked up, not added: a read-only store has what it has
                row = self._db.execute("SELECT id FROM tagsets WHERE tags = ?",
                                       (tags_to_hex(DEFAULT_TAGS),)).fetchone()
                tagset_id = row[0] if row else 0  # 0: no tag set, so no file
            pictures = ("picture_hash, picture_width, picture_height, picture_format"
                        if self.schema_version >= PICTURES_FROM else
                        "NULL AS picture_hash, NULL AS picture_width, NULL AS picture_height, "
                        "NULL AS picture_format")
            # chunks (each one SQLite value per column, under its length limit) in one
            # read transaction, so that they are one snapshot of the store
            own = not self._db.in_transaction
            if own:
                self._db.execute("BEGIN")
            try:
                after = None
                while True:
                    part = self._db.execute(
                        _FILES_CHUNK_SQL.format(pictures=pictures,
                                                after="" if after is None else "AND path > ?"),
                        (tagset_id, *(() if after is None else (after,)), _FILES_CHUNK)
                    ).fetchone()
                    if not part[0]:
                        break
                    parts.append(list(part))  # (each value let go once it is taken in)
                    if part[0] < _FILES_CHUNK:
                        break
                    after = part[1]
            finally:
                if own:
                    self._db.execute("COMMIT")
        n = sum(p[0] for p in parts)
        columns = len(_FILES_INTEGERS)
        ints = np.empty((columns, n), np.int64)
        for c in range(columns):
            values = np.fromstring(",".join(p[2 + c] for p in parts), np.int64, sep=",") \
                if n else ()
            if len(values) != n:
                raise StoreError(f"store {self.path}: the files' {_FILES_INTEGERS[c]} holds "
                                 f"a value that is not an integer ({DAMAGED_ADVICE})")
            ints[c] = values
            for p in parts:
                p[2 + c] = None
        sizes, flags = ints[1], ints[9]
        # each chunk's blob copied once, into one writable array of native integers, and
        # let go: a million files' signatures are 512 MB, and were held twice at the peak
        tables = np.empty((n, TAG_COUNT), np.int64)
        signatures = np.empty((n, MINHASH_SLOTS), np.uint32)
        row = 0
        for p in parts:
            k = p[0]
            tables[row:row + k] = np.frombuffer(p[2 + columns], "<i8").reshape(k, TAG_COUNT)
            signatures[row:row + k] = np.frombuffer(p[3 + columns], "<u4").reshape(
                k, MINHASH_SLOTS)
            p[2 + columns] = p[3 + columns] = None
            row += k
        lengths = (flags >> 2) - 1
        ends = np.cumsum(np.maximum(lengths, 0)).tolist()
        content = b"".join(p[4 + columns] for p in parts)
        hashes = [None if length < 0 else content[end - length:end]
                  for end, length in zip(ends, lengths.tolist())]
        del content
        names = b"\0".join(p[-3] for p in parts)
        extensions, formats = ("\0".join(p[k] for p in parts).split("\0") if n else []
                               for k in (-2, -1))
        del parts
        # SQLite fed each chunk's aggregate in path order; should it not, sort below (the
        # names as bytes let go first where they are in order)
        encoded = names.split(b"\0") if n else []
        in_order = not any(map(operator.ge, encoded, encoded[1:]))
        if in_order:
            del encoded
        files = StoredFiles(
            ids=ints[0], sizes=sizes, mtimes_ns=ints[2], devices=ints[3], inodes=ints[4],
            # NUL is never part of a path, nor of a UTF-8 sequence: one decode of all
            # of them is each os.fsdecode'd
            paths=([] if not n else names.decode("utf-8", "surrogateescape").split("\0")
                   if _FS_UTF8 else [os.fsdecode(p) for p in names.split(b"\0")]),
            tables=tables, hashes=hashes, extensions=extensions,
            simhashes=ints[5].view(np.uint64), signatures=signatures,
            fingerprinted=(flags & 1).astype(bool),
            picture_hashes=ints[6].view(np.uint64), picture_widths=ints[7],
            picture_heights=ints[8], picture_formats=formats,
            is_picture=(flags & 2).astype(bool))
        if not in_order:
            files = files.take(sorted(range(n), key=encoded.__getitem__))
        return files

    def errors(self) -> Iterator[tuple[str, str]]:
        """(path, error) of stored files that could not be read."""
        for path, error in self._db.execute(
                "SELECT path, error FROM files WHERE error IS NOT NULL ORDER BY path"):
            yield os.fsdecode(path), text_of(error)

    # -- identical copies (simgui.core.reading.identical) ----------------------------
    # A scan with only the identical stage stores every walked file with no sum table and
    # no tag set (so ``files`` and a later full scan, by ``known_files``' ok flag, treat it
    # as not read yet) and the content hash of the files it hashed: no new column.

    def known_hashes(self, roots: Iterable[bytes]) -> dict[bytes, tuple]:
        """Every stored file at or under ``roots``: path -> (id, size, mtime_ns, device,
        inode, content hash or None, prefix hash or None), the hashes None for a file
        stored with an error (the prefix hash: of the first 4 KiB, see
        simgui.core.reading.identical).
        Plain tuples: a scan of 100,000 files asks for all of them."""
        known: dict[bytes, tuple] = {}
        sql = ("SELECT path, id, size, mtime_ns, device, inode, "
               "CASE WHEN error IS NULL THEN content_hash END, "
               + ("CASE WHEN error IS NULL THEN prefix_hash END"
                  if self.schema_version >= PREFIXES_FROM else "NULL")
               + " FROM files WHERE path = ? OR (path > ? AND path < ?)")
        for root in roots:
            below = root.rstrip(b"/") + b"/"
            with self._guard("reading the stored files"):
                rows = self._db.execute(sql, (root, below, below[:-1] + b"0")).fetchall()
            known.update((row[0], row[1:]) for row in rows)
        return known

    def save_walked(self, rows: Sequence[tuple], scan_id: int) -> None:
        """Insert or replace files a scan walked but did not read for sum tables (the
        identical stage), all in one transaction: each row (path, size, mtime_ns, device,
        inode, extension, content hash or None, prefix hash or None, error or None); no
        sum table, fingerprints or tag set, so a full scan reads it.  Rows, not
        FileRecords: a first scan of /usr saves 117,000 of them at once."""
        # in path order (the path's index grows at its end); the time and the scan are the
        # same for every row, so they are in the statement, not bound 117,000 times each
        rows = sorted(rows, key=_FIRST)
        if any(row[8] is not None for row in rows):
            rows = [row if row[8] is None else (*row[:8], text_value(row[8])) for row in rows]
        pictures = self.schema_version >= PICTURES_FROM
        cache = self._db.execute("PRAGMA cache_size").fetchone()[0]
        # the path index of a large tree does not fit SQLite's default 2 MB of cache:
        # with 64 MB the save takes 40 % less time (the pages are taken only if needed)
        self._db.execute("PRAGMA cache_size = -65536")
        try:
            with self._guard("saving scan results"), self._write():
                # into an empty store, the indexes by size and identity are built once
                # after the rows, not row by row (a fifth less time for /usr)
                later = self._drop_indexes_if_empty() if len(rows) >= _BUILD_INDEXES_FROM \
                    else []
                self._db.executemany(
                    "INSERT INTO files (path, size, mtime_ns, device, inode, extension, "
                    "content_hash, prefix_hash, scanned_at, scan_id, error) "
                    f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, {time.time()!r}, {int(scan_id)}, ?) "
                    "ON CONFLICT(path) DO UPDATE SET size = excluded.size, "
                    "mtime_ns = excluded.mtime_ns, device = excluded.device, "
                    "inode = excluded.inode, extension = excluded.extension, tagset_id = NULL, "
                    "sum_table = NULL, content_hash = excluded.content_hash, "
                    "prefix_hash = excluded.prefix_hash, "
                    "scanned_at = excluded.scanned_at, scan_id = excluded.scan_id, "
                    "error = excluded.error, simhash = NULL, minhash = NULL"
                    + (", picture_hash = NULL, picture_width = NULL, picture_height = NULL, "
                       "picture_format = NULL, picture_error = NULL" if pictures else ""), rows)
                for sql in later:
                    self._db.execute(sql)
        finally:
            self._db.execute(f"PRAGMA cache_size = {int(cache)}")

    def save_prefixes(self, prefixes: Sequence[tuple[int, int]]) -> None:
        """Keep the prefix hash the identical stage read of stored files it found
        unchanged: (prefix hash, file id) each, in one transaction."""
        with self._guard("saving scan results"), self._write():
            self._db.executemany("UPDATE files SET prefix_hash = ? WHERE id = ?", prefixes)

    def _drop_indexes_if_empty(self) -> list[str]:
        """In a transaction: where no file is stored yet, drop the files' indexes but the
        path's, and return the statements that make them again."""
        if self._db.execute("SELECT EXISTS (SELECT 1 FROM files)").fetchone()[0]:
            return []
        made = self._db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'files' "
            "AND sql IS NOT NULL").fetchall()
        for name, _ in made:
            self._db.execute(f'DROP INDEX "{name}"')
        return [sql for _, sql in made]

    def identical_files(self) -> StoredFiles:
        """Every readable file whose size and content hash another stored file shares,
        whether a full scan or the identical stage stored it (sum tables zero, no
        fingerprints: what identical groups need, not what a similar search does)."""
        import numpy as np

        from collections import Counter

        with self._guard("reading the stored files"), collector_paused():
            rows = self._db.execute(
                "SELECT id, path, size, mtime_ns, content_hash, extension, device, inode "
                "FROM files WHERE error IS NULL AND content_hash IS NOT NULL").fetchall()
            # counted here, not by a GROUP BY in SQLite: 2.5 times faster on /usr's store
            count = Counter((r[2], r[4]) for r in rows)
            rows = sorted((r for r in rows if count[r[2], r[4]] > 1), key=lambda r: r[1])
        n = len(rows)
        return StoredFiles(
            ids=np.fromiter((r[0] for r in rows), np.int64, n),
            paths=[os.fsdecode(r[1]) for r in rows],
            sizes=np.fromiter((r[2] for r in rows), np.int64, n),
            mtimes_ns=np.fromiter((r[3] for r in rows), np.int64, n),
            devices=np.fromiter((r[6] for r in rows), np.int64, n),
            inodes=np.fromiter((r[7] for r in rows), np.int64, n),
            tables=np.zeros((n, TAG_COUNT), np.int64),
            hashes=[r[4] for r in rows], extensions=[r[5] for r in rows])

    # -- errors -------------------------------------------------------------------

    def _guard(self, doing: str) -> _Guard:
        return _Guard(self.path, doing)


class _Guard:
    """Turn SQLite failures (disk full, read-only, corrupt) into one-line StoreErrors;
    ``then``: what the failure left behind."""

    def __init__(self, path: Path, doing: str, then: str = _KEPT):
        self.path, self.doing, self.then = path, doing, then

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, sqlite3.Error):
            raise store_failure(self.path, self.doing, exc, self.then) from None
        return False


def _table_blob(table: np.ndarray) -> bytes:
    import numpy as np

    return np.asarray(table, dtype="<i8").reshape(TAG_COUNT).tobytes()


def _signed64(value: int) -> int:
    """SQLite integers are signed: store the fingerprint's 64 bits as one."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _minhash_blob(signature: np.ndarray) -> bytes:
    import numpy as np

    return np.asarray(signature, dtype="<u4").reshape(MINHASH_SLOTS).tobytes()


def _iso(timestamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(timestamp))
