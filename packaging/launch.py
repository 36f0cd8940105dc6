"""Entry point of the PyInstaller bundle: the same as the installed ``simgui`` command.

``simgui`` with no arguments opens the window; ``simgui --help`` and every
subcommand work as from a pip install.
"""

import os
import sys


def _environment_for_children() -> None:
    """Give programs that simgui starts (xdg-open, a file manager) the user's environment.

    PyInstaller's bootloader points LD_LIBRARY_PATH at the bundle, and its PySide6
    hook sets QT_PLUGIN_PATH and QML2_IMPORT_PATH to the bundle's Qt.  This process
    no longer needs them: the dynamic loader read LD_LIBRARY_PATH when the process
    started, and PySide6 finds its plugins through its own embedded qt.conf.  Left
    in the environment, a file manager opened by "Open Folder" would load the
    bundle's libraries and Qt plugins instead of its own, and could fail to start.
    """
    bundle = getattr(sys, "_MEIPASS", None)
    if not bundle:
        return
    original = os.environ.pop("LD_LIBRARY_PATH_ORIG", None)
    if original is not None:
        os.environ["LD_LIBRARY_PATH"] = original
    else:
        os.environ.pop("LD_LIBRARY_PATH", None)
    for name in ("QT_PLUGIN_PATH", "QML2_IMPORT_PATH"):
        if os.environ.get(name, "").startswith(bundle):
            del os.environ[name]


if __name__ == "__main__":
    _environment_for_children()

    from simgui.cli import main

    sys.exit(main())
