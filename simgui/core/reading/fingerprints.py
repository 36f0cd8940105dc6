"""Content fingerprints for the other near-duplicate methods: 64-bit simhash and MinHash.

Both are computed from one set of *features*, in the same single read as the
sum table, streaming and in constant memory:

- **Shingles.**  At every byte position p the shingle is the 16 bytes
  starting there, read as two little-endian uint64 words ``v`` and ``w``.
  It is *selected* when the top 4 bits of ``h = v * K`` (an odd constant)
  are 0: about one position in 16, chosen by the content itself, so an
  insertion or deletion disturbs only the shingles that overlap it and the
  rest of the file keeps its features wherever they move to.
- **Features.**  A selected shingle gives the feature
  ``mix(mix(v + GOLDEN) ^ w)`` (``mix``: the splitmix64 finaliser).  A file
  of 1 to 15 bytes has one feature, from its bytes and length; a longer file
  with no selected shingle (low-entropy content) uses ``mix(min h + GOLDEN)``.
  An empty file has none.  Shingles are 16 bytes, not 8, because a file over
  a small alphabet (DNA, two-colour images) holds nearly every possible 8-byte
  shingle once it is a megabyte long, and two unrelated such files then
  look like copies.
- **Simhash** (Charikar): each feature votes +1 on the bits it has set and
  -1 on the others; bit b of the fingerprint is set when the sum for bit b
  is >= 0.  Near-duplicates differ in few bits: compare with :func:`hamming`.
  A feature votes once: the kernel remembers the last feature seen in each
  of 8192 slots (by its low bits) and skips one it still remembers.  Weighing
  features by how often they occur made every file with long runs of
  padding share one fingerprint (precision 5 % on the labelled corpus,
  against 100 % with this rule at the same recall).
- **MinHash**, by one-permutation hashing (Li, Owen and Zhang 2012): the top
  7 bits of a feature pick one of 128 bins and each bin keeps the smallest of
  the remaining 57 bits; empty bins borrow from the next non-empty bin to the
  right, plus 2**57 per step (densification by rotation, Shrivastava and Li
  2014).  The share of equal slots of two signatures estimates the Jaccard
  resemblance of their feature sets.  Slots are stored as 32-bit hashes of
  the 64-bit values (equal stays equal; unequal collide once in 4 billion).

``tests/test_fingerprints.py`` checks the kernel against a literal
reimplementation of these rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SAMPLE_EVERY = 16  # one shingle in this many is a feature, on average
_SHINGLE = 16  # bytes in a shingle
SLOTS = 128  # MinHash signature length
RECENT = 8192  # features the simhash remembers, to count each one once
_BIN_SHIFT = np.uint64(57)  # 64 - log2(SLOTS)
_VALUE_MASK = np.uint64((1 << 57) - 1)
_EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
GOLDEN = 0x9E3779B97F4A7C15
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(GOLDEN)
_RECENT_MASK = np.uint64(RECENT - 1)
_SELECT_K = np.uint64(0xD6E8FEB86659FD93)  # odd: v -> v * K is a bijection
_SELECT_SHIFT = np.uint64(60)  # 64 - log2(SAMPLE_EVERY)
# _SPREAD[c]: the 8 bits of c, one in each byte (bit j in byte j)
_SPREAD = np.array([sum(((c >> j) & 1) << (8 * j) for j in range(8)) for c in range(256)],
                   np.uint64)

# builder state, one uint64 array: features taken, the smallest h seen (for the
# low-entropy fallback)
_FEATURES, _MIN_H = range(2)


@njit(inline="always")
def _mix(z):
    """The splitmix64 finaliser (also simfind's row hash)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def _take(feature, lanes, mins, recent):
    """MinHash always (a minimum ignores repeats); simhash unless ``recent`` has it.
    Returns 1 if the simhash counted it."""
    slot = feature >> _BIN_SHIFT
    value = feature & _VALUE_MASK
    if value < mins[slot]:
        mins[slot] = value
    where = feature & _RECENT_MASK
    if recent[where] == feature:
        return 0
    recent[where] = feature
    # 8 bits at a time into byte lanes: lanes[k] holds the counts of bits 8k..8k+7
    for k in range(8):
        lanes[k] += _SPREAD[(feature >> np.uint64(8 * k)) & np.uint64(0xFF)]
    return 1


@njit(inline="always")
def _flush(lanes, ones):
    for k in range(8):
        x = lanes[k]
        for j in range(8):
            ones[8 * k + j] += (x >> np.uint64(8 * j)) & np.uint64(0xFF)
        lanes[k] = np.uint64(0)


@njit(inline="always")
def _word(data, p):
    """The 8 bytes at p as a little-endian uint64."""
    w = np.uint64(0)
    for k in range(8):
        w |= np.uint64(data[p + k]) << np.uint64(8 * k)
    return w


_SPAN = 4096
_LOW = np.array([8] + [(k & -k).bit_length() - 1 for k in range(1, 256)], np.int64)
_POP = np.array([bin(k).count("1") for k in range(256)], np.int64)

@njit(inline="always")
def _planes_add(planes, f):
    """Count the set bits of ``f`` in 64 vertical 8-bit counters (bit plane k holds bit k
    of every counter): 16 operations, no table, no branch."""
    carry = f
    for k in range(8):
        t = planes[k] & carry
        planes[k] ^= carry
        carry = t

@njit(inline="always")
def _planes_flush(planes, ones):
    """Add the vertical counters to ``ones`` and clear them (before one can pass 255)."""
    for k in range(8):
        x = planes[k]
        if x:
            for b in range(64):
                ones[b] += ((x >> np.uint64(b)) & np.uint64(1)) << np.uint64(k)
        planes[k] = np.uint64(0)

@njit(inline="always")
def _select(words, lo, hi, masks, min_h, track):
    """``masks[j - lo]``, bit s: the shingle at byte 8j+s is selected (blocks lo..hi-1);
    the smallest h when ``track``.  Branch-free, so it vectorises.  In a block of one
    8-byte pattern repeated the 8 shingles are equal, and only the first is kept."""
    for j in range(lo, hi):
        a = words[j]
        b = words[j + 1]
        m = 0
        for s in range(8):
            sh = np.uint64(8 * s)
            v = (a >> sh) | ((b << (np.uint64(63) - sh)) << np.uint64(1))
            h = v * _SELECT_K
            if track:
                min_h = min(min_h, h)
            m |= (1 if (h >> _SELECT_SHIFT) == np.uint64(0) else 0) << s
        if a == b and b == words[j + 2]:
            m &= 1  # one 8-byte pattern repeated: the 8 shingles are one
        masks[j - lo] = m
    return min_h

@njit(inline="always")
def _positions(masks, lo, hi, out):
    """The byte positions of the selected shingles, in order (each mask's first bit is
    written unconditionally, which keeps the common case free of branches)."""
    count = 0
    for j in range(lo, hi):
        m = np.int64(masks[j - lo])
        out[count] = 8 * j + _LOW[m]
        count += m != 0
        m &= m - 1
        while m:
            out[count] = 8 * j + _LOW[m]
            count += 1
            m &= m - 1
    return count

@njit(cache=True, nogil=True)
def _feed(data, state, ones, mins, recent):
    """Every shingle starting in ``data`` with 16 bytes there (the caller carries the rest).

    Three passes a span of 32 KB: select (vectorised), list the positions, take their
    features.  A selected shingle equal to the one selected just before it is skipped:
    its feature changes neither the minima nor the simhash (``recent`` still holds it),
    so runs of one pattern cost nothing.  The smallest h (the fallback of a file without
    features) is tracked only while the file has none.
    """
    n = len(data)
    planes = np.zeros(8, np.uint64)
    min_h = state[_MIN_H]
    taken = 0
    pending = 0
    end = 0
    pv = np.uint64(0)
    pw = np.uint64(0)
    fresh = True
    if n >= 24:
        words = data[:n & ~7].view(np.uint64)
        blocks = n // 8 - 2
        masks = np.empty(min(blocks, _SPAN), np.uint8)
        where = np.empty(8 * min(blocks, _SPAN) + 1, np.int64)
        for lo in range(0, blocks, _SPAN):
            hi = min(lo + _SPAN, blocks)
            track = state[_FEATURES] + np.uint64(taken + pending) == np.uint64(0)
            min_h = _select(words, lo, hi, masks, min_h, track)
            count = _positions(masks, lo, hi, where)
            for i in range(count):
                p = where[i]
                j = p >> 3
                sh = np.uint64(8 * (p & 7))
                a = words[j]; b = words[j + 1]; c = words[j + 2]
                v = (a >> sh) | ((b << (np.uint64(63) - sh)) << np.uint64(1))
                w = (b >> sh) | ((c << (np.uint64(63) - sh)) << np.uint64(1))
                if (not fresh) and v == pv and w == pw:
                    continue
                fresh = False
                pv = v
                pw = w
                feature = _mix(_mix(v + _GOLDEN) ^ w)
                slot = feature >> _BIN_SHIFT
                value = feature & _VALUE_MASK
                if value < mins[slot]:
                    mins[slot] = value
                r = feature & _RECENT_MASK
                if recent[r] != feature:
                    recent[r] = feature
                    _planes_add(planes, feature)
                    pending += 1
                    if pending == 255:
                        _planes_flush(planes, ones)
                        taken += pending
                        pending = 0
        end = 8 * blocks
    # the last shingles, one at a time; the feature's lines repeat the loop's above
    # because a helper taking the arrays made the whole loop 4 times slower (numba
    # counted references in the hot loop)
    for p in range(end, n - 15):
        v = _word(data, p)
        h = v * _SELECT_K
        if h < min_h:
            min_h = h
        if (h >> _SELECT_SHIFT) == np.uint64(0):
            w = _word(data, p + 8)
            if fresh or v != pv or w != pw:
                fresh = False
                pv = v
                pw = w
                feature = _mix(_mix(v + _GOLDEN) ^ w)
                slot = feature >> _BIN_SHIFT
                value = feature & _VALUE_MASK
                if value < mins[slot]:
                    mins[slot] = value
                r = feature & _RECENT_MASK
                if recent[r] != feature:
                    recent[r] = feature
                    _planes_add(planes, feature)
                    pending += 1
                    if pending == 255:
                        _planes_flush(planes, ones)
                        taken += pending
                        pending = 0
    _planes_flush(planes, ones)
    state[_FEATURES] += np.uint64(taken + pending)
    state[_MIN_H] = min_h


@njit(cache=True, nogil=True)
def _finish(seen, low, high, state, ones, mins, recent, slots32):
    """Add the feature of a short or featureless file; returns the simhash and fills
    the 32-bit slots.  ``low``, ``high``: the bytes of a file under 16 bytes, as two
    little-endian words."""
    lanes = np.zeros(8, np.uint64)
    if 0 < seen < _SHINGLE:
        feature = _mix(_mix(low + _GOLDEN) ^ (high + (np.uint64(seen) << np.uint64(56))))
        state[_FEATURES] += np.uint64(_take(feature, lanes, mins, recent))
    elif seen >= _SHINGLE and state[_FEATURES] == np.uint64(0):
        state[_FEATURES] += np.uint64(_take(_mix(state[_MIN_H] + _GOLDEN), lanes, mins, recent))
    _flush(lanes, ones)
    total = state[_FEATURES]
    fingerprint = np.uint64(0)
    for b in range(64):
        if np.uint64(2) * ones[b] >= total:
            fingerprint |= np.uint64(1) << np.uint64(b)
    n = len(mins)
    for j in range(n):
        value = mins[j]
        step = 0
        while value == _EMPTY and step < n:
            step += 1
            value = mins[(j + step) % n]
        if value != _EMPTY:
            value += np.uint64(step) << _BIN_SHIFT
        slots32[j] = np.uint32(_mix(value) >> np.uint64(32))
    return fingerprint


class FingerprintBuilder:
    """Streaming simhash and MinHash: ``update()`` with chunks of any size, then ``result()``.

    The answer is the same whatever the chunk boundaries; the kernel releases
    the GIL.  One builder must not be shared between threads.
    """

    __slots__ = ("_state", "_ones", "_mins", "_recent", "_carry", "_seen")

    def __init__(self):
        self._state = np.array([0, _EMPTY], np.uint64)
        self._ones = np.zeros(64, np.uint64)
        self._mins = np.full(SLOTS, _EMPTY, np.uint64)
        self._recent = np.zeros(RECENT, np.uint64)
        self._carry = b""  # the last bytes (under 16) whose shingles are still to come
        self._seen = 0

    def update(self, chunk) -> None:
        data = np.frombuffer(chunk, np.uint8)
        n = len(data)
        if n == 0:
            return
        self._seen += n
        keep = _SHINGLE - 1
        if self._carry:
            # the shingles that start in the carry and end in this chunk
            head = self._carry + data[:keep].tobytes()
            if len(head) >= _SHINGLE:
                _feed(np.frombuffer(head, np.uint8), self._state, self._ones, self._mins,
                      self._recent)
            if n < keep:
                self._carry = head[-keep:]
                return
        _feed(data, self._state, self._ones, self._mins, self._recent)
        self._carry = data[-keep:].tobytes()

    def result(self) -> tuple[int, np.ndarray]:
        """(simhash as an unsigned 64-bit int, MinHash signature: uint32 (SLOTS,))."""
        slots = np.empty(SLOTS, np.uint32)
        short = self._carry if self._seen < _SHINGLE else b""
        low, high = int.from_bytes(short[:8], "little"), int.from_bytes(short[8:], "little")
        fingerprint = _finish(self._seen, np.uint64(low), np.uint64(high), self._state.copy(),
                              self._ones.copy(), self._mins.copy(), self._recent.copy(), slots)
        return int(fingerprint), slots


def fingerprints(data) -> tuple[int, np.ndarray]:
    """Simhash and MinHash signature of a whole buffer."""
    builder = FingerprintBuilder()
    builder.update(data)
    return builder.result()


def hamming(a, b) -> np.ndarray:
    """Bits in which 64-bit fingerprints differ (elementwise over arrays)."""
    x = np.bitwise_xor(np.asarray(a, np.uint64), np.asarray(b, np.uint64))
    return np.bitwise_count(x).astype(np.int64)


def resemblance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Estimated Jaccard resemblance: the share of equal slots (along the last axis)."""
    return (np.asarray(a) == np.asarray(b)).mean(axis=-1)


def warm_up() -> None:
    """Compile (or load) the kernels."""
    fingerprints(b"warm up the fingerprint kernels")
