"""SimFind speed: find_pairs on 100,000 and 1,000,000 files, against numpy's sort.

    python benchmarks/bench_simfind.py [--sizes 100000 1000000]

The corpus imitates real collections: log-normal file sizes (median 8 KB),
each file's tag rates drawn per "file type" (a few dozen types, as extensions
are) with per-file variation, and 2% of files being near-copies (0.1-1% of
their counts changed) of another file.  Printed, all from one run: time to
sort the n keys with numpy, find_pairs time, their ratio (target <= 30), and
the growth exponent from the smallest to the largest n (n log n gives about
1.1 for a 10x step; quadratic gives 2).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from simgui.core.keys import SKEW  # noqa: E402
from simgui.core.simfind import find_pairs  # noqa: E402


def corpus(n: int, rng: np.random.Generator):
    sizes = np.maximum(1, np.exp(rng.normal(9.0, 2.0, n))).astype(np.int64)
    types = rng.dirichlet(np.ones(16) * 0.7, 40) * rng.uniform(0.05, 0.5, (40, 1))
    kind = rng.integers(0, 40, n)
    rates = types[kind] * rng.lognormal(0.0, 0.25, (n, 16))
    tables = (sizes[:, None] * rates).astype(np.int64)
    near = rng.random(n) < 0.02
    source = rng.integers(0, n, n)
    tables[near] = (tables[source[near]] * rng.uniform(0.99, 1.01, (near.sum(), 16))).astype(np.int64)
    sizes[near] = sizes[source[near]]
    return sizes, tables, [f"e{k}" for k in kind]


def best_of(repeat, fn):
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--key-tolerance", type=float, default=1.0)
    parser.add_argument("--sum-tolerance", type=float, default=1.0)
    args = parser.parse_args()
    rng = np.random.default_rng(2007)
    find_pairs(np.arange(10), np.ones((10, 16), np.int64))  # compile / load numba cache
    print(f"tolerances: key {args.key_tolerance} %, sum table {args.sum_tolerance} %, Skew key")
    print(f"{'files':>10}{'sort s':>10}{'find s':>10}{'ratio':>8}{'pairs':>10}  (with extensions: find s, pairs)")
    rows = []
    for n in args.sizes:
        sizes, tables, exts = corpus(n, rng)
        keys = SKEW.keys(tables)
        t_sort, _ = best_of(3, lambda: np.sort(keys))
        t_find, pairs = best_of(2, lambda: find_pairs(sizes, tables, key_tolerance=args.key_tolerance,
                                                      sum_tolerance=args.sum_tolerance))
        t_ext, pairs_ext = best_of(1, lambda: find_pairs(
            sizes, tables, key_tolerance=args.key_tolerance, sum_tolerance=args.sum_tolerance,
            extensions=exts))
        rows.append((n, t_find))
        print(f"{n:>10}{t_sort:>10.3f}{t_find:>10.2f}{t_find / t_sort:>8.0f}{len(pairs):>10}"
              f"  ({t_ext:.2f} s, {len(pairs_ext)})")
    # what a slider needs: hit counts at a new tolerance, looked up, not searched
    from simgui.core.simfind import SearchSpace, Tolerances
    from simgui.core.tolerance_stats import ToleranceStats
    n = args.sizes[0]
    sizes, tables, exts = corpus(n, rng)
    t_build, stats = best_of(1, lambda: ToleranceStats.build(
        SearchSpace.build(sizes, tables, extensions=exts), max_key=10.0))
    t_lookup, counts = best_of(5, lambda: stats.counts(Tolerances(2.0, 1.5)))
    print(f"tolerance statistics for {n} files up to 10 %: built in {t_build:.2f} s over "
          f"{len(stats.min_key)} candidate class pairs; one slider update (key hits, sum-table "
          f"hits, groups) {t_lookup * 1000:.1f} ms -> {counts}")
    if len(rows) > 1:
        (n0, t0), (n1, t1) = rows[0], rows[-1]
        exponent = math.log(t1 / t0) / math.log(n1 / n0)
        print(f"growth {n0} -> {n1}: time x{t1 / t0:.1f} for n x{n1 / n0:.0f}, "
              f"exponent {exponent:.2f} (n log n = {math.log(n1 * math.log(n1) / (n0 * math.log(n0))) / math.log(n1 / n0):.2f})")


if __name__ == "__main__":
    main()
