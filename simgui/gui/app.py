"""Start the desktop application: ``simgui`` with no arguments, or ``simgui-gui``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from simgui.gui.syscheck import problems

    found = problems()
    if found:
        for problem in found:
            print(f"simgui: {problem}", file=sys.stderr)
        return 2
    try:
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:
        print(f"simgui: the window needs PySide6 ({exc}); install it with: "
              "pip install 'simgui[gui]'", file=sys.stderr)
        return 2

    from simgui import __version__
    from simgui.core.logs import setup_logging
    from simgui.core.memory import keep_freed_memory
    from simgui.core.settings import load_settings
    from simgui.gui.collector import GuiThreadCollector
    from simgui.gui.crash import CrashReporter
    from simgui.gui.main_window import MainWindow
    from simgui.gui.translation import install_translation

    setup_logging()
    keep_freed_memory()  # each search's temporaries, reused by the next: see core.memory

    app = QApplication.instance() or QApplication(list(argv or sys.argv[:1]))
    # reference cycles freed on the GUI thread only: see gui.collector
    collector = GuiThreadCollector(app)
    collector.install()
    app.setApplicationName("simgui")
    app.setApplicationDisplayName("simgui")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("simgui")
    # Settings › Language, before any widget takes its texts (so: at the next start)
    translators = install_translation(load_settings().language, app)  # noqa: F841 (kept)
    icon = _icon()
    if icon is not None:
        app.setWindowIcon(icon)
    reporter = CrashReporter(app)
    reporter.install()
    window = MainWindow()
    if not window.settings.window.get("geometry"):
        window.resize(1280, 820)
    window.show()
    # kernels and results load after the window is on screen
    QTimer.singleShot(0, window.start_up)
    return app.exec()


def _icon():
    from pathlib import Path

    from PySide6.QtGui import QIcon

    svg = Path(__file__).resolve().parents[2] / "resources" / "simgui.svg"
    if svg.exists():
        return QIcon(str(svg))
    themed = QIcon.fromTheme("simgui")  # installed with the .desktop file
    return None if themed.isNull() else themed


if __name__ == "__main__":
    sys.exit(main())
