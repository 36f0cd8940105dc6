"""Worker threads for the numba kernels (which release the GIL)."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()
#: Below this many items a kernel runs on the calling thread.
PARALLEL_FROM = 50_000


def workers() -> int:
    """Threads to use: the cores this process may run on, at most 16."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 16))


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(workers(), thread_name_prefix="simfind")
        return _POOL


def map_threads(fn, items) -> list:
    """``fn`` over ``items`` on the worker threads; the results in order."""
    items = list(items)
    if len(items) > 1 and workers() > 1:
        return list(_pool().map(fn, items))
    return [fn(item) for item in items]


def in_chunks(kernel, n: int, *args) -> list:
    """Run ``kernel(lo, hi, *args)`` over 0 .. n in one chunk per worker; their results."""
    parts = workers() if n >= PARALLEL_FROM else 1
    cuts = np.linspace(0, n, parts + 1).astype(np.int64)
    return map_threads(lambda i: kernel(cuts[i], cuts[i + 1], *args), range(parts))
