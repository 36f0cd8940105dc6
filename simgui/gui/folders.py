"""The folders panel: what to scan, which folders are references, what to skip."""

from __future__ import annotations

import csv

import os
from urllib.parse import unquote_to_bytes

from PySide6.QtCore import QSize, Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem,
    QPushButton, QSizePolicy, QVBoxLayout,
)

from simgui.core.reading.names import folder_of_pattern, folder_pattern
from simgui.core.reading.scanner import exclude_pattern
from simgui.core.shown import shown_path, unshown_path
from simgui.core.units import format_bytes, parse_size


#: a listed folder's path, as a 1-tuple: Qt would hold a str as a QString, which drops
#: the bytes of a name that are not UTF-8 (the list shows them as \xNN)
_PATH = Qt.ItemDataRole.UserRole


def _tokens(text: str) -> list[str]:
    """The skip-names field's patterns: separated by commas, a pattern in double quotes
    when it holds one (a folder named "a,b"), a quote in it doubled."""
    try:
        return [t.strip() for t in next(csv.reader([text], skipinitialspace=True), [])]
    except csv.Error:  # (a quote left open by hand: commas alone)
        return [t.strip() for t in text.split(",")]


def _path_of(item) -> str:
    return item.data(_PATH)[0]


def _rebased(path: str, named: dict[str, str]) -> str:
    """``path`` with the listed folder it is, or lies in, as given replaced by the folder
    that names (``named``: as given -> :func:`_named`)."""
    if path in named:
        return named[path]
    for given, folder in named.items():
        prefix = given.rstrip(os.sep) + os.sep
        if given != folder and path.startswith(prefix):
            return os.path.join(folder, path[len(prefix):])
    return path


def _named(folder: str) -> str:
    """The folder a listed path names: absolute, and the folder itself where the path is
    a link (a scan does not follow links)."""
    folder = os.path.abspath(folder)
    return os.path.realpath(folder) if os.path.islink(folder) else folder


class FolderList(QListWidget):
    """Folders, each with a check box meaning "reference"; folders can be dropped on it."""

    dropped = Signal(object)  # a list of paths (a Qt list of strings drops odd bytes)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        # as tall as its folders (a few rows at least, a scroll bar past eight)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self.model().rowsInserted.connect(lambda *_: self.updateGeometry())
        self.model().rowsRemoved.connect(lambda *_: self.updateGeometry())

    MIN_ROWS, MAX_ROWS = 3, 8

    def sizeHint(self) -> QSize:
        rows = min(max(self.count(), self.MIN_ROWS), self.MAX_ROWS)
        row = self.sizeHintForRow(0) if self.count() else self.fontMetrics().height() + 4
        frame = 2 * self.frameWidth()
        return QSize(super().sizeHint().width(), rows * row + frame)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def dragEnterEvent(self, event):
        if event.mimeData().hasUrls():
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    dragMoveEvent = dragEnterEvent

    def dropEvent(self, event):
        # every local path, so that a file dropped is said to be no folder; each read from
        # the URL's bytes (toLocalFile() turns a byte that is not UTF-8 into U+FFFD)
        # (a file on this machine only: a host's name, file://server/x, is not /x)
        paths = [os.fsdecode(unquote_to_bytes(
            u.path(QUrl.ComponentFormattingOption.FullyEncoded)))
            for u in event.mimeData().urls() if u.isLocalFile() and u.host() in ("", "localhost")]
        paths = [p for p in paths if os.path.isabs(p)]  # (file: alone names no folder)
        if paths:
            self.dropped.emit(paths)
            event.acceptProposedAction()


class FoldersPanel(QGroupBox):
    changed = Signal()  # folders, references, excludes or minimum size
    notice = Signal(str)  # something the user should read in the status bar

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle(self.tr("Folders"))
        self.list = FolderList()
        self.list.setToolTip(self.tr(
            "Folders to scan. Tick a folder to make it a reference: its files "
            "are kept first and never moved or deleted.\nDrop folders here."))
        self.add_button = QPushButton(self.tr("Add…"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setEnabled(False)
        self.states_button = QPushButton(self.tr("States…"))
        self.states_button.setToolTip(
            self.tr("Subfolders in a tree: normal, reference or excluded"))
        self.states_button.clicked.connect(self.edit_states)
        self._sub_references: list[str] = []  # reference folders inside the listed ones
        self.excludes = QLineEdit()
        self._set_patterns: dict[str, str] = {}  # as shown -> as set (set_exclude_patterns)
        self.excludes.setPlaceholderText(self.tr("e.g. .git, *.tmp, node_modules"))
        self._excludes_tip = self.tr(
            "Names to skip (files or folders), separated by commas; * and "
            "? work as in a shell; re: and a regular expression skips the "
            "paths it is found in (re:/build/)")
        self.excludes.setToolTip(self._excludes_tip)
        self.min_size = QLineEdit("0")
        self.min_size.setToolTip(self.tr("Skip files smaller than this (e.g. 0, 4k, 1M)"))

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.states_button)
        buttons.addStretch(1)
        form = QFormLayout()
        form.addRow(self.tr("Skip names"), self.excludes)
        form.addRow(self.tr("Minimum size"), self.min_size)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addLayout(form)

        self.add_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.dropped.connect(self.add_folders)
        self.list.itemChanged.connect(lambda _item: self.changed.emit())
        self.list.itemSelectionChanged.connect(
            lambda: self.remove_button.setEnabled(bool(self.list.selectedItems())))
        self.excludes.editingFinished.connect(lambda: self.changed.emit())
        self.min_size.editingFinished.connect(self._min_size_edited)

    # -- folders ------------------------------------------------------------------

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to scan"),
                                                  os.path.expanduser("~"))
        if folder:
            self.add_folders([folder])

    def add_folders(self, folders: list[str], references: list[str] | None = None) -> None:
        """Add ``folders``; ``references`` (when given: the whole list, as settings keep
        it) ticks the listed ones and keeps the subfolders among them as references."""
        given = references is not None
        if given:  # a listed folder named through a link is the folder it names: so too
            # its reference tick and the references inside it (they were lost, and the
            # folders unprotected, at the next start)
            named = {os.path.abspath(f): _named(f) for f in [*self.folders(), *folders]}
            references = [_rebased(os.path.abspath(r), named) for r in references]
            top = set(named.values())
            self._sub_references = [r for r in references if r not in top]
        references = references or ()
        known = set(self.folders())
        self.rejected = []
        added = 0
        for folder in folders:
            folder = _named(folder)
            if not os.path.isdir(folder):
                self.rejected.append(folder)  # gone, or a file: never a scan root
                continue
            if folder in known:
                continue
            known.add(folder)
            item = QListWidgetItem(shown_path(folder))
            item.setData(_PATH, (folder,))  # (a tuple: a Qt string drops odd bytes)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if folder in references
                               else Qt.CheckState.Unchecked)
            item.setToolTip(self.tr("{folder}\nTick to make it a reference folder (protected)")
                            .format(folder=shown_path(folder)))
            self.list.blockSignals(True)
            self.list.addItem(item)
            self.list.blockSignals(False)
            added += 1
        if added or given:  # (else nothing changed, and the notice below stays)
            self.changed.emit()
        if self.rejected:
            self.notice.emit(self.tr("Not a folder, not added: {folders}")
                             .format(folders=", ".join(map(shown_path, self.rejected))))

    def remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self.changed.emit()

    def folders(self) -> list[str]:
        return [_path_of(self.list.item(i)) for i in range(self.list.count())]

    def references(self) -> list[str]:
        """Reference folders: the ticked ones, and subfolders given that state (States…)
        inside a listed folder."""
        ticked = [_path_of(self.list.item(i)) for i in range(self.list.count())
                  if self.list.item(i).checkState() == Qt.CheckState.Checked]
        listed = self.folders()
        return ticked + [r for r in self._sub_references if r not in ticked and any(
            r.startswith(f.rstrip(os.sep) + os.sep) for f in listed)]

    def excluded_folders(self) -> list[str]:
        """The folders skip patterns name exactly (by their absolute paths, glob
        characters escaped: see core.reading.names.folder_pattern)."""
        return [f for f in map(folder_of_pattern, self.exclude_patterns()) if f is not None]

    def edit_states(self) -> None:
        """The folder tree: each subfolder normal, reference or excluded."""
        from simgui.gui.folder_tree import FolderTreeDialog

        dialog = FolderTreeDialog(self.folders(), self.references(), self.excluded_folders(),
                                  self.exclude_patterns(), self)
        self.states_dialog = dialog  # tests find it here
        if dialog.exec() != FolderTreeDialog.DialogCode.Accepted:
            return
        self.apply_states(dialog.references, dialog.excluded)

    def apply_states(self, references: list[str], excluded: list[str]) -> None:
        top = self.folders()
        self.list.blockSignals(True)
        for i in range(self.list.count()):
            item = self.list.item(i)
            item.setCheckState(Qt.CheckState.Checked if _path_of(item) in references
                               else Qt.CheckState.Unchecked)
        self.list.blockSignals(False)
        self._sub_references = [r for r in references if r not in top]
        self.set_exclude_patterns([p for p in self.exclude_patterns()
                                   if folder_of_pattern(p) is None]
                                  + [folder_pattern(e) for e in excluded])
        self.changed.emit()

    def set_reference(self, folder: str, on: bool = True) -> None:
        for i in range(self.list.count()):
            if _path_of(self.list.item(i)) == folder:
                self.list.item(i).setCheckState(Qt.CheckState.Checked if on
                                                else Qt.CheckState.Unchecked)

    # -- options ------------------------------------------------------------------

    def exclude_patterns(self) -> list[str]:
        """The skip patterns (globs, or re: and a regular expression); one that is not a
        valid regular expression is left out, and the field's tip says which."""
        patterns, bad = [], []
        for p in _tokens(self.excludes.text()):
            if p:
                try:
                    patterns.append(exclude_pattern(self._set_patterns.get(p) or (
                        unshown_path(p) if os.path.isabs(p) else p)))
                except ValueError as exc:
                    bad.append(str(exc))
        self.excludes.setToolTip(self.tr("Left out: {patterns}").format(patterns="; ".join(bad))
                                 if bad else self._excludes_tip)
        return patterns

    def set_exclude_patterns(self, patterns: list[str]) -> None:
        # a folder excluded in States… whose name is not UTF-8 shows its odd bytes as \xNN
        # (a Qt string would drop them), and is read back as those bytes: each path set
        # here exactly as it was set (a name may hold a backslash and an x itself), one
        # typed by hand from its \xNN
        # a folder set from States… shows as itself, not as its escaped pattern; one whose
        # name holds a comma (the field's separator) or a quote goes in quotes
        shown = [shown_path(folder_of_pattern(p) or p) if os.path.isabs(p) else p
                 for p in patterns]
        self._set_patterns = dict(zip(shown, patterns))
        self.excludes.setText(", ".join(
            '"' + t.replace('"', '""') + '"' if "," in t or t.startswith('"') else t
            for t in shown))

    def minimum_size_valid(self) -> bool:
        try:
            parse_size(self.min_size.text() or "0")
            return True
        except ValueError:
            return False

    def minimum_size(self) -> int:
        try:
            return parse_size(self.min_size.text() or "0")
        except ValueError:
            return 0

    def set_minimum_size(self, size: int) -> None:
        self.min_size.setText(format_bytes(size) if size else "0")

    def _min_size_edited(self) -> None:
        try:
            parse_size(self.min_size.text() or "0")
            self.min_size.setStyleSheet("")
            self.min_size.setToolTip(self.tr("Skip files smaller than this (e.g. 0, 4k, 1M)"))
        except ValueError as exc:
            self.min_size.setStyleSheet("color: palette(link-visited);")
            self.min_size.setToolTip(str(exc))
            self.notice.emit(self.tr("Minimum size: {error}").format(error=exc))
        self.changed.emit()
