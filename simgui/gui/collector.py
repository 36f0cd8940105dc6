"""Python's cyclic garbage collector, run on the GUI thread only.

Left automatic, the collector runs on whichever thread allocates when its counts
are up: often a task on the window's thread pool (a scan, a kernel compiling). A
reference cycle it frees there may hold a Qt object, whose destructor then runs on
that thread and waits for the GIL, while the GUI thread, destroying a widget,
holds the GIL and waits for the object's lock: the window hangs for good (seen in
the test suite's CI runs, see tests/conftest.py). So the window turns automatic
collection off and collects here, on the GUI thread, as often as the automatic
collector would have (its thresholds), looking a few times a second.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

#: How often the GUI thread looks at the collector's counts, in milliseconds.
INTERVAL_MS = 250


class GuiThreadCollector(QObject):
    """Owns the collection of reference cycles while it is installed."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect_due)
        self._was_enabled = False

    def install(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def uninstall(self) -> None:
        self._timer.stop()
        if self._was_enabled:
            gc.enable()

    def collect_due(self) -> int:
        """Collect the oldest generation whose count is over its threshold, as the
        automatic collector does (younger ones with it); returns the number freed."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if thresholds[generation] and counts[generation] > thresholds[generation]:
                return gc.collect(generation)
        return 0
