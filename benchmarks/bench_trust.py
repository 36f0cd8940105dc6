"""Does "similar" mean similar?  simgui's default verdict next to ssdeep and TLSH.

    python benchmarks/bench_trust.py [--sources 100] [--cameras 30] [--archives 30]
        [--releases DIR ...] [--no-peers] [--diagnose] [--variants]

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

``--diagnose`` lists every edit of the corpus the defaults miss and every false
pair they report, each with its sizes, the key and sum-table distances against
their tolerances, the estimated share of content in common, TLSH's distance and
the first stage of the search that rejected it (:func:`verdicts`, which
reproduces ``similar_pairs`` pair by pair), then the misses counted by cause.
``--variants`` adds candidates for the defaults to the methods compared: the
default tolerances with MinHash LSH candidates added before the content check
(:func:`with_lsh`), for the check's threshold or only for pairs sharing 50 % or more.
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
import corpus as corpus_mod  # noqa: E402
import entropy_corpus  # noqa: E402

from simgui.core.reading.fingerprints import FingerprintBuilder  # noqa: E402
from simgui.core.reading.sumtable import SumTableBuilder, warm_up  # noqa: E402
from simgui.core.search import methods as fp_methods  # noqa: E402
from simgui.core.search.pairs import content_hashes, similar_pairs  # noqa: E402
from simgui.core.search.simfind import (  # noqa: E402
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_SUM_TOLERANCE, SearchSpace, Tolerances,
    expand_pairs,
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


def with_lsh(key: float, sum_: float, least: float = 0.0):
    """simgui's search at key/sum tolerances with MinHash LSH candidates added (same size
    factor, extension rule and smallest size), every candidate then confirmed by the same
    content check: candidates that do not depend on how densely a file holds the tags.
    LSH adds only pairs sharing at least ``least`` percent (and the check's threshold)."""
    def prepare(c: accuracy.Collection):
        files = stored_files(c.paths, c.ext)
        space = search_space(files)

        def finder(content: float) -> np.ndarray:
            pairs = space.class_pairs(Tolerances(key, sum_, content))
            if content > 0:
                j = float(fp_methods.resemblance_from_share(max(content, least)))
                lsh, _ = fp_methods.class_pairs(space, "minhash", files.simhashes,
                                                files.signatures, 100.0 * (1.0 - j) + 1e-9)
                pairs = np.unique(np.concatenate([pairs, lsh]), axis=0)
                pairs = pairs[fp_methods.shared_content(files.signatures, pairs) >= content]
            return np.unique(expand_pairs(space.classes, pairs, expand_identical=False), axis=0)
        return finder
    return prepare


def variant_methods() -> dict[str, accuracy.Method]:
    """Candidate settings for the defaults (--variants), each with the content check swept."""
    return {
        "simgui default + MinHash LSH candidates": accuracy.Method(
            with_lsh(DEFAULT_KEY_TOLERANCE, DEFAULT_SUM_TOLERANCE), DEFAULT_MIN_CONTENT,
            CONTENT_SWEEP, "content in common >= c % (smaller: looser; 0: no check, no LSH)",
            "the default tolerances, LSH candidates for the check's resemblance",
            identical_found=True),
        "simgui default + MinHash LSH candidates sharing >= 50 %": accuracy.Method(
            with_lsh(DEFAULT_KEY_TOLERANCE, DEFAULT_SUM_TOLERANCE, 50.0), DEFAULT_MIN_CONTENT,
            CONTENT_SWEEP, "content in common >= c % (smaller: looser; 0: no check, no LSH)",
            "as above, LSH candidates only for pairs sharing at least 50 %",
            identical_found=True),
    }


def search_space(files: StoredFiles) -> SearchSpace:
    """The space ``similar_pairs`` searches (classes of identical files, extension rule)."""
    return SearchSpace.build(files.sizes, files.tables, extensions=files.extensions,
                             class_extra=content_hashes(files), classes_by_extension=False)


STAGES = ("identical", "min size", "size factor", "extension", "key", "sum table", "content")


def verdicts(files: StoredFiles, pairs: np.ndarray, tolerances: Tolerances = Tolerances()
             ) -> dict[str, np.ndarray]:
    """Each pair's path through the default search, by the rules of simfind's exact test
    and pairs.similar_pairs, one pair at a time: distances, limits, the share of content,
    ``failing`` (the stages of :data:`STAGES` after "identical" that reject it, joined by
    "+", "" when none) and ``verdict`` ("identical", "admitted" or the first failing).
    As in the search, a file stands for its class of identical copies: the extension
    rule holds if the two classes have an extension in common (a copy under another
    extension is listed with its class), and the key is that extension's."""
    space = search_space(files)
    pairs = np.asarray(pairs, np.int64).reshape(-1, 2)
    a, b = pairs[:, 0].copy(), pairs[:, 1].copy()
    of_class = space.classes.of_file
    by_ext: dict[tuple[int, int], int] = {}  # (class, extension id) -> its first file
    for i in range(len(of_class) - 1, -1, -1):
        by_ext[(int(of_class[i]), int(space.ext_ids[i]))] = i
    exts: dict[int, set] = {}
    for cls, ext in by_ext:
        exts.setdefault(cls, set()).add(ext)
    for i in range(len(a)):  # the members that share an extension, if any do
        shared = exts[int(of_class[a[i]])] & exts[int(of_class[b[i]])]
        if shared and space.ext_ids[a[i]] != space.ext_ids[b[i]]:
            ext = min(shared)
            a[i], b[i] = by_ext[(int(of_class[a[i]]), ext)], by_ext[(int(of_class[b[i]]), ext)]
    sa, sb = space.sizes[a], space.sizes[b]
    big = np.maximum(sa, sb)
    key_distance = np.abs(space.keys[a] - space.keys[b])  # with the extension offsets
    key_limit = np.maximum(1.0, big * (tolerances.key / 100.0))
    sum_distance = np.abs(space.tables[a] - space.tables[b]).sum(axis=1)
    sum_limit = np.maximum(1.0, (sa + sb) * (tolerances.sum / 100.0) / 2.0)
    share = fp_methods.shared_content(files.signatures, pairs)
    identical = space.classes.of_file[a] == space.classes.of_file[b]
    tests = {"min size": np.minimum(sa, sb) < space.min_similar_size,
             "size factor": big > space.size_factor * np.minimum(sa, sb),
             "extension": space.ext_ids[a] != space.ext_ids[b],
             "key": key_distance > key_limit,
             "sum table": sum_distance > sum_limit,
             "content": (share < tolerances.content) if tolerances.content > 0
             else np.zeros(len(a), bool)}
    failing, verdict = [], []
    for i in range(len(a)):
        why = [name for name, fails in tests.items() if fails[i]]
        failing.append("+".join(why))
        verdict.append("identical" if identical[i] else why[0] if why else "admitted")
    return {"pairs": pairs, "size_a": sa, "size_b": sb, "key_distance": key_distance,
            "key_limit": key_limit, "sum_distance": sum_distance, "sum_limit": sum_limit,
            "share": share, "identical": identical, "failing": np.array(failing, object),
            "verdict": np.array(verdict, object)}


def corpus_labels(paths, folder: str) -> tuple[np.ndarray, list[str], list[str]]:
    """Family, edit (corpus.KINDS) and type of each corpus file, from its name."""
    rel = [os.path.relpath(p, folder) for p in paths]
    family = np.array([int(r.split("/", 1)[0][1:5]) for r in rel], np.int64)
    types = [r.split("/", 1)[0].split("-", 1)[1] for r in rel]
    edit = [corpus_mod.SOURCE] * len(paths)
    by_family: dict[int, list[int]] = {}
    for i, f in enumerate(family.tolist()):
        by_family.setdefault(f, []).append(i)
    for members in by_family.values():
        names = {os.path.basename(rel[i]): i for i in members}
        for name, i in names.items():  # the source is the file whose variants are the others
            variants = {corpus_mod.variant_name(name, e): e for e in corpus_mod.KINDS[1:]}
            if sum(v in names for v in variants) == len(members) - 1:
                for v, e in variants.items():
                    if v in names:
                        edit[names[v]] = e
                break
    return family, edit, types


def tlsh_distance(path_a: str, path_b: str):
    """TLSH's distance of two files, None when it is not installed or cannot hash them."""
    try:
        import tlsh
    except ImportError:
        return None
    hashes = []
    for path in (path_a, path_b):
        with open(path, "rb") as f:
            h = tlsh.hash(f.read())
        if not h or h == "TNULL":
            return None
        hashes.append(h)
    return tlsh.diff(*hashes)


def diagnose_corpus(c: accuracy.Collection, folder: str, out) -> None:
    """Every edit pair the defaults miss and every false pair they report on the corpus,
    with why (:func:`verdicts`), then the misses counted by edit, cause and type."""
    files = stored_files(c.paths, c.ext)
    found = similar_pairs(files).pairs
    family, edit, types = corpus_labels(c.paths, folder)
    member = corpus_mod.member_mask(edit)
    is_source = np.array([e == corpus_mod.SOURCE for e in edit])
    source_of = {int(family[i]): i for i in np.flatnonzero(is_source).tolist()}
    variants = np.flatnonzero(member & ~is_source).tolist()
    positive = np.sort(np.array([(source_of[int(family[i])], i) for i in variants],
                                np.int64).reshape(-1, 2), axis=1)
    n = len(c.paths)
    found_codes = set((found[:, 0] * n + found[:, 1]).tolist())
    missed = positive[[a * n + b not in found_codes for a, b in positive.tolist()]]
    relation = corpus_mod.pair_relation(family, member, is_source, found)
    false = found[relation == corpus_mod.UNRELATED]
    for title, chosen in (("missed edits (false negatives)", missed),
                          ("false pairs (false positives)", false)):
        v = verdicts(files, chosen)
        out()
        out(f"corpus diagnosis, defaults: {len(chosen)} {title}")
        rows = []
        for i, (a, b) in enumerate(chosen.tolist()):
            e = edit[b] if edit[a] == corpus_mod.SOURCE else f"{edit[a]}/{edit[b]}"
            rows.append((int(family[b]), types[b], e, c.ext[a] or "-", int(v["size_a"][i]),
                         int(v["size_b"][i]),
                         f"{v['key_distance'][i]:.0f}/{v['key_limit'][i]:.0f}",
                         f"{v['sum_distance'][i]}/{v['sum_limit'][i]:.0f}",
                         float(v["share"][i]), str(tlsh_distance(c.paths[a], c.paths[b])),
                         v["failing"][i] or "-", v["verdict"][i]))
        rows.sort(key=lambda r: (r[2], r[1], r[0]))
        out.table(("family", "type", "edit", "ext", "size a", "size b", "key d/limit",
                   "sum d/limit", "share %", "TLSH", "failing", "verdict"), rows,
                  ("", "", "", "", "{:,}", "{:,}", "", "", "{:.1f}", "", "", ""))
        if len(chosen):
            counts: dict[tuple[str, str], int] = {}
            for r in rows:
                counts[(r[2], r[10])] = counts.get((r[2], r[10]), 0) + 1
            out("  by edit and cause: " + ", ".join(f"{e} {why} {k}" for (e, why), k
                                                      in sorted(counts.items())))
            by_type: dict[str, int] = {}
            for r in rows:
                by_type[r[1]] = by_type.get(r[1], 0) + 1
            out("  by type: " + ", ".join(f"{t} {k}" for t, k in sorted(by_type.items())))


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
    p.add_argument("--diagnose", action="store_true", help="list the corpus' missed edits "
                   "and false pairs at the defaults, with the stage that decided each")
    p.add_argument("--variants", action="store_true", help="also score candidate settings "
                   "for the defaults (variant_methods)")
    p.set_defaults(out=os.path.join(common.ROOT, "docs", "benchmarks"))
    args = p.parse_args(argv)
    if args.quick:
        args.sources, args.cameras, args.archives = 40, 12, 12
    out = common.Report(args.out, "trust", "Similar means similar: simgui's default verdict "
                        "next to TLSH and ssdeep", tools=("ssdeep",), modules=("tlsh",))
    warm_up()
    chosen = methods(not args.no_peers)
    if args.variants:
        chosen.update(variant_methods())
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
            if c.name == "corpus" and args.diagnose:
                diagnose_corpus(c, os.path.join(tmp, "corpus"), out)
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
