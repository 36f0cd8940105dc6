"""A second look at an unchanged tree: ``simgui scan`` (a rescan) + ``simgui groups
--format csv`` next to one full ``jdupes -r`` over the same tree (issue 25, part 3).

    python benchmarks/bench_second_look.py [--root /usr] [--db STORE] [--runs 3]
                                           [--jdupes /usr/bin/jdupes]

Without --db a store of the tree is built first in a temporary folder (untimed: a
first scan reads every byte; /usr takes a minute or more).  Both sides run as
commands, start-up included, on a warm page cache (each runs once untimed first);
the best of --runs is printed, then the ratio (target: at most 1).  ``groups`` writes
the answer it kept in the store the last time (simgui.core.store.answers): nothing
changed since, so it is the same, without a search.  Then the parts of the second
look, timed in this process: the stored files a rescan compares with (Store.known_columns,
read beside the walk on a thread of their own) and the walk, and the kept answer;
then, for what a first ``groups`` does, the columns the search loads (Store.files),
the search (find_groups) and the CSV and JSON writers.  Timings on a loaded machine
are loose: run it on a quiet one for the record.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))


def timed(command: list[str]) -> float:
    """Seconds ``command`` took (its output thrown away); exits if it failed."""
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: some files unreadable, which both may meet
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): "
                 f"{done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def best(command: list[str], runs: int) -> float:
    timed(command)  # warm: page cache, compiled kernels
    return min(timed(command) for _ in range(runs))


def parts(root: str, db: str) -> list[tuple[str, float]]:
    """The second look's parts, each timed once in this process (imports done first)."""
    from simgui.core.reading.scanner import ScanOptions, _Walker
    from simgui.core.search.analysis import find_groups
    from simgui.core.search.export import write_groups
    from simgui.core.search.simfind import Tolerances
    from simgui.core.store import Store, answers

    out = []

    def clock(name, work):
        started = time.perf_counter()
        result = work()
        out.append((name, time.perf_counter() - started))
        return result

    with Store(db, read_only=True) as store:
        clock("rescan: stored files (known_columns)",
              lambda: store.known_columns([os.fsencode(os.path.abspath(root))]))
        clock("rescan: the walk",
              lambda: sum(1 for _ in _Walker(ScanOptions(), lambda *i: None).walk(root)))
        version = answers.files_version(store)
        clock("groups: the answer kept", lambda: [answers.kept_answer(store, question, version)
                                                  for (question,) in store.connection.execute(
                                                      "SELECT question FROM kept_answers")])
        files = clock("first groups: load the columns (files)", store.files)
    groups = clock("first groups: the search (find_groups)",
                   lambda: find_groups(files, Tolerances()))
    for fmt in ("csv", "json"):
        clock(f"first groups: write {fmt.upper()}",
              lambda: write_groups(groups, io.StringIO(), fmt))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="/usr")
    parser.add_argument("--db", help="a store of --root (default: build one, untimed)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jdupes", default=shutil.which("jdupes") or "/usr/bin/jdupes")
    args = parser.parse_args()

    simgui = [sys.executable, "-m", "simgui"]
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or os.path.join(tmp, "second-look.sqlite3")
        if not args.db:
            print(f"building a store of {args.root} (untimed) ...", file=sys.stderr)
            timed([*simgui, "scan", "--db", db, "--quiet", args.root])
        rescan = best([*simgui, "scan", "--db", db, "--quiet", args.root], args.runs)
        groups = best([*simgui, "groups", "--db", db, "--format", "csv"], args.runs)
        peer = (best([args.jdupes, "-r", "-q", args.root], args.runs)
                if os.access(args.jdupes, os.X_OK) else None)
        breakdown = parts(args.root, db)

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; best of {args.runs}, warm page cache")
    print(f"tree: {args.root}")
    print(f"{'what':<42}{'seconds':>9}")
    print(f"{'simgui scan (rescan, nothing changed)':<42}{rescan:>9.2f}")
    print(f"{'simgui groups --format csv':<42}{groups:>9.2f}")
    print(f"{'simgui rescan + groups':<42}{rescan + groups:>9.2f}")
    if peer is None:
        print(f"jdupes not found at {args.jdupes}: no peer to compare with (--jdupes PATH)")
    else:
        print(f"{'jdupes -r (one full run)':<42}{peer:>9.2f}")
        print(f"ratio (rescan + groups) / jdupes: {(rescan + groups) / peer:.2f} "
              "(target: at most 1)")
    print("parts, in this process:")
    for name, seconds in breakdown:
        print(f"  {name:<40}{seconds:>9.2f}")


if __name__ == "__main__":
    main()
