"""SimFind: similar pairs from keys and sum tables, by a grid search.

A pair (a, b) of files is similar at key tolerance K and sum-table tolerance
S (both in percent) when (DESIGN.md)

1. key hit: ``|key_a - key_b| <= max(1, max(size_a, size_b) * K / 100)``
   (the paper searches around each file with its own size; asking it of both
   files, as an all-pairs search does, means the larger size counts);
2. size filter: ``max(size) <= size_factor * min(size)``;
3. sum-table hit: ``sum|S_a - S_b| <= max(1, (size_a + size_b) * S / 200)``;
4. and, with extensions, both files have the same extension.

The paper compared all pairs, so its SimFind grew quadratically.  Here only
*candidates* are tested, and the search is exact because every similar pair is
a candidate:

* the size filter bounds a partner's size, so a file's key reach (the largest
  key distance any partner allows) and its sum-table reach W (the largest
  sum-table limit any partner allows) are known before the partner is;
* the L1 distance of two tables bounds the difference of any projection of
  them with weights +1 and -1 (``|sum w_t d_t| <= sum |d_t|``), so a partner's
  table total, and its even-tag total minus its odd-tag total, are within W;
* files are put in size bands, and within a band in the cells of a grid over
  those two projections, each cell sorted by key; a file's partners are in the
  neighbouring cells (of its band and the next bands up) within its reach, and
  within those cells in a window of keys (a small cell is simply read whole).

Each candidate then passes a one-word filter (its key and seven more such
projections, quantised, compared byte-wise in one 64-bit word) and finally the
test above, in the arithmetic of the all-pairs reference (tests/reference.py).

The work is the sorts plus the candidates.  Candidates are the files that are
close in three projections; in a collection that grows denser (more files of
the same kinds and sizes) their number per file grows with the collection, so
the search is not n log n: on the benchmark corpus 10 times the files give
about 100 times the candidates (benchmarks/bench_simfind.py).

Files with equal size, sum table (and extension) form a *class*: they are
within any tolerance of each other, so they are handled once, and a class of
k copies is never expanded into k^2 pairs unless asked.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simgui.core.search.kernels.borrowed import data_pointer
from simgui.core.search.kernels.byte_window import near8
from simgui.core.search.kernels.cache_lines import empty_rows, prefetch_read, prefetch_write
from simgui.core.reading.fingerprints import _mix as _splitmix
from simgui.core.search.keys import SKEW, KeyScheme, extension_offset
from simgui.core.search.kernels.radix import sort_bits
from simgui.core.search.tolerances import (  # noqa: F401  (re-exported: the search's API)
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_MIN_SIMILAR_SIZE, DEFAULT_SIZE_FACTOR,
    DEFAULT_SUM_TOLERANCE, Tolerances, format_overrides, parse_override, parse_overrides,
)
from simgui.core.search.kernels.table_distance import l1_rows
from simgui.core.search.steps import (
    TOLERANCE_STEPS, pair_tolerances, smallest_tolerances, step_at_or_above, tally,
)
from simgui.core.search import workers as _threads
from simgui.core.search.workers import in_chunks as _in_chunks
from simgui.core.search.workers import map_threads as _map

@dataclass(frozen=True)
class Classes:
    """Files collapsed into classes of equal size, sum table and extension."""

    of_file: np.ndarray  # int64 (n,): class of each file
    first: np.ndarray  # int64 (c,): a representative file of each class
    members_start: np.ndarray  # int64 (c+1,): CSR offsets into members
    members: np.ndarray  # int64 (n,): files ordered by class, ascending index within
    is_first: np.ndarray  # bool (n,): the file is its class's first (its representative)


def classes_of(sizes: np.ndarray, tables: np.ndarray, ext_ids: np.ndarray | None = None,
               extra: np.ndarray | None = None) -> Classes:
    """Group rows with equal (size, table[, extension][, extra]).

    Rows are sorted by the top bits of a 64-bit hash (the row's index packed
    into the low bits, so a plain sort, not an argsort) and a run of equal top
    bits is a class.  A run whose rows are not all equal (a collision) is split
    by comparing the rows themselves, so a class holds exactly the rows equal
    to each other.
    """
    n = len(sizes)
    sizes = np.ascontiguousarray(sizes, dtype=np.int64).reshape(n)
    tables = np.ascontiguousarray(tables, dtype=np.int64).reshape(n, 16)
    ext = (np.zeros(0, np.int64) if ext_ids is None
           else np.ascontiguousarray(ext_ids, dtype=np.int64).reshape(n))
    extra = (np.zeros((n, 0), np.int64) if extra is None
             else np.ascontiguousarray(extra, dtype=np.int64).reshape(n, -1 if n else 1))
    hashes = np.empty(n, np.uint64)
    _in_chunks(_row_hashes, n, sizes, tables, ext, extra, hashes)
    index_bits = max(1, (n - 1).bit_length())
    if index_bits <= 40:
        _in_chunks(_put_index, n, hashes, np.int64(index_bits))
        top = max(index_bits, 64 - _CLASS_HASH_BITS)
        hashes = sort_bits(hashes, top, 64)  # the index below is in order already
        order = np.empty(n, np.int64)
        run_keys = np.empty(n, np.int64)
        _in_chunks(_split_words, n, hashes, np.int64(index_bits), np.int64(top), order, run_keys)
    else:  # pragma: no cover - more than a trillion files
        order = np.argsort(hashes, kind="stable")
        run_keys = hashes[order]
    return Classes(*_split_classes(order, run_keys, sizes, tables, ext, extra))


@njit(nogil=True, cache=True)
def _put_index(lo, hi, words, bits):
    """The low ``bits`` bits of words lo .. hi-1 replaced by the word's index."""
    mask = np.uint64((1 << bits) - 1)
    for i in range(lo, hi):
        words[i] = (words[i] & ~mask) | np.uint64(i)
    return 0


@njit(nogil=True, cache=True)
def _split_words(lo, hi, words, low_bits, high_from, low, high):
    """Of words lo .. hi-1: their low ``low_bits`` bits, and their bits from ``high_from`` up."""
    mask = np.uint64((1 << low_bits) - 1)
    for i in range(lo, hi):
        low[i] = np.int64(words[i] & mask)
        high[i] = np.int64(words[i] >> np.uint64(high_from))
    return 0


#: Loops that write (or read) rows at random places of arrays larger than the cache
#: ask for the row this many steps ahead (see simgui.core.search.kernels.cache_lines; 8 to 16 were
#: best when scattering tables).
_AHEAD = 16

_MIX = np.uint64(0x9E3779B97F4A7C15)
#: Classes are runs of equal top bits of their rows' hashes, this many (three passes
#: of the radix sort, not four): a million distinct rows share them in about 60
#: pairs, which the row comparison splits.
_CLASS_HASH_BITS = 33


@njit(nogil=True, cache=True, inline="always")
def _mix(h, v):
    h = (h ^ np.uint64(v)) * _MIX
    return h ^ (h >> np.uint64(29))


@njit(nogil=True, cache=True)
def _row_hashes(lo, hi, sizes, tables, ext, extra, out):
    with_ext = ext.shape[0] > 0
    for i in range(lo, hi):
        # four independent chains, so the multiplications overlap
        a = _mix(np.uint64(0x243F6A8885A308D3), sizes[i])
        b = np.uint64(0x13198A2E03707344)
        c = np.uint64(0xA4093822299F31D0)
        d = np.uint64(0x082EFA98EC4E6C89)
        for j in range(0, 16, 4):
            a = _mix(a, tables[i, j])
            b = _mix(b, tables[i, j + 1])
            c = _mix(c, tables[i, j + 2])
            d = _mix(d, tables[i, j + 3])
        h = _mix(_mix(_mix(a, b), c), d)
        if with_ext:
            h = _mix(h, ext[i])
        for j in range(extra.shape[1]):
            h = _mix(h, extra[i, j])
        out[i] = _splitmix(h)
    return 0


@njit(nogil=True, cache=True, inline="always")
def _rows_equal(a, b, sizes, tables, with_ext, ext, n_extra, extra):
    """Rows a and b are equal: size, table, extension (if ``with_ext``) and the
    ``n_extra`` extra columns; every array as a data pointer (simgui.core.search.kernels.borrowed)."""
    if sizes[a] != sizes[b]:
        return False
    for j in range(16):
        if tables[a * 16 + j] != tables[b * 16 + j]:
            return False
    if with_ext and ext[a] != ext[b]:
        return False
    for j in range(n_extra):
        if extra[a * n_extra + j] != extra[b * n_extra + j]:
            return False
    return True


@njit(nogil=True, cache=True)
def _split_runs(lo, hi, order, run_keys, sizes, tables, ext, extra, members, starts):
    """Classes among rows lo .. hi-1 sorted by hash (lo and hi start runs): runs of equal
    hashes, split where rows differ.  Fills ``members`` and ``starts`` (a class starts
    here) for lo .. hi-1; returns the number of classes."""
    sizes_p, tables_p, ext_p, extra_p = (data_pointer(sizes), data_pointer(tables),
                                         data_pointer(ext), data_pointer(extra))
    with_ext, n_extra = ext.shape[0] > 0, extra.shape[1]
    count = 0
    i = lo
    while i < hi:
        j = i + 1
        while j < hi and run_keys[j] == run_keys[i]:
            j += 1
        # the rows of runs further on, which will be compared (most rows are alone in
        # their run and are not read): their sizes and tables
        # (at 1,000,000 files the comparisons took 15 of 17 ms, waiting for memory)
        for a in range(i + 2 * _AHEAD, min(j + 2 * _AHEAD, hi - 1)):
            if (run_keys[a] == run_keys[a - 1]) | (run_keys[a] == run_keys[a + 1]):
                r = order[a]
                prefetch_read(sizes, r)
                prefetch_read(tables, r)
        members[i] = order[i]
        starts[i] = True
        count += 1
        same = True
        for k in range(i + 1, j):
            members[k] = order[k]
            starts[k] = False
            if same and not _rows_equal(order[i], order[k], sizes_p, tables_p, with_ext, ext_p,
                                        n_extra, extra_p):
                same = False
        if not same:
            # a collision: number the distinct rows by first appearance, then
            # order the run by that number (indices stay ascending within each)
            label = np.empty(j - i, np.int64)
            reps = np.empty(j - i, np.int64)
            distinct = 0
            for k in range(i, j):
                found = -1
                for d in range(distinct):
                    if _rows_equal(reps[d], order[k], sizes_p, tables_p, with_ext, ext_p,
                                   n_extra, extra_p):
                        found = d
                        break
                if found < 0:
                    reps[distinct] = order[k]
                    found = distinct
                    distinct += 1
                label[k - i] = found
            fill = np.zeros(distinct + 1, np.int64)
            for k in range(j - i):
                fill[label[k] + 1] += 1
            for d in range(distinct):
                fill[d + 1] += fill[d]
                starts[i + fill[d]] = True
            for k in range(j - i):
                members[i + fill[label[k]]] = order[i + k]
                fill[label[k]] += 1
            count += distinct - 1
        i = j
    return count


@njit(nogil=True, cache=True)
def _number_classes(lo, hi, first_class, members, starts, members_start, first, of_file,
                    is_first):
    """Class numbers for rows lo .. hi-1, the first class there being ``first_class``."""
    c = first_class - 1
    for k in range(lo, hi):
        if starts[k]:
            c += 1
            members_start[c] = k
            first[c] = members[k]
        of_file[members[k]] = c
        is_first[members[k]] = starts[k]
    return 0


def _split_classes(order, run_keys, sizes, tables, ext, extra):
    """Classes from rows sorted by hash: (of_file, first, members_start, members, is_first)."""
    n = len(order)
    parts = _threads.workers() if n and n >= _threads.PARALLEL_FROM else 1
    # cut at the starts of runs, so no run is split between threads
    cuts = np.searchsorted(run_keys, run_keys[np.linspace(0, n, parts + 1).astype(np.int64)[1:-1]])
    cuts = np.unique(np.concatenate(([0], cuts, [n]))).astype(np.int64)
    members = np.empty(n, np.int64)
    starts = np.empty(n, np.bool_)
    counts = _map(lambda i: _split_runs(cuts[i], cuts[i + 1], order, run_keys, sizes, tables, ext,
                                        extra, members, starts), range(len(cuts) - 1))
    first = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    members_start = np.empty(first[-1] + 1, np.int64)
    members_start[-1] = n
    first_file = np.empty(first[-1], np.int64)
    of_file = np.empty(n, np.int64)
    is_first = np.empty(n, np.bool_)
    _map(lambda i: _number_classes(cuts[i], cuts[i + 1], first[i], members, starts, members_start,
                                   first_file, of_file, is_first), range(len(cuts) - 1))
    return of_file, first_file, members_start, members, is_first


# --------------------------------------------------------------------------- search
#
# How class_pairs finds the pairs (the module docstring says why it is exact):
#
# * Each representative x has a key reach (the largest key distance any
#   partner could allow: the size filter bounds the partner's size) and a
#   sum-table reach W, likewise the largest sum-table limit of any partner.
#   Every projection P of the sum table with weights +1 and -1 has
#   |P_x - P_y| <= L1 distance <= limit <= W for a similar pair.
# * Files go into size bands (sizes within a band differ by at most
#   min(size factor, 1.5)), and within a band into the cells of a grid over two
#   such projections: the table total and the even minus the odd counts.  A
#   cell is a power of two about as wide as the band's largest W, so a file's
#   partners lie in its own and the neighbouring cells of its band and of the
#   next bands up, as far as the size filter reaches.  Within a cell files are
#   sorted by key.
# * Each cell is joined with its neighbours (forward only within a band, so each
#   pair is looked at once) by merging on key: a file looks only at the
#   neighbours' files within its key reach, and only at neighbour cells within
#   its own W.  A small cell (or what is left of one past the window start) is
#   looked at whole instead: the filter runs on vector lanes (byte_window), so a
#   few hundred files cost less than finding the window.
# * A candidate passes a one-word filter first: its key and 7 orthogonal
#   projections with weights +1 and -1 (_PROJECTIONS), quantised into the bytes
#   of a word and compared byte-wise; for a similar pair each projection differs
#   by at most the L1 distance, and the key by at most the key reach.  Then the
#   exact test of DESIGN.md, in the arithmetic of the all-pairs reference.

_LANES = np.uint64(0x0101010101010101)
#: Grid cells are the power of two nearest to this times the band's largest W.
_CELL_SCALE = 1.0
#: A sum-table reach W of at least this many counts is taken as infinite (no grid
#: box, no projection bytes in the filter): W itself, and a table total plus or
#: minus W, must fit in 64 bits.
_MAX_REACH = float(1 << 61)
#: Sizes must be below this: two of them, summed in the exact test, fit in 63 bits.
_MAX_SIZE = 1 << 62
#: Files per chunk of search work handed to a thread.
_CHUNK_FILES = 16384
#: ... when the pairs a chunk finds are thinned as it ends (tallied_pairs' ``keep``):
#: smaller, so that what is dropped is held in smaller pieces
_KEEP_CHUNK_FILES = 2048
#: ... and at most this many pairs found (a batch of files more) between two thinnings:
#: a cell of a dense collection at 10 % can have hundreds of millions
_KEEP_PAIRS = 1 << 21
#: A cell's files are searched in batches of at most this many (each batch's
#: candidates are collected, then tested).
_BATCH = 1024
#: A file's own cell, when it holds at most this many files, and a neighbour cell,
#: when at most this many are left from where the previous file's key window
#: started, are scanned whole rather than in a key window (the filter runs on
#: vector lanes at a tenth of a nanosecond a file, and byte 0 holds the key: on the
#: benchmark corpus 192 to 384 were equally fast, 64 was 8 % slower).
_SCAN_WHOLE_UP_TO = 256
#: A key window is scanned in blocks of this many files.  The search-order ``key``
#: and ``sig`` arrays carry this many files of padding, so a block (or a step of
#: _first_at_least, up to 7 files past its end) never reads past them.
_BLOCK = 16


@njit(nogil=True, cache=True)
def _prepare(lo, hi, reps, sizes, tables, keys, ext_ids, ext_sf, size_factor, band_width, band,
             spread, point, rep_key):
    """Per representative (reps ascending: files are read in order): size band, sum-table
    reach W, grid point (see :func:`_project`) and key.  Returns the largest count."""
    top = np.int64(0)
    proj = np.empty(9, np.int64)
    tables_p = data_pointer(tables)
    for q in range(lo, hi):
        r = reps[q]
        s = sizes[r]
        band[q] = np.int64(np.floor(np.log(max(s, 1)) / band_width))
        spread[q] = min(max(1.0, (1.0 + size_factor) * s * ext_sf[ext_ids[r]] / 2.0), _MAX_REACH)
        _project(tables_p, r * 16, proj)
        point[q, 0] = proj[0]
        point[q, 1] = proj[1]
        for t in range(16):
            top = max(top, abs(tables[r, t]))
        rep_key[q] = keys[r]
    return top


@njit(nogil=True, cache=True)
def _band_extents(q0, q1, band, rank_of, b_min, n_bands, reps, sizes, spread, point, rep_key,
                  ext_ids, ext_offsets, band_rank):
    """Each of representatives q0 .. q1-1's band's rank, into ``band_rank``, and per band
    over them: largest W, smallest and largest size, range of totals and of
    even-minus-odd counts, and range of keys less their extension offsets."""
    w_max = np.zeros(n_bands, np.float64)
    min_size = np.full(n_bands, np.iinfo(np.int64).max, np.int64)
    max_size = np.zeros(n_bands, np.int64)
    lo = np.full((n_bands, 2), np.iinfo(np.int64).max, np.int64)
    hi = np.full((n_bands, 2), np.iinfo(np.int64).min, np.int64)
    key_range = np.empty((n_bands, 2), np.float64)
    key_range[:, 0] = np.inf
    key_range[:, 1] = -np.inf
    for q in range(q0, q1):
        b = rank_of[band[q] - b_min]
        band_rank[q] = b
        s = sizes[reps[q]]
        w_max[b] = max(w_max[b], spread[q])
        min_size[b] = min(min_size[b], s)
        max_size[b] = max(max_size[b], s)
        for d in range(2):
            lo[b, d] = min(lo[b, d], point[q, d])
            hi[b, d] = max(hi[b, d], point[q, d])
        plain = rep_key[q] - ext_offsets[ext_ids[reps[q]]]
        key_range[b, 0] = min(key_range[b, 0], plain)
        key_range[b, 1] = max(key_range[b, 1], plain)
    return w_max, min_size, max_size, lo, hi, key_range


@njit(nogil=True, cache=True)
def _cell_codes(lo, hi, band_rank, point, band_shift, col_bits, index_bits, cell_shift, row_min,
                col_min, rep_key, reps, ext_ids, ext_offsets, ext_rank, ext_bits, level_bits,
                key_min, key_scale, out):
    """Each representative's word to sort: its cell; its extension's rank by offset and
    its key's level, one of ``level_bits`` levels of its band's range of keys less
    their offsets (together a monotone function of the key unless two extensions'
    keys meet in one cell, so the sort leaves each cell nearly in key order); and its
    own number."""
    top = (1 << level_bits) - 1
    for q in range(lo, hi):
        b = band_rank[q]
        k = cell_shift[b]
        row = (point[q, 0] >> k) - row_min[b]
        col = (point[q, 1] >> k) - col_min[b]
        code = (b << band_shift) | (row << col_bits) | col
        e = ext_ids[reps[q]]
        level = (rep_key[q] - ext_offsets[e] - key_min[b]) * key_scale[b]
        if not level >= 0.0:  # NaN too: the level only speeds the sort up
            level = 0.0
        code = (((code << ext_bits) | ext_rank[e]) << level_bits) | np.int64(min(level, float(top)))
        out[q] = (np.uint64(code) << np.uint64(index_bits)) | np.uint64(q)
    return 0


#: The filter's projections: odd rows 3 .. 15 of the 16 x 16 Sylvester Hadamard
#: matrix (row j weighs tag t by (-1)^popcount(j & t)).  They are orthogonal, so
#: each carries its own share of a pair's difference: on the benchmark corpus eight
#: of them passed a quarter as many non-pairs as the eight sums of the four tag
#: groups.  The key took the place of row 1 (even minus odd tags, which the grid
#: already cuts on): the filter then passes 17 % more non-pairs but spares the
#: scans reading keys (1.75 against 1.49 million passed at 1,000,000 files, and a
#: sweep 7 % faster).
_PROJECTIONS = np.array([[1 - 2 * (bin(j & t).count("1") & 1) for t in range(16)]
                         for j in range(3, 16, 2)], dtype=np.int64)


@njit(nogil=True, cache=True, inline="always")
def _project(counts, at, out):
    """The projections of the sum table at ``counts[at : at + 16]`` into ``out`` (arrays
    or pointers: see simgui.core.search.kernels.borrowed): its total and its even minus its odd tags'
    counts (the grid point: the grid's cells are cut on these two), then the rows of
    _PROJECTIONS.

    Hadamard row 2k+1 weighs the pair of tags (2u, 2u+1) by (-1)^popcount(k & u)
    times (+1, -1), so the odd rows are the 8-point Walsh-Hadamard transform of the
    pairs' differences: three rounds of sums and differences, 24 additions in
    registers instead of 112 multiplications and additions."""
    d0 = np.int64(counts[at + 0]) - np.int64(counts[at + 1])
    d1 = np.int64(counts[at + 2]) - np.int64(counts[at + 3])
    d2 = np.int64(counts[at + 4]) - np.int64(counts[at + 5])
    d3 = np.int64(counts[at + 6]) - np.int64(counts[at + 7])
    d4 = np.int64(counts[at + 8]) - np.int64(counts[at + 9])
    d5 = np.int64(counts[at + 10]) - np.int64(counts[at + 11])
    d6 = np.int64(counts[at + 12]) - np.int64(counts[at + 13])
    d7 = np.int64(counts[at + 14]) - np.int64(counts[at + 15])
    total = np.int64(0)
    for t in range(16):
        total += np.int64(counts[at + t])
    # a round per bit of u (1, 2, 4): after them d_k is row k of the 8-point transform
    d0, d1 = d0 + d1, d0 - d1
    d2, d3 = d2 + d3, d2 - d3
    d4, d5 = d4 + d5, d4 - d5
    d6, d7 = d6 + d7, d6 - d7
    d0, d2 = d0 + d2, d0 - d2
    d1, d3 = d1 + d3, d1 - d3
    d4, d6 = d4 + d6, d4 - d6
    d5, d7 = d5 + d7, d5 - d7
    d0, d4 = d0 + d4, d0 - d4
    d1, d5 = d1 + d5, d1 - d5
    d2, d6 = d2 + d6, d2 - d6
    d3, d7 = d3 + d7, d3 - d7
    out[0] = total
    out[1] = d0  # row 1: even minus odd tags
    out[2] = d1  # row 3
    out[3] = d2  # row 5
    out[4] = d3
    out[5] = d4
    out[6] = d5
    out[7] = d6
    out[8] = d7  # row 15


@njit(nogil=True, cache=True, inline="always")
def _key_level(key, quantum):
    """floor(key / quantum) mod 256, exactly: the quantum is a power of two, so the
    division is exact, and so is the remainder (of a whole number, in doubles)."""
    f = np.floor(key / quantum)
    return np.int64(f - 256.0 * np.floor(f / 256.0))


@njit(nogil=True, cache=True, inline="always")
def _signature(proj, shift, minus, level):
    """The filter word: byte 0 the key ``level``; bytes 1-7 the 7 projections of
    _PROJECTIONS (``proj[2:9]`` as :func:`_project` fills it), shifted right, less
    ``minus``."""
    word = np.uint64(level & 0xFF)
    for j in range(7):
        word |= np.uint64(((proj[j + 2] >> shift) - minus) & 0xFF) << np.uint64(8 * j + 8)
    return word


@njit(nogil=True, cache=True)
def _insertion_sort(p0, p1, key, order, budget):
    """Sort key[p0:p1] (and order alike) by insertion, stably, NaN last (as numpy's
    sorts do), unless that takes more than ``budget`` moves: then stop and return False
    (both still permuted alike)."""
    for i in range(p0 + 1, p1):
        k = key[i]
        o = order[i]
        j = i - 1
        # a NaN compares false with anything: it would be a wall no key moves past
        while j >= p0 and (key[j] > k or (key[j] != key[j] and k == k)):
            key[j + 1] = key[j]
            order[j + 1] = order[j]
            j -= 1
        key[j + 1] = k
        order[j + 1] = o
        budget -= i - 1 - j
        if budget < 0:
            return False
    return True


@njit(nogil=True, cache=True)
def _order_cells(c0, c1, cell_start, order, rep_key, key, position):
    """Sort each of cells c0 .. c1-1 by key: ``order`` (representatives in search order)
    in place, their keys into ``key`` and each one's place into ``position``.  (Even the
    cells scanned whole: a file's key window in a neighbour cell starts where the
    previous file's did, which needs the files in key order.)  The cells arrive nearly
    in key order, so an insertion sort does it in a few moves; one that takes more
    (keys the sort could not tell apart) is sorted again whole, stably either way."""
    first = cell_start[c0]
    last = cell_start[c1]
    for p in range(first, last):
        if p + _AHEAD < last:
            prefetch_read(rep_key, order[p + _AHEAD])
        key[p] = rep_key[order[p]]
    for c in range(c0, c1):
        p0 = cell_start[c]
        p1 = cell_start[c + 1]
        if not _insertion_sort(p0, p1, key, order, max(4 * (p1 - p0), 256)):
            by = np.argsort(key[p0:p1], kind="mergesort")
            key[p0:p1] = key[p0:p1][by]
            order[p0:p1] = order[p0:p1][by]
    for p in range(first, last):
        if p + _AHEAD < last:
            prefetch_write(position, order[p + _AHEAD])
        position[order[p]] = p
    return 0


@njit(nogil=True, cache=True)
def _scatter(lo, hi, position, reps, sizes, tables, ext_ids, band_rank, sig_shift, key_quantum,
             rep_key, sig, size, ext, orig, tab):
    """Representatives lo .. hi-1 (files in order, so tables are read in order) to their
    places in search order: sizes, extensions, file indices, signatures and tables.
    (Reading at random and writing in order was slower.  The places' lines are asked
    for _AHEAD files ahead, and each table row is on a line of its own: 22 against
    37 ms at 1,000,000 files.)"""
    proj = np.empty(9, np.int64)
    tables_p = data_pointer(tables)
    for q in range(lo, hi):
        if q + _AHEAD < hi:
            ahead = position[q + _AHEAD]
            prefetch_write(tab, ahead)
            prefetch_write(sig, ahead)
            prefetch_write(size, ahead)
            prefetch_write(ext, ahead)
            prefetch_write(orig, ahead)
        p = position[q]
        f = reps[q]
        size[p] = sizes[f]
        ext[p] = ext_ids[f]
        orig[p] = f
        for t in range(16):
            tab[p, t] = tables[f, t]
        _project(tables_p, f * 16, proj)
        b = band_rank[q]
        sig[p] = _signature(proj, sig_shift[b], 0, _key_level(rep_key[q], key_quantum[b]))
    return 0


@njit(nogil=True, cache=True, inline="always")
def _lower_bound(a, lo, hi, value):
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(nogil=True, cache=True, inline="always")
def _with_room(out, found, more):
    """``out`` (its first ``found`` rows), or a copy twice as large if ``more`` rows would
    not fit."""
    if found + more <= out.shape[0]:
        return out
    bigger = np.empty((max(2 * out.shape[0], found + more) + 64, 2), np.int64)
    bigger[:found] = out[:found]
    return bigger


@njit(nogil=True, cache=True)
def _verify(lo, hi, ends, ys, out, found, key, size, ext, ext_kf, ext_sf, tab, orig, size_factor):
    """The exact test of DESIGN.md on the candidates of files lo .. hi-1 (those of x are
    ys[ends[x - lo - 1] : ends[x - lo]]), in the arithmetic of the all-pairs reference.
    Hits are added to ``out[:found]`` as file indices; returns ``out`` (grown when full)
    and the new count.  Without branches: every candidate is written at ``found``,
    which moves on only for a hit (about 30 % of the candidates, in no pattern a
    branch predictor could learn)."""
    if hi <= lo:
        return out, found
    out = _with_room(out, found, ends[hi - lo - 1])
    i = 0
    for x in range(lo, hi):
        sx = size[x]
        kx = key[x]
        ex = ext[x]
        kfx = ext_kf[ex]
        sfx = ext_sf[ex]
        ox = orig[x]
        last = ends[x - lo]
        while i < last:
            y = ys[i]
            i += 1
            sy = size[y]
            big = max(sx, sy)
            # the size filter, the extension, the key and the sum table (each written as
            # "not over the limit", as the tests were when each skipped the rest)
            ok = not (big > size_factor * min(sx, sy))
            ok &= ext[y] == ex
            ok &= not (abs(key[y] - kx) > max(1.0, big * kfx))
            limit = max(1.0, (sx + sy) * sfx / 2.0)
            ok &= l1_rows(tab, x, y) <= limit
            oy = orig[y]
            out[found, 0] = min(ox, oy)
            out[found, 1] = max(ox, oy)
            found += ok
    return out, found


@njit(nogil=True, cache=True)
def _verify_tally(lo, hi, ends, ys, out, found, key, size, ext, ext_kf, ext_sf, tab, orig,
                  size_factor, hist, weight, multi, fixed, keep_sum):
    """:func:`_verify` for the sliders' statistics: every hit (a candidate within the
    key ceiling) is tallied in ``hist[i, j]`` (the first key step i and sum-table step
    j at which it is a hit; j past the top step for none) by the file pairs it stands
    for, ``weight[a] * weight[b]``, and kept in ``out`` only if it is a sum-table hit
    at ``keep_sum`` (what groups are formed from): the key candidates, tens of times
    more, are counted without being held.  A pair touching a file of ``multi`` (a
    class searched in several extensions, so met more than once) is kept untallied:
    the caller keeps one per class pair and tallies that.  Extensions with ``fixed``
    tolerances are hits at every step (their own test is the search's)."""
    if hi <= lo:
        return out, found
    out = _with_room(out, found, ends[hi - lo - 1])
    n_steps = TOLERANCE_STEPS.shape[0]
    i = 0
    for x in range(lo, hi):
        sx = size[x]
        kx = key[x]
        ex = ext[x]
        kfx = ext_kf[ex]
        sfx = ext_sf[ex]
        ox = orig[x]
        last = ends[x - lo]
        while i < last:
            y = ys[i]
            i += 1
            sy = size[y]
            big = max(sx, sy)
            if big > size_factor * min(sx, sy) or ext[y] != ex:
                continue
            dk = abs(key[y] - kx)
            if dk > max(1.0, big * kfx):
                continue
            l1 = l1_rows(tab, x, y)
            if l1 > max(1.0, (sx + sy) * sfx / 2.0):
                continue
            oy = orig[y]
            out[found, 0] = min(ox, oy)
            out[found, 1] = max(ox, oy)
            if multi[ox] or multi[oy]:
                found += 1
                continue
            if fixed[ex]:
                min_key, min_sum = 0.0, 0.0
            else:
                min_key, min_sum = smallest_tolerances(dk, sx, sy, l1)
            k = step_at_or_above(min_key)
            if k < n_steps:
                hist[k, step_at_or_above(min_sum)] += weight[ox] * weight[oy]
            found += min_sum <= keep_sum
    return out, found


@njit(nogil=True, cache=True, inline="always")
def _inside(y, top, bottom, key):
    """Candidate y is within the key window (counted: the density of candidates)."""
    k = key[y]
    return (k <= top) & (k >= bottom)


@njit(nogil=True, cache=True, inline="always")
def _append_bits(y0, mask, ys, n_p):
    """Files y0 + i for each bit i set in ``mask``, appended to ``ys[n_p:]``; the new count."""
    while mask:
        ys[n_p] = np.int64(y0) + np.int64(trailing_zeros(mask))
        n_p += 1
        mask &= mask - np.uint64(1)
    return n_p


@njit(nogil=True, cache=True, inline="always")
def _scan_whole(y0, end, top, bottom, query, limit, key, sig, ys, n_p, counting):
    """Files y0 .. end-1 (in any order) that pass the one-word filter (query and
    limit as :func:`near8` takes them), appended to ``ys[n_p:]``: the new count, and
    how many were within the key window if ``counting`` is not None.  The filter
    runs eight files at a time, into a word with a bit per file that passes, for up
    to 64 files at a time (unsigned indices: numba checks signed ones for wrapping).
    Reads up to 7 files past ``end`` (the padding, or the next cell)."""
    inside = 0
    base = np.uint64(y0)
    stop = np.uint64(end)
    eight = np.uint64(8)
    while base < stop:
        count = min(stop - base, np.uint64(64))
        mask = np.uint64(0)
        for j in range(np.uint64(0), count, eight):
            mask |= near8(sig, base + j, query, limit) << j
        if count < 64:
            mask &= (np.uint64(1) << count) - np.uint64(1)
        # counting is True or None: two types, so two compiled versions, the
        # search's without the count (a flag tested at run time cost the sweep 8 %)
        if counting is not None:
            for j in range(np.uint64(0), count):
                inside += _inside(base + j, top, bottom, key)
        n_p = _append_bits(base, mask, ys, n_p)
        base += np.uint64(64)
    return n_p, inside


@njit(nogil=True, cache=True, inline="always")
def _scan_window(y0, end, top, bottom, query, limit, key, sig, ys, n_p, counting):
    """Like :func:`_scan_whole` over files y0 .. end-1 sorted by key, up to the first
    key above ``top``: in blocks of _BLOCK files, each scanned whole (the arrays are
    padded, so the last block may run past ``end``).  Returns the count, how many were
    within the key window and how many files were looked at."""
    block = np.uint64(_BLOCK)
    y = np.uint64(y0)
    stop = np.uint64(end)
    looked = 0
    inside = 0
    while y < stop:
        mask = np.uint64(0)
        for j in range(np.uint64(0), block, np.uint64(8)):
            mask |= near8(sig, y + j, query, limit) << j
        if stop - y < block:
            mask &= (np.uint64(1) << (stop - y)) - np.uint64(1)
        if counting is not None:  # see _scan_whole
            for j in range(np.uint64(0), min(block, stop - y)):
                inside += _inside(y + j, top, bottom, key)
        n_p = _append_bits(y, mask, ys, n_p)
        looked += _BLOCK
        if y + block >= stop or key[y + block - np.uint64(1)] > top:
            break
        y += block
    return n_p, inside, looked


@njit(nogil=True, cache=True, inline="always")
def _first_at_least(y, end, value, key):
    """The first of files y .. end-1 (sorted by key) whose key is at least ``value``
    (``end`` if none), for a y usually a few files before it: the last steps are
    taken without branches, which the processor would mispredict.  Reads up to 7
    files past ``end`` (the padding, or the next cell), whose keys do not count."""
    while y + 16 <= end and key[y + 15] < value:
        y += 16
    y += 8 * ((y + 8 <= end) & (key[y + 7] < value))
    y += 4 * ((y + 4 <= end) & (key[y + 3] < value))
    y += 2 * ((y + 2 <= end) & (key[y + 1] < value))
    y += (y + 1 <= end) & (key[y] < value)
    return y


@njit(nogil=True, cache=True)
def _scan_cell(x0, x1, lo, hi, n_s, n_t, s_band, s_floor, t_hi, t_slot, t_row, t_col, ptr,
               band_cell_shift, band_sig_shift, band_key_quantum, band_max_size, key, sig, size,
               ext, ext_kf, ext_sf, tab, size_factor, whole_up_to, ends, ys, counts, counting,
               s_window, s_box, s_word, proj):
    """Candidates y of files x0 .. x1-1 of a cell (files lo .. hi-1) that pass the one-word
    filter, in ``ys`` (``ends[x - x0]``: where those of x end): the rest of the own cell,
    then the neighbour cells (``t_*``, per band slot ``k``; ``ptr`` where each one's
    key window was, for the previous file).  The own cell, if it holds at most
    ``whole_up_to`` files, and a neighbour cell, if at most that many are left from
    its window start, are scanned whole; the others in a key window.  ``ys`` has
    room for all; ``counts`` gets the work done, the candidates within the key window
    only if ``counting`` is not None.  The last four arguments are room for each
    file's bounds per band slot and its projections (allocated once per sweep: a
    cell's call is too short to pay for ten allocations)."""
    # the scans take the arrays they read and fill as pointers (see simgui.core.search.kernels.borrowed)
    key_p = data_pointer(key)
    sig_p = data_pointer(sig)
    ys_p = data_pointer(ys)
    tab_p = data_pointer(tab)
    proj_p = data_pointer(proj)
    s_top = s_window[0]
    s_bottom = s_window[1]
    s_rlo = s_box[0]
    s_rhi = s_box[1]
    s_clo = s_box[2]
    s_chi = s_box[3]
    query = s_word[0]
    limit = s_word[1]
    examined = 0
    scanned = 0
    n_p = 0
    for x in range(x0, x1):
        kx = key[x]
        sx = size[x]
        kfx = ext_kf[ext[x]]
        sfx = ext_sf[ext[x]]
        _project(tab_p, x * 16, proj_p)
        total = proj[0]
        even_odd = proj[1]
        for k in range(n_s):
            bb = s_band[k]
            partner = min(size_factor * sx, float(band_max_size[bb]))
            reach = max(1.0, partner * kfx)
            w = max(1.0, (sx + partner) * sfx / 2.0)
            wide = w >= _MAX_REACH
            wx = np.int64(min(w, _MAX_REACH))
            # a margin of a few units in the last place for rounding (keys carry
            # extension offsets up to 2**44): the exact key test comes later
            slack = (abs(kx) + reach) * 2e-15
            s_top[k] = kx + reach + slack
            s_bottom[k] = kx - reach - slack
            k2 = band_cell_shift[bb]
            if wide:
                s_rlo[k] = s_clo[k] = np.iinfo(np.int64).min
                s_rhi[k] = s_chi[k] = np.iinfo(np.int64).max
            else:
                s_rlo[k] = (total - wx) >> k2
                s_rhi[k] = (total + wx) >> k2
                s_clo[k] = (even_odd - wx) >> k2
                s_chi[k] = (even_odd + wx) >> k2
            # the filter's window, D steps either side: the key's D in byte 0 (at most
            # 33: see key_quantum), the projections' in the others (at most 32 in
            # their own band, more from a band below); a byte whose window would be
            # wider than 127 steps is not tested (its limit is 255: any byte passes)
            d = 64 if wide else (wx >> band_sig_shift[bb]) + 1
            quantum = band_key_quantum[bb]
            dk = np.floor((reach + slack) / quantum) + 1.0
            d_limit = 2 * d
            if d > 63:
                d = 63
                d_limit = 255
            dk_limit = 255
            if dk <= 63.0:  # NaN not
                dk_limit = 2 * np.int64(dk)
            else:
                dk = 63.0
            query[k] = _signature(proj_p, band_sig_shift[bb], d,
                                  _key_level(kx, quantum) - np.int64(dk))
            limit[k] = np.uint64(d_limit) * (_LANES - np.uint64(1)) + np.uint64(dk_limit)
        # the rest of the own cell (sorted by key: its window starts at x)
        if hi - lo > whole_up_to:
            n_p, inside, looked = _scan_window(x + 1, hi, s_top[0], -np.inf, query[0],
                                               limit[0], key_p, sig_p, ys_p, n_p,
                                               counting)
        else:
            n_p, inside = _scan_whole(x + 1, hi, s_top[0], s_bottom[0], query[0],
                                      limit[0], key_p, sig_p, ys_p, n_p, counting)
            looked = hi - x - 1
        examined += inside
        scanned += looked
        # the neighbour cells
        for t_i in range(n_t):
            k = t_slot[t_i]
            y = ptr[t_i]
            end = t_hi[t_i]
            window = end - y > whole_up_to
            if window:
                floor_key = kx - s_floor[k] - (abs(kx) + s_floor[k]) * 2e-15
                y = _first_at_least(y, end, floor_key, key_p)
                ptr[t_i] = y
            if ((t_row[t_i] < s_rlo[k]) | (t_row[t_i] > s_rhi[k]) | (t_col[t_i] < s_clo[k])
                    | (t_col[t_i] > s_chi[k])):
                continue
            if window:
                n_p, inside, looked = _scan_window(y, end, s_top[k], s_bottom[k], query[k],
                                                   limit[k], key_p, sig_p, ys_p, n_p,
                                                   counting)
            else:
                n_p, inside = _scan_whole(y, end, s_top[k], s_bottom[k], query[k],
                                          limit[k], key_p, sig_p, ys_p, n_p, counting)
                looked = end - y
            examined += inside
            scanned += looked
        ends[x - x0] = n_p
    counts[0] += examined
    counts[1] += n_p
    counts[2] += scanned
    return n_p


@njit(nogil=True, cache=True)
def _slot_room(slots):
    """Room for a file's bounds per band slot: key window (top, bottom), grid box (rows,
    columns) and filter words (query, limit)."""
    return (np.empty((2, slots), np.float64), np.empty((4, slots), np.int64),
            np.empty((2, slots), np.uint64))


@njit(nogil=True, cache=True)
def _sweep_cells(c0, c1, x_start, max_found, out, counts, cell_start, cell_code,
                 band_cell_lo, band_cell_hi,
                 band_cell_shift, band_sig_shift, band_key_quantum, band_row_min, band_col_min,
                 band_rows, band_cols, band_min_size, band_max_size, band_shift, col_bits, key, sig,
                 size, ext, ext_kf, ext_sf, orig, tab, size_factor, whole_up_to, counting,
                 hist, weight, multi, fixed, keep_sum):
    """Similar pairs whose first file is in cells c0 .. c1-1, from file ``x_start`` of
    cell c0 on, as file indices (a, b), a < b: ``out`` (grown as needed), how many rows
    of it, and where to go on from: the cell and file (c1 and -1 when done), once
    ``max_found`` pairs are found (at the end of a batch of files: a dense cell at a wide
    tolerance can have hundreds of millions, and the caller thins them between calls).
    ``counts[0]`` gains the number of candidates (within a file's key window in its
    neighbour cells), ``counts[1]`` those that passed the one-word filter, ``counts[2]``
    the files the scans looked at.  Per cell: find the neighbour cells, collect the
    candidates passing the one-word filter, then test those exactly.  With a ``hist``
    (else None), the hits are tallied there and only some kept (see
    :func:`_verify_tally`).
    """
    found = 0
    n_bands = band_cell_shift.shape[0]
    n_cells = cell_code.shape[0]
    m = cell_start[n_cells]
    col_mask = (np.int64(1) << col_bits) - 1
    row_mask = (np.int64(1) << (band_shift - col_bits)) - 1
    # room for the most any cell can need, allocated once: an array reassigned in the
    # loops (to grow it) is counted in and out of every pass (atomic operations that
    # took a tenth of the search); pages are only touched as far as they are used
    t_hi = np.empty(n_cells, np.int64)  # per neighbour cell: its end,
    t_slot = np.empty(n_cells, np.int64)  # its band slot,
    t_row = np.empty(n_cells, np.int64)  # row, column
    t_col = np.empty(n_cells, np.int64)
    ptr = np.empty(n_cells, np.int64)  # and where the key window was, for the last file
    s_band = np.empty(n_bands, np.int64)
    s_floor = np.empty(n_bands, np.float64)  # the cell's largest key reach, per band
    s_window, s_box, s_word = _slot_room(n_bands)
    proj = np.empty(9, np.int64)
    ys = np.empty(max(m, 1), np.int64)  # a batch's candidates: at most m
    ends = np.empty(_BATCH, np.int64)
    for c in range(c0, c1):
        lo = cell_start[c]
        hi = cell_start[c + 1]
        code = cell_code[c]
        b = code >> band_shift
        row = ((code >> col_bits) & row_mask) + band_row_min[b]
        col = (code & col_mask) + band_col_min[b]
        shift = band_cell_shift[b]
        s_cell = np.int64(0)
        kf_cell = 0.0
        sf_cell = 0.0
        for i in range(lo, hi):
            s_cell = max(s_cell, size[i])
            kf_cell = max(kf_cell, ext_kf[ext[i]])
            sf_cell = max(sf_cell, ext_sf[ext[i]])
        tot_lo = row << shift
        tot_hi = ((row + 1) << shift) - 1
        eo_lo = col << shift
        eo_hi = ((col + 1) << shift) - 1
        # the neighbour cells any file of this cell may have partners in
        n_t = 0
        n_s = 0
        neighbours = hi - lo
        bb = b
        while bb < n_bands:
            if bb > b and band_min_size[bb] > size_factor * s_cell:
                break
            s_band[n_s] = bb
            # the largest partner any file of the cell can have in band bb
            partner = min(size_factor * s_cell, float(band_max_size[bb]))
            s_floor[n_s] = max(1.0, partner * kf_cell)
            w = max(1.0, (s_cell + partner) * sf_cell / 2.0)
            wi = np.int64(min(w, _MAX_REACH))
            k2 = band_cell_shift[bb]
            rmin = band_row_min[bb]
            cmin = band_col_min[bb]
            if w >= _MAX_REACH:  # infinite: every cell of the band
                r_lo, r_hi = rmin, rmin + band_rows[bb] - 1
                q_lo, q_hi = cmin, cmin + band_cols[bb] - 1
            else:
                r_lo = (tot_lo - wi) >> k2
                r_hi = (tot_hi + wi) >> k2
                q_lo = (eo_lo - wi) >> k2
                q_hi = (eo_hi + wi) >> k2
            if bb == b:
                r_lo = row
            first_row = max(r_lo, rmin)
            last_row = min(r_hi, rmin + band_rows[bb] - 1)
            for r in range(first_row, last_row + 1):
                ql = q_lo
                if bb == b and r == row:
                    ql = col + 1
                co0 = max(ql - cmin, 0)
                co1 = min(q_hi - cmin, band_cols[bb] - 1)
                if co0 > co1:
                    continue
                base = (bb << band_shift) | ((r - rmin) << col_bits)
                end = band_cell_hi[bb]
                p = _lower_bound(cell_code, band_cell_lo[bb], end, base | co0)
                last = base | co1
                while p < end and cell_code[p] <= last:
                    t_hi[n_t] = cell_start[p + 1]
                    t_slot[n_t] = n_s
                    t_row[n_t] = r
                    t_col[n_t] = (cell_code[p] & col_mask) + cmin
                    ptr[n_t] = cell_start[p]
                    neighbours += cell_start[p + 1] - cell_start[p]
                    n_t += 1
                    p += 1
            n_s += 1
            bb += 1
        # the cell's files in batches whose candidates fit in ys
        x0 = max(lo, x_start) if c == c0 else lo
        while x0 < hi:
            if found >= max_found:
                return out, found, c, x0
            x1 = min(hi, x0 + min(_BATCH, max(1, m // max(neighbours, 1))))
            _scan_cell(x0, x1, lo, hi, n_s, n_t, s_band, s_floor, t_hi, t_slot, t_row, t_col, ptr,
                       band_cell_shift, band_sig_shift, band_key_quantum, band_max_size, key, sig,
                       size, ext, ext_kf, ext_sf, tab, size_factor, whole_up_to, ends, ys, counts,
                       counting, s_window, s_box, s_word, proj)
            if hist is None:
                out, found = _verify(x0, x1, ends, ys, out, found, key, size, ext, ext_kf,
                                     ext_sf, tab, orig, size_factor)
            else:
                out, found = _verify_tally(x0, x1, ends, ys, out, found, key, size, ext, ext_kf,
                                           ext_sf, tab, orig, size_factor, hist, weight, multi,
                                           fixed, keep_sum)
            x0 = x1
    return out, found, c1, np.int64(-1)


@njit(nogil=True, cache=True)
def _unpack_cells(lo, hi, packed, index_bits, code_shift, order, starts):
    """From sorted words lo .. hi-1: each one's representative, and whether it starts a
    cell (its cell code, above ``code_shift``, differs from the word before's)."""
    mask = np.uint64((1 << index_bits) - 1)
    for p in range(lo, hi):
        order[p] = np.int64(packed[p] & mask)
        starts[p] = p == 0 or (packed[p] >> code_shift) != (packed[p - 1] >> code_shift)
    return 0


@njit(nogil=True, cache=True)
def _mark_present(lo, hi, band, b_min, present):
    """present[b - b_min] = 1 for the bands b of representatives lo .. hi-1 (threads may
    set the same one: a write only when not yet set keeps them off each other's cache
    lines)."""
    for q in range(lo, hi):
        at = band[q] - b_min
        if present[at] == 0:
            present[at] = 1
    return 0


def _similar_pairs(reps, sizes, tables, keys, ext_ids, ext_kf, ext_sf, ext_offsets, size_factor,
                   counting=False, tally=None, keep=None,
                   chunk_files: int = _CHUNK_FILES, ceiling=None) -> tuple[np.ndarray, dict]:
    """Similar pairs among the files ``reps`` (ascending): (m, 2) int64, a < b, and
    counts of the work done.  ``ext_offsets``: what the extension modification adds to
    the keys, per extension id.  ``tally``: (weight, multi, fixed, keep_sum) to tally
    the pairs and keep only some (see :func:`_verify_tally`); the counts then hold the
    tally as ``hist``.  ``keep``: ``keep(pairs) -> bool mask``, applied to each chunk's
    pairs as its thread finds them (of ``chunk_files`` files, and every _KEEP_PAIRS pairs
    found), so that pairs it drops are held a chunk at a time, never all at once.
    ``ceiling``: ``ceiling() -> float``, a sum-table tolerance that may come down while
    the search runs (HeldHits'), below which alone pairs are kept from then on (the
    tally does not depend on it)."""
    m = len(reps)
    band_width = np.log(max(min(size_factor, 1.5), 1.0 + 1e-9))
    band = np.empty(m, np.int64)
    spread = np.empty(m, np.float64)
    point = np.empty((m, 2), np.int64)
    rep_key = np.empty(m, np.float64)
    biggest = max(_in_chunks(_prepare, m, reps, sizes, tables, keys, ext_ids, ext_sf,
                             float(size_factor), band_width, band, spread, point, rep_key))
    # the bands present, ranked; each thread takes the extents of its share of the files
    b_min, b_max = int(band.min()), int(band.max())
    if b_max - b_min >= (1 << 22):  # pragma: no cover - a size factor within a hair of 1
        values, band = np.unique(band, return_inverse=True)
        band = np.ascontiguousarray(band, dtype=np.int64).reshape(-1)
        b_min, b_max = 0, len(values) - 1
    present = np.zeros(b_max - b_min + 1, np.int64)
    _in_chunks(_mark_present, m, band, np.int64(b_min), present)
    rank_of = np.cumsum(present) - 1
    n_bands = int(present.sum())
    band_rank = np.empty(m, np.int64)
    extents = (band, rank_of, np.int64(b_min), n_bands, reps, sizes, spread, point, rep_key,
               ext_ids, ext_offsets, band_rank)
    if 16 * n_bands * _threads.workers() <= m:
        parts = _in_chunks(_band_extents, m, *extents)
    else:  # a band per size or so (a size factor of 1): one set of extents, not one a thread
        parts = [_band_extents(0, m, *extents)]
    w_max = np.max([p[0] for p in parts], axis=0)
    min_size = np.min([p[1] for p in parts], axis=0)
    max_size = np.max([p[2] for p in parts], axis=0)
    lo = np.min([p[3] for p in parts], axis=0)
    hi = np.max([p[4] for p in parts], axis=0)
    key_range = np.stack((np.min([p[5][:, 0] for p in parts], axis=0),
                          np.max([p[5][:, 1] for p in parts], axis=0)), axis=1)
    # cells about as wide as the largest sum-table reach of the band, a power of two
    cell_shift = np.maximum(0, np.round(np.log2(w_max * _CELL_SCALE))).astype(np.int64)
    # the signature's quantum: differences up to W span at most 31 steps
    sig_shift = np.zeros(n_bands, np.int64)
    w_int = np.floor(w_max).astype(np.int64)
    while True:
        wide = (w_int >> sig_shift) > 31
        if not wide.any():
            break
        sig_shift[wide] += 1
    # the key byte's quantum, a power of two (so keys divide exactly): the largest
    # key reach into the band spans at most 31 steps
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        key_quantum = np.exp2(np.ceil(np.log2(np.maximum(1.0, max_size * float(ext_kf.max()))
                                              / 31.0)))
    index_bits = max(1, (m - 1).bit_length())
    band_bits = max(1, (n_bands - 1).bit_length())
    while True:
        row_min = lo[:, 0] >> cell_shift
        col_min = lo[:, 1] >> cell_shift
        rows = (hi[:, 0] >> cell_shift) - row_min + 1
        cols = (hi[:, 1] >> cell_shift) - col_min + 1
        band_row_bits = np.array([max(1, int(r - 1).bit_length()) for r in rows])
        band_col_bits = np.array([max(1, int(c - 1).bit_length()) for c in cols])
        row_bits, col_bits = int(band_row_bits.max()), int(band_col_bits.max())
        if index_bits + band_bits + row_bits + col_bits <= 63:
            break
        # coarser cells (as exact, only slower) in the bands that need the most bits;
        # a shift of 62 leaves at most 4 rows and columns
        grow = ((band_row_bits == row_bits) | (band_col_bits == col_bits)) & (cell_shift < 62)
        if not grow.any():  # pragma: no cover - some 2**55 files
            raise ValueError("too many files to search at once")
        cell_shift[grow] += 1
    band_shift = row_bits + col_bits
    # below the cell, the extension's rank by offset and a level of the key less the
    # offset, in the bits the radix sort's passes have room for (at least 12 for the
    # level): cells then need only an insertion sort by key
    cell_bits = band_bits + band_shift
    room = 63 - index_bits - cell_bits
    offsets, ext_rank = np.unique(ext_offsets, return_inverse=True)  # one offset, one rank
    ext_bits = (len(offsets) - 1).bit_length()
    if ext_bits > room:
        ext_bits = 0
        ext_rank[:] = 0
    ext_rank = ext_rank.astype(np.int64).reshape(-1)
    level_bits = min(room - ext_bits,
                     -(-(cell_bits + ext_bits + 12) // 11) * 11 - cell_bits - ext_bits)
    key_bits = ext_bits + level_bits
    key_span = key_range[:, 1] - key_range[:, 0]
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        key_scale = ((1 << level_bits) - 1) / key_span
    key_scale[~np.isfinite(key_scale)] = 0.0  # one key, or a span too small to divide by
    packed = np.empty(m, np.uint64)
    _in_chunks(_cell_codes, m, band_rank, point, band_shift, col_bits, index_bits, cell_shift,
               row_min, col_min, rep_key, reps, ext_ids, ext_offsets, ext_rank,
               np.int64(ext_bits), np.int64(level_bits), key_range[:, 0].copy(), key_scale,
               packed)
    packed = sort_bits(packed, index_bits, index_bits + cell_bits + key_bits)
    order = np.empty(m, np.int64)
    starts = np.empty(m, np.bool_)
    code_shift = np.uint64(index_bits + key_bits)
    _in_chunks(_unpack_cells, m, packed, np.int64(index_bits), code_shift, order, starts)
    first = np.flatnonzero(starts)
    cell_code = (packed[first] >> code_shift).astype(np.int64)
    cell_start = np.append(first, m).astype(np.int64)
    n_cells = len(cell_code)
    cell_band = cell_code >> band_shift
    key = np.full(m + _BLOCK, np.inf)  # padded: see _scan_window
    sig = np.zeros(m + _BLOCK, np.uint64)
    size = np.empty(m, np.int64)
    ext = np.empty(m, np.int64)
    orig = np.empty(m, np.int64)
    tab = empty_rows(m, 16, np.int32 if biggest < (1 << 30) else np.int64)  # see _scatter
    # chunks of about _CHUNK_FILES files, whole cells each
    cuts = np.unique(np.append(np.searchsorted(cell_start, np.arange(0, m, chunk_files)),
                               n_cells)).astype(np.int64)
    position = np.empty(m, np.int64)
    _map(lambda i: _order_cells(cuts[i], cuts[i + 1], cell_start, order, rep_key, key, position),
         range(len(cuts) - 1))
    _in_chunks(_scatter, m, position, reps, sizes, tables, ext_ids, band_rank, sig_shift,
               key_quantum, rep_key, sig, size, ext, orig, tab)
    band_cell_lo = np.searchsorted(cell_band, np.arange(n_bands)).astype(np.int64)
    band_cell_hi = np.searchsorted(cell_band, np.arange(n_bands), side="right").astype(np.int64)
    args = (cell_start, cell_code, band_cell_lo, band_cell_hi, cell_shift, sig_shift,
            key_quantum, row_min, col_min, rows, cols, min_size, max_size, np.int64(band_shift),
            np.int64(col_bits), key, sig, size, ext, ext_kf, ext_sf, orig, tab, float(size_factor),
            np.int64(_SCAN_WHOLE_UP_TO), True if counting else None)
    if tally is None:
        tally_args = (None, None, None, 0.0)
    else:
        weight, multi, fixed, keep_sum = tally
        tally_args = (weight, multi, fixed, float(keep_sum))
    n_steps = len(TOLERANCE_STEPS)
    # one tally, each chunk's added as it ends (60 chunks' at once were 36 MB at a
    # million files)
    total = None if tally is None else np.zeros((n_steps, n_steps + 1), np.int64)
    adding = threading.Lock()

    def run(i):
        c0, c1 = int(cuts[i]), int(cuts[i + 1])
        out = np.empty((2 * int(cell_start[c1] - cell_start[c0]) + 64, 2), np.int64)
        counts = np.zeros(3, np.int64)
        hist = None if tally is None else np.zeros((n_steps, n_steps + 1), np.int64)
        if keep is None:
            out, found, _, _ = _sweep_cells(c0, c1, -1, np.iinfo(np.int64).max, out, counts,
                                            *args, hist, *tally_args)
        else:
            # thinned every _KEEP_PAIRS pairs: what is dropped is never held all at once
            kept, c, x = [], c0, -1
            while c < c1:
                now = tally_args
                if ceiling is not None and tally_args[0] is not None:
                    now = (*tally_args[:3], min(tally_args[3], float(ceiling())))
                out, found, c, x = _sweep_cells(c, c1, x, _KEEP_PAIRS, out, counts, *args,
                                                hist, *now)
                kept.append(out[:found][keep(out[:found])])
        if hist is not None:
            with adding:
                np.add(total, hist, out=total)
        if keep is not None:
            return (np.concatenate(kept) if len(kept) > 1 else kept[0]), counts
        # a copy: the kernel's buffer may be twice what it found
        return (out[:found].copy() if found < len(out) // 2 else out[:found]), counts

    parts = _map(run, range(len(cuts) - 1))
    pairs = (np.concatenate([p for p, _ in parts]) if len(parts) > 1
             else parts[0][0] if parts else np.zeros((0, 2), np.int64))
    counts = sum((c for _, c in parts), np.zeros(3, np.int64))
    work = {"files": m, "cells": n_cells, "examined": int(counts[0]),
            "filtered": int(counts[1]), "looked_at": int(counts[2]), "pairs": len(pairs)}
    if tally is not None:
        work["hist"] = total
    return pairs, work


def _number_extensions(extensions: Sequence[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """The distinct extensions, sorted, and each file's number among them.  (Mapped
    by the dict's own lookup, not a Python loop: a million files take 0.1 s, not 0.5.)"""
    extensions = extensions if isinstance(extensions, (list, tuple)) else list(extensions)
    # only plain strings are their own str(); a str subclass (an Enum, say) may not be,
    # and may equal a plain string that the set below would merge it into
    if not set(map(type, extensions)) <= {str, np.str_}:
        extensions = [str(e) for e in extensions]
    present = set(extensions)
    distinct = tuple(sorted(str(e) for e in present))
    number = {e: i for i, e in enumerate(distinct)}
    return distinct, np.fromiter(map(number.__getitem__, extensions), np.int64, len(extensions))


def _extension_offsets(distinct: Sequence[str]) -> np.ndarray:
    """What compute_keys adds to a key, per extension (looked up once per extension)."""
    return np.array([extension_offset(e) for e in distinct], np.float64)


def _in_another_extension(classes: Classes, ext_ids: np.ndarray) -> np.ndarray:
    """Per file: its extension is not its class's first file's."""
    return ext_ids != ext_ids[classes.first][classes.of_file]


@dataclass(frozen=True)
class SearchSpace:
    """Everything a search needs, prepared once; tolerances are applied per call."""

    sizes: np.ndarray
    tables: np.ndarray
    keys: np.ndarray
    ext_ids: np.ndarray
    extensions: tuple[str, ...] | None  # distinct extensions, by ext id
    classes: Classes
    size_factor: float
    min_similar_size: int
    #: some class holds copies with different extensions (classes_by_extension=False)
    mixed_extensions: bool
    plain_keys: np.ndarray  # keys without the extension modification

    @classmethod
    def build(cls, sizes, tables, *, scheme: KeyScheme = SKEW, extensions: Sequence[str] | None = None,
              size_factor: float = DEFAULT_SIZE_FACTOR, class_extra: np.ndarray | None = None,
              min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE,
              classes_by_extension: bool = True) -> SearchSpace:
        """``class_extra``: more columns that must be equal within a class (content
        hashes make classes sets of identical files); ``classes_by_extension=False``
        lets one class hold copies with different extensions (the search then looks
        at one file of the class per extension: see :meth:`search_reps`)."""
        sizes = np.ascontiguousarray(sizes, dtype=np.int64)
        tables = np.ascontiguousarray(tables, dtype=np.int64).reshape(-1, 16)
        if len(sizes) != len(tables):
            raise ValueError("one size per sum table is needed")
        if len(sizes) and not (0 <= sizes.min() and sizes.max() < _MAX_SIZE):
            raise ValueError("file sizes must be from 0 to 2**62 - 1 bytes")
        if size_factor < 1:
            raise ValueError("the size factor must be at least 1")
        keys = plain_keys = scheme.keys(tables)
        if extensions is not None:
            distinct, ext_ids = _number_extensions(extensions)
            if len(ext_ids) != len(sizes):
                raise ValueError("one extension per file is needed")
            # what compute_keys adds, looked up once per extension
            keys = keys + _extension_offsets(distinct)[ext_ids]
        else:
            ext_ids = np.zeros(len(sizes), np.int64)
            distinct = None
        by_ext = extensions is not None and classes_by_extension
        classes = classes_of(sizes, tables, ext_ids if by_ext else None, class_extra)
        mixed = (extensions is not None and not by_ext
                 and bool(_in_another_extension(classes, ext_ids).any()))
        return cls(sizes, tables, keys, ext_ids, distinct, classes,
                   float(size_factor), int(min_similar_size), mixed, plain_keys)

    def search_reps(self) -> np.ndarray:
        """The files a search runs over, ascending: the first file of each class at or
        above the smallest similar size and, in a class of copies with several
        extensions, the first file of each of its other extensions too (the
        extension rule pairs a file with copies of its own extension only)."""
        of_file = self.classes.of_file
        big = self.sizes >= self.min_similar_size
        reps = self.classes.is_first & big
        if self.mixed_extensions:
            other = np.flatnonzero(big & _in_another_extension(self.classes, self.ext_ids))
            code = of_file[other] * (int(self.ext_ids.max()) + 1) + self.ext_ids[other]
            _, at = np.unique(code, return_index=True)  # each (class, extension)'s lowest
            reps[other[at]] = True
        return np.flatnonzero(reps)

    def one_per_class_pair(self, pairs: np.ndarray,
                           preferred: np.ndarray | None = None) -> np.ndarray:
        """Rows of ``pairs`` (of search reps) that keep one pair per pair of classes,
        ascending: two classes of copies may match in each extension they share.  The
        one kept is ``preferred`` if any is, then the one with the smallest key
        distance (copies have equal sizes and tables, but a key carries its
        extension's offset, whose rounding moves the distance by up to a few
        thousandths): the pair that is a hit whenever any of them is."""
        if not self.mixed_extensions:
            return np.arange(len(pairs))
        distance = np.abs(self.keys[pairs[:, 0]] - self.keys[pairs[:, 1]])
        rank = ~preferred if preferred is not None else np.zeros(len(pairs), bool)
        order = np.lexsort((distance, rank))
        of = self.classes.of_file
        ca, cb = of[pairs[order, 0]], of[pairs[order, 1]]
        code = np.minimum(ca, cb) * len(self.classes.first) + np.maximum(ca, cb)
        _, at = np.unique(code, return_index=True)  # the first of each, in that order
        return np.sort(order[at])

    def extension_offsets(self) -> np.ndarray:
        """What the extension modification adds to the keys, per extension id."""
        if self.extensions is None:
            return np.zeros(1)
        return _extension_offsets(self.extensions)

    def override_ids(self, overrides: Mapping[str, Tolerances] | None) -> dict[int, Tolerances]:
        """Extension id -> tolerances, for the overrides naming an extension present."""
        if not overrides or self.extensions is None:
            return {}
        ids = {}
        for ext, tol in overrides.items():
            ext = ext.casefold().lstrip(".")
            if ext in self.extensions:
                ids[self.extensions.index(ext)] = tol
        return ids

    def fractions(self, tolerances: Tolerances,
                  overrides: Mapping[str, Tolerances] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Key and sum-table tolerance as fractions, per extension id."""
        n_ext = max(1, len(self.extensions or ()))
        key_frac = np.full(n_ext, tolerances.key / 100.0)
        sum_frac = np.full(n_ext, tolerances.sum / 100.0)
        for ext_id, tol in self.override_ids(overrides).items():
            key_frac[ext_id] = tol.key / 100.0
            sum_frac[ext_id] = tol.sum / 100.0
        return key_frac, sum_frac

    def class_pairs(self, tolerances: Tolerances,
                    overrides: Mapping[str, Tolerances] | None = None) -> np.ndarray:
        """Similar pairs of classes, (m, 2) int64 with a < b (in no particular order,
        the same for the same input), each as two of its :meth:`search_reps` (each
        class's first file, unless the pair matched in another extension)."""
        return self._class_pairs_counted(tolerances, overrides, counting=False)[0]

    def tallied_pairs(self, tolerances: Tolerances, keep_sum: float, weight: np.ndarray,
                      overrides: Mapping[str, Tolerances] | None = None, keep=None,
                      hold=None) -> tuple[np.ndarray, np.ndarray]:
        """The search of :meth:`class_pairs` at ``tolerances``, keeping only the pairs
        that are sum-table hits at ``keep_sum``, and a tally of them all:
        ``hist[i, j]``, the file pairs (``weight`` per file: its class's size) first
        hit at key step i and sum-table step j (see :func:`steps.tally`).  Memory grows
        with the pairs kept, not with those met.  ``keep``: ``keep(pairs) -> bool
        mask``, which of those hits to keep, asked a chunk of the search at a time (the
        content floor: most hits of a real collection are unrelated files), so that
        the hits it drops are never all held at once; the tally counts them all.
        ``hold``: ``hold(pairs)``, given each chunk's hits (those ``keep`` keeps) to
        hold instead of the search, which returns only the others (the sliders'
        statistics thin them to what fits as they come, and take them from ``hold``:
        see tolerance_stats.HeldHits); the pairs of classes searched in several
        extensions are the search's to thin, and not given."""
        key_frac, sum_frac = self.fractions(tolerances, overrides)
        reps = self.search_reps()
        n_steps = len(TOLERANCE_STEPS)
        if len(reps) < 2:
            return np.zeros((0, 2), np.int64), np.zeros((n_steps, n_steps + 1), np.int64)
        fixed_ids = list(self.override_ids(overrides))
        fixed = np.zeros(len(key_frac), np.bool_)
        fixed[fixed_ids] = True
        # classes searched in several extensions meet their partners more than once:
        # their pairs are all kept, and one per pair of classes tallied below
        multi = self._searched_in_several_extensions(reps)
        weight = np.ascontiguousarray(weight, dtype=np.int64)
        kept = None
        if keep is not None or hold is not None:
            def kept(p):
                # the pairs of classes searched in several extensions are all kept: they
                # are tallied below, once per pair of classes
                odd = multi[p[:, 0]] | multi[p[:, 1]]
                if hold is None:
                    return keep(p) | odd
                hold(p[~odd] if keep is None else p[keep(p) & ~odd])
                return odd
        pairs, work = _similar_pairs(reps, self.sizes, self.tables,
                                     np.ascontiguousarray(self.keys, dtype=np.float64),
                                     np.ascontiguousarray(self.ext_ids, dtype=np.int64),
                                     key_frac, sum_frac, self.extension_offsets(),
                                     self.size_factor, tally=(weight, multi, fixed, keep_sum),
                                     keep=kept,
                                     chunk_files=_CHUNK_FILES if kept is None else _KEEP_CHUNK_FILES,
                                     ceiling=None if hold is None else (lambda: hold.ceiling))
        hist = work["hist"]
        odd = multi[pairs[:, 0]] | multi[pairs[:, 1]]
        if odd.any():
            extra = pairs[odd]
            preferred = fixed[self.ext_ids[extra[:, 0]]] if fixed_ids else None
            extra = extra[self.one_per_class_pair(extra, preferred)]
            min_key, min_sum = pair_tolerances(extra, self.sizes, self.keys, self.tables)
            mine = fixed[self.ext_ids[extra[:, 0]]]
            min_key[mine] = 0.0
            min_sum[mine] = 0.0
            hist += tally(min_key, min_sum, weight[extra[:, 0]] * weight[extra[:, 1]])
            pairs = np.concatenate((pairs[~odd], extra[min_sum <= keep_sum]))
        return pairs, hist

    def _class_pairs_counted(self, tolerances: Tolerances,
                             overrides: Mapping[str, Tolerances] | None = None, *,
                             counting: bool = True) -> tuple[np.ndarray, dict]:
        """:meth:`class_pairs` and counts of the work (for benchmarks): ``examined``
        candidates (within a file's key reach in its neighbour cells; counted only if
        ``counting``, which costs the sweep about 8 %), ``filtered`` (those passing the
        one-word filter, tested exactly), ``looked_at`` (files the scans read: small
        cells whole, key windows in blocks), ``cells``, ``files``."""
        key_frac, sum_frac = self.fractions(tolerances, overrides)
        reps = self.search_reps()
        if len(reps) < 2:
            return np.zeros((0, 2), np.int64), {"files": len(reps), "cells": 0, "examined": 0,
                                                 "filtered": 0, "looked_at": 0, "pairs": 0}
        pairs, work = _similar_pairs(reps, self.sizes, self.tables,
                                     np.ascontiguousarray(self.keys, dtype=np.float64),
                                     np.ascontiguousarray(self.ext_ids, dtype=np.int64),
                                     key_frac, sum_frac, self.extension_offsets(),
                                     self.size_factor, counting)
        if self.mixed_extensions:
            # only a class searched in several extensions meets a partner more than once:
            # the pairs of those (a few in a hundred on /usr) are thinned to one a class pair
            multi = self._searched_in_several_extensions(reps)
            odd = np.flatnonzero(multi[pairs[:, 0]] | multi[pairs[:, 1]])
            # a match in an extension with its own fixed tolerances holds at any slider
            fixed = list(self.override_ids(overrides))
            preferred = np.isin(self.ext_ids[pairs[odd, 0]], fixed) if fixed else None
            keep = np.ones(len(pairs), np.bool_)
            keep[odd] = False
            keep[odd[self.one_per_class_pair(pairs[odd], preferred)]] = True
            pairs = pairs[keep]
        return pairs, work

    def _searched_in_several_extensions(self, reps: np.ndarray) -> np.ndarray:
        """bool per file: one of ``reps`` (:meth:`search_reps`) whose class has others."""
        multi = np.zeros(len(self.sizes), np.bool_)
        if self.mixed_extensions:
            of = self.classes.of_file[reps]
            multi[reps[np.bincount(of, minlength=len(self.classes.first))[of] > 1]] = True
        return multi


@njit(nogil=True, cache=True)
def _mark_copies(multi, start, members, n):
    """Per file: it is in one of the classes ``multi`` (of more than one file).  (A flag
    per file is an eighth of a class size per file, and is set for the copies only.)"""
    copies = np.zeros(n, np.bool_)
    for c in multi:
        for i in range(start[c], start[c + 1]):
            copies[members[i]] = True
    return copies


@njit(nogil=True, cache=True, inline="always")
def _class_size(a, of_file, start):
    c = of_file[a]
    return start[c + 1] - start[c]


@njit(nogil=True, cache=True)
def _expanded_count(lo, hi, rep_pairs, copies, of_file, start):
    """How many file pairs class pairs lo .. hi-1 expand to."""
    if copies.shape[0] == 0:
        return hi - lo
    m = 0
    for p in range(lo, hi):
        a = rep_pairs[p, 0]
        b = rep_pairs[p, 1]
        if copies[a] or copies[b]:
            m += _class_size(a, of_file, start) * _class_size(b, of_file, start)
        else:
            m += 1
    return m


@njit(nogil=True, cache=True)
def _expand(lo, hi, rep_pairs, copies, of_file, start, members, n, out, at):
    """Every member pair of class pairs lo .. hi-1, as codes a * n + b (a < b), written
    from ``out[at]``; returns where they end."""
    m = at
    for p in range(lo, hi):
        a = rep_pairs[p, 0]
        b = rep_pairs[p, 1]
        if copies.shape[0] == 0 or not (copies[a] or copies[b]):
            out[m] = min(a, b) * n + max(a, b)
            m += 1
            continue
        ca = of_file[a]
        cb = of_file[b]
        for i in range(start[ca], start[ca + 1]):
            for j in range(start[cb], start[cb + 1]):
                u = members[i]
                v = members[j]
                out[m] = min(u, v) * n + max(u, v)
                m += 1
    return m


@njit(nogil=True, cache=True)
def _pairs_within(multi, start, members, expand_identical, n, out, at):
    """The pairs within each class of ``multi``, written from ``out[at]``."""
    m = at
    for c in multi:
        lo = start[c]
        hi = start[c + 1]
        # star form: only the class's first file pairs with the others
        last_i = hi if expand_identical else lo + 1
        for i in range(lo, last_i):
            for j in range(i + 1, hi):
                out[m] = members[i] * n + members[j]
                m += 1
    return m


@njit(nogil=True, cache=True)
def _decode(lo, hi, codes, n, out):
    for i in range(lo, hi):
        a = codes[i] // n
        out[i, 0] = a
        out[i, 1] = codes[i] - a * n
    return 0


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
    n = max(len(classes.of_file), 1)
    if n >= 3_000_000_000:  # pragma: no cover - a * n + b would not fit in 63 bits
        raise ValueError("too many files")
    # the kernels index without bounds checks: a bad pair must not reach them
    if len(rep_pairs) and (rep_pairs.min() < 0 or rep_pairs.max() >= len(classes.of_file)):
        raise ValueError("a representative pair names a file out of range")
    per_class = np.diff(classes.members_start)
    multi = np.flatnonzero(per_class > 1)
    copies = (_mark_copies(multi, classes.members_start, classes.members, n) if len(multi)
              else np.zeros(0, np.bool_))
    k = per_class[multi]
    within = int((k * (k - 1) // 2).sum() if expand_identical else (k - 1).sum())
    parts = _threads.workers() if len(rep_pairs) >= _threads.PARALLEL_FROM else 1
    cuts = np.linspace(0, len(rep_pairs), parts + 1).astype(np.int64)
    counts = _map(lambda i: _expanded_count(cuts[i], cuts[i + 1], rep_pairs, copies,
                                            classes.of_file, classes.members_start),
                  range(parts))
    at = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    m = int(at[-1]) + within
    codes = np.empty(m, np.int64)

    def expand(i):
        if i == parts:
            return _pairs_within(multi, classes.members_start, classes.members,
                                 bool(expand_identical), np.int64(n), codes, at[-1])
        return _expand(cuts[i], cuts[i + 1], rep_pairs, copies, classes.of_file,
                       classes.members_start, classes.members, np.int64(n), codes, at[i])

    _map(expand, range(parts + 1))
    codes = sort_bits(codes.view(np.uint64), 0, (n * n - 1).bit_length()).view(np.int64)
    pairs = np.empty((m, 2), np.int64)
    _in_chunks(_decode, m, codes, np.int64(n), pairs)
    return pairs


def pair_distances(space: SearchSpace, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Key distance (float) and sum-table L1 distance (int) of each pair."""
    a, b = pairs[:, 0], pairs[:, 1]
    # without the extension offsets: copies in a class may differ in extension
    key_distance = np.abs(space.plain_keys[a] - space.plain_keys[b])
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
               min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE,
               content_hash: bytes | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Files of ``files`` (StoredFiles) similar to one file: the paper's second question.

    ``extension``: only files with this extension qualify (None: any), and identical
    copies (equal size, sum table and ``content_hash``, when given), whatever theirs:
    identical files are always grouped, as in a search.
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
        allowed = np.array([e == extension for e in files.extensions], dtype=bool)
        if content_hash is not None:
            same = np.flatnonzero((sizes == size) & (distance == 0))
            allowed[same[[files.hashes[i] == content_hash for i in same.tolist()]]] = True
        ok &= allowed
    hits = np.flatnonzero(ok)
    hits = hits[np.lexsort((hits, np.abs(sizes[hits] - size), distance[hits]))]
    return hits, distance[hits]
