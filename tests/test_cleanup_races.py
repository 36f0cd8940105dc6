"""Clean-up never acts through a link it did not make (issue 24, items 2, 3 and 10).

A folder of the scan swapped for a symbolic link to an unscanned folder while a batch
runs (a thread exchanging them in a loop, or exactly between the check and the act), a
link planted inside the move target, a scanned folder replaced by a link before undo:
nothing outside the scanned folders changes, and every file the journal calls done was
acted on where the journal says.  Also: folders made by a failed move or undone by undo
are removed once empty, and a refused hard link names the folder that refused it.
"""

from __future__ import annotations

import ctypes
import errno
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from simgui.core.cleanup import (
    Action, KeepRule, actions, execute, journal, plan_removal, undo,
)
from simgui.core.cleanup import actions
from simgui.core.cleanup.opened import unpack_roots
from simgui.core.search.groups import Group, Member
from tests.test_fileops import store, trash_home  # noqa: F401  (fixtures)

_T0 = 1_600_000_000_000_000_000
_T1 = _T0 + 10**9
_RENAME_EXCHANGE = 2
# another process exchanging two folders as fast as it can (not slowed by this one's GIL)
_SWAPPER = """
import ctypes, os, sys
fn = ctypes.CDLL(None, use_errno=True).renameat2
fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
a, b = map(os.fsencode, sys.argv[1:3])
if fn(-100, a, -100, b, 2) != 0:
    sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
print("swapping", flush=True)
while True:
    fn(-100, a, -100, b, 2)
"""


def _renameat2():
    return actions._renameat2()  # libc's, or None


class Tree:
    """t/keep/fN (kept: older), t/dup/fN (identical copies), t/other/fN (not scanned:
    same names and sizes, other bytes) and t/lnk, a link to t/other that trades places
    with t/dup."""

    def __init__(self, root: Path, n: int):
        self.root = root
        self.t = root / "t"
        self.keep, self.dup, self.other, self.lnk = (self.t / x for x in
                                                     ("keep", "dup", "other", "lnk"))
        self.content = {}
        for folder in (self.keep, self.dup, self.other):
            folder.mkdir(parents=True)
        for i in range(n):
            name = f"f{i}"
            self.content[name] = b"%07d" % i * 8
            for folder, data, mtime in ((self.keep, self.content[name], _T0),
                                        (self.dup, self.content[name], _T1),
                                        (self.other, b"X%06d" % i * 8, _T1)):
                (folder / name).write_bytes(data)
                os.utime(folder / name, ns=(mtime, mtime))
        os.symlink(self.other, self.lnk)
        self.other_before = self.snapshot(self.other)
        self._exchange = _renameat2()

    @staticmethod
    def snapshot(folder: Path) -> dict:
        return {name: (os.lstat(folder / name).st_ino, (folder / name).read_bytes())
                for name in sorted(os.listdir(folder))}

    def groups(self, through: Path | None = None) -> list[Group]:
        """Each pair as a group; ``through``: paths as seen through that link to root."""
        base = self.root if through is None else through
        groups = []
        for gid, name in enumerate(sorted(self.content), 1):
            a, b = (_member(str(base / "t" / folder / name), self.content[name], 2 * gid + k)
                    for k, folder in enumerate(("keep", "dup")))
            groups.append(Group(gid, a, (b,)))
        return groups

    def plan(self, action: Action, **kwargs):
        return plan_removal(self.groups(), action=action, keep=KeepRule.OLDEST,
                            roots=[str(self.t)], **kwargs)

    def swap(self) -> None:
        """Exchange t/dup and t/lnk: the scanned folder becomes a link to t/other."""
        if self._exchange is not None:
            if self._exchange(-100, bytes(self.dup), -100, bytes(self.lnk),
                              _RENAME_EXCHANGE) == 0:
                return
            if ctypes.get_errno() not in (errno.EINVAL, errno.ENOSYS):
                raise OSError(ctypes.get_errno(), "renameat2")
            self._exchange = None
        aside = self.t / "aside"
        os.rename(self.dup, aside)
        os.rename(self.lnk, self.dup)
        os.rename(aside, self.lnk)

    def settle(self) -> None:
        """Put the real folder back at t/dup."""
        if self.dup.is_symlink():
            self.swap()
        assert not self.dup.is_symlink() and self.lnk.is_symlink()

    def assert_other_untouched(self) -> None:
        assert self.snapshot(self.other) == self.other_before, "a file outside the scan changed"


def _member(path: str, content: bytes, index: int) -> Member:
    import xxhash

    st = os.lstat(path)
    return Member(index, path, st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino,
                  xxhash.xxh3_128(content).digest(), True, 0.0, 0, 100.0)


def _assert_journal_true(tree: Tree, store, batch_id: int, action: Action) -> None:
    """Every file journaled done was acted on in t/dup; every other one is there intact."""
    done = 0
    for e in journal.entries(store, batch_id):
        name = os.path.basename(e.path)
        assert e.path == str(tree.dup / name)
        here = tree.dup / name
        if e.state != "done":
            assert here.read_bytes() == tree.content[name], e
            continue
        done += 1
        if action is Action.HARDLINK:
            assert os.path.samefile(here, tree.keep / name), e
        else:
            assert not os.path.lexists(here), e
            if action is not Action.DELETE:
                assert Path(e.target).read_bytes() == tree.content[name], e
        assert (tree.keep / name).read_bytes() == tree.content[name]
    return done


# -- the swap race --------------------------------------------------------------------


class _swapping:
    """t/dup and t/lnk exchanged in a loop while in the ``with``: by another process
    where renameat2 exists, else by a thread (renames, not atomic)."""

    def __init__(self, tree: Tree):
        self.tree, self.process, self.thread, self.stop = tree, None, None, threading.Event()

    def __enter__(self):
        if _renameat2() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _SWAPPER, str(self.tree.dup), str(self.tree.lnk)],
                stdout=subprocess.PIPE, text=True)
            line = self.process.stdout.readline()
            if line == "swapping\n":
                return self
            self.process.wait()
            self.process = None
        swaps = []

        def swap():
            while not self.stop.is_set():
                self.tree.swap()
                swaps.append(1)

        self.thread = threading.Thread(target=swap)
        self.thread.start()
        while not swaps:  # wait for it to have started, not for a time
            pass
        return self

    def __exit__(self, *exc):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
        else:
            self.stop.set()
            self.thread.join()


@pytest.mark.parametrize("action", [Action.DELETE, Action.TRASH, Action.MOVE, Action.HARDLINK])
def test_a_folder_swapped_for_a_link_in_a_loop_changes_nothing_outside(tmp_path, store,
                                                                       trash_home, action):
    tree = Tree(tmp_path, 1500)
    plan = tree.plan(action, target_dir=str(tmp_path / "mv") if action is Action.MOVE else None)
    with _swapping(tree):
        result = execute(plan, store)
    tree.settle()
    tree.assert_other_untouched()
    assert _assert_journal_true(tree, store, result.batch_id, action)
    refused = [r for r in result.skipped if "symbolic link" in r.message]
    assert all("simgui does not act through links it did not make" in r.message
               for r in refused)


# -- the swap exactly between the check and the act ---------------------------------------


def _swap_on(monkeypatch, tree: Tree, events: list[tuple[object, str, str]]) -> list:
    """Exchange t/dup and t/lnk at each of ``events`` in turn: (module, function,
    'before' or 'after' its first call not yet used)."""
    pending = list(events)

    def wrap(obj, name, real):
        def call(*args, **kwargs):
            if pending and pending[0][:3] == (obj, name, "before"):
                pending.pop(0)
                tree.swap()
            out = real(*args, **kwargs)
            if pending and pending[0][:3] == (obj, name, "after"):
                pending.pop(0)
                tree.swap()
            return out
        return call

    for obj, name in dict.fromkeys((obj, name) for obj, name, _ in events):
        monkeypatch.setattr(obj, name, wrap(obj, name, getattr(obj, name)))
    return pending


# what a swap at the worst moment did before: act on t/other's file of that name
_WORST_MOMENT = {
    Action.DELETE: [(os, "unlink", "before")],
    Action.TRASH: [(actions, "check_before_acting", "after")],
    Action.MOVE: [(os, "link", "after")],  # placed at the target, then the unlink
    Action.HARDLINK: [(os, "link", "before"), (os, "link", "after"), (os, "replace", "before")],
}


@pytest.mark.parametrize("action", [Action.DELETE, Action.TRASH, Action.MOVE, Action.HARDLINK])
def test_a_folder_swapped_between_the_check_and_the_act(tmp_path, store, trash_home,
                                                        monkeypatch, action):
    tree = Tree(tmp_path, 3)
    plan = tree.plan(action, target_dir=str(tmp_path / "mv") if action is Action.MOVE else None)
    pending = _swap_on(monkeypatch, tree, _WORST_MOMENT[action])
    result = execute(plan, store)
    monkeypatch.undo()
    assert not pending  # every swap happened
    tree.settle()
    tree.assert_other_untouched()
    assert _assert_journal_true(tree, store, result.batch_id, action) == 3


# -- links in the move target and before undo -------------------------------------------------


def test_a_link_planted_inside_the_move_target_is_not_followed(tmp_path, store):
    tree = Tree(tmp_path, 3)
    mv, elsewhere = tmp_path / "mv", tmp_path / "elsewhere"
    mv.mkdir()
    elsewhere.mkdir()
    os.symlink(elsewhere, mv / "dup")  # where t/dup/fN would go: mv/dup/fN
    result = execute(tree.plan(Action.MOVE, target_dir=str(mv)), store)
    assert [r.status for r in result.results] == ["skipped"] * 3, result.describe()
    assert all(f"{mv / 'dup'}, is a symbolic link" in r.message for r in result.results)
    assert os.listdir(elsewhere) == [] and os.listdir(mv) == ["dup"]
    _assert_journal_true(tree, store, result.batch_id, Action.MOVE)


@pytest.mark.parametrize("action", [Action.TRASH, Action.MOVE])
def test_undo_never_restores_through_a_folder_replaced_by_a_link(tmp_path, store, trash_home,
                                                                 action):
    tree = Tree(tmp_path, 3)
    result = execute(tree.plan(action, target_dir=str(tmp_path / "mv")
                               if action is Action.MOVE else None), store)
    assert len(result.done) == 3
    tree.dup.rmdir()  # emptied by the batch; a link to the unscanned folder takes its name
    os.symlink(tree.other, tree.dup)
    back = undo(store)
    assert [r.status for r in back.results] == ["skipped"] * 3, back.describe()
    assert all("is a symbolic link" in r.message for r in back.results)
    tree.assert_other_untouched()
    for r in result.done:  # still where the batch put them, and still undoable
        assert Path(r.target).read_bytes() == tree.content[os.path.basename(r.path)]
    assert journal.last_undoable(store).id == result.batch_id


def test_a_scanned_folder_that_is_now_a_link_skips_every_file_under_it(tmp_path, store):
    tree = Tree(tmp_path, 2)
    plan = plan_removal(tree.groups(), action=Action.DELETE, roots=[str(tree.dup)])
    os.rename(tree.dup, tmp_path / "real")
    os.symlink(tmp_path / "real", tree.dup)
    result = execute(plan, store)
    assert [r.status for r in result.results] == ["skipped"] * 2
    assert all(f"the scanned folder {tree.dup} is now a symbolic link" in r.message
               for r in result.results)
    assert sorted(os.listdir(tmp_path / "real")) == ["f0", "f1"]


# -- folders made by a move ------------------------------------------------------------------


def _deep_pairs(tmp_path: Path) -> Path:
    t = tmp_path / "t"
    for folder in ("keep", "dup/a/b", "dup/c"):
        (t / folder).mkdir(parents=True)
    for name, folder in (("x", "a/b"), ("y", "c")):
        for where, mtime in ((t / "keep" / name, _T0), (t / "dup" / folder / name, _T1)):
            where.write_bytes(name.encode() * 100)
            os.utime(where, ns=(mtime, mtime))
    return t


def _plan_deep(t: Path, target: Path):
    groups = []
    for gid, (name, folder) in enumerate((("x", "a/b"), ("y", "c")), 1):
        a = _member(str(t / "keep" / name), name.encode() * 100, 2 * gid)
        b = _member(str(t / "dup" / folder / name), name.encode() * 100, 2 * gid + 1)
        groups.append(Group(gid, a, (b,)))
    return plan_removal(groups, action=Action.MOVE, keep=KeepRule.OLDEST, roots=[str(t)],
                        target_dir=str(target))


def test_a_failed_move_leaves_no_empty_folders_behind(tmp_path, store, monkeypatch):
    t, mv = _deep_pairs(tmp_path), tmp_path / "mv"
    mv.mkdir()  # the user's: stays

    def link(src, dst, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", src, None, dst)

    monkeypatch.setattr(os, "link", link)
    result = execute(_plan_deep(t, mv), store)
    assert [r.status for r in result.results] == ["failed"] * 2, result.describe()
    assert os.listdir(mv) == []  # mv/dup/a/b and mv/dup/c were made, and removed
    assert (t / "dup/a/b/x").exists() and (t / "dup/c/y").exists()


def test_undo_of_a_move_removes_the_folders_the_move_made(tmp_path, store):
    t, mv = _deep_pairs(tmp_path), tmp_path / "mv"
    (mv / "dup/c").mkdir(parents=True)  # the user's folders: stay
    result = execute(_plan_deep(t, mv), store)
    assert [r.status for r in result.results] == ["done"] * 2, result.describe()
    assert (mv / "dup/a/b/x").exists() and (mv / "dup/c/y").exists()
    back = undo(store)
    assert [r.status for r in back.results] == ["done"] * 2, back.describe()
    assert (t / "dup/a/b/x").read_bytes() == b"x" * 100
    assert sorted(p.relative_to(mv).as_posix() for p in mv.rglob("*")) == ["dup", "dup/c"]


def test_a_move_into_a_new_target_folder_undone_leaves_no_folder(tmp_path, store):
    t, mv = _deep_pairs(tmp_path), tmp_path / "new" / "mv"
    result = execute(_plan_deep(t, mv), store)
    assert len(result.done) == 2
    assert [r.status for r in undo(store).results] == ["done"] * 2
    assert not (tmp_path / "new").exists()


# -- a hard link refused by its folder ------------------------------------------------------


def test_a_hard_link_refused_by_a_read_only_folder_names_the_folder(tmp_path, store,
                                                                    monkeypatch):
    tree = Tree(tmp_path, 1)

    def link(src, dst, **kwargs):  # what link() says in a folder it may not write
        raise PermissionError(errno.EACCES, "Permission denied", src, None, dst)

    monkeypatch.setattr(os, "link", link)
    result = execute(tree.plan(Action.HARDLINK), store)
    assert [r.status for r in result.results] == ["failed"]
    assert result.results[0].message == f"permission denied: {tree.dup}"
    assert (tree.dup / "f0").read_bytes() == tree.content["f0"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in read-only folders")
def test_a_hard_link_into_a_really_read_only_folder(tmp_path, store):
    tree = Tree(tmp_path, 1)
    tree.dup.chmod(0o555)
    try:
        result = execute(tree.plan(Action.HARDLINK), store)
    finally:
        tree.dup.chmod(0o755)
    assert [r.status for r in result.results] == ["failed"]
    assert result.results[0].message == f"permission denied: {tree.dup}"


# -- recovery credits a batch only with what it did ---------------------------------------------


class _Crash(BaseException):
    """The process dies here: nothing after it runs, no journal flush."""


@pytest.mark.parametrize("action", [Action.MOVE, Action.TRASH, Action.DELETE])
def test_recovery_never_credits_a_batch_with_an_earlier_batchs_work(tmp_path, store,
                                                                    trash_home, monkeypatch,
                                                                    action):
    """A second batch planned from a store that still lists the files an earlier batch
    took away is cut off before touching any: recovery must not call the earlier
    batch's moves its own (undo would then leave entries pointing at nothing)."""
    tree = Tree(tmp_path, 3)
    target = str(tmp_path / "mv") if action is Action.MOVE else None
    stale = tree.plan(action, target_dir=target)  # made before the first batch ran
    first = execute(tree.plan(action, target_dir=target), store)
    assert len(first.done) == 3
    monkeypatch.setattr(journal.Recorder, "flush_quietly", lambda self: None)

    def check(*args):
        raise _Crash()  # the process dies before touching the first file

    monkeypatch.setattr(actions, "check_before_acting", check)
    with pytest.raises(_Crash):
        execute(stale, store)
    monkeypatch.undo()
    settled = journal.recover(store)
    assert [e.state for e in settled] == ["skipped"] * 3
    verb = {"move": "moved", "trash": "trashed", "delete": "deleted"}[action.value]
    assert all(f"batch {first.batch_id} had {verb} it already" in e.message for e in settled)
    if action is not Action.DELETE:
        back = undo(store)
        assert [r.status for r in back.results] == ["done"] * 3
    for batch in journal.batches(store):
        for e in journal.entries(store, batch.id):
            assert not e.undoable or os.path.lexists(e.target), e


# -- the roots a batch is undone from -------------------------------------------------------


def test_undo_walks_from_the_batchs_roots_whatever_their_bytes(tmp_path, store):
    """The roots are journaled with the batch (any byte string) and undo walks from them:
    a folder above the root may be a link (the user's), none below it may."""
    real, via = tmp_path / os.fsdecode(b"r\xff"), tmp_path / "via"
    tree = Tree(real, 2)
    via.symlink_to(real)  # the user reaches the tree through a link
    plan = plan_removal(tree.groups(through=via), action=Action.MOVE, keep=KeepRule.OLDEST,
                        roots=[str(via / "t")], target_dir=str(tmp_path / "mv"))
    result = execute(plan, store)
    assert len(result.done) == 2, result.describe()
    roots = store.connection.execute("SELECT roots FROM batches").fetchone()[0]
    assert unpack_roots(roots) == [str(via / "t")]
    back = undo(store)
    assert [r.status for r in back.results] == ["done"] * 2, back.describe()
    assert Tree.snapshot(tree.dup).keys() == {"f0", "f1"}
    assert not (tmp_path / "mv").exists()
