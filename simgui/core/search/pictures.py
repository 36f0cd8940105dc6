"""Similar pictures: pairs whose perceptual hashes differ in few bits.

The scan stores one 64-bit DCT hash per picture
(:mod:`simgui.core.reading.pictures`); two files are the same picture,
re-saved, resized or converted, when their hashes differ in at most a few
bits.  Pairs come from the permuted-table Hamming index
(:func:`simgui.core.search.hamming_index.hamming_pairs`), exact up to
:data:`MAX_BITS`.  Unlike the byte-level methods, pictures pair across
extensions (a PNG and its JPEG are one picture) and whatever their sizes in
bytes.

With ``rotations``, a picture also pairs with its copies turned 90, 180 or 270
degrees or mirrored: the hash of each of the eight turns is computed from the
stored hash (:func:`simgui.core.reading.pictures.dihedral_hashes`) and each
turn searched against the stored hashes; a pair's distance is the smallest
over the turns.  With ``same_dimensions``, only pictures of equal width and
height pair (the turned ones: equal after the turn).

Similarity reads 100 % for identical files only; for others it is
``100 - 100 * bits / 64``, capped at 99.99 (simgui.core.search.methods.similarity),
so the same picture re-encoded at JPEG quality 80 (typically 0-4 bits) reads
94-100 %.  The default distance was chosen on the labelled corpus
(benchmarks/bench_pictures.py): see docs/pictures.md.
"""

from __future__ import annotations

import numpy as np

from simgui.core.reading.pictures import dihedral_hashes, hash_distance
from simgui.core.search.hamming_index import hamming_pairs

#: The largest distance searched (the slider's top): C(blocks, bits) tables grow fast.
MAX_BITS = 12
#: The default distance: on the corpus, precision 1.000 and recall 1.00 on re-encodings,
#: resizes and format changes at 7 and at 8 bits; the first unrelated pairs come at 9:
#: 7 keeps a bit of margin (docs/pictures.md)
DEFAULT_BITS = 7


def picture_pairs(hashes, max_bits: int = DEFAULT_BITS, *, rotations: bool = False,
                  widths=None, heights=None, same_dimensions: bool = False
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs ``i < j`` of pictures whose hashes differ in at most ``max_bits`` bits
    (with ``rotations``: after turning one of them), and the bits of each.

    ``widths``/``heights`` are needed with ``same_dimensions`` only.  Returns int64
    ``(m, 2)`` sorted lexicographically, and int64 ``(m,)``."""
    hashes = np.ascontiguousarray(hashes, np.uint64).reshape(-1)
    if not 0 <= max_bits <= MAX_BITS:
        raise ValueError(f"picture distances from 0 to {MAX_BITS} bits can be searched")
    n = hashes.shape[0]
    if not rotations:
        pairs, bits = hamming_pairs(hashes, int(max_bits))
        turned = np.zeros(len(pairs), bool)
    else:
        pairs, bits, turned = _turned_pairs(hashes, int(max_bits), n)
    if same_dimensions:
        if widths is None or heights is None:
            raise ValueError("same_dimensions needs the pictures' widths and heights")
        w, h = np.asarray(widths), np.asarray(heights)
        a, b = pairs[:, 0], pairs[:, 1]
        keep = (w[a] == w[b]) & (h[a] == h[b])
        if rotations:  # a quarter turn swaps them (a turned pair may be either)
            keep |= turned & (w[a] == h[b]) & (h[a] == w[b])
        pairs, bits = pairs[keep], bits[keep]
    return pairs, bits


def _turned_pairs(hashes: np.ndarray, max_bits: int, n: int):
    """Pairs within ``max_bits`` of each other after some turn of one of them, the least
    distance over the turns, and whether it needed a turn."""
    if n < 2:
        return np.empty((0, 2), np.int64), np.empty(0, np.int64), np.empty(0, bool)
    codes, dist, turn = [], [], []
    for t, turned in enumerate(dihedral_hashes(hashes)):
        found, bits = hamming_pairs(np.concatenate([hashes, turned]), max_bits)
        a, b = found[:, 0], found[:, 1] - n
        cross = (a < n) & (b >= 0) & (a != b)  # a stored hash against a turned one
        a, b, bits = a[cross], b[cross], bits[cross]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        codes.append(lo * n + hi)
        dist.append(bits)
        turn.append(np.full(len(bits), t != 0))
    codes, dist, turn = np.concatenate(codes), np.concatenate(dist), np.concatenate(turn)
    order = np.lexsort((turn, dist, codes))  # per pair: least distance, unturned first
    codes, dist, turn = codes[order], dist[order], turn[order]
    first = np.ones(len(codes), bool)
    first[1:] = codes[1:] != codes[:-1]
    codes, dist, turn = codes[first], dist[first], turn[first]
    return np.stack([codes // n, codes % n], axis=1), dist.astype(np.int64), turn


def distances(a, b, *, rotations: bool = False) -> np.ndarray:
    """Bits between hashes ``a`` and ``b`` (elementwise, broadcasting); with ``rotations``
    the least over the eight turns of ``b``."""
    a = np.asarray(a, np.uint64)
    b = np.asarray(b, np.uint64)
    if not rotations:
        return hash_distance(a, b).astype(np.int64)
    shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = np.broadcast_to(a, shape).reshape(-1), np.broadcast_to(b, shape).reshape(-1)
    turns = dihedral_hashes(b)
    return hash_distance(a[None, :], turns).min(axis=0).astype(np.int64).reshape(shape)


def class_pairs(space, hashes: np.ndarray, is_picture: np.ndarray, max_bits: int, *,
                rotations: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of class representatives of ``space`` (a SearchSpace) that are pictures within
    ``max_bits``, and their bits: the pictures' own rule, whatever the extensions and the
    size factor (one picture pairs once per pair of classes of copies)."""
    reps = space.search_reps()
    if hashes is None or is_picture is None:  # files from a source without pictures
        return np.empty((0, 2), np.int64), np.empty(0, np.int64)
    reps = reps[np.asarray(is_picture)[reps]]
    found, bits = picture_pairs(np.asarray(hashes)[reps], max_bits, rotations=rotations)
    pairs = reps[found]
    once = space.one_per_class_pair(pairs)
    return pairs[once], bits[once]


def similar_pictures(record, files, max_difference: float, *, rotations: bool = False
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Stored pictures within ``max_difference`` percent (bits * 100 / 64) of one file read
    now (a FileRecord): their rows in ``files`` and their differences in percent; none when
    the file is not a picture.  One comparison per stored file: a query, not a search."""
    if record.picture_hash is None or files.picture_hashes is None:
        return np.empty(0, np.int64), np.empty(0, np.float64)
    bits = distances(files.picture_hashes, np.uint64(record.picture_hash), rotations=rotations)
    difference = bits * 100.0 / 64
    hits = np.flatnonzero(files.is_picture & (difference <= max_difference + 1e-9))
    return hits, difference[hits]
