"""What the GUI's workers run: core calls composed, each opening its own store connection.

Plain functions with a ``progress`` callback and no Qt, so they are tested
like the core.  A connection belongs to the thread that made it, hence one per
job.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simgui.core.cleanup import journal
from simgui.core.search.analysis import (
    Analysis, MissingFingerprints, SearchSettings, in_folders, require_fingerprints,
)
from simgui.core.cleanup import BatchResult, Plan, execute, undo
from simgui.core.progress import Progress, report
from simgui.core.reading.scanner import ScanOptions, ScanReport, scan
from simgui.core.search.groups import GroupTable
from simgui.core.store import Store, StoredFiles, ignored


@dataclass(frozen=True)
class Results:
    """What the window shows after loading, scanning or acting."""

    analysis: Analysis
    issues: list[tuple[str, str, str]]  # (path, kind, message) of the last scan
    scan: ScanReport | None = None
    batch: BatchResult | None = None  # the clean-up that led here
    undone: BatchResult | None = None  # what an undo restored
    last_undoable: journal.Batch | None = None  # what Undo would put back
    #: folders listed that no scan has read yet: no result may be claimed for them
    unscanned: tuple[str, ...] = ()
    #: the ignore list: pairs of paths that are not duplicates (simgui.core.store.ignored)
    ignored: tuple[tuple[str, str], ...] = ()


def under(files: StoredFiles, folders: Sequence[str]) -> StoredFiles:
    """The files inside ``folders`` (the store may hold folders no longer listed)."""
    keep = in_folders(files.paths, folders)
    return files if keep.all() else files.take(np.flatnonzero(keep))


def unscanned(store: Store, folders: Sequence[str]) -> tuple[str, ...]:
    """The folders of ``folders`` that are neither a scanned folder nor inside one."""
    roots = store.scanned_roots()
    inside = in_folders([os.path.abspath(f) for f in folders], roots)
    return tuple(f for f, ok in zip(folders, inside.tolist()) if not ok)


def _analyse(store: Store, folders, search: SearchSettings, progress) -> dict:
    report(progress, Progress("loading"))
    files = under(store.files(), folders)
    require_fingerprints(files, search)
    report(progress, Progress("analysing", 0, len(files)))
    return {"analysis": Analysis.build(files, search), "issues": store.issues(),
            "last_undoable": journal.last_undoable(store),
            "unscanned": unscanned(store, folders),
            "ignored": tuple(ignored.ignored_pairs(store))}


def load(store_path: str, folders: Sequence[str], search: SearchSettings,
         options: ScanOptions | None = None, *, progress=None) -> Results:
    """Open the store (finishing any interrupted clean-up) and analyse what it holds.

    When the search needs fingerprints that some files lack, and ``options`` are
    given, those files are read first (a scan; unchanged files with fingerprints are
    not read again)."""
    with Store(store_path) as store:
        journal.recover(store)
        try:
            return Results(**_analyse(store, folders, search, progress))
        except MissingFingerprints:
            if options is None:
                raise
        rep = scan(store, folders, dataclasses.replace(options, fingerprints=True), progress)
        return Results(**_analyse(store, folders, search, progress), scan=rep)


@dataclass(frozen=True)
class IdenticalGroups(Progress):
    """A scan's identical copies, sent as progress (phase :data:`IDENTICAL_GROUPS`) as soon
    as they are known, while the rest is still read: the window shows them meanwhile.
    ``table``: the groups (simgui.core.search.identical), files_done: how many."""

    table: GroupTable | None = None


IDENTICAL_GROUPS = "identical groups"


def scan_and_analyse(store_path: str, folders: Sequence[str], options: ScanOptions,
                     search: SearchSettings, *, progress=None) -> Results:
    with Store(store_path) as store:
        def identical_known(found) -> None:
            """The scan's hook: the identical copies are saved; the groups of the listed
            folders go to the window before the rest is read."""
            from simgui.core.search.identical import identical_groups

            table = identical_groups(under(store.identical_files(), folders),
                                     search.references, reference_rule=search.reference_rule)
            report(progress, IdenticalGroups(IDENTICAL_GROUPS, len(table), len(table),
                                             elapsed=found.elapsed, table=table))

        rep = scan(store, folders, options, progress, on_identical=identical_known)
        return Results(**_analyse(store, folders, search, progress), scan=rep)


def act(store_path: str, plan: Plan, folders: Sequence[str], options: ScanOptions,
        search: SearchSettings, *, progress=None) -> Results:
    """Carry out ``plan``, then rescan (only changed files are read) so the view is true.

    Cancelling stops the batch between files; the rescan and analysis after it always
    run, so the result of what was done is never thrown away.
    """
    with Store(store_path) as store:
        result = execute(plan, store, progress=progress)
        rep = scan(store, folders, options, None)
        return Results(**_analyse(store, folders, search, None), scan=rep, batch=result)


def undo_last(store_path: str, folders: Sequence[str], options: ScanOptions,
              search: SearchSettings, *, progress=None) -> Results:
    with Store(store_path) as store:
        restored = undo(store, None, progress)
        rep = scan(store, folders, options, None)
        return Results(**_analyse(store, folders, search, None), scan=rep, undone=restored)


def change_ignored(store_path: str, add: Sequence[tuple[str, str]] = (),
                   remove: Sequence[tuple[str, str]] = (), *, progress=None
                   ) -> tuple[tuple[str, str], ...]:
    """Add pairs to the ignore list and take others off; the list as it is then."""
    with Store(store_path) as store:
        if add:
            ignored.ignore(store, add)
        if remove:
            ignored.unignore(store, remove)
        return tuple(ignored.ignored_pairs(store))


def compare(path_a: str, path_b: str, *, progress=None):
    """Where two files differ; anything but two regular files is refused (a FIFO would
    block the reader for ever)."""
    import stat

    from simgui.core.search.differences import compare_files

    for path in (path_a, path_b):
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise OSError(f"{path} is no longer a regular file")
    return compare_files(path_a, path_b, progress=progress)


#: The steps of :func:`warm_up`, as its progress counts them.
WARM_UP_STEPS = 4


def warm_up(*, progress=None) -> None:
    """Load (or compile, the first time on a machine) the numba kernels; ``progress``
    counts the steps done of :data:`WARM_UP_STEPS`."""
    from simgui.core.reading import fingerprints, small_files, sumtable
    from simgui.core.search import alignment, differences
    from simgui.core.search.simfind import Tolerances

    def step(done: int) -> None:
        report(progress, Progress("preparing", done, WARM_UP_STEPS))

    step(0)
    sumtable.warm_up()
    step(1)
    fingerprints.warm_up()
    # the scan's read of small files: compiled reads where this system has them (a
    # read of one file checks that they work), else one call per file
    if not small_files.compiled_reads():
        small_files.small_file(b"warm up: the one-call read of a small file")
    step(2)
    differences.warm_up()
    alignment.warm_up()  # the details' Text and Hex previews
    step(3)
    n = 4
    tables = np.arange(n * 16, dtype=np.int64).reshape(n, 16) * 100
    # with fingerprints, as a scan stores them: the default search confirms by content
    signatures = np.arange(n * 128, dtype=np.uint32).reshape(n, 128) // 3
    files = StoredFiles(ids=np.arange(n), paths=[f"/w/{i}" for i in range(n)],
                        sizes=tables.sum(axis=1), mtimes_ns=np.zeros(n, np.int64),
                        devices=np.zeros(n, np.int64), inodes=np.arange(n), tables=tables,
                        hashes=[bytes(16)] * n, extensions=[""] * n,
                        simhashes=np.arange(n, dtype=np.uint64), signatures=signatures,
                        fingerprinted=np.ones(n, np.bool_))
    Analysis.build(files).groups(Tolerances())
    step(WARM_UP_STEPS)
