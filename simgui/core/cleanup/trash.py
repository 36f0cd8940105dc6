"""The trash: freedesktop's trash folders (via send2trash), and finding a file there again.

On freedesktop systems send2trash's own implementation of the trash spec is
used, whose naming is known, so that the journal can find each file again by
its inode and undo can put it back.
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Iterator

from simgui.core.cleanup.actions import _MAX_NAME_TRIES, Identity, Outcome, undo_record


def _freedesktop() -> bool:
    return sys.platform not in ("darwin", "win32")


def send_to_trash(path: str) -> None:
    """send2trash; on freedesktop systems its own implementation of the trash spec,
    whose naming we know, so that the journal can find the file again for undo."""
    if _freedesktop():
        from send2trash.plat_other import send2trash
    else:
        from send2trash import send2trash
    send2trash(path)


def trash(path: str, ident: Identity) -> Outcome:
    send_to_trash(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and ident.same_inode(st):
        raise OSError(errno.EIO, "the file is still in place after trashing", path)
    found = find_in_trash(path, ident)
    if found is None:
        return Outcome("done", "sent to the trash (where is unknown: cannot be undone here)")
    at, info = found
    return Outcome("done", f"sent to the trash: {at}", at,
                   undo_record("trash", at, os.lstat(at), info=info))


def trash_dirs(folder: str) -> Iterator[bytes]:
    """The freedesktop trash folders that may receive a file of ``folder``, likeliest first."""
    if not _freedesktop():
        return
    from send2trash import plat_other

    yield plat_other.HOMETRASH_B
    yield from _volume_trash_dirs(os.fsencode(folder))


@functools.lru_cache(maxsize=256)
def _volume_trash_dirs(folder: bytes) -> tuple[bytes, ...]:
    from send2trash import plat_other

    try:
        top = plat_other.find_mount_point(folder)
    except OSError:
        return ()
    return (os.path.join(top, plat_other.TOPDIR_TRASH, str(os.getuid()).encode()),
            os.path.join(top, plat_other.TOPDIR_FALLBACK))


def find_in_trash(path: str, ident: Identity) -> tuple[str, str] | None:
    """(file, info file) of ``path`` in the trash, found by its inode under the names
    send2trash gives ('name', 'name 1.ext', ...); None if not there."""
    name = os.path.basename(os.fsencode(path))
    base, ext = os.path.splitext(name)
    for trash_dir in trash_dirs(os.path.dirname(path) or "."):
        files, info = os.path.join(trash_dir, b"files"), os.path.join(trash_dir, b"info")
        if not os.path.isdir(files):
            continue
        for n in range(_MAX_NAME_TRIES):
            candidate = name if n == 0 else base + b" %d" % n + ext
            try:
                st = os.lstat(os.path.join(files, candidate))
            except FileNotFoundError:
                if not os.path.lexists(os.path.join(info, candidate + b".trashinfo")):
                    break
                continue
            if ident.same_inode(st):
                return (os.fsdecode(os.path.join(files, candidate)),
                        os.fsdecode(os.path.join(info, candidate + b".trashinfo")))
    return None
