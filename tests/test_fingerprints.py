"""Simhash and MinHash fingerprints: the kernel equals the literal reference, in any chunks."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simgui.core.reading.fingerprints import SLOTS, FingerprintBuilder, fingerprints, hamming, resemblance
from tests.reference import reference_fingerprints

runs = st.lists(st.tuples(st.sampled_from([0x00, 0xFF, 0x20, 0x41]), st.integers(1, 40)),
                max_size=12).map(lambda rs: b"".join(bytes([b]) * n for b, n in rs))
text = st.text(alphabet="the quick brown fox\n\x00", max_size=400).map(str.encode)
inputs = st.one_of(st.binary(max_size=600), runs, text)


def same(data: bytes, result) -> None:
    simhash, signature = reference_fingerprints(data)
    assert result[0] == simhash
    assert result[1].tolist() == signature


@settings(max_examples=150, deadline=None)
@given(inputs)
@example(b"")
@example(b"a")
@example(b"ab")
@example(b"abc")
@example(b"\x00" * 7)
@example(b"\x00" * 8)
@example(b"\x00" * 16)
@example(bytes(range(24)))
@example(b"\xff" * 100)
def test_whole_buffer_equals_reference(data):
    same(data, fingerprints(data))


@settings(max_examples=100, deadline=None)
@given(inputs, st.lists(st.integers(0, 20), max_size=30))
def test_any_chunking_gives_the_same_answer(data, cuts):
    builder = FingerprintBuilder()
    start = 0
    for size in cuts:
        builder.update(data[start:start + size])
        start += size
    builder.update(data[start:])
    same(data, builder.result())


def test_long_input_crosses_the_kernel_blocks():
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, 5000, dtype=np.uint8).tobytes() + b"\x00" * 3000
    same(data, fingerprints(data))
    builder = FingerprintBuilder()
    for start in range(0, len(data), 1021):  # odd chunks: shingles straddle every boundary
        builder.update(data[start:start + 1021])
    same(data, builder.result())


def test_small_edits_keep_fingerprints_close_and_unrelated_files_far():
    rng = np.random.default_rng(2)
    a = rng.integers(0, 256, 20000, dtype=np.uint8)
    edited = a.copy()
    edited[rng.choice(len(a), 20, replace=False)] ^= 0x5A  # 0.1 % of the bytes
    inserted = np.concatenate([a[:9000], rng.integers(0, 256, 50, dtype=np.uint8), a[9000:]])
    other = rng.integers(0, 256, 20000, dtype=np.uint8)
    fa, sa = fingerprints(a.tobytes())
    for near in (edited, inserted):
        f, s = fingerprints(near.tobytes())
        assert hamming(fa, f) <= 8
        assert resemblance(sa, s) >= 0.8
    f, s = fingerprints(other.tobytes())
    assert hamming(fa, f) >= 16
    assert resemblance(sa, s) <= 0.1


def test_distance_helpers_work_elementwise():
    a = np.array([0, 2**64 - 1, 5], np.uint64)
    b = np.array([0, 0, 6], np.uint64)
    assert hamming(a, b).tolist() == [0, 64, 2]
    s = np.zeros((2, SLOTS), np.uint32)
    t = s.copy()
    t[1, :SLOTS // 4] = 1
    assert resemblance(s, t).tolist() == [1.0, 0.75]


def test_result_leaves_the_builder_usable():
    builder = FingerprintBuilder()
    builder.update(b"hello world, twice")
    first, again = builder.result(), builder.result()
    assert first[0] == again[0] and first[1].tolist() == again[1].tolist()
    builder.update(b" and more bytes after the first result")
    same(b"hello world, twice and more bytes after the first result", builder.result())


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33])
def test_tiny_files(size):
    data = bytes(range(size))
    same(data, fingerprints(data))


def test_unrelated_files_over_a_small_alphabet_stay_apart():
    """A megabyte of DNA holds nearly every 8-byte string of ACGT: with 8-byte shingles two
    unrelated genomes shared all their features (the review's finding)."""
    rng = np.random.default_rng(3)
    acgt = np.frombuffer(b"ACGT", np.uint8)
    a = rng.choice(acgt, 1_000_000)
    b = rng.choice(acgt, 1_000_000)
    edited = a.copy()
    edited[rng.choice(len(a), 100, replace=False)] = ord("A")
    fa, sa = fingerprints(a.tobytes())
    fb, sb = fingerprints(b.tobytes())
    fe, se = fingerprints(edited.tobytes())
    assert resemblance(sa, sb) <= 0.1 and hamming(fa, fb) >= 16
    assert resemblance(sa, se) >= 0.8 and hamming(fa, fe) <= 8
