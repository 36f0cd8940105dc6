"""Doing a plan: journal it, then act file by file without losing data.

Right before each action the file is proven to be still the one scanned
(device, inode, size, mtime_ns, and the bytes when identity justifies the
action).  Every file gets a result: done, skipped (why) or failed (the error).
A failure is never reported as success.  The proof and the act name the file in
one folder opened for the batch (:mod:`simgui.core.cleanup.opened`): a folder on
its path swapped for a link cannot turn the act on another file.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable

from simgui.core.cleanup import actions, journal, trash
from simgui.core.cleanup.actions import Identity, Outcome, Skip, Spot
from simgui.core.cleanup.opened import OpenedFolders
from simgui.core.cleanup.running import BatchResult, run_batch
from simgui.core.cleanup.plan import Action, Operation, Plan
from simgui.core.folders import folder_test
from simgui.core.progress import ProgressCallback
from simgui.core.store import Store


# -- executing --------------------------------------------------------------------


def execute(plan: Plan, store: Store, *,
            progress: ProgressCallback | None = None) -> BatchResult:
    """Do ``plan``, journaling each file in ``store``; returns one result per file.

    The journal rows are committed before the first file is touched.
    Cancelling (``progress`` returning False) stops before the next file:
    what is done stays done and journaled, the rest is reported skipped.
    """
    ops = plan.operations

    def rows(batch_id: int) -> list[journal.PlannedRow]:
        return [journal.PlannedRow(
            seq=seq, group_id=op.group_id, action=op.action.value, path=op.path,
            identity=Identity.of(op.member), content_hash=op.member.content_hash,
            kept=op.kept.path, kept_identity=Identity.of(op.kept), by_identity=op.by_identity,
            target=op.target, temp=temp_name(op, batch_id, seq))
            for seq, op in enumerate(ops)]

    batch_id = journal.begin(store, plan.action.value, plan.describe(), rows,
                             target_dir=plan.target_dir, roots=plan.roots)
    with OpenedFolders(plan.roots, named=[plan.target_dir] if plan.target_dir else ()) as at:
        steps = [(seq, op.path, op.member.size, _step(op, batch_id, seq, at))
                 for seq, op in enumerate(ops)]
        result = run_batch(store, batch_id, plan.action.value, steps, progress)
        if plan.emptied and ops and len(result.done) == len(ops):
            _remove_emptied(plan.emptied, [op.path for op in ops], at)
        return result


def _remove_emptied(folder: str, paths: list[str], at: OpenedFolders) -> None:
    """The folders of ``paths`` up to ``folder``, where the batch left them empty (one
    that holds a file the store did not know stays, and so does a folder that held no
    file acted on: undo, which makes the others again, would not), never through a link."""
    inside = folder_test([folder])
    emptied = set()
    for path in paths:
        d = os.path.dirname(path)
        while d not in emptied and inside(d):
            emptied.add(d)
            d = os.path.dirname(d)
    at.remove_empty(sorted(emptied))


def temp_name(op: Operation, batch_id: int, seq: int) -> str | None:
    """The temporary name an operation may use, known to the journal before it runs
    (in the target folder for moves, beside the file for links)."""
    if op.action is Action.MOVE:
        folder = os.path.dirname(op.target)
    elif op.action.links:
        folder = os.path.dirname(op.path)
    else:
        return None
    return os.path.join(folder, f".simgui-{batch_id}-{seq}.tmp")


def _step(op: Operation, batch_id: int, seq: int,
          folders: OpenedFolders) -> Callable[[], Outcome]:
    ident = Identity.of(op.member)
    kept = Identity.of(op.kept)
    temp = temp_name(op, batch_id, seq)

    def do() -> Outcome:
        path, kept_path = _locate(op, folders)
        actions.check_before_acting(path, ident, kept_path, kept)
        if op.by_identity:
            actions.compare(path, ident, kept_path, kept)
            # the comparison may take long: what it proved must still be on disk now
            # (an editor saving the kept file renames a new file over it)
            actions.check_before_acting(path, ident, kept_path, kept)
        if op.action is Action.DELETE:
            actions.remove(path)
            return Outcome("done", "deleted")
        if op.action is Action.TRASH:
            return trash.trash_entry(path.fd, path.name, path.path, ident, f"{batch_id}-{seq}")
        if op.action is Action.MOVE:
            return move(folders, path, ident, op.target, os.path.basename(temp),
                        what="the target ")
        return actions.link(path, ident, kept_path, kept, path.beside(os.path.basename(temp)),
                            symbolic=op.action is Action.SYMLINK)

    return do


def _locate(op: Operation, folders: OpenedFolders) -> tuple[Spot, Spot]:
    """The file and its kept copy in their opened folders."""
    try:
        return folders.at(op.path), folders.at(op.kept.path, what="the kept copy ")
    except Skip:
        # one file named twice, once through a link: say that rather than the link
        if _one_file(op.path, op.kept.path):
            raise Skip(f"{op.path} is the same file as the kept copy {op.kept.path} "
                       "(another name for it)") from None
        raise


def _one_file(a: str, b: str) -> bool:
    try:
        return os.path.samestat(os.lstat(a), os.lstat(b))
    except OSError:
        return False


def move(folders: OpenedFolders, src: Spot, ident: Identity, target: str,
         temp: str, *, free_name: bool = True, what: str = "",
         device: int | None = None) -> Outcome:
    """Move a verified file to ``target``, making its missing folders (never through a
    link); a failed move removes the folders it made, and a move done lists them in its
    undo record (``made``), for undo to remove them once empty.  ``temp``: the name of
    the temporary copy, in the target's folder.  Shared with undo, which gives the
    ``device`` the file came from (see OpenedFolders.at)."""
    mark = len(folders.made)
    try:
        dst = folders.at(target, create=True, what=what, device=device)
        outcome = actions.relocate(src, ident, dst, dst.beside(temp), free_name=free_name)
    except Exception:
        folders.remove_empty(folders.made[mark:])
        raise
    made = folders.made[mark:]
    if made and outcome.undo is not None:
        outcome = dataclasses.replace(outcome, undo={**outcome.undo, "made": made})
    return outcome
