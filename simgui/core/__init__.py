"""simgui's engine, no Qt here, ever: folders by pipeline stage.

``reading`` (sum tables, fingerprints, the scan) -> ``store`` (SQLite) -> ``search``
(keys, SimFind, the other methods, groups) -> ``cleanup`` (plans, actions, journal,
undo); shared pieces beside them (tags, progress, units, folders, settings).
See ARCHITECTURE.md.  The names below are the library's public API.
"""

from simgui.core.search.keys import (
    SCHEMES,
    SKEW,
    UNIFORM,
    KeyScheme,
    compute_keys,
    extension_of,
    extension_offset,
)
from simgui.core.reading.fingerprints import FingerprintBuilder, fingerprints
from simgui.core.search.hamming_index import HammingIndex, hamming_pairs
from simgui.core.progress import Cancelled, Progress
from simgui.core.reading.scanner import ScanOptions, ScanReport, read_file, scan
from simgui.core.store import Store, StoreError, default_db_path
from simgui.core.reading.sumtable import SumTableBuilder, sum_table, sum_table_of_file
from simgui.core.tags import DEFAULT_TAGS

__all__ = [
    "DEFAULT_TAGS", "SCHEMES", "SKEW", "UNIFORM", "Cancelled", "FingerprintBuilder",
    "HammingIndex", "KeyScheme", "Progress",
    "ScanOptions", "ScanReport", "Store", "StoreError", "SumTableBuilder", "compute_keys",
    "default_db_path", "extension_of", "extension_offset", "fingerprints", "hamming_pairs",
    "read_file", "scan", "sum_table",
    "sum_table_of_file",
]
