"""Start-up: seconds from a fresh interpreter to the main window shown (the issue: about 2 s).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_startup.py

numba kernels load after the window shows (MainWindow.start_up), so they are not counted.
"""

import os
import subprocess
import sys

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


def main() -> None:
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
