"""Reference cycles are freed on the GUI thread only, while the window runs (a cycle
holding a Qt object freed on a pool thread can hang the window)."""

import gc
import threading
import weakref

from simgui.gui.collector import GuiThreadCollector


class Node:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it


def test_cycles_made_on_a_worker_thread_are_collected_on_the_gui_thread(qtbot):
    was = gc.isenabled()
    collector = GuiThreadCollector()
    seen = []

    def record(phase, info):
        if phase == "start":
            seen.append(threading.get_ident())

    collector.install()
    gc.callbacks.append(record)
    try:
        assert not gc.isenabled()
        refs = []

        def work():  # far more allocations than the collector's first threshold
            for _ in range(50_000):
                refs.append(weakref.ref(Node()))

        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
        assert all(r() is not None for r in refs[:100])  # nothing collected there
        qtbot.waitUntil(lambda: all(r() is None for r in refs), timeout=10_000)
        assert seen and set(seen) == {threading.main_thread().ident}
    finally:
        gc.callbacks.remove(record)
        collector.uninstall()
    assert gc.isenabled() == was


def test_only_a_generation_over_its_threshold_is_collected():
    collector = GuiThreadCollector()
    collector.install()
    try:
        gc.collect()  # counts back to zero
        assert collector.collect_due() == 0
        cycles = [Node() for _ in range(gc.get_threshold()[0] + 10)]
        del cycles
        assert collector.collect_due() >= gc.get_threshold()[0]
    finally:
        collector.uninstall()


def test_full_collections_are_spaced_by_what_the_last_one_took(monkeypatch):
    """A full collection walks every object the window holds: the next one waits 20
    times as long as the last took, younger generations meanwhile."""
    import simgui.gui.collector as collector_module

    now = [1000.0]
    monkeypatch.setattr(collector_module.time, "monotonic", lambda: now[0])
    asked = []

    def collect(generation=2):
        asked.append(generation)
        if generation == 2:
            now[0] += 0.5  # a full collection that takes half a second
        return 0

    monkeypatch.setattr(collector_module.gc, "collect", collect)
    monkeypatch.setattr(collector_module.gc, "get_count", lambda: (800, 11, 11))
    c = GuiThreadCollector()
    c.collect_due()
    c.collect_due()  # too soon for another full one: generation 1 instead
    now[0] += 0.5 * collector_module.FULL_SPACING
    c.collect_due()
    assert asked == [2, 1, 2]
