"""Clean-up where one file shows under two devices, where identical copies go along with
similar files, and where a file's owner, permissions and extended attributes matter.

Found by a safety audit: each test here failed before its fix."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from simgui.cli import main
from simgui.core.cleanup import Action, actions, execute, plan_removal, undo
from simgui.core.cleanup.actions import Identity, Skip, Spot
from tests.test_fileops import make_tree, scan_groups, store, trash_home  # noqa: F401 (fixtures)


def _stat(st: os.stat_result, **changed) -> os.stat_result:
    """``st`` with some fields changed (st_dev, st_ino, ...)."""
    fields = list(st)
    for name, value in changed.items():
        fields[["st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid",
                "st_size"].index(name)] = value
    return os.stat_result(fields + [st.st_atime, st.st_mtime, st.st_ctime],
                          {"st_mtime_ns": st.st_mtime_ns, "st_atime_ns": st.st_atime_ns,
                           "st_ctime_ns": st.st_ctime_ns})


# -- one file under two devices (an overlay and its upper folder, NFS mounted back) -----


def test_one_inode_number_size_and_time_on_two_devices_is_never_acted_on(tmp_path,
                                                                         monkeypatch):
    a, kept = tmp_path / "a", tmp_path / "kept"
    a.write_bytes(b"x" * 100)
    shutil.copy2(a, kept)
    st_a, st_k = os.lstat(a), os.lstat(kept)
    # what an overlay shows: the upper file's inode number, on the overlay's device
    mounted = _stat(st_a, st_dev=st_a.st_dev + 1, st_ino=st_k.st_ino)
    assert actions.through_two_mounts(mounted, st_k)
    assert not actions.through_two_mounts(st_a, st_k)  # a real copy: another inode
    assert not actions.through_two_mounts(
        _stat(mounted, st_size=99), st_k)  # another size: not one file
    real = actions.verify
    monkeypatch.setattr(actions, "verify", lambda spot, ident, what="": (
        mounted if Spot.of(spot).path == str(a) else real(spot, ident, what)))
    with pytest.raises(Skip, match="seen through another mount"):
        actions.check_before_acting(str(a), Identity.of_stat(st_a), str(kept),
                                    Identity.of_stat(st_k))


def _overlay(tmp_path: Path) -> Path:
    """An overlay of tmp_path/upper on tmp_path/merged (root only), or skip."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting an overlay needs root")
    for name in ("lower", "upper", "work", "merged"):
        (tmp_path / name).mkdir()
    made = subprocess.run(
        ["mount", "-t", "overlay", "overlay", "-o",
         f"lowerdir={tmp_path / 'lower'},upperdir={tmp_path / 'upper'},"
         f"workdir={tmp_path / 'work'}", str(tmp_path / "merged")], capture_output=True)
    if made.returncode:
        pytest.skip(f"no overlay here: {made.stderr.decode(errors='replace').strip()}")
    return tmp_path / "merged"


def test_a_file_seen_in_an_overlay_and_its_upper_folder_is_not_deleted(tmp_path,
                                                                       capsys):
    merged = _overlay(tmp_path)
    try:
        content = os.urandom(20_000)
        (merged / "x").write_bytes(content)
        db = str(tmp_path / "s.db")
        assert main(["scan", "--db", db, "--identical-only", str(merged),
                     str(tmp_path / "upper")]) == 0
        capsys.readouterr()
        main(["remove", "--db", db, "--identical-only", "--delete", "--yes"])
        out = capsys.readouterr()
        assert "seen through another mount" in out.out + out.err
        assert (merged / "x").read_bytes() == content
        assert (tmp_path / "upper" / "x").read_bytes() == content
    finally:
        subprocess.run(["umount", str(merged)], check=False)


# -- identical copies among similar files ---------------------------------------------


def test_an_identical_copy_is_compared_byte_for_byte_with_similar_files_included(
        tmp_path, store):
    t = tmp_path / "t"
    data = os.urandom(50_000)
    make_tree(t, {"a/x.bin": data, "b/x.bin": data, "c/x.bin": data[:-10] + b"0123456789"})
    [group] = scan_groups(store, t, [[t / "a/x.bin", t / "b/x.bin", t / "c/x.bin"]])
    plan = plan_removal([group], action=Action.DELETE, identical_only=False)
    proven = {os.path.basename(os.path.dirname(op.path)): op.by_identity
              for op in plan.operations}
    assert proven == {"b": True, "c": False}  # the copy is proven; the edit cannot be
    assert plan.similar_only == 1
    assert "Each identical copy is compared byte for byte" in plan.describe()
    # the kept copy rewritten in place since the scan, its size and time put back: the
    # copy's bytes now exist nowhere else, so it stays
    kept = t / "a/x.bin"
    st = os.stat(kept)
    kept.write_bytes(b"\0" * len(data))
    os.utime(kept, ns=(st.st_atime_ns, st.st_mtime_ns))
    result = execute(plan, store)
    by_name = {os.path.basename(os.path.dirname(r.path)): r for r in result.results}
    assert by_name["b"].status == "skipped" and "content differs" in by_name["b"].message
    assert (t / "b/x.bin").read_bytes() == data


# -- links take the kept copy's owner and permissions -----------------------------------


def test_a_file_with_other_permissions_is_not_replaced_by_a_link(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"same bytes", "b": b"same bytes"})
    os.chmod(t / "a", 0o644)
    os.chmod(t / "b", 0o600)  # private: a link to a would make it readable by all
    groups = scan_groups(store, t)
    for action in (Action.HARDLINK, Action.SYMLINK):
        result = execute(plan_removal(groups, action=action), store)
        [r] = result.results
        assert r.status == "skipped" and "another permissions" in r.message
        st = os.lstat(t / "b")
        assert stat.S_ISREG(st.st_mode) and st.st_nlink == 1
        assert stat.S_IMODE(st.st_mode) == 0o600
    os.chmod(t / "b", 0o644)
    groups = scan_groups(store, t)
    [r] = execute(plan_removal(groups, action=Action.HARDLINK), store).results
    assert r.status == "done" and os.path.samestat(os.lstat(t / "a"), os.lstat(t / "b"))


def test_ownership_in_words():
    st = os.lstat(__file__)
    assert actions._ownership_differs(st, st) == ""
    other = _stat(st, st_uid=st.st_uid + 1, st_gid=st.st_gid + 1)
    assert actions._ownership_differs(other, st) == "owner and group"
    other = _stat(other, st_mode=st.st_mode ^ 0o002)
    assert actions._ownership_differs(other, st) == "owner, group and permissions"


# -- a move to another file system keeps what mv keeps ----------------------------------


def _other_file_system(tmp_path: Path) -> Path:
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second file system to move across")
    folder = Path(os.path.realpath(shm)) / f"simgui-test-{os.getpid()}-{tmp_path.name}"
    folder.mkdir()
    return folder


def test_a_move_across_file_systems_keeps_attributes_owner_and_mode(tmp_path):
    src_dir = _other_file_system(tmp_path)
    try:
        src = src_dir / "x.bin"
        src.write_bytes(b"content")
        try:
            os.setxattr(src, "user.tag", b"kept")
            has_xattrs = True
        except OSError:
            has_xattrs = False
        root = os.geteuid() == 0
        if root:
            os.chown(src, 1234, 4321)
        os.chmod(src, 0o4751 if root else 0o751)
        st = os.lstat(src)
        dst = tmp_path / "x.bin"
        outcome = actions.relocate(str(src), Identity.of_stat(st), str(dst),
                                   str(tmp_path / ".tmp"), free_name=False)
        assert outcome.state == "done" and not src.exists()
        moved = os.lstat(dst)
        assert stat.S_IMODE(moved.st_mode) == stat.S_IMODE(st.st_mode)
        assert (moved.st_uid, moved.st_gid) == (st.st_uid, st.st_gid)
        assert moved.st_mtime_ns == st.st_mtime_ns
        if has_xattrs:
            assert os.getxattr(dst, "user.tag") == b"kept"
    finally:
        shutil.rmtree(src_dir, ignore_errors=True)


def test_a_copy_that_cannot_take_its_owner_loses_set_id_bits(tmp_path, monkeypatch):
    src = tmp_path / "tool"
    src.write_bytes(b"#!/bin/sh\n")
    os.chmod(src, 0o6755)
    st = os.lstat(src)
    foreign = _stat(st, st_uid=st.st_uid + 1)  # someone else's file

    def refuse(fd, uid, gid):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", refuse)
    fd = os.open(tmp_path / "copy", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with open(src, "rb") as f:
            actions._copy_attributes(f.fileno(), fd, foreign)
    finally:
        os.close(fd)
    assert stat.S_IMODE(os.lstat(tmp_path / "copy").st_mode) == 0o755


# -- folders ---------------------------------------------------------------------------


def test_moving_a_folder_into_the_folder_that_holds_it_is_refused(tmp_path, capsys):
    make_tree(tmp_path / "d", {"keep/x.bin": b"data" * 100, "F/x.bin": b"data" * 100})
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, str(tmp_path / "d")]) == 0
    capsys.readouterr()
    assert main(["folders", "--db", db, "--move", str(tmp_path / "d/F"), "--to",
                 str(tmp_path / "d"), "--yes"]) != 0
    out = capsys.readouterr()
    assert "leaves it where it is" in out.out + out.err
    assert sorted(os.listdir(tmp_path / "d/F")) == ["x.bin"]


# -- undo into a scanned folder deleted since -------------------------------------------


def test_undo_makes_a_deleted_scanned_folder_again(tmp_path, store, trash_home):
    keep, dupes = tmp_path / "keep", tmp_path / "dupes"
    make_tree(keep, {"x.bin": b"payload" * 50})
    make_tree(dupes, {"sub/x.bin": b"payload" * 50})
    os.utime(dupes / "sub/x.bin", ns=(1_700_000_000_000_000_000,) * 2)  # the newer copy
    groups = scan_groups(store, tmp_path, [[keep / "x.bin", dupes / "sub/x.bin"]])
    plan = plan_removal(groups, action=Action.TRASH)
    plan.roots = [str(keep), str(dupes)]
    [r] = execute(plan, store).results
    assert r.status == "done"
    shutil.rmtree(dupes)  # the user deletes the emptied folder
    undone = undo(store)
    assert [(u.path, u.status) for u in undone.results] == [(str(dupes / "sub/x.bin"), "done")]
    assert (dupes / "sub/x.bin").read_bytes() == b"payload" * 50


def test_undo_does_not_remake_a_folder_whose_disk_is_not_mounted(tmp_path, store, trash_home,
                                                                 monkeypatch):
    # the scanned folder was on a disk now unmounted: its mount point is an empty folder
    # of another device; a folder made there would hide the file when the disk is back
    keep, dupes = tmp_path / "keep", tmp_path / "dupes"
    make_tree(keep, {"x.bin": b"payload" * 50})
    make_tree(dupes, {"sub/x.bin": b"payload" * 50})
    os.utime(dupes / "sub/x.bin", ns=(1_700_000_000_000_000_000,) * 2)
    groups = scan_groups(store, tmp_path, [[keep / "x.bin", dupes / "sub/x.bin"]])
    plan = plan_removal(groups, action=Action.TRASH)
    plan.roots = [str(keep), str(dupes)]
    assert execute(plan, store).results[0].status == "done"
    shutil.rmtree(dupes)
    real_stat = os.stat

    def other_device(path, *args, **kwargs):
        st = real_stat(path, *args, **kwargs)
        return _stat(st, st_dev=st.st_dev + 7) if str(path) == str(tmp_path) else st

    monkeypatch.setattr(os, "stat", other_device)
    [r] = undo(store).results
    assert r.status == "skipped" and "on another disk now" in r.message
    assert not dupes.exists()  # nothing made on the wrong disk


def test_a_merge_never_remakes_a_scanned_folder_that_is_gone(tmp_path, capsys,
                                                            monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    a, b = tmp_path / "a", tmp_path / "b"
    base = bytes(range(256)) * 60
    make_tree(a, {"notes.bin": base + b"A's end" * 20, "only.bin": b"only in a" * 300})
    make_tree(b, {"notes.bin": base + b"B's end" * 20})
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(a), str(b)]) == 0
    shutil.rmtree(b)  # B's disk unmounted, say: its scanned folder is gone
    main(["folders", "--db", db, "--merge", str(a), "--into", str(b), "--yes"])
    capsys.readouterr()
    assert not b.exists()  # not made again, and nothing copied into it
    assert (a / "notes.bin").exists() and (a / "only.bin").exists()  # A untouched


def test_attributes_are_given_after_the_owner(tmp_path, monkeypatch):
    # a change of owner clears file capabilities (security.capability): given before the
    # owner, they were lost on every move across file systems
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_bytes(b"x")
    dst.write_bytes(b"")
    calls = []
    monkeypatch.setattr(os, "listxattr", lambda fd: ["security.capability"])
    monkeypatch.setattr(os, "getxattr", lambda fd, name: b"caps")
    monkeypatch.setattr(os, "setxattr", lambda fd, name, value: calls.append("xattr"))
    monkeypatch.setattr(os, "fchown", lambda fd, uid, gid: calls.append("owner"))
    real_fchmod = os.fchmod
    monkeypatch.setattr(os, "fchmod", lambda fd, mode: calls.append("mode")
                        or real_fchmod(fd, mode))
    with open(src, "rb") as a, open(dst, "r+b") as b:
        actions._copy_attributes(a.fileno(), b.fileno(), os.fstat(a.fileno()))
    assert calls == ["owner", "xattr", "mode"]


def test_undo_makes_no_folder_below_a_scanned_one_on_another_disk(tmp_path, store,
                                                                  monkeypatch):
    # the scanned folder holds a disk's mount point (media/usb): unplugged, the mount
    # point is gone; a file put back must not land in a media/usb made on the system disk
    media, target = tmp_path / "media", tmp_path / "moved"
    make_tree(media, {"keep.bin": b"payload" * 50, "usb/docs/x.bin": b"payload" * 50})
    os.utime(media / "usb/docs/x.bin", ns=(1_700_000_000_000_000_000,) * 2)
    groups = scan_groups(store, media, [[media / "keep.bin", media / "usb/docs/x.bin"]])
    plan = plan_removal(groups, action=Action.MOVE, target_dir=str(target),
                        roots=[str(media)])
    assert execute(plan, store).results[0].status == "done"
    shutil.rmtree(media / "usb")
    real_fstat = os.fstat

    def other_device(fd):
        st = real_fstat(fd)
        at = os.readlink(f"/proc/self/fd/{fd}") if isinstance(fd, int) else ""
        return _stat(st, st_dev=st.st_dev + 7) if at == str(media) else st

    monkeypatch.setattr(os, "fstat", other_device)
    [r] = undo(store).results
    assert r.status == "skipped" and "on another disk now" in r.message
    assert not (media / "usb").exists()
    monkeypatch.setattr(os, "fstat", real_fstat)  # the same disk: it goes back
    [r] = undo(store).results
    assert r.status == "done" and (media / "usb/docs/x.bin").read_bytes() == b"payload" * 50


@pytest.mark.parametrize("through_a_link", [False, True])
def test_a_remade_scanned_folder_goes_again_when_the_file_cannot_go_back(
        tmp_path, store, trash_home, monkeypatch, through_a_link):
    # (named through a link, as /home often is: made by its path, removed by it too)
    base = tmp_path
    if through_a_link:
        (tmp_path / "real").mkdir()
        (tmp_path / "link").symlink_to(tmp_path / "real")
        base = tmp_path / "link"
    keep, dupes = base / "keep", base / "dupes"
    make_tree(keep, {"x.bin": b"payload" * 50})
    make_tree(dupes, {"sub/x.bin": b"payload" * 50})
    os.utime(dupes / "sub/x.bin", ns=(1_700_000_000_000_000_000,) * 2)
    from simgui.core.reading.scanner import scan

    scan(store, [dupes])  # (each folder named through the link: the link is above it)
    groups = scan_groups(store, keep, [[keep / "x.bin", dupes / "sub/x.bin"]])
    plan = plan_removal(groups, action=Action.TRASH)
    plan.roots = [str(keep), str(dupes)]
    assert execute(plan, store).results[0].status == "done"
    shutil.rmtree(dupes)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(actions, "relocate", full)
    [r] = undo(store).results
    assert r.status == "failed"
    assert not dupes.exists()  # made for the file, removed when it could not come
