"""Does "similar" mean similar?  simgui's default verdict next to ssdeep and TLSH.

    python benchmarks/bench_trust.py [--sources 100] [--cameras 30] [--archives 30]
        [--releases DIR ...] [--no-peers]

Three labelled collections (each scored exactly as its own module says):

- *high-entropy* (benchmarks/entropy_corpus.py): unrelated camera-like files of
  clustered sizes and real compressed files of this machine, each with the
  edits users make (metadata rewritten, a longer header, data appended, a
  truncated download, bit rot); a pair of one family is positive;
- *corpus* (benchmarks/corpus.py, edit labels): real text, code and binaries
  with 14 edits each, from 0.1 % of bytes changed to 10 % cut off, and a 30 %
  change that is a negative;
- *releases*: the standard-library modules of the Python releases installed
  here (benchmarks/experiments/accuracy.py).

Methods: simgui's default search (keys and sum tables at the default tolerances,
then the content check: ``simgui.core.search.pairs.similar_pairs``, what
``simgui pairs`` runs) with the check swept, the same search without the check
(``--no-check``, the paper's method as published), TLSH (distance <= 30) and
ssdeep (any score > 0).  Prints precision, recall and F1 per collection, recall
per edit kind on the high-entropy files, and the false pairs between unrelated
high-entropy files.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "experiments"), HERE, os.path.dirname(HERE)]

import accuracy  # noqa: E402
import common  # noqa: E402
import entropy_corpus  # noqa: E402

from simgui.core.reading.fingerprints import FingerprintBuilder  # noqa: E402
from simgui.core.reading.sumtable import SumTableBuilder, warm_up  # noqa: E402
from simgui.core.search.pairs import similar_pairs  # noqa: E402
from simgui.core.search.simfind import (  # noqa: E402
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_SUM_TOLERANCE, Tolerances,
)
from simgui.core.store import StoredFiles  # noqa: E402

CONTENT_SWEEP = (0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0)


def stored_files(paths, extensions) -> StoredFiles:
    """What a scan would store for these files (one read each), without a store."""
    n = len(paths)
    tables, hashes, signatures = [], [], []
    for path in paths:
        tables_builder, printer = SumTableBuilder(), FingerprintBuilder()
        with open(path, "rb") as f:
            data = f.read()
        tables_builder.update(data)
        printer.update(data)
        tables.append(tables_builder.result())
        hashes.append(hashlib.blake2b(data, digest_size=16).digest())
        signatures.append(printer.result()[1])
    sizes = np.array([os.path.getsize(p) for p in paths], np.int64)
    zeros = np.zeros(n, np.int64)
    return StoredFiles(np.arange(n), list(paths), sizes, zeros, zeros, np.arange(n),
                       np.array(tables, np.int64).reshape(-1, 16), hashes, list(extensions),
                       simhashes=np.zeros(n, np.uint64),
                       signatures=np.array(signatures, np.uint32).reshape(-1, 128),
                       fingerprinted=np.ones(n, bool))


def simgui_method(key: float, sum_: float):
    """simgui's default search at key/sum tolerances, the content check as the threshold."""
    def prepare(c: accuracy.Collection):
        files = stored_files(c.paths, c.ext)
        return lambda content: similar_pairs(files, Tolerances(key, sum_, content)).pairs
    return prepare


def methods(peers: bool) -> dict[str, accuracy.Method]:
    out = {
        "simgui default (content check)": accuracy.Method(
            simgui_method(DEFAULT_KEY_TOLERANCE, DEFAULT_SUM_TOLERANCE), DEFAULT_MIN_CONTENT,
            CONTENT_SWEEP, "content in common >= c % (smaller: looser; 0: no check)",
            f"simgui's defaults: key {DEFAULT_KEY_TOLERANCE} %, sum table "
            f"{DEFAULT_SUM_TOLERANCE} %, content {DEFAULT_MIN_CONTENT:g} %",
            identical_found=True),
        "simgui, key 3.2 % sum 1 % (simgui 0.1's defaults)": accuracy.Method(
            simgui_method(3.2, 1.0), DEFAULT_MIN_CONTENT, CONTENT_SWEEP,
            "content in common >= c % (smaller: looser; 0: no check)",
            "simgui 0.1's tolerances, with the content check", identical_found=True),
        "simgui, key 10 % sum 10 % (content check)": accuracy.Method(
            simgui_method(10.0, 10.0), DEFAULT_MIN_CONTENT, CONTENT_SWEEP,
            "content in common >= c % (smaller: looser; 0: no check)",
            "the sliders' tops", identical_found=True),
    }
    if peers:
        out["TLSH"] = accuracy.METHODS["TLSH"]
        out["ssdeep"] = accuracy.METHODS["ssdeep"]
    return out


def entropy_collection(folder: str, cameras: int, archives: int, seed: int
                       ) -> accuracy.Collection:
    files = list(entropy_corpus.iter_collection(cameras, archives, seed))
    paths, family, kind, types = [], [], [], []
    for f in files:
        path = os.path.join(folder, f.name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(f.data)
        paths.append(path)
        family.append(f.family)
        kind.append(f.kind)
        types.append(f.source_type)
    family, n = np.array(family), len(paths)
    kind = np.array(kind)
    positives = sum(k * (k - 1) // 2 for k in np.bincount(family).tolist())
    sizes = np.array([len(f.data) for f in files], np.int64)
    ext = [p.rsplit(".", 1)[-1] for p in paths]

    def score(pairs: np.ndarray, identical_found: bool) -> dict:
        a, b = (pairs[:, 0], pairs[:, 1]) if len(pairs) else (np.zeros(0, int),) * 2
        same = family[a] == family[b]
        tp, fp = int(same.sum()), int((~same).sum())
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / positives if positives else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        kinds = {}
        for edit in entropy_corpus.EDITS:
            hit = same & (((kind[a] == "source") & (kind[b] == edit))
                          | ((kind[b] == "source") & (kind[a] == edit)))
            kinds[edit] = float(hit.sum() / (family.max() + 1))
        by_type: dict[str, int] = {}
        for k in np.flatnonzero(~same).tolist():
            key = "/".join(sorted({types[a[k]], types[b[k]]}))
            by_type[key] = by_type.get(key, 0) + 1
        return {"precision": precision, "recall": recall, "f1": f1, "found": len(pairs),
                "fp": fp, "kinds": kinds, "fp_types": by_type,
                "fp_per_million": 1e6 * fp / max(n * (n - 1) // 2 - positives, 1)}

    info = {"files": n, "families": int(family.max() + 1), "bytes": int(sizes.sum()),
            "positives": positives,
            "types": ", ".join(f"{t} {types.count(t) // len(entropy_corpus.KINDS)}"
                               for t in sorted(set(types)))}
    return accuracy.Collection("high-entropy", paths, sizes, np.zeros((n, 16), np.int64), ext,
                               score, info)


def main(argv=None) -> int:
    p = common.parser(__doc__)
    p.add_argument("--sources", type=int, default=100, help="corpus.py sources")
    p.add_argument("--cameras", type=int, default=30)
    p.add_argument("--archives", type=int, default=30)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--releases", nargs="*", help="standard-library folders (default: the "
                   "three newest found; give none to skip)")
    p.add_argument("--no-peers", action="store_true", help="skip TLSH and ssdeep")
    p.set_defaults(out=os.path.join(common.ROOT, "docs", "benchmarks"))
    args = p.parse_args(argv)
    if args.quick:
        args.sources, args.cameras, args.archives = 40, 12, 12
    out = common.Report(args.out, "trust", "Similar means similar: simgui's default verdict "
                        "next to TLSH and ssdeep", tools=("ssdeep",), modules=("tlsh",))
    warm_up()
    chosen = methods(not args.no_peers)
    summary = []
    with tempfile.TemporaryDirectory(prefix="simgui-trust-") as tmp:
        collections = [entropy_collection(os.path.join(tmp, "entropy"), args.cameras,
                                          args.archives, args.seed),
                       accuracy.corpus_collection(os.path.join(tmp, "corpus"), args.sources,
                                                  args.seed)]
        roots = accuracy.find_releases()[:3] if args.releases is None else args.releases
        if len(roots) >= 2:
            collections.append(accuracy.releases_collection(roots))
        for c in collections:
            out()
            out(f"{c.name}: {len(c):,} files, {c.sizes.sum() / 1e6:.0f} MB; "
                + ", ".join(f"{k} {v}" for k, v in c.info.items()
                            if k in ("families", "sources", "types", "positives")))
            results = accuracy.evaluate(c, chosen, out)
            accuracy.report_results(out, c, chosen, results, (("fp", "false pairs", "{:,}"),))
            for name, res in results.items():
                d = res["default"]
                summary.append((c.name, name, d["precision"], d["recall"], d["f1"], d["fp"]))
            if c.name == "high-entropy":
                out()
                out("high-entropy: recall per edit at each method's default")
                names = list(results)
                out.table(("edit", *names),
                          [(e, *[results[m]["default"]["kinds"][e] for m in names])
                           for e in entropy_corpus.EDITS], ("",) + ("{:.2f}",) * len(names))
                for name, res in results.items():
                    fp = res["default"]["fp_types"]
                    out(f"  false pairs of unrelated files, {name}: {res['default']['fp']}"
                        + (" (" + ", ".join(f"{k} {v}" for k, v in sorted(fp.items())) + ")"
                           if fp else ""))
    out()
    out("summary: each method at its default")
    out.table(("collection", "method", "precision", "recall", "F1", "false pairs"), summary,
              ("", "", "{:.3f}", "{:.3f}", "{:.3f}", "{:,}"))
    out.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
