"""What a review found after the safety work, each held by a test: two clean-ups at once
on one store, a folder scanned through a link inside one scanned without, a crashed trash
under its last-resort name, and the exit code when the store fails after files changed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from simgui.cli import main
from simgui.core.cleanup import Action, KeepRule, execute, journal, plan_removal, undo
from simgui.core.reading.scanner import scan
from simgui.core.store import Store
from tests.test_fileops import make_tree, scan_groups, store, trash_home  # noqa: F401


def test_a_second_clean_up_on_the_same_store_is_refused_while_one_runs(tmp_path, store):
    # two batches at once (say, --keep oldest and --keep newest) could each remove the
    # copy the other keeps: the second is refused before it touches anything
    t = tmp_path / "t"
    make_tree(t, {"a/f": b"same" * 100, "b/f": b"same" * 100})
    groups = scan_groups(store, t)
    sleeper = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                               stdin=subprocess.PIPE)
    try:
        with store.connection:  # a batch of another live process, as begin() records one
            store.connection.execute(
                "INSERT INTO batches (created_at, action, status, description, pid, host) "
                "VALUES (0, 'delete', 'running', 'elsewhere', ?, ?)",
                (sleeper.pid, __import__("socket").gethostname()))
        plan = plan_removal(groups, action=Action.DELETE, identical_only=True,
                            keep=KeepRule.NEWEST, roots=[str(t)])
        with pytest.raises(getattr(journal, "BatchInProgress", Exception), match=f"process {sleeper.pid}.*nothing was changed"):
            execute(plan, store)
        assert (t / "a/f").exists() and (t / "b/f").exists()
        assert [b.action for b in journal.batches(store)] == ["delete"]  # no second batch
    finally:
        sleeper.stdin.close()
        sleeper.wait()
    # once that process is gone, its batch is a crash to recover, not a batch running
    journal.recover(store)
    assert execute(plan, store).done


def test_the_command_line_says_so_in_one_line_and_changes_nothing(tmp_path, monkeypatch,
                                                                   capsys):
    t = tmp_path / "t"
    make_tree(t, {"a/f": b"same" * 100, "b/f": b"same" * 100})
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(t)]) == 0
    with Store(db) as s, s.connection:
        s.connection.execute(
            "INSERT INTO batches (created_at, action, status, description, pid, host) "
            "VALUES (0, 'trash', 'running', 'elsewhere', ?, ?)",
            (os.getppid(), __import__("socket").gethostname()))
    capsys.readouterr()
    assert main(["remove", "--db", db, "--delete", "--yes"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simgui: another clean-up is running") and err.count("\n") == 1
    assert (t / "a/f").exists() and (t / "b/f").exists()


def test_a_folder_scanned_through_a_link_inside_a_scanned_folder_is_cleaned_up(
        tmp_path, store, trash_home):
    # home/ was scanned (its link to the disk not followed), then home/disk/photos through
    # the link: files there are walked from that root, whose own path is the user's
    disk = tmp_path / "disk"
    make_tree(disk, {"photos/a.jpg": b"photo" * 100, "photos/b.jpg": b"photo" * 100})
    home = tmp_path / "user"  # (tmp_path / "home" holds the test's trash)
    home.mkdir()
    os.symlink(disk, home / "disk")
    scan(store, [home])
    groups = scan_groups(store, home / "disk" / "photos")
    roots = store.scanned_roots()
    assert str(home) in roots and str(home / "disk" / "photos") in roots
    result = execute(plan_removal(groups, action=Action.TRASH, roots=roots), store)
    assert len(result.done) == 1 and not result.skipped, result.describe()
    assert len(os.listdir(disk / "photos")) == 1
    assert len(undo(store).done) == 1


def test_a_crashed_trash_under_its_last_resort_name_is_found_and_undone(tmp_path, store,
                                                                        trash_home):
    from simgui.core.cleanup import trash

    t = tmp_path / "t"
    make_tree(t, {"a/x": b"same" * 100, "b/x": b"same" * 100})
    groups = scan_groups(store, t)
    plan = plan_removal(groups, action=Action.TRASH, roots=[str(t)])
    victim = plan.operations[0].member
    # the trash already holds the file's own name and its inode name
    files, info = trash_home / "files", trash_home / "info"
    files.mkdir(parents=True)
    info.mkdir()
    for name in ("x", f"x.ino{victim.inode}"):
        (files / name).write_bytes(b"someone else's")
        (info / f"{name}.trashinfo").write_text("[Trash Info]\nPath=/elsewhere\n")

    class Crash(BaseException):
        pass

    real = trash.trash_entry

    def trash_then_die(*args, **kwargs):
        real(*args, **kwargs)
        raise Crash()

    patch = pytest.MonkeyPatch()
    patch.setattr(trash, "trash_entry", trash_then_die)
    patch.setattr(journal.Recorder, "flush_quietly", lambda self: None)
    try:
        with pytest.raises(Crash):
            execute(plan, store)
    finally:
        patch.undo()
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["done"], settled
    assert len(undo(store).done) == 1
    assert (t / "a/x").read_bytes() == (t / "b/x").read_bytes() == b"same" * 100


def test_a_store_failing_after_files_changed_exits_1_not_2(tmp_path, monkeypatch, capsys,
                                                           trash_home):
    t = tmp_path / "t"
    make_tree(t, {f"{d}/f{i}": b"%d" % i * 100 for d in "ab" for i in range(3)})
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(t)]) == 0

    def full(self, *args, **kwargs):
        raise getattr(journal, "ResultsUnsaved", __import__("simgui.core.store").core.store.StoreError)("store s.db: failed journaling results: the disk "
                                     "holding the store is full; the clean-up stopped there")

    monkeypatch.setattr(journal.Recorder, "flush", full)
    capsys.readouterr()
    assert main(["remove", "--db", db, "--yes"]) == 1  # files were trashed: not bad usage
    assert "the clean-up stopped there" in capsys.readouterr().err
