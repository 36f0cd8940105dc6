"""Paper Figures 3-4: the key space of real trees (key against file size).

    PYTHONPATH=. python benchmarks/experiments/fig3_4_keyspace.py [--roots DIR ...] [--quick]

Scans the trees with simgui's own scanner into a throwaway store (default:
the Python standard library of the interpreter running this, without its
site-packages, and /usr/lib), then plots every file's key against its size:
the Uniform key, the Skew key (both with the line key = size), and the Skew
key with the extension modification, whose offsets put each extension in its
own horizontal stripe (the paper's Figure 4).  Writes keyspace.png and
keyspace.txt: per tree and key, the key per byte (median, 5-95 %), the share
of files above key = size, and whether any two extension stripes overlap.
"""

from __future__ import annotations

import os
import sysconfig
import tempfile
from collections import Counter

import numpy as np

import common  # noqa: F401  (sets sys.path)
from simgui.core.search.keys import EXTENSION_SPAN, SKEW, UNIFORM, compute_keys, extension_offset
from simgui.core.reading.scanner import ScanOptions, scan
from simgui.core.store import Store
from simgui.core.reading.sumtable import warm_up

NAME = "keyspace"


def default_roots(quick: bool) -> list[str]:
    stdlib = sysconfig.get_paths()["stdlib"]
    return [stdlib] if quick else [stdlib, "/usr/lib"]


def scan_root(root: str, excludes=()):
    """Sum tables of every regular file under ``root``: StoredFiles, and the scan report."""
    with tempfile.TemporaryDirectory(prefix="simgui-keyspace-") as tmp:
        with Store(os.path.join(tmp, "keyspace.db")) as store:
            report = scan(store, [root], ScanOptions(excludes=tuple(excludes)))
            return store.files(), report


def excludes_for(root: str) -> tuple[str, ...]:
    """The standard library without the third-party packages installed into it."""
    return ("site-packages", "dist-packages") if root == sysconfig.get_paths()["stdlib"] else ()


def key_stats(sizes: np.ndarray, keys: np.ndarray) -> dict:
    """Key per byte (median, 5 and 95 %), share above key = size, log-log correlation."""
    ok = (sizes > 0) & (keys > 0)
    per_byte = keys[ok] / sizes[ok]
    return {"files": int(ok.sum()), "median": float(np.median(per_byte)) if ok.any() else 0.0,
            "p5": float(np.percentile(per_byte, 5)) if ok.any() else 0.0,
            "p95": float(np.percentile(per_byte, 95)) if ok.any() else 0.0,
            "above": float((keys[ok] > sizes[ok]).mean()) if ok.any() else 0.0,
            "corr": float(np.corrcoef(np.log(sizes[ok]), np.log(keys[ok]))[0, 1])
            if ok.sum() > 2 else float("nan")}


def stripe_overlaps(extensions, plain_keys: np.ndarray) -> tuple[int, int, float, float]:
    """Stripes (distinct 3-character extension heads), overlapping stripe pairs, the
    largest plain key, and the smallest gap between two stripes' offsets."""
    heads = {}
    for ext, key in zip(extensions, plain_keys):
        head = ext.casefold()[:3]
        heads[head] = max(heads.get(head, 0.0), float(key))
    spans = sorted((extension_offset(h), extension_offset(h) + top) for h, top in heads.items())
    overlaps = sum(1 for (a0, a1), (b0, _) in zip(spans, spans[1:]) if b0 <= a1)
    offsets = [s[0] for s in spans]
    gap = float(np.min(np.diff(offsets))) if len(offsets) > 1 else float("inf")
    return len(heads), overlaps, max(heads.values(), default=0.0), gap


def main(argv=None) -> int:
    p = common.parser(__doc__)
    p.add_argument("--roots", nargs="+", help="trees to scan (default: stdlib and /usr/lib)")
    args = p.parse_args(argv)
    roots = [os.path.abspath(r) for r in (args.roots or default_roots(args.quick))]
    out = common.Report(args.out, NAME, "Paper Figures 3-4: key space (key against file size)")
    warm_up()
    parts = []
    for root in roots:
        excludes = excludes_for(root)
        seconds, (files, report) = common.timed(scan_root, root, excludes)
        parts.append(files)
        out(f"tree {root}: {len(files):,} files, {files.sizes.sum() / 1e9:.2f} GB, scanned in "
            f"{seconds:.1f} s ({report.errors} unreadable)"
            + (f"; {', '.join(excludes)} folders excluded" if excludes else ""))
    out("(regular files only, symbolic links not followed, hard links once)")
    sizes = np.concatenate([f.sizes for f in parts])
    tables = np.concatenate([f.tables for f in parts]).reshape(-1, 16)
    exts = [e for f in parts for e in f.extensions]
    tree_of = np.repeat(np.arange(len(parts)), [len(f) for f in parts])
    out(f"{len(sizes):,} files in all; {int((sizes == 0).sum())} empty files are left out of "
        "the log-scale plots")

    uniform = compute_keys(tables, UNIFORM)
    skew = compute_keys(tables, SKEW)
    skew_ext = compute_keys(tables, SKEW, exts)

    out()
    out("key per byte of file (key / size): median, 5 % and 95 % of files; share of files "
        "above the line key = size; correlation of log key and log size")
    rows = []
    for i, root in enumerate(roots + ["all trees"]):
        mask = tree_of == i if i < len(roots) else np.ones(len(sizes), bool)
        for scheme, keys in (("Uniform", uniform), ("Skew", skew)):
            s = key_stats(sizes[mask], keys[mask])
            rows.append((root, scheme, s["files"], s["median"], s["p5"], s["p95"],
                         100 * s["above"], s["corr"]))
    out.table(("tree", "key", "files", "median", "5 %", "95 %", "above y=x %", "corr(log)"),
              rows, ("", "", "{:,}", "{:.3f}", "{:.3f}", "{:.3f}", "{:.1f}", "{:.3f}"))

    counts = Counter(exts)
    n_heads, overlaps, top_key, gap = stripe_overlaps(exts, skew)
    out()
    out(f"extension modification: {len(counts):,} distinct extensions, {n_heads:,} stripes "
        f"(an extension's first three characters make its stripe); offsets span "
        f"[0, 2^44 = {EXTENSION_SPAN:.3g}); the largest Skew key of any file is "
        f"{top_key:.3g}, the smallest gap between two stripes' offsets {gap:.3g}: "
        f"{overlaps} pairs of stripes overlap")
    top = counts.most_common(10)
    out("most common extensions: " + ", ".join(f"{e or '(none)'} {c:,}" for e, c in top))

    plot(args.out, roots, sizes, uniform, skew, skew_ext, exts, [e for e, _ in top[:9]])
    out.write()
    return 0


def plot(out_dir, roots, sizes, uniform, skew, skew_ext, exts, top_exts) -> None:
    plt = common.pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.2))
    ok = sizes > 0
    ext_arr = np.array(exts, dtype=object)
    colours = [c for i, c in enumerate(plt.get_cmap("tab10").colors) if i != 7]  # no grey
    other = ~np.isin(ext_arr, top_exts)
    groups = [("other", other)] + [(e, ext_arr == e) for e in top_exts]  # "other" underneath
    xs = np.array([1, sizes.max() * 2])
    for ax, keys, title in ((axes[0], uniform, "Uniform key (all 16 weights 1)"),
                            (axes[1], skew, "Skew key (00=6.00 74=4.03 65=3.29 a4=2.68)")):
        for g, (e, mask) in enumerate(groups):
            m = mask & ok & (keys > 0)
            ax.scatter(sizes[m], keys[m], s=1.5, alpha=0.35, lw=0, rasterized=True,
                       color="0.7" if e == "other" else colours[(g - 1) % 9],
                       label=f"{e or '(none)'}" if e != "other" else "other extensions")
        ax.plot(xs, xs, "k--", lw=1, label="key = size")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("file size (bytes, log scale)")
        ax.set_ylabel("key (log scale)")
        ax.set_title(title)
    handles, names = axes[0].get_legend_handles_labels()
    order = list(range(1, len(handles))) + [0]  # "other extensions" last
    axes[0].legend([handles[i] for i in order], [names[i] for i in order], loc="upper left",
                   markerscale=6, ncol=2, title="extension")
    ax = axes[2]
    for g, (e, mask) in enumerate(groups):
        m = mask & ok
        ax.scatter(sizes[m], skew_ext[m] / EXTENSION_SPAN, s=1.5, alpha=0.35, lw=0,
                   rasterized=True, color="0.7" if e == "other" else colours[(g - 1) % 9])
    labels = sorted((extension_offset(e) / EXTENSION_SPAN, g, e) for g, e in enumerate(top_exts))
    last = -1.0
    for y, g, e in labels:  # stripe names at the right, nudged apart so none overlap
        y_text = max(y, last + 0.035)
        last = y_text
        ax.annotate(f".{e}" if e else "(none)", (1.0, y), xycoords=("axes fraction", "data"),
                    xytext=(1.02, y_text), textcoords=("axes fraction", "data"), va="center",
                    fontsize=7, color=colours[g % 9],
                    arrowprops=dict(arrowstyle="-", color=colours[g % 9], lw=0.5))
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.set_xlabel("file size (bytes, log scale)")
    ax.set_ylabel("(Skew key + extension offset) / 2^44  (linear)")
    ax.set_title("Skew key with the extension modification:\none horizontal stripe per extension")
    fig.suptitle(f"Key space of {len(sizes):,} real files ({', '.join(roots)}): "
                 "paper Figures 3 and 4", fontsize=11)
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    common.save_figure(fig, out_dir, NAME, common.footer_text())


if __name__ == "__main__":
    raise SystemExit(main())
