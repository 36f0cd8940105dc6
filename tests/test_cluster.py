"""simgui cluster scan|pairs|groups and simgui import, on a local Dask cluster.

The cluster's answers must be the local commands' answers on the same files, row for
row: the tree below has copies (some under other extensions), edits of every size,
files around the smallest similar size, empty files and a name that is not UTF-8.
The cluster runs in this process (LocalCluster(processes=False), two workers of one
thread: starting worker processes costs seconds per test on a loaded machine), except
in one test of ``--local 2``, which starts real worker processes.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import random

import pytest

distributed = pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) "
                                                        "is not installed")
pytest.importorskip("pyarrow", reason="the cluster extra (pyarrow) is not installed")

from simgui import cli, cli_cluster  # noqa: E402
from simgui.cluster.dataset import Dataset  # noqa: E402

WORDS = [bytes(random.Random(i).choices(b"abcdefghijklmnopqrstuvwxyz \n{}();=<>",
                                        k=random.Random(i + 1).randint(2, 9)))
         for i in range(400)]


def _text(rng: random.Random, size: int) -> bytes:
    out = bytearray()
    while len(out) < size:
        out += rng.choice(WORDS) + b" "
    return bytes(out[:size])


def _edit(rng: random.Random, data: bytes, share: float) -> bytes:
    data = bytearray(data)
    for _ in range(max(1, int(len(data) * share / 8))):
        at = rng.randrange(len(data))
        kind = rng.random()
        if kind < 0.4:
            data[at:at + 8] = _text(rng, 8)
        elif kind < 0.7:
            data[at:at] = _text(rng, rng.randint(1, 16))
        else:
            del data[at:at + rng.randint(1, 16)]
    return bytes(data)


def make_tree(root, seed: int = 7, families: int = 45) -> None:
    """Families of a source and its copies and edits over several folders."""
    rng = random.Random(seed)
    exts = ["txt", "c", "html", "bin"]
    for f in range(families):
        size = int(10 ** rng.uniform(1.5, 4.7))  # 30 B to 50 kB: both sides of 64 B
        source = _text(rng, size)
        ext = rng.choice(exts)
        folder = root / f"share{f % 3}" / f"dir{f % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{f}.{ext}").write_bytes(source)
        for m in range(rng.randint(0, 4)):
            sub = root / f"share{rng.randrange(3)}" / f"copy{m}"
            sub.mkdir(parents=True, exist_ok=True)
            roll = rng.random()
            if roll < 0.25:
                data = source  # a copy, sometimes under another extension
                name = f"f{f}-{m}.{rng.choice(exts) if rng.random() < 0.3 else ext}"
            else:
                data = _edit(rng, source, 10 ** rng.uniform(-3.5, -1.2))
                name = f"f{f}-{m}.{ext}"
            (sub / name).write_bytes(data)
    flat = root / "share1" / "flat"  # one folder of many files: split by file lists
    flat.mkdir(parents=True, exist_ok=True)
    for i in range(30):
        (flat / f"small{i}.txt").write_bytes(_text(rng, rng.randint(20, 90)))
    (root / "share0" / "empty1.txt").write_bytes(b"")
    (root / "share2" / "empty2.dat").write_bytes(b"")
    (root / os.fsdecode(b"share2/caf\xe9.txt")).write_bytes(source)  # not UTF-8
    (root / "share2" / "caf\u00e9-copy.txt").write_bytes(source)


@pytest.fixture(scope="module", autouse=True)
def _leave_no_dask_behind():
    """In-process Dask workers hook a garbage-collection callback into this process (it
    logs from inside collections); the window's tests that follow in the same process
    must not run with it, whatever a worker's close left behind."""
    import gc

    before = list(gc.callbacks)
    yield
    with contextlib.suppress(ImportError):
        from distributed.gc import disable_gc_diagnosis
        disable_gc_diagnosis(force=True)
    gc.callbacks[:] = before


@pytest.fixture(scope="module")
def cluster():
    """Two in-process workers behind a scheduler on a TCP port (as a real one is)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  protocol="tcp://", dashboard_address=":0") as c:
        yield c


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster) as c:
        yield c


@pytest.fixture
def on_cluster(client, monkeypatch):
    """The cluster commands run on the module's in-process cluster."""
    @contextlib.contextmanager
    def use(args):
        yield client
    monkeypatch.setattr(cli_cluster, "_client", use)
    return client


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("fleet")
    make_tree(root)
    return root


def run(capsys, *argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of a command; ``capsys``: pytest's capsysbinary (a
    name that is not UTF-8 is printed as its bytes)."""
    capsys.readouterr()
    code = cli.main([os.fsdecode(a) if isinstance(a, (bytes, os.PathLike)) else a
                     for a in argv])
    out, err = capsys.readouterr()
    return code, out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "surrogateescape")


def rows(text: str, fmt: str) -> list:
    if fmt == "json":
        return sorted(json.dumps(json.loads(line), sort_keys=True) for line in text.splitlines())
    return sorted(map(tuple, csv.reader(io.StringIO(text))))


@pytest.fixture(scope="module")
def scanned(tree, tmp_path_factory, client):
    """The tree scanned by ``simgui scan`` into a store and by ``simgui cluster scan``
    into a dataset."""
    base = tmp_path_factory.mktemp("scanned")
    db, out = base / "local.db", base / "dataset"
    assert cli.main(["scan", "--db", str(db), "-q", str(tree)]) == 0

    @contextlib.contextmanager
    def use(args):
        yield client
    original, cli_cluster._client = cli_cluster._client, use
    try:
        assert cli.main(["cluster", "scan", "-q", "--out", str(out), str(tree)]) == 0
    finally:
        cli_cluster._client = original
    return db, out


SEARCHES = [
    [],
    ["--format", "json"],
    ["--no-extensions"],
    ["--size-factor", "1.05", "--sum-tolerance", "3", "--key-tolerance", "5"],
    ["--size-factor", "4", "--sum-tolerance", "8"],
    ["--no-check"],
    ["--check", "80", "--sum-tolerance", "6"],
    ["--override", "txt=6,4"],
    ["--method", "minhash", "--threshold", "40"],
    ["--method", "simhash", "--threshold", "6"],
]


@pytest.mark.parametrize("options", SEARCHES, ids=lambda o: " ".join(o) or "defaults")
def test_cluster_pairs_equal_local_pairs(scanned, on_cluster, capsysbinary, options):
    db, out = scanned
    code, local, err = run(capsysbinary, "pairs", "--db", db, *options)
    assert code == 0, err
    code, remote, err = run(capsysbinary, "cluster", "pairs", "-q", *options, out)
    assert code == 0, err
    fmt = "json" if "json" in options else "csv"
    expected = rows(local, fmt)
    assert len(expected) > 20  # the tree has pairs of every kind to compare
    assert rows(remote, fmt) == expected


@pytest.mark.parametrize("options", [[], ["--no-extensions", "--sum-tolerance", "4"]],
                         ids=["defaults", "no-extensions"])
def test_cluster_groups_equal_local_groups(scanned, on_cluster, capsysbinary, options):
    db, out = scanned
    code, local, err = run(capsysbinary, "groups", "--db", db, *options)
    assert code == 0, err
    code, remote, err = run(capsysbinary, "cluster", "groups", "-q", *options, out)
    assert code == 0, err
    assert json.loads(remote) == json.loads(local) and json.loads(local)


def test_the_dataset_keeps_every_file_and_non_utf8_names(scanned, tree):
    _, out = scanned
    paths = set(Dataset.open(out).read(["path"]).column("path").to_pylist())
    on_disk = {os.fsencode(os.path.join(d, f)) for d, _, fs in os.walk(os.fsencode(tree))
               for f in fs}
    on_disk = {os.fsencode(os.fsdecode(p)) for p in on_disk}
    assert paths == on_disk
    assert os.fsencode(tree) + b"/share2/caf\xe9.txt" in paths


def test_a_rerun_reads_only_new_and_changed_files(tmp_path, on_cluster, capsysbinary):
    from simgui.cluster.scan import scan
    from simgui.core.reading.scanner import ScanOptions

    root = tmp_path / "tree"
    make_tree(root, seed=3, families=12)
    out = tmp_path / "dataset"
    first = scan(on_cluster, [str(root)], str(out), ScanOptions(fingerprints=True))
    assert first.files_read == first.files_found > 30 and first.files_unchanged == 0
    changed = sorted((root / "share0").rglob("*.*"))[0]
    changed.write_bytes(changed.read_bytes() + b" more")
    (root / "share1" / "new.txt").write_bytes(b"a new file" * 20)
    os.remove(sorted((root / "share2").rglob("*.*"))[0])
    again = scan(on_cluster, [str(root)], str(out), ScanOptions(fingerprints=True))
    assert (again.files_read, again.files_unchanged) == (2, first.files_found - 2)
    assert again.files_found == first.files_found
    dataset = Dataset.open(out)
    assert len(os.listdir(out)) == 2  # dataset.json and the one generation now current
    sizes = dict(zip(*dataset.read(["path", "size"]).to_pydict().values()))
    assert sizes[os.fsencode(changed)] == changed.stat().st_size


def test_a_failed_file_is_recorded_like_the_local_scan(tmp_path, on_cluster, capsysbinary,
                                                       monkeypatch):
    from simgui.cluster import scan as cluster_scan
    from simgui.core.reading import small_files
    from simgui.core.store import FileRecord

    root = tmp_path / "tree"
    root.mkdir()
    (root / "fine.txt").write_bytes(b"hello" * 30)
    locked = root / "locked.txt"
    locked.write_bytes(b"secret" * 30)
    read = cluster_scan.read_file

    def unreadable(path, *args, **kwargs):  # what read_file gives a file it cannot open
        if path == str(locked):
            return FileRecord(os.fsencode(path), 0, 0, 0, 0, "txt", None, None,
                              "permission denied")
        return read(path, *args, **kwargs)

    monkeypatch.setattr(cluster_scan, "read_file", unreadable)
    # small files are read in compiled batches first, past the patch above
    monkeypatch.setattr(small_files, "_compiled", False)
    code, _, err = run(capsysbinary, "cluster", "scan", "-q", "--out", tmp_path / "ds", root)
    assert code == cli.EXIT_SOME_FAILED
    assert f"error: {locked}: permission denied" in err
    table = Dataset.open(tmp_path / "ds").read(["path", "size", "error"]).to_pydict()
    assert table["error"] == [None, b"permission denied"]
    assert table["size"] == [150, 180]  # a file never opened keeps what the walk saw
    # and the store it is imported into lists it as the local scan does
    assert run(capsysbinary, "import", "--db", tmp_path / "s.db", tmp_path / "ds")[0] == 0
    code, out, _ = run(capsysbinary, "stats", "--db", tmp_path / "s.db", "--json")
    assert (json.loads(out)["files"], json.loads(out)["errors"]) == (1, 1)


def test_import_then_groups_equal_local_groups(scanned, capsysbinary, tmp_path):
    db, out = scanned
    imported = tmp_path / "imported.db"
    code, _, err = run(capsysbinary, "import", "--db", imported, out)
    assert code == 0, err
    for command in ("groups", "pairs"):
        local = run(capsysbinary, command, "--db", db)[1]
        assert run(capsysbinary, command, "--db", imported)[1] == local and local.count("\n") > 20


def test_import_under_a_folder_brings_only_its_files(scanned, tree, capsysbinary, tmp_path):
    _, out = scanned
    imported = tmp_path / "imported.db"
    code, _, err = run(capsysbinary, "import", "--db", imported, "--under", tree / "share2", out)
    assert code == 0, err
    code, listed, _ = run(capsysbinary, "pairs", "--db", imported, "--format", "json")
    paths = {json.loads(line)["path_a"] for line in listed.splitlines()}
    assert paths and all(p.startswith(str(tree / "share2") + "/") for p in paths)
    code, _, err = run(capsysbinary, "import", "--db", imported, "--under", tmp_path / "else", out)
    assert code == 2 and err.startswith("simgui: --under") and err.count("\n") == 1


def test_not_a_dataset_is_one_line(tmp_path, capsysbinary):
    code, _, err = run(capsysbinary, "import", "--db", tmp_path / "s.db", tmp_path)
    assert code == 2 and err == f"simgui: no dataset in {tmp_path} ('simgui cluster scan " \
                                f"--out {tmp_path} FOLDER' makes one)\n"


def test_without_dask_the_commands_say_how_to_install_it(monkeypatch, capsysbinary, tmp_path):
    import builtins

    real_import = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name.split(".")[0] in ("dask", "distributed"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    code, _, err = run(capsysbinary, "cluster", "scan", "--out", tmp_path / "ds", tmp_path)
    assert code == 2
    assert err == "simgui: the cluster commands need dask: pip install 'simgui[cluster]'\n"


def test_local_cluster_of_worker_processes(tmp_path, capsysbinary):
    """--local 2: two worker processes on this machine, scanning and searching."""
    root = tmp_path / "tree"
    make_tree(root, seed=5, families=6)
    code, _, err = run(capsysbinary, "cluster", "scan", "--local", "2", "-q", "--out",
                       tmp_path / "ds", root)
    assert code == 0, err
    assert "Scanned" in err
    assert run(capsysbinary, "scan", "--db", tmp_path / "s.db", "-q", root)[0] == 0
    code, remote, err = run(capsysbinary, "cluster", "pairs", "--local", "2", "-q", tmp_path / "ds")
    assert code == 0, err
    local = run(capsysbinary, "pairs", "--db", tmp_path / "s.db")[1]
    assert rows(remote, "csv") == rows(local, "csv")


def test_a_worker_that_cannot_see_the_folders_is_named(tmp_path, on_cluster, capsysbinary,
                                                         monkeypatch):
    from simgui.cluster import scan as cluster_scan

    monkeypatch.setattr(cluster_scan, "_roots_seen", lambda roots: list(roots))
    code, _, err = run(capsysbinary, "cluster", "scan", "--out", tmp_path / "ds", tmp_path)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("simgui: worker ") and f"cannot see {tmp_path} (every worker" in err
    assert not (tmp_path / "ds").exists() or not os.listdir(tmp_path / "ds")


def test_scheduler_joins_a_running_cluster(scanned, cluster, capsysbinary):
    db, out = scanned
    address = cluster.scheduler_address
    assert address.startswith("tcp://")
    code, remote, err = run(capsysbinary, "cluster", "groups", "--scheduler", address, out)
    assert code == 0, err
    assert json.loads(remote) == json.loads(run(capsysbinary, "groups", "--db", db)[1])


def test_a_file_with_names_in_two_tasks_is_kept_once(tmp_path, on_cluster):
    from simgui.cluster.scan import scan
    from simgui.core.reading.scanner import ScanOptions

    root = tmp_path / "tree"
    for name in ("a", "b", "c"):
        (root / name).mkdir(parents=True)
        (root / name / "own.txt").write_bytes(name.encode() * 100)
    (root / "b" / "shared.txt").write_bytes(b"one file, two names " * 10)
    os.link(root / "b" / "shared.txt", root / "c" / "also.txt")
    rep = scan(on_cluster, [str(root)], str(tmp_path / "ds"), ScanOptions())
    assert rep.tasks >= 3  # the names were in different tasks
    assert (rep.files_found, rep.hard_links) == (4, 1)
    paths = Dataset.open(tmp_path / "ds").read(["path"]).column("path").to_pylist()
    assert sorted(paths) == sorted(os.fsencode(root / p) for p in
                                   ("a/own.txt", "b/own.txt", "b/shared.txt", "c/own.txt"))


def test_a_dataset_inside_the_scanned_folder_is_not_scanned(tmp_path, on_cluster):
    from simgui.cluster.scan import scan
    from simgui.core.reading.scanner import ScanOptions

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.txt").write_bytes(b"one " * 50)
    (tmp_path / "two.txt").write_bytes(b"two " * 50)
    out = tmp_path / "data [1]"  # a glob's special characters in its name, too
    first = scan(on_cluster, [str(tmp_path)], str(out), ScanOptions())
    again = scan(on_cluster, [str(tmp_path)], str(out), ScanOptions())
    assert (first.files_found, again.files_found, again.files_read) == (2, 2, 0)


def test_a_method_the_dataset_cannot_serve_is_one_line(scanned, capsysbinary):
    _, out = scanned
    code, _, err = run(capsysbinary, "cluster", "pairs", "--method", "images", out)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("simgui: --method images is not available on the cluster yet")


def test_files_without_fingerprints_are_one_line_as_locally(tmp_path, on_cluster, capsysbinary):
    from simgui.cluster.scan import scan
    from simgui.core.reading.scanner import ScanOptions

    (tmp_path / "t").mkdir()
    for i in range(3):
        (tmp_path / "t" / f"{i}.txt").write_bytes(b"same words here " * 40 + b"!" * i)
    scan(on_cluster, [str(tmp_path / "t")], str(tmp_path / "ds"), ScanOptions(fingerprints=False))
    code, _, err = run(capsysbinary, "cluster", "pairs", "-q", tmp_path / "ds")
    assert code == 2 and err.count("\n") == 1 and "fingerprints" in err and "--no-check" in err
    code, out, err = run(capsysbinary, "cluster", "pairs", "-q", "--no-check", tmp_path / "ds")
    assert code == 0 and out.count("\n") == 4  # the header and three pairs
