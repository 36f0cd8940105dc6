"""The groups as a two-level Qt model over a :class:`GroupTable`'s columns.

Top-level rows are groups, their children the group's files, reference first.
Nothing is built per file: ``data()`` reads the numpy columns for the rows
the view asks for, and sorting and filtering are numpy permutations, so
100,000 files scroll, sort and filter without delay.
"""

from __future__ import annotations

import math
import os
from datetime import datetime

import numpy as np
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP, QAbstractItemModel, QCoreApplication, QModelIndex, Qt, Signal,
)
from PySide6.QtGui import QFont

from simgui.core.search.group_rows import order_within_groups
from simgui.core.search.groups import GroupTable
from simgui.core.shown import shown_path
from simgui.core.units import format_bytes, format_share

# the headers, translated where shown (context "GroupsModel"; see header_text)
COLUMNS = (QT_TRANSLATE_NOOP("GroupsModel", "Name"),
           QT_TRANSLATE_NOOP("GroupsModel", "Folder"),
           QT_TRANSLATE_NOOP("GroupsModel", "Size"),
           QT_TRANSLATE_NOOP("GroupsModel", "Modified"),
           QT_TRANSLATE_NOOP("GroupsModel", "Similarity"),
           QT_TRANSLATE_NOOP("GroupsModel", "Key distance"),
           QT_TRANSLATE_NOOP("GroupsModel", "Sum-table distance"),
           QT_TRANSLATE_NOOP("GroupsModel", "Identical"),
           QT_TRANSLATE_NOOP("GroupsModel", "Size vs reference"),
           QT_TRANSLATE_NOOP("GroupsModel", "Time vs reference"),
           QT_TRANSLATE_NOOP("GroupsModel", "Picture"))
NAME, FOLDER, SIZE, MODIFIED, SIMILARITY, KEY, SUM, IDENTICAL, SIZE_DELTA, TIME_DELTA = \
    range(len(COLUMNS) - 1)
#: a thumbnail, painted by simgui.gui.picture_thumbs (the model gives it no text)
PICTURE = len(COLUMNS) - 1
_NUMERIC = {SIZE, MODIFIED, SIMILARITY, KEY, SUM, SIZE_DELTA, TIME_DELTA}
_TOP = 0  # internal id of group rows; file rows carry their group's position + 1
# item flags, combined once: the view asks for every row's after each reset (an enum
# "or" per call was a tenth of a slider move at 10,000 groups)
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_MARKABLE_FLAGS = _ROW_FLAGS | Qt.ItemFlag.ItemIsUserCheckable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
#: Groups the view is given at a time: it lays out every row it has after each reset,
#: a Python call or three per row, so 10,000 groups cost 150 ms a slider move; more
#: come as the user scrolls down (fetchMore), or when one is asked for by file.
FETCH_BATCH = 200

#: Role giving the file index (into the table's files) of a file row, -1 for group rows.
FILE_ROLE = Qt.ItemDataRole.UserRole + 1
#: Role giving the group number (0-based, in the table) of any row.
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2
#: The roles :meth:`GroupsModel.data` answers; every other gets None.
_ROLES = frozenset({Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole,
                    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ToolTipRole,
                    Qt.ItemDataRole.CheckStateRole, FILE_ROLE, GROUP_ROLE})



def similarity_text(value: float) -> str:
    """A file's similarity as the views show it: 100 % for a copy, a dash where it is
    unknown (NaN: a file without fingerprints)."""
    return ("100 %" if value >= 100 else "—" if math.isnan(value)
            else f"{format_share(value, 2)} %")


def modified_text(mtime_ns: int) -> str:
    return datetime.fromtimestamp(mtime_ns / 1e9).strftime("%Y-%m-%d %H:%M")

class GroupsModel(QAbstractItemModel):
    marks_changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._table: GroupTable | None = None
        self._folded: list[str] | None = None
        self._shown = np.zeros(0, np.int64)  # groups shown, in display order
        self._fetched = 0  # of those, the first rows the view has been given (FETCH_BATCH)
        # table rows, sorted within each group: only the groups the view has are (it
        # orders the members of 200 groups where a million files' took 6 ms a slider move)
        self._member_order = np.zeros(0, np.int64)
        self._ordered = np.zeros(0, np.bool_)  # per group: its members are in order
        self._marked: set[str] = set()
        self._protected: tuple[str, ...] = ()  # reference folders: their files can't be marked
        self._filter = ""
        self._sort = (SIZE, Qt.SortOrder.DescendingOrder)
        self._bold = QFont()
        self._bold.setBold(True)
        #: (table, files) -> the table with those files as their groups' references; set by
        #: the window (it needs the search's data: see core.search.rereference)
        self.rereference = None
        self._chosen_references: list[str] = []  # paths the user made references, in order
        self._paths_indexed = None  # (files, path -> index): see _index_of_paths
        self._ignored: list[tuple[str, str]] = []  # pairs that are not duplicates
        self._source: GroupTable | None = None  # the table given, before the two above
        self.pictures_method = False  # the groups come from a picture method
        #: (table, group -> the folder its files share), for the Folder column
        self._common_folders: tuple = (None, {})

    # -- content ---------------------------------------------------------------

    def set_table(self, table: GroupTable | None, protected: tuple[str, ...] = ()) -> None:
        """Show ``table``; marks on files still shown are kept."""
        self.beginResetModel()
        self._source = table
        # the references the user chose first: a pair is ignored with the reference shown
        # (Not Duplicates pairs a file with the group's reference on screen)
        table = self._with_chosen_references(table)
        if table is not None and self._ignored:
            from simgui.core.search.ignoring import without_ignored

            table = without_ignored(table, self._ignored)
        self._table = table
        self._folded = None  # case-folded paths, made on the first filter
        self._set_protected(protected)
        self._arrange_afresh()
        self.endResetModel()
        self.marks_changed.emit()

    def make_reference(self, file: int) -> bool:
        """Make ``file`` its group's reference (the file kept); it loses its mark.  The
        choice holds while the file's group is found again (sliders, rescans)."""
        t = self._table
        if t is None or self.rereference is None:
            return False
        return self.make_references([file]) > 0

    def make_references(self, files) -> int:
        """Make each of ``files`` (one per group) its group's reference, in one update;
        returns how many groups changed."""
        t = self._table
        if t is None or self.rereference is None:
            return 0
        before = t.rows[t.start[:-1]].tolist()
        paths = [t.files.paths[f] for f in files]
        chosen = [p for p in self._chosen_references if p not in set(paths)]
        self._chosen_references = chosen + paths
        self.set_table(self._source, self._protected_folders())
        after = self._table.rows[self._table.start[:-1]].tolist()
        return sum(a != b for a, b in zip(before, after))

    def chosen_references(self) -> list[str]:
        """The paths the user made references (Make Reference, Re-prioritize), in order."""
        return list(self._chosen_references)

    def set_chosen_references(self, paths) -> None:
        """Choices of references to apply from the next table on (saved results)."""
        self._chosen_references = list(paths)

    def set_ignored(self, pairs, refresh: bool = True) -> None:
        """The ignore list's pairs (simgui.core.store.ignored): their members leave the
        groups shown, now if ``refresh``, else at the next table."""
        self._ignored = list(pairs)
        if refresh and self._source is not None:
            self.set_table(self._source, self._protected_folders())

    def pairs_to_ignore(self, index: QModelIndex) -> list[tuple[str, str]]:
        """What "Not Duplicates" on ``index`` ignores: a member with its reference, or a
        group row's reference with each of its members."""
        t = self._table
        if t is None or not index.isValid():
            return []
        g = self._group_at(index)
        lo, hi = int(t.start[g]), int(t.start[g + 1])
        reference = t.files.paths[int(t.rows[lo])]
        if index.internalId() == _TOP:
            return [(reference, t.files.paths[int(f)]) for f in t.rows[lo + 1:hi]]
        path = t.files.paths[self.file_of(index)]
        return [] if path == reference else [(reference, path)]

    def is_reference(self, index: QModelIndex) -> bool:
        if not index.isValid() or index.internalId() == _TOP:
            return False
        row = self._table_row(index)
        return row == self._table.start[self._table.group_of_row[row]]

    def _protected_folders(self) -> tuple[str, ...]:
        return tuple(p.rstrip(os.sep) for p in self._protected)

    def _with_chosen_references(self, table: GroupTable | None) -> GroupTable | None:
        if table is None or not self._chosen_references or self.rereference is None:
            return table
        where = self._index_of_paths(table.files)
        files = [where[p] for p in self._chosen_references if p in where]
        self._marked.difference_update(self._chosen_references)
        return self.rereference(table, files) if files else table

    def _index_of_paths(self, files) -> dict[str, int]:
        """path -> index in ``files``, made once per search's files: every slider move
        looks the chosen references up (mapping a million paths took 0.6 s a move)."""
        if self._paths_indexed is None or self._paths_indexed[0] is not files:
            self._paths_indexed = (files, {p: i for i, p in enumerate(files.paths)})
        return self._paths_indexed[1]

    def set_protected(self, folders: tuple[str, ...]) -> None:
        """Reference folders changed: their files lose their marks and check boxes now."""
        self._set_protected(folders)
        self._marks_reset()

    def _set_protected(self, folders) -> None:
        self._protected = tuple(p.rstrip(os.sep) + os.sep for p in folders)
        self._marked = {p for p in self._marked if not self._is_protected(p)}

    @property
    def table(self) -> GroupTable | None:
        return self._table

    def group_count(self) -> int:
        return len(self._shown)

    def shown_groups(self) -> list[int]:
        """Groups shown (table numbers, 0-based), in display order."""
        return self._shown.tolist()

    def set_filter(self, text: str) -> None:
        """Show only groups with a file whose path contains ``text`` (any case)."""
        self.beginResetModel()
        self._filter = text.casefold().strip()
        self._arrange_afresh()
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        # rows kept across a sort may move anywhere: the view has them all first (a row
        # count must not change within a layout change)
        self._fetch_to(len(self._shown) - 1)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        before = [(self._group_at(i), self._table_row(i) if i.internalId() != _TOP else -1)
                  for i in persistent]
        self._sort = (column, order)
        self._arrange()
        self._order_members(self._shown[:self._fetched])
        after = [self._index_for(g, r, i.column()) for (g, r), i in zip(before, persistent)]
        self.changePersistentIndexList(persistent, after)
        self.layoutChanged.emit()

    def _arrange_afresh(self) -> None:
        """Arrange the groups, the view to be given the first batch of them (a reset)."""
        self._arrange()
        self._fetched = min(len(self._shown), FETCH_BATCH)
        self._order_members(self._shown[:self._fetched])

    def _arrange(self) -> None:
        t = self._table
        if t is None or len(t) == 0:
            self._shown = np.zeros(0, np.int64)
            self._member_order = np.zeros(0, np.int64)
            self._ordered = np.zeros(0, np.bool_)
            return
        groups = np.arange(len(t))
        if self._filter:
            if self._folded is None:  # as shown: a byte that is not UTF-8 reads \xNN
                self._folded = [shown_path(t.files.paths[f]).casefold() for f in t.rows]
            hit_rows = np.fromiter((self._filter in p for p in self._folded), bool, len(t.rows))
            groups = np.unique(t.group_of_row[hit_rows])
        column, order = self._sort
        descending = order == Qt.SortOrder.DescendingOrder
        # groups by their reference's value (size: bytes to free; similarity: the least similar)
        if column == SIZE:
            group_key = t.group_bytes.astype(np.float64)
        elif column == SIMILARITY:
            group_key = np.minimum.reduceat(t.similarity, t.start[:-1])
        else:
            group_key = self._row_key(column, t.start[:-1])
        if descending and not self._filter and column == SIZE \
                and bool(np.all(group_key[:-1] >= group_key[1:])):
            # already in order, as a search's table comes (largest first): ties keep it,
            # and a sort of 130,000 groups is saved at each slider move
            self._shown = groups
        else:
            g_key = group_key[groups]
            by = np.lexsort((groups, -g_key if descending else g_key)) \
                if g_key.dtype != object else _object_order(g_key, groups, descending)
            self._shown = groups[by]
        # members within each group, the reference staying first: as the view gets them
        self._member_order = np.arange(len(t.rows))
        self._ordered = np.zeros(len(t), np.bool_)

    def _order_members(self, groups: np.ndarray) -> None:
        """Put the members of ``groups`` in the order of the sort column, the reference
        staying first (each group once, when the view is given it)."""
        groups = np.asarray(groups, np.int64)
        groups = groups[~self._ordered[groups]]
        if not len(groups):
            return
        self._ordered[groups] = True
        t = self._table
        lo, hi = t.start[groups], t.start[groups + 1]
        start = np.zeros(len(groups) + 1, np.int64)
        np.cumsum(hi - lo, out=start[1:])
        rows = np.repeat(lo - start[:-1], hi - lo) + np.arange(int(start[-1]))
        column, order = self._sort
        key = self._row_key(column, rows)
        k = key if key.dtype != object else _ranks(key)
        by = order_within_groups(start, k, order == Qt.SortOrder.DescendingOrder)
        self._member_order[rows] = rows[by]

    def _row_key(self, column: int, rows: np.ndarray) -> np.ndarray:
        """The sort column's value of table rows ``rows``."""
        t = self._table
        f = t.rows[rows]
        if column in (NAME, PICTURE):  # thumbnails sort as their names
            return np.array([os.path.basename(t.files.paths[i]).casefold() for i in f], object)
        if column == FOLDER:
            return np.array([os.path.dirname(t.files.paths[i]).casefold() for i in f], object)
        if column == SIZE:
            return t.files.sizes[f].astype(np.float64)
        if column == MODIFIED:
            return t.files.mtimes_ns[f].astype(np.float64)
        if column == SIMILARITY:
            return t.similarity[rows]
        if column == KEY:
            return t.key_distance[rows]
        if column == SUM:
            return t.sum_distance[rows].astype(np.float64)
        if column in (SIZE_DELTA, TIME_DELTA):
            values = t.files.sizes if column == SIZE_DELTA else t.files.mtimes_ns
            reference = t.rows[t.start[t.group_of_row[rows]]]
            return (values[f] - values[reference]).astype(np.float64)
        return t.identical[rows].astype(np.float64)

    # -- marks -------------------------------------------------------------------

    @property
    def marked(self) -> set[str]:
        return set(self._marked)

    def marked_in_view(self) -> list[str]:
        """Marked paths of the files in the groups shown (a filter hides the others' marks
        too); a group's reference is never among them (it is the file kept)."""
        t = self._table
        if t is None or not self._marked:
            return []
        shown = np.zeros(len(t), bool)
        shown[self._shown] = True
        member = np.ones(len(t.rows), bool)
        member[t.start[:-1]] = False
        paths = t.files.paths
        return [paths[f] for f, g, m in zip(t.rows.tolist(), t.group_of_row.tolist(),
                                            member.tolist())
                if m and shown[g] and paths[f] in self._marked]

    def marked_bytes(self) -> tuple[int, int]:
        """How many files are marked in the groups shown, and their bytes (what acting on
        them frees)."""
        t = self._table
        marked = set(self.marked_in_view())
        if not marked:
            return 0, 0
        sizes = {t.files.paths[f]: int(t.files.sizes[f]) for f in t.rows.tolist()
                 if t.files.paths[f] in marked}
        return len(sizes), sum(sizes.values())

    def set_marked(self, paths) -> None:
        self._marked = {p for p in paths if not self._is_protected(p)}
        self._marks_reset()

    def mark_all_but_reference(self, identical_only: bool = False) -> int:
        """Mark every shown file but each group's reference; returns how many are marked.
        With ``identical_only``, the shown files only similar to their reference are
        unmarked too, so exactly the identical copies are marked there.

        Empty files are never marked by this: removing them frees nothing, and empty
        files such as __init__.py or .gitkeep matter by their names.
        """
        t = self._table
        if t is None:
            return 0
        for g in self._shown:
            for r in range(t.start[g] + 1, t.start[g + 1]):
                path = t.files.paths[t.rows[r]]
                if identical_only and not t.identical[r]:
                    self._marked.discard(path)
                elif t.files.sizes[t.rows[r]] > 0 and not self._is_protected(path):
                    self._marked.add(path)
        self._marks_reset()
        return len(self._marked)

    def mark_identical_copies(self) -> int:
        """Mark, in each group shown, every file that has an identical copy in the group,
        except the one copy of each set that stays: the reference for the copies of the
        reference, the first (most similar) member for a set of members identical only to
        each other.  Files with no identical copy are unmarked.  Returns how many are
        marked."""
        t = self._table
        if t is None:
            return 0
        for g in self._shown:
            for r in range(t.start[g] + 1, t.start[g + 1]):
                path = t.files.paths[t.rows[r]]
                # identical to the reference, or a later copy of an earlier member
                has_kept_copy = bool(t.identical[r]) or int(t.copy_of[r]) >= 0
                if has_kept_copy and t.files.sizes[t.rows[r]] > 0 \
                        and not self._is_protected(path):
                    self._marked.add(path)
                else:
                    self._marked.discard(path)
        self._marks_reset()
        return len(self._marked)

    def clear_marks(self) -> None:
        self._marked.clear()
        self._marks_reset()

    def invert_marks(self) -> None:
        """Swap marked and unmarked files in the groups shown (never a reference)."""
        t = self._table
        if t is None:
            return
        for g in self._shown:
            for r in range(t.start[g] + 1, t.start[g + 1]):
                path = t.files.paths[t.rows[r]]
                if path in self._marked:
                    self._marked.discard(path)
                elif not self._is_protected(path):
                    self._marked.add(path)
        self._marks_reset()

    def _is_protected(self, path: str) -> bool:
        return bool(self._protected) and path.startswith(self._protected)

    def _marks_reset(self) -> None:
        # one layout signal repaints every check box; a dataChanged per group would be
        # 100,000 signals
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()
        self.marks_changed.emit()

    # -- navigation helpers --------------------------------------------------------

    def file_of(self, index: QModelIndex) -> int:
        """File index of a file row, -1 for a group row or an invalid index."""
        if not index.isValid() or index.internalId() == _TOP:
            return -1
        return int(self._table.rows[self._table_row(index)])

    def group_of(self, index: QModelIndex) -> int:
        """Group number (0-based, in the table) of any row, -1 if invalid."""
        if not index.isValid():
            return -1
        return self._group_at(index)

    def index_of_file(self, file: int) -> QModelIndex:
        """Index of the row showing file ``file``, or an invalid index if not shown."""
        t = self._table
        if t is None:
            return QModelIndex()
        rows = np.flatnonzero(t.rows == file)
        if len(rows) == 0:
            return QModelIndex()
        row = int(rows[0])
        g = int(t.group_of_row[row])
        shown = np.flatnonzero(self._shown == g)
        if len(shown) == 0:
            return QModelIndex()
        self._fetch_to(int(shown[0]))
        return self._index_for(g, row, 0)

    def index_of_group(self, group: int) -> QModelIndex:
        shown = np.flatnonzero(self._shown == group)
        if not len(shown):
            return QModelIndex()
        self._fetch_to(int(shown[0]))
        return self.index(int(shown[0]), 0)

    def canFetchMore(self, parent=QModelIndex()) -> bool:
        return not parent.isValid() and self._fetched < len(self._shown)

    def fetchMore(self, parent=QModelIndex()) -> None:
        if self.canFetchMore(parent):
            self._fetch_to(self._fetched + FETCH_BATCH - 1)

    def _fetch_to(self, row: int) -> None:
        """Give the view the groups up to display row ``row`` (a batch at least)."""
        if row < self._fetched:
            return
        last = min(len(self._shown), max(row + 1, self._fetched + FETCH_BATCH)) - 1
        self._order_members(self._shown[self._fetched:last + 1])
        self.beginInsertRows(QModelIndex(), self._fetched, last)
        self._fetched = last + 1
        self.endInsertRows()

    def _group_at(self, index) -> int:
        if index.internalId() == _TOP:
            return int(self._shown[index.row()])
        return int(self._shown[index.internalId() - 1])

    def _index_for(self, group: int, table_row: int, column: int) -> QModelIndex:
        """Index of a group (``table_row`` -1) or of one of its files."""
        top = np.flatnonzero(self._shown == group)
        if len(top) == 0:
            return QModelIndex()
        if table_row < 0:
            return self.index(int(top[0]), column)
        self._order_members([group])
        lo, hi = self._table.start[group], self._table.start[group + 1]
        position = int(np.flatnonzero(self._member_order[lo:hi] == table_row)[0])
        return self.index(position, column, self.index(int(top[0]), 0))

    def _table_row(self, index) -> int:
        g = self._group_at(index)
        return int(self._member_order[self._table.start[g] + index.row()])

    # -- QAbstractItemModel ----------------------------------------------------------

    def index(self, row: int, column: int, parent=QModelIndex()) -> QModelIndex:
        # the bounds checked here rather than by hasIndex, which calls back into
        # rowCount and columnCount: the view asks for every group's index after a reset
        if row < 0 or not 0 <= column < len(COLUMNS) or self._table is None:
            return QModelIndex()
        if not parent.isValid():
            if row >= self._fetched:
                return QModelIndex()
            return self.createIndex(row, column, _TOP)
        if row >= self.rowCount(parent):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index=QModelIndex()) -> QModelIndex:
        if not index.isValid() or index.internalId() == _TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, _TOP)

    def rowCount(self, parent=QModelIndex()) -> int:
        if self._table is None:
            return 0
        if not parent.isValid():
            return self._fetched
        if parent.internalId() != _TOP or parent.column() != 0:
            return 0
        g = self._shown[parent.row()]
        return int(self._table.start[g + 1] - self._table.start[g])

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(COLUMNS)

    def hasChildren(self, parent=QModelIndex()) -> bool:
        if parent.isValid() and parent.internalId() == _TOP and parent.column() == 0:
            return True  # a group has members
        return self.rowCount(parent) > 0

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return header_text(section)
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.tr(_HEADER_TIPS[section])
        return None

    def flags(self, index):
        if not index.isValid():
            return _NO_FLAGS
        if index.internalId() != _TOP and index.column() == NAME \
                and self._markable(self._table_row(index)):
            return _MARKABLE_FLAGS
        return _ROW_FLAGS

    def _markable(self, row: int) -> bool:
        """A group's reference is kept, never marked (dupeGuru's rule: a group marked
        whole would be refused); nor is a file in a reference folder."""
        t = self._table
        return row != t.start[t.group_of_row[row]] and \
            not self._is_protected(t.files.paths[int(t.rows[row])])

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or index.internalId() == _TOP:
            return False
        return self.set_row_mark(self._table_row(index), Qt.CheckState(value))

    # marks by table row, for the copies view: no index, so no group is fetched for it

    def row_check_state(self, row: int):
        """The check box of table row ``row``: None if it cannot be marked."""
        if not self._markable(row):
            return None
        path = self._table.files.paths[int(self._table.rows[row])]
        return Qt.CheckState.Checked if path in self._marked else Qt.CheckState.Unchecked

    def set_row_mark(self, row: int, state) -> bool:
        """Tick or untick table row ``row`` (False if it cannot be marked)."""
        if not self._markable(row):
            return False
        path = self._table.files.paths[int(self._table.rows[row])]
        if state == Qt.CheckState.Checked:
            self._marked.add(path)
        else:
            self._marked.discard(path)
        index = self._fetched_index_of_row(row)
        if index.isValid():
            self.dataChanged.emit(index, index, [Qt.ItemDataRole.CheckStateRole])
        self.marks_changed.emit()
        return True

    def _fetched_index_of_row(self, row: int) -> QModelIndex:
        """The index of table row ``row`` if the view has its group, else invalid."""
        g = int(self._table.group_of_row[row])
        if not (self._shown[:self._fetched] == g).any():
            return QModelIndex()
        return self._index_for(g, row, NAME)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        # a painted cell asks for eight roles, most of which no row has: answered first
        if role not in _ROLES or not index.isValid() or self._table is None:
            return None
        if index.internalId() == _TOP:
            return self._group_data(self._group_at(index), index.column(), role)
        return self._file_data(self._table_row(index), index.column(), role)

    def _group_data(self, g: int, column: int, role):
        t = self._table
        if role == GROUP_ROLE:
            return g
        if role == FILE_ROLE:
            return -1
        if role == Qt.ItemDataRole.FontRole and column == NAME:
            return self._bold
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column == SIZE:
            return self.tr("Space the other files of this group take (what removing them "
                           "frees)")
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        lo, hi = int(t.start[g]), int(t.start[g + 1])
        n = hi - lo
        if column == NAME:
            return shown_path(os.path.basename(t.files.paths[t.rows[lo]]))
        if column == FOLDER:  # what the group holds, where a group row has room
            return self.tr("{n} files · {size} to free").format(
                n=n, size=format_bytes(int(t.group_bytes[g])))
        if column == SIZE:
            return format_bytes(int(t.group_bytes[g]))
        if column == SIMILARITY:
            known = t.similarity[lo:hi][~np.isnan(t.similarity[lo:hi])]
            low = float(known.min()) if len(known) else math.nan
            return ("100 %" if low >= 100 else "—" if math.isnan(low)
                    else f"≥ {format_share(low, 2)} %")
        if column == IDENTICAL:
            same = int(t.identical[lo + 1:hi].sum())
            return (self.tr("all copies") if same == n - 1
                    else self.tr("{same} of {n}").format(same=same, n=n - 1) if same
                    else self.tr("similar"))
        return None

    def _folder_text(self, folder: str, g: int) -> str:
        """A file's folder as its row shows it: past the folders its whole group shares,
        which the column's width would otherwise show alone ("/home/me/…/photos" for
        every copy, in the backup or not): "…/usb/Backup 2023/Documents/photos"."""
        cache = self._common_folders
        if cache[0] is not self._table:
            cache = self._common_folders = (self._table, {})
        common = cache[1].get(g)
        if common is None:
            t = self._table
            paths = [t.files.paths[i] for i in t.rows[t.start[g]:t.start[g + 1]].tolist()]
            # the longest string prefix (two comparisons of strings), cut back to a
            # whole folder: 100,000 files in 10 ms, where commonpath took 260
            prefix = os.path.commonprefix(paths)
            common = prefix[:prefix.rfind(os.sep)] or os.sep
            cache[1][g] = common
        if common.count(os.sep) > 1 and folder != common:  # (not "/" alone, nor all of it)
            return "…" + shown_path(folder[len(common.rstrip(os.sep)):])
        return shown_path(folder)

    def _file_data(self, row: int, column: int, role):
        t = self._table
        f = int(t.rows[row])
        path = t.files.paths[f]
        reference = row == t.start[t.group_of_row[row]]
        if role == FILE_ROLE:
            return f
        if role == GROUP_ROLE:
            return int(t.group_of_row[row])
        if role == Qt.ItemDataRole.CheckStateRole and column == NAME:
            if not self._markable(row):
                return None
            return Qt.CheckState.Checked if path in self._marked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.FontRole and reference:
            return self._bold
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = shown_path(path)
            if reference:
                tip += self.tr("\nReference: the file the others are compared with; it is "
                               "kept, so it cannot be marked (Make Reference keeps another "
                               "file instead)")
            if self._is_protected(path):
                tip += self.tr("\nIn a reference folder: never marked, moved or deleted")
            copy_of = t.copy_of_path(row)
            if copy_of:
                tip += self.tr("\nIdentical to {path} (both only similar to the "
                               "reference)").format(path=copy_of)
            elif t.copies[row]:
                n = int(t.copies[row]) - 1
                tip += (self.tr("\n{n} other member is an identical copy of this one (all only "
                                "similar to the reference)") if n == 1
                        else self.tr("\n{n} other members are identical copies of this one "
                                     "(all only similar to the reference)")).format(n=n)
            return tip
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == NAME:
            name = shown_path(os.path.basename(path))
            return self.tr("{name}  (reference)").format(name=name) if reference else name
        if column == FOLDER:
            return self._folder_text(os.path.dirname(path), int(t.group_of_row[row]))
        if column == SIZE:
            return format_bytes(int(t.files.sizes[f]))
        if column == MODIFIED:
            return modified_text(int(t.files.mtimes_ns[f]))
        if column == SIMILARITY:
            return similarity_text(float(t.similarity[row]))
        if column in (KEY, SUM) and self.pictures_method:
            return ""  # the paper's distances say nothing of how alike two pictures look
        if column == KEY:
            return "" if reference else f"{float(t.key_distance[row]):,.1f}"
        if column == SUM:
            return "" if reference else f"{int(t.sum_distance[row]):,}"
        if column == IDENTICAL:
            if reference:
                return ""
            if t.identical[row]:
                return self.tr("identical")
            copy_of = t.copy_of_path(row)
            if copy_of:  # its folder's name too: copies often share their own name
                folder, name = os.path.split(copy_of)
                return self.tr("similar · copy of {path}").format(
                    path=shown_path(os.path.join(os.path.basename(folder), name)))
            copies = int(t.copies[row])
            if copies:
                return (self.tr("similar · has {n} copy") if copies - 1 == 1
                        else self.tr("similar · has {n} copies")).format(n=copies - 1)
            return self.tr("similar")
        if column == SIZE_DELTA:
            if reference:
                return ""
            delta = int(t.files.sizes[f]) - int(t.files.sizes[t.rows[t.start[
                t.group_of_row[row]]]])
            sign = "+" if delta > 0 else "−"
            return self.tr("same") if delta == 0 else sign + format_bytes(abs(delta))
        if column == TIME_DELTA:
            if reference:
                return ""
            delta = (int(t.files.mtimes_ns[f]) - int(t.files.mtimes_ns[t.rows[t.start[
                t.group_of_row[row]]]])) / 1e9
            return _time_delta(delta)
        return None


def _time_delta(seconds: float) -> str:
    """A signed, rounded time difference: "same", "+3 min", "−2 d", "+1.5 y"."""
    def _tr(text: str) -> str:
        return QCoreApplication.translate("GroupsModel", text)

    if abs(seconds) < 1:
        return QCoreApplication.translate("GroupsModel", "same")
    sign = "+" if seconds > 0 else "−"
    s = abs(seconds)
    # the units' abbreviations, translated (years, days, hours, minutes, seconds)
    for unit, size in ((QT_TRANSLATE_NOOP("GroupsModel", "y"), 365.25 * 86400),
                       (QT_TRANSLATE_NOOP("GroupsModel", "d"), 86400),
                       (QT_TRANSLATE_NOOP("GroupsModel", "h"), 3600),
                       (QT_TRANSLATE_NOOP("GroupsModel", "min"), 60)):
        if s >= size:
            value = s / size
            unit = _tr(unit)
            return f"{sign}{value:.1f} {unit}" if value < 10 else \
                f"{sign}{value:,.0f} {unit}"
    unit = _tr(QT_TRANSLATE_NOOP("GroupsModel", "s"))
    return f"{sign}{s:.0f} {unit}"


# translated where shown (context "GroupsModel")
_HEADER_TIPS = (
    QT_TRANSLATE_NOOP("GroupsModel", "File name; tick the files to act on"),
    QT_TRANSLATE_NOOP("GroupsModel", "Folder holding the file"),
    QT_TRANSLATE_NOOP("GroupsModel",
                      "File size; on group rows, the space the group's other files take"),
    QT_TRANSLATE_NOOP("GroupsModel", "Last modified"),
    QT_TRANSLATE_NOOP("GroupsModel",
                      "100 % for identical copies; lower the more the sum tables differ"),
    QT_TRANSLATE_NOOP("GroupsModel", "How far the file's key is from the reference's key"),
    QT_TRANSLATE_NOOP("GroupsModel",
                      "L1 distance between the file's sum table and the reference's"),
    QT_TRANSLATE_NOOP("GroupsModel",
                      "Identical: same size, sum table and content hash as the reference; "
                      "similar files that are identical to each other are marked as copies"),
    QT_TRANSLATE_NOOP("GroupsModel",
                      "How much larger (+) or smaller (−) than the group's reference"),
    QT_TRANSLATE_NOOP("GroupsModel",
                      "How much newer (+) or older (−) than the group's reference"),
    QT_TRANSLATE_NOOP("GroupsModel", "A thumbnail of the picture (a group row: its reference's)"),
)


def header_text(column: int) -> str:
    """Column ``column``'s header as shown: translated."""
    return QCoreApplication.translate("GroupsModel", COLUMNS[column])


def _ranks(values: np.ndarray) -> np.ndarray:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = np.empty(len(values), np.int64)
    ranks[order] = np.arange(len(values))
    return ranks


def _object_order(keys: np.ndarray, tie: np.ndarray, descending: bool) -> np.ndarray:
    r = _ranks(keys)
    return np.lexsort((tie, -r if descending else r))

