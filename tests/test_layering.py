"""simgui.core must import and work with no Qt or pyqtgraph installed."""

import subprocess
import sys
import textwrap


def test_core_works_without_qt():
    code = textwrap.dedent("""
        import sys, importlib.abc

        class NoGui(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "pyqtgraph", "superqt"):
                    raise ImportError(f"{name} is blocked: the core must not need it")
                return None

        sys.meta_path.insert(0, NoGui())
        import simgui.core, simgui.core.scanner, simgui.core.store, simgui.core.keys
        import simgui.cli
        table = simgui.core.sum_table(b"the tee\\x00\\x00")
        assert table.sum() > 0
        gui = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "pyqtgraph")]
        assert not gui, gui
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_core_sources_never_mention_qt():
    import pathlib

    import simgui.core
    root = pathlib.Path(simgui.core.__file__).parent
    for source in root.rglob("*.py"):
        text = source.read_text()
        for name in ("PySide6", "PyQt", "pyqtgraph", "superqt"):
            assert f"import {name}" not in text and f"from {name}" not in text, source
