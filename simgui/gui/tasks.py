"""The one place work leaves the GUI thread, and the one way results come back.

A :class:`Task` runs a plain core function on a pool thread.  The function gets
a ``progress`` callback in the core's style (see :mod:`simgui.core.progress`):
it reports and returns False once the user cancelled.  Results, progress and
errors come back as queued signals, so widgets are only ever touched on the
GUI thread: connect them to methods of QObjects, never to lambdas, which Qt
would call on the worker thread.  Store work runs on one thread at a time (one writer, no locking
puzzles); :class:`Tasks` owns that pool.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from simgui.core.progress import Cancelled, Progress
from simgui.core.store import is_damage

_PROGRESS_EVERY_SECONDS = 0.05


class Task(QObject):
    """One job.  Connect to its signals, then hand it to :meth:`Tasks.start`."""

    progressed = Signal(object)  # a Progress
    succeeded = Signal(object)  # the function's result
    failed = Signal(str)  # a message for the user (the traceback goes to the log)
    cancelled = Signal()
    finished = Signal()  # after any of the three above
    ended = Signal(object)  # this task, last of all: for Tasks' bookkeeping

    def __init__(self, name: str, fn: Callable[..., Any], *args, **kwargs):
        super().__init__()
        self.name = name
        self._fn, self._args, self._kwargs = fn, args, kwargs
        self._cancel = threading.Event()
        self._last_report = 0.0
        self._last_phase = ""

    def cancel(self) -> None:
        """Ask the job to stop at its next safe point; ``cancelled`` follows."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def progress(self, p: Progress) -> bool:
        now = time.monotonic()
        # a new stage always shows: "reading" ends in a burst, then grouping says so at once
        if (now - self._last_report >= _PROGRESS_EVERY_SECONDS or p.phase == "done"
                or p.phase != self._last_phase):
            self._last_report = now
            self._last_phase = p.phase
            self.progressed.emit(p)
        return not self._cancel.is_set()

    def run(self) -> None:
        """Runs on a pool thread."""
        try:
            if self._cancel.is_set():
                raise Cancelled()
            result = self._fn(*self._args, progress=self.progress, **self._kwargs)
        except Cancelled:
            self.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - every failure must reach the user
            logging.getLogger("simgui.tasks").exception("%s failed", self.name)
            self.failed.emit(_message(exc))
        else:
            self.succeeded.emit(result)
        self.finished.emit()
        self.ended.emit(self)


def _message(exc: Exception) -> str:
    if is_damage(exc):
        return QCoreApplication.translate(
            "tasks", "the store is damaged ({error}); your files are not affected: choose "
            "another store file in Edit › Settings, or move this one aside, and scan again",
        ).format(error=exc)
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}"
    return str(exc) or type(exc).__name__


class _Runnable(QRunnable):
    def __init__(self, task: Task):
        super().__init__()
        self.task = task
        self.setAutoDelete(True)

    def run(self) -> None:
        self.task.run()


class Tasks(QObject):
    """Runs tasks one at a time, in order, off the GUI thread."""

    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._running: list[Task] = []

    def start(self, task: Task) -> Task:
        self._running.append(task)  # keeps the QObject alive until it finished
        # a bound method of a QObject living on the GUI thread: a queued call, never a
        # call on the worker thread (a lambda would run where the signal is emitted)
        task.ended.connect(self._done)
        if len(self._running) == 1:
            self.busy_changed.emit(True)
        self._pool.start(_Runnable(task))
        return task

    def _done(self, task: object) -> None:
        self._running.remove(task)
        if not self._running:
            self.busy_changed.emit(False)

    @property
    def busy(self) -> bool:
        return bool(self._running)

    @property
    def running(self) -> list[Task]:
        """The tasks started and not yet ended, the one running first."""
        return list(self._running)

    def cancel_all(self) -> None:
        for task in list(self._running):
            task.cancel()

    def wait(self, msecs: int = -1) -> bool:
        """Block until every task ended (on quit: never leave a store half-written)."""
        return self._pool.waitForDone(msecs)
