"""Shared test set-up: offscreen Qt, deterministic hypothesis on CI, throwaway stores."""

import gc
import os

import pytest
from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _no_user_store(tmp_path_factory, monkeypatch):
    """No test may touch the real user's store or settings: point them at temporary files."""
    monkeypatch.setenv("SIMGUI_DB", str(tmp_path_factory.mktemp("store") / "default.db"))
    monkeypatch.setenv("SIMGUI_CONFIG", str(tmp_path_factory.mktemp("config") / "settings.json"))
    monkeypatch.setenv("SIMGUI_LOG_DIR", str(tmp_path_factory.mktemp("logs")))
    # nor the user's trash: a test that sends a file there without its own trash_home
    # fixture sends it to a throwaway one
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _collect_garbage_on_the_main_thread():
    """After each test, free here, on the main thread, the reference cycles it left that
    hold Qt objects.  Left to Python's collector they may be freed on whatever thread
    allocates next, say a task compiling a kernel on the window's pool: there the
    object's destructor waits for the GIL while the main thread, destroying a widget,
    holds it and waits for that object's lock.  A CI run hung so (py-spy --native: a
    pool thread in QObject::~QObject -> Shiboken GilState::acquire, the main thread in
    QObject::~QObject -> QBasicMutex::lockInternal); two earlier hangs looked the same."""
    yield
    gc.collect()


@pytest.fixture
def window(qtbot, tmp_path):
    """The real main window, shown offscreen, with its own settings file."""
    from simgui.gui.main_window import MainWindow

    w = MainWindow(settings_path=str(tmp_path / "settings.json"))
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    return w


def pytest_collection_modifyitems(config, items):
    """The cluster's tests last: they run Dask in this process, and Dask leaves threads
    and process-wide hooks behind (a garbage-collection callback that logs) that the
    window's tests should not share. Two CI runs hung in a window test that followed
    them, each with the main thread in a Qt override and a worker thread in Python."""
    items.sort(key=lambda item: item.nodeid.startswith("tests/test_cluster.py"))
