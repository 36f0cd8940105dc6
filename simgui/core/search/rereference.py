"""Make another file a group's reference (dupeGuru's "Make selected into reference").

The reference is the file kept; the user may prefer another.  The group's rows are
reordered (the chosen file first) and every per-row column is recomputed against
it with the same rules as :meth:`Analysis.groups`: identity, sum-table and key
distances, the method's similarity, and which members are copies of each other.
Members stay in the group even where they are farther from the new reference
than the tolerance (as in dupeGuru: the group was found; only the kept file changes).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from simgui.core.search import methods
from simgui.core.search.analysis import Analysis
from simgui.core.search.groups import GroupTable
from simgui.core.search.simfind import identity_and_similarity


_COLUMNS = ("rows", "key_distance", "sum_distance", "identical", "similarity", "group_bytes",
            "copy_of")


def with_reference(analysis: Analysis, table: GroupTable, file: int) -> GroupTable:
    """``table`` with ``file`` (an index into ``table.files``) as its group's reference;
    ``table`` itself if the file is in no group or already a reference."""
    return with_references(analysis, table, [file])


def with_references(analysis: Analysis, table: GroupTable, files) -> GroupTable:
    """``table`` with each of ``files`` as its group's reference (one file per group; a
    file in no group, or already a reference, changes nothing)."""
    position = np.full(len(table.files), -1, np.int64)
    position[table.rows] = np.arange(len(table.rows))
    chosen = [int(position[f]) for f in files if position[f] >= 0]
    chosen = [r for r in chosen if r != table.start[table.group_of_row[r]]]
    if not chosen:
        return table
    new = {name: np.array(getattr(table, name), copy=True) for name in _COLUMNS}
    for row in chosen:
        _reroot(analysis, table, row, new)
    return dataclasses.replace(table, **new)


def _reroot(analysis: Analysis, table: GroupTable, row: int, new: dict) -> None:
    """Write into ``new`` (the table's columns) the group of ``row`` with it first."""
    g = int(table.group_of_row[row])
    lo, hi = int(table.start[g]), int(table.start[g + 1])
    files = analysis.files
    # the new reference first, then the others most alike first (as groups() orders them)
    others = [r for r in range(lo, hi) if r != row]
    rows = table.rows[[row, *others]]
    ref = int(rows[0])
    sum_distance = np.abs(files.tables[rows] - files.tables[ref]).sum(axis=1)
    key_distance = np.abs(analysis.plain_keys[rows] - analysis.plain_keys[ref])
    same_hash = (analysis.hashes[rows] == analysis.hashes[ref]).all(axis=1)
    identical, similarity = identity_and_similarity(sum_distance, files.sizes[rows],
                                                    files.sizes[ref], same_hash)
    if analysis.settings.method != "paper":
        difference = methods.differences(
            analysis.settings.method, files.simhashes[rows], files.signatures[rows],
            files.simhashes[ref], files.signatures[ref])
        similarity = methods.similarity(difference, identical)
    identical = np.asarray(identical, bool).copy()
    identical[0] = True
    order = np.concatenate(([0], 1 + np.lexsort((np.arange(len(rows) - 1), sum_distance[1:],
                                                  ~identical[1:]))))
    rows, sum_distance, key_distance = rows[order], sum_distance[order], key_distance[order]
    identical, similarity = identical[order], np.asarray(similarity, np.float64)[order]
    # members identical to each other but not to the reference: the first of each set
    copy_of = np.full(len(rows), -1, np.int64)
    first_of: dict[tuple, int] = {}
    for i in range(1, len(rows)):
        f = int(rows[i])
        key = (int(files.sizes[f]), analysis.hashes[f].tobytes(), files.tables[f].tobytes())
        if key in first_of and not identical[i]:
            copy_of[i] = lo + first_of[key]
        first_of.setdefault(key, i)
    new["rows"][lo:hi] = rows
    new["key_distance"][lo:hi] = key_distance
    new["sum_distance"][lo:hi] = sum_distance
    new["identical"][lo:hi] = identical
    new["similarity"][lo:hi] = similarity
    new["copy_of"][lo:hi] = copy_of
    new["group_bytes"][g] = int(files.sizes[rows[1:]].sum())
