"""Merging folders from the window: the buttons, the dialog, the batch on the worker, undo."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPlainTextEdit

from simgui.gui.similar_folders_view import MergeDialog, SimilarFoldersView
from tests.test_folder_merge import tree
from tests.test_gui_similar_folders import SPEC, WAIT_MS
from tests.test_similar_folders import table


def test_merge_buttons_name_the_folders_in_order(qtbot):
    view = SimilarFoldersView()
    qtbot.addWidget(view)
    view.show()
    assert not view.merge_a.isEnabled()
    with qtbot.waitSignal(view.pairs_ready, timeout=WAIT_MS):
        view.set_table(table(SPEC))
    with qtbot.waitSignal(view.merge_requested) as blocker:
        view.merge_a.click()
    assert blocker.args == ["/home/docs", "/backup/docs"]
    with qtbot.waitSignal(view.merge_requested) as blocker:
        view.merge_b.click()
    assert blocker.args == ["/backup/docs", "/home/docs"]


def test_merging_from_the_window_then_undo(qtbot, window, tmp_path, monkeypatch):
    from tests.test_gui_window import scan

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    root = tmp_path / "m"
    a, b = root / "a", root / "b"
    (a / "sub").mkdir(parents=True)
    b.mkdir()
    base = bytes(range(256)) * 80
    for folder in (a, b):
        (folder / "same.bin").write_bytes(b"the same bytes " * 400)
    (a / "sub" / "only.bin").write_bytes(b"only in a " * 500)
    (a / "notes.txt").write_bytes(base + b"A's ending" * 30)
    (b / "notes.txt").write_bytes(base + b"B's ending" * 30)
    scan(qtbot, window, root)
    with qtbot.waitSignal(window.folders_view.pairs_ready, timeout=WAIT_MS):
        window.results_tabs.setCurrentWidget(window.folders_view)
    before_a, before_b = tree(a), tree(b)
    seen = {}

    def pick_a_version(dialog):
        from PySide6.QtWidgets import QDialogButtonBox

        # Enter does not merge: Cancel is the default, as in every clean-up's question
        buttons = dialog.findChild(QDialogButtonBox)
        assert buttons.button(QDialogButtonBox.StandardButton.Cancel).isDefault()
        assert not dialog.go.isDefault() and not dialog.go.autoDefault()
        seen["steps"] = dialog.findChild(QPlainTextEdit).toPlainText()
        seen["choices"] = dialog.choices.count()
        dialog.choices.item(0).setCheckState(Qt.CheckState.Checked)
        return MergeDialog.DialogCode.Accepted

    monkeypatch.setattr(MergeDialog, "exec", pick_a_version)
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.merge_folders(str(a), str(b))
    assert seen["choices"] == 1 and "only.bin" in seen["steps"]
    assert tree(b)["notes.txt"] == before_a["notes.txt"]  # A's version, picked
    assert tree(b)["sub/only.bin"] == before_a["sub/only.bin"]
    assert not (a / "notes.txt").exists() and not (a / "sub" / "only.bin").exists()
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda parent, title, text, *args, **kw: asked.append(text)
                        or QMessageBox.StandardButton.Yes)
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.undo_last()
    assert tree(a) == before_a and tree(b) == before_b
    # a merge's steps are copies made as well as files trashed: not "put back N files"
    assert asked and asked[0].startswith("Undo merge") and "copies it made are removed" \
        in asked[0]


def test_a_merge_into_a_reference_folder_never_replaces_its_files(qtbot, window, tmp_path,
                                                                   monkeypatch):
    """Into a reference folder B a merge only copies; picking A's version of a file,
    which would send B's to the trash, is refused with the reason, and nothing runs."""
    from tests.test_gui_window import scan

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    root = tmp_path / "m"
    a, b = root / "a", root / "b"
    a.mkdir(parents=True)
    b.mkdir()
    base = bytes(range(256)) * 80
    (a / "notes.txt").write_bytes(base + b"A's ending" * 30)
    (b / "notes.txt").write_bytes(base + b"B's ending" * 30)
    window.folders.add_folders([str(a), str(b)], references=[str(b)])
    scan(qtbot, window, root)
    with qtbot.waitSignal(window.folders_view.pairs_ready, timeout=WAIT_MS):
        window.results_tabs.setCurrentWidget(window.folders_view)
    before = tree(root)
    shown = []

    def pick_a_version(dialog):
        dialog.choices.item(0).setCheckState(Qt.CheckState.Checked)
        return MergeDialog.DialogCode.Accepted

    monkeypatch.setattr(MergeDialog, "exec", pick_a_version)
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box.text()) or 0)
    window.merge_folders(str(a), str(b))
    assert shown and "is in a reference folder" in shown[-1]
    assert not window.tasks.busy and tree(root) == before
