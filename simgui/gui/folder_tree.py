"""Folder states in a tree (dupeGuru's folder states): each subfolder of an added folder
is normal, a reference (its files are kept, never moved or deleted) or excluded (not
scanned).  A state holds for everything below, unless a subfolder says otherwise.

Subfolders are listed lazily, one level when opened, never through a symbolic link.
A field tests a path against the skip patterns, so a pattern can be checked before a
scan.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QTreeWidget,
    QTreeWidgetItem, QVBoxLayout,
)

from simgui.core.reading.scanner import ScanOptions
from simgui.core.shown import shown_path

NORMAL, REFERENCE, EXCLUDED = "normal", "reference", "excluded"
_PATH = Qt.ItemDataRole.UserRole
_LOADED = Qt.ItemDataRole.UserRole + 1
_COLOURS = {REFERENCE: "#2e7d32", EXCLUDED: "#b00020"}
# a state as the tree shows it, translated where shown (context "FolderTreeDialog")
_STATE_TEXT = {NORMAL: QT_TRANSLATE_NOOP("FolderTreeDialog", "normal"),
               REFERENCE: QT_TRANSLATE_NOOP("FolderTreeDialog", "reference"),
               EXCLUDED: QT_TRANSLATE_NOOP("FolderTreeDialog", "excluded")}


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def state_of(path: str, references, excluded) -> tuple[str, str]:
    """(state, the folder that set it): the deepest of ``references`` and ``excluded``
    holding ``path`` decides; none: normal."""
    best, state = "", NORMAL
    for folder, kind in [*((r, REFERENCE) for r in references),
                         *((e, EXCLUDED) for e in excluded)]:
        if _inside(path, folder) and len(folder) > len(best):
            best, state = folder, kind
    return state, best


class FolderTreeDialog(QDialog):
    def __init__(self, folders, references=(), excluded=(), excludes=(), parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Folder states"))
        self.references = [os.path.abspath(r) for r in references]
        self.excluded = [os.path.abspath(e) for e in excluded]
        self.patterns = list(excludes)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Folder"), self.tr("State")])
        self.tree.setColumnWidth(0, 380)
        self.tree.itemExpanded.connect(self._load_children)
        for folder in folders:
            self.tree.addTopLevelItem(self._item(os.path.abspath(folder), folder))
        buttons = QHBoxLayout()
        self.state_buttons = {}
        for state, text in ((NORMAL, self.tr("Normal")), (REFERENCE, self.tr("Reference")),
                            (EXCLUDED, self.tr("Excluded"))):
            button = QPushButton(text)
            button.clicked.connect(lambda _c=False, s=state: self.set_state_of_selected(s))
            buttons.addWidget(button)
            self.state_buttons[state] = button
        buttons.addStretch(1)
        self.test_path = QLineEdit()
        self.test_path.setPlaceholderText(self.tr("Type a path to see whether a scan reads it"))
        self.test_result = QLabel()
        self.message = QLabel()
        self.message.setStyleSheet("color: #b00020")
        self.test_path.textChanged.connect(self._test)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr("A state holds for every folder below, unless one of them says "
                               "otherwise. <b>Reference</b>: its files are kept, never moved or "
                               "deleted. <b>Excluded</b>: not scanned."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.test_path)
        layout.addWidget(self.test_result)
        layout.addWidget(box)
        self.resize(620, 480)
        self._refresh()

    # -- the tree ---------------------------------------------------------------------

    def _item(self, path: str, text: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem([shown_path(text), ""])
        item.setData(0, _PATH, (path,))  # a tuple: a Qt string drops odd bytes
        item.setData(0, _LOADED, False)
        item.setToolTip(0, shown_path(path))
        item.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)
        return item

    def _load_children(self, item: QTreeWidgetItem) -> None:
        if item.data(0, _LOADED):
            return
        item.setData(0, _LOADED, True)
        path = item.data(0, _PATH)[0]
        try:
            with os.scandir(path) as entries:
                names = sorted(e.name for e in entries if e.is_dir(follow_symlinks=False))
        except OSError as exc:
            names = []
            item.setToolTip(0, self.tr("{path}\nCannot list: {error}").format(
                path=shown_path(path), error=exc.strerror or exc))
        for name in names:
            item.addChild(self._item(os.path.join(path, name), name))
        if not names:
            item.setChildIndicatorPolicy(
                QTreeWidgetItem.ChildIndicatorPolicy.DontShowIndicator)
        self._refresh(item)

    def item_for(self, path: str) -> QTreeWidgetItem | None:
        """The item of ``path``, opening the folders above it."""
        path = os.path.abspath(path)
        items = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        while items:
            item = next((i for i in items if _inside(path, i.data(0, _PATH)[0])), None)
            if item is None:
                return None
            if item.data(0, _PATH)[0] == path:
                return item
            item.setExpanded(True)
            self._load_children(item)
            items = [item.child(k) for k in range(item.childCount())]
        return None

    def set_state(self, path: str, state: str) -> str:
        """Give ``path`` its own ``state``; "" when done, else why it cannot be."""
        path = os.path.abspath(path)
        references = [r for r in self.references if r != path]
        excluded = [e for e in self.excluded if e != path]
        inherited, source = state_of(path, references, excluded)
        why = ""
        if state != inherited and inherited == EXCLUDED:
            why = self.tr("{folder} is excluded: nothing below it is scanned.").format(
                folder=shown_path(source))
        elif state == NORMAL and inherited == REFERENCE:
            why = self.tr("{folder} is a reference: everything below it is kept.").format(
                folder=shown_path(source))
        elif state != inherited:  # a state equal to the one above needs no entry
            (references if state == REFERENCE else excluded).append(path)
        if not why:
            self.references, self.excluded = references, excluded
        self.message.setText(why)
        self._refresh()
        return why

    def set_state_of_selected(self, state: str) -> None:
        for item in self.tree.selectedItems():
            self.set_state(item.data(0, _PATH)[0], state)

    def _refresh(self, root: QTreeWidgetItem | None = None) -> None:
        stack = [root] if root is not None else [self.tree.topLevelItem(i) for i in
                                                 range(self.tree.topLevelItemCount())]
        while stack:
            item = stack.pop()
            path = item.data(0, _PATH)[0]
            state, source = state_of(path, self.references, self.excluded)
            shown = self.tr(_STATE_TEXT[state])
            item.setText(1, shown if source in ("", path)
                         else self.tr("{state} (from above)").format(state=shown))
            colour = _COLOURS.get(state)
            item.setForeground(1, QBrush(QColor(colour)) if colour else QBrush())
            stack.extend(item.child(k) for k in range(item.childCount()))
        self._test(self.test_path.text())

    def _test(self, text: str) -> None:
        text = text.strip()
        if not text:
            self.test_result.clear()
            return
        path = os.path.abspath(os.path.expanduser(text))
        options = ScanOptions(excludes=tuple(self.patterns))
        parts = path.split(os.sep)
        for depth in range(2, len(parts) + 1):
            partial = os.sep.join(parts[:depth]) or os.sep
            if options.excluded(parts[depth - 1], partial):
                self.test_result.setText(
                    self.tr("Skipped: “{path}” matches a skip pattern.").format(
                        path=shown_path(partial)))
                return
        state, source = state_of(path, self.references, self.excluded)
        if state == EXCLUDED:
            self.test_result.setText(self.tr("Skipped: inside the excluded folder {folder}.")
                                     .format(folder=shown_path(source)))
        elif state == REFERENCE:
            self.test_result.setText(self.tr("Scanned, as a reference (kept): inside {folder}.")
                                     .format(folder=shown_path(source)))
        else:
            self.test_result.setText(self.tr("Scanned."))
