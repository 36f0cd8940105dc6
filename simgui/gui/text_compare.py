"""Two text files side by side, line facing line, changed, deleted and inserted lines marked.

The rows come from :func:`simgui.core.search.alignment.compare_text`; a line
present on one side only faces a hatched blank on the other, so the two
columns always hold the same number of rows and scroll together.
"""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QPalette, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QGridLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextEdit, QWidget,
)

from simgui.core.search.alignment import (
    CHANGED_ROW, DELETED_ROW, EQUAL_ROW, INSERTED_ROW, TextComparison, inline_changes,
)
from simgui.core.shown import shown_path
from simgui.core.units import format_bytes
from simgui.gui.hex_compare import _mix, kind_colours
from simgui.gui.message_page import MessageOrPage

LONGEST_LINE = 2000  # characters shown of a line (a minified file is one huge line)
# characters that would start a new line in a QTextDocument, each shown as one visible
# character instead, so rows stay facing and character positions stay put
_BREAKS = str.maketrans({"\r": "\u240d", "\u2028": "\ufffd", "\u2029": "\ufffd",
                         "\ufdd0": "\ufffd", "\ufdd1": "\ufffd"})


class _Lines(QPlainTextEdit):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setUndoRedoEnabled(False)  # read only: no undo history of a megabyte


class TextCompare(MessageOrPage):
    """Two columns of numbered lines; see the module docstring."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.result: TextComparison | None = None
        self.inline: dict[int, tuple[list, list]] = {}  # changed row -> changed characters
        self.columns = (_Lines(), _Lines())
        self.captions = (QLabel(), QLabel())
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.previous_button = QPushButton(self.tr("Previous change"))
        self.next_button = QPushButton(self.tr("Next change"))
        self.previous_button.clicked.connect(lambda: self.go_to_change(False))
        self.next_button.clicked.connect(lambda: self.go_to_change(True))
        self._change_rows = np.zeros(0, np.int64)  # first row of each run of changed rows
        for name in ("verticalScrollBar", "horizontalScrollBar"):  # the two scroll together
            a, b = (getattr(c, name)() for c in self.columns)
            a.valueChanged.connect(b.setValue)
            b.valueChanged.connect(a.setValue)

        page = QWidget()
        grid = QGridLayout(page)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        grid.addLayout(bar, 0, 0, 1, 2)
        for column in (0, 1):
            grid.addWidget(self.captions[column], 1, column)
            grid.addWidget(self.columns[column], 2, column)
        grid.setRowStretch(2, 1)
        self.set_page(page)
        self.show_message("")

    def show_message(self, text: str) -> None:
        """A line in place of the columns: loading, an error, not text."""
        self.result = None
        self.inline = {}
        for column in self.columns:
            column.clear()
            column.setExtraSelections([])
        self.show_text(text)

    def show_comparison(self, result: TextComparison, texts: tuple[str, str] | None = None,
                        inline: dict | None = None) -> None:
        """Show ``result``; ``texts`` are its :func:`column_texts` and ``inline`` its
        :func:`~simgui.core.search.alignment.inline_changes`, if made already (on a
        worker: for a megabyte of short lines that is a good part of the work)."""
        self.result = result
        self.show_page()
        texts = texts or column_texts(result)
        self.inline = inline if inline is not None else inline_changes(result)
        for column, side in enumerate((result.a, result.b)):
            self.columns[column].setPlainText(texts[column])
            name = shown_path(os.path.basename(side.path) or side.path)
            self.captions[column].setText(f"<b>{'AB'[column]}:</b> {_escape(name)}")
            self.captions[column].setToolTip(shown_path(side.path))
        self._mark(result)
        self.summary.setText(self._summary(result))
        changed = result.kind != EQUAL_ROW
        self._change_rows = np.flatnonzero(changed & ~np.concatenate([[False], changed[:-1]]))
        for button in (self.previous_button, self.next_button):
            button.setEnabled(bool(len(self._change_rows)))
        first = int(self._change_rows[0]) if len(self._change_rows) else 0
        self.columns[0].verticalScrollBar().setValue(max(0, first - 3))  # the first change
        self.shown.emit()

    def _summary(self, result: TextComparison) -> str:
        kinds = np.bincount(result.kind, minlength=4)
        if result.changed_rows == 0:
            line = self.tr("The lines shown are the same in both files.")
        else:
            line = self.tr("Lines changed: {changed} · only in A: {deleted} · only in B: "
                           "{inserted}.").format(changed=f"{int(kinds[CHANGED_ROW]):,}",
                                    deleted=f"{int(kinds[DELETED_ROW]):,}",
                                    inserted=f"{int(kinds[INSERTED_ROW]):,}")
        if result.endings_differ:
            line += " " + self.tr("The files end their lines differently (CR LF and LF); "
                                  "lines are compared without their endings.")
        if result.a.encoding != result.b.encoding:
            line += " " + self.tr("A reads as {a}, B as {b}.").format(
                a=result.a.encoding, b=result.b.encoding)
        for letter, side in (("A", result.a), ("B", result.b)):
            if side.cut:
                line += " " + self.tr("Only the first {shown} of {letter} ({size}) are shown."
                                      ).format(shown=format_bytes(side.read), letter=letter,
                                               size=format_bytes(side.size))
        return line

    def _mark(self, result: TextComparison) -> None:
        """One full-width highlight per run of rows of one kind (not one per row)."""
        palette = self.palette()
        colours = kind_colours(palette)
        gap = QBrush(_mix(palette.color(QPalette.ColorRole.Base),
                          palette.color(QPalette.ColorRole.Mid), 0.5), Qt.BrushStyle.BDiagPattern)
        strong = _mix(colours[CHANGED_ROW], QColor(230, 140, 0), 0.6)
        kind = result.kind
        edges = np.flatnonzero(np.diff(np.concatenate([[-1], kind.astype(np.int64), [-1]])))
        for column, numbers in enumerate((result.left, result.right)):
            view = self.columns[column]
            document = view.document()
            selections = []
            for lo, hi in zip(edges[:-1].tolist(), edges[1:].tolist()):
                k = int(kind[lo])
                if k == EQUAL_ROW:
                    continue
                blank = numbers[lo] < 0  # a run of one kind is all blank on one side or none
                cursor = QTextCursor(document.findBlockByNumber(lo))
                end = document.findBlockByNumber(hi - 1)
                # through the last row's line end: a selection ending at a line's start
                # leaves that line unpainted
                stop = min(end.position() + end.length(), document.characterCount() - 1)
                cursor.setPosition(stop, QTextCursor.MoveMode.KeepAnchor)
                selection = QTextEdit.ExtraSelection()
                selection.cursor = cursor
                selection.format.setBackground(gap if blank else colours[k])
                selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                selections.append(selection)
            # the characters that differ within a changed line, in a stronger shade
            skip = self._digits(result) + 2  # the line number and two spaces
            lines = result.lines_a if column == 0 else result.lines_b
            for row, ranges in self.inline.items():
                block = document.findBlockByNumber(row)
                line = lines[int(numbers[row])]
                for start, stop in ranges[column]:
                    start, stop = min(start, LONGEST_LINE), min(stop, LONGEST_LINE)
                    if stop <= start:
                        continue
                    cursor = QTextCursor(block)
                    cursor.setPosition(block.position() + skip + _utf16(line, start))
                    cursor.setPosition(block.position() + skip + _utf16(line, stop),
                                       QTextCursor.MoveMode.KeepAnchor)
                    selection = QTextEdit.ExtraSelection()
                    selection.cursor = cursor
                    selection.format.setBackground(strong)
                    selections.append(selection)
            view.setExtraSelections(selections)

    @property
    def top_row(self) -> int:
        return self.columns[0].verticalScrollBar().value()

    def go_to_change(self, forward: bool) -> int | None:
        """Scroll to the next (or previous) run of changed lines, placed three lines below
        the top; its row, or None if there is none that way."""
        rows, top = self._change_rows, self.top_row + 3
        pick = rows[rows > top] if forward else rows[rows < top]
        if not len(pick):
            return None
        target = int(pick[0] if forward else pick[-1])
        self.columns[0].verticalScrollBar().setValue(max(0, target - 3))
        return target

    @staticmethod
    def _digits(result: TextComparison) -> int:
        return len(str(max(len(result.lines_a), len(result.lines_b), 1)))

    def row_kinds(self) -> list[int]:
        """The kind of each row shown (for tests)."""
        return [] if self.result is None else self.result.kind.tolist()


def column_texts(result: TextComparison) -> tuple[str, str]:
    """The two columns' text: numbered lines, an empty line facing a line of the other side.
    Plain strings, so a worker can make them."""
    digits = TextCompare._digits(result)
    out = []
    for numbers, lines in ((result.left, result.lines_a), (result.right, result.lines_b)):
        rows = []
        for n in numbers.tolist():
            if n < 0:
                rows.append("")
                continue
            line = lines[n].translate(_BREAKS)
            if len(line) > LONGEST_LINE:
                line = line[:LONGEST_LINE] + " …"
            rows.append(f"{n + 1:>{digits}}  {line}")
        out.append("\n".join(rows))
    return out[0], out[1]


def _utf16(line: str, index: int) -> int:
    """Where character ``index`` of ``line`` is in Qt's text, which counts UTF-16 units."""
    if line.isascii():
        return index
    return index + sum(1 for c in line[:index] if ord(c) > 0xFFFF)


def _escape(text: str) -> str:
    from html import escape

    return escape(text.encode("utf-8", "replace").decode("utf-8"))
