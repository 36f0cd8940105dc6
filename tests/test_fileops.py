"""Safe clean-up: plans, and every fault injection the issue lists, each losing nothing."""

from __future__ import annotations

import dataclasses
import errno
import os
import random
import signal
from pathlib import Path

import pytest
import xxhash

from simgui.core.cleanup import actions, journal, running
from simgui.core.cleanup.plan import Operation, Plan
from simgui.core.cleanup import Action, KeepRule, execute, plan_marked, plan_removal, undo
from simgui.core.search.groups import Group, Member
from simgui.core.reading.scanner import scan
from simgui.core.store import Store

# -- helpers (test_journal.py uses them too) ----------------------------------------


@pytest.fixture
def trash_home(tmp_path, monkeypatch):
    """A throwaway HOME and freedesktop trash: tests never touch the real trash (the
    trash reads both variables each time it looks for the home trash)."""
    home = tmp_path / "home"
    data = home / ".local" / "share"
    data.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    return data / "Trash"


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "store.db") as s:
        yield s


def make_tree(root: Path, files: dict[str, bytes]) -> dict[str, bytes]:
    """Write files (relative name -> content); returns absolute path -> content."""
    out = {}
    for i, (name, content) in enumerate(sorted(files.items())):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        # distinct mtimes, oldest first in name order, so keep rules are predictable
        os.utime(path, ns=(1_600_000_000_000_000_000 + i * 10**9,) * 2)
        out[str(path)] = content
    return out


def scan_groups(store: Store, root: Path, sets: list[list[str]] | None = None) -> list[Group]:
    """Scan ``root`` and group its files: by content hash, or as the explicit path lists."""
    scan(store, [root])
    files = store.files()
    index = {p: i for i, p in enumerate(files.paths)}
    if sets is None:
        by_hash: dict[bytes, list[str]] = {}
        for p, h in zip(files.paths, files.hashes):
            by_hash.setdefault(h, []).append(p)
        sets = [ps for ps in by_hash.values() if len(ps) > 1]
    groups = []
    for gid, paths in enumerate(sets, 1):
        members = [member(files, index[str(p)], files.hashes[index[str(paths[0])]])
                   for p in paths]
        groups.append(Group(gid, members[0], tuple(members[1:])))
    return groups


def member(files, i: int, ref_hash: bytes) -> Member:
    same = files.hashes[i] == ref_hash
    return Member(i, files.paths[i], int(files.sizes[i]), int(files.mtimes_ns[i]),
                  int(files.devices[i]), int(files.inodes[i]), files.hashes[i], same,
                  0.0, 0 if same else 1, 100.0 if same else 90.0)


def stat_member(path: str, index: int = 0) -> Member:
    st = os.lstat(path)
    h = xxhash.xxh3_128(Path(path).read_bytes()).digest()
    return Member(index, path, st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino, h, True,
                  0.0, 0, 100.0)


def full_path(name, dir_fd=None) -> str:
    """The path a call names: clean-up calls name files in opened folders (``dir_fd``)."""
    name = os.fsdecode(name)
    if dir_fd is None or os.path.isabs(name):
        return name
    return os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), name)


def every_content(*folders: Path) -> list[bytes]:
    found = []
    for folder in folders:
        for dirpath, _, names in os.walk(folder):
            for name in names:
                p = os.path.join(dirpath, name)
                if os.path.isfile(p) and not p.endswith((".db", ".db-wal", ".db-shm",
                                                         ".trashinfo")):
                    found.append(Path(p).read_bytes())
    return found


def assert_nothing_lost(originals: dict[str, bytes], *folders: Path) -> None:
    """Every original content still exists somewhere: in place, at a target, in the trash."""
    present = set(every_content(*folders))
    lost = [p for p, c in originals.items() if c not in present]
    assert not lost, f"data lost: {lost}"


def statuses(result) -> dict[str, str]:
    return {os.path.basename(r.path): r.status for r in result.results}


# -- planning -------------------------------------------------------------------------


def test_keep_rules_and_deterministic_ties(tmp_path, store):
    make_tree(tmp_path / "t", {"a/long/name.txt": b"x" * 10, "b.txt": b"x" * 10,
                               "c.txt": b"x" * 10})
    groups = scan_groups(store, tmp_path / "t")
    kept = {rule: plan_removal(groups, action=Action.TRASH, keep=rule).kept[1].path
            for rule in KeepRule}
    root = str(tmp_path / "t")
    assert kept[KeepRule.OLDEST] == root + "/a/long/name.txt"
    assert kept[KeepRule.NEWEST] == root + "/c.txt"
    assert kept[KeepRule.SHORTEST_PATH] == root + "/b.txt"
    # equal sizes: the shortest path, as the groups pick their reference
    assert kept[KeepRule.LARGEST] == root + "/b.txt"


def test_reference_folder_files_are_kept_first_and_never_touched(tmp_path, store):
    make_tree(tmp_path / "t", {"ref/x": b"same", "ref/y": b"same", "other/z": b"same"})
    groups = scan_groups(store, tmp_path / "t")
    plan = plan_removal(groups, action=Action.DELETE, keep=KeepRule.NEWEST,
                        references=[str(tmp_path / "t" / "ref")])
    assert plan.kept[1].path.endswith("ref/y")
    assert [op.path for op in plan.operations] == [str(tmp_path / "t/other/z")]
    assert plan.left_alone == 1  # ref/x


def test_identical_only_leaves_similar_files_alone(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"same content", "b": b"same content", "c": b"same c0ntent"})
    groups = scan_groups(store, t, [[t / "a", t / "b", t / "c"]])
    plan = plan_removal(groups, action=Action.TRASH, identical_only=True)
    assert [op.path for op in plan.operations] == [str(t / "b")]
    assert plan.left_alone == 1 and all(op.by_identity for op in plan.operations)
    everything = plan_removal(groups, action=Action.TRASH)
    # with similar files included, the identical copy is still proven byte for byte
    assert [(op.path, op.by_identity) for op in everything.operations] == [
        (str(t / "b"), True), (str(t / "c"), False)]


def test_copies_of_each_other_are_reduced_to_one_when_the_kept_file_is_an_edit(
        tmp_path, store):
    """The rule may keep an edited version (here the oldest): the copies of the original,
    only similar to it, are still copies of each other, so one of them stays (the best
    by the rule, left alone as only similar) and the others go."""
    t = tmp_path / "t"
    make_tree(t, {"edit": b"same c0ntent", "x": b"same content", "y": b"same content",
                  "z": b"same content", "w": b"other w0rds!"})
    for age, name in enumerate(["edit", "y", "z", "x", "w"]):
        os.utime(t / name, ns=(1, (age + 1) * 10**9))
    groups = scan_groups(store, t, [[t / n for n in ("edit", "x", "y", "z", "w")]])
    plan = plan_removal(groups, action=Action.TRASH, identical_only=True)
    assert plan.kept[1].path == str(t / "edit")
    assert sorted(op.path for op in plan.operations) == [str(t / "x"), str(t / "z")]
    assert {op.kept.path for op in plan.operations} == {str(t / "y")}
    assert plan.left_similar == 2  # y (the copies' own) and w
    # the user's marks are kept as marked: a marked copy still needs a copy that stays
    marked = plan_marked(groups, [str(t / "x")], action=Action.TRASH, identical_only=True)
    assert [op.path for op in marked.operations] == [str(t / "x")]
    # links point at the kept file alone, never at a copy a later run may remove
    linked = plan_removal(groups, action=Action.SYMLINK, identical_only=True)
    assert not linked.operations and linked.left_similar == 4
    # another name of a copy that stays is not planned against it (it frees nothing)
    g = groups[0]
    y = next(m for m in g.members if m.path == str(t / "y"))
    alias = dataclasses.replace(y, index=99, path=str(t / "y2"))  # (a bind mount, say)
    groups = [Group(g.id, g.reference, (*g.members, alias))]
    plan = plan_removal(groups, action=Action.TRASH, identical_only=True)
    assert sorted(op.path for op in plan.operations) == [str(t / "x"), str(t / "z")]
    assert plan.other_names == 1


def test_hard_links_need_identity_and_the_same_device(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"one", "b": b"one", "c": b"one", "d": b"onf"})
    g = scan_groups(store, t, [[t / "a", t / "b", t / "c", t / "d"]])[0]
    c = g.members[1]
    elsewhere = Member(c.index, c.path, c.size, c.mtime_ns, c.device + 1, c.inode,
                       c.content_hash, True, 0, 0, 100)
    g = Group(g.id, g.reference, (g.members[0], elsewhere, g.members[2]))
    plan = plan_removal([g], action=Action.HARDLINK)
    assert [op.path for op in plan.operations] == [str(t / "b")]
    symlinks = plan_removal([g], action=Action.SYMLINK)
    assert [op.path for op in symlinks.operations] == [str(t / "b"), str(t / "c")]
    # marked by hand, the group is refused as a whole, and the reason says which kind
    marked = plan_marked([g], [str(t / "b"), str(t / "d")], action=Action.HARDLINK)
    assert not marked.operations and len(marked.refused) == 1
    assert "only similar to the files that stay" in marked.refused[0].reason
    marked = plan_marked([g], [str(t / "b"), str(t / "c")], action=Action.HARDLINK)
    assert [r.reason for r in marked.refused] == [
        f"{t / 'c'} has no identical copy that stays on the same device"]


def test_marked_plan_refuses_groups_that_would_lose_every_copy(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"g1/a": b"1", "g1/b": b"1", "g2/a": b"22", "g2/b": b"22",
                  "g3/a": b"333", "g3/ref/b": b"333"})
    groups = scan_groups(store, t)
    everything = [m.path for g in groups for m in g.files]
    plan = plan_marked(groups, everything[:2] + everything[2:3] + everything[4:],
                       action=Action.DELETE, references=[str(t / "g3/ref")])
    reasons = {r.group_id: r.reason for r in plan.refused}
    assert "every file is marked" in reasons[1]
    assert "reference folder" in reasons[3]
    assert [op.path for op in plan.operations] == [everything[2]]
    text = plan.describe()
    assert "Delete 1 file (2 B) permanently" in text and "2 groups refused" in text


def test_a_file_in_two_groups_refuses_both(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"1", "b": b"1", "c": b"1"})
    groups = scan_groups(store, t, [[t / "a", t / "b"], [t / "b", t / "c"]])
    plan = plan_removal(groups, action=Action.DELETE)
    assert not plan.operations and len(plan.refused) == 2


def test_move_targets_keep_the_path_under_the_longest_root(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"x/sub/a": b"1", "x/sub/b": b"1", "y/c": b"1"})
    groups = scan_groups(store, t)
    plan = plan_removal(groups, action=Action.MOVE, target_dir=str(tmp_path / "dest"),
                        roots=[str(t), str(t / "x")])
    targets = sorted(op.target for op in plan.operations)
    assert targets == [str(tmp_path / "dest/sub/b"), str(tmp_path / "dest/y/c")]
    outside = plan_removal(groups, action=Action.MOVE, target_dir=str(tmp_path / "dest"))
    assert str(tmp_path / "dest" / str(t).lstrip("/") / "x/sub/b") in [
        op.target for op in outside.operations]
    with pytest.raises(ValueError):
        plan_removal(groups, action=Action.MOVE)


# -- executing, the happy paths ------------------------------------------------------------


def test_trash_then_undo(tmp_path, store, trash_home):
    t = tmp_path / "t"
    originals = make_tree(t, {"a/f.txt": b"data" * 100, "b/f.txt": b"data" * 100,
                              "c/f.txt": b"data" * 100})
    groups = scan_groups(store, t)
    result = execute(plan_removal(groups, action=Action.TRASH), store)
    assert [r.status for r in result.results] == ["done", "done"]
    assert os.path.exists(t / "a/f.txt") and not os.path.exists(t / "b/f.txt")
    trashed = sorted(os.listdir(trash_home / "files"))  # the second named by its inode
    assert trashed[1] == "f.txt" and trashed[0].startswith("f.ino") and trashed[0].endswith(".txt")
    assert all(r.target and r.target.startswith(str(trash_home)) for r in result.results)
    assert_nothing_lost(originals, tmp_path)
    entries = journal.entries(store, result.batch_id)
    assert [e.state for e in entries] == ["done", "done"] and all(e.undoable for e in entries)

    back = undo(store)
    assert [r.status for r in back.results] == ["done", "done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals
    assert os.listdir(trash_home / "files") == [] and os.listdir(trash_home / "info") == []
    assert not any(e.undoable for e in journal.entries(store, result.batch_id))
    with pytest.raises(journal.UndoError):
        undo(store)


def test_permanent_delete(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"z" * 5000, "b": b"z" * 5000})
    result = execute(plan_removal(scan_groups(store, t), action=Action.DELETE), store)
    assert statuses(result) == {"b": "done"} and result.bytes_done == 5000
    assert (t / "a").read_bytes() == b"z" * 5000 and not (t / "b").exists()
    assert not journal.entries(store, result.batch_id)[0].undoable


def test_move_keeps_relative_paths_and_undo_puts_back(tmp_path, store):
    t, dest = tmp_path / "t", tmp_path / "dest"
    originals = make_tree(t, {"keep/a.bin": b"A" * 300, "dup/deep/a.bin": b"A" * 300})
    plan = plan_removal(scan_groups(store, t), action=Action.MOVE, target_dir=str(dest),
                        roots=[str(t)], keep=KeepRule.NEWEST)
    assert "Move 1 file (300 B) to" in plan.describe()
    result = execute(plan, store)
    assert result.results[0].status == "done"
    assert (dest / "dup/deep/a.bin").read_bytes() == b"A" * 300
    assert not (t / "dup/deep/a.bin").exists()
    back = undo(store, result.batch_id)
    assert back.results[0].status == "done"
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_undo_never_overwrites_a_file_that_took_the_original_place(tmp_path, store):
    t, dest = tmp_path / "t", tmp_path / "dest"
    make_tree(t, {"a": b"1" * 10, "b": b"1" * 10})
    result = execute(plan_removal(scan_groups(store, t), action=Action.MOVE,
                                  target_dir=str(dest), roots=[str(t)]), store)
    (t / "b").write_bytes(b"new file")
    back = undo(store)
    assert back.results[0].status == "skipped" and "taken" in back.results[0].message
    assert (t / "b").read_bytes() == b"new file" and (dest / "b").read_bytes() == b"1" * 10
    assert journal.entries(store, result.batch_id)[0].undoable  # still undoable later


@pytest.mark.parametrize("action", [Action.HARDLINK, Action.SYMLINK])
def test_links_replace_identical_files(tmp_path, store, action):
    t = tmp_path / "t"
    make_tree(t, {"a": b"L" * 4096, "b": b"L" * 4096, "c": b"L" * 4096})
    result = execute(plan_removal(scan_groups(store, t), action=action), store)
    assert [r.status for r in result.results] == ["done", "done"]
    for name in "bc":
        assert (t / name).read_bytes() == b"L" * 4096
        if action is Action.HARDLINK:
            assert os.path.samefile(t / "a", t / name) and not (t / name).is_symlink()
        else:
            assert os.readlink(t / name) == str(t / "a")
    assert not [n for n in os.listdir(t) if n.startswith(".simgui")]


# -- fault injection: each one loses nothing --------------------------------------------


def test_permission_denied_is_a_failure_and_the_others_go_on(tmp_path, store, monkeypatch):
    t = tmp_path / "t"
    originals = make_tree(t, {"a": b"p" * 10, "b": b"p" * 10, "c": b"p" * 10})
    real_unlink = os.unlink

    def unlink(path, *args, **kwargs):
        if full_path(path, kwargs.get("dir_fd")) == str(t / "b"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    result = execute(plan_removal(scan_groups(store, t), action=Action.DELETE), store)
    assert statuses(result) == {"b": "failed", "c": "done"}
    assert "permission denied" in result.failed[0].message
    assert (t / "b").exists()
    assert [e.state for e in journal.entries(store, result.batch_id)] == ["failed", "done"]
    assert_nothing_lost(originals, tmp_path)


def test_permission_denied_by_the_trash(tmp_path, store, trash_home, monkeypatch):
    t = tmp_path / "t"
    originals = make_tree(t, {"a": b"q" * 10, "b": b"q" * 10})
    real_rename = actions.rename_noreplace_at

    def rename(src_fd, src, dst_fd, dst):
        if src == b"b":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_rename(src_fd, src, dst_fd, dst)

    monkeypatch.setattr(actions, "rename_noreplace_at", rename)
    result = execute(plan_removal(scan_groups(store, t), action=Action.TRASH), store)
    assert statuses(result) == {"b": "failed"} and (t / "b").exists()
    assert str(t / "b") in result.failed[0].message
    assert_nothing_lost(originals, tmp_path)


def test_file_changed_after_the_scan_is_skipped(tmp_path, store, trash_home):
    t = tmp_path / "t"
    make_tree(t, {"a": b"c" * 100, "b": b"c" * 100, "c": b"c" * 100, "d": b"c" * 100})
    groups = scan_groups(store, t)
    (t / "b").write_bytes(b"precious new content")  # rewritten: size and mtime differ
    st = os.stat(t / "c")
    (t / "c").write_bytes(b"C" * 100)  # same size, mtime put back: only the bytes tell
    os.utime(t / "c", ns=(st.st_atime_ns, st.st_mtime_ns))
    result = execute(plan_removal(groups, action=Action.TRASH, identical_only=True), store)
    assert statuses(result) == {"b": "skipped", "c": "skipped", "d": "done"}
    assert "changed since the scan" in result.results[0].message
    assert "content differs" in result.results[1].message
    assert (t / "b").read_bytes() == b"precious new content"
    assert (t / "c").read_bytes() == b"C" * 100


def test_file_deleted_or_replaced_after_the_scan_is_skipped(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"d" * 10, "b": b"d" * 10, "c": b"d" * 10})
    groups = scan_groups(store, t)
    os.unlink(t / "b")
    os.unlink(t / "c")
    os.symlink(t / "a", t / "c")
    result = execute(plan_removal(groups, action=Action.DELETE), store)
    assert statuses(result) == {"b": "skipped", "c": "skipped"}
    assert "gone" in result.results[0].message and "symbolic link" in result.results[1].message
    assert (t / "a").read_bytes() == b"d" * 10 and os.path.islink(t / "c")


def test_kept_copy_gone_means_nothing_is_removed(tmp_path, store):
    t = tmp_path / "t"
    originals = make_tree(t, {"a": b"k" * 10, "b": b"k" * 10})
    groups = scan_groups(store, t)
    os.rename(t / "a", tmp_path / "elsewhere")
    result = execute(plan_removal(groups, action=Action.DELETE), store)
    assert statuses(result) == {"b": "skipped"} and "kept copy" in result.results[0].message
    assert_nothing_lost(originals, tmp_path)


def _other_file_system(monkeypatch, dest: Path) -> None:
    """Pretend ``dest`` is another file system: links and renames into or out of it fail."""
    real_link, real_rename = os.link, os.rename

    def crosses(src, dst, kwargs) -> bool:
        inside = [full_path(p, kwargs.get(fd)).startswith(str(dest))
                  for p, fd in ((src, "src_dir_fd"), (dst, "dst_dir_fd"))]
        return inside[0] != inside[1]

    def link(src, dst, **kwargs):
        if crosses(src, dst, kwargs):
            raise OSError(errno.EXDEV, "Invalid cross-device link", os.fsdecode(src))
        return real_link(src, dst, **kwargs)

    def rename(src, dst, **kwargs):
        if crosses(src, dst, kwargs):
            raise OSError(errno.EXDEV, "Invalid cross-device link", os.fsdecode(src))
        return real_rename(src, dst, **kwargs)

    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "rename", rename)


def test_move_to_another_file_system_copies_verifies_then_removes(tmp_path, store,
                                                                  monkeypatch):
    t, dest = tmp_path / "t", tmp_path / "dest"
    originals = make_tree(t, {"a": os.urandom(3 << 20), "sub/b": b"b"})
    originals.update(make_tree(t / "dup", {"a": originals[str(t / "a")], "sub/b": b"b"}))
    _other_file_system(monkeypatch, dest)
    result = execute(plan_removal(scan_groups(store, t), action=Action.MOVE,
                                  target_dir=str(dest), roots=[str(t / "dup"), str(t)],
                                  keep=KeepRule.SHORTEST_PATH), store)
    assert [r.status for r in result.results] == ["done", "done"], result.describe()
    assert all("another file system" in r.message for r in result.results)
    assert (dest / "a").read_bytes() == originals[str(t / "a")]
    assert os.stat(dest / "a").st_mtime_ns == os.stat(t / "a").st_mtime_ns
    assert not (t / "dup/a").exists() and not (t / "dup/sub/b").exists()
    assert not [n for n in os.listdir(dest) if n.startswith(".simgui")]
    assert_nothing_lost(originals, tmp_path)
    back = undo(store)  # back across the file systems, the same careful way
    assert [r.status for r in back.results] == ["done", "done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_name_clash_at_the_target_never_overwrites(tmp_path, store):
    t, dest = tmp_path / "t", tmp_path / "dest"
    originals = make_tree(t, {"a/x.txt": b"mine", "b/x.txt": b"mine", "c/x.txt": b"mine"})
    occupant = make_tree(dest, {"b/x.txt": b"already here", "b/x (1).txt": b"me too"})
    result = execute(plan_removal(scan_groups(store, t), action=Action.MOVE,
                                  target_dir=str(dest), roots=[str(t)]), store)
    assert [r.status for r in result.results] == ["done", "done"]
    assert result.results[0].target == str(dest / "b/x (2).txt")
    assert "was taken" in result.results[0].message
    assert (dest / "b/x.txt").read_bytes() == b"already here"
    assert (dest / "b/x (1).txt").read_bytes() == b"me too"
    assert (dest / "c/x.txt").read_bytes() == b"mine"
    assert_nothing_lost({**originals, **occupant}, tmp_path)


def test_disk_full_during_a_move_leaves_the_source_and_no_debris(tmp_path, store,
                                                                 monkeypatch):
    t, dest = tmp_path / "t", tmp_path / "dest"
    originals = make_tree(t, {"a": b"F" * 100_000, "b": b"F" * 100_000})
    _other_file_system(monkeypatch, dest)

    def copy_data(f_in, f_out):
        f_out.write(f_in.read(1000))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(actions, "copy_data", copy_data)
    result = execute(plan_removal(scan_groups(store, t), action=Action.MOVE,
                                  target_dir=str(dest), roots=[str(t)]), store)
    assert statuses(result) == {"b": "failed"}
    assert "no space left" in result.results[0].message
    assert (t / "b").read_bytes() == b"F" * 100_000 and not dest.exists()  # made, removed
    assert journal.entries(store, result.batch_id)[0].state == "failed"
    assert_nothing_lost(originals, tmp_path)


def test_failure_to_remove_the_source_after_copying_rolls_back(tmp_path, store, monkeypatch):
    t, dest = tmp_path / "t", tmp_path / "dest"
    originals = make_tree(t, {"a": b"R" * 10, "b": b"R" * 10})
    _other_file_system(monkeypatch, dest)
    real_unlink = os.unlink

    def unlink(path, *args, **kwargs):
        if full_path(path, kwargs.get("dir_fd")) == str(t / "b"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    result = execute(plan_removal(scan_groups(store, t), action=Action.MOVE,
                                  target_dir=str(dest), roots=[str(t)]), store)
    assert statuses(result) == {"b": "failed"}
    assert (t / "b").exists() and not dest.exists()  # one copy, where it was
    assert_nothing_lost(originals, tmp_path)


def test_hard_link_failure_leaves_the_duplicate_untouched(tmp_path, store, monkeypatch):
    t = tmp_path / "t"
    originals = make_tree(t, {"a": b"H" * 10, "b": b"H" * 10})

    def replace(src, dst, **kwargs):
        raise OSError(errno.EIO, "Input/output error", dst)

    monkeypatch.setattr(os, "replace", replace)
    result = execute(plan_removal(scan_groups(store, t), action=Action.HARDLINK), store)
    assert statuses(result) == {"b": "failed"}
    assert not os.path.samefile(t / "a", t / "b") and sorted(os.listdir(t)) == ["a", "b"]
    assert_nothing_lost(originals, tmp_path)


def test_hard_link_over_a_file_whose_bytes_changed_is_skipped(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"same-size-1", "b": b"same-size-1"})
    groups = scan_groups(store, t)
    st = os.stat(t / "b")
    (t / "b").write_bytes(b"same-size-2")
    os.utime(t / "b", ns=(st.st_atime_ns, st.st_mtime_ns))
    result = execute(plan_removal(groups, action=Action.HARDLINK), store)
    assert statuses(result) == {"b": "skipped"}
    assert (t / "b").read_bytes() == b"same-size-2"


def test_every_member_marked_touches_nothing(tmp_path, store):
    t = tmp_path / "t"
    originals = make_tree(t, {"a": b"m", "b": b"m", "c": b"m"})
    groups = scan_groups(store, t)
    plan = plan_marked(groups, list(originals), action=Action.DELETE)
    assert not plan.operations and "every file is marked" in plan.refused[0].reason
    assert plan.describe().startswith("Nothing to do.")
    result = execute(plan, store)
    assert result.results == []
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_cancel_stops_before_the_next_file(tmp_path, store, monkeypatch):
    t = tmp_path / "t"
    originals = make_tree(t, {f"{i:02}": b"same" for i in range(10)})
    monkeypatch.setattr(running, "_PROGRESS_EVERY_SECONDS", 0)
    seen = []

    def progress(p):
        seen.append(p)
        return p.files_done < 3

    result = execute(plan_removal(scan_groups(store, t), action=Action.DELETE), store,
                     progress=progress)
    assert result.cancelled and len(result.done) == 3 and len(result.skipped) == 6
    assert all(r.message == "cancelled before this file" for r in result.skipped)
    assert sum(os.path.exists(p) for p in originals) == 7
    batch = journal.batches(store)[0]
    assert batch.status == "cancelled" and batch.counts == {"done": 3, "skipped": 6}


def test_ten_thousand_files_in_a_few_transactions(tmp_path, store):
    """Speed by construction: one commit per few hundred files, never one per file."""
    t = tmp_path / "t"
    t.mkdir()
    groups = []
    for g in range(2500):
        paths = []
        for k in range(5):
            p = t / f"{g}-{k}.txt"
            p.write_bytes(b"%d" % g)
            paths.append(str(p))
        ms = [stat_member(p, i) for i, p in enumerate(paths)]
        groups.append(Group(g, ms[0], tuple(ms[1:])))
    statements = []
    store.connection.set_trace_callback(statements.append)
    plan = plan_removal(groups, action=Action.DELETE, identical_only=True)
    result = execute(plan, store)
    store.connection.set_trace_callback(None)
    assert len(result.done) == 10_000 and not result.failed and not result.skipped
    commits = sum(s == "COMMIT" for s in statements)
    assert commits <= 1 + 10_000 // 500 + 20
    assert sorted(os.listdir(t)) == sorted(f"{g}-0.txt" for g in range(2500))
    assert journal.batches(store)[0].counts == {"done": 10_000}


# -- one file under two paths ------------------------------------------------------------


def _aliased(tmp_path) -> tuple[Path, Path, bytes]:
    """One file reached by two paths: directly, and through a symbolic link to its folder
    (as a second scan through ~/Pictures -> /data would store it)."""
    data = tmp_path / "data"
    content = os.urandom(20_000)
    make_tree(data, {"photos/only.jpg": content})
    os.symlink(data, tmp_path / "link")
    return data / "photos/only.jpg", tmp_path / "link/photos/only.jpg", content


@pytest.mark.parametrize("action", list(Action))
def test_another_name_of_the_kept_file_is_not_planned(tmp_path, action):
    direct, alias, _ = _aliased(tmp_path)
    group = Group(1, stat_member(str(direct), 0), (stat_member(str(alias), 1),))
    plan = plan_removal([group], action=action, identical_only=True,
                        target_dir=str(tmp_path / "dest"))
    assert plan.operations == [] and plan.left_alone == 1 and plan.other_names == 1
    assert "another name of a file that stays" in plan.describe()
    marked = plan_marked([group], [str(alias)], action=action,
                         target_dir=str(tmp_path / "dest"))
    assert marked.operations == [] and marked.other_names == 1


@pytest.mark.parametrize("action", list(Action))
def test_another_name_of_the_kept_file_is_skipped_when_acting(tmp_path, store, trash_home,
                                                              action):
    """Should a plan name one file twice anyway, the step before acting finds it out."""
    direct, alias, content = _aliased(tmp_path)
    kept, member = stat_member(str(direct), 0), stat_member(str(alias), 1)
    target = str(tmp_path / "dest/only.jpg") if action is Action.MOVE else None
    plan = Plan(action, [Operation(action, 1, member, kept, True, target)], [],
                        {1: kept}, target_dir=str(tmp_path / "dest"))
    result = execute(plan, store)
    assert [r.status for r in result.results] == ["skipped"], result.describe()
    assert "another name for it" in result.results[0].message
    assert direct.read_bytes() == content and not direct.is_symlink()
    assert not (tmp_path / "dest").exists()


def test_comparing_a_file_with_itself_proves_nothing(tmp_path):
    direct, alias, _ = _aliased(tmp_path)
    ident = actions.Identity.of(stat_member(str(direct)))
    with pytest.raises(actions.Skip, match="another name"):
        actions.compare(str(alias), ident, str(direct), ident)


# -- Ctrl-C in the middle of a move --------------------------------------------------------


def _interrupt_after_unlinking(monkeypatch, path: Path) -> None:
    """KeyboardInterrupt as os.unlink(path) returns: where CPython runs a SIGINT handler."""
    real_unlink = os.unlink

    def unlink(p, *args, **kwargs):
        real_unlink(p, *args, **kwargs)
        if full_path(p, kwargs.get("dir_fd")) == str(path):
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "unlink", unlink)


@pytest.mark.parametrize("across", [False, True], ids=["same-fs", "other-fs"])
def test_ctrl_c_right_after_the_source_is_unlinked_keeps_the_moved_file(
        tmp_path, store, monkeypatch, across):
    t, dest = tmp_path / "t", tmp_path / "dest"
    originals = make_tree(t, {"a.bin": b"A" * 5000, "b.bin": b"A" * 5000, "c.bin": b"A" * 5000})
    if across:
        _other_file_system(monkeypatch, dest)
    _interrupt_after_unlinking(monkeypatch, t / "b.bin")
    plan = plan_removal(scan_groups(store, t), action=Action.MOVE, target_dir=str(dest),
                        roots=[str(t)])
    with pytest.raises(KeyboardInterrupt):
        execute(plan, store)
    assert (dest / "b.bin").read_bytes() == b"A" * 5000 and not (t / "b.bin").exists()
    assert (t / "c.bin").exists()
    assert_nothing_lost(originals, tmp_path)
    batch = journal.batches(store)[0]
    entries = journal.entries(store, batch.id)
    assert batch.status == "interrupted" and [e.state for e in entries] == ["done", "skipped"]
    assert entries[0].target == str(dest / "b.bin") and entries[0].undoable
    back = undo(store, batch.id)
    assert [r.status for r in back.results] == ["done"]
    assert {p: Path(p).read_bytes() for p in originals} == originals


def test_a_sigint_between_link_and_unlink_waits_until_the_move_is_whole(tmp_path,
                                                                         monkeypatch):
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_bytes(b"precious")
    real_link = os.link

    def link(a, b, **kwargs):
        real_link(a, b, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # the handler runs as soon as this returns

    monkeypatch.setattr(os, "link", link)
    with pytest.raises(KeyboardInterrupt):
        actions.place(str(src), str(dst))
    assert dst.read_bytes() == b"precious" and not src.exists()  # moved, then interrupted
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# -- the kept copy replaced while comparing or linking ----------------------------------------


def _editor_save(path: str, content: bytes) -> None:
    """What editors do: write a new file, rename it over the old one."""
    Path(path + ".new").write_bytes(content)
    os.replace(path + ".new", path)


@pytest.mark.parametrize("action", [Action.DELETE, Action.HARDLINK, Action.SYMLINK])
def test_kept_copy_replaced_during_the_comparison_saves_the_duplicate(tmp_path, store,
                                                                      monkeypatch, action):
    t = tmp_path / "t"
    old = b"version 1 of the thesis " * 2000
    make_tree(t, {"a_thesis.txt": old, "b_backup.txt": old})
    plan = plan_removal(scan_groups(store, t), action=action, identical_only=True)
    kept = plan.operations[0].kept.path
    real_compare = actions.compare

    def compare(*args):
        real_compare(*args)  # proven equal: to the bytes about to be replaced
        _editor_save(kept, b"version 2, rewritten")

    monkeypatch.setattr(actions, "compare", compare)
    result = execute(plan, store)
    assert statuses(result) == {"b_backup.txt": "skipped"}
    assert "the kept copy" in result.results[0].message
    assert (t / "b_backup.txt").read_bytes() == old and not (t / "b_backup.txt").is_symlink()


@pytest.mark.parametrize("action", [Action.HARDLINK, Action.SYMLINK])
def test_kept_copy_replaced_just_before_linking_to_it(tmp_path, store, monkeypatch, action):
    t = tmp_path / "t"
    old = b"version 1 " * 500
    make_tree(t, {"a": old, "b": old})
    kept = str(t / "a")
    name = "symlink" if action is Action.SYMLINK else "link"
    real = getattr(os, name)

    def make_link(src, dst, **kwargs):
        if full_path(src, kwargs.get("src_dir_fd")) in (kept, os.path.abspath(kept)):
            _editor_save(kept, b"version 2")  # after the last check, before the link
        return real(src, dst, **kwargs)

    monkeypatch.setattr(os, name, make_link)
    result = execute(plan_removal(scan_groups(store, t), action=action), store)
    assert statuses(result) == {"b": "skipped"}
    assert "replaced just before linking" in result.results[0].message
    assert (t / "b").read_bytes() == old and sorted(os.listdir(t)) == ["a", "b"]


def test_a_failure_found_after_the_swap_says_the_file_was_replaced(tmp_path, store,
                                                                   monkeypatch):
    t = tmp_path / "t"
    make_tree(t, {"a": b"S" * 100, "b": b"S" * 100})
    real_replace = os.replace

    def replace(src, dst, **kwargs):
        real_replace(src, dst, **kwargs)
        if full_path(dst, kwargs.get("dst_dir_fd")) == str(t / "b"):
            _editor_save(str(t / "a"), b"other")  # the symbolic link now shows other bytes

    monkeypatch.setattr(os, "replace", replace)
    result = execute(plan_removal(scan_groups(store, t), action=Action.SYMLINK), store)
    assert statuses(result) == {"b": "failed"}
    assert "replaced by a symbolic link to" in result.results[0].message


# -- the source replaced between the check and the move ---------------------------------------


def test_a_file_replaced_just_before_moving_stays_and_is_skipped(tmp_path, store,
                                                                 monkeypatch):
    t, dest = tmp_path / "t", tmp_path / "dest"
    make_tree(t, {"a": b"M" * 100, "b": b"M" * 100})
    real_link = os.link

    def link(src, dst, **kwargs):
        if full_path(src, kwargs.get("src_dir_fd")) == str(t / "b"):
            _editor_save(str(t / "b"), b"new work")  # after verify(), before the link
        return real_link(src, dst, **kwargs)

    monkeypatch.setattr(os, "link", link)
    result = execute(plan_removal(scan_groups(store, t), action=Action.MOVE,
                                  target_dir=str(dest), roots=[str(t)]), store)
    assert statuses(result) == {"b": "skipped"}, result.describe()
    assert "replaced by another file just before moving" in result.results[0].message
    assert (t / "b").read_bytes() == b"new work" and not dest.exists()


# -- file systems without hard links ---------------------------------------------------------


def _no_hard_links(monkeypatch) -> None:
    def link(src, dst, **kwargs):
        raise PermissionError(errno.EPERM, "Operation not permitted", os.fsdecode(src))

    monkeypatch.setattr(os, "link", link)


def test_move_on_a_file_system_without_hard_links(tmp_path, store, monkeypatch):
    t, dest = tmp_path / "t", tmp_path / "dest"
    originals = make_tree(t, {"a/x": b"fat", "b/x": b"fat", "c/x": b"fat"})
    occupant = make_tree(dest, {"b/x": b"already here"})
    _no_hard_links(monkeypatch)
    result = execute(plan_removal(scan_groups(store, t), action=Action.MOVE,
                                  target_dir=str(dest), roots=[str(t)]), store)
    assert [r.status for r in result.results] == ["done", "done"], result.describe()
    assert (dest / "b/x").read_bytes() == b"already here"
    assert (dest / "b/x (1)").read_bytes() == b"fat" and (dest / "c/x").read_bytes() == b"fat"
    assert_nothing_lost({**originals, **occupant}, tmp_path)


@pytest.mark.skipif(actions._renameat2() is None, reason="needs Linux renameat2")
def test_the_no_hard_link_rename_never_replaces_a_file_that_just_appeared(tmp_path,
                                                                          monkeypatch):
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_bytes(b"mine")
    dst.write_bytes(b"someone else's")
    _no_hard_links(monkeypatch)
    monkeypatch.setattr(os.path, "lexists", lambda p: False)  # it appears after any check
    with pytest.raises(FileExistsError):
        actions.place(str(src), str(dst))
    assert src.read_bytes() == b"mine" and dst.read_bytes() == b"someone else's"


# -- similar files are not duplicates ------------------------------------------------------------


def test_plan_says_how_many_files_are_only_similar(tmp_path, store):
    t = tmp_path / "t"
    make_tree(t, {"a": b"same content", "b": b"same content", "c": b"same c0ntent"})
    groups = scan_groups(store, t, [[t / "a", t / "b", t / "c"]])
    text = plan_removal(groups, action=Action.TRASH).describe()
    assert "1 of these files is not identical to the kept copy (similar only)" in text
    assert "similar only" not in plan_removal(groups, action=Action.TRASH,
                                              identical_only=True).describe()


@pytest.fixture
def similar_pair(tmp_path, trash_home):
    """A file and an edited version of it (only similar), scanned by the command line."""
    from simgui.cli import main

    rng = random.Random(1)
    base = bytes(rng.getrandbits(8) for _ in range(50_000))
    edited = bytearray(base)
    edited[1000:1010] = b"NEW WORK!!"
    data = tmp_path / "data"
    make_tree(data, {"report.bin": base, "report-edited.bin": bytes(edited)})
    os.utime(data / "report.bin", ns=(1, 10**9))  # the oldest: kept
    db = str(tmp_path / "cli.db")
    assert main(["scan", "-q", "--db", db, str(data)]) == 0
    return data, db, bytes(edited)


def test_cli_delete_never_deletes_a_file_that_is_only_similar(similar_pair, capsys):
    from simgui.cli import main

    data, db, edited = similar_pair
    capsys.readouterr()
    assert main(["remove", "--db", db, "--delete", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "--include-similar" in out and "Nothing to do" in out
    assert (data / "report-edited.bin").read_bytes() == edited
    assert main(["remove", "--db", db, "--delete", "--include-similar", "--yes"]) == 0
    assert "not identical to the kept copy (similar only)" in capsys.readouterr().out
    assert not (data / "report-edited.bin").exists()


def test_cli_trash_of_similar_files_says_so(similar_pair, capsys):
    from simgui.cli import main

    data, db, edited = similar_pair
    capsys.readouterr()
    assert main(["remove", "--db", db, "--dry-run"]) == 0  # copies only, by default
    out = capsys.readouterr().out
    assert "Nothing to do" in out and "1 file only similar to the kept copy left alone" in out
    assert main(["remove", "--db", db, "--include-similar", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "1 of these files is not identical" in out
    assert "report-edited.bin" in out.split("not identical), with", 1)[1]


def test_link_resolver_gives_each_folder_its_real_path(tmp_path):
    # a link to a folder, a link to that link, a relative link, a link in the middle of
    # a path and a folder that does not exist: every file's folder as realpath has it
    from simgui.core.folders import link_resolver

    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "to_b").symlink_to(tmp_path / "a" / "b")
    (tmp_path / "to_to_b").symlink_to(tmp_path / "to_b")
    (tmp_path / "a" / "rel").symlink_to("b/c")
    paths = [tmp_path / "to_b" / "c" / "f", tmp_path / "to_to_b" / "f",
             tmp_path / "a" / "rel" / "f", tmp_path / "to_b" / "gone" / "deeper" / "f",
             tmp_path / "a" / "b" / "c" / "f", tmp_path / "f"]
    resolve = link_resolver()
    for path in map(str, paths):
        head, tail = os.path.split(path)
        assert resolve(path) == os.path.join(os.path.realpath(head), tail)
    assert resolve(str(paths[0])) == str(tmp_path.resolve() / "a" / "b" / "c" / "f")


def test_remove_keeps_the_reference_the_groups_show_when_times_are_equal(tmp_path, capsys,
                                                                          trash_home):
    # a backup made with cp -a: the same times; the groups show the shortest path as the
    # reference, and remove kept the other by the order of the names
    from simgui.cli import main

    root = tmp_path / "data"
    (root / "project" / "src").mkdir(parents=True)
    (root / "backup" / "project-2023" / "src").mkdir(parents=True)
    for folder in ("project/src", "backup/project-2023/src"):
        (root / folder / "actions.py").write_text("def act(): pass\n" * 200)
        os.utime(root / folder / "actions.py", ns=(1_600_000_000_000_000_000,) * 2)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(root)]) == 0
    capsys.readouterr()
    assert main(["groups", "--db", db, "--format", "json"]) == 0
    import json

    [group] = json.loads(capsys.readouterr().out)
    reference = group["files"][0]["path"]
    assert reference.endswith("/project/src/actions.py")
    assert main(["remove", "--db", db, "--yes"]) == 0
    assert os.path.exists(reference)
    assert not (root / "backup" / "project-2023" / "src" / "actions.py").exists()
