"""Scanning folders into the store: walk, read each changed file once, save.

The walk uses ``os.scandir`` and never follows a symlink unless asked, never
into a loop, never opens anything but a regular file.  Reading runs on a pool
of threads (the sum-table kernel and file reads release the GIL); one pass
computes the sum table and an xxh3-128 content hash (and, when asked, the
simhash and MinHash fingerprints).  Only the calling thread
writes to the store, in batches, each batch one transaction, so a cancelled
or killed scan leaves a consistent store and the next scan picks up where it
stopped: a file whose (device, inode, size, mtime_ns) is unchanged is never
read again.
"""

from __future__ import annotations

import dataclasses
import errno
import fnmatch
import os
import stat
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import xxhash

from simgui.core.reading.fingerprints import FingerprintBuilder
from simgui.core.reading.names import (  # noqa: F401  (exclude_pattern: re-exported)
    REGEX_PREFIX, _regex, exclude_pattern, extension_of,
)
from simgui.core.reading.pictures import PictureUnreadable, picture_extensions, read_picture
from simgui.core.progress import Cancelled, Progress, ProgressCallback, report
from simgui.core.store import FileRecord, Store
from simgui.core.reading.sumtable import SumTableBuilder
from simgui.core.tags import DEFAULT_TAGS, validate_tags

_READ_SIZE = 1 << 20
_SAVE_EVERY_FILES = 500
_SAVE_EVERY_SECONDS = 1.0
_PROGRESS_EVERY_SECONDS = 0.1
_BATCH_FILES = 64  # files a reader task takes at once ...
_BATCH_BYTES = 8 << 20  # ... or this many bytes, whichever comes first


@dataclass(frozen=True)
class ScanOptions:
    """What to scan and how."""

    excludes: Sequence[str] = ()  # glob patterns, matched against names and full paths
    min_size: int = 0  # smaller files are left out
    follow_symlinks: bool = False
    tags: Sequence[int] = DEFAULT_TAGS
    workers: int = 0  # 0: one per CPU core
    # the simhash and MinHash fingerprints too, in the same read: the content check that
    # confirms similar files needs them, so they are on by default (files stored without
    # them, by simgui 0.1 or with this off, are read again once)
    fingerprints: bool = True

    def __post_init__(self):
        for pattern in self.excludes:
            exclude_pattern(pattern)

    def excluded(self, name: str, path: str) -> bool:
        """Whether a glob of ``excludes`` matches the name or the path, or a regular
        expression (``re:...``) is found in the path."""
        for p in self.excludes:
            if p.startswith(REGEX_PREFIX):
                if _regex(p[len(REGEX_PREFIX):]).search(path):
                    return True
            elif fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(path, p):
                return True
        return False


@dataclass
class ScanReport:
    """What a scan did; ``issues`` lists (path, kind, message) of this scan."""

    scan_id: int
    files_found: int = 0
    files_read: int = 0
    files_unchanged: int = 0
    files_forgotten: int = 0
    #: unchanged files read again only because they were stored without fingerprints
    files_fingerprinted: int = 0
    bytes_found: int = 0
    bytes_read: int = 0
    hard_links: int = 0
    elapsed: float = 0.0
    status: str = "running"
    issues: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for _, kind, _ in self.issues if kind == "error")

    @property
    def skipped(self) -> int:
        return sum(1 for _, kind, _ in self.issues if kind == "skipped")


@dataclass(frozen=True)
class _Found:
    path: str
    size: int
    mtime_ns: int
    device: int
    inode: int


class _Walker:
    """Depth-first walk yielding regular files; records what it skips and why."""

    def __init__(self, options: ScanOptions, issue, ignore: set[str] = frozenset()):
        self.options = options
        self.issue = issue  # callable(path, kind, message)
        self.ignore = ignore  # paths never to yield
        self.visited_dirs: set[tuple[int, int]] = set()
        self.seen_inodes: set[tuple[int, int]] = set()
        self.hard_links = 0

    def walk(self, root: str) -> Iterable[_Found]:
        try:
            st = os.stat(root) if self.options.follow_symlinks else os.lstat(root)
        except OSError as exc:
            self.issue(root, "error", _why(exc))
            return
        if stat.S_ISDIR(st.st_mode):
            yield from self._walk_dir(root, st)
        elif stat.S_ISLNK(st.st_mode):
            # named by the user, so an error (the scan reads nothing of it), and the
            # message says what to scan instead
            self.issue(root, "error", f"symbolic link to {os.path.realpath(root)}, not "
                       "followed: scan that instead, or follow links (--follow-symlinks)")
        else:
            found = self._file(root, st)
            if found:
                yield found

    def _walk_dir(self, root: str, root_stat: os.stat_result) -> Iterable[_Found]:
        stack = [(root, root_stat)]
        while stack:
            folder, st = stack.pop()
            ident = (st.st_dev, st.st_ino)
            if ident in self.visited_dirs:
                if self.options.follow_symlinks:
                    self.issue(folder, "skipped", "folder already scanned (link loop or repeat)")
                continue
            self.visited_dirs.add(ident)
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                self.issue(folder, "error", _why(exc))
                continue
            subfolders = []
            for entry in entries:
                if self.options.excluded(entry.name, entry.path):
                    continue
                try:
                    link = entry.is_symlink()
                    if link and not self.options.follow_symlinks:
                        continue
                    st = os.stat(entry.path) if link else entry.stat(follow_symlinks=False)
                except FileNotFoundError:
                    if link:
                        self.issue(entry.path, "skipped", "broken symbolic link")
                    continue  # else it vanished during the walk: nothing to scan
                except OSError as exc:
                    # a link that leads nowhere, round in a circle, is no more an error
                    # than one that leads to nothing
                    loop = link and exc.errno == errno.ELOOP
                    self.issue(entry.path, "skipped" if loop else "error", _why(exc))
                    continue
                if stat.S_ISDIR(st.st_mode):
                    subfolders.append((entry.path, st))
                else:
                    found = self._file(entry.path, st)
                    if found:
                        yield found
            stack.extend(reversed(subfolders))  # visit in name order

    def _file(self, path: str, st: os.stat_result) -> _Found | None:
        if path in self.ignore:
            return None
        if not stat.S_ISREG(st.st_mode):
            self.issue(path, "skipped", f"not a regular file ({_kind(st.st_mode)})")
            return None
        if st.st_size < self.options.min_size:
            return None
        ident = (st.st_dev, st.st_ino)
        if ident in self.seen_inodes:
            self.hard_links += 1  # the same file under another name: scanned once
            return None
        self.seen_inodes.add(ident)
        return _Found(path, st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino)


def read_file(path: str, tags: Sequence[int] = DEFAULT_TAGS, *,
              fingerprints: bool = True) -> FileRecord:
    """Read one file once: sum table, content hash (and with ``fingerprints`` the
    simhash and MinHash signature), or the reason it failed.

    Never opens anything but a regular file, and refuses a result if the file
    changed while it was read.
    """
    encoded = os.fsencode(path)
    ext = extension_of(path)
    try:
        # O_NONBLOCK: if a FIFO was put in the file's place since the walk,
        # opening it must not hang; fstat then rejects it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return _failed(encoded, ext, _why(exc))
    try:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            return _failed(encoded, ext, f"not a regular file ({_kind(before.st_mode)})",
                           before)
        builder = SumTableBuilder(tags)
        hasher = xxhash.xxh3_128()
        printer = FingerprintBuilder() if fingerprints else None
        # one byte past the size tells a growing file; a file that grows
        # forever (a busy log) must not keep the scan reading it forever
        budget = before.st_size + 1
        buf = bytearray(min(_READ_SIZE, budget))
        view = memoryview(buf)
        with os.fdopen(fd, "rb", buffering=0, closefd=False) as f:
            while budget > 0 and (n := f.readinto(view[:min(len(buf), budget)])):
                builder.update(view[:n])
                hasher.update(view[:n])
                if printer is not None:
                    printer.update(view[:n])
                budget -= n
        after = os.fstat(fd)
    except OSError as exc:
        return _failed(encoded, ext, _why(exc))
    finally:
        os.close(fd)
    if (after.st_size != before.st_size or after.st_mtime_ns != before.st_mtime_ns
            or builder.bytes_seen != after.st_size):
        return _failed(encoded, ext, "changed while being read", after)
    simhash, minhash = printer.result() if printer is not None else (None, None)
    return FileRecord(encoded, after.st_size, after.st_mtime_ns, after.st_dev, after.st_ino,
                      ext, builder.result(), hasher.digest(), simhash=simhash, minhash=minhash,
                      **_picture_of(path, ext))


def _picture_of(path: str, ext: str) -> dict:
    """A picture's FileRecord fields (simgui.core.reading.pictures): its hash, size and
    format, or why it did not decode; none for a file not named as a picture (an
    extension test, so other files cost nothing more).  Pillow reads the file again
    (from the page cache: read_file has just read it)."""
    if ext not in picture_extensions():
        return {}
    try:
        picture = read_picture(path, ext)
    except PictureUnreadable as exc:
        return {"picture_error": str(exc)}
    return {"picture_hash": picture.hash, "picture_width": picture.width,
            "picture_height": picture.height, "picture_format": picture.format}


def _failed(path: bytes, ext: str, why: str, st: os.stat_result | None = None) -> FileRecord:
    if st is None:
        return FileRecord(path, 0, 0, 0, 0, ext, None, None, why)
    return FileRecord(path, st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino, ext, None, None,
                      why)


def scan(store: Store, roots: Iterable[str | os.PathLike], options: ScanOptions = ScanOptions(),
         progress: ProgressCallback | None = None) -> ScanReport:
    """Scan ``roots`` into ``store``; returns a report.

    Raises :class:`Cancelled` when ``progress`` returns False (or on
    KeyboardInterrupt), after saving what was read so far.
    """
    tags = validate_tags(options.tags)
    roots = _normalise_roots(roots)
    tagset_id = store.tagset_id(tags)
    started = time.monotonic()
    scan_id = store.begin_scan(roots)
    rep = ScanReport(scan_id)
    issues_to_save: list[tuple[bytes, str, str]] = []

    def issue(path: str, kind: str, message: str) -> None:
        rep.issues.append((path, kind, message))
        issues_to_save.append((os.fsencode(path), kind, message))

    def elapsed() -> float:
        return time.monotonic() - started

    # the store's own files change while we scan: never read them
    store_files = {str(store.path.absolute()) + suffix
                   for suffix in ("", "-wal", "-shm", "-journal")}
    walker = _Walker(options, issue, ignore=store_files)
    try:
        # 1. walk, and decide what needs reading
        known = store.known_files([os.fsencode(r) for r in roots])
        seen: set[bytes] = set()
        to_read: list[_Found] = []
        last_report = 0.0
        for root in roots:
            for found in walker.walk(root):
                encoded = os.fsencode(found.path)
                seen.add(encoded)
                rep.files_found += 1
                rep.bytes_found += found.size
                old = known.get(encoded)
                same = (old is not None and old.ok and old.tagset_id == tagset_id
                        and (old.size, old.mtime_ns, old.device, old.inode)
                        == (found.size, found.mtime_ns, found.device, found.inode))
                if (same and (old.fingerprinted or not options.fingerprints)
                        and (old.pictured  # pictures stored before their hashes: read again
                             or extension_of(found.path) not in picture_extensions())):
                    rep.files_unchanged += 1
                else:
                    rep.files_fingerprinted += same
                    to_read.append(found)
                if elapsed() - last_report >= _PROGRESS_EVERY_SECONDS:
                    last_report = elapsed()
                    report(progress, Progress("walking", rep.files_found, None, 0, None,
                                              elapsed(), found.path))

        # 2. read changed and new files on the pool; save in batches on this thread
        _read_all(store, to_read, tags, tagset_id, options, rep, issue, issues_to_save,
                  progress, started, seen)

        # 3. forget files that are gone (only after a complete walk and read)
        gone = [k.id for path, k in known.items() if path not in seen]
        rep.files_forgotten = store.forget_files(gone)
        rep.status = "completed"
    except (Cancelled, KeyboardInterrupt):
        rep.status = "cancelled"
        raise Cancelled() from None
    except BaseException:
        rep.status = "failed"
        raise
    finally:
        rep.hard_links = walker.hard_links
        rep.elapsed = elapsed()
        try:
            store.add_issues(scan_id, issues_to_save)
        finally:
            store.finish_scan(scan_id, rep.status, files_read=rep.files_read,
                              files_unchanged=rep.files_unchanged, bytes_read=rep.bytes_read,
                              errors=rep.errors, skipped=rep.skipped)
    report(progress, Progress("done", rep.files_found, rep.files_found, rep.bytes_read,
                              rep.bytes_read, rep.elapsed))
    return rep


def _read_all(store, to_read, tags, tagset_id, options, rep, issue, issues_to_save, progress,
              started, seen) -> None:
    total_bytes = sum(f.size for f in to_read)
    workers = options.workers or os.cpu_count() or 1
    pending: list[FileRecord] = []
    last_save = last_report = time.monotonic()
    stop = threading.Event()

    def work(batch: list[_Found]) -> list[tuple[_Found, FileRecord]]:
        done = []
        for found in batch:
            if stop.is_set():
                break  # cancelled: hand back what is read
            done.append((found, read_file(found.path, tags,
                                          fingerprints=options.fingerprints)))
        return done

    def accept(found: _Found, record: FileRecord) -> None:
        if record.error is None:
            rep.files_read += 1
            rep.bytes_read += record.size
            pending.append(record)
            if record.picture_error is not None:
                # its bytes were read (its copies are found): said, not counted unreadable
                issue(found.path, "picture", record.picture_error)
            return
        issue(found.path, "error", record.error)
        if record.error == VANISHED:
            seen.discard(record.path)  # forgotten like any other file now gone
            return
        if not record.device:  # never opened: keep what the walk saw
            record = dataclasses.replace(record, size=found.size, mtime_ns=found.mtime_ns,
                                         device=found.device, inode=found.inode)
        pending.append(record)

    def save() -> None:
        nonlocal last_save
        if pending:
            store.save_files(pending, tagset_id, rep.scan_id)
            pending.clear()
        if issues_to_save:
            store.add_issues(rep.scan_id, issues_to_save)
            issues_to_save.clear()
        last_save = time.monotonic()

    queue = iter(_batches(to_read))
    in_flight: set[Future] = set()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="simgui-read") as pool:
        try:
            while True:
                while len(in_flight) < workers * 4:
                    found = next(queue, None)
                    if found is None:
                        break
                    in_flight.add(pool.submit(work, found))
                if not in_flight:
                    break
                done, in_flight = wait(in_flight, timeout=_PROGRESS_EVERY_SECONDS,
                                       return_when=FIRST_COMPLETED)
                current = ""
                for future in done:
                    for found, record in future.result():
                        current = found.path
                        accept(found, record)
                now = time.monotonic()
                if len(pending) >= _SAVE_EVERY_FILES or now - last_save >= _SAVE_EVERY_SECONDS:
                    save()
                if now - last_report >= _PROGRESS_EVERY_SECONDS or not in_flight:
                    last_report = now
                    report(progress, Progress("reading", rep.files_read + rep.errors,
                                              len(to_read), rep.bytes_read, total_bytes,
                                              now - started, current))
        except BaseException as exc:
            stop.set()
            for future in in_flight:
                future.cancel()
            if not isinstance(exc, (Cancelled, KeyboardInterrupt)):
                raise  # the store may be what failed: leave it as its last commit left it
            # cancelled: keep what finished; it is consistent and spares the next scan the work
            for future in in_flight:
                if not future.cancelled():
                    try:
                        for found, record in future.result():
                            accept(found, record)
                    except BaseException:
                        continue
            save()
            raise
        save()


def _batches(files: list[_Found]):
    """Files in small batches: one task per file made the GIL-bound bookkeeping,
    not the GIL-free reading, the bottleneck on trees of small files."""
    batch: list[_Found] = []
    size = 0
    for found in files:
        batch.append(found)
        size += found.size
        if len(batch) >= _BATCH_FILES or size >= _BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _normalise_roots(roots: Iterable[str | os.PathLike]) -> list[str]:
    result: list[str] = []
    for root in roots:
        path = os.path.abspath(os.fsdecode(os.fspath(root)))
        if path not in result:
            result.append(path)
    return result


VANISHED = "vanished before it could be read"


def _why(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return VANISHED
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.ELOOP:
        # opening with O_NOFOLLOW refuses any link with ELOOP: only a link that
        # cannot be followed for going round in a circle is a loop
        if exc.filename is not None:
            try:
                os.stat(exc.filename)
            except FileNotFoundError:
                return "symbolic link to a missing file"
            except OSError:
                pass
            else:
                return "symbolic link (not followed)"
        return "symbolic link loop"
    return exc.strerror or str(exc)


_KINDS = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"),
          (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
          (stat.S_ISLNK, "symbolic link"), (stat.S_ISDIR, "folder"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "special file")
