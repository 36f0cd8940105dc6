import os
import socket

import numpy as np
import pytest
import xxhash

from simgui.core.reading import scanner as scanner_module
from simgui.core.progress import Cancelled
from simgui.core.reading.scanner import ScanOptions, scan
from simgui.core.store import Store
from tests.reference import reference_sum_table


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "store.db") as s:
        yield s


def make_tree(root, files):
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def stored(store):
    files = store.files()
    return {os.path.basename(p): t for p, t in zip(files.paths, files.tables)}


def test_scan_stores_exact_sum_tables_and_hashes(tmp_path, store):
    rng = np.random.default_rng(0)
    contents = {"a.txt": b"the tee test " * 50, "sub/b.bin": rng.bytes(200_000),
                "sub/deeper/c": b"", "d": b"\x00\x00\x00"}
    root = make_tree(tmp_path / "tree", contents)
    rep = scan(store, [root], ScanOptions(workers=2))
    assert rep.status == "completed" and rep.files_read == 4 and rep.errors == 0
    files = store.files()
    assert len(files) == 4
    for path, table, digest in zip(files.paths, files.tables, files.hashes):
        data = contents[os.path.relpath(path, root)]
        assert table.tolist() == reference_sum_table(data)
        assert digest == xxhash.xxh3_128(data).digest()


def test_rescan_reads_only_changed_files_and_forgets_deleted_ones(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"aaaa", "b": b"bbbb", "c": b"cccc"})
    scan(store, [root])
    rep = scan(store, [root])
    assert (rep.files_read, rep.files_unchanged) == (0, 3)
    (root / "a").write_bytes(b"the new content")
    os.remove(root / "b")
    rep = scan(store, [root])
    assert (rep.files_read, rep.files_unchanged, rep.files_forgotten) == (1, 1, 1)
    assert set(stored(store)) == {"a", "c"}
    assert stored(store)["a"].tolist() == reference_sum_table(b"the new content")


def test_fifo_and_socket_are_skipped_never_opened(tmp_path, store):
    root = make_tree(tmp_path / "t", {"real": b"data"})
    os.mkfifo(root / "pipe")  # opening it for reading would block the scan forever
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "sock"))
    try:
        rep = scan(store, [root])
    finally:
        sock.close()
    assert set(stored(store)) == {"real"}
    reasons = {os.path.basename(p): m for p, kind, m in rep.issues if kind == "skipped"}
    assert reasons == {"pipe": "not a regular file (FIFO)", "sock": "not a regular file (socket)"}


def test_symlinks_are_not_followed_unless_asked_and_loops_end(tmp_path, store):
    outside = make_tree(tmp_path / "outside", {"o.txt": b"outside"})
    root = make_tree(tmp_path / "t", {"sub/f.txt": b"inside"})
    os.symlink(outside, root / "link-out")
    os.symlink(root, root / "sub" / "loop")  # a cycle back to the top
    os.symlink(root / "missing", root / "dangling")
    rep = scan(store, [root])
    assert set(stored(store)) == {"f.txt"}
    rep = scan(store, [root], ScanOptions(follow_symlinks=True))
    assert rep.status == "completed"
    assert set(stored(store)) == {"f.txt", "o.txt"}
    messages = " ".join(m for _, _, m in rep.issues)
    assert "loop" in messages and "vanished" not in messages
    os.symlink(root / "self", root / "self")  # a link to itself: skipped, like a dangling one
    rep = scan(store, [root], ScanOptions(follow_symlinks=True))
    assert ("skipped", "symbolic link loop") in {(k, m) for p, k, m in rep.issues
                                                 if p.endswith("self")}
    assert rep.errors == 0


def test_a_folder_met_first_through_a_link_is_stored_by_its_own_path(tmp_path, store):
    # lk/a_links/real-link -> ../real is listed before lk/real: the folder was stored by
    # the link's path, and its real folder skipped as a repeat; a clean-up then refused
    # to act through the link, and a scan without --follow-symlinks moved it back
    root = make_tree(tmp_path / "lk", {"real/x.bin": b"data" * 100,
                                        "other/x.bin": b"data" * 100})
    (root / "a_links").mkdir()
    os.symlink("../real", root / "a_links" / "real-link")
    rep = scan(store, [root], ScanOptions(follow_symlinks=True))
    paths = sorted(os.path.relpath(p, root) for p in store.files().paths)
    assert paths == ["other/x.bin", "real/x.bin"]
    assert any(p.endswith("real-link") and "already scanned" in m for p, _, m in rep.issues)
    scan(store, [root])  # not following: the same paths, nothing read again
    assert sorted(os.path.relpath(p, root) for p in store.files().paths) == paths
    # a link to a folder of another root scanned after it: that root's own path too
    second = make_tree(tmp_path / "zz", {"deep/y.bin": b"other data" * 50})
    os.symlink(second / "deep", root / "a_links" / "to-zz")
    scan(store, [root, second], ScanOptions(follow_symlinks=True))
    assert str(second / "deep" / "y.bin") in store.files().paths
    assert not any("to-zz" in p for p in store.files().paths)


def test_a_followed_link_to_a_file_is_skipped_and_its_file_scanned_where_it_lies(
        tmp_path, store):
    """--follow-symlinks follows links to folders; a link to a file is skipped with a
    reason, not an error (reading it refused the link, and failed the scan), and the file
    is scanned where it lies when its folder is; named as a root, it says what to scan."""
    from simgui.core.reading.scanner import LINKED_FILE

    outside = make_tree(tmp_path / "outside", {"o.txt": b"outside", "p.txt": b"named"})
    root = make_tree(tmp_path / "t", {"f.txt": b"inside"})
    os.symlink(outside / "o.txt", root / "link-to-o.txt")
    os.symlink(root / "f.txt", root / "a-link-to-f.txt")  # walked before f.txt
    os.symlink(outside / "p.txt", tmp_path / "link-to-p.txt")
    rep = scan(store, [root], ScanOptions(follow_symlinks=True))
    assert rep.errors == 0 and rep.status == "completed"
    assert {(os.path.basename(p), k, m) for p, k, m in rep.issues} == {
        ("link-to-o.txt", "skipped", LINKED_FILE), ("a-link-to-f.txt", "skipped", LINKED_FILE)}
    assert {os.fsdecode(p) for p in store.files().paths} == {str(root / "f.txt")}
    rep = scan(store, [tmp_path / "link-to-p.txt"], ScanOptions(follow_symlinks=True))
    (path, kind, message), = rep.issues
    assert kind == "error" and str(outside / "p.txt") in message
    assert "--follow-symlinks" not in message  # following would not read it either


def test_a_link_named_as_a_root_is_an_error_that_says_what_to_scan(tmp_path, store):
    real = make_tree(tmp_path / "real", {"f.txt": b"inside"})
    os.symlink(real, tmp_path / "link")
    rep = scan(store, [tmp_path / "link"])
    assert rep.errors == 1 and not stored(store)
    (path, kind, message), = rep.issues
    assert kind == "error" and str(real) in message and "--follow-symlinks" in message


def test_reading_a_link_says_link_or_loop(tmp_path):
    from simgui.core.reading.scanner import read_file

    make_tree(tmp_path, {"target.txt": b"data"})
    os.symlink(tmp_path / "target.txt", tmp_path / "link.txt")
    os.symlink(tmp_path / "self", tmp_path / "self")
    assert read_file(str(tmp_path / "link.txt")).error == "symbolic link (not followed)"
    assert read_file(str(tmp_path / "self")).error == "symbolic link loop"
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling")
    assert read_file(str(tmp_path / "dangling")).error == "symbolic link to a missing file"


def test_hard_links_are_one_file(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"same inode"})
    os.link(root / "a", root / "b")
    rep = scan(store, [root])
    assert rep.files_read == 1 and rep.hard_links == 1


@pytest.fixture
def python_reads(monkeypatch):
    """Every file read from Python (read_file), as where the compiled reads of small
    files are not available: the tests that patch Python's os.open and os.read see
    every open and read (tests/test_compiled_reads.py tests those reads)."""
    from simgui.core.reading import small_files

    monkeypatch.setattr(small_files, "_compiled", False)


def test_unreadable_file_is_recorded_and_scan_goes_on(tmp_path, store, monkeypatch,
                                                      python_reads):
    root = make_tree(tmp_path / "t", {"locked": b"secret", "open": b"fine"})
    real_open = os.open

    def deny(path, *args, **kwargs):  # tests run as root too, where chmod 000 is no barrier
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(scanner_module.os, "open", deny)
    rep = scan(store, [root])
    assert rep.status == "completed" and rep.files_read == 1
    assert [(os.path.basename(p), m) for p, k, m in rep.issues] == [("locked", "permission denied")]
    assert [(os.path.basename(p), e) for p, e in store.errors()] == [("locked", "permission denied")]
    monkeypatch.setattr(scanner_module.os, "open", real_open)
    rep = scan(store, [root])  # unreadable files are tried again
    assert rep.files_read == 1 and list(store.errors()) == []


def test_file_vanishing_after_the_walk_is_reported_not_stored(tmp_path, store, monkeypatch,
                                                               python_reads):
    root = make_tree(tmp_path / "t", {"ghost": b"boo", "stays": b"here"})
    real_open = os.open

    def vanish(path, *args, **kwargs):
        if os.fspath(path).endswith("ghost") and os.path.exists(path):
            os.remove(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(scanner_module.os, "open", vanish)
    rep = scan(store, [root])
    assert set(stored(store)) == {"stays"}
    assert [(os.path.basename(p), k) for p, k, _ in rep.issues] == [("ghost", "error")]


def test_file_changing_while_read_is_not_trusted(tmp_path, store, monkeypatch):
    # a large file, read a chunk at a time through the builders
    root = make_tree(tmp_path / "t", {"growing.log": b"x" * 100_000})
    from simgui.core.reading import sumtable as sumtable_module  # read_file's builder

    real_builder = sumtable_module.SumTableBuilder

    class AppendWhileReading(real_builder):
        def update(self, chunk):
            with open(root / "growing.log", "ab") as f:
                f.write(b"more")
            super().update(chunk)

    monkeypatch.setattr(sumtable_module, "SumTableBuilder", AppendWhileReading)
    rep = scan(store, [root])
    assert [m for _, _, m in rep.issues] == ["changed while being read"]
    assert stored(store) == {}
    monkeypatch.setattr(sumtable_module, "SumTableBuilder", real_builder)
    assert scan(store, [root]).files_read == 1  # read again next time


def test_small_file_changing_while_read_is_not_trusted(tmp_path, store, monkeypatch,
                                                       python_reads):
    # a small file, read whole at once (simgui.core.reading.small_files)
    root = make_tree(tmp_path / "t", {"growing.log": b"x" * 1000})
    real_read = os.read

    def append_while_reading(fd, n):
        data = real_read(fd, n)
        with open(root / "growing.log", "ab") as f:
            f.write(b"more")
        return data

    monkeypatch.setattr(os, "read", append_while_reading)
    rep = scan(store, [root], ScanOptions(workers=1))
    monkeypatch.setattr(os, "read", real_read)
    assert [m for _, _, m in rep.issues] == ["changed while being read"]
    assert stored(store) == {}
    assert scan(store, [root]).files_read == 1  # read again next time


def test_excludes_and_minimum_size(tmp_path, store):
    root = make_tree(tmp_path / "t", {"keep.txt": b"x" * 100, "tiny.txt": b"x",
                                      "skip.tmp": b"x" * 100, "cache/a.txt": b"x" * 100})
    scan(store, [root], ScanOptions(excludes=("*.tmp", "cache"), min_size=10))
    assert set(stored(store)) == {"keep.txt"}


def test_cancel_keeps_a_consistent_store_and_next_scan_resumes(tmp_path, store, monkeypatch):
    monkeypatch.setattr(scanner_module, "_SAVE_EVERY_FILES", 5)
    monkeypatch.setattr(scanner_module, "_BATCH_FILES", 1)
    root = make_tree(tmp_path / "t", {f"f{i:03d}": bytes([i]) * 1000 for i in range(60)})
    reports = []

    def cancel_after_some(progress):
        reports.append(progress)
        # (files sharing a size are read first, as "identical copies": issue 25)
        return not (progress.phase in ("reading", "identical copies")
                    and progress.files_done >= 10)

    monkeypatch.setattr(scanner_module, "_PROGRESS_EVERY_SECONDS", 0.0)
    with pytest.raises(Cancelled):
        scan(store, [root], ScanOptions(workers=2), progress=cancel_after_some)
    assert store.stats()["last_scan"]["status"] == "cancelled"
    saved = len(store.files())
    assert 10 <= saved < 60
    rep = scan(store, [root])
    assert rep.files_unchanged == saved and rep.files_read == 60 - saved
    assert len(store.files()) == 60


def test_crash_while_saving_leaves_earlier_batches_intact(tmp_path, store, monkeypatch):
    monkeypatch.setattr(scanner_module, "_SAVE_EVERY_FILES", 5)
    monkeypatch.setattr(scanner_module, "_BATCH_FILES", 1)
    root = make_tree(tmp_path / "t", {f"f{i:03d}": bytes([i]) * 100 for i in range(30)})
    real_save = Store.save_files
    calls = []

    def flaky_save(self, records, *args):
        calls.append(len(records))
        if len(calls) == 3:
            raise OSError("simulated crash")
        return real_save(self, records, *args)

    monkeypatch.setattr(Store, "save_files", flaky_save)
    with pytest.raises(OSError, match="simulated crash"):
        scan(store, [root], ScanOptions(workers=1))
    monkeypatch.setattr(Store, "save_files", real_save)
    assert store.stats()["last_scan"]["status"] == "failed"
    assert len(store.files()) == sum(calls[:2])
    rep = scan(store, [root])
    assert rep.files_read == 30 - sum(calls[:2]) and len(store.files()) == 30


def test_parallel_and_serial_scans_agree(tmp_path):
    rng = np.random.default_rng(3)
    root = make_tree(tmp_path / "t", {f"d{i % 4}/f{i}": rng.bytes(int(rng.integers(0, 300_000)))
                                      for i in range(40)})
    results = []
    for workers in (1, 2):
        with Store(tmp_path / f"s{workers}.db") as s:
            scan(s, [root], ScanOptions(workers=workers))
            f = s.files()
            results.append((f.paths, f.tables.tolist(), f.hashes))
    assert results[0] == results[1]


def test_undecodable_file_names_are_scanned(tmp_path, store):
    root = tmp_path / "t"
    root.mkdir()
    name = os.fsdecode(b"caf\xe9.txt")
    (root / name).write_bytes(b"latin-1 name")
    scan(store, [root])
    assert list(stored(store)) == [name]
