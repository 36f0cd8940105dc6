"""The distributed search (simgui cluster pairs) on synthetic datasets, on a local Dask cluster.

    python benchmarks/bench_cluster.py [--sizes 1000000 3000000 10000000] [--workers 4]
                                       [--part-rows 100000] [--check-local]

For each size n: a dataset of n synthetic files is written as Parquet parts (the
realistic corpus of bench_simfind.py: sizes, sum tables and extensions of file families
with copies and edits; content hashes equal for equal size and table), a LocalCluster
of ``--workers`` worker processes (one thread each) is started, its workers load the
numba kernels once, and ``simgui.cluster.search.find`` runs: time per stage (reading
and hash buckets, classes, the banded search, the client's final pass over the files
that have a partner), pairs found, and the peak memory (max RSS) of each worker and of
the client.  The growth exponent from the smallest to the largest n closes the table
(1.0: linear).  ``--check-local`` also runs the single-machine search
(core.search.pairs.similar_pairs) on all n files and checks that the pairs are the
same (it needs the memory of a local search of n files).

The synthetic files have no content fingerprints, so the search runs without the
content check (the paper's method as published, key 3.2 %, sum table 1 %).

Timings need a quiet machine: run it alone (the figures in docs/cluster.md say where
they were taken).  The shared development machine ran it only at small sizes.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from bench_simfind import corpus  # noqa: E402

from simgui.core.search.simfind import Tolerances  # noqa: E402


def write_dataset(folder: str, n: int, part_rows: int) -> int:
    """n synthetic files as a dataset (dataset.json and parts); returns the parts."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from simgui.cluster.dataset import MINHASH_SLOTS, SCHEMA, TAG_COUNT, Generation
    from simgui.core.tags import DEFAULT_TAGS

    sizes, tables, exts = corpus(n)
    rng = np.random.default_rng(11)
    weights = rng.integers(1, 2**62, (2, TAG_COUNT + 1), dtype=np.int64)
    with np.errstate(over="ignore"):
        h = np.stack([tables @ w[:TAG_COUNT] + sizes * w[TAG_COUNT] for w in weights], -1)
    generation = Generation(folder)
    parts = 0
    for start in range(0, n, part_rows):
        stop = min(n, start + part_rows)
        rows = np.arange(start, stop)
        paths = [f"/fleet/server{i % 7}/d{i // 1000:05d}/f{i}.{exts[i]}".encode()
                 for i in rows.tolist()]
        order = np.argsort(np.array(paths, dtype=object), kind="stable")
        rows = rows[order]
        m = len(rows)
        table = pa.Table.from_arrays([
            pa.array([paths[i] for i in order.tolist()], pa.binary()),
            pa.array(sizes[rows]),
            pa.array(np.full(m, 1_700_000_000_000_000_000, np.int64)),
            pa.array(np.full(m, 2049, np.uint64)),
            pa.array(rows.astype(np.uint64) + 1),
            pa.array([exts[i].encode() for i in rows.tolist()], pa.binary()),
            pa.FixedSizeListArray.from_arrays(pa.array(tables[rows].reshape(-1)), TAG_COUNT),
            pa.array([x.tobytes() for x in h[rows]], pa.binary(16)),
            pa.nulls(m, pa.uint64()),  # no fingerprints: the synthetic files have no content
            pa.FixedSizeListArray.from_arrays(
                pa.array(np.zeros(m * MINHASH_SLOTS, np.uint32)), MINHASH_SLOTS),
            pa.nulls(m, pa.binary()),
        ], schema=SCHEMA)
        pq.write_table(table, generation.part_path(parts))
        parts += 1
    generation.commit(["/fleet"], DEFAULT_TAGS, False, [])
    return parts


def _peak_rss() -> int:
    """This process's own peak resident memory: VmHWM, the high-water mark of its own
    address space.  Not getrusage's ru_maxrss, which on Linux keeps the largest of the
    process's and its parent's at the fork (exec records the old address space's mark):
    every worker of a LocalCluster started by a client that had just written a large
    dataset reported that client's size, the same to the MiB on every worker."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _warm_up() -> None:
    """Load the numba kernels (compiled into the cache) before the clock starts."""
    from simgui.core.search.pairs import similar_pairs
    from simgui.core.store import StoredFiles

    n = 50
    rng = np.random.default_rng(0)
    tables = rng.integers(0, 100, (n, 16)).astype(np.int64)
    sizes = np.full(n, 4000, np.int64)
    similar_pairs(StoredFiles(np.arange(n), [""] * n, sizes, sizes, sizes, sizes, tables,
                              [bytes(16)] * n, ["x"] * n, np.zeros(n, np.uint64), None,
                              np.zeros(n, bool)), Tolerances(3.2, 1.0, 0.0))


def run(folder: str, workers: int, search) -> dict:
    import logging

    from distributed import Client, LocalCluster

    from simgui.cluster.search import find

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        client.run(_warm_up)
        _warm_up()
        started = time.perf_counter()
        stages: dict[str, float] = {}

        def progress(stage, done, total):
            if done == total:
                stages[stage] = time.perf_counter() - started
        found = find(client, folder, search, progress)
        total = time.perf_counter() - started
        peaks = sorted(client.run(_peak_rss).values())
    return {"total": total, "stages": stages, "pairs": len(found.pairs),
            "involved": len(found.files), "peaks": peaks, "client": _peak_rss(),
            "found": found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+",
                        default=[1_000_000, 3_000_000, 10_000_000])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--part-rows", type=int, default=100_000)
    parser.add_argument("--check-local", action="store_true",
                        help="also run the single-machine search and compare the pairs")
    parser.add_argument("--keep", metavar="DIR", help="write the datasets under DIR, kept")
    args = parser.parse_args()

    from simgui.cluster.search import Search

    search = Search(tolerances=Tolerances(3.2, 1.0, 0.0))
    print(f"{args.workers} worker processes of one thread, {os.cpu_count()} CPUs; "
          "paper's method, key 3.2 %, sum table 1 %, no content check")
    print(f"{'files':>10}{'parts':>6}{'write s':>8}{'search s':>9}{'read':>7}{'classes':>8}"
          f"{'bands':>7}{'client':>7}{'pairs':>10}{'in pairs':>10}{'worker peak MiB':>24}"
          f"{'client MiB':>11}")
    results = []
    base = args.keep or tempfile.mkdtemp(prefix="simgui-bench-cluster-")
    try:
        for n in args.sizes:
            folder = os.path.join(base, f"dataset-{n}")
            t = time.perf_counter()
            parts = write_dataset(folder, n, args.part_rows)
            written = time.perf_counter() - t
            r = run(folder, args.workers, search)
            s = r["stages"]
            mib = [p / 2**20 for p in r["peaks"]]
            print(f"{n:>10}{parts:>6}{written:>8.1f}{r['total']:>9.2f}"
                  f"{s.get('reading', 0):>7.1f}"
                  f"{s.get('classes', 0) - s.get('reading', 0):>8.1f}"
                  f"{s.get('searching', 0) - s.get('classes', 0):>7.1f}"
                  f"{r['total'] - s.get('searching', 0):>7.1f}{r['pairs']:>10}"
                  f"{r['involved']:>10}"
                  f"{f'{min(mib):.0f}-{max(mib):.0f} (mean {np.mean(mib):.0f})':>24}"
                  f"{r['client'] / 2**20:>11.0f}")
            if args.check_local:
                check_local(folder, r["found"], search)
            results.append((n, r["total"]))
            if not args.keep:
                shutil.rmtree(folder)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    if len(results) > 1:
        (n0, t0), (n1, t1) = results[0], results[-1]
        print(f"growth exponent {n0} -> {n1}: {math.log(t1 / t0) / math.log(n1 / n0):.2f} "
              "(1.0: linear)")


def check_local(folder: str, found, search) -> None:
    """The single-machine search on every file of the dataset: the same pairs?"""
    from simgui.cluster.dataset import Dataset
    from simgui.cluster.search import _fetch_rows, _stored_files

    dataset = Dataset.open(folder)
    rows = [_fetch_rows(folder, p, np.arange(dataset.read(["size"], part=p).num_rows))
            for p in range(len(dataset.parts))]
    from simgui.cluster.search import _concat
    files = _stored_files(_concat(rows))
    t = time.perf_counter()
    local = search.pairs(files)
    elapsed = time.perf_counter() - t

    def named(f, pairs):
        return {(f.paths[a], f.paths[b]) for a, b in pairs.tolist()}
    same = named(files, local.pairs) == named(found.files, found.pairs.pairs)
    print(f"           single machine: {len(local.pairs)} pairs in {elapsed:.2f} s; "
          f"{'the same pairs' if same else 'DIFFERENT PAIRS'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
