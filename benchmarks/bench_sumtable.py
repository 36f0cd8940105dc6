"""Sum-table kernel throughput against hashlib.md5 on the same buffers.

    python benchmarks/bench_sumtable.py [--runs N] [--small]

Inputs: random bytes (32 MB), English-like text (license texts and the Python
standard library's .py files, repeated to 32 MB), real binaries (files from
/usr/bin and /usr/lib concatenated, about 64 MB) and all-zero data (32 MB).
For each, the kernel and md5 are timed on the same buffer, best of N runs
(alternating, after a warm-up call), single thread; then the kernel on two
threads at once, each with its own buffer, to show the GIL is released.
``--small`` adds per-call times for short inputs.  Prints tables; all figures
come from this run.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import platform
import sys
import sysconfig
import threading
import time

import numba
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from simgui.core.reading.sumtable import sum_table, warm_up  # noqa: E402

MB = 1 << 20


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def files_under(patterns):
    for pattern in patterns:
        for path in sorted(glob.glob(pattern, recursive=True)):
            if os.path.isfile(path) and not os.path.islink(path):
                yield path


def gather(patterns, size: int, repeat: bool) -> tuple[np.ndarray, int]:
    """``size`` bytes from the files, in a fixed order; repeated if they run short."""
    parts, total, count = [], 0, 0
    for path in files_under(patterns):
        try:
            with open(path, "rb") as f:
                data = f.read(size - total)
        except OSError:
            continue
        if data:
            parts.append(data)
            total += len(data)
            count += 1
        if total >= size:
            break
    data = b"".join(parts)
    if not data:
        raise SystemExit(f"no readable files for {patterns}")
    if repeat and len(data) < size:
        data = data * (size // len(data) + 1)
    return np.frombuffer(data[:size], dtype=np.uint8), count


def inputs() -> list[tuple[str, np.ndarray, str]]:
    rng = np.random.default_rng(20240601)
    stdlib = sysconfig.get_paths()["stdlib"]
    text, text_files = gather(["/usr/share/common-licenses/*", os.path.join(stdlib, "*.py"),
                               os.path.join(stdlib, "**", "*.py")], 32 * MB, repeat=True)
    binaries, binary_files = gather(["/usr/bin/*", "/usr/lib/x86_64-linux-gnu/*.so*",
                                     "/usr/lib/**/*.so*"], 64 * MB, repeat=False)
    return [
        ("random", rng.integers(0, 256, 32 * MB, dtype=np.uint8), "uniform random bytes"),
        ("text", text, f"{text_files} license/.py files, repeated"),
        ("binaries", binaries, f"{binary_files} files from /usr/bin, /usr/lib"),
        ("zeros", np.zeros(32 * MB, dtype=np.uint8), "all 0x00"),
    ]


def best_of(runs: int, *fns) -> list[float]:
    """Best wall time of each function, runs alternating so load changes hit all alike."""
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def two_threads(buffers) -> float:
    """Wall time for one sum_table per buffer, each on its own thread."""
    threads = [threading.Thread(target=sum_table, args=(b,)) for b in buffers]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per figure (best is kept)")
    parser.add_argument("--small", action="store_true", help="also time short inputs")
    args = parser.parse_args()

    print(f"CPU: {cpu_model()} ({os.cpu_count()} logical CPUs)")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}")
    warm_up()
    data = inputs()

    print(f"\nsingle thread, best of {args.runs} (MB = 2**20 bytes)")
    print(f"{'input':<9} {'MB':>5} {'kernel MB/s':>12} {'md5 MB/s':>9} {'ratio':>6}   contents")
    for name, buf, what in data:
        view = memoryview(buf)
        sum_table(buf)  # warm-up: tables, first-touch of the histogram
        kernel, md5 = best_of(args.runs, lambda: sum_table(buf), lambda: hashlib.md5(view).digest())
        size = len(buf) / MB
        print(f"{name:<9} {size:5.0f} {size / kernel:12.0f} {size / md5:9.0f} "
              f"{md5 / kernel:6.2f}   {what}")

    print(f"\ntwo threads, each with its own buffer, best of {args.runs}")
    print(f"{'input':<9} {'1 thread MB/s':>14} {'2 threads MB/s':>15} {'speed-up':>9}")
    for name, buf, _ in data:
        if name == "binaries":
            buf = buf[:32 * MB]
        other = buf.copy()  # a buffer of its own for the second thread
        size = len(buf) / MB
        one = best_of(args.runs, lambda: sum_table(buf))[0]
        both = min(two_threads([buf, other]) for _ in range(args.runs))
        print(f"{name:<9} {size / one:14.0f} {2 * size / both:15.0f} {one * 2 / both:9.2f}")

    if args.small:
        print("\nshort inputs (random bytes), best of 5 x many calls")
        print(f"{'bytes':>8} {'us/call':>9} {'MB/s':>8} {'md5 us':>8}")
        rng = np.random.default_rng(1)
        for size in (0, 100, 1000, 10_000, 65_536, 262_144):
            chunk = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
            calls = max(20, 2_000_000 // (size + 2000))
            kernel, md5 = best_of(5, lambda: [sum_table(chunk) for _ in range(calls)],
                                  lambda: [hashlib.md5(chunk).digest() for _ in range(calls)])
            us = kernel / calls * 1e6
            rate = f"{size / us:8.0f}" if size else f"{'-':>8}"
            print(f"{size:8d} {us:9.1f} {rate} {md5 / calls * 1e6:8.1f}")


if __name__ == "__main__":
    main()
