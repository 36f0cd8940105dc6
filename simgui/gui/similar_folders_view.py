"""The Folders view: similar folders (backups of backups) beside the file groups.

Above, the top-most folder pairs with their figures (pairs alike because their
parents are folded under them); below, the selected pair side by side: each
folder's files marked *same* (an identical file in the other), *similar* (with its
similarity) or *only here* (double-click a file to see its group); Trash Folder A/B
asks the window to send a folder's files to the trash, Merge A into B (or B into A) to
merge them (:mod:`simgui.core.cleanup.folder_merge`, confirmed in :class:`MergeDialog`).
The pairs come from the groups' table
(:mod:`simgui.core.search.similar_folders`), computed on a pool thread whenever the
groups change and the view is shown.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem,
    QPlainTextEdit, QPushButton, QSpinBox, QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
    QWidget,
)

from simgui.core.search.groups import GroupTable
from simgui.core.search.similar_folders import (
    DEFAULT_MIN_SIMILARITY, FileStatus, FolderIndex, FolderPair,
)
from simgui.core.units import format_bytes, format_share
from simgui.gui.tasks import Task, Tasks

# the headers and statuses, translated where shown (context "SimilarFoldersView")
PAIR_COLUMNS = [QT_TRANSLATE_NOOP("SimilarFoldersView", "Similar"),
                QT_TRANSLATE_NOOP("SimilarFoldersView", "A in B"),
                QT_TRANSLATE_NOOP("SimilarFoldersView", "B in A"),
                QT_TRANSLATE_NOOP("SimilarFoldersView", "Files A"),
                QT_TRANSLATE_NOOP("SimilarFoldersView", "Files B"),
                QT_TRANSLATE_NOOP("SimilarFoldersView", "To free"),
                QT_TRANSLATE_NOOP("SimilarFoldersView", "Folder A"),
                QT_TRANSLATE_NOOP("SimilarFoldersView", "Folder B")]
_STATUS = {"identical": (QT_TRANSLATE_NOOP("SimilarFoldersView", "same"), QColor(46, 125, 50)),
           "similar": (QT_TRANSLATE_NOOP("SimilarFoldersView", "similar"), QColor(191, 120, 0)),
           "only": (QT_TRANSLATE_NOOP("SimilarFoldersView", "only here"), QColor(183, 28, 28))}


def _tr(text: str) -> str:
    return QCoreApplication.translate("SimilarFoldersView", text)


def folder_pairs(table: GroupTable, min_similarity: float, progress=None):
    """(index, top-most pairs) of a groups' table: what the view's worker runs."""
    index = FolderIndex(table)
    return index, index.pairs(min_similarity, progress=progress)


def _shown(path: str) -> str:
    """A path as text a widget can show (bytes that are not UTF-8 as U+FFFD)."""
    return os.fsencode(path).decode("utf-8", "replace")


class _Side(QWidget):
    """One folder of the pair: its files as a tree, each with its status."""

    def __init__(self, title: str):
        super().__init__()
        self.title = QLabel(title)
        self.title.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels([self.tr("Name"), self.tr("Status"), self.tr("Size")])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setUniformRowHeights(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.tree)

    def show_files(self, label: str, folder: str, files: list[FileStatus]) -> None:
        self.title.setText(f"<b>{label}</b> {_shown(folder)}")
        self.tree.clear()
        nodes: dict[str, QTreeWidgetItem] = {}
        for f in files:
            parts = f.relative.split(os.sep)
            parent = self.tree.invisibleRootItem()
            for depth in range(len(parts) - 1):
                key = os.sep.join(parts[:depth + 1])
                if key not in nodes:
                    nodes[key] = QTreeWidgetItem(parent, [_shown(parts[depth])])
                    nodes[key].setExpanded(True)
                parent = nodes[key]
            text, color = _STATUS[f.status]
            text = _tr(text)
            if f.status == "similar":
                text = self.tr("similar {percent} %").format(
                    percent=format_share(f.similarity))  # as `folders --diff` says it
            item = QTreeWidgetItem(parent, [_shown(parts[-1]), text, format_bytes(f.size)])
            item.setForeground(1, QBrush(color))
            item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight)
            tip = _shown(f.path) + (self.tr("\nmatches {path}").format(path=_shown(f.match))
                                    if f.match else "")
            for column in range(3):
                item.setToolTip(column, tip)
            item.setData(0, Qt.ItemDataRole.UserRole, f.file)
        self.tree.resizeColumnToContents(1)
        self.tree.resizeColumnToContents(2)

    def clear(self, label: str) -> None:
        self.title.setText(f"<b>{label}</b>")
        self.tree.clear()


class SimilarFoldersView(QWidget):
    """Folder pairs and the selected pair side by side; follows ``model``'s table."""

    pairs_ready = Signal()  # the pairs of the current table are shown
    #: a file double-clicked in a side: its row in the table's files (to show its group)
    file_activated = Signal(int)
    #: Trash A / Trash B: the folder whose files are to go (each only if an identical copy
    #: outside it stays; the window plans, confirms and runs it as a clean-up).  Paths
    #: travel as objects: a Qt string would drop the bytes of a name that are not UTF-8
    trash_requested = Signal(object)
    #: Merge A into B / B into A: (the folder merged, the folder it goes into)
    merge_requested = Signal(object, object)

    def __init__(self, model=None, parent=None):
        super().__init__(parent)
        self.model = model
        self.table: GroupTable | None = None
        self.index: FolderIndex | None = None
        self.pairs: list[FolderPair] = []
        self._stale = False
        self._generation = 0
        self.workers = Tasks(self)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.min_similarity = QSpinBox()
        self.min_similarity.setRange(1, 100)
        self.min_similarity.setValue(int(DEFAULT_MIN_SIMILARITY))
        self.min_similarity.setSuffix(" %")
        self.min_similarity.setPrefix(self.tr("at least "))
        self.min_similarity.setToolTip(self.tr("List folder pairs at least this alike: the "
                                               "share of both folders' bytes that is in the "
                                               "other (a file with only a similar file there "
                                               "counts at its similarity)"))
        self.min_similarity.valueChanged.connect(self._recompute)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.min_similarity)

        self.list = QTreeWidget()
        self.list.setColumnCount(len(PAIR_COLUMNS))
        self.list.setHeaderLabels([_tr(text) for text in PAIR_COLUMNS])
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        for c in range(6):
            self.list.header().setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        for c in (6, 7):  # the folders share the rest; a long path keeps its end in view
            self.list.header().setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch)
        self.list.setTextElideMode(Qt.TextElideMode.ElideLeft)
        self.list.currentItemChanged.connect(self._pair_selected)
        self.side_a = _Side("A")
        self.side_b = _Side("B")
        for side in (self.side_a, self.side_b):
            side.tree.itemDoubleClicked.connect(self._file_double_clicked)
        sides = QSplitter(Qt.Orientation.Horizontal)
        sides.addWidget(self.side_a)
        sides.addWidget(self.side_b)
        tip = self.tr("Send every file of folder {} to the trash, each only if an identical "
                      "copy outside the folder stays (compared byte for byte right before "
                      "acting); refused if one file has none. Undo Last Clean-up puts them "
                      "back.")
        self.trash_a = QPushButton(self.tr("Trash Folder A…"))
        self.trash_b = QPushButton(self.tr("Trash Folder B…"))
        self._tips = {self.trash_a: tip.format("A"), self.trash_b: tip.format("B")}
        self.trash_a.setToolTip(tip.format("A"))
        self.trash_b.setToolTip(tip.format("B"))
        self.trash_a.clicked.connect(lambda: self._trash("a"))
        self.trash_b.clicked.connect(lambda: self._trash("b"))
        merge_tip = self.tr(
            "Copy into folder {1} every file of {0} whose content {1} lacks (each "
            "verified byte for byte; a file only similar to {1}'s version is kept "
            "beside it unless you pick {0}'s version), then send {0}'s files to the "
            "trash, each compared with its copy first. Undo Last Clean-up puts it back.")
        self.merge_a = QPushButton(self.tr("Merge A into B…"))
        self.merge_b = QPushButton(self.tr("Merge B into A…"))
        self.merge_a.setToolTip(merge_tip.format("A", "B"))
        self.merge_b.setToolTip(merge_tip.format("B", "A"))
        self._tips.update({self.merge_a: merge_tip.format("A", "B"),
                           self.merge_b: merge_tip.format("B", "A")})
        self.merge_a.clicked.connect(lambda: self._merge("a"))
        self.merge_b.clicked.connect(lambda: self._merge("b"))
        for side, trash, merge in ((self.side_a, self.trash_a, self.merge_a),
                                   (self.side_b, self.trash_b, self.merge_b)):
            buttons = QHBoxLayout()
            buttons.addWidget(trash)
            buttons.addWidget(merge)
            buttons.addStretch(1)
            side.layout().addLayout(buttons)
        self._enable_trash(False)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.list)
        split.addWidget(sides)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self._show_state()
        if model is not None:
            model.modelReset.connect(self._model_reset)

    # -- following the groups ------------------------------------------------------------

    def _model_reset(self) -> None:
        self.set_table(getattr(self.model, "table", None))

    def set_table(self, table: GroupTable | None) -> None:
        """The groups changed: recompute now if shown, else when shown."""
        if table is self.table and not self._stale:
            return
        self.table = table
        self._stale = True
        if self.isVisible():
            self._recompute()
        else:
            self._show_state()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self._recompute()

    def _recompute(self) -> None:
        self._generation += 1
        self._stale = False
        self.workers.cancel_all()
        self.index, self.pairs = None, []
        self._enable_trash(False)
        self.list.clear()
        self.side_a.clear("A")
        self.side_b.clear("B")
        if self.table is None:
            self._show_state()
            self.pairs_ready.emit()
            return
        self.summary.setText(self.tr("Finding similar folders…"))
        task = Task(self.tr("Similar folders"), folder_pairs, self.table,
                    float(self.min_similarity.value()))
        task.generation = self._generation
        task.succeeded.connect(self._arrived)
        task.failed.connect(self._failed)
        self.workers.start(task)

    def _arrived(self, result) -> None:
        task = self.sender()
        if getattr(task, "generation", self._generation) != self._generation:
            return  # an older table's
        self.index, self.pairs = result
        self._fill(self.pairs)
        self._show_state()
        self.pairs_ready.emit()

    def _failed(self, message: str) -> None:
        self.summary.setText(self.tr("Similar folders could not be found: {error}").format(
            error=message))
        self.pairs_ready.emit()

    def _show_state(self) -> None:
        if self.table is None:
            self.summary.setText(self.tr("Scan folders to find folders that are copies of "
                                         "each other (backups of backups)."))
        elif self.index is None:
            self.summary.setText(self.tr("Similar folders are found when this view is shown."))
        elif not self.pairs:
            self.summary.setText(self.tr("No two folders are {percent} % alike or more.").format(
                percent=self.min_similarity.value()))
        else:
            total = sum(p.bytes_to_free for p in self.pairs)
            n = len(self.pairs)
            if n == 1:
                text = self.tr("{n:,} pair of similar folders, {size} in files with a match in "
                               "the other folder. Expand a pair for the pairs of its subfolders.")
            else:
                text = self.tr("{n:,} pairs of similar folders, {size} in files with a match in "
                               "the other folder. Expand a pair for the pairs of its subfolders.")
            self.summary.setText(text.format(n=n, size=format_bytes(total)))

    # -- the pairs -------------------------------------------------------------------------

    def _fill(self, pairs: list[FolderPair]) -> None:
        self.list.setUpdatesEnabled(False)
        self.list.clear()

        def add(parent, p: FolderPair):
            item = QTreeWidgetItem(parent, [
                f"{format_share(p.similarity)} %", f"{format_share(p.a_in_b)} %",
                f"{format_share(p.b_in_a)} %",
                f"{p.files_a:,}", f"{p.files_b:,}", format_bytes(p.bytes_to_free),
                _shown(p.a) + (self.tr(" (without B)") if p.nested else ""), _shown(p.b)])
            for c in range(6):
                item.setTextAlignment(c, Qt.AlignmentFlag.AlignRight)
            item.setToolTip(6, _shown(p.a))
            item.setToolTip(7, _shown(p.b))
            item.setData(0, Qt.ItemDataRole.UserRole, p)
            for child in p.children:
                add(item, child)

        for p in pairs:
            add(self.list, p)
        self.list.setUpdatesEnabled(True)
        if pairs:
            self.list.setCurrentItem(self.list.topLevelItem(0))

    def _enable_trash(self, on: bool, nested: bool = False) -> None:
        """The clean-up buttons, for a pair selected (``on``); where B is inside A,
        only Trash Folder B can be done (A holds B, so trashing A trashes B's copies
        too; a folder is never merged with a folder inside it): the others are off, and
        say why."""
        why = self.tr("A holds B: this pair can only be cleaned up by trashing B, whose "
                      "files have their copies in the rest of A")
        for button in (self.trash_a, self.trash_b, self.merge_a, self.merge_b):
            off = nested and button is not self.trash_b
            button.setEnabled(on and not off)
            button.setToolTip(why if on and off else self._tips[button])

    def current_pair(self) -> FolderPair | None:
        item = self.list.currentItem()
        return None if item is None else item.data(0, Qt.ItemDataRole.UserRole)

    def _trash(self, side: str) -> None:
        pair = self.current_pair()
        if pair is not None:
            self.trash_requested.emit(pair.a if side == "a" else pair.b)

    def _merge(self, side: str) -> None:
        pair = self.current_pair()
        if pair is not None:
            self.merge_requested.emit(*((pair.a, pair.b) if side == "a" else (pair.b, pair.a)))

    def _pair_selected(self, item, _previous=None) -> None:
        self._enable_trash(item is not None and self.index is not None,
                           item is not None and item.data(0, Qt.ItemDataRole.UserRole).nested)
        if item is None or self.index is None:
            self.side_a.clear("A")
            self.side_b.clear("B")
            return
        pair: FolderPair = item.data(0, Qt.ItemDataRole.UserRole)
        statuses = self.index.diff(pair.a, pair.b)
        a_label = self.tr("A (without B)") if pair.nested else "A"
        self.side_a.show_files(a_label, pair.a, [s for s in statuses if s.side == "a"])
        self.side_b.show_files("B", pair.b, [s for s in statuses if s.side == "b"])

    def _file_double_clicked(self, item, _column=0) -> None:
        f = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(f, int) and f >= 0:
            self.file_activated.emit(f)

    def select(self, a: str, b: str) -> bool:
        """Select the pair of folders ``a`` and ``b`` (folded or not); False if not listed."""
        stack = [self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount())]
        while stack:
            item = stack.pop()
            p = item.data(0, Qt.ItemDataRole.UserRole)
            if {p.a, p.b} == {a, b}:
                self.list.setCurrentItem(item)
                return True
            stack.extend(item.child(i) for i in range(item.childCount()))
        return False


# -- merging ----------------------------------------------------------------------------


class MergeDialog(QDialog):
    """Confirm a merge: what is copied into B and what goes to the trash, and for each
    file of A only similar to B's version, whether A's version replaces it (checked) or
    is kept beside it (unchecked, the default: nothing is lost either way)."""

    def __init__(self, plan, similar: list[FileStatus], parent=None):
        super().__init__(parent)
        from simgui.core.cleanup.folder_merge import COPY, TRASH_A, TRASH_B

        self.setWindowTitle(self.tr("Merge folders"))
        layout = QVBoxLayout(self)
        from simgui.gui.plan_text import describe_merge, merge_reason

        text = QLabel(_shown(describe_merge(plan)))  # MergePlan.describe, translated
        text.setWordWrap(True)
        layout.addWidget(text)
        self.choices = QListWidget()
        for s in similar:
            match = _shown(os.path.relpath(s.match, plan.b))
            item = QListWidgetItem(
                self.tr("Use A's version of {path} ({percent} % alike to B/{match})").format(
                    path=_shown(s.relative), percent=format_share(s.similarity, 0),
                    match=match))
            item.setData(Qt.ItemDataRole.UserRole, (s.path,))  # a tuple: see preferred
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.choices.addItem(item)
        if similar:
            layout.addWidget(QLabel(self.tr("Files only similar to B's version (unchecked: A's "
                                            "version is kept beside B's; checked: it replaces "
                                            "B's, which goes to the trash):")))
            layout.addWidget(self.choices)
            rows = min(len(similar), 6)
            self.choices.setMaximumHeight(self.choices.sizeHintForRow(0) * rows
                                          + 2 * self.choices.frameWidth() + 4)
        steps = QPlainTextEdit()
        steps.setReadOnly(True)
        words = {COPY: self.tr("copy"), TRASH_A: self.tr("trash"), TRASH_B: self.tr("trash")}
        width = max(6, *(len(w) + 1 for w in words.values()))

        def inside(path: str) -> str:  # A/..., B/...: the folders are named above
            for side, folder in (("A", plan.a), ("B", plan.b)):
                if path.startswith(folder.rstrip(os.sep) + os.sep):
                    return f"{side}/{_shown(os.path.relpath(path, folder))}"
            return _shown(path)

        steps.setPlainText("\n".join(
            f"{words[s.kind]:<{width}} {inside(s.path)}"
            + (f"  →  {inside(s.target)}  ({merge_reason(s.why)})" if s.target else "")
            + (self.tr("  (replaced by A's version)") if s.kind == TRASH_B else "")
            for s in plan.steps[:5000]))
        layout.addWidget(QLabel(self.tr("Every step, in order (A: {a}, B: {b}):").format(
            a=_shown(plan.a), b=_shown(plan.b))))
        layout.addWidget(steps, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.go = buttons.addButton(self.tr("Merge"), QDialogButtonBox.ButtonRole.AcceptRole)
        # as every clean-up's confirmation: Enter does not act, Cancel is the default
        self.go.setAutoDefault(False)
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setDefault(True)
        cancel.setFocus()
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(760, 520)

    def preferred(self) -> list[str]:
        """A's files whose version the user picked (each kept as a 1-tuple: a Qt string
        would drop the bytes of a name that are not UTF-8)."""
        return [self.choices.item(i).data(Qt.ItemDataRole.UserRole)[0]
                for i in range(self.choices.count())
                if self.choices.item(i).checkState() == Qt.CheckState.Checked]


def merge_job(store_path: str, plan, folders, options, search, *, progress=None):
    """Carry out a merge plan on the worker thread, then rescan so the view is true (as
    :func:`simgui.gui.jobs.act` does for a clean-up)."""
    from simgui.core.cleanup.folder_merge import execute_merge
    from simgui.core.reading.scanner import scan
    from simgui.core.store import Store
    from simgui.gui import jobs

    with Store(store_path) as store:
        result = execute_merge(plan, store, progress=progress)
        rep = scan(store, folders, options, None)
        return jobs.Results(**jobs._analyse(store, folders, search, None), scan=rep,
                            batch=result)
