"""Accuracy: precision, recall and F1 of every method, at its defaults and over a sweep.

    PYTHONPATH=. python benchmarks/experiments/accuracy.py [--sources 300] [--quick]
        [--releases DIR DIR ...] [--methods NAME ...]

Two collections:

* the labelled corpus of benchmarks/corpus.py (real files of this machine of
  a dozen types, each with 15 variants: an identical copy, 0.1-2 % of bytes
  changed, blocks of 1-5 % inserted, deleted or moved, 1-10 % appended or cut
  off, and a 30 % change that counts as a *different* file), scored exactly as
  benchmarks/bench_accuracy.py scores it (``score``): *edit labels*, a
  (source, variant) pair is positive, a pair of unrelated files or with the
  30 % edit negative, two variants of one source left out;
* real near-duplicates: the standard library ``.py`` files (1 KB and more,
  without test folders and site-packages) of several Python releases
  installed on this machine (pyenv's, by default the three newest minor
  versions), without the ``encodings`` package, whose hundred codecs are
  generated from one template and all alike.  A pair of one module in two releases is positive when its
  content differs and at least 90 % of its bytes are in unchanged lines
  (difflib, line by line); identical pairs are counted apart (every method
  finds them); a pair of different modules is negative unless their sampled
  8-byte shingles have a Jaccard resemblance of 0.2 or more (a moved or
  copied module), which is left out.

Methods are a registry (:data:`METHODS`): a name maps to a :class:`Method`
whose ``prepare(collection)`` returns a function from a threshold to the
pairs found at it, with the method's documented default and a sweep.  Adding
a method is one entry.  Present: the paper's sum tables (key = sum-table
tolerance T, and the app's key 3.2 % with the sum-table tolerance swept),
ssdeep (the Debian command line; default: any score > 0), TLSH (py-tlsh;
default: distance <= 30, "very similar"), and simgui's simhash and MinHash
methods at their defaults.  Writes accuracy.png and .txt.
"""

from __future__ import annotations

import copy
import csv
import difflib
import glob
import hashlib
import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

import common
import bench_accuracy
import corpus as corpus_mod
from simgui.core.search.keys import SKEW
from simgui.core.search import methods as fp_methods
from simgui.core.reading.fingerprints import fingerprints
from simgui.core.search.simfind import (
    DEFAULT_KEY_TOLERANCE, DEFAULT_SUM_TOLERANCE, SearchSpace, expand_pairs, find_pairs,
)
from simgui.core.reading.sumtable import sum_table_of_file, warm_up

NAME = "accuracy"
SIMILAR_ENOUGH = 0.90  # release pairs: share of bytes in unchanged lines to count as positive
RELATED_SHINGLES = 0.20  # different modules this alike are left out (corpus.py's threshold)


# --------------------------------------------------------------------------- collections


@dataclass
class Collection:
    """Files on disk with their sum tables, and how to score a set of pairs."""

    name: str
    paths: list[str]
    sizes: np.ndarray
    tables: np.ndarray
    ext: list[str]
    score: Callable[[np.ndarray, bool], dict]  # (pairs, counts identical as found) -> metrics
    info: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.paths)


def corpus_collection(folder: str, sources: int, seed: int) -> Collection:
    """The labelled corpus written to ``folder``; scored by bench_accuracy.score."""
    chosen = corpus_mod.select_sources(sources, seed)
    data = bench_accuracy.Data(chosen, seed)  # sizes, sum tables, labels (bytes not kept)
    corpus_mod.write_corpus(folder, corpus_mod.iter_corpus(chosen, seed), chosen)
    paths = [os.path.join(folder, name) for name in data.names]
    without_identical = copy.copy(data)
    without_identical.identical = np.zeros((0, 2), np.int64)

    def score(pairs: np.ndarray, identical_found: bool) -> dict:
        r = bench_accuracy.score(data if identical_found else without_identical, pairs)
        fp_per_million = 1e6 * r["fp"] / data.negatives
        kinds = {}
        a, b = r["a"], r["b"]
        for number, edit in enumerate(corpus_mod.EDITS, start=1):
            hit = ((data.is_source[a] & (data.kind_index[b] == number))
                   | (data.is_source[b] & (data.kind_index[a] == number)))
            hit &= data.family[a] == data.family[b]
            kinds[edit.name] = float(hit.sum() / len(chosen))
        false = np.flatnonzero(r["rel"] == corpus_mod.UNRELATED)
        fp_types: dict[str, int] = {}
        for k in false.tolist():
            ta, tb = sorted((data.type[a[k]], data.type[b[k]]))
            key = ta if ta == tb else f"{ta}/{tb}"
            fp_types[key] = fp_types.get(key, 0) + 1
        return {"precision": r["edit_precision"], "recall": r["edit_recall"],
                "f1": r["edit_f1"], "found": r["found"], "fp": r["fp"],
                "fp_type": r["fp_type"], "fp_heavy": r["fp_heavy"],
                "family_precision": r["precision"], "family_recall": r["recall"],
                "family_f1": r["f1"], "fp_per_million": fp_per_million, "kinds": kinds,
                "fp_types": fp_types}

    types = sorted({s.type for s in chosen}, key=corpus_mod.TYPES.index)
    info = {"sources": len(chosen), "files": data.n, "bytes": int(data.sizes.sum()),
            "positives": data.edit_positives, "negatives": data.negatives,
            "identical": len(data.identical),
            "types": ", ".join(f"{t} {sum(s.type == t for s in chosen)}" for t in types)}
    return Collection("corpus", paths, data.sizes, data.tables, list(data.ext), score, info)


def find_releases() -> list[str]:
    """Standard library folders of the Python releases installed here, newest minor first:
    pyenv's, then the system's."""
    found = {}
    patterns = [os.path.expanduser("~/.pyenv/versions/*/lib/python3.*"),
                "/usr/lib/python3.*", "/usr/local/lib/python3.*"]
    for pattern in patterns:
        for path in sorted(glob.glob(pattern)):
            m = re.search(r"python3\.(\d+)$", path)
            if m and os.path.isfile(os.path.join(path, "os.py")):
                found.setdefault(int(m.group(1)), path)
    return [found[k] for k in sorted(found, reverse=True)]


def release_files(root: str, min_size: int = 1024) -> dict[str, str]:
    skip = {"test", "tests", "site-packages", "dist-packages", "idle_test", "__pycache__",
            "encodings"}  # encodings: ~100 codecs generated from one template, all alike
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith(".py") and not os.path.islink(path) \
                    and os.path.getsize(path) >= min_size:
                # one module has one name in every release (config-3.12-... -> config-3.x-...)
                out[re.sub(r"3\.\d+", "3.x", os.path.relpath(path, root))] = path
    return out


def line_similarity(a: bytes, b: bytes) -> float:
    """Share of the two files' bytes that lie in unchanged lines (difflib, line by line)."""
    if a == b:
        return 1.0
    la, lb = a.splitlines(True), b.splitlines(True)
    blocks = difflib.SequenceMatcher(None, la, lb, autojunk=False).get_matching_blocks()
    same = sum(len(line) for blk in blocks for line in la[blk.a:blk.a + blk.size])
    return 2.0 * same / max(len(a) + len(b), 1)


def releases_collection(roots: Sequence[str]) -> Collection:
    per_root = [release_files(r) for r in roots]
    paths, rel, version = [], [], []
    for v, files in enumerate(per_root):
        for relpath, path in files.items():
            paths.append(path)
            rel.append(relpath)
            version.append(v)
    sizes = np.array([os.path.getsize(p) for p in paths], np.int64)
    tables = np.array([sum_table_of_file(p) for p in paths], np.int64).reshape(-1, 16)
    n = len(paths)
    digest = [hashlib.blake2b(open(p, "rb").read(), digest_size=16).digest() for p in paths]
    # every same-module pair, with its line similarity
    by_rel: dict[str, list[int]] = {}
    for i, r in enumerate(rel):
        by_rel.setdefault(r, []).append(i)
    same_pairs, similarity = [], []
    for members in by_rel.values():
        for x, i in enumerate(members):
            for j in members[x + 1:]:
                same_pairs.append((i, j))
                if digest[i] == digest[j]:
                    similarity.append(1.0)
                else:
                    with open(paths[i], "rb") as fa, open(paths[j], "rb") as fb:
                        similarity.append(line_similarity(fa.read(), fb.read()))
    same_pairs = np.array(same_pairs, np.int64).reshape(-1, 2)
    similarity = np.array(similarity)
    identical = np.array([digest[i] == digest[j] for i, j in same_pairs.tolist()], bool)
    code_sim = dict(zip((same_pairs[:, 0] * n + same_pairs[:, 1]).tolist(), similarity.tolist()))
    positive = (~identical) & (similarity >= SIMILAR_ENOUGH)
    n_pos = int(positive.sum())
    bins = [(1.0, 1.0001, "identical"), (0.99, 1.0, ">= 99 %"), (0.95, 0.99, "95-99 %"),
            (0.90, 0.95, "90-95 %"), (0.80, 0.90, "80-90 %"), (0.0, 0.80, "< 80 %")]
    bin_of = {}
    for code, s_, ident in zip((same_pairs[:, 0] * n + same_pairs[:, 1]).tolist(),
                               similarity.tolist(), identical.tolist()):
        bin_of[code] = "identical" if ident else next(lab for lo, hi, lab in bins[1:]
                                                      if lo <= s_ < hi)
    bin_total = {lab: sum(1 for v in bin_of.values() if v == lab) for _, _, lab in bins}
    shingle_cache: dict[int, np.ndarray] = {}

    def shingles(i: int) -> np.ndarray:
        if i not in shingle_cache:
            with open(paths[i], "rb") as f:
                shingle_cache[i] = corpus_mod.shingles(f.read())
        return shingle_cache[i]

    related_cache: dict[int, bool] = {}
    negatives = n * (n - 1) // 2 - len(same_pairs)

    def score(pairs: np.ndarray, identical_found: bool) -> dict:
        codes = np.unique(pairs[:, 0] * n + pairs[:, 1]) if len(pairs) else np.zeros(0, np.int64)
        tp = fp = left_out = 0
        found_bins = dict.fromkeys(bin_total, 0)
        for code in codes.tolist():
            b_ = bin_of.get(code)
            if b_ is not None:
                found_bins[b_] += 1
                if b_ != "identical" and code_sim[code] >= SIMILAR_ENOUGH:
                    tp += 1
                continue
            if code not in related_cache:
                i, j = divmod(code, n)
                related_cache[code] = corpus_mod.resemblance(shingles(i), shingles(j)) \
                    >= RELATED_SHINGLES
            if related_cache[code]:
                left_out += 1
            else:
                fp += 1
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / n_pos if n_pos else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {"precision": precision, "recall": recall, "f1": f1, "found": len(codes),
                "fp": fp, "left_out": left_out, "fp_per_million": 1e6 * fp / negatives,
                "bins": {k: found_bins[k] / max(bin_total[k], 1) for k in bin_total}}

    versions = [os.path.basename(r) + f" ({_version_of(r)})" for r in roots]
    info = {"roots": list(roots), "versions": versions, "files": n, "bytes": int(sizes.sum()),
            "positives": n_pos, "same_module_pairs": len(same_pairs),
            "identical": int(identical.sum()), "bins": bin_total, "negatives": negatives}
    return Collection("releases", paths, sizes, tables, ["py"] * n, score, info)


def _version_of(root: str) -> str:
    m = re.search(r"versions/([\d.]+)/", root)
    if m:
        return m.group(1)
    try:
        out = subprocess.run(["python3", "-c", "import sys; print(sys.version.split()[0])"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        return f"system, python3 {out}" if root.startswith("/usr/lib/") else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


# --------------------------------------------------------------------------- methods


Finder = Callable[[float], np.ndarray]  # threshold -> pairs (m, 2), i < j


@dataclass(frozen=True)
class Method:
    """A similarity method: ``prepare(collection)`` does the expensive part once and
    returns a finder, threshold -> pairs found at that threshold."""

    prepare: Callable[[Collection], Finder]
    default: float
    sweep: tuple[float, ...]
    threshold: str  # what the threshold means, with its direction
    default_source: str  # where the default comes from
    needs: Callable[[], str | None] = lambda: None  # why it cannot run here, or None
    identical_found: bool = False  # the method confirms identical files itself (content hash)


def _pairs_from_codes(codes: np.ndarray, n: int) -> np.ndarray:
    codes = np.unique(codes)
    return np.stack([codes // n, codes % n], axis=1) if len(codes) else np.zeros((0, 2), np.int64)


def sum_tables_coupled(c: Collection) -> Finder:
    """The paper's SimFind with key tolerance = sum-table tolerance = T (its figures)."""
    return lambda t: find_pairs(c.sizes, c.tables, key_tolerance=t, sum_tolerance=t,
                                scheme=SKEW, extensions=c.ext)


def sum_tables_app(c: Collection) -> Finder:
    """The app's search: key tolerance fixed at its default, sum-table tolerance S."""
    return lambda s: find_pairs(c.sizes, c.tables, key_tolerance=DEFAULT_KEY_TOLERANCE,
                                sum_tolerance=s, scheme=SKEW, extensions=c.ext)


def _ssdeep_missing() -> str | None:
    return None if common.have("ssdeep") else "the ssdeep command is not installed"


def ssdeep_scores(paths: Sequence[str], workdir: str) -> tuple[np.ndarray, np.ndarray]:
    """ssdeep's score of every pair it matches with a score > 0: hashes with
    ``ssdeep -s FILES`` (in batches), then ``ssdeep -s -c -x SIGFILE`` (all against all)."""
    sigs = os.path.join(workdir, "ssdeep-sigs.txt")
    with open(sigs, "w", encoding="utf-8") as out:
        out.write("ssdeep,1.1--blocksize:hash:hash,filename\n")
        for start in range(0, len(paths), 500):
            res = subprocess.run(["ssdeep", "-s", *paths[start:start + 500]], check=True,
                                 capture_output=True, text=True)
            out.writelines(line + "\n" for line in res.stdout.splitlines()[1:])
    res = subprocess.run(["ssdeep", "-s", "-c", "-x", sigs], check=True, capture_output=True,
                         text=True)
    index = {p: i for i, p in enumerate(paths)}
    n = len(paths)
    best: dict[int, int] = {}
    for row in csv.reader(res.stdout.splitlines()):
        if len(row) != 3:
            continue
        i, j = index.get(row[0]), index.get(row[1])
        if i is None or j is None or i == j:
            continue
        code = min(i, j) * n + max(i, j)
        best[code] = max(best.get(code, 0), int(row[2]))
    codes = np.fromiter(best.keys(), np.int64, len(best))
    return codes, np.fromiter(best.values(), np.int64, len(best))


def ssdeep_method(c: Collection) -> Finder:
    with tempfile.TemporaryDirectory(prefix="simgui-ssdeep-") as tmp:
        codes, scores = ssdeep_scores(c.paths, tmp)
    n = len(c)
    return lambda t: _pairs_from_codes(codes[scores >= t], n)


def _tlsh_missing() -> str | None:
    try:
        import tlsh  # noqa: F401
    except ImportError:
        return "py-tlsh is not installed (pip install py-tlsh)"
    return None


TLSH_MAX = 300  # distances above this are not kept (nothing is that loose in the sweep)


def tlsh_distances(paths: Sequence[str]) -> tuple[np.ndarray, np.ndarray, int]:
    """TLSH distance (tlsh.diff, header included) of every pair of hashable files up to
    TLSH_MAX; files TLSH cannot hash (under 50 bytes, too little variety) match nothing."""
    import tlsh
    hashes = []
    for p in paths:
        with open(p, "rb") as f:
            h = tlsh.hash(f.read())
        hashes.append(h if h and h != "TNULL" else None)
    valid = [i for i, h in enumerate(hashes) if h]
    hs = [hashes[i] for i in valid]
    n = len(paths)
    codes, dists = [], []
    diff = tlsh.diff
    for x, i in enumerate(valid):
        hi = hs[x]
        row = np.array([diff(hi, hj) for hj in hs[x + 1:]], np.int64)
        near = np.flatnonzero(row <= TLSH_MAX)
        if len(near):
            codes.append(i * n + np.array(valid[x + 1:], np.int64)[near])
            dists.append(row[near])
    if not codes:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), n - len(valid)
    return np.concatenate(codes), np.concatenate(dists), n - len(valid)


def tlsh_method(c: Collection) -> Finder:
    codes, dists, _ = tlsh_distances(c.paths)
    n = len(c)
    return lambda d: _pairs_from_codes(codes[dists <= d], n)


def _fingerprint_method(method: str, to_difference) -> Callable[[Collection], Finder]:
    """simgui's simhash or MinHash search, as the app runs it (classes of identical
    files, size factor 1.5, extension rule), on fingerprints read from the files."""
    def prepare(c: Collection) -> Finder:
        simhashes, signatures, digests = [], [], []
        for path in c.paths:
            with open(path, "rb") as f:
                data = f.read()
            simhash, signature = fingerprints(data)
            simhashes.append(simhash)
            signatures.append(signature)
            digests.append(hashlib.blake2b(data, digest_size=16).digest())
        simhashes = np.array(simhashes, np.uint64)
        signatures = np.array(signatures, np.uint32).reshape(-1, 128)
        hashes = np.frombuffer(b"".join(digests), np.int64).reshape(-1, 2)
        space = SearchSpace.build(c.sizes, c.tables, extensions=c.ext, class_extra=hashes,
                                  classes_by_extension=False)

        def finder(t: float) -> np.ndarray:
            reps, _ = fp_methods.class_pairs(space, method, simhashes, signatures,
                                          float(to_difference(t)))
            return expand_pairs(space.classes, reps)
        return finder
    return prepare


SWEEP = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.2, 5.0, 8.0, 12.0)

#: The registry: one entry per method.  Thresholds sweep from strict to loose.
METHODS: dict[str, Method] = {
    "sum tables, K = S = T (paper)": Method(
        sum_tables_coupled, 3.2, SWEEP, "T %: key and sum-table tolerance (larger: looser)",
        "the paper's largest tolerance in its figures", identical_found=True),
    "sum tables, K = 3.2 %, S swept (simgui)": Method(
        sum_tables_app, DEFAULT_SUM_TOLERANCE, SWEEP,
        "S %: sum-table tolerance, key tolerance 3.2 % (larger: looser)",
        "simgui's defaults, K = 3.2 %, S = 1 %", identical_found=True),
    "ssdeep": Method(
        ssdeep_method, 1, (100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 1),
        "score >= t, 0..100 (smaller: looser)",
        "ssdeep reports every match with a score > 0", needs=_ssdeep_missing),
    "TLSH": Method(
        tlsh_method, 30, (0, 5, 10, 20, 30, 40, 50, 70, 100, 150, 200, 300),
        "distance <= d (larger: looser)", "TLSH's 'very similar': distance <= 30",
        needs=_tlsh_missing),
    "simhash (simgui)": Method(
        _fingerprint_method("simhash", fp_methods.bits_to_difference),
        fp_methods.SIMHASH_DEFAULT_BITS, tuple(range(fp_methods.SIMHASH_MAX_BITS + 1)),
        "differing bits <= h of 64 (larger: looser)",
        f"simgui's default, {fp_methods.SIMHASH_DEFAULT_BITS} bits", identical_found=True),
    "MinHash (simgui)": Method(
        _fingerprint_method("minhash", fp_methods.resemblance_to_difference),
        fp_methods.MINHASH_DEFAULT, (1.0, 0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4),
        "estimated resemblance >= j (smaller: looser)",
        f"simgui's default, {fp_methods.MINHASH_DEFAULT:.0%}", identical_found=True),
}


# --------------------------------------------------------------------------- the run


def evaluate(collection: Collection, methods: dict[str, Method], out) -> dict:
    """Every method at its default and over its sweep: {name: {"default": m, "sweep": [...]}}."""
    results = {}
    for name, method in methods.items():
        why = method.needs()
        if why:
            out(f"  {name}: skipped, {why}")
            continue
        seconds, finder = common.timed(method.prepare, collection)
        sweep = []
        for t in method.sweep:
            r = collection.score(finder(t), method.identical_found)
            r["threshold"] = t
            sweep.append(r)
        default = collection.score(finder(method.default), method.identical_found)
        default["threshold"] = method.default
        results[name] = {"default": default, "sweep": sweep, "seconds": seconds}
        best = max(sweep, key=lambda r: (round(r["f1"], 3), -abs(r["threshold"])))
        results[name]["best"] = best
        out(f"  {name}: prepared in {seconds:.1f} s; at its default {method.default:g}: "
            f"P {default['precision']:.3f} R {default['recall']:.3f} "
            f"F1 {default['f1']:.3f}; best F1 {best['f1']:.3f} at {best['threshold']:g}")
    return results


def report_results(out, collection: Collection, methods: dict[str, Method], results: dict,
                   extra_cols: Sequence[tuple[str, str, str]]) -> None:
    out()
    out(f"{collection.name}: each method at its default, then at the best F1 of its sweep")
    rows = []
    for name, res in results.items():
        for label, r in (("default", res["default"]), ("best F1", res["best"])):
            rows.append((name, label, f"{r['threshold']:g}", r["found"], r["precision"],
                         r["recall"], r["f1"], *[r[k] for k, _, _ in extra_cols]))
    out.table(("method", "setting", "threshold", "pairs found", "precision", "recall", "F1",
               *[h for _, h, _ in extra_cols]), rows,
              ("", "", "", "{:,}", "{:.3f}", "{:.3f}", "{:.3f}", *[f for _, _, f in extra_cols]))
    out()
    out(f"{collection.name}: every threshold of every sweep")
    for name, res in results.items():
        out(f"  {name} ({methods[name].threshold}; default {methods[name].default:g}: "
            f"{methods[name].default_source})")
        out("    " + "  ".join(f"{r['threshold']:g}: P {r['precision']:.3f} R {r['recall']:.3f} "
                               f"F1 {r['f1']:.3f}" for r in res["sweep"]))


def main(argv=None) -> int:
    p = common.parser(__doc__)
    p.add_argument("--sources", type=int, default=corpus_mod.DEFAULT_SOURCES,
                   help="corpus sources (each makes 16 files)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--releases", nargs="*",
                   help="standard-library folders of Python releases (default: the three newest "
                        "found; give none to skip)")
    p.add_argument("--methods", nargs="+", choices=sorted(METHODS), metavar="NAME",
                   help="only these methods (default: all)")
    args = p.parse_args(argv)
    if args.quick:
        args.sources = 60
    methods = {k: v for k, v in METHODS.items() if not args.methods or k in args.methods}
    out = common.Report(args.out, NAME, "Accuracy: precision and recall of each method on a "
                        "labelled corpus and on real releases", tools=("ssdeep",),
                        modules=("tlsh",))
    warm_up()
    with tempfile.TemporaryDirectory(prefix="simgui-accuracy-") as tmp:
        seconds, corpus = common.timed(corpus_collection, os.path.join(tmp, "corpus"),
                                       args.sources, args.seed)
        i = corpus.info
        out(f"corpus (benchmarks/corpus.py, seed {args.seed}): {i['sources']} real sources "
            f"({i['types']}), {i['files']:,} files, {i['bytes'] / 1e6:.0f} MB; "
            f"{i['positives']:,} (source, edit) positive pairs ({i['identical']} identical "
            f"copies), {i['negatives']:,} negative pairs; made in {seconds:.0f} s")
        out("methods:")
        corpus_results = evaluate(corpus, methods, out)
        report_results(out, corpus, methods, corpus_results,
                       (("fp_type", "FP same type", "{:,}"),
                        ("fp_heavy", "FP 30 % edit", "{:,}"),
                        ("fp_per_million", "FP per 1e6 neg.", "{:.1f}"),
                        ("family_f1", "F1 family labels", "{:.3f}")))
        out()
        out("corpus: false pairs at each method's default, by the files' types (a pair with a 30 % "
            "edit of the same source counts under that source's type)")
        for name, res in corpus_results.items():
            kinds_fp = sorted(res["default"]["fp_types"].items(), key=lambda kv: -kv[1])
            out(f"  {name}: {res['default']['fp']:,}"
                + (": " + ", ".join(f"{k} {v:,}" for k, v in kinds_fp[:8]) if kinds_fp else ""))
        out()
        out("corpus: recall per edit kind at each method's default (share of sources whose "
            "variant was found; for heavy_30 the share wrongly found)")
        kinds = [e.name for e in corpus_mod.EDITS]
        names = list(corpus_results)
        out.table(("edit", *names),
                  [(k, *[corpus_results[m]["default"]["kinds"][k] for m in names])
                   for k in kinds], ("",) + ("{:.2f}",) * len(names))

    roots = find_releases()[:3] if args.releases is None else args.releases
    release_results, releases = {}, None
    if len(roots) >= 2:
        seconds, releases = common.timed(releases_collection, roots)
        i = releases.info
        out()
        out(f"real near-duplicates: the standard library .py files (>= 1 KB; no test folders, "
            f"no site-packages, no encodings package: its ~100 codecs are generated from one "
            f"template and all alike) of {len(roots)} Python releases: "
            + "; ".join(f"{r}" for r in i["roots"]))
        out(f"  {i['files']:,} files, {i['bytes'] / 1e6:.0f} MB; {i['same_module_pairs']:,} pairs "
            f"of one module in two releases: {i['identical']:,} identical, "
            + ", ".join(f"{k} of bytes in unchanged lines: {v:,}"
                        for k, v in i["bins"].items() if k != "identical")
            + f"; positives (differ, >= {100 * SIMILAR_ENOUGH:.0f} % unchanged): "
            f"{i['positives']:,}; made in {seconds:.0f} s")
        out("methods:")
        release_results = evaluate(releases, methods, out)
        report_results(out, releases, methods, release_results,
                       (("fp", "FP", "{:,}"), ("left_out", "related, left out", "{:,}"),
                        ("fp_per_million", "FP per 1e6 neg.", "{:.2f}")))
        out()
        out("releases: share of same-module pairs found at each method's default, by how much "
            "of the bytes is in unchanged lines")
        bins = list(releases.info["bins"])
        out.table(("method", *bins),
                  [(m, *[release_results[m]["default"]["bins"][b] for b in bins])
                   for m in release_results], ("",) + ("{:.2f}",) * len(bins))
    else:
        out()
        out("real near-duplicates: skipped (fewer than two Python standard libraries found; "
            "give folders with --releases)")
    plot(args, methods, corpus, corpus_results, releases, release_results)
    out.write()
    return 0


def plot(args, methods, corpus, corpus_results, releases, release_results) -> None:
    plt = common.pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(14, 10.5))
    colours = dict(zip(methods, ("tab:blue", "tab:cyan", "tab:red", "tab:green", "tab:purple",
                                 "tab:brown", "tab:olive")))
    for ax, results, title in (
            (axes[0, 0], corpus_results,
             f"Labelled corpus: {len(corpus):,} files from {corpus.info['sources']} real "
             "sources\n(source, edit) pairs positive, 30 % edits and unrelated files negative"),
            (axes[0, 1], release_results,
             "Real near-duplicates: one stdlib module in two Python releases\n"
             f"(positive: differs, >= {100 * SIMILAR_ENOUGH:.0f} % of bytes in unchanged lines)")):
        if not results:
            ax.text(0.5, 0.5, "not run", ha="center", va="center", transform=ax.transAxes)
        for name, res in results.items():
            c = colours[name]
            d = res["default"]
            xs = [r["recall"] for r in res["sweep"]]
            ys = [r["precision"] for r in res["sweep"]]
            ax.plot(xs, ys, ".-", color=c, lw=1.3, ms=5,
                    label=f"{name}\n   default {d['threshold']:g}: P {d['precision']:.2f} "
                          f"R {d['recall']:.2f} F1 {d['f1']:.2f}")
            ax.plot([d["recall"]], [d["precision"]], "o", color=c, ms=11, mfc="none", mew=2)
            for r in res["sweep"][::3]:
                ax.annotate(f"{r['threshold']:g}", (r["recall"], r["precision"]), fontsize=6,
                            color=c, xytext=(3, -8), textcoords="offset points")
        ax.plot([], [], "o", color="0.3", ms=9, mfc="none", mew=2,
                label="circle: the method's default threshold\n(small numbers: thresholds)")
        ax.set_xlim(0, 1.02)
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("recall")
        ax.set_ylabel("precision")
        ax.set_title(title)
        ax.legend(loc="lower left", fontsize=7)
    ax = axes[1, 0]
    kinds = [e.name for e in corpus_mod.EDITS]
    width = 0.8 / max(len(corpus_results), 1)
    x = np.arange(len(kinds))
    for k, (name, res) in enumerate(corpus_results.items()):
        ax.bar(x + (k - (len(corpus_results) - 1) / 2) * width,
               [res["default"]["kinds"][e] for e in kinds], width, color=colours[name],
               label=name)
    ax.set_xticks(x, kinds, rotation=45, ha="right")
    ax.set_ylim(0, 1.3)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_ylabel("share of sources whose variant is found")
    ax.set_title("Corpus: recall per edit at each method's default\n(heavy_30 is a negative: "
                 "lower is better)")
    ax.legend(loc="upper center", fontsize=7, ncol=2)
    ax = axes[1, 1]
    if release_results:
        bins = list(releases.info["bins"])
        width = 0.8 / len(release_results)
        x = np.arange(len(bins))
        for k, (name, res) in enumerate(release_results.items()):
            ax.bar(x + (k - (len(release_results) - 1) / 2) * width,
                   [res["default"]["bins"][b] for b in bins], width, color=colours[name],
                   label=f"{name} (precision {res['default']['precision']:.2f})")
        ax.set_xticks(x, [f"{b}\n({releases.info['bins'][b]:,} pairs)" for b in bins],
                      fontsize=7)
        ax.legend(loc="upper center", fontsize=7, ncol=2)
    ax.set_ylim(0, 1.3)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_xlabel("share of the two files' bytes in unchanged lines (difflib)")
    ax.set_ylabel("share of same-module pairs found")
    ax.set_title("Releases: pairs found at each method's default, by how much changed")
    fig.suptitle("Accuracy of the paper's sum tables, ssdeep, TLSH and simgui's simhash and "
                 "MinHash on the same files", fontsize=11)
    fig.tight_layout(rect=(0, 0.02, 1, 0.97))
    common.save_figure(fig, args.out, NAME, common.footer_text())


if __name__ == "__main__":
    raise SystemExit(main())
