"""Identical copies first (issue 25, part 2): size, prefix hash, whole hash; the
identical-only scan, what it stores, and what a later full scan reuses."""

import hashlib
import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simgui.core.cleanup import Action, execute, plan_removal
from simgui.core.reading import identical as identical_module
from simgui.core.reading.identical import PREFIX_BYTES
from simgui.core.reading.scanner import scan
from simgui.core.search.identical import identical_groups
from simgui.core.store import Store


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "store.db") as s:
        yield s


def make_tree(root, files):
    for rel, data in files.items():
        path = os.path.join(os.fsencode(root), os.fsencode(rel) if isinstance(rel, str) else rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return root


def opened_names(monkeypatch):
    """The base names of the files the identical stage opens from now on (Python's
    reads, so that every open is seen)."""
    opened = []
    real_open = os.open

    def recording_open(path, *args, **kwargs):
        opened.append(os.path.basename(os.fsdecode(path)))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(identical_module.os, "open", recording_open)
    monkeypatch.setattr(identical_module, "USE_COMPILED", False)
    return opened


def found_sets(store, root) -> set[frozenset[str]]:
    """The identical groups of the store, as sets of paths relative to ``root``."""
    table = identical_groups(store.identical_files())
    return {frozenset(os.path.relpath(m.path, root) for m in g.files) for g in table.groups()}


def reference_sets(root) -> set[frozenset[str]]:
    """Slow and obviously correct: every file hashed whole (SHA-256), grouped."""
    by_content: dict[bytes, set[str]] = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                by_content.setdefault(hashlib.sha256(f.read()).digest(), set()).add(
                    os.path.relpath(path, root))
    return {frozenset(s) for s in by_content.values() if len(s) > 1}


def test_equal_sizes_with_different_contents_are_not_grouped(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"abcd" * 10, "b": b"abce" * 10, "c": b"abcd" * 10})
    rep = scan(store, [root], identical_only=True)
    assert found_sets(store, root) == {frozenset({"a", "c"})}
    assert rep.identical.sets and len(rep.identical.sets) == 1


def test_a_shared_prefix_with_a_different_tail_is_not_grouped(tmp_path, store):
    head = bytes(range(256)) * (PREFIX_BYTES // 256)
    root = make_tree(tmp_path / "t", {"a": head + b"tail-1", "b": head + b"tail-2",
                                      "c": head + b"tail-1", "d": b"z" * (PREFIX_BYTES + 6)})
    rep = scan(store, [root], identical_only=True)
    assert found_sets(store, root) == {frozenset({"a", "c"})}
    # d shares the size but not the first 4 KiB: read no further than its prefix
    assert rep.files_read == 3 and rep.identical.files_hashed == 3


def test_files_of_zero_to_three_bytes(tmp_path, store):
    files = {"e1": b"", "e2": b"", "one": b"x", "one2": b"x", "oneb": b"y", "two": b"ab",
             "two2": b"ab", "twob": b"ba", "three": b"abc", "three2": b"abc", "threeb": b"abd",
             "lonely": b"abcd"}
    root = make_tree(tmp_path / "t", files)
    scan(store, [root], identical_only=True)
    assert found_sets(store, root) == reference_sets(root) == {
        frozenset({"e1", "e2"}), frozenset({"one", "one2"}), frozenset({"two", "two2"}),
        frozenset({"three", "three2"})}


def test_names_that_are_not_utf8(tmp_path, store):
    bad = b"caf\xe9-\xff.bin"
    root = make_tree(tmp_path / "t", {bad: b"same content", b"ok.bin": b"same content"})
    scan(store, [root], identical_only=True)
    (group,) = identical_groups(store.identical_files()).groups()
    paths = {os.fsencode(m.path) for m in group.files}
    assert paths == {os.path.join(os.fsencode(root), bad), os.path.join(os.fsencode(root),
                                                                         b"ok.bin")}


def changed_after_the_walk(monkeypatch, name: str, data: bytes, *, same_mtime: bool):
    """Rewrite file ``name`` once the walk is done, right before the identical stage
    reads anything (with its old mtime back if ``same_mtime``)."""
    real = identical_module.find_identical

    def changing(files, *args, **kwargs):
        for found in files:
            if os.path.basename(found.path) == name:
                with open(found.path, "r+b") as f:
                    f.write(data)
                later = found.mtime_ns if same_mtime else found.mtime_ns + 10**9
                os.utime(found.path, ns=(later, later))
        return real(files, *args, **kwargs)

    monkeypatch.setattr(identical_module, "find_identical", changing)


READS = ("compiled", "Python", "processes")


def use_reads(monkeypatch, way: str) -> None:
    """The stage reads compiled, from Python (where numba is not loaded and there are few
    files), or from Python in three processes (where there are many, on two or three
    cores: forced here, in a process that has Qt loaded, which a scan never forks)."""
    from simgui.core.reading import forked

    monkeypatch.setattr(identical_module, "USE_COMPILED", way == "compiled")
    monkeypatch.setattr(identical_module, "USE_PROCESSES", way == "processes")
    if way == "processes" and sys.platform.startswith("linux"):
        monkeypatch.setattr(forked, "can_fork", lambda: True)
        monkeypatch.setattr(identical_module, "usable_cores", lambda: 3)


@pytest.fixture(params=READS, ids=[f"{way} reads" for way in READS])
def reads(request, monkeypatch):
    """The stage's reads each way (use_reads)."""
    use_reads(monkeypatch, request.param)
    return request.param


@pytest.mark.parametrize("size", [100, PREFIX_BYTES + 100, 300_000])
def test_a_file_changed_between_the_walk_and_its_hash_is_not_called_identical(
        tmp_path, store, monkeypatch, size, reads):
    root = make_tree(tmp_path / "t", {"a": b"1" * size, "b": b"1" * size, "c": b"1" * size})
    changed_after_the_walk(monkeypatch, "b", b"2" * size, same_mtime=False)
    rep = scan(store, [root], identical_only=True)
    assert found_sets(store, root) == {frozenset({"a", "c"})}
    assert any(path.endswith("b") and "changed" in message for path, _, message in rep.issues)


@pytest.mark.parametrize("size", [100, PREFIX_BYTES + 100, 300_000])
def test_a_file_rewritten_in_place_between_the_walk_and_its_hash(tmp_path, store,
                                                                  monkeypatch, size, reads):
    """Same size and mtime as the walk saw: the hash is of what is there now."""
    root = make_tree(tmp_path / "t", {"a": b"1" * size, "b": b"1" * size})
    changed_after_the_walk(monkeypatch, "b", b"2", same_mtime=True)
    scan(store, [root], identical_only=True)
    assert found_sets(store, root) == set()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.one_of(st.none(), st.sampled_from(
    [b"a" * 16, b"b" * 16, b"c" * 16]))), max_size=40))
def test_identical_sets_are_files_of_one_size_and_hash_in_order_of_their_first(files):
    """Against the obvious: a set per (size, hash) shared by two files or more; a hash
    shared across sizes (a collision) splits by size."""
    sizes = [size for size, _ in files]
    hashes = [digest for _, digest in files]
    expected: dict[tuple[int, bytes], list[int]] = {}
    for i, (size, digest) in enumerate(files):
        if digest is not None:
            expected.setdefault((size, digest), []).append(i)
    assert identical_module.identical_sets(sizes, hashes) == sorted(
        (s for s in expected.values() if len(s) > 1), key=lambda s: s[0])


def replaced_after_the_walk(monkeypatch, root):
    """Once the walk is done, put a folder, a FIFO and a link (to a copy) in the place of
    files "folder", "fifo" and "link", and remove "gone"."""
    real = identical_module.find_identical

    def replacing(files, *args, **kwargs):
        for name in ("folder", "fifo", "link", "gone"):
            os.remove(root / name)
        os.mkdir(root / "folder")
        os.mkfifo(root / "fifo")  # opening it must not hang, reading it must not block
        os.symlink(root / "a", root / "link")
        return real(files, *args, **kwargs)

    monkeypatch.setattr(identical_module, "find_identical", replacing)


@pytest.mark.parametrize("size", [100, PREFIX_BYTES + 100])
def test_a_file_replaced_after_the_walk_is_in_no_set_and_said_the_same_either_way(
        tmp_path, monkeypatch, size):
    """Whatever stands in a file's place once the walk is done, it is in no set, and the
    scan says so the same way whichever reads it (compiled, from Python, in processes)."""
    answers = []
    for way in READS:
        use_reads(monkeypatch, way)
        root = tmp_path / way
        names = ("a", "b", "folder", "fifo", "link", "gone")
        make_tree(root, {name: b"1" * size for name in names})
        replaced_after_the_walk(monkeypatch, root)
        with Store(tmp_path / f"{way}.db") as s:
            rep = scan(s, [root], identical_only=True)
            sets = found_sets(s, root)
        monkeypatch.undo()
        answers.append((sets, sorted((os.path.basename(path), kind, message)
                                     for path, kind, message in rep.issues)))
    (sets, issues), *others = answers
    assert others == [(sets, issues)] * 2
    assert sets == {frozenset({"a", "b"})}
    said = {name: message for name, _, message in issues}
    assert set(said) == {"folder", "fifo", "link", "gone"}
    assert "changed" in said["folder"] and "changed" in said["fifo"]


def test_remove_compares_the_bytes_again_after_the_identical_stage(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"1" * 100, "b": b"1" * 100})
    scan(store, [root], identical_only=True)
    groups = identical_groups(store.identical_files()).groups()
    with open(root / "b", "r+b") as f:  # changed after the scan: same size, same mtime
        st_ = os.fstat(f.fileno())
        f.write(b"2")
    os.utime(root / "b", ns=(st_.st_atime_ns, st_.st_mtime_ns))
    plan = plan_removal(groups, action=Action.DELETE, keep="oldest", identical_only=True,
                        roots=[str(root)])
    assert len(plan.operations) == 1
    result = execute(plan, store)
    assert not result.done and (root / "a").exists() and (root / "b").exists()


def test_what_the_identical_only_scan_stores(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"x" * 10, "b": b"x" * 10, "u": b"unique!"})
    rep = scan(store, [root], identical_only=True)
    assert rep.files_found == 3 and rep.files_read == 2
    assert len(store.files()) == 0  # no sum tables: the similar search ignores them
    known = store.known_files([os.fsencode(str(root))])
    assert len(known) == 3 and not any(k.ok for k in known.values())  # a full scan reads them
    hashes = {os.path.basename(p): row[5] for p, row in
              store.known_hashes([os.fsencode(str(root))]).items()}
    assert hashes[b"u"] is None and hashes[b"a"] == hashes[b"b"] is not None
    # the same hash a full read stores
    from simgui.core.reading.scanner import read_file
    assert hashes[b"a"] == read_file(str(root / "a")).content_hash


def test_a_later_full_scan_reuses_the_hashes_and_reads_every_file(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"x" * 5000, "b": b"x" * 5000, "c": b"y" * 10,
                                      "d": b"y" * 10, "u": b"unique"})
    scan(store, [root], identical_only=True)
    seen = []
    rep = scan(store, [root], on_identical=seen.append)
    (found,) = seen
    assert found.files_hashed == 0 and found.files_reused == 4  # nothing read for it again
    assert {frozenset(map(os.path.basename, s)) for s in found.sets} == {
        frozenset("ab"), frozenset("cd")}
    assert rep.files_read == 5 and len(store.files()) == 5  # the full read reads them all
    # and an identical-only scan after it keeps the full rows
    rep = scan(store, [root], identical_only=True)
    assert rep.files_read == 0 and rep.files_unchanged == 5 and len(store.files()) == 5


def test_a_full_scan_knows_the_identical_copies_before_it_reads_the_rest(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"x" * 20, "b": b"x" * 20, "c": b"q" * 20,
                                      "big": os.urandom(300_000), "u": b"unique"})
    stages = []

    def hook(found):
        # saved by now; the files of no shared size are not read yet
        stages.append(("hook", {os.path.basename(p) for p in store.identical_files().paths},
                       {os.path.basename(p) for p in store.files().paths}))

    def progress(p):
        if not stages or stages[-1] != p.phase:
            stages.append(p.phase)

    scan(store, [root], on_identical=hook, progress=progress)
    hook_at = next(i for i, s in enumerate(stages) if isinstance(s, tuple))
    assert "identical copies" in stages[:hook_at] and "reading" in stages[hook_at:]
    _, copies, read = stages[hook_at]
    assert copies == {"a", "b"} and read == {"a", "b", "c"}
    assert {os.path.basename(p) for p in store.files().paths} == {"a", "b", "c", "big", "u"}


_CONTENTS = st.sampled_from([b"", b"a", b"b", b"ab", b"ba", b"abc",
                             b"p" * PREFIX_BYTES, b"p" * PREFIX_BYTES + b"1",
                             b"p" * PREFIX_BYTES + b"2", b"q" * (PREFIX_BYTES + 1),
                             b"p" * (PREFIX_BYTES - 1) + b"x1"])


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture],
          deadline=None)
@given(st.lists(_CONTENTS, min_size=1, max_size=12), st.data())
def test_groups_match_hashing_every_file_whole(tmp_path_factory, contents, data):
    root = tmp_path_factory.mktemp("tree")
    files = {f"d{i % 3}/f{i}": c for i, c in enumerate(contents)}
    make_tree(root, files)
    with Store(tmp_path_factory.mktemp("store") / "s.db") as store:
        seen = []
        if data.draw(st.booleans(), label="identical only"):
            scan(store, [root], identical_only=True, on_identical=seen.append)
        else:
            scan(store, [root], on_identical=seen.append)
        expected = reference_sets(root)
        assert found_sets(store, root) == expected
        assert {frozenset(os.path.relpath(p, root) for p in s) for s in seen[0].sets} == expected


# -- the command line ----------------------------------------------------------------


def run(capsys, *argv):
    from simgui.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_tree(root):
    return make_tree(root, {"keep/a.bin": b"A" * 9000, "dup/a.bin": b"A" * 9000,
                            "dup/a2.bin": b"A" * 9000, "keep/b.txt": b"tiny",
                            "dup/b.txt": b"tiny", "dup/c.txt": b"tine",
                            b"dup/caf\xe9.txt": b"tiny", "alone.bin": b"x" * 123})


def test_cli_scan_groups_and_remove_identical_only(tmp_path, capsys):
    import json

    root = cli_tree(tmp_path / "t")
    db = str(tmp_path / "s.db")
    code, out, err = run(capsys, "scan", "--identical-only", "--db", db, str(root))
    assert code == 0 and "identical" in err, err
    code, out, err = run(capsys, "groups", "--identical-only", "--db", db, "--format", "json")
    assert code == 0, err
    groups = json.loads(out)
    as_sets = {frozenset(os.path.relpath(os.fsencode(
        f["path"]) if "path_base64" not in f else __import__("base64").b64decode(
        f["path_base64"]), os.fsencode(str(root))) for f in g["files"]) for g in groups}
    assert as_sets == {frozenset({b"keep/a.bin", b"dup/a.bin", b"dup/a2.bin"}),
                       frozenset({b"keep/b.txt", b"dup/b.txt", b"dup/caf\xe9.txt"})}
    # the plain similar search sees none of these files yet: no sum tables
    code, out, err = run(capsys, "groups", "--db", db, "--format", "json", "--no-check")
    assert code == 0 and json.loads(out) == []
    code, out, err = run(capsys, "remove", "--identical-only", "--db", db, "--reference",
                         str(root / "keep"), "--delete", "--yes")
    assert code == 0, err
    left = sorted(os.path.relpath(os.path.join(folder, name), root)
                  for folder, _, names in os.walk(root) for name in names)
    assert left == ["alone.bin", "dup/c.txt", "keep/a.bin", "keep/b.txt"]
    code, out, err = run(capsys, "groups", "--identical-only", "--db", db, "--format", "json")
    assert json.loads(out) == []


def test_cli_identical_only_on_a_full_store(tmp_path, capsys):
    import json

    root = cli_tree(tmp_path / "t")
    os.remove(os.path.join(os.fsencode(str(root)), b"dup/caf\xe9.txt"))  # (printed as bytes)
    db = str(tmp_path / "s.db")
    assert run(capsys, "scan", "--db", db, str(root))[0] == 0
    code, out, err = run(capsys, "groups", "--identical-only", "--db", db, "--format", "json")
    assert code == 0 and sorted(len(g["files"]) for g in json.loads(out)) == [2, 3]
    code, out, err = run(capsys, "remove", "--identical-only", "--db", db, "--dry-run")
    assert code == 0 and "Send 3 files" in out, out


def test_a_cancelled_identical_scan_keeps_the_hashes_it_read(tmp_path, store, reads):
    from simgui.core.progress import Cancelled

    root = make_tree(tmp_path / "t", {f"f{i:03}": b"same" for i in range(300)})

    def cancel_once_hashing(p):
        return not (p.phase == "identical copies" and p.files_done > 0)

    with pytest.raises(Cancelled):
        scan(store, [root], identical_only=True, progress=cancel_once_hashing)
    with pytest.raises(ChildProcessError):  # no process forked for the reads is left
        os.waitpid(-1, os.WNOHANG)
    hashed = [row for row in store.known_hashes([os.fsencode(str(root))]).values() if row[5]]
    assert 0 < len(hashed) < 300
    rep = scan(store, [root], identical_only=True)
    assert rep.identical.files_reused == len(hashed)
    assert rep.identical.files_hashed == 300 - len(hashed)
    assert found_sets(store, root) == reference_sets(root)


def test_the_garbage_collector_is_back_on_after_a_scan_and_a_cancelled_one(tmp_path, store):
    import gc

    from simgui.core.progress import Cancelled

    root = make_tree(tmp_path / "t", {"a": b"1", "b": b"1"})
    assert gc.isenabled()
    scan(store, [root], identical_only=True)
    assert gc.isenabled()
    with pytest.raises(Cancelled):
        scan(store, [root], progress=lambda p: p.phase != "identical copies")
    assert gc.isenabled()


def test_a_file_of_a_size_no_other_file_has_is_never_opened(tmp_path, store, monkeypatch):
    root = make_tree(tmp_path / "t", {"a": b"1" * 10, "b": b"1" * 10, "u": b"unique size",
                                      "big": b"z" * 100_000})
    opened = opened_names(monkeypatch)
    scan(store, [root], identical_only=True)
    monkeypatch.undo()
    assert sorted(set(opened) & {"a", "b", "u", "big"}) == ["a", "b"]


def test_the_compiled_reads_read_only_files_that_share_a_size(tmp_path, store, monkeypatch):
    root = make_tree(tmp_path / "t", {"a": b"1" * 10, "b": b"1" * 10, "u": b"unique size",
                                      "p1": b"p" * 9000, "p2": b"p" * 9000, "v": b"v" * 8000})
    asked = []
    real_heads = identical_module._heads

    def recording_heads(files, which, whole, workers):
        asked.extend((os.path.basename(files[i].path), whole) for i in which)
        return real_heads(files, which, whole, workers)

    monkeypatch.setattr(identical_module, "_heads", recording_heads)
    monkeypatch.setattr(identical_module, "USE_COMPILED", True)
    scan(store, [root], identical_only=True)
    # small ones whole, larger ones their first 4 KiB (then whole from Python)
    assert sorted(asked) == [("a", True), ("b", True), ("p1", False), ("p2", False)]
    assert found_sets(store, root) == {frozenset({"a", "b"}), frozenset({"p1", "p2"})}


@pytest.mark.parametrize("way", READS)
def test_the_stage_finds_the_same_each_way(tmp_path, monkeypatch, way):
    rng = np.random.default_rng(5)
    contents = {}
    for i in range(120):
        size = int(rng.choice([0, 1, 3, 100, PREFIX_BYTES, PREFIX_BYTES + 1, 20_000]))
        base = bytes([i % 3]) * size  # three contents a size: copies
        if i % 4 == 0 and size:
            base = base[:-1] + b"x"  # same size and prefix, another tail
        contents[f"d{i % 5}/f{i}"] = base
    root = make_tree(tmp_path / "t", contents)
    use_reads(monkeypatch, way)
    from simgui.core.reading import forked

    forks = []
    real_fork = forked._fork
    monkeypatch.setattr(forked, "_fork", lambda *a: forks.append(1) or real_fork(*a))
    with Store(tmp_path / f"{way}.db") as s:
        scan(s, [root], identical_only=True)
        got = found_sets(s, root)
    assert got == reference_sets(root)
    # two children for the small files, two for the prefixes
    assert len(forks) == (4 if way == "processes" and sys.platform.startswith("linux") else 0)


_LOADS_NUMBA = """
import sys
from simgui.core.reading import identical, scanner
identical.COMPILED_FROM = 4
identical.usable_cores = lambda: int(sys.argv[3])  # a machine with that many cores
walker = scanner._Walker(scanner.ScanOptions(), lambda *issue: None)
files = list(walker.walk(sys.argv[1]))
found = identical.find_identical(files, [None] * len(files), workers=int(sys.argv[2]))
print(len(found.sets), "numba" in sys.modules)
"""


@pytest.mark.parametrize("threads, cores, loads",
                         [(1, 16, False), (2, 16, False), (4, 16, True), (4, 2, False)])
def test_numba_is_loaded_for_the_identical_stage_only_where_it_pays(tmp_path, threads, cores,
                                                                    loads):
    """In a process without numba, the stage loads it for the compiled reads only with
    enough files and enough threads on as many cores: on two, Python's loop reads as
    fast, and the command took 0.24 s longer on average loading numba for nothing
    (identical.py)."""
    import subprocess
    import sys

    root = make_tree(tmp_path / "t", {f"f{i}": bytes([i % 2]) * 50 for i in range(8)})
    done = subprocess.run([sys.executable, "-c", _LOADS_NUMBA, str(root), str(threads),
                           str(cores)],
                          capture_output=True, text=True, timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", str(loads)]


_LOADS_NUMPY = """
import sys
from simgui.cli import main
code = main(["scan", "--identical-only", "--db", sys.argv[2], sys.argv[1]])
print(code, "numpy" in sys.modules, "numba" in sys.modules)
"""


def test_scan_identical_only_loads_neither_numpy_nor_numba(tmp_path):
    """The command of the identical stage alone starts with neither (numpy alone took
    50 ms of its start): what it reads, it hashes from Python."""
    import subprocess

    root = make_tree(tmp_path / "t", {f"f{i}": bytes([i % 2]) * 50 for i in range(8)})
    done = subprocess.run([sys.executable, "-c", _LOADS_NUMPY, str(root),
                           str(tmp_path / "s.db")], capture_output=True, text=True,
                          timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["0", "False", "False"]


def test_the_compiled_reads_are_chosen_where_they_pay():
    pays = identical_module._compiled_pays
    many, few = identical_module.COMPILED_FROM, identical_module.COMPILED_FROM - 1
    enough = identical_module.COMPILED_THREADS_FROM
    assert pays(few, 1, True) and pays(many, 2, True)  # numba loaded: always
    assert pays(many, enough, False) and pays(many, 16, False)
    assert not pays(few, 16, False) and not pays(many, enough - 1, False)


# -- prefix hashes kept for the next identical-only scan ------------------------------


def test_a_second_identical_scan_reads_no_prefix_again(tmp_path, store, monkeypatch):
    """Files that share a size but not their first 4 KiB are told apart by their
    prefixes once: the store keeps them, and the next scan of the files unchanged reads
    nothing of them (it read 92 MB of /usr again before)."""
    root = make_tree(tmp_path / "t", {"p1": b"a" * 9000, "p2": b"b" * 9000,
                                      b"p\xe9": b"c" * 9000, "c1": b"d" * 9000,
                                      "c2": b"d" * 9000})
    first = scan(store, [root], identical_only=True)
    assert first.bytes_read > 0
    opened = opened_names(monkeypatch)
    again = scan(store, [root], identical_only=True)
    assert opened == [] and again.bytes_read == 0 and again.files_read == 0
    assert found_sets(store, root) == reference_sets(root) == {frozenset({"c1", "c2"})}


def test_a_stored_prefix_is_not_trusted_once_its_file_changed(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"a" * 9000, "b": b"b" * 9000})
    scan(store, [root], identical_only=True)
    assert found_sets(store, root) == set()
    (root / "b").write_bytes(b"a" * 9000)  # same size, the other's prefix now
    os.utime(root / "b", ns=(1, 1))
    scan(store, [root], identical_only=True)
    assert found_sets(store, root) == {frozenset({"a", "b"})}


def test_a_new_file_is_compared_with_the_stored_prefixes(tmp_path, store, monkeypatch):
    root = make_tree(tmp_path / "t", {"a": b"a" * 9000, "b": b"b" * 9000})
    scan(store, [root], identical_only=True)
    (root / "n").write_bytes(b"b" * 9000)
    opened = opened_names(monkeypatch)
    scan(store, [root], identical_only=True)
    # the new file's prefix, then it and b whole; a's prefix is known
    assert "a" not in opened and sorted(set(opened)) == ["b", "n"]
    assert found_sets(store, root) == {frozenset({"b", "n"})}


def test_a_full_scan_keeps_no_prefix_of_a_file_it_reads_again(tmp_path, store):
    root = make_tree(tmp_path / "t", {"a": b"a" * 9000, "b": b"b" * 9000})
    scan(store, [root], identical_only=True)
    prefixes = lambda: {os.path.basename(p): row[6] for p, row in  # noqa: E731
                        store.known_hashes([os.fsencode(str(root))]).items()}
    assert None not in prefixes().values()
    (root / "b").write_bytes(b"c" * 9000)
    os.utime(root / "b", ns=(1, 1))
    scan(store, [root])
    assert prefixes()[b"b"] is None  # rewritten: its old prefix is gone
