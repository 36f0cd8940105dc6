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
import functools
import itertools
import operator
import os
import stat
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import NamedTuple

import xxhash

from simgui.core.reading import identical as identical_stage
from simgui.core.reading.file_reads import OPEN_FLAGS, identity_fits, read_chunks
from simgui.core.reading.names import (  # noqa: F401  (exclude_pattern: re-exported)
    REGEX_PREFIX, _regex, exclude_pattern, extension_of,
)
from simgui.core.memory import pause_collector
from simgui.core.progress import Cancelled, Progress, ProgressCallback, report
from simgui.core.store import FileRecord, Store
from simgui.core.tags import DEFAULT_TAGS, validate_tags

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
    #: what the identical stage found (simgui.core.reading.identical), once it is done
    identical: identical_stage.IdenticalFound | None = None

    @property
    def errors(self) -> int:
        return sum(1 for _, kind, _ in self.issues if kind == "error")

    @property
    def skipped(self) -> int:
        return sum(1 for _, kind, _ in self.issues if kind == "skipped")


class _Found(NamedTuple):
    """A regular file as the walk saw it (a tuple: a rescan makes one per file)."""

    path: str
    size: int
    mtime_ns: int
    device: int
    inode: int


_BY_NAME = operator.attrgetter("name")
#: _Found from a tuple of its fields, made in C (its own __new__ is a Python call)
_found = functools.partial(tuple.__new__, _Found)


#: Why a followed link to a file is not read: a file is scanned where it lies, so its
#: path in the store is its own (a link's path would be read and cleaned up through a
#: link the program did not make, and its real path may lie outside every scanned
#: folder, where a rescan could never tell it is gone)
LINKED_FILE = "symbolic link to a file: scanned where it lies, not through the link"


class _Walker:
    """Depth-first walk yielding regular files; records what it skips and why.

    A rescan of an unchanged tree is mostly this walk, so its loop does per entry only
    what it must: the name sort, the exclusion test and the test for links take no call
    into Python when there is nothing to exclude and links are not followed."""

    def __init__(self, options: ScanOptions, issue, ignore: set[str] = frozenset()):
        self.options = options
        self.issue = issue  # callable(path, kind, message)
        self.ignore = ignore  # paths never to yield
        self.visited_dirs: set[tuple[int, int]] = set()
        self.seen_inodes: set[tuple[int, int]] = set()
        self.hard_links = 0
        #: folders reached through a link (with follow_symlinks): walked after every
        #: real folder, so that a folder is stored by its own path where the walk meets
        #: it, and through a link only where nothing else leads to it
        self.linked: list[tuple[str, os.stat_result]] = []

    def walk(self, root: str) -> Iterable[_Found]:
        """The files of ``root`` (see :meth:`walk_all`)."""
        return self.walk_all([root])

    def walk_all(self, roots: Iterable[str]) -> Iterable[_Found]:
        """Every root's files, then those of the folders reached through links alone."""
        for root in roots:
            yield from self._walk_root(root)
        while self.linked:
            folder, st = self.linked.pop(0)
            yield from self._walk_dir(folder, st)

    def _walk_root(self, root: str) -> Iterable[_Found]:
        try:
            st = os.stat(root) if self.options.follow_symlinks else os.lstat(root)
        except OSError as exc:
            self.issue(root, "error", _why(exc))
            return
        if stat.S_ISDIR(st.st_mode):
            yield from self._walk_dir(root, st)
        elif os.path.islink(root):
            # named by the user, so an error (the scan reads nothing of it), and the
            # message says what to scan instead (links to folders can be followed; a link
            # to a file never is, see LINKED_FILE)
            folder = stat.S_ISLNK(st.st_mode) and os.path.isdir(root)
            self.issue(root, "error", f"symbolic link to {os.path.realpath(root)}, not "
                       "followed: scan that instead" + (", or follow links "
                                                        "(--follow-symlinks)" if folder else ""))
        else:
            found = self._file(root, st)
            if found:
                yield found

    def _walk_dir(self, root: str, root_stat: os.stat_result) -> Iterable[_Found]:
        follow = self.options.follow_symlinks
        excluded = self.options.excluded if self.options.excludes else None
        visited, issue, file = self.visited_dirs, self.issue, self._file
        is_dir = stat.S_ISDIR
        stack = [(root, root_stat)]
        while stack:
            folder, st = stack.pop()
            ident = (st.st_dev, st.st_ino)
            if ident in visited:
                if follow:
                    issue(folder, "skipped", "folder already scanned (link loop or repeat)")
                continue
            visited.add(ident)
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=_BY_NAME)
            except OSError as exc:
                issue(folder, "error", _why(exc))
                continue
            subfolders = []
            for entry in entries:
                if excluded is not None and excluded(entry.name, entry.path):
                    continue
                link = False
                try:
                    if entry.is_symlink():
                        if not follow:
                            continue
                        link = True
                        st = os.stat(entry.path)
                    else:
                        st = entry.stat(follow_symlinks=False)
                except FileNotFoundError:
                    if link:
                        issue(entry.path, "skipped", "broken symbolic link")
                    continue  # else it vanished during the walk: nothing to scan
                except OSError as exc:
                    # a link that leads nowhere, round in a circle, is no more an error
                    # than one that leads to nothing
                    loop = link and exc.errno == errno.ELOOP
                    issue(entry.path, "skipped" if loop else "error", _why(exc))
                    continue
                if is_dir(st.st_mode):
                    if link:
                        self.linked.append((entry.path, st))  # after the real folders
                    else:
                        subfolders.append((entry.path, st))
                elif link:
                    issue(entry.path, "skipped", LINKED_FILE)
                else:
                    found = file(entry.path, st)
                    if found:
                        yield found
            stack.extend(reversed(subfolders))  # visit in name order

    def _file(self, path: str, st: os.stat_result) -> _Found | None:
        if path in self.ignore:
            return None
        if not stat.S_ISREG(st.st_mode):
            self.issue(path, "skipped", f"not a regular file ({_kind(st.st_mode)})")
            return None
        size = st.st_size
        if size < self.options.min_size:
            return None
        ident = (device, inode) = (st.st_dev, st.st_ino)
        seen = self.seen_inodes
        if ident in seen:
            self.hard_links += 1  # the same file under another name: scanned once
            return None
        seen.add(ident)
        return _found((path, size, st.st_mtime_ns, device, inode))


def read_file(path: str, tags: Sequence[int] = DEFAULT_TAGS, *,
              fingerprints: bool = True) -> FileRecord:
    """Read one file once: sum table, content hash (and with ``fingerprints`` the
    simhash and MinHash signature), or the reason it failed.

    Never opens anything but a regular file, and refuses a result if the file
    changed while it was read.
    """
    # the kernels (numba) load with the first file read, not with the scanner: a rescan
    # that reads nothing and 'scan --identical-only' start without them
    from simgui.core.reading.fingerprints import FingerprintBuilder
    from simgui.core.reading.small_files import SMALL, small_file
    from simgui.core.reading.sumtable import SumTableBuilder

    encoded = os.fsencode(path)
    ext = extension_of(path)
    try:
        # O_NONBLOCK: if a FIFO was put in the file's place since the walk,
        # opening it must not hang; fstat then rejects it.
        fd = os.open(path, OPEN_FLAGS)
    except OSError as exc:
        return _failed(encoded, ext, _why(exc))
    try:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            return _failed(encoded, ext, f"not a regular file ({_kind(before.st_mode)})",
                           before)
        if before.st_size <= SMALL and fingerprints:
            # read whole (one byte past the size tells a growing file) and done in one
            # kernel call: most files are small, and for them the calls were the cost
            data = os.read(fd, before.st_size + 1)
            while len(data) <= before.st_size and (more := os.read(fd, before.st_size + 1
                                                                   - len(data))):
                data += more  # a short read (a network file system may give one)
            after = os.fstat(fd)
            if (after.st_size != before.st_size or after.st_mtime_ns != before.st_mtime_ns
                    or len(data) != after.st_size):
                return _failed(encoded, ext, "changed while being read", after)
            table, simhash, minhash = small_file(data, tags)
            return FileRecord(encoded, after.st_size, after.st_mtime_ns, after.st_dev,
                              after.st_ino, ext, table, xxhash.xxh3_128_digest(data),
                              simhash=simhash, minhash=minhash, **_picture_of(path, ext))
        builder = SumTableBuilder(tags)
        hasher = xxhash.xxh3_128()
        printer = FingerprintBuilder() if fingerprints else None
        for chunk in read_chunks(fd, before.st_size):
            builder.update(chunk)
            hasher.update(chunk)
            if printer is not None:
                printer.update(chunk)
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


@functools.cache
def _pictures():
    """simgui.core.reading.pictures, imported on first use: it loads numpy, which
    ``scan --identical-only`` does without (and an import statement in the per-file
    path below cost 0.6 us a file)."""
    from simgui.core.reading import pictures

    return pictures


def _picture_of(path: str, ext: str) -> dict:
    """A picture's FileRecord fields (simgui.core.reading.pictures): its hash, size and
    format, or why it did not decode; none for a file not named as a picture (an
    extension test, so other files cost nothing more).  Pillow reads the file again
    (from the page cache: read_file has just read it)."""
    pictures = _pictures()
    if ext not in pictures.picture_extensions():
        return {}
    try:
        picture = pictures.read_picture(path, ext)
    except pictures.PictureUnreadable as exc:
        return {"picture_error": str(exc)}
    return {"picture_hash": picture.hash, "picture_width": picture.width,
            "picture_height": picture.height, "picture_format": picture.format}


def _failed(path: bytes, ext: str, why: str, st: os.stat_result | None = None) -> FileRecord:
    if st is None:
        return FileRecord(path, 0, 0, 0, 0, ext, None, None, why)
    return FileRecord(path, st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino, ext, None, None,
                      why)


def scan(store: Store, roots: Iterable[str | os.PathLike], options: ScanOptions = ScanOptions(),
         progress: ProgressCallback | None = None, *, identical_only: bool = False,
         on_identical: identical_stage.IdenticalHook | None = None) -> ScanReport:
    """Scan ``roots`` into ``store``; returns a report.

    Identical copies first (simgui.core.reading.identical): the files that share a size
    with another and whose hash the store lacks are read before the rest (progress
    phase "identical copies"), then ``on_identical`` is called on this thread with the
    sets of identical files, saved by then, and the rest is read ("reading").  With
    ``identical_only`` the scan stops there: every walked file is stored with its size
    and identity, and the files it compared with their content hash (by size, then
    the first 4 KiB, then the whole), none with a sum table, so a later full scan reads
    them and reuses nothing but the hashes.

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
    # the walk and the identical stage make tuples by the hundred thousand, no cycles
    resume_collector = pause_collector()
    try:
        # 1. walk, and decide what needs reading
        encoded_roots = [os.fsencode(r) for r in roots]
        known_later = None if identical_only else _known_meanwhile(store, encoded_roots)
        walked: list[_Found] = []
        last_report = 0.0
        # (every root, then the folders met through links alone)
        for found in walker.walk_all(roots):
            walked.append(found)
            # (the clock every 64 files: on a tree of small files it was a cost)
            if not len(walked) & 63 and elapsed() - last_report >= _PROGRESS_EVERY_SECONDS:
                last_report = elapsed()
                report(progress, Progress("walking", len(walked), None, 0, None,
                                          last_report, found.path))
        walked_paths = list(map(os.fsencode, [f.path for f in walked]))
        seen = set(walked_paths)
        rep.files_found = len(walked)
        rep.bytes_found = sum(f.size for f in walked)
        known = None
        to_read: list[bool] = []  # per walked file, for a full scan
        if not identical_only:
            known = known_later()
            to_read = _to_read(walked, walked_paths, known, tagset_id, options, rep)
        # (id, size, mtime_ns, device, inode, content hash) of each stored file: a hash of
        # an unchanged file is reused, not read again (not asked for when nothing is read
        # and nobody waits for the identical copies: a rescan of an unchanged tree)
        hashed = identical_only or on_identical is not None or any(to_read)
        stored = store.known_hashes(encoded_roots) if hashed else {}
        known_hash = []
        known_prefix = []  # (for the identical stage alone, which compares prefixes)
        if hashed and not stored:  # (a first scan: nothing stored to compare with)
            known_hash, known_prefix = [None] * len(walked), [None] * len(walked)
        for found, encoded in zip(walked, walked_paths) if hashed and stored else ():
            row = stored.get(encoded)
            same = row is not None and row[1:5] == (found.size, found.mtime_ns, found.device,
                                                    found.inode)
            known_hash.append(row[5] if same else None)
            known_prefix.append(row[6] if same else None)

        if identical_only:
            # 2. the identical stage alone: hash what shares a size, store every file
            _identical_only(store, walked, walked_paths, known_hash, known_prefix, stored,
                            options, rep, issue, issues_to_save, progress, started, seen,
                            on_identical)
        elif hashed:  # (else nothing is to be read, and nobody waits for the copies)
            # 2. read changed and new files on the pool, saving in batches on this thread:
            # first those that share a size with another file and whose hash is not
            # stored (the identical copies), then the rest
            share = identical_stage.sharing_size([f.size for f in walked])
            first = [f for f, read, shared, h in zip(walked, to_read, share, known_hash)
                     if read and shared and h is None]
            rest = [f for f, read, shared, h in zip(walked, to_read, share, known_hash)
                    if read and not (shared and h is None)]
            resume_collector()  # the reading may run long: cycles are collected again
            read_hashes: dict[str, bytes] = {}
            bytes_before = rep.bytes_read
            report(progress, Progress(identical_stage.PHASE, 0, len(first), 0,
                                      sum(f.size for f in first), elapsed()))
            _read_all(store, first, tags, tagset_id, options, rep, issue, issues_to_save,
                      progress, started, seen, phase=identical_stage.PHASE,
                      hashes=read_hashes)
            hashes = [read_hashes.get(f.path, h) if shared else None
                      for f, h, shared in zip(walked, known_hash, share)]
            sets = identical_stage.identical_sets([f.size for f in walked], hashes)
            rep.identical = identical_stage.IdenticalFound(
                [[walked[i].path for i in s] for s in sets], len(read_hashes),
                sum(1 for h, shared in zip(known_hash, share) if shared and h is not None),
                rep.bytes_read - bytes_before, elapsed())
            if on_identical is not None:
                on_identical(rep.identical)
            _read_all(store, rest, tags, tagset_id, options, rep, issue, issues_to_save,
                      progress, started, seen)
        gone = ([row[0] for path, row in stored.items() if path not in seen] if identical_only
                else [i for path, i in zip(known.paths, known.ids.tolist()) if path not in seen])

        # 3. forget files that are gone (only after a complete walk and read)
        rep.files_forgotten = store.forget_files(gone)
        rep.status = "completed"
    except (Cancelled, KeyboardInterrupt):
        rep.status = "cancelled"
        raise Cancelled() from None
    except BaseException:
        rep.status = "failed"
        raise
    finally:
        resume_collector()
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


def _known_meanwhile(store: Store, roots: list[bytes]):
    """Start reading the stored files under ``roots`` (Store.known_columns) on a thread
    and a read-only connection of their own, while the walk runs (SQLite gathers them
    without Python's lock); returns the function that waits for them.  Nothing is
    written to the store until then, so they are what it holds when the walk ends."""
    pool = ThreadPoolExecutor(1, thread_name_prefix="simgui-known")

    def read():
        with Store(store.path, read_only=True) as reader:
            return reader.known_columns(roots)

    future = pool.submit(read)
    pool.shutdown(wait=False)
    return future.result


def _to_read(walked: Sequence[_Found], walked_paths: Sequence[bytes], known, tagset_id: int,
             options: ScanOptions, rep: ScanReport) -> list[bool]:
    """Per walked file, whether a full scan reads it: it is new, or changed since it was
    stored (size, time, device, inode, tag set), or stored without what this scan
    keeps (a sum table; its fingerprints; a picture's hash).  Compared as columns:
    a rescan of an unchanged tree is this and the walk."""
    import numpy as np

    n = len(walked)
    if not known.paths:
        return [True] * n
    where = dict(zip(known.paths, range(len(known.paths))))
    row = np.fromiter(map(where.get, walked_paths, itertools.repeat(-1)), np.int64, n)
    stored = row >= 0
    at = np.where(stored, row, 0)
    same = stored & (known.flags[at] & 1 != 0) & (known.tagsets[at] == tagset_id)
    for column, field_ in zip((known.sizes, known.mtimes_ns, known.devices, known.inodes),
                              (1, 2, 3, 4)):
        values = map(operator.itemgetter(field_), walked)
        try:
            same &= column[at] == np.fromiter(values, np.int64, n)
        except OverflowError:  # a device or inode number past int64 (some FUSE systems)
            same &= np.fromiter(map(operator.eq, column[at].tolist(),
                                    map(operator.itemgetter(field_), walked)), np.bool_, n)
    complete = same.copy()
    if options.fingerprints:
        complete &= known.flags[at] & 2 != 0
    # pictures stored before their hashes are read again (the stored extension is the
    # path's, and the path is the same)
    unpictured = np.flatnonzero(complete & (known.flags[at] & 4 == 0))
    if len(unpictured):
        pictures = _pictures().picture_extensions()
        extensions = known.extensions
        complete[unpictured] = [extensions[r] not in pictures for r in row[unpictured].tolist()]
    rep.files_unchanged += int(complete.sum())
    rep.files_fingerprinted += int((same & ~complete).sum())
    return (~complete).tolist()


def _identical_only(store, walked, walked_paths, known_hash, known_prefix, stored, options,
                    rep, issue, issues_to_save, progress, started, seen, on_identical) -> None:
    """``scan --identical-only``'s reading and saving: the identical stage's hashes and
    prefix hashes, and a row for every walked file that is new or changed, or was hashed
    now (the prefix hash read now of a file stored unchanged is added to its row)."""
    copies = identical_stage.IdenticalCopies()
    try:
        identical_stage.find_identical(walked, known_hash, known_prefixes=known_prefix,
                                       workers=options.workers, progress=progress,
                                       started=started, result=copies)
    except (Cancelled, KeyboardInterrupt):
        # keep the hashes read so far (and the failures): the next scan starts from them
        _save_identical(store, walked, walked_paths, stored, copies, rep, issue,
                        issues_to_save, seen, only_read=True)
        raise
    _save_identical(store, walked, walked_paths, stored, copies, rep, issue, issues_to_save,
                    seen)
    rep.identical = identical_stage.IdenticalFound(
        identical_stage.sets_of_paths(walked, copies), copies.files_hashed,
        copies.files_reused, copies.bytes_read, copies.elapsed)
    if on_identical is not None:
        on_identical(rep.identical)


def _save_identical(store, walked, walked_paths, stored, copies, rep, issue, issues_to_save,
                    seen, only_read: bool = False) -> None:
    """Store the identical stage's rows: each walked file new or changed, or hashed
    (or failed) now; ``only_read``: only those hashed or failed (a cancelled scan)."""
    rep.files_read = copies.files_hashed
    rep.bytes_read = copies.bytes_read
    rows: list[tuple] = []
    prefixes: list[tuple[int, int]] = []  # (prefix hash, id) of stored files unchanged
    # (a loop of 117,000 turns on /usr: the lookups bound once, the walk's tuple unpacked)
    prefix_of, failed, digest_of, stored_row = (copies.prefixes.get, copies.failed,
                                                copies.hashes.get, stored.get)
    for i, (found, encoded) in enumerate(zip(walked, walked_paths)):
        path, size, mtime_ns, device, inode = found
        prefix = prefix_of(i)
        digest = digest_of(i)
        if only_read and digest is None and i not in failed and prefix is None:
            continue
        row = stored_row(encoded)
        why = None
        if i in failed:
            why = _why(failed[i])
            issue(path, "error", why)
            if why == VANISHED:
                seen.discard(encoded)  # forgotten like any other file now gone
                continue
        elif digest is None and row is not None and row[1:5] == (size, mtime_ns, device,
                                                                  inode):
            rep.files_unchanged += 1
            if prefix is not None:
                prefixes.append((prefix, row[0]))
            continue  # as stored: a full scan's row, or this stage's from before
        rows.append((encoded, size, mtime_ns, device, inode, extension_of(path), digest,
                     prefix, why))
    if rows:
        store.save_walked(rows, rep.scan_id)
    if prefixes:
        store.save_prefixes(prefixes)
    if issues_to_save:
        store.add_issues(rep.scan_id, issues_to_save)
        issues_to_save.clear()


def _read_all(store, to_read, tags, tagset_id, options, rep, issue, issues_to_save, progress,
              started, seen, *, phase: str = "reading",
              hashes: dict[str, bytes] | None = None) -> None:
    """Read ``to_read`` on the pool and save it; progress as ``phase``, counting these
    files only; ``hashes``: path -> content hash of each file read, filled in."""
    total_bytes = sum(f.size for f in to_read)
    files_before, bytes_before = rep.files_read + rep.errors, rep.bytes_read
    workers = options.workers or os.cpu_count() or 1
    pending: list[FileRecord] = []
    last_save = last_report = time.monotonic()
    stop = threading.Event()

    def work(batch: list[_Found]) -> list[tuple[_Found, FileRecord]]:
        if stop.is_set():
            return []  # cancelled: hand back what is read
        quick = _read_small(batch, tags) if options.fingerprints else [None] * len(batch)
        done = []
        for found, record in zip(batch, quick):
            if record is None:
                if stop.is_set():
                    break  # cancelled: hand back what is read
                record = read_file(found.path, tags, fingerprints=options.fingerprints)
            done.append((found, record))
        return done

    def accept(found: _Found, record: FileRecord) -> None:
        if record.error is None:
            rep.files_read += 1
            rep.bytes_read += record.size
            pending.append(record)
            if hashes is not None:
                hashes[found.path] = record.content_hash
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
                    report(progress, Progress(
                        phase, rep.files_read + rep.errors - files_before, len(to_read),
                        rep.bytes_read - bytes_before, total_bytes, now - started, current))
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


def _read_small(batch: list[_Found], tags: Sequence[int]) -> list[FileRecord | None]:
    """The records of the batch's small files, read in one compiled call (see
    small_files.read_small_files), as read_file would give them; None for each file
    not done there (large, changed since the walk, unreadable: read_file reads it
    and says why), and for every file where the compiled reads are not available."""
    from simgui.core.reading.small_files import SMALL, compiled_reads, read_small_files

    records: list[FileRecord | None] = [None] * len(batch)
    small = [i for i, found in enumerate(batch) if found.size <= SMALL and identity_fits(found)]
    if not small or not compiled_reads():
        return records
    paths = [os.fsencode(batch[i].path) for i in small]
    reads = read_small_files(paths, [batch[i].size for i in small], tags)
    digest = xxhash.xxh3_128_digest
    for j in map(int, reads.done.nonzero()[0]):
        found = batch[small[j]]
        size, mtime_ns, device, inode = reads.info[j, 1:].tolist()
        ext = extension_of(found.path)
        records[small[j]] = FileRecord(
            paths[j], size, mtime_ns, device, inode, ext, reads.tables[j],
            digest(reads.content(j)), simhash=int(reads.simhashes[j]),
            minhash=reads.minhashes[j], **_picture_of(found.path, ext))
    return records


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
