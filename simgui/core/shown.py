"""A path as a message, a list or a page can show it: bytes of a file name that are not
UTF-8 (held in the str as surrogate escapes) appear as ``\\xNN``, never as an error."""

from __future__ import annotations

import os


def shown_path(path: str) -> str:
    """``path`` readable: its odd bytes as ``\\xNN`` (what ``ls -b`` shows)."""
    try:
        return os.fsencode(path).decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate no file name decodes to
        return path.encode("utf-8", "backslashreplace").decode("utf-8")
