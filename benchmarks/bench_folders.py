"""Similar folders on a synthetic tree: time and memory once the file groups are known.

    python benchmarks/bench_folders.py [--files 1000000] [--folders 100000] [--seed 0]

The tree: projects of about 10 folders nested up to 4 deep (the folder of each new
folder is a random earlier one), placed under /data/diskD/userU/..., and backups:
40 % of the projects are originals, the others copies of an earlier project (so also
backups of backups) under /data/diskD/backupK/..., each file edited with
probability 5 % (a similar file: same group, other content), 3 % deleted, and 3 %
new files added.  Shared boilerplate: a LICENSE of one content in 30 % of the
folders, an empty __init__.py in 20 %, a README of one of 50 contents in 10 %.
The file groups are built directly (every content lineage with two files or more
is a group), as a search would find them; then :func:`FolderIndex` and its
``pairs(50)`` are timed (numba compiled first, on a small tree) and the peak
memory of the process is reported.  Target: at most 10 s for 1,000,000 files in
100,000 folders; time it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from simgui.core.search.groups import GroupTable  # noqa: E402
from simgui.core.search.similar_folders import FolderIndex, walk  # noqa: E402
from simgui.core.store import StoredFiles  # noqa: E402


def synthetic(n_files: int, n_folders: int, seed: int = 0):
    """(paths, sizes, content ids, lineage ids) of a tree as the module docstring says."""
    rng = np.random.default_rng(seed)
    per_project_folders = 10
    n_projects = max(1, n_folders // per_project_folders)
    files_per_folder = max(1, n_files // n_folders)
    paths: list[str] = []
    content: list[int] = []
    lineage: list[int] = []
    sizes: list[int] = []
    next_id = [3 + 50]  # 0: LICENSE, 1: empty, 2..51: READMEs

    def new_id() -> int:
        next_id[0] += 1
        return next_id[0]

    size_of: dict[int, int] = {0: 1078, 1: 0}
    for r in range(50):
        size_of[2 + r] = 500 + 37 * r
    projects = []  # (folders relative, files: list of (folder, name, content, lineage))
    for p in range(n_projects):
        disk = int(rng.integers(4))
        if p < 0.4 * n_projects or not projects:
            parents = [-1] + [int(rng.integers(0, k)) for k in range(1, per_project_folders)]
            rel = [""]
            for k in range(1, per_project_folders):
                up = rel[min(parents[k], k - 1)]
                if up.count("/") >= 3:
                    up = ""
                rel.append(f"{up}/d{k}" if up else f"d{k}")
            files = []
            for k, folder in enumerate(rel):
                for j in range(int(rng.poisson(files_per_folder - 1))):
                    c = new_id()
                    size_of[c] = int(rng.lognormal(9, 2))
                    files.append((folder, f"f{j}.dat", c, c))
                u = rng.random()
                if u < 0.3:
                    files.append((folder, "LICENSE", 0, 0))
                elif u < 0.5:
                    files.append((folder, "__init__.py", 1, 1))
                elif u < 0.6:
                    r = int(rng.integers(50))
                    files.append((folder, "README", 2 + r, 2 + r))
            where = f"/data/disk{disk}/user{int(rng.integers(20))}/p{p}"
        else:
            src_rel, src_files = projects[int(rng.integers(len(projects)))][1:]
            rel = src_rel
            files = []
            for folder, name, c, lin in src_files:
                u = rng.random()
                if u < 0.03:
                    continue
                if u < 0.08 and lin > 51:
                    c = new_id()
                    size_of[c] = max(1, int(size_of[lin] * (0.9 + 0.2 * rng.random())))
                files.append((folder, name, c, lin))
            for j in range(int(len(files) * 0.03)):
                c = new_id()
                size_of[c] = int(rng.lognormal(9, 2))
                files.append((rel[int(rng.integers(len(rel)))], f"new{j}.dat", c, c))
            where = f"/data/disk{disk}/backup{int(rng.integers(30))}/b{p}/p{p}"
        projects.append((where, rel, files))
        for folder, name, c, lin in files:
            paths.append(f"{where}/{folder}/{name}" if folder else f"{where}/{name}")
            content.append(c)
            lineage.append(lin)
            sizes.append(size_of[c])
    return (paths, np.array(sizes, np.int64), np.array(content, np.int64),
            np.array(lineage, np.int64))


def table_of(paths, sizes, content, lineage) -> GroupTable:
    """The GroupTable a search would give: a group per lineage of two files or more."""
    n = len(paths)
    hashes = [int(c).to_bytes(16, "little") for c in content.tolist()]
    files = StoredFiles(ids=np.arange(n), paths=paths, sizes=sizes,
                        mtimes_ns=np.zeros(n, np.int64), devices=np.ones(n, np.int64),
                        inodes=np.arange(n, dtype=np.int64), tables=np.zeros((0, 16), np.int64),
                        hashes=hashes, extensions=[""] * n)
    _, lin, count = np.unique(lineage, return_inverse=True, return_counts=True)  # (not timed)
    grouped = np.flatnonzero(count[lin] >= 2)
    order = grouped[np.argsort(lin[grouped], kind="stable")]
    g = lin[order]
    _, g = np.unique(g, return_inverse=True)
    start = np.searchsorted(g, np.arange(g.max() + 2 if len(g) else 1))
    k = len(order)
    first = np.repeat(start[:-1], np.diff(start))
    identical = content[order] == content[order[first]]
    similarity = np.where(identical, 100.0, 90.0)
    return GroupTable(files, np.arange(n), start.astype(np.int64), order.astype(np.int64),
                      np.zeros(k), np.zeros(k, np.int64), identical, similarity,
                      np.zeros(len(start) - 1, np.int64), np.full(k, -1, np.int64))


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=1_000_000)
    ap.add_argument("--folders", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--min-similarity", type=float, default=50.0)
    args = ap.parse_args()
    small = table_of(*synthetic(2000, 200, 1))  # compile the kernels first
    FolderIndex(small).pairs(args.min_similarity)
    t = time.perf_counter()
    data = synthetic(args.files, args.folders, args.seed)
    table = table_of(*data)
    made = time.perf_counter() - t
    before = peak_rss_mib()
    t, cpu = time.perf_counter(), time.process_time()
    index = FolderIndex(table)
    t_index = time.perf_counter() - t
    t = time.perf_counter()
    top = index.pairs(args.min_similarity)
    t_pairs = time.perf_counter() - t
    cpu = time.process_time() - cpu  # all threads: on a loaded machine, near the quiet wall time
    t = time.perf_counter()
    cand = index.candidates(args.min_similarity, 256)
    t_cand = time.perf_counter() - t
    listed = sum(1 for _ in walk(top))
    print(f"tree: {len(table.files):,} files in {len(index.names):,} folders "
          f"({len(table):,} groups; built in {made:.1f} s, not timed)")
    print(f"index {t_index:.2f} s; candidates alone {len(cand):,} in {t_cand:.2f} s; "
          f"pairs (candidates, scores, folding) {t_pairs:.2f} s")
    print(f"total once the groups are known: {t_index + t_pairs:.2f} s wall, {cpu:.2f} s CPU "
          "(target <= 10 s for 1,000,000 files; time on a quiet machine)")
    print(f"pairs at >= {args.min_similarity:g} %: {len(top):,} top-most, {listed:,} in all")
    print(f"peak memory: {peak_rss_mib():,.0f} MiB ({before:,.0f} MiB before the index)")
    for p in top[:5]:
        print(f"  {p.similarity:5.1f} %  {p.a}  ~  {p.b}  ({len(p.children)} folded)")


if __name__ == "__main__":
    main()
