"""Trash (or move) a whole folder whose every file has an identical copy outside it.

A folder removal is a :class:`~simgui.core.cleanup.plan.Plan` of per-file trash
actions, each justified by an identical file *outside* the folder (kept), so the
batch is proven byte for byte right before each file is touched, journaled and
undone like any clean-up (:func:`~simgui.core.cleanup.execution.execute`,
:func:`~simgui.core.cleanup.undoing.undo`).  When even one scanned file of the folder
has no identical copy outside it, the whole folder is refused, with the files that
would be lost.  Files the store does not know (created after the scan, or left out
of it) are never touched: the folder keeps them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from simgui.core.cleanup.plan import Action, Operation, Plan, Refusal
from simgui.core.folders import first_inside
from simgui.core.search.similar_folders import FolderIndex

#: the files named in a refusal, at most
_NAMED = 5


def plan_folder_removal(index: FolderIndex, folder: str, *, roots: Sequence[str],
                        move_to: str | None = None, references: Sequence[str] = ()) -> Plan:
    """Trash every scanned file of ``folder`` (its whole subtree), each kept as an
    identical copy outside it; refused (no operation) if one has none, or if one lies in
    a reference folder (``references``: those are never touched).

    ``roots``: the scanned folders the batch walks from (never through a link).
    ``move_to``: move the files to ``move_to/<folder's name>/...`` instead (the same
    proofs; undo moves them back)."""
    folder = os.path.abspath(folder)
    roots = sorted((os.path.abspath(r) for r in roots), key=len, reverse=True)
    action = Action.TRASH if move_to is None else Action.MOVE
    target_dir = None if move_to is None else os.path.abspath(move_to)
    plan = Plan(action, [], [], {}, identical_only=True, roots=roots, target_dir=target_dir,
                emptied=folder)
    if target_dir is not None and (target_dir == folder
                                   or target_dir.startswith(folder.rstrip(os.sep) + os.sep)):
        plan.refused.append(Refusal(0, f"the target {target_dir} is inside {folder}"))
        return plan
    if target_dir is not None and os.path.join(target_dir, os.path.basename(folder)) == folder:
        plan.refused.append(Refusal(0, f"{folder} is already in {target_dir}: moving it there "
                                       "leaves it where it is"))
        return plan
    try:
        f = index.folder_id(folder)
    except KeyError:
        plan.refused.append(Refusal(0, f"no scanned file is in {folder}"))
        return plan
    inside = index.files_under(f)
    paths = index.table.files.paths
    first = first_inside((paths[i] for i in inside.tolist()), references)
    if first is not None:
        plan.refused.append(Refusal(0, f"{first} is in a reference folder; nothing is "
                                       "touched"))
        return plan
    mine = np.zeros(index.n_files, bool)
    mine[inside] = True
    table = index.table
    # per content, a file outside the folder that has it (the shortest path)
    outside = np.flatnonzero(~mine)
    keep_of: dict[int, int] = {}
    for g in sorted(outside.tolist(), key=lambda g: (len(paths[g]), paths[g])):
        keep_of.setdefault(int(index.file_content[g]), g)
    lost = [int(i) for i in inside.tolist() if int(index.file_content[i]) not in keep_of]
    if lost:
        named = ", ".join(paths[i] for i in lost[:_NAMED])
        more = f" and {len(lost) - _NAMED:,} more" if len(lost) > _NAMED else ""
        plan.refused.append(Refusal(0, f"{len(lost):,} of its {len(inside):,} files "
                                       f"{'has' if len(lost) == 1 else 'have'} no identical "
                                       f"copy outside {folder}: {named}{more}; nothing is "
                                       "touched"))
        return plan
    for i in inside.tolist():
        kept = keep_of[int(index.file_content[i])]
        row, kept_row = int(index.row_of_file[i]), int(index.row_of_file[kept])
        if row < 0 or kept_row < 0:  # identical files are always in a group
            plan.refused.append(Refusal(0, f"{paths[i]} is in no group; nothing is touched"))
            plan.operations.clear()
            return plan
        group_id = int(table.group_of_row[row]) + 1
        kept_member = table.member(kept_row)
        target = None if target_dir is None else os.path.join(
            target_dir, os.path.basename(folder), os.path.relpath(paths[i], folder))
        plan.operations.append(Operation(action, group_id, table.member(row), kept_member,
                                         by_identity=True, target=target))
        plan.kept.setdefault(group_id, kept_member)
    return plan
