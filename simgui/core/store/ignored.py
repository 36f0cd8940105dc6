"""The ignore list: pairs of files the user said are not duplicates (dupeGuru's
"Add to ignore list"), kept in the store (migration 6) so every search, in the window
and on the command line, leaves them apart.

A pair is unordered; it is stored once, its two paths (as bytes, like the files table)
in byte order.  Ignoring a group stores the pair of its reference with each member.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable

from simgui.core.store.database import Store

Pair = tuple[str, str]


def _key(a: str, b: str) -> tuple[bytes, bytes]:
    x, y = os.fsencode(a), os.fsencode(b)
    return (x, y) if x <= y else (y, x)


def normalise(a: str, b: str) -> Pair:
    """The pair as stored: its paths in byte order."""
    x, y = _key(a, b)
    return os.fsdecode(x), os.fsdecode(y)


def ignored_pairs(store: Store) -> list[Pair]:
    """Every ignored pair, oldest first (an older read-only store has none)."""
    try:
        rows = store.connection.execute(
            "SELECT path_a, path_b FROM ignored_pairs ORDER BY added_at, rowid").fetchall()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return []
        raise
    return [(os.fsdecode(a), os.fsdecode(b)) for a, b in rows]


def ignore(store: Store, pairs: Iterable[Pair]) -> int:
    """Add ``pairs`` (a file with itself is left out); returns how many were new."""
    keys = {_key(a, b) for a, b in pairs if os.fsencode(a) != os.fsencode(b)}
    now = time.time()
    with store.writing("adding to the ignore list") as db:
        # (rowcount: the rows this statement changed, not those its triggers did)
        return db.executemany("INSERT OR IGNORE INTO ignored_pairs (path_a, path_b, added_at) "
                              "VALUES (?, ?, ?)", [(a, b, now) for a, b in sorted(keys)]
                              ).rowcount


def unignore(store: Store, pairs: Iterable[Pair]) -> int:
    """Take ``pairs`` off the list; returns how many were on it."""
    keys = sorted({_key(a, b) for a, b in pairs})
    with store.writing("removing from the ignore list") as db:
        return db.executemany("DELETE FROM ignored_pairs WHERE path_a = ? AND path_b = ?",
                              keys).rowcount


def clear(store: Store) -> int:
    """Empty the list; returns how many pairs it held."""
    with store.writing("emptying the ignore list") as db:
        return db.execute("DELETE FROM ignored_pairs").rowcount


def group_pairs(reference: str, members: Iterable[str]) -> list[Pair]:
    """The pairs that ignoring a group stores: its reference with each member."""
    return [(reference, m) for m in members if m != reference]
