"""What every experiment shares: paths, the machine header, output files, figures.

Each experiment is a script in this folder that writes ``NAME.png`` and
``NAME.txt`` into ``--out`` (default ``docs/experiments``).  The text starts
with the machine, the versions, the tools, the exact command and the date
(:class:`Report`), so a figure never travels without the facts that produced it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCHMARKS)
DEFAULT_OUT = os.path.join(ROOT, "docs", "experiments")
#: Figures are committed: keep each PNG below this many bytes.
MAX_PNG_BYTES = 300_000

for _path in (ROOT, BENCHMARKS):  # simgui, and the benchmarks' own modules (corpus, ...)
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bench_scan import read_all  # noqa: E402,F401 (warms the page cache; used by speed.py)

#: The paper (Sadowski and Levin 2007), as DESIGN.md reads its plots (about 10 % accurate).
PAPER = {
    "fig7_hits_per_pair_with_extensions": 1 / 5000,  # "about 1 hit in 5000 pairs", high T
    "fig7_files": 10_364,
    "fig8_onset": {"ps": (0.03, 0.15), "pdf": (1.4, 5.0), "txt": (2.3, None)},  # T % ranges
    "fig9_seconds": {8_000: 735.0, 16_000: 2_910.0},  # SimFind, all pairs, similar files
}

#: The tolerance range of the paper's Figures 6-8 (percent).
PAPER_TOLERANCES = (0.01, 3.2)


# --------------------------------------------------------------------------- machine


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def have(tool: str) -> bool:
    """Is the command ``tool`` on PATH?"""
    return shutil.which(tool) is not None


def tool_version(tool: str) -> str | None:
    """First line of a tool's version output, or None when it is not installed."""
    if not have(tool):
        return None
    flags = {"ssdeep": ["-V"], "rdfind": ["-v"], "jdupes": ["-v"], "enscript": ["--version"],
             "gs": ["--version"], "md5sum": ["--version"], "cat": ["--version"]}.get(tool,
                                                                                 ["--version"])
    try:
        out = subprocess.run([tool, *flags], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return "?"
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0].strip() if text else "?"


def python_module_version(name: str) -> str | None:
    try:
        module = __import__(name)
    except ImportError:
        return None
    version = getattr(module, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as dist_version
            version = dist_version({"tlsh": "py-tlsh"}.get(name, name))
        except Exception:  # noqa: BLE001 - a version is only informative
            version = "?"
    return str(version)


def git_revision() -> str:
    """The repository's commit, read-only (``git rev-parse``), with a mark if files differ."""
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"
    return (rev + (" + uncommitted changes" if dirty else "")) if rev else "?"


def command_line() -> str:
    """How this run was started, relative to the repository (what to type to repeat it)."""
    script = os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)
    return "PYTHONPATH=. python " + " ".join([script] + [_quote(a) for a in sys.argv[1:]])


def _quote(arg: str) -> str:
    return arg if arg and all(c.isalnum() or c in "-_./=:,%+" for c in arg) else repr(arg)


def machine_lines(tools: Sequence[str] = (), modules: Sequence[str] = ()) -> list[str]:
    import numba
    import numpy as np
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    lines = [
        f"machine: {cpu_model()}, {os.cpu_count()} logical CPUs, "
        f"{_memory_gb():.0f} GB RAM, {platform.platform()}",
        "note: the machine was shared with other jobs while this ran (load average at start "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}); timings are a best of repeats where said",
        f"versions: Python {platform.python_version()}, numpy {np.__version__}, "
        f"numba {numba.__version__}, matplotlib {python_module_version('matplotlib')}"
        + "".join(f", {m} {python_module_version(m) or 'not installed'}" for m in modules)
        + f", simgui commit {git_revision()}",
    ]
    if tools:
        lines.append("tools: " + "; ".join(f"{t}: {tool_version(t) or 'not installed'}"
                                           for t in tools))
    lines.append(f"command: {command_line()}")
    lines.append(f"date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    return lines


def _memory_gb() -> float:
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 2**20
    except OSError:
        pass
    return float("nan")


# --------------------------------------------------------------------------- output


class Report:
    """Lines printed as they come and written to ``OUT/NAME.txt`` at the end."""

    def __init__(self, out: str, name: str, title: str, *, tools: Sequence[str] = (),
                 modules: Sequence[str] = ()):
        self.out, self.name = out, name
        self.lines: list[str] = []
        self.started = time.perf_counter()
        os.makedirs(out, exist_ok=True)
        self(title)
        for line in machine_lines(tools, modules):
            self(line)
        self()

    def __call__(self, line: str = "") -> None:
        self.lines.append(line)
        print(line, flush=True)

    def table(self, header: Sequence[str], rows: Sequence[Sequence], formats: Sequence[str] = ()
              ) -> None:
        """A plain-text table: columns right-aligned, the first left-aligned."""
        cells = [[str(h) for h in header]]
        for row in rows:
            out = []
            for i, value in enumerate(row):
                fmt = formats[i] if i < len(formats) and formats[i] else "{}"
                out.append(value if isinstance(value, str) else fmt.format(value))
            cells.append(out)
        widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
        for r in cells:
            self("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                           for i, c in enumerate(r)))

    def write(self) -> str:
        self(f"(run time {time.perf_counter() - self.started:.0f} s)")
        path = os.path.join(self.out, self.name + ".txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(self.lines) + "\n")
        print(f"(written to {os.path.relpath(path)})")
        return path


def parser(doc: str) -> argparse.ArgumentParser:
    """The options every experiment has: ``--out`` and ``--quick``."""
    p = argparse.ArgumentParser(description=doc.strip().split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=DEFAULT_OUT,
                   help="folder for NAME.png and NAME.txt (default: docs/experiments)")
    p.add_argument("--quick", action="store_true", help="a smaller, faster run")
    return p


# --------------------------------------------------------------------------- figures


def pyplot():
    """matplotlib's pyplot on the Agg backend (no screen needed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 100, "font.size": 9,
                         "axes.titlesize": 10, "legend.fontsize": 8, "axes.grid": True,
                         "grid.alpha": 0.3})
    return plt


def save_figure(fig, out: str, name: str, footer: str | None = None) -> str:
    """Save ``OUT/NAME.png``; lower the resolution until it is under MAX_PNG_BYTES."""
    plt = pyplot()
    if footer:
        fig.text(0.005, 0.005, footer, fontsize=6.5, color="0.35", ha="left", va="bottom")
    path = os.path.join(out, name + ".png")
    for dpi in (100, 90, 80, 70, 60):
        fig.savefig(path, dpi=dpi)
        if os.path.getsize(path) <= MAX_PNG_BYTES:
            break
    plt.close(fig)
    print(f"(figure {os.path.relpath(path)}, {os.path.getsize(path) // 1000} KB)")
    return path


def footer_text(extra: str = "") -> str:
    """One line for the bottom of a figure: the machine and the command."""
    import numba
    import numpy as np
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    text = (f"{cpu_model()}, {os.cpu_count()} CPUs (shared: load {load:.1f}), "
            f"Python {platform.python_version()}, "
            f"numpy {np.__version__}, numba {numba.__version__}; "
            f"{datetime.date.today().isoformat()}; {command_line()}")
    return text + (f"; {extra}" if extra else "")


# --------------------------------------------------------------------------- files


def regular_files(roots: Sequence[str], min_size: int = 0) -> list[str]:
    """Regular files under ``roots`` (symbolic links not followed, one path per inode),
    sorted: what simgui's scanner reads, so other tools can be given the same list."""
    seen: set[tuple[int, int]] = set()
    out = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                if not _is_regular(st.st_mode) or st.st_size < min_size:
                    continue
                if (st.st_dev, st.st_ino) in seen:
                    continue
                if not os.access(path, os.R_OK):
                    continue
                seen.add((st.st_dev, st.st_ino))
                out.append(path)
    return out


def _is_regular(mode: int) -> bool:
    import stat
    return stat.S_ISREG(mode)


def timed(fn, *args, **kwargs):
    """(seconds, result) of one call."""
    t = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - t, result


def best_time(repeat: int, fn, *args, **kwargs):
    """Best of ``repeat`` calls: (seconds, last result)."""
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        t, result = timed(fn, *args, **kwargs)
        best = min(best, t)
    return best, result


def interpolate_crossing(xs, ys, level: float) -> float | None:
    """The first x (log-interpolated) where the rising series ys reaches ``level``; None if never."""
    import math
    prev_x = prev_y = None
    for x, y in zip(xs, ys):
        if y >= level:
            if prev_x is None or prev_y is None or y == prev_y:
                return float(x)
            frac = (level - prev_y) / (y - prev_y)
            return float(math.exp(math.log(prev_x) + frac * (math.log(x) - math.log(prev_x))))
        prev_x, prev_y = x, y
    return None
