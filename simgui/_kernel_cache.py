"""Where numba keeps simgui's compiled kernels: decided when simgui is imported, before numba.

The kernels are ``@njit(cache=True)``.  numba caches them beside their sources
(``__pycache__``), else in its per-user cache (``~/.cache/numba``); with neither
writable it refuses to define them at all ("cannot cache function ...: no locator
available"), and every command, ``--version`` included, would fail at import.  Then
the cache goes to simgui's own per-user cache folder, else to a temporary folder
(removed at exit, so every start compiles again), which is said once on stderr.
A ``NUMBA_CACHE_DIR`` the user set is kept when it can be written.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable

ENV = "NUMBA_CACHE_DIR"


def usable(folder: str) -> bool:
    """Could ``folder`` be made (where missing) and written in?  Asked of os.access only:
    importing simgui writes nothing."""
    path = os.path.abspath(folder)
    while not os.path.lexists(path):
        parent = os.path.dirname(path)
        if parent == path:
            return False
        path = parent
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


def choose(kernel_folders: Iterable[str], numba_cache: str,
           own_cache: str | None | Callable[[], str | None], user_choice: str | None,
           usable: Callable[[str], bool] = usable) -> str | None:
    """The folder to give numba as its cache: None when numba finds a writable one itself
    (the user's ``NUMBA_CACHE_DIR``, each kernel folder's ``__pycache__``, or numba's
    per-user cache), else ``own_cache`` if usable, else "" (a temporary folder is needed).
    ``own_cache`` may be a function giving it, asked only then."""
    if user_choice and usable(user_choice):
        return None
    if all(usable(os.path.join(folder, "__pycache__")) for folder in kernel_folders):
        return None
    if usable(numba_cache):
        return None
    if callable(own_cache):
        own_cache = own_cache()
    if own_cache and usable(own_cache):
        return own_cache
    return ""


def _kernel_folders() -> list[str]:
    package = os.path.dirname(os.path.abspath(__file__))
    folders = []
    for root, dirs, _ in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        folders.append(root)
    return folders


def _own_cache() -> str | None:
    try:
        import platformdirs

        return os.path.join(platformdirs.user_cache_dir("simgui", appauthor=False), "numba")
    except Exception:  # the cache is an optimisation: never stop simgui over it
        return None


def set_up() -> None:
    """Point numba at a writable cache if it would find none (see the module's text)."""
    # numba's per-user cache, as numba.misc.appdirs finds it on Linux
    numba_cache = os.path.join(os.getenv("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                               "numba")
    try:
        # _own_cache imports platformdirs (10 ms of every start): only when it is needed
        folder = choose(_kernel_folders(), numba_cache, _own_cache, os.environ.get(ENV))
    except OSError:
        return
    if folder is None:
        return
    if folder == "":
        import atexit
        import shutil
        import tempfile

        try:
            folder = tempfile.mkdtemp(prefix="simgui-numba-")  # private (0700), never reused
        except OSError:
            return  # nowhere to write: numba says so itself
        atexit.register(shutil.rmtree, folder, True)
        print("simgui: no writable cache for the compiled kernels (neither simgui's "
              f"__pycache__ folders nor {numba_cache} can be written): using the temporary "
              f"folder {folder}, so each start compiles them again", file=sys.stderr)
    os.environ[ENV] = folder  # read by numba when it is imported
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba came first: it reads its setting at each kernel
        config.CACHE_DIR = folder


def compiled_before(module: str) -> bool:
    """Whether numba has compiled the kernels of ``module`` (a path under simgui/core,
    e.g. "reading/sumtable.py") on this machine before, for this Python: an index of
    them is beside their source, in the folder ``NUMBA_CACHE_DIR`` names, or in numba's
    per-user cache.  False: the command about to use them compiles them first, which
    takes a minute or so (say so rather than sit silent)."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "core", module)
    stem = os.path.splitext(os.path.basename(source))[0] + "."
    end = f".py{sys.version_info[0]}{sys.version_info[1]}.nbi"  # "sumtable.<kernel>-12.py311.nbi"

    def has_index(folder: str, recursive: bool) -> bool:
        try:
            for entry in os.scandir(folder):
                if entry.name.startswith(stem) and entry.name.endswith(end):
                    return True
                if recursive and entry.is_dir(follow_symlinks=False) and has_index(
                        entry.path, True):
                    return True
        except OSError:
            pass
        return False

    if has_index(os.path.join(os.path.dirname(source), "__pycache__"), False):
        return True
    numba_cache = os.path.join(os.getenv("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                               "numba")
    return any(has_index(folder, True) for folder in (os.environ.get(ENV), numba_cache)
               if folder and os.path.isdir(folder))
