"""The paper's sum table: counts of 16 8-bit tags, bit by bit, with the skip rule.

Semantics (DESIGN.md): the file is one bit string, each byte most significant
bit first.  An 8-bit window starts at every bit position p = 0 .. 8n-8.  A
window equal to tag t is a match; it is counted only if p is at least 8 past
the last *counted* match of t.

How the fast kernel gets there
------------------------------
Frame f is the byte pair (b[f], b[f+1]); it holds the eight windows starting
at bits 8f .. 8f+7.  Frames are read as unaligned little-endian 16-bit loads,
so a frame's table index is ``b[f] | b[f+1] << 8``.

*Counting.*  What a frame adds to the counts depends only on its value (the
skip rule aside, see below), and the 65536 values fall into a few hundred
*classes* by what they add.  Long inputs tally every frame in a histogram of
65536 uint32 bins owned by the builder (one load, add and store per byte,
256 KB, L2-resident), folded once at the end through per-tag lists of the
frames that add to each tag.  Short inputs (up to ``histogram_from`` bytes,
128 KB by default) skip the histogram: each frame's class is looked up and
counted in a few hundred counters, so a 100-byte input costs no more than its
100 frames.

*The skip rule.*  A match can only be discarded if another match of its tag
lies fewer than 8 bits before it: a *close pair*.  Two kinds of tags:

- 0x00 and 0xFF (period 1) need no replaying.  Their close pairs are runs of
  equal bits, and a run of L zero bits counts floor(L/8) whatever came before.
  Walking the bytes, that is +1 per 0x00 byte, plus +1 where a nonzero byte c
  ends a run if r + leading_zeros(c) >= 8, r being the trailing zeros of the
  last nonzero byte before the run.  When that byte is the frame's first the
  term is a function of the frame and part of what the frame adds.  Runs of
  whole 0x00 bytes need r from further back; as both terms are at most 7, only
  two kinds of frame can matter: run ends (0x00, c) with leading_zeros(c) >= 4,
  corrected by looking back for r, and run starts (a, 0x00) with
  trailing_zeros(a) >= 5, corrected by looking ahead for c (carried over to
  the next chunk if the run reaches the end of this one).  Both look 8 bytes
  away in one word, and further only for long runs.  0xFF is the same with the
  bits inverted.
- Any other tag t can only make a close pair if it has a period d < 8 (its
  bits repeat after d bits); the pair is then an (8+d)-bit pattern, at most 15
  bits, starting in some frame g, within bytes g .. g+2.  Frame g is *close*
  if such a pattern starts in it.  The two windows of every close pair are
  *replayed* in order: judged by the exact rule against the last counted
  match of their tag, and uncounted if discarded (the last judged position of
  each tag keeps a window shared by two pairs from being judged twice).  A
  match in no close pair is always counted, and never the last counted match
  a replay compares against, so the replays alone settle every discard.

*Finding close frames without slowing the tally.*  Each frame value has a
16-bit prefilter flag: set if the frame is one of the run ends or starts
above, or if it shows enough of some close-pair pattern that starts in it or
in the frame before (each pattern is judged in whichever of the two frames
holds more of its bits).  That flags about 2.5% of random frames for the
default tags.  With a histogram, the flag is bit 31 of each bin (copied from a
template; the count lives in bits 0..23 and is folded before it could reach
bit 24), and the tally, unrolled 8 frames at a time, ORs ``x >> (31 - j)`` of
the old bin values into one byte: 8 frames' flags in 8 bits for one shift and
one OR each.  Without, the flag is bit 15 of the class lookup.  The flags of a
block of 16384 frames are turned into a list of flagged frames, and each
flagged frame f is tested exactly, together with f-1, against a table over
the frame and the top 6 bits of the next byte (all a close pair can reach)
that gives the windows of the close pairs starting in the frame.  The tests do
not branch on their outcome; only the frames that are really close (about
1.3% of random frames) reach the replay.

Everything the cold path needs (the last counted and judged position of each
tag, the last three bytes, how far testing got, the 0x00/0xFF run states)
lives in a small array per builder, and a frame is only processed once the
byte that decides it has arrived, so a file can be fed in chunks of any size
with the same result.  Builders share the read-only tables of their tag set
and nothing else, so builders on different threads run in parallel (the
kernels release the GIL).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from simgui.core.tags import DEFAULT_TAGS, TAG_COUNT, validate_tags

_NEVER = -(1 << 60)  # "no counted match yet": far enough back for any p
_HIST_FROM = 128 << 10  # inputs longer than this tally into the builder's own histogram
_COUNT_MASK = (1 << 24) - 1  # histogram bin: count in bits 0..23, bits 24..30 zero,
_FLAG = 1 << 31  # ... and the prefilter flag in bit 31
_FOLD_LIMIT = _COUNT_MASK  # frames a histogram may take between folds
_BLOCK = 1 << 14  # frames per hot-loop block
# run kinds of a frame, for 0x00 / 0xFF tags
_ZERO_END, _ONES_END, _ZERO_START, _ONES_START = 1, 2, 3, 4

# state layout
_SEEN = 0  # bytes fed so far
_PRE = 1  # 1, 2, 3: the bytes at seen-3, seen-2, seen-1 (when they exist)
_TESTED = 4  # last frame given the exact closeness test
_ZERO_RUN = 5  # trailing zeros of the last nonzero byte before seen-3 (0 if none)
_ONES_RUN = 6  # trailing ones of the last byte != 0xFF before seen-3 (0 if none)
_ZERO_OPEN = 7  # a run start's trailing zeros while its run is still going on, else -1
_ONES_OPEN = 8  # the same for 0xFF
_STATE_SIZE = 9
# a builder's memory: the 16 counts, the last counted / last judged position of
# each tag (for replays), then the state
_LAST, _STATE = TAG_COUNT, 3 * TAG_COUNT
_MEM_INIT = np.zeros(_STATE + _STATE_SIZE, np.int64)
_MEM_INIT[_LAST:_STATE] = _NEVER
_MEM_INIT[[_STATE + _TESTED, _STATE + _ZERO_OPEN, _STATE + _ONES_OPEN]] = -1


# --------------------------------------------------------------------------- bit tricks


@intrinsic
def _cttz(typingctx, x):
    """Trailing zeros of a uint64, 64 for 0 (one tzcnt)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    """Leading zeros of a uint64, 64 for 0 (one lzcnt)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.uint64(types.uint64), codegen


@intrinsic
def _popcount(typingctx, x):
    """Set bits of a uint64 (one popcnt)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@njit(nogil=True, cache=True)
def _tz8(b):
    """Trailing zeros of a nonzero byte."""
    return np.int64(_cttz(np.uint64(b)))


@njit(nogil=True, cache=True)
def _lz8(c):
    """Leading zeros of a byte, within 8 bits (8 for 0)."""
    return np.int64(_ctlz(np.uint64(c))) - 56


# --------------------------------------------------------------------------- tables


_BYTES = np.arange(256)
_TZ8 = np.array([8] + [(x & -x).bit_length() - 1 for x in range(1, 256)])  # trailing zeros
_LZ8 = np.array([8 - x.bit_length() for x in range(256)])  # leading zeros, within 8 bits
_FRAME = np.arange(65536)  # little-endian frame values: first byte low
_FIRST, _SECOND = _FRAME & 0xFF, _FRAME >> 8
_BIG_ENDIAN = (_FIRST << 8) | _SECOND  # the frame's 16 bits, first bit on top


def _period_one_weight(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Counted 0x00 matches credited to frames (b, c); see the module docstring."""
    return (c == 0) | ((b != 0) & (c != 0) & (_TZ8[b] + _LZ8[c] >= 8))


_ZERO_WEIGHT = _FRAME[_period_one_weight(_FIRST, _SECOND)]  # frames adding 1 to tag 0x00
_ONES_WEIGHT = _FRAME[_period_one_weight(_FIRST ^ 0xFF, _SECOND ^ 0xFF)]  # ... to 0xFF


def _frames_matching(mask: int, value: int) -> np.ndarray:
    """The (little-endian) frames whose big-endian bits under ``mask`` are ``value``."""
    free = [i for i in range(16) if not (mask >> i) & 1]
    pick = np.arange(1 << len(free))
    big = np.full(len(pick), value)
    for k, bit in enumerate(free):
        big |= ((pick >> k) & 1) << bit
    return ((big & 0xFF) << 8) | (big >> 8)


@functools.lru_cache(maxsize=256)
def _close_pairs_of(tag: int) -> tuple[list, np.ndarray]:
    """Every close pair of ``tag`` a frame can start, and the frames it flags.

    A pair is a (period d, offset s) pattern: the tag, then its bits again d
    later.  Each comes as the frames whose bits it fixes, the range of
    next-byte top-6-bit values it allows (all a close pair can reach), and its
    two windows.  The prefilter judges each pattern in whichever frame, the
    one it starts in or the next, holds more of its bits.  Patterns are
    enumerated, never searched for.
    """
    items, flagged = [], []
    periods = [d for d in range(1, 8) if (tag >> d) == (tag & ((1 << (8 - d)) - 1))]
    for d in periods:
        length = 8 + d
        pattern = (tag << d) | (tag & ((1 << d) - 1))  # the tag, its last d bits again
        minimal = not any(d % e == 0 for e in periods if e < d)  # else implied by e
        for s in range(8):
            in_frame = min(16, s + length) - s
            shift = 16 - s - in_frame
            frames = _frames_matching(((1 << in_frame) - 1) << shift,
                                      (pattern >> (length - in_frame)) << shift)
            spill = max(s + length - 16, 0)  # pattern bits in the next byte
            first = (pattern & ((1 << spill) - 1)) << (6 - spill)
            items.append((frames, first, first + (1 << (6 - spill)), (1 << s) | (1 << (s + d))))
            if not minimal:
                continue
            in_next = s + d  # its bits at positions 8.., in the next frame
            if in_frame >= in_next:
                flagged.append(frames)
            else:
                tail = pattern & ((1 << in_next) - 1)
                flagged.append(_frames_matching(((1 << in_next) - 1) << (16 - in_next),
                                                tail << (16 - in_next)))
    return items, np.concatenate(flagged) if flagged else np.zeros(0, np.int64)


def _build(tags: tuple[int, ...], zero_tag: int, ones_tag: int):
    """All per-tag-set tables, indexed by the little-endian frame value (numpy, a few ms)."""
    tag_index = np.full(256, -1, np.int64)
    tag_index[list(tags)] = np.arange(TAG_COUNT)

    # What each frame adds to the counts, as a key: 3 bits per tag (a frame
    # holds at most 4 windows of one tag).
    replayed = tag_index.copy()  # the tags whose matches replays judge
    replayed[[t for t in (0x00, 0xFF) if t in tags]] = -1
    # (tag, frame) once per unit a frame adds to the tag
    adds = []
    for s in range(8):
        t = replayed[(_BIG_ENDIAN >> (8 - s)) & 0xFF]
        adds.append((t[t >= 0], _FRAME[t >= 0]))
    for tag, weight in ((zero_tag, _ZERO_WEIGHT), (ones_tag, _ONES_WEIGHT)):
        if tag >= 0:
            adds.append((np.full(len(weight), tag), weight))
    add_tag = np.concatenate([t for t, _ in adds])
    add_frame = np.concatenate([f for _, f in adds])
    # (float64 sums of powers of two below 2**48: exact)
    weight_key = np.bincount(add_frame, weights=np.ldexp(1.0, 3 * add_tag),
                             minlength=65536).astype(np.uint64)
    # for folding a histogram: per tag, the frames adding to it, in frame order
    ordered = np.sort(add_tag << 16 | add_frame)
    tag_frames = (ordered & 0xFFFF).astype(np.uint16)
    tag_start = np.searchsorted(ordered >> 16, np.arange(TAG_COUNT + 1)).astype(np.int64)

    # every close pair a frame can start, and the prefilter flag
    items = []
    flag = np.zeros(65536, bool)
    for tag in tags:
        if tag not in (0x00, 0xFF):
            tag_items, flagged = _close_pairs_of(tag)
            items += tag_items
            flag[flagged] = True

    # 0x00 / 0xFF run frames
    run_kind = np.zeros(65536, np.uint8)
    x = _BYTES[1:]
    if zero_tag >= 0:
        run_kind[x[x < 0x10] << 8] = _ZERO_END  # (0x00, x): ends in >= 4 zero bits
        run_kind[x[x & 0x1F == 0]] = _ZERO_START  # (x, 0x00): starts after >= 5 zero bits
    if ones_tag >= 0:
        run_kind[((x[x < 0x10] ^ 0xFF) << 8) | 0xFF] = _ONES_END
        run_kind[0xFF00 | (x[x & 0x1F == 0] ^ 0xFF)] = _ONES_START
    flag |= run_kind != 0

    # For the few frames that can start a close pair: the windows of the close
    # pairs starting there, for each next-byte top-6-bit value.
    some = np.zeros(65536, bool)
    for frames, _, _, _ in items:
        some[frames] = True
    frames_with_pairs = np.flatnonzero(some)
    row_of = np.zeros(65536, np.int64)
    row_of[frames_with_pairs] = np.arange(len(frames_with_pairs))
    pairs = np.zeros((len(frames_with_pairs), 64), np.uint16)
    for frames, lo, hi, windows in items:
        pairs[row_of[frames], lo:hi] |= np.uint16(windows)

    return (tag_index, flag.astype(np.uint8), weight_key, frames_with_pairs, pairs, run_kind,
            tag_frames, tag_start)


class _Tables:
    """Lookup tables for one tag set; built once per tag set and shared by all threads."""

    __slots__ = ("tags", "hist_init", "kernel")

    def __init__(self, tags: tuple[int, ...]):
        self.tags = tags
        zero_tag = tags.index(0x00) if 0x00 in tags else -1
        ones_tag = tags.index(0xFF) if 0xFF in tags else -1
        (tag_index, flag, weight_key, frames, pairs, run_kind, tag_frames,
         tag_start) = _build(tags, zero_tag, ones_tag)
        # Frames fall into a few hundred classes by what they add to the counts:
        # class_of[frame] is the class, plus the prefilter flag in bit 15; a
        # class's (tag | weight << 4) entries are class_list[class_start[c]:...].
        keys, class_of = np.unique(weight_key, return_inverse=True)
        class_of = class_of.reshape(-1).astype(np.uint16) | (flag.astype(np.uint16) << 15)
        weights = ((keys[:, None] >> (3 * np.arange(16, dtype=np.uint64))) & 7).astype(np.int64)
        classes, tags_of = np.nonzero(weights)
        class_list = (tags_of | (weights[classes, tags_of] << 4)).astype(np.uint8)
        class_start = np.searchsorted(classes, np.arange(len(keys) + 1)).astype(np.int32)
        hist_init = flag.astype(np.uint32) << np.uint32(31)
        # Those frames have few distinct rows of ``pairs``: keep each row once
        # (row 0: no pairs) and a row number per frame, 8 bits while there are
        # at most 255 rows (always so far).
        rows, row_of = np.unique(pairs.view(np.dtype((np.void, 128))).reshape(-1),
                                 return_inverse=True)
        close_row = np.zeros(65536, np.uint8 if len(rows) < 256 else np.uint16)
        close_row[frames] = row_of.reshape(-1) + 1
        pair_rows = np.concatenate([np.zeros(64, np.uint16), rows.view(np.uint16)])
        self.hist_init = hist_init
        # everything the kernels read, in one tuple (one argument to unbox)
        self.kernel = (tag_index, hist_init, class_of, class_start, class_list, close_row,
                       pair_rows, run_kind, np.int64(zero_tag), np.int64(ones_tag), tag_frames,
                       tag_start)

    def new_histogram(self) -> np.ndarray:
        return self.hist_init.copy()


@functools.lru_cache(maxsize=8)
def _tables(tags: tuple) -> _Tables:
    """The tables of a tag set (validated on first use; a hit means it was valid)."""
    return _Tables(validate_tags(tags))


# --------------------------------------------------------------------------- cold path
#
# numba does not inline calls between separately compiled functions, a call
# passes every array as a 7-word struct, and calls that take arrays are where
# reference counting creeps in.  So the cold path is called once per block of
# flagged frames, and its byte accessor is spelled out inline: stream position
# i is buf[i - seen] if i >= seen, else one of the three bytes in the state.


@njit(nogil=True, cache=True)
def _run_before(buf, words, state, seen, i, fill, saved):
    """Trailing ``fill`` bits (fill is 0x00 or 0xFF) of the last byte != fill before ``i``.

    Scans back, eight bytes at a time where it can, down to seen-3; ``saved``
    stands for everything before that.
    """
    j = i - 1
    fill64 = np.uint64(0xFFFFFFFFFFFFFFFF) if fill else np.uint64(0)
    while j >= seen:
        k = j - seen
        if (k & 7) == 7 and words[k >> 3] == fill64:
            j -= 8
            continue
        b = np.int64(buf[k])
        if b != fill:
            return _tz8(b ^ fill)
        j -= 1
    while j >= seen - 3 and j >= 0:
        b = state[_PRE + 3 + j - seen]
        if b != fill:
            return _tz8(b ^ fill)
        j -= 1
    return saved


@njit(nogil=True, cache=True)
def _run_after(buf, words, state, seen, i, fill):
    """Leading ``fill`` bits of the first byte != fill at or after ``i``; -1 if none yet."""
    j = i
    while j < seen:
        b = state[_PRE + 3 + j - seen]
        if b != fill:
            return _lz8(b ^ fill)
        j += 1
    fill64 = np.uint64(0xFFFFFFFFFFFFFFFF) if fill else np.uint64(0)
    n = buf.shape[0]
    k = j - seen
    while k < n:
        if (k & 7) == 0 and k + 8 <= n and words[k >> 3] == fill64:
            k += 8
            continue
        b = np.int64(buf[k])
        if b != fill:
            return _lz8(b ^ fill)
        k += 1
    return -1


@njit(nogil=True, cache=True)
def _run_frame(buf, words, state, seen, f, kind, b, c, zero_tag, ones_tag, counts):
    """Correct one 0x00/0xFF run frame the long way; see the module docstring."""
    if kind == _ZERO_END or kind == _ONES_END:
        fill = b
        tag = zero_tag if kind == _ZERO_END else ones_tag
        r = _run_before(buf, words, state, seen, f, fill,
                        state[_ZERO_RUN] if kind == _ZERO_END else state[_ONES_RUN])
        counts[tag] += r + _lz8(c ^ fill) >= 8
    elif kind == _ZERO_START or kind == _ONES_START:
        fill = c
        tag = zero_tag if kind == _ZERO_START else ones_tag
        r = _tz8(b ^ fill)
        lead = _run_after(buf, words, state, seen, f + 2, fill)
        if lead < 0:  # the run goes on past this chunk
            state[_ZERO_OPEN if kind == _ZERO_START else _ONES_OPEN] = r
        elif lead < 4:  # (a longer lead is a flagged run end, corrected there)
            counts[tag] += r + lead >= 8


@njit(nogil=True, cache=True)
def _runs(buf, words, state, seen, run_ends, count, run_kind, zero_tag, ones_tag, counts):
    """Correct the possible 0x00/0xFF run frames ``run_ends[:count]``.

    A run end needs the last byte before the run, a run start the first byte
    after it.  Runs are mostly short: the 8 bytes before (after) the frame,
    read as one word, usually hold that byte, and finding it is a matter of
    counting zero bits, with no branch.  Longer runs go to ``_run_frame``.
    """
    n = buf.shape[0]
    zero_add = 0
    ones_add = 0
    for i in range(count):
        f = run_ends[i]
        k = f - seen
        if k < 8 or k + 10 > n:  # too near the chunk's ends for the quick way
            b = np.int64(buf[k]) if k >= 0 else state[_PRE + 3 + k]
            c = np.int64(buf[k + 1]) if k + 1 >= 0 else state[_PRE + 4 + k]
            kind = np.int64(run_kind[b | (c << 8)])
            if kind:
                _run_frame(buf, words, state, seen, f, kind, b, c, zero_tag, ones_tag, counts)
            continue
        b = np.int64(buf[k])
        c = np.int64(buf[k + 1])
        kind = np.int64(run_kind[b | (c << 8)])
        end = (kind == _ZERO_END) | (kind == _ONES_END)
        fill = b if end else c
        fill64 = np.uint64(0) - np.uint64(fill >> 7)  # the fill byte, 8 times
        before = np.uint64(0)  # bytes k-8 .. k-1, k-1 on top
        after = np.uint64(0)  # bytes k+2 .. k+9, k+2 at the bottom
        for j in range(8):
            before |= np.uint64(buf[k - 8 + j]) << np.uint64(8 * j)
            after |= np.uint64(buf[k + 2 + j]) << np.uint64(8 * j)
        before ^= fill64
        after ^= fill64
        # the last byte != fill before the run; its trailing fill bits
        top = np.uint64(56) - (_ctlz(before) & np.uint64(0x38))
        run_end = _tz8((before >> top) & np.uint64(0xFF))
        # the first byte != fill after the run; its leading fill bits
        low = _cttz(after) & np.uint64(0x38)
        lead_start = _lz8((after >> low) & np.uint64(0xFF))
        run = run_end if end else _tz8(b ^ fill)
        lead = _lz8(c ^ fill) if end else lead_start
        if kind and (before if end else after) == 0:  # a long run
            _run_frame(buf, words, state, seen, f, kind, b, c, zero_tag, ones_tag, counts)
            continue
        # (a run start's lead of 4 or more is a flagged run end, corrected there)
        credit = np.int64(kind != 0) & np.int64(run + lead >= 8) & np.int64(end | (lead < 4))
        zero_add += credit & np.int64(fill == 0)
        ones_add += credit & np.int64(fill != 0)
    if zero_tag >= 0:
        counts[zero_tag] += zero_add
    if ones_tag >= 0:
        counts[ones_tag] += ones_add


@njit(nogil=True, cache=True)
def _test_flagged(buf, todo, first, count, seen, limit, tested, close_row, pairs, marks):
    """Stage 1 for flagged frames ``todo[first:count]``, whose bytes f-1 .. f+2 are in ``buf``.

    ``marks[i]``: bits 0..14 the close-pair windows of frame f-1 (if not
    tested before), bits 16..30 those of frame f, bit 15 if f may be a
    0x00/0xFF run frame.  Nothing here waits for the lookups (no branch, no
    store address depends on them), so the lookups of many frames overlap.
    Indices are unsigned so that numba adds no negative-index handling.
    Returns the last frame tested.
    """
    one = np.uint64(1)
    two = np.uint64(2)
    six = np.uint64(6)
    eight = np.uint64(8)
    for i in range(first, count):
        f = todo[i]
        k = np.uint64(f - seen)
        a = np.uint64(buf[k - one])
        b = np.uint64(buf[k])
        c = np.uint64(buf[k + one])
        d = np.uint64(buf[k + two])
        before = pairs[(np.uint64(close_row[a | (b << eight)]) << six) | (c >> two)]
        this = pairs[(np.uint64(close_row[b | (c << eight)]) << six) | (d >> two)]
        run = (b == 0) | (c == 0) | (b == 0xFF) | (c == 0xFF)  # _runs looks closer
        marks[i] = ((np.uint32(before) & -np.uint32(f - 1 > tested))
                    | (np.uint32(this) & -np.uint32(f <= limit)) << np.uint32(16)
                    | np.uint32(run) << np.uint32(15))
        tested = min(f, limit)
    return tested


@njit(nogil=True, cache=True)
def _sort_out(todo, marks, count, closes, run_ends):
    """Stage 1b: the close frames (frame << 16 | pair windows) and the run frames, in order."""
    found = 0
    runs = 0
    for i in range(count):
        f = todo[i]
        m = np.int64(marks[i])
        closes[found] = ((f - 1) << 16) | (m & 0x7FFF)
        found += (m & 0x7FFF) != 0
        closes[found] = (f << 16) | (m >> 16)
        found += (m >> 16) != 0
        run_ends[runs] = f
        runs += (m >> 15) & 1
    return found, runs


@njit(nogil=True, cache=True)
def _replay(buf, state, seen, closes, found, tag_index, counts, last):
    """Stage 2: run the windows of each close pair through the exact rule, in order.

    ``last[t]`` is the last counted match of tag t, ``last[16 + t]`` the last
    one looked at here: pairs of neighbouring frames can share a window, which
    must be judged once.
    """
    for i in range(found):
        e = closes[i]
        g = e >> 16
        todo_bits = np.uint64(e & 0xFFFF)
        if g >= seen:
            k = np.uint64(g - seen)
            b0 = np.int64(buf[k])
            b1 = np.int64(buf[k + np.uint64(1)])
            b2 = np.int64(buf[k + np.uint64(2)])
        else:
            b0 = state[_PRE + 3 + g - seen]
            b1 = np.int64(buf[g + 1 - seen]) if g + 1 >= seen else state[_PRE + 4 + g - seen]
            b2 = np.int64(buf[g + 2 - seen]) if g + 2 >= seen else state[_PRE + 5 + g - seen]
        window = (b0 << 16) | (b1 << 8) | b2  # the windows of frames g and g+1
        base = g * 8
        # Usually the windows are one pair, of one tag: judge it in registers.
        first = np.int64(_cttz(todo_bits))
        rest = todo_bits & (todo_bits - np.uint64(1))
        second = np.int64(_cttz(rest))
        t = tag_index[(window >> (16 - first)) & 0xFF]
        if (rest & (rest - np.uint64(1))) == 0 and t == tag_index[(window >> (16 - second)) & 0xFF]:
            looked = last[16 + t]
            counted = last[t]
            p = base + first
            fresh = p > looked
            kept = p - counted >= 8
            counted = p if fresh and kept else counted
            dropped = fresh and not kept
            p = base + second
            fresh = p > looked
            kept = p - counted >= 8
            last[t] = p if fresh and kept else counted
            last[16 + t] = max(p, looked)
            counts[t] -= dropped + (fresh and not kept)
            continue
        while todo_bits:
            s = np.int64(_cttz(todo_bits))
            todo_bits &= todo_bits - np.uint64(1)
            t = tag_index[(window >> (16 - s)) & 0xFF]
            p = base + s
            looked = last[16 + t]
            fresh = p > looked
            last[16 + t] = p if fresh else looked
            before = last[t]
            kept = p - before >= 8
            last[t] = p if fresh and kept else before
            counts[t] -= fresh and not kept


@njit(nogil=True, cache=True)
def _cold(buf, words, state, seen, todo, count, limit, work, tab, counts, last):
    """The flagged frames ``todo[:count]`` (ascending), each with its next byte known.

    Stage 1: give frames f-1 and f (up to ``limit``) the exact closeness test,
    once each, and note the possible 0x00/0xFF run frames.  Then correct the
    run frames, and replay the close pairs in order.  ``work`` is scratch
    space for 4 * len(todo) entries.
    """
    tag_index, close_row, pairs, run_kind, zero_tag, ones_tag = tab[0], *tab[5:10]
    size = todo.shape[0]
    closes = work[:2 * size]
    run_ends = work[2 * size:3 * size]
    marks = work[3 * size:].view(np.uint32)
    tested = state[_TESTED]
    i = 0
    while i < count and todo[i] <= seen:  # frames reaching into the saved bytes
        f = todo[i]
        a = state[_PRE + 2 + f - seen] if f >= 1 else 0  # f-1 < seen here
        b = np.int64(buf[f - seen]) if f >= seen else state[_PRE + 3 + f - seen]
        c = np.int64(buf[f + 1 - seen]) if f + 1 >= seen else state[_PRE + 4 + f - seen]
        if f + 2 < seen:
            d = state[_PRE + 5 + f - seen]
        elif f + 2 - seen < buf.shape[0]:
            d = np.int64(buf[f + 2 - seen])
        else:
            d = 0  # end of stream: f is beyond limit and not tested
        before = pairs[(np.int64(close_row[a | (b << 8)]) << 6) | (c >> 2)]
        this = pairs[(np.int64(close_row[b | (c << 8)]) << 6) | (d >> 2)]
        run = (b == 0) | (c == 0) | (b == 0xFF) | (c == 0xFF)
        marks[i] = ((before if f - 1 > tested and f >= 1 else 0)
                    | (this if f <= limit else 0) << 16 | run << 15)
        tested = min(f, limit)
        i += 1
    if i < count:
        tested = _test_flagged(buf, todo, i, count, seen, limit, tested, close_row, pairs,
                               marks)
    state[_TESTED] = tested
    found, runs = _sort_out(todo, marks, count, closes, run_ends)
    if runs:
        _runs(buf, words, state, seen, run_ends, runs, run_kind, zero_tag, ones_tag, counts)
    if found:
        _replay(buf, state, seen, closes, found, tag_index, counts, last)


# --------------------------------------------------------------------------- hot path


@njit(nogil=True, cache=True)
def _tally(even, odd, q, groups, hist, flag_bytes):
    """Tally 8 * ``groups`` frames from ``even[q]`` on; flag byte g gets their flags.

    The old bin value >> (31 - j) puts frame j's flag on bit j; the bits below
    it come from bits 24..30, which are always zero.  Indices are unsigned so
    that numba adds no negative-index handling.
    """
    one, two, three, four = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    for g in range(groups):
        v = even[q]
        x = hist[v]
        hist[v] = x + 1
        acc = x >> 31
        v = odd[q]
        x = hist[v]
        hist[v] = x + 1
        acc |= x >> 30
        v = even[q + one]
        x = hist[v]
        hist[v] = x + 1
        acc |= x >> 29
        v = odd[q + one]
        x = hist[v]
        hist[v] = x + 1
        acc |= x >> 28
        v = even[q + two]
        x = hist[v]
        hist[v] = x + 1
        acc |= x >> 27
        v = odd[q + two]
        x = hist[v]
        hist[v] = x + 1
        acc |= x >> 26
        v = even[q + three]
        x = hist[v]
        hist[v] = x + 1
        acc |= x >> 25
        v = odd[q + three]
        x = hist[v]
        hist[v] = x + 1
        acc |= x >> 24
        flag_bytes[g] = acc
        q += four


@njit(nogil=True, cache=True)
def _flag_list(flags, words, base, todo):
    """The positions (``base`` + bit index) of the set bits of ``flags[:words]``, in order.

    The first four bits of a word are written unconditionally (most words have
    fewer; the extra entries are overwritten), which keeps the loop free of
    mispredicted branches.
    """
    count = 0
    for w in range(words):
        m = flags[w]
        at = base + w * 64
        bits = np.int64(_popcount(m))
        todo[count] = at + np.int64(_cttz(m))
        m &= m - np.uint64(1)
        todo[count + 1] = at + np.int64(_cttz(m))
        m &= m - np.uint64(1)
        todo[count + 2] = at + np.int64(_cttz(m))
        m &= m - np.uint64(1)
        todo[count + 3] = at + np.int64(_cttz(m))
        m &= m - np.uint64(1)
        extra = count + 4
        while m:
            todo[extra] = at + np.int64(_cttz(m))
            m &= m - np.uint64(1)
            extra += 1
        count += bits
    return count


@njit(nogil=True, cache=True)
def _classify(even, odd, q, groups, class_of, sums, flag_bytes):
    """Short inputs: count 8 * ``groups`` frames from ``even[q]`` on by class, in ``sums``.

    Flag byte g gets the frames' prefilter flags, as in ``_tally``.  Four lanes
    of class counters keep runs of one class from queueing on one counter.
    """
    one, two, three, four = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    low = np.uint16(0x7FFF)
    top = np.uint16(15)
    for g in range(groups):
        e = class_of[even[q]]
        sums[0, e & low] += 1
        acc = e >> top
        e = class_of[odd[q]]
        sums[1, e & low] += 1
        acc |= (e >> top) << 1
        e = class_of[even[q + one]]
        sums[2, e & low] += 1
        acc |= (e >> top) << 2
        e = class_of[odd[q + one]]
        sums[3, e & low] += 1
        acc |= (e >> top) << 3
        e = class_of[even[q + two]]
        sums[0, e & low] += 1
        acc |= (e >> top) << 4
        e = class_of[odd[q + two]]
        sums[1, e & low] += 1
        acc |= (e >> top) << 5
        e = class_of[even[q + three]]
        sums[2, e & low] += 1
        acc |= (e >> top) << 6
        e = class_of[odd[q + three]]
        sums[3, e & low] += 1
        acc |= (e >> top) << 7
        flag_bytes[g] = acc
        q += four


@njit(nogil=True, cache=True)
def _add_classes(sums, class_start, class_list, counts):
    """Add what the class counts in ``sums`` (lanes x classes) stand for to ``counts``."""
    for c in range(sums.shape[1]):
        h = np.int64(sums[0, c] + sums[1, c] + sums[2, c] + sums[3, c])
        if h:
            for m in range(class_start[c], class_start[c + 1]):
                e = np.int64(class_list[m])
                counts[e & 15] += h * (e >> 4)


@njit(nogil=True, cache=True)
def _feed(buf, hist, tab, mem, finish):
    """Take the next chunk ``buf`` of the stream (``_feed_chunk``), or with
    ``finish`` (and an empty ``buf``) end it (``_finish``).

    ``mem`` holds the builder's counts, last positions and state.  The views
    are unaligned for odd offsets, which x86 loads do not mind.  One entry
    point with one set of argument types keeps numba to one compilation of
    everything below.
    """
    n = buf.shape[0]
    words = buf[:n & ~7].view(np.uint64)
    counts, last, state = mem[:_LAST], mem[_LAST:_STATE], mem[_STATE:]
    if finish:
        _finish(buf, words, tab, counts, last, state)
    else:
        _feed_chunk(buf, buf[:n & ~1].view(np.uint16),
                    buf[1:1 + ((n - 1) & ~1)].view(np.uint16), words, hist, tab, counts,
                    last, state)


@njit(nogil=True, cache=True)
def _feed_chunk(buf, even, odd, words, hist, tab, counts, last, state):
    """Take the next chunk of the stream.

    Processes every frame whose deciding byte (the one after it) is now known:
    the two frames straddling the previous chunk, then frames 0 .. n-3 of
    ``buf``.  ``even``/``odd`` are ``buf`` viewed as uint16 from offsets 0 and
    1 (frame k is ``even[k >> 1]`` or ``odd[k >> 1]``), ``words`` as uint64.
    Frames are tallied in ``hist`` for ``_fold_all``; with an empty ``hist``
    (short inputs) they are counted by class and added to ``counts`` at once.
    """
    class_of, class_start, class_list = tab[2], tab[3], tab[4]
    zero_tag, ones_tag = tab[8], tab[9]
    n = buf.shape[0]
    if n == 0:
        return
    seen = state[_SEEN]
    if seen == 0:  # the first byte is no frame's second byte (see _period_one_weight)
        if zero_tag >= 0 and buf[0] == 0:
            counts[zero_tag] += 1
        if ones_tag >= 0 and buf[0] == 0xFF:
            counts[ones_tag] += 1
    for slot, fill, tag in ((_ZERO_OPEN, 0, zero_tag), (_ONES_OPEN, 0xFF, ones_tag)):
        if state[slot] >= 0:  # a run started in an earlier chunk: does it end here?
            lead = _run_after(buf, words, state, seen, seen, fill)
            if lead >= 0:
                if lead < 4:
                    counts[tag] += state[slot] + lead >= 8
                state[slot] = -1
    direct = hist.shape[0] == 0
    sums = np.zeros((4, class_start.shape[0] - 1 if direct else 0), np.int32)
    frames = max(n - 2, 0)  # frames 0 .. n-3 of the chunk
    todo = np.empty(min(frames, _BLOCK) + 8, np.int64)  # flagged frames of a block
    work = np.empty(4 * todo.shape[0], np.int64)  # the cold path's lists

    # the (at most two) frames that start before this chunk
    count = np.int64(0)
    for f in range(max(seen - 2, 0), min(seen, seen + n - 2)):
        b0 = state[_PRE + 3 + f - seen]
        b1 = np.int64(buf[f + 1 - seen]) if f + 1 >= seen else state[_PRE + 4 + f - seen]
        v = b0 | (b1 << 8)
        e = class_of[v]
        if direct:
            sums[0, e & 0x7FFF] += 1
        else:
            hist[v] += 1
        todo[count] = f
        count += np.int64(e >> 15)
    if count:
        _cold(buf, words, state, seen, todo, count, seen + n - 3, work, tab, counts, last)

    # the chunk's frames, a block at a time: tally and collect flags, then take
    # the flagged frames through the cold path in order
    flags = np.zeros(_BLOCK // 64, np.uint64)
    flag_bytes = flags.view(np.uint8)
    for start in range(0, frames, _BLOCK):
        size = min(_BLOCK, frames - start)
        groups = size >> 3
        if direct:
            _classify(even, odd, np.uint64(start >> 1), groups, class_of, sums, flag_bytes)
        else:
            _tally(even, odd, np.uint64(start >> 1), groups, hist, flag_bytes)
        used = (size + 63) >> 6
        for g in range(groups, used * 8):
            flag_bytes[g] = 0
        for j in range(groups * 8, size):
            k = start + j
            v = even[k >> 1] if (k & 1) == 0 else odd[k >> 1]
            e = class_of[v]
            if direct:
                sums[0, e & 0x7FFF] += 1
            else:
                hist[v] += 1
            flag_bytes[j >> 3] |= (e >> 15) << (j & 7)
        count = _flag_list(flags, used, seen + start, todo)
        if count:
            _cold(buf, words, state, seen, todo, count, seen + n - 3, work, tab, counts, last)
    if direct:
        _add_classes(sums, class_start, class_list, counts)

    # the run states and the last three bytes move on past this chunk
    end = seen + n
    state[_ZERO_RUN] = _run_before(buf, words, state, seen, end - 3, 0, state[_ZERO_RUN])
    state[_ONES_RUN] = _run_before(buf, words, state, seen, end - 3, 0xFF, state[_ONES_RUN])
    b3 = state[_PRE + n] if n < 3 else np.int64(buf[n - 3])
    b2 = state[_PRE + n + 1] if n < 2 else np.int64(buf[n - 2])
    state[_PRE] = b3
    state[_PRE + 1] = b2
    state[_PRE + 2] = np.int64(buf[n - 1])
    state[_SEEN] = end


@njit(nogil=True, cache=True)
def _fold_all(hist, tab, mem):
    """Add the tallies of every bin to the counts and clear them (flags stay)."""
    tag_frames, tag_start = tab[10], tab[11]
    counts = mem[:_LAST]
    for t in range(16):
        total = 0
        for i in range(tag_start[t], tag_start[t + 1]):
            total += hist[tag_frames[i]] & _COUNT_MASK
        counts[t] += total
    for v in range(65536):
        hist[v] &= _FLAG


@njit(nogil=True, cache=True)
def _finish(empty, no_words, tab, counts, last, state):
    """End of stream: the last frame (no byte decides it) and the last byte's window."""
    tag_index, class_of, class_start, class_list = tab[0], tab[2], tab[3], tab[4]
    zero_tag, ones_tag = tab[8], tab[9]
    seen = state[_SEEN]
    if seen >= 2:
        f = seen - 2
        v = state[_PRE + 1] | (state[_PRE + 2] << 8)
        e = class_of[v]
        c = e & 0x7FFF
        for m in range(class_start[c], class_start[c + 1]):
            w = np.int64(class_list[m])
            counts[w & 15] += w >> 4
        if e >> 15:  # a run frame, or frame f-1 may be close
            _cold(empty, no_words, state, seen,
                  np.full(1, f, np.int64), np.int64(1), f - 1, np.empty(4, np.int64), tab,
                  counts, last)
    # No byte decides the last frame: run all its windows and the last byte's
    # (which belongs to no frame, so it is counted here) through the rule.
    # Judging windows that are in no close pair is harmless.
    window = (state[_PRE + 1] << 16) | (state[_PRE + 2] << 8)
    for s in range(0 if seen >= 2 else 8, 9 if seen >= 1 else 0):
        t = tag_index[(window >> (16 - s)) & 0xFF]
        if t < 0 or t == zero_tag or t == ones_tag:
            continue
        p = (seen - 2) * 8 + s
        if p <= last[16 + t]:
            continue  # judged already
        last[16 + t] = p
        kept = p - last[t] >= 8
        if kept:
            last[t] = p
        if s == 8:
            counts[t] += kept
        else:
            counts[t] -= not kept


# --------------------------------------------------------------------------- API


class SumTableBuilder:
    """Streaming sum table: ``update()`` with chunks of any size, then ``result()``.

    The answer is the same whatever the chunk boundaries.  The kernel releases
    the GIL, so builders on different threads run in parallel; one builder
    must not be shared between threads.
    """

    __slots__ = ("_t", "_histogram_from", "_mem", "_hist", "_tallied", "_done")

    def __init__(self, tags: Iterable[int] = DEFAULT_TAGS, *, histogram_from: int = _HIST_FROM):
        """``histogram_from``: inputs longer than this tally into a histogram of their own,
        folded once at the end; shorter ones are counted as they go."""
        self._t = _tables(tags if type(tags) is tuple else tuple(tags))
        self._histogram_from = histogram_from
        self._mem = _MEM_INIT.copy()  # counts, last positions, state (see _feed)
        self._hist = None
        self._tallied = 0  # frames in self._hist since the last fold
        self._done = False

    @property
    def bytes_seen(self) -> int:
        return int(self._mem[_STATE + _SEEN])

    def update(self, chunk) -> None:
        if self._done:
            raise RuntimeError("result() was already taken")
        buf = _as_uint8(chunk)
        n = len(buf)
        if n == 0:
            return
        if self._hist is None and self.bytes_seen + n > self._histogram_from:
            self._hist = self._t.new_histogram()
        if self._hist is None and n <= _FOLD_LIMIT:  # the usual short input
            _feed(buf, _NO_HIST, self._t.kernel, self._mem, False)
            return
        for start in range(0, n, _FOLD_LIMIT):
            piece = buf[start:start + _FOLD_LIMIT]
            if self._hist is None:
                _feed(piece, _NO_HIST, self._t.kernel, self._mem, False)
                continue
            if self._tallied + len(piece) > _FOLD_LIMIT:
                self._fold()
            _feed(piece, self._hist, self._t.kernel, self._mem, False)
            self._tallied += len(piece)

    def _fold(self) -> None:
        if self._tallied:
            _fold_all(self._hist, self._t.kernel, self._mem)
            self._tallied = 0

    def result(self) -> np.ndarray:
        """The 16 counts, in tag order (int64). Ends the stream."""
        if not self._done:
            if self._hist is not None:
                self._fold()
                self._hist = None
            _feed(_EMPTY, _NO_HIST, self._t.kernel, self._mem, True)
            self._done = True
        return self._mem[:_LAST].copy()


_NO_HIST = np.zeros(0, np.uint32)
_EMPTY = np.zeros(0, np.uint8)
_EMPTY.flags.writeable = False  # the same type as every chunk (see _as_uint8)


def _as_uint8(buf) -> np.ndarray:
    """``buf`` as a flat, read-only uint8 array, without copying if it can.

    Always read-only, so that the kernels are compiled for one array type only.
    """
    if isinstance(buf, np.ndarray):
        if buf.dtype != np.uint8:
            raise TypeError(f"expected a uint8 array, got {buf.dtype}")
        buf = np.ascontiguousarray(buf).reshape(-1)
    else:
        buf = np.frombuffer(buf, dtype=np.uint8)
    if buf.flags.writeable:
        buf = buf.view()
        buf.flags.writeable = False
    return buf


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
    sum_table(bytes(_HIST_FROM + 1))
