"""The details panel: one file's metadata and sum table, or two files side by side.

The panel never reads files itself: comparing contents can take seconds, so
it asks for a comparison with ``compare_requested`` and the main window runs
:func:`simgui.core.search.differences.compare_files` in a worker and hands the result
(or an error message) to :meth:`DetailsPanel.show_differences`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView, QFrame, QGridLayout, QHBoxLayout, QHeaderView, QLabel, QPushButton,
    QScrollArea, QSizePolicy, QStackedWidget, QTableWidget, QTableWidgetItem, QToolTip,
    QVBoxLayout, QWidget,
)

from simgui.core.search.differences import Differences
from simgui.core.shown import shown_path
from simgui.core.tags import DEFAULT_TAGS, validate_tags
from simgui.core.units import format_bytes, format_share
from simgui.gui.content_preview import ContentPreview
from simgui.gui.picture_compare import PictureCompare, is_picture_path

AUTO_COMPARE_LIMIT = 64 * 1000 * 1000  # larger files are compared only on request
DIFFERS_ROLE = Qt.ItemDataRole.UserRole + 1  # True on the sum-table rows that differ
_DEBOUNCE_MS = 150  # arrowing through a list asks for one comparison, not one per row


@dataclass(frozen=True, eq=False)  # eq=False: the table is an array
class FileDetails:
    """What the panel shows about one file (all of it known without reading the file)."""

    path: str
    size: int
    mtime_ns: int
    table: np.ndarray  # (16,) sum table, in tag order
    key: float
    extension: str
    identical: bool | None = None  # to the group's reference; None outside a group
    similarity: float | None = None  # percent
    key_distance: float | None = None
    sum_distance: int | None = None
    role: str = ""  # "reference" / "member" / ""

    @classmethod
    def from_member(cls, member, table: np.ndarray, key: float, extension: str,
                    reference: bool = False) -> FileDetails:
        """From a :class:`simgui.core.search.groups.Member` and its stored table and key."""
        return cls(member.path, member.size, member.mtime_ns, np.asarray(table), float(key),
                   extension, member.identical, member.similarity, member.key_distance,
                   member.sum_distance, "reference" if reference else "member")


# a file's role as the details name it (context "DetailsPanel")
_ROLES = {"reference": QT_TRANSLATE_NOOP("DetailsPanel", "reference"),
          "member": QT_TRANSLATE_NOOP("DetailsPanel", "member")}


def _percent(value: float) -> str:
    """A share in percent that never rounds a little to nothing or nearly all to all."""
    if 0 < value < 0.1:
        return "< 0.1 %"
    if 99.9 < value < 100:
        return "> 99.9 %"
    return f"{value:.1f} %"


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


def _sum_distance(a: FileDetails, b: FileDetails) -> int:
    """The L1 distance of two files' sum tables."""
    return int(np.abs(np.asarray(a.table, np.int64) - np.asarray(b.table, np.int64)).sum())


def summary(result: Differences) -> str:
    """'A: 3.1 % changed, B: 0.4 % changed (in 64-byte blocks ...)'.

    Said in blocks, because one changed byte makes its whole block "not found":
    0.2 % of bytes changed, scattered, can be 12 % of the blocks.
    """
    return QCoreApplication.translate(
        "DetailsPanel", "A: {a} changed, B: {b} changed (share of {block}-byte blocks not "
        "found in the other file)").format(a=_percent(result.percent_changed_a),
                                           b=_percent(result.percent_changed_b),
                                           block=result.block)


class _ElidedLabel(QLabel):
    """A label that shortens its text in the middle (paths) and shows it whole as a tooltip."""

    def __init__(self, text: str, parent=None):
        super().__init__(text, parent)
        self.setToolTip(text)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)

    def minimumSizeHint(self) -> QSize:
        height = super().minimumSizeHint().height()
        return QSize(self.fontMetrics().horizontalAdvance("…") * 4, height)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle,
                                             rect.width())
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(rect, int(self.alignment()), text)


class DiffStrip(QWidget):
    """Two bars, A over B, each cell shaded by the share of it not found in the other file.

    Bar lengths follow the file sizes, so an insertion shows as a longer bar.
    Cells past the compared prefix of a large file are hatched.
    """

    BAR = 18
    GAP = 8

    def __init__(self, parent=None):
        super().__init__(parent)
        self.result: Differences | None = None
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(self.sizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(400, 2 * self.BAR + 2 * self.GAP + self.fontMetrics().height() + 4)

    def set_result(self, result: Differences | None) -> None:
        self.result = result
        self.setToolTip(summary(result) if result is not None else "")
        self.update()

    # geometry -----------------------------------------------------------------

    def _label_width(self) -> int:
        return self.fontMetrics().horizontalAdvance("B") + 10

    def _bar_rect(self, which: int) -> QRectF:
        """Bar 0 (A) or 1 (B), its length in proportion to its file's size."""
        r = self.result
        full = max(1, self.width() - self._label_width() - 1)
        sizes = (r.size_a, r.size_b) if r is not None else (1, 1)
        length = full * (sizes[which] / max(sizes)) if max(sizes) else full
        return QRectF(self._label_width(), 1 + which * (self.BAR + self.GAP), max(2.0, length),
                      self.BAR)

    def _colours(self) -> tuple[QColor, QColor, QColor]:
        palette = self.palette()
        strong = palette.color(QPalette.ColorRole.Highlight)
        calm = _mix(palette.color(QPalette.ColorRole.Base), strong, 0.12)
        return calm, strong, palette.color(QPalette.ColorRole.Mid)

    # painting -----------------------------------------------------------------

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        calm, strong, mid = self._colours()
        r = self.result
        for which, name in enumerate("AB"):
            rect = self._bar_rect(which)
            painter.setPen(text)
            painter.drawText(QRectF(0, rect.top(), self._label_width() - 6, rect.height()),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), name)
            if r is None:
                painter.fillRect(rect, calm)
                continue
            cells = r.changed_a if which == 0 else r.changed_b
            n = len(cells)
            for i, value in enumerate(cells):
                x0 = rect.left() + rect.width() * i / n
                x1 = rect.left() + rect.width() * (i + 1) / n
                cell = QRectF(x0, rect.top(), max(1.0, x1 - x0), rect.height())
                if math.isnan(value):
                    painter.fillRect(cell, QBrush(mid, Qt.BrushStyle.BDiagPattern))
                else:
                    # any change at all stays visible: a 64-byte block in a cell of 1 MB
                    shade = 0.0 if value <= 0 else 0.45 + 0.55 * float(value)
                    painter.fillRect(cell, _mix(calm, strong, shade))
            painter.setPen(QPen(mid, 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
            size = r.size_a if which == 0 else r.size_b
            if r.first_difference is not None and size:
                # a tick at the first positional difference
                x = rect.left() + rect.width() * min(1.0, r.first_difference / size)
                painter.setPen(QPen(text, 2))
                painter.drawLine(QPointF(x, rect.top() - 1), QPointF(x, rect.bottom() + 1))
        self._paint_legend(painter, 1 + 2 * (self.BAR + self.GAP) - 2, calm, strong, mid, text)

    def _paint_legend(self, painter, y, calm, strong, mid, text) -> None:
        fm = self.fontMetrics()
        x = float(self._label_width())
        box = fm.height() * 0.7
        items = [(calm, self.tr("same content in the other file")),
                 (strong, self.tr("not found in the other file"))]
        if self.result is not None and self.result.truncated:
            items.append((None, self.tr("not compared")))
        for colour, label in items:
            swatch = QRectF(x, y + (fm.height() - box) / 2, box, box)
            if colour is None:
                painter.fillRect(swatch, QBrush(mid, Qt.BrushStyle.BDiagPattern))
            else:
                painter.fillRect(swatch, colour)
            painter.setPen(QPen(mid, 1))
            painter.drawRect(swatch)
            painter.setPen(text)
            x += box + 4
            painter.drawText(QPointF(x, y + fm.ascent()), label)
            x += fm.horizontalAdvance(label) + 14
        if self.result is not None and self.result.first_difference is not None:
            painter.setPen(QPen(text, 2))
            painter.drawLine(QPointF(x + 2, y + 1), QPointF(x + 2, y + fm.height() - 1))
            painter.setPen(text)
            painter.drawText(QPointF(x + 8, y + fm.ascent()), self.tr("first difference"))

    # tooltips -----------------------------------------------------------------

    def cell_text(self, which: int, x: float) -> str | None:
        """What the cell of bar ``which`` under ``x`` holds, for its tooltip."""
        r = self.result
        if r is None:
            return None
        rect = self._bar_rect(which)
        if not rect.left() <= x < rect.right():
            return None
        cells = r.changed_a if which == 0 else r.changed_b
        size = r.size_a if which == 0 else r.size_b
        i = min(len(cells) - 1, int((x - rect.left()) / rect.width() * len(cells)))
        lo = i * size // len(cells)
        hi = max((i + 1) * size // len(cells), lo + 1)
        name, other = ("A", "B") if which == 0 else ("B", "A")
        where = self.tr("{name}, bytes {lo:,}–{hi:,}").format(name=name, lo=lo,
                                                              hi=min(hi, size) - 1)
        if math.isnan(cells[i]):
            compared = format_bytes(r.compared_a if which == 0 else r.compared_b)
            return self.tr("{where}: not compared (only the first {compared} were)").format(
                where=where, compared=compared)
        return self.tr("{where}: {percent} not found in {other}").format(
            where=where, percent=_percent(100 * float(cells[i])), other=other)

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            pos = event.position() if hasattr(event, "position") else QPointF(event.pos())
            for which in (0, 1):
                rect = self._bar_rect(which)
                if rect.top() <= pos.y() <= rect.bottom():
                    text = self.cell_text(which, pos.x())
                    if text:
                        QToolTip.showText(event.globalPos(), f"{text}\n{self.toolTip()}", self)
                        return True
        return super().event(event)


class DetailsPanel(QWidget):
    """Details of the selected files; compares the first two when asked (see the module)."""

    #: the two paths, as objects: a Qt string would drop the bytes of a name that are not
    #: UTF-8 (held as surrogate escapes), and the comparison would read another file
    compare_requested = Signal(object, object)

    def __init__(self, parent=None, *, tags=DEFAULT_TAGS):
        super().__init__(parent)
        self.tags = validate_tags(tags)
        self.auto_compare_limit = AUTO_COMPARE_LIMIT
        #: the groups come from the pictures method: a similarity says how alike two
        #: pictures look (they may share no byte), and key and sum distances mean nothing
        self.pictures_method = False
        self.files: list[FileDetails] = []
        self.pair_similarity: float | None = None  # two files of different groups: theirs
        self.pending: tuple[str, str] | None = None  # pair asked for, result not in yet
        self.result: Differences | None = None
        self._cache: tuple[tuple, Differences] | None = None  # last result, by pair identity
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(_DEBOUNCE_MS)
        self._timer.timeout.connect(self._emit_request)

        self.empty_label = QLabel()
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)

        self.title = _ElidedLabel("")
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.meta = QWidget()
        self.meta_layout = QGridLayout(self.meta)
        self.meta_layout.setContentsMargins(0, 0, 0, 0)
        self.meta_layout.setHorizontalSpacing(16)
        self.meta_layout.setVerticalSpacing(4)

        # where they differ
        self.diff_section = QWidget()
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail_label = QLabel()
        self.detail_label.setWordWrap(True)
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.compare_button = QPushButton(self.tr("Compare contents"))
        self.compare_button.setToolTip(self.tr("Read both files and show where their contents "
                                               "differ"))
        self.compare_button.clicked.connect(self.request_comparison)
        self.strip = DiffStrip()
        head = QHBoxLayout()
        head.addWidget(self._heading(self.tr("Where they differ")))
        head.addStretch(1)
        head.addWidget(self.compare_button)
        diff_layout = QVBoxLayout(self.diff_section)
        diff_layout.setContentsMargins(0, 0, 0, 0)
        diff_layout.addLayout(head)
        diff_layout.addWidget(self.status_label)
        diff_layout.addWidget(self.strip)
        diff_layout.addWidget(self.detail_label)
        # both files as text side by side, or their bytes lined up in hex
        self.preview = ContentPreview()
        diff_layout.addWidget(self.preview)

        # pictures: both shown when every file shown is one
        self.picture_section = QWidget()
        self.pictures = PictureCompare()
        picture_layout = QVBoxLayout(self.picture_section)
        picture_layout.setContentsMargins(0, 0, 0, 0)
        picture_layout.addWidget(self._heading(self.tr("Pictures")))
        picture_layout.addWidget(self.pictures)

        # sum tables
        self.table_heading = self._heading(self.tr("Sum table"))
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.table_note = QLabel()
        self.table_note.setWordWrap(True)

        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setSpacing(8)
        layout.addWidget(self.title)
        layout.addWidget(self.note)
        layout.addWidget(self.meta)
        layout.addSpacing(6)
        layout.addWidget(self.picture_section)
        layout.addWidget(self.diff_section)
        layout.addSpacing(6)
        layout.addWidget(self.table_heading)
        layout.addWidget(self.table)
        layout.addWidget(self.table_note)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)

        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(scroll)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.stack)
        self._refresh_empty()
        self.show_files([])

    @staticmethod
    def _heading(text: str) -> QLabel:
        label = QLabel(text)
        font = label.font()
        font.setBold(True)
        label.setFont(font)
        return label

    def _muted(self) -> QColor:
        """Secondary text: between the text and background colours, readable in any theme."""
        palette = self.palette()
        return _mix(palette.color(QPalette.ColorRole.WindowText),
                    palette.color(QPalette.ColorRole.Window), 0.4)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "files"):
            # a light/dark switch: recolour what was coloured by hand
            self._refresh_empty()
            if self.files:
                self._fill_meta(self.files[:2])
                self._fill_table(self.files[:2])
                if self.result is not None:
                    self._show_result(self.result)

    def _refresh_empty(self) -> None:
        muted = self._muted().name()
        self.empty_label.setText(
            f'<p style="color:{muted}; font-size:large">'
            + self.tr("Select a file to see its details") + "</p>"
            f'<p style="color:{muted}">'
            + self.tr("Select two to see where their contents differ.") + "</p>")
        self.note.setStyleSheet(f"color: {muted};")

    def set_tags(self, tags) -> None:
        """The tag set the shown sum tables were counted with."""
        self.tags = validate_tags(tags)
        self.show_files(self.files, self.pair_similarity)

    # showing files ------------------------------------------------------------

    def show_files(self, files: list[FileDetails], similarity: float | None = None) -> None:
        """Show nothing, one file, or the first two of several side by side;
        ``similarity``: of two files not compared through one group's reference, the
        one measured between them."""
        self.files = list(files)
        self.pair_similarity = similarity
        self._timer.stop()
        self.pending = None
        self.result = None
        if not self.files:
            self.preview.clear()
            self.stack.setCurrentIndex(0)
            return
        self.stack.setCurrentIndex(1)
        shown = self.files[:2]
        if len(shown) == 1:
            self.title.setText(shown_path(os.path.basename(shown[0].path) or shown[0].path))
            self.title.setToolTip(shown_path(shown[0].path))
            self.title.update()
            self.note.setVisible(False)
        else:
            names = [shown_path(os.path.basename(f.path) or f.path) for f in shown]
            self.title.setText(self.tr("{a}  vs  {b}").format(a=names[0], b=names[1]))
            self.title.setToolTip(f"A: {shown_path(shown[0].path)}\nB: {shown_path(shown[1].path)}")
            self.title.update()
            more = len(self.files) - 2
            self.note.setText(self.tr("{n} files selected; the first two are shown.").format(
                n=len(self.files)) if more else "")
            self.note.setVisible(bool(more))
        self._fill_meta(shown)
        self._fill_table(shown)
        pictures = all(is_picture_path(f.path) for f in shown)
        self.picture_section.setVisible(pictures)
        if pictures:
            self.pictures.show_pictures([(f.path, f.size) for f in shown])
        self.diff_section.setVisible(len(shown) == 2)
        if len(shown) == 2:
            self._start_comparison(shown[0], shown[1])
            self.preview.set_pair(*((f.path, f.size, f.mtime_ns) for f in shown))
        else:
            self.preview.clear()

    def _fill_meta(self, files: list[FileDetails]) -> None:
        grid = self.meta_layout
        while grid.count():
            widget = grid.takeAt(0).widget()
            if widget is not None:
                widget.hide()  # now: deleteLater alone would leave it painted until the next loop
                widget.deleteLater()
        two = len(files) == 2
        row = 0
        if two:
            for column, (name, f) in enumerate(zip("AB", files), start=1):
                role = f" · {self._role(f.role)}" if f.role else ""
                grid.addWidget(self._heading(f"{name}{role}"), row, column)
            row += 1
        rows: list[tuple[str, list[str], bool]] = [
            (self.tr("Name"), [shown_path(os.path.basename(f.path)) for f in files], True),
            (self.tr("Folder"), [shown_path(os.path.dirname(f.path)) for f in files], True),
            (self.tr("Size"), [self.tr("{size} ({n:,} bytes)").format(
                size=format_bytes(f.size), n=f.size) for f in files], False),
            (self.tr("Modified"), [self._when(f.mtime_ns) for f in files], False),
            (self.tr("Extension"), [f.extension or self.tr("(none)") for f in files], False),
            (self.tr("Key"), [f"{f.key:,.1f}" for f in files], False),
        ]
        if not two and files[0].role:
            rows.append((self.tr("Role"), [self._role(files[0].role)], False))
        if two and not any(f.role for f in files):
            # two files of different groups (or of none): their own figures
            a, b = files
            share = self.pair_similarity
            if share is not None:
                rows.append((self.tr("Similarity"), [self._share(share == 100.0, share)],
                             False))
            if not self.pictures_method:
                rows.append((self.tr("A to B"), [self.tr(
                    "key distance {key:,.1f} · sum distance {sum:,}").format(
                        key=abs(a.key - b.key), sum=_sum_distance(a, b))], False))
        if any(f.role == "member" for f in files):
            # two members are each measured against their reference: say so, and
            # measure them against each other too
            both = two and all(f.role == "member" for f in files)
            rows.append((self.tr("Similarity to reference") if both else self.tr("Similarity"),
                         [self._similarity(f) for f in files], False))
            rows += [] if self.pictures_method else [
                (self.tr("Key distance to reference") if both else self.tr("Key distance"),
                 ["" if f.key_distance is None or f.role == "reference"
                  else f"{f.key_distance:,.1f}" for f in files], False),
                (self.tr("Sum distance to reference") if both else self.tr("Sum distance"),
                 ["" if f.sum_distance is None or f.role == "reference"
                  else f"{f.sum_distance:,}" for f in files], False),
            ]
            if both:
                a, b = files
                apart = _sum_distance(a, b)
                # equal tables say nothing of equal contents: the strip below compares;
                # the share in common is each file's to the reference, above
                similar = self.tr("equal sum tables · ") if apart == 0 else ""
                rows.append((self.tr("A to B"), [similar + self.tr(
                    "key distance {key:,.1f} · sum distance {sum:,}").format(
                        key=abs(a.key - b.key), sum=apart)], False))
        for label, values, elide in rows:
            name = QLabel(label)
            name.setStyleSheet(f"color: {self._muted().name()};")
            grid.addWidget(name, row, 0, Qt.AlignmentFlag.AlignTop)
            for column, value in enumerate(values, start=1):
                widget = _ElidedLabel(value) if elide else QLabel(value)
                if not elide:
                    widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                    widget.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
                span = 2 if two and len(values) == 1 else 1  # one value about both files
                grid.addWidget(widget, row, column, 1, span)
            row += 1
        grid.setColumnStretch(0, 0)
        for column in (1, 2):
            grid.setColumnStretch(column, 1 if column <= len(files) else 0)

    @staticmethod
    def _when(mtime_ns: int) -> str:
        return datetime.fromtimestamp(mtime_ns / 1e9).strftime("%Y-%m-%d %H:%M:%S")

    @staticmethod
    def _role(role: str) -> str:
        """A file's role as shown: "reference" or "member", translated."""
        return QCoreApplication.translate("DetailsPanel", _ROLES.get(role, role))

    def _similarity(self, f: FileDetails) -> str:
        if f.role == "reference":
            return QCoreApplication.translate("DetailsPanel", "reference")
        return self._share(f.identical, f.similarity)

    def _share(self, identical: bool | None, similarity: float | None) -> str:
        """A similarity as the panel says it: identical, a share, or unknown."""
        if identical:
            return QCoreApplication.translate("DetailsPanel", "identical (100 %)")
        if similarity is None:
            return ""
        if similarity != similarity:  # NaN: no fingerprints to estimate it from
            return QCoreApplication.translate("DetailsPanel", "unknown (scan again)")
        text = (QCoreApplication.translate("DetailsPanel", "{percent} % alike")
                if self.pictures_method else
                QCoreApplication.translate("DetailsPanel", "{percent} % in common"))
        return text.format(percent=format_share(similarity, 2))

    def _fill_table(self, files: list[FileDetails]) -> None:
        two = len(files) == 2
        table = self.table
        table.clear()
        headers = [self.tr("Tag"), "A", "B", "B − A"] if two else [self.tr("Tag"),
                                                                   self.tr("Count")]
        table.setColumnCount(len(headers))
        table.setHorizontalHeaderLabels(headers)
        table.setRowCount(len(self.tags))
        counts = [np.asarray(f.table, dtype=np.int64) for f in files]
        highlight = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        highlight.setAlphaF(0.2)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        bold = QFont(table.font())
        bold.setBold(True)
        differing = 0
        for row, tag in enumerate(self.tags):
            char = self.tr(", character {char}").format(char=repr(chr(tag))) \
                if 0x20 <= tag < 0x7F else ""
            cells = [QTableWidgetItem(f"0x{tag:02x}")]
            cells[0].setToolTip(self.tr("Tag 0x{tag:02x}: bits {tag:08b}{char}").format(
                tag=tag, char=char))
            values = [int(c[row]) for c in counts]
            cells += [QTableWidgetItem(f"{v:,}") for v in values]
            differs = two and values[0] != values[1]
            if two:
                delta = values[1] - values[0]
                cells.append(QTableWidgetItem(f"{delta:+,}" if delta else "0"))
            for column, item in enumerate(cells):
                if column:
                    item.setTextAlignment(right)
                item.setData(DIFFERS_ROLE, differs)
                if differs:
                    item.setBackground(highlight)
                    if column == len(cells) - 1:
                        item.setFont(bold)
                table.setItem(row, column, item)
            differing += differs
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        table.resizeRowsToContents()
        height = header.height() + sum(table.rowHeight(r) for r in range(table.rowCount()))
        table.setFixedHeight(height + 2 * table.frameWidth())
        # one narrow column pair reads better than a count far from its tag
        table.setMaximumWidth(16777215 if two else table.fontMetrics().horizontalAdvance("0" * 36))
        self.table_heading.setText(self.tr("Sum tables") if two else self.tr("Sum table"))
        if two:
            distance = int(np.abs(counts[0] - counts[1]).sum())
            self.table_note.setText(
                self.tr("{n} of {total} counts differ; sum-table distance (L1) {distance:,}.")
                .format(n=differing, total=len(self.tags), distance=distance) if differing else
                self.tr("The sum tables are equal."))
        else:
            self.table_note.setText(self.tr("{n:,} counted tag matches.").format(
                n=int(counts[0].sum())))

    # comparing ----------------------------------------------------------------

    @staticmethod
    def _identity(a: FileDetails, b: FileDetails) -> tuple:
        return a.path, b.path, a.size, b.size, a.mtime_ns, b.mtime_ns

    def _start_comparison(self, a: FileDetails, b: FileDetails) -> None:
        self._show_result(None)
        if self._cache is not None and self._cache[0] == self._identity(a, b):
            self._show_result(self._cache[1])  # same pair as last time: no need to read again
            return
        if max(a.size, b.size) > self.auto_compare_limit:
            self.status_label.setText(self.tr(
                "Large files ({a} and {b}) are compared only on request: press “Compare "
                "contents”.").format(a=format_bytes(a.size), b=format_bytes(b.size)))
            self.compare_button.setEnabled(True)
            return
        self._set_comparing((a.path, b.path))
        self._timer.start()

    @property
    def comparison_scheduled(self) -> bool:
        """A comparison will be asked for once the selection rests (the debounce runs)."""
        return self._timer.isActive()

    def request_comparison(self) -> None:
        """Ask for the first two shown files to be compared now."""
        if len(self.files) < 2:
            return
        self._set_comparing((self.files[0].path, self.files[1].path))
        self._emit_request()

    def _set_comparing(self, pair: tuple[str, str]) -> None:
        self.pending = pair
        self.status_label.setText(self.tr("Comparing…"))
        self.strip.setVisible(True)  # empty bars hold the place: less jumping when done
        self.compare_button.setEnabled(False)

    def _emit_request(self) -> None:
        self._timer.stop()
        if self.pending is not None:
            self.compare_requested.emit(*self.pending)

    def show_differences(self, result: Differences | str) -> None:
        """Show a comparison's result, or an error message in its place.

        A result for another pair than the one shown (the selection moved on
        while a worker compared) is ignored, as is an error nobody waits for.
        """
        if len(self.files) < 2:
            return
        a, b = self.files[0], self.files[1]
        if isinstance(result, str):
            if self.pending is None:
                return
            self.pending = None
            self._show_result(None)
            self.status_label.setText(self.tr("Could not compare the contents: {error}").format(
                error=result))
            self.status_label.setStyleSheet(
                f"color: {self.palette().color(QPalette.ColorRole.LinkVisited).name()};")
            self.compare_button.setEnabled(True)
            return
        if (result.path_a, result.path_b) != (a.path, b.path):
            return
        self.pending = None
        self._cache = (self._identity(a, b), result)
        self._show_result(result)

    def _show_result(self, result: Differences | None) -> None:
        self.result = result
        self.status_label.setStyleSheet("")
        self.strip.set_result(result)
        self.compare_button.setEnabled(self.pending is None)
        if result is None:
            self.status_label.setText("")
            self.strip.setVisible(False)
            self.detail_label.setVisible(False)
            return
        if result.identical:
            self.status_label.setText(self.tr("The contents are identical."))
            self.strip.setVisible(False)
            self.detail_label.setVisible(False)
            return
        text = summary(result)
        if self.pictures_method:  # two pictures may look alike and share no byte
            text += self.tr(". These are the files' bytes: a picture saved again shares few "
                            "of them with its original even when the two look the same.")
        self.status_label.setText(text)
        self.strip.setVisible(True)
        first = result.first_difference
        details = [self.tr("First difference at byte {first:,} (0x{first:x})").format(
            first=first)]
        common = result.common_bytes
        details.append(self.tr("about {size} of content in common").format(
            size=format_bytes(common)) if common else self.tr("no content in common"))
        if result.truncated:
            prefix = format_bytes(max(result.compared_a, result.compared_b))
            details.append(self.tr("only the first {size} of each file were searched for common "
                                   "content").format(size=prefix))
        self.detail_label.setText("; ".join(details) + ".")
        self.detail_label.setVisible(True)
        # (the bytes themselves: the Hex preview below, lined up after insertions)

