"""The main window: folders and tolerances on the left, groups in the middle, details and
charts below, every long job on a worker (:mod:`simgui.gui.tasks`)."""

from __future__ import annotations

import dataclasses

import html
import os
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication, QDockWidget, QFileDialog, QInputDialog, QLabel, QListWidget, QMainWindow,
    QMessageBox, QProgressBar, QPushButton, QSplitter, QTabWidget, QToolBar, QVBoxLayout,
    QWidget,
)

from simgui import __version__
from simgui.core.search import methods
from simgui.core.search.analysis import Analysis, SearchSettings
from simgui.core.cleanup import Action, Plan, plan_marked
from simgui.core.search.groups import GroupTable
from simgui.core.search.keys import SCHEMES, KeyScheme
from simgui.core.progress import Progress
from simgui.core.reading.scanner import ScanOptions
from simgui.core.settings import Settings, load_settings, save_settings
from simgui.core.search.simfind import Tolerances, parse_overrides
from simgui.core.store import default_db_path
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS
from simgui.core.units import format_bytes, format_duration, format_rate
from simgui.gui import jobs
from simgui.gui.charts import DistanceChart, KeySpaceChart, ToleranceChart
from simgui.gui.details import DetailsPanel, FileDetails
from simgui.gui.folders import FoldersPanel
from simgui.gui.groups_model import GroupsModel
from simgui.gui.groups_view import GroupsView
from simgui.gui.plan_text import action_word, describe_batch, describe_merge, describe_plan
from simgui.gui.similar_folders_view import SimilarFoldersView
from simgui.gui.tasks import Task, Tasks
from simgui.gui.tolerance import TolerancePanel

# translated where shown (context "MainWindow")
_ACTION_VERBS = {Action.TRASH: QT_TRANSLATE_NOOP("MainWindow", "Move to Trash"),
                 Action.MOVE: QT_TRANSLATE_NOOP("MainWindow", "Move"),
                 Action.HARDLINK: QT_TRANSLATE_NOOP("MainWindow", "Replace with Hard Links")}


_SIMILAR_SHOWN = 8  # similar-only files named in the confirmation itself

# a job's phase (simgui.core.progress) as the status bar names it; others: capitalised
_PHASES = {"reading": QT_TRANSLATE_NOOP("MainWindow", "Reading"),
           "saving": QT_TRANSLATE_NOOP("MainWindow", "Saving"),
           "identical copies": QT_TRANSLATE_NOOP("MainWindow", "Identical copies"),
           "comparing": QT_TRANSLATE_NOOP("MainWindow", "Comparing"),
           "preparing": QT_TRANSLATE_NOOP("MainWindow", "Preparing"),
           "trash": QT_TRANSLATE_NOOP("MainWindow", "Trash"),
           "delete": QT_TRANSLATE_NOOP("MainWindow", "Delete"),
           "move": QT_TRANSLATE_NOOP("MainWindow", "Move"),
           "hardlink": QT_TRANSLATE_NOOP("MainWindow", "Hardlink"),
           "symlink": QT_TRANSLATE_NOOP("MainWindow", "Symlink"),
           "merge": QT_TRANSLATE_NOOP("MainWindow", "Merge"),
           "undo": QT_TRANSLATE_NOOP("MainWindow", "Undo")}


def _distinct_names(paths: list[str]) -> list[str]:
    """Each path's last parts, as few as tell it from the others listed: the name alone,
    else 'folder/name', and so on (two edits of one name in two folders)."""
    parts = [p.split(os.sep) for p in paths]
    out = []
    for mine in parts:
        k = 1
        while k < len(mine) and sum(other[-k:] == mine[-k:] for other in parts) > 1:
            k += 1
        out.append(os.sep.join(mine[-k:]) if k < len(mine) else os.sep.join(mine))
    return out


def _split_similar(plan: Plan) -> tuple[list, list]:
    """The plan's operations on identical copies of the kept file, and on files only
    similar to it (least similar first: the ones to look at)."""
    copies, similar = [], []
    for op in plan.operations:
        # the plan's own rule (plan.similar_only): same size and content hash as the kept file
        same = bool(op.member.content_hash) and op.member.size == op.kept.size \
            and op.member.content_hash == op.kept.content_hash
        (copies if same else similar).append(op)
    similar.sort(key=lambda op: op.member.similarity)
    return copies, similar


def _similarity_text(op) -> str:
    """As the groups show it: two decimals, and never 100 % for a file only similar."""
    return f"{min(op.member.similarity, 99.99):5.2f} %"


def _shown(path: str) -> str:
    """A path as a message can show it (bytes that are not UTF-8 as \\xNN)."""
    from simgui.core.shown import shown_path

    return shown_path(path)


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, settings_path: str | None = None):
        super().__init__()
        self.setWindowTitle("simgui")
        self.settings_path = settings_path
        self.settings = settings if settings is not None else load_settings(settings_path)
        self.analysis: Analysis | None = None
        self._failure = ""  # why the last job failed, until the next one starts
        self.table: GroupTable | None = None
        self._counts = None  # the last search's counts (HitCounts), shown under the sliders
        # a scan's identical copies are shown while it reads the rest (issue 25): until
        # its results arrive, the groups are those alone, with no analysis behind them
        self._identical_preview = False
        self.tasks = Tasks(self)  # store work, one job at a time
        self.readers = Tasks(self)  # reading files for the details panel
        self._tolerances_pending = False
        self._chart_stale = True
        self._last_undoable = None  # the journal batch Undo would put back
        self._cleaned_up = False  # the results shown are those a clean-up left
        self._stale = False  # folders or references changed while a job ran
        self._warm_task: Task | None = None  # the kernels' first-start preparation
        self._warm_progress: Progress | None = None
        self._job_texts: dict[Task, str] = {}  # what the empty centre says while a job runs
        self._job_started = 0.0  # when the job whose results come next was started
        self._engine_ready = 0.0  # when the first start's preparation of the engine ended
        self._unscanned: tuple[str, ...] = ()  # folders listed that no scan has read

        self._build_widgets()
        self._build_actions()
        self._apply_settings(self.settings)
        self.model.set_marked(self.settings.marked)
        self.tolerance.show_counts(None)
        self._show_empty_state()
        self._update_actions()
        self._tolerance_timer = QTimer(self, singleShot=True, interval=0)
        self._tolerance_timer.timeout.connect(self._apply_pending_tolerances)
        self._chart_timer = QTimer(self, singleShot=True, interval=250)
        self._chart_timer.timeout.connect(self._refresh_key_chart)

    # -- building ----------------------------------------------------------------------

    def _build_widgets(self) -> None:
        self.folders = FoldersPanel()
        self.tolerance = TolerancePanel()
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.addWidget(self.folders)  # as tall as its folders (see FolderList)
        side_layout.addWidget(self.tolerance)
        side_layout.addStretch(1)
        self.side_dock = QDockWidget(self.tr("Search"), self)
        self.side_dock.setObjectName("search")
        self.side_dock.setWidget(side)
        self.side_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                   | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.side_dock)

        self.model = GroupsModel(self)
        self.groups = GroupsView(self.model)
        self.details = DetailsPanel()
        self.key_chart = KeySpaceChart()
        self.tolerance_chart = ToleranceChart()
        self.distance_chart = DistanceChart()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.details, self.tr("Details"))
        self.tabs.addTab(self.key_chart, self.tr("Key space"))
        self.tabs.addTab(self.tolerance_chart, self.tr("Tolerance curves"))
        self.tabs.addTab(self.distance_chart, self.tr("Fingerprint distances"))
        splitter = QSplitter(Qt.Orientation.Vertical)
        # the Folders view (similar folders), a tab beside the groups it follows
        self.folders_view = SimilarFoldersView(self.model)
        self.results_tabs = QTabWidget()
        self.results_tabs.addTab(self.groups, self.tr("Groups"))
        self.results_tabs.addTab(self.folders_view, self.tr("Folders"))
        splitter.addWidget(self.results_tabs)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 2)  # the groups view taller than the details
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([600, 300])
        self.splitter = splitter
        self.setCentralWidget(splitter)

        self.problems = QListWidget()
        self.problems_dock = QDockWidget(self.tr("Problems"), self)
        self.problems_dock.setObjectName("problems")
        self.problems_dock.setWidget(self.problems)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.problems_dock)
        self.problems_dock.hide()

        self.status_text = QLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(260)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.problems_button = QPushButton()
        self.problems_button.setFlat(True)
        self.problems_button.hide()
        self.problems_button.clicked.connect(
            lambda: self.problems_dock.setVisible(not self.problems_dock.isVisible()))
        self.statusBar().addWidget(self.status_text, 1)
        self.statusBar().addPermanentWidget(self.problems_button)
        self.statusBar().addPermanentWidget(self.progress)

        self.folders.changed.connect(self._folders_changed)
        self.folders.notice.connect(self.set_status)
        self.tolerance.tolerances_changed.connect(self._tolerances_changed)
        self.tolerance.search_changed.connect(self._search_changed)
        self.groups.selection_changed.connect(self._selection_changed)
        self.model.marks_changed.connect(self._update_actions)
        self.key_chart.fileClicked.connect(self._chart_clicked)
        self.details.compare_requested.connect(self._compare)
        self.tabs.currentChanged.connect(lambda _i: self._refresh_key_chart_if_shown())
        self.tasks.busy_changed.connect(self._busy_changed)
        self.groups.empty_button.clicked.connect(self.folders.choose_folder)
        # review conveniences (see _build_review)
        self.model.rereference = self._rereference
        self.model.modelReset.connect(self._sync_table)
        self.folders_view.file_activated.connect(self._show_file_in_groups)
        self.folders_view.trash_requested.connect(self.trash_folder)
        self.folders_view.merge_requested.connect(self.merge_folders)
        self.marked_label = QLabel()
        self.statusBar().addPermanentWidget(self.marked_label)
        self.model.marks_changed.connect(self._update_marked_count)
        self._ignored: tuple[tuple[str, str], ...] = ()  # the store's ignore list
        self.groups.ignore_requested.connect(self._ignore_pairs)

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        a = self._action
        S = QKeySequence.StandardKey
        self.add_folder_action = a(self.tr("&Add Folder…"), self.folders.choose_folder, S.Open,
                                   self.tr("Add a folder to scan"))
        self.scan_action = a(self.tr("&Scan"), self.start_scan, S.Refresh,
                             self.tr("Read new and changed files in the folders and find groups"))
        self.cancel_action = a(self.tr("&Cancel"), self.cancel, Qt.Key.Key_Escape,
                               self.tr("Stop the running job"))
        self.open_session_action = a(self.tr("&Open Session…"), self.open_session, "Ctrl+Shift+O")
        self.save_session_action = a(self.tr("&Save Session As…"), self.save_session, S.Save,
                                     self.tr("Save folders, tolerances and marks to a file"))
        self.save_results_action = a(self.tr("Save &Results As…"), self.save_results, None,
                                     self.tr("Save the groups with your marks and chosen "
                                             "references, to review them again later"))
        self.open_results_action = a(self.tr("Open Res&ults…"), self.open_results, None,
                                     self.tr("Open results saved with Save Results"))
        self.export_action = a(self.tr("&Export Groups…"), self.export_groups, "Ctrl+E",
                               self.tr("Save the groups shown as CSV, JSON or an HTML page"))
        self.quit_action = a(self.tr("&Quit"), self.close, S.Quit)
        self.mark_action = a(self.tr("&Mark All but Reference"), self.mark_all_but_reference,
                             "Ctrl+M", self.tr("Tick every file in the groups shown except each "
                                               "group's reference"))
        self.mark_identical_action = a(self.tr("Mark &Identical Copies"), self.mark_identical,
                                       "Ctrl+Shift+I",
                                       self.tr("Tick the files identical to their group's "
                                               "reference"))
        self.invert_action = a(self.tr("&Invert Marks"), self.model.invert_marks, "Ctrl+I")
        self.reprioritize_action = a(self.tr("&Re-prioritize…"), self.reprioritize, None,
                                     self.tr("Choose the reference (the file kept) of every group "
                                     "shown by rules: in a folder, newest, largest…"))
        self.clear_marks_action = a(self.tr("C&lear Marks"), self.model.clear_marks, "Ctrl+Shift+M")
        self.find_action = a(self.tr("&Find…"), self._focus_filter, S.Find)
        self.trash_action = a(self.tr("Move Marked to &Trash…"),
                              lambda: self.run_action(Action.TRASH),
                              None, self.tr("Send the ticked files to the trash (undoable)"))
        self.move_action = a(self.tr("Mo&ve Marked To…"), lambda: self.run_action(Action.MOVE),
                             None, self.tr("Move the ticked files to a folder (undoable)"))
        self.link_action = a(self.tr("Replace Marked with &Hard Links…"),
                             lambda: self.run_action(Action.HARDLINK), None,
                             self.tr("Replace ticked identical copies with hard links to the "
                                     "kept file"))
        self.undo_action = a(self.tr("&Undo Last Clean-up"), self.undo_last, S.Undo,
                             self.tr("Put back what the last trash or move took away"))
        self.settings_action = a(self.tr("&Settings…"), self.open_settings, S.Preferences)
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.guide_action = a(self.tr("&User Guide"), self.open_guide, S.HelpContents,
                              self.tr("How to find and clean up duplicates, step by step"))
        self.about_action = a(self.tr("&About simgui"), self.about)
        self.about_qt_action = a(self.tr("About &Qt"), QApplication.aboutQt)
        self.guide_action.setShortcuts([QKeySequence(S.HelpContents), QKeySequence("F1")])
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

        menu = self.menuBar()
        file_menu = menu.addMenu(self.tr("&File"))
        for x in (self.add_folder_action, self.scan_action, self.cancel_action, None,
                  self.open_session_action, self.save_session_action, None,
                  self.open_results_action, self.save_results_action, self.export_action, None,
                  self.quit_action):
            file_menu.addSeparator() if x is None else file_menu.addAction(x)
        edit_menu = menu.addMenu(self.tr("&Edit"))
        for x in (self.undo_action, None, self.mark_action, self.mark_identical_action,
                  self.invert_action, self.clear_marks_action, None, self.reprioritize_action,
                  None, self.find_action, None, self.settings_action):
            edit_menu.addSeparator() if x is None else edit_menu.addAction(x)
        actions_menu = menu.addMenu(self.tr("&Actions"))
        for x in (self.trash_action, self.move_action, self.link_action):
            actions_menu.addAction(x)
        view_menu = menu.addMenu(self.tr("&View"))
        view_menu.addAction(self.groups.copies_only_action)
        view_menu.addAction(self.groups.expand_all_action)
        view_menu.addAction(self.groups.collapse_all_action)
        view_menu.addSeparator()
        view_menu.addAction(self.side_dock.toggleViewAction())
        view_menu.addAction(self.problems_dock.toggleViewAction())
        help_menu = menu.addMenu(self.tr("&Help"))
        help_menu.addAction(self.guide_action)
        help_menu.addSeparator()
        help_menu.addAction(self.about_action)
        help_menu.addAction(self.about_qt_action)

        bar = QToolBar(self.tr("Main"))
        bar.setObjectName("main toolbar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.setIconSize(QSize(16, 16))
        for x in (self.add_folder_action, self.scan_action, self.cancel_action, None,
                  self.mark_action, self.clear_marks_action, None, self.trash_action,
                  self.move_action, self.link_action, self.undo_action):
            bar.addSeparator() if x is None else bar.addAction(x)
        self.addToolBar(bar)
        self.groups.extra_actions = [self.mark_action, self.mark_identical_action,
                                     self.clear_marks_action]
        self.mark_identical_action.setStatusTip(
            self.tr("Tick every file that has an identical copy in its group, except the copy "
                    "kept"))
        self.mark_identical_action.setToolTip(self.mark_identical_action.statusTip())
        # the window's shortcuts work while the filter box has focus
        self.groups.filter.pass_actions([
            self.export_action, self.mark_action, self.mark_identical_action,
            self.clear_marks_action, self.save_session_action, self.open_session_action,
            self.guide_action, self.scan_action])

    # -- settings ------------------------------------------------------------------------

    def _apply_settings(self, s: Settings) -> None:
        # Delete does the default clean-up action (trash, or move); the other has its own keys
        delete, other = QKeySequence(QKeySequence.StandardKey.Delete), QKeySequence("Ctrl+Shift+V")
        trash_key, move_key = (delete, other) if s.default_action != "move" else \
            (QKeySequence("Ctrl+Delete"), delete)
        self.trash_action.setShortcut(trash_key)
        self.move_action.setShortcut(move_key)
        self.folders.list.clear()
        self.folders.add_folders(s.folders, s.references)
        self.folders.set_exclude_patterns(s.excludes)
        self.folders.set_minimum_size(s.min_size)
        self.tolerance.blockSignals(True)
        self.tolerance.set_tolerances(Tolerances(s.key_tolerance, s.sum_tolerance,
                                                 min(max(s.min_content, 0.0), 100.0)))
        self.tolerance.size_factor.setValue(s.size_factor)
        self.tolerance.set_scheme_name(s.scheme if s.scheme in ("skew", "uniform", "custom")
                                       else "skew")
        self.tolerance.extensions.setChecked(s.use_extensions)
        self.tolerance.set_thresholds(
            min(max(s.simhash_bits, 0), methods.SIMHASH_MAX_BITS),
            min(max(s.minhash_resemblance, methods.MINHASH_FLOOR * 100), 100.0))
        self.tolerance.set_method_name(s.method if s.method in methods.METHODS else "paper")
        self.tolerance.check.setChecked(s.content_check)
        self.tolerance.content.setEnabled(s.content_check)
        self.tolerance.blockSignals(False)
        try:
            parse_overrides(s.overrides)
        except ValueError as exc:
            self.set_status(self.tr("Per-extension tolerances ignored ({error}): correct them "
                                    "in Settings.").format(error=exc))
        self._last_scheme = self.tolerance.scheme_name()
        geometry = s.window.get("geometry")
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        state = s.window.get("state")
        if state:
            self.restoreState(QByteArray.fromBase64(state.encode()))

    def current_settings(self, with_marks: bool = False) -> Settings:
        thresholds = self.tolerance.thresholds()
        return Settings(
            folders=self.folders.folders(), references=self.folders.references(),
            excludes=self.folders.exclude_patterns(), min_size=self.folders.minimum_size(),
            # the user's key tolerance, not the one a large collection caps the slider to
            key_tolerance=self.tolerance.key.value(), sum_tolerance=self.tolerance.chosen_sum(),
            method=self.tolerance.method_name(), simhash_bits=int(thresholds["simhash"]),
            minhash_resemblance=float(thresholds["minhash"]),
            content_check=self.tolerance.check.isChecked(),
            min_content=self.tolerance.content.value(),
            overrides=self.settings.overrides,
            size_factor=self.tolerance.size_factor.value(), scheme=self.tolerance.scheme_name(),
            custom_weights=self.settings.custom_weights,
            use_extensions=self.tolerance.extensions.isChecked(),
            min_similar_size=self.settings.min_similar_size,
            reference_rule=self.settings.reference_rule,
            default_action=self.settings.default_action, move_target=self.settings.move_target,
            workers=self.settings.workers, store=self.settings.store,
            language=self.settings.language,  # applied at the next start (gui.translation)
            marked=sorted(self.model.marked) if with_marks else [],
            window={"geometry": bytes(self.saveGeometry().toBase64()).decode(),
                    "state": bytes(self.saveState().toBase64()).decode()})

    def store_path(self) -> str:
        return self.settings.store or str(default_db_path())

    def scheme(self) -> KeyScheme:
        name = self.tolerance.scheme_name()
        if name == "custom" and self.settings.custom_weights:
            return KeyScheme.from_tag_weights("custom", {int(t, 16): w for t, w in
                                                         self.settings.custom_weights.items()})
        return SCHEMES.get(name, SCHEMES["skew"])

    def search_settings(self) -> SearchSettings:
        return SearchSettings(scheme=self.scheme(),
                              use_extensions=self.tolerance.extensions.isChecked(),
                              size_factor=self.tolerance.size_factor.value(),
                              references=tuple(self.folders.references()),
                              min_similar_size=self.settings.min_similar_size,
                              reference_rule=self.settings.reference_rule,
                              method=self.tolerance.method_name(),
                              content_check=self.tolerance.check.isChecked(),
                              overrides=self.overrides())

    def overrides(self) -> tuple[tuple[str, float, float], ...]:
        """The settings' per-extension tolerances, where they apply (the paper's method,
        extensions compared); ones the settings file spells wrong are left out."""
        if self.tolerance.method_name() != "paper" or not self.tolerance.extensions.isChecked():
            return ()
        try:
            parsed = parse_overrides(self.settings.overrides)
        except ValueError:
            return ()
        return tuple((ext, t.key, t.sum) for ext, t in parsed.items())

    def scan_options(self) -> ScanOptions:
        return ScanOptions(excludes=tuple(self.folders.exclude_patterns()),
                           min_size=self.folders.minimum_size(), workers=self.settings.workers)

    def closeEvent(self, event) -> None:
        if self.tasks.busy:
            self.tasks.cancel_all()
            self.set_status(self.tr("Stopping the running job…"))
            self.tasks.wait()  # a cancelled job saves what it did, then stops
        self.readers.cancel_all()
        self.readers.wait()
        self.folders_view.workers.cancel_all()
        self.folders_view.workers.wait()
        try:
            save_settings(self.current_settings(), self.settings_path)
        except OSError as exc:
            print(f"simgui: could not save settings: {exc}")
        super().closeEvent(event)

    # -- jobs ------------------------------------------------------------------------------

    def start_up(self) -> None:
        """After the window shows: load kernels and whatever the store already holds.

        The kernels compile on the first start on a machine (up to half a minute): the
        window says so, and folders can be added and Scan pressed meanwhile (the scan
        starts when the kernels are ready)."""
        task = Task(self.tr("Preparing the engine"), jobs.warm_up)
        task.progressed.connect(self._warm_progressed)
        task.finished.connect(self._warm_finished)
        self._warm_task = task
        self._start(task, quiet=True)
        # said only when it takes a while: loading from numba's cache is quick
        QTimer.singleShot(400, self._show_warming)
        if self.folders.folders():
            self._start(Task(self.tr("Loading results"), jobs.load, self.store_path(),
                             self.folders.folders(), self.search_settings(),
                             self.scan_options()),
                        empty_text=self.tr("<h3>Loading results…</h3><p>The groups found by "
                                           "the last scan appear in a moment.</p>"))
        else:
            self._show_empty_state()

    def warming_up(self) -> bool:
        """True while the kernels are being prepared and no other job waits."""
        return self._warm_task is not None and self.tasks.running == [self._warm_task]

    def _show_warming(self, p: Progress | None = None) -> None:
        if self._warm_task is None:
            return
        p = p if p is not None else self._warm_progress
        waiting = [t for t in self.tasks.running if t is not self._warm_task]
        text = self.tr("Preparing the engine, first start only…")
        if waiting:
            text += " " + self.tr("{job} starts when it is ready.").format(job=waiting[0].name)
        self.set_status(text)
        if p is not None and p.files_total:
            self.progress.setRange(0, p.files_total)
            self.progress.setValue(p.files_done)
        else:
            self.progress.setRange(0, 0)
        self.progress.setFormat(self.tr("%v of %m steps") if p is not None and p.files_total
                                else "")
        self.progress.show()
        self._show_empty_state()

    def _warm_progressed(self, p: Progress) -> None:
        self._warm_progress = p
        if self.status_text.text().startswith(self.tr("Preparing the engine, first start only…")):
            self._show_warming(p)

    def _warm_finished(self) -> None:
        self._warm_task = None
        self._engine_ready = time.monotonic()  # a job waiting for it says how long it did
        self.progress.setFormat("%p%")
        if self.status_text.text().startswith(self.tr("Preparing the engine, first start only…")):
            if self.tasks.running[1:]:
                self.set_status(f"{self.tasks.running[1].name}…")
            else:
                self.progress.hide()
                self.set_status(self.tr("Ready."))
        self._show_empty_state()
        self._update_actions()

    def start_scan(self) -> None:
        folders = self.folders.folders()
        if not folders:
            self.set_status(self.tr("Add a folder to scan first."))
            return
        waits = self._warm_task is not None
        self._start(Task(self.tr("Scanning"), jobs.scan_and_analyse, self.store_path(), folders,
                         self.scan_options(), self.search_settings()),
                    empty_text=self.tr("<h3>Scanning…</h3><p>Groups appear when the scan "
                                       "ends.</p>")
                    if not waits else self.tr("<h3>Scan starts in a moment…</h3><p>The engine "
                                              "is being prepared (first start only); the scan "
                                              "starts when it is ready.</p>"))
        if waits:
            self._show_warming()

    def cancel(self) -> None:
        self.tasks.cancel_all()
        self.readers.cancel_all()

    def _start(self, task: Task, quiet: bool = False, empty_text: str = "") -> Task:
        """Run ``task`` on the store's worker; unless ``quiet`` (no progress, nothing to
        show), its progress is shown and its :class:`jobs.Results` replace the view.
        While it runs, an empty centre shows ``empty_text`` (default: the task's name)."""
        if not quiet:
            self._failure = ""
            task.progressed.connect(self._progressed)
            task.succeeded.connect(self._results_arrived)
            self._job_texts[task] = empty_text or f"<h3>{html.escape(task.name)}…</h3>"
            self._job_started = time.monotonic()  # the summary gives the whole wait
            if self._warm_task is None:
                self.progress.setRange(0, 0)
                self.progress.show()
                self.set_status(f"{task.name}…")
        task.failed.connect(self._task_failed)
        task.cancelled.connect(self._task_cancelled)
        task.finished.connect(self._task_finished)
        self.tasks.start(task)
        if not quiet:
            self._show_empty_state()
        self._update_actions()
        return task

    def _job_ended(self) -> None:
        """The oldest job with results to show ended (jobs run in order): forget its text."""
        for task in self.tasks.running:
            if task in self._job_texts:
                del self._job_texts[task]
                return

    def _progressed(self, p: Progress) -> None:
        if isinstance(p, jobs.IdenticalGroups):
            self._show_identical(p)
            return
        stage = {"loading": self.tr("Loading the stored files…"),
                 "analysing": self.tr("Finding identical and similar files among {n:,} "
                                      "files…").format(n=p.files_total) if p.files_total
                 else self.tr("Finding identical and similar files…"),
                 "done": self.tr("Read {n:,} files; finding identical and similar "
                                 "files…").format(n=p.files_done)}
        if p.phase in stage:
            self.progress.setRange(0, 0)
            self.set_status(stage[p.phase])
            return
        if p.phase == "walking":
            self.progress.setRange(0, 0)
            self.set_status(self.tr("Looking for files: {n:,} found").format(n=p.files_done))
            return
        if p.bytes_total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * p.bytes_done / max(p.bytes_total, 1)))
        else:
            self.progress.setRange(0, 0)
        label = (self.tr("Reading the rest for similar files")
                 if p.phase == "reading" and self._identical_preview
                 else self.tr(_PHASES[p.phase]) if p.phase in _PHASES else p.phase.capitalize())
        parts = [(self.tr("{phase}: {n:,} of {total:,} files") if p.files_total
                  else self.tr("{phase}: {n:,} files")).format(
            phase=label, n=p.files_done, total=p.files_total or 0)]
        if p.bytes_done:
            parts.append(self.tr("{done} of {total}").format(
                done=format_bytes(p.bytes_done), total=format_bytes(p.bytes_total))
                if p.bytes_total else format_bytes(p.bytes_done))
        if p.rate > 0 and p.bytes_done:
            parts.append(format_rate(p.rate))
            if p.bytes_total and p.bytes_total > p.bytes_done:
                parts.append(self.tr("{time} left").format(
                    time=format_duration((p.bytes_total - p.bytes_done) / p.rate)))
        self.set_status(" · ".join(parts))

    def _show_identical(self, p: jobs.IdenticalGroups) -> None:
        """The identical copies a running scan found, shown before it reads the rest (the
        tolerances do not apply to them); its results replace them when it ends."""
        self._identical_preview = True
        self.details.show_files([])
        self.model.set_table(p.table, self.protected_folders())
        self.table = self.model.table
        self.groups.open_few_next = True
        self._show_empty_state()
        self._update_actions()
        n = len(p.table)
        self.progress.setRange(0, 0)  # the next stage starts; its progress follows
        self.set_status((self.tr("Identical copies: {n:,} group found · now reading the rest "
                                 "for similar files…") if n == 1
                         else self.tr("Identical copies: {n:,} groups found · now reading the "
                                      "rest for similar files…")).format(n=n))

    def _end_identical_preview(self) -> None:
        """A scan that showed its identical copies ended without results: back to what
        the last results show."""
        if not self._identical_preview:
            return
        self._identical_preview = False
        if self.analysis is not None:
            self._apply_tolerances(self.tolerance.tolerances())
        else:
            self.table = None
            self.model.set_table(None)
            self._update_actions()

    def _task_failed(self, message: str) -> None:
        self._job_ended()
        self._end_identical_preview()
        self._failure = message  # the empty view says it too, not "Ready to scan"
        self.set_status(self.tr("Failed: {error}").format(error=message))
        self.add_problems([("", "error", message)])
        self._show_empty_state()

    def _task_cancelled(self) -> None:
        self._job_ended()
        self._end_identical_preview()
        self.set_status(self.tr("Cancelled. What was done so far is saved; scanning again "
                                "resumes."))
        if self.analysis is None:
            self._show_empty_state()

    def _task_finished(self) -> None:
        self._update_actions()

    def _busy_changed(self, busy: bool) -> None:
        if not busy:
            self.progress.hide()
            if self._stale:
                self._stale = False
                self._reanalyse()
        self._update_actions()

    def set_status(self, text: str) -> None:
        self.status_text.setText(text)

    def add_problems(self, issues) -> None:
        for path, kind, message in issues:
            # (a name that is not UTF-8 shows as \xNN; a message may quote one too)
            self.problems.addItem(_shown(f"{path}: {message}" if path else message))
        n = self.problems.count()
        self.problems_button.setText((self.tr("{n:,} problem") if n == 1
                                      else self.tr("{n:,} problems")).format(n=n))
        self.problems_button.setVisible(n > 0)

    # -- results ----------------------------------------------------------------------------

    def _results_arrived(self, results: jobs.Results) -> None:
        self._job_ended()
        self._identical_preview = False
        self._unscanned = results.unscanned
        self._ignored = results.ignored
        self.model.set_ignored(results.ignored, refresh=False)
        if results.batch is not None or results.undone is not None:
            self.details.show_files([])  # what it showed may be gone; reselected if not
        self.problems.clear()
        self.add_problems(results.issues)
        self.analysis = results.analysis
        self.details.pictures_method = results.analysis.settings.method in methods.PICTURE_METHODS
        self.groups.pictures_method = self.model.pictures_method = self.details.pictures_method
        if results.analysis.settings.method != self.tolerance.method_name() or \
                self.tolerance.tolerances().content < results.analysis.stats.content_floor:
            # the method changed, or the content check was turned off, while this job
            # ran; a search with the new setting is queued. Until it lands nothing is
            # shown, so nothing stale can be acted on.
            self.table = None
            self.model.set_table(None)
            self.details.show_files([])
            self.distance_chart.clear()
            self._update_actions()
            return
        self._last_undoable = results.last_undoable
        # (the clean-up these results follow is the one Undo puts back)
        self._cleaned_up = results.batch is not None and results.last_undoable is not None \
            and results.last_undoable.id == results.batch.batch_id
        if results.batch is not None or results.undone is not None:
            self.model.clear_marks()  # files moved back must not come back ticked
        if results.analysis.settings.method == "paper":
            self.tolerance.blockSignals(True)
            self.tolerance.set_sum_ceiling(results.analysis.stats.max_sum)
            self.tolerance.blockSignals(False)
        self._chart_stale = True
        self._update_curve()
        self.groups.open_few_next = True  # new results: few groups show open
        self._apply_tolerances(self.tolerance.tolerances())
        n = len(results.analysis.files)
        message = self.tr("{n:,} files").format(n=n)
        if results.scan is not None and results.batch is None and results.undone is None:
            r = results.scan
            whole = time.monotonic() - self._job_started if self._job_started else r.elapsed
            message = (self.tr("Scanned {found:,} file in {whole} (reading {reading}, then "
                               "finding groups): {read:,} read, {unchanged:,} unchanged")
                       if r.files_found == 1 else
                       self.tr("Scanned {found:,} files in {whole} (reading {reading}, then "
                               "finding groups): {read:,} read, {unchanged:,} unchanged")).format(
                found=r.files_found, whole=format_duration(whole),
                reading=format_duration(r.elapsed), read=r.files_read,
                unchanged=r.files_unchanged)
            waited = self._engine_ready - self._job_started if self._job_started else 0
            if waited > 0:  # the scan waited for the engine: not the groups' time
                message += self.tr(" · {wait} of it preparing the engine (first start "
                                   "only)").format(wait=format_duration(waited))
            if r.hard_links:  # names of a file already read: one file, not copies
                message += (self.tr(" · {n:,} hard link counted once (another name of a "
                                    "file, not a copy)") if r.hard_links == 1 else
                            self.tr(" · {n:,} hard links counted once (other names of "
                                    "files, not copies)")).format(n=r.hard_links)
            if r.files_fingerprinted:
                message += self.tr(" · {n:,} of them read once more for the content "
                                   "fingerprints that confirm similar files (stored by an "
                                   "older simgui without them)").format(n=r.files_fingerprinted)
        if self._unscanned:
            message += self.tr(" · not scanned yet: {folders}").format(
                folders=", ".join(map(_shown, self._unscanned)))
        if results.batch is not None:  # in the window's words and language (gui.plan_text)
            message = describe_batch(results.batch).splitlines()[0]
            self._show_batch_result(describe_batch(results.batch))
        if results.undone is not None:
            message = describe_batch(results.undone).splitlines()[0]
            self._show_batch_result(describe_batch(results.undone), self.tr("Undo"))
        self.set_status(self._compare_with_saved() or message)
        self._refresh_key_chart_if_shown()

    def _show_batch_result(self, text: str, title: str = "") -> None:
        box = QMessageBox(QMessageBox.Icon.Information, title or self.tr("Clean-up finished"),
                          text.splitlines()[0],
                          QMessageBox.StandardButton.Ok, self)
        if len(text.splitlines()) > 1:
            box.setDetailedText(text)
        box.setModal(False)
        box.show()
        self.last_result_box = box

    def _show_empty_state(self) -> None:
        self.groups.empty_button.setVisible(not self.folders.folders())
        waiting = [self._job_texts[t] for t in self.tasks.running if t in self._job_texts]
        if self.folders.folders() and waiting:
            self.groups.set_empty_text(waiting[0])
        elif not self.folders.folders():
            self.groups.set_empty_text(self.tr(
                "<h3>Add a folder to begin</h3>"
                "<p>1. <b>Add folders</b> to look in (or drop them on the Folders list). "
                "Tick a folder to protect it as a reference.<br>"
                "2. <b>Scan</b>: every file is read once; rescans read only what changed.<br>"
                "3. <b>Review</b> the groups, tick the extra copies and move them to the "
                "trash. Nothing changes before you confirm, and Undo puts files back.</p>"))
        elif self.analysis is None and self._failure:
            self.groups.set_empty_text(self.tr(
                "<h3>The results could not be loaded</h3><p>{error}</p>"
                "<p>The store file is chosen in <b>Edit › Settings</b>.</p>").format(
                    error=html.escape(self._failure)))
        elif self.analysis is None:
            n = len(self.folders.folders())
            later = self.tr(" The engine is being prepared (first start only): the scan "
                            "starts as soon as it is ready.") if self._warm_task is not None else ""
            ready = (self.tr("<h3>Ready to scan</h3><p>Press <b>Scan</b> to look for identical "
                             "and similar files in {n} folder.{later}</p>") if n == 1
                     else self.tr("<h3>Ready to scan</h3><p>Press <b>Scan</b> to look for "
                                  "identical and similar files in {n} folders.{later}</p>"))
            self.groups.set_empty_text(ready.format(n=n, later=later))
        elif self._unscanned:
            names = "".join(f"<br>{html.escape(_shown(f))}" for f in self._unscanned[:5])
            self.groups.set_empty_text(self.tr(
                "<h3>Not scanned yet</h3><p>Press <b>Scan</b> to read the files of:{names}</p>"
                "<p>Nothing is known about these folders until they are scanned.</p>").format(
                    names=names))
        elif self._cleaned_up and self._last_undoable is not None:
            self.groups.set_empty_text(self.tr(
                "<h3>Nothing left to clean up</h3><p>The clean-up took care of every group "
                "at these settings. <b>Undo Last Clean-up</b> puts its files back.</p>"))
        elif len(self.analysis.files) < 2:  # no tolerance groups one file, or none
            n = len(self.analysis.files)
            problems = self.problems.count()
            text = (self.tr("<h3>No files to compare</h3><p>The folders hold no file that "
                            "could be read.</p>") if n == 0 else
                    self.tr("<h3>Only one file</h3><p>The folders hold one file that could "
                            "be read: there is nothing to compare it with.</p>"))
            if problems:
                text += self.tr("<p>Some could not be read, or a folder is gone: see "
                                "<b>Problems</b> in the status bar.</p>")
            self.groups.set_empty_text(text)
        else:
            self.groups.set_empty_text(
                self.tr("<h3>No identical or similar files</h3><p>Nothing matches at these "
                        "tolerances. Raise the sum-table tolerance to find files that differ "
                        "more.</p>") if self.tolerance.method_name() == "paper"
                else self.tr("<h3>No identical or similar files</h3><p>Nothing matches at these "
                             "tolerances. Move the threshold to the right to find files that "
                             "differ more.</p>"))

    def _tolerances_changed(self, _tolerances: Tolerances) -> None:
        # coalesce a burst of slider moves into one update
        self._tolerances_pending = True
        self._tolerance_timer.start()

    def _apply_pending_tolerances(self) -> None:
        if self._tolerances_pending:
            # the panel's values now, not those of the burst: the method may have changed
            self._tolerances_pending = False
            self._apply_tolerances(self.tolerance.tolerances())

    def _apply_tolerances(self, tolerances: Tolerances) -> None:
        self.tolerance_chart.set_position(tolerances.key, tolerances.sum)
        if not self.distance_chart.is_empty:
            self.distance_chart.set_threshold(self.tolerance.threshold.value())
        if self.analysis is None:
            self.tolerance.show_counts(None)
            return
        if self._identical_preview:
            return  # a scan's identical copies shown: its results apply the sliders
        if self.analysis.settings.method != self.tolerance.method_name():
            return  # another method's search is on its way; its results apply the sliders
        if tolerances.content < self.analysis.stats.content_floor:
            return  # the content check was turned off: a search without it is on its way
        # the current file, found again by its index when the table shown is of these
        # files (a path looked up among a million took 10 ms a move)
        same_files = self.model.table is not None and \
            self.model.table.files is self.analysis.files
        current = self.groups.current_file() if same_files else self.groups.current_path()
        counts, self.table = self.analysis.at(tolerances)
        self.model.set_table(self.table, self.protected_folders())
        self.table = self.model.table  # with the references the user chose
        self._counts = counts
        self._show_counts()
        if same_files:  # references chosen and pairs ignored keep the table's files
            found = current < 0 or self.groups.select_file(current)
        else:
            found = current is None or self._reselect(current)
        if not found:  # the file shown is in no group now: what it said is stale
            self.details.show_files([])
        self._show_empty_state()
        self._chart_stale = True
        self._chart_timer.start()
        self._update_actions()

    def protected_folders(self) -> tuple[str, ...]:
        """Reference folders: those the results were built with and those ticked since."""
        built = self.analysis.settings.references if self.analysis is not None else ()
        return tuple(dict.fromkeys([*built, *(os.path.abspath(f)
                                              for f in self.folders.references())]))

    def _reselect(self, path: str) -> bool:
        """Select the file at ``path`` again; whether it is in a group."""
        files = self.table.files
        try:
            f = files.paths.index(path)
        except ValueError:
            return False
        return self.groups.select_file(f)

    def _update_curve(self) -> None:
        self._update_distances()
        if self.analysis is not None and self.analysis.settings.method != "paper":
            self.tolerance_chart.clear(self.tr(
                "The tolerance curves belong to the sum-table method (the paper's).\n"
                "This search uses {method}: see Fingerprint distances.").format(
                    method="MinHash" if self.analysis.settings.method == "minhash"
                    else "simhash"))
            return
        if self.analysis is None or len(self.analysis.files) < 2:
            self.tolerance_chart.clear()
            return
        steps = TOLERANCE_STEPS[::3]
        steps = steps[steps <= self.analysis.stats.max_key]
        self.tolerance_chart.set_curve(self.analysis.curve(steps))
        t = self.tolerance.tolerances()
        self.tolerance_chart.set_position(t.key, t.sum)

    def _update_distances(self) -> None:
        analysis = self.analysis
        if analysis is None or len(analysis.files) < 2 or analysis.settings.method == "paper":
            self.distance_chart.clear()
            return
        method, files, stats = analysis.settings.method, analysis.files, analysis.stats
        if method in methods.PICTURE_METHODS:  # among the pictures, by their hashes
            sampled = methods.distance_histogram(method, files.picture_hashes[files.is_picture],
                                                 files.signatures[files.is_picture])
        else:
            sampled = methods.distance_histogram(method, files.simhashes, files.signatures)
        # each pair is in one adjacency list; the copies inside classes differ by nothing
        found = methods.pair_histogram(method, np.append(stats.hit_sum, 0.0),
                                       np.append(stats.weight.astype(np.float64), stats.within))
        self.distance_chart.set_data(method, methods.distance_bins(method), sampled, found)
        self.distance_chart.set_threshold(self.tolerance.threshold.value())

    def _refresh_key_chart_if_shown(self) -> None:
        if self.tabs.currentWidget() is self.key_chart and self._chart_stale:
            self._chart_timer.start()

    def _refresh_key_chart(self) -> None:
        # the scatter is costly with many points: only redrawn when it is visible
        if self.tabs.currentWidget() is not self.key_chart or self.analysis is None:
            return
        files = self.analysis.files
        group_of = np.full(len(files), -1, np.int64)
        if self.table is not None and len(self.table):
            group_of[self.table.rows] = self.table.group_of_row
        settings = self.analysis.settings
        searched = (settings.scheme.name, settings.use_extensions)
        # the chart follows the search's key when the search changes, and otherwise keeps
        # what the user picked there (the chart's Key menu only changes the chart)
        if settings.scheme.name in ("skew", "uniform") and searched != getattr(
                self, "_chart_searched", None):
            self._chart_searched = searched
            self.key_chart.set_variant(*searched)
        self.key_chart.set_files(files.sizes, files.tables, files.extensions, group_of)
        self._chart_stale = False
        group = self.groups.current_group()
        if group >= 0 and self.table is not None:  # set_files cleared the highlight
            self.key_chart.highlight(self.table.rows[self.table.start[group]:
                                                     self.table.start[group + 1]])

    def _search_changed(self) -> None:
        scheme = self.tolerance.scheme_name()
        if scheme == "custom" and (self._last_scheme != "custom"
                                   or not self.settings.custom_weights):
            if not self._ask_custom_weights():
                self.tolerance.set_scheme_name(self._last_scheme if self._last_scheme != "custom"
                                               else "skew")
        self._last_scheme = self.tolerance.scheme_name()
        self._reanalyse()

    def _folders_changed(self) -> None:
        # protection applies at once, before any new search
        self.model.set_protected(self.protected_folders())
        self._show_empty_state()
        self._update_actions()
        if self.tasks.busy and not (self.warming_up() and self.analysis is None):
            self._stale = True  # redone when the running job ends
        elif self.analysis is not None:
            self._reanalyse()

    def _forget_results(self) -> None:
        """No results: nothing shown can be acted on until new ones arrive."""
        self.analysis = None
        self.table = None
        self.model.set_table(None)
        self.details.show_files([])
        self._update_actions()

    def _reanalyse(self) -> None:
        if not self.folders.folders():
            self._forget_results()
            self._show_empty_state()
            return
        # files without the fingerprints the search needs are read first (jobs.load)
        self._start(Task(self.tr("Updating groups"), jobs.load, self.store_path(),
                         self.folders.folders(),
                         self.search_settings(), self.scan_options()))

    def _ask_custom_weights(self) -> bool:
        current = " ".join(f"{t}={w:g}" for t, w in self.settings.custom_weights.items()) \
            or "00=6 74=4.03 65=3.29 a4=2.68"
        text, ok = QInputDialog.getText(
            self, self.tr("Custom key"),
            self.tr("Weights by tag (hex), e.g. 00=6 74=4.03 65=3.29 a4=2.68:"),
            text=current)
        if not ok:
            return False
        try:
            weights = {}
            for part in text.replace(",", " ").split():
                tag, _, weight = part.partition("=")
                weights[f"{int(tag, 16):02x}"] = float(weight)
            KeyScheme.from_tag_weights("custom", {int(t, 16): w for t, w in weights.items()})
        except ValueError as exc:
            QMessageBox.warning(self, self.tr("Custom key"),
                                self.tr("Not a valid key: {error}").format(error=exc))
            return False
        self.settings.custom_weights = weights
        return True

    # -- selection, details, charts ------------------------------------------------------

    def _selection_changed(self, files: list[int], group: int) -> None:
        if self.table is None:
            return
        if self._identical_preview:  # no sum tables or keys read yet: nothing to detail
            self.details.show_files([])
            return
        if len(files) == 1 and group >= 0:
            reference = int(self.table.rows[self.table.start[group]])
            if reference != files[0]:
                files = [reference, files[0]]
        shown = [self._file_details(f) for f in files[:2]]
        groups = {self._group_of(f) for f in files[:2]}
        if len(shown) == 2 and (len(groups) > 1 or None in groups):
            # two files of different groups (or outside any): each one's figures are
            # against its own reference, which is not the other file; show the pair's own
            shown = [dataclasses.replace(d, identical=None, similarity=None, key_distance=None,
                                         sum_distance=None, role="") for d in shown]
            self.details.show_files(shown, similarity=self._pair_similarity(*files[:2]))
        else:
            self.details.show_files(shown)
        if group >= 0:
            lo, hi = self.table.start[group], self.table.start[group + 1]
            self.key_chart.highlight(self.table.rows[lo:hi])

    def _row_of(self, f: int) -> int | None:
        """File ``f``'s row in the groups shown, or None if it is in none."""
        row = np.flatnonzero(self.table.rows == f) if self.table is not None else []
        return int(row[0]) if len(row) else None

    def _group_of(self, f: int) -> int | None:
        r = self._row_of(f)
        return None if r is None else int(self.table.group_of_row[r])

    def _pair_similarity(self, a: int, b: int) -> float:
        """Two files' similarity by the search's method, measured between them."""
        from simgui.core.search import methods

        files = self.analysis.files
        same = bool(files.hashes[a]) and files.hashes[a] == files.hashes[b] and \
            files.sizes[a] == files.sizes[b]
        return float(methods.pair_similarity(self.analysis.settings.method, files, [a], [b],
                                             np.array([same]))[0])

    def _file_details(self, f: int) -> FileDetails:
        files = self.analysis.files
        r = self._row_of(f)
        is_ref = r is not None and r == self.table.start[self.table.group_of_row[r]]
        return FileDetails(
            path=files.paths[f], size=int(files.sizes[f]), mtime_ns=int(files.mtimes_ns[f]),
            table=files.tables[f], key=float(self.analysis.plain_keys[f]),
            extension=files.extensions[f],
            identical=None if r is None else bool(self.table.identical[r]),
            similarity=None if r is None else float(self.table.similarity[r]),
            key_distance=None if r is None else float(self.table.key_distance[r]),
            sum_distance=None if r is None else int(self.table.sum_distance[r]),
            role="" if r is None else ("reference" if is_ref else "member"))

    def _chart_clicked(self, f: int) -> None:
        if not self.groups.select_file(f) and self.analysis is not None:
            self.details.show_files([self._file_details(f)])
            self.key_chart.highlight(np.array([f]))

    # -- review conveniences ------------------------------------------------------------

    def _rereference(self, table: GroupTable, files) -> GroupTable:
        from simgui.core.search.rereference import with_references

        return with_references(self.analysis, table, files) \
            if self.analysis is not None and not self._identical_preview else table

    def trash_folder(self, folder: str) -> None:
        """The Folders view's Trash: every file of ``folder`` kept as an identical copy
        outside it, run as any clean-up (confirmed, proven, journaled, undoable);
        refused with the reason when one file would be lost."""
        from simgui.core.cleanup.folder_removal import plan_folder_removal

        index = self.folders_view.index
        if index is None or self.tasks.busy:
            return
        plan = plan_folder_removal(index, folder, roots=self.folders.folders(),
                                   references=self.protected_folders())
        if plan.refused:
            message = self.tr("{folder} is not trashed: {reason}").format(
                folder=_shown(folder), reason=_shown(plan.refused[0].reason))
            self.set_status(message)
            box = QMessageBox(QMessageBox.Icon.Information, self.tr("Folder not trashed"), message,
                              parent=self)
            box.exec()
            return
        if not self.confirm(plan):
            self.set_status(self.tr("Nothing was changed."))
            return
        self._start(Task(self.tr("Cleaning up"), jobs.act, self.store_path(), plan,
                         self.folders.folders(),
                         self.scan_options(), self.search_settings()))

    def merge_folders(self, a: str, b: str) -> None:
        """The Folders view's Merge: A's files that B lacks copied into B, then A to the
        trash, as one journaled, undoable batch (core.cleanup.folder_merge), after a
        dialog that lists every step and lets the user pick A's version of similar files."""
        from simgui.core.cleanup.folder_merge import plan_merge
        from simgui.gui.similar_folders_view import MergeDialog, merge_job

        index = self.folders_view.index
        if index is None or self.tasks.busy:
            return
        roots = self.folders.folders()

        def refused(plan) -> bool:
            if plan.refused:
                message = _shown(describe_merge(plan))
                self.set_status(message)
                QMessageBox(QMessageBox.Icon.Information, self.tr("Folders not merged"),
                            message, parent=self).exec()
            return bool(plan.refused)

        plan = plan_merge(index, a, b, roots=roots, references=self.protected_folders())
        if refused(plan):
            return
        similar = [s for s in index.diff(a, b) if s.side == "a" and s.status == "similar"]
        dialog = MergeDialog(plan, similar, self)
        if dialog.exec() != MergeDialog.DialogCode.Accepted:
            self.set_status(self.tr("Nothing was changed."))
            return
        if dialog.preferred():  # (A's version in place of B's in a reference folder: no)
            plan = plan_merge(index, a, b, roots=roots, prefer_a=dialog.preferred(),
                              references=self.protected_folders())
            if refused(plan):
                return
        self._start(Task(self.tr("Merging folders"), merge_job, self.store_path(), plan, roots,
                         self.scan_options(), self.search_settings()))

    def _show_file_in_groups(self, f: int) -> None:
        """A file double-clicked in the Folders view: its group, in the Groups tab."""
        self.results_tabs.setCurrentWidget(self.groups)
        self.groups.select_file(f)

    def _sync_table(self) -> None:
        """The model's table (with the references the user chose) is the one acted on."""
        if self.model.table is not None or self.analysis is None:
            self.table = self.model.table

    # -- results you can keep ----------------------------------------------------------------

    RESULTS_FILTER = QT_TRANSLATE_NOOP("MainWindow", "simgui results (*.simgui-results)")

    def save_results(self, path: str | None = None) -> None:
        """The groups as they are now, with the session (folders, tolerances, marks, store)
        and the references chosen, in one JSON file written atomically."""
        if self.table is None:
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Save results"),
                                                  "results.simgui-results",
                                                  self.tr(self.RESULTS_FILTER))
            if not path:
                return
        import json
        import tempfile

        s = self.current_settings(with_marks=True)
        s.store, s.window = self.store_path(), {}
        t = self.table
        groups = [[[t.files.paths[f], int(t.files.sizes[f]), int(t.files.mtimes_ns[f])]
                   for f in t.rows[t.start[g]:t.start[g + 1]].tolist()] for g in range(len(t))]
        doc = {"simgui_results": 1, "session": json.loads(s.to_json()),
               "references": self.model.chosen_references(), "groups": groups}
        folder = os.path.dirname(os.path.abspath(path))
        try:
            with tempfile.NamedTemporaryFile("w", encoding="ascii", dir=folder, delete=False,
                                             suffix=".part") as out:
                json.dump(doc, out)  # ASCII: names that are not UTF-8 survive as escapes
            os.replace(out.name, path)
        except OSError as exc:
            QMessageBox.warning(self, self.tr("Save results"),
                                self.tr("Could not save {path}: {error}").format(
                                    path=_shown(path), error=exc))
            return
        self.set_status(self.tr("Saved {n:,} groups to {path}").format(n=len(groups),
                                                                        path=_shown(path)))

    def open_results(self, path: str | None = None) -> None:
        """Results saved by :meth:`save_results`: the session, marks and chosen references
        come back over the store's files; files changed since are counted and said."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open results"), "",
                                                  self.tr(self.RESULTS_FILTER)
                                                  + self.tr(";;All files (*)"))
            if not path:
                return
        import json

        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            if not isinstance(doc, dict) or doc.get("simgui_results") != 1:
                raise ValueError(self.tr("not a file written by Save Results"))
            s = Settings.from_json(json.dumps(doc["session"]))
            saved = [[(str(p), int(size), int(mtime)) for p, size, mtime in g]
                     for g in doc["groups"]]
            references = [str(p) for p in doc.get("references", [])]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            QMessageBox.warning(self, self.tr("Open results"),
                                self.tr("{path} cannot be opened as simgui results: {error}")
                                .format(path=_shown(path), error=exc))
            return
        self._take_session(s)
        self.model.set_chosen_references(references)
        self._saved_groups = saved
        self._reanalyse()
        self.set_status(self.tr("Opening results {name}…").format(name=os.path.basename(path)))

    def _take_session(self, s: Settings) -> None:
        """An opened session's (or results file's) settings and marks in place of the
        current ones, its window geometry left as it is; the caller then analyses."""
        s.window = {}
        self.settings = s
        self._forget_results()
        self._apply_settings(s)
        self.model.set_marked(s.marked)

    def _compare_with_saved(self) -> str:
        """How the results shown differ from the ones opened (then forgotten)."""
        saved, self._saved_groups = getattr(self, "_saved_groups", None), None
        if not saved or self.analysis is None:
            return ""
        files = self.analysis.files
        now = {p: (int(s), int(m)) for p, s, m in zip(files.paths, files.sizes.tolist(),
                                                       files.mtimes_ns.tolist())}
        changed = sum(now.get(p) != (size, mtime) for g in saved for p, size, mtime in g)
        text = self.tr("Opened results: {n:,} groups saved").format(n=len(saved))
        return text + (self.tr("; {n:,} of their files changed or gone since (shown as they "
                               "are now).").format(n=changed) if changed
                       else self.tr("; no file changed since."))

    def reprioritize(self) -> None:
        """Every shown group's reference chosen by rules (see gui.reprioritize)."""
        from simgui.gui.reprioritize import ReprioritizeDialog

        if self.table is None:
            return
        dialog = ReprioritizeDialog(self.table, self.model.shown_groups(), self)
        self.reprioritize_dialog = dialog  # tests find it here
        if dialog.exec() != ReprioritizeDialog.DialogCode.Accepted:
            return
        changed = self.model.make_references(dialog.chosen())
        self.set_status((self.tr("{n:,} group got another reference.") if changed == 1
                         else self.tr("{n:,} groups got another reference.")).format(n=changed))

    def _ignore_pairs(self, pairs: list) -> None:
        """The user said these pairs are not duplicates: remember them in the store."""
        self._change_ignored(add=pairs)

    def _change_ignored(self, add=(), remove=()) -> None:
        task = Task(self.tr("Updating the ignore list"), jobs.change_ignored, self.store_path(),
                    list(add), list(remove))
        task.succeeded.connect(self._ignored_changed)
        self._start(task, quiet=True)

    def _show_counts(self) -> None:
        """The search's counts, with the groups shown (pairs on the ignore list leave
        them, which the search does not know)."""
        counts = self._counts
        if counts is not None and self.model.table is not None:
            counts = dataclasses.replace(counts, groups=len(self.model.table))
        self.tolerance.show_counts(counts)

    def _ignored_changed(self, pairs) -> None:
        self._ignored = tuple(pairs)
        self.model.set_ignored(self._ignored)
        if self.model.table is not None and self.table is not None:
            self.table = self.model.table
            self._show_counts()
        n = len(self._ignored)
        self.set_status((self.tr("{n:,} pair on the ignore list (Edit › Settings shows and "
                                 "edits it).") if n == 1
                         else self.tr("{n:,} pairs on the ignore list (Edit › Settings shows "
                                      "and edits it).")).format(n=n))
        self._show_empty_state()
        self._update_actions()

    def _update_marked_count(self) -> None:
        files, size = self.model.marked_bytes()
        self.marked_label.setText(self.tr("{n:,} marked · {size}").format(
            n=files, size=format_bytes(size)) if files else "")

    def _compare(self, a: str, b: str) -> None:
        task = Task(self.tr("Comparing"), jobs.compare, a, b)
        task.succeeded.connect(self.details.show_differences)
        task.failed.connect(self.details.show_differences)
        self.readers.start(task)

    # -- marks and clean-up ------------------------------------------------------------------

    def mark_all_but_reference(self) -> None:
        self.model.mark_all_but_reference()

    def mark_identical(self) -> None:
        self.model.mark_identical_copies()

    def _focus_filter(self) -> None:
        self.groups.filter.setFocus()
        self.groups.filter.selectAll()

    def _update_actions(self) -> None:
        # while only the kernels are prepared, folders can be added and Scan pressed
        busy = self.tasks.busy and not self.warming_up()
        marked = bool(self.model.marked_in_view())
        self.scan_action.setEnabled(not busy and bool(self.folders.folders())
                                    and self.folders.minimum_size_valid())
        self.cancel_action.setEnabled(busy)
        for x in (self.trash_action, self.move_action, self.link_action):
            x.setEnabled(marked and not busy)
        self.undo_action.setEnabled(not busy and self._last_undoable is not None)
        has_groups = self.table is not None and len(self.table) > 0
        for x in (self.mark_action, self.mark_identical_action, self.invert_action,
                  self.export_action, self.reprioritize_action, self.save_results_action):
            x.setEnabled(has_groups)
        self.clear_marks_action.setEnabled(bool(self.model.marked))

    def plan(self, action: Action, target_dir: str | None = None) -> Plan:
        """The plan for ``action`` on the marked files in the groups shown (a dry run)."""
        marked = set(self.model.marked_in_view())
        t = self.table
        groups = [t.group(int(g)) for g in np.unique(t.group_of_row[np.fromiter(
            (t.files.paths[f] in marked for f in t.rows), bool, len(t.rows))])]
        return plan_marked(groups, marked, action=action, references=self.protected_folders(),
                           target_dir=target_dir, roots=self.folders.folders(),
                           identical_only=action is Action.HARDLINK)

    def run_action(self, action: Action) -> None:
        if self.table is None or not self.model.marked_in_view():
            return
        target = None
        if action is Action.MOVE:
            target = self.settings.move_target if os.path.isdir(self.settings.move_target) \
                else QFileDialog.getExistingDirectory(self, self.tr("Move the marked files to"))
            if not target:
                return
        plan = self.plan(action, target)
        if not self.confirm(plan):
            self.set_status(self.tr("Nothing was changed."))
            return
        self._start(Task(self.tr("Cleaning up"), jobs.act, self.store_path(), plan,
                         self.folders.folders(),
                         self.scan_options(), self.search_settings()))

    def confirm(self, plan: Plan) -> bool:
        """Say exactly what will happen; True if the user goes ahead."""
        text = describe_plan(plan)  # Plan.describe, in the window's language
        lines = text.splitlines()
        box = QMessageBox(self)
        box.setWindowTitle(self.tr(_ACTION_VERBS[plan.action]) if plan.action in _ACTION_VERBS
                           else self.tr("Clean up"))
        box.setIcon(QMessageBox.Icon.Question if plan.operations else QMessageBox.Icon.Information)
        box.setText(lines[0])
        copies, similar = _split_similar(plan)
        informative = lines[1:8]
        if similar:  # named in the dialog itself: what differs in them goes with them
            informative.append("")
            informative.append(self.tr("Similar only, not copies ({n:,}):").format(
                n=len(similar)))
            names = _distinct_names([op.path for op in similar[:_SIMILAR_SHOWN]])
            informative += [f"  {_similarity_text(op)}  {_shown(name)}"
                            for op, name in zip(similar, names)]
            if len(similar) > _SIMILAR_SHOWN:
                informative.append(self.tr("  … and {n:,} more (Show Details)").format(
                    n=len(similar) - _SIMILAR_SHOWN))
        box.setInformativeText("\n".join(informative))
        if len(lines) > 8 or plan.operations:
            details = [text, ""]
            if copies:
                details.append(self.tr("Identical copies ({n:,}):").format(n=len(copies)))
                # (the copy that stays and proves it, which may be another than the
                # group's reference: a copy of an edit whose original is kept)
                keeping = self.tr("  {path}  (its identical copy {kept} stays)")
                details += [keeping.format(path=_shown(op.path), kept=_shown(op.kept.path))
                            for op in copies[:2000]]
            if similar:
                details.append(self.tr("Similar only, not copies ({n:,}); the similarity "
                                       "is to the group's reference:").format(n=len(similar)))
                keeping = self.tr("  {similarity}  {path}  (keeping {kept})")
                details += [keeping.format(similarity=_similarity_text(op), path=_shown(op.path),
                                           kept=_shown(op.kept.path)) for op in similar[:2000]]
            box.setDetailedText("\n".join(details))
        if plan.operations:
            go = box.addButton(self.tr("{verb} ({n:,} files, {size})").format(
                verb=self.tr(_ACTION_VERBS[plan.action]), n=plan.files,
                size=format_bytes(plan.bytes)), QMessageBox.ButtonRole.AcceptRole)
            box.addButton(QMessageBox.StandardButton.Cancel)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        else:
            go = None
            box.addButton(QMessageBox.StandardButton.Close)
        self.confirm_box = box  # tests find it here
        box.exec()
        return go is not None and box.clickedButton() is go

    def undo_last(self) -> None:
        last = self._last_undoable
        if last is None:
            self.set_status(self.tr("Nothing to undo."))
            return
        done = last.counts.get("done", 0)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last.created_at))
        question = (self.tr("Put back the {n:,} file of clean-up {id} ({action}, {when})?\n"
                            "Files whose original place is taken again are left where they "
                            "are.") if done == 1 else
                    self.tr("Put back the {n:,} files of clean-up {id} ({action}, {when})?\n"
                            "Files whose original place is taken again are left where they "
                            "are."))
        if last.action == "merge":  # its steps are copies made as well as files trashed
            question = self.tr("Undo merge {id} ({when})? Its {n:,} steps are undone: the "
                               "files it sent to the trash are put back, and the copies it "
                               "made are removed.\nFiles whose original place is taken again "
                               "are left where they are.")
        answer = QMessageBox.question(self, self.tr("Undo"), question.format(
            n=done, id=last.id, action=action_word(last.action), when=when))
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._start(Task(self.tr("Undoing"), jobs.undo_last, self.store_path(),
                         self.folders.folders(),
                         self.scan_options(), self.search_settings()))

    # -- sessions and export ------------------------------------------------------------------

    def save_session(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Save session"), "session.simgui",
                                                  self.tr("simgui sessions (*.simgui)"))
            if not path:
                return
        s = self.current_settings(with_marks=True)
        s.store = self.store_path()
        try:
            save_settings(s, path)
        except OSError as exc:
            QMessageBox.warning(self, self.tr("Save session"),
                                self.tr("Could not save {path}: {error}").format(path=path,
                                                                                  error=exc))
            return
        self.set_status(self.tr("Session saved to {path}").format(path=path))

    def open_session(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open session"), "",
                                                  self.tr("simgui sessions (*.simgui);;"
                                                          "All files (*)"))
            if not path:
                return
        try:
            s = Settings.from_json(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, self.tr("Open session"),
                                self.tr("{path} is not a simgui session: {error}").format(
                                    path=path, error=exc))
            return
        self._take_session(s)
        self._reanalyse()
        self.set_status(self.tr("Opened session {name}").format(name=os.path.basename(path)))

    def export_groups(self, path: str | None = None) -> None:
        if self.table is None:
            return
        if path is None:
            path, chosen = QFileDialog.getSaveFileName(
                self, self.tr("Export groups"), "groups.csv",
                self.tr("CSV (*.csv);;JSON (*.json);;HTML page for sharing (*.html)"))
            if not path:
                return
        from simgui.core.search.export import write_groups

        fmt = "json" if path.lower().endswith(".json") else \
            "html" if path.lower().endswith((".html", ".htm")) else "csv"
        shown = [self.table.group(g) for g in self.model.shown_groups()]
        try:
            # a file name that is not UTF-8 goes into CSV as its bytes (see core.search.export)
            with open(path, "w", encoding="utf-8", newline="", errors="surrogateescape") as out:
                if fmt == "html":  # marked files flagged, names escaped (see export_html)
                    from simgui.core.search.export_html import write_groups_html

                    write_groups_html(shown, out, self.model.marked_in_view())
                else:
                    write_groups(shown, out, fmt)
        except OSError as exc:
            QMessageBox.warning(self, self.tr("Export groups"),
                                self.tr("Could not write {path}: {error}").format(path=path,
                                                                                   error=exc))
            return
        self.set_status(self.tr("Exported {n:,} groups to {path}").format(n=len(shown), path=path))

    def open_settings(self) -> None:
        from simgui.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.current_settings(with_marks=False), self,
                                ignored=self._ignored)
        self.settings_dialog = dialog  # tests find it here
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        removed = dialog.ignore_list.removed()
        if removed:
            self._change_ignored(remove=removed)
        self.apply_preferences(dialog.settings())

    def apply_preferences(self, new: Settings) -> None:
        """Take the settings dialog's values; a new search or store reloads the results."""
        old = self.current_settings()
        language_changed = new.language != self.settings.language
        new.custom_weights = self.settings.custom_weights
        self.settings = new
        self._apply_settings(new)
        if (old.store, old.reference_rule, old.scheme, old.overrides) != (
                new.store, new.reference_rule, new.scheme, new.overrides):
            self._forget_results()
            self._reanalyse()
        else:
            self._apply_tolerances(self.tolerance.tolerances())
        self.set_status(self.tr("Settings saved. The new language shows at the next start.")
                        if language_changed else self.tr("Settings saved."))
        try:
            save_settings(self.current_settings(), self.settings_path)
        except OSError as exc:
            self.set_status(self.tr("Could not save settings: {error}").format(error=exc))

    def open_guide(self) -> None:
        """The guide shipped in the package, rendered in a window of its own (F1)."""
        from simgui.gui.guide import GuideViewer

        if getattr(self, "guide_viewer", None) is None:
            self.guide_viewer = GuideViewer(self)
        self.guide_viewer.show()
        self.guide_viewer.raise_()

    def about(self) -> None:
        QMessageBox.about(
            self, self.tr("About simgui"),
            f"<h3>simgui {__version__}</h3>"
            + self.tr("<p>Finds identical and similar files and removes the extra copies safely: "
                      "every clean-up is checked right before it acts, journaled and, for trash "
                      "and moves, undoable.</p>"
                      "<p>Similar files are found with sum tables and keys, after Sadowski and "
                      "Levin, <i>SimHash: Hash-based Similarity Detection</i> (2007).</p>"
                      "<p>Store: {store}</p>").format(store=self.store_path()))
