"""The journal: crashes between steps are recovered truthfully, and undo puts files back."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from simgui.core.cleanup import actions, journal, trash
from simgui.core.cleanup import Action, KeepRule, execute, plan_removal, undo
from simgui.core.store.database import _MIGRATIONS, APPLICATION_ID, SCHEMA_VERSION, Store
from tests.test_fileops import (  # noqa: F401  (fixtures)
    _other_file_system, assert_nothing_lost, make_tree, scan_groups, store, trash_home,
)


class Crash(BaseException):
    """The process dies here: nothing after it runs, no clean-up, no journal flush."""


@pytest.fixture
def hard_crash(monkeypatch):
    """A crash flushes nothing: the journal holds only what was committed before it."""
    monkeypatch.setattr(journal.Recorder, "flush_quietly", lambda self: None)
    return monkeypatch


def states(store, batch_id) -> list[str]:
    return [e.state for e in journal.entries(store, batch_id)]


def five_copies(tmp_path, store, **plan_args):
    t = tmp_path / "t"
    originals = make_tree(t, {f"{i}.bin": b"journal" * 100 for i in range(5)})
    return t, originals, plan_removal(scan_groups(store, t), **plan_args)


def test_crash_mid_move_between_link_and_unlink(tmp_path, store, hard_crash):
    t, originals, plan = five_copies(tmp_path, store, action=Action.MOVE,
                                     target_dir=str(tmp_path / "dest"), roots=[str(tmp_path)])
    real_link, calls = os.link, []

    def link(src, dst, **kwargs):
        real_link(src, dst, **kwargs)
        calls.append(dst)
        if len(calls) == 3:
            raise Crash()  # the new name exists, the old one was not removed yet

    hard_crash.setattr(os, "link", link)
    with pytest.raises(Crash):
        execute(plan, store)
    batch = journal.batches(store)[0]
    assert batch.status == "running" and states(store, batch.id) == ["planned"] * 4
    assert_nothing_lost(originals, tmp_path)

    settled = journal.recover(store)
    assert [e.state for e in settled] == ["done", "done", "done", "skipped"]
    assert "found by recovery" in settled[0].message
    assert "finished by recovery" in settled[2].message
    assert "stopped before this file" in settled[3].message
    assert not (t / "3.bin").exists() and (t / "4.bin").exists()
    assert journal.batches(store)[0].status == "interrupted"
    assert journal.recover(store) == []  # nothing left to settle
    assert_nothing_lost(originals, tmp_path)
    back = undo(store, batch.id)
    assert [r.status for r in back.results] == ["done"] * 3
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_crash_while_copying_to_another_file_system(tmp_path, store, hard_crash):
    dest = tmp_path / "dest"
    t, originals, plan = five_copies(tmp_path, store, action=Action.MOVE, target_dir=str(dest),
                                     roots=[str(tmp_path / "t")])
    _other_file_system(hard_crash, dest)

    def copy_data(f_in, f_out):
        f_out.write(f_in.read(10))
        raise Crash()

    hard_crash.setattr(actions, "copy_data", copy_data)
    hard_crash.setattr(actions, "_remove_quietly", lambda path: None)  # no clean-up in a crash
    with pytest.raises(Crash):
        execute(plan, store)
    assert [n for n in os.listdir(dest) if n.startswith(".simgui-")]  # a partial copy
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["skipped"] * 4
    assert os.listdir(dest) == []  # the partial copy is gone, the original is intact
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_crash_after_copying_before_removing_the_source(tmp_path, store, hard_crash):
    dest = tmp_path / "dest"
    t, originals, plan = five_copies(tmp_path, store, action=Action.MOVE, target_dir=str(dest),
                                     roots=[str(tmp_path / "t")])
    _other_file_system(hard_crash, dest)

    def fsync_dir(folder):
        raise Crash()

    hard_crash.setattr(actions, "_fsync_dir", fsync_dir)
    with pytest.raises(Crash):
        execute(plan, store)
    assert (dest / "1.bin").exists() and (t / "1.bin").exists()  # two copies for a moment
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["done", "skipped", "skipped", "skipped"]
    assert "finished by recovery" in settled[0].message
    assert not (t / "1.bin").exists() and (dest / "1.bin").read_bytes() == b"journal" * 100
    assert_nothing_lost(originals, tmp_path)


def test_crash_while_replacing_with_a_hard_link(tmp_path, store, hard_crash):
    t, originals, plan = five_copies(tmp_path, store, action=Action.HARDLINK)
    real_replace, calls = os.replace, []

    def replace(src, dst, **kwargs):
        calls.append(dst)
        if len(calls) == 2:
            raise Crash()
        real_replace(src, dst, **kwargs)

    hard_crash.setattr(os, "replace", replace)
    hard_crash.setattr(actions, "_remove_quietly", lambda path: None)
    with pytest.raises(Crash):
        execute(plan, store)
    assert len([n for n in os.listdir(t) if n.startswith(".simgui-")]) == 1
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["done", "skipped", "skipped", "skipped"]
    assert sorted(os.listdir(t)) == [f"{i}.bin" for i in range(5)]  # temporary link gone
    assert os.path.samefile(t / "0.bin", t / "1.bin")
    assert not os.path.samefile(t / "0.bin", t / "2.bin")
    assert_nothing_lost(originals, tmp_path)


def test_crash_after_trashing_before_journaling(tmp_path, store, trash_home, hard_crash):
    t, originals, plan = five_copies(tmp_path, store, action=Action.TRASH)
    real_entry, calls = trash.trash_entry, []

    def entry(*args):
        calls.append(real_entry(*args))
        if len(calls) == 2:
            raise Crash()
        return calls[-1]

    hard_crash.setattr(trash, "trash_entry", entry)
    with pytest.raises(Crash):
        execute(plan, store)
    hard_crash.setattr(trash, "trash_entry", real_entry)
    batch_id = journal.batches(store)[0].id
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["done", "done", "skipped", "skipped"]
    assert all(e.undoable and e.target.startswith(str(trash_home)) for e in settled[:2])
    assert_nothing_lost(originals, tmp_path)
    back = undo(store, batch_id)
    assert [r.status for r in back.results] == ["done", "done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_crash_during_permanent_delete(tmp_path, store, hard_crash):
    t, originals, plan = five_copies(tmp_path, store, action=Action.DELETE)
    real_unlink, calls = os.unlink, []

    def unlink(path, *args, **kwargs):
        real_unlink(path, *args, **kwargs)
        calls.append(path)
        if len(calls) == 2:
            raise Crash()

    hard_crash.setattr(os, "unlink", unlink)
    with pytest.raises(Crash):
        execute(plan, store)
    hard_crash.setattr(os, "unlink", real_unlink)
    settled = journal.recover(store)
    # a delete leaves no trace to tell it from a file moved away since: never guessed
    assert [e.state for e in settled] == ["unknown", "unknown", "skipped", "skipped"]
    assert all("deleted by this batch" in e.message for e in settled[:2])
    assert (t / "0.bin").exists()


def test_a_file_gone_without_trace_is_reported_unknown(tmp_path, store, trash_home,
                                                       hard_crash):
    t, originals, plan = five_copies(tmp_path, store, action=Action.TRASH)

    def send(dir_fd, name, path, *args):
        os.rename(path, tmp_path / "stolen")  # someone else took it
        raise Crash()

    hard_crash.setattr(trash, "trash_entry", send)
    with pytest.raises(Crash):
        execute(plan, store)
    settled = journal.recover(store)
    assert settled[0].state == "unknown" and "not found in the trash" in settled[0].message


def test_recover_leaves_a_batch_of_a_live_process_alone(tmp_path, store):
    t, originals, plan = five_copies(tmp_path, store, action=Action.DELETE)
    batch_id = journal.begin(store, "delete", "elsewhere", lambda b: [
        journal.PlannedRow(0, "delete", str(t / "1.bin"), (1, 1, 1, 1))])
    store.connection.execute("UPDATE batches SET pid = ? WHERE id = ?", (os.getppid(), batch_id))
    assert journal.recover(store) == []
    assert journal.batches(store)[0].status == "running"
    with pytest.raises(journal.UndoError):
        undo(store, batch_id)


def test_batches_entries_and_what_cannot_be_undone(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"1" * 10, "b": b"1" * 10, "c": b"2" * 10, "d": b"2" * 10})
    groups = scan_groups(store, t)
    deleted = execute(plan_removal(groups[:1], action=Action.DELETE), store)
    linked = execute(plan_removal(groups[1:], action=Action.HARDLINK), store)
    listed = journal.batches(store)
    assert [b.id for b in listed] == [linked.batch_id, deleted.batch_id]
    assert listed[0].action == "hardlink" and listed[0].status == "completed"
    assert "hard links" in listed[0].description and listed[0].counts == {"done": 1}
    entry = journal.entries(store, deleted.batch_id)[0]
    assert (entry.path, entry.kept, entry.state, entry.undoable) == (
        str(t / "b"), str(t / "a"), "done", False)
    with pytest.raises(journal.UndoError, match="nothing to undo"):
        undo(store)
    back = undo(store, deleted.batch_id)
    assert back.results[0].status == "skipped"
    assert "cannot be undone: deleted permanently" in back.results[0].message
    with pytest.raises(journal.UndoError, match="itself an undo"):
        undo(store, back.batch_id)


def test_undo_skips_a_moved_file_that_changed_since(tmp_path, store):
    t, originals, plan = five_copies(tmp_path, store, action=Action.MOVE,
                                     target_dir=str(tmp_path / "dest"), roots=[str(tmp_path)])
    result = execute(plan, store)
    moved = Path(result.results[0].target)
    moved.write_bytes(b"edited after the move")
    back = undo(store)
    assert [r.status for r in back.results] == ["skipped", "done", "done", "done"]
    assert "changed since" in back.results[0].message
    assert moved.read_bytes() == b"edited after the move"


def test_undo_restores_across_file_systems_and_reports_disk_full(tmp_path, store, monkeypatch):
    dest = tmp_path / "dest"
    t, originals, plan = five_copies(tmp_path, store, action=Action.MOVE, target_dir=str(dest),
                                     roots=[str(tmp_path / "t")], keep=KeepRule.NEWEST)
    _other_file_system(monkeypatch, dest)
    execute(plan, store)

    def copy_data(f_in, f_out):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(actions, "copy_data", copy_data)
    back = undo(store)
    assert [r.status for r in back.results] == ["failed"] * 4
    assert all("no space left" in r.message for r in back.results)
    assert len(os.listdir(dest)) == 4 and len(os.listdir(t)) == 1
    assert_nothing_lost(originals, tmp_path)


def test_a_version_1_store_gains_the_journal_and_keeps_its_files(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(_MIGRATIONS[0])
    db.execute("INSERT INTO files (path, size, mtime_ns, device, inode, extension, scanned_at) "
               "VALUES (x'2f61', 1, 1, 1, 1, '', 0)")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Store(path) as s:
        assert s.schema_version == SCHEMA_VERSION >= 2
        assert s.connection.execute("SELECT count(*) FROM files").fetchone()[0] == 1
        assert journal.batches(s) == []


# -- recovery never deletes an original on the strength of a look-alike ------------------------


def test_recover_keeps_an_original_whose_target_name_holds_another_rows_file(
        tmp_path, store, hard_crash):
    """Two cameras' identical photos with one mtime map to the same target name; the
    crash comes before the second is touched.  The first, moved there, is not the
    second's copy."""
    d, dest = tmp_path / "data", tmp_path / "dups"
    originals = make_tree(d, {"keep/DCIM/img.jpg": b"JPEG" * 3000, "cam1/DCIM/img.jpg":
                              b"JPEG" * 3000, "cam2/DCIM/img.jpg": b"JPEG" * 3000})
    os.utime(d / "keep/DCIM/img.jpg", ns=(1, 1))  # the oldest: kept
    for cam in ("cam1", "cam2"):
        os.utime(d / cam / "DCIM/img.jpg", ns=(10**18, 10**18))  # cp -p look-alikes
    plan = plan_removal(scan_groups(store, d), action=Action.MOVE, target_dir=str(dest),
                        roots=[str(d / "cam1"), str(d / "cam2"), str(d / "keep")])
    assert [op.target for op in plan.operations] == [str(dest / "DCIM/img.jpg")] * 2
    real_relocate = actions.relocate

    def relocate(*args, **kwargs):
        if os.path.exists(dest / "DCIM/img.jpg"):
            raise Crash()  # before the second file
        return real_relocate(*args, **kwargs)

    hard_crash.setattr(actions, "relocate", relocate)
    with pytest.raises(Crash):
        execute(plan, store)
    hard_crash.setattr(actions, "relocate", real_relocate)
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["done", "skipped"]
    assert (d / "cam2/DCIM/img.jpg").exists()  # never moved: not deleted by recovery
    assert_nothing_lost(originals, tmp_path)
    back = undo(store)
    assert [r.status for r in back.results] == ["done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_recover_leaves_both_when_a_look_alike_predates_the_batch(tmp_path, store,
                                                                  hard_crash):
    """The user's own copy (cp -p) already sits at the target name: same bytes, size and
    mtime.  It may not be this batch's copy, so recovery deletes nothing."""
    dest = tmp_path / "dest"
    t, originals, plan = five_copies(tmp_path, store, action=Action.MOVE, target_dir=str(dest),
                                     roots=[str(tmp_path / "t")])
    dest.mkdir()
    users_copy = dest / "1.bin"
    users_copy.write_bytes((t / "1.bin").read_bytes())
    st = os.stat(t / "1.bin")
    os.utime(users_copy, ns=(st.st_atime_ns, st.st_mtime_ns))

    def relocate(*args, **kwargs):
        raise Crash()  # before the first file

    hard_crash.setattr(actions, "relocate", relocate)
    with pytest.raises(Crash):
        execute(plan, store)
    # the look-alike was made long before the batch began
    store.connection.execute("UPDATE batches SET created_at = created_at + 3600")
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["unknown", "skipped", "skipped", "skipped"]
    assert "cannot be proven" in settled[0].message and "both are left" in settled[0].message
    assert (t / "1.bin").exists() and users_copy.exists()
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_an_undo_cut_between_link_and_unlink_is_finished_with_its_trash_info(
        tmp_path, store, trash_home, hard_crash):
    t, originals, plan = five_copies(tmp_path, store, action=Action.TRASH)
    batch_id = execute(plan, store).batch_id
    assert len(list((trash_home / "info").iterdir())) == 4
    real_remove, calls = actions.remove, []

    def remove(spot):
        calls.append(spot)
        raise Crash()  # restored under its name, still in the trash under the other

    hard_crash.setattr(actions, "remove", remove)
    with pytest.raises(Crash):
        undo(store, batch_id)
    hard_crash.setattr(actions, "remove", real_remove)
    settled = journal.recover(store)
    assert settled[0].state == "done" and "restored to" in settled[0].message
    assert "finished by recovery" in settled[0].message
    # the file is back, gone from the trash, and so is the entry that described it
    restored = Path(settled[0].target)
    assert restored.read_bytes() == originals[str(restored)]
    assert len(list((trash_home / "files").iterdir())) == 3
    assert len(list((trash_home / "info").iterdir())) == 3


def test_recovery_removes_only_the_trash_info_that_names_the_file(tmp_path):
    # a folder named "files" beside an "info" folder in a user's tree (a backup of a
    # trash, say) is no trash: an info file there that names another file stays
    files, info = tmp_path / "files", tmp_path / "info"
    files.mkdir()
    info.mkdir()
    mine, other = info / "x.bin.trashinfo", info / "y.bin.trashinfo"
    mine.write_bytes(b"[Trash Info]\nPath=/home/me/x%20y.bin\nDeletionDate=2026-01-01T00:00:00\n")
    other.write_bytes(b"[Trash Info]\nPath=/home/me/other.bin\n")
    journal._drop_trash_info(str(files / "y.bin"), "restore", "/home/me/y.bin")
    assert other.exists()  # names another file
    journal._drop_trash_info(str(files / "x.bin"), "move", "/home/me/x y.bin")
    assert mine.exists()  # not a restore
    journal._drop_trash_info(str(files / "x.bin"), "restore", "/home/me/x y.bin")
    assert not mine.exists()
    # a disk's own trash names the file from its top folder
    rel = info / "z.bin.trashinfo"
    rel.write_bytes(b"[Trash Info]\nPath=photos/z.bin\n")
    journal._drop_trash_info(str(files / "z.bin"), "restore", "/mnt/disk/photos/z.bin")
    assert not rel.exists()
