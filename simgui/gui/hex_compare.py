"""Two files' bytes side by side in hex, lined up so that an insertion is one run of gaps.

The cells come from :func:`simgui.core.search.alignment.compare_hex`: each is a
byte of A, a byte of B, or both, with its kind (equal, changed, only in A,
only in B).  Rows are cut from that stream, so after an inserted run the
bytes that follow face their equals again.  Only the rows in sight are
painted, so a megabyte costs no more than a screenful.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractScrollArea, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget,
)

from simgui.core.search.alignment import (
    CHANGED_ROW, DELETED_ROW, EQUAL_ROW, INSERTED_ROW, HexComparison,
)
from simgui.core.units import format_bytes
from simgui.gui.message_page import MessageOrPage


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


def kind_colours(palette: QPalette) -> dict[int, QColor]:
    """Backgrounds of changed, deleted (only in A) and inserted (only in B) cells or lines:
    the usual amber, red and green, toned down to the theme's base colour."""
    base = palette.color(QPalette.ColorRole.Base)
    dark = base.lightnessF() < 0.5
    t = 0.45 if dark else 0.35
    return {CHANGED_ROW: _mix(base, QColor(230, 160, 20), t),
            DELETED_ROW: _mix(base, QColor(220, 50, 50), t),
            INSERTED_ROW: _mix(base, QColor(40, 170, 60), t)}


class HexRows(QAbstractScrollArea):
    """The painted rows: offset, hex and characters of A, then the same of B."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.result: HexComparison | None = None
        self.width_bytes = 16
        self._before_a = np.zeros(1, np.int64)  # bytes of A in the cells before each cell
        self._before_b = np.zeros(1, np.int64)
        self._changed_rows = np.zeros(0, np.int64)  # first row of each run of changed rows
        self.verticalScrollBar().setSingleStep(1)

    def sizeHint(self) -> QSize:
        return QSize(600, 300)

    def set_result(self, result: HexComparison | None) -> None:
        self.result = result
        if result is not None:
            self._before_a = np.concatenate([[0], np.cumsum(result.byte_a >= 0)])
            self._before_b = np.concatenate([[0], np.cumsum(result.byte_b >= 0)])
        self._layout()
        self.verticalScrollBar().setValue(0)
        self.horizontalScrollBar().setValue(0)

    # geometry -----------------------------------------------------------------

    def _char(self) -> float:
        return self.fontMetrics().horizontalAdvance("0")

    def _side_chars(self, width: int) -> int:
        return 8 + 2 + 3 * width + 1 + width  # offset, hex, characters

    def _total_chars(self, width: int) -> int:
        return 2 * self._side_chars(width) + 3

    @property
    def rows(self) -> int:
        if self.result is None:
            return 0
        return -(-len(self.result.kind) // self.width_bytes)

    def _visible_rows(self) -> int:
        return max(1, self.viewport().height() // self.fontMetrics().lineSpacing())

    def _layout(self) -> None:
        """Bytes per row (16, 8 or 4: the most that fit), scroll ranges, rows with changes."""
        available = self.viewport().width() / max(1.0, self._char())
        self.width_bytes = next((w for w in (16, 8) if available >= self._total_chars(w)), 4)
        rows = self.rows
        bar = self.verticalScrollBar()
        bar.setRange(0, max(0, rows - self._visible_rows()))
        bar.setPageStep(self._visible_rows())
        total = int(self._total_chars(self.width_bytes) * self._char()) + 8
        hbar = self.horizontalScrollBar()
        hbar.setRange(0, max(0, total - self.viewport().width()))
        hbar.setPageStep(self.viewport().width())
        if self.result is not None and rows:
            w = self.width_bytes
            kind = np.full(rows * w, EQUAL_ROW, np.uint8)
            kind[:len(self.result.kind)] = self.result.kind
            changed = (kind.reshape(rows, w) != EQUAL_ROW).any(axis=1)
            starts = changed & ~np.concatenate([[False], changed[:-1]])
            self._changed_rows = np.flatnonzero(starts)
        else:
            self._changed_rows = np.zeros(0, np.int64)
        self.viewport().update()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        top_cell = self.verticalScrollBar().value() * self.width_bytes
        self._layout()
        self.verticalScrollBar().setValue(top_cell // self.width_bytes)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    # navigation ---------------------------------------------------------------

    @property
    def change_rows(self) -> np.ndarray:
        """The first row of each run of rows holding a change."""
        return self._changed_rows

    def go_to_change(self, forward: bool) -> int | None:
        """Scroll to the next (or previous) run of changes; its row, or None if none."""
        rows = self._changed_rows
        top = self.verticalScrollBar().value()
        if forward:
            later = rows[rows > top + 2] if len(rows) else rows
            target = int(later[0]) if len(later) else None
        else:
            earlier = rows[rows < top + 2] if len(rows) else rows
            target = int(earlier[-1]) if len(earlier) else None
        if target is not None:
            self.verticalScrollBar().setValue(max(0, target - 2))
        return target

    # painting -----------------------------------------------------------------

    def row_text(self, row: int) -> tuple[str, str]:
        """Row ``row`` of A and of B as text, two spaces for a gap (for tests and copying)."""
        return self._side_text(row, 0), self._side_text(row, 1)

    def _cells(self, row: int):
        w = self.width_bytes
        lo = row * w
        hi = min(lo + w, len(self.result.kind))
        return lo, hi

    def _side_text(self, row: int, side: int) -> str:
        lo, hi = self._cells(row)
        values = (self.result.byte_a if side == 0 else self.result.byte_b)[lo:hi]
        before = (self._before_a if side == 0 else self._before_b)[lo]
        present = values >= 0
        offset = f"{int(before):08x}" if present.any() else " " * 8
        hexes = " ".join(f"{int(v):02x}" if v >= 0 else "  " for v in values)
        hexes += "   " * (self.width_bytes - len(values))
        chars = "".join((chr(int(v)) if 0x20 <= v < 0x7F else ".") if v >= 0 else " "
                        for v in values)
        return f"{offset}  {hexes} {chars}".ljust(self._side_chars(self.width_bytes))

    def paintEvent(self, event) -> None:
        painter = QPainter(self.viewport())
        palette = self.palette()
        painter.fillRect(self.viewport().rect(), palette.color(QPalette.ColorRole.Base))
        if self.result is None:
            return
        fm = self.fontMetrics()
        cw = self._char()
        lh = fm.lineSpacing()
        colours = kind_colours(palette)
        gap = QBrush(_mix(palette.color(QPalette.ColorRole.Base),
                          palette.color(QPalette.ColorRole.Mid), 0.5), Qt.BrushStyle.BDiagPattern)
        text = palette.color(QPalette.ColorRole.Text)
        muted = _mix(text, palette.color(QPalette.ColorRole.Base), 0.45)
        x0 = 4 - self.horizontalScrollBar().value()
        first = self.verticalScrollBar().value()
        w = self.width_bytes
        side_width = self._side_chars(w)
        for index in range(self._visible_rows() + 1):
            row = first + index
            if row >= self.rows:
                break
            y = index * lh
            lo, hi = self._cells(row)
            for side in (0, 1):
                left = x0 + side * (side_width + 3) * cw
                values = (self.result.byte_a if side == 0 else self.result.byte_b)[lo:hi]
                kinds = self.result.kind[lo:hi]
                for k, (value, kind) in enumerate(zip(values, kinds)):
                    if kind == EQUAL_ROW:
                        continue
                    hx = QRectF(left + (10 + 3 * k) * cw - cw / 2, y, 3 * cw, lh)
                    ch = QRectF(left + (10 + 3 * w + 1 + k) * cw, y, cw, lh)
                    if value < 0:
                        painter.fillRect(hx, gap)
                        painter.fillRect(ch, gap)
                    else:
                        painter.fillRect(hx, colours[int(kind)])
                        painter.fillRect(ch, colours[int(kind)])
                line = self._side_text(row, side)
                painter.setPen(muted)
                painter.drawText(QRectF(left, y, 8 * cw + 1, lh), int(Qt.AlignmentFlag.AlignLeft),
                                 line[:8])
                painter.setPen(text)
                painter.drawText(QRectF(left + 10 * cw, y, (side_width - 10) * cw + 1, lh),
                                 int(Qt.AlignmentFlag.AlignLeft), line[10:])
            sep = x0 + (side_width + 1) * cw
            painter.setPen(palette.color(QPalette.ColorRole.Mid))
            painter.drawLine(int(sep), int(y), int(sep), int(y + lh))


class HexCompare(MessageOrPage):
    """The hex rows with a line about what differs, a legend and change-to-change buttons."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows = HexRows()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.legend = QLabel()
        self.previous_button = QPushButton(self.tr("Previous change"))
        self.next_button = QPushButton(self.tr("Next change"))
        self.previous_button.clicked.connect(lambda: self.rows.go_to_change(False))
        self.next_button.clicked.connect(lambda: self.rows.go_to_change(True))

        bar = QHBoxLayout()
        bar.addWidget(self.legend, 1)
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addLayout(bar)
        layout.addWidget(self.rows, 1)
        self.set_page(page)
        self.show_message("")

    def show_message(self, text: str) -> None:
        """A line in place of the rows: loading, an error, nothing to show."""
        self.rows.set_result(None)
        self.show_text(text)

    def show_comparison(self, result: HexComparison) -> None:
        self.show_page()
        self.rows.set_result(result)
        kinds = np.bincount(result.kind, minlength=4)
        if not kinds[CHANGED_ROW] and not kinds[DELETED_ROW] and not kinds[INSERTED_ROW]:
            line = self.tr("The bytes shown are the same in both files.")
        else:
            line = self.tr("Bytes changed: {changed} · only in A: {deleted} · only in B: "
                           "{inserted}. The rest lines up.").format(
                changed=f"{int(kinds[CHANGED_ROW]):,}", deleted=f"{int(kinds[DELETED_ROW]):,}",
                inserted=f"{int(kinds[INSERTED_ROW]):,}")
        for letter, side in (("A", result.a), ("B", result.b)):
            if side.cut:
                line += " " + self.tr("Only the first {shown} of {letter} ({size}) are shown."
                                      ).format(shown=format_bytes(side.read), letter=letter,
                                               size=format_bytes(side.size))
        self.summary.setText(line)
        self._fill_legend()
        has_changes = bool(len(self.rows.change_rows))
        self.previous_button.setEnabled(has_changes)
        self.next_button.setEnabled(has_changes)
        if has_changes:  # the first change in sight, with two rows before it
            self.rows.verticalScrollBar().setValue(max(0, int(self.rows.change_rows[0]) - 2))
        self.shown.emit()

    def _fill_legend(self) -> None:
        colours = kind_colours(self.palette())
        names = {CHANGED_ROW: self.tr("changed"), DELETED_ROW: self.tr("only in A"),
                 INSERTED_ROW: self.tr("only in B")}
        self.legend.setText("  ".join(
            f'<span style="background-color:{colours[k].name()}">&nbsp;&nbsp;&nbsp;</span>'
            f"&nbsp;{names[k]}" for k in (CHANGED_ROW, DELETED_ROW, INSERTED_ROW)))
