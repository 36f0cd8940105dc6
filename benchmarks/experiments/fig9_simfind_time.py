"""Paper Figure 9: SimFind time against the number of similar files, 500 to 1,000,000.

    PYTHONPATH=. python benchmarks/experiments/fig9_simfind_time.py [--quick]
        [--sizes 500 1000 ...] [--baseline-budget 60]

The files: families of similar files, as chains.  Each family starts from a
slice of real bytes of this machine (a pool of ``--pool-mb`` MB made of
regular files under /usr/lib, /usr/share and /usr/bin in a seeded order; a
slice's size is log-normal, median 4 KB, between 256 bytes and 1 MB), and
each further member is the previous one with 1 to 4 random bytes overwritten;
a family has 2 to 16 members.  Every sum table is computed by simgui's kernel
from the bytes themselves (no synthetic tables), once, for the largest size;
a smaller collection is the first n files of the same sequence.

Timed: ``find_pairs`` (everything from the tables to the sorted pairs, Skew
key, the app's default tolerances key 3.2 % and sum table 1 %, size factor
1.5, two threads) best of ``--repeat``; and a quadratic baseline, a numba
loop over all n(n-1)/2 pairs with the same four tests in the same arithmetic
(one thread, as the paper's search), run while its next point is predicted to
take at most ``--baseline-budget`` seconds and extrapolated as c n^2 beyond.
Both must report the same pairs wherever both ran (checked).  The paper's two
published points are drawn on the same axes.  Writes simfind_time.png/.txt.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

import common
from simgui.core.search.keys import SKEW
from simgui.core.search.simfind import (DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_SIMILAR_SIZE,
                                 DEFAULT_SIZE_FACTOR, DEFAULT_SUM_TOLERANCE, SearchSpace,
                                 Tolerances, find_pairs)
from simgui.core.reading.sumtable import sum_table, warm_up

NAME = "simfind_time"
SIZES = (500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 125_000, 180_000, 250_000, 500_000,
         1_000_000)
QUICK_SIZES = (500, 1000, 2000, 4000, 8000, 16000, 32000, 100_000)
POOL_ROOTS = ("/usr/lib", "/usr/share", "/usr/bin")
FAMILIES_PER_CHUNK = 2000


# --------------------------------------------------------------------------- the files


def byte_pool(megabytes: int, seed: int, roots=POOL_ROOTS) -> np.ndarray:
    """``megabytes`` MB of real files, concatenated in a seeded random order."""
    paths = common.regular_files(roots, min_size=1)
    rng = np.random.default_rng([seed, 1])
    want = megabytes << 20
    parts, total = [], 0
    for i in rng.permutation(len(paths)):
        try:
            with open(paths[i], "rb") as f:
                data = f.read(min(want - total, 4 << 20))
        except OSError:
            continue
        parts.append(data)
        total += len(data)
        if total >= want:
            break
    return np.frombuffer(b"".join(parts), np.uint8)


def _family_chunk(args) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sizes, tables and family numbers of one chunk of families (its own seeded generator)."""
    pool, seed, chunk = args
    rng = np.random.default_rng([seed, 2, chunk])
    members = rng.integers(2, 17, FAMILIES_PER_CHUNK)
    base_sizes = np.clip(np.exp(rng.normal(math.log(4096), 1.0, FAMILIES_PER_CHUNK)), 256,
                         1 << 20).astype(np.int64)
    starts = rng.integers(0, len(pool) - base_sizes)
    total = int(members.sum())
    sizes = np.repeat(base_sizes, members)
    tables = np.empty((total, 16), np.int64)
    family = np.repeat(np.arange(FAMILIES_PER_CHUNK) + chunk * FAMILIES_PER_CHUNK, members)
    changes = rng.integers(1, 5, total)
    where = rng.random((total, 4))  # positions, as fractions of the size
    shift = rng.integers(1, 256, (total, 4)).astype(np.uint8)  # never 0: the byte changes
    row = 0
    for f in range(FAMILIES_PER_CHUNK):
        size = int(base_sizes[f])
        cur = pool[starts[f]:starts[f] + size].copy()
        for m in range(members[f]):
            if m:
                pos = (where[row, :changes[row]] * size).astype(np.int64)
                cur[pos] += shift[row, :changes[row]]  # uint8: wraps modulo 256
            tables[row] = sum_table(cur)
            row += 1
    return sizes, tables, family


def similar_collection(n: int, pool: np.ndarray, seed: int, threads: int = 1):
    """The first ``n`` files of the family sequence: sizes, tables, family numbers."""
    mean_members = 9.0
    chunks = math.ceil(n / (FAMILIES_PER_CHUNK * mean_members) * 1.05) + 1
    with ThreadPoolExecutor(threads) as ex:
        parts = list(ex.map(_family_chunk, [(pool, seed, c) for c in range(chunks)]))
    sizes = np.concatenate([p[0] for p in parts])
    while len(sizes) < n:  # (never in practice: 5 % spare)
        parts.append(_family_chunk((pool, seed, len(parts))))
        sizes = np.concatenate([p[0] for p in parts])
    tables = np.concatenate([p[1] for p in parts])
    family = np.concatenate([p[2] for p in parts])
    return sizes[:n], tables[:n], family[:n]


# --------------------------------------------------------------------------- the baseline


@njit(nogil=True)
def _all_pairs(sizes, tables, keys, key_frac, sum_frac, size_factor, min_size, out):
    """Every pair i < j, tested as the search tests it (tests/reference.py, simfind):
    returns how many pairs are similar; the first ``len(out)`` go to ``out``."""
    n = sizes.shape[0]
    m = 0
    for i in range(n):
        si = sizes[i]
        ki = keys[i]
        for j in range(i + 1, n):
            sj = sizes[j]
            big = max(si, sj)
            small = min(si, sj)
            if small < min_size:  # tiny files pair with exact copies only
                if si != sj:
                    continue
                same = True
                for t in range(16):
                    if tables[i, t] != tables[j, t]:
                        same = False
                        break
                if not same:
                    continue
            else:
                if abs(ki - keys[j]) > max(1.0, big * key_frac):
                    continue
                if big > size_factor * small:
                    continue
                d = 0
                for t in range(16):
                    d += abs(tables[i, t] - tables[j, t])
                if d > max(1.0, (si + sj) * sum_frac / 2.0):
                    continue
            if m < out.shape[0]:
                out[m, 0] = i
                out[m, 1] = j
            m += 1
    return m


def all_pairs(sizes, tables, tol: Tolerances, size_factor=DEFAULT_SIZE_FACTOR) -> np.ndarray:
    """The paper's quadratic SimFind: (m, 2) pairs i < j in order."""
    keys = SKEW.keys(tables)
    cap = 64 * len(sizes) + 1024
    while True:
        out = np.empty((cap, 2), np.int64)
        m = _all_pairs(sizes, tables, keys, tol.key / 100.0, tol.sum / 100.0,
                       float(size_factor), DEFAULT_MIN_SIMILAR_SIZE, out)
        if m <= cap:
            return out[:m]
        cap = m


# --------------------------------------------------------------------------- the run


def main(argv=None) -> int:
    p = common.parser(__doc__)
    p.add_argument("--sizes", type=int, nargs="+")
    p.add_argument("--baseline-budget", type=float, default=60.0,
                   help="seconds the quadratic baseline may take for one point")
    p.add_argument("--repeat", type=int, default=3, help="find_pairs runs per point (best kept)")
    p.add_argument("--pool-mb", type=int, default=512)
    p.add_argument("--seed", type=int, default=9)
    args = p.parse_args(argv)
    sizes_wanted = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    if args.quick:
        args.baseline_budget, args.pool_mb, args.repeat = 5.0, 96, 2
    tol = Tolerances(DEFAULT_KEY_TOLERANCE, DEFAULT_SUM_TOLERANCE)
    out = common.Report(args.out, NAME, "Paper Figure 9: SimFind time against file count")
    warm_up()
    seconds, pool = common.timed(byte_pool, args.pool_mb, args.seed)
    out(f"byte pool: {len(pool) / 2**20:.0f} MB of real files under {', '.join(POOL_ROOTS)} "
        f"(read in {seconds:.1f} s)")
    n_max = max(sizes_wanted)
    seconds, (sizes, tables, family) = common.timed(similar_collection, n_max, pool, args.seed)
    out(f"collection: {n_max:,} files in {family.max() + 1:,} families of 2-16 similar files "
        f"(chains, 1-4 bytes overwritten per step); sizes median {int(np.median(sizes)):,} B, "
        f"mean {sizes.mean():,.0f} B, {sizes.min()} .. {sizes.max():,} B; "
        f"{sizes.sum() / 1e9:.2f} GB of bytes summed in {seconds:.0f} s "
        f"({1e6 * seconds / n_max:.0f} us per file, 1 thread)")
    out(f"search: Skew key, key tolerance {tol.key:g} %, sum-table tolerance {tol.sum:g} %, size "
        f"factor {DEFAULT_SIZE_FACTOR}, no extension modification; find_pairs on "
        f"{os.cpu_count()} threads, best of {args.repeat}; baseline: all pairs, 1 thread")

    find_pairs(sizes[:100], tables[:100])  # compile / load
    all_pairs(sizes[:100], tables[:100], tol)  # compile the baseline
    rows, base_rows = [], []
    baseline_on = True
    for k, n in enumerate(sizes_wanted):
        s, t = sizes[:n], tables[:n]
        repeat = args.repeat if n <= 250_000 else max(1, args.repeat - 1)
        t_find, pairs = common.best_time(repeat, find_pairs, s, t, key_tolerance=tol.key,
                                         sum_tolerance=tol.sum)
        _, work = SearchSpace.build(s, t)._class_pairs_counted(tol)
        same_family = int((family[pairs[:, 0]] == family[pairs[:, 1]]).sum())
        t_base = None
        if baseline_on:
            t_base, base = common.timed(all_pairs, s, t, tol)
            if not np.array_equal(base, pairs):
                raise AssertionError(f"n={n}: the baseline and find_pairs disagree")
            base_rows.append((n, t_base))
            following = sizes_wanted[k + 1] if k + 1 < len(sizes_wanted) else n
            baseline_on = t_base * (following / n) ** 2 <= args.baseline_budget
        rows.append((n, t_find, len(pairs), same_family, work["examined"], t_base))
        out(f"  n = {n:>9,}: find_pairs {t_find:8.4f} s, {len(pairs):>10,} pairs "
            f"({same_family:,} within a family), {work['examined']:,} candidates in key windows"
            + (f"; all pairs {t_base:8.4f} s (same pairs)" if t_base is not None else ""))

    # the baseline beyond where it ran: c n^2 from its largest point
    n_b, t_b = base_rows[-1]
    c = t_b / n_b ** 2
    out()
    out.table(("files", "find_pairs s", "us per file", "pairs", "candidates/file",
               "all pairs s", "all pairs / find_pairs"),
              [(n, tf, 1e6 * tf / n, pa, ex / n,
                (f"{tb:.4f}" if tb < 1 else f"{tb:.2f}") if tb is not None
                else f"~{c * n * n:,.0f} (extrap.)",
                _ratio((tb if tb is not None else c * n * n) / tf))
               for n, tf, pa, _, ex, tb in rows],
              ("{:,}", "{:.4f}", "{:.2f}", "{:,}", "{:.1f}", "", ""))
    big = [r for r in rows if r[0] >= 10_000]
    if len(big) >= 2:
        (na, ta, *_), (nb, tb, *_) = big[0], big[-1]
        out(f"growth of find_pairs from {na:,} to {nb:,} files: x{tb / ta:.1f} for x{nb / na:.0f} "
            f"the files, exponent {math.log(tb / ta) / math.log(nb / na):.2f} (n log n: "
            f"{math.log(nb * math.log(nb) / (na * math.log(na))) / math.log(nb / na):.2f}, "
            "quadratic: 2)")
    if len(base_rows) >= 2:
        (na, ta), (nb, tb) = base_rows[0], base_rows[-1]
        if ta > 0:
            out(f"growth of the all-pairs baseline from {na:,} to {nb:,} files: exponent "
                f"{math.log(tb / ta) / math.log(nb / na):.2f}; extrapolated as "
                f"{c * 1e9:.3g} ns x n^2 ({c * 1e6 ** 2 / 3600:.1f} hours at 1,000,000 files)")
    paper = common.PAPER["fig9_seconds"]
    for n_p, t_p in paper.items():
        ours = next((r for r in rows if r[0] == n_p), None)
        if ours:
            out(f"paper at {n_p:,} files: {t_p:,.0f} s; here find_pairs {ours[1]:.4f} s "
                f"({t_p / ours[1]:,.0f} x faster), the all-pairs loop "
                + (f"{ours[5]:.3f} s" if ours[5] is not None else f"~{c * n_p ** 2:.1f} s")
                + " (the paper's machine and implementation were different: compare slopes, "
                "not heights)")
    plot(args, rows, base_rows, c)
    out.write()
    return 0


def _ratio(r: float) -> str:
    return f"{r:,.0f}" if r >= 10 else f"{r:.1f}"


def plot(args, rows, base_rows, c) -> None:
    plt = common.pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.4), gridspec_kw={"width_ratios": [1.5, 1]})
    ax = axes[0]
    n = np.array([r[0] for r in rows], float)
    t_find = np.array([r[1] for r in rows])
    ax.plot(n, t_find, "o-", color="tab:blue", lw=2,
            label="simgui find_pairs (grid search, 2 threads)")
    nb = np.array([b[0] for b in base_rows], float)
    tb = np.array([b[1] for b in base_rows])
    ax.plot(nb, tb, "s-", color="tab:red", lw=2, label="all-pairs loop, same tests (numba, "
            "1 thread): measured")
    ext = np.geomspace(nb[-1], n.max(), 20)
    ax.plot(ext, c * ext ** 2, "--", color="tab:red", lw=1.5,
            label="all-pairs loop: extrapolated as c n^2")
    paper = common.PAPER["fig9_seconds"]
    pn = np.array(sorted(paper), float)
    pt = np.array([paper[k] for k in sorted(paper)])
    ax.plot(pn, pt, "k*", ms=13, label="paper (Sadowski & Levin 2007): 735 s, 2,910 s")
    cp = pt[0] / pn[0] ** 2
    ax.plot(n, cp * n ** 2, ":", color="k", lw=1, label="paper's points extended as c n^2")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("similar files n (log scale)")
    ax.set_ylabel("SimFind time, seconds (log scale)")
    ax.set_title("SimFind time on similar files: the paper's curve and ours")
    for label_t in (1.0, 60.0, 3600.0, 86400.0):
        ax.axhline(label_t, color="0.75", lw=0.6, zorder=0)
        ax.text(n.max(), label_t * 1.1, {1.0: "1 s", 60.0: "1 min", 3600.0: "1 h",
                                          86400.0: "1 day"}[label_t], fontsize=7, color="0.4",
                ha="right")
    ax.legend(loc="upper left", fontsize=7.5)
    ax = axes[1]
    ax.plot(n, 1e6 * t_find / n, "o-", color="tab:blue", label="find_pairs time per file")
    cand = np.array([r[4] for r in rows], float) / n
    ax2 = ax.twinx()
    ax2.plot(n, cand, "^--", color="tab:purple", label="candidates in key windows per file")
    ax2.plot(n, np.array([r[2] for r in rows]) / n, "v:", color="tab:green",
             label="similar pairs found per file")
    ax.set_xscale("log")
    ax.set_xlabel("similar files n (log scale)")
    ax.set_ylabel("microseconds per file", color="tab:blue")
    ax2.set_ylabel("candidates, pairs found: per file", color="tab:purple")
    ax2.grid(False)
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper left", fontsize=7.5)
    ax.set_title("Where the time goes: work per file")
    fig.suptitle("Paper Figure 9: SimFind time against the number of similar files "
                 "(key 3.2 %, sum table 1 %)", fontsize=11)
    fig.tight_layout(rect=(0, 0.03, 1, 0.96))
    common.save_figure(fig, args.out, NAME, common.footer_text())


if __name__ == "__main__":
    raise SystemExit(main())
