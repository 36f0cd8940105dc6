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
import time

from PySide6.QtCore import QObject, QTimer

#: How often the GUI thread looks at the collector's counts, in milliseconds.
INTERVAL_MS = 250
#: A full collection waits this many times as long as the last one took.
FULL_SPACING = 20


class GuiThreadCollector(QObject):
    """Owns the collection of reference cycles while it is installed."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect_due)
        self._was_enabled = False
        self._full_allowed = 0.0  # time.monotonic() from which a full collection may run

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
        automatic collector does (younger ones with it); returns the number freed.  A
        full collection walks every object the window holds, so it waits until 20
        times as long as the last one took has passed (CPython's own collector holds
        full collections back by the share of long-lived objects instead, which Python
        code cannot see): at most a twentieth of the GUI thread's time."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if not thresholds[generation] or counts[generation] <= thresholds[generation]:
                continue
            if generation == 2:
                if time.monotonic() < self._full_allowed:
                    continue
                started = time.monotonic()
                freed = gc.collect(2)
                took = time.monotonic() - started
                self._full_allowed = started + took + FULL_SPACING * took
                return freed
            return gc.collect(generation)
        return 0
