"""SimFind speed: find_pairs on 100,000 and 1,000,000 files, against numpy's sort.

    python benchmarks/bench_simfind.py [--sizes 100000 1000000] [--corpus realistic|legacy]
                                       [--malloc-default]

Printed, all from one run: time to sort the n keys with numpy (the faster of its
default sort and its sort with AVX-512 code off, which is far faster on some AMD
CPUs), find_pairs time,
their ratio (target <= 30; the search on all cores, the sort on one), the search's
time pinned to one CPU and that ratio, pairs found, time per pair found, candidates (files
within a file's key window in its neighbour cells: how dense the collection is
to the search), the files its scans looked at (small cells whole, key windows in
blocks of 16: what the work costs), those that passed its one-word filter to the
exact test, and the growth exponent from the smallest to the largest n (n log n
gives about 1.08 for a 10x step; quadratic gives 2).

The process keeps freed memory for reuse, as the application and the command
line do (simgui.core.memory), unless ``--malloc-default``: then each search's
temporary arrays come back from the kernel as fresh pages, which costs about a
tenth more at 1,000,000 files.

The corpus ("realistic", the default)
--------------------------------------
Modelled on, and checked against, the sum tables of 118,699 real files (every
file under /usr and /opt of a Linux development machine, 13 GB):

* sizes log-normal, median 2 KB, log-sd 1.9 (measured: median 2,028 bytes,
  log-sd 1.89);
* a dozen file "types" (the 20 most common of 486 extensions hold 92 % of the
  real files), popularity falling with rank; each type's tag rates sum to
  0.3-0.7 counts per byte (measured: 5-95 % of files between 0.34 and 0.70);
  the least popular type (about 3 % of files; measured 2.7 %) is compressed data,
  whose counts are Poisson around 0.473 per byte;
* per-file variation of a type's rates: log-normal, sd 0.15 per tag, 60 % of
  it along one direction per type (in real files the first principal component
  holds 25-80 % of the variation), times a per-file total factor (sd 0.12,
  measured 0.10-0.15), counts then drawn Poisson;
* most files stand alone; 15 % of "families" have more members (1 + Zipf(2.5),
  at most 300, like the real clusters of boilerplate files): 30 % exact copies,
  the rest edits of 0.01-5 % of the bytes, which may change the size;
* the file types come from the seed alone, so 100,000 and 1,000,000 files are
  two samples of one collection (otherwise the growth figure compares
  different collections).

Calibration (at 118,699 files, key and sum-table tolerance 1 %): the search
examines 17.8 candidates per file here, 20.2 on the real files; it finds 0.59
similar class pairs per file here, 0.41 real; the L1 distance over the size of
same-type neighbours in size order has quartiles 0.067 / 0.091 / 0.124 here,
0.075 / 0.108 / 0.163 real.  Candidate density varies a lot with the draw of
the type table (6-18 per file over seeds 0-7 at this variation); the seed is
the one closest to the real files.  (With per-tag variation of 0.4, as the
per-tag spread of real files suggests when taken alone, the density falls to
3.5 per file: an easier corpus than the real files.)

The legacy corpus
-----------------
The one this benchmark used before (``--corpus legacy``).  Two artefacts made
its found pairs grow 200-fold from 100,000 to 1,000,000 files: the type table
was drawn anew for each size (two different collections), and its types have
tag rates down to 0.05 per byte, a tenth of real files', so the tables are so
small against the 1 % tolerance of the size that unrelated files of such a type
are "similar" by the hundred thousand (with one type table its pairs still grow
91-100-fold, quadratically).  It also copies near-copies' sizes and tables from
a file of any other type.  Its candidate density is high (33.7 per file at
118,699 files), so it remains a useful stress test.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from simgui.core.search.keys import SKEW  # noqa: E402
from simgui.core.memory import NotEnoughMemory, keep_freed_memory  # noqa: E402
from simgui.core.search.budget import check_affordable  # noqa: E402
from simgui.core.search.simfind import SearchSpace, Tolerances, find_pairs  # noqa: E402

SEED = 3


def file_types(seed: int = SEED, n_types: int = 12, compressed: int = 1):
    """Tag rates per type (counts per byte), each type's direction of variation, and
    their popularity; the last ``compressed`` types are compressed data."""
    rng = np.random.default_rng(seed)
    popularity = 1.0 / np.arange(1, n_types + 1) ** 0.8
    popularity /= popularity.sum()
    shares = rng.dirichlet(np.ones(16) * 0.7, n_types)
    rates = shares * rng.uniform(0.3, 0.7, (n_types, 1))
    rates[n_types - compressed:] = 0.473 / 16
    direction = rng.normal(0, 1, (n_types, 16))
    direction /= np.sqrt((direction ** 2).mean(axis=1, keepdims=True))
    is_compressed = np.zeros(n_types, bool)
    is_compressed[n_types - compressed:] = True
    return rates, direction, popularity, is_compressed


def corpus(n: int, rng: np.random.Generator | None = None, *, seed: int = SEED,
           sigma: float = 0.15, rho: float = 0.6, with_families: bool = False):
    """n files of the realistic corpus (see the module docstring): sizes, tables,
    extensions.  The file types come from ``seed``; the files from ``rng`` if given,
    else from a generator seeded with (seed, n).  With ``with_families``, also each file's
    family (its number) and the share of its bytes edited from the family's first
    file (0 for that one and for exact copies): what its contents would share."""
    rates, direction, popularity, is_compressed = file_types(seed)
    rng = np.random.default_rng([seed, n]) if rng is None else rng
    families = []
    count = 0
    while count < n:
        k = np.where(rng.random(4096) < 0.85, 1, 1 + np.minimum(rng.zipf(2.5, 4096), 300))
        families.append(k)
        count += int(k.sum())
    families = np.concatenate(families)
    families = families[:np.searchsorted(np.cumsum(families), n) + 1]
    n_fam = len(families)
    base_size = np.maximum(1, np.exp(rng.normal(7.6, 1.9, n_fam))).astype(np.int64)
    kind = rng.choice(len(rates), n_fam, p=popularity)
    common = rng.normal(0, 1, (n_fam, 1)) * direction[kind]
    own = rng.normal(0, 1, (n_fam, 16))
    variation = np.exp(sigma * (np.sqrt(1 - rho ** 2) * own + rho * common))
    variation *= rng.lognormal(0, 0.12, (n_fam, 1))
    variation[is_compressed[kind]] = rng.lognormal(0, 0.02, (int(is_compressed[kind].sum()), 16))
    base_rate = rates[kind] * variation
    base_table = rng.poisson(base_size[:, None] * base_rate)
    family = np.repeat(np.arange(n_fam), families)[:n]
    first = np.r_[True, family[1:] != family[:-1]]
    sizes = base_size[family].copy()
    tables = base_table[family].copy()
    # members after the first: exact copies (30 %) or edits of 0.01 % to 5 % of the bytes
    edited = np.flatnonzero(~first & (rng.random(n) >= 0.3))
    share = np.exp(rng.uniform(np.log(1e-4), np.log(5e-2), len(edited)))
    grown = np.round(sizes[edited] * share * rng.uniform(-1, 1, len(edited))).astype(np.int64)
    kept = rng.binomial(tables[edited], 1 - share[:, None])
    added = rng.poisson(base_rate[family[edited]]
                        * (share * sizes[edited] + np.maximum(grown, 0))[:, None])
    tables[edited] = kept + added
    sizes[edited] = np.maximum(1, sizes[edited] + grown)
    order = rng.permutation(n)
    kinds = kind[family][order]
    out = sizes[order], tables[order].astype(np.int64), [f"e{k}" for k in kinds]
    if with_families:
        edit = np.zeros(n)
        edit[edited] = share
        return (*out, family[order], edit[order])
    return out


def legacy_corpus(n: int, rng: np.random.Generator):
    """The corpus this benchmark used before (see the module docstring)."""
    sizes = np.maximum(1, np.exp(rng.normal(9.0, 2.0, n))).astype(np.int64)
    types = rng.dirichlet(np.ones(16) * 0.7, 40) * rng.uniform(0.05, 0.5, (40, 1))
    kind = rng.integers(0, 40, n)
    rates = types[kind] * rng.lognormal(0.0, 0.25, (n, 16))
    tables = (sizes[:, None] * rates).astype(np.int64)
    near = rng.random(n) < 0.02
    source = rng.integers(0, n, n)
    tables[near] = (tables[source[near]]
                    * rng.uniform(0.99, 1.01, (near.sum(), 16))).astype(np.int64)
    sizes[near] = sizes[source[near]]
    return sizes, tables, [f"e{k}" for k in kind]


def wide_simd_features() -> list[str]:
    """numpy's dispatch targets for AVX-512 that this CPU has."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy moved its internals: measure the default sort only
        return []
    return [f for f in __cpu_dispatch__ if __cpu_features__.get(f) and ("512" in f or "V4" in f)]


def sort_without_avx512(keys: np.ndarray, repeat: int) -> float | None:
    """Seconds numpy takes to sort ``keys`` with its AVX-512 code turned off, or None.

    On some CPUs numpy's AVX-512 sort is several times slower than its AVX2 sort
    (seen on an AMD EPYC: 53 ms against 10 ms for a million doubles), which would
    make any search look fast beside it; the yardstick is the faster of the two.
    """
    features = wide_simd_features()
    if not features:
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "keys.npy")
        np.save(path, keys)
        code = ("import sys, time, numpy as np\n"
                "k = np.load(sys.argv[1])\n"
                "best = float('inf')\n"
                f"for _ in range({repeat}):\n"
                "    t = time.perf_counter(); np.sort(k); best = min(best, time.perf_counter() - t)\n"
                "print(best)\n")
        env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(features))
        done = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True,
                              text=True)
    try:
        return float(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def best_of(repeat, fn):
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def one_core(run):
    """``run()`` with this process pinned to one CPU (where the platform allows), the
    result; its threads then share that core."""
    if not hasattr(os, "sched_getaffinity"):
        return math.nan
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    try:
        return run()
    finally:
        os.sched_setaffinity(0, cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--corpus", choices=["realistic", "legacy"], default="realistic")
    parser.add_argument("--key-tolerance", type=float, default=1.0)
    parser.add_argument("--sum-tolerance", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs per timing (the sort: at least 5); the best counts")
    parser.add_argument("--malloc-default", action="store_true",
                        help="leave malloc as it is (the app keeps freed memory for reuse)")
    args = parser.parse_args()
    kept = not args.malloc_default and keep_freed_memory()
    legacy_rng = np.random.default_rng(2007)
    make = ((lambda n: corpus(n)) if args.corpus == "realistic"
            else (lambda n: legacy_corpus(n, legacy_rng)))
    tol = Tolerances(args.key_tolerance, args.sum_tolerance)
    find_pairs(np.arange(10), np.ones((10, 16), np.int64))  # compile / load numba cache
    print(f"{args.corpus} corpus; tolerances: key {tol.key} %, sum table {tol.sum} %, Skew key; "
          + ("freed memory kept for reuse, as in the app" if kept else "malloc as it is"))
    from simgui.core.search.workers import workers
    # numpy's sort runs on one thread; the search on all of them: the ratio is given
    # both ways (one core: the process pinned to one CPU while it searches)
    print(f"the search uses {workers()} threads; numpy's sort one. 'ratio': find / sort; "
          "'1 core': the search pinned to one CPU, and its ratio")
    print(f"{'files':>9}{'sort s':>9}{'find s':>8}{'ratio':>7}{'1 core':>8}{'ratio':>7}"
          f"{'pairs':>10}{'us/pair':>9}"
          f"{'candidates':>12}{'per file':>9}{'looked at':>12}{'filtered':>10}"
          "  (with extensions: find s, pairs)")
    rows = []
    for n in args.sizes:
        sizes, tables, exts = make(n)
        keys = SKEW.keys(tables)
        t_default, _ = best_of(max(5, args.repeat), lambda: np.sort(keys))
        t_narrow = sort_without_avx512(keys, max(5, args.repeat))
        t_sort = min(t_default, t_narrow or math.inf)
        if t_narrow is not None:
            print(f"  numpy sorts {n} keys in {t_default * 1000:.1f} ms, {t_narrow * 1000:.1f} ms "
                  f"with its AVX-512 code off; the faster is the yardstick")
        try:  # a search that would not fit in the memory available is not started
            check_affordable(SearchSpace.build(sizes, tables), tol)
        except NotEnoughMemory as exc:
            print(f"{n:>9}{t_sort:>9.4f}  skipped: {exc}")
            continue
        t_find, pairs = best_of(args.repeat, lambda: find_pairs(
            sizes, tables, key_tolerance=tol.key, sum_tolerance=tol.sum))
        t_one = one_core(lambda: best_of(args.repeat, lambda: find_pairs(
            sizes, tables, key_tolerance=tol.key, sum_tolerance=tol.sum))[0])
        _, work = SearchSpace.build(sizes, tables)._class_pairs_counted(tol)
        t_ext, pairs_ext = best_of(1, lambda: find_pairs(
            sizes, tables, key_tolerance=tol.key, sum_tolerance=tol.sum, extensions=exts))
        rows.append((n, t_find, len(pairs), work["examined"]))
        print(f"{n:>9}{t_sort:>9.4f}{t_find:>8.3f}{t_find / t_sort:>7.0f}"
              f"{t_one:>8.3f}{t_one / t_sort:>7.0f}{len(pairs):>10}"
              f"{1e6 * t_find / max(len(pairs), 1):>9.2f}{work['examined']:>12}"
              f"{work['examined'] / n:>9.1f}{work['looked_at']:>12}{work['filtered']:>10}"
              f"  ({t_ext:.2f} s, "
              f"{len(pairs_ext)})")
    # what a slider needs: hit counts at a new tolerance, looked up, not searched
    from simgui.core.search.tolerance_stats import ToleranceStats
    from simgui.core.search.budget import BYTES_PER_KEPT_PAIR, pair_budget
    n = args.sizes[0]
    sizes, tables, exts = make(n)
    space = SearchSpace.build(sizes, tables, extensions=exts)
    # as the window: the pairs kept for groups are what the memory available holds
    kept = pair_budget(BYTES_PER_KEPT_PAIR)
    t_build, stats = best_of(1, lambda: ToleranceStats.build(
        space, max_found=kept, max_kept=kept, steps_only=True))
    ceiling = stats.max_sum
    if ceiling < 10.0:
        print(f"the sum-table ceiling for groups comes down to {ceiling:g} %: the similar pairs "
              f"up to 10 % would not fit in the memory available (counts still cover the "
              "whole range)")
    ask = Tolerances(2.0, min(1.5, ceiling), 0.0)  # synthetic tables: no contents to check
    t_lookup, counts = best_of(5, lambda: stats.counts(ask))
    print(f"tolerance statistics for {n} files up to 10 % (groups up to {ceiling:g} %): built in "
          f"{t_build:.2f} s, {stats.key_hits_at[-1]:,} key hits tallied, "
          f"{stats.pairs_kept:,} class pairs kept; one slider update (key hits, "
          f"sum-table hits, groups) {t_lookup * 1000:.1f} ms -> {counts}")
    if len(rows) > 1:
        (n0, t0, p0, e0), (n1, t1, p1, e1) = rows[0], rows[-1]
        step = math.log(n1 / n0)
        nlogn = math.log(n1 * math.log(n1) / (n0 * math.log(n0))) / step
        print(f"growth {n0} -> {n1}: time x{t1 / t0:.1f}, exponent {math.log(t1 / t0) / step:.2f} "
              f"(n log n = {nlogn:.2f}); pairs x{p1 / p0:.1f} (exponent "
              f"{math.log(max(p1, 1) / max(p0, 1)) / step:.2f}); candidates x"
              f"{e1 / max(e0, 1):.1f} (exponent {math.log(max(e1, 1) / max(e0, 1)) / step:.2f})")


if __name__ == "__main__":
    main()
