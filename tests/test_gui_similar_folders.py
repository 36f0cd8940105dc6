"""The Folders view: folder pairs beside the groups, and a pair's files side by side."""

import os

from PySide6.QtCore import Qt

from simgui.gui.similar_folders_view import SimilarFoldersView
from tests.test_similar_folders import table

WAIT_MS = 120_000  # numba may compile on a fresh machine

SPEC = [("/home/docs/a", 100, 1, 0, 100), ("/backup/docs/a", 100, 1, 0, 100),
        ("/home/docs/sub/b", 200, 2, 1, 100), ("/backup/docs/sub/b", 210, 3, 1, 90),
        ("/home/docs/c", 300, 4, None, 100), ("/backup/docs/e", 50, 6, None, 100)]


def side_rows(side):
    """(name, status) of every row of one side's tree, depth first."""
    rows, stack = [], [side.tree.topLevelItem(i) for i in range(side.tree.topLevelItemCount())]
    while stack:
        item = stack.pop(0)
        rows.append((item.text(0), item.text(1)))
        stack[:0] = [item.child(i) for i in range(item.childCount())]
    return rows


def test_pairs_and_the_side_by_side_tree(qtbot):
    view = SimilarFoldersView()
    qtbot.addWidget(view)
    view.resize(1000, 600)
    view.show()
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(table(SPEC))
    top = view.list.topLevelItem(0)
    assert view.list.topLevelItemCount() == 1
    # b, 90 % similar, counts at 90 %: home 100 + 180 of 600, backup 100 + 189 of 360
    assert [top.text(c) for c in range(8)] == [
        "59.3 %", "46.7 %", "80.3 %", "3", "3", "310 B", "/home/docs", "/backup/docs"]
    # folded under it, oriented as it is: the subfolders
    assert [(top.child(i).text(6), top.child(i).text(7)) for i in range(top.childCount())] == [
        ("/home/docs/sub", "/backup/docs/sub")]
    assert view.list.currentItem() is top  # the first pair is shown at once
    assert side_rows(view.side_a) == [("a", "same"), ("c", "only here"), ("sub", ""),
                                      ("b", "similar 90.0 %")]
    assert side_rows(view.side_b) == [("a", "same"), ("e", "only here"), ("sub", ""),
                                      ("b", "similar 90.0 %")]
    assert "/home/docs" in view.side_a.title.text()
    if os.environ.get("SIMGUI_SCREENSHOT_DIR"):
        view.grab().save(os.path.join(os.environ["SIMGUI_SCREENSHOT_DIR"], "folders-view.png"))


def test_the_view_follows_the_groups_and_says_when_there_is_nothing(qtbot):
    view = SimilarFoldersView()
    qtbot.addWidget(view)
    view.show()
    assert "Scan folders" in view.summary.text()
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(table([("/a/x", 10, 1, None, 100), ("/b/y", 10, 2, None, 100)]))
    assert view.list.topLevelItemCount() == 0
    assert "No two folders are 50 % alike" in view.summary.text()
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.min_similarity.setValue(40)  # a new threshold: recomputed
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(table(SPEC))
    assert view.list.topLevelItemCount() == 1
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(None)
    assert view.list.topLevelItemCount() == 0 and "Scan folders" in view.summary.text()


def test_a_hidden_view_computes_when_shown(qtbot):
    view = SimilarFoldersView()
    qtbot.addWidget(view)
    view.set_table(table(SPEC))
    assert view.index is None and not view.workers.busy
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.show()
    assert view.list.topLevelItemCount() == 1


def test_folders_tab_beside_the_groups_in_the_window(qtbot, window, tmp_path):
    from tests.test_gui_window import scan_tree

    root = scan_tree(qtbot, window, tmp_path)
    tabs = window.results_tabs
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Groups", "Folders"]
    with qtbot.waitSignal(window.folders_view.pairs_ready, timeout=WAIT_MS):
        tabs.setCurrentWidget(window.folders_view)
    view = window.folders_view
    pairs = {(p.a, p.b): p for p in view.pairs}
    docs, backup = str(root / "docs"), str(root / "backup")
    pair = pairs.get((docs, backup)) or pairs[(backup, docs)]
    assert (pair.similarity, pair.identical, pair.only_a, pair.only_b) == (100.0, 12, 0, 0)
    assert view.select(docs, backup)
    assert {status for _, status in side_rows(view.side_a)} == {"same"}
    shot = os.environ.get("SIMGUI_SCREENSHOT_DIR")
    if shot:  # docs/screenshots/folders.png is taken this way
        window.resize(1280, 800)
        view.list.expandAll()
        window.grab().save(os.path.join(shot, "folders.png"))
    assert view.list.currentItem().data(0, Qt.ItemDataRole.UserRole).similarity == 100.0


def test_double_clicking_a_file_names_it_for_its_group(qtbot):
    view = SimilarFoldersView()
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(table(SPEC))
    item = view.side_b.tree.topLevelItem(0)  # /backup/docs/a
    with qtbot.waitSignal(view.file_activated) as blocker:
        view.side_b.tree.itemDoubleClicked.emit(item, 0)
    assert view.table.files.paths[blocker.args[0]] == "/backup/docs/a"


def test_trash_buttons_name_the_selected_pairs_folders(qtbot):
    view = SimilarFoldersView()
    qtbot.addWidget(view)
    view.show()
    assert not view.trash_b.isEnabled()
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(table(SPEC))
    assert view.trash_b.isEnabled()
    with qtbot.waitSignal(view.trash_requested) as blocker:
        view.trash_b.click()
    assert blocker.args == ["/backup/docs"]


def test_trashing_a_folder_from_the_window_keeps_copies_and_refuses_losses(
        qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from tests.test_gui_window import scan_tree

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    root = scan_tree(qtbot, window, tmp_path)
    with qtbot.waitSignal(window.folders_view.pairs_ready, timeout=WAIT_MS):
        window.results_tabs.setCurrentWidget(window.folders_view)
    shown = []

    def accept(box):
        shown.append(box.text())
        accept_button = next((b for b in box.buttons()
                              if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole), None)
        box.clickedButton = lambda: accept_button
        return 0

    monkeypatch.setattr(QMessageBox, "exec", accept)
    other = sorted(p.name for p in (root / "other").iterdir())
    window.trash_folder(str(root / "other"))  # alone.txt has no copy anywhere
    assert "not trashed" in window.status_text.text() and "alone.txt" in shown[-1]
    assert sorted(p.name for p in (root / "other").iterdir()) == other
    with qtbot.waitSignal(window.folders_view.pairs_ready, timeout=WAIT_MS):
        window.folders.set_reference(str(root))  # the whole tree protected: nothing goes
    window.trash_folder(str(root / "backup"))
    assert "is in a reference folder" in shown[-1] and len(list((root / "backup").iterdir()))
    with qtbot.waitSignal(window.folders_view.pairs_ready, timeout=WAIT_MS):
        window.folders.set_reference(str(root), False)
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.trash_folder(str(root / "backup"))
    assert shown[-1].startswith("Send 6 files")
    assert not (root / "backup").exists()  # the folder goes whole, once its files are gone
    assert len(list((root / "docs").iterdir())) == 6  # the kept copies


def test_a_nested_pair_offers_only_the_clean_up_that_can_be_done(qtbot):
    # w/ copied into its own subfolder w/copy: trashing w would trash the copies too,
    # and a folder is never merged with a folder inside it; trashing w/copy can be done
    spec = [("/w/a", 100, 1, 0, 100), ("/w/b", 200, 2, 1, 100),
            ("/w/copy/a", 100, 1, 0, 100), ("/w/copy/b", 200, 2, 1, 100)]
    view = SimilarFoldersView()
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(table(spec))
    pair = view.current_pair()
    assert pair.nested and (pair.a, pair.b) == ("/w", "/w/copy")
    assert view.trash_b.isEnabled()
    assert not any(b.isEnabled() for b in (view.trash_a, view.merge_a, view.merge_b))
    assert "A holds B" in view.trash_a.toolTip()
    assert "A holds B" not in view.trash_b.toolTip()
