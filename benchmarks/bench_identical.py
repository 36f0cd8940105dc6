"""Identical copies only: ``simgui scan --identical-only`` + ``groups --identical-only``
next to ``jdupes -r`` over the same tree, and whether they find the same sets.

    python benchmarks/bench_identical.py [--root /usr] [--jdupes /usr/bin/jdupes]

Both run as commands (start-up included), on a warm page cache (jdupes runs once
untimed first), simgui into a fresh store.  Printed: each time, the ratio (target:
simgui within 2 x jdupes) and the duplicate sets each found, compared as sets of
files by (device, inode), then the same with ``jdupes -Q`` (no byte-for-byte check
of the matches, as simgui's groups, which rest on the content hash; its clean-up
compares the bytes right before acting).  jdupes treats hard links as no duplicates and a path
under another name as the same file, simgui scans each file once whatever its
names; and jdupes leaves empty files out by default, so simgui's set of empty
files is left out of the comparison.  Timings on a loaded machine are loose: run
it on a quiet one for the record.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(command: list[str], env=None) -> tuple[float, bytes]:
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: some files unreadable, which both may meet
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): "
                 f"{done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed, done.stdout


def identity(path: bytes):
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if st.st_size else None  # empty files: left out


def as_identities(sets: list[list[bytes]]) -> set[frozenset]:
    """Each set as the files (device, inode) it names, sets of fewer than two left out."""
    result = set()
    for paths in sets:
        files = frozenset(i for i in map(identity, paths) if i is not None)
        if len(files) > 1:
            result.add(files)
    return result


def jdupes_sets(output: bytes) -> list[list[bytes]]:
    """jdupes' output: a path a line, sets separated by an empty line."""
    sets, current = [], []
    for line in output.split(b"\n"):
        if line:
            current.append(line)
        elif current:
            sets.append(current)
            current = []
    if current:
        sets.append(current)
    return sets


def simgui_sets(output: bytes) -> list[list[bytes]]:
    """``simgui groups --format csv``: one row per file, with its group's number."""
    text = output.decode("utf-8", "surrogateescape")
    by_group: dict[str, list[bytes]] = {}
    for row in csv.DictReader(io.StringIO(text, newline="")):
        by_group.setdefault(row["group"], []).append(os.fsencode(row["path"]))
    return list(by_group.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="/usr", help="the tree to search (default /usr)")
    parser.add_argument("--jdupes", default=shutil.which("jdupes") or "/usr/bin/jdupes")
    parser.add_argument("--simgui", default=None,
                        help="the simgui command (default: this Python's -m simgui)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    simgui = args.simgui.split() if args.simgui else [sys.executable, "-m", "simgui"]
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..") + os.pathsep
               + os.environ.get("PYTHONPATH", ""))
    have_jdupes = os.path.exists(args.jdupes)
    print(f"tree {root}; {os.cpu_count()} cores; Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "store.db")
        # warm: the page cache (both read the same files) and simgui's compiled kernels
        timed(simgui + ["--version"], env)
        if have_jdupes:
            timed([args.jdupes, "-r", "-q", root])
            jd_time, jd_out = timed([args.jdupes, "-r", "-q", root])
            # -Q: no byte-for-byte confirmation of the matches, as simgui's groups (its
            # clean-up compares the bytes of each file right before acting)
            jd_quick, _ = timed([args.jdupes, "-r", "-q", "-Q", root])
        scan_time, _ = timed(simgui + ["scan", "--identical-only", "--quiet", "--db", db, root],
                             env)
        groups_time, groups_out = timed(
            simgui + ["groups", "--identical-only", "--format", "csv", "--db", db], env)
        rescan_time, _ = timed(simgui + ["scan", "--identical-only", "--quiet", "--db", db,
                                         root], env)
    ours = as_identities(simgui_sets(groups_out))
    total = scan_time + groups_time
    print(f"simgui scan --identical-only   {scan_time:7.2f} s")
    print(f"simgui groups --identical-only {groups_time:7.2f} s")
    print(f"  together                     {total:7.2f} s   ({len(ours):,} sets of copies, "
          "empty files left out)")
    print(f"  (nothing changed: scan again {rescan_time:7.2f} s)")
    if not have_jdupes:
        print(f"jdupes: not installed ({args.jdupes}): no comparison")
        return
    theirs = as_identities(jdupes_sets(jd_out))
    print(f"jdupes -r                      {jd_time:7.2f} s   ({len(theirs):,} sets)")
    print(f"ratio simgui / jdupes          {total / jd_time:7.2f} x   (target: 2 x or less)")
    print(f"jdupes -r -Q (no byte check)   {jd_quick:7.2f} s   ratio {total / jd_quick:.2f} x: "
          "the like-for-like peer, as simgui's groups rest on the content hash")
    print(f"(simgui reads on {os.cpu_count()} cores, in forked processes; jdupes on one)")
    same = ours == theirs
    print(f"same sets: {'yes' if same else 'NO'} ({len(ours):,} and {len(theirs):,})")
    if not same:
        for name, extra in (("only simgui", ours - theirs), ("only jdupes", theirs - ours)):
            print(f"  {name}: {len(extra):,} sets")
            for s in list(extra)[:3]:
                print("   ", sorted(s)[:4])


if __name__ == "__main__":
    main()
