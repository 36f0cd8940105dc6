"""Small files in one kernel call: their sum tables, simhashes and MinHash signatures.

What :class:`~simgui.core.reading.sumtable.SumTableBuilder` and
:class:`~simgui.core.reading.fingerprints.FingerprintBuilder` give when fed the bytes
at once, bit for bit, but in a single call into compiled code instead of seven and
without the builders' objects: for a file of a few kilobytes the calls and the
objects, not the bytes, were most of a read (70 us a file where Python's md5 of it
took 14; issue 25).  Larger files go through the builders, a megabyte at a time.

:func:`read_small_files` goes further: a batch of files is opened, checked, read and
closed by compiled code too (:mod:`simgui.core.reading.system_calls`), with Python's
lock released, so reader threads on many cores no longer wait on each other.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from numba import njit

from simgui.core.reading import fingerprints as _fp
from simgui.core.reading import sumtable as _st
from simgui.core.reading import system_calls as _sys
from simgui.core.reading.file_reads import OPEN_FLAGS
from simgui.core.tags import DEFAULT_TAGS

#: Files up to this size are read whole and done in one call (below the size from which
#: the sum table tallies into a histogram, so the builders' short path is the same code).
SMALL = 64 << 10
assert SMALL <= _st._HIST_FROM


@njit(nogil=True, cache=True)
def _whole(buf, hist, empty, tab, mem, state, ones, mins, recent, slots, low, high):
    _st._feed(buf, hist, tab, mem, False)
    _st._feed(empty, hist, tab, mem, True)
    if buf.shape[0]:
        _fp._feed(buf, state, ones, mins, recent)
    return _fp._finish(buf.shape[0], low, high, state, ones, mins, recent, slots)


def small_file(data: bytes, tags: Sequence[int] = DEFAULT_TAGS
               ) -> tuple[np.ndarray, int, np.ndarray]:
    """(sum table: int64 (16,), simhash: unsigned 64-bit int, MinHash: uint32 (SLOTS,))
    of ``data`` (at most :data:`SMALL` bytes)."""
    if len(data) > SMALL:
        raise ValueError(f"{len(data)} bytes: small_file takes at most {SMALL}")
    buf = np.frombuffer(data, np.uint8)  # read-only, as the builders' chunks
    tab = _st._tables(tags if type(tags) is tuple else tuple(tags)).kernel
    mem = _st._MEM_INIT.copy()
    slots = np.empty(_fp.SLOTS, np.uint32)
    # a file shorter than a shingle is its own fingerprint (FingerprintBuilder.result)
    short = bytes(data) if len(data) < _fp._SHINGLE else b""
    low, high = int.from_bytes(short[:8], "little"), int.from_bytes(short[8:], "little")
    simhash = _whole(buf, _st._NO_HIST, _st._EMPTY, tab, mem,
                     np.array([0, _fp._EMPTY], np.uint64), np.zeros(64, np.uint64),
                     np.full(_fp.SLOTS, _fp._EMPTY, np.uint64), np.zeros(_fp.RECENT, np.uint64),
                     slots, np.uint64(low), np.uint64(high))
    return mem[:_st._LAST].copy(), int(simhash), slots


@njit(nogil=True, cache=True)
def _read_batch(names, name_at, expected, flags, data, data_at, hist, empty, tab, mem_init, info,
                tables, simhashes, minhashes):
    """Files ``names[name_at[i]:]`` (NUL-terminated), each read whole into
    ``data[data_at[i]:]``; ``info[i]``: done (1) or not (0: failed, changed, or not as
    the walk saw it; the caller reads it the slow way and says why), then size,
    mtime_ns, device and inode.  (``hist``, ``empty``, ``mem_init``: sumtable's
    _NO_HIST, _EMPTY and _MEM_INIT, passed in: as globals numba would freeze them into
    constants of another array type, and compile the sum table's kernel again.)"""
    record = np.zeros(_sys.STATX_SIZE, np.uint8)
    no_name = np.zeros(1, np.uint8)
    mem = np.empty(mem_init.shape[0], np.int64)
    state = np.empty(2, np.uint64)
    ones = np.empty(64, np.uint64)
    mins = np.empty(_fp.SLOTS, np.uint64)
    recent = np.empty(_fp.RECENT, np.uint64)
    for i in range(expected.shape[0]):
        info[i, 0] = 0
        fd = _sys.c_open(names.ctypes.data + name_at[i], flags)
        if fd < 0:
            continue
        # one byte past the size tells a file that grew
        got, mtime, device, inode = _sys.read_checked(
            fd, record, no_name, data.ctypes.data + data_at[i], expected[i] + 1, expected[i],
            0, 0, 0, False)
        _sys.c_close(fd)
        if got != expected[i]:
            continue
        info[i, 1] = expected[i]
        info[i, 2] = mtime
        info[i, 3] = device
        info[i, 4] = inode
        # what small_file does (spelled out, not called: numba optimises a callee's
        # code again in each caller, and the kernels below are most of the first
        # run's compiling)
        buf = data[data_at[i]:data_at[i] + expected[i]]
        mem[:] = mem_init
        _st._feed(buf, hist, tab, mem, False)
        _st._feed(empty, hist, tab, mem, True)
        tables[i] = mem[:_st._LAST]
        state[0] = 0
        state[1] = _fp._EMPTY
        ones[:] = 0
        mins[:] = _fp._EMPTY
        recent[:] = 0
        n = buf.shape[0]
        low = np.uint64(0)
        high = np.uint64(0)
        if n < _fp._SHINGLE:  # a file shorter than a shingle is its own fingerprint
            for k in range(min(n, 8)):
                low |= np.uint64(buf[k]) << np.uint64(8 * k)
            for k in range(8, n):
                high |= np.uint64(buf[k]) << np.uint64(8 * (k - 8))
        if n:
            _fp._feed(buf, state, ones, mins, recent)
        simhashes[i] = _fp._finish(n, low, high, state, ones, mins, recent, minhashes[i])
        info[i, 0] = 1
    return 0


class SmallReads:
    """What :func:`read_small_files` read: per file ``done[i]``, and where done its
    size, mtime_ns, device, inode, sum table, simhash, MinHash and its bytes
    (``content(i)``)."""

    __slots__ = ("done", "info", "tables", "simhashes", "minhashes", "_data", "_at")

    def __init__(self, info, tables, simhashes, minhashes, data, at):
        self.done = info[:, 0].astype(bool)
        self.info, self.tables, self.simhashes, self.minhashes = info, tables, simhashes, minhashes
        self._data, self._at = data, at

    def content(self, i: int) -> np.ndarray:
        return self._data[self._at[i]:self._at[i] + self.info[i, 1]]


def read_small_files(paths: Sequence[bytes], sizes: Sequence[int],
                     tags: Sequence[int] = DEFAULT_TAGS) -> SmallReads:
    """Open, read and describe files of at most :data:`SMALL` bytes in one call with
    Python's lock released (when :func:`compiled_reads`; else raises RuntimeError).
    ``sizes``: what the walk saw; a file no longer that size, or not a regular file,
    or changed while read, is not done here (read it with
    :func:`~simgui.core.reading.scanner.read_file`, which says why).  Opened as
    read_file opens: never through a link, never blocking on a FIFO."""
    if not compiled_reads():
        raise RuntimeError("compiled reads are not available on this system")
    return _read_many(paths, sizes, tags)


def _read_many(paths, sizes, tags) -> SmallReads:
    n = len(paths)
    expected = np.asarray(sizes, np.int64).reshape(n)
    if n and (expected.min() < 0 or expected.max() > SMALL):
        raise ValueError(f"read_small_files takes files of 0 to {SMALL} bytes")
    names, name_at = _sys.packed_names(paths)
    data_at = np.zeros(n + 1, np.int64)
    np.cumsum(expected + 1, out=data_at[1:])
    # read-only to the kernels (the type they are compiled for); read(2) fills it
    data = np.empty(int(data_at[-1]), np.uint8)
    data.flags.writeable = False
    tab = _st._tables(tags if type(tags) is tuple else tuple(tags)).kernel
    info = np.zeros((n, 5), np.int64)
    tables = np.zeros((n, _st._LAST), np.int64)
    simhashes = np.zeros(n, np.uint64)
    minhashes = np.zeros((n, _fp.SLOTS), np.uint32)
    _read_batch(names, name_at, expected, OPEN_FLAGS, data, data_at, _st._NO_HIST, _st._EMPTY,
                tab, _st._MEM_INIT, info, tables, simhashes, minhashes)
    return SmallReads(info, tables, simhashes, minhashes, data, data_at)


_compiled: bool | None = None


def compiled_reads() -> bool:
    """Whether :func:`read_small_files` works here (see system_calls.reads_own_source:
    a read of this module's own source). Tried once, on first use; compiles nothing
    the reads do not need."""
    global _compiled
    if _compiled is None:
        _compiled = _sys.reads_own_source(__file__, _read_whole_of)
    return _compiled


def _read_whole_of(path: str, st, content: bytes) -> bool:
    if len(content) > SMALL:
        return False
    reads = _read_many([os.fsencode(path)], [len(content)], DEFAULT_TAGS)
    return (bool(reads.done[0]) and reads.content(0).tobytes() == content
            and tuple(reads.info[0, 1:].tolist()) == (st.st_size, st.st_mtime_ns,
                                                      st.st_dev, st.st_ino))
