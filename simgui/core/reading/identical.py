"""Identical copies first: by size, then a prefix hash, then the whole content's hash.

As jdupes and fclones do, a file is read only if another file has its size, and
read whole only if another file of that size also starts with the same 4 KiB.  The
whole-content hash is the xxh3-128 a full read stores in ``files.content_hash``
(:func:`simgui.core.reading.scanner.read_file`), so a later full scan and every
search reuse it.  Files of up to 4 KiB are hashed whole at once (their prefix is all
of them).

Every open is of a regular file, without following a link and without blocking on a
FIFO put in its place; a file whose (size, mtime_ns, device, inode) differs from the
walk's, or that changed while it was read, gets no hash: it is not called identical
(and a clean-up compares the bytes again before it acts anyway).

Where many files are to be read (a tree of programs: /usr has 77,000 of up to 4 KiB
that share a size), they are opened, checked and read in compiled calls with Python's
lock released (:func:`system_calls.read_heads`), a batch of files at a time on every
core, and only hashed from Python; that loads numba, about half a second, so a stage
with fewer files reads them from Python and ``scan --identical-only`` of a small tree
loads no kernel.  Read from Python, many files are shared with forked processes where
a fork is safe (simgui.core.reading.forked): each process has Python's lock to itself.
"""

from __future__ import annotations

import itertools
import os
import stat
import sys
import time
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

import xxhash

from simgui.core.cores import usable_cores
from simgui.core.progress import Progress, ProgressCallback, report
from simgui.core.reading import forked
from simgui.core.reading.file_reads import CHUNK, OPEN_FLAGS, identity_fits, read_chunks

#: bytes compared before a whole file is read (and files this small are hashed whole)
PREFIX_BYTES = 4096
#: the stage's name in progress reports
PHASE = "identical copies"
CHANGED = "changed while being read"
EMPTY_HASH = xxhash.xxh3_128_digest(b"")

#: files at least this large are hashed whole on the thread pool (their reads release
#: the GIL); smaller ones on the calling thread, where the per-file work is Python's
#: and threads only fight over the GIL (measured on /usr: 2 threads took 2x longer)
_POOL_FROM = 1 << 18
_PROGRESS_EVERY_SECONDS = 0.1
#: files to read (whole small ones and prefixes) from which the compiled reads pay for
#: loading numba (about 0.5 s, where Python's reads take about 25 us a file); in a
#: process that has numba loaded already they are always used
COMPILED_FROM = 20_000
#: reader threads from which they pay for it at all: on two, they read no faster than
#: Python's one loop (the stage of /usr's 116,843 files took 1.40-1.46 s compiled, numba
#: loaded, and 1.44-1.51 s from Python), so `scan --identical-only /usr` as a command
#: took 3.71 s on average loading numba for them, 3.47 s without (seven alternating runs
#: each).  Threads: those asked for, at most the cores this process may run on
COMPILED_THREADS_FROM = 4
#: True or False: always or never use the compiled reads (tests); None: as above
USE_COMPILED: bool | None = None
#: where the reads are Python's, files to read from which forked processes share them
#: (one a thread, see simgui.core.reading.forked): a fork costs a few milliseconds,
#: Python's reads about 8 us a file.  On /usr, two processes hashed its 77,619 small
#: files in 0.37 s where one took 0.64 s
FORK_FROM = 4096
#: True or False: always or never share the Python reads with processes where a fork
#: is safe (tests); None: as above
USE_PROCESSES: bool | None = None
#: files a compiled call reads
_HEADS_BATCH = 1024


class Walked(Protocol):
    """A file as the walk saw it (the scanner's ``_Found``)."""

    path: str
    size: int
    mtime_ns: int
    device: int
    inode: int


class Changed(OSError):
    """The file is not the one the walk saw, or changed while being read."""

    def __init__(self):
        super().__init__(CHANGED)


def _open(found: Walked) -> int:
    """An open descriptor of ``found``, checked to be the regular file the walk saw."""
    fd = os.open(found.path, OPEN_FLAGS)
    try:
        st = os.fstat(fd)
        if (not stat.S_ISREG(st.st_mode) or st.st_size != found.size
                or st.st_mtime_ns != found.mtime_ns or st.st_dev != found.device
                or st.st_ino != found.inode):
            raise Changed()
    except BaseException:
        os.close(fd)
        raise
    return fd


def _unchanged(fd: int, found: Walked) -> None:
    st = os.fstat(fd)
    if st.st_size != found.size or st.st_mtime_ns != found.mtime_ns:
        raise Changed()


def _prefix_hash_of(data) -> int:
    """xxh3-64 of ``data`` as a signed integer, as the store keeps integers."""
    return int.from_bytes(xxhash.xxh3_64_digest(data), "big", signed=True)


def prefix_hash(found: Walked) -> int:
    """xxh3-64 of the first :data:`PREFIX_BYTES` bytes, signed (:func:`_prefix_hash_of`)."""
    fd = _open(found)
    try:
        data = os.pread(fd, PREFIX_BYTES, 0)
        _unchanged(fd, found)
    finally:
        os.close(fd)
    if len(data) != min(PREFIX_BYTES, found.size):
        raise Changed()
    return _prefix_hash_of(data)


def content_hash(found: Walked) -> bytes:
    """xxh3-128 of the whole content, as :func:`scanner.read_file` computes it."""
    fd = _open(found)
    try:
        if found.size <= CHUNK:
            data = os.read(fd, found.size + 1)  # one byte past the size tells a growing file
            _unchanged(fd, found)
            if len(data) != found.size:
                raise Changed()
            return xxhash.xxh3_128_digest(data)
        hasher = xxhash.xxh3_128()
        seen = 0
        for chunk in read_chunks(fd, found.size):
            hasher.update(chunk)
            seen += len(chunk)
        _unchanged(fd, found)
        if seen != found.size:
            raise Changed()
        return hasher.digest()
    finally:
        os.close(fd)


def _compiled(count: int, threads: int) -> bool:
    """Whether to read ``count`` files on ``threads`` threads with the compiled reads
    (see COMPILED_FROM and COMPILED_THREADS_FROM)."""
    if USE_COMPILED is False or (USE_COMPILED is None and not _compiled_pays(
            count, threads, "numba" in sys.modules)):
        return False
    from simgui.core.reading.system_calls import heads_available

    return heads_available()


def _processes(count: int, threads: int) -> int:
    """How many processes read ``count`` files from Python, for ``threads`` threads:
    one, or one a thread where there are files enough and a fork is safe."""
    wanted = USE_PROCESSES if USE_PROCESSES is not None else count >= FORK_FROM
    return threads if wanted and threads > 1 and forked.can_fork() else 1


def _prefixes(files: Sequence[Walked], which: Sequence[int]):
    """(i, prefix hash or the OSError) of each file ``which`` names."""
    for i in which:
        try:
            yield i, prefix_hash(files[i])
        except OSError as exc:
            yield i, exc


def _to_signed(value: int) -> bytes:
    return value.to_bytes(8, "big", signed=True)


def _from_signed(data: bytes) -> int:
    return int.from_bytes(data, "big", signed=True)


def _compiled_pays(count: int, threads: int, numba_loaded: bool) -> bool:
    """Whether the compiled reads pay for themselves: free where numba is loaded, else
    worth its loading for many files on several threads."""
    return numba_loaded or (count >= COMPILED_FROM and threads >= COMPILED_THREADS_FROM)


def _heads(files: Sequence[Walked], which: Sequence[int], whole: bool, threads: int):
    """(i, its bytes or None) for each file ``which`` names: with ``whole`` its whole
    content (files of up to PREFIX_BYTES), else its first PREFIX_BYTES; None where the
    compiled read did not vouch for it (the caller reads that file from Python, which
    gives the error).  Batches of files on a pool of ``threads`` threads, in order."""
    import numpy as np

    from simgui.core.reading.system_calls import packed_names, read_heads

    def batch(part: Sequence[int]):
        n = len(part)
        paths = [os.fsencode(files[i].path) for i in part]
        # a file whose numbers do not fit: a size no file has, so that it is read from
        # Python
        walked = np.array([(f.size, f.mtime_ns, f.device, f.inode) if identity_fits(f)
                           else (-1, 0, 0, 0)
                           for f in (files[i] for i in part)], np.int64).reshape(n, 4)
        # a whole file: one byte past its size tells a growing one
        want = np.maximum(walked[:, 0], 0) + 1 if whole else np.full(n, PREFIX_BYTES, np.int64)
        expect = walked[:, 0] if whole else want
        names, name_at = packed_names(paths)
        data_at = np.zeros(n + 1, np.int64)
        np.cumsum(want, out=data_at[1:])
        data = np.empty(int(data_at[-1]), np.uint8)
        got = np.empty(n, np.int64)
        read_heads(names, name_at, walked, want, OPEN_FLAGS, data, data_at, got)
        view = memoryview(data)
        return [(i, view[a:a + g] if g == e else None) for i, a, g, e in
                zip(part, data_at.tolist(), got.tolist(), expect.tolist())]

    parts = iter([which[k:k + _HEADS_BATCH] for k in range(0, len(which), _HEADS_BATCH)])
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="simgui-identical")
    try:
        # a few batches ahead of the caller, not all: each holds its files' bytes
        pending = deque(pool.submit(batch, part)
                        for part in itertools.islice(parts, 2 * threads))
        while pending:
            done = pending.popleft().result()
            part = next(parts, None)
            if part is not None:
                pending.append(pool.submit(batch, part))
            yield from done
    finally:
        # closed early (cancelled): the batches not begun are dropped, those being read end
        pool.shutdown(wait=True, cancel_futures=True)


def _small_hashes(files: Sequence[Walked], which: Sequence[int]):
    """(i, content hash or the OSError) of each file ``which`` names, files of up to
    :data:`PREFIX_BYTES`: :func:`content_hash` written out in one loop, since these are
    most of the files a tree of programs and documents compares (/usr: 77,000 of
    102,000) and here Python's calls, not the reads, are what costs."""
    open_, fstat, read, close, digest_of = (os.open, os.fstat, os.read, os.close,
                                            xxhash.xxh3_128_digest)
    is_reg = stat.S_ISREG
    for i in which:
        found = files[i]
        try:
            fd = open_(found.path, OPEN_FLAGS)
        except OSError as exc:
            yield i, exc
            continue
        try:
            # checked before it is read (a device put in its place is never read: a read
            # of a terminal takes its input), and after
            st = fstat(fd)
            if (not is_reg(st.st_mode) or st.st_size != found.size
                    or st.st_mtime_ns != found.mtime_ns or st.st_ino != found.inode
                    or st.st_dev != found.device):
                raise Changed()
            data = read(fd, found.size + 1)  # one byte past the size tells a growing file
            after = fstat(fd)
            if (len(data) != found.size or after.st_size != found.size
                    or after.st_mtime_ns != found.mtime_ns):
                raise Changed()
        except OSError as exc:
            yield i, exc
            continue
        finally:
            close(fd)
        yield i, digest_of(data)


@dataclass
class IdenticalCopies:
    """What the identical stage learned.

    ``hashes`` and ``failed`` are keyed by position in the files given; ``sets`` are
    lists of those positions, each of two or more files with equal size and content
    hash (a file's hash either read now or reused from the store)."""

    sets: list[list[int]] = field(default_factory=list)
    hashes: dict[int, bytes] = field(default_factory=dict)  # read whole now
    prefixes: dict[int, int] = field(default_factory=dict)  # first 4 KiB's hash, read now
    failed: dict[int, OSError] = field(default_factory=dict)
    files_reused: int = 0  # hashes the store already had for unchanged files
    files_prefixed: int = 0  # files whose first 4 KiB were read
    bytes_read: int = 0
    elapsed: float = 0.0

    @property
    def files_hashed(self) -> int:
        return len(self.hashes)

    def copies(self) -> int:
        """Files that are a copy of another (each set's files but one)."""
        return sum(len(s) - 1 for s in self.sets)


def sharing_size(sizes: Sequence[int]) -> list[bool]:
    """Per file: does another file have its size?"""
    count: dict[int, int] = defaultdict(int)
    for size in sizes:
        count[size] += 1
    return [count[size] > 1 for size in sizes]


def identical_sets(sizes: Sequence[int], hashes: Sequence[bytes | None]) -> list[list[int]]:
    """Positions of files with equal size and content hash, two or more to a set (files
    without a hash are in none), in order of their first file."""
    # by hash alone, a file's position standing for a set of one (no list, no tuple made
    # for the 80,000 files of /usr that have a hash: half the time), then by size in the
    # rare set whose sizes differ
    by_hash: dict[bytes, int | list[int]] = {}
    known = by_hash.get
    for i, digest in enumerate(hashes):
        if digest is not None:
            first = known(digest)
            if first is None:
                by_hash[digest] = i
            elif first.__class__ is int:
                by_hash[digest] = [first, i]
            else:
                first.append(i)
    sets = [s for s in by_hash.values() if s.__class__ is list]
    if any(sizes[j] != sizes[s[0]] for s in sets for j in s):
        by_size: dict[tuple[int, int], list[int]] = {}
        for k, same in enumerate(sets):
            for j in same:
                by_size.setdefault((k, sizes[j]), []).append(j)
        sets = sorted((s for s in by_size.values() if len(s) > 1), key=lambda s: s[0])
    return sets


def find_identical(files: Sequence[Walked], known: Sequence[bytes | None], *,
                   known_prefixes: Sequence[int | None] | None = None,
                   workers: int = 0, progress: ProgressCallback | None = None,
                   started: float | None = None,
                   result: IdenticalCopies | None = None) -> IdenticalCopies:
    """Identical copies among ``files``: by size, prefix hash, then whole hash.

    ``known``: per file, its content hash if the store has one for it unchanged (so it
    is not read again), else None; ``known_prefixes`` likewise its prefix hash (the
    ``prefixes`` an earlier stage read).  Reads only files that share a size with another;
    files that fail (unreadable, changed, vanished) land in ``failed`` with the error
    and get no hash.  Raises Cancelled when ``progress`` returns False; ``result``, if
    given, is filled in as files are hashed, so a caller keeps what was done by then.
    """
    started = time.monotonic() if started is None else started
    result = IdenticalCopies() if result is None else result
    hashes: list[bytes | None] = list(known)
    stored_prefix = known_prefixes if known_prefixes is not None else [None] * len(files)
    by_size: dict[int, list[int]] = defaultdict(list)
    for i, found in enumerate(files):
        by_size[found.size].append(i)
    small: list[int] = []  # hashed whole at once
    prefixed: list[list[int]] = []  # groups of one size whose prefixes are compared
    for size, group in by_size.items():
        if len(group) < 2:
            continue
        unknown = [i for i in group if hashes[i] is None]
        result.files_reused += len(group) - len(unknown)
        if not unknown:
            continue
        if size <= PREFIX_BYTES:
            small.extend(unknown)
        else:
            prefixed.append(group)
    # the prefixes to read: those of the files compared by prefix the store has none of
    unread = [i for g in prefixed for i in g if stored_prefix[i] is None]
    todo = len(small) + len(unread)
    # bytes to read, as far as known: grows by the files read whole after their prefixes
    todo_bytes = sum(files[i].size for i in small) + PREFIX_BYTES * len(unread)
    done = 0
    last = 0.0

    def tick(path: str) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= _PROGRESS_EVERY_SECONDS:
            last = now
            report(progress, Progress(PHASE, done, todo, result.bytes_read, todo_bytes,
                                      now - started, path))

    def hashed(i: int) -> bytes | OSError:
        try:
            return content_hash(files[i])
        except OSError as exc:
            return exc

    def whole(i: int, digest: bytes | OSError | None = None) -> None:
        """Hash file ``i`` (or take the ``digest`` a pool thread computed)."""
        if digest is None:
            digest = hashed(i)
        if isinstance(digest, OSError):
            result.failed[i] = digest
            return
        hashes[i] = result.hashes[i] = digest
        result.bytes_read += files[i].size

    failed = result.failed
    cores = usable_cores()
    pool = workers or cores  # reader threads asked for (all the cores by default)
    threads = min(pool, cores)  # ... of which as many run at once as there are cores
    compiled = _compiled(len(small) + len(unread), threads)
    if compiled:
        digest_of = xxhash.xxh3_128_digest
        heads = _heads(files, small, True, pool)
        small_hashes = ((i, digest_of(data) if data is not None else hashed(i))
                        for i, data in heads)
    elif (processes := _processes(len(small), threads)) > 1:
        heads = small_hashes = forked.shared(lambda part: _small_hashes(files, part), small,
                                             processes, 16, bytes, bytes)
    else:
        heads = small_hashes = _small_hashes(files, small)
    try:
        for i, digest in small_hashes:
            if isinstance(digest, OSError):
                failed[i] = digest
            else:
                hashes[i] = result.hashes[i] = digest
                result.bytes_read += files[i].size
            done += 1
            if done & 255 == 0:
                tick(files[i].path)
    finally:
        heads.close()  # cancelled: the reads stop now, not when the traceback goes
    # the prefixes: a set of one size splits by its first 4 KiB; the files still sharing
    # a prefix with another are read whole
    reading: list[int] = []
    prefixes: dict[int, int] = {}  # read by the compiled reads, or by processes
    processes = 1 if compiled else _processes(len(unread), threads)
    if compiled or processes > 1:
        heads = (_heads(files, unread, False, pool) if compiled else
                 forked.shared(lambda part: _prefixes(files, part), unread, processes, 8,
                               _to_signed, _from_signed))
        try:
            for i, got in heads:  # (the bytes, or the hash a process read)
                if got is None or isinstance(got, OSError):
                    continue  # the loop below reads it again, which gives the error
                prefixes[i] = _prefix_hash_of(got) if compiled else got
                done += 1
                if done & 255 == 0:
                    tick(files[i].path)
        finally:
            heads.close()
    for group in prefixed:
        by_prefix: dict[int, list[int]] = defaultdict(list)
        for i in group:
            if stored_prefix[i] is not None:  # the file unchanged since the store's read
                by_prefix[stored_prefix[i]].append(i)
                continue
            try:
                known_prefix = prefixes.get(i)
                prefix = prefix_hash(files[i]) if known_prefix is None else known_prefix
                by_prefix[prefix].append(i)
                result.prefixes[i] = prefix
            except OSError as exc:
                if hashes[i] is None:
                    result.failed[i] = exc
                # else: the stored hash stays, and the full read or the clean-up checks it
            result.files_prefixed += 1
            result.bytes_read += min(PREFIX_BYTES, files[i].size)
            if known_prefix is None:  # (else counted as it was read above)
                done += 1
                tick(files[i].path)
        for same in by_prefix.values():
            if len(same) > 1:
                reading.extend(i for i in same if hashes[i] is None)
    todo += len(reading)
    todo_bytes += sum(files[i].size for i in reading)
    large = [i for i in reading if files[i].size >= _POOL_FROM]
    for i in reading:
        if files[i].size < _POOL_FROM:
            whole(i)
            done += 1
            tick(files[i].path)
    if large:
        with ThreadPoolExecutor(max_workers=pool,
                                thread_name_prefix="simgui-identical") as readers:
            try:
                for i, digest in zip(large, readers.map(hashed, large)):
                    whole(i, digest)
                    done += 1
                    tick(files[i].path)
            except BaseException:
                readers.shutdown(cancel_futures=True)  # cancelled: only the files being read finish
                raise
    result.sets = identical_sets([f.size for f in files], hashes)
    result.elapsed = time.monotonic() - started
    report(progress, Progress(PHASE, done, todo, result.bytes_read, todo_bytes,
                              result.elapsed))
    return result


def sets_of_paths(files: Sequence[Walked], copies: IdenticalCopies) -> list[list[str]]:
    """The sets as paths."""
    return [[files[i].path for i in s] for s in copies.sets]


#: what a scan calls once the identical copies are known (before the rest is read)
IdenticalHook = Callable[["IdenticalFound"], None]


@dataclass(frozen=True)
class IdenticalFound:
    """What :data:`IdenticalHook` is given: the sets of identical files (paths) this scan
    found, saved in the store by then, and the stage's counts."""

    sets: list[list[str]]
    files_hashed: int  # hashed in this stage
    files_reused: int  # hashes reused from the store
    bytes_read: int
    elapsed: float

    @property
    def copies(self) -> int:
        return sum(len(s) - 1 for s in self.sets)
