"""Doing a plan: journal it, then act file by file without losing data.

Right before each action the file is proven to be still the one scanned
(device, inode, size, mtime_ns, and the bytes when identity justifies the
action).  Every file gets a result: done, skipped (why) or failed (the error).
A failure is never reported as success.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from simgui.core.cleanup import actions, journal, trash
from simgui.core.cleanup.actions import Identity, Outcome
from simgui.core.cleanup.running import BatchResult, run_batch
from simgui.core.cleanup.plan import Action, Operation, Plan
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
                             target_dir=plan.target_dir)
    steps = [(seq, op.path, op.member.size, _step(op, batch_id, seq))
             for seq, op in enumerate(ops)]
    return run_batch(store, batch_id, plan.action.value, steps, progress)


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


def _step(op: Operation, batch_id: int, seq: int) -> Callable[[], Outcome]:
    ident = Identity.of(op.member)
    kept = Identity.of(op.kept)
    temp = temp_name(op, batch_id, seq)

    def do() -> Outcome:
        actions.check_before_acting(op.path, ident, op.kept.path, kept)
        if op.by_identity:
            actions.compare(op.path, ident, op.kept.path, kept)
            # the comparison may take long: what it proved must still be on disk now
            # (an editor saving the kept file renames a new file over it)
            actions.check_before_acting(op.path, ident, op.kept.path, kept)
        if op.action is Action.DELETE:
            os.unlink(op.path)
            return Outcome("done", "deleted")
        if op.action is Action.TRASH:
            return trash.trash(op.path, ident)
        if op.action is Action.MOVE:
            return actions.relocate(op.path, ident, op.target, temp, free_name=True)
        return actions.link(op.path, ident, op.kept.path, kept, temp, symbolic=op.action is Action.SYMLINK)

    return do
