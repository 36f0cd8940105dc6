"""Similar folders: file groups lifted to folders (backups of backups, found whole).

Every folder stands for its whole subtree.  Two files *match* when they are in the
same file group (:class:`~simgui.core.search.groups.GroupTable`): *identical* when their
contents are equal (same size and content hash), else *similar*.  For folders A and B:

- ``a_in_b``: the share of A's bytes that is in B (and ``b_in_a`` the other way):
  Broder's containment, by bytes.  A file with an identical copy in B counts whole; one
  with only similar files there counts at its similarity to the most similar of them
  (the share of content they have in common, measured through the group's reference:
  the lower of the two files' similarities to it), so 100 % means every file of A has
  an identical copy in B;
- ``similarity``: the same share of A's and B's bytes together: their resemblance,
  between ``a_in_b`` and ``b_in_a``.

A folder inside the other (B within A: a folder copied into its own subfolder) is a
real pair, scored as "A without B" against B, never as containing itself; A is
compared with folders inside it only when it has files of its own (else its
subfolders are compared with each other).  Only *top-most* pairs are listed: when A
and B are alike and so are their parents, the pair is folded under the parents' pair
(its ``children``); a pair beaten by a neighbour (one side moved up one folder and
as alike, or moved down one folder, more alike and still holding every match of the
other side) is left out.  A folder holding nothing but one subfolder is the same set
of files as that subfolder and is never a side.

Candidates come from rare content first, then every candidate is scored exactly:
a folder whose files are ``min_similarity`` % inside another must share one of its
rarest file groups with it (a prefix filter, as in set-similarity joins).  Groups in
more than ``max_folders`` folders (a LICENSE in thousands of folders) and empty files
make no candidates: a pair is found when it is ``min_similarity`` % alike without
them, and then scored with them.  A file known under two paths
is one file: the table holds one path per file, so a folder reached through a link
never pairs with itself.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numba import njit, prange

from simgui.core.progress import Progress, ProgressCallback, report
from simgui.core.search.groups import GroupTable
from simgui.core.search.tolerances import DEFAULT_MIN_FOLDER_SIMILARITY

#: Default smallest similarity (percent) of a listed pair.
DEFAULT_MIN_SIMILARITY = DEFAULT_MIN_FOLDER_SIMILARITY
#: Default: a file group found in more folders makes no candidates.
DEFAULT_MAX_FOLDERS = 256
#: A file's share of its match, in hundredths of a percent: whole (an identical copy)
SHARE_WHOLE = 10_000


@dataclass(frozen=True)
class FolderPair:
    """Two alike folders and their figures (percentages 0-100).

    ``a`` is the outer folder of a nested pair (its figures then leave ``b`` out);
    otherwise the pair is oriented so that ``b`` is the more contained one.
    The counts cover both sides: files_a + files_b = identical + similar + only_a +
    only_b, where identical (similar) counts the files of either side with an
    identical (only a similar) file in the other."""

    a: str
    b: str
    similarity: float
    a_in_b: float
    b_in_a: float
    files_a: int
    files_b: int
    identical: int
    similar: int
    only_a: int
    only_b: int
    bytes_a: int
    bytes_b: int
    matched_bytes_a: int  # bytes of a's files with a match in b
    matched_bytes_b: int
    identical_bytes_a: int  # bytes of a's files with an identical copy in b
    identical_bytes_b: int
    nested: bool = False  # b is inside a
    children: tuple[FolderPair, ...] = field(default=(), compare=False)

    @property
    def bytes_to_free(self) -> int:
        """The matched bytes of the side with more of them: what removing it would free."""
        return max(self.matched_bytes_a, self.matched_bytes_b)

    def row(self) -> dict:
        """The CSV/JSON row (percentages rounded to 2 places)."""
        return {"folder_a": self.a, "folder_b": self.b,
                "similarity": round(self.similarity, 2), "a_in_b": round(self.a_in_b, 2),
                "b_in_a": round(self.b_in_a, 2), "files_a": self.files_a,
                "files_b": self.files_b, "identical": self.identical,
                "similar": self.similar, "only_a": self.only_a, "only_b": self.only_b,
                "bytes_a": self.bytes_a, "bytes_b": self.bytes_b}


FIELDS = ["folder_a", "folder_b", "similarity", "a_in_b", "b_in_a", "files_a", "files_b",
          "identical", "similar", "only_a", "only_b", "bytes_a", "bytes_b"]


@dataclass(frozen=True)
class FileStatus:
    """One file of a two-folder comparison."""

    side: str  # "a" or "b"
    path: str
    relative: str  # path below its folder
    size: int
    status: str  # "identical", "similar" or "only"
    match: str = ""  # a file of the other folder it matches (an identical one first)
    similarity: float = 0.0  # percent; 100 for identical
    file: int = -1  # its row in the table's files


def _split(path: str) -> str:
    """The folder of an absolute path (os.path.dirname, five times faster)."""
    return path.rpartition("/")[0] or "/"


class FolderIndex:
    """Each folder's subtree as sorted (group, content) entries, built once per table."""

    def __init__(self, table: GroupTable):
        self.table = table
        files = table.files
        n = len(files)
        self.n_files = n
        # -- the folder tree
        dir_of_path = [p.rpartition("/")[0] or "/" for p in files.paths]
        ids: dict[str, int] = {}
        names: list[str] = []
        parent: list[int] = []
        for d in dict.fromkeys(dir_of_path):
            chain = []
            while d not in ids:
                chain.append(d)
                up = _split(d)
                if up == d:
                    break
                d = up
            for c in reversed(chain):
                up = _split(c)
                ids[c] = len(names)
                names.append(c)
                parent.append(ids[up] if up != c and up in ids else -1)
        self.names = names
        self.ids = ids
        self.parent = np.asarray(parent, np.int64)
        nf = len(names)
        depth = np.zeros(nf, np.int64)
        for f in range(nf):  # parents come before children
            p = parent[f]
            depth[f] = depth[p] + 1 if p >= 0 else 0
        self.depth = depth
        self.file_folder = np.fromiter((ids[d] for d in dir_of_path), np.int64, n)
        # -- classes: a file group, else the file's own content
        hashes = np.frombuffer(b"".join(h if len(h) == 16 else bytes(16) for h in files.hashes),
                               np.int64).reshape(n, 2) if n else np.zeros((0, 2), np.int64)
        no_hash = np.fromiter((len(h) != 16 for h in files.hashes), bool, n)
        sizes = files.sizes.astype(np.int64)
        order = np.lexsort((np.arange(n), hashes[:, 1], hashes[:, 0], sizes))
        new = np.ones(n, bool)
        if n > 1:
            s, h = sizes[order], hashes[order]
            new[1:] = (s[1:] != s[:-1]) | (h[1:] != h[:-1]).any(axis=1)
        new |= no_hash[order]  # a file without a hash is a copy of nothing
        content = np.empty(n, np.int64)
        content[order] = np.cumsum(new) - 1
        n_groups = len(table)
        group = np.full(n, -1, np.int64)
        group[table.rows] = table.group_of_row
        cls = np.where(group >= 0, group, n_groups + content)
        _, cls = np.unique(cls, return_inverse=True)
        # contents numbered in class order, so sorting by content sorts by class
        first_cls = np.zeros(int(content.max()) + 1 if n else 0, np.int64)
        first_cls[content] = cls
        renum = np.empty(len(first_cls), np.int64)
        renum[np.lexsort((np.arange(len(first_cls)), first_cls))] = np.arange(len(first_cls))
        content = renum[content]
        self.file_class = cls.astype(np.int64)
        self.file_content = content
        self.sizes = sizes
        # table row of each file (for similarity to the group's reference)
        row_of_file = np.full(n, -1, np.int64)
        row_of_file[table.rows] = np.arange(len(table.rows))
        self.row_of_file = row_of_file
        #: each content's similarity to its group's reference, in hundredths of a percent
        #: (whole: a file in no group)
        share = np.full(len(first_cls), SHARE_WHOLE, np.int64)
        grouped = row_of_file >= 0
        sim = table.similarity[row_of_file[grouped]]
        # (never whole for a file that is not an identical copy: 99.996 % is not 100)
        part = np.minimum(np.floor(np.clip(np.nan_to_num(sim), 0, 100) * 100 + 1e-6),
                          np.where(sim < 100, SHARE_WHOLE - 1, SHARE_WHOLE))
        # (unknown, a store without fingerprints searched with no check: just under whole,
        # as a similar file is never an identical copy)
        share[content[grouped]] = np.where(np.isnan(sim), SHARE_WHOLE - 1, part).astype(np.int64)
        self.content_share = share
        # -- subtree entries: (folder, content) with count and bytes
        anc = self.ancestors
        self._build_entries(anc)

    @cached_property
    def ancestors(self) -> np.ndarray:
        """(folders, max depth + 1): each folder then its ancestors, -1 padded."""
        nf = len(self.names)
        width = int(self.depth.max()) + 1 if nf else 1
        anc = np.full((nf, width), -1, np.int64)
        anc[:, 0] = np.arange(nf)
        for k in range(1, width):
            prev = anc[:, k - 1]
            anc[:, k] = np.where(prev >= 0, self.parent[np.maximum(prev, 0)], -1)
            anc[prev < 0, k] = -1
        return anc

    def _build_entries(self, anc: np.ndarray) -> None:
        n_content = int(self.file_content.max()) + 1 if self.n_files else 1
        # per direct folder and content first (few rows), then lifted to ancestors
        key = self.file_folder * n_content + self.file_content
        ukey, inverse = np.unique(key, return_inverse=True)
        count = np.bincount(inverse).astype(np.int64)
        nbytes = np.bincount(inverse, weights=self.sizes).astype(np.int64)
        folder, content = ukey // n_content, ukey % n_content
        nf = len(self.names)
        self.start, self.e_content, self.e_count, self.e_bytes = _lift_entries(
            folder, content, count, nbytes, anc, self.depth, nf)
        e_folder = np.repeat(np.arange(nf), np.diff(self.start))
        content_class = np.zeros(n_content, np.int64)
        content_class[self.file_content] = self.file_class
        self.content_class = content_class
        self.e_class = content_class[self.e_content]
        self.folder_files = np.bincount(e_folder, weights=self.e_count,
                                        minlength=nf).astype(np.int64)
        self.folder_bytes = np.bincount(e_folder, weights=self.e_bytes,
                                        minlength=nf).astype(np.int64)
        # direct rows, for candidates
        self.d_folder, self.d_class = folder, content_class[content]
        self.d_bytes = nbytes
        n_children = np.bincount(self.parent[self.parent >= 0], minlength=nf)
        direct_files = np.bincount(self.file_folder, minlength=nf)
        #: folders with files of their own: the only ones compared with a folder inside them
        self.has_files = direct_files > 0
        #: a folder holding only one subfolder is that subfolder's files: never a side
        self.side = ~((direct_files == 0) & (n_children == 1))
        #: each folder's nearest parent that is a side, or -1
        up = self.parent.copy()
        for _ in range(int(self.depth.max()) + 1 if nf else 0):
            step = (up >= 0) & ~self.side[np.maximum(up, 0)]
            if not step.any():
                break
            up[step] = self.parent[up[step]]
        self.side_parent = up

    def folder_id(self, path: str) -> int:
        path = os.path.abspath(path) if path else path
        if path not in self.ids:
            raise KeyError(path)
        return self.ids[path]

    def is_inside(self, inner: int, outer: int) -> bool:
        """Is folder ``inner`` inside ``outer`` (or ``outer`` itself)?"""
        d, di = int(self.depth[outer]), int(self.depth[inner])
        return di >= d and int(self.ancestors[inner, di - d]) == outer

    # -- candidates -------------------------------------------------------------

    def candidates(self, min_similarity: float, max_folders: int | None) -> np.ndarray:
        """(k, 2) folder pairs that may reach ``min_similarity``: every pair that does
        once the files of groups in more than ``max_folders`` folders are left out (then
        every pair that does)."""
        nf = len(self.names)
        d_folder, d_class, d_bytes = self.d_folder, self.d_class, self.d_bytes
        if len(d_folder) == 0:
            return np.zeros((0, 2), np.int64)
        # one row per (direct folder, class)
        n_cls = int(self.file_class.max()) + 1
        k = d_folder * n_cls + d_class
        uk, inv = np.unique(k, return_inverse=True)
        w = np.bincount(inv, weights=d_bytes).astype(np.int64)
        f, c = uk // n_cls, uk % n_cls
        n_dirs = np.bincount(c, minlength=n_cls)
        eligible = (n_dirs[c] >= 2) & (w > 0)
        if max_folders is not None:
            eligible &= n_dirs[c] <= max_folders
        # per folder, eligible classes rarest first; keep the prefix after which less than
        # min_similarity of the folder's bytes (but for those of groups that make no
        # candidates) remains
        common = n_dirs[c] >= 2
        if max_folders is not None:
            common &= n_dirs[c] > max_folders
        direct_bytes = np.bincount(f, weights=np.where(common, 0, w), minlength=nf)
        f, c, w = f[eligible], c[eligible], w[eligible]
        order = np.lexsort((c, n_dirs[c], f))
        f, c, w = f[order], c[order], w[order]
        # weight from each row to the end of all rows (0 past the end)
        rev = np.append(np.cumsum(w[::-1])[::-1], 0)
        fend = np.searchsorted(f, np.arange(nf), side="right")
        remaining = rev[:-1] - rev[fend[f]]  # weight of this row and the folder's later rows
        keep = remaining >= (min_similarity / 100.0) * direct_bytes[f]
        f, c = f[keep], c[keep]
        # posting lists: class -> direct folders
        post_order = np.lexsort((uk // n_cls, uk % n_cls))
        p_class = (uk % n_cls)[post_order]
        p_folder = (uk // n_cls)[post_order]
        ok = np.isin(p_class, c)
        p_class, p_folder = p_class[ok], p_folder[ok]
        p_start = np.searchsorted(p_class, np.arange(n_cls + 1))
        counts = p_start[c + 1] - p_start[c]
        first = np.repeat(f, counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        second = p_folder[np.repeat(p_start[c], counts) + offsets]
        keep = first != second
        lo = np.minimum(first[keep], second[keep])
        hi = np.maximum(first[keep], second[keep])
        direct = _unique(lo * nf + hi)
        # an upper bound of each pair's similarity, checked as the pairs are made: a
        # side's matched bytes are at most its bytes in the groups of the other side
        # (all their bytes, anywhere) plus its bytes in groups that make no candidates
        g_bytes, u_bytes = self._bounds(n_dirs, max_folders)
        pairs = _lift(direct // nf, direct % nf, self.ancestors, self.depth, self.has_files,
                      self.side, self.folder_bytes.astype(np.float64), g_bytes, u_bytes,
                      float(min_similarity))
        if len(pairs) == 0:
            return pairs
        a, b = pairs[:, 0], pairs[:, 1]
        u = _unique(np.minimum(a, b) * nf + np.maximum(a, b))
        return np.stack([u // nf, u % nf], axis=1)

    def _bounds(self, n_dirs: np.ndarray, max_folders: int | None):
        """Per folder: the bytes, anywhere, of the groups it holds that make candidates,
        and its own bytes in the groups that make none."""
        cls = self.e_class
        class_bytes = np.bincount(self.file_class, weights=self.sizes,
                                  minlength=len(n_dirs))
        rare = n_dirs[cls] >= 2
        if max_folders is not None:
            rare &= n_dirs[cls] <= max_folders
        folder = np.repeat(np.arange(len(self.names)), np.diff(self.start))
        nf = len(self.names)
        g = np.bincount(folder, weights=np.where(rare, class_bytes[cls], 0), minlength=nf)
        u = np.bincount(folder, weights=np.where(rare | (n_dirs[cls] < 2), 0, self.e_bytes),
                        minlength=nf)
        return g, u

    # -- scores -------------------------------------------------------------------

    def score(self, pairs: np.ndarray) -> dict[str, np.ndarray]:
        """Exact figures of folder pairs (k, 2); a pair whose second folder is inside the
        first (or the other way) is scored as outer-without-inner against inner."""
        pairs = np.asarray(pairs, np.int64).reshape(-1, 2)
        a, b = pairs[:, 0].copy(), pairs[:, 1].copy()
        # nested: outer first
        da, db = self.depth[a], self.depth[b]
        anc = self.ancestors
        b_in = (db > da) & (anc[b, np.maximum(db - da, 0)] == a)
        swap = (da > db) & (anc[a, np.maximum(da - db, 0)] == b)
        nested = b_in | swap
        a, b = np.where(swap, b, a), np.where(swap, a, b)
        out = np.zeros((len(a), 14), np.int64)
        _score_pairs(a, b, nested, self.start, self.e_class, self.e_content, self.e_count,
                     self.e_bytes, self.content_share, out)
        return {"a": a, "b": b, "nested": nested, "files_a": out[:, 0], "files_b": out[:, 1],
                "bytes_a": out[:, 2], "bytes_b": out[:, 3],
                "ident_files_a": out[:, 4], "ident_bytes_a": out[:, 5],
                "match_files_a": out[:, 6], "match_bytes_a": out[:, 7],
                "ident_files_b": out[:, 8], "ident_bytes_b": out[:, 9],
                "match_files_b": out[:, 10], "match_bytes_b": out[:, 11],
                # matched bytes weighed by their shares, times SHARE_WHOLE
                "shared_a": out[:, 12], "shared_b": out[:, 13]}

    def pairs(self, min_similarity: float = DEFAULT_MIN_SIMILARITY,
              max_folders: int | None = DEFAULT_MAX_FOLDERS,
              progress: ProgressCallback | None = None) -> list[FolderPair]:
        """The top-most pairs at least ``min_similarity`` % alike, most bytes to free
        first; pairs folded under them in their ``children``."""
        report(progress, Progress("folders: candidates"))
        cand = self.candidates(min_similarity, max_folders)
        report(progress, Progress("folders: scoring", files_total=len(cand)))
        scores = self.score(cand)
        listed = _similarity(scores) >= min_similarity
        listed &= scores["match_bytes_a"] + scores["match_bytes_b"] > 0
        listed &= ~self._dominated(scores, listed)
        # hundreds of thousands of small objects, none of them cyclic: the collector's
        # full passes over every object alive (a million paths) would double the time
        collecting = gc.isenabled()
        gc.disable()
        try:
            return fold(self.make_pairs(scores, listed), self)
        finally:
            if collecting:
                gc.enable()

    def _dominated(self, s: dict[str, np.ndarray], listed: np.ndarray) -> np.ndarray:
        """Listed pairs beaten by a neighbour: a listed pair with one side moved up to its
        parent and at least as alike ((x/proj, y/proj/src) beside (x/proj, y/proj)), or
        with one side moved down to a child, more alike, and with every match of the
        other side still in it ((usb, Documents) beside (usb/Backup/Documents,
        Documents)).  Such a pair says less than its neighbour, and only because of it;
        pairs of parents and of their children are no neighbours (those fold)."""
        nf = max(len(self.names), 1)
        a, b = s["a"], s["b"]
        sim = _similarity(s)
        keys = np.minimum(a, b) * nf + np.maximum(a, b)
        at_listed = np.flatnonzero(listed)
        order = np.argsort(keys[at_listed])
        table_keys, table_at = keys[at_listed][order], at_listed[order]
        worse = np.zeros(len(a), bool)
        if not len(table_keys):
            return worse
        up = self.side_parent
        # (what a side holds of the other, weighed as the figures are: a child that holds
        # only a similar version of what the parent holds identically holds less)
        ma, mb = s["shared_a"], s["shared_b"]
        for x, y, stay, m_stay in ((up[a], b, b, mb), (a, up[b], a, ma)):
            k = np.minimum(x, y) * nf + np.maximum(x, y)
            at = np.minimum(np.searchsorted(table_keys, k), len(table_keys) - 1)
            found = listed & (x >= 0) & (x != y) & (table_keys[at] == k)
            other = table_at[at]
            worse |= found & (sim[other] >= sim)  # the pair above is as alike: this one goes
            # this one is more alike, and the folder that stays has all its matches in the
            # child: the pair above says less (the rest of its folder only adds bytes)
            m_other = np.where(a[other] == stay, ma[other], mb[other])
            beaten = found & (sim[other] < sim) & (m_other == m_stay)
            worse[other[beaten]] = True
        return worse & listed

    def make_pairs(self, s: dict[str, np.ndarray], keep: np.ndarray) -> list[FolderPair]:
        """The pairs of scores ``s`` where ``keep``, as objects."""
        ba, bb = s["bytes_a"], s["bytes_b"]
        sim = _similarity(s)
        with np.errstate(invalid="ignore", divide="ignore"):
            a_in_b = np.where(ba > 0, s["shared_a"] / (np.maximum(ba, 1) * _PER_PERCENT), 0.0)
            b_in_a = np.where(bb > 0, s["shared_b"] / (np.maximum(bb, 1) * _PER_PERCENT), 0.0)
        keep = np.flatnonzero(keep)
        col = {k: v[keep].tolist() for k, v in s.items()}
        sim, a_in_b, b_in_a = sim[keep].tolist(), a_in_b[keep].tolist(), b_in_a[keep].tolist()
        names = self.names
        result = []
        for i in range(len(keep)):
            a, b, nested = col["a"][i], col["b"][i], col["nested"][i]
            fa, fb = col["files_a"][i], col["files_b"][i]
            ia, ib = col["ident_files_a"][i], col["ident_files_b"][i]
            sa, sb = col["match_files_a"][i] - ia, col["match_files_b"][i] - ib
            if nested or a_in_b[i] < b_in_a[i] or (a_in_b[i] == b_in_a[i]
                                                   and names[a] <= names[b]):
                result.append(FolderPair(
                    names[a], names[b], sim[i], a_in_b[i], b_in_a[i], fa, fb, ia + ib,
                    sa + sb, fa - ia - sa, fb - ib - sb, col["bytes_a"][i], col["bytes_b"][i],
                    col["match_bytes_a"][i], col["match_bytes_b"][i],
                    col["ident_bytes_a"][i], col["ident_bytes_b"][i], nested))
            else:  # b the more contained
                result.append(FolderPair(
                    names[b], names[a], sim[i], b_in_a[i], a_in_b[i], fb, fa, ia + ib,
                    sa + sb, fb - ib - sb, fa - ia - sa, col["bytes_b"][i], col["bytes_a"][i],
                    col["match_bytes_b"][i], col["match_bytes_a"][i],
                    col["ident_bytes_b"][i], col["ident_bytes_a"][i], False))
        return result

    def compare(self, a: str, b: str) -> FolderPair:
        """The figures of two folders, whatever they are (KeyError: a folder with no
        scanned file)."""
        x, y = self.folder_id(a), self.folder_id(b)
        if x == y:
            raise ValueError("a folder compared with itself")
        return self.make_pairs(self.score(np.array([[x, y]])), np.ones(1, bool))[0]

    # -- one pair's files ---------------------------------------------------------------

    def files_under(self, folder: int, leave_out: int = -1) -> np.ndarray:
        """Files in ``folder``'s subtree (not in ``leave_out``'s), by path."""
        d = int(self.depth[folder])
        ff = self.file_folder
        deep = self.depth[ff] >= d
        idx = np.flatnonzero(deep)
        inside = self.ancestors[ff[idx], self.depth[ff[idx]] - d] == folder
        idx = idx[inside]
        if leave_out >= 0:
            d2 = int(self.depth[leave_out])
            deep = self.depth[ff[idx]] >= d2
            sub = np.zeros(len(idx), bool)
            sub[deep] = self.ancestors[ff[idx[deep]], self.depth[ff[idx[deep]]] - d2] == leave_out
            idx = idx[~sub]
        paths = self.table.files.paths
        return np.array(sorted(idx.tolist(), key=lambda i: paths[i]), np.int64)

    def _file_similarity(self, f: int, g: int) -> float:
        """Two files of one group: their similarity via the group's reference (a
        reference's own similarity is 100, so the other file's figure when one is it;
        else the lower of the two)."""
        if self.file_content[f] == self.file_content[g]:
            return 100.0
        sim = self.table.similarity
        rf, rg = self.row_of_file[f], self.row_of_file[g]
        if rf < 0 or rg < 0:
            return 0.0
        return float(min(sim[rf], sim[rg]))

    def diff(self, a: str, b: str) -> list[FileStatus]:
        """Every file of folders ``a`` and ``b`` and its status in the other (a folder
        inside the other is compared without it)."""
        x, y = self.folder_id(a), self.folder_id(b)
        if x == y:
            raise ValueError("a folder compared with itself")
        fa = self.files_under(x, y if self.is_inside(y, x) else -1)
        fb = self.files_under(y, x if self.is_inside(x, y) else -1)
        return self._side("a", fa, fb, self.names[x]) + self._side("b", fb, fa, self.names[y])

    def _side(self, side: str, mine: np.ndarray, other: np.ndarray, root: str) -> list[FileStatus]:
        paths = self.table.files.paths
        by_content: dict[int, int] = {}
        by_class: dict[int, list[int]] = {}
        for g in other.tolist():
            by_content.setdefault(int(self.file_content[g]), g)
            by_class.setdefault(int(self.file_class[g]), []).append(g)
        out = []
        for f in mine.tolist():
            rel = os.path.relpath(paths[f], root)
            size = int(self.sizes[f])
            g = by_content.get(int(self.file_content[f]))
            if g is not None:
                out.append(FileStatus(side, paths[f], rel, size, "identical", paths[g], 100.0,
                                      f))
                continue
            near = by_class.get(int(self.file_class[f]))
            if near:
                best = max(near, key=lambda g: (self._file_similarity(f, g), -len(paths[g])))
                out.append(FileStatus(side, paths[f], rel, size, "similar", paths[best],
                                      self._file_similarity(f, best), f))
            else:
                out.append(FileStatus(side, paths[f], rel, size, "only", file=f))
        return out


def _unique(x: np.ndarray) -> np.ndarray:
    """np.unique of int64 keys by sorting (numpy 2's hashing unique takes 80 times as
    long on millions of spread-out keys)."""
    s = np.sort(x)
    keep = np.ones(len(s), bool)
    keep[1:] = s[1:] != s[:-1]
    return s[keep]


def swapped(p: FolderPair) -> FolderPair:
    """The same pair, a and b exchanged (never a nested pair: its a is the outer)."""
    return FolderPair(p.b, p.a, p.similarity, p.b_in_a, p.a_in_b, p.files_b, p.files_a,
                      p.identical, p.similar, p.only_b, p.only_a, p.bytes_b, p.bytes_a,
                      p.matched_bytes_b, p.matched_bytes_a, p.identical_bytes_b,
                      p.identical_bytes_a, p.nested, p.children)


_PER_PERCENT = SHARE_WHOLE / 100


def _similarity(s: dict[str, np.ndarray]) -> np.ndarray:
    """Resemblance in percent: the shared bytes of both sides over all their bytes."""
    total = s["bytes_a"] + s["bytes_b"]
    return np.where(total > 0, (s["shared_a"] + s["shared_b"])
                    / (np.maximum(total, 1) * _PER_PERCENT), 0.0)


def fold(pairs: list[FolderPair], index: FolderIndex) -> list[FolderPair]:
    """Top-most pairs, each with the pairs folded under it: (A, B) goes under the nearest
    listed pair (P, Q) with P holding A and Q holding B, the parents' pair first
    (x/photos and y/photos under x and y)."""
    nf = max(len(index.names), 1)
    up = index.side_parent
    ids = index.ids
    a = np.fromiter((ids[p.a] for p in pairs), np.int64, len(pairs))
    b = np.fromiter((ids[p.b] for p in pairs), np.int64, len(pairs))
    listed = _unique(np.minimum(a, b) * nf + np.maximum(a, b))

    def keys(x, y):
        return np.where((x >= 0) & (y >= 0) & (x != y), np.minimum(x, y) * nf + np.maximum(x, y),
                        -1)

    # the parents' pair, for all at once
    parent_key = keys(up[a], up[b])
    under = np.where(np.isin(parent_key, listed), parent_key, -1)
    listed_set = set(listed.tolist())
    lineage: dict[int, list[int]] = {}

    def chain(f: int) -> list[int]:
        if f not in lineage:
            g = int(up[f])
            lineage[f] = [f] if g < 0 else [f, *chain(g)]
        return lineage[f]

    for k in np.flatnonzero(under < 0).tolist():  # the nearest other listed pair
        ca, cb = chain(int(a[k])), chain(int(b[k]))
        best = None
        for i, x in enumerate(ca):
            for j, y in enumerate(cb):
                if i + j == 0 or x == y:
                    continue
                key = min(x, y) * nf + max(x, y)
                if key in listed_set and (best is None or (i + j, i) < best[:2]):
                    best = (i + j, i, key)
        if best is not None:
            under[k] = best[2]
    kids: dict[int, list[FolderPair]] = {}
    top = []
    for p, u in zip(pairs, under.tolist()):
        if u >= 0:
            kids.setdefault(u, []).append(p)
        else:
            top.append(p)

    def build(p: FolderPair) -> FolderPair:
        x, y = ids[p.a], ids[p.b]
        below = kids.get(min(x, y) * nf + max(x, y))
        if below:  # each folded pair oriented as its parent pair: its a inside p's a
            below = [swapped(c) if not c.nested and index.is_inside(ids[c.b], x)
                     and not index.is_inside(ids[c.a], x) else c for c in below]
            # (the pairs are this function's own, made by make_pairs: set in place, as
            # dataclasses.replace would, at a tenth of its cost)
            object.__setattr__(p, "children", tuple(sorted(map(build, below), key=_rank)))
        return p

    return sorted(map(build, top), key=_rank)


def _rank(p: FolderPair):
    return (-p.bytes_to_free, -p.similarity, p.a, p.b)


def find_similar_folders(table: GroupTable, min_similarity: float = DEFAULT_MIN_SIMILARITY, *,
                         max_folders: int | None = DEFAULT_MAX_FOLDERS,
                         progress: ProgressCallback | None = None) -> list[FolderPair]:
    """Top-most folder pairs of ``table``'s files at least ``min_similarity`` % alike."""
    return FolderIndex(table).pairs(min_similarity, max_folders, progress)


def walk(pairs: Iterable[FolderPair]) -> Iterable[FolderPair]:
    """Every pair and, after each, the pairs folded under it (depth first)."""
    for p in pairs:
        yield p
        yield from walk(p.children)


# -- kernels ----------------------------------------------------------------------


@njit(nogil=True, cache=True)
def _worth(a, b, outer, side, fb, g, u, s):
    """Can folders a and b (``outer``: 0, or 1 when b is inside a, 2 the other way)
    reach similarity ``s``?  Their bytes bound what matches (see candidates)."""
    if a == b or not side[a] or not side[b]:
        return False
    size_a, size_b = fb[a], fb[b]
    if outer == 1:
        size_a -= fb[b]
    elif outer == 2:
        size_b -= fb[a]
    total = size_a + size_b
    top = min(size_a, g[b] + u[a]) + min(size_b, g[a] + u[b])
    return total > 0 and top * 100.0 >= (s - 1e-9) * total


@njit(nogil=True, cache=True)
def _lift(lo, hi, anc, depth, has_files, side, fb, g, u, s):
    """Folder pairs above each pair of direct folders (x, y) that split them, and may
    reach similarity ``s``: A above x and B above y, both below their lowest common
    folder L; and the nested pairs: B above y below L with A any folder holding L that
    has files of its own (and the other way round).  Two passes: count, then fill."""
    total = 0
    out = np.empty((0, 2), np.int64)
    for fill in range(2):
        if fill:
            out = np.empty((total, 2), np.int64)
        t = 0
        for i in range(len(lo)):
            x, y = lo[i], hi[i]
            ax, ay = x, y
            while depth[ax] > depth[ay]:
                ax = anc[ax, 1]
            while depth[ay] > depth[ax]:
                ay = anc[ay, 1]
            while ax != ay and ax >= 0 and ay >= 0:
                ax, ay = anc[ax, 1], anc[ay, 1]
            common = ax if (ax >= 0 and ax == ay) else -1
            dl = depth[common] if common >= 0 else -1
            kx, ky = depth[x] - dl, depth[y] - dl
            for i1 in range(kx):
                for j1 in range(ky):
                    a, b = anc[x, i1], anc[y, j1]
                    if _worth(a, b, 0, side, fb, g, u, s):
                        if fill:
                            out[t, 0], out[t, 1] = a, b
                        t += 1
            for k in range(dl + 1):
                outer = anc[common, k]
                if not has_files[outer]:
                    continue
                for i1 in range(kx):
                    a = anc[x, i1]
                    if _worth(outer, a, 1, side, fb, g, u, s):
                        if fill:
                            out[t, 0], out[t, 1] = outer, a
                        t += 1
                for j1 in range(ky):
                    b = anc[y, j1]
                    if _worth(outer, b, 1, side, fb, g, u, s):
                        if fill:
                            out[t, 0], out[t, 1] = outer, b
                        t += 1
        total = t
    return out


@njit(nogil=True, cache=True)
def _lift_entries(folder, content, count, nbytes, anc, depth, nf):
    """Each folder's subtree entries from the direct (folder, content, count, bytes)
    rows: every row added to each folder above it, merged by content; (start per
    folder, content, count, bytes), sorted by folder then content."""
    size = np.zeros(nf + 1, np.int64)
    for r in range(len(folder)):
        f = folder[r]
        for k in range(depth[f] + 1):
            size[anc[f, k] + 1] += 1
    start = np.cumsum(size)
    fill = start[:-1].copy()
    total = start[-1]
    con = np.empty(total, np.int64)
    cnt = np.empty(total, np.int64)
    byt = np.empty(total, np.int64)
    for r in range(len(folder)):
        f = folder[r]
        for k in range(depth[f] + 1):
            a = anc[f, k]
            i = fill[a]
            con[i], cnt[i], byt[i] = content[r], count[r], nbytes[r]
            fill[a] = i + 1
    out_start = np.zeros(nf + 1, np.int64)
    w = 0
    for a in range(nf):
        lo, hi = start[a], start[a + 1]
        order = np.argsort(con[lo:hi]) + lo
        c_, n_, b_ = con[order], cnt[order], byt[order]  # copies: w <= lo, so no overlap
        first = w
        for j in range(hi - lo):
            if w > first and con[w - 1] == c_[j]:
                cnt[w - 1] += n_[j]
                byt[w - 1] += b_[j]
            else:
                con[w], cnt[w], byt[w] = c_[j], n_[j], b_[j]
                w += 1
        out_start[a + 1] = w
    return out_start, con[:w].copy(), cnt[:w].copy(), byt[:w].copy()


@njit(nogil=True, cache=True)
def _side_entries(a, b, nested, start, e_content, e_count, e_bytes, e_class):
    """Folder a's entries, less folder b's when b is inside a: (class, content, count, bytes)."""
    lo, hi = start[a], start[a + 1]
    m = hi - lo
    cls = np.empty(m, np.int64)
    con = np.empty(m, np.int64)
    cnt = np.empty(m, np.int64)
    byt = np.empty(m, np.int64)
    j, jhi = start[b], start[b + 1]
    k = 0
    for i in range(lo, hi):
        c, n, w = e_content[i], e_count[i], e_bytes[i]
        if nested:
            while j < jhi and e_content[j] < c:
                j += 1
            if j < jhi and e_content[j] == c:
                n -= e_count[j]
                w -= e_bytes[j]
        if n > 0:
            cls[k] = e_class[i]
            con[k] = c
            cnt[k] = n
            byt[k] = w
            k += 1
    return cls[:k], con[:k], cnt[:k], byt[:k]


@njit(nogil=True, cache=True)
def _match(x_cls, x_con, x_cnt, x_byt, y_cls, y_con, share, out):
    """Files and bytes of side x: all, with an identical file in y, with any match in y;
    then the matched bytes weighed by their shares (times SHARE_WHOLE): whole with an
    identical file in y, else the smaller of the file's share and the largest in y of
    its group (their similarity through the group's reference).  Entries are sorted by
    content, and contents are numbered in group order."""
    jc = 0
    ji = 0
    ny = len(y_cls)
    best_of = -1  # the group whose largest share in y is best
    best = 0
    for i in range(len(x_cls)):
        c, con = x_cls[i], x_con[i]
        while jc < ny and y_cls[jc] < c:
            jc += 1
        while ji < ny and y_con[ji] < con:
            ji += 1
        if ji < ny and y_con[ji] == con:
            out[2] += x_cnt[i]
            out[3] += x_byt[i]
            out[6] += x_byt[i] * SHARE_WHOLE
        elif jc < ny and y_cls[jc] == c:
            if best_of != c:
                best_of, best = c, 0
                j = jc
                while j < ny and y_cls[j] == c:
                    best = max(best, share[y_con[j]])
                    j += 1
            out[6] += x_byt[i] * min(share[con], best)
        if jc < ny and y_cls[jc] == c:
            out[4] += x_cnt[i]
            out[5] += x_byt[i]
        out[0] += x_cnt[i]
        out[1] += x_byt[i]


@njit(nogil=True, cache=True, parallel=True)
def _score_pairs(a, b, nested, start, e_class, e_content, e_count, e_bytes, share, out):
    for p in prange(len(a)):
        xc, xn, xk, xb = _side_entries(a[p], b[p], nested[p], start, e_content, e_count,
                                       e_bytes, e_class)
        lo, hi = start[b[p]], start[b[p] + 1]
        yc, yn, yk, yb = e_class[lo:hi], e_content[lo:hi], e_count[lo:hi], e_bytes[lo:hi]
        tmp = np.zeros(7, np.int64)
        _match(xc, xn, xk, xb, yc, yn, share, tmp)
        out[p, 0] = tmp[0]
        out[p, 2] = tmp[1]
        out[p, 4] = tmp[2]
        out[p, 5] = tmp[3]
        out[p, 6] = tmp[4]
        out[p, 7] = tmp[5]
        out[p, 12] = tmp[6]
        tmp[:] = 0
        _match(yc, yn, yk, yb, xc, xn, share, tmp)
        out[p, 1] = tmp[0]
        out[p, 3] = tmp[1]
        out[p, 8] = tmp[2]
        out[p, 9] = tmp[3]
        out[p, 10] = tmp[4]
        out[p, 11] = tmp[5]
        out[p, 13] = tmp[6]
