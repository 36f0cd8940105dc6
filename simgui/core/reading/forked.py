"""Per-file work shared with forked copies of this process: where the cost of a loop over
files is system calls and Python's own work for each (the identical stage's small files
and prefixes, 8 us a file), threads fight over Python's lock and a second one makes the
loop slower, but a second process has a lock of its own.

A fork copies the process as it is, so a child needs nothing sent but which files are
its share, and starts in a few milliseconds.  A fork copies the calling thread alone,
so a lock another thread held would never be let go in the child: it is used only on
Linux, in a process that runs one thread (of any kind: numpy's BLAS pool and Qt's count
too) and does not ignore its children's ends (:func:`can_fork`).

A child works on its share, writes one record a file to a pipe and leaves with
``os._exit``: nothing of the parent's runs in it (no exit handler, no buffer flushed,
no finaliser of the parent's objects: the collector is frozen over the fork, so no
database connection is closed).  Ctrl-C is held back over each fork, so that it never
lands in a child before the child is on its own way out.  What a child could not do,
and everything a child that died did not write, the parent does again, which so gives
the error the work raises as one process would.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

#: a record's first byte: the work gave a result, or it raised
_DONE, _FAILED = b"\x01", b"\x00"
#: signals held back over a fork (a handler of the parent's must not run in a child)
_HELD = {signal.SIGINT, signal.SIGTERM}

Work = Callable[[Sequence[int]], Iterable[tuple[int, Any]]]


def can_fork() -> bool:
    """Whether a fork is safe here (see the module's documentation)."""
    if not (sys.platform.startswith("linux") and hasattr(os, "fork")
            and "PySide6" not in sys.modules
            and signal.getsignal(signal.SIGCHLD) != signal.SIG_IGN):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class _Child:
    """A forked child: its pid and its end of the pipe until each is let go (a field is
    cleared before what it names is let go, so that an interruption in between leaves a
    descriptor open or a child to reap at exit, never one closed or killed twice)."""

    __slots__ = ("pid", "fd", "share")

    def __init__(self, pid: int, fd: int, share: list[int]):
        self.pid, self.fd, self.share = pid, fd, share

    def collect(self) -> bytes:
        """All the child wrote, once it is done."""
        data = _read_to_end(self.fd)
        fd, self.fd = self.fd, -1
        os.close(fd)
        pid, self.pid = self.pid, 0
        _reap(pid)
        return data

    def end(self) -> None:
        """End the child if it was not collected (the work was left early)."""
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)
        pid, self.pid = self.pid, 0
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _reap(pid)


def shared(work: Work, which: Sequence[int], processes: int, width: int,
           encode: Callable[[Any], bytes], decode: Callable[[bytes], Any]
           ) -> Iterator[tuple[int, Any]]:
    """``work(which)``, each file's (i, result), with ``processes - 1`` forked children
    doing a share each: the parent's own share first, as it goes, then each child's.

    ``work(part)`` yields (i, result or the OSError it raised) for each i of ``part``, in
    order; a result is ``width`` bytes once encoded.  Closing the iterator early (a
    cancelled stage) ends the children.  Call it only where :func:`can_fork` says so."""
    which = list(which)
    n = len(which)
    shares = [which[k * n // processes:(k + 1) * n // processes] for k in range(processes)]
    own = shares[0]
    children: list[_Child] = []
    try:
        for share in shares[1:]:
            if not share:
                continue
            # Ctrl-C held back while the child is made and counted (one that came before
            # is raised as this first call returns, before anything is made)
            before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, before | _HELD)
                child = _fork(work, share, width, encode, before)
                if child is None:  # no process to be had (a limit reached): the parent's
                    own = own + share
                else:
                    children.append(child)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
        yield from work(own)
        size = 1 + width
        for child in children:
            data = child.collect()
            share = child.share
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
        for child in children:  # closed early: the children still working end now
            child.end()


def _fork(work: Work, share: list[int], width: int, encode: Callable[[Any], bytes],
          mask: set) -> _Child | None:
    """A child doing ``share`` (the caller holds :data:`_HELD` back; the child takes
    ``mask`` once on its own way), or None where no process could be had."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    frozen = gc.get_freeze_count()
    gc.freeze()  # the parent's objects: never collected (nor finalised) in the child
    try:
        pid = os.fork()
    except OSError:
        pid = -1
    if pid == 0:  # the child: whatever happens, it leaves here, running nothing else
        code = 1
        try:
            gc.disable()
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(read_end)
            out = bytearray()
            failed = _FAILED + bytes(width)
            for k, (i, result) in enumerate(work(share)):
                if isinstance(result, BaseException) or i != share[k]:
                    out += failed
                    continue
                data = encode(result)
                out += _DONE + data if len(data) == width else failed
            view = memoryview(out)
            while view:
                view = view[os.write(write_end, view):]
            code = 0
        finally:
            os._exit(code)
    if not frozen:
        gc.unfreeze()
    os.close(write_end)
    if pid < 0:
        os.close(read_end)
        return None
    return _Child(pid, read_end, share)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:  # reaped already (children's ends ignored after all)
        pass


def _read_to_end(fd: int) -> bytes:
    parts = []
    while True:
        part = os.read(fd, 1 << 20)
        if not part:
            return b"".join(parts)
        parts.append(part)
