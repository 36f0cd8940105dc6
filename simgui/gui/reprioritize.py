"""Re-prioritize: choose the reference (the file kept) of every group at once, by rules
taken in order (dupeGuru's "Re-Prioritize Results"): in a folder first, newest,
oldest, largest, smallest, shortest path, name matching a pattern.  The dialog says
how many groups would change before anything does."""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QLineEdit, QListWidget,
    QListWidgetItem, QPushButton, QVBoxLayout, QWidget,
)

from simgui.core.search.groups import GroupTable

#: rule name -> what the dialog calls it (translated where shown, context
#: "ReprioritizeDialog"); rules with an argument ask for it
RULES = {
    "folder": QT_TRANSLATE_NOOP("ReprioritizeDialog", "In this folder first"),
    "newest": QT_TRANSLATE_NOOP("ReprioritizeDialog", "Newest"),
    "oldest": QT_TRANSLATE_NOOP("ReprioritizeDialog", "Oldest"),
    "largest": QT_TRANSLATE_NOOP("ReprioritizeDialog", "Largest"),
    "smallest": QT_TRANSLATE_NOOP("ReprioritizeDialog", "Smallest"),
    "shortest-path": QT_TRANSLATE_NOOP("ReprioritizeDialog", "Shortest path"),
    "name": QT_TRANSLATE_NOOP("ReprioritizeDialog",
                              "Name matches (glob, or re: for a regular expression)"),
}
_WITH_ARGUMENT = {"folder", "name"}


@dataclass(frozen=True)
class Rule:
    name: str
    argument: str = ""

    def describe(self) -> str:
        text = QCoreApplication.translate("ReprioritizeDialog", RULES[self.name])
        return f"{text}: {self.argument}" if self.argument else text


def _name_test(pattern: str):
    if pattern.startswith("re:"):
        regex = re.compile(pattern[3:])
        return lambda name: regex.search(name) is not None
    return lambda name: fnmatch.fnmatchcase(name, pattern)


def _key(table: GroupTable, rule: Rule) -> np.ndarray:
    """Per row of ``table``: smaller is preferred."""
    files = table.files
    rows = table.rows
    if rule.name == "newest":
        return -files.mtimes_ns[rows].astype(np.float64)
    if rule.name == "oldest":
        return files.mtimes_ns[rows].astype(np.float64)
    if rule.name == "largest":
        return -files.sizes[rows].astype(np.float64)
    if rule.name == "smallest":
        return files.sizes[rows].astype(np.float64)
    if rule.name == "shortest-path":
        return np.array([len(files.paths[f]) for f in rows.tolist()], np.float64)
    if rule.name == "folder":
        folder = os.path.abspath(os.path.expanduser(rule.argument)).rstrip(os.sep) + os.sep
        return np.array([0.0 if files.paths[f].startswith(folder) else 1.0
                         for f in rows.tolist()])
    if rule.name == "name":
        test = _name_test(rule.argument)
        return np.array([0.0 if test(os.path.basename(files.paths[f])) else 1.0
                         for f in rows.tolist()])
    raise ValueError(f"unknown rule {rule.name!r}")


def choose_references(table: GroupTable, rules: list[Rule], groups=None) -> list[int]:
    """The file each group of ``groups`` (default: all) would have as its reference
    under ``rules`` (ties keep the current reference); only the groups that change."""
    if table is None or len(table) == 0 or not rules:
        return []
    keys = [_key(table, r) for r in rules]
    is_reference = np.zeros(len(table.rows), np.float64)
    is_reference[table.start[:-1]] = -1.0  # ties: the current reference stays
    order = np.lexsort((is_reference, *reversed(keys), table.group_of_row))
    # the first row of each group in that order is its best file
    group_sorted = table.group_of_row[order]
    first = order[np.flatnonzero(np.diff(group_sorted, prepend=-1) != 0)]
    wanted = set(range(len(table))) if groups is None else set(groups)
    return [int(table.rows[r]) for r in first.tolist()
            if r != table.start[table.group_of_row[r]]
            and int(table.group_of_row[r]) in wanted]


class ReprioritizeDialog(QDialog):
    """Rules in order; OK makes the references they choose."""

    def __init__(self, table: GroupTable, groups=None, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Re-prioritize"))
        self.table, self.groups = table, groups
        self.available = QComboBox()
        for name, text in RULES.items():
            self.available.addItem(self.tr(text), name)
        self.argument = QLineEdit()
        self.argument.setPlaceholderText(self.tr("folder, or name pattern"))
        self.add_button = QPushButton(self.tr("Add"))
        self.add_button.clicked.connect(self._add)
        self.rules_list = QListWidget()
        self.up_button, self.down_button = QPushButton(self.tr("Up")), QPushButton(self.tr("Down"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.up_button.clicked.connect(lambda: self._move(-1))
        self.down_button.clicked.connect(lambda: self._move(1))
        self.remove_button.clicked.connect(self._remove)
        self.summary = QLabel()
        self.error = QLabel()
        self.error.setStyleSheet("color: #b00020")
        top = QHBoxLayout()
        top.addWidget(self.available, 2)
        top.addWidget(self.argument, 3)
        self.available.currentIndexChanged.connect(self._rule_picked)
        top.addWidget(self.add_button)
        side = QVBoxLayout()
        for b in (self.up_button, self.down_button, self.remove_button):
            side.addWidget(b)
        side.addStretch(1)
        middle = QHBoxLayout()
        middle.addWidget(self.rules_list, 1)
        middle.addLayout(side)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Choose each group's reference (the file kept) by these "
                                        "rules, the first deciding first:")))
        layout.addLayout(top)
        layout.addWidget(self.error)
        layout.addLayout(middle)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        self.resize(640, 360)
        self._rule_picked()
        self._update()

    def _rule_picked(self, *_args) -> None:
        name = self.available.currentData()
        self.argument.setEnabled(name in _WITH_ARGUMENT)
        self.argument.setPlaceholderText(
            self.tr("a folder") if name == "folder"
            else self.tr("e.g. *.jpg, or re:^IMG_\\d+") if name == "name" else "")

    def add_rule(self, rule: Rule) -> None:
        item = QListWidgetItem(rule.describe())
        item.setData(Qt.ItemDataRole.UserRole, rule)
        self.rules_list.addItem(item)
        self.rules_list.setCurrentItem(item)
        self._update()

    def rules(self) -> list[Rule]:
        return [self.rules_list.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.rules_list.count())]

    def chosen(self) -> list[int]:
        """The files that become references (one per group that changes)."""
        return choose_references(self.table, self.rules(), self.groups)

    def _add(self) -> None:
        name = self.available.currentData()
        argument = self.argument.text().strip()
        self.error.clear()
        if name in _WITH_ARGUMENT and not argument:
            self.error.setText(self.tr("This rule needs a folder or a name pattern in the field."))
            return
        if name == "name" and argument.startswith("re:"):
            try:
                re.compile(argument[3:])
            except re.error as exc:
                self.error.setText(self.tr("Not a regular expression: {error}").format(error=exc))
                return
        self.add_rule(Rule(name, argument if name in _WITH_ARGUMENT else ""))

    def _move(self, step: int) -> None:
        row = self.rules_list.currentRow()
        if row < 0 or not 0 <= row + step < self.rules_list.count():
            return
        item = self.rules_list.takeItem(row)
        self.rules_list.insertItem(row + step, item)
        self.rules_list.setCurrentRow(row + step)
        self._update()

    def _remove(self) -> None:
        row = self.rules_list.currentRow()
        if row >= 0:
            self.rules_list.takeItem(row)
        self._update()

    def _update(self) -> None:
        n = len(self.chosen())
        total = len(self.table) if self.groups is None else len(self.groups)
        self.summary.setText(
            self.tr("<b>{n:,}</b> of {total:,} groups would get another reference.").format(
                n=n, total=total) if self.rules() else self.tr("Add a rule."))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(n > 0)
