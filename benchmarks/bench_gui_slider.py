"""Slider to updated view: what a tolerance move costs in the real window.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui_slider.py [--files N]
                                    [--corpus realistic|legacy] [--store DB]
                                    [--memory GB]

Builds the analysis the window builds (its sum-table ceiling for groups sized to the
memory available, see simgui.core.search.budget) of a collection, shows it in the main window offscreen,
then moves each slider over its whole range (0.01 % to 10 %) and back.  Printed per
move: the counts and groups update (core) and the whole update including the groups
model reset and a repaint of the groups view; at the end one line:
``median N ms, max M ms, key ceiling K %, sum-table ceiling S %, peak memory G GB`` (the
process's peak resident memory, the analysis included).  The key slider always covers
0.01-10 %: the search tallies its candidates without holding them; the sum-table slider
groups up to what the memory available holds (``--memory``), and counts beyond.

The collection: ``--store DB``, the files of a real store, with the content check on
when every file has its fingerprints; else ``--files N`` synthetic files, by default
bench_simfind.py's realistic corpus (``--corpus legacy``: the older one, whose tag rates
are a tenth of real files').  Synthetic files have sum tables but no contents, so the
content check is off for them (``Tolerances(key, sum, 0)``); with it on, each move makes
one more comparison per candidate, against a share of content stored with it.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from bench_simfind import corpus, legacy_corpus  # noqa: E402

from simgui.core.search.analysis import Analysis, SearchSettings  # noqa: E402
from simgui.core.search.simfind import (  # noqa: E402
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_SUM_TOLERANCE, Tolerances,
)
from simgui.core.store import Store, StoredFiles  # noqa: E402

#: Slider positions visited, each slider in turn over its range and back, the other
#: at the default; then both together, as the paper's curves move them.
SWEEP = (0.01, 0.05, 0.1, 0.32, 1.0, 2.0, 3.2, 5.0, 7.5, 10.0)


def synthetic(n: int, which: str) -> StoredFiles:
    sizes, tables, exts = (corpus(n) if which == "realistic"
                           else legacy_corpus(n, np.random.default_rng(2007)))
    return StoredFiles(ids=np.arange(n), paths=[f"/data/d{i % 97}/f{i:07d}.{e}"
                                                for i, e in enumerate(exts)],
                       sizes=sizes, mtimes_ns=np.arange(n), devices=np.ones(n, np.int64),
                       inodes=np.arange(n), tables=tables,
                       hashes=[i.to_bytes(16, "little") for i in range(n)], extensions=exts,
                       # as a store says of files that are not pictures
                       is_picture=np.zeros(n, bool))


def moves(sum_ceiling: float) -> list[tuple[float, float]]:
    """Key over its whole range (it has no ceiling), sum-table up to what the memory
    available let the analysis group at, the other at the window's default."""
    key_default, sum_default = DEFAULT_KEY_TOLERANCE, min(DEFAULT_SUM_TOLERANCE, sum_ceiling)
    out = [(k, sum_default) for k in SWEEP + SWEEP[::-1]]
    out += [(key_default, min(s, sum_ceiling)) for s in SWEEP + SWEEP[::-1]]
    out += [(t, min(t, sum_ceiling)) for t in SWEEP]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--corpus", choices=["realistic", "legacy"], default="realistic")
    parser.add_argument("--store", metavar="DB", help="measure on the files of a real store")
    parser.add_argument("--memory", type=float, metavar="GB",
                        help="size the analysis as if this much memory were available (as on a "
                             "smaller machine); default: what this one has")
    args = parser.parse_args()
    if args.memory:
        from simgui.core.search import budget
        budget.available_memory = lambda: int(args.memory * 2**30)
    if args.store:
        with Store(args.store, read_only=True) as store:
            files = store.files()
        check = bool(len(files)) and bool(files.fingerprinted.all())
        what = f"the store {args.store}"
    else:
        files = synthetic(args.files, args.corpus)
        check = False
        what = f"the {args.corpus} synthetic corpus"
    content = DEFAULT_MIN_CONTENT if check else 0.0
    n = len(files)
    t = time.perf_counter()
    analysis = Analysis.build(files, SearchSettings(content_check=check))
    built = time.perf_counter() - t
    stats = analysis.stats
    print(f"{n:,} files of {what}: analysis built in {built:.1f} s; "
          f"{stats.key_hits_at[-1]:,} key hits up to 10 % tallied, {len(stats.hit_key) // 2:,} "
          f"pairs kept for groups; sum-table ceiling {stats.max_sum:g} %; content check "
          + (f"on ({content:g} %)" if check else "off (no contents)"))

    from PySide6.QtWidgets import QApplication

    from simgui.gui.jobs import Results
    from simgui.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    window = MainWindow(settings_path=os.path.join(tempfile.mkdtemp(), "settings.json"))
    window.resize(1400, 900)
    window.tolerance.check.blockSignals(True)
    window.tolerance.check.setChecked(check)
    window.tolerance.check.blockSignals(False)
    window.show()
    window._results_arrived(Results(analysis, []))
    app.processEvents()

    core, whole = [], []
    for key, sum_ in moves(stats.max_sum):
        tol = Tolerances(key, sum_, content)
        t = time.perf_counter()
        analysis.at(tol)
        core.append(time.perf_counter() - t)
        t = time.perf_counter()
        window._apply_tolerances(tol)
        window.groups.tree.viewport().repaint()
        whole.append(time.perf_counter() - t)
        print(f"  key {key:5g} % sum {sum_:5g} %: {window.model.group_count():7,} groups; "
              f"core {1000 * core[-1]:6.1f} ms, slider to painted view {1000 * whole[-1]:6.1f} ms")
    window.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"core: median {1000 * np.median(core):.1f} ms, max {1000 * max(core):.1f} ms")
    print(f"median {1000 * np.median(whole):.0f} ms, max {1000 * max(whole):.0f} ms, "
          f"key ceiling {stats.max_key:g} %, sum-table ceiling {stats.max_sum:g} %, "
          f"peak memory {peak / 1e9:.1f} GB")


if __name__ == "__main__":
    main()
