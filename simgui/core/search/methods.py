"""The near-duplicate methods besides the paper's: which pairs each finds, and how far apart.

Every method reports a pair's *difference* in percent, so one slider and one
"at most this different" rule serve them all (the paper's method has its own
key and sum-table tolerances, see :mod:`simgui.core.search.simfind`):

- ``simhash``: differing bits of the 64-bit fingerprints, as a share of 64
  (3 bits = 4.69 %).  Pairs come from the permuted-table index
  (:func:`simgui.core.search.hamming_index.hamming_pairs`), exact up to
  :data:`SIMHASH_MAX_BITS`.
- ``minhash``: unequal MinHash slots, as a share of the 128 (difference 40 %
  = estimated resemblance 60 %).  Candidates come from LSH banding tuned for
  :data:`LSH_TUNED_FOR`, below the slider's floor :data:`MINHASH_FLOOR`; each
  is verified by its signature estimate, so a pair reported is within the
  asked difference; a pair at the default 45 % or above is missed with
  probability under 0.03, at 50 % or above under 0.007.

Defaults were chosen on the labelled corpus (benchmarks/bench_accuracy.py):
see docs/accuracy.md.

**The similarity users read** is the same for every method: the estimated share of
content two files have in common, in percent (:func:`shared_content`), 100 only for
identical copies.  From MinHash: with J the estimated Jaccard resemblance of the two
files' feature sets, 2J / (1 + J), the share of either file's features that the
other has (two equal-sized files with a share c of their content in common have
J = c / (2 - c)).  From simhash, d differing bits estimate the angle between the
feature sets, pi d / 64, whose cosine is the same share.  Unrelated files read
near 0, an edit of 1 % of a file's bytes in one place reads about 99.
"""

from __future__ import annotations

import math
import sys

import numpy as np
from numba import njit

from simgui.core.reading.fingerprints import SLOTS
from simgui.core.search import pictures
from simgui.core.search.hamming_index import hamming_pairs
from simgui.core.search.tolerances import (  # noqa: F401  (re-exported)
    METHODS, MINHASH_DEFAULT, MINHASH_FLOOR, PICTURE_METHODS, SIMHASH_DEFAULT_BITS,
    SIMHASH_MAX_BITS,
)

#: The resemblance LSH banding is tuned for, below the slider's floor: it gives
#: 37 bands of 3 slots, so a pair at 40 % resemblance becomes a candidate with
#: probability 0.91, at 45 % 0.97 and at 50 % 0.993 (tuned for 50 %: 0.23, 0.38, 0.55),
#: while one at 10 % becomes one with probability 0.04.
LSH_TUNED_FOR = 0.3


def bits_to_difference(bits) -> np.ndarray:
    return np.asarray(bits, np.float64) * (100.0 / 64)


def resemblance_to_difference(resemblance) -> np.ndarray:
    return 100.0 * (1.0 - np.asarray(resemblance, np.float64))


def unknown_method(method: str) -> ValueError:
    return ValueError(f"unknown method {method!r}; one of {', '.join(METHODS[1:])}")


def threshold_difference(method: str, threshold: float) -> float:
    """A method's threshold as users set it (simhash: differing bits; MinHash: smallest
    resemblance in percent) as the difference in percent its searches take."""
    if method == "simhash" or method in PICTURE_METHODS:
        return float(bits_to_difference(threshold))
    if method == "minhash":
        return float(resemblance_to_difference(threshold / 100))
    raise unknown_method(method)


def threshold_text(method: str, threshold: float) -> str:
    """A threshold as the window writes it: "≤ 8 bits", "≥ 45 %"."""
    if method == "simhash" or method in PICTURE_METHODS:
        return f"≤ {threshold:g} bit{'s' if threshold != 1 else ''}"
    return f"≥ {threshold:g} %"


#: Each method's threshold at the top of its search's reach, and by default
CEILING_THRESHOLD = {"simhash": SIMHASH_MAX_BITS, "minhash": MINHASH_FLOOR * 100,
                     "images": pictures.MAX_BITS, "images-rotated": pictures.MAX_BITS}
DEFAULT_THRESHOLD = {"simhash": SIMHASH_DEFAULT_BITS, "minhash": MINHASH_DEFAULT * 100,
                     "images": pictures.DEFAULT_BITS, "images-rotated": pictures.DEFAULT_BITS}


def ceiling_difference(method: str) -> float:
    """The largest difference (percent) a method's search covers."""
    if method not in CEILING_THRESHOLD:
        raise unknown_method(method)
    return threshold_difference(method, CEILING_THRESHOLD[method])


def default_difference(method: str) -> float:
    if method not in DEFAULT_THRESHOLD:
        raise unknown_method(method)
    return threshold_difference(method, DEFAULT_THRESHOLD[method])


#: The most a pair that is not an identical copy can read: 100 means a copy.
MOST_SIMILAR = 99.99


def share_from_resemblance(resemblance) -> np.ndarray:
    """Share of content in common (percent) from a Jaccard resemblance (0..1): 2J/(1+J)."""
    j = np.asarray(resemblance, np.float64)
    return 200.0 * j / (1.0 + j)


def resemblance_from_share(share) -> np.ndarray:
    """The inverse of :func:`share_from_resemblance`: J = s / (2 - s), s in 0..1."""
    s = np.asarray(share, np.float64) / 100.0
    return s / (2.0 - s)


def share_from_bits(bits) -> np.ndarray:
    """Share of content in common (percent) from simhash bits apart: cos(pi d / 64),
    and 0 past a quarter turn (unrelated files differ in about 32 bits)."""
    return 100.0 * np.maximum(np.cos(np.pi * np.asarray(bits, np.float64) / 64.0), 0.0)


def shared_content(signatures: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Each index pair's estimated share of content in common, percent, from MinHash
    signatures (a pass over the pairs: tens of millions take no extra memory)."""
    signatures = np.ascontiguousarray(signatures, np.uint32)
    pairs = np.ascontiguousarray(pairs, np.int64).reshape(-1, 2)
    if len(pairs) == 0:
        return np.zeros(0)
    return share_from_resemblance(_equal_slots(signatures, pairs) / signatures.shape[1])


def fewest_slots(shares: np.ndarray, floor: float) -> int:
    """Of ``shares`` (the share of each number of equal slots, rising: see
    :meth:`ContentShares.shares_of_slots`), the fewest slots whose share is at least
    ``floor``; ``len(shares)`` (one more than the slots) if none is."""
    enough = shares >= floor
    return int(np.argmax(enough)) if enough.any() else len(shares)


class ContentShares:
    """The content check's shares of content in common, from MinHash ``signatures``:
    ``shares(pairs)`` each pair's (percent), and ``at_least(pairs, floor)`` whether each
    pair's is at least ``floor``, exactly as ``shares(pairs) >= floor`` says, but with
    most pairs answered from a byte of each slot (a slot equal in full is equal in its
    low byte, so too few equal low bytes rule a pair out): unrelated files, most of
    the candidates a collection has, cost a quarter of the memory reads."""

    def __init__(self, signatures: np.ndarray):
        self.signatures = np.ascontiguousarray(signatures, np.uint32)
        self._low: np.ndarray | None = None

    def __call__(self, pairs: np.ndarray) -> np.ndarray:
        return shared_content(self.signatures, pairs)

    def equal_slots(self, pairs: np.ndarray) -> np.ndarray:
        """uint8: each pair's equal slots, what its share is made from (one byte a pair
        where the share takes eight: see :meth:`shares_of_slots`)."""
        pairs = np.ascontiguousarray(pairs, np.int64).reshape(-1, 2)
        kind = np.uint8 if self.signatures.shape[1] < 256 else np.uint16
        if len(pairs) == 0:
            return np.zeros(0, kind)
        return _equal_slots(self.signatures, pairs).astype(kind)

    def shares_of_slots(self) -> np.ndarray:
        """float64 (slots + 1,): the share :func:`shared_content` gives a pair with each
        number of equal slots (the same expression, so the same value to the last bit)."""
        slots = self.signatures.shape[1]
        return share_from_resemblance(np.arange(slots + 1) / slots)

    def slots_needed(self, floor: float) -> int:
        """The fewest equal slots whose share (as :func:`shared_content` computes it)
        is at least ``floor``; one more than the slots if none is."""
        return fewest_slots(self.shares_of_slots(), floor)

    def at_least(self, pairs: np.ndarray, floor: float) -> np.ndarray:
        pairs = np.ascontiguousarray(pairs, np.int64).reshape(-1, 2)
        if self._low is None:  # each slot's low byte, taken without a copy of the whole
            n, slots = self.signatures.shape
            byte = 0 if sys.byteorder == "little" else 3
            self._low = np.ascontiguousarray(
                self.signatures.view(np.uint8).reshape(n, slots, 4)[:, :, byte])
        return _at_least(self.signatures, self._low, pairs, self.slots_needed(floor))


@njit(nogil=True, cache=True)
def _at_least(signatures, low, pairs, need):
    """Whether each pair has at least ``need`` equal slots: first counted in the low
    bytes (never fewer than the equal slots), and in full only where those reach it."""
    out = np.zeros(pairs.shape[0], np.bool_)
    for p in range(pairs.shape[0]):
        a = pairs[p, 0]
        b = pairs[p, 1]
        out[p] = (_same_slots(low, a, b) >= need
                  and _same_slots(signatures, a, b) >= need)
    return out


def method_share(method: str, difference) -> np.ndarray:
    """A fingerprint method's difference in percent as the share of content in common."""
    if method == "simhash":
        return share_from_bits(np.asarray(difference) * 64 / 100)
    if method == "minhash":
        return share_from_resemblance(1.0 - np.asarray(difference) / 100)
    if method in PICTURE_METHODS:  # how alike two pictures look: 100 less the bits' share
        return 100.0 - np.asarray(difference, np.float64)
    raise unknown_method(method)


def pair_similarity(method: str, files, a, b, identical) -> np.ndarray:
    """The similarity (percent) reports give file pairs ``(a[i], b[i])`` of ``files``
    (StoredFiles): the share of content in common by the method's fingerprints (MinHash
    for the paper's method), NaN where a file has none, 100 for identical copies."""
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    if method == "simhash":
        x = np.bitwise_xor(files.simhashes[a], files.simhashes[b])
        share = share_from_bits(np.bitwise_count(x))
    elif method in ("minhash", "paper"):
        share = np.full(len(a), np.nan)
        if files.signatures is not None and len(a):
            share = shared_content(files.signatures, np.stack([a, b], axis=1))
    elif method in PICTURE_METHODS:  # pictures: 100 - 100 * bits / 64; NaN if not both
        bits = pictures.distances(files.picture_hashes[a], files.picture_hashes[b],
                                  rotations=method == "images-rotated")
        share = np.where(files.is_picture[a] & files.is_picture[b], 100.0 - bits * 100 / 64,
                         np.nan)
        return similarity(share, identical)
    else:
        raise unknown_method(method)
    if files.fingerprinted is not None and len(a):
        share = np.where(files.fingerprinted[a] & files.fingerprinted[b], share, np.nan)
    return similarity(share, identical)


def similarity(share, identical) -> np.ndarray:
    """The similarity every report gives a pair: its share of content in common (NaN
    where unknown), at most :data:`MOST_SIMILAR`, and 100 only for identical copies."""
    return np.where(identical, 100.0, np.minimum(np.asarray(share, np.float64), MOST_SIMILAR))


def simhash_pairs(fps: np.ndarray, max_bits: int = SIMHASH_MAX_BITS
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs i < j whose fingerprints differ in at most ``max_bits`` bits, and
    the difference of each in percent."""
    if not 0 <= max_bits <= SIMHASH_MAX_BITS:
        raise ValueError(f"simhash distances from 0 to {SIMHASH_MAX_BITS} bits can be searched")
    pairs, bits = hamming_pairs(np.asarray(fps, np.uint64), int(max_bits))
    return pairs, bits_to_difference(bits)


def lsh_bands(threshold: float, slots: int = SLOTS, false_positive_weight: float = 0.5,
              false_negative_weight: float = 0.5) -> tuple[int, int]:
    """Bands and rows (bands * rows <= slots) that best separate pairs around ``threshold``.

    As datasketch chooses them: the weighted areas under the probability of
    becoming a candidate, 1 - (1 - s^r)^b, below the threshold (false
    positives) and above it (false negatives), are minimised.
    """
    if not 0 < threshold < 1:
        raise ValueError("the LSH threshold is a resemblance between 0 and 1")
    best, best_cost = (1, slots), math.inf
    below = np.linspace(0.0, threshold, 201)
    above = np.linspace(threshold, 1.0, 201)
    for bands in range(1, slots + 1):
        for rows in range(1, slots // bands + 1):
            fp = np.trapezoid(1 - (1 - below ** rows) ** bands, below)
            fn = np.trapezoid((1 - above ** rows) ** bands, above)
            cost = false_positive_weight * fp + false_negative_weight * fn
            if cost < best_cost:
                best, best_cost = (bands, rows), cost
    return best


def minhash_pairs(signatures: np.ndarray, min_resemblance: float = MINHASH_FLOOR
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs i < j whose estimated resemblance is at least ``min_resemblance``
    (LSH candidates banded for :data:`LSH_TUNED_FOR` or lower, verified), and the
    difference of each in percent."""
    signatures = np.ascontiguousarray(signatures, np.uint32)
    n, slots = signatures.shape if signatures.ndim == 2 else (0, SLOTS)
    if n < 2:
        return np.zeros((0, 2), np.int64), np.zeros(0, np.float64)
    # banded the same whatever the threshold: then a pair found at one threshold is found
    # at every lower one, so one search and the slider agree with a search per value
    bands, rows = _bands_for(min(max(min_resemblance, 0.01), LSH_TUNED_FOR), slots)
    keys = _band_keys(signatures, bands, rows)
    candidates = []
    for b in range(bands):
        order = np.argsort(keys[:, b], kind="stable")
        candidates.append(_same_key_pairs(keys[order, b], order))
    codes = np.unique(np.concatenate(candidates))
    pairs = np.stack([codes // n, codes % n], axis=1)
    equal = _equal_slots(signatures, pairs)
    keep = equal >= _slots_needed(min_resemblance, slots)
    return pairs[keep], 100.0 * (slots - equal[keep]) / slots


def resemblance_at_least(signatures: np.ndarray, pairs: np.ndarray,
                         min_resemblance: float) -> np.ndarray:
    """Which index pairs have an estimated resemblance of at least ``min_resemblance``
    (a pass over the pairs: tens of millions take no extra memory)."""
    signatures = np.ascontiguousarray(signatures, np.uint32)
    pairs = np.ascontiguousarray(pairs, np.int64).reshape(-1, 2)
    return _equal_slots(signatures, pairs) >= _slots_needed(min_resemblance,
                                                            signatures.shape[1])


def resembles(signature_a, signature_b, min_resemblance: float) -> np.ndarray:
    """Whether signatures (broadcasting: one against many works too) have an estimated
    resemblance of at least ``min_resemblance``, by the rule of :func:`resemblance_at_least`."""
    equal = (np.asarray(signature_a) == np.asarray(signature_b)).sum(axis=-1)
    return equal >= _slots_needed(min_resemblance, np.shape(signature_a)[-1])


def _slots_needed(min_resemblance: float, slots: int) -> int:
    return math.ceil(min_resemblance * slots - 1e-9)


_BANDS: dict[tuple[float, int], tuple[int, int]] = {}


def _bands_for(threshold: float, slots: int) -> tuple[int, int]:
    key = (round(threshold, 4), slots)
    if key not in _BANDS:
        _BANDS[key] = lsh_bands(key[0], slots)
    return _BANDS[key]


def _band_keys(signatures: np.ndarray, bands: int, rows: int) -> np.ndarray:
    """One 64-bit key per file and band: a hash of the band's slots."""
    keys = np.zeros((len(signatures), bands), np.uint64)
    for r in range(rows):
        column = signatures[:, r:bands * rows:rows].astype(np.uint64)
        keys = (keys ^ column) * np.uint64(0x100000001B3)  # FNV-style fold
        keys ^= keys >> np.uint64(29)
    return keys


@njit(nogil=True, cache=True)
def _same_key_pairs(sorted_keys, order):
    """Codes i * n + j (i < j) of every two files whose keys are equal."""
    n = sorted_keys.shape[0]
    count = 0
    start = 0
    for i in range(1, n + 1):
        if i == n or sorted_keys[i] != sorted_keys[start]:
            k = i - start
            count += k * (k - 1) // 2
            start = i
    out = np.empty(count, np.int64)
    m = 0
    start = 0
    for i in range(1, n + 1):
        if i == n or sorted_keys[i] != sorted_keys[start]:
            for x in range(start, i):
                for y in range(x + 1, i):
                    a, b = order[x], order[y]
                    if a > b:
                        a, b = b, a
                    out[m] = a * n + b
                    m += 1
            start = i
    return out


@njit(nogil=True, cache=True)
def _equal_slots(signatures, pairs):
    out = np.empty(pairs.shape[0], np.int64)
    for p in range(pairs.shape[0]):
        out[p] = _same_slots(signatures, pairs[p, 0], pairs[p, 1])
    return out


@njit(nogil=True, cache=True, inline="always")
def _same_slots(signatures, a, b):
    """How many slots rows a and b of ``signatures`` have equal."""
    same = 0
    for s in range(signatures.shape[1]):
        same += signatures[a, s] == signatures[b, s]
    return same


def class_pairs(space, method: str, simhashes: np.ndarray, signatures: np.ndarray,
                max_difference: float, files=None) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of class representatives of ``space`` (a SearchSpace) within
    ``max_difference`` percent by ``method``, and their differences.

    The rest of the paper's rules hold for every method: files below the
    smallest similar size are only ever copies, sizes must be within the size
    factor, and with the extension rule both files have the same extension.
    """
    if method in PICTURE_METHODS:  # pictures have their own rules (``files``: StoredFiles)
        bits = min(int(math.floor(max_difference * 64 / 100 + 1e-9)), pictures.MAX_BITS)
        pairs, bits = pictures.class_pairs(space, files.picture_hashes, files.is_picture, bits,
                                           rotations=method == "images-rotated")
        return pairs, bits_to_difference(bits)
    reps = space.search_reps()
    if method == "simhash":
        bits = min(int(math.floor(max_difference * 64 / 100 + 1e-9)), SIMHASH_MAX_BITS)
        found, difference = simhash_pairs(simhashes[reps], bits)
    elif method == "minhash":
        floor = max(1.0 - max_difference / 100.0, 0.0)
        found, difference = minhash_pairs(signatures[reps], floor)
    else:
        raise unknown_method(method)
    pairs = reps[found]
    a, b = space.sizes[pairs[:, 0]], space.sizes[pairs[:, 1]]
    keep = np.maximum(a, b) <= space.size_factor * np.minimum(a, b)
    if space.extensions is not None:
        keep &= space.ext_ids[pairs[:, 0]] == space.ext_ids[pairs[:, 1]]
    pairs, difference = pairs[keep], difference[keep]
    once = space.one_per_class_pair(pairs)  # copies in several extensions match in each
    return pairs[once], difference[once]


def differences(method: str, simhash_a, signature_a, simhash_b, signature_b) -> np.ndarray:
    """The method's difference in percent between fingerprints a and b (elementwise,
    broadcasting: one file against many works too)."""
    if method == "simhash":
        x = np.bitwise_xor(np.asarray(simhash_a, np.uint64), np.asarray(simhash_b, np.uint64))
        return bits_to_difference(np.bitwise_count(x))
    if method == "minhash":
        return 100.0 * (np.asarray(signature_a) != np.asarray(signature_b)).mean(axis=-1)
    if method in PICTURE_METHODS:  # simhash_a/b: the pictures' hashes
        return bits_to_difference(pictures.distances(simhash_a, simhash_b,
                                                     rotations=method == "images-rotated"))
    raise unknown_method(method)


def distance_bins(method: str) -> np.ndarray:
    """The x values of :func:`distance_histogram`: bits 0..64 for simhash, resemblance in
    percent (in 128ths) for MinHash."""
    if method == "simhash" or method in PICTURE_METHODS:
        return np.arange(65, dtype=np.float64)
    return 100.0 * np.arange(SLOTS + 1) / SLOTS


def _bin_of(method: str, difference: np.ndarray) -> np.ndarray:
    if method == "simhash" or method in PICTURE_METHODS:
        return np.rint(np.asarray(difference) * 64 / 100).astype(np.int64)
    return np.rint((100.0 - np.asarray(difference)) * SLOTS / 100).astype(np.int64)


def distance_histogram(method: str, simhashes: np.ndarray, signatures: np.ndarray, *,
                       sample: int = 200_000, seed: int = 0) -> np.ndarray:
    """Estimated file pairs at each of :func:`distance_bins`, over all n(n-1)/2 pairs of
    these files, from a random sample of pairs: what "8 bits apart" means for them."""
    n = len(simhashes)
    bins = distance_bins(method)
    if n < 2:
        return np.zeros(len(bins))
    rng = np.random.default_rng(seed)
    a = rng.integers(0, n, sample)
    b = rng.integers(0, n - 1, sample)
    b += b >= a  # a second, different file
    difference = differences(method, simhashes[a], signatures[a], simhashes[b], signatures[b])
    counts = np.bincount(_bin_of(method, difference), minlength=len(bins)).astype(np.float64)
    return counts * (n * (n - 1) / 2) / sample


def pair_histogram(method: str, difference: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """File pairs at each of :func:`distance_bins`, from pairs' differences and weights."""
    bins = distance_bins(method)
    return np.bincount(_bin_of(method, difference), weights=weight,
                       minlength=len(bins)).astype(np.float64)[:len(bins)]
