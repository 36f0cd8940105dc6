"""Start-up: seconds from a fresh interpreter to the main window shown (the issue: about 2 s),
and milliseconds to run the commands that search nothing, next to the peers' --version.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_startup.py [--commands-only]

numba kernels load after the window shows (MainWindow.start_up), so they are not counted.
The commands (``simgui --version``, ``--help``, ``stats``, ``journal``, ``undo``) run as a
user runs them, the installed ``simgui`` script, on an empty store; best of 10 each.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

CODE = r"""
import time; t0 = time.perf_counter()
import os, tempfile
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from simgui.gui.main_window import MainWindow
imported = time.perf_counter() - t0
app = QApplication([])
w = MainWindow(settings_path=os.path.join(tempfile.mkdtemp(), "settings.json")); w.resize(1200, 800); w.show()
QTimer.singleShot(0, lambda: (print(f"{imported:.2f} {time.perf_counter() - t0:.2f}"), app.quit()))
app.exec()
"""


COMMANDS = (["--version"], ["--help"], ["stats"], ["journal"], ["undo"])
PEERS = (["jdupes", "--version"], ["md5sum", "--version"], [sys.executable, "-c", "pass"])


def best_ms(argv: list[str], env: dict, runs: int = 10) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=env, check=False)
        best = min(best, time.perf_counter() - t)
    return best * 1000


def commands() -> None:
    script = shutil.which("simgui", path=os.path.dirname(sys.executable))
    with tempfile.TemporaryDirectory() as folder:
        # as installed: Python's compiled bytecode is written (and read) as usual, even
        # where this shell says not to (PYTHONDONTWRITEBYTECODE recompiles every module
        # at every start)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["SIMGUI_DB"] = os.path.join(folder, "s.db")
        for peer in PEERS:
            if shutil.which(peer[0]) is None:
                print(f"{' '.join(peer):<28} not installed: skipped")
            else:
                name = "python -c pass" if peer[0] == sys.executable else " ".join(peer)
                print(f"{name:<28} {best_ms(peer, env):6.0f} ms")
        if script is None:
            print("simgui is not installed beside this Python: skipped the commands")
            return
        for argv in COMMANDS:
            subprocess.run([script, *argv], capture_output=True, env=env, check=False)
        for argv in COMMANDS:
            print(f"{'simgui ' + ' '.join(argv):<28} {best_ms([script, *argv], env):6.0f} ms")


def main() -> None:
    commands()
    if "--commands-only" in sys.argv:
        return
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
           "PYTHONPATH": os.path.join(os.path.dirname(__file__), "..")}
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                             env=env, check=True).stdout.split()
        runs.append((float(out[0]), float(out[1])))
    best = min(runs, key=lambda r: r[1])
    print(f"window shown {best[1]:.2f} s after the interpreter started "
          f"(imports {best[0]:.2f} s); best of {len(runs)}")


if __name__ == "__main__":
    main()
