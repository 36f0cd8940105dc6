"""HammingIndex and hamming_pairs against simhash-py's published figures and brute force.

    python benchmarks/bench_hamming_index.py [--n N] [--queries Q] [--repeat R]

Workload of the published figures (simhash-py README, a 2011 laptop, one core,
``bench.py --random 1000000 --blocks 5 --bits 3``): N random 64-bit
fingerprints inserted into a distance-3 index, Q random queries (find_first,
find_all), then removal of all N; run with 6 blocks (this project's setting)
and with the published 5.  A second query set plants 10% of the queries
at distance 1..3 of stored fingerprints so find_all returns something.  Then:
brute force (numpy XOR + popcount over every stored fingerprint) on a few
queries, extrapolated per query, with the index's answers checked against it;
and hamming_pairs on N fingerprints with ~10% near-duplicates, for several
block counts and the default, checked against brute force on a sample, and
against simhash-pybind's ``find_all`` (seomoz's C++ index, whose figures simhash-py
published) on the same fingerprints, timed in this run where it is installed
(``pip install simhash-pybind``; the published columns are not of this machine).  One
thread; numba is warmed up first and compile time is excluded; each timing is
the best of --repeat runs.  All figures but the published ones come from this
run.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from simgui.core.search.hamming_index import HammingIndex, _default_blocks, hamming_pairs  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_sumtable import cpu_model  # noqa: E402

# simhash-py (seomoz) README, "a 2011-ish MacBook Pro", one core:
# ./bench.py --random 1000000 --blocks 5 --bits 3
PUBLISHED = {"insert": 2.534, "find_first": 4.795, "find_all": 7.415, "remove": 3.346}
PUBLISHED_BLOCKS = 5
BLOCKS, DISTANCE = 6, 3  # the configuration this project asked for


def best(fn, repeat):
    """(best seconds, last result) over ``repeat`` runs."""
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def flip_bits(rng, values, low, high):
    """Each value with a random set of ``low..high`` distinct bits flipped."""
    m = values.shape[0]
    k = rng.integers(low, high + 1, m)
    order = np.argsort(rng.random((m, 64)), axis=1).astype(np.uint64)
    bits = np.where(np.arange(64) < k[:, None], np.uint64(1) << order, np.uint64(0))
    return values ^ np.bitwise_or.reduce(bits, axis=1)


def random_fps(rng, n):
    return rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)


def brute_force(stored, queries, d):
    """Per query, the sorted stored fingerprints within d (numpy, all stored)."""
    return [np.sort(stored[np.bitwise_count(stored ^ q) <= d]) for q in queries]


def warm_up():
    rng = np.random.default_rng(0)
    fps = random_fps(rng, 1000)
    index = HammingIndex(BLOCKS, DISTANCE)
    index.add(fps)
    index.remove(fps[:10])
    index.find_first(fps)
    index.find_all(fps)
    for b in range(DISTANCE + 1, DISTANCE + 5):
        hamming_pairs(fps, DISTANCE, b)


def run_index(args, blocks, fps, queries, planted, pick, truth) -> bool:
    """Time one index configuration; check its answers on ``pick`` against ``truth``."""
    def build():
        index = HammingIndex(blocks, DISTANCE)
        index.add(fps)
        return index

    def build_then_remove():
        index = build()
        t = time.perf_counter()
        index.remove(fps)
        return time.perf_counter() - t, len(index)

    rows = []
    t_insert, index = best(build, args.repeat)
    rows.append(("insert", f"{args.n:,} fps", t_insert, PUBLISHED["insert"]))
    results = {}
    for name, qs in (("random", queries), ("10% planted", planted)):
        t_first, (_, found) = best(lambda: index.find_first(qs), args.repeat)
        t_all, res = best(lambda: index.find_all(qs), args.repeat)
        hits = sum(r.shape[0] for r in res)
        results[name] = res
        rows.append(("find_first", f"{name}, {found.sum():,} found", t_first,
                     PUBLISHED["find_first"]))
        rows.append(("find_all", f"{name}, {hits:,} matches", t_all, PUBLISHED["find_all"]))
    removals = [build_then_remove() for _ in range(args.repeat)]
    assert all(left == 0 for _, left in removals)
    rows.append(("remove", f"all {args.n:,} fps", min(t for t, _ in removals),
                 PUBLISHED["remove"]))

    note = " (simhash-py's published run)" if blocks == PUBLISHED_BLOCKS else ""
    print(f"HammingIndex({blocks}, {DISTANCE}){note}: {index.num_tables} tables, "
          f"{args.n:,} stored, {args.queries:,} queries")
    print(f"{'operation':<11} {'workload':<36} {'seconds':>8} {'simhash-py 2011':>16} "
          f"{'speed-up':>9}")
    for op, what, secs, pub in rows:
        print(f"{op:<11} {what:<36} {secs:8.3f} {pub:15.2f}s {pub / secs:8.1f}x")

    res = results["10% planted"]
    matches, found = index.find_first(planted[pick])
    ok_all = all(np.array_equal(res[i], want) for i, want in zip(pick, truth))
    ok_first = all(f == (want.shape[0] > 0) and (not f or m in want)
                   for m, f, want in zip(matches, found, truth))
    print(f"answers on {pick.shape[0]} of the planted queries vs brute force: find_all "
          f"{'equal' if ok_all else 'DIFFERENT'}, find_first "
          f"{'consistent' if ok_first else 'INCONSISTENT'} "
          f"({sum(w.shape[0] for w in truth)} matches)\n")
    return ok_all and ok_first


def peer_pairs(near: np.ndarray, ours: np.ndarray, repeat: int, our_secs: float) -> bool:
    """The same pairs by simhash-pybind's ``find_all`` (seomoz's C++ table index, which
    simhash-py's published figures are of), timed in this run on the same fingerprints
    (its set of ints made before the clock starts), if it is installed; True unless
    its pairs differ from ours."""
    try:
        from simhash import _simhash
    except ImportError:
        print("simhash-pybind: not installed (pip install simhash-pybind): no peer measured "
              "in this run; the 'simhash-py 2011' columns above are its authors' figures")
        return True
    values = set(near.tolist())
    secs, found = best(lambda: _simhash.find_all(values, BLOCKS, DISTANCE), repeat)
    # its pairs are of values, each pair once: ours are of indices, so compare as values
    theirs = {(min(a, b), max(a, b)) for a, b in found}
    mine = {(min(a, b), max(a, b)) for a, b in near[ours].tolist() if a != b}
    same = theirs == mine
    print(f"simhash-pybind find_all({BLOCKS} blocks, {DISTANCE} bits), one thread: "
          f"{secs:.3f} s, {len(theirs):,} pairs of distinct values "
          f"({'the same' if same else 'NOT the same'} as ours); hamming_pairs with "
          f"{BLOCKS} blocks is {secs / our_secs:.1f} x as fast")
    return same


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="stored fingerprints")
    parser.add_argument("--queries", type=int, default=1_000_000, help="queries")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--brute", type=int, default=200, help="queries for brute force")
    parser.add_argument("--seed", type=int, default=20110101)
    args = parser.parse_args(argv)

    print(f"machine: {platform.platform()}, {cpu_model()}, {os.cpu_count()} CPUs")
    print(f"versions: Python {platform.python_version()}, numpy {np.__version__}, "
          f"numba {numba.__version__}")
    print("command: " + " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:]))
    t = time.perf_counter()
    warm_up()
    print(f"numba warm-up (compile or cache load, excluded below): "
          f"{time.perf_counter() - t:.1f} s")
    print(f"one thread; best of {args.repeat}; time.perf_counter")
    if args.n != 1_000_000 or args.queries != 1_000_000:
        print("(the published figures are for 1,000,000 fps and 1,000,000 queries: "
              "the ratios below are not like for like)")
    print()

    rng = np.random.default_rng(args.seed)
    fps = random_fps(rng, args.n)
    queries = random_fps(rng, args.queries)
    planted = queries.copy()
    where = rng.choice(args.queries, args.queries // 10, replace=False)
    planted[where] = flip_bits(rng, fps[rng.integers(0, args.n, where.shape[0])], 1, DISTANCE)

    pick = np.concatenate([where[: args.brute // 2],
                           rng.choice(args.queries, args.brute - args.brute // 2)])
    t = time.perf_counter()
    truth = brute_force(fps, planted[pick], DISTANCE)
    per_query = (time.perf_counter() - t) / pick.shape[0]

    ok = True
    for blocks in (BLOCKS, PUBLISHED_BLOCKS):
        ok = run_index(args, blocks, fps, queries, planted, pick, truth) and ok

    print(f"brute force (numpy XOR + popcount over all {args.n:,} stored), "
          f"{pick.shape[0]} queries: {per_query * 1e3:.2f} ms/query, "
          f"{per_query * args.queries:,.0f} s extrapolated to {args.queries:,} queries\n")

    # all pairs with planted near-duplicates
    near = random_fps(rng, args.n)
    dup = rng.choice(args.n, args.n // 10, replace=False)
    near[dup] = flip_bits(rng, near[rng.integers(0, args.n, dup.shape[0])], 0, DISTANCE)
    print(f"hamming_pairs: {args.n:,} fps, {dup.shape[0]:,} planted at distance 0..{DISTANCE} "
          f"of others")
    print(f"{'num_blocks':>10} {'tables':>7} {'seconds':>8} {'pairs':>10}")
    ok_pairs = True
    reference = None
    seconds = {}
    chosen = _default_blocks(args.n, DISTANCE)
    for b in list(range(DISTANCE + 1, DISTANCE + 5)) + [None]:
        secs, (pairs, dist) = best(lambda: hamming_pairs(near, DISTANCE, b), args.repeat)
        seconds[b] = secs
        if reference is None:
            reference = (pairs, dist)
        same = np.array_equal(pairs, reference[0]) and np.array_equal(dist, reference[1])
        label = f"default={chosen}" if b is None else str(b)
        tables = HammingIndex(chosen if b is None else b, DISTANCE).num_tables
        print(f"{label:>10} {tables:>7} {secs:8.3f} {pairs.shape[0]:>10,}"
              f"{'' if same else '  DIFFERENT from the first row'}")
        ok_pairs = ok_pairs and same
    ok_pairs = peer_pairs(near, reference[0], args.repeat, seconds[BLOCKS]) and ok_pairs
    # brute force on a sample: the pairs among 3,000 indices must be exactly
    # the reported pairs with both ends in the sample
    sample = np.sort(rng.choice(args.n, min(args.n, 3000), replace=False))
    sample = np.union1d(sample, reference[0][: min(500, reference[0].shape[0])].ravel())
    close = np.bitwise_count(near[sample][:, None] ^ near[sample][None, :]) <= DISTANCE
    i, j = np.nonzero(np.triu(close, 1))
    want = np.stack([sample[i], sample[j]], axis=1)
    inside = np.isin(reference[0], sample).all(axis=1)
    ok_sample = np.array_equal(reference[0][inside], want)
    print(f"pairs vs brute force among {sample.shape[0]:,} sampled indices "
          f"({want.shape[0]:,} pairs): {'equal' if ok_sample else 'DIFFERENT'}")
    return 0 if ok and ok_pairs and ok_sample else 1


if __name__ == "__main__":
    sys.exit(main())
