"""Merge folder A into folder B as one journaled, undoable batch that never loses a byte.

Every scanned file of A whose content B lacks is copied into B at its path relative to
A (written beside, fsynced, compared byte for byte, then named without replacing
anything); then each file of A goes to the trash, right after being compared byte for
byte with its identical file in B (one that was there, or the copy just made).

The rule for a file of A that is only *similar* to one of B: A's version is never
dropped.  By default it is copied into B beside B's version (under ``name (from
A-folder).ext`` when the name is taken), so both versions stay; an empty file is
copied unless B has an empty file at its path (its name is all it holds); when the user prefers
A's version (``prefer_a``), B's version goes to the trash first and A's takes its
place.  So after a merge every byte string of A is in B, or (B's superseded versions)
in the trash, and undo puts everything back.

Order: B's superseded versions to the trash, the copies, then A to the trash.  The first
step that is not done stops the batch (the rest is skipped, saying why): a full disk or a
failed copy leaves A untouched.  Undo runs the batch backwards: A comes back from the
trash, then each copy is removed, only if unchanged and A's file is back with the same
bytes, then B's versions come back.  Everything is named in folders opened from the
scanned roots (:mod:`simgui.core.cleanup.opened`), never through a link.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from simgui.core.cleanup import actions, journal, trash
from simgui.core.cleanup.actions import Identity, Outcome, Skip
from simgui.core.cleanup.opened import NO_LINKS, OpenedFolders
from simgui.core.cleanup.running import BatchResult, run_batch
from simgui.core.folders import first_inside
from simgui.core.progress import ProgressCallback
from simgui.core.search.groups import Member
from simgui.core.search.similar_folders import FolderIndex
from simgui.core.store import Store
from simgui.core.units import format_bytes

#: the files named in a refusal or a description, at most
_NAMED = 5

COPY, TRASH_A, TRASH_B = "copy", "trash A", "trash B"


@dataclass(frozen=True)
class MergeStep:
    """One file of the merge: copied into B, or sent to the trash."""

    kind: str  # COPY (A's file into B), TRASH_B (B's superseded version), TRASH_A
    member: Member  # the file acted on (A's, or B's for TRASH_B)
    target: str | None = None  # COPY: where in B
    kept: Member | None = None  # TRASH_A: B's identical file that was there; TRASH_B: A's
    source: int | None = None  # TRASH_A: the step whose copy is A's file in B
    why: str = ""  # COPY: "only in A", "A's version, preferred", "A's version, beside B's"

    @property
    def path(self) -> str:
        return self.member.path


@dataclass
class MergePlan:
    """What :func:`execute_merge` will do; :meth:`describe` says it in words."""

    a: str
    b: str
    steps: list[MergeStep] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # why nothing is done
    roots: list[str] = field(default_factory=list)

    @property
    def operations(self) -> list[MergeStep]:
        return self.steps

    def of(self, kind: str) -> list[MergeStep]:
        return [s for s in self.steps if s.kind == kind]

    def describe(self) -> str:
        if self.refused:
            return f"{self.a} is not merged into {self.b}: " + "; ".join(self.refused)
        copies, gone_a, gone_b = self.of(COPY), self.of(TRASH_A), self.of(TRASH_B)
        size = format_bytes(sum(s.member.size for s in copies))
        lines = [f"Merge {self.a} into {self.b}:",
                 f"copy {len(copies):,} file{'s' * (len(copies) != 1)} ({size}) into B, "
                 f"then send the {len(gone_a):,} scanned file{'s' * (len(gone_a) != 1)} of A "
                 "to the trash, each compared byte for byte with its copy in B first."]
        beside = [s for s in copies if s.why == BESIDE]
        if beside:
            lines.append(f"{len(beside):,} of A's files {'is' if len(beside) == 1 else 'are'} "
                         "only similar to B's version and kept beside it: "
                         + _names([s.target for s in beside]))
        if gone_b:
            lines.append(f"{len(gone_b):,} of B's files {'is' if len(gone_b) == 1 else 'are'} "
                         "replaced by A's version (B's version to the trash): "
                         + _names([s.path for s in gone_b]))
        lines.append("The first step that fails stops the merge, before A is touched; "
                     "undoing the merge puts A back and removes the copies.")
        return "\n".join(lines)


ONLY, PREFERRED, BESIDE = "only in A", "A's version, preferred", "A's version, beside B's"


def _names(paths: Sequence[str]) -> str:
    more = f" and {len(paths) - _NAMED:,} more" if len(paths) > _NAMED else ""
    return ", ".join(paths[:_NAMED]) + more


def _member(index: FolderIndex, f: int) -> Member:
    files = index.table.files
    return Member(f, files.paths[f], int(files.sizes[f]), int(files.mtimes_ns[f]),
                  int(files.devices[f]), int(files.inodes[f]), files.hashes[f], False, 0.0,
                  0, 0.0)


def plan_merge(index: FolderIndex, a: str, b: str, *, roots: Sequence[str],
               prefer_a: Iterable[str] = (), references: Sequence[str] = ()) -> MergePlan:
    """Merge folder ``a`` into ``b`` (see the module): refused, with the reason, when a
    folder holds no scanned file, one holds the other, a folder of B on the way is a
    link, or a file it would send to the trash lies in a reference folder
    (``references``: never touched).  ``prefer_a``: A's similar files whose version
    replaces B's."""
    a, b = os.path.abspath(a), os.path.abspath(b)
    roots = sorted((os.path.abspath(r) for r in roots), key=len, reverse=True)
    plan = MergePlan(a, b, roots=roots)
    prefer = {os.path.abspath(p) for p in prefer_a}
    if a == b or _under(a, b) or _under(b, a):
        plan.refused.append("one folder is inside the other, or is the other")
        return plan
    for folder in (a, b):
        if folder not in index.ids:
            plan.refused.append(f"no scanned file is in {folder}")
            return plan
    statuses = [s for s in index.diff(a, b) if s.side == "a"]
    paths = index.table.files.paths
    file_of = {paths[f]: f for f in index.files_under(index.ids[b]).tolist()}
    # an empty file matters by its name (__init__.py, .gitkeep): B has it only at its path
    statuses = [dataclasses.replace(s, status="only", match="") if s.status == "identical"
                and s.size == 0 and not _empty_at(index, file_of, os.path.join(b, s.relative))
                else s for s in statuses]
    unknown = prefer - {s.path for s in statuses if s.status == "similar"}
    if unknown:
        plan.refused.append("--prefer-a names no similar file of A: " + _names(sorted(unknown)))
        return plan
    superseded: dict[str, int] = {}  # B's versions to the trash -> A's file preferred
    for s in statuses:
        if s.status == "similar" and s.path in prefer and s.match not in superseded:
            superseded[s.match] = s.file
    # a file of A identical only to versions of B that go to the trash is copied too
    staying: dict[int, str] = {}
    for path, f in sorted(file_of.items()):
        if path not in superseded:
            staying.setdefault(int(index.file_content[f]), path)
    statuses = [s if s.status != "identical" or s.match not in superseded else
                dataclasses.replace(s, match=staying[int(index.file_content[s.file])])
                if int(index.file_content[s.file]) in staying else
                dataclasses.replace(s, status="only", match="") for s in statuses]
    taken: set[str] = set()
    copies: list[tuple[int, str, str]] = []  # A's file, target, why
    for s in statuses:
        if s.status == "identical":
            continue
        why = ONLY if s.status == "only" else PREFERRED if s.path in prefer else BESIDE
        target = _free(os.path.join(b, s.relative), taken, set(superseded), a)
        link = _link_on_the_way(b, target)
        if link:
            plan.refused.append(f"{link} is a symbolic link, and {NO_LINKS}; nothing is touched")
            return plan
        taken.add(target)
        copies.append((s.file, target, why))
    for match, f in superseded.items():
        plan.steps.append(MergeStep(TRASH_B, _member(index, file_of[match]),
                                    kept=_member(index, f)))
    seq_of_copy = {}
    for f, target, why in copies:
        seq_of_copy[f] = len(plan.steps)
        plan.steps.append(MergeStep(COPY, _member(index, f), target, why=why))
    for s in statuses:
        if s.status == "identical":
            plan.steps.append(MergeStep(TRASH_A, _member(index, s.file),
                                        kept=_member(index, file_of[s.match])))
        else:
            plan.steps.append(MergeStep(TRASH_A, _member(index, s.file),
                                        source=seq_of_copy[s.file]))
    first = first_inside((s.path for s in plan.steps if s.kind != COPY), references)
    if first is not None:
        plan.refused.append(f"{first} is in a reference folder; nothing is touched")
        plan.steps.clear()
    return plan


def _empty_at(index: FolderIndex, file_of: dict[str, int], path: str) -> bool:
    f = file_of.get(path)
    return f is not None and int(index.sizes[f]) == 0


def _under(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def _free(target: str, taken: set[str], freed: set[str], a: str) -> str:
    """``target``, else ``name (from <A's name>).ext``, ``name (from <A's name> 2).ext``...:
    the first name neither on disk (unless its file goes to the trash first) nor planned."""
    base, ext = os.path.splitext(target)
    label = os.path.basename(a) or "A"
    names = [target, f"{base} (from {label}){ext}"]
    names += (f"{base} (from {label} {n}){ext}" for n in range(2, actions._MAX_NAME_TRIES))
    for name in names:
        if name not in taken and (name in freed or not os.path.lexists(name)):
            return name
    raise ValueError(f"no free name for {target}")


def _link_on_the_way(b: str, target: str) -> str | None:
    """The first folder between ``b`` and ``target`` (``b`` included) that is a link."""
    folder = b
    parts = os.path.relpath(os.path.dirname(target), b).split(os.sep)
    for part in [""] + [p for p in parts if p not in ("", ".")]:
        folder = os.path.join(folder, part) if part else folder
        if os.path.islink(folder):
            return folder
        if not os.path.isdir(folder):
            return None  # made by the merge, strictly
    return None


# -- doing it -------------------------------------------------------------------------


def temp_name(step: MergeStep, batch_id: int, seq: int) -> str | None:
    """The temporary name a copy is written under, beside its target, known to the
    journal before it runs."""
    if step.kind != COPY:
        return None
    return os.path.join(os.path.dirname(step.target), f".simgui-{batch_id}-{seq}.tmp")


def execute_merge(plan: MergePlan, store: Store, *,
                  progress: ProgressCallback | None = None) -> BatchResult:
    """Do ``plan`` as one journaled batch (action "merge"); one result per step.  A step
    that is not done stops the batch: every later step is skipped, saying why."""
    if plan.refused:
        raise ValueError(plan.describe())
    steps = plan.steps

    def rows(batch_id: int) -> list[journal.PlannedRow]:
        out = []
        for seq, s in enumerate(steps):
            kept = s.kept if s.kind != COPY else None
            out.append(journal.PlannedRow(
                seq=seq, action="copy" if s.kind == COPY else "trash", path=s.path,
                identity=Identity.of(s.member), content_hash=s.member.content_hash,
                kept=kept.path if kept else steps[s.source].target if s.source is not None
                else None, kept_identity=Identity.of(kept) if kept else None,
                by_identity=s.kind == TRASH_A, target=s.target,
                temp=temp_name(s, batch_id, seq)))
        return out

    batch_id = journal.begin(store, "merge", plan.describe(), rows, roots=plan.roots)
    state = _State()
    with OpenedFolders(plan.roots) as folders:
        todo = [(seq, s.path, s.member.size,
                 state.guard(_step(s, seq, batch_id, folders, state, plan)))
                for seq, s in enumerate(steps)]
        return run_batch(store, batch_id, "merge", todo, progress)


@dataclass
class _State:
    stopped: str | None = None
    copies: dict = field(default_factory=dict)  # seq -> (path, Identity) of a copy made

    def guard(self, do: Callable[[], Outcome]) -> Callable[[], Outcome]:
        def guarded() -> Outcome:
            if self.stopped is not None:
                raise Skip(f"not done: the merge stopped before it ({self.stopped})")
            try:
                outcome = do()
            except BaseException as exc:
                self.stopped = str(exc) or type(exc).__name__
                raise
            if outcome.state != "done":
                self.stopped = outcome.message
            return outcome
        return guarded


def _step(s: MergeStep, seq: int, batch_id: int, folders: OpenedFolders, state: _State,
          plan: MergePlan) -> Callable[[], Outcome]:
    ident = Identity.of(s.member)

    def copy() -> Outcome:
        src = folders.at(s.path)
        mark = len(folders.made)
        try:
            dst = folders.at(s.target, create=True, what="the copy's place ")
            outcome = actions.copy_verified(src, ident, dst,
                                            dst.beside(os.path.basename(
                                                temp_name(s, batch_id, seq))))
        except BaseException:
            folders.remove_empty(folders.made[mark:])
            raise
        made = folders.made[mark:]
        if made:
            outcome = Outcome(outcome.state, outcome.message, outcome.target,
                              {**outcome.undo, "made": made})
        u = outcome.undo
        state.copies[seq] = (u["at"], Identity(u["size"], u["mtime_ns"], u["device"],
                                               u["inode"]))
        return outcome

    def trash_a() -> Outcome:
        if s.source is not None:
            if s.source not in state.copies:
                raise Skip(f"its copy in {plan.b} was not made; left as it is")
            kept_path, kept_ident = state.copies[s.source]
        else:
            kept_path, kept_ident = s.kept.path, Identity.of(s.kept)
        path = folders.at(s.path)
        kept = folders.at(kept_path, what="the copy in B ")
        actions.check_before_acting(path, ident, kept, kept_ident)
        actions.compare(path, ident, kept, kept_ident)
        actions.check_before_acting(path, ident, kept, kept_ident)  # still what was compared
        return trash.trash_entry(path.fd, path.name, path.path, ident, f"{batch_id}-{seq}")

    def trash_b() -> Outcome:
        # A's version, which takes its place, must still be the file scanned
        actions.verify(folders.at(s.kept.path, what="A's version "), Identity.of(s.kept),
                       what="A's version ")
        path = folders.at(s.path)
        return trash.trash_entry(path.fd, path.name, path.path, ident, f"{batch_id}-{seq}")

    return {COPY: copy, TRASH_A: trash_a, TRASH_B: trash_b}[s.kind]


def trashed_paths(plan: MergePlan, result: BatchResult) -> set[str]:
    """The scanned files the batch sent to the trash (those the store should forget)."""
    return {s.path for s, r in zip(plan.steps, result.results)
            if s.kind != COPY and r.status == "done"}
