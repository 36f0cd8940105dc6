"""Paper Figure 8: unrelated files of one format start to look alike at a format's own tolerance.

    PYTHONPATH=. python benchmarks/experiments/fig8_formats.py [--files 200] [--quick]

Makes ``--files`` random 4 KB ASCII files (printable characters, a line break
every 72), converts each to PostScript with GNU enscript (``enscript -q -p
F.ps F.txt``, its default page header included) and to PDF with Ghostscript
(``gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sOutputFile=F.pdf
F.ps``, what ps2pdf runs).  As positives, each text also gets an edited
version (``--edit-chars`` characters replaced, default 8, 0.2 %), converted
the same way.

For each format and each tolerance T (key = sum-table tolerance, 0.01 to
10 %) it counts the pairs of *unrelated* files (different random texts) that
SimFind reports, and the (original, edited) pairs it finds.  Then, on all
files together with the extension modification, it compares the app's
default tolerances (key 3.2 %, sum table 1 %) with per-extension overrides:
a format whose unrelated files start to look alike below the default (0.1 %
of its unrelated pairs are hits at the default key tolerance) gets half that
tolerance as its sum-table tolerance (``--safety 2``), as a user reading this
figure would set it.  simgui's engine takes such overrides
(``find_pairs(..., overrides={"ps": Tolerances(K, S)})``); the command line and
the window do not expose them yet.  Writes formats.png and formats.txt.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import common
from simgui.core.search.simfind import DEFAULT_KEY_TOLERANCE, DEFAULT_SUM_TOLERANCE, Tolerances, find_pairs
from simgui.core.reading.sumtable import sum_table_of_file, warm_up
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS

NAME = "formats"
FORMATS = ("txt", "pdf", "ps")
SIZE = 4096
LINE = 72
ENSCRIPT = ["enscript", "-q", "-p"]
GS = ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pdfwrite"]


def random_ascii(rng: np.random.Generator, size: int = SIZE, line: int = LINE) -> bytes:
    """``size`` bytes of random printable ASCII, a line break every ``line`` characters."""
    a = rng.integers(32, 127, size, dtype=np.uint8)
    a[line::line + 1] = 10
    return a.tobytes()


def edit_text(data: bytes, chars: int, rng: np.random.Generator) -> bytes:
    """``chars`` printable characters (not line breaks) replaced by other printable ones."""
    a = np.frombuffer(data, np.uint8).copy()
    where = np.flatnonzero(a != 10)
    pos = rng.choice(where, size=min(chars, len(where)), replace=False)
    a[pos] = 32 + (a[pos].astype(np.int64) - 32 + rng.integers(1, 95, len(pos))) % 95
    return a.tobytes()


def convert(txt: str) -> tuple[str, str]:
    """F.txt -> F.ps (enscript) -> F.pdf (Ghostscript pdfwrite)."""
    stem = txt[:-4]
    subprocess.run(ENSCRIPT + [stem + ".ps", txt], check=True, capture_output=True)
    subprocess.run(GS + [f"-sOutputFile={stem}.pdf", stem + ".ps"], check=True,
                   capture_output=True)
    return stem + ".ps", stem + ".pdf"


def pair_min_tolerance(sizes, tables, pairs_wanted=None, steps=TOLERANCE_STEPS,
                       key_tolerance: float | None = None) -> np.ndarray:
    """For every pair i < j (or the pairs given): the smallest T of ``steps`` at which it is a
    hit with key tolerance = sum-table tolerance = T (or with the key tolerance fixed at
    ``key_tolerance``), inf if none, by the search's own tests."""
    from simgui.core.search.keys import SKEW
    n = len(sizes)
    keys = SKEW.keys(tables)
    if pairs_wanted is None:
        i, j = np.triu_indices(n, 1)
    else:
        i, j = pairs_wanted[:, 0], pairs_wanted[:, 1]
    big = np.maximum(sizes[i], sizes[j]).astype(np.float64)
    small = np.minimum(sizes[i], sizes[j])
    dk = np.abs(keys[i] - keys[j])
    l1 = np.abs(tables[i] - tables[j]).sum(axis=1).astype(np.float64)
    total = (sizes[i] + sizes[j]).astype(np.float64)
    out = np.full(len(i), np.inf)
    todo = big <= 1.5 * small
    for t in steps:  # the search's own tests (simfind/tolerance_stats), step by step
        k = t if key_tolerance is None else key_tolerance
        hit = todo & (dk <= np.maximum(1.0, big * (k / 100.0))) \
            & (l1 <= np.maximum(1.0, total * (t / 100.0) / 2.0))
        out[hit] = t
        todo &= ~hit
    return out


def check_against_engine(sizes, tables, min_t, steps) -> None:
    """The per-pair tolerances above must count what simgui's ToleranceStats counts."""
    from simgui.core.search.simfind import SearchSpace
    from simgui.core.search.tolerance_stats import ToleranceStats
    stats = ToleranceStats.build(SearchSpace.build(sizes, tables), max_key=float(steps[-1]),
                                 max_sum=float(steps[-1]))
    engine = stats.curve(steps)["sum_hits"]
    mine = np.searchsorted(np.sort(min_t), steps, side="right")
    if not np.array_equal(engine, mine):
        raise AssertionError("pair tolerances disagree with simgui's ToleranceStats")


def fraction_hit(min_t: np.ndarray, steps) -> np.ndarray:
    """Share of pairs that are hits at each step (hits are monotone in T)."""
    s = np.sort(min_t)
    return np.searchsorted(s, np.asarray(steps), side="right") / max(len(s), 1)


def main(argv=None) -> int:
    p = common.parser(__doc__)
    p.add_argument("--files", type=int, default=200)
    p.add_argument("--edit-chars", type=int, default=8)
    p.add_argument("--onset", type=float, default=0.001,
                   help="share of unrelated pairs that marks where a format's files start to "
                        "look alike")
    p.add_argument("--safety", type=float, default=2.0,
                   help="an override is the onset tolerance divided by this")
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--keep", help="write the generated files here instead of a temporary folder")
    args = p.parse_args(argv)
    if args.quick:
        args.files = 60
    for tool in ("enscript", "gs"):
        if not common.have(tool):
            raise SystemExit(f"{tool} is not installed (Debian: apt-get install enscript "
                             "ghostscript); this experiment needs it")
    out = common.Report(args.out, NAME, "Paper Figure 8: unrelated text, PDF and PostScript "
                        "files against tolerance", tools=("enscript", "gs"))
    out(f"files: {args.files} random {SIZE}-byte ASCII texts (printable characters, a line "
        f"break every {LINE}), each with an edited copy ({args.edit_chars} characters replaced, "
        f"{100 * args.edit_chars / SIZE:.2f} %); converted with `{' '.join(ENSCRIPT)} F.ps "
        f"F.txt` and `{' '.join(GS)} -sOutputFile=F.pdf F.ps`")
    warm_up()
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory(prefix="simgui-formats-") as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        texts = []
        for k in range(args.files):
            original = random_ascii(rng)
            for kind, data in (("a", original), ("b", edit_text(original, args.edit_chars, rng))):
                path = os.path.join(folder, f"r{k:04d}{kind}.txt")
                with open(path, "wb") as f:
                    f.write(data)
                texts.append(path)
        seconds, _ = common.timed(lambda: list(ThreadPoolExecutor(2).map(convert, texts)))
        out(f"converted {len(texts)} texts in {seconds:.0f} s (two at a time)")
        files = {fmt: [t[:-3] + fmt for t in texts] for fmt in FORMATS}
        sizes = {fmt: np.array([os.path.getsize(f) for f in files[fmt]], np.int64)
                 for fmt in FORMATS}
        tables = {fmt: np.array([sum_table_of_file(f) for f in files[fmt]], np.int64)
                  for fmt in FORMATS}
    original = np.arange(0, 2 * args.files, 2)
    edited = original + 1
    steps = TOLERANCE_STEPS
    unrelated, positive, onset = {}, {}, {}
    out()
    out("sizes: " + "; ".join(f"{fmt} {int(np.median(sizes[fmt])):,} bytes (median; "
                              f"{sizes[fmt].min():,} .. {sizes[fmt].max():,})" for fmt in FORMATS))
    for fmt in FORMATS:
        o_sizes, o_tables = sizes[fmt][original], tables[fmt][original]
        unrelated[fmt] = pair_min_tolerance(o_sizes, o_tables)
        positive[fmt] = pair_min_tolerance(sizes[fmt], tables[fmt],
                                           np.stack([original, edited], axis=1))
        frac = fraction_hit(unrelated[fmt], steps)
        check_against_engine(o_sizes, o_tables, unrelated[fmt], steps)
        onset[fmt] = [common.interpolate_crossing(steps, frac, level)
                      for level in (0.001, 0.01, 0.5, 0.99)]
    out()
    out("unrelated pairs (different random texts, same format): the tolerance T (key = sum "
        "table) at which a given share of them are SimFind hits; and the paper's reading")
    rows = []
    for fmt in FORMATS:
        lo, hi = common.PAPER["fig8_onset"][fmt]
        paper = f"{lo:g} .. {hi:g} %" if hi else f"above {lo:g} %"
        rows.append((fmt, *[f"{v:.3g} %" if v else "> 10 %" for v in onset[fmt]], paper))
    out.table(("format", "0.1 % of pairs", "1 %", "50 %", "99 %", "paper: all look alike at"),
              rows)
    out()
    out("(original, edited) pairs: the share found at T")
    report_t = (0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.2)
    out.table(("format",) + tuple(f"T={t:g}" for t in report_t),
              [(fmt, *[f"{fraction_hit(positive[fmt], [t])[0]:.2f}" for t in report_t])
               for fmt in FORMATS])

    # the default tolerances against per-extension overrides, all files together
    all_sizes = np.concatenate([sizes[f] for f in FORMATS])
    all_tables = np.concatenate([tables[f] for f in FORMATS])
    all_ext = [f for f in FORMATS for _ in range(2 * args.files)]
    fmt_of = np.repeat(np.arange(len(FORMATS)), 2 * args.files)
    text_of = np.tile(np.repeat(np.arange(args.files), 2), len(FORMATS))
    default = Tolerances(DEFAULT_KEY_TOLERANCE, DEFAULT_SUM_TOLERANCE)
    overrides = {}  # format -> sum-table tolerance, where the default lets too much through
    onset_at_default_key = {}
    for fmt in FORMATS:
        at_default_key = pair_min_tolerance(sizes[fmt][original], tables[fmt][original],
                                            key_tolerance=default.key)
        frac = fraction_hit(at_default_key, steps)
        start = common.interpolate_crossing(steps, frac, args.onset)
        onset_at_default_key[fmt] = start
        if start is not None and start <= default.sum:
            wanted = start / args.safety
            overrides[fmt] = float(steps[steps <= wanted + 1e-12].max(initial=steps[0]))
    settings = {
        f"defaults (K {default.key:g} %, S {default.sum:g} %)": {},
        "per-extension overrides": {f: Tolerances(default.key, s_) for f, s_ in overrides.items()},
    }
    n_unrelated = 2 * args.files * (2 * args.files - 1) // 2 - args.files
    out()
    out("all files together, with the extension modification: the app's default tolerances "
        "against per-extension overrides.  Where a format's unrelated files start to look "
        f"alike ({100 * args.onset:g} % of its unrelated pairs are hits) at the default key "
        f"tolerance {default.key:g} %: "
        + ", ".join(f"{f} S = {v:.3g} %" if v else f"{f} above 10 %"
                    for f, v in onset_at_default_key.items())
        + f".  A format whose onset is below the default S = {default.sum:g} % gets an override "
        f"of S = onset / {args.safety:g} (a tolerance step, key tolerance kept): "
        + (", ".join(f"{f} S = {t:g} %" for f, t in overrides.items()) or "none needed")
        + f".  Each format has {2 * args.files} files: {args.files} (original, edited) pairs "
        f"and {n_unrelated:,} unrelated pairs")
    scores = {}
    rows = []
    for label, over in settings.items():
        pairs = find_pairs(all_sizes, all_tables, key_tolerance=default.key,
                           sum_tolerance=default.sum, extensions=all_ext, overrides=over or None)
        a, b = pairs[:, 0], pairs[:, 1]
        same_text = text_of[a] == text_of[b]
        for k, fmt in enumerate(FORMATS):
            mine = fmt_of[a] == k
            tp = int((mine & same_text).sum())
            fp = int((mine & ~same_text).sum())
            precision = tp / (tp + fp) if tp + fp else float("nan")  # nothing found
            recall = tp / args.files
            scores[(label, fmt)] = (precision, recall, fp)
            rows.append((label, fmt, tp, fp, "n/a" if tp + fp == 0 else precision, recall))
    out.table(("setting", "format", "edits found", "unrelated pairs found", "precision",
               "recall"), rows, ("", "", "{:,}", "{:,}", "{:.3f}", "{:.3f}"))
    plot(args, steps, unrelated, positive, scores, list(settings), overrides)
    out.write()
    return 0


def plot(args, steps, unrelated, positive, scores, settings, overrides) -> None:
    plt = common.pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.2), gridspec_kw={"width_ratios": [1.6, 1]})
    ax = axes[0]
    colours = {"txt": "tab:blue", "pdf": "tab:green", "ps": "tab:red"}
    for fmt in FORMATS:
        c = colours[fmt]
        ax.plot(steps, fraction_hit(unrelated[fmt], steps), "-", color=c, lw=2,
                label=f".{fmt}: unrelated pairs that are hits")
        ax.plot(steps, fraction_hit(positive[fmt], steps), "--", color=c, lw=1.3,
                label=f".{fmt}: (original, edited) pairs found")
        lo, hi = common.PAPER["fig8_onset"][fmt]
        y = 0.04 + 0.05 * FORMATS.index(fmt)
        if hi:
            ax.plot([lo, hi], [y, y], "|-", color=c, lw=4, alpha=0.45, ms=10)
        else:
            ax.annotate("", (10, y), (lo, y), arrowprops=dict(arrowstyle="->", color=c, lw=3,
                                                               alpha=0.45))
        ax.text(hi or 10, y, f"  paper .{fmt}" if hi else f"paper .{fmt}  ", color=c,
                fontsize=7, va="center", ha="left" if hi else "right")
    ax.plot([], [], "|-", color="0.5", lw=4, alpha=0.45, ms=10,
            label="paper: tolerances where all its unrelated\nfiles of a format look alike")
    ax.axvline(DEFAULT_SUM_TOLERANCE, color="0.3", ls=":", lw=1)
    ax.text(DEFAULT_SUM_TOLERANCE * 0.95, 0.9, "app default S = 1 %", fontsize=7, color="0.3",
            ha="right", va="center")
    ax.set_xscale("log")
    ax.set_xlim(0.01, 10)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("tolerance T % (key = sum table), log scale")
    ax.set_ylabel("share of pairs reported similar")
    ax.set_title(f"{args.files} random 4 KB ASCII texts and their PostScript (enscript) and "
                 f"PDF (Ghostscript)\nversions; edited copies differ in {args.edit_chars} "
                 "characters")
    ax.legend(loc="upper left", fontsize=7)
    ax = axes[1]
    width = 0.2
    x = np.arange(len(FORMATS))
    for s, label in enumerate(settings):
        prec = [scores[(label, f)][0] for f in FORMATS]
        rec = [scores[(label, f)][1] for f in FORMATS]
        hatch = "" if s == 0 else "//"
        for offset, values, colour, what in ((-1.5, prec, "tab:purple", "precision"),
                                             (-0.5, rec, "tab:orange", "recall")):
            xs = x + (2 * s + offset) * width
            ax.bar(xs, np.nan_to_num(values), width, color=colour, alpha=0.8, hatch=hatch,
                   edgecolor="white", label=f"{what}, {label}")
            for xi, v in zip(xs, values):
                ax.text(xi, (0 if np.isnan(v) else v) + 0.01,
                        "n/a (none found)" if np.isnan(v) else f"{v:.2f}", ha="center",
                        va="bottom", fontsize=6.5, rotation=90)
    ax.set_xticks(x, [f".{f}\n" + (f"(override S = {overrides[f]:g} %)" if f in overrides
                                    else "(no override)") for f in FORMATS])
    ax.set_ylim(0, 1.35)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_ylabel("precision / recall of (original, edited) pairs")
    ax.set_title("All files together, extension modification on:\n"
                 "app defaults against per-extension overrides")
    ax.legend(loc="upper center", fontsize=7, ncol=2)
    fig.suptitle("Paper Figure 8: where unrelated files of one format start to look similar",
                 fontsize=11)
    fig.tight_layout(rect=(0, 0.03, 1, 0.96))
    common.save_figure(fig, args.out, NAME, common.footer_text())


if __name__ == "__main__":
    raise SystemExit(main())
