"""Clean-up: plan what happens to the extra copies, do it without losing data, undo it.

``plan`` chooses (no file is touched); ``execution`` acts through ``actions``
(proofs, moves, links) and ``trash``, in folders ``opened`` once per batch without
following links, journaling every file with ``journal``; ``running`` runs the
journaled steps for both ``execution`` and ``undoing``.  Dependencies run one way:
plan, actions <- opened, trash <- journal <- running <- execution <- undoing.
"""

from __future__ import annotations

from simgui.core.lazy import exports

# the names load on first use: 'simgui journal' needs the journal, not the whole clean-up
__all__, __getattr__, __dir__ = exports(globals(), {
    f"{__name__}.actions": ("Identity", "Outcome", "Skip"),
    f"{__name__}.running": ("BatchResult", "FileResult"),
    f"{__name__}.execution": ("execute",),
    f"{__name__}.journal": ("Batch", "Entry", "UndoError", "batches", "entries", "recover"),
    f"{__name__}.plan": ("Action", "KeepRule", "Plan", "Refusal", "plan_marked", "plan_removal"),
    f"{__name__}.undoing": ("undo",),
})
