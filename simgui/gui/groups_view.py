"""The groups view: a filter box over a tree of groups and their files."""

from __future__ import annotations

import os

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView, QHeaderView, QLabel, QLineEdit, QMenu, QPushButton, QStackedWidget,
    QTreeView, QVBoxLayout, QWidget,
)

from simgui.gui.groups_model import (
    COLUMNS, FOLDER, IDENTICAL, KEY, MODIFIED, NAME, PICTURE, SIMILARITY, SIZE, SIZE_DELTA,
    SUM, TIME_DELTA, GroupsModel, header_text,
)
from simgui.gui.opening import open_path
from simgui.gui.picture_compare import is_picture_path
from simgui.gui.picture_thumbs import ThumbnailDelegate, ThumbnailLoader

#: Groups open by default when there are at most this many.
FEW_GROUPS = 20
#: Columns shown only when the user asks (right-click on the header).
HIDDEN_BY_DEFAULT = (KEY, SUM, SIZE_DELTA, TIME_DELTA, PICTURE)
#: Groups whose reference is looked at to tell whether the groups are of pictures.
_PICTURE_PROBE = 2000
#: The narrowest Name and Folder columns are fitted to, in average characters.
_NAME_CHARS, _FOLDER_CHARS = 18, 14


class FilterEdit(QLineEdit):
    """The filter box.  The window's own shortcuts (Ctrl+E export, Ctrl+M mark...) work
    while it has focus: on X11 a line edit takes Ctrl+E (end of line) and others for
    itself, so a key press it took that is one of the window's actions triggers that
    action instead.  Only key presses come to Python here: an ``event()`` override ran
    Python for every event of the box, and a test run hung inside one while a scan
    thread ran."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._actions: dict[str, QAction] = {}

    def pass_actions(self, actions) -> None:
        """Let the shortcuts of these actions reach them while the box has focus."""
        self._actions = {k.toString(): a for a in actions for k in a.shortcuts()
                         if not k.isEmpty()}

    def keyPressEvent(self, event) -> None:
        action = self._actions.get(QKeySequence(event.keyCombination()).toString())
        if action is None:
            super().keyPressEvent(event)
        elif action.isEnabled():
            action.trigger()


class _Tree(QTreeView):
    """The groups tree; says when it was resized, so the columns can be fitted (an event
    filter on its viewport would run Python for every paint)."""

    resized = Signal()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.resized.emit()


class GroupsView(QWidget):
    selection_changed = Signal(list, int)  # file indices selected, group of the current row
    #: pairs of paths the user said are not duplicates (see GroupsModel.pairs_to_ignore)
    ignore_requested = Signal(list)

    def __init__(self, model: GroupsModel, parent=None):
        super().__init__(parent)
        self.model = model
        self.extra_actions: list[QAction] = []  # more entries for the context menu
        self.filter = FilterEdit()
        self.filter.setPlaceholderText(self.tr("Filter by path…  (Ctrl+F)"))
        self.filter.setClearButtonEnabled(True)
        self.tree = _Tree()
        self.tree.setModel(model)
        self.tree.setUniformRowHeights(True)  # what keeps 100,000 rows smooth
        self.tree.setSortingEnabled(True)
        self.tree.sortByColumn(SIZE, Qt.SortOrder.DescendingOrder)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setAlternatingRowColors(True)
        # a path's end and a name's extension say the most: cut in the middle
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # what a user decides by first, within the default window: name, place, size,
        # how similar, whether a copy; the date and the two distances follow
        # (a thumbnail follows them, in groups of pictures)
        for visual, column in enumerate((NAME, FOLDER, SIZE, SIMILARITY, IDENTICAL, PICTURE)):
            header.moveSection(header.visualIndex(column), visual)
        fm = self.tree.fontMetrics()
        pad = 3 * fm.averageCharWidth() + 16  # margins, and the sort arrow
        for column, widest in ((SIZE, "999.9 MB"), (MODIFIED, "2026-12-31 23:59"),
                               (SIMILARITY, "≥ 99.99 %"), (KEY, header_text(KEY)),
                               (SUM, header_text(SUM))):
            header.resizeSection(column, max(fm.horizontalAdvance(widest),
                                             fm.horizontalAdvance(header_text(column))) + pad)
        header.resizeSection(NAME, 40 * fm.averageCharWidth())
        header.resizeSection(FOLDER, 28 * fm.averageCharWidth())
        header.resizeSection(IDENTICAL, 22 * fm.averageCharWidth())  # "similar · copy of …"
        # groups of pictures show a thumbnail column, made off the GUI thread as rows are
        # painted (simgui.gui.picture_thumbs)
        self.thumbnails = ThumbnailLoader(parent=self)
        self.tree.setItemDelegateForColumn(PICTURE, ThumbnailDelegate(model, self.thumbnails,
                                                                      self.tree))
        self.thumbnails.loaded.connect(self._thumbnail_loaded)
        header.resizeSection(PICTURE, max(self.thumbnails.side + 12,
                                          fm.horizontalAdvance(header_text(PICTURE)) + pad))
        self._pictures_shown = False
        self.pictures_method = False  # the groups come from a picture method
        for column in (SIZE_DELTA, TIME_DELTA):
            header.resizeSection(column, fm.horizontalAdvance(header_text(column)) + pad)
        # the paper's distances and the differences from the reference are a right-click
        # on the header away, so the columns shown fit a 1280-pixel screen
        for column in HIDDEN_BY_DEFAULT:
            self.tree.setColumnHidden(column, True)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        # Name and Folder share the width the other columns leave, until the user sizes
        # a column himself
        self._user_sized = False
        self._fitting = False
        header.sectionResized.connect(self._section_resized)
        self.tree.resized.connect(self.fit_columns)
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        self.empty_button = QPushButton(self.tr("Add Folder…"))
        self.empty_button.setDefault(True)
        page = QWidget()
        page_layout = QVBoxLayout(page)
        page_layout.addStretch(1)
        self.empty.setFixedWidth(600)  # a readable column, left-aligned steps
        self.empty.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        page_layout.addWidget(self.empty, 0, Qt.AlignmentFlag.AlignHCenter)
        page_layout.addWidget(self.empty_button, 0, Qt.AlignmentFlag.AlignHCenter)
        page_layout.addStretch(2)
        self._empty_page = page
        self.stack = QStackedWidget()
        self.stack.addWidget(page)
        self.no_match = QLabel()
        self.no_match.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.no_match)
        self.stack.addWidget(self.tree)
        from simgui.gui.copies_view import CopiesView

        self.copies = CopiesView(model)  # the flat "copies only" view
        self.stack.addWidget(self.copies)
        self.copies_only_action = QAction(self.tr("Copies Only"), self)
        self.copies_only_action.setCheckable(True)
        self.copies_only_action.setShortcut(QKeySequence("Ctrl+Shift+D"))
        self.copies_only_action.setToolTip(self.tr("One row per file that is not its group's "
                                                   "reference, flat and sortable"))
        self.copies_only_action.toggled.connect(self.copies.copies.set_active)
        self.copies_only_action.toggled.connect(lambda _on: self._update_empty_state())
        self.copies.selectionModel().currentChanged.connect(self._copy_selected)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter)
        layout.addWidget(self.stack, 1)

        self.open_action = QAction(self.tr("Open File"), self)
        self.open_action.setShortcut(QKeySequence(Qt.Key.Key_Return))
        self.open_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.show_action = QAction(self.tr("Show in Folder"), self)
        self.show_action.setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.show_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.tree.addAction(self.open_action)
        self.tree.addAction(self.show_action)
        self.open_action.triggered.connect(self.open_current)
        self.show_action.triggered.connect(self.show_current_in_folder)
        self.tree.doubleClicked.connect(self._double_clicked)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.filter.textChanged.connect(self._filter_changed)
        self.filter.textChanged.connect(lambda _text: self._update_empty_state())
        self.tree.selectionModel().selectionChanged.connect(self._selection_changed)
        self.tree.selectionModel().currentChanged.connect(self._selection_changed)
        model.modelReset.connect(self._update_empty_state)
        model.modelReset.connect(self._update_picture_column)
        # a slider move or a filter rebuilds the groups: the groups the user opened stay open
        self._expanded: set[str] = set()  # reference paths of the groups opened
        #: open every group at the next new table if there are few (set for new results;
        #: a slider move keeps the groups the user opened)
        self.open_few_next = True
        self.tree.expanded.connect(self._remember_expanded)
        self.tree.collapsed.connect(self._forget_expanded)
        model.modelReset.connect(self._restore_expanded)
        self.make_reference_action = QAction(self.tr("Make Reference"), self)
        self.make_reference_action.setToolTip(self.tr(
            "Keep this file instead of the group's reference (the reference cannot be marked)"))
        self.make_reference_action.triggered.connect(self.make_current_reference)
        self.expand_all_action = QAction(self.tr("Expand All Groups"), self)
        self.expand_all_action.setShortcut(QKeySequence("Ctrl+Shift+Down"))
        self.expand_all_action.triggered.connect(self.expand_all)
        self.collapse_all_action = QAction(self.tr("Collapse All Groups"), self)
        self.collapse_all_action.setShortcut(QKeySequence("Ctrl+Shift+Up"))
        self.collapse_all_action.triggered.connect(self.collapse_all)
        self.ignore_action = QAction(self.tr("Not Duplicates (Ignore)"), self)
        self.ignore_action.setToolTip(self.tr(
            "These files are not duplicates: they leave the group now and in every later "
            "search (the ignore list, in Settings)"))
        self.ignore_action.triggered.connect(self.ignore_current)
        self.set_empty_text(self.tr("<h3>Add a folder to begin</h3>"
                                    "<p>Use <b>Add Folder</b>, or drop folders on the Folders "
                                    "list, then press <b>Scan</b>.</p>"))

    # -- columns ------------------------------------------------------------------------

    def _section_resized(self, _column: int, _old: int, _new: int) -> None:
        if not self._fitting:
            self._user_sized = True

    def fit_columns(self) -> None:
        """Name and Folder share the width the other shown columns leave (Name the larger
        part), so the default columns fit without scrolling sideways; once the user has
        sized a column his widths stay."""
        if self._user_sized:
            return
        header = self.tree.header()
        width = self.tree.viewport().width()
        others = sum(header.sectionSize(c) for c in range(header.count())
                     if c not in (NAME, FOLDER) and not header.isSectionHidden(c))
        chars = self.tree.fontMetrics().averageCharWidth()
        left = width - others
        name = max(_NAME_CHARS * chars, round(left * 0.58))
        folder = max(_FOLDER_CHARS * chars, left - name)
        self._fitting = True
        try:
            header.resizeSection(NAME, name)
            header.resizeSection(FOLDER, folder)
        finally:
            self._fitting = False

    def _header_menu(self, pos) -> None:
        """Show or hide columns (all but Name)."""
        header = self.tree.header()
        menu = QMenu(self)
        for column in sorted(range(1, len(COLUMNS)), key=header.visualIndex):
            action = menu.addAction(header_text(column))
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(column))
            action.toggled.connect(lambda on, c=column: self.set_column_shown(c, on))
        menu.exec(header.mapToGlobal(pos))

    def set_column_shown(self, column: int, shown: bool) -> None:
        self.tree.setColumnHidden(column, not shown)
        if column == PICTURE:
            self.tree.doItemsLayout()  # the rows' height follows the thumbnails
        self.fit_columns()

    def shows_pictures(self) -> bool:
        """Whether the groups are of pictures: those of a picture method, or at least
        half of the group references (of the first few thousand) are.  (Any one made
        every row as tall as a thumbnail, in a collection of text files with a folder of
        photos among them.)"""
        t = self.model.table
        if t is None or len(t) == 0:
            return False
        if self.pictures_method:  # groups of the picture methods: pictures, if any
            return True
        references = t.rows[t.start[:-1]][:_PICTURE_PROBE]
        if t.files.is_picture is not None:  # decoded as pictures by the scan: one lookup
            pictures = int(t.files.is_picture[references].sum())  # (a slider move runs this)
        else:
            pictures = sum(is_picture_path(t.files.paths[int(f)]) for f in references)
        return 2 * pictures >= len(references)

    def _update_picture_column(self) -> None:
        """Show the Picture column when the groups become groups of pictures, hide it
        when they stop being; in between the user's choice (header menu) holds."""
        pictures = self.shows_pictures()
        if pictures != self._pictures_shown:
            self._pictures_shown = pictures
            self.set_column_shown(PICTURE, pictures)

    def _thumbnail_loaded(self, _key) -> None:
        if not self.tree.isColumnHidden(PICTURE):
            self.tree.viewport().update()  # repaints only what is in sight

    def set_empty_text(self, html: str) -> None:
        self.empty.setText(html)
        # a wrapped label in a stacked page is not given its height by the layout
        self.empty.setMinimumHeight(self.empty.heightForWidth(self.empty.width()))
        self._update_empty_state()

    def _update_empty_state(self) -> None:
        has_rows = self.model.rowCount() > 0
        if not has_rows and self.filter.text() and self.model.table is not None \
                and len(self.model.table):
            self.no_match.setText(self.tr("No group has a file whose path contains "
                                          "“{text}”.").format(text=self.filter.text()))
            self.stack.setCurrentWidget(self.no_match)
            return
        shown = self.copies if self.copies_only_action.isChecked() else self.tree
        self.stack.setCurrentWidget(shown if has_rows else self._empty_page)

    # -- selection ------------------------------------------------------------------

    def selected_files(self) -> list[int]:
        """File indices of the selected file rows, in view order."""
        rows = self.tree.selectionModel().selectedRows(NAME)
        files = [self.model.file_of(i) for i in rows]
        return [f for f in files if f >= 0]

    def current_group(self) -> int:
        return self.model.group_of(self.tree.currentIndex())

    def select_file(self, file: int) -> bool:
        index = self.model.index_of_file(file)
        if not index.isValid():
            return False
        self.tree.expand(index.parent())
        self.tree.setCurrentIndex(index)
        self.tree.scrollTo(index)
        return True

    def _reference_path(self, group_index: QModelIndex) -> str | None:
        t = self.model.table
        g = self.model.group_of(group_index)
        return t.files.paths[int(t.rows[t.start[g]])] if t is not None and g >= 0 else None

    def _filter_changed(self, text: str) -> None:
        # the groups shown change as for new results: few of them show open (also when
        # the filter is cleared, which showed every group closed)
        self.open_few_next = True
        self.model.set_filter(text)

    def _remember_expanded(self, index: QModelIndex) -> None:
        path = self._reference_path(index)
        if path is not None:
            self._expanded.add(path)

    def _forget_expanded(self, index: QModelIndex) -> None:
        self._expanded.discard(self._reference_path(index))

    def expand_all(self) -> None:
        self.tree.expandAll()

    def collapse_all(self) -> None:
        self.tree.collapseAll()
        self._expanded.clear()

    def make_current_reference(self) -> None:
        f = self.model.file_of(self.tree.currentIndex())
        if f >= 0 and self.model.make_reference(f):
            self.select_file(f)

    def ignore_current(self) -> None:
        """Ignore the current member with its reference, or the current group whole."""
        index = self.tree.currentIndex()
        rows = self.tree.selectionModel().selectedRows(NAME) or ([index] if index.isValid()
                                                               else [])
        pairs = list(dict.fromkeys(p for i in rows for p in self.model.pairs_to_ignore(i)))
        if pairs:
            self.ignore_requested.emit(pairs)

    def _restore_expanded(self) -> None:
        """Open again the groups that hold the references of the groups opened before;
        open them all when there are few."""
        t = self.model.table
        open_few, self.open_few_next = self.open_few_next, False
        if open_few and t is not None and 0 < self.model.group_count() <= FEW_GROUPS:
            self.tree.expandAll()
            return
        if not self._expanded or t is None:
            return
        wanted = self._expanded
        self._expanded = set()
        for f in (i for i, p in enumerate(t.files.paths) if p in wanted):
            index = self.model.index_of_file(f)
            if index.isValid():
                self.tree.expand(index.parent())  # remembered again under its new reference

    def _copy_selected(self, current: QModelIndex, _previous=None) -> None:
        f = self.copies.copies.file_of(current)
        if f >= 0:
            self.selection_changed.emit([f], self.model.group_of(self.model.index_of_file(f)))

    def _selection_changed(self, *_args) -> None:
        self.selection_changed.emit(self.selected_files(), self.current_group())

    # -- files ------------------------------------------------------------------------

    def current_file(self) -> int:
        """The current file as an index into the shown table's files, -1 if none."""
        if self.copies_only_action.isChecked():
            return self.copies.copies.file_of(self.copies.currentIndex())
        return self.model.file_of(self.tree.currentIndex())

    def current_path(self) -> str | None:
        f = self.current_file()
        return self.model.table.files.paths[f] if f >= 0 else None

    def open_current(self) -> None:
        path = self.current_path()
        if path:
            open_path(path, self.window(), "file")

    def show_current_in_folder(self) -> None:
        path = self.current_path()
        if path:
            open_path(os.path.dirname(path), self.window(), "folder")

    def _double_clicked(self, index: QModelIndex) -> None:
        if self.model.file_of(index) >= 0:
            self.open_current()

    def _context_menu(self, pos) -> None:
        index = self.tree.indexAt(pos)
        menu = QMenu(self)
        if self.model.file_of(index) >= 0:
            menu.addAction(self.open_action)
            menu.addAction(self.show_action)
            menu.addSeparator()
            self.make_reference_action.setEnabled(not self.model.is_reference(index))
            menu.addAction(self.make_reference_action)
        if index.isValid():
            self.ignore_action.setEnabled(bool(self.model.pairs_to_ignore(index)))
            menu.addAction(self.ignore_action)
            menu.addSeparator()
        for action in self.extra_actions:
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.expand_all_action)
        menu.addAction(self.collapse_all_action)
        if not menu.isEmpty():
            menu.exec(self.tree.viewport().mapToGlobal(pos))
