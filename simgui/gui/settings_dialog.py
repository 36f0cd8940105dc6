"""Preferences: default clean-up action, reference rule, search defaults, threads, store."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout,
    QLabel, QLineEdit, QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

from simgui.core.settings import Settings
from simgui.core.search.simfind import format_overrides, parse_overrides
from simgui.core.store import default_db_path

# the labels, translated where shown (context "SettingsDialog")
_RULES = {"oldest": QT_TRANSLATE_NOOP("SettingsDialog", "Oldest file"),
          "newest": QT_TRANSLATE_NOOP("SettingsDialog", "Newest file"),
          "largest": QT_TRANSLATE_NOOP("SettingsDialog", "Largest file"),
          "shortest-path": QT_TRANSLATE_NOOP("SettingsDialog", "Shortest path")}
_ACTIONS = {"trash": QT_TRANSLATE_NOOP("SettingsDialog", "Move to Trash"),
            "move": QT_TRANSLATE_NOOP("SettingsDialog", "Move to a folder")}
_SCHEMES = {"skew": QT_TRANSLATE_NOOP("SettingsDialog", "Skew (the paper's key)"),
            "uniform": QT_TRANSLATE_NOOP("SettingsDialog", "Uniform"),
            "custom": QT_TRANSLATE_NOOP("SettingsDialog", "Custom")}
# each language named in itself; "system": the system's language (QLocale.system())
_LANGUAGES = {"system": QT_TRANSLATE_NOOP("SettingsDialog", "System default"),
              "en": "English", "de": "Deutsch"}


def _combo(choices: dict[str, str]) -> QComboBox:
    box = QComboBox()
    for value, label in choices.items():
        box.addItem(QCoreApplication.translate("SettingsDialog", label), value)
    return box


def _select(box: QComboBox, value) -> None:
    box.setCurrentIndex(max(box.findData(value), 0))


def _with_button(edit: QLineEdit, button: QPushButton) -> QWidget:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(edit, 1)
    layout.addWidget(button)
    return row


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent=None, ignored=()):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self._original = settings
        self.action = _combo(_ACTIONS)
        self.action.setToolTip(self.tr("What Delete does to the marked files"))
        self.move_target = QLineEdit()
        self.move_target.setPlaceholderText(self.tr("ask each time"))
        browse_target = QPushButton(self.tr("Browse…"))
        browse_target.clicked.connect(self._choose_target)
        self.rule = _combo(_RULES)
        self.rule.setToolTip(self.tr("Which file of a group is its reference (kept by default), "
                                     "after files in reference folders"))
        self.scheme = _combo(_SCHEMES)
        self.key = QDoubleSpinBox()
        self.sum = QDoubleSpinBox()
        for box in (self.key, self.sum):
            box.setRange(0.01, 10.0)
            box.setDecimals(3)
            box.setSuffix(" %")
            box.setSingleStep(0.1)
        self.overrides = QLineEdit()
        self.overrides.setPlaceholderText(self.tr("none, e.g. ps=3.2,0.23; pdf=1,0.24"))
        self.overrides.setToolTip(self.tr(
            "Fixed key and sum-table tolerances (percent) for the files of an extension, "
            "whatever the sliders: for formats whose files share a large header, such as "
            "PostScript, where unrelated files otherwise look alike"))
        self.overrides_error = QLabel()
        self.overrides_error.setWordWrap(True)
        self.overrides_error.hide()
        self.overrides.textChanged.connect(lambda _: self._show_overrides_error(""))
        self.workers = QSpinBox()
        self.workers.setRange(0, 256)
        self.workers.setSpecialValueText(self.tr("one per processor core"))
        self.store = QLineEdit()
        self.store.setPlaceholderText(str(default_db_path()))
        browse_store = QPushButton(self.tr("Browse…"))
        browse_store.clicked.connect(self._choose_store)
        self.language = _combo(_LANGUAGES)
        self.language.setToolTip(self.tr("The window's language; the command line stays English"))
        language_note = QLabel(self.tr("<small>applied at the next start</small>"))
        language_row = QWidget()
        language_box = QHBoxLayout(language_row)
        language_box.setContentsMargins(0, 0, 0, 0)
        language_box.addWidget(self.language)
        language_box.addWidget(language_note, 1)

        form = QFormLayout()
        form.addRow(self.tr("Clean-up action"), self.action)
        form.addRow(self.tr("Move to"), _with_button(self.move_target, browse_target))
        form.addRow(self.tr("Group reference"), self.rule)
        form.addRow(self.tr("Key scheme"), self.scheme)
        form.addRow(self.tr("Key tolerance"), self.key)
        form.addRow(self.tr("Sum-table tolerance"), self.sum)
        # the reason sits under the field in a box of its own: as a form row of its own,
        # the form sized it for a narrower width and left blank lines around it
        overrides_field = QWidget()
        overrides_box = QVBoxLayout(overrides_field)
        overrides_box.setContentsMargins(0, 0, 0, 0)
        overrides_box.addWidget(self.overrides)
        overrides_box.addWidget(self.overrides_error)
        form.addRow(self.tr("Per-extension tolerances"), overrides_field)
        form.addRow(self.tr("Reading threads"), self.workers)
        form.addRow(self.tr("Store"), _with_button(self.store, browse_store))
        form.addRow(self.tr("Language"), language_row)
        from simgui.gui.ignore_list import IgnoreListEditor

        self.ignore_list = IgnoreListEditor(ignored)  # pairs that are not duplicates
        form.addRow(self.tr("Not duplicates"), self.ignore_list)
        note = QLabel(self.tr("<small>The store holds the scan results. A different store "
                              "starts empty; nothing is copied or deleted.</small>"))
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel
                                   | QDialogButtonBox.StandardButton.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(
            self.restore_defaults)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.show_settings(settings)

    def show_settings(self, s: Settings) -> None:
        _select(self.action, s.default_action)
        self.move_target.setText(s.move_target)
        _select(self.rule, s.reference_rule)
        _select(self.scheme, s.scheme)
        self.key.setValue(s.key_tolerance)
        self.sum.setValue(s.sum_tolerance)
        self.overrides.setText(s.overrides)
        self.workers.setValue(s.workers)
        self.store.setText(s.store or "")
        _select(self.language, s.language)

    def restore_defaults(self) -> None:
        """Defaults for what this dialog shows; folders and marks are left as they are."""
        self.show_settings(Settings())

    def settings(self) -> Settings:
        """The original settings with this dialog's values."""
        return dataclasses.replace(
            self._original, default_action=self.action.currentData(),
            move_target=self.move_target.text().strip(), reference_rule=self.rule.currentData(),
            scheme=self.scheme.currentData(), key_tolerance=self.key.value(),
            sum_tolerance=self.sum.value(), overrides=self._overrides_text(),
            workers=self.workers.value(),
            store=self.store.text().strip() or None, language=self.language.currentData())

    def _overrides_text(self) -> str:
        """The overrides as typed, tidied when they parse."""
        text = self.overrides.text().strip()
        try:
            return format_overrides(parse_overrides(text))
        except ValueError:
            return text

    def accept(self) -> None:
        try:
            parse_overrides(self.overrides.text())
        except ValueError as exc:
            self._show_overrides_error(str(exc))
            self.overrides.setFocus()
            return
        super().accept()

    def _show_overrides_error(self, text: str) -> None:
        """Show why the overrides are refused, or hide the reason ("")."""
        if not text and self.overrides_error.isHidden():
            return
        self.overrides_error.setText(f"<small>{text}</small>")
        self.overrides_error.setStyleSheet("color: palette(link-visited);")  # as elsewhere
        self.overrides_error.setVisible(bool(text))
        # a top-level window neither grows nor shrinks by itself for a wrapped label;
        # its width stays as the user left it
        self.overrides_error.parentWidget().layout().activate()
        layout = self.layout()
        layout.activate()
        self.resize(self.width(), layout.totalHeightForWidth(self.width()))

    def _choose_target(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Move marked files to"))
        if folder:
            self.move_target.setText(folder)

    def _choose_store(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Store file"), self.store.text()
                                              or str(default_db_path()),
                                              self.tr("simgui stores (*.sqlite3);;All files (*)"),
                                              options=QFileDialog.Option.DontConfirmOverwrite)
        if path:
            self.store.setText(path)
