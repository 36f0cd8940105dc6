"""The action journal: what each clean-up did to each file, and how to undo it.

A batch and one row per file are committed ('planned') before the first
file is touched; results are written in groups of rows (one transaction each,
not one per file).  A crash therefore leaves rows still 'planned', and
:func:`recover` looks at the file system to tell what really happened to
each.  (:mod:`simgui.core.cleanup.undoing` moves files back from a move target or the trash.)
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import xxhash

from simgui.core.cleanup import actions, opened, trash
from simgui.core.cleanup.actions import Identity, Outcome
from simgui.core.store import Store, StoreError, text_of, text_value

_FLUSH_EVERY_ROWS = 500
_FLUSH_EVERY_SECONDS = 0.5
UNDOABLE_ACTIONS = ("move", "trash")
# batches being executed by this process: recover() must leave them alone
LIVE_BATCHES: set[int] = set()


class BatchInProgress(StoreError):
    """Another clean-up is running on this store: two at once could each remove the copy
    the other keeps.  Nothing was changed."""


def _host() -> str:
    """This machine's name, as socket.gethostname() gives it (without loading socket at
    every start of 'simgui journal' and 'undo')."""
    return os.uname().nodename


class ResultsUnsaved(StoreError):
    """The store failed while a batch's results were journaled: files were acted on, and
    what happened to each is settled from the disk once the store can be written."""

    files_acted_on = True


class UndoError(Exception):
    """Nothing to undo, or the batch asked for cannot be undone; the message says why."""


@dataclass(frozen=True)
class PlannedRow:
    """One file as the journal records it before acting."""

    seq: int
    action: str
    path: str
    identity: tuple  # (size, mtime_ns, device, inode)
    content_hash: bytes | None = None
    group_id: int | None = None
    kept: str | None = None
    kept_identity: tuple | None = None
    by_identity: bool = False
    target: str | None = None
    temp: str | None = None


@dataclass(frozen=True)
class Batch:
    id: int
    created_at: float
    finished_at: float | None
    action: str
    status: str  # running, completed, cancelled, interrupted
    description: str
    undo_of: int | None
    counts: dict  # state -> number of files


@dataclass(frozen=True)
class Entry:
    id: int
    batch_id: int
    seq: int
    group_id: int | None
    action: str
    path: str
    size: int
    state: str  # planned, done, skipped, failed, unknown
    message: str
    kept: str | None
    target: str | None
    undoable: bool
    undone_by: int | None


# -- writing ----------------------------------------------------------------------


#: what a failed write of the journal leaves: before any file is touched, and after
_NOTHING_CHANGED = "nothing was changed"
_RESULTS_UNSAVED = ("the clean-up stopped there; once the store can be written, 'simgui "
                    "journal' finds out from the files what was done")


def _b(path: str | None) -> bytes | None:
    return None if path is None else os.fsencode(path)


def _s(path: bytes | None) -> str | None:
    return None if path is None else os.fsdecode(path)


def begin(store: Store, action: str, description: str,
          rows: Callable[[int], Iterable[PlannedRow]], *, target_dir: str | None = None,
          undo_of: int | None = None, roots: Iterable[str] | None = None) -> int:
    """Create a running batch and its planned rows (``rows(batch_id)``), in one commit.
    ``roots``: the scanned folders the batch acts in, which its undo walks from."""
    now = time.time()
    with store.writing("journaling the batch", _NOTHING_CHANGED) as db:
        # inside this IMMEDIATE transaction: two processes cannot both find no batch running
        for other, pid, host in db.execute(
                "SELECT id, pid, host FROM batches WHERE status = 'running'").fetchall():
            if other in LIVE_BATCHES or _alive(pid, host):
                where = "this process" if pid == os.getpid() else f"process {pid} on {host}"
                raise BatchInProgress(
                    f"another clean-up is running on store {store.path} (batch {other}, "
                    f"{where}): wait for it to end, then run again; nothing was changed")
        batch_id = db.execute(
            "INSERT INTO batches (created_at, action, status, description, target_dir, undo_of, "
            "pid, host) VALUES (?, ?, 'running', ?, ?, ?, ?, ?)",
            (now, action, text_value(description), _b(target_dir), undo_of, os.getpid(),
             _host())).lastrowid
        if roots is not None:
            db.execute("UPDATE batches SET roots = ? WHERE id = ?",
                       (opened.pack_roots(roots), batch_id))
        db.executemany(
            "INSERT INTO journal (batch_id, seq, group_id, action, path, size, mtime_ns, device, "
            "inode, content_hash, kept, kept_device, kept_inode, by_identity, target, temp, "
            "state, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "'planned', ?)",
            ((batch_id, r.seq, r.group_id, r.action, _b(r.path), *map(_int64, r.identity),
              r.content_hash, _b(r.kept),
              *(map(_int64, r.kept_identity[2:]) if r.kept_identity else (None, None)),
              int(r.by_identity), _b(r.target), _b(r.temp), now) for r in rows(batch_id)))
    return batch_id


def _int64(n) -> int:
    """SQLite integers are signed 64-bit: store huge device numbers wrapped."""
    n = int(n)
    return n - 2**64 if n >= 2**63 else n


class Recorder:
    """Buffers results and writes them a few hundred rows per transaction."""

    def __init__(self, store: Store, batch_id: int):
        self.store, self.batch_id = store, batch_id
        self.pending: list[tuple] = []
        self.undone: list[tuple[int, int]] = []
        self.last = time.monotonic()

    def add(self, seq: int, outcome) -> None:
        # a message names files: text_value keeps names that are not UTF-8 exactly
        self.pending.append((outcome.state, text_value(outcome.message), _b(outcome.target),
                             None if outcome.undo is None else json.dumps(outcome.undo),
                             time.time(), self.batch_id, seq))
        if outcome.undoes is not None and outcome.state == "done":
            self.undone.append((self.batch_id, outcome.undoes))
        if (len(self.pending) >= _FLUSH_EVERY_ROWS
                or time.monotonic() - self.last >= _FLUSH_EVERY_SECONDS):
            self.flush()

    def flush(self, status: str | None = None) -> None:
        try:
            with self.store.writing("journaling results", _RESULTS_UNSAVED) as db:
                db.executemany(
                    "UPDATE journal SET state = ?, message = ?, target = coalesce(?, target), "
                    "undo = ?, updated_at = ? WHERE batch_id = ? AND seq = ?", self.pending)
                db.executemany("UPDATE journal SET undone_by = ? WHERE id = ?", self.undone)
                if status is not None:
                    db.execute("UPDATE batches SET status = ?, finished_at = ? WHERE id = ?",
                               (status, time.time(), self.batch_id))
        except StoreError as exc:  # files have changed: not a "nothing changed" error
            raise ResultsUnsaved(str(exc)) from None
        self.pending.clear()
        self.undone.clear()
        self.last = time.monotonic()

    def finish(self, status: str) -> None:
        self.flush(status)

    def flush_quietly(self) -> None:
        try:
            self.flush()
        except Exception:
            pass  # the rows stay 'planned': recover() will find out


# -- reading ------------------------------------------------------------------------


def batches(store: Store) -> list[Batch]:
    """Every batch, newest first, with its files counted by state."""
    db = store.connection
    counts: dict[int, dict[str, int]] = {}
    for batch_id, state, n in db.execute(
            "SELECT batch_id, state, count(*) FROM journal GROUP BY batch_id, state"):
        counts.setdefault(batch_id, {})[state] = n
    return [Batch(r[0], r[1], r[2], r[3], r[4], text_of(r[5]), r[6], counts.get(r[0], {}))
            for r in db.execute("SELECT id, created_at, finished_at, action, status, "
                                "description, undo_of FROM batches ORDER BY id DESC")]


def last_undoable(store: Store) -> Batch | None:
    """The newest batch with files :func:`undo` can still put back, if any."""
    row = store.connection.execute(
        "SELECT b.id FROM batches b WHERE b.action != 'undo' AND EXISTS (SELECT 1 FROM "
        "journal j WHERE j.batch_id = b.id AND j.state = 'done' AND j.undo IS NOT NULL "
        "AND j.undone_by IS NULL) ORDER BY b.id DESC LIMIT 1").fetchone()
    return None if row is None else batch(store, row[0])


def batch(store: Store, batch_id: int) -> Batch | None:
    return next((b for b in batches(store) if b.id == batch_id), None)


_ENTRY_SQL = ("SELECT id, batch_id, seq, group_id, action, path, size, state, message, kept, "
              "target, undo, undone_by FROM journal ")


def entries(store: Store, batch_id: int) -> list[Entry]:
    """The files of a batch, in the order they were acted on."""
    rows = store.connection.execute(_ENTRY_SQL + "WHERE batch_id = ? ORDER BY seq", (batch_id,))
    return [Entry(r[0], r[1], r[2], r[3], r[4], _s(r[5]), r[6], r[7], text_of(r[8]), _s(r[9]),
                  _s(r[10]), r[7] == "done" and r[11] is not None and r[12] is None, r[12])
            for r in rows]


# -- crash recovery -------------------------------------------------------------------


def _alive(pid: int, host: str) -> bool:
    if host != _host():
        return True  # another machine's batch: we cannot tell, so leave it alone
    if pid == os.getpid():
        return False  # this process: live batches are excluded by id instead
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover(store: Store) -> list[Entry]:
    """Settle batches cut off by a crash: inspect the file system for every row left
    'planned' and mark it done, skipped or unknown, truthfully; returns those rows.

    Batches still running in a live process are left alone.  Besides reading,
    recovery only removes its own temporary names when the original is intact,
    and finishes a move caught between its two names of one file, or whose copy
    is provably this batch's.  When in doubt it leaves both files.
    """
    running = store.connection.execute(
        "SELECT id, pid, host FROM batches WHERE status = 'running'").fetchall()
    settled: list[Entry] = []
    for batch_id, pid, host in running:
        if batch_id in LIVE_BATCHES or _alive(pid, host):
            continue
        settled += settle(store, batch_id)
    return settled


def settle(store: Store, batch_id: int) -> list[Entry]:
    """Settle the 'planned' rows of one batch that is not running any more (a crash,
    or Ctrl-C in this process) and mark it interrupted; returns those rows."""
    db = store.connection
    undo_of, created_at = db.execute(
        "SELECT undo_of, created_at FROM batches WHERE id = ?", (batch_id,)).fetchone()
    rows = db.execute(
        "SELECT seq, action, path, size, mtime_ns, device, inode, content_hash, kept, "
        "kept_device, kept_inode, target, temp, id FROM journal "
        "WHERE batch_id = ? AND state = 'planned' ORDER BY seq", (batch_id,)).fetchall()
    context = _BatchContext.of(db, batch_id, created_at)
    recorder = Recorder(store, batch_id)
    for row in rows:
        outcome = _settle(row, context)
        if outcome.state == "done" and outcome.target:
            context.claimed.setdefault(outcome.target, row[0])
        if undo_of is not None and outcome.state == "done":
            # a restore that happened: its entry in the undone batch is undone
            # (a merge names A's file twice: its copy, undone by an uncopy, and its trash)
            kinds = ("copy",) if row[1] == "uncopy" else ("move", "trash", "delete")
            original = db.execute("SELECT id FROM journal WHERE batch_id = ? AND path = ? "
                                  "AND state = 'done' AND undone_by IS NULL AND action IN "
                                  "(?, ?, ?)", (undo_of, row[11], *kinds,
                                                *[None] * (3 - len(kinds)))).fetchone()
            if original:
                outcome = dataclasses.replace(outcome, undoes=original[0])
        recorder.add(row[0], outcome)
    recorder.finish("interrupted")
    ids = {row[13] for row in rows}
    return [e for e in entries(store, batch_id) if e.id in ids]


# a copy made by the batch has an inode change time after the batch began; file
# system clocks are coarse (a kernel tick) and lag time.time() a little
_CLOCK_SLACK_NS = 1_000_000_000


@dataclass
class _BatchContext:
    """What tells this batch's copies from look-alike files that were there before."""

    started_ns: int
    files: set  # (device, inode) of every file the batch names (sources, kept copies)
    claimed: dict  # name -> seq of the row whose file it is (done rows, and settled ones)
    # seq -> (batch, action, target) of another batch that moved, trashed or deleted the
    # very file of a planned row (not undone): the file is gone because of that batch
    earlier: dict = dataclasses.field(default_factory=dict)
    batch_id: int = 0  # the batch settled (its rows' trash names carry "<batch>-<seq>")

    @classmethod
    def of(cls, db, batch_id: int, created_at: float) -> _BatchContext:
        files, claimed = set(), {}
        for seq, state, device, inode, kept_device, kept_inode, target in db.execute(
                "SELECT seq, state, device, inode, kept_device, kept_inode, target FROM journal "
                "WHERE batch_id = ?", (batch_id,)):
            files.add((device % 2**64, inode % 2**64))
            if kept_inode is not None:
                files.add((kept_device % 2**64, kept_inode % 2**64))
            if state == "done" and target is not None:
                claimed.setdefault(_s(target), seq)
        earlier = {seq: (other, action, _s(target)) for seq, other, action, target in db.execute(
            "SELECT p.seq, o.batch_id, o.action, o.target FROM journal p JOIN journal o "
            "ON o.device = p.device AND o.inode = p.inode AND o.size = p.size "
            "AND o.mtime_ns = p.mtime_ns WHERE p.batch_id = ? AND p.state = 'planned' "
            "AND p.action IN ('move', 'trash', 'delete') AND o.batch_id != p.batch_id "
            "AND o.state = 'done' AND o.undone_by IS NULL "
            "AND o.action IN ('move', 'trash', 'delete')", (batch_id,))}
        return cls(int(created_at * 1e9) - _CLOCK_SLACK_NS, files, claimed, earlier, batch_id)

    def made_by_us(self, st, seq: int, name: str) -> bool:
        """Can the file ``st`` at ``name`` only be the copy row ``seq`` made?"""
        return (self.claimed.get(name, seq) == seq
                and st.st_ctime_ns >= self.started_ns
                and (st.st_dev % 2**64, st.st_ino % 2**64) not in self.files)


_UNTOUCHED = "not done: the batch stopped before this file"


def _settle(row, context: _BatchContext):
    """What really happened to one planned row, judged from the file system."""
    (seq, action, path, size, mtime_ns, device, inode, content_hash, kept, kept_device,
     kept_inode, target, temp, entry_id) = row
    path, kept, target, temp = _s(path), _s(kept), _s(target), _s(temp)
    ident = Identity(size, mtime_ns, device, inode)
    st = _lstat(path)
    intact = st is not None and ident.matches(st)
    if st is None and seq in context.earlier:
        # planned from a store that still listed it: another batch took it away first,
        # and its journal says where (found at the target, it is that batch's file)
        other, did, where = context.earlier[seq]
        verb = {"move": "moved", "trash": "trashed", "delete": "deleted"}[did]
        return Outcome("skipped", f"not done: batch {other} had {verb} it already"
                       + (f" (to {where})" if where and did != "delete" else ""))
    if action in ("hardlink", "symlink"):
        kept_ident = Identity(0, 0, kept_device, kept_inode)
        symbolic = action == "symlink"
        if actions.is_link_to(path, kept, kept_ident, symbolic):
            return Outcome("done", f"{action} to {kept} (found by recovery)")
        if temp and actions.is_link_to(temp, kept, kept_ident, symbolic):
            # only an extra name of the kept file (never its last one)
            if intact and (symbolic or os.lstat(temp).st_nlink >= 2):
                os.unlink(temp)
        return _untouched(st, intact, _UNTOUCHED)
    if action in ("trash", "delete"):
        if st is not None:
            return _untouched(st, intact, _UNTOUCHED)
        if action == "delete":
            # a permanent delete leaves no trace to tell it from a file moved away since
            return Outcome("unknown", "gone from its place: deleted by this batch before the "
                                      "interruption, or moved away since (a delete leaves no "
                                      "trace to tell which; the kept copy was proven equal)")
        found = trash.find_in_trash(path, ident, unique=f"{context.batch_id}-{seq}")
        if found is None:
            return Outcome("unknown", "gone from its place, and not found in the trash")
        at, info = found
        return Outcome("done", f"sent to the trash: {at} (found by recovery)", at,
                       actions.undo_record("trash", at, os.lstat(at), info=info))
    if action == "copy":
        return _settle_copy(seq, st, ident, intact, content_hash, target, temp, context)
    if action == "uncopy":  # undo of a merge's copy: path is the copy
        if st is None:
            return Outcome("done", f"the copy {path} is gone (found by recovery)")
        return _untouched(st, intact, _UNTOUCHED)
    return _settle_move(seq, action, path, st, ident, intact, content_hash, target,
                        temp, context)


def _settle_copy(seq, st, ident, intact, content_hash, target, temp, context: _BatchContext):
    """A merge's copy (the source stays): done when the file at the target is provably
    this row's copy; a partial copy under the temporary name is removed.  The source
    is never touched."""
    there = _lstat(target)
    if (there is not None and there.st_size == ident.size
            and there.st_mtime_ns == ident.mtime_ns and content_hash is not None
            and context.made_by_us(there, seq, target) and _hash(target) == content_hash):
        _drop_temp_beside(temp, there)
        return Outcome("done", f"copied to {target} (found by recovery)", target,
                       actions.undo_record("copy", target, there))
    left = _lstat(temp)
    if left is not None and left.st_ctime_ns >= context.started_ns:
        os.unlink(temp)  # a partial copy: ours (the name holds the batch and the row)
    if st is None:
        return Outcome("unknown", "gone from its place, and its copy was not found at "
                                  f"{target}")
    return _untouched(st, intact, _UNTOUCHED)


def _settle_move(seq, action, path, st, ident, intact, content_hash, target, temp,
                 context: _BatchContext):
    """A move (or restore): the file may be at the target or at a free variant of it.

    The original is removed only when the file at the target is provably this row's:
    the same file under its new name (cut between link and unlink), or a copy made
    since the batch began, of no file the batch names, claimed by no other row, with
    the same bytes.  Two identical files (cp -p) look alike in everything else.
    """
    names = actions.candidates(target) if action == "move" else [target]
    doubt = None
    for name in names:
        there = _lstat(name)
        if there is None:
            break
        if context.claimed.get(name, seq) != seq:
            continue  # another row's file
        if ident.same_inode(there):
            # the file under its new name; with a single link, though, ``path`` and
            # ``name`` are one entry reached by two paths (a symbolic link on the way)
            mine = st is None or (intact and there.st_nlink >= 2)
        elif (there.st_size == ident.size and there.st_mtime_ns == ident.mtime_ns
              and content_hash is not None and _hash(name) == content_hash):
            if not context.made_by_us(there, seq, name):
                doubt = doubt or name  # looks like our copy, may be the user's own
                continue
            mine = st is None or (intact and _same_bytes(path, name))
        else:
            continue
        if not mine:
            continue
        undo = actions.undo_record(action, name, there) if action == "move" else None
        _drop_temp_beside(temp, there)
        verb = "moved to" if action == "move" else "restored to"
        if st is None:
            _drop_trash_info(path, action, name)
            return Outcome("done", f"{verb} {name} (found by recovery)", name, undo)
        # cut off between placing the file and removing its old name: finish
        os.unlink(path)
        _drop_trash_info(path, action, name)
        return Outcome("done", f"{verb} {name} (finished by recovery)", name, undo)
    if temp and intact and _lstat(temp) is not None:
        os.unlink(temp)  # a partial copy, and the original is intact
    if doubt is not None:
        where = ("is intact" if intact else "changed since the scan" if st is not None
                 else "is gone from its place")
        return Outcome("unknown", f"the original {where}, and {doubt} holds the same bytes but "
                                  "cannot be proven to be this batch's copy: recovery removed "
                                  "nothing, both are left as they are")
    if st is not None:
        return _untouched(st, intact, _UNTOUCHED)
    return Outcome("unknown", f"gone from its place, and not found at {target}")


def _drop_trash_info(path: str, action: str, original: str) -> None:
    """A file restored from a trash to ``original``, once gone from it: its
    ``.trashinfo`` goes too, as an undo that was not cut off removes it (the trash's
    layout: ``files/NAME`` beside ``info/NAME.trashinfo``); only a file that reads as
    one, not a link, whose ``Path=`` names ``original`` (absolute, or relative to the top
    folder of a disk's own trash)."""
    folder, name = os.path.split(path)
    if action != "restore" or os.path.basename(folder) != "files" or _lstat(path) is not None:
        return
    info = os.path.join(os.path.dirname(folder), "info", name + ".trashinfo")
    try:
        fd = os.open(info, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            head = f.read(4096)
    except OSError:
        return  # gone, or not ours to read: left as it is
    named = re.search(rb"\nPath=([^\r\n]*)", head) if head.startswith(b"[Trash Info]") \
        else None
    if named is None:
        return
    said, target = urllib.parse.unquote_to_bytes(named.group(1).strip()), os.fsencode(original)
    if said == target or (not said.startswith(b"/") and target.endswith(b"/" + said)):
        try:
            os.unlink(info)
        except OSError:
            pass


def _drop_temp_beside(temp: str | None, placed) -> None:
    """Remove the temporary name left by a cut place(temp, name): an extra name only."""
    there = _lstat(temp)
    if there is not None and os.path.samestat(there, placed):
        os.unlink(temp)


def _untouched(st, intact: bool, untouched: str) -> Outcome:
    if intact:
        return Outcome("skipped", untouched)
    return Outcome("skipped", "not done: the file changed since the scan")


def _lstat(path: str | None):
    if path is None:
        return None
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _hash(path: str) -> bytes | None:
    h = xxhash.xxh3_128()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError:
        return None
    return h.digest()


def _same_bytes(a: str, b: str) -> bool:
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return actions.same_content(fa, fb)
    except OSError:
        return False
