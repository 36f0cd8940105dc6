"""compare_files equals a slow, literal reference on random and adversarial files."""

from __future__ import annotations

import math
import os
import tempfile
import threading
from unittest import mock

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import simgui.core.search.differences as differences
from simgui.core.search.differences import compare_files, hex_dump
from simgui.core.progress import Cancelled

# -- the reference: the module docstring's definitions, spelled out -------------------


def reference_units(a: bytes, b: bytes, block: int) -> list[tuple[int, int, bool]]:
    """(start, stop, found) for each unit of ``a``."""
    units = []
    for start in range(0, len(a), block):
        stop = min(start + block, len(a))
        if len(a) < block or stop - start == block:
            probe = a[start:stop]
        else:
            probe = a[len(a) - block:]  # the short last unit probes the last full block
        units.append((start, stop, probe in b))
    return units


def reference_cells(changed: list[bool], size: int, cells: int) -> list[float]:
    """Share of changed bytes per cell; ``changed`` covers the compared prefix."""
    out = []
    for c in range(cells):
        if size == 0:
            out.append(0.0)
            continue
        lo = c * size // cells
        hi = max((c + 1) * size // cells, lo + 1)
        if lo >= len(changed):
            out.append(math.nan)
            continue
        hi = min(hi, len(changed))
        out.append(sum(changed[lo:hi]) / (hi - lo))
    return out


def reference_side(a: bytes, b: bytes, size: int, block: int, cells: int):
    changed = [False] * len(a)
    for start, stop, found in reference_units(a, b, block):
        for i in range(start, stop):
            changed[i] = not found
    return reference_cells(changed, size, cells), sum(changed)


def reference_first_difference(a: bytes, b: bytes) -> int | None:
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def check(a: bytes, b: bytes, *, block: int = 64, cells: int = 37, max_bytes: int = 1 << 30):
    """compare_files on files holding ``a`` and ``b`` agrees with the reference."""
    with tempfile.TemporaryDirectory() as folder:
        pa, pb = os.path.join(folder, "a"), os.path.join(folder, "b")
        with open(pa, "wb") as f:
            f.write(a)
        with open(pb, "wb") as f:
            f.write(b)
        d = compare_files(pa, pb, block=block, cells=cells, max_bytes=max_bytes)
    first = reference_first_difference(a, b)
    assert d.first_difference == first
    assert d.identical == (a == b)
    assert (d.size_a, d.size_b) == (len(a), len(b))
    assert d.truncated == (max(len(a), len(b)) > max_bytes)
    if a == b:
        assert not d.changed_a.any() and not d.changed_b.any()
        return d
    pa_, pb_ = a[:max_bytes], b[:max_bytes]
    cells_a, changed_a = reference_side(pa_, pb_, len(a), block, cells)
    cells_b, changed_b = reference_side(pb_, pa_, len(b), block, cells)
    np.testing.assert_allclose(d.changed_a, cells_a, rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.changed_b, cells_b, rtol=0, atol=1e-12)
    assert (d.changed_bytes_a, d.changed_bytes_b) == (changed_a, changed_b)
    assert d.common_bytes == min(len(pa_) - changed_a, len(pb_) - changed_b)
    offset = max(0, first // 16 * 16 - 16)
    assert (d.window_offset, d.window_a, d.window_b) == (offset, a[offset:offset + 64],
                                                         b[offset:offset + 64])
    return d


# -- strategies ---------------------------------------------------------------------

blocks = st.sampled_from([1, 2, 3, 4, 7, 16, 64])
random_bytes = st.binary(max_size=700)
# 0x00 / 0xFF runs with a few other bytes: many equal probes sharing a slot
runs = st.lists(st.tuples(st.sampled_from([0x00, 0xFF, 0x01, 0x41]), st.integers(1, 90)),
                max_size=12).map(lambda rs: b"".join(bytes([x]) * n for x, n in rs))
small_alphabet = st.lists(st.sampled_from(b"ab\x00"), max_size=400).map(bytes)
contents = st.one_of(random_bytes, runs, small_alphabet)


@st.composite
def edited(draw):
    """(a, b): b is a with blocks inserted, deleted, moved or overwritten."""
    a = draw(contents)
    b = bytearray(a)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "move", "overwrite", "flip"]))
        at = draw(st.integers(0, len(b)))
        n = draw(st.integers(1, 150))
        if kind == "insert":
            b[at:at] = draw(st.one_of(st.binary(min_size=1, max_size=n), runs))
        elif kind == "delete":
            del b[at:at + n]
        elif kind == "move":
            piece = bytes(b[at:at + n])
            del b[at:at + n]
            to = draw(st.integers(0, len(b)))
            b[to:to] = piece
        elif kind == "overwrite":
            b[at:at + n] = draw(st.binary(min_size=1, max_size=n))
        elif at < len(b):
            b[at] ^= 1 << draw(st.integers(0, 7))
    return a, bytes(b)


# -- properties ---------------------------------------------------------------------


@settings(max_examples=120)
@given(edited(), blocks)
@example((b"", b""), 64)
@example((b"", b"x"), 64)
@example((b"x", b""), 1)
@example((b"ab", b"ba"), 64)
@example((b"abc", b"abd"), 2)
@example((bytes(200), bytes(130) + b"\x01" + bytes(69)), 64)
@example((bytes(range(256)) * 3, b"xyz" + bytes(range(256)) * 3), 64)
def test_matches_reference(pair, block):
    a, b = pair
    check(a, b, block=block)


@settings(max_examples=60)
@given(contents, contents, blocks)
def test_unrelated_contents_match_reference(a, b, block):
    check(a, b, block=block)


@settings(max_examples=60)
@given(edited(), blocks, st.integers(1, 40), st.integers(1, 300))
def test_buffer_boundaries_and_prefixes(pair, block, chunk, max_bytes):
    """Tiny scan and read chunks (patched) and a small max_bytes change nothing."""
    a, b = pair
    with mock.patch.object(differences, "_SCAN_CHUNK", chunk), \
            mock.patch.object(differences, "_READ_CHUNK", chunk):
        check(a, b, block=block, max_bytes=max_bytes, cells=11)


@settings(max_examples=40)
@given(st.binary(min_size=1, max_size=600), st.data())
def test_block_aligned_moves_change_nothing(a, data):
    """Cut A into block-multiple pieces and shuffle them: all of A is found in B."""
    cuts = sorted(data.draw(st.lists(st.integers(0, len(a) // 4), max_size=5)))
    edges = sorted({0, len(a), *(c * 4 for c in cuts)})
    pieces = [a[x:y] for x, y in zip(edges, edges[1:])]
    order = data.draw(st.permutations(range(len(pieces))))
    b = b"".join(pieces[i] for i in order)
    d = check(a, b, block=4)
    if len(a) % 4 == 0:
        assert not d.changed_a.any()


# -- examples -----------------------------------------------------------------------


def write(folder, name: str, data: bytes) -> str:
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_insertion_at_start_marks_only_the_insertion(tmp_path):
    a = np.random.default_rng(1).integers(0, 256, 100_000, dtype=np.uint8).tobytes()
    b = b"inserted!" * 500 + a
    d = compare_files(write(tmp_path, "a", a), write(tmp_path, "b", b), cells=100)
    assert d.first_difference == 0 and not d.identical
    assert d.changed_bytes_a == 0 and not d.changed_a.any()
    assert d.changed_bytes_b == 71 * 64  # the inserted bytes, to the end of their last block
    assert d.changed_b[:4].min() == 1.0 and not d.changed_b[5:].any()
    assert len(a) - 64 <= d.common_bytes <= len(a)  # B's block straddling the seam is "changed"
    assert d.percent_changed_b == pytest.approx(100 * 71 * 64 / len(b))


def test_one_changed_byte_marks_one_block(tmp_path):
    a = np.random.default_rng(2).integers(0, 256, 64_000, dtype=np.uint8).tobytes()
    b = bytearray(a)
    b[32_000] ^= 0xFF
    d = compare_files(write(tmp_path, "a", a), write(tmp_path, "b", bytes(b)), cells=1000)
    assert d.first_difference == 32_000
    assert d.changed_bytes_a == d.changed_bytes_b == 64
    assert np.flatnonzero(d.changed_a).tolist() == [500]
    rows = d.hex_rows()
    assert rows[0].startswith("  offset")
    marked = [i for i, row in enumerate(rows) if "^^" in row]
    assert len(marked) == 1 and rows[marked[0]].count("^^") == 1
    assert rows[marked[0] - 2].startswith("A 00007d00") and rows[marked[0] - 1].startswith("B ")


def test_identical_and_empty_files(tmp_path):
    data = b"same content" * 100
    d = compare_files(write(tmp_path, "a", data), write(tmp_path, "b", data))
    assert d.identical and d.first_difference is None and d.hex_rows() == []
    assert d.common_bytes == len(data) and d.percent_changed_a == 0
    e = compare_files(write(tmp_path, "e", b""), write(tmp_path, "f", b""))
    assert e.identical and e.changed_a.shape == (200,)
    g = compare_files(write(tmp_path, "g", b""), write(tmp_path, "h", b"abc"))
    assert not g.identical and g.first_difference == 0
    assert not g.changed_a.any() and g.changed_b.min() == 1.0 and g.percent_changed_b == 100


def test_large_files_compare_a_prefix_but_find_the_true_first_difference(tmp_path):
    a = bytes(5000) + b"A" + bytes(100)
    b = bytes(5000) + b"B" + bytes(100)
    d = compare_files(write(tmp_path, "a", a), write(tmp_path, "b", b), max_bytes=1000, cells=10)
    assert d.truncated and d.first_difference == 5000 and not d.identical
    assert d.compared_a == 1000 and d.changed_bytes_a == 0
    # cells of 510 bytes: the second holds compared and uncompared bytes
    assert not d.changed_a[:2].any() and np.isnan(d.changed_a[2:]).all()
    assert d.window_a[5000 - d.window_offset:][:1] == b"A"
    same = compare_files(write(tmp_path, "c", a), write(tmp_path, "d", a), max_bytes=1000)
    assert same.identical and same.truncated and not np.isnan(same.changed_a).any()


def test_progress_and_cancel(tmp_path):
    a = write(tmp_path, "a", os.urandom(300_000))
    b = write(tmp_path, "b", os.urandom(300_000))
    seen = []
    with mock.patch.object(differences, "_SCAN_CHUNK", 50_000):
        compare_files(a, b, progress=lambda p: seen.append(p) or True)
        assert seen[-1].fraction == 1.0 and seen[-1].phase == "comparing"
        assert all(x.bytes_done <= y.bytes_done for x, y in zip(seen, seen[1:]))
        calls = []
        with pytest.raises(Cancelled):
            compare_files(a, b, progress=lambda p: calls.append(p) or len(calls) < 4)


def test_unreadable_files_raise_clear_oserror(tmp_path):
    a = write(tmp_path, "a", b"abc")
    missing = str(tmp_path / "gone.bin")
    with pytest.raises(OSError, match="gone.bin: the file no longer exists"):
        compare_files(a, missing)
    with pytest.raises(OSError, match="Cannot read"):
        compare_files(str(tmp_path), a)



def test_a_file_closed_to_reading_says_permission_denied(tmp_path, monkeypatch):
    # chmod 0 does not stop root (CI runs as root): the refusal is made by open itself,
    # as the kernel makes it for a user without the right
    import errno

    from simgui.core.search import differences

    a = write(tmp_path, "a", b"abc")
    locked = write(tmp_path, "locked", b"x")
    real_open = open

    def deny(path, *args, **kwargs):
        if os.fspath(path) == locked:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(differences, "open", deny, raising=False)
    with pytest.raises(OSError, match="locked: Permission denied"):
        compare_files(a, locked)
    with pytest.raises(OSError, match="locked: Permission denied"):
        compare_files(locked, a)


def test_hex_dump(tmp_path):
    path = write(tmp_path, "a", b"Hello, world!\x00\x01" + bytes(range(20)))
    rows = hex_dump(path, 2, 20)
    assert rows[0].startswith("00000002  6c 6c 6f 2c")
    assert rows[0].endswith("llo, world!.....")
    assert rows[1].startswith("00000012  03 04 05 06 -- --")
    with pytest.raises(OSError, match="Cannot read"):
        hex_dump(str(tmp_path / "nope"), 0, 16)


def test_hex_rows_mark_the_end_of_the_shorter_file(tmp_path):
    d = compare_files(write(tmp_path, "a", b"0123456789"), write(tmp_path, "b", b"012345678"))
    rows = d.hex_rows()
    assert d.first_difference == 9
    assert rows[1] == "A 00000000  30 31 32 33 34 35 36 37 38 39" + " --" * 6 + "  0123456789"
    assert rows[2].startswith("B 00000000  30 31 32 33 34 35 36 37 38 --")
    assert rows[3] == " " * 12 + "   " * 9 + "^^"


def test_kernels_release_the_gil(tmp_path):
    """Two comparisons in threads finish (nogil kernels) and agree with one alone."""
    a = np.random.default_rng(3).integers(0, 256, 400_000, dtype=np.uint8).tobytes()
    pa = write(tmp_path, "a", a)
    pb = write(tmp_path, "b", a[1000:] + a[:1000])
    alone = compare_files(pa, pb)
    results = []
    threads = [threading.Thread(target=lambda: results.append(compare_files(pa, pb)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.changed_bytes_b for r in results] == [alone.changed_bytes_b] * 2
    assert alone.changed_bytes_a <= 2 * 64  # a rotation breaks at most two blocks
