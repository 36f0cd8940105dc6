"""Acting on one file without losing it: proofs of identity, moves, links.

Every function here acts on one verified file: :func:`verify` and
:func:`compare` prove it is still the file scanned (and holds the kept copy's
bytes), :func:`place` and :func:`relocate` move it without ever overwriting or
losing it, :func:`link` replaces it by a link to the kept copy.  They return
an :class:`Outcome` for the journal or raise :class:`Skip` with the reason.

A file is a :class:`Spot`: a name in a folder opened by
:class:`simgui.core.cleanup.opened.OpenedFolders`, so that the proof and the act
name the same file even when a folder on its path is swapped for a link in
between (a plain path is accepted too, resolved as given: recovery and tests).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import signal
import stat
import sys
import threading
from dataclasses import dataclass
from typing import NamedTuple

from simgui.core.search.groups import Member

_CHUNK = 1 << 20
_MAX_NAME_TRIES = 10_000


class Identity(NamedTuple):
    """What proves a file is still the one scanned."""

    size: int
    mtime_ns: int
    device: int
    inode: int

    @classmethod
    def of(cls, m: Member) -> Identity:
        return cls(m.size, m.mtime_ns, m.device, m.inode)

    def same_inode(self, st: os.stat_result) -> bool:
        # numpy int64 columns may hold a device number that wrapped negative
        return (st.st_dev - self.device) % 2**64 == 0 and (st.st_ino - self.inode) % 2**64 == 0

    def matches(self, st: os.stat_result) -> bool:
        return self.same_inode(st) and st.st_size == self.size and st.st_mtime_ns == self.mtime_ns

    @classmethod
    def of_stat(cls, st: os.stat_result) -> Identity:
        return cls(st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino)


class Spot(NamedTuple):
    """A file as simgui acts on it: ``name`` in the opened folder ``fd``; ``path`` is what
    messages and the journal say.  ``fd`` None: ``name`` is a path, resolved as given."""

    fd: int | None
    name: str
    path: str

    @classmethod
    def of(cls, where: Spot | str) -> Spot:
        return where if isinstance(where, Spot) else cls(None, where, where)

    def beside(self, name: str) -> Spot:
        """Another name in the same folder."""
        path = os.path.join(os.path.dirname(self.path), name)
        return Spot(self.fd, name if self.fd is not None else path, path)

    def lstat(self) -> os.stat_result:
        return os.stat(self.name, dir_fd=self.fd, follow_symlinks=False)


def file_key(m: Member) -> tuple[int, int]:
    """(device, inode) of a member, normalised like :meth:`Identity.same_inode`: two
    paths with one key are two names of one file, never two copies."""
    return m.device % 2**64, m.inode % 2**64


class Skip(Exception):
    """The file is left as it is, for the reason given (not an error)."""


@dataclass(frozen=True)
class Outcome:
    """What one step did, ready for the journal."""

    state: str
    message: str = ""
    target: str | None = None
    undo: dict | None = None  # what undo needs; None: cannot be undone
    undoes: int | None = None  # journal entry this step restored (undo batches)


# -- proofs -----------------------------------------------------------------------


def check_before_acting(path: Spot | str, ident: Identity, kept: Spot | str,
                        kept_ident: Identity) -> None:
    """Raise Skip unless ``path`` and the kept copy are still the files scanned, and
    are two files: not one file under two names."""
    path, kept = Spot.of(path), Spot.of(kept)
    st = verify(path, ident)
    kept_st = verify(kept, kept_ident, what="the kept copy ")
    _check_two_files(path, st, kept, kept_st)


def _check_two_files(path: Spot, st: os.stat_result, kept: Spot,
                     kept_st: os.stat_result) -> None:
    if os.path.samestat(st, kept_st):
        raise Skip(f"{path.path} is the same file as the kept copy {kept.path} "
                   "(another name for it)")
    if through_two_mounts(st, kept_st):
        raise Skip(f"{path.path} may be the kept copy {kept.path} itself, seen through "
                   "another mount (the same inode number, size and modification time on "
                   "another device); left alone")


def through_two_mounts(a: os.stat_result, b: os.stat_result) -> bool:
    """Are ``a`` and ``b`` probably one file seen through two mounts: an overlay and
    its upper folder, an NFS export mounted back?  Their devices differ, so device and
    inode do not tell them apart, but the inode number, size and modification time are
    the same.  A byte comparison proves nothing there (the file equals itself), and
    removing one name removes the other, so such a pair is never acted on.  Two real
    copies this alike (a disk cloned block by block) are left alone too, and said."""
    return (a.st_dev != b.st_dev and a.st_ino == b.st_ino and a.st_size == b.st_size
            and a.st_mtime_ns == b.st_mtime_ns)


def verify(path: Spot | str, ident: Identity, what: str = "") -> os.stat_result:
    """lstat ``path``; raise Skip unless it is the regular file scanned."""
    spot = Spot.of(path)
    path = spot.path
    try:
        st = spot.lstat()
    except FileNotFoundError:
        raise Skip(f"{what}{path} is gone since the scan") from None
    if stat.S_ISLNK(st.st_mode):
        raise Skip(f"{what}{path} is now a symbolic link")
    if not stat.S_ISREG(st.st_mode):
        raise Skip(f"{what}{path} is no longer a regular file")
    if not ident.matches(st):
        changed = [name for name, same in (
            ("replaced by another file", ident.same_inode(st)),
            ("size", st.st_size == ident.size),
            ("modification time", st.st_mtime_ns == ident.mtime_ns)) if not same]
        raise Skip(f"{what}{path} changed since the scan ({', '.join(changed)})")
    return st


def compare(path: Spot | str, ident: Identity, kept: Spot | str, kept_ident: Identity) -> None:
    """Raise Skip unless both files (still the ones scanned) hold the same bytes."""
    path, kept = Spot.of(path), Spot.of(kept)
    with _open_checked(path, ident) as a, _open_checked(kept, kept_ident) as b:
        # a file always equals itself: that proves nothing about a second copy
        _check_two_files(path, os.fstat(a.fileno()), kept, os.fstat(b.fileno()))
        if not same_content(a, b):
            raise Skip(f"content differs from the kept copy {kept.path}")
        # written in place while being read (same inode, new mtime): the bytes read
        # may be a mix of old and new
        if not ident.matches(os.fstat(a.fileno())):
            raise Skip(f"{path.path} changed while being compared")
        if not kept_ident.matches(os.fstat(b.fileno())):
            raise Skip(f"the kept copy {kept.path} changed while being compared")


def same_content(a, b) -> bool:
    """Byte-for-byte comparison of two binary file objects from their start."""
    a.seek(0)
    b.seek(0)
    while True:
        x, y = a.read(_CHUNK), b.read(_CHUNK)
        if x != y:
            return False
        if not x:
            return True


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _open_read(spot: Spot):
    """The file named by ``spot`` for reading, never through a link."""
    try:
        fd = os.open(spot.name, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0),
                     dir_fd=spot.fd)
    except OSError as exc:
        raise _named(exc, spot.path) from None
    return os.fdopen(fd, "rb", buffering=0)


def _open_checked(spot: Spot, ident: Identity):
    f = _open_read(spot)
    if not ident.matches(os.fstat(f.fileno())):
        f.close()
        raise Skip(f"{spot.path} changed since the scan")
    return f


def why(exc: OSError) -> str:
    """An OSError in words, with the path it concerns."""
    text = {errno.ENOSPC: "no space left on the device", errno.EACCES: "permission denied",
            errno.EPERM: "operation not permitted", errno.EROFS: "read-only file system",
            errno.EXDEV: "on another file system"}.get(exc.errno, exc.strerror or str(exc))
    where = exc.filename if exc.filename is not None else ""
    return f"{text}: {os.fsdecode(where)}" if where else text


def _named(exc: OSError, path: str) -> OSError:
    """``exc`` about ``path``: a call relative to an opened folder names only the last
    part.  The same errno gives the same subclass (FileExistsError, ...)."""
    if exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror, path)


def _link_error(exc: OSError, src: Spot, dst: Spot) -> OSError:
    """A failed link or rename named by what refused it: the folder of the new name when
    it cannot be written there (permission, read-only, full), the new name when taken,
    else the file itself."""
    if exc.errno == errno.EEXIST:
        return _named(exc, dst.path)
    if exc.errno in (errno.EACCES, errno.EROFS, errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return _named(exc, os.path.dirname(dst.path) or dst.path)
    return _named(exc, src.path)


def remove(spot: Spot | str) -> None:
    """Remove the name ``spot`` (a permanent delete of a verified file)."""
    spot = Spot.of(spot)
    try:
        os.unlink(spot.name, dir_fd=spot.fd)
    except OSError as exc:
        raise _named(exc, spot.path) from None


# -- moving -----------------------------------------------------------------------


def place(src: Spot | str, dst: Spot | str, ident: Identity | None = None) -> None:
    """Give ``src`` the name ``dst`` on the same file system, never replacing a file.

    link + unlink is an atomic no-overwrite rename; a crash between them
    leaves two names of one file, never a lost one.  With ``ident``, the file
    given the new name must be that one: ``src`` may have been replaced since it
    was verified, and then it stays where it is (Skip says so).
    """
    src, dst = Spot.of(src), Spot.of(dst)
    with _sigint_deferred():
        try:
            os.link(src.name, dst.name, src_dir_fd=src.fd, dst_dir_fd=dst.fd,
                    follow_symlinks=False)
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise _link_error(exc, src, dst) from None
            _rename_no_replace(src, dst, ident)
            return
        try:
            if ident is not None and not ident.matches(dst.lstat()):
                raise Skip(f"{src.path} was replaced by another file just before moving it; "
                           "left in place")
            remove(src)
        except BaseException as exc:
            if not _unlink_second_name(src, dst) and isinstance(exc, Skip):
                raise OSError(errno.EIO, f"{src.path} was replaced while being moved; the file "
                                         f"now at {dst.path} could not be taken back",
                              dst.path) from None
            raise


# link() fails with these where the file system has no hard links (FAT, exFAT, shares)
_NO_HARD_LINKS = (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS)


def _unlink_second_name(src: Spot, dst: Spot) -> bool:
    """Undo ``link(src, dst)`` after a failure; True if undone.

    Only while ``src`` is still a name of the same file: if it is gone, the unlink
    did happen (Ctrl-C lands as the call returns) and ``dst`` is now the only name
    of the file, so the move is complete and removing ``dst`` would lose it.
    """
    src_st, dst_st = _lstat_or_none(src), _lstat_or_none(dst)
    if src_st is None or dst_st is None or not os.path.samestat(src_st, dst_st):
        return False
    remove(dst)
    return True


def _lstat_or_none(spot: Spot | str) -> os.stat_result | None:
    try:
        return Spot.of(spot).lstat()
    except FileNotFoundError:
        return None


@contextlib.contextmanager
def _sigint_deferred():
    """Hold Ctrl-C back while a file is between two names.

    A KeyboardInterrupt raised inside the link/unlink pair (or as ``unlink`` returns)
    cuts the step where nothing records what happened; here the signal is noted and
    the previous handler runs once the pair is done.  Blocking SIGINT with
    pthread_sigmask would not do: CPython runs Python signal handlers in the main
    thread whichever thread the kernel delivers the signal to, so a signal landing on
    another thread still interrupts the main one.  Only the main thread can set
    handlers, and only it receives KeyboardInterrupt; elsewhere nothing is changed.
    """
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # SIG_DFL, SIG_IGN, not ours to set: a crash, if anything
        yield
        return
    caught: list = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            previous(signal.SIGINT, caught[0])  # usually raises KeyboardInterrupt


def _rename_no_replace(src: Spot, dst: Spot, ident: Identity | None) -> None:
    """Rename ``src`` to ``dst``, raising FileExistsError rather than replacing a file."""
    if ident is not None:
        verify(src, ident)  # no link to check afterwards: check before
    try:
        rename_noreplace_at(src.fd, src.name, dst.fd, dst.name)
    except OSError as exc:
        raise _link_error(exc, src, dst) from None


_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


@functools.lru_cache(maxsize=1)
def _renameat2():
    """libc's renameat2 (Linux, glibc >= 2.28), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def rename_noreplace_at(src_fd: int | None, src: str | bytes, dst_fd: int | None,
                        dst: str | bytes) -> None:
    """Rename name ``src`` of folder ``src_fd`` to ``dst`` of ``dst_fd`` (a folder None:
    the names are paths) with renameat2(RENAME_NOREPLACE): FileExistsError when ``dst``
    is taken.  Where the flag is unknown (not Linux, an old C library or kernel, a file
    system that refuses it): look, then rename, so that a file created at ``dst`` in
    between is replaced.  Errors name no file: the caller knows what to call them."""
    fn = _renameat2()
    if fn is not None:
        if fn(_AT_FDCWD if src_fd is None else src_fd, os.fsencode(src),
              _AT_FDCWD if dst_fd is None else dst_fd, os.fsencode(dst),
              _RENAME_NOREPLACE) == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
            raise OSError(err, os.strerror(err))
    try:
        os.stat(dst, dir_fd=dst_fd, follow_symlinks=False)
    except FileNotFoundError:
        os.rename(src, dst, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
        return
    raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST))


def relocate(src: Spot | str, ident: Identity, dst: Spot | str, temp: Spot | str, *,
             free_name: bool) -> Outcome:
    """Move a verified file to ``dst`` (or a free variant of it when ``free_name``),
    copying across file systems; never overwrites, never loses the source.  The folder
    of ``dst`` (and ``temp``, a name in it) must exist."""
    src, dst, temp = Spot.of(src), Spot.of(dst), Spot.of(temp)
    for target in _candidates(dst) if free_name else [dst]:
        if _lstat_or_none(target) is not None:
            continue
        try:
            place(src, target, ident)
        except FileExistsError:
            continue  # taken since we looked
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            return _copy_across(src, ident, target, temp, free_name)
        st = target.lstat()
        src_st = _lstat_or_none(src)
        if not ident.matches(st) or src_st is not None and os.path.samestat(st, src_st):
            raise OSError(errno.EIO, f"moved, but the file now at {target.path} is not the one "
                                     "scanned, or is still at its old place too", target.path)
        return Outcome("done", _moved(dst.path, target.path), target.path,
                       undo_record("move", target.path, st))
    raise Skip(f"{dst.path} is taken by another file")


def _moved(dst: str, target: str) -> str:
    return f"moved to {target}" + ("" if target == dst else f" ({dst} was taken)")


def candidates(path: str):
    """path, then 'name (1).ext', 'name (2).ext', ..."""
    yield path
    base, ext = os.path.splitext(path)
    for n in range(1, _MAX_NAME_TRIES):
        yield f"{base} ({n}){ext}"


def _candidates(spot: Spot):
    """:func:`candidates` of a spot: names in the same folder."""
    for path in candidates(spot.path):
        yield spot.beside(os.path.basename(path))


def _copy_to_free_name(src: Spot, ident: Identity, temp: Spot, names) -> Spot:
    """Copy ``src`` (still ``ident``) to ``temp``, fsync, compare the bytes, then give it
    the first of ``names`` that is free, never overwriting; returns that name.  Any
    failure (a full disk, a changed source, every name taken) removes the temporary
    copy: no half-written file is left."""
    with _open_checked(src, ident) as f_in:
        st = os.fstat(f_in.fileno())
        try:
            fd = os.open(temp.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600,
                         dir_fd=temp.fd)
        except OSError as exc:
            raise _link_error(exc, src, temp) from None
        try:
            with os.fdopen(fd, "wb", buffering=0) as f_out:
                copy_data(f_in, f_out)
                _copy_attributes(f_in.fileno(), f_out.fileno(), st)
                os.utime(f_out.fileno(), ns=(st.st_atime_ns, st.st_mtime_ns))
                os.fsync(f_out.fileno())
                copy = Identity.of_stat(os.fstat(f_out.fileno()))
            with _open_read(temp) as check:
                if not same_content(f_in, check):
                    raise OSError(errno.EIO, "the copy differs from the original", temp.path)
            if not ident.matches(os.fstat(f_in.fileno())):
                raise Skip(f"{src.path} changed while being copied")
            target = first = None
            for name in names:
                first = first or name
                try:
                    place(temp, name, copy)
                except FileExistsError:
                    continue
                target = name
                break
            if target is None:
                raise Skip(f"{first.path if first else temp.path} is taken by another file")
        except BaseException:
            _remove_quietly(temp)
            raise
    _fsync_dir(target)
    return target


def _copy_attributes(src_fd: int, dst_fd: int, st: os.stat_result) -> None:
    """Give the copy the original's owner, group, extended attributes (ACLs and file
    capabilities among them) and permissions, in the order ``cp -a`` takes: the owner
    first (a change of owner clears the capabilities and set-ID bits), then the
    attributes, then the mode.  Where the owner cannot be given (not permitted), the
    set-user-ID and set-group-ID bits are dropped: a copy owned by someone else must not
    run as them."""
    mode = stat.S_IMODE(st.st_mode)
    if hasattr(os, "fchown"):
        try:
            os.fchown(dst_fd, st.st_uid, st.st_gid)
        except OSError:
            own = os.fstat(dst_fd)
            if (own.st_uid, own.st_gid) != (st.st_uid, st.st_gid):
                mode &= ~(stat.S_ISUID | stat.S_ISGID)
    if hasattr(os, "listxattr"):
        try:
            names = os.listxattr(src_fd)
        except OSError:
            names = []
        for name in names:
            try:
                os.setxattr(dst_fd, name, os.getxattr(src_fd, name))
            except OSError:
                pass  # a namespace this process may not write, a file system without them
    os.fchmod(dst_fd, mode)


def _copy_across(src: Spot, ident: Identity, dst: Spot, temp: Spot,
                 free_name: bool) -> Outcome:
    """Copy to a temporary name beside the target, fsync, compare the bytes, name it
    without overwriting, and only then remove the source; roll back on any failure."""
    target = _copy_to_free_name(src, ident, temp, _candidates(dst) if free_name else [dst])
    try:
        with _sigint_deferred():
            verify(src, ident)  # not changed since the copy: the copy is the whole file
            remove(src)
    except BaseException as exc:
        # roll back only while the original is intact: if it is gone (Ctrl-C as unlink
        # returned), the copy is the file now
        if _intact(src, ident):
            _remove_quietly(target)  # the original stays; the copy goes
        elif isinstance(exc, Skip):
            raise Skip(f"{exc}; the copy made before is left at {target.path}") from None
        raise
    return Outcome("done", _moved(dst.path, target.path) + " (copied to another file system)",
                   target.path, undo_record("move", target.path, target.lstat()))


def copy_verified(src: Spot | str, ident: Identity, dst: Spot | str,
                  temp: Spot | str) -> Outcome:
    """Copy a verified file to ``dst``, leaving the source as it is (a merge of folders).

    The copy is written to ``temp`` (a name beside ``dst``), fsynced, compared byte for
    byte with the source, and only then given the name ``dst``, never replacing a file
    (Skip when taken).  Any failure, a full disk included, removes the partial copy: no
    half-written file is left.  Its undo record (kind "copy") lets undo remove it."""
    src, dst, temp = Spot.of(src), Spot.of(dst), Spot.of(temp)
    if _lstat_or_none(dst) is not None:
        raise Skip(f"{dst.path} is taken by another file")
    _copy_to_free_name(src, ident, temp, [dst])
    return Outcome("done", f"copied to {dst.path}", dst.path,
                   undo_record("copy", dst.path, dst.lstat()))


def _intact(spot: Spot | str, ident: Identity) -> bool:
    st = _lstat_or_none(spot)
    return st is not None and stat.S_ISREG(st.st_mode) and ident.matches(st)


def copy_data(f_in, f_out) -> None:
    buf = bytearray(_CHUNK)
    view = memoryview(buf)
    f_in.seek(0)
    while n := f_in.readinto(view):
        written = 0
        while written < n:
            written += f_out.write(view[written:n])


def _fsync_dir(spot: Spot) -> None:
    """fsync the folder holding ``spot`` (best effort: some file systems refuse)."""
    try:
        if spot.fd is None:
            fd = os.open(os.path.dirname(spot.path) or ".", os.O_RDONLY)
        else:  # the opened folder may be O_PATH: open it for real, through itself
            fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW, dir_fd=spot.fd)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on folders; the data itself is synced
    finally:
        os.close(fd)


def _remove_quietly(spot: Spot | str) -> None:
    try:
        remove(spot)
    except FileNotFoundError:
        pass


def undo_record(kind: str, at: str, st: os.stat_result, **extra) -> dict:
    return {"kind": kind, "at": at, "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "device": st.st_dev, "inode": st.st_ino, **extra}


# -- links --------------------------------------------------------------------------


def link(path: Spot | str, ident: Identity, kept: Spot | str, kept_ident: Identity,
         temp: Spot | str, *, symbolic: bool) -> Outcome:
    """Replace ``path`` by a link to ``kept``: link to a temporary name (in the folder of
    ``path``), rename it over ``path`` atomically, confirm; on failure the temporary name
    goes, ``path`` stays."""
    path, kept, temp = Spot.of(path), Spot.of(kept), Spot.of(temp)
    kept_st = kept.lstat()
    if not symbolic and ident.same_inode(kept_st):
        raise Skip(f"already a hard link of {kept.path}")
    # a link takes the kept copy's owner and permissions (a private file would become
    # readable, or writable, by others) and later writes through either name change both
    differ = _ownership_differs(path.lstat(), kept_st)
    if differ:
        raise Skip(f"{path.path} has another {differ} than the kept copy {kept.path}: a link "
                   "would give it the kept copy's; left alone")
    kind = "symbolic" if symbolic else "hard"
    try:
        if symbolic:
            os.symlink(os.path.abspath(kept.path), temp.name, dir_fd=temp.fd)
        else:
            os.link(kept.name, temp.name, src_dir_fd=kept.fd, dst_dir_fd=temp.fd,
                    follow_symlinks=False)
    except OSError as exc:
        raise _link_error(exc, kept, temp) from None  # a read-only folder: names it
    try:
        # a link goes to whatever has the name 'kept' now: it must be the file compared
        made = os.stat(temp.name, dir_fd=temp.fd) if symbolic else temp.lstat()
        if not kept_ident.matches(made):
            raise Skip(f"the kept copy {kept.path} was replaced just before linking to it")
        verify(path, ident)  # last look right before the swap
        try:
            os.replace(temp.name, path.name, src_dir_fd=temp.fd, dst_dir_fd=path.fd)
        except OSError as exc:
            raise _named(exc, path.path) from None
    except BaseException:
        _remove_quietly(temp)
        raise
    # a symbolic link holds a name, not the bytes: the kept copy must still be them
    if not is_link_to(path, kept, kept_ident, symbolic) or (
            symbolic and not _intact(kept, kept_ident)):
        # too late to roll back: say what happened, not just that it failed
        raise OSError(errno.EIO, f"replaced by a {kind} link to {kept.path}, but the link or "
                                 "the kept copy could not be confirmed afterwards: check both",
                      path.path)
    return Outcome("done", f"{kind} link to {kept.path}")


def _ownership_differs(st: os.stat_result, kept_st: os.stat_result) -> str:
    """What of owner, group and permissions differs between two files, in words ("" if
    nothing)."""
    differ = [what for what, same in (("owner", st.st_uid == kept_st.st_uid),
                                      ("group", st.st_gid == kept_st.st_gid),
                                      ("permissions", stat.S_IMODE(st.st_mode)
                                       == stat.S_IMODE(kept_st.st_mode))) if not same]
    return " and ".join(", ".join(differ).rsplit(", ", 1))


def is_link_to(path: Spot | str, kept: Spot | str, kept_ident: Identity,
               symbolic: bool) -> bool:
    path, kept = Spot.of(path), Spot.of(kept)
    try:
        st = path.lstat()
        if symbolic:
            return (stat.S_ISLNK(st.st_mode)
                    and os.readlink(path.name, dir_fd=path.fd) == os.path.abspath(kept.path))
        return stat.S_ISREG(st.st_mode) and kept_ident.same_inode(st)
    except OSError:
        return False
