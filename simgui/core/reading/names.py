"""What a file's name tells: its extension, as the extension rule and the store use it,
and whether a skip pattern (a glob, or ``re:`` and a regular expression) matches it."""

from __future__ import annotations

import functools
import glob
import os
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


def folder_pattern(folder: str) -> str:
    """The skip pattern that names ``folder`` exactly, its glob characters escaped: a
    folder named ``[old]`` is not the class of the names o, l and d."""
    return glob.escape(folder)


def folder_of_pattern(pattern: str) -> str | None:
    """The folder a skip pattern names exactly (as :func:`folder_pattern` writes it), or
    None where it is no absolute path, or may match other names."""
    if pattern.startswith(REGEX_PREFIX) or not os.path.isabs(pattern):
        return None
    plain = re.sub(r"\[([*?[])\]", r"\1", pattern)
    return plain if glob.escape(plain) == pattern else None
