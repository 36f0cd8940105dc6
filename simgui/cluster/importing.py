"""``simgui import``: a cluster's dataset into a local store, so the window (and
``simgui remove``) can review and clean up what the cluster found.

The rows are saved with the store's own API, as a scan saves them (one scan entry,
the dataset's failures as its issues), and the store then holds exactly the
dataset's files at or under the imported roots: stored files there that the dataset
no longer has are dropped, as a rescan drops files gone from disk.  Nothing on disk
is read or touched: a clean-up checks each file again before acting.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from simgui.cluster.dataset import Dataset, table_records
from simgui.core.folders import under as is_under
from simgui.core.store import Store

_SAVE_EVERY = 5000


@dataclass
class ImportReport:
    scan_id: int
    files: int = 0
    bytes: int = 0
    errors: int = 0
    issues: int = 0
    forgotten: int = 0


def import_dataset(store: Store, dataset: Dataset, under: str | None = None) -> ImportReport:
    """Save ``dataset``'s files (those at or under ``under``, if given) into ``store``."""
    roots = [os.path.abspath(under)] if under else list(dataset.roots)
    tagset_id = store.tagset_id(dataset.tags)
    known = store.known_files([os.fsencode(r) for r in roots])
    scan_id = store.begin_scan(roots)
    rep = ImportReport(scan_id)
    seen: set[bytes] = set()
    status = "failed"
    try:
        for part in range(len(dataset.parts)):
            table = dataset.read(part=part, under=[os.fsencode(r) for r in roots]
                                 if under else ())
            records = table_records(table)
            for start in range(0, len(records), _SAVE_EVERY):
                batch = records[start:start + _SAVE_EVERY]
                store.save_files(batch, tagset_id, scan_id)
            for r in records:
                seen.add(r.path)
                rep.files += 1
                rep.bytes += r.size
                rep.errors += r.error is not None
        issues = [(os.fsencode(p), kind, message) for p, kind, message in dataset.issues()
                  if not under or is_under(p, roots)]
        store.add_issues(scan_id, issues)
        rep.issues = len(issues)
        rep.forgotten = store.forget_files(k.id for path, k in known.items() if path not in seen)
        status = "completed"
    finally:
        store.finish_scan(scan_id, status, files_read=rep.files, files_unchanged=0,
                          bytes_read=rep.bytes, errors=rep.errors,
                          skipped=sum(1 for _, kind, _ in dataset.issues() if kind == "skipped")
                          if status == "completed" else 0)
    return rep
