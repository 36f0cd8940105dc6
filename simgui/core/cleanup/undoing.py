"""Undo: put back what a clean-up batch moved or trashed, never over an existing file."""

from __future__ import annotations

import json
import os

from simgui.core.cleanup import actions
from simgui.core.cleanup.running import BatchResult, run_batch
from simgui.core.cleanup.journal import PlannedRow, UndoError, _s, begin, last_undoable
from simgui.core.store import Store


def undo(store: Store, batch_id: int | None = None, progress=None):
    """Put back what a batch moved or trashed (the last undoable batch by default).

    Each file goes back only if its original place is free and the file
    still matches what was moved; permanent deletes and links are reported
    as not undoable.  Returns the undo batch's :class:`BatchResult`.
    """
    db = store.connection
    if batch_id is None:
        last = last_undoable(store)
        if last is None:
            raise UndoError("nothing to undo")
        batch_id = last.id
    row = db.execute("SELECT action, status FROM batches WHERE id = ?", (batch_id,)).fetchone()
    if row is None:
        raise UndoError(f"no batch {batch_id}")
    if row[0] == "undo":
        raise UndoError(f"batch {batch_id} is itself an undo")
    if row[1] == "running":
        raise UndoError(f"batch {batch_id} is still running or was interrupted; "
                        "recover it first")
    todo = db.execute(
        "SELECT id, seq, action, path, target, undo, content_hash FROM journal "
        "WHERE batch_id = ? AND state = 'done' AND undone_by IS NULL ORDER BY seq",
        (batch_id,)).fetchall()
    if not todo:
        raise UndoError(f"batch {batch_id} has nothing left to undo")

    def rows(undo_id: int) -> list[PlannedRow]:
        out = []
        for seq, (entry_id, _, action, path, target, info, content_hash) in enumerate(todo):
            u = json.loads(info) if info else None
            at = u["at"] if u else _s(target) or _s(path)
            ident = (u["size"], u["mtime_ns"], u["device"], u["inode"]) if u else (0, 0, 0, 0)
            out.append(PlannedRow(
                seq=seq, action="restore", path=at, identity=ident,
                content_hash=content_hash, target=_s(path),
                temp=os.path.join(os.path.dirname(_s(path)), f".simgui-{undo_id}-{seq}.tmp")))
        return out

    undo_id = begin(store, "undo", f"undo of batch {batch_id}", rows, undo_of=batch_id)
    steps = []
    for seq, (entry_id, _, action, path, target, info, _) in enumerate(todo):
        u = json.loads(info) if info else None
        original = _s(path)
        steps.append((seq, original, u["size"] if u else 0, _restore_step(entry_id, action, original, u,
                                                      undo_id, seq)))
    return run_batch(store, undo_id, "undo", steps, progress)


def _restore_step(entry_id: int, action: str, original: str, u: dict | None,
                  undo_id: int, seq: int):
    def do():
        if u is None:
            why = {"delete": "deleted permanently", "hardlink": "replaced by a hard link",
                   "symlink": "replaced by a symbolic link"}.get(
                action, "the trash did not say where it went")
            raise actions.Skip(f"cannot be undone: {why}")
        ident = actions.Identity(u["size"], u["mtime_ns"], u["device"], u["inode"])
        actions.verify(u["at"], ident)
        if os.path.lexists(original):
            raise actions.Skip(f"{original} is taken by another file")
        temp = os.path.join(os.path.dirname(original), f".simgui-{undo_id}-{seq}.tmp")
        actions.relocate(u["at"], ident, original, temp, free_name=False)
        if u["kind"] == "trash" and u.get("info"):
            try:
                os.unlink(u["info"])
            except FileNotFoundError:
                pass
        return actions.Outcome("done", f"restored from {u['at']}", original, None, entry_id)
    return do
