"""simgui: find identical and similar files, and clean them up safely."""

__version__ = "0.1.0"

from simgui import _kernel_cache  # noqa: E402  (before any kernel: numba needs a cache folder)

_kernel_cache.set_up()
