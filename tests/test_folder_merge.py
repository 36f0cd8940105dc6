"""Merging folder A into B, and moving a folder: nothing lost, undo puts back every byte."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from simgui.cli import main
from simgui.core.cleanup import undo
from simgui.core.cleanup.folder_merge import COPY, TRASH_A, TRASH_B, execute_merge, plan_merge
from simgui.core.search.analysis import Analysis
from simgui.core.search.similar_folders import FolderIndex
from simgui.core.search.simfind import Tolerances
from simgui.core.store import Store


def tree(root) -> dict[str, bytes]:
    """Every file below ``root`` (relative path -> bytes) and every folder (-> None)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for d in dirs:
            out[os.path.relpath(os.path.join(folder, d), root)] = None
        for f in files:
            with open(os.path.join(folder, f), "rb") as fh:
                out[os.path.relpath(os.path.join(folder, f), root)] = fh.read()
    return out


def index_of(store: Store) -> FolderIndex:
    files = store.files()
    return FolderIndex(Analysis.build(files).groups(Tolerances()))


@pytest.fixture
def merge_tree(tmp_path, monkeypatch):
    """a/ and b/ under tmp_path/t: same.bin in both, only.bin and sub/deep/n.bin only in
    a, sim.txt edited in each (similar), clash.bin different in each, extra.bin only in b."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    rng = np.random.default_rng(7)

    def rand(n):
        return rng.integers(0, 256, n, np.uint8).tobytes()

    root = tmp_path / "t"
    a, b = root / "a", root / "b"
    (a / "sub" / "deep").mkdir(parents=True)
    b.mkdir(parents=True)
    same, base = rand(5000), rand(20000)
    files = {a / "same.bin": same, b / "same.bin": same, a / "only.bin": rand(3000),
             a / "sub" / "deep" / "n.bin": rand(4000),
             a / "sim.txt": base + b"A's edit" * 20, b / "sim.txt": base + b"B's edit" * 20,
             a / "clash.bin": rand(6000), b / "clash.bin": rand(6100), b / "extra.bin": rand(900)}
    for path, data in files.items():
        path.write_bytes(data)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(root)]) == 0
    return a, b, db


def test_merge_copies_what_b_lacks_keeps_both_versions_then_undo_restores(merge_tree, capsys):
    a, b, db = merge_tree
    before_a, before_b = tree(a), tree(b)
    capsys.readouterr()
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--yes"]) == 0
    out = capsys.readouterr().out
    assert "copy 4 files" in out and "9 done" in out
    after = tree(b)
    # every byte string of A is in B: at its own path, or beside B's version
    assert after["only.bin"] == before_a["only.bin"]
    assert after[os.path.join("sub", "deep", "n.bin")] == before_a[os.path.join("sub", "deep",
                                                                                "n.bin")]
    assert after["sim (from a).txt"] == before_a["sim.txt"]
    assert after["sim.txt"] == before_b["sim.txt"]  # B's version stays
    assert after["clash (from a).bin"] == before_a["clash.bin"]  # never over B's file
    assert after["clash.bin"] == before_b["clash.bin"]
    assert not any(v is not None for v in tree(a).values())  # A's files are in the trash
    assert main(["undo", "--db", db]) == 0
    assert tree(a) == before_a and tree(b) == before_b  # byte for byte, folders made gone


def test_preferring_a_version_replaces_b_version_and_undo_brings_it_back(merge_tree, capsys):
    a, b, db = merge_tree
    before_a, before_b = tree(a), tree(b)
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--prefer-a",
                 str(a / "sim.txt"), "--yes"]) == 0
    after = tree(b)
    assert after["sim.txt"] == before_a["sim.txt"] and "sim (from a).txt" not in after
    assert main(["undo", "--db", db]) == 0
    assert tree(a) == before_a and tree(b) == before_b


def test_a_file_identical_only_to_a_superseded_version_of_b_is_copied(merge_tree):
    """Found by the property test: B's version goes to the trash, so it cannot be the
    copy that lets A's identical file go."""
    a, b, db = merge_tree
    (a / "b-version.txt").write_bytes((b / "sim.txt").read_bytes())
    assert main(["scan", "--db", db, "-q", str(a.parent)]) == 0
    before_a = tree(a)
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--prefer-a",
                 str(a / "sim.txt"), "--yes"]) == 0
    assert (b / "b-version.txt").read_bytes() == before_a["b-version.txt"]
    assert (b / "sim.txt").read_bytes() == before_a["sim.txt"]


def test_prefer_a_must_name_a_similar_file_of_a(merge_tree, capsys):
    a, b, db = merge_tree
    capsys.readouterr()
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--prefer-a",
                 str(a / "only.bin"), "--yes"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("simgui: ") and "names no similar file" in err
    assert (a / "only.bin").exists() and not (b / "only.bin").exists()


def test_plan_steps_and_order(merge_tree):
    a, b, db = merge_tree
    with Store(db) as store:
        plan = plan_merge(index_of(store), str(a), str(b), roots=store.scanned_roots(),
                          prefer_a=[str(a / "sim.txt")])
    kinds = [s.kind for s in plan.steps]
    assert kinds == [TRASH_B] + [COPY] * 4 + [TRASH_A] * 5
    assert plan.steps[0].path == str(b / "sim.txt")
    assert {s.target for s in plan.of(COPY)} == {
        str(b / "only.bin"), str(b / "sub" / "deep" / "n.bin"), str(b / "sim.txt"),
        str(b / "clash (from a).bin")}


def test_a_file_changed_after_the_scan_stops_the_merge_before_a_is_touched(merge_tree,
                                                                           capsys):
    a, b, db = merge_tree
    changed = a / "sub" / "deep" / "n.bin"
    changed.write_bytes(b"edited after the scan")
    before_a, before_b = tree(a), tree(b)
    capsys.readouterr()
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--yes"]) == 1
    out = capsys.readouterr().out
    assert "changed since the scan" in out and "merge stopped" in out
    assert tree(a) == before_a  # A untouched
    assert main(["undo", "--db", db]) == 0  # the copies made before it go
    assert tree(b) == before_b


def test_a_link_planted_in_b_is_refused(merge_tree, tmp_path, capsys):
    a, b, db = merge_tree
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, b / "sub")
    before_a = tree(a)
    capsys.readouterr()
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--yes"]) == 1
    err = capsys.readouterr().err
    assert "symbolic link" in err and err.count("\n") == 1
    assert tree(a) == before_a and list(elsewhere.iterdir()) == []


def test_a_link_planted_in_b_after_planning_is_not_followed(merge_tree, tmp_path):
    a, b, db = merge_tree
    before_a = tree(a)
    with Store(db) as store:
        plan = plan_merge(index_of(store), str(a), str(b), roots=store.scanned_roots())
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        os.symlink(elsewhere, b / "sub")  # planted between the plan and the act
        result = execute_merge(plan, store)
        assert result.skipped and "symbolic link" in result.describe()
        assert list(elsewhere.iterdir()) == [] and tree(a) == before_a
        undo(store)
    assert not (b / "only.bin").exists()


def test_a_failed_copy_leaves_no_partial_file_and_a_untouched(merge_tree, monkeypatch):
    a, b, db = merge_tree
    from simgui.core.cleanup import actions

    calls = []
    real = actions.copy_data

    def full_disk(f_in, f_out):
        calls.append(1)
        if len(calls) == 2:
            f_out.write(b"half")
            raise OSError(28, "No space left on device")
        real(f_in, f_out)

    monkeypatch.setattr(actions, "copy_data", full_disk)
    before_a, before_b = tree(a), tree(b)
    with Store(db) as store:
        plan = plan_merge(index_of(store), str(a), str(b), roots=store.scanned_roots())
        result = execute_merge(plan, store)
        assert [r.status for r in result.results][:3] == ["done", "failed", "skipped"]
        assert "no space left" in result.results[1].message
        assert tree(a) == before_a
        assert not any(".simgui-" in name for name in tree(b))  # no half-written file
        undo(store)
    assert tree(b) == before_b


def test_nested_or_unscanned_folders_are_refused(merge_tree, capsys):
    a, b, db = merge_tree
    with Store(db) as store:
        index = index_of(store)
        assert plan_merge(index, str(a), str(a / "sub"), roots=[]).refused
        assert plan_merge(index, str(a), str(a), roots=[]).refused
    capsys.readouterr()
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b / "x"), "--yes"]) == 2
    assert capsys.readouterr().err.startswith("simgui: --into")


def test_a_reference_folder_is_never_merged_away_or_trashed(merge_tree, capsys):
    """Reference folders are never touched: a merge that would send one of their files to
    the trash (A's, or B's version replaced by A's) and a folder's Trash or Move whose
    folder lies in one are refused whole; a merge only copies into a reference B."""
    from simgui.core.cleanup.folder_removal import plan_folder_removal

    a, b, db = merge_tree
    with Store(db) as store:
        index, roots = index_of(store), store.scanned_roots()
        refused = plan_merge(index, str(a), str(b), roots=roots, references=[str(a / "sub")])
        assert refused.refused and not refused.steps
        assert "is in a reference folder" in refused.refused[0]
        assert plan_merge(index, str(a), str(b), roots=roots, references=[str(b)],
                          prefer_a=[str(a / "sim.txt")]).refused  # B's version would go
        into = plan_merge(index, str(a), str(b), roots=roots, references=[str(b)])
        assert not into.refused and all(s.path.startswith(str(a)) for s in into.steps
                                        if s.kind != COPY)
        (refusal,) = plan_folder_removal(index, str(b), roots=roots,
                                         references=[str(b.parent)]).refused
        assert "is in a reference folder" in refusal.reason
    before = tree(a.parent)
    capsys.readouterr()
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--reference",
                 str(a), "--yes"]) == 1
    assert "is in a reference folder" in capsys.readouterr().err
    assert main(["folders", "--db", db, "--trash", str(a), "--reference", str(a.parent),
                 "--yes"]) == 1
    assert "is in a reference folder" in capsys.readouterr().err
    assert tree(a.parent) == before


def test_merge_dry_run_changes_nothing(merge_tree, capsys):
    a, b, db = merge_tree
    before = tree(a.parent)
    capsys.readouterr()
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--dry-run"]) == 0
    assert "clash (from a).bin" in capsys.readouterr().out
    assert tree(a.parent) == before


def test_an_empty_file_keeps_its_name_in_b(merge_tree, capsys):
    a, b, db = merge_tree
    (a / "__init__.py").write_bytes(b"")
    (b / "sub").mkdir()
    (b / "sub" / ".gitkeep").write_bytes(b"")  # an empty file of B, elsewhere
    assert main(["scan", "--db", db, "-q", str(a.parent)]) == 0
    assert main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--yes"]) == 0
    assert (b / "__init__.py").read_bytes() == b""


def test_an_interrupted_copy_is_settled_and_undone(merge_tree, monkeypatch):
    """Ctrl-C right after a copy is named: recovery finds the copy (never touching A's
    file), journals it done, and undo removes it."""
    a, b, db = merge_tree
    from simgui.core.cleanup import actions, journal

    real = actions.copy_verified
    calls = []

    def interrupted(*args):
        outcome = real(*args)
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return outcome

    monkeypatch.setattr(actions, "copy_verified", interrupted)
    before_a, before_b = tree(a), tree(b)
    with Store(db) as store:
        plan = plan_merge(index_of(store), str(a), str(b), roots=store.scanned_roots())
        with pytest.raises(KeyboardInterrupt):
            execute_merge(plan, store)
        [batch] = journal.batches(store)
        rows = journal.entries(store, batch.id)
        assert [r.state for r in rows[:3]] == ["done", "done", "skipped"]
        assert "found by recovery" in rows[1].message and rows[1].undoable
        assert tree(a) == before_a
        undo(store)
    assert tree(a) == before_a and tree(b) == before_b


def test_merge_with_a_non_utf8_name(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    raw = os.fsencode(str(tmp_path / "t"))
    os.makedirs(raw + b"/a/caf\xe9")
    os.makedirs(raw + b"/b")
    for side in (b"/a", b"/b"):
        with open(raw + side + b"/same.bin", "wb") as f:
            f.write(b"same bytes " * 300)
    with open(raw + b"/a/caf\xe9/n\xe9.bin", "wb") as f:
        f.write(b"only in a " * 300)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", os.fsdecode(raw)]) == 0
    a, b = os.fsdecode(raw + b"/a"), os.fsdecode(raw + b"/b")
    assert main(["folders", "--db", db, "--merge", a, "--into", b, "--yes"]) == 0
    with open(raw + b"/b/caf\xe9/n\xe9.bin", "rb") as f:
        assert f.read() == b"only in a " * 300
    assert main(["undo", "--db", db]) == 0
    assert not os.path.exists(raw + b"/b/caf\xe9")
    assert os.path.exists(raw + b"/a/caf\xe9/n\xe9.bin")


# -- moving a folder --------------------------------------------------------------------


def test_move_a_folder_whose_files_all_have_copies_then_undo(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    home, old = tmp_path / "s" / "home", tmp_path / "s" / "old"
    (home / "sub").mkdir(parents=True)
    (old / "sub").mkdir(parents=True)
    for name, data in (("x.bin", os.urandom(3000)), ("sub/y.bin", os.urandom(4000))):
        (home / name).write_bytes(data)
        (old / name).write_bytes(data)
    (home / "z.bin").write_bytes(os.urandom(100))
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(tmp_path / "s")]) == 0
    before = tree(old)
    archive = tmp_path / "archive"
    capsys.readouterr()
    assert main(["folders", "--db", db, "--move", str(old), "--to", str(archive), "--yes"]) == 0
    assert "Move 2 files" in capsys.readouterr().out
    assert {k: v for k, v in tree(archive / "old").items() if v is not None} == {
        k: v for k, v in before.items() if v is not None}
    assert not (old / "x.bin").exists()
    assert main(["undo", "--db", db]) == 0
    assert tree(old) == before
    # a folder with a file that has no copy outside it is refused, nothing moved
    capsys.readouterr()
    assert main(["folders", "--db", db, "--move", str(home), "--to", str(archive),
                 "--yes"]) == 1
    assert "z.bin" in capsys.readouterr().err and (home / "z.bin").exists()


def test_move_needs_to(merge_tree, capsys):
    a, b, db = merge_tree
    assert main(["folders", "--db", db, "--move", str(a)]) == 2
    assert "--to" in capsys.readouterr().err


# -- random trees: merge + undo is the identity, a merge loses no byte string ----------


names = st.sampled_from(["p", "q", "r.txt", "d/p", "d/s", "d/e/t"])
_BASE = b"".join(i.to_bytes(2, "big") for i in range(4000))  # edited twice: similar
contents = st.sampled_from([b"one" * 300, b"two" * 300, b"", _BASE + b"edit one" * 10,
                            _BASE + b"edit two" * 10, _BASE[:7000] + b"x" + _BASE[7001:]])


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(names, contents, min_size=1), st.dictionaries(names, contents,
                                                                      min_size=1),
       st.booleans())
def test_random_trees_merge_loses_nothing_and_undo_restores(tmp_path_factory, files_a,
                                                              files_b, prefer):
    root = tmp_path_factory.mktemp("m")
    os.environ["XDG_DATA_HOME"] = str(root / "xdg")
    a, b = root / "t" / "a", root / "t" / "b"
    for folder, files in ((a, files_a), (b, files_b)):
        for name, data in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
    db = str(root / "s.db")
    with Store(db) as store:
        from simgui.core.reading.scanner import scan
        scan(store, [str(root / "t")])
    start_a, start_b = tree(a), tree(b)
    with Store(db) as store:
        index = index_of(store)
        if str(a) not in index.ids or str(b) not in index.ids:
            return
        similar = [s.path for s in index.diff(str(a), str(b)) if s.side == "a"
                   and s.status == "similar"]
        event(f"{len(similar)} similar")
        plan = plan_merge(index, str(a), str(b), roots=store.scanned_roots(),
                          prefer_a=similar if prefer else ())
        assert not plan.refused
        result = execute_merge(plan, store)
        assert not result.failed and not result.skipped, result.describe()
        merged = set(tree(b).values())
        # every byte string of A is in B now (B's superseded versions: in the trash)
        assert {v for v in start_a.values() if v is not None} <= merged
        undo(store)
    assert tree(a) == start_a and tree(b) == start_b
    shutil.rmtree(root)
