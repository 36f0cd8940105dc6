"""A labelled corpus of real files and known edits, for measuring SimFind's accuracy.

    python benchmarks/corpus.py OUTDIR [--sources 300] [--seed 0]

writes the corpus into OUTDIR (one folder per family, plus ``labels.tsv``) so
that it can be scanned like any other folder; :func:`build_corpus` and
:func:`iter_corpus` give the same files in memory.

Sources
-------
Regular files (symbolic links are skipped) of this machine under
``/usr/share``, ``/usr/lib``, ``/usr/bin`` and ``/usr/include``, between 2 KB
and 2 MB, of these types (:func:`file_type`): Python source, C headers, Perl,
XML/SVG, JSON, HTML, plain text (licences and ``copyright`` files), gettext
``.mo`` catalogues, gzip files, PNG images, ELF shared libraries and ELF
executables.  The types take turns, each contributing its next file in a
seeded random order, until ``n_sources`` files are chosen (a type with too few
candidates simply runs out).  No two sources share a base name (so the copies
of one module for two Python versions do not both come in) or content, and a
file is passed over if it resembles a source already chosen whose size is
within the size factor 1.5 of its own: if the Jaccard resemblance of their
sampled 8-byte shingles (:func:`shingles`) reaches ``max_resemblance`` (0.2;
a 2 % byte change keeps about 0.7, a 30 % one about 0.03).  So different
sources are unrelated by a measure independent of sum tables (``/usr/bin/dir``
and ``/usr/bin/ls`` are near copies and do not both come in).  The
choice is deterministic for a given seed and a given machine; the manifest
records each source's path and BLAKE2b digest.

Families and edits
------------------
Every source starts a *family*: the source itself and one variant per edit
in :data:`EDITS`.  ``k`` is the edit's share of the source's ``n`` bytes,
``max(1, round(n * share))``; all positions are drawn from a generator seeded
with (seed, family, edit), so a variant does not depend on which other files
are made.

- ``copy``: an identical copy.
- ``change_0p1``, ``change_0p5``, ``change_1``, ``change_2``: 0.1, 0.5, 1 or
  2 % of the bytes, at distinct random positions, replaced by a different byte
  (exactly ``k`` bytes differ; the size is unchanged).
- ``insert_1``, ``insert_5``: a block of 1 or 5 % inserted at a random
  position.  The block is copied from a random place of the same file, so it
  is new content of the file's own kind (an added paragraph, function, table).
- ``delete_1``, ``delete_5``: a block of 1 or 5 % removed at a random place.
- ``move_5``: a block of 5 % cut out and put back at another position.
- ``append_1``, ``append_10``: 1 or 10 % appended (a block copied from the
  file, as for inserts).
- ``truncate_1``, ``truncate_10``: the last 1 or 10 % cut off.
- ``heavy_30``: 30 % of the bytes changed, as for ``change_*``.  This is a
  **negative**: a file that shares its size and layout with the source but
  not most of its content.

Labels
------
A file is a *member* of its family unless it is a negative edit
(``heavy_30``).  Every pair of files has one of three relations
(:func:`pair_relation`):

- ``EDIT`` (2): a source and one of its member variants: one known edit apart.
  There are 14 per family.
- ``SIBLING`` (1): two member variants of the same source (and the source's
  identical copy with another variant): two versions of one document, at
  most two of the edits above apart (``append_10`` and ``truncate_10`` differ
  by 20 % of the source).
- ``UNRELATED`` (0): everything else: files of different families, including
  the unrelated sources of the same type and similar size that the corpus
  holds by construction, and every pair with a heavy edit.

Two labellings follow.  *Edit labels* (the benchmark's default): EDIT pairs
are positive, UNRELATED pairs negative, SIBLING pairs are left out (neither
found nor missed), so each positive is exactly one documented edit.  *Family
labels*: EDIT and SIBLING pairs are positive (what a user wants grouped),
:func:`pair_labels`; they weigh composite edits 6.5 times as much as single
ones (91 sibling pairs against 14 edit pairs per family).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from simgui.core.search.keys import extension_of  # noqa: E402

DEFAULT_ROOTS = ("/usr/share", "/usr/lib", "/usr/bin", "/usr/include")
MIN_SIZE = 2 * 1024
MAX_SIZE = 2 * 1024 * 1024
DEFAULT_SOURCES = 300
SOURCE = "source"  # the edit name of a family's original file


# --------------------------------------------------------------------------- edits


def _count(n: int, share: float) -> int:
    return max(1, int(round(n * share)))


def change_bytes(data: bytes, share: float, rng: np.random.Generator) -> bytes:
    """``k`` bytes at distinct random positions, each replaced by a different byte."""
    arr = np.frombuffer(data, dtype=np.uint8).copy()
    k = min(_count(len(arr), share), len(arr))
    pos = rng.choice(len(arr), size=k, replace=False)
    arr[pos] = (arr[pos].astype(np.int64) + rng.integers(1, 256, size=k)) % 256
    return arr.tobytes()


def _own_block(data: bytes, k: int, rng: np.random.Generator) -> bytes:
    start = int(rng.integers(0, len(data) - k + 1))
    return data[start:start + k]


def insert_block(data: bytes, share: float, rng: np.random.Generator) -> bytes:
    k = min(_count(len(data), share), len(data))
    block = _own_block(data, k, rng)
    pos = int(rng.integers(0, len(data) + 1))
    return data[:pos] + block + data[pos:]


def delete_block(data: bytes, share: float, rng: np.random.Generator) -> bytes:
    k = min(_count(len(data), share), len(data))
    pos = int(rng.integers(0, len(data) - k + 1))
    return data[:pos] + data[pos + k:]


def move_block(data: bytes, share: float, rng: np.random.Generator) -> bytes:
    k = min(_count(len(data), share), len(data) - 1)
    a = int(rng.integers(0, len(data) - k + 1))
    block, rest = data[a:a + k], data[:a] + data[a + k:]
    b = int(rng.integers(0, len(rest)))  # any position of the rest but the old one
    if b >= a:
        b += 1
    return rest[:b] + block + rest[b:]


def append_block(data: bytes, share: float, rng: np.random.Generator) -> bytes:
    k = min(_count(len(data), share), len(data))
    return data + _own_block(data, k, rng)


def truncate(data: bytes, share: float, rng: np.random.Generator) -> bytes:
    return data[:len(data) - min(_count(len(data), share), len(data))]


@dataclass(frozen=True)
class Edit:
    name: str
    share: float  # of the source's bytes
    apply: Callable[[bytes, float, np.random.Generator], bytes] | None
    positive: bool  # the variant is a member of its family
    description: str

    def __call__(self, data: bytes, rng: np.random.Generator) -> bytes:
        return bytes(data) if self.apply is None else self.apply(data, self.share, rng)


EDITS: tuple[Edit, ...] = (
    Edit("copy", 0.0, None, True, "identical copy"),
    Edit("change_0p1", 0.001, change_bytes, True, "0.1 % of bytes changed"),
    Edit("change_0p5", 0.005, change_bytes, True, "0.5 % of bytes changed"),
    Edit("change_1", 0.01, change_bytes, True, "1 % of bytes changed"),
    Edit("change_2", 0.02, change_bytes, True, "2 % of bytes changed"),
    Edit("insert_1", 0.01, insert_block, True, "1 % block inserted"),
    Edit("insert_5", 0.05, insert_block, True, "5 % block inserted"),
    Edit("delete_1", 0.01, delete_block, True, "1 % block deleted"),
    Edit("delete_5", 0.05, delete_block, True, "5 % block deleted"),
    Edit("move_5", 0.05, move_block, True, "5 % block moved"),
    Edit("append_1", 0.01, append_block, True, "1 % appended"),
    Edit("append_10", 0.10, append_block, True, "10 % appended"),
    Edit("truncate_1", 0.01, truncate, True, "last 1 % cut off"),
    Edit("truncate_10", 0.10, truncate, True, "last 10 % cut off"),
    Edit("heavy_30", 0.30, change_bytes, False, "30 % of bytes changed (negative)"),
)
EDIT_BY_NAME = {e.name: e for e in EDITS}
#: every edit kind a file can have, the source first
KINDS: tuple[str, ...] = (SOURCE,) + tuple(e.name for e in EDITS)
FAMILY_SIZE = len(KINDS)


# --------------------------------------------------------------------------- sources

_SO = re.compile(r"\.so(\.\d+)*$")
_TYPES_BY_EXT = {
    "py": "python", "h": "c-header", "pm": "perl", "pl": "perl", "xml": "xml", "svg": "xml",
    "json": "json", "html": "html", "htm": "html", "mo": "gettext-mo", "gz": "gzip",
    "png": "png",
}
TYPES = ("python", "c-header", "perl", "xml", "json", "html", "text", "gettext-mo", "gzip", "png",
         "elf-lib", "elf-exe")


def file_type(path: str) -> str | None:
    """The corpus type of a path, or None; ELF types are confirmed by :func:`_is_elf`."""
    name = os.path.basename(path)
    ext = extension_of(name)
    if ext in _TYPES_BY_EXT:
        return _TYPES_BY_EXT[ext]
    if _SO.search(name):
        return "elf-lib"
    if path.startswith("/usr/bin/"):
        return "elf-exe"
    if ext == "" and (path.startswith("/usr/share/common-licenses/")
                      or (path.startswith("/usr/share/doc/") and name == "copyright")):
        return "text"
    return None


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


@dataclass(frozen=True)
class Source:
    path: str
    type: str
    size: int
    digest: str  # BLAKE2b-128 of the content, hex


def _candidates(roots: Sequence[str], min_size: int, max_size: int) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                kind = file_type(path)
                if kind is None or os.path.islink(path):
                    continue
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                if not (min_size <= st.st_size <= max_size) or not os.path.isfile(path):
                    continue
                found.setdefault(kind, []).append(path)
    return found


_SHINGLE_MULT = np.uint64(0x9E3779B97F4A7C15)


def shingles(data: bytes) -> np.ndarray:
    """A 1/16 sample of the file's distinct 8-byte windows, as sorted hashes.

    Windows are kept by their hash's value, so two files keep the same windows
    wherever they appear (a content-defined sample)."""
    a = np.frombuffer(data, dtype=np.uint8)
    if len(a) < 8:
        return np.zeros(0, np.uint64)
    windows = np.ascontiguousarray(np.lib.stride_tricks.sliding_window_view(a, 8))
    h = windows.view(np.uint64).reshape(-1) * _SHINGLE_MULT
    return np.unique(h[(h >> np.uint64(60)) == 0])


def resemblance(a: np.ndarray, b: np.ndarray) -> float:
    """Jaccard similarity of two shingle samples."""
    if len(a) == 0 and len(b) == 0:
        return 1.0
    common = len(np.intersect1d(a, b, assume_unique=True))
    return common / (len(a) + len(b) - common)


def select_sources(n_sources: int = DEFAULT_SOURCES, seed: int = 0,
                   roots: Sequence[str] = DEFAULT_ROOTS, min_size: int = MIN_SIZE,
                   max_size: int = MAX_SIZE, max_resemblance: float = 0.2,
                   size_factor: float = 1.5) -> list[Source]:
    """Up to ``n_sources`` real, mutually unrelated files, the types taking turns
    (see the module docstring)."""
    rng = np.random.default_rng([seed, 0x5EED])
    pools = _candidates(roots, min_size, max_size)
    queues = {}
    for kind in TYPES:
        paths = pools.get(kind, [])
        queues[kind] = [paths[i] for i in rng.permutation(len(paths))]
    chosen: list[Source] = []
    names: set[str] = set()
    digests: set[str] = set()
    samples: list[np.ndarray] = []
    pos = dict.fromkeys(TYPES, 0)
    while len(chosen) < n_sources:
        progress = False
        for kind in TYPES:
            if len(chosen) >= n_sources:
                break
            queue = queues[kind]
            while pos[kind] < len(queue):
                path = queue[pos[kind]]
                pos[kind] += 1
                name = os.path.basename(path)
                if name in names or (kind.startswith("elf") and not _is_elf(path)):
                    continue
                try:
                    with open(path, "rb") as f:
                        data = f.read(max_size + 1)
                except OSError:
                    continue
                if not (min_size <= len(data) <= max_size):
                    continue
                digest = hashlib.blake2b(data, digest_size=16).hexdigest()
                if digest in digests:
                    continue
                sample = shingles(data)
                if any(max(s.size, len(data)) <= size_factor * min(s.size, len(data))
                       and resemblance(sample, other) >= max_resemblance
                       for s, other in zip(chosen, samples)):
                    continue
                samples.append(sample)
                names.add(name)
                digests.add(digest)
                chosen.append(Source(path, kind, len(data), digest))
                progress = True
                break
        if not progress:
            break
    return chosen


# --------------------------------------------------------------------------- the corpus


@dataclass(frozen=True)
class CorpusFile:
    name: str  # relative path: "<family folder>/<name>"
    data: bytes
    family: int
    edit: str  # SOURCE or an Edit name
    ext: str  # extension_of(name): the source's extension
    type: str  # the source's type

    @property
    def member(self) -> bool:
        """Part of its family (every file but the negative edits)."""
        return self.edit == SOURCE or EDIT_BY_NAME[self.edit].positive


def _family_folder(family: int, source: Source) -> str:
    return f"f{family:04d}-{source.type}"


def variant_name(source_name: str, edit: str) -> str:
    """``stem~edit.ext``: the edit goes before the extension, which is kept."""
    ext = extension_of(source_name)
    if ext:
        stem = source_name[:-(len(ext) + 1)]
        return f"{stem}~{edit}{source_name[-(len(ext) + 1):]}"
    return f"{source_name}~{edit}"


def family_files(source: Source, family: int, seed: int = 0,
                 data: bytes | None = None) -> list[CorpusFile]:
    """The source and its variants, in :data:`KINDS` order."""
    if data is None:
        with open(source.path, "rb") as f:
            data = f.read()
    folder = _family_folder(family, source)
    name = os.path.basename(source.path)
    ext = extension_of(name)
    out = [CorpusFile(f"{folder}/{name}", data, family, SOURCE, ext, source.type)]
    for number, edit in enumerate(EDITS):
        rng = np.random.default_rng([seed, family, number])
        out.append(CorpusFile(f"{folder}/{variant_name(name, edit.name)}", edit(data, rng),
                              family, edit.name, ext, source.type))
    return out


def iter_corpus(sources: Iterable[Source], seed: int = 0) -> Iterator[CorpusFile]:
    """Every file of every family, family by family (only one family in memory)."""
    for family, source in enumerate(sources):
        yield from family_files(source, family, seed)


@dataclass
class Corpus:
    """The corpus in memory: parallel lists, one entry per file."""

    names: list[str]
    data: list[bytes]
    family: np.ndarray  # int64
    edit: list[str]
    ext: list[str]
    type: list[str]
    sources: list[Source]

    @classmethod
    def from_files(cls, files: Iterable[CorpusFile], sources: list[Source]) -> Corpus:
        files = list(files)
        return cls([f.name for f in files], [f.data for f in files],
                   np.array([f.family for f in files], dtype=np.int64), [f.edit for f in files],
                   [f.ext for f in files], [f.type for f in files], sources)

    @property
    def member(self) -> np.ndarray:
        return member_mask(self.edit)

    @property
    def is_source(self) -> np.ndarray:
        return np.array([e == SOURCE for e in self.edit], dtype=bool)

    def labels(self, pairs: np.ndarray) -> np.ndarray:
        """Family labels of index pairs."""
        return pair_labels(self.family, self.member, pairs)

    def relation(self, pairs: np.ndarray) -> np.ndarray:
        """EDIT / SIBLING / UNRELATED of index pairs."""
        return pair_relation(self.family, self.member, self.is_source, pairs)


def build_corpus(n_sources: int = DEFAULT_SOURCES, seed: int = 0,
                 roots: Sequence[str] = DEFAULT_ROOTS,
                 sources: list[Source] | None = None) -> Corpus:
    """The whole corpus in memory (about 16 times the sources' bytes)."""
    if sources is None:
        sources = select_sources(n_sources, seed, roots)
    return Corpus.from_files(iter_corpus(sources, seed), sources)


# --------------------------------------------------------------------------- labels


def member_mask(edits: Sequence[str]) -> np.ndarray:
    """True for files that belong to their family (all but negative edits)."""
    return np.array([e == SOURCE or EDIT_BY_NAME[e].positive for e in edits], dtype=bool)


UNRELATED, SIBLING, EDIT = 0, 1, 2


def pair_labels(family: np.ndarray, member: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Family labels: True when both files are members of the same family."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    a, b = pairs[:, 0], pairs[:, 1]
    return (family[a] == family[b]) & member[a] & member[b] & (a != b)


def pair_relation(family: np.ndarray, member: np.ndarray, is_source: np.ndarray,
                  pairs: np.ndarray) -> np.ndarray:
    """EDIT, SIBLING or UNRELATED for each pair (int8), see the module docstring."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    a, b = pairs[:, 0], pairs[:, 1]
    related = pair_labels(family, member, pairs)
    out = related.astype(np.int8)
    out[related & (is_source[a] | is_source[b])] = EDIT
    return out


def count_positives(family: np.ndarray, member: np.ndarray) -> int:
    """Number of pairs with family labels positive (EDIT or SIBLING) among all n(n-1)/2."""
    m = np.bincount(np.asarray(family)[np.asarray(member)])
    return int((m * (m - 1) // 2).sum())


def count_edit_pairs(family: np.ndarray, member: np.ndarray, is_source: np.ndarray) -> int:
    """Number of EDIT pairs: member variants of a family that has its source."""
    family, member, is_source = map(np.asarray, (family, member, is_source))
    with_source = np.isin(family, family[is_source])
    return int((member & ~is_source & with_source).sum())


# --------------------------------------------------------------------------- writing


def write_corpus(directory: str, files: Iterable[CorpusFile],
                 sources: Sequence[Source] = ()) -> int:
    """Write the files under ``directory`` and a ``labels.tsv`` manifest; returns the count.

    ``labels.tsv`` columns: name, family, edit, member (1/0), type, extension, size,
    and for sources the original path and digest.
    """
    os.makedirs(directory, exist_ok=True)
    by_family = {i: s for i, s in enumerate(sources)}
    count = 0
    with open(os.path.join(directory, "labels.tsv"), "w", encoding="utf-8") as manifest:
        manifest.write("name\tfamily\tedit\tmember\ttype\textension\tsize\torigin\tdigest\n")
        for f in files:
            path = os.path.join(directory, f.name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(f.data)
            origin = by_family.get(f.family)
            extra = (f"{origin.path}\t{origin.digest}" if origin and f.edit == SOURCE else "\t")
            manifest.write(f"{f.name}\t{f.family}\t{f.edit}\t{int(f.member)}\t{f.type}\t{f.ext}\t"
                           f"{len(f.data)}\t{extra}\n")
            count += 1
    return count


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--sources", type=int, default=DEFAULT_SOURCES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--root", action="append", help="search these folders (repeatable)")
    args = parser.parse_args(argv)
    sources = select_sources(args.sources, args.seed, tuple(args.root or DEFAULT_ROOTS))
    n = write_corpus(args.outdir, iter_corpus(sources, args.seed), sources)
    print(f"{n} files in {len(sources)} families written to {args.outdir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
