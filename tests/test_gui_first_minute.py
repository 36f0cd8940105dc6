"""The window's first minute (issues 27 and 33): the engine's first start, results loading,
folders never scanned, the user guide, opening files, stages in the status bar, and the
command line's undo and progress line."""

import dataclasses
import os
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox

from simgui.core.cleanup import Action
from simgui.core.progress import Progress, report
from simgui.gui import jobs
from simgui.gui.main_window import MainWindow
from simgui.gui.tasks import Task, Tasks
from tests.test_gui_window import WAIT_MS, make_tree, scan, scan_tree

REPO = Path(__file__).resolve().parent.parent


def _idle(qtbot, w):
    qtbot.waitUntil(lambda: not w.tasks.busy, timeout=WAIT_MS)


# -- the engine's first start ------------------------------------------------------------

def test_first_start_says_the_engine_is_prepared_and_a_scan_waits_for_it(
        qtbot, window, tmp_path, monkeypatch):
    release = threading.Event()
    real = jobs.warm_up

    def slow_warm_up(*, progress=None):  # the first start: kernels compiling
        report(progress, Progress("preparing", 1, jobs.WARM_UP_STEPS))
        assert release.wait(60)
        return real(progress=progress)

    monkeypatch.setattr(jobs, "warm_up", slow_warm_up)
    try:
        _first_start(qtbot, window, tmp_path, release)
    finally:
        release.set()


def test_the_engine_warm_up_runs_the_default_search_without_error():
    """What every start runs first: it searched with the content check on over files
    without fingerprints, failed, and said "Failed: 4 files have no content
    fingerprints" on every start."""
    steps = []
    jobs.warm_up(progress=lambda p: steps.append(p.files_done) or True)
    assert steps[-1] == jobs.WARM_UP_STEPS


def _first_start(qtbot, window, tmp_path, release):
    window.start_up()
    # The status comes from a 400 ms timer, the step count from the warm-up's first
    # report, queued from its pool thread: on a busy machine that thread may not have run
    # when the timer fires (the bar then shows no steps until the report lands).
    qtbot.waitUntil(lambda: window.status_text.text().startswith(
        "Preparing the engine, first start only")
        and window.progress.maximum() == jobs.WARM_UP_STEPS, timeout=WAIT_MS)
    assert window.progress.isVisible()
    # folders can be added and Scan pressed meanwhile; Cancel has nothing to cancel
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    window.folders.add_folders([str(root)])
    assert "Ready to scan" in window.groups.empty.text()
    assert "first start only" in window.groups.empty.text()
    assert window.scan_action.isEnabled()
    assert not window.cancel_action.isEnabled()
    window.start_scan()
    assert "starts when it is ready" in window.status_text.text()
    assert "Scan starts in a moment" in window.groups.empty.text()
    release.set()
    _idle(qtbot, window)
    assert window.analysis is not None
    assert window.model.rowCount() == 6
    assert window.status_text.text().startswith("Scanned 19 files")
    # the wait for the engine is said as such, not as time spent finding groups
    assert "of it preparing the engine (first start only)" in window.status_text.text()


def test_a_folder_never_scanned_is_not_said_to_have_no_duplicates(qtbot, tmp_path):
    folder = tmp_path / "never scanned"
    folder.mkdir()
    make_tree(folder)
    w = MainWindow(settings_path=str(tmp_path / "settings.json"))
    qtbot.addWidget(w)
    w.show()
    w.folders.add_folders([str(folder)])
    w.start_up()
    _idle(qtbot, w)
    text = w.groups.empty.text()
    assert "Not scanned yet" in text and str(folder) in text
    assert "No identical or similar files" not in text
    assert "not scanned yet" in w.status_text.text()


def test_start_up_with_a_filled_store_says_results_are_loading(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    window.save_session(str(tmp_path / "s.simgui"))
    w = MainWindow(settings_path=str(tmp_path / "second.json"))
    qtbot.addWidget(w)
    w.show()
    w.folders.add_folders(window.folders.folders())
    w.start_up()  # nothing arrives before the event loop runs
    assert "Loading results" in w.groups.empty.text()
    assert "Ready to scan" not in w.groups.empty.text()
    _idle(qtbot, w)
    assert w.model.rowCount() == 6


# -- stages and the whole time ------------------------------------------------------------

def test_a_new_stage_is_reported_at_once_even_right_after_another(qtbot):
    def job(*, progress):
        report(progress, Progress("reading", 5, 10))
        report(progress, Progress("done", 10, 10))
        report(progress, Progress("analysing", 0, 10))  # within the same 50 ms
        report(progress, Progress("analysing", 5, 10))  # same stage, throttled
        return "ok"

    phases = []
    tasks = Tasks()
    task = Task("job", job)
    task.progressed.connect(lambda p: phases.append(p.phase))
    with qtbot.waitSignal(task.finished, timeout=10_000):
        tasks.start(task)
    qtbot.waitUntil(lambda: not tasks.busy)
    assert phases[:3] == ["reading", "done", "analysing"]


def test_status_names_the_grouping_stage_and_the_summary_the_whole_wait(
        qtbot, window, tmp_path):
    window._progressed(Progress("done", 19, 19))
    assert "finding identical and similar files" in window.status_text.text()
    window._progressed(Progress("analysing", 0, 19))
    assert window.status_text.text() == "Finding identical and similar files among 19 files…"
    scan_tree(qtbot, window, tmp_path)
    assert "then finding groups" in window.status_text.text()


# -- after a clean-up ------------------------------------------------------------------

def test_details_forget_a_file_that_was_moved_away(qtbot, window, tmp_path, monkeypatch):
    root = scan_tree(qtbot, window, tmp_path)
    target = tmp_path / "moved"
    target.mkdir()
    window.settings.move_target = str(target)
    group = window.model.index(0, 0)
    window.groups.tree.expand(group)
    member = window.model.index(1, 0, group)
    window.groups.tree.setCurrentIndex(member)
    moved_path = window.groups.current_path()
    assert any(f.path == moved_path for f in window.details.files)
    window.model.setData(member, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)

    def accept(box):
        ok = next(b for b in box.buttons()
                  if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole)
        box.clickedButton = lambda: ok
        return 0

    monkeypatch.setattr(QMessageBox, "exec", accept)
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.run_action(Action.MOVE)
    assert not os.path.exists(moved_path)
    assert all(f.path != moved_path for f in window.details.files)
    assert root.exists()


# -- the user guide ------------------------------------------------------------------------

def test_f1_shows_the_guide_rendered_in_the_app(qtbot, window, monkeypatch):
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or False)
    assert any(k.toString() == "F1" for k in window.guide_action.shortcuts())
    window.guide_action.trigger()
    viewer = window.guide_viewer
    assert viewer.isVisible()
    text = viewer.browser.toPlainText()
    assert text.startswith("simgui user guide")  # a heading, not "# simgui user guide"
    assert "](" not in text[:2000]  # links rendered, not raw Markdown
    assert not opened  # no browser or file handler was needed


def test_the_guide_is_built_into_the_package(tmp_path):
    build = tmp_path / "lib"
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib",
                           str(build)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    guide = build / "simgui" / "docs" / "user-guide.md"
    assert guide.read_text(encoding="utf-8") == \
        (REPO / "docs" / "user-guide.md").read_text(encoding="utf-8")
    for shot in (REPO / "docs" / "screenshots").glob("*.png"):
        assert (build / "simgui" / "docs" / "screenshots" / shot.name).is_file()
    assert "include docs/user-guide.md" in (REPO / "MANIFEST.in").read_text()


def test_the_packaged_guide_is_found_first(tmp_path, monkeypatch):
    from simgui.gui import guide

    packaged = tmp_path / "user-guide.md"
    packaged.write_text("# Packaged\n")
    monkeypatch.setattr(guide, "_PACKAGED", packaged)
    assert guide.guide_path() == packaged


# -- opening files -----------------------------------------------------------------------

def test_a_file_no_application_opens_is_said(qtbot, window, tmp_path, monkeypatch):
    scan_tree(qtbot, window, tmp_path)
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: False)
    group = window.model.index(0, 0)
    window.groups.tree.setCurrentIndex(window.model.index(0, 0, group))
    window.groups.open_current()
    box = window.open_failed_box
    assert box.isVisible()
    assert "Cannot open this file" in box.text()
    assert window.groups.current_path() in box.informativeText()
    window.groups.show_current_in_folder()
    assert "Cannot open this folder" in window.open_failed_box.text()


def test_open_names_the_bytes_of_a_name_that_is_not_utf8(qtbot, window, tmp_path,
                                                         monkeypatch):
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9 #1?.txt"
    with open(raw, "wb") as f:
        f.write(b"x")
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    from simgui.gui.opening import open_path

    assert open_path(os.fsdecode(raw), window)
    encoded = bytes(opened[0].toEncoded())
    assert encoded.startswith(b"file:///")
    assert urllib.parse.unquote_to_bytes(encoded[len(b"file://"):]) == raw


# -- command line --------------------------------------------------------------------------

def test_undo_with_nothing_to_undo_exits_0_and_says_so(tmp_path, capsys):
    from simgui.cli import main

    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("a")
    assert main(["scan", str(folder), "--db", str(tmp_path / "s.db"), "--quiet"]) == 0
    capsys.readouterr()
    code = main(["undo", "--db", str(tmp_path / "s.db")])
    out = capsys.readouterr()
    assert code == 0
    assert "Nothing to undo" in out.out
    assert out.err == ""


def test_the_progress_line_is_ended_before_the_batch_result(capsys):
    from simgui import cli

    line = cli._ProgressLine(False)
    line.tty = True  # as on a terminal: one rewritten line
    line(Progress("trash", 2, 3, 200, 300, elapsed=1.0))

    class Result:
        failed = ()

        def describe(self):
            return "Batch 3 (trash): 3 done"

    cli._print_result(Result())
    out = capsys.readouterr()
    assert out.err.startswith("\rTrash 2/3 files")
    assert out.err.endswith("\r")  # the line was wiped before the result was printed
    assert out.out.startswith("Batch 3 (trash)")


def test_the_current_file_stays_current_when_a_slider_moves(qtbot, window, tmp_path):
    """A slider move regroups; the file the user was on is found again (by its index in
    the search's files, not its path among all of them) and stays the current one."""
    scan_tree(qtbot, window, tmp_path)
    group = window.model.index(0, 0)
    window.groups.tree.expand(group)
    window.groups.tree.setCurrentIndex(window.model.index(1, 0, group))
    file = window.groups.current_file()
    path = window.groups.current_path()
    assert file >= 0
    tolerances = window.tolerance.tolerances()
    for key in (tolerances.key, 9.9, tolerances.key):
        window._apply_tolerances(dataclasses.replace(tolerances, key=key))
        assert window.groups.current_file() == file
        assert window.groups.current_path() == path
