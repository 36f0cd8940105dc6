"""Keep freed memory in the process for the next search, instead of handing it back.

A search over a million files allocates and frees some 400 MB of temporary
arrays.  glibc's malloc returns large blocks to the kernel when they are freed,
so every search asks for them again, and the kernel hands them back as fresh
pages that it must zero and map one by one: on the benchmark machine that was
about 8,000 page faults and 35 ms of kernel time per search of 1,000,000 files,
a tenth of the search.  glibc adapts its own thresholds only up to 32 MB, and
only after the first large block is freed.

The application and the command line call :func:`keep_freed_memory` once at
start: blocks up to 32 MB then come from the heap, and up to 512 MB of freed
memory stays in the process for reuse (so the process may keep that much more
resident after a large search).  Elsewhere (other C libraries, other systems)
it does nothing.

The sliders' analysis is built once, on many threads, from temporaries by the
thousand: kept, what they free scatters over the heaps and comes back for nothing
else.  :func:`handing_freed_memory_back` hands it back while such a build runs (a
million real files: 368 bytes per pair kept at the peak, above the files; 163 so).

:func:`available_memory` says how much memory the system can give now, so that a
search sizes itself to it (simgui.core.search.budget) and :class:`NotEnoughMemory`
says so when it cannot.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import os
import sys
import threading
from collections.abc import Callable, Iterator

#: glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3

#: Blocks up to this size come from the heap (glibc refuses more than 32 MB).
MMAP_THRESHOLD = 32 << 20
#: Freed memory at the top of the heap is returned to the kernel beyond this much.
TRIM_THRESHOLD = 512 << 20
#: The heap grows by this much more than asked, in fewer and larger steps.
TOP_PAD = 64 << 20


#: glibc's own settings (its thresholds then adapt up to 32 MB), and those of a build
#: that hands freed memory back: blocks of 1 MiB or more mapped on their own, and the
#: heap's free top returned beyond 1 MiB
_GLIBC_DEFAULTS = {_M_MMAP_THRESHOLD: 128 << 10, _M_TRIM_THRESHOLD: 128 << 10,
                   _M_TOP_PAD: 128 << 10}
_HANDING_BACK = {_M_MMAP_THRESHOLD: 1 << 20, _M_TRIM_THRESHOLD: 1 << 20, _M_TOP_PAD: 128 << 10}
_KEEPING = {_M_MMAP_THRESHOLD: MMAP_THRESHOLD, _M_TRIM_THRESHOLD: TRIM_THRESHOLD,
            _M_TOP_PAD: TOP_PAD}
#: the settings the process runs with outside a build (None: glibc's own)
_settings: dict[int, int] | None = None
_builds = 0  # builds handing memory back now
_lock = threading.Lock()


@functools.cache
def _libc():
    """glibc's functions, or None (another C library or system); looked up once."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        # the process's own symbols, libc's among them: no ctypes.util.find_library,
        # which runs ldconfig (milliseconds at every start)
        libc = ctypes.CDLL(None)
        libc.mallopt, libc.malloc_trim  # noqa: B018 (musl has no mallopt)
    except (OSError, AttributeError):
        return None
    libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    libc.mallopt.restype = ctypes.c_int
    libc.malloc_trim.argtypes = (ctypes.c_size_t,)
    libc.malloc_trim.restype = ctypes.c_int
    return libc


def _apply(libc, settings: dict[int, int]) -> bool:
    # mallopt answers 1 when it took a setting, 0 when it refused it
    return all([libc.mallopt(name, value) == 1 for name, value in settings.items()])


def keep_freed_memory() -> bool:
    """Tell glibc's malloc to keep freed memory for reuse; True if it took the settings."""
    global _settings
    libc = _libc()
    if libc is None:
        return False
    with _lock:
        _settings = _KEEPING
        if _builds:
            return True  # taken when the build that runs now ends
        return _apply(libc, _KEEPING)


@contextlib.contextmanager
def handing_freed_memory_back() -> Iterator[None]:
    """While the block runs, hand freed memory back to the kernel (blocks of 1 MiB or
    more as they are freed, the heaps' free memory at the end); then keep it again as
    before.  For a large build that runs once; nothing where the C library is not
    glibc."""
    global _builds
    libc = _libc()
    if libc is None:
        yield
        return
    with _lock:
        _builds += 1
        if _builds == 1:
            _apply(libc, _HANDING_BACK)
    try:
        yield
    finally:
        with _lock:
            _builds -= 1
            if not _builds:
                _apply(libc, _settings or _GLIBC_DEFAULTS)
        libc.malloc_trim(0)


class NotEnoughMemory(Exception):
    """A search would need more memory than the system has available; the message
    says how much, and what would fit, in one line."""


def available_memory() -> int | None:
    """Bytes the system can give without swapping now (Linux: MemAvailable), or None
    when it does not say."""
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def pause_collector() -> Callable[[], None]:
    """Pause Python's cyclic garbage collector; returns the function that resumes it as
    it was (once, however often called).  A scan or a bulk read makes a few tuples per
    file and no cycles: the collector scanning them again and again took a fifth of
    ``scan --identical-only`` on /usr, and half of making Store's rows."""
    was = gc.isenabled()
    gc.disable()
    done = False

    def resume() -> None:
        nonlocal done
        if not done:
            done = True
            if was:
                gc.enable()

    return resume


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """:func:`pause_collector` for a ``with`` block, resumed also on an error."""
    resume = pause_collector()
    try:
        yield
    finally:
        resume()
