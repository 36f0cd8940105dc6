"""Where two files differ: block matching that survives insertions and deletions.

Positional comparison (byte i of A against byte i of B) only says where the
files first part ways: after one inserted byte every later byte "differs".
To show *how much* of each file changed, the content is matched rsync-style
instead:

* File A is cut into aligned *units* of ``block`` bytes (64 by default).  The
  last, shorter unit is probed with the last full ``block`` bytes of A (so it
  overlaps the unit before it); a file shorter than a block is one unit probed
  with the whole file.
* A unit is *found* when its probe occurs anywhere in B, at any offset.  The
  same is then done with A and B swapped.

How, exactly and fast:

* A's probes go into an open-addressing table (equal probes share a slot).
  Every window of B gets a rolling polynomial hash (mod 2**64, two multiplies
  a byte), checked first against a small Bloom filter of the still-unfound
  probes, then against the table.  A candidate counts only after a byte-exact
  comparison, so collisions cost time, never accuracy: the result is exactly
  "this probe occurs in B".  (A 64-bit polynomial hash alone can be fooled by
  structured data; verifying is cheap since each probe is verified
  successfully once.)
* After a match the scan follows A and B along together, comparing the next
  units directly (sequential memory, no hashing), and jumps over the matched
  run; a second pass scans the windows jumped over for the probes still
  unfound.  Similar files thus cost one hashing pass against a filter that
  fits in L1 cache; every window of B is still checked, so nothing is missed.

So a block inserted at the start of B marks only that block of B (and the
one it straddles into) as changed; a moved block is found at its new place.
Limits: the resolution is one block, so one changed byte marks its whole
block; content repeated elsewhere in the other file counts as found even if
it was removed here; files shorter than a block are one short string, found
easily; ``common_bytes`` is an estimate (the smaller side's found bytes).

Files larger than ``max_bytes`` are matched on their first ``max_bytes``
bytes only (``Differences.truncated``); cells past that prefix are NaN.  Their
positional comparison (``identical``, ``first_difference``) still reads to
the end or to the first difference, so it is never a guess.  Memory: both
prefixes, plus up to about 1.4 bytes per byte of the side being indexed.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from simgui.core.progress import Progress, ProgressCallback, report

BLOCK = 64
DEFAULT_CELLS = 200
DEFAULT_MAX_BYTES = 256 << 20
HEX_WINDOW = 64  # bytes around the first difference kept for display

_SCAN_CHUNK = 8 << 20  # windows scanned between progress reports
_READ_CHUNK = 8 << 20
_BASE = np.uint64(0xC2B2AE3D27D4EB4F)  # odd multiplier of the polynomial hash
_MIX = np.uint64(0x9E3779B97F4A7C15)  # spreads the hash into the top bits used as an index


@dataclass(frozen=True, eq=False)  # arrays inside: compare fields, not objects
class Differences:
    """How two files compare; arrays are per cell, cells being equal slices of each file."""

    path_a: str
    path_b: str
    size_a: int
    size_b: int
    identical: bool
    first_difference: int | None  # first offset where the bytes differ (or one file ends)
    changed_a: np.ndarray = field(repr=False)  # float (cells,): share of A's cell not found in B
    changed_b: np.ndarray = field(repr=False)  # likewise for B against A; NaN past the prefix
    changed_bytes_a: int  # bytes of A's compared prefix not found in B
    changed_bytes_b: int
    compared_a: int  # bytes of each file that took part in block matching
    compared_b: int
    common_bytes: int  # estimate of shared content: the smaller side's found bytes
    truncated: bool  # a file exceeded max_bytes: only prefixes were block-matched
    block: int = BLOCK
    window_offset: int = 0  # file offset of window_a / window_b
    window_a: bytes = b""  # up to HEX_WINDOW bytes of each file around first_difference
    window_b: bytes = b""

    @property
    def percent_changed_a(self) -> float:
        """Percent of A's compared bytes whose content is not found in B."""
        return 100.0 * self.changed_bytes_a / self.compared_a if self.compared_a else 0.0

    @property
    def percent_changed_b(self) -> float:
        return 100.0 * self.changed_bytes_b / self.compared_b if self.compared_b else 0.0

    def hex_rows(self, width: int = 16) -> list[str]:
        """The stored windows of both files as hex, A over B, with ``^^`` under differing bytes.

        A line of marks follows each pair of rows that differ; ``--`` stands
        for a byte past the end of a file.  Empty for identical files.
        """
        if not self.window_a and not self.window_b:
            return []
        length = max(len(self.window_a), len(self.window_b))
        lines = ["  offset    " + " ".join(f"{i:02x}" for i in range(width))]
        for start in range(0, length, width):
            a = self.window_a[start:start + width]
            b = self.window_b[start:start + width]
            offset = self.window_offset + start
            lines.append(f"A {offset:08x}  {_hex_cells(a, width)}  {_printable(a)}")
            lines.append(f"B {offset:08x}  {_hex_cells(b, width)}  {_printable(b)}")
            marks = ["^^" if i >= len(a) or i >= len(b) or a[i] != b[i] else "  "
                     for i in range(min(width, length - start))]
            if "^^" in marks:
                lines.append((" " * 12 + " ".join(marks)).rstrip())
        return lines


def _hex_cells(data: bytes, width: int) -> str:
    return " ".join(f"{x:02x}" for x in data) + " --" * (width - len(data))


def _printable(data: bytes) -> str:
    return "".join(chr(x) if 0x20 <= x < 0x7F else "." for x in data)


def hex_dump(path: str, offset: int, length: int, width: int = 16) -> list[str]:
    """``length`` bytes of ``path`` from ``offset`` as classic hex dump lines."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read(length)
    except OSError as exc:
        raise _read_error(path, exc) from exc
    return [f"{offset + i:08x}  {_hex_cells(data[i:i + width], width)}  "
            f"{_printable(data[i:i + width])}" for i in range(0, len(data), width)]


# --------------------------------------------------------------------------- kernels


@njit(nogil=True, cache=True)
def _window_hash(data, start, length):
    """sum(data[start + k] * _BASE ** (length - 1 - k)) mod 2**64, the rolling hash's value."""
    quarter = length // 4
    if quarter == 0:
        h = np.uint64(0)
        for k in range(length):
            h = h * _BASE + np.uint64(data[start + k])
        return h
    # four independent Horner chains run in parallel on the processor
    h0 = h1 = h2 = h3 = np.uint64(0)
    for k in range(quarter):
        h0 = h0 * _BASE + np.uint64(data[start + k])
        h1 = h1 * _BASE + np.uint64(data[start + quarter + k])
        h2 = h2 * _BASE + np.uint64(data[start + 2 * quarter + k])
        h3 = h3 * _BASE + np.uint64(data[start + 3 * quarter + k])
    p = np.uint64(1)
    for _ in range(quarter):
        p *= _BASE
    h = ((h0 * p + h1) * p + h2) * p + h3
    for k in range(4 * quarter, length):
        h = h * _BASE + np.uint64(data[start + k])
    return h


@njit(nogil=True, cache=True)
def _same(a, i, b, j, length):
    """a[i:i+length] == b[j:j+length]; branch-free, so the compiler vectorizes it."""
    d = np.uint8(0)
    for k in range(length):
        d |= a[i + k] ^ b[j + k]
    return d == 0


# The table: one row per slot, [hash, state]; state 0 is an empty slot,
# offset + 1 of the slot's first probe in A while unfound, with _FOUND set once
# found.  One row is one cache line's worth, which matters: lookups are random.
_FOUND = np.uint64(1 << 63)
_OFFSET = np.uint64((1 << 63) - 1)


@intrinsic
def _prefetch(typingctx, array, index):
    """Ask the processor to fetch array[index] (its first column if 2-D) into cache."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        ary = context.make_array(array_type)(context, builder, args[0])
        zero = ir.Constant(ir.IntType(64), 0)
        indices = [args[1]] + [zero] * (array_type.ndim - 1)
        ptr = cgutils.get_item_pointer(context, builder, array_type, ary, indices,
                                       wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
            "llvm.prefetch.p0i8")
        # read, high temporal locality, data cache
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(array, types.uint64), codegen


@njit(nogil=True, cache=True)
def _build(a, starts, length, table, unit_slot, shift):
    """Put every probe of ``a`` into the table; equal probes share one slot.

    Returns the number of distinct probes.  Load factor stays at or below one
    half.  Slots are random memory accesses, so they are prefetched ahead.
    """
    units = len(starts)
    hashes = np.empty(units, np.uint64)
    for u in range(units):
        hashes[u] = _window_hash(a, starts[u], length)
    mask = np.uint64(len(table) - 1)
    distinct = 0
    for u in range(units):
        if u + 16 < units:
            _prefetch(table, (hashes[u + 16] * _MIX) >> shift)
        s = starts[u]
        h = hashes[u]
        i = (h * _MIX) >> shift
        while True:
            state = table[i, 1]
            if state == 0:
                table[i, 0] = h
                table[i, 1] = np.uint64(s + 1)
                distinct += 1
                break
            if table[i, 0] == h and _same(a, np.int64(state - np.uint64(1)), a, s, length):
                break
            i = (i + np.uint64(1)) & mask
        unit_slot[u] = i
    return distinct


@njit(nogil=True, cache=True)
def _filter(table, words, wshift):
    """Blocked Bloom filter (two bits in one 64-bit word) of the unfound probes.

    Sized to about 16 bits per probe, it answers "no" for most windows of B
    from cache, so only about 1 % of windows go on to the table.
    """
    for i in range(len(table)):
        state = table[i, 1]
        if state != 0 and (state & _FOUND) == 0:
            m = table[i, 0] * _MIX
            words[m >> wshift] |= (np.uint64(1) << ((m >> np.uint64(32)) & np.uint64(63))) | \
                (np.uint64(1) << ((m >> np.uint64(38)) & np.uint64(63)))


@njit(nogil=True, cache=True)
def _scan(a, b, lo, hi, length, table, shift, words, wshift, remaining, starts, block,
          unit_found, spans, nspans, follow):
    """Mark the probes of ``a`` occurring in ``b`` at window starts lo .. hi-1.

    Works in batches: first the rolling hashes (a serial chain), then the
    filter lookups, which are independent, so the processor overlaps their
    cache misses.

    With ``follow``, after window j of B is found equal to the probe of unit
    u, the next units of A are compared directly with the bytes that follow in
    B (sequential memory, no hashing) and marked in ``unit_found`` while they
    agree, rsync-style.  The windows passed over are appended to ``spans`` as
    [start, stop) for a second call (without ``follow``) to scan, so the
    result stays exact.  Returns (next window to scan, probes unfound, spans).
    """
    units = len(starts)
    windows = len(b) - length + 1
    mask = np.uint64(len(table) - 1)
    top = np.uint64(1)
    for _ in range(length - 1):
        top *= _BASE  # weight of the byte leaving the window
    # smaller batches when following: a jump throws the rest of a batch away
    hashes = np.empty(256 if follow else 4096, np.uint64)
    start = lo
    h = _window_hash(b, start, length) if start < hi else np.uint64(0)
    while start < hi:
        stop = min(hi, start + len(hashes))
        # two rolling chains, over each half of the batch, for parallelism
        half = (stop - start) // 2
        mid = start + half
        hashes[0] = h
        g = h
        if half > 0:
            g = _window_hash(b, mid, length)
            hashes[half] = g
        for j in range(start + 1, mid):
            h = (h - np.uint64(b[j - 1]) * top) * _BASE + np.uint64(b[j + length - 1])
            hashes[j - start] = h
            x = j + half
            g = (g - np.uint64(b[x - 1]) * top) * _BASE + np.uint64(b[x + length - 1])
            hashes[x - start] = g
        for x in range(mid + max(half, 1), stop):  # the second half's odd window out
            g = (g - np.uint64(b[x - 1]) * top) * _BASE + np.uint64(b[x + length - 1])
            hashes[x - start] = g
        h = hashes[stop - start - 1]
        next_start = stop
        for k in range(stop - start):
            hk = hashes[k]
            m = hk * _MIX
            want = (np.uint64(1) << ((m >> np.uint64(32)) & np.uint64(63))) | \
                (np.uint64(1) << ((m >> np.uint64(38)) & np.uint64(63)))
            if words[m >> wshift] & want != want:
                continue
            j = start + k
            matched = -1
            i = m >> shift
            while True:
                state = table[i, 1]
                if state == 0:
                    break
                if (state & _FOUND) == 0 and table[i, 0] == hk:
                    s = np.int64(state - np.uint64(1))
                    if _same(a, s, b, j, length):
                        table[i, 1] = state | _FOUND
                        remaining -= 1
                        matched = s
                i = (i + np.uint64(1)) & mask
            if remaining == 0:
                return j + 1, 0, nspans
            if not follow or matched < 0:
                continue
            u = units - 1 if matched == starts[units - 1] else matched // block
            jj = j
            while u + 1 < units:
                step = starts[u + 1] - starts[u]
                if jj + step >= windows or not _same(a, starts[u + 1], b, jj + step, length):
                    break
                u += 1
                jj += step
                unit_found[u] = 1
            if jj > j:
                if jj > j + 1:
                    spans[nspans, 0] = j + 1
                    spans[nspans, 1] = jj
                    nspans += 1
                next_start = jj + 1  # may pass hi: the caller goes on from there
                break
        if next_start == stop:
            if stop < min(hi, windows):  # roll on into the next batch
                h = (h - np.uint64(b[stop - 1]) * top) * _BASE + np.uint64(b[stop + length - 1])
        elif next_start < hi:
            h = _window_hash(b, next_start, length)
        start = next_start
    return start, remaining, nspans


@njit(nogil=True, cache=True)
def _sync(table, unit_slot, unit_found):
    """Mark the slots of followed units found; return how many slots are unfound."""
    for u in range(len(unit_slot)):
        if unit_found[u]:
            table[unit_slot[u], 1] |= _FOUND
    unfound = 0
    for i in range(len(table)):
        if table[i, 1] != 0 and (table[i, 1] & _FOUND) == 0:
            unfound += 1
    return unfound


@njit(nogil=True, cache=True)
def _mismatch(a, b, n):
    """First i < n with a[i] != b[i], else n."""
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


# --------------------------------------------------------------------------- matching


def _unit_starts(n: int, block: int) -> tuple[np.ndarray, int]:
    """Probe offsets of A's units and the probe length (see the module docstring)."""
    if n == 0:
        return np.zeros(0, np.int64), 0
    if n < block:
        return np.zeros(1, np.int64), n
    starts = np.arange(0, n, block, dtype=np.int64)
    starts[-1] = min(starts[-1], n - block)  # the short last unit probes the last full block
    return starts, block


def _found_units(a: np.ndarray, b: np.ndarray, block: int, tick) -> np.ndarray:
    """For each unit of ``a``: does its probe occur in ``b``?  ``tick(bytes)`` reports progress."""
    starts, length = _unit_starts(len(a), block)
    units = len(starts)
    if units == 0 or len(b) < length:
        tick(len(b))
        return np.zeros(units, bool)
    tbits = max(4, int(2 * units - 1).bit_length())  # at least twice as many slots as units
    shift = np.uint64(64 - tbits)
    table = np.zeros((1 << tbits, 2), np.uint64)
    unit_slot = np.zeros(units, np.uint64)
    remaining = _build(a, starts, length, table, unit_slot, shift)
    unit_found = np.zeros(units, np.uint8)
    spans = np.zeros((units + 1, 2), np.int64)  # a follow starts at a newly found probe
    nspans = 0
    last = len(b) - length + 1  # window starts

    def make_filter():
        # only unfound probes, about 16 bits each: as matches pile up the
        # filter shrinks toward L1 cache size
        wbits = max(1, (remaining // 4).bit_length())
        words = np.zeros(1 << wbits, np.uint64)
        _filter(table, words, np.uint64(64 - wbits))
        return words, np.uint64(64 - wbits)

    # Pass 1: scan, following matches and leaving the windows passed over.
    lo = 0
    words, wshift = make_filter()
    filtered_for = remaining
    while lo < last and remaining:
        if remaining * 2 < filtered_for:
            words, wshift = make_filter()
            filtered_for = remaining
        hi = min(last, lo + _SCAN_CHUNK)
        before = nspans
        lo_next, remaining, nspans = _scan(
            a, b, lo, hi, length, table, shift, words, wshift, remaining, starts, block,
            unit_found, spans, nspans, True)
        tick(lo_next - lo - int((spans[before:nspans, 1] - spans[before:nspans, 0]).sum()))
        lo = lo_next
    # Pass 2: the windows passed over, for the probes still unfound.
    remaining = _sync(table, unit_slot, unit_found)
    if remaining:
        words, wshift = make_filter()
    for start, stop in spans[:nspans]:
        while start < stop:
            hi = min(stop, start + _SCAN_CHUNK)
            if remaining:
                remaining = _scan(a, b, start, hi, length, table, shift, words, wshift, remaining,
                                  starts, block, unit_found, spans, nspans, False)[1]
            tick(hi - start)
            start = hi
    if lo < last:
        tick(last - lo)
    tick(len(b) - last)
    return (table[unit_slot.astype(np.int64), 1] & _FOUND) != 0


def _cells(found: np.ndarray, n: int, size: int, block: int, cells: int) -> np.ndarray:
    """Share of each cell (equal slices of a file of ``size`` bytes) not found.

    ``found`` covers the first ``n`` bytes; cells starting past them are NaN.
    A cell of less than one byte (tiny files) takes the byte it starts in.
    """
    out = np.full(cells, np.nan)
    if size == 0:
        out[:] = 0.0
        return out
    unit_len = np.minimum(block, n - np.arange(len(found), dtype=np.int64) * block) \
        if n >= block else np.full(len(found), n, np.int64)
    changed_unit = ~found
    cum = np.concatenate([[0], np.cumsum(unit_len * changed_unit)])

    def changed_before(x: np.ndarray) -> np.ndarray:
        k = np.minimum(x // block, len(found))
        partial = np.where(k < len(found), x - k * block, 0)
        flag = changed_unit[np.minimum(k, len(found) - 1)] if len(found) else np.zeros_like(x)
        return cum[k] + partial * flag

    c = np.arange(cells, dtype=np.int64)
    lo = c * size // cells
    hi = np.maximum((c + 1) * size // cells, lo + 1)
    ok = lo < n
    hi = np.minimum(hi, n)
    lo_ok, hi_ok = lo[ok], hi[ok]
    out[ok] = (changed_before(hi_ok) - changed_before(lo_ok)) / (hi_ok - lo_ok)
    return out


def _changed_bytes(found: np.ndarray, n: int, block: int) -> int:
    if n < block:
        return 0 if len(found) == 0 or found[0] else n
    lengths = np.minimum(block, n - np.arange(len(found), dtype=np.int64) * block)
    return int(lengths[~found].sum())


# --------------------------------------------------------------------------- files


def _read_error(path: str, exc: OSError) -> OSError:
    reason = exc.strerror or str(exc)
    if isinstance(exc, FileNotFoundError):
        reason = "the file no longer exists"
    err = OSError(f"Cannot read {path}: {reason}")
    err.errno = exc.errno
    return err


def _read_prefix(f, path: str, limit: int) -> np.ndarray:
    buf = np.empty(limit, np.uint8)
    view = memoryview(buf)
    got = 0
    try:
        while got < limit:
            n = f.readinto(view[got:])
            if not n:
                break
            got += n
    except OSError as exc:
        raise _read_error(path, exc) from exc
    return buf[:got]


def compare_files(path_a: str, path_b: str, *, cells: int = DEFAULT_CELLS,
                  max_bytes: int = DEFAULT_MAX_BYTES, block: int = BLOCK,
                  progress: ProgressCallback | None = None) -> Differences:
    """Compare two files' content; see the module docstring for what "changed" means.

    Raises OSError (with the path and reason in its message) if a file cannot
    be read, and Cancelled if ``progress`` returns False.
    """
    if cells < 1 or block < 1 or max_bytes < 0:
        raise ValueError("cells and block must be positive, max_bytes not negative")
    started = time.monotonic()
    handles = []
    try:
        for path in (path_a, path_b):
            try:
                handles.append(open(path, "rb"))  # noqa: SIM115 - closed below
            except OSError as exc:
                raise _read_error(path, exc) from exc
        fa, fb = handles
        size_a, size_b = (os.fstat(f.fileno()).st_size for f in handles)
        total = 2 * (min(size_a, max_bytes) + min(size_b, max_bytes))
        done = 0

        def tick(amount: int) -> None:
            nonlocal done
            done += amount
            report(progress, Progress("comparing", bytes_done=done, bytes_total=total,
                                      elapsed=time.monotonic() - started, current=path_b))

        tick(0)
        a = _read_prefix(fa, path_a, min(size_a, max_bytes))
        tick(len(a))
        b = _read_prefix(fb, path_b, min(size_b, max_bytes))
        tick(len(b))
        # a file that shrank since fstat is as long as what could be read
        if len(a) < min(size_a, max_bytes):
            size_a = len(a)
        if len(b) < min(size_b, max_bytes):
            size_b = len(b)
        truncated = size_a > len(a) or size_b > len(b)

        first, identical = _positional(fa, fb, a, b, size_a, size_b, path_a, path_b, tick)
        if identical:
            zeros = np.zeros(cells)
            return Differences(path_a, path_b, size_a, size_b, True, None, zeros, zeros.copy(),
                               0, 0, len(a), len(b), size_a, truncated, block)
        found_a = _found_units(a, b, block, tick)
        found_b = _found_units(b, a, block, tick)
        window_offset = max(0, first // 16 * 16 - 16)
        win_a = _pread(fa, path_a, a, window_offset, HEX_WINDOW)
        win_b = _pread(fb, path_b, b, window_offset, HEX_WINDOW)
    finally:
        for f in handles:
            f.close()
    changed_a = _changed_bytes(found_a, len(a), block)
    changed_b = _changed_bytes(found_b, len(b), block)
    return Differences(
        path_a, path_b, size_a, size_b, False, first,
        _cells(found_a, len(a), size_a, block, cells),
        _cells(found_b, len(b), size_b, block, cells),
        changed_a, changed_b, len(a), len(b), min(len(a) - changed_a, len(b) - changed_b),
        truncated, block, window_offset, win_a, win_b)


def _positional(fa, fb, a, b, size_a, size_b, path_a, path_b, tick) -> tuple[int | None, bool]:
    """(first differing offset or None, identical), reading past the prefixes only while equal."""
    n = min(len(a), len(b))
    first = int(_mismatch(a, b, n))
    if first < n:
        return first, False
    if len(a) == size_a or len(b) == size_b:  # a file ends within the prefixes read
        return (None, True) if size_a == size_b else (n, False)
    # Equal prefixes and both files go on: stream the rest.
    offset = n
    fa.seek(offset)
    fb.seek(offset)
    while True:
        ca = _read_prefix(fa, path_a, _READ_CHUNK)
        cb = _read_prefix(fb, path_b, _READ_CHUNK)
        m = min(len(ca), len(cb))
        i = int(_mismatch(ca, cb, m))
        if i < m or len(ca) != len(cb):
            return offset + i, False
        if m == 0:
            return None, True
        offset += m
        tick(0)  # a chance to cancel


def _pread(f, path: str, prefix: np.ndarray, offset: int, length: int) -> bytes:
    if offset + length <= len(prefix):
        return prefix[offset:offset + length].tobytes()
    try:
        f.seek(offset)
        return f.read(length)
    except OSError as exc:
        raise _read_error(path, exc) from exc


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels; safe to call off-thread."""
    a = np.frombuffer(b"abcdefgh" * 20, np.uint8).copy()
    _found_units(a, a[3:].copy(), BLOCK, lambda _: None)
    _mismatch(a, a, len(a))
