"""Speed: scan throughput next to cat, md5sum, ssdeep and TLSH; exact duplicates next to
rdfind and jdupes.

    PYTHONPATH=. python benchmarks/experiments/speed.py [--roots DIR ...] [--quick]

Part 1, throughput.  One list of files (regular files under ``--roots``,
default /usr/lib; symbolic links not followed, one path per inode: what
simgui's scanner reads) is read once to warm the page cache, then read by
each tool in turn, best of ``--repeat``:

* ``xargs -0 -a LIST cat > /dev/null``, ``xargs -0 -a LIST md5sum > /dev/null``,
  ``xargs -0 -a LIST ssdeep -s > /dev/null`` (one process per few thousand files);
* TLSH: a Python loop, ``tlsh.hash(open(f, 'rb').read())`` per file (so it
  includes Python's per-file overhead and reading the whole file at once);
* simgui: ``scan()`` of the roots into a new store in a temporary folder (walk,
  stat, read, sum table, xxh3-128 content hash, SQLite), with one worker and
  with one per core.

Part 2, exact duplicates.  A tree is made in a temporary folder: copies of
/usr/share/doc, /usr/share/zoneinfo, /usr/share/i18n and /usr/share/perl
(real files, with their own duplicates), plus planted identical copies (300
files copied once, 60 of them twice more), 20 hard links, 30 empty files and
40 traps (same size and the same first bytes as a planted file, one byte
different at the end or in the middle).  Then ``rdfind -dryrun true
-outputname F TREE``, ``jdupes -r -q TREE`` and ``simgui scan`` + ``simgui
pairs --format csv`` (identical pairs joined into groups) are timed, and
their groups compared as sets of inodes: hard links count once, and empty
files are left out (rdfind and jdupes ignore them by default).  Writes
speed.png and speed.txt.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import common
from simgui.core.reading.scanner import ScanOptions, scan
from simgui.core.store import Store
from simgui.core.reading.sumtable import warm_up

NAME = "speed"
TREE_SOURCES = ("/usr/share/doc", "/usr/share/zoneinfo", "/usr/share/i18n", "/usr/share/perl")
QUICK_TREE_SOURCES = ("/usr/share/doc", "/usr/share/zoneinfo")


# --------------------------------------------------------------------------- throughput


def xargs_run(tool: list[str], file_list: str, jobs: int = 1) -> None:
    with open(os.devnull, "wb") as devnull:
        subprocess.run(["xargs", "-0", "-a", file_list, "-P", str(jobs), *tool],
                       stdout=devnull, stderr=subprocess.DEVNULL, check=False)


def tlsh_all(paths) -> int:
    import tlsh
    valid = 0
    for p in paths:
        try:
            with open(p, "rb") as f:
                h = tlsh.hash(f.read())
        except OSError:
            continue
        valid += h not in ("", "TNULL")
    return valid


def simgui_scan(roots, workers: int) -> tuple[int, int]:
    with tempfile.TemporaryDirectory(prefix="simgui-speed-") as tmp:
        with Store(os.path.join(tmp, "speed.db")) as store:
            rep = scan(store, roots, ScanOptions(workers=workers))
            return rep.files_read, rep.bytes_read


def throughput(out, roots, repeat: int, quick: bool) -> list[tuple[str, float, float]]:
    paths = common.regular_files(roots)
    total = sum(os.path.getsize(p) for p in paths)
    out(f"throughput tree: {', '.join(roots)}: {len(paths):,} files, {total / 1e9:.2f} GB "
        "(regular files, one path per inode)")
    t_warm, _ = common.timed(common.read_all, paths)
    out(f"page cache warmed by reading every file once ({t_warm:.1f} s); best of {repeat} runs")
    with tempfile.NamedTemporaryFile("wb", suffix=".list", delete=False) as f:
        f.write(b"\0".join(os.fsencode(p) for p in paths))
        file_list = f.name
    rows = []
    try:
        tools = [("cat (xargs cat > /dev/null)", ["cat"]),
                 ("md5sum (xargs md5sum)", ["md5sum"])]
        if common.have("ssdeep"):
            tools.append(("ssdeep (xargs ssdeep -s)", ["ssdeep", "-s"]))
        cores = os.cpu_count() or 1
        for label, tool in tools:
            for jobs in (1, cores) if cores > 1 else (1,):
                # (-P: xargs' batches of names run that many at once, as the scan's
                # workers read at once)
                t, _ = common.best_time(repeat, xargs_run, tool, file_list, jobs)
                rows.append((label + (", 1 process" if jobs == 1 else
                                      f", -P {jobs}"), t, total))
                out(f"  {rows[-1][0]}: {t:.2f} s")
        try:
            import tlsh  # noqa: F401
            t, _ = common.best_time(repeat, tlsh_all, paths)
            rows.append(("TLSH (py-tlsh, Python loop), 1 thread", t, total))
            out(f"  {rows[-1][0]}: {t:.2f} s")
        except ImportError:
            out("  TLSH: skipped, py-tlsh is not installed")
        for workers in (1, os.cpu_count() or 1):
            t, (files_read, bytes_read) = common.best_time(repeat, simgui_scan, roots, workers)
            rows.append((f"simgui scan, {workers} worker{'s' if workers > 1 else ''}", t,
                         bytes_read))
            out(f"  {rows[-1][0]}: {t:.2f} s ({files_read:,} files, {bytes_read / 1e9:.2f} GB "
                "read)")
    finally:
        os.unlink(file_list)
    out()
    md5 = next(r for r in rows if r[0].startswith("md5sum") and r[0].endswith("1 process"))
    out.table(("tool", "seconds", "MB/s", "files/s", "x md5sum"),
              [(label, t, b / 1e6 / t, len(paths) / t,
                (b / t) / (md5[2] / md5[1])) for label, t, b in rows],
              ("", "{:.2f}", "{:,.0f}", "{:,.0f}", "{:.2f}"))
    return rows


# --------------------------------------------------------------------------- duplicates


def make_tree(root: str, sources, rng: random.Random) -> dict:
    """Copies of real folders plus planted copies, hard links, empty files and traps."""
    for src in sources:
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(root, "real", src.strip("/").replace("/", "_")),
                            symlinks=True, ignore_dangling_symlinks=True)
    files = [p for p in common.regular_files([os.path.join(root, "real")]) if
             os.path.getsize(p) > 0]
    rng.shuffle(files)
    planted = os.path.join(root, "planted")
    copies = []
    for k, src in enumerate(files[:300]):
        times = 3 if k < 60 else 1
        for c in range(times):
            dst = os.path.join(planted, f"set{k % 17:02d}", f"copy{c}", f"{k:03d}-"
                               + os.path.basename(src))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            copies.append(dst)
    links = os.path.join(planted, "links")
    os.makedirs(links)
    for k, src in enumerate(files[300:320]):
        os.link(src, os.path.join(links, f"{k:02d}-" + os.path.basename(src)))
    empty = os.path.join(planted, "empty")
    os.makedirs(empty)
    for k in range(30):
        open(os.path.join(empty, f"empty{k:02d}"), "wb").close()
    traps = os.path.join(planted, "traps")
    os.makedirs(traps)
    n_traps = 0
    for k, src in enumerate(f for f in files[320:] if os.path.getsize(f) >= 64):
        if n_traps >= 40:
            break
        data = bytearray(open(src, "rb").read())
        where = len(data) - 1 if k % 2 == 0 else len(data) // 2
        data[where] ^= 0x01
        with open(os.path.join(traps, f"{k:02d}-" + os.path.basename(src)), "wb") as f:
            f.write(data)
        n_traps += 1
    return {"copies": len(copies), "links": 20, "empty": 30, "traps": n_traps}


def groups_rdfind(tree: str, work: str) -> list[list[str]]:
    results = os.path.join(work, "rdfind-results.txt")
    subprocess.run(["rdfind", "-dryrun", "true", "-outputname", results, tree], check=True,
                   capture_output=True)
    groups: dict[int, list[str]] = {}
    with open(results, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split(" ", 7)
            groups.setdefault(abs(int(parts[1])), []).append(parts[7])
    return list(groups.values())


def groups_jdupes(tree: str, work: str) -> list[list[str]]:
    res = subprocess.run(["jdupes", "-r", "-q", tree], capture_output=True, check=True)
    groups, cur = [], []
    for line in res.stdout.decode("utf-8", "surrogateescape").split("\n"):
        if line:
            cur.append(line)
        elif cur:
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    return groups


_LAST_DB: list[str] = []
_SIMGUI_PARTS: list[tuple[float, float]] = []  # (scan, groups) seconds of each run


def _simgui(*args: str, env=None) -> str:
    env = dict(os.environ, PYTHONPATH=common.ROOT)
    return subprocess.run([sys.executable, "-m", "simgui", *args], check=True,
                          capture_output=True, env=env, text=True,
                          errors="surrogateescape").stdout


#: The smallest tolerances the command line takes: as close to "identical only" as groups go.
EXACT = ("--key-tolerance", "0.01", "--sum-tolerance", "0.01")


def groups_simgui(tree: str, work: str) -> list[list[str]]:
    """``simgui scan`` into a new store, then ``simgui groups`` at the smallest tolerances."""
    db = os.path.join(work, f"simgui-{len(_LAST_DB)}.db")
    _LAST_DB.append(db)
    t_scan, _ = common.timed(_simgui, "scan", "--db", db, "--quiet", tree)
    t_groups, groups = common.timed(groups_simgui_json, db, *EXACT)
    _SIMGUI_PARTS.append((t_scan, t_groups))
    return groups


def groups_simgui_json(db: str, *options: str) -> list[list[str]]:
    """``simgui groups --format json``: each group's files marked identical (to its reference:
    same size, sum table and content hash) make one set, and its members that are copies of
    each other (``copy_of`` a member, all only similar to the reference) another."""
    groups = []
    for g in json.loads(_simgui("groups", "--db", db, "--format", "json", *options)):
        sets: dict[str, list[str]] = {}
        for f in g["files"]:
            first = g["files"][0]["path"] if f["identical"] else f["copy_of"] or f["path"]
            sets.setdefault(first, []).append(f["path"])
        groups += [same for same in sets.values() if len(same) >= 2]
    return groups


def groups_simgui_pairs(db: str) -> list[list[str]]:
    """``simgui pairs --format csv`` on a store: rows marked identical, joined into groups."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for row in csv.DictReader(io.StringIO(_simgui("pairs", "--db", db, "--format", "csv"))):
        if row["identical"] in ("True", "true", "1"):
            parent[find(row["path_a"])] = find(row["path_b"])
    groups: dict[str, list[str]] = {}
    for x in list(parent):
        groups.setdefault(find(x), []).append(x)
    return list(groups.values())


def normalise(groups, tree: str) -> tuple[set[frozenset], dict]:
    """Groups as sets of inodes, without empty files, each with two inodes or more; and how
    many raw groups held a hard link pair or an empty file."""
    out, with_links, with_empty, files = set(), 0, 0, 0
    traps = sum(1 for g in groups for p in g if "/planted/traps/" in p.replace(os.sep, "/"))
    for g in groups:
        inodes, seen = set(), set()
        empty = False
        for p in g:
            path = p if os.path.isabs(p) else os.path.join(os.getcwd(), p)
            st = os.lstat(path)
            if st.st_size == 0:
                empty = True
                continue
            key = (st.st_dev, st.st_ino)
            if key in seen:
                with_links += 1
            seen.add(key)
            inodes.add(key)
        with_empty += empty
        if len(inodes) >= 2:
            out.add(frozenset(inodes))
            files += len(inodes)
    return out, {"raw groups": len(groups), "groups": len(out), "files": files,
                 "hard-link paths repeated": with_links, "groups with empty files": with_empty,
                 "traps in groups": traps}


def duplicates(out, quick: bool, repeat: int, seed: int) -> dict:
    tools = [("rdfind", groups_rdfind), ("jdupes", groups_jdupes),
             ("simgui scan + groups (0.01 %)", groups_simgui)]
    tools = [(n, f) for n, f in tools if n.startswith("simgui") or common.have(n)]
    results = {}
    with tempfile.TemporaryDirectory(prefix="simgui-dupes-") as tmp:
        tree = os.path.join(tmp, "tree")
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        planted = make_tree(tree, QUICK_TREE_SOURCES if quick else TREE_SOURCES,
                            random.Random(seed))
        paths = common.regular_files([tree])
        size = sum(os.path.getsize(p) for p in paths)
        common.read_all(paths)
        out(f"duplicates tree: copies of {', '.join(QUICK_TREE_SOURCES if quick else TREE_SOURCES)}"
            f" and planted files: {len(paths):,} regular files (one path per inode), "
            f"{size / 1e6:.0f} MB; planted: {planted['copies']} identical copies, "
            f"{planted['links']} hard links, {planted['empty']} empty files, {planted['traps']} "
            "traps (same size and start, one byte different)")
        cwd = os.getcwd()
        os.chdir(tmp)  # tools print paths as given: give them the same relative name
        try:
            for name, fn in tools:
                t, groups = common.best_time(repeat, fn, "tree", work)
                norm, stats = normalise(groups, "tree")
                results[name] = (t, norm, stats)
                out(f"  {name}: {t:.2f} s; " + ", ".join(f"{k} {v:,}" for k, v in stats.items()))
            scan_t, groups_t = min(_SIMGUI_PARTS, key=sum)
            with Store(os.path.join(work, "empty.db")):
                pass  # (stats asks for a store that exists)
            start_t, _ = common.best_time(repeat, _simgui, "stats", "--db",
                                          os.path.join(work, "empty.db"))
            out(f"  (simgui's best run: 'simgui scan' {scan_t:.2f} s + 'simgui groups' "
                f"{groups_t:.2f} s; a command that does nothing, 'simgui stats' on an empty "
                f"store, takes {start_t:.2f} s: Python's start-up, paid by each command)")
            results["simgui scan + groups (0.01 %)"][2].update(
                {"scan s": round(scan_t, 2), "groups s": round(groups_t, 2),
                 "start-up s": round(start_t, 2)})
            extra = {}
            for label, fn, *options in (
                    ("simgui groups at the default tolerances", groups_simgui_json, _LAST_DB[-1]),
                    ("simgui pairs, identical rows joined", groups_simgui_pairs, _LAST_DB[-1])):
                t, groups = common.timed(fn, *options)
                extra[label], stats = normalise(groups, "tree")
                out(f"  (also, on the same store: {label}: {t:.2f} s; "
                    + ", ".join(f"{k} {v:,}" for k, v in stats.items()) + ")")
            inode_path = {}
            for path in paths:
                st = os.lstat(path)
                inode_path[(st.st_dev, st.st_ino)] = os.path.relpath(path, tmp)
        finally:
            os.chdir(cwd)
    names = list(results)
    reference = results[names[0]][1]
    out()
    for name, other in [(n, results[n][1]) for n in names[1:]] + list(extra.items()):
        same = other == reference
        out(f"{name} against {names[0]}: {'the same groups' if same else 'DIFFERENT groups'} "
            f"({len(other & reference):,} in common, {len(other - reference):,} only in {name}, "
            f"{len(reference - other):,} only in {names[0]})")
        for g in list(other ^ reference)[:6]:
            where = name if g in other else names[0]
            out(f"    only in {where}: " + ", ".join(sorted(inode_path.get(k, "?") for k in g)))
    return {n: (t, s) for n, (t, _, s) in results.items()}


# --------------------------------------------------------------------------- the run


def main(argv=None) -> int:
    p = common.parser(__doc__)
    p.add_argument("--roots", nargs="+", help="throughput tree (default /usr/lib)")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args(argv)
    roots = args.roots or (["/usr/lib/python3", "/usr/share/doc"] if args.quick else ["/usr/lib"])
    out = common.Report(args.out, NAME, "Speed: scan throughput next to cat, md5sum, ssdeep and "
                        "TLSH; exact duplicates next to rdfind and jdupes",
                        tools=("cat", "md5sum", "ssdeep", "rdfind", "jdupes"), modules=("tlsh",))
    warm_up()
    rows = throughput(out, roots, args.repeat, args.quick)
    out()
    dupes = duplicates(out, args.quick, args.repeat, args.seed)
    plot(args, roots, rows, dupes)
    out.write()
    return 0


def plot(args, roots, rows, dupes) -> None:
    plt = common.pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(14, 4.8), gridspec_kw={"width_ratios": [1.5, 1]})
    ax = axes[0]
    labels = [r[0] for r in rows]
    rates = [r[2] / 1e6 / r[1] for r in rows]
    colours = ["tab:blue" if "simgui" in lab else "0.55" for lab in labels]
    y = np.arange(len(rows))[::-1]
    ax.barh(y, rates, color=colours)
    for yi, r in zip(y, rates):
        ax.text(r, yi, f" {r:,.0f} MB/s", va="center", fontsize=8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlim(0, max(rates) * 1.25)
    ax.set_xlabel("MB/s (10^6 bytes per second), warm page cache, best of runs")
    ax.set_title(f"Reading the same {', '.join(roots)} files (one list, warm cache)")
    ax.grid(axis="y", visible=False)
    ax = axes[1]
    names = list(dupes)
    times = [dupes[n][0] for n in names]
    for i, n in enumerate(names):
        st = dupes[n][1]
        if "scan s" in st:
            ax.bar(i, st["scan s"], color="tab:blue", label="simgui scan (sum tables + hashes)")
            ax.bar(i, st["groups s"], bottom=st["scan s"], color="tab:cyan",
                   label="simgui groups")
            ax.axhline(st["start-up s"], xmin=(i + 0.1) / len(names), xmax=(i + 0.9) / len(names),
                       color="k", ls=":", lw=1, label="one simgui command's start-up")
        else:
            ax.bar(i, times[i], color="0.55")
    for i, (n, t) in enumerate(zip(names, times)):
        ax.text(i, t, f"{t:.2f} s\n{dupes[n][1]['groups']:,} groups", ha="center",
                va="bottom", fontsize=8)
    ax.set_xticks(range(len(names)), [n.replace(" + ", "\n+ ") for n in names], fontsize=8)
    ax.legend(loc="upper left", fontsize=7)
    ax.set_ylim(0, max(times) * 1.3)
    ax.set_ylabel("seconds (warm cache)")
    ax.set_title("Exact duplicates on one tree: time and groups found")
    ax.grid(axis="x", visible=False)
    fig.suptitle("Speed next to standard tools", fontsize=11)
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    common.save_figure(fig, args.out, NAME, common.footer_text())


if __name__ == "__main__":
    raise SystemExit(main())
