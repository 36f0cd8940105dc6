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
