"""The main window: folders and tolerances on the left, groups in the middle, details and
charts below, every long job on a worker (:mod:`simgui.gui.tasks`)."""

from __future__ import annotations

import html
import os
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import QByteArray, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication, QDockWidget, QFileDialog, QInputDialog, QLabel, QListWidget, QMainWindow,
    QMessageBox, QProgressBar, QPushButton, QSplitter, QTabWidget, QToolBar, QVBoxLayout,
    QWidget,
)

from simgui import __version__
from simgui.core.search import methods
from simgui.core.search.analysis import DEFAULT_CHECK_RESEMBLANCE, Analysis, SearchSettings
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
from simgui.gui.tasks import Task, Tasks
from simgui.gui.tolerance import TolerancePanel

_ACTION_VERBS = {Action.TRASH: "Move to Trash", Action.MOVE: "Move",
                 Action.HARDLINK: "Replace with Hard Links"}


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, settings_path: str | None = None):
        super().__init__()
        self.setWindowTitle("simgui")
        self.settings_path = settings_path
        self.settings = settings if settings is not None else load_settings(settings_path)
        self.analysis: Analysis | None = None
        self._failure = ""  # why the last job failed, until the next one starts
        self.table: GroupTable | None = None
        self.tasks = Tasks(self)  # store work, one job at a time
        self.readers = Tasks(self)  # reading files for the details panel
        self._tolerances_pending = False
        self._chart_stale = True
        self._last_undoable = None  # the journal batch Undo would put back
        self._stale = False  # folders or references changed while a job ran

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
        side_layout.addWidget(self.folders, 1)
        side_layout.addWidget(self.tolerance)
        self.side_dock = QDockWidget("Search", self)
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
        self.tabs.addTab(self.details, "Details")
        self.tabs.addTab(self.key_chart, "Key space")
        self.tabs.addTab(self.tolerance_chart, "Tolerance curves")
        self.tabs.addTab(self.distance_chart, "Fingerprint distances")
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.groups)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([520, 380])
        self.splitter = splitter
        self.setCentralWidget(splitter)

        self.problems = QListWidget()
        self.problems_dock = QDockWidget("Problems", self)
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
        self.key_chart.variantChanged.connect(self._chart_variant_changed)
        self.details.compare_requested.connect(self._compare)
        self.tabs.currentChanged.connect(lambda _i: self._refresh_key_chart_if_shown())
        self.tasks.busy_changed.connect(self._busy_changed)
        self.groups.empty_button.clicked.connect(self.folders.choose_folder)

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
        self.add_folder_action = a("&Add Folder…", self.folders.choose_folder, S.Open,
                                   "Add a folder to scan")
        self.scan_action = a("&Scan", self.start_scan, S.Refresh,
                             "Read new and changed files in the folders and find groups")
        self.cancel_action = a("&Cancel", self.cancel, Qt.Key.Key_Escape, "Stop the running job")
        self.open_session_action = a("&Open Session…", self.open_session, "Ctrl+Shift+O")
        self.save_session_action = a("&Save Session As…", self.save_session, S.Save,
                                     "Save folders, tolerances and marks to a file")
        self.export_action = a("&Export Groups…", self.export_groups, "Ctrl+E",
                               "Save the groups shown as CSV or JSON")
        self.quit_action = a("&Quit", self.close, S.Quit)
        self.mark_action = a("&Mark All but Reference", self.mark_all_but_reference, "Ctrl+M",
                             "Tick every file in the groups shown except each group's reference")
        self.mark_identical_action = a("Mark &Identical Copies", self.mark_identical,
                                       "Ctrl+Shift+I",
                                       "Tick the files identical to their group's reference")
        self.invert_action = a("&Invert Marks", self.model.invert_marks, "Ctrl+I")
        self.clear_marks_action = a("C&lear Marks", self.model.clear_marks, "Ctrl+Shift+M")
        self.find_action = a("&Find…", self._focus_filter, S.Find)
        self.trash_action = a("Move Marked to &Trash…", lambda: self.run_action(Action.TRASH),
                              None, "Send the ticked files to the trash (undoable)")
        self.move_action = a("Mo&ve Marked To…", lambda: self.run_action(Action.MOVE),
                             None, "Move the ticked files to a folder (undoable)")
        self.link_action = a("Replace Marked with &Hard Links…",
                             lambda: self.run_action(Action.HARDLINK), None,
                             "Replace ticked identical copies with hard links to the kept file")
        self.undo_action = a("&Undo Last Clean-up", self.undo_last, S.Undo,
                             "Put back what the last trash or move took away")
        self.settings_action = a("&Settings…", self.open_settings, S.Preferences)
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.guide_action = a("&User Guide", self.open_guide, S.HelpContents,
                              "How to find and clean up duplicates, step by step")
        self.about_action = a("&About simgui", self.about)
        self.about_qt_action = a("About &Qt", QApplication.aboutQt)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        for x in (self.add_folder_action, self.scan_action, self.cancel_action, None,
                  self.open_session_action, self.save_session_action, self.export_action, None,
                  self.quit_action):
            file_menu.addSeparator() if x is None else file_menu.addAction(x)
        edit_menu = menu.addMenu("&Edit")
        for x in (self.undo_action, None, self.mark_action, self.mark_identical_action,
                  self.invert_action, self.clear_marks_action, None, self.find_action, None,
                  self.settings_action):
            edit_menu.addSeparator() if x is None else edit_menu.addAction(x)
        actions_menu = menu.addMenu("&Actions")
        for x in (self.trash_action, self.move_action, self.link_action):
            actions_menu.addAction(x)
        view_menu = menu.addMenu("&View")
        view_menu.addAction(self.side_dock.toggleViewAction())
        view_menu.addAction(self.problems_dock.toggleViewAction())
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self.guide_action)
        help_menu.addSeparator()
        help_menu.addAction(self.about_action)
        help_menu.addAction(self.about_qt_action)

        bar = QToolBar("Main")
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
        self.tolerance.set_tolerances(Tolerances(s.key_tolerance, s.sum_tolerance))
        self.tolerance.size_factor.setValue(s.size_factor)
        self.tolerance.set_scheme_name(s.scheme if s.scheme in ("skew", "uniform", "custom")
                                       else "skew")
        self.tolerance.extensions.setChecked(s.use_extensions)
        self.tolerance.set_thresholds(
            min(max(s.simhash_bits, 0), methods.SIMHASH_MAX_BITS),
            min(max(s.minhash_resemblance, methods.MINHASH_FLOOR * 100), 100.0))
        self.tolerance.set_method_name(s.method if s.method in methods.METHODS else "paper")
        self.tolerance.check.setChecked(s.check_by_content)
        self.tolerance.blockSignals(False)
        try:
            parse_overrides(s.overrides)
        except ValueError as exc:
            self.set_status(f"Per-extension tolerances ignored ({exc}): correct them in "
                            f"Settings.")
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
            key_tolerance=self.tolerance.chosen_key(), sum_tolerance=self.tolerance.sum.value(),
            method=self.tolerance.method_name(), simhash_bits=int(thresholds["simhash"]),
            minhash_resemblance=float(thresholds["minhash"]),
            check_by_content=self.tolerance.check.isChecked(),
            overrides=self.settings.overrides,
            size_factor=self.tolerance.size_factor.value(), scheme=self.tolerance.scheme_name(),
            custom_weights=self.settings.custom_weights,
            use_extensions=self.tolerance.extensions.isChecked(),
            min_similar_size=self.settings.min_similar_size,
            reference_rule=self.settings.reference_rule,
            default_action=self.settings.default_action, move_target=self.settings.move_target,
            workers=self.settings.workers, store=self.settings.store,
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
                              check_resemblance=DEFAULT_CHECK_RESEMBLANCE
                              if self.tolerance.check.isChecked() else 0.0,
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
                           min_size=self.folders.minimum_size(), workers=self.settings.workers,
                           fingerprints=self.tolerance.needs_fingerprints())

    def closeEvent(self, event) -> None:
        if self.tasks.busy:
            self.tasks.cancel_all()
            self.set_status("Stopping the running job…")
            self.tasks.wait()  # a cancelled job saves what it did, then stops
        self.readers.cancel_all()
        self.readers.wait()
        try:
            save_settings(self.current_settings(), self.settings_path)
        except OSError as exc:
            print(f"simgui: could not save settings: {exc}")
        super().closeEvent(event)

    # -- jobs ------------------------------------------------------------------------------

    def start_up(self) -> None:
        """After the window shows: load kernels and whatever the store already holds."""
        self._start(Task("Loading", jobs.warm_up), quiet=True)
        if self.folders.folders():
            self._start(Task("Loading results", jobs.load, self.store_path(),
                             self.folders.folders(), self.search_settings(),
                             self.scan_options()))
        else:
            self._show_empty_state()

    def start_scan(self) -> None:
        folders = self.folders.folders()
        if not folders:
            self.set_status("Add a folder to scan first.")
            return
        self._start(Task("Scanning", jobs.scan_and_analyse, self.store_path(), folders,
                         self.scan_options(), self.search_settings()))
        self.groups.set_empty_text("<h3>Scanning…</h3><p>Groups appear when the scan ends.</p>")

    def cancel(self) -> None:
        self.tasks.cancel_all()
        self.readers.cancel_all()

    def _start(self, task: Task, quiet: bool = False) -> Task:
        """Run ``task`` on the store's worker; unless ``quiet`` (no progress, nothing to
        show), its progress is shown and its :class:`jobs.Results` replace the view."""
        if not quiet:
            self._failure = ""
            task.progressed.connect(self._progressed)
            task.succeeded.connect(self._results_arrived)
            self.progress.setRange(0, 0)
            self.progress.show()
            self.set_status(f"{task.name}…")
        task.failed.connect(self._task_failed)
        task.cancelled.connect(self._task_cancelled)
        task.finished.connect(self._task_finished)
        return self.tasks.start(task)

    def _progressed(self, p: Progress) -> None:
        if p.phase == "analysing":
            self.progress.setRange(0, 0)
            self.set_status("Finding identical and similar files…")
            return
        if p.bytes_total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * p.bytes_done / max(p.bytes_total, 1)))
        else:
            self.progress.setRange(0, 0)
        parts = [f"{p.phase.capitalize()}: {p.files_done:,}"
                 + (f" of {p.files_total:,}" if p.files_total else "") + " files"]
        if p.bytes_done:
            parts.append(format_bytes(p.bytes_done)
                         + (f" of {format_bytes(p.bytes_total)}" if p.bytes_total else ""))
        if p.rate > 0 and p.bytes_done:
            parts.append(format_rate(p.rate))
            if p.bytes_total and p.bytes_total > p.bytes_done:
                parts.append(format_duration((p.bytes_total - p.bytes_done) / p.rate) + " left")
        self.set_status(" · ".join(parts))

    def _task_failed(self, message: str) -> None:
        self._failure = message  # the empty view says it too, not "Ready to scan"
        self.set_status(f"Failed: {message}")
        self.add_problems([("", "error", message)])
        self._show_empty_state()

    def _task_cancelled(self) -> None:
        self.set_status("Cancelled. What was done so far is saved; scanning again resumes.")
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
            self.problems.addItem(f"{path}: {message}" if path else message)
        n = self.problems.count()
        self.problems_button.setText(f"{n:,} problem{'s' if n != 1 else ''}")
        self.problems_button.setVisible(n > 0)

    # -- results ----------------------------------------------------------------------------

    def _results_arrived(self, results: jobs.Results) -> None:
        self.problems.clear()
        self.add_problems(results.issues)
        self.analysis = results.analysis
        if results.analysis.settings.method != self.tolerance.method_name():
            # the method changed while this job ran; a search with the new one is queued.
            # Until it lands nothing is shown, so nothing stale can be acted on.
            self.table = None
            self.model.set_table(None)
            self.details.show_files([])
            self.distance_chart.clear()
            self._update_actions()
            return
        self._last_undoable = results.last_undoable
        if results.batch is not None or results.undone is not None:
            self.model.clear_marks()  # files moved back must not come back ticked
        if results.analysis.settings.method == "paper":
            self.tolerance.blockSignals(True)
            self.tolerance.set_key_ceiling(results.analysis.stats.max_key)
            self.tolerance.blockSignals(False)
        self._chart_stale = True
        self._update_curve()
        self._apply_tolerances(self.tolerance.tolerances())
        n = len(results.analysis.files)
        message = f"{n:,} files"
        if results.scan is not None and results.batch is None and results.undone is None:
            r = results.scan
            message = (f"Scanned {r.files_found:,} files in {format_duration(r.elapsed)}: "
                       f"{r.files_read:,} read, {r.files_unchanged:,} unchanged")
        if results.batch is not None:
            message = results.batch.describe().splitlines()[0]
            self._show_batch_result(results.batch.describe())
        if results.undone is not None:
            message = results.undone.describe().splitlines()[0]
            self._show_batch_result(results.undone.describe(), "Undo")
        self.set_status(message)
        self._refresh_key_chart_if_shown()

    def _show_batch_result(self, text: str, title: str = "Clean-up finished") -> None:
        box = QMessageBox(QMessageBox.Icon.Information, title, text.splitlines()[0],
                          QMessageBox.StandardButton.Ok, self)
        if len(text.splitlines()) > 1:
            box.setDetailedText(text)
        box.setModal(False)
        box.show()
        self.last_result_box = box

    def _show_empty_state(self) -> None:
        self.groups.empty_button.setVisible(not self.folders.folders())
        if not self.folders.folders():
            self.groups.set_empty_text(
                "<h3>Add a folder to begin</h3>"
                "<p>1. <b>Add folders</b> to look in (or drop them on the Folders list). "
                "Tick a folder to protect it as a reference.<br>"
                "2. <b>Scan</b>: every file is read once; rescans read only what changed.<br>"
                "3. <b>Review</b> the groups, tick the extra copies and move them to the "
                "trash. Nothing changes before you confirm, and Undo puts files back.</p>")
        elif self.analysis is None and self._failure:
            self.groups.set_empty_text(
                f"<h3>The results could not be loaded</h3><p>{html.escape(self._failure)}</p>"
                "<p>The store file is chosen in <b>Edit › Settings</b>.</p>")
        elif self.analysis is None:
            n = len(self.folders.folders())
            self.groups.set_empty_text(
                f"<h3>Ready to scan</h3><p>Press <b>Scan</b> to look for identical and similar "
                f"files in {n} folder{'s' if n != 1 else ''}.</p>")
        else:
            self.groups.set_empty_text(
                "<h3>No identical or similar files</h3><p>Nothing matches at these tolerances. "
                + ("Raise the sum-table tolerance" if self.tolerance.method_name() == "paper"
                   else "Move the threshold to the right")
                + " to find files that differ more.</p>")

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
        if self.analysis.settings.method != self.tolerance.method_name():
            return  # another method's search is on its way; its results apply the sliders
        current = self.groups.current_path()
        counts, self.table = self.analysis.at(tolerances)
        self.tolerance.show_counts(counts)
        self.model.set_table(self.table, self.protected_folders())
        if current is not None:
            self._reselect(current)
        self._show_empty_state()
        self._chart_stale = True
        self._chart_timer.start()
        self._update_actions()

    def protected_folders(self) -> tuple[str, ...]:
        """Reference folders: those the results were built with and those ticked since."""
        built = self.analysis.settings.references if self.analysis is not None else ()
        return tuple(dict.fromkeys([*built, *(os.path.abspath(f)
                                              for f in self.folders.references())]))

    def _reselect(self, path: str) -> None:
        files = self.table.files
        try:
            f = files.paths.index(path)
        except ValueError:
            return
        self.groups.select_file(f)

    def _update_curve(self) -> None:
        self._update_distances()
        if (self.analysis is None or len(self.analysis.files) < 2
                or self.analysis.settings.method != "paper"):
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
        sampled = methods.distance_histogram(method, files.simhashes, files.signatures)
        # each pair is in two adjacency lists; the copies inside classes differ by nothing
        found = methods.pair_histogram(method, np.append(stats.hit_sum, 0.0),
                                       np.append(stats.weight / 2, stats.within))
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
        if settings.scheme.name in ("skew", "uniform"):
            self.key_chart.set_variant(settings.scheme.name, settings.use_extensions)
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
        if self.tasks.busy:
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
        self._start(Task("Updating groups", jobs.load, self.store_path(), self.folders.folders(),
                         self.search_settings(), self.scan_options()))

    def _ask_custom_weights(self) -> bool:
        current = " ".join(f"{t}={w:g}" for t, w in self.settings.custom_weights.items()) \
            or "00=6 74=4.03 65=3.29 a4=2.68"
        text, ok = QInputDialog.getText(
            self, "Custom key", "Weights by tag (hex), e.g. 00=6 74=4.03 65=3.29 a4=2.68:",
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
            QMessageBox.warning(self, "Custom key", f"Not a valid key: {exc}")
            return False
        self.settings.custom_weights = weights
        return True

    # -- selection, details, charts ------------------------------------------------------

    def _selection_changed(self, files: list[int], group: int) -> None:
        if self.table is None:
            return
        if len(files) == 1 and group >= 0:
            reference = int(self.table.rows[self.table.start[group]])
            if reference != files[0]:
                files = [reference, files[0]]
        self.details.show_files([self._file_details(f) for f in files[:2]])
        if group >= 0:
            lo, hi = self.table.start[group], self.table.start[group + 1]
            self.key_chart.highlight(self.table.rows[lo:hi])

    def _file_details(self, f: int) -> FileDetails:
        files = self.analysis.files
        row = np.flatnonzero(self.table.rows == f) if self.table is not None else []
        r = int(row[0]) if len(row) else None
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

    def _chart_variant_changed(self, scheme: str, use_extensions: bool) -> None:
        self.tolerance.blockSignals(True)
        self.tolerance.set_scheme_name(scheme.lower())
        self.tolerance.extensions.setChecked(use_extensions)
        self.tolerance.blockSignals(False)
        self._search_changed()

    def _compare(self, a: str, b: str) -> None:
        task = Task("Comparing", jobs.compare, a, b)
        task.succeeded.connect(self.details.show_differences)
        task.failed.connect(self.details.show_differences)
        self.readers.start(task)

    # -- marks and clean-up ------------------------------------------------------------------

    def mark_all_but_reference(self) -> None:
        self.model.mark_all_but_reference()

    def mark_identical(self) -> None:
        self.model.mark_all_but_reference(identical_only=True)

    def _focus_filter(self) -> None:
        self.groups.filter.setFocus()
        self.groups.filter.selectAll()

    def _update_actions(self) -> None:
        busy = self.tasks.busy
        marked = bool(self.model.marked_in_view())
        self.scan_action.setEnabled(not busy and bool(self.folders.folders())
                                    and self.folders.minimum_size_valid())
        self.cancel_action.setEnabled(busy)
        for x in (self.trash_action, self.move_action, self.link_action):
            x.setEnabled(marked and not busy)
        self.undo_action.setEnabled(not busy and self._last_undoable is not None)
        has_groups = self.table is not None and len(self.table) > 0
        for x in (self.mark_action, self.mark_identical_action, self.invert_action,
                  self.export_action):
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
                else QFileDialog.getExistingDirectory(self, "Move the marked files to")
            if not target:
                return
        plan = self.plan(action, target)
        if not self.confirm(plan):
            self.set_status("Nothing was changed.")
            return
        self._start(Task("Cleaning up", jobs.act, self.store_path(), plan, self.folders.folders(),
                         self.scan_options(), self.search_settings()))

    def confirm(self, plan: Plan) -> bool:
        """Say exactly what will happen; True if the user goes ahead."""
        text = plan.describe()
        lines = text.splitlines()
        box = QMessageBox(self)
        box.setWindowTitle(_ACTION_VERBS.get(plan.action, "Clean up"))
        box.setIcon(QMessageBox.Icon.Question if plan.operations else QMessageBox.Icon.Information)
        box.setText(lines[0])
        box.setInformativeText("\n".join(lines[1:8]))
        if len(lines) > 8 or plan.operations:
            box.setDetailedText(text + "\n\n" + "\n".join(
                f"{op.path}  (keeping {op.kept.path})" for op in plan.operations[:2000]))
        if plan.operations:
            go = box.addButton(f"{_ACTION_VERBS[plan.action]} ({plan.files:,} files, "
                               f"{format_bytes(plan.bytes)})", QMessageBox.ButtonRole.AcceptRole)
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
            self.set_status("Nothing to undo.")
            return
        done = last.counts.get("done", 0)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last.created_at))
        answer = QMessageBox.question(
            self, "Undo", f"Put back the {done:,} files of clean-up {last.id} ({last.action}, "
            f"{when})?\nFiles whose original place is taken again are left where they are.")
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._start(Task("Undoing", jobs.undo_last, self.store_path(), self.folders.folders(),
                         self.scan_options(), self.search_settings()))

    # -- sessions and export ------------------------------------------------------------------

    def save_session(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save session", "session.simgui",
                                                  "simgui sessions (*.simgui)")
            if not path:
                return
        s = self.current_settings(with_marks=True)
        s.store = self.store_path()
        try:
            save_settings(s, path)
        except OSError as exc:
            QMessageBox.warning(self, "Save session", f"Could not save {path}: {exc}")
            return
        self.set_status(f"Session saved to {path}")

    def open_session(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Open session", "",
                                                  "simgui sessions (*.simgui);;All files (*)")
            if not path:
                return
        try:
            s = Settings.from_json(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, "Open session", f"{path} is not a simgui session: {exc}")
            return
        s.window = {}
        self.settings = s
        self._forget_results()
        self._apply_settings(s)
        self.model.set_marked(s.marked)
        self._reanalyse()
        self.set_status(f"Opened session {os.path.basename(path)}")

    def export_groups(self, path: str | None = None) -> None:
        if self.table is None:
            return
        if path is None:
            path, chosen = QFileDialog.getSaveFileName(self, "Export groups", "groups.csv",
                                                       "CSV (*.csv);;JSON (*.json)")
            if not path:
                return
        from simgui.core.search.export import write_groups

        fmt = "json" if path.lower().endswith(".json") else "csv"
        shown = [self.table.group(g) for g in self.model.shown_groups()]
        try:
            # a file name that is not UTF-8 goes into CSV as its bytes (see core.search.export)
            with open(path, "w", encoding="utf-8", newline="", errors="surrogateescape") as out:
                write_groups(shown, out, fmt)
        except OSError as exc:
            QMessageBox.warning(self, "Export groups", f"Could not write {path}: {exc}")
            return
        self.set_status(f"Exported {len(shown):,} groups to {path}")

    def open_settings(self) -> None:
        from simgui.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.current_settings(with_marks=False), self)
        self.settings_dialog = dialog  # tests find it here
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        self.apply_preferences(dialog.settings())

    def apply_preferences(self, new: Settings) -> None:
        """Take the settings dialog's values; a new search or store reloads the results."""
        old = self.current_settings()
        new.custom_weights = self.settings.custom_weights
        self.settings = new
        self._apply_settings(new)
        if (old.store, old.reference_rule, old.scheme, old.overrides) != (
                new.store, new.reference_rule, new.scheme, new.overrides):
            self._forget_results()
            self._reanalyse()
        else:
            self._apply_tolerances(self.tolerance.tolerances())
        self.set_status("Settings saved.")
        try:
            save_settings(self.current_settings(), self.settings_path)
        except OSError as exc:
            self.set_status(f"Could not save settings: {exc}")

    def open_guide(self) -> None:
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        guide = Path(__file__).resolve().parents[2] / "docs" / "user-guide.md"
        url = QUrl.fromLocalFile(str(guide)) if guide.exists() else \
            QUrl("https://github.com/simgui/simgui/blob/main/docs/user-guide.md")
        QDesktopServices.openUrl(url)

    def about(self) -> None:
        QMessageBox.about(
            self, "About simgui",
            f"<h3>simgui {__version__}</h3>"
            "<p>Finds identical and similar files and removes the extra copies safely: "
            "every clean-up is checked right before it acts, journaled and, for trash and "
            "moves, undoable.</p>"
            "<p>Similar files are found with sum tables and keys, after Sadowski and Levin, "
            "<i>SimHash: Hash-based Similarity Detection</i> (2007).</p>"
            f"<p>Store: {self.store_path()}</p>")
