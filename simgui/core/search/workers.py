"""Worker threads for the numba kernels (which release the GIL)."""

from __future__ import annotations

import concurrent.futures
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from simgui.core.cores import usable_cores

_POOL: ThreadPoolExecutor | None = None
#: A pool of its own for what a slider move runs (core.search.tolerance_stats,
#: group_rows): a search running meanwhile may have queued its whole sweep on the other
#: one, and a move must not wait behind it.
_LIGHT: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()
#: Below this many items a kernel runs on the calling thread.
PARALLEL_FROM = 50_000


def workers() -> int:
    """Threads to use: the cores this process may run on, at most 16."""
    return max(1, min(usable_cores(), 16))


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(workers(), thread_name_prefix="simfind")
        return _POOL


def light_pool() -> ThreadPoolExecutor | None:
    """The slider moves' pool (see _LIGHT); None on one core."""
    global _LIGHT
    if workers() < 2:
        return None
    with _POOL_LOCK:
        if _LIGHT is None:
            _LIGHT = ThreadPoolExecutor(workers(), thread_name_prefix="slider")
        return _LIGHT


def beside(fn, items, here):
    """``fn`` over ``items`` on the slider moves' pool while ``here()`` runs on the
    calling thread: (what ``here`` returned, the results in order)."""
    pool = light_pool()
    futures = [pool.submit(fn, item) for item in items] if pool is not None else None
    try:
        done = here()
    finally:
        # even when ``here`` failed, nothing returns while the others still run: they
        # may be writing what a lock held by the caller protects
        if futures is not None:
            concurrent.futures.wait(futures)
    return done, ([f.result() for f in futures] if futures is not None
                  else [fn(item) for item in items])


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
