"""Safe clean-up: plan what happens to the extra copies, then do it without losing data.

A :class:`Plan` says, per group, which file stays and what happens to each of
the others.  It never removes or moves every copy of a group and never touches
a file in a reference folder: a request that would is refused for the whole
group.  :func:`execute` journals the plan in the store, then acts file by
file, proving right before each action that the file is still the one scanned
(device, inode, size, mtime_ns, and the bytes when identity justifies the
action).  Every file gets a result: done, skipped (why) or failed (the error).
A failure is never reported as success.
"""

from __future__ import annotations

import contextlib
import ctypes
import enum
import errno
import functools
import os
import signal
import stat
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from simgui.core import journal
from simgui.core.groups import Group, Member
from simgui.core.progress import Cancelled, Progress, ProgressCallback, report
from simgui.core.store import Store
from simgui.core.units import format_bytes

_CHUNK = 1 << 20
_PROGRESS_EVERY_SECONDS = 0.1
_MAX_NAME_TRIES = 10_000
# batches being executed by this process: recover() must leave them alone
LIVE_BATCHES: set[int] = set()


class Action(str, enum.Enum):
    TRASH = "trash"
    DELETE = "delete"  # permanent: only when asked explicitly
    MOVE = "move"
    HARDLINK = "hardlink"
    SYMLINK = "symlink"

    @property
    def links(self) -> bool:
        return self in (Action.HARDLINK, Action.SYMLINK)


class KeepRule(str, enum.Enum):
    OLDEST = "oldest"
    NEWEST = "newest"
    LARGEST = "largest"
    SHORTEST_PATH = "shortest-path"


_RULE_KEYS: dict[KeepRule, Callable[[Member], tuple]] = {
    KeepRule.OLDEST: lambda m: (m.mtime_ns, m.path),
    KeepRule.NEWEST: lambda m: (-m.mtime_ns, m.path),
    KeepRule.LARGEST: lambda m: (-m.size, m.path),
    KeepRule.SHORTEST_PATH: lambda m: (len(m.path), m.path),
}


class Identity(NamedTuple):
    """What proves a file is still the one scanned."""

    size: int
    mtime_ns: int
    device: int
    inode: int

    @classmethod
    def of(cls, m: Member) -> Identity:
        return cls(m.size, m.mtime_ns, m.device, m.inode)

    def same_inode(self, st: os.stat_result) -> bool:
        # numpy int64 columns may hold a device number that wrapped negative
        return (st.st_dev - self.device) % 2**64 == 0 and (st.st_ino - self.inode) % 2**64 == 0

    def matches(self, st: os.stat_result) -> bool:
        return self.same_inode(st) and st.st_size == self.size and st.st_mtime_ns == self.mtime_ns

    @classmethod
    def of_stat(cls, st: os.stat_result) -> Identity:
        return cls(st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino)


def file_key(m: Member) -> tuple[int, int]:
    """(device, inode) of a member, normalised like :meth:`Identity.same_inode`: two
    paths with one key are two names of one file, never two copies."""
    return m.device % 2**64, m.inode % 2**64


# -- plans ----------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    """One file to act on, and the copy that stays and justifies it."""

    action: Action
    group_id: int
    member: Member
    kept: Member
    by_identity: bool  # the bytes must equal the kept copy's right before acting
    target: str | None = None  # move: where the file goes

    @property
    def path(self) -> str:
        return self.member.path


@dataclass(frozen=True)
class Refusal:
    group_id: int
    reason: str


@dataclass
class Plan:
    """What :func:`execute` will do; :meth:`describe` says it in words."""

    action: Action
    operations: list[Operation]
    refused: list[Refusal]
    kept: dict[int, Member]  # group id -> the file that stays (groups with operations)
    left_alone: int = 0  # files neither kept nor acted on (not identical, reference, ...)
    target_dir: str | None = None
    identical_only: bool = False
    other_names: int = 0  # of left_alone: another name of a file that stays (same inode)
    empty: int = 0  # of left_alone: empty files, chosen only when marked
    left_similar: int = 0  # of left_alone: not identical to any file that stays

    @property
    def similar_only(self) -> int:
        """Operations on files that are not identical to the kept copy, only similar."""
        return sum(not _identical(op.member, op.kept) for op in self.operations)

    @property
    def files(self) -> int:
        return len(self.operations)

    @property
    def bytes(self) -> int:
        return sum(op.member.size for op in self.operations)

    def describe(self) -> str:
        n, size = self.files, format_bytes(self.bytes)
        files = f"{_count(n, 'file')} ({size})"
        lines = []
        if not self.operations:
            lines.append("Nothing to do.")
        else:
            lines.append({
                Action.TRASH: f"Send {files} to the trash",
                Action.DELETE: f"Delete {files} permanently (this cannot be undone)",
                Action.MOVE: f"Move {files} to {self.target_dir}",
                Action.HARDLINK: f"Replace {files} with hard links to the copy kept",
                Action.SYMLINK: f"Replace {files} with symbolic links to the copy kept",
            }[self.action] + (f", keeping one file in each of {len(self.kept):,} groups."
                              if len(self.kept) > 1 else ", keeping one file of the group."))
            if any(op.by_identity for op in self.operations):
                lines.append("Each file is compared byte for byte with the kept copy right "
                             "before acting.")
            if similar := self.similar_only:
                lines.append(f"{similar:,} of these files {'is' if similar == 1 else 'are'} "
                             "not identical to the kept copy (similar only)"
                             + (": what differs in them is deleted for good."
                                if self.action is Action.DELETE else "."))
        if self.left_alone:
            lines.append(f"{_count(self.left_alone, 'other file')} of these groups "
                         f"{'is' if self.left_alone == 1 else 'are'} left alone.")
        if self.empty:
            empty = _count(self.empty, "of them is an empty file", "of them are empty files")
            lines.append(f"{empty}: removing one frees nothing, and empty files such as "
                         "__init__.py or .gitkeep matter by their names (mark them in the "
                         "window to act on them).")
        if self.other_names:
            lines.append(f"{_count(self.other_names, 'of them is', 'of them are')} another name "
                         "of a file that stays (same device and inode), not a copy of it.")
        if self.refused:
            lines.append(f"{_count(len(self.refused), 'group')} refused, nothing in "
                         f"{'it' if len(self.refused) == 1 else 'them'} is touched:")
            lines += [f"  group {r.group_id}: {r.reason}" for r in self.refused[:20]]
            if len(self.refused) > 20:
                lines.append(f"  ... and {len(self.refused) - 20:,} more")
        return "\n".join(lines)


def _count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 file``, ``2 files``: a count with its noun."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


def plan_removal(groups: Iterable[Group], *, action: Action, keep: KeepRule = KeepRule.OLDEST,
                 references: Sequence[str] = (), identical_only: bool = False,
                 target_dir: str | None = None, roots: Sequence[str] = ()) -> Plan:
    """Keep one file per group (reference folders first, then ``keep``), act on the others.

    Empty files stay (as the window never marks them): removing one frees nothing,
    and files such as ``__init__.py`` or ``.gitkeep`` matter by their names.  With
    ``identical_only`` (and always for links) only files identical to the kept one
    are acted on; hard links never cross devices.
    """
    return _plan(groups, None, Action(action), KeepRule(keep), references, identical_only,
                 target_dir, roots)


def plan_marked(groups: Iterable[Group], marked_paths: Iterable[str], *, action: Action,
                keep: KeepRule = KeepRule.OLDEST, references: Sequence[str] = (),
                identical_only: bool = False, target_dir: str | None = None,
                roots: Sequence[str] = ()) -> Plan:
    """Act on the files the user marked; a group with every file marked, or a marked
    file in a reference folder, is refused as a whole."""
    return _plan(groups, set(marked_paths), Action(action), KeepRule(keep), references,
                 identical_only, target_dir, roots)


def _plan(groups, marked, action, keep, references, identical_only, target_dir,
          roots) -> Plan:
    groups = list(groups)
    if action is Action.MOVE:
        if not target_dir:
            raise ValueError("moving needs a target folder")
        target_dir = os.path.abspath(target_dir)
    refs = _folders(references)
    # a reference named through a link (or files stored through one) protects the same files
    in_reference = folder_test(refs, resolve_links=True)
    roots = sorted(_folders(roots), key=len, reverse=True)  # longest root first
    by_identity = identical_only or action.links
    # a file in two groups could be kept in one and removed in the other
    seen = Counter(m.path for g in groups for m in g.files)
    plan = Plan(action, [], [], {}, target_dir=target_dir, identical_only=identical_only)
    for group in groups:
        files = group.files
        twice = next((m.path for m in files if seen[m.path] > 1), None)
        if twice is not None:
            plan.refused.append(Refusal(group.id, f"{twice} appears more than once"))
            continue
        # sets of paths, not lists of members: groups of thousands of files stay linear
        protected = {m.path for m in files if refs and in_reference(m.path)}
        if marked is None:
            kept = min([m for m in files if m.path in protected] or files,
                       key=_RULE_KEYS[keep])
            chosen = [m for m in files if m.path not in protected and m is not kept]
            empty = sum(m.size == 0 for m in chosen)  # left alone, so counted in left
            chosen = [m for m in chosen if m.size]
            acted = {m.path for m in chosen}
            stay = [m for m in files if m.path not in acted]
        else:
            empty = 0  # marked empty files are acted on like any other
            chosen = [m for m in files if m.path in marked]
            if not chosen:
                continue
            first = next((m for m in chosen if m.path in protected), None)
            if first is not None:
                plan.refused.append(Refusal(group.id, f"{first.path} is in a reference folder"))
                continue
            stay = [m for m in files if m.path not in marked]
            if not stay:
                plan.refused.append(Refusal(
                    group.id, "every file is marked: at least one must stay"))
                continue
            kept = min([m for m in stay if m.path in protected] or stay, key=_RULE_KEYS[keep])
        chosen, aliases = _drop_other_names(chosen, stay)
        ops, reason, left, similar = _group_ops(group, chosen, kept, stay, action, keep,
                                                by_identity, marked is not None, target_dir,
                                                roots)
        if reason:
            plan.refused.append(Refusal(group.id, reason))
            continue
        plan.left_alone += left
        plan.left_similar += similar
        plan.other_names += aliases
        plan.empty += empty
        if ops:
            plan.kept[group.id] = kept
            plan.operations += ops
    return plan


def _drop_other_names(chosen: list[Member], stay: list[Member]) -> tuple[list[Member], int]:
    """The chosen files that are not another name of a file that stays, and how many were.

    One file reached by two paths (a folder scanned directly and through a symbolic
    link, a bind mount) has one (device, inode): acting on the second path would
    destroy the copy kept.  A hard link has one too; removing it would free nothing.
    """
    staying = {file_key(s) for s in stay}
    acted = [m for m in chosen if file_key(m) not in staying]
    return acted, len(chosen) - len(acted)


def _group_ops(group, chosen, kept, stay, action, keep, by_identity, strict, target_dir,
               roots) -> tuple[list[Operation], str | None, int, int]:
    """Operations of one group, or the reason to refuse it (strict: every chosen file
    must be acted on), how many of its files are left alone (neither kept nor acted
    on), and how many of those because they are only similar."""
    ops: list[Operation] = []
    left = len(group.files) - len(chosen) - 1
    similar = 0
    # the copy that justifies an action by identity must be identical (and, for a
    # hard link, on the same device): the kept file, else another file that stays
    pool = [kept] + sorted((s for s in stay if s is not kept),
                           key=_RULE_KEYS[keep]) if by_identity else []
    for m in chosen:
        justify = kept
        if by_identity:
            justify = next((s for s in pool if _identical(m, s) and (
                action is not Action.HARDLINK or s.device == m.device)), None)
            if justify is None:
                only_similar = not any(_identical(m, s) for s in pool)
                if strict:
                    if only_similar:
                        return [], (f"{m.path} is only similar to the files that stay, and "
                                    f"{'a link' if action.links else 'this'} needs an "
                                    "identical copy: unmark it to act on the others"), 0, 0
                    why = "on the same device" if action is Action.HARDLINK else ""
                    return [], f"{m.path} has no identical copy that stays {why}".rstrip(), 0, 0
                left += 1
                similar += only_similar
                continue
        target = None
        if action is Action.MOVE:
            target = os.path.join(target_dir, _relative(m.path, roots))
            if target == m.path:
                return [], f"{m.path} is already where it would be moved", 0, 0
        ops.append(Operation(action, group.id, m, justify, by_identity, target))
    return ops, None, left, similar


def _identical(a: Member, b: Member) -> bool:
    return bool(a.content_hash) and a.size == b.size and a.content_hash == b.content_hash


def link_resolver() -> Callable[[str], str]:
    """A function giving a path with the links of its folders resolved.  A folder's
    real path is its parent's joined with its name, followed only if that is a link:
    one ``lstat`` per folder, cached (``realpath`` of each folder took one per part of
    its path: 40 us a folder of /usr)."""
    folders: dict[str, str] = {}

    def folder(path: str) -> str:
        real = folders.get(path)
        if real is None:
            parent, name = os.path.split(path)
            if not name or parent == path:  # the root, or a bare name
                real = path
            else:
                joined = os.path.join(folder(parent), name)
                real = os.path.realpath(joined) if os.path.islink(joined) else joined
            folders[path] = real
        return real

    heads: dict[str, str] = {}  # the text before a path's last separator -> real, with one

    def resolve(path: str) -> str:
        head, sep, tail = path.rpartition(os.sep)
        if not sep:
            return path
        real_head = heads.get(head)
        if real_head is None:
            real_head = heads[head] = os.path.join(folder(os.path.dirname(path)), "")
        return real_head + tail

    return resolve


def _folders(paths: Sequence[str]) -> list[str]:
    return [os.path.abspath(os.fsdecode(p)) for p in paths]


def folder_test(folders: Sequence[str], *, resolve_links: bool = False) -> Callable[[str], bool]:
    """A test of a path: is it one of ``folders`` or inside one (absolute paths, compared
    as text)?  With ``resolve_links``, also when it is so once the symbolic links in the
    folders' paths and in its own folders are resolved (a folder named, or a file
    stored, through a link)."""
    if resolve_links:
        folders = list(dict.fromkeys([*folders, *map(os.path.realpath, folders)]))
    exact = frozenset(folders)
    prefixes = tuple(f.rstrip(os.sep) + os.sep for f in folders)

    def inside(path: str) -> bool:
        return path in exact or path.startswith(prefixes)

    if not resolve_links:
        return inside
    real = link_resolver()
    return lambda path: inside(path) or inside(real(path))


def under(path: str, folders: Sequence[str]) -> bool:
    """``path`` is one of ``folders`` or inside one (absolute paths, compared as text)."""
    return folder_test(folders)(path)


def _relative(path: str, roots: Sequence[str]) -> str:
    """The path under its scanned root (the longest that holds it), else the whole path."""
    for root in roots:
        if path != root and under(path, [root]):
            return os.path.relpath(path, root)
    if path in roots:
        return os.path.basename(path)  # a file scanned as a root of its own
    drive, rest = os.path.splitdrive(path)
    return os.path.join(drive.replace(":", ""), rest.lstrip(os.sep))


# -- results --------------------------------------------------------------------


@dataclass(frozen=True)
class FileResult:
    path: str
    status: str  # done, skipped, failed
    message: str = ""
    target: str | None = None  # where it went (move, trash, restore), when known
    size: int = 0


@dataclass
class BatchResult:
    batch_id: int
    action: str
    results: list[FileResult] = field(default_factory=list)
    cancelled: bool = False

    def _with(self, status: str) -> list[FileResult]:
        return [r for r in self.results if r.status == status]

    @property
    def done(self) -> list[FileResult]:
        return self._with("done")

    @property
    def skipped(self) -> list[FileResult]:
        return self._with("skipped")

    @property
    def failed(self) -> list[FileResult]:
        return self._with("failed")

    @property
    def bytes_done(self) -> int:
        return sum(r.size for r in self.done)

    def describe(self) -> str:
        head = (f"Batch {self.batch_id} ({self.action}): {len(self.done):,} done "
                f"({format_bytes(self.bytes_done)}), {len(self.skipped):,} skipped, "
                f"{len(self.failed):,} failed" + (", cancelled" if self.cancelled else "") + ".")
        lines = [head]
        for r in self.results:
            if r.status != "done":
                lines.append(f"  {r.status}: {r.path}: {r.message}")
        return "\n".join(lines)


class Skip(Exception):
    """The file is left as it is, for the reason given (not an error)."""


@dataclass(frozen=True)
class Outcome:
    """What one step did, ready for the journal."""

    state: str
    message: str = ""
    target: str | None = None
    undo: dict | None = None  # what undo needs; None: cannot be undone
    undoes: int | None = None  # journal entry this step restored (undo batches)


# -- executing --------------------------------------------------------------------


def execute(plan: Plan, store: Store, *,
            progress: ProgressCallback | None = None) -> BatchResult:
    """Do ``plan``, journaling each file in ``store``; returns one result per file.

    The journal rows are committed before the first file is touched.
    Cancelling (``progress`` returning False) stops before the next file:
    what is done stays done and journaled, the rest is reported skipped.
    """
    ops = plan.operations

    def rows(batch_id: int) -> list[journal.PlannedRow]:
        return [journal.PlannedRow(
            seq=seq, group_id=op.group_id, action=op.action.value, path=op.path,
            identity=Identity.of(op.member), content_hash=op.member.content_hash,
            kept=op.kept.path, kept_identity=Identity.of(op.kept), by_identity=op.by_identity,
            target=op.target, temp=temp_name(op, batch_id, seq))
            for seq, op in enumerate(ops)]

    batch_id = journal.begin(store, plan.action.value, plan.describe(), rows,
                             target_dir=plan.target_dir)
    steps = [(seq, op.path, op.member.size, _step(op, batch_id, seq))
             for seq, op in enumerate(ops)]
    return run_batch(store, batch_id, plan.action.value, steps, progress)


def temp_name(op: Operation, batch_id: int, seq: int) -> str | None:
    """The temporary name an operation may use, known to the journal before it runs
    (in the target folder for moves, beside the file for links)."""
    if op.action is Action.MOVE:
        folder = os.path.dirname(op.target)
    elif op.action.links:
        folder = os.path.dirname(op.path)
    else:
        return None
    return os.path.join(folder, f".simgui-{batch_id}-{seq}.tmp")


def run_batch(store: Store, batch_id: int, action: str,
              steps: Sequence[tuple[int, str, int, Callable[[], Outcome]]],
              progress: ProgressCallback | None) -> BatchResult:
    """Run journaled steps (seq, path, size, do) in order; shared by execute and undo."""
    result = BatchResult(batch_id, action)
    recorder = journal.Recorder(store, batch_id)
    total_bytes = sum(size for _, _, size, _ in steps)
    started = last = time.monotonic()
    done_bytes = 0
    LIVE_BATCHES.add(batch_id)
    try:
        try:
            for index, (seq, path, size, do) in enumerate(steps):
                now = time.monotonic()
                if now - last >= _PROGRESS_EVERY_SECONDS:
                    last = now
                    report(progress, Progress(action, index, len(steps), done_bytes,
                                              total_bytes, now - started, path))
                outcome = _guarded(do)
                result.results.append(FileResult(path, outcome.state, outcome.message,
                                                 outcome.target, size))
                recorder.add(seq, outcome)
                done_bytes += size
        except Cancelled:
            result.cancelled = True
            for seq, path, size, _ in steps[len(result.results):]:
                outcome = Outcome("skipped", "cancelled before this file")
                result.results.append(FileResult(path, "skipped", outcome.message, None, size))
                recorder.add(seq, outcome)
        recorder.finish("cancelled" if result.cancelled else "completed")
    except BaseException as exc:
        recorder.flush_quietly()  # a crash: keep what is known, recover() does the rest
        if isinstance(exc, KeyboardInterrupt):
            # Ctrl-C, maybe in the middle of a file: the file system tells what happened
            # to it, so that a move completed as the signal came is journaled as done
            LIVE_BATCHES.discard(batch_id)
            _settle_quietly(store, batch_id)
        raise
    finally:
        LIVE_BATCHES.discard(batch_id)
    if progress is not None:  # the end: too late to cancel
        progress(Progress(action, len(steps), len(steps), done_bytes, total_bytes,
                          time.monotonic() - started))
    return result


def _settle_quietly(store: Store, batch_id: int) -> None:
    try:
        journal.settle(store, batch_id)
    except Exception:
        pass  # the rows stay 'planned': recover() will find out


def _guarded(do: Callable[[], Outcome]) -> Outcome:
    """Run one step; an error becomes 'failed', never success, never a crash of the batch."""
    try:
        return do()
    except Skip as exc:
        return Outcome("skipped", str(exc))
    except OSError as exc:
        return Outcome("failed", why(exc))
    except Exception as exc:  # a bug must not stop the batch or pass as success
        return Outcome("failed", f"{type(exc).__name__}: {exc}")


def _step(op: Operation, batch_id: int, seq: int) -> Callable[[], Outcome]:
    ident = Identity.of(op.member)
    kept = Identity.of(op.kept)
    temp = temp_name(op, batch_id, seq)

    def do() -> Outcome:
        check_before_acting(op.path, ident, op.kept.path, kept)
        if op.by_identity:
            compare(op.path, ident, op.kept.path, kept)
            # the comparison may take long: what it proved must still be on disk now
            # (an editor saving the kept file renames a new file over it)
            check_before_acting(op.path, ident, op.kept.path, kept)
        if op.action is Action.DELETE:
            os.unlink(op.path)
            return Outcome("done", "deleted")
        if op.action is Action.TRASH:
            return trash(op.path, ident)
        if op.action is Action.MOVE:
            return relocate(op.path, ident, op.target, temp, free_name=True)
        return link(op.path, ident, op.kept.path, kept, temp, symbolic=op.action is Action.SYMLINK)

    return do


# -- proofs -----------------------------------------------------------------------


def check_before_acting(path: str, ident: Identity, kept: str, kept_ident: Identity) -> None:
    """Raise Skip unless ``path`` and the kept copy are still the files scanned, and
    are two files: not one file under two names."""
    st = verify(path, ident)
    kept_st = verify(kept, kept_ident, what="the kept copy ")
    if os.path.samestat(st, kept_st):
        raise Skip(f"{path} is the same file as the kept copy {kept} (another name for it)")


def verify(path: str, ident: Identity, what: str = "") -> os.stat_result:
    """lstat ``path``; raise Skip unless it is the regular file scanned."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise Skip(f"{what}{path} is gone since the scan") from None
    if stat.S_ISLNK(st.st_mode):
        raise Skip(f"{what}{path} is now a symbolic link")
    if not stat.S_ISREG(st.st_mode):
        raise Skip(f"{what}{path} is no longer a regular file")
    if not ident.matches(st):
        changed = [name for name, same in (
            ("replaced by another file", ident.same_inode(st)),
            ("size", st.st_size == ident.size),
            ("modification time", st.st_mtime_ns == ident.mtime_ns)) if not same]
        raise Skip(f"{what}{path} changed since the scan ({', '.join(changed)})")
    return st


def compare(path: str, ident: Identity, kept: str, kept_ident: Identity) -> None:
    """Raise Skip unless both files (still the ones scanned) hold the same bytes."""
    with _open_checked(path, ident) as a, _open_checked(kept, kept_ident) as b:
        if os.path.samestat(os.fstat(a.fileno()), os.fstat(b.fileno())):
            # a file always equals itself: that proves nothing about a second copy
            raise Skip(f"{path} is the same file as the kept copy {kept} (another name for it)")
        if not same_content(a, b):
            raise Skip(f"content differs from the kept copy {kept}")
        # written in place while being read (same inode, new mtime): the bytes read
        # may be a mix of old and new
        if not ident.matches(os.fstat(a.fileno())):
            raise Skip(f"{path} changed while being compared")
        if not kept_ident.matches(os.fstat(b.fileno())):
            raise Skip(f"the kept copy {kept} changed while being compared")


def same_content(a, b) -> bool:
    """Byte-for-byte comparison of two binary file objects from their start."""
    a.seek(0)
    b.seek(0)
    while True:
        x, y = a.read(_CHUNK), b.read(_CHUNK)
        if x != y:
            return False
        if not x:
            return True


def _open_checked(path: str, ident: Identity):
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_NONBLOCK", 0))
    f = os.fdopen(fd, "rb", buffering=0)
    if not ident.matches(os.fstat(fd)):
        f.close()
        raise Skip(f"{path} changed since the scan")
    return f


def why(exc: OSError) -> str:
    """An OSError in words, with the path it concerns."""
    text = {errno.ENOSPC: "no space left on the device", errno.EACCES: "permission denied",
            errno.EPERM: "operation not permitted", errno.EROFS: "read-only file system",
            errno.EXDEV: "on another file system"}.get(exc.errno, exc.strerror or str(exc))
    where = exc.filename if exc.filename is not None else ""
    return f"{text}: {os.fsdecode(where)}" if where else text


# -- moving -----------------------------------------------------------------------


def place(src: str, dst: str, ident: Identity | None = None) -> None:
    """Give ``src`` the name ``dst`` on the same file system, never replacing a file.

    link + unlink is an atomic no-overwrite rename; a crash between them
    leaves two names of one file, never a lost one.  With ``ident``, the file
    given the new name must be that one: ``src`` may have been replaced since it
    was verified, and then it stays where it is (Skip says so).
    """
    with _sigint_deferred():
        try:
            os.link(src, dst, follow_symlinks=False)
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise
            _rename_no_replace(src, dst, ident)
            return
        try:
            if ident is not None and not ident.matches(os.lstat(dst)):
                raise Skip(f"{src} was replaced by another file just before moving it; "
                           "left in place")
            os.unlink(src)
        except BaseException as exc:
            if not _unlink_second_name(src, dst) and isinstance(exc, Skip):
                raise OSError(errno.EIO, f"{src} was replaced while being moved; the file now "
                                         f"at {dst} could not be taken back", dst) from None
            raise


# link() fails with these where the file system has no hard links (FAT, exFAT, shares)
_NO_HARD_LINKS = (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS)


def _unlink_second_name(src: str, dst: str) -> bool:
    """Undo ``link(src, dst)`` after a failure; True if undone.

    Only while ``src`` is still a name of the same file: if it is gone, the unlink
    did happen (Ctrl-C lands as the call returns) and ``dst`` is now the only name
    of the file, so the move is complete and removing ``dst`` would lose it.
    """
    src_st, dst_st = _lstat_or_none(src), _lstat_or_none(dst)
    if src_st is None or dst_st is None or not os.path.samestat(src_st, dst_st):
        return False
    os.unlink(dst)
    return True


def _lstat_or_none(path: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


@contextlib.contextmanager
def _sigint_deferred():
    """Hold Ctrl-C back while a file is between two names.

    A KeyboardInterrupt raised inside the link/unlink pair (or as ``unlink`` returns)
    cuts the step where nothing records what happened; here the signal is noted and
    the previous handler runs once the pair is done.  Blocking SIGINT with
    pthread_sigmask would not do: CPython runs Python signal handlers in the main
    thread whichever thread the kernel delivers the signal to, so a signal landing on
    another thread still interrupts the main one.  Only the main thread can set
    handlers, and only it receives KeyboardInterrupt; elsewhere nothing is changed.
    """
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # SIG_DFL, SIG_IGN, not ours to set: a crash, if anything
        yield
        return
    caught: list = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            previous(signal.SIGINT, caught[0])  # usually raises KeyboardInterrupt


def _rename_no_replace(src: str, dst: str, ident: Identity | None) -> None:
    """Rename ``src`` to ``dst``, raising FileExistsError rather than replacing a file."""
    if ident is not None:
        verify(src, ident)  # no link to check afterwards: check before
    if _renameat2_noreplace(src, dst):
        return
    # no renameat2 (not Linux, old C library or kernel, or a file system that refuses
    # the flag): check, then rename; a file created at dst in between is replaced
    if os.path.lexists(dst):
        raise FileExistsError(errno.EEXIST, "file exists", dst)
    os.rename(src, dst)


_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


@functools.lru_cache(maxsize=1)
def _renameat2():
    """libc's renameat2 (Linux, glibc >= 2.28), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def _renameat2_noreplace(src: str, dst: str) -> bool:
    """Atomic rename that never replaces ``dst``: True when done, False when not available
    here; FileExistsError when ``dst`` exists, OSError on other errors."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), _RENAME_NOREPLACE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False  # the kernel or this file system does not know the flag
    raise OSError(err, os.strerror(err), src, None, dst)


def relocate(src: str, ident: Identity, dst: str, temp: str, *, free_name: bool) -> Outcome:
    """Move a verified file to ``dst`` (or a free variant of it when ``free_name``),
    copying across file systems; never overwrites, never loses the source."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    for target in candidates(dst) if free_name else [dst]:
        if os.path.lexists(target):
            continue
        try:
            place(src, target, ident)
        except FileExistsError:
            continue  # taken since we looked
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            return _copy_across(src, ident, target, temp, free_name)
        st = os.lstat(target)
        if not ident.matches(st) or os.path.lexists(src) and os.path.samestat(st, os.lstat(src)):
            raise OSError(errno.EIO, f"moved, but the file now at {target} is not the one "
                                     "scanned, or is still at its old place too", target)
        return Outcome("done", _moved(dst, target), target, _undo("move", target, st))
    raise Skip(f"{dst} is taken by another file")


def _moved(dst: str, target: str) -> str:
    return f"moved to {target}" + ("" if target == dst else f" ({dst} was taken)")


def candidates(path: str):
    """path, then 'name (1).ext', 'name (2).ext', ..."""
    yield path
    base, ext = os.path.splitext(path)
    for n in range(1, _MAX_NAME_TRIES):
        yield f"{base} ({n}){ext}"


def _copy_across(src: str, ident: Identity, dst: str, temp: str, free_name: bool) -> Outcome:
    """Copy to a temporary name beside the target, fsync, compare the bytes, name it
    without overwriting, and only then remove the source; roll back on any failure."""
    with _open_checked(src, ident) as f_in:
        st = os.fstat(f_in.fileno())
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o600)
        try:
            with os.fdopen(fd, "wb", buffering=0) as f_out:
                copy_data(f_in, f_out)
                os.fchmod(f_out.fileno(), stat.S_IMODE(st.st_mode))
                os.utime(f_out.fileno(), ns=(st.st_atime_ns, st.st_mtime_ns))
                os.fsync(f_out.fileno())
                copy = Identity.of_stat(os.fstat(f_out.fileno()))
            with open(temp, "rb", buffering=0) as check:
                if not same_content(f_in, check):
                    raise OSError(errno.EIO, "the copy differs from the original", temp)
            if not ident.matches(os.fstat(f_in.fileno())):
                raise Skip(f"{src} changed while being copied")
            target = None
            for name in candidates(dst) if free_name else [dst]:
                try:
                    place(temp, name, copy)
                except FileExistsError:
                    continue
                target = name
                break
            if target is None:
                raise Skip(f"{dst} is taken by another file")
        except BaseException:
            _remove_quietly(temp)
            raise
    _fsync_dir(os.path.dirname(target))
    try:
        with _sigint_deferred():
            verify(src, ident)  # not changed since the copy: the copy is the whole file
            os.unlink(src)
    except BaseException as exc:
        # roll back only while the original is intact: if it is gone (Ctrl-C as unlink
        # returned), the copy is the file now
        if _intact(src, ident):
            _remove_quietly(target)  # the original stays; the copy goes
        elif isinstance(exc, Skip):
            raise Skip(f"{exc}; the copy made before is left at {target}") from None
        raise
    return Outcome("done", _moved(dst, target) + " (copied to another file system)", target,
                   _undo("move", target, os.lstat(target)))


def _intact(path: str, ident: Identity) -> bool:
    st = _lstat_or_none(path)
    return st is not None and stat.S_ISREG(st.st_mode) and ident.matches(st)


def copy_data(f_in, f_out) -> None:
    buf = bytearray(_CHUNK)
    view = memoryview(buf)
    f_in.seek(0)
    while n := f_in.readinto(view):
        written = 0
        while written < n:
            written += f_out.write(view[written:n])


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on folders; the data itself is synced
    finally:
        os.close(fd)


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _undo(kind: str, at: str, st: os.stat_result, **extra) -> dict:
    return {"kind": kind, "at": at, "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "device": st.st_dev, "inode": st.st_ino, **extra}


# -- links --------------------------------------------------------------------------


def link(path: str, ident: Identity, kept: str, kept_ident: Identity, temp: str, *,
         symbolic: bool) -> Outcome:
    """Replace ``path`` by a link to ``kept``: link to a temporary name, rename it over
    ``path`` atomically, confirm; on failure the temporary name goes, ``path`` stays."""
    if not symbolic and ident.same_inode(os.lstat(kept)):
        raise Skip(f"already a hard link of {kept}")
    kind = "symbolic" if symbolic else "hard"
    if symbolic:
        os.symlink(os.path.abspath(kept), temp)
    else:
        os.link(kept, temp, follow_symlinks=False)
    try:
        # a link goes to whatever has the name 'kept' now: it must be the file compared
        if not kept_ident.matches(os.stat(temp) if symbolic else os.lstat(temp)):
            raise Skip(f"the kept copy {kept} was replaced just before linking to it")
        verify(path, ident)  # last look right before the swap
        os.replace(temp, path)
    except BaseException:
        _remove_quietly(temp)
        raise
    # a symbolic link holds a name, not the bytes: the kept copy must still be them
    if not is_link_to(path, kept, kept_ident, symbolic) or (
            symbolic and not _intact(kept, kept_ident)):
        # too late to roll back: say what happened, not just that it failed
        raise OSError(errno.EIO, f"replaced by a {kind} link to {kept}, but the link or the "
                                 "kept copy could not be confirmed afterwards: check both",
                      path)
    return Outcome("done", f"{kind} link to {kept}")


def is_link_to(path: str, kept: str, kept_ident: Identity, symbolic: bool) -> bool:
    try:
        st = os.lstat(path)
        if symbolic:
            return stat.S_ISLNK(st.st_mode) and os.readlink(path) == os.path.abspath(kept)
        return stat.S_ISREG(st.st_mode) and kept_ident.same_inode(st)
    except OSError:
        return False


# -- trash --------------------------------------------------------------------------


def _freedesktop() -> bool:
    return sys.platform not in ("darwin", "win32")


def send_to_trash(path: str) -> None:
    """send2trash; on freedesktop systems its own implementation of the trash spec,
    whose naming we know, so that the journal can find the file again for undo."""
    if _freedesktop():
        from send2trash.plat_other import send2trash
    else:
        from send2trash import send2trash
    send2trash(path)


def trash(path: str, ident: Identity) -> Outcome:
    send_to_trash(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and ident.same_inode(st):
        raise OSError(errno.EIO, "the file is still in place after trashing", path)
    found = find_in_trash(path, ident)
    if found is None:
        return Outcome("done", "sent to the trash (where is unknown: cannot be undone here)")
    at, info = found
    return Outcome("done", f"sent to the trash: {at}", at,
                   _undo("trash", at, os.lstat(at), info=info))


def trash_dirs(folder: str) -> Iterator[bytes]:
    """The freedesktop trash folders that may receive a file of ``folder``, likeliest first."""
    if not _freedesktop():
        return
    from send2trash import plat_other

    yield plat_other.HOMETRASH_B
    yield from _volume_trash_dirs(os.fsencode(folder))


@functools.lru_cache(maxsize=256)
def _volume_trash_dirs(folder: bytes) -> tuple[bytes, ...]:
    from send2trash import plat_other

    try:
        top = plat_other.find_mount_point(folder)
    except OSError:
        return ()
    return (os.path.join(top, plat_other.TOPDIR_TRASH, str(os.getuid()).encode()),
            os.path.join(top, plat_other.TOPDIR_FALLBACK))


def find_in_trash(path: str, ident: Identity) -> tuple[str, str] | None:
    """(file, info file) of ``path`` in the trash, found by its inode under the names
    send2trash gives ('name', 'name 1.ext', ...); None if not there."""
    name = os.path.basename(os.fsencode(path))
    base, ext = os.path.splitext(name)
    for trash_dir in trash_dirs(os.path.dirname(path) or "."):
        files, info = os.path.join(trash_dir, b"files"), os.path.join(trash_dir, b"info")
        if not os.path.isdir(files):
            continue
        for n in range(_MAX_NAME_TRIES):
            candidate = name if n == 0 else base + b" %d" % n + ext
            try:
                st = os.lstat(os.path.join(files, candidate))
            except FileNotFoundError:
                if not os.path.lexists(os.path.join(info, candidate + b".trashinfo")):
                    break
                continue
            if ident.same_inode(st):
                return (os.fsdecode(os.path.join(files, candidate)),
                        os.fsdecode(os.path.join(info, candidate + b".trashinfo")))
    return None
