"""Clean-up: plan what happens to the extra copies, do it without losing data, undo it.

``plan`` chooses (no file is touched); ``execution`` acts through ``actions``
(proofs, moves, links) and ``trash``, in folders ``opened`` once per batch without
following links, journaling every file with ``journal``; ``running`` runs the
journaled steps for both ``execution`` and ``undoing``.  Dependencies run one way:
plan, actions <- opened, trash <- journal <- running <- execution <- undoing.
"""

from __future__ import annotations

import importlib

# the names below load on first use (PEP 562): 'simgui journal' needs the journal, not
# the whole clean-up, and every command's start counts
_PUBLIC = {
    "actions": ("Identity", "Outcome", "Skip"),
    "running": ("BatchResult", "FileResult"),
    "execution": ("execute",),
    "journal": ("Batch", "Entry", "UndoError", "batches", "entries", "recover"),
    "plan": ("Action", "KeepRule", "Plan", "Refusal", "plan_marked", "plan_removal"),
    "undoing": ("undo",),
}
_MODULE_OF = {name: f"{__name__}.{module}" for module, names in _PUBLIC.items()
              for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
