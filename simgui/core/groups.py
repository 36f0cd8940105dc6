"""Groups of identical or similar files, as the user reviews and acts on them."""

from __future__ import annotations

from dataclasses import dataclass


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
