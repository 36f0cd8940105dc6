"""Unexpected errors: logged with their traceback, and shown once in a dialog to copy.

No store work happens on the GUI thread and every write is a transaction, so an
error here can lose a view, never the store.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QMessageBox

from simgui.core.logs import log_path

log = logging.getLogger("simgui")


class CrashReporter(QObject):
    """Installed once; errors from any thread are shown on the GUI thread."""

    _report = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._report.connect(self._show)
        self._showing = False
        self.shown: list[str] = []  # what was reported, for tests

    def install(self) -> None:
        sys.excepthook = self.handle
        threading.excepthook = lambda args: self.handle(args.exc_type, args.exc_value,
                                                        args.exc_traceback)

    def handle(self, exc_type, exc, tb) -> None:
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        log.critical("unexpected error\n%s", details)
        self._report.emit(details)  # queued when raised on a worker thread

    def _show(self, details: str) -> None:
        self.shown.append(details)
        if self._showing or QApplication.instance() is None:
            return  # one dialog at a time: an error in a paint loop must not stack dialogs
        self._showing = True
        try:
            box = QMessageBox(QMessageBox.Icon.Critical, self.tr("simgui: unexpected error"),
                              self.tr("Something went wrong inside simgui. Your files and the "
                                      "store are safe: nothing is changed on disk without a "
                                      "finished, journaled step."),
                              QMessageBox.StandardButton.Ok,
                              QApplication.activeWindow())
            box.setInformativeText(
                self.tr("The details are also in the log: {path}").format(path=log_path()))
            box.setDetailedText(details)
            box.exec()
        finally:
            self._showing = False
