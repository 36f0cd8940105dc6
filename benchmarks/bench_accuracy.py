"""SimFind's precision and recall on a labelled corpus of real files with known edits.

    python benchmarks/bench_accuracy.py [--sources 300] [--seed 0] [--full]

The corpus (benchmarks/corpus.py) takes real files of this machine of a dozen
types and makes 15 variants of each: a copy; 0.1, 0.5, 1 and 2 % of the bytes
changed; 1 and 5 % inserted; 1 and 5 % deleted; 5 % moved; 1 and 10 %
appended; 1 and 10 % cut off; and a 30 % change, which is a negative.

Two labellings (corpus.py, "Labels"), both reported:

- *edit labels* (the default for the recommendation, ``--positives edits``):
  a (source, non-heavy variant) pair is positive, a pair of unrelated files
  or with a heavy edit negative, and a pair of two variants of one source is
  left out; so every positive is one known edit;
- *family labels* (``--positives family``): every pair of one family without
  heavy edits is positive, also two variants of one source (at most two edits
  apart).

For every key tolerance K and sum-table tolerance S of the grid, with the Skew
and the Uniform key, without and with the extension modification, all pairs
are found with ``find_pairs`` (size factor 1.5; identical files always count
as found) and scored:

- precision = true pairs found / pairs found, recall = true pairs found /
  positive pairs, F1 their harmonic mean, with family labels; P(edit),
  R(edit), F1(edit) the same with edit labels;
- FP(type): false pairs of two unrelated files of the same type (an unrelated
  file of the same type and similar size is the hardest negative);
  FP(heavy): false pairs with a heavy edit.

The recommendation is the setting with the best F1 under the chosen labels
(rounded to 0.001; ties go to the smaller K + S).  Precision depends on how
many positives a collection holds (here 14 edits per source, far more than on
a real disk), so the false pairs per million negative pairs are printed too.  Printed: machine, versions and command, an F1 /
precision / recall matrix for each key and extension choice, the best
settings, recall per edit kind, precision and recall per file type, and the
false pairs at the recommended setting.  The same text goes to
``benchmarks/out/accuracy.txt``, followed by the full table of every setting.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import corpus as corpus_mod  # noqa: E402
from simgui.core.search.keys import SKEW, UNIFORM  # noqa: E402
from simgui.core.search.simfind import (DEFAULT_KEY_TOLERANCE, DEFAULT_SIZE_FACTOR,  # noqa: E402
                                 DEFAULT_SUM_TOLERANCE, find_pairs)
from simgui.core.reading.sumtable import sum_table, warm_up  # noqa: E402

GRID = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.2, 5.0, 8.0, 12.0)
SCHEMES = (SKEW, UNIFORM)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "accuracy.txt")


class Report:
    """Lines for stdout and for the output file."""

    def __init__(self):
        self.lines: list[str] = []

    def __call__(self, line: str = "", *, quiet: bool = False) -> None:
        self.lines.append(line)
        if not quiet:
            print(line, flush=True)


def machine() -> list[str]:
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        rev = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        rev = (rev + ("+uncommitted changes" if dirty else "")) or "?"
    except (OSError, subprocess.SubprocessError):
        rev = "?"
    return [f"machine: {platform.platform()}, {cpu}, {os.cpu_count()} CPUs",
            f"versions: Python {platform.python_version()}, numpy {np.__version__}, "
            f"numba {numba.__version__}, simgui commit {rev}",
            "command: " + " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:])]


def identical_pairs(digests: list[bytes]) -> np.ndarray:
    groups: dict[bytes, list[int]] = {}
    for i, d in enumerate(digests):
        groups.setdefault(d, []).append(i)
    out = [(a, b) for g in groups.values() for x, a in enumerate(g) for b in g[x + 1:]]
    return np.array(out, dtype=np.int64).reshape(-1, 2)


class Data:
    """Per-file facts of the corpus; the bytes are not kept."""

    def __init__(self, sources, seed):
        import hashlib
        sizes, tables, digests = [], [], []
        self.names, self.edit, self.ext, self.type, family = [], [], [], [], []
        for f in corpus_mod.iter_corpus(sources, seed):
            sizes.append(len(f.data))
            tables.append(sum_table(f.data))
            digests.append(hashlib.blake2b(f.data, digest_size=16).digest())
            self.names.append(f.name)
            self.edit.append(f.edit)
            self.ext.append(f.ext)
            self.type.append(f.type)
            family.append(f.family)
        self.sizes = np.array(sizes, dtype=np.int64)
        self.tables = np.array(tables, dtype=np.int64).reshape(-1, 16)
        self.family = np.array(family, dtype=np.int64)
        self.member = corpus_mod.member_mask(self.edit)
        self.is_source = np.array([e == corpus_mod.SOURCE for e in self.edit])
        self.kind_index = np.array([corpus_mod.KINDS.index(e) for e in self.edit])
        self.type_index = np.array([corpus_mod.TYPES.index(t) for t in self.type])
        self.identical = identical_pairs(digests)
        self.n = len(self.sizes)
        self.positives = corpus_mod.count_positives(self.family, self.member)
        self.edit_positives = corpus_mod.count_edit_pairs(self.family, self.member, self.is_source)
        self.negatives = self.n * (self.n - 1) // 2 - self.positives


def score(data: Data, pairs: np.ndarray) -> dict:
    n = data.n
    codes = np.union1d(pairs[:, 0] * n + pairs[:, 1],
                       data.identical[:, 0] * n + data.identical[:, 1])
    a, b = codes // n, codes % n
    rel = corpus_mod.pair_relation(data.family, data.member, data.is_source,
                                   np.stack([a, b], axis=1))
    lab = rel != corpus_mod.UNRELATED
    tp = int(lab.sum())
    found = len(codes)
    fp = found - tp
    precision = tp / found if found else 1.0
    recall = tp / data.positives if data.positives else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    edit_pair = rel == corpus_mod.EDIT
    false = ~lab
    same_family = data.family[a] == data.family[b]
    # "edits" labels: only (source, member variant) pairs are positive; pairs of two
    # variants of one source are left out (neither found nor missed)
    tp_e = int(edit_pair.sum())
    precision_e = tp_e / (tp_e + fp) if tp_e + fp else 1.0
    recall_e = tp_e / max(1, data.edit_positives)
    f1_e = (2 * precision_e * recall_e / (precision_e + recall_e)
            if precision_e + recall_e else 0.0)
    return dict(found=found, tp=tp, fp=fp, precision=precision, recall=recall, f1=f1,
                edit_precision=precision_e, edit_recall=recall_e, edit_f1=f1_e,
                fp_type=int((false & ~same_family
                             & (data.type_index[a] == data.type_index[b])).sum()),
                fp_heavy=int((false & same_family).sum()),
                a=a, b=b, rel=rel)


def best_of(rows, metric="f1"):
    """Best ``metric`` (rounded to 0.001); ties go to the smaller K + S, then smaller S."""
    return min(rows, key=lambda r: (-round(r[metric], 3), r["K"] + r["S"], r["S"], r["K"]))


def type_scores(data: Data, r: dict, ti: int, edits: bool) -> tuple[int, int, int, float, float,
                                                                    float]:
    """Positives, found, true found, precision, recall, F1 over pairs touching type ``ti``,
    with edit labels (``edits``) or family labels."""
    mine = data.type_index == ti
    touch = (data.type_index[r["a"]] == ti) | (data.type_index[r["b"]] == ti)
    if edits:
        pos = corpus_mod.count_edit_pairs(data.family[mine], data.member[mine],
                                          data.is_source[mine])
        touch &= r["rel"] != corpus_mod.SIBLING
        tp = int((touch & (r["rel"] == corpus_mod.EDIT)).sum())
    else:
        pos = corpus_mod.count_positives(data.family[mine], data.member[mine])
        tp = int((touch & (r["rel"] != corpus_mod.UNRELATED)).sum())
    found = int(touch.sum())
    p = tp / found if found else 1.0
    rec = tp / pos if pos else 1.0
    return pos, found, tp, p, rec, (2 * p * rec / (p + rec) if p + rec else 0.0)


def label(scheme, ext):
    return f"{scheme.name} key, {'with' if ext else 'without'} extension modification"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", type=int, default=corpus_mod.DEFAULT_SOURCES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--root", action="append", help="take sources from these folders")
    parser.add_argument("--grid", type=float, nargs="+", default=GRID,
                        help="tolerances in percent, for both K and S")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--positives", choices=("edits", "family"), default="edits",
                        help="labels the recommendation is chosen by: (source, edit) pairs "
                             "positive, siblings left out (default); or every pair of one family")
    parser.add_argument("--full", action="store_true", help="also print the table of every setting")
    args = parser.parse_args(argv)
    out = Report()
    for line in machine():
        out(line)

    t0 = time.perf_counter()
    sources = corpus_mod.select_sources(args.sources, args.seed,
                                        tuple(args.root or corpus_mod.DEFAULT_ROOTS))
    t1 = time.perf_counter()
    warm_up()
    data = Data(sources, args.seed)
    t2 = time.perf_counter()
    types = sorted({s.type for s in sources}, key=corpus_mod.TYPES.index)
    total_pairs = data.n * (data.n - 1) // 2
    out(f"corpus: seed {args.seed}, {len(sources)} sources "
        f"({', '.join(f'{t} {sum(s.type == t for s in sources)}' for t in types)}), "
        f"{data.n} files, {data.sizes.sum() / 1e6:.1f} MB; sizes {data.sizes.min()} .. "
        f"{data.sizes.max()} bytes, median {int(np.median(data.sizes))}")
    out(f"pairs: {total_pairs:,} in all, {data.positives:,} positive "
        f"({data.edit_positives:,} of them (source, known edit)), "
        f"{len(data.identical):,} of identical content")
    out(f"time: sources chosen in {t1 - t0:.1f} s, corpus made and sum tables computed in "
        f"{t2 - t1:.1f} s")
    out(f"size factor {DEFAULT_SIZE_FACTOR}; current defaults K = {DEFAULT_KEY_TOLERANCE} %, "
        f"S = {DEFAULT_SUM_TOLERANCE} %")

    rows = []
    t3 = time.perf_counter()
    for scheme in SCHEMES:
        for ext in (False, True):
            for k in args.grid:
                for s in args.grid:
                    pairs = find_pairs(data.sizes, data.tables, key_tolerance=k, sum_tolerance=s,
                                       scheme=scheme, extensions=data.ext if ext else None)
                    r = score(data, pairs)
                    r.update(scheme=scheme, ext=ext, K=k, S=s)
                    rows.append(r)
    t4 = time.perf_counter()
    out(f"time: {len(rows)} settings searched and scored in {t4 - t3:.1f} s")

    grid = list(args.grid)
    head = "K \\ S % " + "".join(f"{s:>7g}" for s in grid)
    for scheme in SCHEMES:
        for ext in (False, True):
            sub = {(r["K"], r["S"]): r for r in rows if r["scheme"] is scheme and r["ext"] == ext}
            out()
            out(f"== {label(scheme, ext)}")
            for metric, name in (("edit_f1", "F1 (edit labels)"),
                                 ("edit_precision", "precision (edit labels)"),
                                 ("edit_recall", "recall (edit labels)"),
                                 ("f1", "F1 (family labels)")):
                out(f"{name} (rows: key tolerance K %, columns: sum-table tolerance S %)")
                out(head)
                for k in grid:
                    out(f"{k:>7g} " + "".join(f"{sub[(k, s)][metric]:7.3f}" for s in grid))
    cols = ("setting", "found", "TP", "FP", "FP(type)", "FP(heavy)", "precision", "recall",
            "F1", "P(edit)", "R(edit)", "F1(edit)")

    def row_text(r):
        name = f"{r['scheme'].name:7s} {'ext' if r['ext'] else '   '} K={r['K']:<4g} S={r['S']:<4g}"
        return (f"{name:28s} {r['found']:>7} {r['tp']:>7} {r['fp']:>6} {r['fp_type']:>8} "
                f"{r['fp_heavy']:>9} {r['precision']:>9.4f} {r['recall']:>7.4f} {r['f1']:>7.4f} "
                f"{r['edit_precision']:>8.4f} {r['edit_recall']:>8.4f} {r['edit_f1']:>8.4f}")
    header = (f"{cols[0]:28s} {cols[1]:>7} {cols[2]:>7} {cols[3]:>6} {cols[4]:>8} {cols[5]:>9} "
              f"{cols[6]:>9} {cols[7]:>7} {cols[8]:>7} {cols[9]:>8} {cols[10]:>8} {cols[11]:>8}")

    def short(r):
        return (f"{r['scheme'].name} key{' + extensions' if r['ext'] else ''}, "
                f"K = {r['K']:g} %, S = {r['S']:g} %")

    def edge(r):
        return r["K"] == max(grid) or r["S"] == max(grid)

    primary = "f1" if args.positives == "family" else "edit_f1"
    combos = [(scheme, ext) for scheme in SCHEMES for ext in (False, True)]
    bests = {c: best_of([r for r in rows if (r["scheme"], r["ext"]) == c], primary)
             for c in combos}
    best = best_of(rows, primary)
    other_metric = "edit_f1" if primary == "f1" else "f1"
    best_other = best_of(rows, other_metric)
    current = next((r for r in rows if r["scheme"] is SKEW and r["ext"]
                    and r["K"] == DEFAULT_KEY_TOLERANCE and r["S"] == DEFAULT_SUM_TOLERANCE), None)
    out()
    out(f"== best setting of each key and extension choice (by {primary}; P/R/F1 with family "
        "labels, P/R/F1(edit) with (source, edit) labels)")
    out(header)
    for r in bests.values():
        out(row_text(r))
    out(row_text(best_other) + f"   <- best by {other_metric}")
    if current is not None:
        out(row_text(current) + "   <- current defaults")

    out()
    out("== recall per edit kind: share of (source, variant) pairs found")
    chosen = list(bests.values()) + [best_other] + ([current] if current is not None else [])
    titles = [f"{r['scheme'].name}{' ext' if r['ext'] else ''}" for r in bests.values()]
    titles += [f"by {other_metric}"] + (["current"] if current is not None else [])
    out(f"{'edit':12s}" + "".join(f"{t:>14s}" for t in titles))
    out(f"{'':12s}" + "".join(f"{'K=%g S=%g' % (r['K'], r['S']):>14s}" for r in chosen))
    for kind_number, edit in enumerate(corpus_mod.EDITS, start=1):
        cells = []
        for r in chosen:
            a, b = r["a"], r["b"]
            hit = ((data.is_source[a] & (data.kind_index[b] == kind_number))
                   | (data.is_source[b] & (data.kind_index[a] == kind_number)))
            hit &= data.family[a] == data.family[b]
            cells.append(hit.sum() / len(sources))
        note = "" if edit.positive else "   (negative: share wrongly found)"
        out(f"{edit.name:12s}" + "".join(f"{c:14.3f}" for c in cells) + note)

    out()
    edits = primary == "edit_f1"
    out(f"== per file type at the recommended setting ({short(best)}), and each type's own best "
        f"F1 with the same key choice (for per-extension overrides); "
        f"{'edit' if edits else 'family'} labels")
    out(f"{'type':12s} {'files':>6} {'positive':>9} {'found':>7} {'TP':>7} {'FP':>5} "
        f"{'precision':>9} {'recall':>7} {'F1':>6} | {'own best':>16} {'precision':>9} "
        f"{'recall':>7} {'F1':>6}")
    same = [r for r in rows if r["scheme"] is best["scheme"] and r["ext"] == best["ext"]]
    for t in types:
        ti = corpus_mod.TYPES.index(t)
        pos, found, tp, p, rec, f1 = type_scores(data, best, ti, edits)
        own = min(same, key=lambda r: (-round(type_scores(data, r, ti, edits)[5], 3),
                                       r["K"] + r["S"], r["S"], r["K"]))
        _, _, _, op, orec, of1 = type_scores(data, own, ti, edits)
        out(f"{t:12s} {int((data.type_index == ti).sum()):>6} {pos:>9} {found:>7} {tp:>7} "
            f"{found - tp:>5} {p:>9.3f} {rec:>7.3f} {f1:>6.3f} | "
            f"{'K=%g S=%g' % (own['K'], own['S']):>16} {op:>9.3f} {orec:>7.3f} {of1:>6.3f}")

    out()
    a, b = best["a"], best["b"]
    false = np.flatnonzero(best["rel"] == corpus_mod.UNRELATED)
    pair_type = [f"{data.type[a[i]]}" if data.type[a[i]] == data.type[b[i]]
                 else f"{data.type[a[i]]}/{data.type[b[i]]}" for i in false]
    kinds: dict[str, int] = {}
    for t in pair_type:
        kinds[t] = kinds.get(t, 0) + 1
    out(f"== false pairs at the recommended setting: {len(false)}; by type: "
        + ", ".join(f"{t} {c}" for t, c in sorted(kinds.items(), key=lambda x: -x[1])))
    out("   the closest unrelated sources among them (L1 = sum-table distance, % of mean size):")
    srcs = [i for i in false if data.is_source[a[i]] and data.is_source[b[i]]]
    def l1(x, y):
        return np.abs(data.tables[x] - data.tables[y]).sum() / ((data.sizes[x] + data.sizes[y]) / 2)
    srcs.sort(key=lambda i: l1(a[i], b[i]))
    for i in srcs[:10]:
        x, y = a[i], b[i]
        out(f"  {data.names[x]} ({data.sizes[x]} B) ~ {data.names[y]} ({data.sizes[y]} B): "
            f"L1 {100 * l1(x, y):.2f} %")

    out()
    for r, metric in ((best, primary), (best_other, other_metric)):
        tag = "RECOMMENDED DEFAULTS" if r is best else f"best by {other_metric}"
        out(f"{tag} ({'family' if metric == 'f1' else 'edits'} labels): {short(r)} "
            f"(size factor {DEFAULT_SIZE_FACTOR}): precision {r['precision']:.3f}, recall "
            f"{r['recall']:.3f}, F1 {r['f1']:.3f}; on (source, edit) pairs: precision "
            f"{r['edit_precision']:.3f}, recall {r['edit_recall']:.3f}, F1 {r['edit_f1']:.3f}; "
            f"{1e6 * r['fp'] / data.negatives:.0f} false pairs per million negative pairs"
            + ("  [at the edge of the grid: try --grid with larger values]" if edge(r) else ""))
    skew_ext = bests[(SKEW, True)]
    if best is not skew_ext:
        out(f"  best with the paper's Skew key and extensions: K = {skew_ext['K']:g} %, "
            f"S = {skew_ext['S']:g} %: family labels P {skew_ext['precision']:.3f} R "
            f"{skew_ext['recall']:.3f} F1 {skew_ext['f1']:.3f}; edit labels P "
            f"{skew_ext['edit_precision']:.3f} R {skew_ext['edit_recall']:.3f} F1 "
            f"{skew_ext['edit_f1']:.3f}")

    out(quiet=not args.full)
    out("== every setting", quiet=not args.full)
    out(header, quiet=not args.full)
    for r in rows:
        out(row_text(r), quiet=not args.full)

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out.lines) + "\n")
    print(f"(written to {args.out})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
