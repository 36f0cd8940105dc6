"""Paper Figures 6-7: key hits, sum-table hits and their ratio against tolerance.

    PYTHONPATH=. python benchmarks/experiments/fig6_7_tolerance.py [--quick]

Two sets of files, made from real files of this machine:

* *similar files*: chains, as the authors made theirs.  A chain starts from a
  real file cut to 4 KB; each next file is the previous one with
  ``--step-bytes`` random bytes overwritten (default 2: 0.05 % of the file),
  so file i and file j of a chain differ in about ``step * |i - j|`` bytes.
  Default: 10 chains of 200 files from 10 unrelated files of different types.
* *different files*: ``--different`` (default 10,364, the paper's count)
  regular files of at least 4 KB from /usr/share, /usr/lib, /usr/bin and
  /usr/include, a seeded sample, each cut to its first 4 KB; files whose first
  4 KB are identical to an earlier one's are dropped (they would be hits at
  every tolerance).

For each tolerance T from 0.01 to 3.2 % (key tolerance = sum-table tolerance
= T, as in the paper's figures) it counts key hits (key test and size filter)
and sum-table hits (all tests) with simgui's ToleranceStats, which is the same
code as the app's tolerance chart, as fractions of all n(n-1)/2 pairs
(Figure 7), and their ratio (Figure 6); the different files with and without
the extension modification.  Writes tolerance_curves.png and .txt.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np

import common
from simgui.core.search.keys import SKEW, extension_of
from simgui.core.search.simfind import SearchSpace, find_pairs
from simgui.core.reading.sumtable import sum_table, warm_up
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, ToleranceStats

NAME = "tolerance_curves"
CUT = 4096
ROOTS = ("/usr/share", "/usr/lib", "/usr/bin", "/usr/include")
REPORT_AT = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.2)
CHAIN_KINDS = (".py", ".h", ".html", ".txt", ".xml", ".so", ".mo", ".gz", ".png", "")


def chain(base: bytes, length: int, step_bytes: int, rng: np.random.Generator) -> list[bytes]:
    """``length`` files: ``base``, then each the previous with ``step_bytes`` random
    bytes overwritten by different random bytes."""
    cur = np.frombuffer(base, np.uint8).copy()
    out = [cur.tobytes()]
    for _ in range(length - 1):
        pos = rng.choice(len(cur), size=min(step_bytes, len(cur)), replace=False)
        cur[pos] = (cur[pos].astype(np.int64) + rng.integers(1, 256, len(pos))) % 256
        out.append(cur.tobytes())
    return out


def candidate_files(roots=ROOTS, min_size: int = CUT) -> list[str]:
    return common.regular_files(roots, min_size=min_size)


def chain_bases(paths: list[str], count: int, rng: np.random.Generator) -> list[tuple[str, bytes]]:
    """One file of each kind in CHAIN_KINDS (then any), cut to 4 KB, distinct."""
    order = [paths[i] for i in rng.permutation(len(paths))]
    chosen: list[tuple[str, bytes]] = []
    seen: set[bytes] = set()
    for kind in CHAIN_KINDS + (None,) * count:
        for path in order:
            if len(chosen) >= count:
                return chosen
            name = os.path.basename(path)
            ext = ("." + extension_of(name)) if extension_of(name) else ""
            if kind is not None and (ext != kind if kind else ext != ""):
                continue
            if any(path == p for p, _ in chosen):
                continue
            data = _head(path)
            if data is None or data in seen:
                continue
            seen.add(data)
            chosen.append((path, data))
            break
    return chosen


def _head(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            data = f.read(CUT)
    except OSError:
        return None
    return data if len(data) == CUT else None


def different_files(paths: list[str], count: int, rng: np.random.Generator):
    """Up to ``count`` files' first 4 KB, all different; (paths, heads, duplicates dropped)."""
    chosen, heads, seen, dropped = [], [], set(), 0
    for i in rng.permutation(len(paths)):
        if len(chosen) >= count:
            break
        data = _head(paths[i])
        if data is None:
            continue
        if data in seen:
            dropped += 1
            continue
        seen.add(data)
        chosen.append(paths[i])
        heads.append(data)
    return chosen, heads, dropped


def curves(tables: np.ndarray, sizes: np.ndarray, extensions, tolerances) -> dict:
    space = SearchSpace.build(sizes, tables, scheme=SKEW, extensions=extensions)
    top = float(max(tolerances))
    stats = ToleranceStats.build(space, max_key=top, max_sum=top)
    return stats.curve(tolerances)


def main(argv=None) -> int:
    p = common.parser(__doc__)
    p.add_argument("--chains", type=int, default=10)
    p.add_argument("--length", type=int, default=200, help="files per chain")
    p.add_argument("--step-bytes", type=int, default=2,
                   help="bytes overwritten from one file of a chain to the next")
    p.add_argument("--different", type=int, default=common.PAPER["fig7_files"])
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    if args.quick:
        args.chains, args.length, args.different = 5, 100, 2000
    out = common.Report(args.out, NAME, "Paper Figures 6-7: key hits and sum-table hits "
                        "against tolerance")
    rng = np.random.default_rng(args.seed)
    warm_up()
    paths = candidate_files()
    out(f"candidates: {len(paths):,} regular files of at least {CUT} bytes under "
        f"{', '.join(ROOTS)}")

    bases = chain_bases(paths, args.chains, rng)
    similar = []
    for _, data in bases:
        similar += chain(data, args.length, args.step_bytes, rng)
    sim_tables = np.array([sum_table(d) for d in similar], np.int64)
    sim_sizes = np.full(len(similar), CUT, np.int64)
    n_sim = len(similar)
    within = len(bases) * args.length * (args.length - 1) // 2
    out(f"similar files: {len(bases)} chains of {args.length} files of {CUT} bytes, "
        f"{args.step_bytes} bytes overwritten per step ({100 * args.step_bytes / CUT:.3f} % of "
        f"the file); {n_sim:,} files, {n_sim * (n_sim - 1) // 2:,} pairs, {within:,} of them "
        f"within a chain ({within / (n_sim * (n_sim - 1) // 2):.4f} of all pairs)")
    out("  chain bases: " + ", ".join(b for b, _ in bases))

    diff_paths, heads, dropped = different_files(paths, args.different, rng)
    diff_tables = np.array([sum_table(d) for d in heads], np.int64)
    diff_sizes = np.full(len(heads), CUT, np.int64)
    diff_ext = [extension_of(os.path.basename(p_)) for p_ in diff_paths]
    n_diff = len(heads)
    out(f"different files: {n_diff:,} files cut to their first {CUT} bytes "
        f"({dropped} more were dropped as their first {CUT} bytes equal an earlier file's), "
        f"{n_diff * (n_diff - 1) // 2:,} pairs, {len(set(diff_ext))} extensions")

    tol = TOLERANCE_STEPS[(TOLERANCE_STEPS >= common.PAPER_TOLERANCES[0] - 1e-12)
                          & (TOLERANCE_STEPS <= common.PAPER_TOLERANCES[1] + 1e-12)]
    results = {}
    for label, tables, sizes, exts in (
            ("similar (chains)", sim_tables, sim_sizes, None),
            ("different, no extensions", diff_tables, diff_sizes, None),
            ("different, with extensions", diff_tables, diff_sizes, diff_ext)):
        seconds, results[label] = common.timed(curves, tables, sizes, exts, tol)
        out(f"curve '{label}': {seconds:.1f} s")

    out()
    out("key tolerance = sum-table tolerance = T; hits as a fraction of all n(n-1)/2 pairs "
        "(Figure 7) and their ratio (Figure 6)")
    rows = []
    for label, c in results.items():
        for t in REPORT_AT:
            i = int(np.argmin(np.abs(c["key_tolerance"] - t)))
            rows.append((label, c["key_tolerance"][i], int(c["key_hits"][i]),
                         int(c["sum_hits"][i]), c["key_fraction"][i], c["sum_fraction"][i],
                         c["ratio"][i]))
    out.table(("set", "T %", "key hits", "sum hits", "key hits/pairs", "sum hits/pairs",
               "sum/key"), rows, ("", "{:g}", "{:,}", "{:,}", "{:.3g}", "{:.3g}", "{:.3f}"))
    ext_curve = results["different, with extensions"]
    out()
    out(f"paper, Figure 7: about 1 hit in 5000 pairs ({common.PAPER['fig7_hits_per_pair_with_extensions']:.1g}) "
        f"at high tolerance with extensions, on {common.PAPER['fig7_files']:,} files; here at "
        f"T = 3.2 %: key hits {ext_curve['key_fraction'][-1]:.2g}, sum-table hits "
        f"{ext_curve['sum_fraction'][-1]:.2g} of all pairs (1 in "
        f"{1 / max(ext_curve['sum_fraction'][-1], 1e-12):,.0f} pairs)")
    for t in (0.01, 3.2):  # what the different files' hits are
        pairs = find_pairs(diff_sizes, diff_tables, key_tolerance=t, sum_tolerance=t,
                           extensions=diff_ext)
        differing = np.array([np.count_nonzero(np.frombuffer(heads[i], np.uint8)
                                               != np.frombuffer(heads[j], np.uint8))
                              for i, j in pairs.tolist()])
        top = Counter(diff_ext[i] or "(none)" for i, _ in pairs.tolist()).most_common(6)
        if len(pairs):
            out(f"different files, sum-table hits at T = {t:g} % with extensions: {len(pairs):,}; "
                f"bytes differing (of {CUT}): median {np.median(differing):.0f}, "
                f"{(differing <= 100).mean():.0%} differ in at most 100, "
                f"{(differing > 1000).mean():.0%} in more than 1,000; by extension: "
                + ", ".join(f".{e} {c:,}" if e != "(none)" else f"{e} {c:,}" for e, c in top))
    chain_of = np.repeat(np.arange(len(bases)), args.length)
    for t in (0.1, 1.0, 3.2):
        pairs = find_pairs(sim_sizes, sim_tables, key_tolerance=t, sum_tolerance=t)
        same = chain_of[pairs[:, 0]] == chain_of[pairs[:, 1]]
        full = _all_found_up_to(np.abs(pairs[same, 0] - pairs[same, 1]), len(bases),
                                args.length)
        loose = find_pairs(sim_sizes, sim_tables, key_tolerance=100.0, sum_tolerance=t)
        loose_same = int((chain_of[loose[:, 0]] == chain_of[loose[:, 1]]).sum())
        out(f"similar files at T = {t:g} %: {same.sum():,} sum-table hits within a chain "
            f"({same.sum() / within:.1%} of those pairs), {(~same).sum():,} between chains; "
            f"every pair up to {full} steps ({full * args.step_bytes} bytes) apart is found; "
            f"with the key test off (K = 100 %) {loose_same:,} within a chain "
            f"({loose_same / within:.1%})")
    out("(on this machine the pairs only the key test rejects were all in the chains of the two "
        "binaries with many zero bytes, a shared library and a gettext catalogue: the Skew key "
        "weighs 0x00 by 6, so each zero byte overwritten moves the key by about 6 while the sum "
        "table moves by about 2; with K = S the key test then binds before the sum-table test, "
        "which is why simgui keeps two tolerances, K = 3.2 % and S = 1 % by default)")

    plot(args.out, results, within / (n_sim * (n_sim - 1) // 2), n_sim, n_diff, args)
    out.write()
    return 0


def _all_found_up_to(steps: np.ndarray, chains: int, length: int) -> int:
    """The largest d such that every within-chain pair up to d steps apart is in ``steps``."""
    found = np.bincount(steps, minlength=length)[1:length]
    expected = chains * (length - np.arange(1, length))
    missing = np.flatnonzero(found < expected)
    return int(missing[0]) if len(missing) else length - 1


def plot(out_dir, results, within_share, n_sim, n_diff, args) -> None:
    plt = common.pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.9))
    sim = results["similar (chains)"]
    t = sim["key_tolerance"]
    ax = axes[0]
    ax.plot(t, sim["key_fraction"], "o-", ms=3, markevery=12, color="tab:blue", label="key hits")
    ax.plot(t, sim["sum_fraction"], "s-", ms=3, markevery=12, color="tab:red",
            label="sum-table hits")
    ax.axhline(within_share, color="0.4", ls=":", lw=1,
               label=f"all pairs within a chain ({within_share:.3f})")
    ax.set_title(f"Figure 7, similar files: {args.chains} chains x {args.length}\n"
                 f"(4 KB, {args.step_bytes} bytes changed per step), {n_sim:,} files")
    ax = axes[1]
    for label, colour in (("different, no extensions", "tab:blue"),
                          ("different, with extensions", "tab:green")):
        c = results[label]
        ext = "with" if "with" in label else "no"
        ax.plot(c["key_tolerance"], c["key_fraction"], "o-", ms=3, markevery=12, color=colour,
                label=f"key hits, {ext} extension modification")
        ax.plot(c["key_tolerance"], c["sum_fraction"], "s--" if ext == "no" else "^:", ms=4,
                markevery=(6 if ext == "no" else 0, 12), color=colour,
                label=f"sum-table hits, {ext} extension modification")
    ax.plot([3.2], [common.PAPER["fig7_hits_per_pair_with_extensions"]], "k*", ms=11,
            label="paper: ~1 hit in 5000 pairs, high T, extensions")
    ax.set_title(f"Figure 7, different files: {n_diff:,} real files cut to 4 KB\n"
                 "(the two sum-table curves nearly coincide)")
    for ax in axes[:2]:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("tolerance T % (key = sum table), log scale")
        ax.set_ylabel("hits / all n(n-1)/2 pairs (log scale)")
    axes[0].legend(loc="lower right")
    axes[1].legend(loc="upper left")
    ax = axes[2]
    for label, colour, style in (("similar (chains)", "tab:red", "o-"),
                                 ("different, no extensions", "tab:blue", "s-"),
                                 ("different, with extensions", "tab:green", "^-")):
        c = results[label]
        ax.plot(c["key_tolerance"], c["ratio"], style, ms=3, markevery=12, color=colour,
                label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-3, 1.2)
    ax.set_xlabel("tolerance T % (key = sum table), log scale")
    ax.set_ylabel("sum-table hits / key hits (log scale)")
    ax.set_title("Figure 6: share of key hits that are sum-table hits")
    ax.legend(loc="upper left")
    for ax in axes:
        ax.set_xlim(0.008, 4)
    fig.suptitle("Hits against tolerance (Skew key, size factor 1.5): paper Figures 6 and 7",
                 fontsize=11)
    fig.tight_layout(rect=(0, 0.03, 1, 0.96))
    common.save_figure(fig, out_dir, NAME, common.footer_text())


if __name__ == "__main__":
    raise SystemExit(main())
