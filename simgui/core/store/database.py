"""The SQLite store: scan results (a cache) and, later, the user's decisions.

One file per user, WAL mode.  The schema carries a version (``user_version``)
and numbered migrations run in order; a migration may drop and rebuild cached
scan results but never user decisions.  Paths are stored as the bytes the file
system gave (``os.fsencode``), so any file name round-trips exactly.

One thread writes: a Store object belongs to the thread that opened it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

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
]
SCHEMA_VERSION = len(_MIGRATIONS)
#: the oldest schema a read-only store may have: what reading commands query is the same
#: from it on (migration 4 adds only what undo, a writing command, reads)
READABLE_FROM = 3
#: the first schema with the picture columns (older read-only stores read as having none)
PICTURES_FROM = 5
#: simgui.core.reading.fingerprints.SLOTS, spelled out so that opening a store loads no numba
MINHASH_SLOTS = 128
_KEEP_ISSUES_OF_SCANS = 20


@dataclass(frozen=True)
class KnownFile:
    """What the store remembers of a path: enough to tell if it changed."""

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
            for statement in script.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version = {number}")

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
        """Every stored file at or under the given roots, by path."""
        known: dict[bytes, KnownFile] = {}
        sql = ("SELECT path, id, size, mtime_ns, device, inode, tagset_id, "
               "sum_table IS NOT NULL AND error IS NULL, minhash IS NOT NULL, "
               "picture_hash IS NOT NULL OR picture_error IS NOT NULL FROM files "
               "WHERE path = ? OR (path > ? AND path < ?)")
        for root in roots:
            below = root.rstrip(b"/") + b"/"
            # every path under 'root/' sorts between 'root/' and 'root0' ('0' follows '/')
            with self._guard("reading the stored files"):
                rows = self._db.execute(sql, (root, below, below[:-1] + b"0")).fetchall()
            for row in rows:
                known[row[0]] = KnownFile(row[1], row[2], row[3], row[4], row[5], row[6],
                                          bool(row[7]), bool(row[8]), bool(row[9]))
        return known

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
                "picture_error = excluded.picture_error", rows)

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
        """Counts for ``simgui stats``: files, bytes, errors, last_scan."""
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
                "store": str(self.path)}

    def files(self, tagset_id: int | None = None) -> StoredFiles:
        """Every file with a sum table (of ``tagset_id``, default: the default tags)."""
        import numpy as np

        if tagset_id is None and not self.read_only:
            tagset_id = self.tagset_id(DEFAULT_TAGS)
        with self._guard("reading the stored files"):
            if tagset_id is None:  # looked up, not added: a read-only store has what it has
                row = self._db.execute("SELECT id FROM tagsets WHERE tags = ?",
                                       (tags_to_hex(DEFAULT_TAGS),)).fetchone()
                tagset_id = row[0] if row else 0  # 0: no tag set, so no file
            pictures = ("picture_hash, picture_width, picture_height, picture_format"
                        if self.schema_version >= PICTURES_FROM else "NULL, NULL, NULL, NULL")
            rows = self._db.execute(
                "SELECT id, path, size, mtime_ns, sum_table, content_hash, extension, device, "
                f"inode, simhash, minhash, {pictures} FROM files "
                "WHERE error IS NULL AND tagset_id = ? ORDER BY path", (tagset_id,)).fetchall()
        n = len(rows)
        tables = np.frombuffer(b"".join(r[4] for r in rows), dtype="<i8").reshape(n, TAG_COUNT)
        fingerprinted = np.fromiter((r[10] is not None and r[9] is not None for r in rows),
                                    bool, n)
        simhashes = np.fromiter((r[9] if r[9] is not None else 0 for r in rows), np.int64,
                                n).view(np.uint64)
        empty = bytes(4 * MINHASH_SLOTS)
        signatures = np.frombuffer(b"".join(r[10] if r[10] is not None else empty for r in rows),
                                   dtype="<u4").reshape(n, MINHASH_SLOTS).astype(np.uint32)
        return StoredFiles(
            ids=np.fromiter((r[0] for r in rows), np.int64, n),
            paths=[os.fsdecode(r[1]) for r in rows],
            sizes=np.fromiter((r[2] for r in rows), np.int64, n),
            mtimes_ns=np.fromiter((r[3] for r in rows), np.int64, n),
            devices=np.fromiter((r[7] for r in rows), np.int64, n),
            inodes=np.fromiter((r[8] for r in rows), np.int64, n),
            tables=tables.astype(np.int64),
            hashes=[r[5] for r in rows],
            extensions=[r[6] for r in rows],
            simhashes=simhashes, signatures=signatures, fingerprinted=fingerprinted,
            picture_hashes=np.fromiter((r[11] or 0 for r in rows), np.int64, n).view(np.uint64),
            picture_widths=np.fromiter((-1 if r[12] is None else r[12] for r in rows), np.int64,
                                       n),
            picture_heights=np.fromiter((-1 if r[13] is None else r[13] for r in rows),
                                        np.int64, n),
            picture_formats=[r[14] or "" for r in rows],
            is_picture=np.fromiter((r[11] is not None for r in rows), bool, n))

    def errors(self) -> Iterator[tuple[str, str]]:
        """(path, error) of stored files that could not be read."""
        for path, error in self._db.execute(
                "SELECT path, error FROM files WHERE error IS NOT NULL ORDER BY path"):
            yield os.fsdecode(path), text_of(error)

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
