"""Undo: put back what a clean-up batch moved or trashed, never over an existing file.

Each file goes back to its place through the folders of its path opened from the
batch's scanned folders (:mod:`simgui.core.cleanup.opened`), never through a link: a
folder replaced by a link since the batch leaves the file where it is.  The folders a
move made are removed once undo leaves them empty.
"""

from __future__ import annotations

import json
import os

from simgui.core.cleanup import actions
from simgui.core.cleanup.execution import move
from simgui.core.cleanup.opened import OpenedFolders, unpack_roots
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
    row = db.execute("SELECT action, status, roots, target_dir FROM batches WHERE id = ?",
                     (batch_id,)).fetchone()
    if row is None:
        raise UndoError(f"no batch {batch_id}")
    if row[0] == "undo":
        raise UndoError(f"batch {batch_id} is itself an undo")
    if row[1] == "running":
        raise UndoError(f"batch {batch_id} is still running or was interrupted; "
                        "recover it first")
    # (device: where the file was, the only disk its folders may be made again on)
    todo = [(entry_id, action, _s(path), _s(target), json.loads(info) if info else None,
             content_hash, device)
            for entry_id, action, path, target, info, content_hash, device in db.execute(
                "SELECT id, action, path, target, undo, content_hash, device FROM journal "
                "WHERE batch_id = ? AND state = 'done' AND undone_by IS NULL ORDER BY seq",
                (batch_id,))]
    if not todo:
        raise UndoError(f"batch {batch_id} has nothing left to undo")
    if row[0] == "merge":
        # last done, first undone: A back from the trash before its copies in B go, and
        # a copy gone before the version of B it replaced comes back
        todo.reverse()

    def rows(undo_id: int) -> list[PlannedRow]:
        out = []
        for seq, (_, _, original, target, u, content_hash, _) in enumerate(todo):
            at = u["at"] if u else target or original
            ident = (u["size"], u["mtime_ns"], u["device"], u["inode"]) if u else (0, 0, 0, 0)
            out.append(PlannedRow(
                seq=seq, action="uncopy" if u and u["kind"] == "copy" else "restore",
                path=at, identity=ident,
                content_hash=content_hash, target=original,
                temp=os.path.join(os.path.dirname(original), _temp(undo_id, seq))))
        return out

    # batches journaled without their roots: every folder walked from / (none a link)
    roots = unpack_roots(row[2]) or []
    target_dir = _s(row[3])
    # the folders the batch's moves made, those undone before included
    made = [folder for (info,) in db.execute(
        "SELECT undo FROM journal WHERE batch_id = ? AND state = 'done' AND undo IS NOT NULL",
        (batch_id,)) for folder in json.loads(info).get("made", ())]
    undo_id = begin(store, "undo", f"undo of batch {batch_id}", rows, undo_of=batch_id,
                    roots=roots)
    with OpenedFolders(roots, named=[target_dir] if target_dir else ()) as folders:
        steps = [(seq, original, u["size"] if u else 0,
                  _restore_step(entry_id, action, original, u, _temp(undo_id, seq), folders,
                                device))
                 for seq, (entry_id, action, original, _, u, _, device) in enumerate(todo)]
        result = run_batch(store, undo_id, "undo", steps, progress)
        folders.remove_empty(made)
    return result


def _temp(undo_id: int, seq: int) -> str:
    """The temporary name a restore may use beside the original, known to the journal."""
    return f".simgui-{undo_id}-{seq}.tmp"


def _restore_step(entry_id: int, action: str, original: str, u: dict | None, temp: str,
                  folders: OpenedFolders, device: int):
    def do():
        if u is None:
            why = {"delete": "deleted permanently", "hardlink": "replaced by a hard link",
                   "symlink": "replaced by a symbolic link"}.get(
                action, "the trash did not say where it went")
            raise actions.Skip(f"cannot be undone: {why}")
        ident = actions.Identity(u["size"], u["mtime_ns"], u["device"], u["inode"])
        if u["kind"] == "copy":
            return _remove_copy(entry_id, original, u, ident, folders)
        if u["kind"] == "trash":  # the trash is opened as it is named, like a move target
            folders.name(os.path.dirname(u["at"]))
        at = folders.at(u["at"])
        actions.verify(at, ident)
        # back to its place, never over a file, its folders made again if gone
        move(folders, at, ident, original, temp, free_name=False, device=device)
        if u["kind"] == "trash" and u.get("info"):
            folders.name(os.path.dirname(u["info"]))
            try:
                actions.remove(folders.at(u["info"]))
            except (FileNotFoundError, actions.Skip):
                pass
        return actions.Outcome("done", f"restored from {u['at']}", original, None, entry_id)
    return do


def _remove_copy(entry_id: int, original: str, u: dict, ident, folders: OpenedFolders):
    """Undo a merge's copy: remove it only if it is unchanged since it was made and the
    file it was copied from is back at ``original`` with the same bytes (else both stay)."""
    at = folders.at(u["at"])
    actions.verify(at, ident, what="the copy ")
    source = folders.at(original)
    try:
        st = source.lstat()
    except FileNotFoundError:
        raise actions.Skip(f"{original} is not back, so its copy {u['at']} stays") from None
    actions.compare(source, actions.Identity.of_stat(st), at, ident)
    actions.remove(at)
    return actions.Outcome("done", f"removed its copy {u['at']}", None, None, entry_id)
