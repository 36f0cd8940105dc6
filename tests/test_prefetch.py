"""Cache hints: they compile for the arrays and indices the kernels use, reach the
machine code, and change no result."""

import platform

import numpy as np
import pytest
from numba import njit

from simgui.core.prefetch import prefetch_read, prefetch_write


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
