"""Slider to updated view: what a tolerance move costs in the real window.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui_slider.py [--files N]
                                    [--corpus realistic|legacy] [--store DB]
                                    [--memory GB]

Builds the analysis the window builds (its sum-table ceiling for groups sized to the
memory available, see simgui.core.search.budget) of a collection, shows it in the main window offscreen,
then moves each tolerance slider over its whole range (0.01 % to 10 %) and back, and,
with the content check on, its slider from 10 % to 99 % and back.  Printed per
move: the counts and groups update (core, the window's own call to ``Analysis.at``,
timed) and the whole update including it, the groups model reset and a repaint of the
groups view (before 2026-11-27 the core was computed once before the window's update,
which then found what it had kept warm); at the end one line:
``median N ms, max M ms, key ceiling K %, sum-table ceiling S %, peak memory G GB`` (the
process's peak resident memory, the analysis included).  The key slider always covers
0.01-10 %: the search tallies its candidates without holding them; the sum-table slider
groups up to what the memory available holds (``--memory``), and counts beyond.

The collection: ``--store DB``, the files of a real store, with the content check on
when every file has its fingerprints; else ``--files N`` synthetic files, by default
bench_simfind.py's realistic corpus (``--corpus legacy``: the older one, whose tag rates
are a tenth of real files').  The realistic corpus' files get modelled contents (see
:func:`modelled_signatures`): MinHash signatures in which a file edited from its
family's first shares what its edit left, and unrelated files share nothing, so the
content check is on for them, as a scan's default is; ``--no-contents`` leaves them
without, and the check off (``Tolerances(key, sum, 0)``), as the paper's method as
published runs.  With the check on, each move makes one more comparison per
candidate, against a share of content stored with it.  The model is kinder than a
real collection: there, some unrelated files of one kind share some content too
(boilerplate, licences), and their pairs are kept above the check's floor.
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

from simgui.core.memory import keep_freed_memory  # noqa: E402
from simgui.core.search.analysis import Analysis, SearchSettings  # noqa: E402
from simgui.core.search.simfind import (  # noqa: E402
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_SUM_TOLERANCE, Tolerances,
)
from simgui.core.store import Store, StoredFiles  # noqa: E402

#: Slider positions visited, each slider in turn over its range and back, the other
#: at the default; then both together, as the paper's curves move them.
SWEEP = (0.01, 0.05, 0.1, 0.32, 1.0, 2.0, 3.2, 5.0, 7.5, 10.0)
#: ... and the content check's slider (whole percents, 10 to 99), each move a new setting
CONTENT_SWEEP = (10.0, 25.0, 40.0, 50.0, 60.0, 75.0, 90.0, 99.0)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: 64 well-mixed bits of each uint64."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def modelled_signatures(family: np.ndarray, edit: np.ndarray, seed: int = 0) -> np.ndarray:
    """MinHash signatures (uint32, 128 slots) as the files' contents would give them:
    the files of a family have the slots of its first file, each of which a file edited
    in a share e of its bytes keeps with the probability of its resemblance to it,
    J = c / (2 - c) for the c = 1 - e they have in common (methods.share_from_resemblance
    reads c back); every other slot, and every slot of unrelated files, its own value."""
    n = len(family)
    out = np.empty((n, 128), np.uint32)
    keep = (1 - edit) / (1 + edit)
    rng = np.random.default_rng(seed)
    slot = np.arange(128, dtype=np.uint64)
    for lo in range(0, n, 1 << 16):
        hi = min(n, lo + (1 << 16))
        with np.errstate(over="ignore"):
            base = _mix(family[lo:hi, None].astype(np.uint64) * np.uint64(128) + slot)
            own = _mix((np.arange(lo, hi, dtype=np.uint64)[:, None] + np.uint64(1 << 40))
                       * np.uint64(128) + slot)
        kept = rng.random((hi - lo, 128)) < keep[lo:hi, None]
        out[lo:hi] = (np.where(kept, base, own) >> np.uint64(32)).astype(np.uint32)
    return out


def synthetic(n: int, which: str, contents: bool = False) -> StoredFiles:
    """n synthetic files; with ``contents`` (the realistic corpus only) modelled
    signatures, so that the content check can run."""
    signatures = fingerprinted = None
    if which == "realistic":
        sizes, tables, exts, family, edit = corpus(n, with_families=True)
        if contents:
            signatures, fingerprinted = modelled_signatures(family, edit), np.ones(n, bool)
    else:
        sizes, tables, exts = legacy_corpus(n, np.random.default_rng(2007))
    return StoredFiles(ids=np.arange(n), paths=[f"/data/d{i % 97}/f{i:07d}.{e}"
                                                for i, e in enumerate(exts)],
                       sizes=sizes, mtimes_ns=np.arange(n), devices=np.ones(n, np.int64),
                       inodes=np.arange(n), tables=tables,
                       hashes=[i.to_bytes(16, "little") for i in range(n)], extensions=exts,
                       signatures=signatures, fingerprinted=fingerprinted,
                       # as a store says of files that are not pictures
                       is_picture=np.zeros(n, bool))


def _resident() -> int:
    """This process's resident memory now, in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def moves(sum_ceiling: float, content: float) -> list[tuple[float, float, float]]:
    """(key, sum-table, content) positions: key over its whole range (it has no
    ceiling), sum-table up to what the memory available let the analysis group at, the
    others at the window's defaults; both tolerances together; then, with the content
    check on (``content`` > 0), its slider over its range (CONTENT_SWEEP) and back."""
    key_default, sum_default = DEFAULT_KEY_TOLERANCE, min(DEFAULT_SUM_TOLERANCE, sum_ceiling)
    out = [(k, sum_default, content) for k in SWEEP + SWEEP[::-1]]
    out += [(key_default, min(s, sum_ceiling), content) for s in SWEEP + SWEEP[::-1]]
    out += [(t, min(t, sum_ceiling), content) for t in SWEEP]
    if content:
        out += [(key_default, sum_default, c) for c in CONTENT_SWEEP + CONTENT_SWEEP[::-1]]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--corpus", choices=["realistic", "legacy"], default="realistic")
    parser.add_argument("--store", metavar="DB", help="measure on the files of a real store")
    parser.add_argument("--no-contents", action="store_true",
                        help="synthetic files without modelled contents: the content check "
                             "off (the paper's method as published)")
    parser.add_argument("--memory", type=float, metavar="GB",
                        help="size the analysis as on a machine with this much memory for this "
                             "process in all: what it holds already (the files) is not "
                             "available; default: what this one has available")
    args = parser.parse_args()
    keep_freed_memory()  # as the application does when it starts
    if args.memory:
        from simgui.core.search import budget
        budget.available_memory = lambda: max(0, int(args.memory * 2**30) - _resident())
    if args.store:
        with Store(args.store, read_only=True) as store:
            files = store.files()
        check = bool(len(files)) and bool(files.fingerprinted.all())
        what = f"the store {args.store}"
    else:
        contents = args.corpus == "realistic" and not args.no_contents
        files = synthetic(args.files, args.corpus, contents)
        check = contents
        what = (f"the {args.corpus} synthetic corpus"
                + (", modelled contents" if contents else ""))
    content = DEFAULT_MIN_CONTENT if check else 0.0
    n = len(files)
    t = time.perf_counter()
    analysis = Analysis.build(files, SearchSettings(content_check=check))
    built = time.perf_counter() - t
    stats = analysis.stats
    print(f"{n:,} files of {what}: analysis built in {built:.1f} s; "
          f"{stats.key_hits_at[-1]:,} key hits up to 10 % tallied, {stats.pairs_kept:,} "
          f"pairs kept for groups; sum-table ceiling {stats.max_sum:g} %; content check "
          + (f"on ({content:g} %)" if check else "off"))

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
    at = analysis.at

    def timed_at(tolerances):  # the window's own call, timed (once a move: what it costs)
        t = time.perf_counter()
        try:
            return at(tolerances)
        finally:
            core.append(time.perf_counter() - t)

    object.__setattr__(analysis, "at", timed_at)
    for key, sum_, share in moves(stats.max_sum, content):
        tol = Tolerances(key, sum_, share)
        t = time.perf_counter()
        window._apply_tolerances(tol)
        window.groups.tree.viewport().repaint()
        whole.append(time.perf_counter() - t)
        assert len(core) == len(whole), "the window did not ask the analysis once"
        print(f"  key {key:5g} % sum {sum_:5g} % content {share:3g} %: "
              f"{window.model.group_count():7,} groups; "
              f"core {1000 * core[-1]:6.1f} ms, slider to painted view {1000 * whole[-1]:6.1f} ms")
    window.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"core: median {1000 * np.median(core):.1f} ms, max {1000 * max(core):.1f} ms")
    print(f"median {1000 * np.median(whole):.0f} ms, max {1000 * max(whole):.0f} ms, "
          f"key ceiling {stats.max_key:g} %, sum-table ceiling {stats.max_sum:g} %, "
          f"peak memory {peak / 1e9:.1f} GB")


if __name__ == "__main__":
    main()
