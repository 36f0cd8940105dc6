"""SimFind: similar pairs from keys and sum tables, by a sorted-key sweep.

A pair (a, b) of files is similar at key tolerance K and sum-table tolerance
S (both in percent) when (DESIGN.md)

1. key hit: ``|key_a - key_b| <= max(1, max(size_a, size_b) * K / 100)``
   (the paper searches around each file with its own size; asking it of both
   files, as an all-pairs search does, means the larger size counts);
2. size filter: ``max(size) <= size_factor * min(size)``;
3. sum-table hit: ``sum|S_a - S_b| <= max(1, (size_a + size_b) * S / 200)``;
4. and, with extensions, both files have the same extension.

The paper compared all pairs, so its SimFind grew quadratically.  Here files
are sorted by key and each file is compared only with the files after it whose
key lies within the largest radius any partner could allow (the size filter
bounds the partner's size), so the work is the sort plus the candidates.

Files with equal size, sum table (and extension) form a *class*: they are
within any tolerance of each other, so they are handled once, and a class of
k copies is never expanded into k^2 pairs unless asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from simgui.core.keys import SKEW, KeyScheme, compute_keys

DEFAULT_KEY_TOLERANCE = 3.2  # chosen on the labelled corpus: see README, Accuracy
DEFAULT_SUM_TOLERANCE = 1.0
DEFAULT_SIZE_FACTOR = 1.5
#: Smaller files are only ever paired with copies of themselves (equal size and
#: sum table).  A few dozen bytes hold a handful of tag matches, so the
#: tolerance floor of 1 makes nearly all of them "similar" to each other, which
#: is noise to a user and quadratic work (TLSH likewise needs 50 bytes).
DEFAULT_MIN_SIMILAR_SIZE = 64


@dataclass(frozen=True)
class Tolerances:
    """Key and sum-table tolerance in percent."""

    key: float = DEFAULT_KEY_TOLERANCE
    sum: float = DEFAULT_SUM_TOLERANCE

    def __post_init__(self):
        if not (self.key >= 0 and self.sum >= 0):
            raise ValueError("tolerances must be zero or more percent")


@dataclass(frozen=True)
class Classes:
    """Files collapsed into classes of equal size, sum table and extension."""

    of_file: np.ndarray  # int64 (n,): class of each file
    first: np.ndarray  # int64 (c,): a representative file of each class
    members_start: np.ndarray  # int64 (c+1,): CSR offsets into members
    members: np.ndarray  # int64 (n,): files ordered by class, ascending index within


def classes_of(sizes: np.ndarray, tables: np.ndarray, ext_ids: np.ndarray | None = None,
               extra: np.ndarray | None = None) -> Classes:
    """Group rows with equal (size, table[, extension][, extra]).

    Rows are sorted by a 64-bit hash and a class starts wherever a row differs
    from the one before, so every class holds equal rows (a hash collision
    could at worst split a class, which costs a pair, never a wrong answer).
    """
    n = len(sizes)
    cols = [np.asarray(sizes, np.int64).reshape(n, 1), np.asarray(tables, np.int64).reshape(n, 16)]
    if ext_ids is not None:
        cols.append(np.asarray(ext_ids, np.int64).reshape(n, 1))
    if extra is not None:
        cols.append(np.asarray(extra, np.int64).reshape(n, -1 if n else 1))
    rows = np.ascontiguousarray(np.hstack(cols))
    order = np.argsort(_row_hashes(rows), kind="stable")
    ordered = rows[order]
    starts = np.ones(n, dtype=bool)
    if n > 1:
        starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    class_of_sorted = np.cumsum(starts) - 1
    of_file = np.empty(n, np.int64)
    of_file[order] = class_of_sorted
    members_start = np.append(np.flatnonzero(starts), n).astype(np.int64)
    return Classes(of_file, order[starts].astype(np.int64), members_start, order.astype(np.int64))


@njit(nogil=True, cache=True)
def _row_hashes(rows):
    out = np.empty(rows.shape[0], np.uint64)
    for i in range(rows.shape[0]):
        h = np.uint64(0x9E3779B97F4A7C15)
        for j in range(rows.shape[1]):
            # splitmix64 finaliser over each column, chained
            z = h ^ np.uint64(rows[i, j])
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            h = z ^ (z >> np.uint64(31))
        out[i] = h
    return out


@njit(nogil=True, cache=True)
def _sweep(order, band_start, adjacent, s_bucket, s_keys, s_totals, s_sizes, s_ext, s_key_frac,
           s_sum_frac, s_tables, bucket_width, size_factor):
    """Similar pairs among files ``order``; returns an (m, 2) array of file indices.

    ``order`` is sorted by (size band, key bucket, table total); ``s_*`` arrays
    are per position in ``order``.  Two files can only pair if their sizes are
    within the size factor (same or neighbouring band), their keys within the
    larger radius either allows (a few buckets of the band), and their table
    totals within the sum-table limit (|sum of differences| <= sum of
    |differences|), so each file looks, by binary search, only at the slices
    of its own and the next band that meet all three.  A pair within one band
    is taken from the file earlier in ``order``.
    """
    out = np.empty((1024, 2), np.int64)
    found = 0
    bands = band_start.shape[0] - 1
    for band in range(bands):
        for x in range(band_start[band], band_start[band + 1]):
            key_x = s_keys[x]
            size_x = s_sizes[x]
            # the largest partner the size filter allows bounds both radii
            reach = max(1.0, size_factor * size_x * s_key_frac[x])
            spread = max(1.0, (1.0 + size_factor) * size_x * s_sum_frac[x] / 2.0)
            for other in range(band, min(band + 2, bands)):
                if other > band and not adjacent[band]:
                    break
                lo = band_start[other]
                hi = band_start[other + 1]
                if lo == hi:
                    continue
                width = bucket_width[other]
                first = np.int64(np.floor((key_x - reach) / width))
                last = np.int64(np.floor((key_x + reach) / width))
                for bucket in range(first, last + 1):
                    b_lo = lo + np.searchsorted(s_bucket[lo:hi], bucket)
                    b_hi = lo + np.searchsorted(s_bucket[lo:hi], bucket, side="right")
                    if b_lo == b_hi:
                        continue
                    y = b_lo + np.searchsorted(s_totals[b_lo:b_hi], s_totals[x] - spread)
                    while y < b_hi and s_totals[y] <= s_totals[x] + spread:
                        if other == band and y <= x:
                            y += 1
                            continue
                        size_y = s_sizes[y]
                        big = max(size_x, size_y)
                        dk = abs(s_keys[y] - key_x)
                        if (big <= size_factor * min(size_x, size_y) and s_ext[x] == s_ext[y]
                                and dk <= max(1.0, big * s_key_frac[x])):
                            limit = max(1.0, (size_x + size_y) * s_sum_frac[x] / 2.0)
                            dist = 0
                            for t in range(16):
                                d = s_tables[x, t] - s_tables[y, t]
                                dist += d if d >= 0 else -d
                            if dist <= limit:
                                if found == out.shape[0]:
                                    bigger = np.empty((2 * found, 2), np.int64)
                                    bigger[:found] = out
                                    out = bigger
                                out[found, 0] = min(order[x], order[y])
                                out[found, 1] = max(order[x], order[y])
                                found += 1
                        y += 1
    return out[:found].copy()


def size_bands(sizes: np.ndarray, size_factor: float) -> np.ndarray:
    """Band of each size: sizes within ``size_factor`` of each other are in the same or
    neighbouring bands.  Empty files get their own band, -1."""
    width = np.log(max(size_factor, 1.0 + 1e-9))
    bands = np.floor(np.log(np.maximum(sizes, 1)) / width).astype(np.int64)
    bands[sizes == 0] = -1
    return bands


@dataclass(frozen=True)
class SearchSpace:
    """Everything a search needs, prepared once; tolerances are applied per call."""

    sizes: np.ndarray
    tables: np.ndarray
    keys: np.ndarray
    ext_ids: np.ndarray
    extensions: tuple[str, ...] | None  # distinct extensions, by ext id
    classes: Classes
    bands: np.ndarray  # size band of each class representative (classes.first)
    totals: np.ndarray  # sum of each file's table
    size_factor: float
    min_similar_size: int

    @classmethod
    def build(cls, sizes, tables, *, scheme: KeyScheme = SKEW, extensions: Sequence[str] | None = None,
              size_factor: float = DEFAULT_SIZE_FACTOR, class_extra: np.ndarray | None = None,
              min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE,
              classes_by_extension: bool = True) -> SearchSpace:
        """``class_extra``: more columns that must be equal within a class (content
        hashes make classes sets of identical files); ``classes_by_extension=False``
        lets one class hold copies with different extensions (its first file's
        extension then stands for the class in the search)."""
        sizes = np.ascontiguousarray(sizes, dtype=np.int64)
        tables = np.ascontiguousarray(tables, dtype=np.int64).reshape(-1, 16)
        if len(sizes) != len(tables):
            raise ValueError("one size per sum table is needed")
        if size_factor < 1:
            raise ValueError("the size factor must be at least 1")
        if extensions is not None:
            extensions = list(extensions)
            if len(extensions) != len(sizes):
                raise ValueError("one extension per file is needed")
            names, ext_ids = np.unique(np.array(extensions, dtype=object).astype(str),
                                       return_inverse=True)
            ext_ids = ext_ids.astype(np.int64).reshape(-1)
            distinct = tuple(str(x) for x in names)
        else:
            ext_ids = np.zeros(len(sizes), np.int64)
            distinct = None
        keys = compute_keys(tables, scheme, extensions)
        by_ext = extensions is not None and classes_by_extension
        classes = classes_of(sizes, tables, ext_ids if by_ext else None, class_extra)
        bands = size_bands(sizes[classes.first], size_factor)
        return cls(sizes, tables, keys, ext_ids, distinct, classes, bands, tables.sum(axis=1),
                   float(size_factor), int(min_similar_size))

    def fractions(self, tolerances: Tolerances,
                  overrides: Mapping[str, Tolerances] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per-file key and sum-table tolerances as fractions."""
        n = len(self.sizes)
        key_frac = np.full(n, tolerances.key / 100.0)
        sum_frac = np.full(n, tolerances.sum / 100.0)
        if overrides and self.extensions is not None:
            for ext, tol in overrides.items():
                ext = ext.casefold().lstrip(".")
                if ext in self.extensions:
                    mask = self.ext_ids == self.extensions.index(ext)
                    key_frac[mask] = tol.key / 100.0
                    sum_frac[mask] = tol.sum / 100.0
        return key_frac, sum_frac

    def class_pairs(self, tolerances: Tolerances,
                    overrides: Mapping[str, Tolerances] | None = None) -> np.ndarray:
        """Similar pairs of class representatives, (m, 2) int64 with a < b."""
        key_frac, sum_frac = self.fractions(tolerances, overrides)
        big_enough = self.sizes[self.classes.first] >= max(self.min_similar_size, 1)
        reps = self.classes.first[big_enough]
        if len(reps) == 0:
            return np.zeros((0, 2), np.int64)
        band_numbers, band = np.unique(self.bands[big_enough], return_inverse=True)
        band = band.reshape(-1)
        n_bands = len(band_numbers)
        # the next band holds possible partners only if its sizes are the next step up
        adjacent = np.zeros(n_bands, dtype=np.bool_)
        adjacent[:-1] = np.diff(band_numbers) == 1
        reach = np.maximum(1.0, self.size_factor * self.sizes[reps] * key_frac[reps])
        width = np.ones(n_bands)
        np.maximum.at(width, band, reach)  # a bucket is as wide as the band's largest radius
        bucket = np.floor(self.keys[reps] / width[band]).astype(np.int64)
        by = np.lexsort((self.totals[reps], bucket, band))
        o = reps[by]
        band_start = np.searchsorted(band[by], np.arange(n_bands + 1)).astype(np.int64)
        return _sweep(o, band_start, adjacent, bucket[by], self.keys[o], self.totals[o],
                      self.sizes[o], self.ext_ids[o], key_frac[o], sum_frac[o], self.tables[o],
                      width, self.size_factor)


@njit(cache=True)
def _expand(rep_pairs, of_file, start, members, first, expand_identical, out, count_only):
    """File pairs from class pairs (every member pair) plus pairs within classes."""
    m = 0
    for p in range(rep_pairs.shape[0]):
        ca = of_file[rep_pairs[p, 0]]
        cb = of_file[rep_pairs[p, 1]]
        for i in range(start[ca], start[ca + 1]):
            for j in range(start[cb], start[cb + 1]):
                if not count_only:
                    out[m, 0] = min(members[i], members[j])
                    out[m, 1] = max(members[i], members[j])
                m += 1
    for c in range(first.shape[0]):
        lo = start[c]
        hi = start[c + 1]
        # star form: only the class's first file pairs with the others
        last_i = hi if expand_identical else min(hi, lo + 1)
        for i in range(lo, last_i):
            for j in range(i + 1, hi):
                if not count_only:
                    out[m, 0] = members[i]
                    out[m, 1] = members[j]
                m += 1
    return m


def find_pairs(sizes, tables, *, key_tolerance: float = DEFAULT_KEY_TOLERANCE,
               sum_tolerance: float = DEFAULT_SUM_TOLERANCE, scheme: KeyScheme = SKEW,
               size_factor: float = DEFAULT_SIZE_FACTOR, extensions: Sequence[str] | None = None,
               overrides: Mapping[str, Tolerances] | None = None,
               expand_identical: bool = True,
               min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE) -> np.ndarray:
    """All similar pairs: int64 array (m, 2) of file indices, i < j, sorted.

    ``sizes`` int64 (n,), ``tables`` int64 (n, 16).  With ``extensions`` (n
    strings) keys get the extension modification and only files of the same
    extension pair up; ``overrides`` maps an extension to its own tolerances.
    With ``expand_identical=False``, k files of one class (equal size and sum
    table) give the k-1 pairs (first, other) instead of all k(k-1)/2, so even
    thousands of empty files stay cheap; pairs across classes are still
    complete.  Files under ``min_similar_size`` bytes pair only with their
    copies (equal size and sum table).
    """
    space = SearchSpace.build(sizes, tables, scheme=scheme, extensions=extensions,
                              size_factor=size_factor, min_similar_size=min_similar_size)
    rep_pairs = space.class_pairs(Tolerances(key_tolerance, sum_tolerance), overrides)
    return expand_pairs(space.classes, rep_pairs, expand_identical)


def expand_pairs(classes: Classes, rep_pairs: np.ndarray, expand_identical: bool = True) -> np.ndarray:
    """Pairs of files from pairs of class representatives (see :func:`find_pairs`)."""
    rep_pairs = np.ascontiguousarray(rep_pairs, dtype=np.int64).reshape(-1, 2)
    dummy = np.zeros((0, 2), np.int64)
    args = (rep_pairs, classes.of_file, classes.members_start, classes.members, classes.first,
            expand_identical)
    m = _expand(*args, dummy, True)
    out = np.empty((m, 2), np.int64)
    _expand(*args, out, False)
    if m:
        out = out[np.lexsort((out[:, 1], out[:, 0]))]
    return out


def pair_distances(space: SearchSpace, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Key distance (float) and sum-table L1 distance (int) of each pair."""
    a, b = pairs[:, 0], pairs[:, 1]
    key_distance = np.abs(space.keys[a] - space.keys[b])  # same extension: offsets cancel
    sum_distance = np.abs(space.tables[a] - space.tables[b]).sum(axis=1)
    return key_distance, sum_distance


def similarity_percent(sum_distance, size_a, size_b) -> np.ndarray:
    """A score users can read: 100 for equal tables, 0 at a distance of half the mean size.

    The sum-table tolerance S admits distances up to (size_a + size_b) * S / 200,
    so a pair found at tolerance S has a similarity of at least 100 - S.
    """
    mean = np.maximum((np.asarray(size_a) + np.asarray(size_b)) / 2.0, 1.0)
    return np.clip(100.0 - 100.0 * np.asarray(sum_distance) / mean, 0.0, 100.0)


def identity_and_similarity(sum_distance, size_a, size_b, same_hash):
    """The one rule every report uses: (identical, similarity percent) per pair.

    Identical means equal size, equal sum table and equal content hash, and
    scores 100; anything else scores at most 99.99, so 100 always means a copy.
    """
    sum_distance = np.asarray(sum_distance)
    identical = ((sum_distance == 0) & (np.asarray(size_a) == np.asarray(size_b))
                 & np.asarray(same_hash, dtype=bool))
    similarity = np.minimum(similarity_percent(sum_distance, size_a, size_b), 99.99)
    return identical, np.where(identical, 100.0, similarity)


def similar_to(table, size: int, files, tolerances: Tolerances = Tolerances(), *,
               scheme: KeyScheme = SKEW, extension: str | None = None,
               size_factor: float = DEFAULT_SIZE_FACTOR,
               min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE) -> tuple[np.ndarray, np.ndarray]:
    """Files of ``files`` (StoredFiles) similar to one file: the paper's second question.

    ``extension``: only files with this extension qualify (None: any).
    Returns (indices, sum-table distances), most similar first.  A direct
    vectorised pass: one file against n costs O(n), no index needed.
    """
    table = np.asarray(table, dtype=np.int64).reshape(16)
    sizes = files.sizes
    key = scheme.key(table)
    keys = scheme.keys(files.tables)
    big = np.maximum(sizes, size)
    small = np.minimum(sizes, size)
    distance = np.abs(files.tables - table).sum(axis=1)
    ok = ((np.abs(keys - key) <= np.maximum(1.0, big * tolerances.key / 100))
          & (big <= size_factor * small)
          & (distance <= np.maximum(1.0, (sizes + size) * tolerances.sum / 200)))
    if size < min_similar_size:
        ok &= (sizes == size) & (distance == 0)
    else:
        ok &= sizes >= min_similar_size
    if extension is not None:
        ok &= np.array([e == extension for e in files.extensions], dtype=bool)
    hits = np.flatnonzero(ok)
    hits = hits[np.lexsort((hits, np.abs(sizes[hits] - size), distance[hits]))]
    return hits, distance[hits]
