"""Leave out of the groups the pairs on the ignore list (simgui.core.store.ignored).

A small step after grouping, apart from the search itself: a member whose pair with
its group's reference is ignored leaves the group, and a group left with its reference
alone is dropped; the member's identical copies leave with it, and the members that
left a group and are identical copies of each other make a group of their own.  The
other columns are kept as they were.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable

import numpy as np

from simgui.core.search.groups import Group, GroupTable, Member


def without_ignored(table: GroupTable, pairs: Iterable[tuple[str, str]]) -> GroupTable:
    """``table`` without the members paired with their reference in ``pairs``, and their
    identical copies with them; the members that left one group and are identical copies
    of each other make a group of their own, after the others (identical copies are
    always found: that they are not duplicates of the reference says nothing of each
    other)."""
    return _without(table, {frozenset((os.fsencode(a), os.fsencode(b))) for a, b in pairs})


def _without(table: GroupTable, ignored: set) -> GroupTable:
    """:func:`without_ignored` of the pairs ``ignored`` (frozensets of encoded paths)."""
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
    _copies_leave_too(table, keep)
    # groups with a member left keep their reference and those members
    members_left = np.bincount(table.group_of_row, weights=keep, minlength=len(table)) - 1
    keep &= (members_left > 0)[table.group_of_row]
    groups = np.flatnonzero(members_left > 0)
    counts = np.bincount(table.group_of_row[keep], minlength=len(table))[groups].tolist()
    taken = np.flatnonzero(keep)
    # then the copies among the members that left each group
    copies = _copies_that_left(table, keep)
    order = np.concatenate([taken, *map(np.asarray, copies)]).astype(np.int64)
    counts += [len(c) for c in copies]
    new = np.zeros(len(order), bool)
    new[len(taken):] = True  # rows of the groups of copies: identical to their first
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    first = np.zeros(len(order), bool)
    first[start[:-1]] = True
    new_row = np.full(len(rows), -1, np.int64)
    new_row[taken] = np.arange(len(taken))
    copy_of = table.copy_of[order]
    copy_of = np.where(~new & (copy_of >= 0), new_row[np.maximum(copy_of, 0)], -1)
    member_bytes = np.where(first, 0, table.files.sizes[rows[order]])
    group_bytes = np.bincount(np.repeat(np.arange(len(counts)), counts), weights=member_bytes,
                              minlength=len(counts)).astype(np.int64)
    # every other column with one value per row (distances, similarity, identity...),
    # those of a group of copies as an identical copy's
    per_row = {f.name: getattr(table, f.name)[order] for f in dataclasses.fields(table)
               if f.name not in ("rows", "copy_of", "start", "group_bytes", "original_index")
               and isinstance(getattr(table, f.name), np.ndarray)
               and len(getattr(table, f.name)) == len(rows)}
    per_row["identical"] = np.where(new, True, per_row["identical"])
    per_row["similarity"] = np.where(new, 100.0, per_row["similarity"])
    per_row["key_distance"] = np.where(new, 0.0, per_row["key_distance"])
    per_row["sum_distance"] = np.where(new, 0, per_row["sum_distance"])
    out = dataclasses.replace(table, start=start, rows=rows[order], group_bytes=group_bytes,
                              copy_of=copy_of.astype(np.int64), **per_row)
    # a group of copies is a group too: a pair in it the user ignored is left out of it
    # (its first file its reference), as in any other
    return _without(out, ignored) if copies else out


def _copies_leave_too(table: GroupTable, keep: np.ndarray) -> None:
    """The identical copies of a member whose pair is ignored leave with it (but copies of
    the reference itself): what the user said of that content, not a duplicate of the
    reference, holds for each of its copies, which would else be acted on as similar to
    it, and with them every copy of the content."""
    files = table.files
    for g in np.unique(table.group_of_row[~keep]).tolist():
        lo, hi = int(table.start[g]) + 1, int(table.start[g + 1])
        ref = int(table.rows[lo - 1])
        rows = table.rows[lo:hi].tolist()
        leaving = {(int(files.sizes[f]), files.hashes[f])
                   for r, f in zip(range(lo, hi), rows) if not keep[r] and files.hashes[f]}
        leaving.discard((int(files.sizes[ref]), files.hashes[ref]))
        for r, f in zip(range(lo, hi), rows):
            if files.hashes[f] and (int(files.sizes[f]), files.hashes[f]) in leaving:
                keep[r] = False


def _copies_that_left(table: GroupTable, keep: np.ndarray) -> list[list[int]]:
    """Rows of the members that left a group, as sets of identical copies of two or more
    (each in its group's order), group by group."""
    files = table.files
    out: list[list[int]] = []
    for g in np.unique(table.group_of_row[~keep]).tolist():
        sets: dict[tuple[int, bytes], list[int]] = {}
        for r in range(int(table.start[g]) + 1, int(table.start[g + 1])):
            f = int(table.rows[r])
            if not keep[r] and files.hashes[f]:
                sets.setdefault((int(files.sizes[f]), files.hashes[f]), []).append(r)
        out += [rs for rs in sets.values() if len(rs) > 1]
    return out


def groups_without_ignored(groups: Iterable[Group], pairs: Iterable[tuple[str, str]]
                           ) -> list[Group]:
    """As :func:`without_ignored`, for groups as objects (the command line's
    ``find_groups``): members paired with their reference in ``pairs`` leave, and their
    identical copies with them; a group left with no member is dropped; the members that
    left a group and are identical copies of each other make a group of their own, after
    the others (numbered on)."""
    ignored = {frozenset((os.fsencode(a), os.fsencode(b))) for a, b in pairs}
    groups = list(groups)
    if not ignored:
        return groups
    while True:  # (groups of copies are groups too: until none changes)
        after = _groups_without(groups, ignored)
        if [len(g.members) for g in after] == [len(g.members) for g in groups]:
            return after
        groups = after


def _groups_without(groups: list[Group], ignored: set) -> list[Group]:
    kept, copies = [], []
    for g in groups:
        ref = os.fsencode(g.reference.path)
        left = [m for m in g.members if frozenset((ref, os.fsencode(m.path))) in ignored]
        # their copies leave with them (see _copies_leave_too)
        leaving = {(m.size, m.content_hash) for m in left if m.content_hash} - {
            (g.reference.size, g.reference.content_hash)}
        gone = {id(m) for m in left} | {id(m) for m in g.members if m.content_hash and (
            m.size, m.content_hash) in leaving}
        members = tuple(m for m in g.members if id(m) not in gone)
        if members:
            kept.append(g if len(members) == len(g.members)
                        else dataclasses.replace(g, members=members))
        sets: dict[tuple[int, bytes], list[Member]] = {}
        for m in g.members:
            if id(m) in gone and m.content_hash:
                sets.setdefault((m.size, m.content_hash), []).append(m)
        copies += [s for s in sets.values() if len(s) > 1]
    next_id = max((g.id for g in groups), default=0) + 1
    for i, same in enumerate(copies):
        files = [dataclasses.replace(m, identical=True, key_distance=0.0, sum_distance=0,
                                     similarity=100.0, copy_of="") for m in same]
        kept.append(Group(next_id + i, files[0], tuple(files[1:])))
    return kept
