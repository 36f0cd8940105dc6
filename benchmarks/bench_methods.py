"""The simhash and MinHash methods on the labelled corpus: precision, recall and time.

    python benchmarks/bench_methods.py [--sources 300] [--seed 0]

The same corpus and scoring as bench_accuracy.py (family labels: P, R, F1;
edit labels: F1(edit)), with the searches the application runs
(:func:`simgui.core.search.methods.class_pairs`: size factor 1.5, extension rule,
identical files always found), at each method's thresholds, next to the
paper's method at four tolerances, each with and without the content check
(a pair's share of content in common, after the sum table).  Also prints how fast
the fingerprint kernel reads compared with the sum-table kernel and md5 on the same
32 MB buffer.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import bench_accuracy as acc  # noqa: E402
import corpus as corpus_mod  # noqa: E402

from simgui.core.search import methods  # noqa: E402
from simgui.core.reading.fingerprints import fingerprints  # noqa: E402
from simgui.core.search.simfind import DEFAULT_MIN_CONTENT, SearchSpace, Tolerances  # noqa: E402
from simgui.core.reading.sumtable import sum_table  # noqa: E402


def throughput(out) -> None:
    data = np.random.default_rng(0).integers(0, 256, 32 << 20, dtype=np.uint8).tobytes()
    fingerprints(data[:1000])
    sum_table(data[:1000])
    speeds = {}
    for name, fn in (("fingerprints", fingerprints), ("sum table", sum_table),
                     ("md5", lambda b: hashlib.md5(b).digest())):
        best = min(_timed(fn, data) for _ in range(3))
        speeds[name] = len(data) / best / 1e6
    out(f"kernels on 32 MB of random bytes, one thread: fingerprints "
        f"{speeds['fingerprints']:.0f} MB/s, sum table {speeds['sum table']:.0f} MB/s, md5 "
        f"{speeds['md5']:.0f} MB/s; fingerprints / md5 = "
        f"{speeds['fingerprints'] / speeds['md5']:.2f}")


def _timed(fn, data) -> float:
    t = time.perf_counter()
    fn(data)
    return time.perf_counter() - t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", type=int, default=corpus_mod.DEFAULT_SOURCES)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    out = acc.Report()
    for line in acc.machine():
        out(line)
    throughput(out)
    sources = corpus_mod.select_sources(args.sources, args.seed)
    data = acc.Data(sources, args.seed)
    simhashes, signatures, digests = [], [], []
    for f in corpus_mod.iter_corpus(sources, args.seed):
        simhash, signature = fingerprints(f.data)
        simhashes.append(simhash)
        signatures.append(signature)
        digests.append(hashlib.blake2b(f.data, digest_size=16).digest())
    simhashes = np.array(simhashes, np.uint64)
    signatures = np.array(signatures, np.uint32)
    hashes = np.frombuffer(b"".join(digests), np.int64).reshape(-1, 2)
    space = SearchSpace.build(data.sizes, data.tables, extensions=data.ext, class_extra=hashes)
    out(f"corpus: {len(sources)} sources, {data.n} files, {data.positives:,} positive pairs")
    out()
    out(f"{'method':<10} {'setting':<32} {'P':>6} {'R':>6} {'F1':>6} {'F1(edit)':>9} "
        f"{'search s':>9}")
    for key, total in ((3.2, 1.0), (8.0, 3.2), (10.0, 5.0), (10.0, 10.0)):
        found = space.class_pairs(Tolerances(key, total))
        for check in (0, DEFAULT_MIN_CONTENT):
            if check:  # the content check: each pair's share of content in common
                found = found[methods.shared_content(signatures, found) >= check]
            r = acc.score(data, found)
            label = f"key {key:g} %, sum {total:g} %" + (f" + check {check:g} %" if check else "")
            out(f"{'paper':<10} {label:<32} {r['precision']:6.3f} {r['recall']:6.3f} "
                f"{r['f1']:6.3f} {r['edit_f1']:9.3f}")
    for method, values, label in (
            ("simhash", [2, 4, 6, 8], lambda v: f"<= {v} bits"),
            ("minhash", [0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35], lambda v: f">= {v:.0%} resemblance")):
        for v in values:
            difference = (methods.bits_to_difference(v) if method == "simhash"
                          else methods.resemblance_to_difference(v))
            t = time.perf_counter()
            pairs, _ = methods.class_pairs(space, method, simhashes, signatures,
                                           float(difference))
            elapsed = time.perf_counter() - t
            r = acc.score(data, pairs)
            default = (v == methods.SIMHASH_DEFAULT_BITS if method == "simhash"
                       else v == methods.MINHASH_DEFAULT)
            out(f"{method:<10} {label(v) + (' (default)' if default else ''):<32} "
                f"{r['precision']:6.3f} {r['recall']:6.3f} {r['f1']:6.3f} {r['edit_f1']:9.3f} "
                f"{elapsed:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
