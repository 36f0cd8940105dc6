"""The vector filter test and the scans built on it equal a byte-by-byte reference."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simgui.core.search.kernels.borrowed import data_pointer
from simgui.core.search.kernels.byte_window import near8
from simgui.core.search.simfind import _scan_whole, _scan_window

#: Bytes at the edges of the arithmetic: zero, one, the sign bit's neighbours, 255.
EDGES = [0x00, 0x01, 0x7E, 0x7F, 0x80, 0x81, 0xFE, 0xFF]


def passes(word: int, query: int, limit: int) -> bool:
    """The definition: in every byte, (word - query) mod 256 <= limit."""
    return all(((word >> s) - (query >> s)) % 256 <= (limit >> s) & 0xFF for s in range(0, 64, 8))


def words(byte_values=st.one_of(st.sampled_from(EDGES), st.integers(0, 255))):
    return st.lists(byte_values, min_size=8, max_size=8).map(
        lambda bs: sum(b << (8 * i) for i, b in enumerate(bs)))


@njit(cache=False)
def _near8_at(sig, start, query, limit):
    return near8(sig, start, query, limit)


@njit(cache=False)
def _whole(sig, key, y0, end, query, limit, borrowed):
    ys = np.empty(len(sig), np.int64)
    if borrowed:  # as the search calls it: pointers to the arrays' data
        n_p, _ = _scan_whole(y0, end, np.inf, -np.inf, query, limit, data_pointer(key),
                             data_pointer(sig), data_pointer(ys), 0, None)
    else:
        n_p, _ = _scan_whole(y0, end, np.inf, -np.inf, query, limit, key, sig, ys, 0, None)
    return ys[:n_p]


@njit(cache=False)
def _window(sig, key, y0, end, top, query, limit, borrowed):
    ys = np.empty(len(sig), np.int64)
    if borrowed:
        n_p, _, looked = _scan_window(y0, end, top, -np.inf, query, limit, data_pointer(key),
                                      data_pointer(sig), data_pointer(ys), 0, None)
    else:
        n_p, _, looked = _scan_window(y0, end, top, -np.inf, query, limit, key, sig, ys, 0,
                                      None)
    return ys[:n_p], looked


@settings(max_examples=400, deadline=None)
@given(st.lists(words(), min_size=8, max_size=24), words(), words(), st.data())
def test_eight_words_pass_exactly_as_the_bytes_say(sig, query, limit, data):
    sig = np.array(sig, np.uint64)
    start = data.draw(st.integers(0, len(sig) - 8))  # any alignment
    got = int(_near8_at(sig, start, np.uint64(query), np.uint64(limit)))
    expected = sum(passes(int(sig[start + j]), query, limit) << j for j in range(8))
    assert got == expected


def test_limits_of_255_pass_everything_and_0_only_the_query_itself():
    rng = np.random.default_rng(0)
    sig = rng.integers(0, 2**64, 64, dtype=np.uint64)
    assert _near8_at(sig, 3, np.uint64(sig[5]), np.uint64(2**64 - 1)) == 0xFF
    assert _near8_at(sig, 3, np.uint64(sig[5]), np.uint64(0)) == 1 << 2
    # a byte of 255 stops counting: only byte 0 is tested here
    query = np.uint64(int(sig[4]) & 0xFF)
    expected = sum(((int(sig[3 + j]) - int(sig[4])) % 256 == 0) << j for j in range(8))
    assert _near8_at(sig, 3, query, np.uint64(2**64 - 256)) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 200), st.integers(0, 255), st.data())
def test_scans_collect_every_passing_file_of_their_range_and_no_other(n, width, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    # runs of equal bytes next to random ones, and 16 words of padding as the search has
    sig = rng.integers(0, 2**64, n + 16, dtype=np.uint64)
    sig[rng.random(n + 16) < 0.3] = np.uint64(0)
    sig[rng.random(n + 16) < 0.2] = np.uint64(2**64 - 1)
    key = np.append(np.sort(rng.integers(0, 50, n)).astype(np.float64), np.full(16, np.inf))
    query = np.uint64(rng.integers(0, 2**64, dtype=np.uint64))
    limit = np.uint64(width * 0x0101010101010101)
    y0 = data.draw(st.integers(0, n - 1))
    end = data.draw(st.integers(y0, n))
    expected = [y for y in range(y0, end) if passes(int(sig[y]), int(query), int(limit))]
    top = float(data.draw(st.integers(0, 50)))
    for borrowed in (False, True):
        assert _whole(sig, key, y0, end, query, limit, borrowed).tolist() == expected
        # a window stops after the first block holding a key above the top
        got, looked = _window(sig, key, y0, end, top, query, limit, borrowed)
        assert got.tolist() == [y for y in expected if y < y0 + looked]
        assert looked % 16 == 0 and y0 + looked >= min(end, np.searchsorted(key[:end], top,
                                                                             "right"))
