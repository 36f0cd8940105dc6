"""A page of content, or one centred line in its place: what the content previews
(Text, Hex) share."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QStackedWidget, QVBoxLayout, QWidget


class MessageOrPage(QWidget):
    """Shows the page given to :meth:`set_page`, or :attr:`message` in its place
    (loading, an error, nothing to show); ``shown`` says either is on screen."""

    shown = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.message = QLabel()
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.message)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.stack)

    def set_page(self, page: QWidget) -> None:
        self.stack.addWidget(page)

    def show_text(self, text: str) -> None:
        """The message line in place of the page."""
        self.message.setText(text)
        self.stack.setCurrentWidget(self.message)
        self.shown.emit()

    def show_page(self) -> None:
        self.stack.setCurrentIndex(1)
