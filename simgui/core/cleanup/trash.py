"""The trash: the freedesktop.org Trash specification, our own on Linux and the BSDs
(send2trash on macOS and Windows), at a constant cost per file however full the trash.

A file goes to the home trash ($XDG_DATA_HOME/Trash, by default ~/.local/share/Trash)
when it is on that trash's device, else to the trash at the top of its mount point:
$topdir/.Trash/$uid when $topdir/.Trash is a sticky folder (not a link), else
$topdir/.Trash-$uid (made 0700).  A file is only ever renamed into the trash, never
copied: one that no trash on its own device can take stays where it is (Skip says why).

Its .trashinfo is made first with O_EXCL, which reserves the name, then the file is
renamed into files/ with renameat2(RENAME_NOREPLACE), which never replaces anything.
Names tried: the file's own, then ``stem.ino<inode>.ext`` (an inode is unique on its
device, and the journal records it: crash recovery finds the file again in constant
time, :func:`find_in_trash`), then one from the caller's token, then a few random ones.
The trash folders are opened without following links: only the path to
$XDG_DATA_HOME itself is the user's to make of links.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import sys
import time
from urllib.parse import quote

from simgui.core.cleanup import actions
from simgui.core.cleanup.actions import Identity, Outcome, Skip, Spot, undo_record

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
_FOLLOWED = _FOLDER & ~_NOFOLLOW  # the user's own paths: $XDG_DATA_HOME, a mount point
_NEW_INFO = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
_SUFFIX = b".trashinfo"
_NAME_MAX = 255  # bytes in one name, on every file system a trash lives on
_RANDOM_TRIES = 8
# open() refuses a link with these where O_NOFOLLOW meets one (Linux, FreeBSD, NetBSD)
_A_LINK = (errno.ELOOP, errno.EMLINK, getattr(errno, "EFTYPE", errno.ELOOP))


def _freedesktop() -> bool:
    return sys.platform not in ("darwin", "win32")


class _Unusable(Exception):
    """This trash folder cannot be used; the message says why."""


# -- sending -------------------------------------------------------------------------


def trash_entry(dir_fd: int, name: str, path: str, ident: Identity,
                unique: str | None = None) -> Outcome:
    """Move entry ``name`` of the opened folder ``dir_fd`` to the trash, if it is still
    the file ``ident``; ``path`` is its full path, for messages and the .trashinfo.

    ``unique``: a token of the caller's (a batch and a row), for a name in the trash
    when both the file's own name and the one from its inode are taken.  Skip when the
    file changed or no trash on its device can take it; OSError when the move fails.
    """
    st = actions.verify(Spot(dir_fd, name, path), ident)
    if not _freedesktop():
        return _send2trash(path, ident)
    original = os.path.abspath(os.fsencode(path))
    try:
        trash = _trashes(st.st_dev, original, create=True)[0]
    except _Unusable as exc:
        raise Skip(f"{path} stays where it is: {exc}") from None
    with trash:
        if os.fstat(trash.files).st_dev != st.st_dev:
            raise Skip(f"{path} stays where it is: the trash {_s(trash.path)} is on another "
                       "device (simgui never copies a file to the trash)")
        new = _move_in(dir_fd, os.fsencode(name), trash, st.st_ino, unique, path,
                       _trashinfo(trash.original(original)))
        moved = os.stat(new, dir_fd=trash.files, follow_symlinks=False)
        at, info = map(_s, trash.places(new))
    if not ident.same_inode(moved):
        raise OSError(errno.EIO, f"{path} was replaced just before it was trashed: the file "
                                 f"sent to {at} is another one", path)
    return Outcome("done", f"sent to the trash: {at}", at,
                   undo_record("trash", at, moved, info=info))


def trash(path: str, ident: Identity, unique: str | None = None) -> Outcome:
    """:func:`trash_entry` for a path: its folder is opened as the path resolves now."""
    if not _freedesktop():
        actions.verify(path, ident)
        return _send2trash(path, ident)
    folder, name = os.path.split(os.path.abspath(path))
    try:
        fd = os.open(folder, _FOLLOWED)
    except FileNotFoundError:
        raise Skip(f"{path} is gone since the scan (its folder is gone)") from None
    try:
        return trash_entry(fd, name, path, ident, unique)
    finally:
        os.close(fd)


def _move_in(dir_fd: int, name: bytes, trash: _Trash, ino: int, unique: str | None,
             path: str, info_text: bytes) -> bytes:
    """Rename ``name`` of ``dir_fd`` into the trash under the first free name, its
    .trashinfo made first; returns the name.  On any failure the .trashinfo goes."""
    for candidate in _names(name, ino, unique):
        info_name = candidate + _SUFFIX
        try:
            fd = os.open(info_name, _NEW_INFO, 0o600, dir_fd=trash.info)
        except FileExistsError:
            continue
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, _s(trash.places(candidate)[1])) from None
        with actions._sigint_deferred():  # no .trashinfo left without its file
            try:
                with open(fd, "wb") as f:
                    f.write(info_text)
                actions.rename_noreplace_at(dir_fd, name, trash.files, candidate)
            except FileExistsError:
                _unlink_quietly(info_name, trash.info)
                continue
            except BaseException as exc:
                _unlink_quietly(info_name, trash.info)
                if isinstance(exc, OSError) and exc.errno == errno.EXDEV:
                    raise Skip(f"{path} stays where it is: the trash {_s(trash.path)} is on "
                               "another mount of its file system (simgui never copies a file "
                               "to the trash)") from None
                if isinstance(exc, OSError) and exc.filename is None:
                    raise OSError(exc.errno, exc.strerror, path) from None
                raise
        return candidate
    raise Skip(f"{path} stays where it is: every name tried in {_s(trash.path)}/files is taken")


def _send2trash(path: str, ident: Identity) -> Outcome:
    """macOS and Windows: send2trash, whose trash does not say where the file went."""
    from send2trash import send2trash

    try:
        send2trash(path)
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno or errno.EIO, exc.strerror or str(exc), path) from None
        raise
    st = actions._lstat_or_none(path)
    if st is not None and ident.same_inode(st):
        raise OSError(errno.EIO, "the file is still in place after trashing", path)
    return Outcome("done", "sent to the trash (where is unknown: cannot be undone here)")


# -- the .trashinfo and names -----------------------------------------------------------


def _trashinfo(original: bytes) -> bytes:
    """The .trashinfo of a file: its original path, bytes escaped as in URLs, and the
    local time of its deletion."""
    return (b"[Trash Info]\nPath=" + quote(original, safe="/").encode("ascii")
            + b"\nDeletionDate=" + time.strftime("%Y-%m-%dT%H:%M:%S").encode("ascii") + b"\n")


def _names(name: bytes, ino: int, unique: str | None):
    """Names to try in files/, in order: those recovery knows, then a few random ones."""
    yield from _known_names(name, ino, unique)
    stem, ext = _split(name)
    token = b"." + (_token(unique) if unique else b"ino%d" % ino)
    for _ in range(_RANDOM_TRIES):
        yield _fit(stem, token + b"-" + os.urandom(4).hex().encode("ascii"), ext)


def _known_names(name: bytes, ino: int, unique: str | None) -> list[bytes]:
    """The names :func:`find_in_trash` recomputes: own name, inode's, token's."""
    stem, ext = _split(name)
    names = [name] if len(name) + len(_SUFFIX) <= _NAME_MAX else []
    names.append(_fit(stem, b".ino%d" % ino, ext))
    if unique:
        names.append(_fit(stem, b"." + _token(unique), ext))
    return names


def _split(name: bytes) -> tuple[bytes, bytes]:
    stem, ext = os.path.splitext(name)
    return (stem, ext) if len(ext) <= 16 else (name, b"")


def _token(unique: str) -> bytes:
    return os.fsencode(unique).replace(b"/", b"_").replace(b"\0", b"_")


def _fit(stem: bytes, tag: bytes, ext: bytes) -> bytes:
    """stem + tag + ext, the stem cut (never inside a UTF-8 character) so that the name
    and its .trashinfo fit in a file name."""
    room = _NAME_MAX - len(_SUFFIX) - len(tag) - len(ext)
    if len(stem) > room:
        cut = max(room, 0)
        while 0 < cut < len(stem) and stem[cut] & 0xC0 == 0x80:
            cut -= 1
        stem = stem[:cut]
    return stem + tag + ext


# -- finding a file again ------------------------------------------------------------------


def find_in_trash(path: str, ident: Identity, unique: str | None = None
                  ) -> tuple[str, str] | None:
    """(file, .trashinfo) of ``path`` in the trash, found by its inode under the names
    :func:`trash_entry` gives first (its own, its inode's, and ``unique``'s when given),
    in constant time; None if not there (or off freedesktop systems)."""
    if not _freedesktop():
        return None
    original = os.path.abspath(os.fsencode(path))
    names = _known_names(os.path.basename(original), ident.inode % 2**64, unique)
    try:
        trashes = _trashes(ident.device % 2**64, original, create=False)
    except _Unusable:
        return None
    with contextlib.ExitStack() as opened:
        for trash in trashes:
            opened.enter_context(trash)
        for trash in trashes:
            for name in names:
                try:
                    st = os.stat(name, dir_fd=trash.files, follow_symlinks=False)
                except OSError:
                    continue
                if ident.same_inode(st):
                    return _s(trash.places(name)[0]), _s(trash.places(name)[1])
    return None


# -- the trash folders -----------------------------------------------------------------------


class _Trash:
    """A trash folder, its files/ and info/ opened; ``top``: the mount point whose trash it
    is (None: the home trash).  ``with`` closes them."""

    def __init__(self, path: bytes, files: int, info: int, top: bytes | None):
        self.path, self.files, self.info, self.top = path, files, info, top

    def __enter__(self) -> _Trash:
        return self

    def __exit__(self, *exc) -> None:
        os.close(self.files)
        os.close(self.info)

    def places(self, name: bytes) -> tuple[bytes, bytes]:
        return (os.path.join(self.path, b"files", name),
                os.path.join(self.path, b"info", name + _SUFFIX))

    def original(self, path: bytes) -> bytes:
        """The Path= of a file: absolute in the home trash; under a mount point, relative
        to it, as the specification asks (the device may be mounted elsewhere later)."""
        if self.top is None:
            return path
        real = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
        return os.path.relpath(real, self.top) if _under(real, self.top) else real


def _trashes(dev: int, original: bytes, *, create: bool) -> list[_Trash]:
    """The trash folders for a file on device ``dev``, opened: with ``create`` the one to
    send it to (made if missing), else every one it may be in.  _Unusable if none."""
    if _home_device() == dev:
        return [_open_home(create)]
    return _top_trashes(dev, os.path.realpath(os.path.dirname(original)), create)


def _data_home() -> bytes:
    """$XDG_DATA_HOME; ~/.local/share when unset, empty or relative (the basedir spec)."""
    data = os.environb.get(b"XDG_DATA_HOME", b"")
    if os.path.isabs(data):
        return data
    return os.path.join(os.path.expanduser(b"~"), b".local", b"share")


def _home_device() -> int | None:
    """The device of the home trash (of the nearest existing folder on its path).  A link
    planted as the trash counts as the trash, on its folder's device: refused later,
    rather than followed to another device's trash."""
    path = _data_home()
    with contextlib.suppress(OSError):
        return os.lstat(os.path.join(path, b"Trash")).st_dev
    while True:
        try:
            return os.stat(path).st_dev
        except FileNotFoundError:
            parent = os.path.dirname(path)
            if parent == path:
                return None
            path = parent
        except OSError:
            return None


def _open_home(create: bool) -> _Trash:
    data = _data_home()
    try:
        fd = os.open(data, _FOLLOWED)
    except FileNotFoundError:
        if not create:
            raise _Unusable(f"{_s(data)} does not exist") from None
        try:
            os.makedirs(data, 0o700, exist_ok=True)
            fd = os.open(data, _FOLLOWED)
        except OSError as exc:
            raise _Unusable(f"cannot make the home trash: {_why(exc, data)}") from None
    except OSError as exc:
        raise _Unusable(f"cannot open the home trash: {_why(exc, data)}") from None
    with _closing(fd):
        return _open_trash(fd, b"Trash", os.path.join(data, b"Trash"), None, create,
                           owned=False)


def _top_trashes(dev: int, folder: bytes, create: bool) -> list[_Trash]:
    """$topdir/.Trash/$uid (when $topdir/.Trash is a sticky folder, not a link), then
    $topdir/.Trash-$uid, $topdir being the mount point of ``folder`` (a real path)."""
    top = _mount_point(folder, dev)
    try:
        top_fd = os.open(top, _FOLLOWED)
    except OSError as exc:
        raise _Unusable(f"cannot open its mount point: {_why(exc, top)}") from None
    uid = str(os.getuid()).encode("ascii")
    found, reasons = [], []
    with contextlib.ExitStack() as stack:
        stack.callback(os.close, top_fd)
        if os.fstat(top_fd).st_dev != dev:
            raise _Unusable(f"no trash on its device (its mount point {_s(top)} was not found)")
        places = []
        try:
            shared = os.open(b".Trash", _FOLDER, dir_fd=top_fd)
        except OSError:
            pass  # absent, a link or not a folder: not to be used
        else:
            stack.callback(os.close, shared)
            if os.fstat(shared).st_mode & stat.S_ISVTX:  # sticky: nobody takes others' files
                places.append((shared, uid, os.path.join(top, b".Trash", uid)))
        places.append((top_fd, b".Trash-" + uid, os.path.join(top, b".Trash-" + uid)))
        for parent, name, path in places:
            try:
                found.append(_open_trash(parent, name, path, top, create, owned=True))
            except _Unusable as exc:
                reasons.append(str(exc))
            if create and found:
                break
    if not found:
        raise _Unusable("; ".join(reasons))
    return found


@functools.lru_cache(maxsize=256)
def _mount_point(folder: bytes, dev: int) -> bytes:
    """The top folder of the file system that holds ``folder`` (a real path): the last
    folder up its path still on device ``dev``."""
    path = folder
    while True:
        parent = os.path.dirname(path)
        if parent == path:
            return path
        try:
            if os.lstat(parent).st_dev != dev:
                return path
        except OSError:
            return path
        path = parent


def _open_trash(parent: int, name: bytes, path: bytes, top: bytes | None, create: bool,
                owned: bool) -> _Trash:
    fd = _open_folder(parent, name, path, create)
    with _closing(fd):
        if owned and os.fstat(fd).st_uid != os.getuid():
            raise _Unusable(f"{_s(path)} belongs to another user")
        files = _open_folder(fd, b"files", os.path.join(path, b"files"), create)
        try:
            info = _open_folder(fd, b"info", os.path.join(path, b"info"), create)
        except BaseException:
            os.close(files)
            raise
    return _Trash(path, files, info, top)


def _open_folder(parent: int, name: bytes, path: bytes, create: bool) -> int:
    """Folder ``name`` of ``parent``, never through a link; made (0700) if missing and
    ``create``.  _Unusable says why not."""
    for last in (False, True):
        try:
            return os.open(name, _FOLDER, dir_fd=parent)
        except FileNotFoundError:
            if not create or last:
                raise _Unusable(f"{_s(path)} does not exist") from None
        except OSError as exc:
            if exc.errno in _A_LINK or exc.errno == errno.ENOTDIR:
                raise _Unusable(f"{_s(path)} is {_kind(parent, name)}") from None
            raise _Unusable(_why(exc, path)) from None
        try:
            os.mkdir(name, 0o700, dir_fd=parent)
        except FileExistsError:
            pass  # made meanwhile: open it
        except OSError as exc:
            raise _Unusable(f"cannot make {_s(path)}: {_why(exc, path)}") from None
    raise AssertionError("unreachable")


def _kind(parent: int, name: bytes) -> str:
    try:
        st = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except OSError:
        return "not usable"
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link, and simgui does not follow a link it did not make"
    return "not a folder"


# -- small helpers -----------------------------------------------------------------------------


@contextlib.contextmanager
def _closing(fd: int):
    try:
        yield fd
    finally:
        os.close(fd)


def _unlink_quietly(name: bytes, dir_fd: int) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name, dir_fd=dir_fd)


def _why(exc: OSError, path: bytes) -> str:
    return actions.why(actions._named(exc, _s(path)))


def _under(path: bytes, top: bytes) -> bool:
    return path.startswith(top.rstrip(b"/") + b"/")


def _s(path: bytes) -> str:
    return os.fsdecode(path)
