"""The freedesktop trash: constant cost per file, every file undoable, never through a link,
never across devices, the .trashinfo as the specification writes it."""

from __future__ import annotations

import ctypes
import errno
import os
import re
import stat
import time
from pathlib import Path
from urllib.parse import quote, unquote_to_bytes

import pytest

from simgui.core.cleanup import Action, actions, execute, journal, plan_removal, trash, undo
from simgui.core.cleanup.actions import Identity, Skip
from tests.test_fileops import (  # noqa: F401  (fixtures)
    make_tree, scan_groups, store, trash_home,
)


def identity(path) -> Identity:
    return Identity.of_stat(os.lstat(path))


def trashinfo(outcome) -> dict[str, str]:
    lines = Path(outcome.undo["info"]).read_text("ascii").splitlines()
    assert lines[0] == "[Trash Info]"
    return dict(line.split("=", 1) for line in lines[1:])


def fill(trash_dir: Path, names) -> None:
    """Trash entries (a file and its .trashinfo) under ``names``, as another program left them."""
    for sub in ("files", "info"):
        (trash_dir / sub).mkdir(parents=True, exist_ok=True)
    for name in names:
        for path in (trash_dir / "files" / name, trash_dir / "info" / f"{name}.trashinfo"):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


@pytest.fixture
def ops(monkeypatch):
    """Counts the file system calls the trash makes (opens, stats, renames, ...)."""
    count = [0]

    def counted(fn):
        def call(*args, **kwargs):
            count[0] += 1
            return fn(*args, **kwargs)
        return call

    for name in ("open", "stat", "lstat", "rename", "replace", "mkdir", "unlink", "link"):
        monkeypatch.setattr(os, name, counted(getattr(os, name)))
    real = actions._renameat2()
    if real is not None:
        monkeypatch.setattr(actions, "_renameat2", lambda: counted(real))
    return count


# -- the .trashinfo ---------------------------------------------------------------------


def test_trashinfo_has_the_original_bytes_url_encoded_and_the_local_deletion_time(
        tmp_path, trash_home):
    folder = tmp_path / "d i r"
    folder.mkdir()
    raw = os.path.join(os.fsencode(folder), b"bad\xff name%.bin")  # not UTF-8
    with open(raw, "wb") as f:
        f.write(b"x")
    path = os.fsdecode(raw)
    before = int(time.time())
    outcome = trash.trash(path, identity(raw))
    after = time.time()

    assert outcome.state == "done" and not os.path.lexists(raw)
    assert Path(outcome.target).read_bytes() == b"x"
    assert Path(outcome.undo["info"]).name == Path(outcome.target).name + ".trashinfo"
    info = trashinfo(outcome)
    assert info["Path"] == quote(raw, safe="/")
    assert info["Path"].endswith("/d%20i%20r/bad%FF%20name%25.bin")
    assert unquote_to_bytes(info["Path"]) == raw  # absolute, the original bytes
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", info["DeletionDate"])
    deleted = time.mktime(time.strptime(info["DeletionDate"], "%Y-%m-%dT%H:%M:%S"))
    assert before <= deleted <= after  # local time, to the second


# -- constant cost, every file undoable -------------------------------------------------------


def test_5000_files_of_one_name_cost_the_same_each(tmp_path, trash_home, ops):
    paths = []
    for i in range(5000):
        folder = tmp_path / "t" / str(i)
        folder.mkdir(parents=True)
        (folder / "same.dat").write_bytes(b"%d" % i)
        paths.append(str(folder / "same.dat"))
    costs, outcomes = [], []
    for path in paths:
        start = ops[0]
        outcomes.append(trash.trash(path, identity(path)))
        costs.append(ops[0] - start)

    assert all(o.state == "done" and o.undo is not None for o in outcomes)
    assert len({o.target for o in outcomes}) == 5000
    assert len(os.listdir(trash_home / "files")) == len(os.listdir(trash_home / "info")) == 5000
    # the last hundred files cost what the second hundred did: linear in all
    assert sum(costs[-100:]) <= sum(costs[100:200])
    assert max(costs) <= 30


def test_a_trash_already_holding_10001_entries_of_the_name_still_undoes(
        tmp_path, store, trash_home):
    # 'same.dat', 'same 1.dat' ... 'same 10000.dat': the names send2trash gives
    fill(trash_home, ["same.dat"] + [f"same {n}.dat" for n in range(1, 10_001)])
    t = tmp_path / "t"
    originals = make_tree(t, {f"{c}/same.dat": b"copy" * 100 for c in "abc"})
    result = execute(plan_removal(scan_groups(store, t), action=Action.TRASH), store)

    assert [r.status for r in result.results] == ["done", "done"]
    assert all(r.target.startswith(str(trash_home / "files")) for r in result.results)
    entries = journal.entries(store, result.batch_id)
    assert all(e.undoable for e in entries)
    back = undo(store, result.batch_id)
    assert [r.status for r in back.results] == ["done", "done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals
    # their .trashinfo went with them; the other program's entries are untouched
    assert len(os.listdir(trash_home / "files")) == len(os.listdir(trash_home / "info")) == 10_001


def test_recovery_finds_a_file_in_constant_time_under_every_name_it_may_have(
        tmp_path, trash_home, ops):
    folder = tmp_path / "t"
    folder.mkdir()
    fill(trash_home, ["same.dat"] + [f"same {n}.dat" for n in range(1, 10_001)])
    outcomes = []
    for i in range(3):
        path = folder / "same.dat"
        path.write_bytes(b"%d" % i)
        ident = identity(path)
        if i >= 1:  # the name from its inode is taken too: the caller's token names it
            fill(trash_home, [f"same.ino{ident.inode}.dat"])
        if i == 2:  # and that one as well: a random name, still undoable
            fill(trash_home, ["same.7-2.dat"])
        outcomes.append((ident, trash.trash(str(path), ident, unique=f"7-{i}")))
        assert outcomes[-1][1].undo is not None
    names = [Path(o.target).name for _, o in outcomes]
    assert names[0] == f"same.ino{outcomes[0][0].inode}.dat" and names[1] == "same.7-1.dat"
    assert re.fullmatch(r"same\.7-2-[0-9a-f]{8}\.dat", names[2])

    path = str(folder / "same.dat")
    start = ops[0]
    assert trash.find_in_trash(path, outcomes[0][0]) == (outcomes[0][1].target,
                                                         outcomes[0][1].undo["info"])
    assert ops[0] - start <= 15  # not one look per name 'same N.dat'
    assert trash.find_in_trash(path, outcomes[1][0]) is None  # its token is needed
    assert trash.find_in_trash(path, outcomes[1][0], "7-1")[0] == outcomes[1][1].target


def test_trash_entry_acts_in_the_opened_folder_and_checks_the_file_right_before(
        tmp_path, trash_home):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "a.txt").write_bytes(b"a")
    (folder / "b.txt").write_bytes(b"b")
    ident_a, ident_b = identity(folder / "a.txt"), identity(folder / "b.txt")
    fd = os.open(folder, os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_PATH", 0))
    try:
        os.rename(folder, tmp_path / "renamed")  # the opened folder is still the one acted in
        done = trash.trash_entry(fd, "a.txt", str(folder / "a.txt"), ident_a, "1-0")
        (tmp_path / "renamed" / "b.txt").write_bytes(b"changed")
        with pytest.raises(Skip, match="changed since the scan"):
            trash.trash_entry(fd, "b.txt", str(folder / "b.txt"), ident_b, "1-1")
    finally:
        os.close(fd)
    assert done.state == "done" and Path(done.target).read_bytes() == b"a"
    assert done.message == f"sent to the trash: {done.target}"
    assert done.undo == {**done.undo, "kind": "trash", "inode": ident_a.inode}
    assert (tmp_path / "renamed" / "b.txt").read_bytes() == b"changed"
    assert os.listdir(trash_home / "info") == ["a.txt.trashinfo"]


def test_a_name_too_long_for_its_trashinfo_is_shortened(tmp_path, trash_home):
    name = "é" * 123 + ".txt"  # 250 bytes: with '.trashinfo', over 255
    path = tmp_path / name
    path.write_bytes(b"long")
    outcome = trash.trash(str(path), identity(path))
    assert outcome.state == "done" and Path(outcome.target).read_bytes() == b"long"
    assert len(os.fsencode(Path(outcome.undo["info"]).name)) <= 255
    Path(outcome.target).name.encode("utf-8")  # cut between characters, not inside one
    assert unquote_to_bytes(trashinfo(outcome)["Path"]) == os.fsencode(path)


# -- where the trash is -----------------------------------------------------------------


@pytest.mark.parametrize("shared", ["absent", "sticky", "not sticky", "link"])
def test_a_file_on_another_device_goes_to_the_trash_of_its_mount_point(
        tmp_path, trash_home, monkeypatch, shared):
    volume = tmp_path / "volume"
    (volume / "d").mkdir(parents=True)
    (volume / "d" / "x.bin").write_bytes(b"on the volume")
    uid = str(os.getuid())
    if shared == "link":
        (tmp_path / "admin").mkdir(mode=0o777)
        os.chmod(tmp_path / "admin", 0o1777)
        (volume / ".Trash").symlink_to(tmp_path / "admin")
    elif shared != "absent":
        (volume / ".Trash").mkdir()
        os.chmod(volume / ".Trash", 0o1777 if shared == "sticky" else 0o777)
    # one file system here: make the home trash look like another device's
    monkeypatch.setattr(trash, "_home_device", lambda: -1)
    monkeypatch.setattr(trash, "_mount_point", lambda folder, dev: os.fsencode(volume))

    path = str(volume / "d" / "x.bin")
    ident = identity(path)
    outcome = trash.trash(path, ident)

    where = volume / (f".Trash/{uid}" if shared == "sticky" else f".Trash-{uid}")
    assert outcome.target == str(where / "files" / "x.bin")
    assert Path(outcome.target).read_bytes() == b"on the volume"
    assert stat.S_IMODE(os.lstat(where).st_mode) == 0o700
    assert trashinfo(outcome)["Path"] == "d/x.bin"  # relative to the mount point
    assert not (trash_home / "files").exists()
    if shared == "link":
        assert os.listdir(tmp_path / "admin") == []
    assert trash.find_in_trash(path, ident) == (outcome.target, outcome.undo["info"])


@pytest.mark.skipif(os.geteuid() != 0, reason="needs to give a folder to another user")
def test_no_usable_trash_on_the_device_leaves_the_file_in_place(tmp_path, trash_home,
                                                                 monkeypatch):
    volume = tmp_path / "volume"
    volume.mkdir()
    (volume / "x.bin").write_bytes(b"stays")
    taken = volume / f".Trash-{os.getuid()}"
    taken.mkdir()
    os.chown(taken, 54321, 54321)  # someone else's: it could read what is trashed there
    monkeypatch.setattr(trash, "_home_device", lambda: -1)
    monkeypatch.setattr(trash, "_mount_point", lambda folder, dev: os.fsencode(volume))
    with pytest.raises(Skip, match="stays where it is: .*belongs to another user"):
        trash.trash(str(volume / "x.bin"), identity(volume / "x.bin"))
    assert (volume / "x.bin").read_bytes() == b"stays" and os.listdir(taken) == []
    assert not (trash_home / "files").exists()


@pytest.mark.parametrize("planted", ["Trash", "Trash/files", "Trash/info"])
def test_a_link_planted_in_the_trash_is_not_followed(tmp_path, trash_home, planted):
    elsewhere = tmp_path / "elsewhere"
    for sub in ("files", "info"):
        (elsewhere / sub).mkdir(parents=True)
        (trash_home / sub).mkdir(parents=True, exist_ok=True)
    link = trash_home.parent / planted
    target = elsewhere if planted == "Trash" else elsewhere / link.name
    if planted == "Trash":
        os.rename(trash_home, tmp_path / "old-trash")
    else:
        link.rmdir()
    link.symlink_to(target)
    path = tmp_path / "x.bin"
    path.write_bytes(b"x")
    with pytest.raises(Skip, match="symbolic link"):
        trash.trash(str(path), identity(path))
    assert path.read_bytes() == b"x"
    assert os.listdir(elsewhere / "files") == [] and os.listdir(elsewhere / "info") == []


# -- a read-only file; a failure names the file ------------------------------------------------


def test_a_read_only_file_in_a_writable_folder_is_trashed(tmp_path, store, trash_home,
                                                          monkeypatch):
    real_access = os.access

    def access(path, mode, **kwargs):
        # what access() answers an ordinary user (root may write anything): moving a
        # file needs write permission on its folder, not on the file
        if mode & os.W_OK and not os.stat(path).st_mode & stat.S_IWUSR:
            return False
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "access", access)
    t = tmp_path / "t"
    originals = make_tree(t, {"a.txt": b"ro" * 10, "b.txt": b"ro" * 10})
    os.chmod(t / "b.txt", 0o444)
    result = execute(plan_removal(scan_groups(store, t), action=Action.TRASH), store)
    assert [(r.path, r.status) for r in result.results] == [(str(t / "b.txt"), "done")]
    assert stat.S_IMODE(os.lstat(result.results[0].target).st_mode) == 0o444
    back = undo(store, result.batch_id)
    assert [r.status for r in back.results] == ["done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_a_refused_move_names_the_file_and_leaves_no_trashinfo(tmp_path, trash_home,
                                                               monkeypatch):
    real = actions._renameat2()
    if real is None:
        pytest.skip("no renameat2 here")

    def refuse(src_fd, src, dst_fd, dst, flags):  # the kernel's answer for a folder we
        ctypes.set_errno(errno.EACCES)            # may not write in
        return -1

    monkeypatch.setattr(actions, "_renameat2", lambda: refuse)
    path = tmp_path / "x.bin"
    path.write_bytes(b"x")
    with pytest.raises(OSError) as failed:
        trash.trash(str(path), identity(path))
    assert actions.why(failed.value) == f"permission denied: {path}"
    assert path.read_bytes() == b"x" and os.listdir(trash_home / "info") == []


def test_a_crash_right_after_trashing_is_recovered_under_every_name(tmp_path, store,
                                                                    trash_home, monkeypatch):
    class Crash(BaseException):
        pass

    monkeypatch.setattr(journal.Recorder, "flush_quietly", lambda self: None)  # a hard crash
    fill(trash_home, ["same.dat"])  # the own name is taken: the next ones get the inode's
    t = tmp_path / "t"
    originals = make_tree(t, {f"{c}/same.dat": b"crash" * 100 for c in "abcd"})
    plan = plan_removal(scan_groups(store, t), action=Action.TRASH)
    real_entry, done = trash.trash_entry, []

    def entry(*args):
        done.append(real_entry(*args))
        if len(done) == 2:
            raise Crash()  # trashed, not journaled
        return done[-1]

    monkeypatch.setattr(trash, "trash_entry", entry)
    with pytest.raises(Crash):
        execute(plan, store)
    monkeypatch.setattr(trash, "trash_entry", real_entry)
    batch_id = journal.batches(store)[0].id
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["done", "done", "skipped"]
    assert [e.target for e in settled[:2]] == [o.target for o in done]
    assert all(".ino" in e.target and e.undoable for e in settled[:2])
    back = undo(store, batch_id)
    assert [r.status for r in back.results] == ["done", "done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_xdg_data_home_may_be_the_users_link(tmp_path, monkeypatch):
    real = tmp_path / "real-data"
    real.mkdir()
    (tmp_path / "data").symlink_to(real)  # the user's own choice: followed
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = tmp_path / "x.bin"
    path.write_bytes(b"x")
    outcome = trash.trash(str(path), identity(path))
    assert outcome.target == str(tmp_path / "data" / "Trash" / "files" / "x.bin")
    assert (real / "Trash" / "files" / "x.bin").read_bytes() == b"x"
