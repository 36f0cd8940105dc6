"""The "copies only" view: one row per file that is not its group's reference, flat and
sortable (dupeGuru's "Dupes only"), beside the groups tree.  It reads the groups
model's table and shares its marks, so ticking here ticks there."""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP, QAbstractTableModel, QCoreApplication, QModelIndex, Qt,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from simgui.core.shown import shown_path
from simgui.core.units import format_bytes
from simgui.gui.groups_model import GroupsModel, modified_text, similarity_text

# the headers, translated where shown (context "CopiesModel")
COLUMNS = (QT_TRANSLATE_NOOP("CopiesModel", "Name"), QT_TRANSLATE_NOOP("CopiesModel", "Folder"),
           QT_TRANSLATE_NOOP("CopiesModel", "Size"), QT_TRANSLATE_NOOP("CopiesModel", "Modified"),
           QT_TRANSLATE_NOOP("CopiesModel", "Similarity"),
           QT_TRANSLATE_NOOP("CopiesModel", "Identical"),
           QT_TRANSLATE_NOOP("CopiesModel", "Kept file"))
NAME, FOLDER, SIZE, MODIFIED, SIMILARITY, IDENTICAL, KEPT = range(len(COLUMNS))


class CopiesModel(QAbstractTableModel):
    def __init__(self, groups: GroupsModel, parent=None):
        super().__init__(parent)
        self.groups = groups
        self._rows = np.zeros(0, np.int64)  # table rows shown, in order
        self._sort = (SIZE, Qt.SortOrder.DescendingOrder)
        # rows are made only while the view is shown: at 400,000 files in groups that
        # was a fifth of every slider move's view update, for a view nobody saw
        self._active = False
        groups.modelReset.connect(self._rebuild)
        groups.layoutChanged.connect(self._repaint)

    def set_active(self, active: bool) -> None:
        """Whether the view is shown: its rows follow the groups only then."""
        if active != self._active:
            self._active = active
            self._rebuild()

    def _rebuild(self) -> None:
        self.beginResetModel()
        t = self.groups.table
        if not self._active or t is None or len(t) == 0:
            self._rows = np.zeros(0, np.int64)
        else:
            shown = np.zeros(len(t), bool)
            shown[self.groups.shown_groups()] = True
            member = np.ones(len(t.rows), bool)
            member[t.start[:-1]] = False
            self._rows = np.flatnonzero(member & shown[t.group_of_row])
            self._order()
        self.endResetModel()

    def _repaint(self) -> None:
        if len(self._rows):
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, NAME),
                                  [Qt.ItemDataRole.CheckStateRole])

    def _order(self) -> None:
        t = self.groups.table
        column, order = self._sort
        r = self._rows
        f = t.rows[r]
        if column == NAME:
            key = np.array([os.path.basename(t.files.paths[i]).casefold() for i in f], object)
        elif column == FOLDER:
            key = np.array([os.path.dirname(t.files.paths[i]).casefold() for i in f], object)
        elif column == KEPT:
            key = np.array([t.files.paths[t.rows[t.start[g]]].casefold()
                            for g in t.group_of_row[r]], object)
        elif column == MODIFIED:
            key = t.files.mtimes_ns[f].astype(np.float64)
        elif column == SIMILARITY:
            key = t.similarity[r]
        elif column == IDENTICAL:
            key = t.identical[r].astype(np.float64)
        else:
            key = t.files.sizes[f].astype(np.float64)
        by = sorted(range(len(r)), key=key.__getitem__) if key.dtype == object else \
            np.argsort(key, kind="stable")
        by = np.asarray(by, np.int64)
        if order == Qt.SortOrder.DescendingOrder:
            by = by[::-1]
        self._rows = r[by]

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        if self.groups.table is None or not len(self._rows):
            return
        self.layoutAboutToBeChanged.emit()
        self._order()
        self.layoutChanged.emit()

    def file_of(self, index: QModelIndex) -> int:
        return int(self.groups.table.rows[self._rows[index.row()]]) if index.isValid() else -1

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("CopiesModel", COLUMNS[section])
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == NAME \
                and self.groups.row_check_state(int(self._rows[index.row()])) is not None:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid():
            return False
        done = self.groups.set_row_mark(int(self._rows[index.row()]), Qt.CheckState(value))
        if done:
            self.dataChanged.emit(index, index, [role])
        return done

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        t = self.groups.table
        row = int(self._rows[index.row()])
        f = int(t.rows[row])
        path = t.files.paths[f]
        column = index.column()
        if role == Qt.ItemDataRole.CheckStateRole and column == NAME:
            return self.groups.row_check_state(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return shown_path(path)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (SIZE, SIMILARITY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == NAME:
            return shown_path(os.path.basename(path))
        if column == FOLDER:
            return shown_path(os.path.dirname(path))
        if column == SIZE:
            return format_bytes(int(t.files.sizes[f]))
        if column == MODIFIED:
            return modified_text(int(t.files.mtimes_ns[f]))
        if column == SIMILARITY:
            return similarity_text(float(t.similarity[row]))
        if column == IDENTICAL:
            return self.tr("identical") if t.identical[row] else self.tr("similar")
        if column == KEPT:
            return shown_path(t.files.paths[int(t.rows[t.start[t.group_of_row[row]]])])
        return None


class CopiesView(QTableView):
    def __init__(self, groups: GroupsModel, parent=None):
        super().__init__(parent)
        self.copies = CopiesModel(groups, self)
        self.setModel(self.copies)
        self.setSortingEnabled(True)
        self.sortByColumn(SIZE, Qt.SortOrder.DescendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setWordWrap(False)  # else a path breaks at a slash and loses its end
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        fm = self.fontMetrics()
        pad = 3 * fm.averageCharWidth() + 16  # the cell's margins and a sort arrow
        # as wide as their widest texts (digits are wider than an average character:
        # "405.9 KB" was cut to "405.9 …")
        identical = QCoreApplication.translate("CopiesModel", "identical")
        for column, widest in ((SIZE, "999.9 MB"), (MODIFIED, modified_text(0) + "0"),
                               (SIMILARITY, "99.99 %"), (IDENTICAL, identical)):
            header.resizeSection(column, max(fm.horizontalAdvance(widest),
                                             fm.horizontalAdvance(QCoreApplication.translate(
                                                 "CopiesModel", COLUMNS[column]))) + pad)
        # the paths share what is left (elided in the middle): no sideways scrolling on a
        # 1280-pixel screen, whatever the paths' lengths
        for column in (NAME, FOLDER, KEPT):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
