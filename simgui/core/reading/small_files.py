"""A whole small file in one kernel call: its sum table, simhash and MinHash signature.

What :class:`~simgui.core.reading.sumtable.SumTableBuilder` and
:class:`~simgui.core.reading.fingerprints.FingerprintBuilder` give when fed the bytes
at once, bit for bit, but in a single call into compiled code instead of seven and
without the builders' objects: for a file of a few kilobytes the calls and the
objects, not the bytes, were most of a read (70 us a file where Python's md5 of it
took 14; issue 25).  Larger files go through the builders, a megabyte at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from simgui.core.reading import fingerprints as _fp
from simgui.core.reading import sumtable as _st
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
