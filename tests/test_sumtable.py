"""The fast sum-table kernel equals the literal reference on random and adversarial input."""

import os

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simgui.core.sumtable import SumTableBuilder, sum_table, sum_table_of_file
from simgui.core.tags import DEFAULT_TAGS
from tests.reference import reference_sum_table

# Bytes that make matches, self-overlaps and close pairs likely for the default
# tags: 0x00 / 0xFF runs, the tags themselves, and bytes continuing a tag that
# overlaps itself (0x74 then 0xE8 holds 0x74 at bit 0 and bit 7).
ADVERSARIAL = [0x00, 0xFF, 0x74, 0xE8, 0x65, 0x3F, 0xC0, 0x01, 0x80, 0x7F, 0xFE] + list(DEFAULT_TAGS)

adversarial_bytes = st.lists(st.sampled_from(ADVERSARIAL), max_size=300).map(bytes)
text_bytes = st.text(alphabet="the test tee\x00 ette\n", max_size=300).map(lambda s: s.encode())
any_bytes = st.binary(max_size=300)
inputs = st.one_of(any_bytes, adversarial_bytes, text_bytes)
tag_sets = st.lists(st.integers(0, 255), min_size=16, max_size=16, unique=True)


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
