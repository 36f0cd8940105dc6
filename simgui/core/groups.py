"""Groups of identical or similar files, as the user reviews and acts on them."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from simgui.core.keys import SKEW, KeyScheme
from simgui.core.simfind import (
    DEFAULT_MIN_SIMILAR_SIZE, DEFAULT_SIZE_FACTOR, SearchSpace, Tolerances,
    identity_and_similarity,
)


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


# -- building groups from the store -------------------------------------------------


def _in_folders(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def find_groups(files, tolerances: Tolerances = Tolerances(), *, scheme: KeyScheme = SKEW,
                use_extensions: bool = True, size_factor: float = DEFAULT_SIZE_FACTOR,
                overrides: Mapping[str, Tolerances] | None = None,
                references: Sequence[str] = (),
                min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE) -> list[Group]:
    """Groups of identical and similar files among ``files`` (a StoredFiles).

    Files with equal size, sum table and content hash are one class and always
    one group's core, whatever their extensions.  Classes are taken in order of their best file (in a
    reference folder first, then oldest, then shortest path); each unclaimed
    class with unclaimed similar classes becomes a group whose reference is
    that best file, and everything in it is within tolerance of the reference.
    Largest groups (by bytes besides the reference) come first.
    """
    if len(files) == 0:
        return []
    references = [os.path.abspath(r) for r in references]
    files, original_index = _one_path_per_file(files, references)
    n = len(files)
    hashes = np.frombuffer(b"".join(h if h else bytes(16) for h in files.hashes),
                           dtype=np.int64).reshape(n, 2)
    space = SearchSpace.build(files.sizes, files.tables, scheme=scheme,
                              extensions=files.extensions if use_extensions else None,
                              size_factor=size_factor, class_extra=hashes,
                              min_similar_size=min_similar_size,
                              classes_by_extension=False)  # copies are copies, whatever the name
    classes = space.classes
    pairs = space.class_pairs(tolerances, overrides)

    # neighbours of each class, both directions, as CSR
    ca, cb = classes.of_file[pairs[:, 0]], classes.of_file[pairs[:, 1]]
    src = np.concatenate([ca, cb])
    dst = np.concatenate([cb, ca])
    by_src = np.argsort(src, kind="stable")
    dst = dst[by_src]
    starts = np.searchsorted(src[by_src], np.arange(len(classes.first) + 1))

    in_reference = np.array([_in_folders(p, references) for p in files.paths], dtype=bool) \
        if references else np.zeros(n, dtype=bool)
    path_len = np.fromiter((len(p) for p in files.paths), np.int64, n)
    priority = np.lexsort((np.arange(n), path_len, files.mtimes_ns, ~in_reference))
    rank = np.empty(n, np.int64)
    rank[priority] = np.arange(n)

    claimed = np.zeros(len(classes.first), dtype=bool)
    groups: list[Group] = []
    for best in priority:
        c = classes.of_file[best]
        if claimed[c]:
            continue
        claimed[c] = True
        own = classes.members[classes.members_start[c]:classes.members_start[c + 1]]
        near = [d for d in dst[starts[c]:starts[c + 1]] if not claimed[d]]
        for d in near:
            claimed[d] = True
        if len(own) == 1 and not near:
            continue
        others = [m for m in own if m != best]
        for d in near:
            others.extend(classes.members[classes.members_start[d]:classes.members_start[d + 1]])
        others = np.array(others, dtype=np.int64)
        groups.append(_group(files, space, best, others, original_index))
    groups.sort(key=lambda g: (-g.size, g.reference.path))
    return [Group(i + 1, g.reference, g.members) for i, g in enumerate(groups)]


def _one_path_per_file(files, references):
    """Keep one path per (device, inode).

    The store may know one file under two paths (scanned once through a
    symlinked folder and once directly, or through a bind mount).  Such a
    "copy" is the file itself: grouping it would invite deleting the only copy.
    The path kept is in a reference folder if one is, else the shortest.
    """
    n = len(files)
    ident = np.stack([files.devices, files.inodes], axis=1)
    in_ref = np.array([_in_folders(p, references) for p in files.paths], bool) if references \
        else np.zeros(n, bool)
    lengths = np.fromiter((len(p) for p in files.paths), np.int64, n)
    order = np.lexsort((np.arange(n), lengths, ~in_ref, ident[:, 1], ident[:, 0]))
    first = np.ones(n, bool)
    first[1:] = (ident[order][1:] != ident[order][:-1]).any(axis=1)
    keep = np.sort(order[first])
    if len(keep) == n:
        return files, np.arange(n)
    pick = lambda seq: [seq[i] for i in keep]  # noqa: E731
    return dataclasses.replace(
        files, ids=files.ids[keep], paths=pick(files.paths), sizes=files.sizes[keep],
        mtimes_ns=files.mtimes_ns[keep], devices=files.devices[keep], inodes=files.inodes[keep],
        tables=files.tables[keep], hashes=pick(files.hashes),
        extensions=pick(files.extensions)), keep


def _group(files, space: SearchSpace, ref: int, others: np.ndarray,
           original_index: np.ndarray) -> Group:
    key_distance = np.abs(space.keys[others] - space.keys[ref])
    sum_distance = np.abs(space.tables[others] - space.tables[ref]).sum(axis=1)
    identical, similarity = identity_and_similarity(
        sum_distance, files.sizes[others], files.sizes[ref],
        [files.hashes[o] == files.hashes[ref] for o in others])
    order = np.lexsort((np.array([files.paths[o] for o in others]), sum_distance, ~identical))

    def member(i: int, ident: bool, kd: float, sd: int, sim: float) -> Member:
        return Member(int(original_index[i]), files.paths[i], int(files.sizes[i]),
                      int(files.mtimes_ns[i]),
                      int(files.devices[i]), int(files.inodes[i]), files.hashes[i], ident,
                      float(kd), int(sd), float(sim))

    reference = member(ref, True, 0.0, 0, 100.0)
    members = tuple(member(others[k], bool(identical[k]), key_distance[k], sum_distance[k],
                           similarity[k]) for k in order)
    return Group(0, reference, members)
