"""The store: one SQLite file that keeps what the scan read, and the clean-up journal's tables.

Scan results are a cache keyed by (device, inode, size, mtime_ns) and path, so an
unchanged file is never read twice; user decisions (the journal) survive every
migration.  It knows nothing of kernels: it keeps counts and hashes as bytes.
"""

from simgui.core.store.database import (
    APPLICATION_ID,
    DAMAGED_ADVICE,
    ENV_DB,
    MINHASH_SLOTS,
    SCHEMA_VERSION,
    FileRecord,
    KnownFile,
    Store,
    StoredFiles,
    StoreError,
    default_db_path,
    is_damage,
    is_full,
    store_failure,
    text_of,
    text_value,
)

__all__ = [
    "APPLICATION_ID", "DAMAGED_ADVICE", "ENV_DB", "MINHASH_SLOTS", "SCHEMA_VERSION",
    "FileRecord", "KnownFile", "StoreError", "Store", "StoredFiles", "default_db_path",
    "is_damage", "is_full", "store_failure", "text_of", "text_value",
]
