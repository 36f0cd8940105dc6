"""Which folder holds a path: tests of paths against folders, links resolved on request.

Grouping (reference folders first) and clean-up (reference folders are never
touched) ask the same question of the same paths, so they share one answer.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence


def link_resolver() -> Callable[[str], str]:
    """A function giving a path with the links of its folders resolved.  A folder's
    real path is its parent's joined with its name, followed only if that is a link:
    one ``lstat`` per folder, cached (``realpath`` of each folder took one per part of
    its path: 40 us a folder of /usr)."""
    folders: dict[str, str] = {}

    def folder(path: str) -> str:
        real = folders.get(path)
        if real is None:
            parent, name = os.path.split(path)
            if not name or parent == path:  # the root, or a bare name
                real = path
            else:
                joined = os.path.join(folder(parent), name)
                real = os.path.realpath(joined) if os.path.islink(joined) else joined
            folders[path] = real
        return real

    heads: dict[str, str] = {}  # the text before a path's last separator -> real, with one

    def resolve(path: str) -> str:
        head, sep, tail = path.rpartition(os.sep)
        if not sep:
            return path
        real_head = heads.get(head)
        if real_head is None:
            real_head = heads[head] = os.path.join(folder(os.path.dirname(path)), "")
        return real_head + tail

    return resolve


def folder_test(folders: Sequence[str], *, resolve_links: bool = False) -> Callable[[str], bool]:
    """A test of a path: is it one of ``folders`` or inside one (absolute paths, compared
    as text)?  With ``resolve_links``, also when it is so once the symbolic links in the
    folders' paths and in its own folders are resolved (a folder named, or a file
    stored, through a link)."""
    if resolve_links:
        folders = list(dict.fromkeys([*folders, *map(os.path.realpath, folders)]))
    exact = frozenset(folders)
    prefixes = tuple(f.rstrip(os.sep) + os.sep for f in folders)

    def inside(path: str) -> bool:
        return path in exact or path.startswith(prefixes)

    if not resolve_links:
        return inside
    real = link_resolver()
    return lambda path: inside(path) or inside(real(path))


def first_inside(paths: Iterable[str], folders: Sequence[str]) -> str | None:
    """The first of ``paths`` that is one of ``folders`` or inside one, links resolved
    (:func:`folder_test`); None if none is, or no folder is given.  What a clean-up of
    whole folders asks of the reference folders: it is refused at the first file it
    would touch in one."""
    if not folders:
        return None
    inside = folder_test([os.path.abspath(f) for f in folders], resolve_links=True)
    return next((p for p in paths if inside(p)), None)


def under(path: str, folders: Sequence[str]) -> bool:
    """``path`` is one of ``folders`` or inside one (absolute paths, compared as text)."""
    return folder_test(folders)(path)
