"""simgui's engine, no Qt here, ever: folders by pipeline stage.

``reading`` (sum tables, fingerprints, the scan) -> ``store`` (SQLite) -> ``search``
(keys, SimFind, the other methods, groups) -> ``cleanup`` (plans, actions, journal,
undo); shared pieces beside them (tags, progress, units, folders, settings).
See ARCHITECTURE.md.  The names below are the library's public API.

They load on first use (PEP 562): importing any part of the engine, say the store
for ``simgui stats``, must not load numba and compile nothing it does not need.
"""

from __future__ import annotations

from simgui.core.lazy import exports

__all__, __getattr__, __dir__ = exports(globals(), {
    "simgui.core.search.keys": ("SCHEMES", "SKEW", "UNIFORM", "KeyScheme", "compute_keys",
                                "extension_of", "extension_offset"),
    "simgui.core.reading.fingerprints": ("FingerprintBuilder", "fingerprints"),
    "simgui.core.search.hamming_index": ("HammingIndex", "hamming_pairs"),
    "simgui.core.progress": ("Cancelled", "Progress"),
    "simgui.core.reading.scanner": ("ScanOptions", "ScanReport", "read_file", "scan"),
    "simgui.core.store": ("Store", "StoreError", "default_db_path"),
    "simgui.core.reading.sumtable": ("SumTableBuilder", "sum_table", "sum_table_of_file"),
    "simgui.core.tags": ("DEFAULT_TAGS",),
})
