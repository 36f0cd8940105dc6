"""simgui on a Dask cluster: scan a file server fleet into a Parquet dataset, search it
with the same exact kernels as the local commands, and import it into a local store.

A layer above the core, like the command line: the core and the window never import
it, and it imports Dask and pyarrow (the optional ``cluster`` extra) only inside its
modules, so ``simgui cluster`` without them says how to install them (:func:`require`).
"""

from __future__ import annotations

INSTALL_HINT = "pip install 'simgui[cluster]'"


class ClusterUnavailable(RuntimeError):
    """Dask or pyarrow is missing: the message says how to install them."""


def require() -> None:
    """Raise :class:`ClusterUnavailable` (one line) unless Dask's distributed scheduler
    and pyarrow can be imported."""
    missing = []
    for name in ("dask.distributed", "pyarrow.parquet"):
        try:
            __import__(name)
        except ImportError:
            missing.append(name.partition(".")[0])
    if missing:
        raise ClusterUnavailable(f"the cluster commands need {' and '.join(missing)}: "
                                 f"{INSTALL_HINT}")
