"""A path as a message, a list or a page can show it: bytes of a file name that are not
UTF-8 (held in the str as surrogate escapes) appear as ``\\xNN``, never as an error."""

from __future__ import annotations

import os
import re


def shown_path(path: str) -> str:
    """``path`` readable: its odd bytes as ``\\xNN`` (what ``ls -b`` shows), control
    characters too (a newline in a name broke a row in two)."""
    try:
        text = os.fsencode(path).decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate no file name decodes to
        text = path.encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", text) if _CONTROL.search(text) \
        else text


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SHOWN_BYTE = re.compile(rb"\\x([89a-fA-F][0-9a-fA-F]|[01][0-9a-fA-F]|7[fF])")


def unshown_path(path: str) -> str:
    """The inverse of :func:`shown_path` for a path typed as it is shown: each ``\\xNN``
    of a byte that is not ASCII, or of a control character, is that byte again (a name
    that holds such text itself cannot be told from it: keep a path that was set, not
    typed, as it was)."""
    if "\\x" not in path:
        return path
    return os.fsdecode(_SHOWN_BYTE.sub(lambda m: bytes([int(m[1], 16)]), os.fsencode(path)))
