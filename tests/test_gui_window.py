"""The real main window, offscreen: add a folder, scan, see groups, move sliders, act."""

import os

import numpy as np
from PySide6.QtWidgets import QMessageBox

from simgui.core.cleanup import Action
from simgui.gui.main_window import MainWindow

WAIT_MS = 120_000  # numba may compile on a fresh machine


def make_tree(root):
    rng = np.random.default_rng(3)
    (root / "docs").mkdir()
    (root / "backup").mkdir()
    (root / "other").mkdir()
    for i in range(6):
        data = bytes(rng.integers(0, 256, 20_000 + 3000 * i, dtype=np.uint8))
        (root / "docs" / f"file{i}.bin").write_bytes(data)
        (root / "backup" / f"file{i}.bin").write_bytes(data)  # identical copy
        edited = bytearray(data)
        edited[100:110] = b"0123456789"  # a similar copy
        (root / "other" / f"file{i} (edited).bin").write_bytes(bytes(edited))
    (root / "other" / "alone.txt").write_text("nothing like the others " * 200)


def scan_tree(qtbot, w, tmp_path):
    """``make_tree`` in tmp_path/tree, scanned by ``w``; the tree's root."""
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    scan(qtbot, w, root)
    return root


def scan(qtbot, w, folder):
    w.folders.add_folders([str(folder)])
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        w.start_scan()
    assert w.analysis is not None, w.status_text.text()


def test_empty_window_invites_to_add_a_folder(window):
    assert "Add a folder to begin" in window.groups.empty.text()
    assert window.groups.empty_button.isVisible()
    assert not window.scan_action.isEnabled()


def test_the_columns_a_user_decides_by_fit_the_default_window(qtbot, window, tmp_path):
    from simgui.gui.groups_model import FOLDER, IDENTICAL, NAME, SIMILARITY, SIZE

    window.resize(1280, 820)  # the first-run size
    scan_tree(qtbot, window, tmp_path)
    header = window.groups.tree.header()
    first = [header.logicalIndex(v) for v in range(5)]
    assert first == [NAME, FOLDER, SIZE, SIMILARITY, IDENTICAL]
    shown = sum(header.sectionSize(c) for c in first)
    assert shown <= window.groups.tree.viewport().width()
    fm = window.groups.tree.fontMetrics()
    assert header.sectionSize(SIMILARITY) > fm.horizontalAdvance("≥ 99.99 %")


def test_scan_finds_groups_and_sliders_change_counts(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    model = window.model
    assert model.rowCount() == 6  # each original with its copy and its edited copy
    assert all(model.rowCount(model.index(r, 0)) == 3 for r in range(6))
    assert "6</b> groups" in window.tolerance.counts.text()

    # the tightest sum-table tolerance keeps only identical copies
    window.tolerance.sum.slider.setValue(0)
    qtbot.waitUntil(lambda: window.table is not None and all(
        window.model.rowCount(window.model.index(r, 0)) == 2 for r in range(6)))
    tight = window.analysis.counts(window.tolerance.tolerances())
    assert tight.sum_hits == 6
    assert f"{tight.sum_hits:,} similar pairs" in window.tolerance.counts.text()
    window.tolerance.sum.set_value(1.0)
    qtbot.waitUntil(lambda: window.model.rowCount(window.model.index(0, 0)) == 3)


def test_clicking_a_point_selects_its_file(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    window.tabs.setCurrentWidget(window.key_chart)
    window._refresh_key_chart()
    f = int(window.table.rows[window.table.start[2] + 1])
    window.key_chart.fileClicked.emit(f)
    assert window.model.file_of(window.groups.tree.currentIndex()) == f
    assert window.groups.selected_files() == [f]


def test_dry_run_says_what_would_happen_and_cancel_changes_nothing(qtbot, window, tmp_path,
                                                                   monkeypatch):
    root = scan_tree(qtbot, window, tmp_path)
    window.mark_identical()
    plan = window.plan(Action.TRASH)
    assert plan.files == 6 and not plan.similar_only
    assert plan.describe().startswith("Send 6 files")
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Cancel)
    before = sorted(p.name for p in root.rglob("*"))
    window.run_action(Action.TRASH)
    assert "6 files" in window.confirm_box.text()
    assert sorted(p.name for p in root.rglob("*")) == before
    assert window.status_text.text() == "Nothing was changed."


def test_moving_marked_files_runs_through_the_safe_operations(qtbot, window, tmp_path,
                                                               monkeypatch):
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    target = tmp_path / "moved"
    target.mkdir()
    scan(qtbot, window, root)
    window.mark_all_but_reference()
    assert len(window.model.marked) == 12

    def accept(box):
        box.button(QMessageBox.StandardButton.Cancel)  # exists: the user could say no
        accept_button = next(b for b in box.buttons()
                             if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole)
        box.clickedButton = lambda: accept_button
        return 0

    monkeypatch.setattr(QMessageBox, "exec", accept)
    monkeypatch.setattr("simgui.gui.main_window.QFileDialog.getExistingDirectory",
                        lambda *a, **k: str(target))
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.run_action(Action.MOVE)
    moved = sorted(p.name for p in target.rglob("*") if p.is_file())
    assert len(moved) == 12
    # every group kept its reference, and the rescan shows no groups left
    assert len(list((root / "docs").iterdir())) + len(list((root / "backup").iterdir())) \
        + len(list((root / "other").iterdir())) == 19 - 12
    assert window.model.rowCount() == 0
    assert "12 done" in window.status_text.text()
    # the empty view says why, and how to go back (not "raise the tolerance")
    assert "Nothing left to clean up" in window.groups.empty.text()
    assert "Undo Last Clean-up" in window.groups.empty.text()


def test_settings_are_remembered(qtbot, tmp_path):
    path = str(tmp_path / "settings.json")
    w = MainWindow(settings_path=path)
    qtbot.addWidget(w)
    w.folders.add_folders([str(tmp_path)])
    w.tolerance.key.set_value(0.5)
    w.close()
    again = MainWindow(settings_path=path)
    qtbot.addWidget(again)
    assert again.folders.folders() == [str(tmp_path)]
    assert again.tolerance.key.value() == 0.5
    assert os.path.exists(path)


def test_export_writes_the_groups(qtbot, window, tmp_path):
    import csv
    scan_tree(qtbot, window, tmp_path)
    out = tmp_path / "groups.csv"
    window.export_groups(str(out))
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 18 and sum(r["role"] == "reference" for r in rows) == 6


def test_keyboard_space_ticks_the_current_file(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt
    scan_tree(qtbot, window, tmp_path)
    tree = window.groups.tree
    tree.setFocus()
    group = window.model.index(0, 0)
    tree.expand(group)
    tree.setCurrentIndex(window.model.index(1, 0, group))
    qtbot.keyClick(tree, Qt.Key.Key_Space)
    assert len(window.model.marked) == 1
    assert window.trash_action.isEnabled()
    qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert window.groups.tree.currentIndex().row() == 2


def test_dropped_folders_are_added(qtbot, window, tmp_path):
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDropEvent
    (tmp_path / "a").mkdir()
    (tmp_path / "file.txt").write_text("not a folder")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "a")), QUrl.fromLocalFile(str(tmp_path / "file.txt"))])
    event = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.folders.list.dropEvent(event)
    assert window.folders.folders() == [str(tmp_path / "a")]
    assert window.scan_action.isEnabled()
    assert window.status_text.text().startswith("Not a folder, not added")  # said, not lost
    # a folder whose name is not UTF-8 arrives as itself (its URL's bytes, not U+FFFD)
    from urllib.parse import quote_from_bytes
    odd = os.fsencode(str(tmp_path)) + b"/caf\xe9"
    os.mkdir(odd)
    mime = QMimeData()
    mime.setUrls([QUrl.fromEncoded(b"file://" + quote_from_bytes(odd).encode())])
    window.folders.list.dropEvent(QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime,
                                             Qt.MouseButton.LeftButton,
                                             Qt.KeyboardModifier.NoModifier))
    assert window.folders.folders() == [str(tmp_path / "a"), os.fsdecode(odd)]
    # another machine's file (file://host/x is not /x), and a URL that names no path
    mime = QMimeData()
    mime.setUrls([QUrl.fromEncoded(b"file://fileserver/tmp"), QUrl.fromEncoded(b"file:")])
    window.folders.list.dropEvent(QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime,
                                             Qt.MouseButton.LeftButton,
                                             Qt.KeyboardModifier.NoModifier))
    assert window.folders.folders() == [str(tmp_path / "a"), os.fsdecode(odd)]


def test_a_file_dropped_on_the_folders_says_it_was_not_added(qtbot, window, tmp_path):
    """Only folders are scanned: a file added says so in the status bar, and nothing else
    happens that would write over the message (no search starts: nothing changed)."""
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    scan(qtbot, window, root)
    changed = []
    window.folders.changed.connect(lambda: changed.append(True))
    window.folders.add_folders([str(root / "other" / "alone.txt")])
    assert not changed and not window.tasks.busy
    assert window.status_text.text() == f"Not a folder, not added: {root / 'other' / 'alone.txt'}"
    assert window.folders.folders() == [str(root)]


def test_files_that_cannot_be_read_are_listed_not_shown_in_dialogs(qtbot, window, tmp_path):
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    os.mkfifo(root / "other" / "pipe")  # never opened: reading it would block the scan
    os.mkfifo(os.fsencode(str(root / "other")) + b"/caf\xe9 pipe")  # its name not UTF-8
    scan(qtbot, window, root)
    assert any("pipe" in window.problems.item(i).text()
               for i in range(window.problems.count()))
    assert any("caf\\xe9 pipe" in window.problems.item(i).text()  # as ls -b shows it
               for i in range(window.problems.count()))
    assert window.problems_button.isVisible()


def test_a_filter_matching_nothing_says_so(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    window.groups.filter.setText("no such name")
    assert window.groups.stack.currentWidget() is window.groups.no_match
    assert "no such name" in window.groups.no_match.text()
    window.groups.filter.clear()
    assert window.groups.stack.currentWidget() is window.groups.tree
    # few groups: shown open again, as before the filter (it left them all closed)
    tree, model = window.groups.tree, window.model
    assert 0 < model.rowCount() <= 20
    assert all(tree.isExpanded(model.index(r, 0)) for r in range(model.rowCount()))


def test_opened_groups_stay_open_when_a_slider_moves(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    model, tree = window.model, window.groups.tree
    window.groups.collapse_all()  # few groups open by themselves (issue 27)
    tree.expand(model.index(1, 0))
    opened = model.table.files.paths[model.file_of(model.index(0, 0, model.index(1, 0)))]
    window.tolerance.sum.slider.setValue(0)  # only identical copies: every group rebuilt
    qtbot.waitUntil(lambda: all(model.rowCount(model.index(r, 0)) == 2 for r in range(6)))
    shown = [r for r in range(model.rowCount()) if tree.isExpanded(model.index(r, 0))]
    assert len(shown) == 1
    group = model.index(shown[0], 0)
    assert opened in [model.table.files.paths[model.file_of(model.index(k, 0, group))]
                      for k in range(model.rowCount(group))]
    tree.collapse(group)
    window.tolerance.sum.set_value(1.0)
    qtbot.waitUntil(lambda: model.rowCount(model.index(0, 0)) == 3)
    assert not any(tree.isExpanded(model.index(r, 0)) for r in range(model.rowCount()))


def test_a_hard_link_is_said_after_the_scan(qtbot, window, tmp_path):
    # another name of a file is scanned once: a user counting files is told why
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    first = next(p for p in sorted(root.rglob("*")) if p.is_file())
    os.link(first, root / "another name.bin")
    scan(qtbot, window, root)
    assert "1 hard link counted once" in window.status_text.text()


def test_a_folder_with_one_file_or_none_says_so_not_raise_the_tolerance(qtbot, window,
                                                                         tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    scan(qtbot, window, empty)
    text = window.groups.empty.text()
    assert "No files to compare" in text and "tolerance" not in text
    (empty / "one.txt").write_text("alone")
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.start_scan()
    assert "Only one file" in window.groups.empty.text()
    assert window.status_text.text().startswith("Scanned 1 file in")
