"""align() against a slow, literal reference; the text and hex previews' core on real files."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simgui.core.progress import Cancelled
from simgui.core.search.alignment import (
    CHANGED_ROW, DELETED_ROW, EQUAL_ROW, INSERTED_ROW, align, compare_hex, compare_text,
    hex_cells, inline_changes, read_prefix, text_encoding,
)

# -- the reference: a textbook longest common subsequence -----------------------------


def reference_lcs(a: bytes, b: bytes) -> int:
    """Length of a longest common subsequence, by the plain quadratic table."""
    row = [0] * (len(b) + 1)
    for x in a:
        prev_diag = 0
        for j, y in enumerate(b, start=1):
            keep = row[j]
            row[j] = prev_diag + 1 if x == y else max(row[j], row[j - 1])
            prev_diag = keep
    return row[-1]


def check_valid(a, b, ops) -> int:
    """The opcodes cover both sequences in order, equal runs are equal, and applying the
    opcodes to ``a`` gives ``b``; returns how many elements the equal runs hold."""
    a, b = list(a), list(b)
    i = j = 0
    out = []
    matched = 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (i, j), "runs must follow each other"
        assert i2 >= i1 and j2 >= j1 and (i2 > i1 or j2 > j1), "no empty runs"
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
            matched += i2 - i1
        elif tag == "replace":
            assert i2 > i1 and j2 > j1
        elif tag == "insert":
            assert i2 == i1 and j2 > j1
        else:
            assert tag == "delete" and i2 > i1 and j2 == j1
        out += b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    assert out == b
    for first, second in zip(ops, ops[1:]):  # neighbours are merged
        assert (first[0] == "equal") != (second[0] == "equal")
    return matched


# adversarial bytes: runs of 0x00 and 0xFF, few distinct values, periodic pieces
runs = st.lists(st.tuples(st.sampled_from([0x00, 0xFF, 0x41, 0x0A]), st.integers(1, 40)),
                max_size=12).map(lambda rs: b"".join(bytes([v]) * n for v, n in rs))
few = st.binary(max_size=60).map(lambda s: bytes(x % 3 for x in s))
periodic = st.tuples(st.binary(min_size=1, max_size=4), st.integers(0, 40)).map(
    lambda t: t[0] * t[1])
data = st.one_of(st.binary(max_size=60), runs, few, periodic)


@settings(max_examples=300)
@given(data, data)
@example(b"", b"")
@example(b"", b"\x00")
@example(b"\x00\xff\x00", b"")
@example(b"\x00" * 3, b"\xff" * 3)
@example(b"ab", b"ba")
def test_small_inputs_give_a_longest_common_subsequence(a, b):
    assert check_valid(a, b, align(a, b)) == reference_lcs(a, b)


@settings(max_examples=300)
@given(data, data, st.sampled_from([(1,), (4, 2), (8,), (32, 8)]),
       st.sampled_from([0, 1, 16, 256]), st.sampled_from([0, 100, 10**9]), st.integers(1, 6))
def test_every_path_gives_a_valid_alignment(a, b, grams, exact_cells, exact_budget, min_equal):
    """Tiny ``exact_cells`` or ``exact_budget`` force the anchors and the
    position-by-position fallback."""
    ops = align(a, b, grams=grams, exact_cells=exact_cells, exact_budget=exact_budget,
                min_equal=min_equal)
    check_valid(a, b, ops)
    for op in ops[1:-1]:
        if op[0] == "equal":
            assert op[2] - op[1] >= min_equal


@settings(max_examples=200)
@given(st.integers(0, 2**32 - 1), st.integers(0, 700),
       st.lists(st.tuples(st.sampled_from(["insert", "delete", "replace"]),
                          st.floats(0, 1), st.integers(1, 40)), min_size=1, max_size=3),
       st.sampled_from([0, 64, 4096]))
def test_after_an_edit_the_rest_lines_up_again(seed, length, edits, exact_cells):
    """Random content with a few insertions, deletions or replacements anywhere (start,
    middle, end): everything the edits did not touch is matched, on every path."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, length, dtype=np.uint8).tobytes()
    b = bytearray(a)
    touched = 0
    # apply from the end backwards so positions stay meaningful; keep edits apart
    places = sorted({int(where * len(a)) // 100 * 100 for _, where, _ in edits}, reverse=True)
    for (kind, _, size), place in zip(edits, places):
        place = min(place, len(b))
        new = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
        if kind == "insert":
            b[place:place] = new
        elif kind == "delete":
            touched += len(b[place:place + size])
            del b[place:place + size]
        else:
            touched += len(b[place:place + size])
            b[place:place + size] = new
    ops = align(a, bytes(b), grams=(8,), exact_cells=exact_cells, min_equal=4)
    matched = check_valid(a, bytes(b), ops)
    # 3 bytes of slack per edit: a chance match folded into a change by min_equal
    assert matched >= len(a) - touched - 3 * len(edits)


@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("change", ["insert", "delete"])
def test_an_insertion_is_one_run_and_what_follows_is_equal(where, change):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, 300_000, dtype=np.uint8).tobytes()
    a = a[:100_000] + bytes(5000) + b"\xff" * 5000 + a[100_000:]  # runs in the middle
    place = {"start": 0, "middle": len(a) // 2, "end": len(a)}[where]
    piece = b"inserted" * 100
    if change == "insert":
        b = a[:place] + piece + a[place:]
    else:
        place = min(place, len(a) - len(piece))
        a, b = a[:place] + piece + a[place:], a
    ops = align(a, b, min_equal=4)
    check_valid(a, b, ops)
    changes = [op for op in ops if op[0] != "equal"]
    assert len(changes) == 1 and changes[0][0] == change
    assert sum(op[2] - op[1] for op in ops if op[0] == "equal") == min(len(a), len(b))


def test_two_edits_far_apart_in_a_large_file_use_anchors():
    """Larger than the exact table: the anchors find the equal content between the edits."""
    rng = np.random.default_rng(9)
    a = rng.integers(0, 256, 400_000, dtype=np.uint8).tobytes()
    b = bytearray(a)
    b[3000] ^= 0xFF
    b[200_000:200_000] = b"x" * 512
    del b[300_000:300_100]
    ops = align(a, bytes(b), min_equal=4)
    assert check_valid(a, bytes(b), ops) == len(a) - 1 - 100
    assert [op[0] for op in ops] == ["equal", "replace", "equal", "insert", "equal",
                                     "delete", "equal"]


def test_the_exact_budget_bounds_the_work_and_cancelling_stops_it():
    rng = np.random.default_rng(2)
    a = rng.integers(0, 4, 1000, dtype=np.uint8).tobytes()  # no anchors: few distinct bytes
    b = rng.integers(0, 4, 1000, dtype=np.uint8).tobytes()
    exact = align(a, b)
    capped = align(a, b, exact_budget=10**5)  # falls back to positions
    assert check_valid(a, b, exact) == reference_lcs(a, b) > check_valid(a, b, capped)
    big = rng.integers(0, 256, 200_000, dtype=np.uint8).tobytes()
    edited = bytearray(big)
    edited[1000::5000] = bytes(x ^ 1 for x in big[1000::5000])
    with pytest.raises(Cancelled):
        align(big, bytes(edited), progress=lambda p: False)


def test_a_deleted_paragraph_takes_the_blank_line_after_it():
    """Lines X, blank, P, blank, Y against X, blank, Y: either blank could go with P; the
    change slides down, so P leaves with the blank that follows it."""
    x, blank, p, y, q, r, s, t = 1, 0, 2, 3, 10, 11, 12, 13
    assert align([x, blank, p, blank, y], [x, blank, y], grams=(1,)) == [
        ("equal", 0, 2, 0, 2), ("delete", 2, 4, 2, 2), ("equal", 4, 5, 2, 3)]
    # inside a middle solved exactly (different first and last lines): the same
    assert align([q, x, blank, p, blank, y, r], [s, x, blank, y, t], grams=(1,)) == [
        ("replace", 0, 1, 0, 1), ("equal", 1, 3, 1, 3), ("delete", 3, 5, 3, 3),
        ("equal", 5, 6, 3, 4), ("replace", 6, 7, 4, 5)]
    assert align([s, x, blank, y, t], [q, x, blank, p, blank, y, r], grams=(1,)) == [
        ("replace", 0, 1, 0, 1), ("equal", 1, 3, 1, 3), ("insert", 3, 3, 3, 5),
        ("equal", 3, 4, 5, 6), ("replace", 4, 5, 6, 7)]


def test_lines_align_with_grams_of_one():
    a = [1, 2, 3, 4, 5, 6, 7, 8]
    b = [1, 2, 9, 3, 4, 5, 7, 8]
    ops = align(a, b, grams=(1,), exact_cells=0)
    assert check_valid(a, b, ops) == 7


# -- hex cells ---------------------------------------------------------------------------


@settings(max_examples=100)
@given(data, data)
def test_hex_cells_hold_both_files_in_order(a, b):
    cells = hex_cells(a, b, align(a, b, min_equal=4))
    assert bytes(int(x) for x in cells.byte_a if x >= 0) == a
    assert bytes(int(x) for x in cells.byte_b if x >= 0) == b
    equal = cells.kind == EQUAL_ROW
    assert (cells.byte_a[equal] == cells.byte_b[equal]).all()
    assert (cells.byte_a[cells.kind == INSERTED_ROW] == -1).all()
    assert (cells.byte_b[cells.kind == DELETED_ROW] == -1).all()
    changed = cells.kind == CHANGED_ROW
    assert ((cells.byte_a[changed] >= 0) & (cells.byte_b[changed] >= 0)).all()


def write(folder, name, content: bytes) -> str:
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(content)
    return path


def test_compare_hex_marks_only_the_inserted_bytes(tmp_path):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, 20_000, dtype=np.uint8).tobytes()
    b = a[:7000] + b"NEW!" * 8 + a[7000:]
    result = compare_hex(write(tmp_path, "a", a), write(tmp_path, "b", b))
    assert result.changed_cells == 32
    assert (result.kind[result.kind != EQUAL_ROW] == INSERTED_ROW).all()
    assert not result.a.cut and result.a.size == 20_000


def test_compare_hex_reads_only_a_prefix(tmp_path):
    path = write(tmp_path, "big", bytes(5000))
    result = compare_hex(path, path, max_bytes=1000)
    assert result.a.cut and result.a.read == 1000 and result.a.size == 5000
    assert result.changed_cells == 0


# -- text --------------------------------------------------------------------------------


@pytest.mark.parametrize("head, expected", [
    (b"", "utf-8"),
    (b"plain ascii\n", "utf-8"),
    ("naïve café\n".encode(), "utf-8"),
    ("naïve café\n".encode("latin-1"), "latin-1"),
    (b"x" * 500 + b"\xff" + b"y" * 500, "utf-8"),  # one bad byte in a thousand: replaced
    (b"text\x00more", None),
    (bytes(range(1, 32)) * 10, None),  # control characters: binary
    ("é".encode()[:1], "utf-8"),  # a sequence cut at the end of the sniff
])
def test_text_encoding(head, expected):
    assert text_encoding(head) == expected


def test_text_is_lined_up_with_changes_marked(tmp_path):
    a = "".join(f"line {i}\n" for i in range(100))
    b = a.replace("line 10\n", "line ten\n").replace("line 50\n", "") + "added\n"
    b = "new first\n" + b
    result = compare_text(write(tmp_path, "a.txt", a.encode()),
                          write(tmp_path, "b.txt", b.encode()))
    kinds = {int(k): int(n) for k, n in zip(*np.unique(result.kind, return_counts=True))}
    assert kinds == {EQUAL_ROW: 98, CHANGED_ROW: 1, DELETED_ROW: 1, INSERTED_ROW: 2}
    row = int(np.flatnonzero(result.kind == CHANGED_ROW)[0])
    assert result.lines_a[result.left[row]] == "line 10"
    assert result.lines_b[result.right[row]] == "line ten"
    assert not result.endings_differ


def test_inline_changes_mark_the_words_that_differ(tmp_path):
    a = "the colour of money\nsame\nrewritten entirely\n"
    b = "the color of money\nsame\nXYZ\n"
    result = compare_text(write(tmp_path, "a.txt", a.encode()),
                          write(tmp_path, "b.txt", b.encode()))
    inline = inline_changes(result)  # word by word
    assert inline == {0: ([(4, 10)], [(4, 9)]), 2: ([(0, 18)], [(0, 3)])}
    assert inline_changes(result, max_rows=1) == {0: ([(4, 10)], [(4, 9)])}
    assert inline_changes(result, max_cells=2) == {}


def test_text_binary_cut_and_undecodable(tmp_path):
    text = write(tmp_path, "t.txt", b"one\r\ntwo\r\n")
    binary = write(tmp_path, "b.bin", b"\x00\x01\x02")
    assert compare_text(text, binary) is None
    other = write(tmp_path, "u.txt", b"one\ntwo\n")
    result = compare_text(text, other)
    assert result.endings_differ and result.changed_rows == 0
    long = write(tmp_path, "long.txt", b"\xe9t\xe9\n" * 1000)  # Latin-1, cut mid-line
    result = compare_text(long, long, max_bytes=1002)
    assert result.a.cut and result.a.encoding == "latin-1"
    assert result.lines_a == ["été"] * 250  # the cut, partial last line left out


def test_read_prefix_refuses_missing_files_and_fifos(tmp_path):
    with pytest.raises(OSError, match="no longer exists"):
        read_prefix(str(tmp_path / "gone"), 10)
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        read_prefix(fifo, 10)  # would block for ever if opened for a plain read
