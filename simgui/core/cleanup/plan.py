"""Plans: per group, which file stays and what happens to each of the others.

A :class:`Plan` never removes or moves every copy of a group and never touches
a file in a reference folder: a request that would is refused for the whole
group.  Planning reads no file; :mod:`simgui.core.cleanup.execution` acts.
"""

from __future__ import annotations

import enum
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from simgui.core.cleanup.actions import file_key
from simgui.core.folders import folder_test, under
from simgui.core.search.groups import Group, Member
from simgui.core.units import counted as _count, format_bytes


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


#: each rule's order, ties broken as the search picks a group's reference (shortest path
#: first, as the groups show it: copies made with cp -a share their times)
_RULE_KEYS: dict[KeepRule, Callable[[Member], tuple]] = {
    KeepRule.OLDEST: lambda m: (m.mtime_ns, len(m.path), m.path),
    KeepRule.NEWEST: lambda m: (-m.mtime_ns, len(m.path), m.path),
    KeepRule.LARGEST: lambda m: (-m.size, len(m.path), m.path),
    KeepRule.SHORTEST_PATH: lambda m: (len(m.path), m.path),
}


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
    # the scanned folders: the batch walks to each file from these, never through a link
    roots: list[str] = field(default_factory=list)
    #: a folder whose every file the plan acts on (a folder sent to the trash or moved):
    #: its folders emptied by the batch go too, once every file is done (undo makes them
    #: again as it puts the files back)
    emptied: str | None = None

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
            if all(op.by_identity for op in self.operations):
                lines.append("Each file is compared byte for byte with the kept copy right "
                             "before acting.")
            elif any(op.by_identity for op in self.operations):
                lines.append("Each identical copy is compared byte for byte with a copy that "
                             "stays right before acting.")
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


def plan_removal(groups: Iterable[Group], *, action: Action, keep: KeepRule = KeepRule.OLDEST,
                 references: Sequence[str] = (), identical_only: bool = False,
                 target_dir: str | None = None, roots: Sequence[str] = ()) -> Plan:
    """Keep one file per group (reference folders first, then ``keep``), act on the others.

    Empty files stay (as the window never marks them): removing one frees nothing,
    and files such as ``__init__.py`` or ``.gitkeep`` matter by their names.  With
    ``identical_only`` (and always for links) only files identical to one that stays
    are acted on (the kept one; where the rule kept an edited version, copies of each
    other keep their own best, left alone as only similar); hard links never cross
    devices.
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
    plan = Plan(action, [], [], {}, target_dir=target_dir, identical_only=identical_only,
                roots=roots)
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
            keepers = _set_keepers(chosen, [kept, *(m for m in files if m.path in protected)],
                                   keep) if identical_only and not action.links else []
            if keepers:
                stays = {m.path for m in keepers}
                chosen = [m for m in chosen if m.path not in stays]
            acted = {m.path for m in chosen}
            stay = [m for m in files if m.path not in acted]
        else:
            keepers = []
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
        plan.left_similar += similar + len(keepers)
        plan.other_names += aliases
        plan.empty += empty
        if ops:
            plan.kept[group.id] = kept
            plan.operations += ops
    return plan


def _set_keepers(chosen: list[Member], staying: list[Member], keep: KeepRule) -> list[Member]:
    """Of the ``chosen`` files, those that stay as their own set's copy: where the rule kept
    an edited version, the copies of the original are only similar to it but still copies
    of each other, so the best of each such set by the rule stays (left alone as only
    similar) and the rest of its set goes as its copies.  A file identical to one that
    stays anyway needs none.  (Not for links: a link must point at the kept file, never
    at a file a later run with --include-similar would remove.)"""
    keepers: list[Member] = []
    for m in sorted(chosen, key=_RULE_KEYS[keep]):
        if not any(_identical(m, s) for s in staying) and \
                not any(_identical(m, k) for k in keepers):
            keepers.append(m)
    return keepers


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
    pool = [kept] + sorted((s for s in stay if s is not kept), key=_RULE_KEYS[keep])
    for m in chosen:
        justify, proven = kept, by_identity
        if not by_identity:
            # similar files too (--include-similar): a file identical to one that stays
            # goes as its copy, proven byte for byte right before, as without them
            twin = next((s for s in pool if _identical(m, s)), None)
            if twin is not None:
                justify, proven = twin, True
        else:
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
        ops.append(Operation(action, group.id, m, justify, proven, target))
    return ops, None, left, similar


def _identical(a: Member, b: Member) -> bool:
    return bool(a.content_hash) and a.size == b.size and a.content_hash == b.content_hash


def _folders(paths: Sequence[str]) -> list[str]:
    return [os.path.abspath(os.fsdecode(p)) for p in paths]


def _relative(path: str, roots: Sequence[str]) -> str:
    """The path under its scanned root (the longest that holds it), else the whole path."""
    for root in roots:
        if path != root and under(path, [root]):
            return os.path.relpath(path, root)
    if path in roots:
        return os.path.basename(path)  # a file scanned as a root of its own
    drive, rest = os.path.splitdrive(path)
    return os.path.join(drive.replace(":", ""), rest.lstrip(os.sep))
