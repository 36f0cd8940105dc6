"""A clean-up plan and a clean-up's result, said in the window's language.

The core describes them in English for the command line (``Plan.describe``,
``BatchResult.describe``) and never imports Qt; the window says the same sentences
through Qt's translation instead, so a German user reads in German what is about to
happen to the files.  Without a translation the texts are the core's, word for word
(tests/test_gui_translation.py holds them together), except that a batch is a
"Clean-up" here, as the journal's "Batch" means nothing to a user.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from simgui.core.units import format_bytes

#: the journal's names of a clean-up's action, as the window says them
_ACTIONS = {"trash": QT_TRANSLATE_NOOP("PlanText", "trash"),
            "delete": QT_TRANSLATE_NOOP("PlanText", "delete"),
            "move": QT_TRANSLATE_NOOP("PlanText", "move"),
            "hardlink": QT_TRANSLATE_NOOP("PlanText", "hardlink"),
            "symlink": QT_TRANSLATE_NOOP("PlanText", "symlink"),
            "merge": QT_TRANSLATE_NOOP("PlanText", "merge"),
            "undo": QT_TRANSLATE_NOOP("PlanText", "undo")}


def action_word(action: str) -> str:
    """A clean-up's action (the journal's word: trash, move, merge, ...), translated."""
    return QCoreApplication.translate("PlanText", _ACTIONS[action]) if action in _ACTIONS \
        else action


def _count(n: int, one: str, many: str, **more) -> str:
    """``one`` or ``many`` (both already translated, with an {n} placeholder) for ``n``."""
    return (one if n == 1 else many).format(n=n, **more)


def describe_plan(plan) -> str:
    """:meth:`simgui.core.cleanup.plan.Plan.describe`, translated."""
    from simgui.core.cleanup import Action

    files = _count(plan.files, QCoreApplication.translate("PlanText", "{n:,} file ({size})"),
                   QCoreApplication.translate("PlanText", "{n:,} files ({size})"),
                   size=format_bytes(plan.bytes))
    lines = []
    if not plan.operations:
        lines.append(QCoreApplication.translate("PlanText", "Nothing to do."))
    else:
        action = {
            Action.TRASH: QCoreApplication.translate("PlanText", "Send {files} to the trash"),
            Action.DELETE: QCoreApplication.translate(
                "PlanText", "Delete {files} permanently (this cannot be undone)"),
            Action.MOVE: QCoreApplication.translate("PlanText", "Move {files} to {target}"),
            Action.HARDLINK: QCoreApplication.translate(
                "PlanText", "Replace {files} with hard links to the copy kept"),
            Action.SYMLINK: QCoreApplication.translate(
                "PlanText", "Replace {files} with symbolic links to the copy kept"),
        }[plan.action]
        keeping = (QCoreApplication.translate(
            "PlanText", ", keeping one file in each of {n:,} groups.").format(n=len(plan.kept))
            if len(plan.kept) > 1 else
            QCoreApplication.translate("PlanText", ", keeping one file of the group."))
        lines.append(action.format(files=files, target=plan.target_dir) + keeping)
        if all(op.by_identity for op in plan.operations):
            lines.append(QCoreApplication.translate(
                "PlanText", "Each file is compared byte for byte with the kept copy right "
                "before acting."))
        elif any(op.by_identity for op in plan.operations):
            lines.append(QCoreApplication.translate(
                "PlanText", "Each identical copy is compared byte for byte with a copy that "
                "stays right before acting."))
        if similar := plan.similar_only:
            lines.append(_count(similar, QCoreApplication.translate(
                "PlanText", "{n:,} of these files is not identical to the kept copy (similar "
                "only)"), QCoreApplication.translate(
                "PlanText", "{n:,} of these files are not identical to the kept copy (similar "
                "only)"))
                + (QCoreApplication.translate("PlanText",
                                              ": what differs in them is deleted for good.")
                   if plan.action is Action.DELETE else "."))
    if plan.left_alone:
        lines.append(_count(plan.left_alone, QCoreApplication.translate(
            "PlanText", "{n:,} other file of these groups is left alone."),
            QCoreApplication.translate(
                "PlanText", "{n:,} other files of these groups are left alone.")))
    if plan.empty:
        lines.append(_count(plan.empty, QCoreApplication.translate(
            "PlanText", "{n:,} of them is an empty file"), QCoreApplication.translate(
            "PlanText", "{n:,} of them are empty files")) + QCoreApplication.translate(
            "PlanText", ": removing one frees nothing, and empty files such as __init__.py or "
            ".gitkeep matter by their names (mark them in the window to act on them)."))
    if plan.other_names:
        lines.append(_count(plan.other_names, QCoreApplication.translate(
            "PlanText", "{n:,} of them is another name of a file that stays (same device and "
            "inode), not a copy of it."), QCoreApplication.translate(
            "PlanText", "{n:,} of them are another name of a file that stays (same device and "
            "inode), not a copy of it.")))
    if plan.refused:
        lines.append(_count(len(plan.refused), QCoreApplication.translate(
            "PlanText", "{n:,} group refused, nothing in it is touched:"),
            QCoreApplication.translate(
                "PlanText", "{n:,} groups refused, nothing in them is touched:")))
        group = QCoreApplication.translate("PlanText", "  group {id}: {reason}")
        lines += [group.format(id=r.group_id, reason=r.reason) for r in plan.refused[:20]]
        if len(plan.refused) > 20:
            lines.append(QCoreApplication.translate("PlanText", "  ... and {n:,} more").format(
                n=len(plan.refused) - 20))
    return "\n".join(lines)


def describe_batch(result) -> str:
    """:meth:`simgui.core.cleanup.running.BatchResult.describe`, translated, with the
    batch called a clean-up; each file that was not done on a line of its own, with
    the core's reason (English: it names what the file system said)."""
    head = QCoreApplication.translate(
        "PlanText", "Clean-up {id} ({action}): {done:,} done ({size}), {skipped:,} skipped, "
        "{failed:,} failed").format(
            id=result.batch_id, action=action_word(result.action), done=len(result.done),
            size=format_bytes(result.bytes_done), skipped=len(result.skipped),
            failed=len(result.failed))
    head += (QCoreApplication.translate("PlanText", ", cancelled") if result.cancelled
             else "") + "."
    status = {"skipped": QCoreApplication.translate("PlanText", "skipped"),
              "failed": QCoreApplication.translate("PlanText", "failed")}
    lines = [head]
    for r in result.results:
        if r.status != "done":
            lines.append(f"  {status.get(r.status, r.status)}: {r.path}: {r.message}")
    return "\n".join(lines)


def describe_merge(plan) -> str:
    """:meth:`simgui.core.cleanup.folder_merge.MergePlan.describe`, translated (the
    reasons a merge is refused stay the core's English)."""
    from simgui.core.cleanup.folder_merge import _NAMED, BESIDE, COPY, TRASH_A, TRASH_B

    def names(paths) -> str:
        more = QCoreApplication.translate("PlanText", " and {n:,} more").format(
            n=len(paths) - _NAMED) if len(paths) > _NAMED else ""
        return ", ".join(paths[:_NAMED]) + more

    if plan.refused:
        return QCoreApplication.translate("PlanText", "{a} is not merged into {b}: ").format(
            a=plan.a, b=plan.b) + "; ".join(plan.refused)
    copies, gone_a, gone_b = plan.of(COPY), plan.of(TRASH_A), plan.of(TRASH_B)
    size = format_bytes(sum(s.member.size for s in copies))
    copy = _count(len(copies), QCoreApplication.translate(
        "PlanText", "copy {n:,} file ({size}) into B, "), QCoreApplication.translate(
        "PlanText", "copy {n:,} files ({size}) into B, "), size=size)
    trash = _count(len(gone_a), QCoreApplication.translate(
        "PlanText", "then send the {n:,} scanned file of A to the trash, each compared byte "
        "for byte with its copy in B first."), QCoreApplication.translate(
        "PlanText", "then send the {n:,} scanned files of A to the trash, each compared byte "
        "for byte with its copy in B first."))
    lines = [QCoreApplication.translate("PlanText", "Merge {a} into {b}:").format(
        a=plan.a, b=plan.b), copy + trash]
    beside = [s for s in copies if s.why == BESIDE]
    if beside:
        lines.append(_count(len(beside), QCoreApplication.translate(
            "PlanText", "{n:,} of A's files is only similar to B's version and kept beside "
            "it: "), QCoreApplication.translate(
            "PlanText", "{n:,} of A's files are only similar to B's version and kept beside "
            "it: ")) + names([s.target for s in beside]))
    if gone_b:
        lines.append(_count(len(gone_b), QCoreApplication.translate(
            "PlanText", "{n:,} of B's files is replaced by A's version (B's version to the "
            "trash): "), QCoreApplication.translate(
            "PlanText", "{n:,} of B's files are replaced by A's version (B's version to the "
            "trash): ")) + names([s.path for s in gone_b]))
    lines.append(QCoreApplication.translate(
        "PlanText", "The first step that fails stops the merge, before A is touched; undoing "
        "the merge puts A back and removes the copies."))
    return "\n".join(lines)


def merge_reason(why: str) -> str:
    """Why a merge step copies a file (folder_merge's ONLY, PREFERRED, BESIDE), as shown."""
    from simgui.core.cleanup.folder_merge import BESIDE, ONLY, PREFERRED

    return {ONLY: QCoreApplication.translate("PlanText", "only in A"),
            PREFERRED: QCoreApplication.translate("PlanText", "A's version, preferred"),
            BESIDE: QCoreApplication.translate("PlanText", "A's version, beside B's")}.get(
                why, why)
