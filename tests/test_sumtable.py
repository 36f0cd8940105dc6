"""The fast sum-table kernel equals the literal reference on random and adversarial input."""

import os
import random
import threading

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simgui.core.reading.sumtable import SumTableBuilder, sum_table, sum_table_of_file
from simgui.core.tags import DEFAULT_TAGS
from tests.reference import reference_sum_table, reference_sum_table_by_matches

# Bytes that make matches, self-overlaps and close pairs likely for the default
# tags: 0x00 / 0xFF runs, the tags themselves, and bytes continuing a tag that
# overlaps itself (0x74 then 0xE8 holds 0x74 at bit 0 and bit 7).
ADVERSARIAL = [0x00, 0xFF, 0x74, 0xE8, 0x65, 0x3F, 0xC0, 0x01, 0x80, 0x7F, 0xFE] + list(DEFAULT_TAGS)

adversarial_bytes = st.lists(st.sampled_from(ADVERSARIAL), max_size=300).map(bytes)
text_bytes = st.text(alphabet="the test tee\x00 ette\n", max_size=300).map(lambda s: s.encode())
any_bytes = st.binary(max_size=300)
# Runs of 0x00 / 0xFF bytes between bytes with many leading or trailing zero or
# one bits: the run starts and ends the period-one tags (0x00, 0xFF) correct.
RUN_EDGES = [0x00, 0xFF, 0x01, 0x80, 0x7F, 0xFE, 0x20, 0x40, 0xE0, 0x1F, 0x3F, 0x0F, 0xF0, 0x10,
             0x08, 0xF7]
runs_bytes = st.lists(st.tuples(st.sampled_from(RUN_EDGES), st.integers(1, 30)),
                      max_size=25).map(lambda runs: b"".join(bytes([b]) * n for b, n in runs))
# A few bytes repeated, with some noise: long chains of close pairs for tags
# with short periods (0x49 / 0x92 / 0x24, 0xDB / 0x6D / 0xB6, 0x55 / 0xAA, ...).
periodic_bytes = st.tuples(
    st.lists(st.sampled_from([0x49, 0x24, 0x92, 0xDB, 0x6D, 0xB6, 0x55, 0xAA, 0x74, 0xE8, 0x00,
                              0xFF, 0x3C, 0x18, 0xEF]), min_size=1, max_size=4),
    st.integers(1, 80), st.binary(max_size=6),
).map(lambda t: bytes(t[0]) * t[1] + t[2] + bytes(t[0]) * (t[1] // 2))
inputs = st.one_of(any_bytes, adversarial_bytes, text_bytes, runs_bytes, periodic_bytes)
tag_sets = st.lists(st.integers(0, 255), min_size=16, max_size=16, unique=True)
# tag sets with 0x00 and 0xFF, and with other self-overlapping tags
period_tags = [0x00, 0xFF, 0x55, 0xAA, 0x49, 0x24, 0x92, 0xDB, 0x6D, 0xB6, 0x33, 0xCC, 0x11, 0xEE,
               0x18, 0xEF, 0x74, 0x3C, 0x81, 0x7E, 0x01, 0x80]
periodic_tag_sets = st.permutations(period_tags).map(lambda t: t[:16])


@settings(max_examples=400, deadline=None)
@given(inputs)
@example(b"")
@example(b"\x00")
@example(b"\x00\x00")
@example(b"\x00\x00\x00")
@example(b"\xff\xff\xff")
@example(b"\x74\xe8")
@example(b"\x74\xe9\xd0")
def test_kernel_matches_reference(data):
    assert sum_table(data).tolist() == reference_sum_table(data)


@settings(max_examples=150, deadline=None)
@given(inputs, tag_sets)
def test_kernel_matches_reference_for_any_tag_set(data, tags):
    assert sum_table(data, tags).tolist() == reference_sum_table(data, tags)


@settings(max_examples=200, deadline=None)
@given(inputs, st.lists(st.integers(1, 9), min_size=1, max_size=40))
def test_chunking_does_not_change_the_answer(data, cuts):
    builder = SumTableBuilder()
    pos = 0
    for i in range(len(data) + 1):
        size = cuts[i % len(cuts)]
        builder.update(data[pos:pos + size])
        pos += size
        if pos >= len(data):
            break
    assert builder.result().tolist() == reference_sum_table(data)


@settings(max_examples=200, deadline=None)
@given(inputs)
def test_histogram_path_matches_reference(data):
    builder = SumTableBuilder(histogram_from=0)  # short inputs take the long-input path
    builder.update(data)
    assert builder.result().tolist() == reference_sum_table(data)


@settings(max_examples=200, deadline=None)
@given(st.one_of(runs_bytes, periodic_bytes, adversarial_bytes), periodic_tag_sets)
def test_kernel_matches_reference_for_self_overlapping_tags(data, tags):
    assert sum_table(data, tags).tolist() == reference_sum_table(data, tags)


@settings(max_examples=150, deadline=None)
@given(st.one_of(runs_bytes, periodic_bytes, any_bytes), periodic_tag_sets,
       st.lists(st.integers(1, 9), min_size=1, max_size=20), st.sampled_from([0, 1 << 40]))
def test_chunking_with_self_overlapping_tags(data, tags, cuts, histogram_from):
    builder = SumTableBuilder(tags, histogram_from=histogram_from)
    pos = i = 0
    while pos < len(data):
        size = cuts[i % len(cuts)]
        builder.update(data[pos:pos + size])
        pos += size
        i += 1
    assert builder.result().tolist() == reference_sum_table(data, tags)


@settings(max_examples=60, deadline=None)
@given(st.one_of(any_bytes, runs_bytes, periodic_bytes), st.one_of(tag_sets, periodic_tag_sets))
def test_match_list_reference_equals_literal_reference(data, tags):
    assert reference_sum_table_by_matches(data, tags) == reference_sum_table(data, tags)


def _mixed_input(seed: int, size: int) -> bytes:
    """Pieces of every kind the kernel treats differently, at random places."""
    rng = random.Random(seed)
    pieces, total = [], 0
    while total < size:
        kind = rng.randrange(6)
        n = rng.randrange(1, 3000)
        if kind == 0:
            piece = rng.randbytes(n)
        elif kind == 1:
            piece = bytes([rng.choice([0x00, 0xFF])]) * n
        elif kind == 2:
            piece = bytes(rng.choice(ADVERSARIAL) for _ in range(n))
        elif kind == 3:
            piece = bytes(rng.choice([0x49, 0x24, 0x92, 0xDB, 0x55, 0xAA]) for _ in range(3)) * n
        elif kind == 4:
            piece = b"".join(bytes([rng.choice(RUN_EDGES)]) * rng.randrange(1, 12)
                             for _ in range(n // 6 + 1))
        else:
            word = rng.choice([b"the tee ", b"\x00\x00\x00\x01", b"\x20\x00\x00\x00"])
            piece = word * (n // 8 + 1)
        pieces.append(piece)
        total += len(piece)
    return b"".join(pieces)[:size]


@pytest.mark.parametrize("seed", range(6))
def test_long_inputs_any_chunking_both_paths(seed):
    """Inputs spanning many blocks of the kernel, fed whole and in odd chunks, with
    and without the builder's own histogram, for the default tags and others."""
    rng = random.Random(seed)
    data = _mixed_input(seed, rng.randrange(20_000, 60_000))
    tags = DEFAULT_TAGS if seed % 2 == 0 else tuple(rng.sample(period_tags, 16))
    expected = reference_sum_table_by_matches(data, tags)
    assert sum_table(data, tags).tolist() == expected
    for histogram_from in (0, 1 << 40):
        builder = SumTableBuilder(tags, histogram_from=histogram_from)
        pos = 0
        while pos < len(data):
            size = rng.choice([1, 2, 3, 5, 64, 1000, 4097, 20_000])
            builder.update(np.frombuffer(data, dtype=np.uint8)[pos:pos + size])
            pos += size
        assert builder.result().tolist() == expected


def test_runs_of_0x00_and_0xff_cut_anywhere():
    """A run of whole 0x00 (0xFF) bytes between bytes whose zero (one) bits extend
    it, cut into two chunks at every place: its count may depend on bytes that
    arrive in the other chunk."""
    tags = (0x00, 0xFF) + tuple(t for t in DEFAULT_TAGS if t not in (0x00, 0xFF))[:14]
    for fill in (0x00, 0xFF):
        for first in (0x80, 0x20, 0xE0, 0x40, 0x10, 0x01):
            for last in (0x40, 0x10, 0x20, 0x01, 0x0F, 0x7F, 0x80):
                for length in (1, 2, 3, 5, 9):
                    data = b"\x5a" + bytes([first ^ fill]) + bytes([fill]) * length + bytes(
                        [last ^ fill, 0x5a])
                    expected = reference_sum_table(data, tags)
                    for cut in range(len(data) + 1):
                        builder = SumTableBuilder(tags)
                        builder.update(data[:cut])
                        builder.update(data[cut:])
                        assert builder.result().tolist() == expected, (data, cut)


def test_builders_on_several_threads_agree_with_one_thread():
    datas = [_mixed_input(100 + i, 200_000 + 1000 * i) for i in range(4)]
    tag_sets_used = [DEFAULT_TAGS, tuple(period_tags[:16]), DEFAULT_TAGS, tuple(period_tags[6:])]
    expected = [sum_table(d, t).tolist() for d, t in zip(datas, tag_sets_used)]
    results = [None] * 4

    def work(i):
        builder = SumTableBuilder(tag_sets_used[i])
        for start in range(0, len(datas[i]), 65_536):
            builder.update(datas[i][start:start + 65_536])
        results[i] = builder.result().tolist()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected


def test_update_after_result_is_refused_and_result_repeats():
    builder = SumTableBuilder()
    builder.update(b"\x00\x00\x74\xe8")
    first = builder.result()
    assert builder.result().tolist() == first.tolist()
    assert builder.bytes_seen == 4
    with pytest.raises(RuntimeError):
        builder.update(b"x")


@pytest.mark.parametrize("size", [0, 1, 2, 3])
def test_tiny_files(size, tmp_path):
    data = bytes([0x74, 0x00, 0x65][:size])
    path = tmp_path / "tiny"
    path.write_bytes(data)
    assert sum_table_of_file(path).tolist() == reference_sum_table(data)


def test_two_zero_bytes_count_two_not_nine():
    assert sum_table(b"\x00\x00")[0] == 2


def test_large_input_across_buffer_and_block_boundaries(tmp_path):
    rng = np.random.default_rng(7)
    parts = [rng.integers(0, 256, 70_000, dtype=np.uint8).tobytes(), bytes(5000),
             b"\xff" * 3000, b"the tee " * 2000, rng.integers(0, 2, 40_000, dtype=np.uint8).tobytes()]
    data = b"".join(parts) * 2
    expected = reference_sum_table(data)
    assert sum_table(data).tolist() == expected
    path = tmp_path / "big"
    path.write_bytes(data)
    for chunk in (1, 4095, 65536, 1 << 20):
        if chunk == 1:
            builder = SumTableBuilder()
            for i in range(0, 3000):  # a byte-at-a-time prefix, then the rest at once
                builder.update(data[i:i + 1])
            builder.update(data[3000:])
            assert builder.result().tolist() == expected
        else:
            assert sum_table_of_file(path, chunk_size=chunk).tolist() == expected


def test_accepts_bytes_memoryview_and_uint8_array():
    data = os.urandom(1000)
    expected = sum_table(data).tolist()
    assert sum_table(memoryview(data)).tolist() == expected
    assert sum_table(bytearray(data)).tolist() == expected
    assert sum_table(np.frombuffer(data, dtype=np.uint8)).tolist() == expected


def test_rejects_other_array_types_and_bad_tag_sets():
    with pytest.raises(TypeError):
        sum_table(np.zeros(4, dtype=np.int32))
    with pytest.raises(ValueError):
        sum_table(b"x", tags=[0] * 16)
    with pytest.raises(ValueError):
        sum_table(b"x", tags=range(15))


def test_result_is_int64_in_tag_order():
    table = sum_table(b"t")
    assert table.dtype == np.int64 and table.shape == (16,)
    assert table[DEFAULT_TAGS.index(0x74)] == 1 and table.sum() == 1


# -- inputs over 16 MiB: the histogram's 24-bit counts are folded before they overflow --


def test_inputs_over_16_mib_fold_their_counts_exactly():
    from simgui.core.reading import sumtable

    n = 2 * sumtable._FOLD_LIMIT + 12_345  # more frames than one histogram can count
    zeros = np.zeros(n, np.uint8)
    expected = np.zeros(16, np.int64)
    expected[DEFAULT_TAGS.index(0x00)] = n  # a zero window at every 8th bit: one per byte
    assert np.array_equal(sum_table(zeros), expected)
    assert not sum_table(np.full(n, 0xFF, np.uint8)).any()  # no tag is 0xff
    # random bytes: the folded histogram equals counting as it goes, a path tested
    # against the literal reference above, in one piece and in odd pieces
    data = np.random.default_rng(16).integers(0, 256, n, dtype=np.uint8)
    direct = SumTableBuilder(histogram_from=2**62)
    direct.update(data)
    folded = sum_table(data)
    assert np.array_equal(folded, direct.result())
    pieces = SumTableBuilder()
    for start in range(0, n, 7_340_033):
        pieces.update(data[start:start + 7_340_033])
    assert np.array_equal(pieces.result(), folded)
