"""Scan throughput on a warm-cache tree, and rescan time versus first scan.

    python benchmarks/bench_scan.py [ROOT ...] [--workers N]

Default root: /usr/lib.  Prints one table; all figures come from this run:
the page cache is warmed by reading every file once first, so the figures are
the scanner's own cost, not the disk's.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import stat
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from simgui.core.reading.scanner import ScanOptions, scan  # noqa: E402
from simgui.core.store import Store  # noqa: E402
from simgui.core.reading.sumtable import warm_up  # noqa: E402


def regular_files(roots):
    """Each regular file once (one name per inode, as the scanner reads it: a file with
    several hard links is read and hashed once by both sides)."""
    seen = set()
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for name in files:
                path = os.path.join(folder, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) not in seen:
                    seen.add((st.st_dev, st.st_ino))
                    yield path


def read_all(paths) -> int:
    total = 0
    for path in paths:
        try:
            with open(path, "rb") as f:
                while chunk := f.read(1 << 20):
                    total += len(chunk)
        except OSError:
            pass
    return total


def md5_all(paths) -> None:
    for path in paths:
        try:
            with open(path, "rb") as f:
                h = hashlib.md5()
                while chunk := f.read(1 << 20):
                    h.update(chunk)
        except OSError:
            pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", default=["/usr/lib"])
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()

    warm_up()
    paths = list(regular_files(args.roots))
    total = read_all(paths)  # warm the page cache
    t = time.perf_counter()
    read_all(paths)
    t_read = time.perf_counter() - t
    t = time.perf_counter()
    md5_all(paths)
    t_md5 = time.perf_counter() - t

    with tempfile.TemporaryDirectory() as tmp:
        with Store(os.path.join(tmp, "bench.db")) as store:
            options = ScanOptions(workers=args.workers)
            t = time.perf_counter()
            first = scan(store, args.roots, options)
            t_first = time.perf_counter() - t
            t = time.perf_counter()
            again = scan(store, args.roots, options)
            t_again = time.perf_counter() - t

    mb = total / 1e6
    workers = args.workers or os.cpu_count()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print(f"tree: {', '.join(args.roots)}: {len(paths)} files, {mb:.0f} MB (warm page cache)")
    print(f"{'what':<34}{'seconds':>9}{'MB/s':>9}{'files/s':>10}")
    rows = [("plain read, 1 thread", t_read), ("md5 of every file, 1 thread", t_md5),
            (f"simgui first scan, {workers} workers", t_first),
            ("simgui rescan (nothing changed)", t_again)]
    for name, seconds in rows:
        print(f"{name:<34}{seconds:>9.2f}{mb / seconds:>9.0f}{len(paths) / seconds:>10.0f}")
    print(f"first scan read {first.files_read} files; rescan read {again.files_read}, "
          f"{again.files_unchanged} unchanged")
    print(f"ratio first scan MB/s / md5 MB/s: {t_md5 / t_first:.2f} (the scan on {workers} "
          f"workers, md5 on one thread: {t_md5 / t_first / workers:.2f} a core)")
    print(f"ratio rescan time / first scan time: {t_again / t_first:.3f}")


if __name__ == "__main__":
    main()
