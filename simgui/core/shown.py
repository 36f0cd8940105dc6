"""A path as a message, a list or a page can show it: bytes of a file name that are not
UTF-8 (held in the str as surrogate escapes) appear as ``\\xNN``, never as an error."""

from __future__ import annotations

import os
import re


def shown_path(path: str) -> str:
    """``path`` readable: its odd bytes as ``\\xNN`` (what ``ls -b`` shows)."""
    try:
        return os.fsencode(path).decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate no file name decodes to
        return path.encode("utf-8", "backslashreplace").decode("utf-8")


_SHOWN_BYTE = re.compile(rb"\\x([89a-fA-F][0-9a-fA-F])")


def unshown_path(path: str) -> str:
    """The inverse of :func:`shown_path` for a path typed as it is shown: each ``\\xNN``
    of a byte that is not ASCII is that byte again (a name that holds such text itself
    cannot be told from it: keep a path that was set, not typed, as it was)."""
    if "\\x" not in path:
        return path
    return os.fsdecode(_SHOWN_BYTE.sub(lambda m: bytes([int(m[1], 16)]), os.fsencode(path)))
