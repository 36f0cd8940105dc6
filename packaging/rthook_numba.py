"""PyInstaller runtime hook: a writable, per-user cache for simgui's numba kernels.

simgui's kernels are ``@njit(cache=True)``.  numba would write their cache next
to the sources, which in the bundle sit in the (possibly read-only, possibly
shared) install folder.  Instead the first start compiles them into
``<user cache dir>/simgui/numba`` (``~/.cache/simgui/numba`` on Linux) and later
starts load them from there.  numba reads ``NUMBA_CACHE_DIR`` once, when it is
first imported; runtime hooks run before the entry script, so before that.
A ``NUMBA_CACHE_DIR`` set by the user is kept.

If that directory cannot be written (a read-only home, say), numba would refuse
to define the kernels at all; the cache then goes to a private temporary
directory, removed at exit: every start compiles, but simgui starts.
"""

import os


def _writable(path: str) -> bool:
    import tempfile

    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            return True
    except OSError:
        return False


def _set_numba_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        import platformdirs

        base = platformdirs.user_cache_dir("simgui", appauthor=False)
    except Exception:  # the cache is an optimisation: never stop the app over it
        base = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                            "simgui")
    cache = os.path.join(base, "numba")
    if not _writable(cache):
        import atexit
        import shutil
        import tempfile

        try:
            cache = tempfile.mkdtemp(prefix="simgui-numba-")  # private (0700), never reused
        except OSError:
            return  # nowhere to write: numba says so itself
        atexit.register(shutil.rmtree, cache, True)
    os.environ["NUMBA_CACHE_DIR"] = cache


_set_numba_cache_dir()
del _set_numba_cache_dir, _writable
