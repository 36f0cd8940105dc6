"""Clean-up as a state machine: whatever the user does between scans, and wherever a batch
is cut off, no content is ever lost and the journal says where every file went.

Hypothesis drives a small tree through scans, user changes (edits, renames, deletions,
files replaced by links, names that are not UTF-8), clean-ups with each action, crashes
injected before any file operation, recovery and undo.  After every step:

- every content that existed anywhere (the tree, the trash, the move target) before a
  clean-up, recovery or undo still exists somewhere after it (a delete only removes a
  copy proven identical to one that stays);
- a folder outside the scanned one, reachable through the user's links, is untouched;
- once recovered, no batch is left running and no journal row is left 'planned';
- every trash or move the journal calls done and not undone is where the journal says.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule,
)

from simgui.core.cleanup import Action, UndoError, execute, journal, plan_removal, undo
from simgui.core.reading.scanner import scan
from simgui.core.search.groups import Group, Member
from simgui.core.store import Store

# folder and file names, one of each kind that broke something once: spaces, a name that
# is not UTF-8 (surrogate-escaped, as Python gives Linux names), the same name twice
NAMES = [os.path.join(folder, name)
         for folder in ("a", "b", os.path.join("b", "deep"))
         for name in ("same.dat", "x y.txt", os.fsdecode(b"bad\xff.bin"))]
# few contents, so that identical copies are common; none is empty (empty files stay)
CONTENTS = [b"alpha" * 40, b"beta" * 50, b"gamma" * 30, b"delta" * 64]
ACTIONS = [Action.TRASH, Action.DELETE, Action.MOVE, Action.HARDLINK]
# the calls that change the file system; a crash is injected before one of them
_MUTATING = ("unlink", "rename", "replace", "link", "symlink", "mkdir", "rmdir")


class SimulatedCrash(BaseException):
    """The process dies here: not an Exception, so nothing in simgui catches it as one."""


def contents_in(*folders: Path) -> set[bytes]:
    found = set()
    for folder in folders:
        for dirpath, _, names in os.walk(folder):
            for name in names:
                path = os.path.join(dirpath, name)
                if name.endswith(".trashinfo") or os.path.islink(path):
                    continue
                try:
                    found.add(Path(path).read_bytes())
                except OSError:
                    pass
    return found


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file below ``folder``: inode and bytes."""
    result = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            result[path] = (os.lstat(path).st_ino, Path(path).read_bytes())
    return result


def identical_groups(store: Store) -> list[Group]:
    """Groups of the stored files with one content hash (what `remove --identical-only` acts on)."""
    files = store.files()
    by_hash: dict[bytes, list[int]] = {}
    for i, h in enumerate(files.hashes):
        if files.sizes[i]:
            by_hash.setdefault(h, []).append(i)
    groups = []
    for gid, rows in enumerate((r for r in by_hash.values() if len(r) > 1), 1):
        members = [Member(i, files.paths[i], int(files.sizes[i]), int(files.mtimes_ns[i]),
                          int(files.devices[i]), int(files.inodes[i]), files.hashes[i], True,
                          0.0, 0, 100.0) for i in rows]
        groups.append(Group(gid, members[0], tuple(members[1:])))
    return groups


class CleanUp(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.base = Path(tempfile.mkdtemp(prefix="simgui-state-"))
        self.tree, self.target, self.outside = (self.base / n for n in ("tree", "moved", "out"))
        for folder in (self.tree, self.target, self.outside):
            folder.mkdir()
        for i, content in enumerate(CONTENTS):
            (self.outside / f"o{i}.dat").write_bytes(content)
        self.outside_before = snapshot(self.outside)
        home = self.base / "home"
        data = home / ".local" / "share"
        data.mkdir(parents=True)
        self.trash = data / "Trash"
        self.patch = pytest.MonkeyPatch()
        self.patch.setenv("HOME", str(home))
        self.patch.setenv("XDG_DATA_HOME", str(data))
        try:  # send2trash reads these once, at import
            from send2trash import plat_other
        except ImportError:
            pass
        else:
            self.patch.setattr(plat_other, "XDG_DATA_HOME", os.fsencode(data), raising=False)
            self.patch.setattr(plat_other, "HOMETRASH_B", os.fsencode(self.trash), raising=False)
            self.patch.setattr(plat_other, "HOMETRASH", str(self.trash), raising=False)
        # a crash flushes nothing: the journal holds only what was committed before it
        self.patch.setattr(journal.Recorder, "flush_quietly", lambda recorder: None)
        self.store = Store(self.base / "store.db")
        self.scanned = False
        self.moved_away = 0

    def teardown(self):
        self.store.close()
        self.patch.undo()
        shutil.rmtree(self.base, ignore_errors=True)

    def everywhere(self) -> set[bytes]:
        return contents_in(self.tree, self.target, self.trash)

    @initialize(contents=st.lists(st.sampled_from(CONTENTS), min_size=len(NAMES),
                                  max_size=len(NAMES)))
    def fill_and_scan(self, contents):
        """Every name holds one of a few contents: identical copies in every folder."""
        for name, content in zip(NAMES, contents):
            path = self.tree / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        self.scan_tree()

    # -- what the user does ------------------------------------------------------------
    # (only inside the scanned tree: never through a folder the user made a link)

    def _in_tree(self, path: Path) -> bool:
        return os.path.realpath(path.parent).startswith(os.path.realpath(self.tree) + os.sep) \
            or os.path.realpath(path.parent) == os.path.realpath(self.tree)

    @rule(name=st.sampled_from(NAMES), content=st.sampled_from(CONTENTS))
    def write(self, name, content):
        path = self.tree / name
        if not self._in_tree(path):
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            path.unlink()
        path.write_bytes(content)

    @rule(name=st.sampled_from(NAMES), other=st.sampled_from(NAMES))
    def rename(self, name, other):
        src, dst = self.tree / name, self.tree / other
        if (src.exists() and not src.is_symlink() and src != dst and self._in_tree(src)
                and self._in_tree(dst)):
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, dst)

    @rule(name=st.sampled_from(NAMES))
    def delete_by_hand(self, name):
        path = self.tree / name
        if (path.is_symlink() or path.exists()) and self._in_tree(path):
            path.unlink()

    @rule(name=st.sampled_from(NAMES), which=st.integers(0, len(CONTENTS) - 1))
    def replace_by_link(self, name, which):
        """The user replaces a file by a link to a file outside the scanned folder."""
        path = self.tree / name
        if not self._in_tree(path):
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or path.exists():
            path.unlink()
        path.symlink_to(self.outside / f"o{which}.dat")

    @rule(folder=st.sampled_from(["a", "b"]), which=st.integers(0, len(CONTENTS) - 1))
    def folder_becomes_link(self, folder, which):
        """A scanned folder is swapped for a link to the outside folder (its files kept
        aside, as a user moving a folder away would)."""
        path = self.tree / folder
        if path.is_dir() and not path.is_symlink():
            self.moved_away += 1
            os.rename(path, self.tree / f"{folder}.moved-away-{self.moved_away}")
            path.symlink_to(self.outside, target_is_directory=True)

    @rule()
    def scan_tree(self):
        scan(self.store, [self.tree])
        self.scanned = True

    # -- what simgui does ----------------------------------------------------------------

    @precondition(lambda self: self.scanned)
    @rule(action=st.sampled_from(ACTIONS), crash_at=st.none() | st.integers(0, 6))
    def remove(self, action, crash_at):
        before = self.everywhere()
        event(f"groups: {'some' if identical_groups(self.store) else 'none'}")
        plan = plan_removal(identical_groups(self.store), action=action,
                            identical_only=action is not Action.TRASH,
                            target_dir=str(self.target) if action is Action.MOVE else None,
                            roots=[str(self.tree)])
        event(f"{action.value}: {'acts' if plan.operations else 'nothing to do'}")
        self._cut_off_at(crash_at, lambda: execute(plan, self.store))
        journal.recover(self.store)
        assert before <= self.everywhere(), "a clean-up lost a content"

    @precondition(lambda self: self.scanned)
    @rule(crash_at=st.none() | st.integers(0, 6))
    def undo_last(self, crash_at):
        before = self.everywhere()

        def run():
            try:
                undo(self.store)
            except UndoError:
                pass
        self._cut_off_at(crash_at, run)
        journal.recover(self.store)
        assert before <= self.everywhere(), "undo lost a content"

    def _cut_off_at(self, crash_at, work) -> None:
        """Run ``work``, the process dying before file operation number ``crash_at``."""
        if crash_at is None:
            work()
            return
        calls = [0]
        patch = pytest.MonkeyPatch()

        def wrap(real):
            def call(*args, **kwargs):
                if calls[0] == crash_at:
                    raise SimulatedCrash()
                calls[0] += 1
                return real(*args, **kwargs)
            return call

        for name in _MUTATING:
            patch.setattr(os, name, wrap(getattr(os, name)))
        try:
            work()
        except SimulatedCrash:
            event("cut off by a crash")
        finally:
            patch.undo()

    # -- what must always hold -----------------------------------------------------------

    @invariant()
    def outside_untouched(self):
        assert snapshot(self.outside) == self.outside_before

    @invariant()
    def journal_settled_and_true(self):
        db = self.store.connection
        assert db.execute("SELECT count(*) FROM batches WHERE status = 'running'").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM journal WHERE state = 'planned'").fetchone()[0] == 0
        for batch in journal.batches(self.store):
            for entry in journal.entries(self.store, batch.id):
                if entry.undoable and entry.action in ("trash", "move"):
                    assert entry.target and os.path.lexists(entry.target), entry


TestCleanUp = CleanUp.TestCase
TestCleanUp.settings = settings(max_examples=150, stateful_step_count=12, deadline=None,
                                suppress_health_check=[HealthCheck.too_slow])
