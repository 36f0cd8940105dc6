"""Answers kept for the next look: what ``simgui groups`` wrote last, kept in the store
beside the version of the files it was given for, and written again without a search
while no stored file and no ignored pair has changed since.

The version (schema 7) changes with every row written to the files and the ignore
list, whoever writes it (a scan, a clean-up forgetting files, ``simgui ignore``,
another program), so an answer can never outlive what it was computed from: it is a
counter that triggers raise with every row changed or removed, and the largest rowid
of each table, which every row added raises (a new row takes a rowid above them all;
a trigger on each row a first scan adds would cost its saving a fifth).  A rescan that
finds nothing changed writes no row, and leaves the answers standing: that is the
second look this makes fast.
"""

from __future__ import annotations

import sqlite3
import time
import zlib

from simgui.core.store.database import Store, StoreError

#: The answers kept; the oldest goes first.
KEPT = 4
#: Waiting for another writer (a scan) to let go of the store, to keep an answer: it is
#: only kept when that is quick.
_WAIT_MS = 100


def files_version(store: Store) -> str | None:
    """The version of the stored files and ignored pairs, or None where the store has
    no counter (one of an older simgui opened read-only)."""
    try:
        row = store.connection.execute(
            "SELECT version, (SELECT max(rowid) FROM files), "
            "(SELECT max(rowid) FROM ignored_pairs) FROM files_version").fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return None
        raise
    return None if row is None else ":".join(str(v or 0) for v in row)


def kept_answer(store: Store, question: str, version: str) -> str | None:
    """The answer kept for ``question`` at ``version``, or None."""
    row = store.connection.execute(
        "SELECT answer FROM kept_answers WHERE question = ? AND files_version = ?",
        (question, version)).fetchone()
    if row is None:
        return None
    try:
        return zlib.decompress(row[0]).decode("utf-8", "surrogatepass")
    except (zlib.error, UnicodeDecodeError):
        return None  # damaged: answered anew (and kept again)


def keep_answer(store: Store, question: str, version: str, answer: str) -> bool:
    """Keep ``answer`` to ``question``, given for the files at ``version`` (read before
    the files were); the oldest answers beyond :data:`KEPT` go.  Nothing is kept, and
    nothing said, where the store cannot be written now: it is only a saving of time."""
    if store.read_only:
        return False
    blob = zlib.compress(answer.encode("utf-8", "surrogatepass"), 1)
    db = store.connection
    waited = db.execute("PRAGMA busy_timeout").fetchone()[0]
    try:
        db.execute(f"PRAGMA busy_timeout = {_WAIT_MS}")
        with store.writing("keeping an answer"):
            db.execute("INSERT OR REPLACE INTO kept_answers "
                       "(question, files_version, used_at, answer) VALUES (?, ?, ?, ?)",
                       (question, version, time.time(), blob))
            db.execute("DELETE FROM kept_answers WHERE question NOT IN (SELECT question "
                       "FROM kept_answers ORDER BY used_at DESC LIMIT ?)", (KEPT,))
        return True
    except (StoreError, sqlite3.Error):  # locked, full: the answer was given anyway
        return False
    finally:
        try:
            db.execute(f"PRAGMA busy_timeout = {int(waited)}")
        except sqlite3.Error:
            pass
