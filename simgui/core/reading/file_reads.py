"""Opening and reading a file the way every part of the scan does.

A file is opened without following a link and without blocking on a FIFO put in its
place since the walk (the caller's fstat then rejects anything but a regular file),
and read up to one byte past the size the caller expects: a file that grows while it
is read shows as longer, and one that grows forever (a busy log) is not read forever.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

#: os.open flags for reading a file the walk found: no link followed, no wait on a FIFO
#: put in its place, and a terminal put there never made the scan's own
OPEN_FLAGS = (os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
              | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
#: bytes read at a time
CHUNK = 1 << 20


def identity_fits(found) -> bool:
    """Whether a walked file's device and inode numbers fit the compiled reads' int64
    (some network and FUSE file systems give larger ones: such a file is read from
    Python, which compares them exactly)."""
    return found.device < 1 << 63 and found.inode < 1 << 63


def read_chunks(fd: int, size: int, chunk: int = CHUNK) -> Iterator[memoryview]:
    """The file open at ``fd``, from where it stands, a chunk at a time, up to ``size``
    + 1 bytes.  One buffer is reused: use each chunk before asking for the next."""
    budget = size + 1
    view = memoryview(bytearray(min(chunk, budget)))
    with os.fdopen(fd, "rb", buffering=0, closefd=False) as f:
        while budget > 0 and (n := f.readinto(view[:min(len(view), budget)])):
            yield view[:n]
            budget -= n
