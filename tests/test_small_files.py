"""A whole small file in one kernel call equals the builders fed the same bytes (issue 25),
and read_file takes that path for small files with the same record as the chunked one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.reading import small_files
from simgui.core.reading.fingerprints import FingerprintBuilder
from simgui.core.reading.scanner import read_file
from simgui.core.reading.small_files import SMALL, small_file
from simgui.core.reading.sumtable import SumTableBuilder
from tests.reference import reference_sum_table


def builders(data: bytes):
    table = SumTableBuilder()
    table.update(data)
    printer = FingerprintBuilder()
    printer.update(data)
    simhash, minhash = printer.result()
    return table.result(), simhash, minhash


def same(a, b) -> bool:
    return (np.array_equal(a[0], b[0]) and a[1] == b[1] and np.array_equal(a[2], b[2]))


# runs of 0x00 and 0xFF (the tags the sum table treats apart), text, and random bytes
pieces = st.one_of(st.binary(max_size=64), st.sampled_from([b"\x00", b"\xff", b"e", b"t"])
                   .flatmap(lambda b: st.integers(1, 300).map(lambda n: b * n)),
                   st.text(max_size=80).map(lambda t: t.encode()))


@settings(max_examples=300, deadline=None)
@given(st.lists(pieces, max_size=40).map(b"".join))
def test_one_call_equals_the_builders(data):
    data = data[:SMALL]
    got = small_file(data)
    assert same(got, builders(data))
    assert np.array_equal(got[0], reference_sum_table(data))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 15, 16, 17, 4095, 4096, 4097, SMALL - 1, SMALL])
def test_sizes_at_the_edges(n):
    rng = np.random.default_rng(n)
    for data in (rng.integers(0, 256, n, dtype=np.uint8).tobytes(), b"\x00" * n, b"\xff" * n):
        assert same(small_file(data), builders(data))


def test_more_than_small_is_refused():
    with pytest.raises(ValueError):
        small_file(bytes(SMALL + 1))


@pytest.mark.parametrize("n", [0, 3, 100, 5000, SMALL])
def test_read_file_gives_the_same_record_either_way(tmp_path, monkeypatch, n):
    path = tmp_path / "f.bin"
    path.write_bytes(np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8).tobytes())
    fast = read_file(str(path))
    monkeypatch.setattr(small_files, "SMALL", -1)  # every file through the builders
    slow = read_file(str(path))
    assert fast.error is None and slow.error is None
    assert np.array_equal(fast.sum_table, slow.sum_table)
    assert fast.content_hash == slow.content_hash
    assert fast.simhash == slow.simhash and np.array_equal(fast.minhash, slow.minhash)
    assert (fast.size, fast.mtime_ns, fast.inode) == (slow.size, slow.mtime_ns, slow.inode)
