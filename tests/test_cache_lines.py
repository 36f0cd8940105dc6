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


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 instructions")
def test_the_hints_reach_the_machine_code():
    asm = _scatter_rows.inspect_asm(_scatter_rows.signatures[0])
    assert "prefetchw" in asm or "prefetcht0" in asm  # (prefetchw where the CPU has it)
    assert "prefetcht0" in asm


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
