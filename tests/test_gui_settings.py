"""Preferences, logging and the unexpected-error dialog."""

import dataclasses
import logging

from PySide6.QtWidgets import QMessageBox

from simgui.core.logs import log_path, setup_logging
from simgui.core.settings import Settings, load_settings
from simgui.gui.crash import CrashReporter
from simgui.gui.main_window import MainWindow
from simgui.gui.settings_dialog import SettingsDialog
from tests.test_gui_window import WAIT_MS, scan_tree


def test_dialog_shows_settings_and_restores_defaults(qtbot):
    s = Settings(default_action="move", move_target="/tmp", reference_rule="newest",
                 key_tolerance=5.0, sum_tolerance=2.0, workers=3, store="/tmp/x.sqlite3")
    dialog = SettingsDialog(s)
    qtbot.addWidget(dialog)
    assert dialog.settings() == s
    dialog.restore_defaults()
    d = Settings()
    got = dialog.settings()
    assert (got.default_action, got.reference_rule, got.key_tolerance, got.workers, got.store) \
        == (d.default_action, d.reference_rule, d.key_tolerance, d.workers, d.store)


def test_new_reference_rule_regroups_and_is_saved(qtbot, window, tmp_path):
    w = window
    scan_tree(qtbot, w, tmp_path)
    table = w.table
    oldest = {table.files.paths[table.rows[s]] for s in table.start[:-1]}
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        w.apply_preferences(dataclasses.replace(w.current_settings(), reference_rule="newest"))
    table = w.table
    newest = {table.files.paths[table.rows[s]] for s in table.start[:-1]}
    assert newest != oldest and len(newest) == len(oldest) == 6
    assert load_settings(tmp_path / "settings.json").reference_rule == "newest"


def test_default_action_decides_what_delete_does(qtbot, tmp_path):
    w = MainWindow(settings=Settings(default_action="move"), settings_path=str(tmp_path / "s"))
    qtbot.addWidget(w)
    assert w.move_action.shortcut().toString() == "Del"
    assert w.trash_action.shortcut().toString() != "Del"


def test_unexpected_errors_are_logged_and_shown_once(qtbot, monkeypatch):
    setup_logging()
    shown = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.detailedText()) or 0)
    reporter = CrashReporter()
    try:
        raise RuntimeError("boom in a slot")
    except RuntimeError as exc:
        with qtbot.waitSignal(reporter._report):
            reporter.handle(type(exc), exc, exc.__traceback__)
    assert len(shown) == 1 and "boom in a slot" in shown[0]
    for handler in logging.getLogger("simgui").handlers:
        handler.flush()
    assert "boom in a slot" in log_path().read_text()


def test_per_extension_tolerances_are_checked_and_regroup(qtbot, window, tmp_path):
    s = Settings(overrides="PS=3.2,0.23 ;")
    dialog = SettingsDialog(s)
    qtbot.addWidget(dialog)
    assert dialog.settings().overrides == "ps=3.2,0.23"  # tidied
    dialog.overrides.setText("ps=3.2")
    dialog.accept()  # refused: the dialog stays open and says why
    assert dialog.result() != SettingsDialog.DialogCode.Accepted
    assert "EXT=KEY,SUM" in dialog.overrides_error.text()

    w = window
    scan_tree(qtbot, w, tmp_path)
    assert any(not w.table.identical[w.table.start[g]:w.table.start[g + 1]].all()
               for g in range(len(w.table.start) - 1))  # the edited copies are grouped
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        w.apply_preferences(dataclasses.replace(w.current_settings(), overrides="bin=0,0"))
    assert w.search_settings().overrides == (("bin", 0.0, 0.0),)
    table = w.table
    members = [table.files.paths[r] for r in table.rows]
    assert len(table.start) == 7 and not any("edited" in p for p in members)
    assert load_settings(tmp_path / "settings.json").overrides == "bin=0,0"


def test_misspelt_per_extension_tolerances_are_ignored_and_said(qtbot, tmp_path):
    w = MainWindow(settings=Settings(overrides="ps=0.2,0.2; pdf=1,O.24"),
                   settings_path=str(tmp_path / "s"))
    qtbot.addWidget(w)
    assert w.search_settings().overrides == ()
    assert "Per-extension tolerances ignored" in w.status_text.text()
    assert "O.24" in w.status_text.text()


def test_an_override_naming_a_double_extension_says_what_to_write(qtbot):
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.show()
    height = dialog.height()
    dialog.overrides.setText("tar.gz=1,0.5")
    dialog.accept()
    assert dialog.result() != SettingsDialog.DialogCode.Accepted
    label = dialog.overrides_error
    assert "write gz=1,0.5" in label.text()
    # room for every line of the reason, and no blank lines around it
    assert label.isVisible() and label.height() == label.heightForWidth(label.width())
    width = dialog.width()
    assert dialog.height() < height + 2 * label.height()
    dialog.overrides.setText("gz=1,0.5")  # corrected: the reason goes, and its room too
    assert label.isHidden() and dialog.height() == height and dialog.width() == width
