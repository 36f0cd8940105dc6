"""Groups of identical copies only: equal size and content hash, no similar search.

What ``simgui groups --identical-only`` and ``remove --identical-only`` work on, and
what the window shows while a scan still reads the rest.  It needs only what the
identical stage of a scan stores (sizes and content hashes, no sum tables:
:meth:`Store.identical_files`), so it runs on a store that stage alone filled, and
on a full one.  The groups are the same :class:`GroupTable` the similar search makes,
so export, the views and the clean-up take them unchanged.  Imports no kernel (numba).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from simgui.core.folders import folder_test
from simgui.core.search.groups import GroupTable
from simgui.core.store import StoredFiles

#: how a group's reference is chosen after reference folders, as the similar search does
_RULES = ("oldest", "newest", "largest", "shortest-path")


def identical_groups(files: StoredFiles, references: Sequence[str] = (), *,
                     reference_rule: str = "oldest") -> GroupTable:
    """Every set of two or more files of ``files`` with equal size and content hash
    (files without a hash are in none), one path per file (device, inode); each
    group's reference is in a ``references`` folder if one is, then by
    ``reference_rule``, then the shortest path; largest groups (bytes besides the
    reference) first, then by the reference's path."""
    if reference_rule not in _RULES:
        raise ValueError(f"unknown reference rule {reference_rule!r}; one of {', '.join(_RULES)}")
    references = [os.path.abspath(r) for r in references]
    if references:
        inside = folder_test(references, resolve_links=True)
        in_ref = np.fromiter((inside(p) for p in files.paths), bool, len(files))
    else:
        in_ref = np.zeros(len(files), bool)
    files, original = one_path_per_file(files, in_ref)
    in_ref = in_ref[original]
    n = len(files)
    has_hash = np.fromiter((h is not None for h in files.hashes), bool, n)
    hashes = np.frombuffer(b"".join(h if h is not None else bytes(16) for h in files.hashes),
                           dtype=np.uint64).reshape(n, 2)
    path_len = np.fromiter((len(p) for p in files.paths), np.int64, n)
    path_rank = np.empty(n, np.int64)
    path_rank[np.argsort(np.array(files.paths, dtype=object), kind="stable")] = np.arange(n)
    rule = {"oldest": files.mtimes_ns, "newest": -files.mtimes_ns, "largest": -files.sizes,
            "shortest-path": path_len}[reference_rule]
    # one class per (size, hash); within it the best reference first
    order = np.lexsort((np.arange(n), path_len, rule, ~in_ref, hashes[:, 1], hashes[:, 0],
                        files.sizes, ~has_hash))
    order = order[has_hash[order]]
    key = np.column_stack((files.sizes[order].view(np.uint64), hashes[order]))
    new_class = np.ones(len(order), bool)
    new_class[1:] = (key[1:] != key[:-1]).any(axis=1)
    class_of = np.cumsum(new_class) - 1
    members = np.bincount(class_of) if len(order) else np.zeros(0, np.int64)
    keep = members[class_of] > 1
    rows, new_class = order[keep], new_class[keep]
    starts = np.flatnonzero(new_class)  # each group's reference row
    group_size = np.diff(np.append(starts, len(rows)))
    group_bytes = files.sizes[rows[starts]] * (group_size - 1)
    # largest first, then by the reference's path; in a group the reference, then the
    # others in path order, as the similar search lists copies
    number = np.empty(len(starts), np.int64)
    number[np.lexsort((path_rank[rows[starts]], -group_bytes))] = np.arange(len(starts))
    group = number[np.cumsum(new_class) - 1] if len(rows) else np.zeros(0, np.int64)
    rows = rows[np.lexsort((path_rank[rows], ~new_class, group))]
    start = np.zeros(len(starts) + 1, np.int64)
    by_number = np.empty(len(starts), np.int64)
    by_number[number] = group_size
    start[1:] = np.cumsum(by_number)
    bytes_by_number = np.empty(len(starts), np.int64)
    bytes_by_number[number] = group_bytes
    m = len(rows)
    return GroupTable(files, original, start, rows.astype(np.int64), np.zeros(m),
                      np.zeros(m, np.int64), np.ones(m, bool), np.full(m, 100.0),
                      bytes_by_number, np.full(m, -1, np.int64))


def one_path_per_file(files: StoredFiles, in_ref: np.ndarray):
    """Keep one path per (device, inode).

    The store may know one file under two paths (scanned once through a
    symlinked folder and once directly, or through a bind mount).  Such a
    "copy" is the file itself: grouping it would invite deleting the only copy.
    The path kept is in a reference folder (``in_ref``) if one is, else the shortest.
    Returns the files kept and their indices in ``files``.  (Here, not in ``analysis``,
    so that the groups of copies alone load no kernel; the similar search uses it too.)
    """
    n = len(files)
    lengths = np.fromiter((len(p) for p in files.paths), np.int64, n)
    order = np.lexsort((np.arange(n), lengths, ~in_ref, files.inodes, files.devices))
    first = np.ones(n, bool)
    if n > 1:
        first[1:] = ((files.devices[order][1:] != files.devices[order][:-1])
                     | (files.inodes[order][1:] != files.inodes[order][:-1]))
    keep = np.sort(order[first])
    if len(keep) == n:
        return files, np.arange(n)
    return files.take(keep), keep
