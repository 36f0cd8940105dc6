"""Cache lines: hints compile for the arrays and indices the kernels use, reach the
machine code and change no result; rows made to start on a line do."""

import platform

import numpy as np
import pytest
from numba import njit

from simgui.core.search.kernels.cache_lines import prefetch_read, prefetch_write


@njit(cache=False)
def _scatter_rows(position, rows, out, hinted):
    for q in range(position.shape[0]):
        if hinted and q + 4 < position.shape[0]:
            prefetch_write(out, position[q + 4])
            prefetch_read(rows, np.int32(q + 4))
        out[position[q]] = rows[q]
    return out


def test_hinted_loops_compute_what_plain_ones_do():
    rng = np.random.default_rng(3)
    position = rng.permutation(1000).astype(np.int64)
    rows = rng.integers(-50, 50, (1000, 16)).astype(np.int32)
    hinted = _scatter_rows(position, rows, np.zeros((1000, 16), np.int32), True)
    plain = _scatter_rows(position, rows, np.zeros((1000, 16), np.int32), False)
    assert np.array_equal(hinted, plain)
    assert np.array_equal(hinted[position], rows)
    words = np.arange(100, dtype=np.uint64)  # one-dimensional arrays, too
    places = rng.permutation(100)
    assert np.array_equal(_scatter_rows(places, words, np.zeros(100, np.uint64), True)[places],
                          words)


@njit(cache=False)
def _write_hints_only(position, out):
    for q in range(position.shape[0]):
        if q + 4 < position.shape[0]:
            prefetch_write(out, position[q + 4])
        out[position[q]] = q
    return out


@njit(cache=False)
def _read_hints_only(position, rows):
    total = 0
    for q in range(position.shape[0]):
        if q + 4 < position.shape[0]:
            prefetch_read(rows, position[q + 4])
        total += rows[position[q]]
    return total


def _compiles_prefetchw() -> bool:
    """Does numba compile for a CPU with the write-prefetch instruction (PRFCHW)?"""
    import os

    from llvmlite import binding

    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return "+prfchw" in os.environ.get("NUMBA_CPU_FEATURES", "")
    return bool(binding.get_host_cpu_features().get("prfchw"))


def _prefetches(asm: str) -> set[str]:
    return {word for line in asm.splitlines() for word in line.split()[:1]
            if word.startswith("prefetch")}


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 instructions")
def test_each_hint_reaches_the_machine_code():
    # compiled here, so that the test stands alone (a signature exists only once called)
    position = np.arange(64, dtype=np.int64)
    _write_hints_only(position, np.zeros(64, np.int64))
    _read_hints_only(position, np.zeros(64, np.int64))
    writes = _prefetches(_write_hints_only.inspect_asm(_write_hints_only.signatures[0]))
    reads = _prefetches(_read_hints_only.inspect_asm(_read_hints_only.signatures[0]))
    # a write hint is prefetchw where the CPU has it, else LLVM lowers it to a read hint
    assert writes == ({"prefetchw"} if _compiles_prefetchw() else {"prefetcht0"}), writes
    assert reads == {"prefetcht0"}, reads  # a read hint, and never a write hint


@pytest.mark.parametrize("rows, columns, dtype", [(0, 16, np.int32), (1, 16, np.int32),
                                                  (1000, 16, np.int32), (777, 16, np.int64),
                                                  (5, 3, np.float64)])
def test_rows_start_on_a_cache_line_and_hold_what_is_written(rows, columns, dtype):
    from simgui.core.search.kernels.cache_lines import LINE, empty_rows

    a = empty_rows(rows, columns, dtype)
    assert a.shape == (rows, columns) and a.dtype == dtype and a.flags.c_contiguous
    assert a.ctypes.data % LINE == 0 or a.size == 0  # (an empty array points anywhere)
    if columns * a.itemsize % LINE == 0:  # rows of whole lines: every row on one
        assert all(a[i:].ctypes.data % LINE == 0 for i in range(rows))
    values = np.arange(rows * columns).reshape(rows, columns).astype(dtype)
    a[:] = values
    assert np.array_equal(a, values)
    b = empty_rows(rows, columns, dtype)  # a new array each time, not a view of the last
    b[:] = 0
    assert np.array_equal(a, values)
