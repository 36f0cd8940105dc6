"""Regressions from the review of the window: what the clean-up may act on, and when."""

import os

import numpy as np
import pytest
from PySide6.QtWidgets import QInputDialog, QMessageBox

from simgui.core.cleanup import Action
from tests.test_gui_window import WAIT_MS, make_tree, scan


@pytest.fixture(autouse=True)
def _private_trash(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def idle(qtbot, w):
    return qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                            check_params_cb=lambda busy: not busy)


def accept_all(monkeypatch, seen):
    def accept(box):
        seen.append(box.text())
        go = next((b for b in box.buttons()
                   if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole), None)
        box.clickedButton = lambda: go
        return 0
    monkeypatch.setattr(QMessageBox, "exec", accept)


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    return root


def test_a_filter_limits_what_the_clean_up_acts_on(qtbot, window, tree):
    scan(qtbot, window, tree)
    window.mark_all_but_reference()
    window.groups.filter.setText("file0")
    assert window.model.rowCount() == 1
    assert window.plan(Action.TRASH).files == 2


def test_a_reference_ticked_during_a_scan_is_protected(qtbot, window, tree, monkeypatch):
    backup = tree / "backup"
    window.folders.add_folders([str(tree / "docs"), str(backup), str(tree / "other")])
    with idle(qtbot, window):
        window.start_scan()
        window.folders.set_reference(str(backup), True)
    qtbot.waitUntil(lambda: not window.tasks.busy and str(backup) in
                    window.analysis.settings.references, timeout=WAIT_MS)
    window.mark_all_but_reference()
    assert not any(p.startswith(str(backup) + os.sep) for p in window.model.marked)
    accept_all(monkeypatch, [])
    with idle(qtbot, window):
        window.run_action(Action.TRASH)
    assert len(list(backup.iterdir())) == 6


def test_ticking_a_reference_unmarks_its_files_at_once(qtbot, window, tree):
    for d in ("docs", "backup", "other"):
        window.folders.add_folders([str(tree / d)])
    with idle(qtbot, window):
        window.start_scan()
    window.mark_all_but_reference()
    window.folders.set_reference(str(tree / "backup"), True)
    assert not any("/backup/" in p for p in window.model.marked)
    qtbot.waitUntil(lambda: not window.tasks.busy, timeout=WAIT_MS)
    assert not window.plan(Action.TRASH).refused


def test_undo_is_off_with_nothing_to_undo_and_files_come_back_unmarked(qtbot, window, tree,
                                                                       monkeypatch):
    scan(qtbot, window, tree)
    assert not window.undo_action.isEnabled()
    window.mark_identical()
    accept_all(monkeypatch, [])
    with idle(qtbot, window):
        window.run_action(Action.TRASH)
    assert window.undo_action.isEnabled()
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes)
    with idle(qtbot, window):
        window.undo_last()
    assert "6 files" in asked[0]
    assert len(list((tree / "backup").iterdir())) == 6
    assert not window.model.marked_in_view()
    assert not window.undo_action.isEnabled()


def test_cancelling_a_clean_up_keeps_its_result(qtbot, window, tmp_path, monkeypatch):
    from simgui.core.cleanup import running
    from simgui.gui.tasks import Task

    root = tmp_path / "many"
    root.mkdir()
    rng = np.random.default_rng(0)
    for i in range(300):
        data = bytes(rng.integers(0, 256, 2000, dtype=np.uint8))
        for c in range(2):
            (root / f"f{i:04d}_{c}.bin").write_bytes(data)
    scan(qtbot, window, root)
    window.mark_all_but_reference()
    accept_all(monkeypatch, [])
    # the user presses Cancel as the 100th file is about to go: progress is reported
    # before every file, and the press lands exactly there (Task.cancel is what the
    # Cancel button calls, through window.cancel)
    monkeypatch.setattr(running, "_PROGRESS_EVERY_SECONDS", 0)
    real_progress = Task.progress

    def progress(task, p):
        if p.phase == "trash" and p.files_done == 100:
            task.cancel()
        return real_progress(task, p)
    monkeypatch.setattr(Task, "progress", progress)
    with idle(qtbot, window):
        window.run_action(Action.TRASH)
    assert len(os.listdir(root)) == 600 - 100  # the 100 done stay done, the rest stay put
    shown = sum(window.model.rowCount(window.model.index(r, 0))
                for r in range(window.model.rowCount()))
    # the view shows what is on disk: 200 pairs untouched, 100 files left without a copy
    assert window.model.rowCount() == 200 and shown == 400
    assert "100 done" in window.status_text.text()
    assert "cancelled" in window.status_text.text().lower()


def test_settings_ok_keeps_marks(qtbot, window, tree):
    scan(qtbot, window, tree)
    window.mark_identical()
    before = set(window.model.marked)
    window.apply_preferences(window.current_settings())
    assert window.model.marked == before


def test_a_failed_reload_leaves_nothing_to_act_on(qtbot, window, tree):
    scan(qtbot, window, tree)
    bad = tree.parent / "notastore.sqlite3"
    bad.write_bytes(b"hello" * 100)
    new = window.current_settings()
    new.store = str(bad)
    with idle(qtbot, window):
        window.apply_preferences(new)
    assert window.table is None and window.model.rowCount() == 0
    window.mark_identical()
    assert not window.trash_action.isEnabled()
    assert bad.read_bytes() == b"hello" * 100


def test_a_damaged_store_is_named_in_the_message(qtbot, window, tree):
    import shutil
    import sqlite3

    scan(qtbot, window, tree)
    damaged = tree.parent / "damaged.sqlite3"
    with sqlite3.connect(window.store_path()) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(window.store_path(), damaged)
    with sqlite3.connect(damaged) as con:
        con.execute("PRAGMA journal_mode = DELETE")
        page = con.execute("PRAGMA page_size").fetchone()[0]
        root_page = con.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'files'").fetchone()[0]
    con.close()
    with open(damaged, "r+b") as f:  # the files table unreadable, the store still opens
        f.seek((root_page - 1) * page)
        f.write(b"\xa5" * page)
    new = window.current_settings()
    new.store = str(damaged)
    with idle(qtbot, window):
        window.apply_preferences(new)
    status = window.status_text.text()
    assert str(damaged) in status and "damaged" in status and "not affected" in status
    # the view says why it is empty, not "Ready to scan"
    assert "could not be loaded" in window.groups.empty.text()
    assert str(damaged) in window.groups.empty.text()
    assert window.table is None and not window.trash_action.isEnabled()


def test_the_charts_key_variant_changes_only_the_chart(qtbot, window, tree):
    # issue 27: a chart's view must not change the search (see tests/test_gui_review.py)
    scan(qtbot, window, tree)
    window.key_chart.variantChanged.emit("Uniform", True)
    assert not window.tasks.busy
    assert window.analysis.settings.scheme.name == "skew"
    assert window.tolerance.scheme_name() == "skew"


def test_custom_weights_are_asked_once(qtbot, window, tree, monkeypatch):
    asked = []
    monkeypatch.setattr(QInputDialog, "getText",
                        lambda *a, **k: (asked.append(1), ("00=1 74=2", True))[1])
    scan(qtbot, window, tree)
    window.tolerance.set_scheme_name("custom")
    with idle(qtbot, window):
        window.tolerance.search_changed.emit()
    with idle(qtbot, window):
        window.tolerance.extensions.setChecked(False)
    assert len(asked) == 1
    assert window.analysis.settings.scheme.name == "custom"


def test_not_a_folder_is_refused_with_a_message(qtbot, window, tree):
    window.folders.add_folders([str(tree / "missing"), str(tree / "other" / "alone.txt")])
    assert window.folders.folders() == []
    assert "Not a folder" in window.status_text.text()


def test_a_linked_folder_is_added_as_the_folder_it_names(qtbot, window, tree):
    link = tree.parent / "docs-link"
    link.symlink_to(tree / "docs")
    window.folders.add_folders([str(link)])
    assert window.folders.folders() == [str(tree / "docs")]  # what a scan will read
    # a reference named through the link (settings saved before, say) keeps its tick
    window.folders.list.clear()
    window.folders.add_folders([str(link)], references=[str(link)])
    assert window.folders.references() == [str(tree / "docs")]
    window.folders.set_reference(str(tree / "docs"), False)
    (tree / "docs" / "keep").mkdir()  # and one inside it, named through the link too
    window.folders.list.clear()
    window.folders.add_folders([str(link)], references=[str(link / "keep")])
    assert window.folders.references() == [str(tree / "docs" / "keep")]
    with idle(qtbot, window):
        window.start_scan()
    assert window.table is not None and window.problems.count() == 0


def test_empty_files_are_never_marked_by_the_helpers(qtbot, window, tree):
    (tree / "docs" / "__init__.py").write_bytes(b"")
    (tree / "other" / "__init__.py").write_bytes(b"")
    scan(qtbot, window, tree)
    window.mark_all_but_reference()
    assert not any(p.endswith("__init__.py") for p in window.model.marked)
