"""What a file's name tells: its extension, as the extension rule and the store use it,
and whether a skip pattern (a glob, or ``re:`` and a regular expression) matches it."""

from __future__ import annotations

import functools
import re


def extension_of(path: str) -> str:
    """The case-folded extension without the dot ('' when there is none): what follows
    the last dot of the name (after the last '/' or '\\'), if something precedes it in
    the name.  (Found from the end without copying the path: every walked file asks.)
    Bytes that are not UTF-8 (surrogate escapes in the str) are written as escapes
    (``\\udc80``): an extension is text in the store and in the window."""
    dot = path.rfind(".")
    if dot <= max(path.rfind("/"), path.rfind("\\")) + 1:
        return ""
    ext = path[dot + 1:].casefold()
    if ext.isascii():
        return ext
    return ext.encode("utf-8", "backslashreplace").decode("utf-8")


#: A skip pattern that starts with this is a regular expression, searched in the path.
REGEX_PREFIX = "re:"
_regex = functools.lru_cache(maxsize=256)(re.compile)


def exclude_pattern(text: str) -> str:
    """A skip pattern as given: a glob (``*.tmp``, ``node_modules``), or ``re:`` and a
    regular expression searched in the whole path (``re:/\\.cache/``).  Raises
    ValueError saying what is wrong."""
    if text.startswith(REGEX_PREFIX):
        try:
            _regex(text[len(REGEX_PREFIX):])
        except re.error as exc:
            raise ValueError(f"not a regular expression: {text[len(REGEX_PREFIX):]!r} "
                             f"({exc})") from None
    return text
