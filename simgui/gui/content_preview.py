"""The preview under the difference strip: two files' text side by side, or their bytes in hex.

Text when both files read as text (:func:`simgui.core.search.alignment.text_encoding`),
hex otherwise; either tab can be picked.  What the previews show is read off
the GUI thread (a :class:`simgui.gui.tasks.Task` on this widget's own queue,
so it never waits behind a scan), at most :data:`PREVIEW_BYTES` of each file;
a result for a pair no longer shown is dropped.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from simgui.core.search.alignment import (
    PREVIEW_BYTES, compare_hex, compare_text, inline_changes,
)
from simgui.gui.hex_compare import HexCompare
from simgui.gui.tasks import Task, Tasks
from simgui.gui.text_compare import TextCompare, column_texts

TEXT, HEX = "text", "hex"
_DEBOUNCE_MS = 150  # arrowing through a list reads one pair, not one per row


def load_preview(path_a: str, path_b: str, mode: str, max_bytes: int = PREVIEW_BYTES, *,
                 progress=None):
    """(TEXT, (a TextComparison, its column texts, its inline changes) or None if not
    text) or (HEX, a HexComparison).

    ``mode`` "auto" tries text first and falls back to hex for other files.
    Runs on a worker thread; ``progress`` returning False cancels it.
    """
    if mode in ("auto", TEXT):
        text = compare_text(path_a, path_b, max_bytes=max_bytes, progress=progress)
        if text is not None:
            return TEXT, (text, column_texts(text), inline_changes(text))
        if mode == TEXT:
            return TEXT, None
    return HEX, compare_hex(path_a, path_b, max_bytes=max_bytes, progress=progress)


class _Request(QObject):
    """Carries which pair a task read, so a late answer for another pair is dropped.

    Lives on the GUI thread: its slots are queued calls, never run on the worker.
    """

    def __init__(self, preview: ContentPreview, key: tuple, mode: str):
        super().__init__(preview)
        self.preview, self.key, self.mode = preview, key, mode

    def succeeded(self, result) -> None:
        self.preview._loaded(self.key, self.mode, result)

    def failed(self, message: str) -> None:
        self.preview._failed(self.key, self.mode, message)

    def done(self) -> None:
        self.deleteLater()


class ContentPreview(QWidget):
    """Tabs "Text" and "Hex" for the pair of files the details panel shows."""

    loaded = Signal(str)  # TEXT or HEX: that tab now shows this pair (or why it cannot)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.max_bytes = PREVIEW_BYTES
        self.key: tuple | None = None  # (path, size, mtime_ns) of A and of B
        self.paths: tuple[str, str] | None = None
        self.results: dict[str, object] = {}  # mode -> result for self.key
        self.loading: set[str] = set()
        self.picked = False  # the user chose a tab for this pair: the content does not override
        self.tasks = Tasks(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(_DEBOUNCE_MS)
        self._timer.timeout.connect(self._start)

        self.text = TextCompare()
        self.hex = HexCompare()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.text, self.tr("Text"))
        self.tabs.addTab(self.hex, self.tr("Hex"))
        self.tabs.setTabToolTip(0, self.tr("Both files as text, line facing line"))
        self.tabs.setTabToolTip(1, self.tr("Both files' bytes, lined up after insertions"))
        self.tabs.currentChanged.connect(self._tab_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        self.setMinimumHeight(320)

    @property
    def mode(self) -> str:
        return TEXT if self.tabs.currentWidget() is self.text else HEX

    def view(self, mode: str):
        return self.text if mode == TEXT else self.hex

    def clear(self) -> None:
        """Show nothing (fewer than two files)."""
        self._timer.stop()
        self.tasks.cancel_all()  # a reading for the pair shown before stops, or is dropped
        self.key = self.paths = None
        self.results.clear()
        self.loading.clear()
        self.text.show_message("")
        self.hex.show_message("")

    def set_pair(self, a: tuple[str, int, int], b: tuple[str, int, int]) -> None:
        """Preview files A and B, each given as (path, size, mtime_ns); the same pair as shown
        is not read again."""
        key = (tuple(a), tuple(b))
        if key == self.key:
            return
        self.clear()
        self.key = key
        self.paths = (a[0], b[0])
        self.picked = False
        waiting = self.tr("Reading…")
        self.text.show_message(waiting)
        self.hex.show_message(waiting)
        self._timer.start()

    def _start(self) -> None:
        """Read for the tab in sight; the first time for a pair, let the content pick the tab."""
        if self.key is None:
            return
        first = not self.results and not self.loading and not self.picked
        mode = "auto" if first else self.mode
        if mode in self.results or mode in self.loading:
            return
        self.loading.add(mode)
        request = _Request(self, self.key, mode)
        task = Task(self.tr("Reading for the preview"), load_preview, *self.paths, mode,
                    self.max_bytes)
        task.succeeded.connect(request.succeeded)
        task.failed.connect(request.failed)
        task.finished.connect(request.done)
        self.tasks.start(task)

    def _tab_changed(self, _index: int) -> None:
        if self.key is None:
            return
        self.picked = True
        if not self._timer.isActive():
            self._start()

    def _loaded(self, key: tuple, mode: str, result) -> None:
        if key != self.key:
            return
        self.loading.discard(mode)
        kind, value = result
        self.results[kind] = value
        if kind == TEXT and value is None:
            self._not_text()
        elif kind == TEXT:
            self.text.show_comparison(*value)
        else:
            self.hex.show_comparison(value)
        if mode == "auto":
            if kind == HEX:
                self.results[TEXT] = None
                self._not_text()
            if not self.picked:
                self.tabs.blockSignals(True)
                self.tabs.setCurrentWidget(self.view(kind))
                self.tabs.blockSignals(False)
            if kind == HEX:
                self.loaded.emit(TEXT)
        self.loaded.emit(kind)

    def _not_text(self) -> None:
        self.text.show_message(self.tr(
            "These files are not both text (a NUL byte or many control characters near "
            "the start): the Hex tab shows their bytes."))

    def _failed(self, key: tuple, mode: str, message: str) -> None:
        if key != self.key:
            return
        self.loading.discard(mode)
        text = self.tr("Cannot show a preview: {why}").format(why=message)
        for kind in ((TEXT, HEX) if mode == "auto" else (mode,)):
            self.view(kind).show_message(text)
        self.loaded.emit(self.mode if mode == "auto" else mode)
