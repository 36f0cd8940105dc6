"""The paper's sum table: counts of 16 8-bit tags, bit by bit, with the skip rule.

Semantics (DESIGN.md): the file is one bit string, each byte most significant
bit first.  An 8-bit window starts at every bit position p = 0 .. 8n-8.  A
window equal to tag t is a match; it is counted only if p is at least 8 past
the last *counted* match of t.

How the fast kernel gets there.  Frame k is the byte pair (b[k], b[k+1]); it
holds the eight windows starting at bits 8k .. 8k+7.  A table indexed by the
16-bit pair value lists the frame's matches as (offset, tag).

The skip rule can only discard a match that follows another match of its tag
by fewer than 8 bits.  Such a "close pair" starts in some frame k and lies
within bytes k .. k+2, and where one starts the frame is said to be *close*.
So the kernel tallies every frame in a histogram of pair values (one increment
per input byte; the matches are read off the histogram at the end) and
replays, match by match with the exact rule, only the frames that are close or
follow a close frame, uncounting the matches the rule discards.  Whether a
frame is close is looked up in two steps: a 16-bit pre-filter, then an exact
table over the pair and the byte after it for the few pairs that pass.

Everything the replay needs (the last counted position of each tag, the two
previous bytes) lives in a small state array, so a file can be fed in chunks
of any size with the same result.  Short inputs skip the histogram and count
each frame's matches directly.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Iterable

import numpy as np
from numba import njit

from simgui.core.tags import DEFAULT_TAGS, TAG_COUNT, validate_tags

_NEVER = -(1 << 60)  # "no counted match yet": far enough back for any p
_HIST_FROM = 64 << 10  # inputs longer than this are tallied in a histogram
_HIST_LIMIT = (1 << 31) - 1  # int32 histogram bins: fold before they could overflow

# state layout: bytes fed so far, the last two bytes, whether the last decided frame was close
_SEEN, _BYTE_1, _BYTE_2, _PREV_CLOSE = 0, 1, 2, 3


class _Tables:
    """Lookup tables for one tag set; built once per tag set and shared."""

    __slots__ = ("tags", "tag_index", "match_start", "match_list", "close_row", "close_bits")

    def __init__(self, tags: tuple[int, ...]):
        self.tags = tags
        tag_index = np.full(256, -1, dtype=np.int64)
        tag_index[list(tags)] = np.arange(TAG_COUNT)
        self.tag_index = tag_index

        pairs = np.arange(1 << 16, dtype=np.int64)
        hit = tag_index[_windows(pairs, 16, 8)]  # (65536, 8): tag index or -1
        per_pair = (hit >= 0).sum(axis=1)
        self.match_start = np.zeros((1 << 16) + 1, dtype=np.int32)
        np.cumsum(per_pair, out=self.match_start[1:])
        rows, offsets = np.nonzero(hit >= 0)  # row-major: offsets ascend per row
        self.match_list = ((offsets << 4) | hit[rows, offsets]).astype(np.uint8)

        # Step 1: pairs where a close pair might start, judged from 16 bits.
        maybe = self._maybe_close(pairs, hit, np.array(tags, dtype=np.int64))
        candidates = np.nonzero(maybe)[0]
        # row 0 is all zeros: where pairs that cannot start a close pair point
        self.close_row = np.zeros(1 << 16, dtype=np.int16)
        self.close_row[candidates] = np.arange(1, len(candidates) + 1)
        # Step 2: for those, the exact answer for each following byte, as bits.
        triples = (candidates[:, None] << 8) | np.arange(256)[None, :]
        hit24 = tag_index[_windows(triples.reshape(-1), 24, 15)]
        close = np.zeros(len(triples.reshape(-1)), dtype=bool)
        for s in range(8):
            for d in range(1, 8):
                close |= (hit24[:, s] >= 0) & (hit24[:, s] == hit24[:, s + d])
        bits = np.packbits(close.reshape(-1, 256), axis=1, bitorder="little")
        self.close_bits = np.vstack([np.zeros((1, 32), np.uint8), bits]).view(np.uint64)

    @staticmethod
    def _maybe_close(pairs, hit, tags) -> np.ndarray:
        """A match at offset s whose tag could recur at s+d (d < 8), given 16 bits.

        Only the bits the pair holds are compared, so this may say yes where
        no close pair exists, never the reverse.
        """
        maybe = np.zeros(1 << 16, dtype=bool)
        for s in range(8):
            matched = hit[:, s] >= 0
            tag_here = tags[np.where(matched, hit[:, s], 0)]
            for d in range(1, 8):
                start = s + d  # 1..14: that window's first bit within the pair
                known = min(8, 16 - start)
                head = (pairs >> (16 - start - known)) & ((1 << known) - 1)
                maybe |= matched & (head == (tag_here >> (8 - known)))
        return maybe


def _windows(values: np.ndarray, width: int, count: int) -> np.ndarray:
    """(len(values), count): the 8-bit windows at bit offsets 0..count-1 of ``width``-bit values."""
    return np.stack([(values >> (width - 8 - s)) & 0xFF for s in range(count)], axis=1)


@functools.lru_cache(maxsize=8)
def _tables(tags: tuple[int, ...]) -> _Tables:
    return _Tables(tags)


@njit(nogil=True, cache=True)
def _replay(v, base, match_start, match_list, counts, last):
    """Apply the skip rule to frame ``v`` at bit ``base``: uncount what it discards."""
    if v == 0 or v == 0xFFFF:
        # a constant frame: all 8 windows are the same byte, so if it is a tag
        # it matches 8 times and exactly one of them is counted
        if match_start[v + 1] - match_start[v] == 8:
            t = np.int64(match_list[match_start[v]]) & 15
            nxt = last[t] + 8
            last[t] = nxt if nxt > base else base
            counts[t] -= 7
        return
    for m in range(match_start[v], match_start[v + 1]):
        e = np.int64(match_list[m])
        p = base + (e >> 4)
        t = e & 15
        counted = p - last[t] >= 8
        last[t] = p if counted else last[t]
        counts[t] -= 1 - counted


@njit(nogil=True, cache=True)
def _feed(buf, hist, match_start, match_list, close_row, close_bits, counts, last, state,
          replay_v, replay_frame):
    """Process every frame whose closeness ``buf`` decides (all but the last two).

    With a histogram (``hist.shape[0] == 65536``) frames are tallied there and
    turned into counts by ``_fold``; with an empty ``hist`` they are counted at
    once, which is cheaper for short inputs.  Frames to replay are noted
    without branching in the hot loop and replayed after each block, in order
    (only replays read or write ``last``, so deferring them changes nothing).
    """
    n = buf.shape[0]
    seen = state[_SEEN]
    b2 = state[_BYTE_2]
    b1 = state[_BYTE_1]
    prev_close = state[_PREV_CLOSE]
    j = 0
    while j < n and seen + j < 2:  # the stream's first two bytes only fill the window
        b2 = b1
        b1 = np.int64(buf[j])
        j += 1
    frame0 = seen - 2  # byte j completes frame number frame0 + j
    use_hist = hist.shape[0] != 0
    block = replay_v.shape[0]
    while j < n:
        stop = min(n, j + block)
        noted = 0
        for i in range(j, stop):
            c = np.int64(buf[i])
            v = (b2 << 8) | b1
            if use_hist:
                hist[v] += 1
            else:
                for m in range(match_start[v], match_start[v + 1]):
                    counts[np.int64(match_list[m]) & 15] += 1
            close = np.int64(close_bits[close_row[v], c >> 6] >> np.uint64(c & 63)) & 1
            replay_v[noted] = v
            replay_frame[noted] = frame0 + i
            noted += close | prev_close
            prev_close = close
            b2 = b1
            b1 = c
        for r in range(noted):
            _replay(np.int64(replay_v[r]), replay_frame[r] * 8, match_start, match_list,
                    counts, last)
        j = stop
    state[_SEEN] = seen + n
    state[_BYTE_2] = b2
    state[_BYTE_1] = b1
    state[_PREV_CLOSE] = prev_close


@njit(nogil=True, cache=True)
def _fold(hist, match_start, match_list, counts):
    """Add the matches of the tallied frames to ``counts`` and clear ``hist``."""
    for v in range(hist.shape[0]):
        h = hist[v]
        if h:
            for m in range(match_start[v], match_start[v + 1]):
                counts[np.int64(match_list[m]) & 15] += h
            hist[v] = 0


@njit(nogil=True, cache=True)
def _finish(match_start, match_list, close_row, tag_index, counts, last, state):
    """Count the last two frames, which no following byte decides."""
    seen = state[_SEEN]
    if seen >= 2:
        v = (state[_BYTE_2] << 8) | state[_BYTE_1]
        for m in range(match_start[v], match_start[v + 1]):
            counts[np.int64(match_list[m]) & 15] += 1
        if close_row[v] > 0 or state[_PREV_CLOSE]:  # maybe close: replaying is exact anyway
            _replay(v, (seen - 2) * 8, match_start, match_list, counts, last)
    if seen >= 1:  # the window that starts at the last byte has no pair of its own
        t = tag_index[state[_BYTE_1]]
        p = (seen - 1) * 8
        if t >= 0 and p - last[t] >= 8:
            counts[t] += 1
            last[t] = p


class SumTableBuilder:
    """Streaming sum table: ``update()`` with chunks of any size, then ``result()``.

    The answer is the same whatever the chunk boundaries.  The kernel releases
    the GIL, so builders on different threads run in parallel.
    """

    __slots__ = ("_t", "_histogram_from", "_counts", "_last", "_state", "_hist", "_tallied", "_done")

    def __init__(self, tags: Iterable[int] = DEFAULT_TAGS, *, histogram_from: int = _HIST_FROM):
        """``histogram_from``: inputs longer than this are tallied in a histogram."""
        self._t = _tables(validate_tags(tags))
        self._histogram_from = histogram_from
        self._counts = np.zeros(TAG_COUNT, dtype=np.int64)
        self._last = np.full(TAG_COUNT, _NEVER, dtype=np.int64)
        self._state = np.zeros(4, dtype=np.int64)
        self._hist = _NO_HIST
        self._tallied = 0  # frames in the histogram since the last fold
        self._done = False

    @property
    def bytes_seen(self) -> int:
        return int(self._state[_SEEN])

    def update(self, chunk) -> None:
        if self._done:
            raise RuntimeError("result() was already taken")
        buf = _as_uint8(chunk)
        if self._hist is _NO_HIST and self.bytes_seen + len(buf) > self._histogram_from:
            self._hist = np.zeros(1 << 16, dtype=np.int32)
        t = self._t
        for start in range(0, len(buf), _HIST_LIMIT):
            piece = buf[start:start + _HIST_LIMIT]
            if self._tallied + len(piece) > _HIST_LIMIT:
                self._fold()
            _feed(piece, self._hist, t.match_start, t.match_list, t.close_row,
                  t.close_bits, self._counts, self._last, self._state, *_replay_buffers())
            if self._hist is not _NO_HIST:
                self._tallied += len(piece)

    def _fold(self) -> None:
        if self._tallied:
            _fold(self._hist, self._t.match_start, self._t.match_list, self._counts)
            self._tallied = 0

    def result(self) -> np.ndarray:
        """The 16 counts, in tag order (int64). Ends the stream."""
        if not self._done:
            self._fold()
            t = self._t
            _finish(t.match_start, t.match_list, t.close_row, t.tag_index,
                    self._counts, self._last, self._state)
            self._done = True
        return self._counts.copy()


_NO_HIST = np.zeros(0, dtype=np.int32)
_REPLAY_BLOCK = 1 << 14
_local = threading.local()


def _replay_buffers() -> tuple[np.ndarray, np.ndarray]:
    """Per-thread scratch space for the frames a block must replay."""
    buffers = getattr(_local, "replay", None)
    if buffers is None:
        buffers = _local.replay = (np.empty(_REPLAY_BLOCK, np.int32),
                                   np.empty(_REPLAY_BLOCK, np.int64))
    return buffers


def _as_uint8(buf) -> np.ndarray:
    if isinstance(buf, np.ndarray):
        if buf.dtype != np.uint8:
            raise TypeError(f"expected a uint8 array, got {buf.dtype}")
        return np.ascontiguousarray(buf).reshape(-1)
    return np.frombuffer(buf, dtype=np.uint8)


def sum_table(buf, tags: Iterable[int] = DEFAULT_TAGS) -> np.ndarray:
    """Sum table of ``buf`` (bytes, bytearray, memoryview or uint8 array).

    Returns an int64 array of 16 counts in tag order.
    """
    builder = SumTableBuilder(tags)
    builder.update(buf)
    return builder.result()


def sum_table_of_file(path: str | os.PathLike, tags: Iterable[int] = DEFAULT_TAGS,
                      chunk_size: int = 1 << 20) -> np.ndarray:
    """Sum table of a file, read in ``chunk_size`` pieces."""
    builder = SumTableBuilder(tags)
    with open(path, "rb") as f:
        while chunk := f.read(chunk_size):
            builder.update(chunk)
    return builder.result()


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels; safe to call off-thread."""
    sum_table(b"\x00\x00\x74\xe8")
