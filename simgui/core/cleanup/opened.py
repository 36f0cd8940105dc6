"""Folders opened for one batch: every check of a file and the act on it name it in one
opened folder, reached from a root without following any link.

Checking a file by its path and acting on it by its path again resolves the path twice:
a folder on it swapped for a symbolic link in between (``renameat2(RENAME_EXCHANGE)`` in
a loop) turns the act on a file outside the scanned folders.  Here a path is resolved
once, folder by folder, from an opened root with ``O_DIRECTORY | O_NOFOLLOW``; the check
(``fstatat``), the byte comparison (``openat``) and the act (``unlinkat``, ``linkat``,
``renameat2``) then name the file in that same folder, as ``rm -r`` and rsync do.

What this guarantees during a batch:

- no symbolic link below a root is followed: one on a file's path skips the file (Skip
  says which folder).  Roots are the scanned folders, opened when the batch begins (the
  folder itself must not be a link; the path above it is the user's, as named when
  scanning), and folders named as such, the move target and the trash, whose own paths
  may hold the user's links.  A path is walked from the innermost root that holds it
  (a folder scanned through a link, inside one scanned without following it, is still
  cleaned up); a path under no root is walked from ``/``, every folder strictly;
- a folder, once opened, stays the one acted in: renamed or swapped later, the batch
  acts on the files it holds (each still proven to be the file scanned), never on what
  took its name;
- folders are made here (``mkdirat``, then opened strictly) and listed in :attr:`made`,
  so that a failed move and an undo remove those they leave empty.

No system call removes a name "only if it is this inode": a file replaced by another
within its own folder between the check and the act is what the identity checks just
before acting guard against, as before.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections import OrderedDict
from collections.abc import Iterable

from simgui.core.cleanup.actions import Skip, Spot

# O_PATH: a folder opened only to name files in it needs no read permission (Linux)
_FOLDER = (os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
           | getattr(os, "O_PATH", 0))
_FOLLOWED = _FOLDER & ~getattr(os, "O_NOFOLLOW", 0)
_KEEP_OPEN = 64  # folders kept open between files (the parents of files acted on)
NO_LINKS = "simgui does not act through links it did not make"


class OpenedFolders:
    """The folders one batch acts in, opened once; ``with`` closes them all.

    ``roots``: the scanned folders (a path is walked from the innermost that holds it);
    ``named``: folders the user named (the move target, the trash), opened as named,
    links in their own path followed; one that does not exist yet is made, strictly,
    below the nearest folder of its path that does, when a file first needs it.
    """

    def __init__(self, roots: Iterable[str] = (), named: Iterable[str] = ()):
        # innermost first: a path is walked from the innermost root that holds it
        self._roots = sorted({_absolute(r) for r in roots}, key=len, reverse=True)
        self._root_fds: dict[str, int | str] = {}  # root -> fd, or why it cannot be used
        self._named: dict[str, tuple[str, int | OSError]] = {}  # folder -> (origin, fd)
        self._cache: OrderedDict[str, int] = OrderedDict()
        self.made: list[str] = []  # folders made by this batch, in order
        self._made_roots: set[str] = set()  # scanned folders made again (undo)
        for folder in named:
            self.name(folder)
        for root in self._roots:  # pinned now: a root swapped later changes nothing
            self._open_root(root)

    # -- roots -------------------------------------------------------------------

    def name(self, folder: str) -> None:
        """Open a folder the user named (or the nearest existing folder of its path)."""
        folder = _absolute(folder)
        if folder in self._named:
            return
        origin = folder
        while not os.path.lexists(origin):
            origin = os.path.dirname(origin)
        try:
            fd: int | OSError = os.open(origin, _FOLLOWED)
        except OSError as exc:
            fd = OSError(exc.errno, exc.strerror, origin)
        self._named[folder] = (origin, fd)

    def _base(self, folder: str, what: str, path: str, create: bool = False,
              device: int | None = None) -> tuple[str, int]:
        """The root a folder is walked from: (its path, its fd).  With ``create`` and the
        ``device`` the file came from (undo puts it back), a root that is gone is made
        again (see :meth:`_remake_root`)."""
        named = [f for f in self._named if _under(folder, f)]
        if named:
            origin, fd = self._named[max(named, key=len)]
            if isinstance(fd, OSError):
                raise OSError(fd.errno, fd.strerror, fd.filename)
            return origin, fd
        root = next((r for r in self._roots if _under(folder, r)), os.sep)
        fd = self._open_root(root)
        if fd == "gone" and create and device is not None:
            self._remake_root(root, what, path, device)
            fd = self._open_root(root)
        if isinstance(fd, str):
            if fd == "gone":
                raise Skip(f"{what}{path} is gone since the scan (the scanned folder {root} "
                           "is gone)")
            raise Skip(f"{what}{path}: the scanned folder {root} is {fd}, and {NO_LINKS}")
        return root, fd

    def _remake_root(self, root: str, what: str, path: str, device: int) -> None:
        """Make a scanned folder that is gone again, in the folder that held it (named as
        when scanning), only where that folder is on ``device``, the one the file came
        from: not the empty mount point of a disk that is not mounted."""
        parent = os.path.dirname(root)
        _same_device(os.stat, parent, device, root, what, path)
        try:
            os.mkdir(root, 0o777)
        except FileExistsError:
            pass  # made since we looked: opened strictly all the same
        else:
            self.made.append(root)
            self._made_roots.add(root)
        del self._root_fds[root]

    def _open_root(self, root: str) -> int | str:
        """A root's fd (opened once: its own last part must not be a link; the path above
        it is the user's, as named when scanning), or why it cannot be used."""
        fd = self._root_fds.get(root)
        if fd is None:
            try:
                fd = os.open(root, _FOLDER if root != os.sep else _FOLLOWED)
            except (FileNotFoundError, NotADirectoryError) as exc:
                fd = "gone" if isinstance(exc, FileNotFoundError) else _kind(root)
            except OSError as exc:
                if exc.errno != errno.ELOOP:
                    raise OSError(exc.errno, exc.strerror, root) from None
                fd = _kind(root)
            self._root_fds[root] = fd
        return fd

    # -- files -------------------------------------------------------------------

    def at(self, path: str, *, create: bool = False, what: str = "",
           device: int | None = None) -> Spot:
        """Where ``path`` is: its opened folder and its name.  Skip if a folder on the way
        is a link, not a folder, or gone (with ``create``: made, and listed in ``made``;
        with ``device`` too, the one a file put back came from, a scanned folder gone
        is made again, and each folder only on that device).  The folder stays open
        until the batch ends; do not close it."""
        folder, name = os.path.split(path)
        if name in ("", ".", ".."):
            raise Skip(f"{what}{path} does not name a file")
        return Spot(self.folder(folder, create=create, what=what, path=path, device=device),
                    name, path)

    def folder(self, folder: str, *, create: bool = False, what: str = "",
               path: str | None = None, device: int | None = None) -> int:
        """The fd of an opened folder, opened now if need be (see :meth:`at`)."""
        path = folder if path is None else path
        if not os.path.isabs(folder):
            raise Skip(f"{what}{path} is not an absolute path")
        fd = self._cache.get(folder)
        if fd is not None:
            self._cache.move_to_end(folder)
            return fd
        base, fd = self._base(folder, what, path, create, device)
        if folder == base:
            return fd
        parts = [p for p in folder[len(base):].split(os.sep) if p]
        subs = [os.path.join(base, *parts[:i + 1]) for i in range(len(parts))]
        start = next((i for i in range(len(subs) - 1, -1, -1) if subs[i] in self._cache), -1)
        if start >= 0:
            fd = self._cache[subs[start]]
        owned = False  # fd is a root's or a cached one: not ours to close
        try:
            for i in range(start + 1, len(parts)):
                below = self._open_below(fd, parts[i], subs[i], create, what, path, device)
                if owned:
                    os.close(fd)
                fd, owned = below, True
        except BaseException:
            if owned:
                os.close(fd)
            raise
        self._keep(folder, fd)
        return fd

    def _open_below(self, parent: int, name: str, sub: str, create: bool, what: str,
                    path: str, device: int | None = None) -> int:
        if name in (".", ".."):
            raise Skip(f"{what}{path}: {sub} is not a plain folder name")
        try:
            return os.open(name, _FOLDER, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise Skip(f"{what}{path} is gone since the scan ({sub} is gone)") from None
        except OSError as exc:
            self._refuse(exc, parent, name, sub, what, path)
        if device is not None:  # a file put back: its folders only on its own disk
            _same_device(os.fstat, parent, device, sub, what, path)
        try:
            os.mkdir(name, 0o777, dir_fd=parent)
        except FileExistsError:
            pass  # made since we looked, by someone else: opened strictly all the same
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, sub) from None
        else:
            self.made.append(sub)
        try:
            return os.open(name, _FOLDER, dir_fd=parent)
        except OSError as exc:
            self._refuse(exc, parent, name, sub, what, path)

    @staticmethod
    def _refuse(exc: OSError, parent: int, name: str, sub: str, what: str, path: str):
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
            raise OSError(exc.errno, exc.strerror, sub) from None
        try:
            st = os.stat(name, dir_fd=parent, follow_symlinks=False)
            link = stat.S_ISLNK(st.st_mode)
        except OSError:
            link = exc.errno == errno.ELOOP
        if link:
            raise Skip(f"{what}{path}: a folder on its path, {sub}, is a symbolic link, "
                       f"and {NO_LINKS}") from None
        raise Skip(f"{what}{path}: {sub} is not a folder any more") from None

    def _keep(self, folder: str, fd: int) -> None:
        self._cache[folder] = fd
        # a step names at most a few folders, all used last: never the ones closed here
        while len(self._cache) > _KEEP_OPEN:
            os.close(self._cache.popitem(last=False)[1])

    # -- folders made --------------------------------------------------------------

    def remove_empty(self, folders: Iterable[str]) -> list[str]:
        """Remove those of ``folders`` that are empty, deepest first (never through a
        link: ``rmdir`` of a name in its opened parent); returns the ones removed."""
        removed = []
        for sub in sorted(set(folders), key=lambda f: f.count(os.sep), reverse=True):
            try:
                if sub in self._made_roots:  # made by its path, as named when scanning
                    os.rmdir(sub)
                    self._made_roots.discard(sub)
                else:
                    parent = self.folder(os.path.dirname(sub))
                    os.rmdir(os.path.basename(sub), dir_fd=parent)
            except (Skip, OSError):
                continue  # not empty, gone, or no longer reachable: left as it is
            for key in [k for k in self._cache if _under(k, sub)]:
                os.close(self._cache.pop(key))
            if isinstance(self._root_fds.get(sub), int):  # a root made, then emptied
                os.close(self._root_fds.pop(sub))
            removed.append(sub)
        self.made = [f for f in self.made if f not in removed]
        return removed

    # -- the end -------------------------------------------------------------------

    def close(self) -> None:
        fds = [*self._cache.values(), *(fd for fd in self._root_fds.values()
                                        if isinstance(fd, int)),
               *(fd for _, fd in self._named.values() if isinstance(fd, int))]
        self._cache.clear()
        self._root_fds.clear()
        self._named.clear()
        for fd in fds:
            os.close(fd)

    def __enter__(self) -> OpenedFolders:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _absolute(path) -> str:
    return os.path.abspath(os.fsdecode(path))


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _kind(path: str) -> str:
    try:
        return ("now a symbolic link" if os.path.islink(path) else "not a folder any more")
    except OSError:
        return "not a folder any more"


# -- the roots of a batch, as the journal keeps them -----------------------------------


def pack_roots(roots: Iterable[str]) -> bytes:
    """A batch's roots for the store: any byte string survives (hex of each path's bytes)."""
    return json.dumps([os.fsencode(r).hex() for r in roots]).encode()


def unpack_roots(blob: bytes | None) -> list[str] | None:
    """The roots :func:`pack_roots` stored; None for a batch journaled without them."""
    if blob is None:
        return None
    return [os.fsdecode(bytes.fromhex(h)) for h in json.loads(blob)]


def _same_device(stat_of, where, device: int, made: str, what: str, path: str) -> None:
    """Skip unless ``where`` (a folder, or the fd of one) is on ``device``: a folder
    ``made`` there for a file put back would be on another disk than the file was (the
    empty mount point of a disk that is not mounted), hidden once the disk is back."""
    try:
        on = stat_of(where).st_dev
    except OSError:
        on = None
    if on is None or (on - device) % 2**64:
        raise Skip(f"{what}{path} cannot go back: {made} is gone, and the folder that held "
                   "it is on another disk now (a disk not mounted?); mount it, or make the "
                   "folder again, to put the file back")
