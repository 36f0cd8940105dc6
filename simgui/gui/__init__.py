"""simgui's desktop application: PySide6 and pyqtgraph over :mod:`simgui.core`.

Widgets only render core results and hand user requests to workers
(:mod:`simgui.gui.tasks`); every decision about files is made in the core.
"""
