"""The installed Qt binding is one simgui can run on."""

import subprocess
import sys
import textwrap


def test_process_events_does_not_corrupt_python():
    # PySide6 6.12.0 drops a reference to None on every processEvents() call (pyqtgraph and
    # pytest-qt make such calls), so a long session aborts; pyproject.toml excludes it
    code = textwrap.dedent("""
        from PySide6.QtCore import QCoreApplication
        app = QCoreApplication([])
        for _ in range(20000):
            QCoreApplication.processEvents()
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert result.stdout.strip() == "ok", result.stderr[-500:]
