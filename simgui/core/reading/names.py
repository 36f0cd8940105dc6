"""What a file's name tells: its extension, as the extension rule and the store use it."""

from __future__ import annotations


def extension_of(path: str) -> str:
    """The case-folded extension without the dot ('' when there is none)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, ext = name.rpartition(".")
    return ext.casefold() if dot and stem else ""
