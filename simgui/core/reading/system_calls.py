"""open, statx, read and close, called from compiled code (Linux only).

A tree of small files is mostly system calls: made from Python, each file costs a
trip through the interpreter and its lock, so reader threads wait on each other
and a scan of small files does not grow with cores (issue 25).  These let a kernel
(:mod:`simgui.core.reading.small_files`) open, check and read many files in one
call with the lock released.  Each call is declared by its C name, so numba's
cache keeps the compiled kernel (an address would differ in every process).

``statx`` is used rather than ``fstat`` because its record has one layout on every
architecture.  Where these cannot be used (not Linux, a C library or kernel without
statx) :func:`small_files.compiled_reads` says so, and the scanner reads every file
from Python.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Sequence

import llvmlite.ir as ir
import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from simgui.core.reading.file_reads import OPEN_FLAGS

#: statx(2): the flag that makes it describe the open descriptor itself, and the
#: fields asked for (type, mode, inode, size, modification time)
AT_EMPTY_PATH = 0x1000
STATX_NEEDED = 0x001 | 0x002 | 0x100 | 0x200 | 0x040
#: offsets in struct statx (linux/stat.h, the same on every architecture)
_MASK, _MODE, _INO, _SIZE, _MTIME_SEC, _MTIME_NSEC, _DEV_MAJOR, _DEV_MINOR = \
    0, 28, 32, 40, 112, 120, 136, 140
STATX_SIZE = 256
S_IFMT, S_IFREG = 0o170000, 0o100000


def present() -> bool:
    """Whether the C library has the four calls (the kernel may still refuse statx)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return False
    return all(hasattr(libc, name) for name in ("open", "read", "close", "statx"))


def _declared(name: str, ret, args, var_arg: bool = False):
    """Code that calls the C function ``name`` with ``args`` (numba types), casting
    the values given; ``var_arg``: declared as C declares it, taking more arguments
    (open: some ABIs pass those differently from fixed ones)."""
    def codegen(context, builder, signature, values):
        of = context.get_value_type
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(of(ret), [of(a) for a in args], var_arg=var_arg),
            name)
        return builder.call(fn, [context.cast(builder, v, given, wanted)
                                 for v, given, wanted in zip(values, signature.args, args)])
    return codegen


@intrinsic
def c_open(typingctx, path, flags):
    """open(path, flags): ``path`` the address of a NUL-terminated name."""
    return types.int32(path, flags), _declared("open", types.int32, (types.uintp, types.int32),
                                               var_arg=True)


@intrinsic
def c_read(typingctx, fd, address, count):
    return types.intp(fd, address, count), _declared(
        "read", types.intp, (types.int32, types.uintp, types.uintp))


@intrinsic
def c_close(typingctx, fd):
    return types.int32(fd), _declared("close", types.int32, (types.int32,))


@intrinsic
def c_statx(typingctx, fd, path, flags, mask, address):
    return types.int32(fd, path, flags, mask, address), _declared(
        "statx", types.int32, (types.int32, types.uintp, types.int32, types.uint32, types.uintp))


@njit(nogil=True, cache=True, inline="always")
def _u32(record, at):
    return (np.uint32(record[at]) | (np.uint32(record[at + 1]) << np.uint32(8))
            | (np.uint32(record[at + 2]) << np.uint32(16))
            | (np.uint32(record[at + 3]) << np.uint32(24)))


@njit(nogil=True, cache=True, inline="always")
def _u64(record, at):
    return np.uint64(_u32(record, at)) | (np.uint64(_u32(record, at + 4)) << np.uint64(32))


@njit(nogil=True, cache=True)
def describe(fd, record, no_name):
    """statx of the open ``fd`` into ``record`` (uint8, STATX_SIZE); returns
    (ok, mode, size, mtime_ns, device, inode), device as glibc's makedev makes it
    (what os.stat gives)."""
    if c_statx(fd, no_name.ctypes.data, AT_EMPTY_PATH, STATX_NEEDED, record.ctypes.data) != 0:
        return False, 0, 0, 0, 0, 0
    if (_u32(record, _MASK) & STATX_NEEDED) != STATX_NEEDED:
        return False, 0, 0, 0, 0, 0
    mode = np.int64(record[_MODE]) | (np.int64(record[_MODE + 1]) << 8)
    size = np.int64(_u64(record, _SIZE))
    mtime = np.int64(_u64(record, _MTIME_SEC)) * 1_000_000_000 + np.int64(_u32(record, _MTIME_NSEC))
    major = np.uint64(_u32(record, _DEV_MAJOR))
    minor = np.uint64(_u32(record, _DEV_MINOR))
    device = (((major & np.uint64(0x00000FFF)) << np.uint64(8))
              | ((major & np.uint64(0xFFFFF000)) << np.uint64(32))
              | (minor & np.uint64(0x000000FF))
              | ((minor & np.uint64(0xFFFFFF00)) << np.uint64(12)))
    return True, mode, size, mtime, np.int64(device), np.int64(_u64(record, _INO))


@njit(nogil=True, cache=True)
def read_checked(fd, record, no_name, address, want, size, mtime, device, inode, identity):
    """Up to ``want`` bytes of the file open at ``fd`` into ``address``, read only if it is
    a regular file of ``size`` bytes (and with ``identity``, of that mtime_ns, device and
    inode) and kept only if its size and mtime did not change while it was read; returns
    (bytes read, or -1 when not read or not kept; its mtime_ns, device, inode)."""
    ok, mode, now_size, now_mtime, now_device, now_inode = describe(fd, record, no_name)
    if not ok or (mode & S_IFMT) != S_IFREG or now_size != size or (identity and (
            now_mtime != mtime or now_device != device or now_inode != inode)):
        return -1, 0, 0, 0
    n = 0
    while n < want:  # a short read is read on from
        r = c_read(fd, address + n, want - n)
        if r <= 0:
            break
        n += r
    ok, mode, after_size, after_mtime, after_device, after_inode = describe(fd, record, no_name)
    if not ok or after_size != now_size or after_mtime != now_mtime:
        return -1, 0, 0, 0
    return n, now_mtime, after_device, after_inode


@njit(nogil=True, cache=True)
def read_heads(names, name_at, walked, want, flags, data, data_at, got):
    """The first ``want[i]`` bytes of each file ``names[name_at[i]:]`` (NUL-terminated)
    into ``data[data_at[i]:]``, in one call with Python's lock released.  A file is
    read only if it is the regular file the walk saw (``walked[i]``: size, mtime_ns,
    device, inode) and kept only if it did not change while read; ``got[i]``: the
    bytes read, or -1 (not read, not the same, or changed: the caller reads it from
    Python and says why)."""
    record = np.zeros(STATX_SIZE, np.uint8)
    no_name = np.zeros(1, np.uint8)
    for i in range(want.shape[0]):
        got[i] = -1
        fd = c_open(names.ctypes.data + name_at[i], flags)
        if fd < 0:
            continue
        got[i] = read_checked(fd, record, no_name, data.ctypes.data + data_at[i], want[i],
                              walked[i, 0], walked[i, 1], walked[i, 2], walked[i, 3], True)[0]
        c_close(fd)
    return 0


def packed_names(paths: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """``paths`` as the kernels take them: one uint8 array of NUL-terminated names, and
    where each begins."""
    n = len(paths)
    names = np.frombuffer(b"\0".join(paths) + b"\0", np.uint8)
    name_at = np.zeros(n, np.int64)
    if n > 1:
        np.cumsum(np.fromiter(map(len, paths), np.int64, n)[:-1] + 1, out=name_at[1:])
    return names, name_at


def reads_own_source(path: str, read) -> bool:
    """Whether a compiled read works here: the calls are present, and ``read(path, st,
    content)`` of the module file ``path`` agrees with Python's ``os.stat`` (``st``) and
    read (``content``); False on any error (a C library, kernel or sandbox that lacks
    or refuses a call: read from Python instead)."""
    if not present():
        return False
    try:
        st = os.stat(path)
        with open(path, "rb") as f:
            content = f.read()
        return st.st_size == len(content) and bool(read(path, st, content))
    except Exception:  # noqa: BLE001 - whatever failed, read from Python instead
        return False


_heads_work: bool | None = None


def heads_available() -> bool:
    """Whether :func:`read_heads` works here (see :func:`reads_own_source`); tried once."""
    global _heads_work
    if _heads_work is None:
        _heads_work = reads_own_source(__file__, _read_head_of)
    return _heads_work


def _read_head_of(path: str, st, content: bytes) -> bool:
    walked = np.array([[st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino]], np.int64)
    data = np.empty(st.st_size + 1, np.uint8)
    got = np.empty(1, np.int64)
    read_heads(*packed_names([os.fsencode(path)]), walked,
               np.array([st.st_size + 1], np.int64), OPEN_FLAGS, data, np.zeros(2, np.int64), got)
    return int(got[0]) == len(content) and data[:len(content)].tobytes() == content
