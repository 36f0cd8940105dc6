"""Public names of a package that load on first use (PEP 562).

``simgui.core`` and ``simgui.core.cleanup`` name their API in ``__init__``; importing
it all there would load numba and every kernel for any part of the engine, even for
``simgui stats``.  Each package gives :func:`exports` its names by module instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def exports(namespace: dict, public: Mapping[str, tuple[str, ...]]
            ) -> tuple[list[str], Callable[[str], object], Callable[[], list[str]]]:
    """``(__all__, __getattr__, __dir__)`` for the package whose globals are
    ``namespace``: ``public`` maps a module (absolute) to the names it gives; a name is
    imported from its module when first asked for, then kept in the package."""
    module_of = {name: module for module, names in public.items() for name in names}
    package = namespace["__name__"]

    def __getattr__(name: str):
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value  # looked up once
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(module_of))

    return sorted(module_of), __getattr__, __dir__
