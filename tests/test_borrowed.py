"""Borrowed data pointers read and write the array's own elements, by flat index."""

import numpy as np
import pytest
from numba import njit

from simgui.core.search.kernels.borrowed import data_pointer


@njit(cache=False)
def _read_and_write(values, at, new):
    p = data_pointer(values)
    old = p[at]
    p[at] = new
    return old


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint64, np.float64])
def test_a_pointer_reads_and_writes_the_arrays_elements_by_flat_index(dtype):
    values = np.arange(24).reshape(4, 6).astype(dtype)
    for flat in (0, 7, 23):
        row, column = divmod(flat, 6)
        assert _read_and_write(values, flat, dtype(100 + flat)) == flat
        assert values[row, column] == 100 + flat
    assert values.sum() == sum(range(24)) + 3 * 100  # nothing else moved


def test_only_contiguous_arrays_lend_a_pointer():
    from numba.core.errors import TypingError

    with pytest.raises(TypingError):
        _read_and_write(np.arange(10)[::2], 0, 1)
