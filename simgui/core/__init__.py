"""simgui's engine: sum tables, keys, scanning and the store.  No Qt here, ever."""

from simgui.core.keys import (
    SCHEMES,
    SKEW,
    UNIFORM,
    KeyScheme,
    compute_keys,
    extension_of,
    extension_offset,
)
from simgui.core.fingerprints import FingerprintBuilder, fingerprints
from simgui.core.hamming_index import HammingIndex, hamming_pairs
from simgui.core.progress import Cancelled, Progress
from simgui.core.scanner import ScanOptions, ScanReport, read_file, scan
from simgui.core.store import Store, StoreError, default_db_path
from simgui.core.sumtable import SumTableBuilder, sum_table, sum_table_of_file
from simgui.core.tags import DEFAULT_TAGS

__all__ = [
    "DEFAULT_TAGS", "SCHEMES", "SKEW", "UNIFORM", "Cancelled", "FingerprintBuilder",
    "HammingIndex", "KeyScheme", "Progress",
    "ScanOptions", "ScanReport", "Store", "StoreError", "SumTableBuilder", "compute_keys",
    "default_db_path", "extension_of", "extension_offset", "fingerprints", "hamming_pairs",
    "read_file", "scan", "sum_table",
    "sum_table_of_file",
]
