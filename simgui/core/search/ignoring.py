"""Leave out of the groups the pairs on the ignore list (simgui.core.store.ignored).

A small step after grouping, apart from the search itself: a member whose pair with
its group's reference is ignored leaves the group, and a group left with its reference
alone is dropped.  The other columns are kept as they were.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable

import numpy as np

from simgui.core.search.groups import Group, GroupTable


def without_ignored(table: GroupTable, pairs: Iterable[tuple[str, str]]) -> GroupTable:
    """``table`` without the members paired with their reference in ``pairs``."""
    ignored = {frozenset((os.fsencode(a), os.fsencode(b))) for a, b in pairs}
    if not ignored or len(table) == 0:
        return table
    paths = table.files.paths
    rows = table.rows
    reference_of_row = rows[table.start[:-1]][table.group_of_row]
    keep = np.ones(len(rows), bool)
    for r, (f, ref) in enumerate(zip(rows.tolist(), reference_of_row.tolist())):
        if f != ref and frozenset((os.fsencode(paths[f]), os.fsencode(paths[ref]))) in ignored:
            keep[r] = False
    if keep.all():
        return table
    # groups with a member left keep their reference and those members
    members_left = np.bincount(table.group_of_row, weights=keep, minlength=len(table)) - 1
    keep &= (members_left > 0)[table.group_of_row]
    groups = np.flatnonzero(members_left > 0)
    new_row = np.cumsum(keep) - 1
    counts = np.bincount(table.group_of_row[keep], minlength=len(table))[groups]
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    copy_of = table.copy_of[keep]
    points = copy_of >= 0
    copy_of = np.where(points & keep[np.maximum(copy_of, 0)],
                       new_row[np.maximum(copy_of, 0)], -1).astype(np.int64)
    member_bytes = np.where(np.isin(np.arange(len(rows)), table.start[:-1]), 0,
                            table.files.sizes[rows])[keep]
    group_of = np.repeat(np.arange(len(groups)), counts)
    group_bytes = np.bincount(group_of, weights=member_bytes,
                              minlength=len(groups)).astype(np.int64)
    # every other column with one value per row (distances, similarity, identity...)
    per_row = {f.name: getattr(table, f.name)[keep] for f in dataclasses.fields(table)
               if f.name not in ("rows", "copy_of", "start", "group_bytes", "original_index")
               and isinstance(getattr(table, f.name), np.ndarray)
               and len(getattr(table, f.name)) == len(rows)}
    return dataclasses.replace(table, start=start, rows=rows[keep], group_bytes=group_bytes,
                               copy_of=copy_of, **per_row)


def groups_without_ignored(groups: Iterable[Group], pairs: Iterable[tuple[str, str]]
                           ) -> list[Group]:
    """As :func:`without_ignored`, for groups as objects (the command line's
    ``find_groups``): members paired with their reference in ``pairs`` leave; a group
    left with no member is dropped."""
    ignored = {frozenset((os.fsencode(a), os.fsencode(b))) for a, b in pairs}
    groups = list(groups)
    if not ignored:
        return groups
    kept = []
    for g in groups:
        ref = os.fsencode(g.reference.path)
        members = tuple(m for m in g.members
                        if frozenset((ref, os.fsencode(m.path))) not in ignored)
        if members:
            kept.append(g if len(members) == len(g.members)
                        else dataclasses.replace(g, members=members))
    return kept
