"""Per-file work shared with forked copies of this process: where the cost of a loop over
files is system calls and Python's own work for each (the identical stage's small files
and prefixes, 8 us a file), threads fight over Python's lock and a second one makes the
loop slower, but a second process has a lock of its own.

A fork copies the process as it is, so a child needs nothing sent but which files are
its share, and starts in a few milliseconds.  A fork copies the calling thread alone,
so a lock another thread held is never let go in the child: it is used only on Linux,
from the main thread of a process that runs no other Python thread and has not loaded
Qt (:func:`can_fork`).  Library pools that only wait, as numpy's BLAS threads do, hold
no lock the child's work takes (it opens, reads and hashes files; the C library resets
its allocator's locks in a child).  A child works on its share, writes
one record a file to a pipe and leaves with ``os._exit``: nothing of the parent's runs
in it (no exit handler, no buffer flushed, no database touched).  What a child could
not do, and everything a child that died did not write, the parent does again, which
so gives the error the work raises as one process would.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

#: a record's first byte: the work gave a result, or it raised
_DONE, _FAILED = b"\x01", b"\x00"

Work = Callable[[Sequence[int]], Iterable[tuple[int, Any]]]


def can_fork() -> bool:
    """Whether a fork is safe here (see the module's documentation)."""
    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and threading.current_thread() is threading.main_thread()
            and threading.active_count() == 1 and "PySide6" not in sys.modules)


def shared(work: Work, which: Sequence[int], processes: int, width: int,
           encode: Callable[[Any], bytes], decode: Callable[[bytes], Any]
           ) -> Iterator[tuple[int, Any]]:
    """``work(which)``, each file's (i, result), with ``processes - 1`` forked children
    doing a share each: the parent's own share first, as it goes, then each child's.

    ``work(part)`` yields (i, result or the OSError it raised) for each i of ``part``;
    a result is ``width`` bytes once encoded.  Closing the iterator early (a cancelled
    stage) ends the children.  Call it only where :func:`can_fork` says so."""
    which = list(which)
    n = len(which)
    shares = [which[k * n // processes:(k + 1) * n // processes] for k in range(processes)]
    own = shares[0]
    children: list[tuple[int, int, list[int]]] = []  # (pid, the pipe's end, share)
    try:
        for share in shares[1:]:
            try:
                children.append(_fork(work, share, width, encode))
            except OSError:  # no process to be had (a limit reached): the parent does it
                own = own + share
        yield from work(own)
        while children:
            pid, fd, share = children.pop(0)
            try:
                data = _read_to_end(fd)
            except BaseException:
                _end(pid, fd)
                raise
            os.close(fd)
            os.waitpid(pid, 0)
            size = 1 + width
            again = share[len(data) // size:]  # what a child that died did not write
            for k in range(len(data) // size):
                record = data[k * size:(k + 1) * size]
                if record[:1] == _DONE:
                    yield share[k], decode(record[1:])
                else:
                    again.append(share[k])
            if again:
                yield from work(again)
    finally:
        for pid, fd, _ in children:  # closed early: the children still working end now
            _end(pid, fd)


def _end(pid: int, fd: int) -> None:
    """End a child not waited for yet, and close its pipe."""
    os.close(fd)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


def _fork(work: Work, share: list[int], width: int,
          encode: Callable[[Any], bytes]) -> tuple[int, int, list[int]]:
    """A child doing ``share``: (its pid, the end of its pipe to read, the share)."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        raise
    if pid == 0:  # the child: whatever happens, it leaves here, running nothing else
        code = 1
        try:
            os.close(read_end)
            out = bytearray()
            failed = _FAILED + bytes(width)
            for _, result in work(share):
                out += failed if isinstance(result, BaseException) else _DONE + encode(result)
            view = memoryview(out)
            while view:
                view = view[os.write(write_end, view):]
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end, share


def _read_to_end(fd: int) -> bytes:
    parts = []
    while True:
        part = os.read(fd, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)
