"""Two sequences lined up: which runs are equal, replaced, inserted or deleted.

The details panel's previews show two files side by side: text line by line,
other files byte by byte.  Comparing position by position would mark every
byte after one insertion as changed; :func:`align` instead finds runs the two
sequences share, so the content after an insertion lines up again.

How (a patience-style divide and conquer, exact where it is cheap):

* the common prefix and suffix are equal runs;
* a middle of at most ``exact_cells`` (rows times columns) is solved exactly:
  a longest common subsequence by dynamic programming (a numba kernel);
* a larger middle is cut at *anchors*: ``gram``-element pieces of A, taken
  every ``gram`` elements, that occur exactly once in A's samples and once
  among all of B's windows, byte-checked (hashes only propose), and chained in
  order (longest increasing subsequence of their places in B).  Each gap
  between anchors is solved the same way, so anchors grow into whole equal
  runs through the prefix and suffix steps;
* a large middle without anchors (periodic data: runs of one byte) is compared
  position by position, which is never worse than no alignment at all; so
  is any middle once ``exact_budget`` cells were solved exactly, which bounds
  the time of the worst case (many middles just under ``exact_cells``).

The result is a list of difflib-style opcodes ``(tag, i1, i2, j1, j2)``.
Below ``exact_cells`` the equal runs are a longest common subsequence; above
it they are a good one, not always the longest.  Where several places are
equally good for an insertion or deletion, it slides to the last one (a
deleted paragraph takes the blank line after it).  ``min_equal`` folds equal
runs shorter than that between two changes into the change, so a replaced
block reads as one block, not as a sieve of chance matches.

Also here, for the previews: reading a capped prefix of a file, deciding
whether it is text, and lining up text lines and hex cells.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from bisect import bisect_left
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from simgui.core.progress import Progress, ProgressCallback, report
from simgui.core.search.differences import _read_error

EQUAL, REPLACE, INSERT, DELETE = "equal", "replace", "insert", "delete"
Opcode = tuple[str, int, int, int, int]

EXACT_CELLS = 1 << 22  # largest middle (rows x columns) solved exactly: 16 MB of table
EXACT_BUDGET = 16 * EXACT_CELLS  # cells solved exactly in one alignment, at most
BYTE_GRAMS = (32, 8)  # anchor lengths tried for bytes, longest first
PREVIEW_BYTES = 1 << 20  # what a preview reads of each file
SNIFF_BYTES = 8192  # what decides text or binary
_BASE = np.uint64(0x100000001B3)  # odd multiplier of the polynomial hash


# --------------------------------------------------------------------------- kernels


@njit(nogil=True, cache=True)
def _lcs_steps(a, b):
    """One LCS of a and b as steps: 0 = both advance (equal), 1 = a only, 2 = b only.

    ``table[i, j]`` is the LCS length of a[i:] and b[j:]; the walk from (0, 0)
    deletes whenever that loses nothing, else inserts whenever that loses
    nothing, else matches.  Matching as late as possible keeps a change in one
    piece: three deleted lines around a blank one stay one run of four, not
    two runs with the blank line "equal" to some later blank line.
    """
    n, m = len(a), len(b)
    table = np.zeros((n + 1, m + 1), np.int32)
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if a[i] == b[j]:
                table[i, j] = table[i + 1, j + 1] + 1
            elif table[i + 1, j] >= table[i, j + 1]:
                table[i, j] = table[i + 1, j]
            else:
                table[i, j] = table[i, j + 1]
    steps = np.empty(n + m, np.uint8)
    k = 0
    i = j = 0
    while i < n or j < m:
        if i < n and table[i + 1, j] == table[i, j]:
            steps[k] = 1
            i += 1
        elif j < m and table[i, j + 1] == table[i, j]:
            steps[k] = 2
            j += 1
        else:  # neither loses nothing: a[i] == b[j], and matching them is optimal
            steps[k] = 0
            i += 1
            j += 1
        k += 1
    return steps[:k]


@njit(nogil=True, cache=True)
def _gram_hashes(x, gram, stride):
    """Polynomial hashes (mod 2**64) of x[s:s+gram] for s = 0, stride, 2*stride, ..."""
    count = (len(x) - gram) // stride + 1 if len(x) >= gram else 0
    out = np.empty(max(count, 0), np.uint64)
    if count <= 0:
        return out
    top = np.uint64(1)
    for _ in range(gram - 1):
        top *= _BASE
    h = np.uint64(0)
    for t in range(gram):
        h = h * _BASE + np.uint64(x[t])
    out[0] = h
    if stride == 1:
        for s in range(1, count):
            h = (h - np.uint64(x[s - 1]) * top) * _BASE + np.uint64(x[s + gram - 1])
            out[s] = h
    else:
        for c in range(1, count):
            s = c * stride
            h = np.uint64(0)
            for t in range(gram):
                h = h * _BASE + np.uint64(x[s + t])
            out[c] = h
    return out


# --------------------------------------------------------------------------- aligning


def _as_array(x) -> np.ndarray:
    if isinstance(x, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(x), np.uint8).astype(np.int64)
    return np.asarray(x, dtype=np.int64)


def _common_prefix(x: np.ndarray, y: np.ndarray) -> int:
    n = min(len(x), len(y))
    step = 4096
    for lo in range(0, n, step):  # in chunks: a difference early costs little
        hi = min(n, lo + step)
        diff = np.flatnonzero(x[lo:hi] != y[lo:hi])
        if len(diff):
            return lo + int(diff[0])
    return n


def _common_suffix(x: np.ndarray, y: np.ndarray) -> int:
    return _common_prefix(x[::-1], y[::-1])


def _anchors(x: np.ndarray, y: np.ndarray, gram: int) -> list[tuple[int, int]]:
    """Starts (in x, in y) of a chain of non-overlapping equal ``gram``-pieces, in order."""
    if len(x) < gram or len(y) < gram:
        return []
    ha = _gram_hashes(x, gram, gram)
    hb = _gram_hashes(y, gram, 1)
    ua, ia, ca = np.unique(ha, return_index=True, return_counts=True)
    ub, ib, cb = np.unique(hb, return_index=True, return_counts=True)
    ua, ia = ua[ca == 1], ia[ca == 1]
    ub, ib = ub[cb == 1], ib[cb == 1]
    _, ka, kb = np.intersect1d(ua, ub, assume_unique=True, return_indices=True)
    if not len(ka):
        return []
    pa = ia[ka].astype(np.int64) * gram
    pb = ib[kb].astype(np.int64)
    offsets = np.arange(gram)
    same = (x[pa[:, None] + offsets] == y[pb[:, None] + offsets]).all(axis=1)  # no collisions
    pa, pb = pa[same], pb[same]
    order = np.argsort(pa, kind="stable")
    pa, pb = pa[order].tolist(), pb[order].tolist()
    # longest chain increasing in y (patience sorting), then drop overlaps in y
    tails: list[int] = []  # tails[k]: the smallest pb ending a chain of k + 1
    tail_index: list[int] = []
    previous = [-1] * len(pa)
    for index, value in enumerate(pb):
        k = bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_index.append(index)
        else:
            tails[k] = value
            tail_index[k] = index
        previous[index] = tail_index[k - 1] if k else -1
    chain = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        chain.append(index)
        index = previous[index]
    chain.reverse()
    out: list[tuple[int, int]] = []
    for index in chain:
        if not out or pb[index] >= out[-1][1] + gram:
            out.append((pa[index], pb[index]))
    return out


def _positional(i1: int, j1: int, x: np.ndarray, y: np.ndarray) -> list[Opcode]:
    """x against y position by position, the longer one's tail inserted or deleted."""
    n = min(len(x), len(y))
    ops: list[Opcode] = []
    if n:
        eq = (x[:n] == y[:n]).astype(np.int8)
        edges = np.flatnonzero(np.diff(np.concatenate([[-1], eq, [-1]]))) if n else []
        for lo, hi in zip(edges[:-1], edges[1:]):
            tag = EQUAL if eq[lo] else REPLACE
            ops.append((tag, i1 + int(lo), i1 + int(hi), j1 + int(lo), j1 + int(hi)))
    if len(x) > n:
        ops.append((DELETE, i1 + n, i1 + len(x), j1 + n, j1 + n))
    elif len(y) > n:
        ops.append((INSERT, i1 + n, i1 + n, j1 + n, j1 + len(y)))
    return ops


def _exact(i1: int, j1: int, x: np.ndarray, y: np.ndarray) -> list[Opcode]:
    steps = _lcs_steps(x, y)
    ops: list[Opcode] = []
    if not len(steps):
        return ops
    edges = np.flatnonzero(np.diff(steps.astype(np.int8))) + 1
    i, j = i1, j1
    for chunk in np.split(steps, edges):
        length = len(chunk)
        kind = int(chunk[0])
        if kind == 0:
            ops.append((EQUAL, i, i + length, j, j + length))
            i += length
            j += length
        elif kind == 1:
            ops.append((DELETE, i, i + length, j, j))
            i += length
        else:
            ops.append((INSERT, i, i, j, j + length))
            j += length
    return ops


def align(a, b, *, grams: tuple[int, ...] = BYTE_GRAMS, exact_cells: int = EXACT_CELLS,
          exact_budget: int = EXACT_BUDGET, min_equal: int = 1,
          progress: ProgressCallback | None = None) -> list[Opcode]:
    """difflib-style opcodes turning ``a`` into ``b`` (bytes or integer sequences).

    See the module docstring for how.  ``grams`` are the anchor lengths tried,
    longest first (1 for lines: a line unique in both files is an anchor).
    Raises Cancelled if ``progress`` returns False.
    """
    x, y = _as_array(a), _as_array(b)
    total = len(x) + len(y)
    steps = 0
    raw: list[Opcode] = []
    # an explicit stack, last pushed first: (i1, i2, j1, j2) to solve, or a finished opcode
    stack: list = [(0, len(x), 0, len(y))]
    while stack:
        item = stack.pop()
        if isinstance(item[0], str):
            raw.append(item)
            continue
        i1, i2, j1, j2 = item
        steps += 1
        if steps % 64 == 1:  # a chance to cancel, from the first step on
            report(progress, Progress("aligning", bytes_done=i1 + j1, bytes_total=total))
        p = _common_prefix(x[i1:i2], y[j1:j2])
        if p:
            raw.append((EQUAL, i1, i1 + p, j1, j1 + p))
            i1 += p
            j1 += p
        s = _common_suffix(x[i1:i2], y[j1:j2])
        tail = (EQUAL, i2 - s, i2, j2 - s, j2) if s else None
        i2 -= s
        j2 -= s
        later: list = []  # pushed in reverse below
        if i1 == i2 and j1 == j2:
            pass
        elif i1 == i2:
            later.append((INSERT, i1, i1, j1, j2))
        elif j1 == j2:
            later.append((DELETE, i1, i2, j1, j1))
        elif (i2 - i1) * (j2 - j1) <= min(exact_cells, exact_budget):
            exact_budget -= (i2 - i1) * (j2 - j1)
            later += _exact(i1, j1, x[i1:i2], y[j1:j2])
        else:
            chain: list[tuple[int, int]] = []
            gram = 1
            for gram in grams:
                chain = _anchors(x[i1:i2], y[j1:j2], gram)
                if chain:
                    break
            if not chain:
                later += _positional(i1, j1, x[i1:i2], y[j1:j2])
            else:
                ai, bj = i1, j1
                for pa, pb in chain:
                    if (i1 + pa, j1 + pb) == (ai, bj) and later:  # the next piece on a run
                        later[-1] = (EQUAL, later[-1][1], ai + gram, later[-1][3], bj + gram)
                    else:
                        later.append((ai, i1 + pa, bj, j1 + pb))
                        later.append((EQUAL, i1 + pa, i1 + pa + gram, j1 + pb, j1 + pb + gram))
                    ai, bj = i1 + pa + gram, j1 + pb + gram
                later.append((ai, i2, bj, j2))
        if tail:
            later.append(tail)
        stack.extend(reversed(later))
    return _tidy(raw, min_equal, x, y)


def _tidy(raw: list[Opcode], min_equal: int, x: np.ndarray, y: np.ndarray) -> list[Opcode]:
    """Drop empty runs, merge neighbours, slide insertions and deletions down, fold equal
    runs shorter than ``min_equal`` that sit between two changes into them, name changes."""
    ops = _slide(x, y, _name(_merge([op for op in raw if op[2] > op[1] or op[4] > op[3]])))
    if min_equal > 1:
        ops = _name(_merge([(REPLACE, *op[1:]) if op[0] == EQUAL and op[2] - op[1] < min_equal
                            and 0 < k < len(ops) - 1 else op for k, op in enumerate(ops)]))
    return ops


def _name(ops: list[Opcode]) -> list[Opcode]:
    out: list[Opcode] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag != EQUAL:
            tag = REPLACE if i2 > i1 and j2 > j1 else DELETE if i2 > i1 else INSERT
        out.append((tag, i1, i2, j1, j2))
    return out


def _slide(x: np.ndarray, y: np.ndarray, ops: list[Opcode]) -> list[Opcode]:
    """Move each insertion or deletion as far down as the equal run after it allows.

    Where the content allows several places ("a" inserted into "aa"), the
    alignment may have picked any; the last one reads best: a deleted
    paragraph takes its own blank line after it, not the blank line before.
    The equal run after keeps at least one element, so neighbours stay merged.
    """
    out = [list(op) for op in ops]
    k = 0
    while k < len(out):
        op = out[k]
        if op[0] in (INSERT, DELETE) and k + 1 < len(out) and out[k + 1][0] == EQUAL:
            following = out[k + 1]
            seq, lo, hi = (x, op[1], op[2]) if op[0] == DELETE else (y, op[3], op[4])
            limit = following[2] - following[1] - 1
            n = _common_prefix(seq[lo:lo + limit], seq[hi:hi + limit]) if limit > 0 else 0
            if n:
                if k and out[k - 1][0] == EQUAL:
                    out[k - 1][2] += n
                    out[k - 1][4] += n
                else:
                    out.insert(k, [EQUAL, op[1], op[1] + n, op[3], op[3] + n])
                    k += 1
                for index in range(1, 5):
                    op[index] += n
                following[1] += n
                following[3] += n
        k += 1
    return [tuple(op) for op in out]


def _merge(ops: list[Opcode]) -> list[Opcode]:
    """Neighbouring equal runs into one, neighbouring changes into one."""
    merged: list[list] = []
    for tag, i1, i2, j1, j2 in ops:
        changed = tag != EQUAL
        if merged and (merged[-1][0] != EQUAL) == changed:
            merged[-1][2], merged[-1][4] = i2, j2
        else:
            merged.append([REPLACE if changed else EQUAL, i1, i2, j1, j2])
    return [tuple(op) for op in merged]


# --------------------------------------------------------------------------- files


def read_prefix(path: str, limit: int) -> tuple[bytes, int]:
    """The first ``limit`` bytes of a regular file, and its size.

    Raises OSError with the path and reason; anything but a regular file is
    refused (opened without blocking, so a FIFO cannot hang the reader).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise _read_error(path, exc) from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"Cannot read {path}: not a regular file")
        chunks = []
        got = 0
        while got < limit:
            try:
                chunk = os.read(fd, min(limit - got, 1 << 20))
            except OSError as exc:
                raise _read_error(path, exc) from exc
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        data = b"".join(chunks)
        return data, max(st.st_size, len(data))
    finally:
        os.close(fd)


_TEXT_CONTROLS = frozenset(b"\t\n\r\f\b\x1b")


def text_encoding(head: bytes) -> str | None:
    """"utf-8" or "latin-1" if ``head`` (a file's first bytes) looks like text, else None.

    Binary: a NUL byte in the first :data:`SNIFF_BYTES`, or more than one byte
    in ten a control character (other than tab, line ends, form feed, escape).  UTF-8 allows a cut
    sequence at the end and one undecodable byte in a hundred (shown replaced).
    """
    head = head[:SNIFF_BYTES]
    if b"\0" in head:
        return None
    controls = sum(1 for x in head if (x < 0x20 and x not in _TEXT_CONTROLS) or x == 0x7F)
    if controls * 10 > len(head):
        return None
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    text = decoder.decode(head, final=False)
    bad = text.count("\ufffd") - head.count("\ufffd".encode())
    return "utf-8" if bad * 100 <= len(head) else "latin-1"


@dataclass(frozen=True, eq=False)
class Side:
    """What a preview read of one file."""

    path: str
    size: int  # the file's size
    read: int  # bytes read (at most the cap)
    encoding: str | None = None  # text only

    @property
    def cut(self) -> bool:
        return self.read < self.size


@dataclass(frozen=True, eq=False)
class TextComparison:
    """Two texts as rows side by side; ``left`` / ``right`` are line numbers (0-based, -1 blank)."""

    a: Side
    b: Side
    lines_a: list[str] = field(repr=False)
    lines_b: list[str] = field(repr=False)
    left: np.ndarray = field(repr=False)  # int64 (rows,)
    right: np.ndarray = field(repr=False)
    kind: np.ndarray = field(repr=False)  # uint8 (rows,): EQUAL_ROW ...
    endings_differ: bool = False  # the same lines, but one file ends them with CR LF

    @property
    def changed_rows(self) -> int:
        return int(np.count_nonzero(self.kind != EQUAL_ROW))


@dataclass(frozen=True, eq=False)
class HexComparison:
    """Two byte strings lined up cell by cell: -1 where one side has no byte (a gap)."""

    a: Side
    b: Side
    byte_a: np.ndarray = field(repr=False)  # int16 (cells,)
    byte_b: np.ndarray = field(repr=False)
    kind: np.ndarray = field(repr=False)  # uint8 (cells,): EQUAL_ROW ... per cell

    @property
    def changed_cells(self) -> int:
        return int(np.count_nonzero(self.kind != EQUAL_ROW))


EQUAL_ROW, CHANGED_ROW, DELETED_ROW, INSERTED_ROW = 0, 1, 2, 3


def _pairs(ops: list[Opcode]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Opcodes as rows (index in a or -1, index in b or -1, kind): replaced ranges pair up
    element by element, the longer one's rest facing gaps."""
    lefts, rights, kinds = [], [], []
    for tag, i1, i2, j1, j2 in ops:
        n, m = i2 - i1, j2 - j1
        both = min(n, m)
        if tag == EQUAL:
            lefts.append(np.arange(i1, i2))
            rights.append(np.arange(j1, j2))
            kinds.append(np.full(n, EQUAL_ROW, np.uint8))
            continue
        lefts.append(np.arange(i1, i1 + both))
        rights.append(np.arange(j1, j1 + both))
        kinds.append(np.full(both, CHANGED_ROW, np.uint8))
        if n > both:
            lefts.append(np.arange(i1 + both, i2))
            rights.append(np.full(n - both, -1))
            kinds.append(np.full(n - both, DELETED_ROW, np.uint8))
        if m > both:
            lefts.append(np.full(m - both, -1))
            rights.append(np.arange(j1 + both, j2))
            kinds.append(np.full(m - both, INSERTED_ROW, np.uint8))
    if not kinds:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.uint8)
    return (np.concatenate(lefts).astype(np.int64), np.concatenate(rights).astype(np.int64),
            np.concatenate(kinds))


def _lines(data: bytes, encoding: str, cut: bool) -> tuple[list[str], bool]:
    """Lines without their endings, and whether any ended with CR LF; a cut file loses
    its last, partial line."""
    if cut and b"\n" in data:
        data = data[:data.rindex(b"\n") + 1]
    text = data.decode(encoding, errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    crlf = any(line.endswith("\r") for line in lines)
    return [line[:-1] if line.endswith("\r") else line for line in lines], crlf


def compare_text(path_a: str, path_b: str, *, max_bytes: int = PREVIEW_BYTES,
                 progress: ProgressCallback | None = None) -> TextComparison | None:
    """Both files' first ``max_bytes`` as lines, lined up; None if either is not text."""
    data_a, size_a = read_prefix(path_a, max_bytes)
    data_b, size_b = read_prefix(path_b, max_bytes)
    enc_a, enc_b = text_encoding(data_a), text_encoding(data_b)
    if enc_a is None or enc_b is None:
        return None
    a = Side(path_a, size_a, len(data_a), enc_a)
    b = Side(path_b, size_b, len(data_b), enc_b)
    lines_a, crlf_a = _lines(data_a, enc_a, a.cut)
    lines_b, crlf_b = _lines(data_b, enc_b, b.cut)
    ids: dict[str, int] = {}
    seq_a = [ids.setdefault(line, len(ids)) for line in lines_a]
    seq_b = [ids.setdefault(line, len(ids)) for line in lines_b]
    ops = align(seq_a, seq_b, grams=(1,), progress=progress)
    left, right, kind = _pairs(ops)
    return TextComparison(a, b, lines_a, lines_b, left, right, kind, crlf_a != crlf_b)


_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def inline_changes(result: TextComparison, *, max_rows: int = 2000,
                   max_cells: int = 1 << 16) -> dict[int, tuple[list, list]]:
    """For changed rows: the character ranges [start, stop) of each line not in the other.

    Lines are compared word by word (a word, a run of spaces or one other
    character is one token), so "finds" against "looks for" marks those words,
    not the letters they happen to share; one token left equal between two
    changes goes with them.  Rows whose lines would take more than
    ``max_cells`` tokens squared, and rows after the first ``max_rows`` changed
    ones, are left out (their whole line is marked changed anyway).
    """
    out: dict[int, tuple[list, list]] = {}
    for row in np.flatnonzero(result.kind == CHANGED_ROW)[:max_rows].tolist():
        tokens = [_TOKEN.findall(result.lines_a[int(result.left[row])]),
                  _TOKEN.findall(result.lines_b[int(result.right[row])])]
        if len(tokens[0]) * len(tokens[1]) > max_cells:
            continue
        ids: dict[str, int] = {}
        seqs = [[ids.setdefault(t, len(ids)) for t in side] for side in tokens]
        starts = [np.concatenate([[0], np.cumsum([len(t) for t in side], dtype=np.int64)])
                  for side in tokens]
        ops = align(seqs[0], seqs[1], grams=(1,), exact_cells=max_cells, min_equal=2)
        changed = [op for op in ops if op[0] != EQUAL]
        out[row] = ([(int(starts[0][i1]), int(starts[0][i2]))
                     for _, i1, i2, _, _ in changed if i2 > i1],
                    [(int(starts[1][j1]), int(starts[1][j2]))
                     for _, _, _, j1, j2 in changed if j2 > j1])
    return out


def compare_hex(path_a: str, path_b: str, *, max_bytes: int = PREVIEW_BYTES,
                progress: ProgressCallback | None = None) -> HexComparison:
    """Both files' first ``max_bytes`` lined up byte by byte (see :func:`align`)."""
    data_a, size_a = read_prefix(path_a, max_bytes)
    data_b, size_b = read_prefix(path_b, max_bytes)
    ops = align(data_a, data_b, min_equal=4, progress=progress)
    return hex_cells(data_a, data_b, ops, Side(path_a, size_a, len(data_a)),
                     Side(path_b, size_b, len(data_b)))


def hex_cells(data_a: bytes, data_b: bytes, ops: list[Opcode], a: Side | None = None,
              b: Side | None = None) -> HexComparison:
    """The cells of a side-by-side hex view from opcodes over ``data_a`` and ``data_b``."""
    left, right, kind = _pairs(ops)
    xa = np.frombuffer(data_a, np.uint8).astype(np.int16)
    xb = np.frombuffer(data_b, np.uint8).astype(np.int16)
    byte_a = np.where(left >= 0, xa[np.maximum(left, 0)] if len(xa) else -1, -1).astype(np.int16)
    byte_b = np.where(right >= 0, xb[np.maximum(right, 0)] if len(xb) else -1, -1).astype(np.int16)
    a = a or Side("", len(data_a), len(data_a))
    b = b or Side("", len(data_b), len(data_b))
    return HexComparison(a, b, byte_a, byte_b, kind)


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels; safe to call off-thread."""
    align(b"abcdefgh" * 40, b"abcXefgh" * 40, exact_cells=64, grams=(8,))
