"""``simgui cluster scan``: the walk split into Dask tasks, each reading its files with
the local scan's own read and writing one Parquet part.

A worker looks at the top of each folder named (breadth first, a few levels, until
there are enough tasks for the cluster; the client need not see the files): each
folder below becomes a task that walks its whole subtree with the local scan's walker
(same exclusions, links, special files, hard links), and the files lying directly in
an expanded folder become tasks of file lists (so one huge flat folder is spread too).
Each task reads every new or changed file once with :func:`simgui.core.reading.scanner.read_file`
(sum table, content hash, simhash and MinHash in one pass), keeps the rows of files
unchanged since the previous dataset (same size, mtime, device, inode, read without
error), and writes its part.  A file that fails is a row with its error, as the local
scan stores it.  Dask retries a task whose worker was lost; the dataset switches to
the new generation only when every task is done.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pyarrow.parquet as pq

from simgui.cluster.dataset import Dataset, Generation, records_table, table_records
from simgui.core.reading.scanner import (
    _BATCH_FILES, LINKED_FILE, VANISHED, ScanOptions, _read_small, _Walker, _why, read_file,
)
from simgui.core.store import FileRecord
from simgui.core.tags import validate_tags

FILES_PER_TASK = 2000  # files of one folder's own file list per task
TASKS_PER_WORKER = 8  # the walk is split until there are this many tasks per worker ...
MAX_SPLIT_DEPTH = 4  # ... or this many levels below a root were expanded
TASK_RETRIES = 2  # a task whose worker dies is run again (Dask)


@dataclass(frozen=True)
class Task:
    """One unit of the walk: a subtree to walk whole, or a list of files."""

    number: int
    subtree: str | None = None
    files: tuple[str, ...] = ()


@dataclass
class TaskReport:
    files_found: int = 0
    files_read: int = 0
    files_unchanged: int = 0
    bytes_found: int = 0
    bytes_read: int = 0
    hard_links: int = 0
    issues: list[tuple[str, str, str]] = field(default_factory=list)
    #: (device, inode, path, part) of each file kept that has other names: another task
    #: may have kept one of those (see _one_name_per_file)
    linked: list[tuple[int, int, str, str]] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for _, kind, _ in self.issues if kind == "error")

    @property
    def skipped(self) -> int:
        return sum(1 for _, kind, _ in self.issues if kind == "skipped")

    def add(self, other: TaskReport) -> None:
        for name in ("files_found", "files_read", "files_unchanged", "bytes_found",
                     "bytes_read", "hard_links"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.issues.extend(other.issues)
        self.linked.extend(other.linked)


@dataclass
class ClusterScanReport(TaskReport):
    tasks: int = 0
    elapsed: float = 0.0
    dataset: Dataset | None = None


def plan(roots: Sequence[str], options: ScanOptions, want_tasks: int,
         issue: Callable[[str, str, str], None]) -> list[Task]:
    """Split the walk of ``roots`` into tasks (see the module docstring)."""
    tasks: list[Task] = []
    frontier: list[tuple[str, int]] = []

    def add_files(files: list[str]) -> None:
        for start in range(0, len(files), FILES_PER_TASK):
            tasks.append(Task(len(tasks), files=tuple(files[start:start + FILES_PER_TASK])))

    for root in roots:
        try:
            st = os.stat(root) if options.follow_symlinks else os.lstat(root)
        except OSError as exc:
            issue(root, "error", _why(exc))
            continue
        if stat.S_ISDIR(st.st_mode):
            frontier.append((root, 0))
        else:  # a file or a link named by the user: the walker says what it makes of it
            tasks.append(Task(len(tasks), subtree=root))
    while frontier and len(tasks) + len(frontier) < want_tasks:
        folder, depth = frontier.pop(0)
        if depth >= MAX_SPLIT_DEPTH:
            frontier.append((folder, depth))
            break
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            tasks.append(Task(len(tasks), subtree=folder))  # its walker records why
            continue
        files = []
        for entry in entries:
            if options.excluded(entry.name, entry.path):
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=options.follow_symlinks)
            except OSError:
                is_dir = False
            if is_dir:
                frontier.append((entry.path, depth + 1))
            else:
                files.append(entry.path)  # the task decides on links and special files
        add_files(files)
    for folder, _ in frontier:
        tasks.append(Task(len(tasks), subtree=folder))
    return tasks


class _LinkWalker(_Walker):
    """The local scan's walker, noting the files it keeps that have more names."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.linked: dict[str, tuple[int, int]] = {}

    def _file(self, path, st):
        found = super()._file(path, st)
        if found is not None and st.st_nlink > 1:
            self.linked[path] = (st.st_dev, st.st_ino)
        return found


def _plan_task(roots, options, want_tasks) -> tuple[list[Task], list[tuple[str, str, str]]]:
    issues: list[tuple[str, str, str]] = []
    tasks = plan(roots, options, want_tasks, lambda *i: issues.append(i))
    return tasks, issues


def run_task(task: Task, options: ScanOptions, part_path: str,
             previous_folder: str | None) -> TaskReport:
    """On a worker: walk the task's files, read the new and changed ones, write the part."""
    rep = TaskReport()

    def issue(path: str, kind: str, message: str) -> None:
        rep.issues.append((path, kind, message))

    walker = _LinkWalker(options, issue)
    if task.subtree is not None:
        found = list(walker.walk(task.subtree))
    else:
        found = []
        for path in task.files:
            name = os.path.basename(path)
            try:
                link = os.path.islink(path)
                if link and not options.follow_symlinks:
                    continue  # as the walker does inside a folder
                st = os.stat(path) if link else os.lstat(path)
            except FileNotFoundError:
                if link:
                    issue(path, "skipped", "broken symbolic link")
                continue
            except OSError as exc:
                issue(path, "error", _why(exc))
                continue
            if stat.S_ISDIR(st.st_mode):  # became a folder since the plan
                found.extend(walker.walk(path))
            elif link:  # as the walker does inside a folder
                issue(path, "skipped", LINKED_FILE)
            elif not options.excluded(name, path):
                one = walker._file(path, st)
                if one:
                    found.append(one)
    known = {}
    if previous_folder is not None:
        previous = Dataset.open(previous_folder, missing_ok=True)
        if previous.parts and tuple(previous.tags) == tuple(validate_tags(options.tags)):
            encoded = [os.fsencode(f.path) for f in found]
            table = (previous.read(under=[os.fsencode(task.subtree)])
                     if task.subtree is not None else previous.read(paths=encoded))
            known = {r.path: r for r in table_records(table)}
    records: list[FileRecord] = []
    unchanged: dict[int, FileRecord] = {}
    for i, f in enumerate(found):
        rep.files_found += 1
        rep.bytes_found += f.size
        old = known.get(os.fsencode(f.path))
        if (old is not None and old.error is None
                and (old.minhash is not None or not options.fingerprints)
                and (old.size, old.mtime_ns, old.device, old.inode)
                == (f.size, f.mtime_ns, f.device, f.inode)):
            unchanged[i] = old
    # the small files to read, a batch at a time in one compiled call, as the local scan
    # reads them (what a call does not vouch for is read one by one below)
    quick: dict[int, FileRecord] = {}
    if options.fingerprints:
        to_read = [i for i in range(len(found)) if i not in unchanged]
        for start in range(0, len(to_read), _BATCH_FILES):
            part = to_read[start:start + _BATCH_FILES]
            for i, record in zip(part, _read_small([found[i] for i in part], options.tags)):
                if record is not None:
                    quick[i] = record
    for i, f in enumerate(found):
        if i in unchanged:
            rep.files_unchanged += 1
            records.append(unchanged[i])
            continue
        record = quick.get(i) or read_file(f.path, options.tags,
                                           fingerprints=options.fingerprints)
        if record.error is None:
            rep.files_read += 1
            rep.bytes_read += record.size
            records.append(record)
            continue
        issue(f.path, "error", record.error)
        if record.error == VANISHED:
            continue
        if not record.device:  # never opened: keep what the walk saw
            record = dataclasses.replace(record, size=f.size, mtime_ns=f.mtime_ns,
                                         device=f.device, inode=f.inode)
        records.append(record)
    rep.hard_links = walker.hard_links
    kept = {os.fsdecode(r.path) for r in records}
    rep.linked = [(*ident, path, part_path) for path, ident in walker.linked.items()
                  if path in kept]
    if records:
        temporary = part_path + ".writing"
        pq.write_table(records_table(records), temporary)
        os.replace(temporary, part_path)  # a retried task replaces its part whole
    return rep


def _one_name_per_file(rep: TaskReport) -> None:
    """A file with names in several tasks' subtrees is kept once, as the local scan keeps
    one name of a file: under its first name in path order (the others are dropped
    from their parts and counted as hard links)."""
    names: dict[tuple[int, int], list[tuple[bytes, str]]] = {}
    for device, inode, path, part in rep.linked:
        names.setdefault((device, inode), []).append((os.fsencode(path), part))
    drop: dict[str, set[bytes]] = {}
    for found in names.values():
        for path, part in sorted(found)[1:]:
            drop.setdefault(part, set()).add(path)
    for part, paths in drop.items():
        table = pq.read_table(part)
        keep = [p not in paths for p in table.column("path").to_pylist()]
        temporary = part + ".writing"
        pq.write_table(table.filter(keep), temporary)
        os.replace(temporary, part)
        rep.files_found -= len(paths)
        rep.hard_links += len(paths)


def _roots_seen(roots: Sequence[str]) -> list[str]:
    return [r for r in roots if not os.path.lexists(r)]


def scan(client, roots: Sequence[str], out: str, options: ScanOptions = ScanOptions(
        fingerprints=True), progress: Callable[[int, int, TaskReport], None] | None = None
         ) -> ClusterScanReport:
    """Scan ``roots`` on the cluster of ``client`` into the dataset folder ``out``.

    Every worker must see the roots under the same paths: a worker that cannot is
    named in the ValueError raised before anything is read.
    """
    from distributed import as_completed

    started = time.monotonic()
    roots = list(dict.fromkeys(os.path.abspath(os.fsdecode(os.fspath(r))) for r in roots))
    tags = validate_tags(options.tags)
    blind = {w: missing for w, missing in client.run(_roots_seen, roots).items() if missing}
    if blind:
        worker, missing = sorted(blind.items())[0]
        raise ValueError(f"worker {worker} cannot see {missing[0]} (every worker must "
                         f"mount the scanned folders under the same paths)"
                         + (f"; {len(blind) - 1} more workers cannot either"
                            if len(blind) > 1 else ""))
    rep = ClusterScanReport()
    # the dataset changes while we scan (as the local scan's store does): never read it
    options = dataclasses.replace(options, excludes=(*options.excludes,
                                                     glob.escape(os.path.abspath(out))))

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    # planned on a worker: the client need not see the files
    tasks, issues = client.submit(_plan_task, roots, options, workers * TASKS_PER_WORKER,
                                  pure=False).result()
    rep.issues.extend(issues)
    rep.tasks = len(tasks)
    generation = Generation(out)
    previous = generation.previous.folder if generation.previous.generation else None
    try:
        futures = [client.submit(run_task, t, options, generation.part_path(t.number),
                                 previous, key=f"simgui-scan-{generation.name}-{t.number}",
                                 retries=TASK_RETRIES, pure=False) for t in tasks]
        done = 0
        for future in as_completed(futures):
            rep.add(future.result())
            done += 1
            future.release()
            if progress is not None:
                progress(done, len(tasks), rep)
        _one_name_per_file(rep)
        rep.dataset = generation.commit(roots, tags, options.fingerprints, rep.issues)
    except BaseException:
        generation.abandon()
        raise
    rep.elapsed = time.monotonic() - started
    return rep
