"""Slider to updated view: what a tolerance move costs in the real window, for 100,000 files.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui_slider.py [--files 100000]

Builds the analysis of a synthetic collection (the corpus of bench_simfind.py), shows it
in the main window offscreen, then moves each slider through several steps.  Printed per
move: the counts and groups update (core) and the whole update including the groups
model reset and a repaint of the groups view.  The issue asks for well under 100 ms.
The synthetic files have sum tables but no contents, so the content check is off
(``Tolerances(key, sum, 0)``); with it on, each move makes one more comparison per
candidate, against a share of content stored with it.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import sys
import time

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from bench_simfind import legacy_corpus as corpus  # noqa: E402  (the figures in the README)

from simgui.core.search.analysis import Analysis  # noqa: E402
from simgui.core.search.simfind import Tolerances  # noqa: E402
from simgui.core.store import StoredFiles  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    args = parser.parse_args()
    n = args.files
    sizes, tables, exts = corpus(n, np.random.default_rng(2007))
    files = StoredFiles(ids=np.arange(n), paths=[f"/data/d{i % 97}/f{i:07d}.{e}"
                                                 for i, e in enumerate(exts)],
                        sizes=sizes, mtimes_ns=np.arange(n), devices=np.ones(n, np.int64),
                        inodes=np.arange(n), tables=tables,
                        hashes=[i.to_bytes(16, "little") for i in range(n)], extensions=exts)
    t = time.perf_counter()
    analysis = Analysis.build(files)
    built = time.perf_counter() - t
    stats = analysis.stats
    print(f"{n:,} files: analysis built in {built:.1f} s; {len(stats.min_key):,} key candidates, "
          f"{len(stats.hit_key) // 2:,} pairs kept for groups; key ceiling {stats.max_key} %")

    from PySide6.QtWidgets import QApplication

    from simgui.gui.jobs import Results
    from simgui.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    window = MainWindow(settings_path=os.path.join(tempfile.mkdtemp(), "settings.json"))
    window.resize(1400, 900)
    window.tolerance.check.blockSignals(True)  # no contents to check (see the docstring)
    window.tolerance.check.setChecked(False)
    window.tolerance.check.blockSignals(False)
    window.show()
    window._results_arrived(Results(analysis, []))
    app.processEvents()

    core, whole = [], []
    for key, sum_ in [(0.5, 0.5), (1.0, 1.0), (3.2, 1.0), (3.2, 2.0), (5.0, 3.2), (1.0, 0.1),
                      (0.1, 0.1), (3.2, 1.0)]:
        key = min(key, stats.max_key)
        tol = Tolerances(key, sum_, 0.0)  # no contents to check: see the docstring
        t = time.perf_counter()
        analysis.at(tol)
        core.append(time.perf_counter() - t)
        t = time.perf_counter()
        window._apply_tolerances(tol)
        window.groups.tree.viewport().repaint()
        whole.append(time.perf_counter() - t)
        print(f"  key {key:5} % sum {sum_:4} %: {window.model.group_count():7,} groups; "
              f"core {1000 * core[-1]:6.1f} ms, slider to painted view {1000 * whole[-1]:6.1f} ms")
    print(f"median: core {1000 * np.median(core):.1f} ms, slider to painted view "
          f"{1000 * np.median(whole):.1f} ms (max {1000 * max(whole):.1f} ms)")
    window.close()


if __name__ == "__main__":
    main()
