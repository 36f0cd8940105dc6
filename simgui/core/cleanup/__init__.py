"""Clean-up: plan what happens to the extra copies, do it without losing data, undo it.

``plan`` chooses (no file is touched); ``execution`` acts through ``actions``
(proofs, moves, links) and ``trash``, in folders ``opened`` once per batch without
following links, journaling every file with ``journal``; ``running`` runs the
journaled steps for both ``execution`` and ``undoing``.  Dependencies run one way:
plan, actions <- opened, trash <- journal <- running <- execution <- undoing.
"""

from simgui.core.cleanup.actions import Identity, Outcome, Skip
from simgui.core.cleanup.running import BatchResult, FileResult
from simgui.core.cleanup.execution import execute
from simgui.core.cleanup.journal import Batch, Entry, UndoError, batches, entries, recover
from simgui.core.cleanup.plan import Action, KeepRule, Plan, Refusal, plan_marked, plan_removal
from simgui.core.cleanup.undoing import undo

__all__ = [
    "Action", "Batch", "BatchResult", "Entry", "FileResult", "Identity", "KeepRule", "Outcome",
    "Plan", "Refusal", "Skip", "UndoError", "batches", "entries", "execute", "plan_marked",
    "plan_removal", "recover", "undo",
]
