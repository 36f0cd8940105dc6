"""The compiled reads of small files (small_files.read_small_files, system_calls): the
same records as read_file, file for file, and the same answers when a file changes
between the walk and the read (issue 25: small files read without Python's lock)."""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.reading import scanner, small_files
from simgui.core.reading.scanner import ScanOptions, read_file, scan
from simgui.core.reading.small_files import SMALL, compiled_reads, read_small_files
from simgui.core.store import Store
from simgui.core.tags import DEFAULT_TAGS

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the compiled reads are for Linux")


def test_they_work_here():
    # on Linux with a C library that has statx they must: a silent fall back to the
    # slow reads would show only as a slower scan
    assert compiled_reads()


def found_of(path: bytes):
    st_ = os.stat(path)
    return scanner._found((os.fsdecode(path), st_.st_size, st_.st_mtime_ns, st_.st_dev,
                           st_.st_ino))


def assert_same_record(fast, slow):
    assert fast is not None and fast.error is None and slow.error is None
    assert fast.path == slow.path and fast.extension == slow.extension
    assert (fast.size, fast.mtime_ns, fast.device, fast.inode) == \
        (slow.size, slow.mtime_ns, slow.device, slow.inode)
    assert np.array_equal(fast.sum_table, slow.sum_table)
    assert fast.content_hash == slow.content_hash
    assert fast.simhash == slow.simhash and np.array_equal(fast.minhash, slow.minhash)


def check_batch(folder: bytes, contents: dict[bytes, bytes]) -> None:
    paths = []
    for name, data in contents.items():
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        paths.append(path)
    batch = [found_of(p) for p in paths]
    for found, record in zip(batch, scanner._read_small(batch, DEFAULT_TAGS)):
        assert_same_record(record, read_file(found.path))


# runs of 0x00 and 0xFF (the tags the sum table treats apart), text, random bytes
pieces = st.one_of(st.binary(max_size=64), st.sampled_from([b"\x00", b"\xff", b"e", b"t"])
                   .flatmap(lambda b: st.integers(1, 300).map(lambda n: b * n)),
                   st.text(max_size=80).map(lambda t: t.encode()))
# names of any bytes but '/' and NUL: not UTF-8 too
names = st.binary(min_size=1, max_size=12).map(
    lambda b: b.replace(b"/", b"_").replace(b"\0", b"_")).filter(lambda b: b not in (b".", b".."))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(names, st.lists(pieces, max_size=30).map(b"".join), min_size=1,
                       max_size=12))
def test_a_batch_gives_what_read_file_gives(contents):
    with tempfile.TemporaryDirectory() as folder:
        check_batch(os.fsencode(folder), contents)


def test_sizes_at_the_edges():
    # shorter than a shingle (16) or a word block (24), at the 8-byte and 4 KiB
    # boundaries, and the largest small file; random bytes and runs of 0x00 and 0xFF
    rng = np.random.default_rng(7)
    contents = {}
    for n in (0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 4095, 4096, 4097, SMALL - 1, SMALL):
        for kind, data in (("r", rng.integers(0, 256, n, dtype=np.uint8).tobytes()),
                           ("z", b"\x00" * n), ("f", b"\xff" * n)):
            contents[f"{kind}{n}.bin".encode()] = data
    with tempfile.TemporaryDirectory() as folder:
        check_batch(os.fsencode(folder), contents)


def test_larger_files_are_refused():
    with pytest.raises(ValueError):
        read_small_files([b"/nonexistent"], [SMALL + 1])


def test_a_file_not_as_the_walk_saw_it_is_left_to_read_file(tmp_path):
    real = tmp_path / "real"
    real.write_bytes(b"content")
    paths = {}
    for name in ("grown", "gone", "link", "fifo", "folder"):
        paths[name] = tmp_path / name
        paths[name].write_bytes(b"x" * 100)
    paths["fine"] = tmp_path / "fine"
    paths["fine"].write_bytes(b"y" * 100)
    batch = [found_of(os.fsencode(p)) for p in paths.values()]
    with open(paths["grown"], "ab") as f:
        f.write(b"more")
    os.remove(paths["gone"])
    os.remove(paths["link"])
    os.symlink(real, paths["link"])
    os.remove(paths["fifo"])
    os.mkfifo(paths["fifo"])  # opening it must not hang
    os.remove(paths["folder"])
    os.mkdir(paths["folder"])
    records = dict(zip(paths, scanner._read_small(batch, DEFAULT_TAGS)))
    assert [name for name, r in records.items() if r is not None] == ["fine"]
    assert_same_record(records["fine"], read_file(str(paths["fine"])))


MUTATIONS = ("grown", "gone", "link", "fifo", "folder")


def scan_with_changes_after_the_walk(root, db):
    """Scan ``root``, changing its files as the reading starts (after the walk)."""
    changed = []

    def progress(p):
        if p.phase != "walking" and not changed:
            changed.append(True)
            with open(root / "grown", "ab") as f:
                f.write(b"grown since the walk")
            os.remove(root / "gone")
            os.remove(root / "link")
            os.symlink(root / "fine", root / "link")
            os.remove(root / "fifo")
            os.mkfifo(root / "fifo")
            os.remove(root / "folder")
            os.mkdir(root / "folder")
        return True

    with Store(db) as store:
        rep = scan(store, [root], ScanOptions(workers=2), progress=progress)
        files = store.files()
        errors = sorted((os.path.basename(p), e) for p, e in store.errors())
    assert changed
    issues = sorted((os.path.basename(p), kind, message) for p, kind, message in rep.issues)
    rows = {os.path.basename(p): (size, h) for p, size, h in
            zip(files.paths, files.sizes.tolist(), files.hashes)}
    return issues, errors, rows


def test_changes_after_the_walk_give_what_the_python_reads_give(tmp_path, monkeypatch):
    answers = []
    for compiled in (True, False):
        monkeypatch.setattr(small_files, "_compiled", None if compiled else False)
        root = tmp_path / f"tree{compiled}"
        root.mkdir()
        for i, name in enumerate(MUTATIONS + ("fine",)):
            (root / name).write_bytes(bytes([65 + i]) * (100 + i))  # no two of a size
        answers.append(scan_with_changes_after_the_walk(root, tmp_path / f"{compiled}.db"))
    fast, slow = answers
    issues, errors, rows = fast
    assert fast == slow
    # the grown file is stored as it is now, the others said why they were not read
    assert rows["grown"][0] == 100 + len(b"grown since the walk")
    assert set(rows) == {"grown", "fine"}
    assert {name for name, kind, _ in issues} == {"gone", "link", "fifo", "folder"}


def test_a_scan_stores_the_same_either_way(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    root = tmp_path / "tree"
    for i in range(150):
        folder = root / f"d{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        n = int(rng.integers(0, 9000)) if i % 10 else SMALL + i  # some files not small
        data = (rng.integers(0, 256, n, dtype=np.uint8).tobytes() if i % 3
                else (b"line %d\n" % i) * (n // 8))
        (folder / f"f{i}.{['txt', 'bin', 'py'][i % 3]}").write_bytes(data)
    (root / "copy.txt").write_bytes((root / "d1" / "f1.bin").read_bytes())  # a copy
    columns = []
    slow_reads = []
    real_read_file = scanner.read_file

    def read_file_counted(path, *args, **kwargs):
        slow_reads.append(os.path.basename(path))
        return real_read_file(path, *args, **kwargs)

    monkeypatch.setattr(scanner, "read_file", read_file_counted)
    for compiled in (None, False):
        monkeypatch.setattr(small_files, "_compiled", compiled)
        with Store(tmp_path / f"{compiled}.db") as store:
            rep = scan(store, [root], ScanOptions(workers=2))
            assert rep.errors == 0 and rep.files_read == 151
            files = store.files()
        columns.append(files)
        if compiled is None:  # the compiled reads did the small files, Python the others
            # (f0 is SMALL bytes exactly: small)
            assert sorted(slow_reads) == sorted(f"f{i}.{['txt', 'bin', 'py'][i % 3]}"
                                                for i in range(10, 150, 10))
    assert len(slow_reads) == 14 + 151
    fast, slow = columns
    assert fast.paths == slow.paths and fast.hashes == slow.hashes
    for name in ("sizes", "mtimes_ns", "devices", "inodes", "tables", "simhashes", "signatures"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


def test_a_file_that_reads_otherwise_than_it_says_is_not_vouched_for():
    """/proc/self/status: a regular file of size 0 that gives bytes when read, as a file
    that grew while it was read would: neither compiled read vouches for it."""
    from simgui.core.reading import identical

    path = "/proc/self/status"
    if not os.path.exists(path) or os.stat(path).st_size != 0:
        pytest.skip("no /proc")
    reads = read_small_files([os.fsencode(path)], [0])
    assert not reads.done[0]
    assert list(identical._heads([found_of(os.fsencode(path))], [0], True, 1)) == [(0, None)]
