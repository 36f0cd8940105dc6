"""One read per file, and how the scan grows with cores: simgui next to md5 and md5sum.

    python benchmarks/bench_cores.py [--small 20000] [--large 24] [--large-mb 64]
        [--workers 1 2 4 8 16] [--mb 32]

1. *The single read, one thread*: on 32 MB of random bytes, text (this
   repository's .py files, repeated), binaries (/usr/bin and /usr/lib files)
   and zeros, the time of ``hashlib.md5`` against the sum-table kernel, the
   fingerprint kernel (MinHash and simhash) and the whole read the scanner
   does of each chunk (sum table + xxh3-128 + fingerprints, in 1 MB chunks from
   memory): ratio = md5 time / kernel time (above 1: faster than md5).
2. *The scan against md5sum on all cores*: a tree of small files (200 B to
   6 KB) and one of large random files is written to a temporary folder (warm
   in the page cache), then scanned into a new store with 1, 2, 4, ... reader
   threads (``simgui.core.reading.scanner.scan``, start-up excluded, store
   writes included), next to ``md5sum`` run N processes at once on the same files
   (the small files split evenly over the N processes, a large file each); then the
   first scan of the small files as a command (``simgui scan``, start-up included).

Prints tables; every figure comes from this run on this machine.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import xxhash  # noqa: E402

from simgui.core.reading.fingerprints import FingerprintBuilder, fingerprints  # noqa: E402
from simgui.core.reading.scanner import ScanOptions, scan  # noqa: E402
from simgui.core.reading.sumtable import SumTableBuilder, sum_table  # noqa: E402
from simgui.core.store import Store  # noqa: E402

MB = 1 << 20


def whole_read(buf: np.ndarray) -> None:
    """What the scanner does with each chunk of a file: all three, 1 MB at a time."""
    tables, hasher, printer = SumTableBuilder(), xxhash.xxh3_128(), FingerprintBuilder()
    view = memoryview(buf)
    for start in range(0, len(buf), MB):
        chunk = view[start:start + MB]
        tables.update(chunk)
        hasher.update(chunk)
        printer.update(chunk)
    tables.result(), hasher.digest(), printer.result()


def best(runs: int, fn) -> float:
    out = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def inputs(mb: int) -> list[tuple[str, np.ndarray]]:
    size = mb * MB
    rng = np.random.default_rng(1)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    text = b"".join(open(p, "rb").read() for p in sorted(glob.glob(f"{root}/**/*.py",
                                                                    recursive=True)))
    binaries = b""
    for p in sorted(glob.glob("/usr/bin/*") + glob.glob("/usr/lib/x86_64-linux-gnu/*.so*")):
        if os.path.isfile(p) and not os.path.islink(p):
            try:
                binaries += open(p, "rb").read()
            except OSError:
                continue
        if len(binaries) >= size:
            break
    fill = lambda b: np.frombuffer((b * (size // max(len(b), 1) + 1))[:size], np.uint8)
    return [("random", rng.integers(0, 256, size, dtype=np.uint8)), ("text", fill(text)),
            ("binaries", fill(binaries)), ("zeros", np.zeros(size, np.uint8))]


def kernels(mb: int, runs: int) -> None:
    print(f"\n1. one thread, best of {runs}, {mb} MB each: MB/s, and md5 time / kernel time")
    print(f"{'input':<9} {'md5':>6} {'sum table':>10} {'ratio':>6} {'fingerprints':>13} "
          f"{'ratio':>6} {'whole read':>11} {'ratio':>6}")
    sum_table(b"warm" * 100)
    fingerprints(b"warm" * 100)
    whole_read(np.zeros(100, np.uint8))
    for name, buf in inputs(mb):
        view = memoryview(buf)
        md5 = best(runs, lambda: hashlib.md5(view).digest())
        st = best(runs, lambda: sum_table(buf))
        fp = best(runs, lambda: fingerprints(buf))
        whole = best(runs, lambda: whole_read(buf))
        rate = lambda t: len(buf) / MB / t
        print(f"{name:<9} {rate(md5):6.0f} {rate(st):10.0f} {md5 / st:6.2f} {rate(fp):13.0f} "
              f"{md5 / fp:6.2f} {rate(whole):11.0f} {md5 / whole:6.2f}")


def make_trees(root: str, small: int, large: int, large_mb: int) -> tuple[str, str]:
    rng = np.random.default_rng(2)
    small_dir, large_dir = os.path.join(root, "small"), os.path.join(root, "large")
    os.makedirs(small_dir)
    for i in range(small):
        folder = os.path.join(small_dir, f"d{i // 500:03d}")
        if i % 500 == 0:
            os.makedirs(folder)
        size = int(rng.integers(200, 6000))
        with open(os.path.join(folder, f"f{i}.txt"), "wb") as f:
            f.write(rng.integers(32, 127, size, dtype=np.uint8).tobytes())
    os.makedirs(large_dir)
    for i in range(large):
        with open(os.path.join(large_dir, f"big{i}.bin"), "wb") as f:
            f.write(rng.integers(0, 256, large_mb * MB, dtype=np.uint8).tobytes())
    return small_dir, large_dir


def md5sum_all(folder: str, jobs: int, per_call: int) -> float:
    """md5sum over every file, ``jobs`` processes at once, ``per_call`` files each (the
    names listed by find, timed too: the scan walks its tree as well)."""
    t = time.perf_counter()
    names = subprocess.run(["find", folder, "-type", "f", "-print0"], check=True,
                           capture_output=True).stdout.split(b"\0")[:-1]
    running: list[subprocess.Popen] = []
    for start in range(0, len(names), per_call):
        if len(running) >= jobs:
            running.pop(0).wait()
        running.append(subprocess.Popen([b"md5sum", b"--", *names[start:start + per_call]],
                                        stdout=subprocess.DEVNULL))
    for proc in running:
        proc.wait()
    return time.perf_counter() - t


def command_scan(root: str, folder: str, runs: int = 3) -> float:
    """The best of ``runs`` first scans as a command, start-up included: ``simgui scan``
    into a new store each time."""
    best = float("inf")
    for run in range(runs):
        db = os.path.join(root, f"command-{run}.db")
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simgui", "scan", "--quiet", "--db", db, folder],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
    return best


def scans(root: str, small_dir: str, large_dir: str, workers: list[int]) -> None:
    cores = os.cpu_count() or 1
    print("\n2. scans into a new store (warm cache) next to md5sum, N processes at once")
    for label, folder in (("small files", small_dir), ("large files", large_dir)):
        files = sum(len(f) for _, _, f in os.walk(folder))
        if not files:
            continue
        # small files: split evenly over the N processes, so that md5sum starts once a
        # core (64 a process, as this benchmark once did, spent more than half of
        # md5sum's time starting 313 processes: 0.30 s where 0.13 s does the work; xargs
        # would split them further, at its command-line limit); large ones: one a
        # process, so that every core has one
        small = label == "small files"
        size = sum(os.path.getsize(os.path.join(d, n)) for d, _, fs in os.walk(folder)
                   for n in fs)
        md5sum_all(folder, cores, -(-files // cores) if small else 1)  # warm the cache
        print(f"{label}: {files:,} files, {size / MB:,.0f} MB")
        print(f"{'N':>4} {'simgui s':>9} {'files/s':>9} {'MB/s':>7} {'md5sum s':>9} "
              f"{'md5sum/simgui':>14}")
        for n in workers:
            db = os.path.join(root, f"store-{label[0]}-{n}.db")
            with Store(db) as store:
                t = time.perf_counter()
                scan(store, [folder], ScanOptions(workers=n))
                took = time.perf_counter() - t
            theirs = md5sum_all(folder, n, -(-files // n) if small else 1)
            print(f"{n:>4} {took:9.2f} {files / took:9,.0f} {size / MB / took:7.0f} "
                  f"{theirs:9.2f} {theirs / took:14.2f}")
        if small:
            # issue 25's target: the first scan as a command, start-up and store writes
            # included, within 3 x md5sum on all cores
            took = command_scan(root, folder)
            theirs = min(md5sum_all(folder, cores, -(-files // cores)) for _ in range(3))
            print(f"as a command (`simgui scan`, start-up included, best of 3): {took:.2f} s; "
                  f"md5sum on {cores} cores {theirs:.2f} s: {took / theirs:.1f} x md5sum")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mb", type=int, default=32)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--small", type=int, default=20_000)
    p.add_argument("--large", type=int, default=24)
    p.add_argument("--large-mb", type=int, default=64)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    p.add_argument("--skip-kernels", action="store_true")
    args = p.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    if not args.skip_kernels:
        kernels(args.mb, args.runs)
    root = tempfile.mkdtemp(prefix="simgui-cores-")
    try:
        small_dir, large_dir = make_trees(root, args.small, args.large, args.large_mb)
        scans(root, small_dir, large_dir, args.workers)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
