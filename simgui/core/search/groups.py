"""Groups of identical or similar files, as the user reviews and acts on them.

Built by :mod:`simgui.core.search.analysis`; :class:`GroupTable` holds them as columns so a
view of 100,000 files needs no object per file, and :class:`Group` is one group as
objects, which the safe file operations take.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from simgui.core.store import StoredFiles

if TYPE_CHECKING:
    import numpy as np
# numpy is imported in GroupTable's methods (by then it is loaded): the clean-up takes
# Member and Group from here, and 'simgui undo' must start without numpy


@dataclass(frozen=True)
class Member:
    """One file of a group, with how it compares to the group's reference."""

    index: int  # row in the StoredFiles the group was built from
    path: str
    size: int
    mtime_ns: int
    device: int
    inode: int
    content_hash: bytes
    identical: bool  # same content as the reference (sum tables and content hash equal)
    key_distance: float  # |key - key of reference|
    sum_distance: int  # L1 distance of sum tables to the reference
    similarity: float  # percent: 100 for identical, lower the more the tables differ
    #: the member this file is an identical copy of, when both are only similar to the
    #: reference (copies of the reference are ``identical`` instead); "" if none
    copy_of: str = ""


@dataclass(frozen=True)
class Group:
    """A reference file and the files within tolerance of it (a file is in one group at most)."""

    id: int
    reference: Member  # key_distance = sum_distance = 0, similarity 100
    members: tuple[Member, ...]  # the others, most similar first

    @property
    def files(self) -> tuple[Member, ...]:
        return (self.reference, *self.members)

    @property
    def all_identical(self) -> bool:
        return all(m.identical for m in self.members)

    @property
    def size(self) -> int:
        """Bytes in the group's files other than the reference."""
        return sum(m.size for m in self.members)


@dataclass(frozen=True)
class GroupTable:
    """Every group as columns: group g's files are ``rows[start[g]:start[g+1]]``,
    its reference first, then its members most similar first."""

    files: StoredFiles  # one path per file; rows index into it
    original_index: np.ndarray  # int64: row of each of ``files`` in the StoredFiles given
    start: np.ndarray  # int64 (g+1,)
    rows: np.ndarray  # int64: file of each row
    key_distance: np.ndarray  # float64 per row: |key - key of the reference|, without extension
    sum_distance: np.ndarray  # int64 per row
    identical: np.ndarray  # bool per row (True for references)
    similarity: np.ndarray  # float64 per row, percent
    group_bytes: np.ndarray  # int64 (g,): bytes of each group's files besides the reference
    #: int64 per row: the row of the first of the group's members this file is an identical
    #: copy of (members identical to each other but only similar to the reference follow
    #: each other, the first of them -1), or -1
    copy_of: np.ndarray

    @cached_property
    def copies(self) -> np.ndarray:
        """int64 per row: how many files a set of copies among the members holds, on its
        first file's row and the others'; 0 for a file in no such set."""
        import numpy as np

        first = np.where(self.copy_of >= 0, self.copy_of, np.arange(len(self.copy_of)))
        count = np.bincount(first, minlength=len(self.copy_of))
        return np.where(count[first] > 1, count[first], 0)

    def copy_of_path(self, row: int) -> str:
        """The path of the member the file of ``row`` is a copy of (see ``copy_of``), or ""."""
        first = int(self.copy_of[row])
        return self.files.paths[int(self.rows[first])] if first >= 0 else ""

    def __len__(self) -> int:
        return len(self.start) - 1

    @cached_property
    def group_of_row(self) -> np.ndarray:
        import numpy as np

        return np.repeat(np.arange(len(self)), np.diff(self.start))

    def member(self, row: int) -> Member:
        f = int(self.rows[row])
        files = self.files
        return Member(int(self.original_index[f]), files.paths[f], int(files.sizes[f]),
                      int(files.mtimes_ns[f]), int(files.devices[f]), int(files.inodes[f]),
                      files.hashes[f], bool(self.identical[row]), float(self.key_distance[row]),
                      int(self.sum_distance[row]), float(self.similarity[row]),
                      self.copy_of_path(row))

    def group(self, g: int) -> Group:
        """Group ``g`` (0-based) as objects; its id is g + 1."""
        lo, hi = int(self.start[g]), int(self.start[g + 1])
        return Group(g + 1, self.member(lo), tuple(self.member(r) for r in range(lo + 1, hi)))

    def groups(self) -> list[Group]:
        """Every group as objects (what :meth:`group` gives, for all of them): the
        columns are taken as Python values once, not a numpy scalar per field, which was
        most of the time of ``simgui groups`` after the search on /usr."""
        rows = self.rows.tolist()
        files = self.files
        index = self.original_index.tolist()
        sizes, mtimes = files.sizes.tolist(), files.mtimes_ns.tolist()
        devices, inodes = files.devices.tolist(), files.inodes.tolist()
        paths, hashes = files.paths, files.hashes
        identical, key_distance = self.identical.tolist(), self.key_distance.tolist()
        sum_distance, similarity = self.sum_distance.tolist(), self.similarity.tolist()
        copy_of = self.copy_of.tolist()
        members = [Member(index[f], paths[f], sizes[f], mtimes[f], devices[f], inodes[f],
                          hashes[f], identical[r], key_distance[r], sum_distance[r],
                          similarity[r], paths[rows[copy_of[r]]] if copy_of[r] >= 0 else "")
                   for r, f in enumerate(rows)]
        start = self.start.tolist()
        return [Group(g + 1, members[start[g]], tuple(members[start[g] + 1:start[g + 1]]))
                for g in range(len(start) - 1)]
