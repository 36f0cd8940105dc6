"""The ignore list in Settings: the pairs of files said not to be duplicates, each one
removable (they are kept in the store: simgui.core.store.ignored)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
    QVBoxLayout, QWidget,
)


from simgui.core.shown import shown_path as _shown


class IgnoreListEditor(QWidget):
    """A list of pairs with Remove and Remove All; :meth:`removed` says what went."""

    def __init__(self, pairs=(), parent=None):
        super().__init__(parent)
        self._pairs = [tuple(p) for p in pairs]
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a path's ends say most
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for a, b in self._pairs:
            item = QListWidgetItem(f"{_shown(a)}\n    ≠ {_shown(b)}")
            item.setData(Qt.ItemDataRole.UserRole, (a, b))
            item.setToolTip(self.tr("{first}\nis not a duplicate of\n{second}").format(
                first=_shown(a), second=_shown(b)))
            self.list.addItem(item)
        self.empty = QLabel(self.tr("No pairs: right-click a file or group and choose "
                                    "<b>Not Duplicates (Ignore)</b> to add one."))
        self.empty.setWordWrap(True)
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_all_button = QPushButton(self.tr("Remove All"))
        self.remove_button.clicked.connect(self.remove_selected)
        self.remove_all_button.clicked.connect(self.remove_all)
        self.list.itemSelectionChanged.connect(self._update)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.remove_all_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addWidget(self.empty)
        layout.addLayout(buttons)
        self.list.setMaximumHeight(120)
        self._update()

    def pairs(self) -> list[tuple[str, str]]:
        """The pairs still listed."""
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.list.count())]

    def removed(self) -> list[tuple[str, str]]:
        """The pairs taken off since the editor opened."""
        left = set(self.pairs())
        return [p for p in self._pairs if p not in left]

    def remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self._update()

    def remove_all(self) -> None:
        self.list.clear()
        self._update()

    def _update(self) -> None:
        has = self.list.count() > 0
        self.list.setVisible(has)
        self.empty.setVisible(not has)
        self.remove_button.setEnabled(bool(self.list.selectedItems()))
        self.remove_all_button.setEnabled(has)
