"""Reviewing results (issues 27 and 33): marking rules, the reference, shortcuts in the
filter, the charts' honesty, and the review conveniences (counts, Make Reference,
expand/collapse, group headers, differences from the reference, the confirmation)."""

import dataclasses

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from simgui.core.cleanup import Action
from simgui.gui.groups_model import NAME, SIZE_DELTA, TIME_DELTA, _time_delta
from tests.test_gui_window import WAIT_MS, make_tree, scan, scan_tree


def _rows(model, g):
    group = model.index(g, 0)
    return [model.index(r, NAME, group) for r in range(model.rowCount(group))]


def _tree_with_copies_of_a_member(tmp_path):
    """make_tree, plus in each group a second copy of the edited (similar) file."""
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    (root / "more").mkdir()
    for i in range(6):
        data = (root / "other" / f"file{i} (edited).bin").read_bytes()
        (root / "more" / f"file{i} (edited again).bin").write_bytes(data)
    return root


# -- marking rules -----------------------------------------------------------------------

def test_mark_identical_copies_marks_copies_of_members_too(qtbot, window, tmp_path):
    root = _tree_with_copies_of_a_member(tmp_path)
    scan(qtbot, window, root)
    assert window.model.rowCount() == 6
    window.mark_identical()
    marked = window.model.marked
    # per group: the reference's copy, and the second of the two similar copies
    assert len(marked) == 12
    for i in range(6):
        assert str(root / "backup" / f"file{i}.bin") in marked
        edited = {str(root / "other" / f"file{i} (edited).bin"),
                  str(root / "more" / f"file{i} (edited again).bin")}
        assert len(edited & marked) == 1  # one of the two copies stays
    assert not any("docs" in p for p in marked)  # references never
    # each marked file has an identical copy that stays
    t = window.table
    for g in range(len(t)):
        lo, hi = t.start[g], t.start[g + 1]
        paths = [t.files.paths[f] for f in t.rows[lo:hi]]
        hashes = [t.files.hashes[f] for f in t.rows[lo:hi]]
        for p, h in zip(paths, hashes):
            if p in marked:
                assert any(h == h2 and p2 not in marked for p2, h2 in zip(paths, hashes))


def test_the_reference_cannot_be_ticked(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    model = window.model
    reference = _rows(model, 0)[0]
    assert model.is_reference(reference)
    assert not model.flags(reference) & Qt.ItemFlag.ItemIsUserCheckable
    assert model.data(reference, Qt.ItemDataRole.CheckStateRole) is None
    assert not model.setData(reference, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert "cannot be marked" in model.data(reference, Qt.ItemDataRole.ToolTipRole)
    model.invert_marks()
    refs = {window.table.files.paths[window.table.rows[window.table.start[g]]]
            for g in range(len(window.table))}
    assert not refs & model.marked
    assert len(model.marked) == 12
    # a reference marked elsewhere (an old session) is never acted on
    model.set_marked(model.marked | refs)
    assert not refs & set(model.marked_in_view())


# -- the filter box ---------------------------------------------------------------------

class _X11Bindings(QObject):
    """What X11 key bindings do to a line edit: it claims Ctrl+E ("end of line")."""

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_E:
            event.accept()
            return True
        return False


def test_ctrl_e_exports_while_the_filter_has_focus(qtbot, window, tmp_path, monkeypatch):
    scan_tree(qtbot, window, tmp_path)
    exported = []
    monkeypatch.setattr(window, "export_groups", lambda *a: exported.append(1))
    window.export_action.triggered.disconnect()
    window.export_action.triggered.connect(lambda *_: window.export_groups())
    window.activateWindow()
    window.groups.filter.setFocus()
    qtbot.keyClick(window.groups.filter, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert exported == [1]
    # where the line edit takes Ctrl+E for itself, the key press reaches the box, which
    # hands it to the window's action
    x11 = _X11Bindings()
    window.groups.filter.installEventFilter(x11)
    qtbot.keyClick(window.groups.filter, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert exported == [1, 1]
    # typing still types
    qtbot.keyClicks(window.groups.filter, "file1")
    assert window.groups.filter.text() == "file1"


# -- charts -------------------------------------------------------------------------------

def test_the_key_space_menu_changes_only_the_chart(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    window.tabs.setCurrentWidget(window.key_chart)
    qtbot.waitUntil(lambda: not window.key_chart.is_empty)
    scheme, extensions = window.tolerance.scheme_name(), window.tolerance.extensions.isChecked()
    counts = window.tolerance.counts.text()
    box = window.key_chart.variant_box
    other = next(i for i in range(box.count()) if i != box.currentIndex())
    box.setCurrentIndex(other)
    box.activated.emit(other)
    assert not window.tasks.busy  # no new search
    assert window.tolerance.scheme_name() == scheme
    assert window.tolerance.extensions.isChecked() == extensions
    assert window.tolerance.counts.text() == counts
    assert any("chart only" in label.text()
               for label in window.key_chart.findChildren(QLabel))  # said at the control
    # a slider move redraws the chart without undoing the user's pick
    window._chart_stale = True
    window._refresh_key_chart()
    assert box.currentIndex() == other


def test_the_key_space_note_counts_one_file_in_the_singular(qtbot):
    from simgui.gui.charts import KeySpaceChart

    chart = KeySpaceChart()
    qtbot.addWidget(chart)
    tables = np.zeros((3, 16), np.int64)
    tables[1:, 0] = 10
    chart.set_files(np.array([0, 10, 20]), tables, ["", "", ""], np.full(3, -1))
    assert "1 file of 0 bytes" in chart.note_text


def test_tolerance_curves_under_minhash_say_they_belong_to_the_sum_table_method(
        qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    assert not window.tolerance_chart.is_empty
    from tests.test_gui_methods import choose

    choose(qtbot, window, "minhash")
    message = window.tolerance_chart.empty_message
    assert "belong to the sum-table method" in message
    assert "Scan a folder" not in message


# -- conveniences ------------------------------------------------------------------------

def test_the_status_bar_counts_marked_files_and_bytes(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    assert window.marked_label.text() == ""
    window.mark_identical()
    files, size = window.model.marked_bytes()
    assert files == 6
    t = window.table
    expected = sum(int(t.files.sizes[f]) for f in t.rows if t.files.paths[f] in
                   window.model.marked)
    assert size == expected
    assert window.marked_label.text().startswith("6 marked · ")
    window.model.clear_marks()
    assert window.marked_label.text() == ""


def test_make_reference_keeps_another_file(qtbot, window, tmp_path):
    root = scan_tree(qtbot, window, tmp_path)
    model = window.model
    rows = _rows(model, 0)
    old_reference = model.data(rows[0], Qt.ItemDataRole.ToolTipRole).splitlines()[0]
    member = next(i for i in rows[1:] if "(edited)" in model.data(i))
    path = window.table.files.paths[model.file_of(member)]
    model.setData(member, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    window.groups.tree.setCurrentIndex(member)
    window.groups.make_current_reference()
    g = next(g for g in range(len(window.table))
             if window.table.files.paths[window.table.rows[window.table.start[g]]] == path)
    t = window.table
    lo, hi = t.start[g], t.start[g + 1]
    assert path not in model.marked  # the reference is kept, never marked
    # the columns are against the new reference: the old one is now only similar
    old_row = next(r for r in range(lo, hi) if t.files.paths[t.rows[r]] == old_reference)
    assert not t.identical[old_row] and t.similarity[old_row] < 100
    assert t.sum_distance[lo] == 0 and t.identical[lo]
    assert t.group_bytes[g] == sum(int(t.files.sizes[t.rows[r]]) for r in range(lo + 1, hi))
    # the old reference can be marked now, and the choice survives a slider move
    old_index = model.index_of_file(int(t.rows[old_row]))
    assert model.setData(old_index, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    window.tolerance.sum.set_value(window.tolerance.sum.value())
    window._apply_tolerances(window.tolerance.tolerances())
    t = window.table
    assert path in {t.files.paths[t.rows[t.start[g]]] for g in range(len(t))}
    # the plan keeps the chosen file
    plan = window.plan(Action.TRASH)
    assert all(op.path != path for op in plan.operations)
    assert any(op.path == old_reference for op in plan.operations)
    assert root.exists()


def test_few_groups_open_and_expand_collapse_all(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    tree, model = window.groups.tree, window.model
    assert all(tree.isExpanded(model.index(r, 0)) for r in range(model.rowCount()))
    window.groups.collapse_all_action.trigger()
    assert not any(tree.isExpanded(model.index(r, 0)) for r in range(model.rowCount()))
    window.groups.expand_all_action.trigger()
    assert all(tree.isExpanded(model.index(r, 0)) for r in range(model.rowCount()))


def test_group_header_says_what_it_holds_and_rows_their_differences(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    model = window.model
    from simgui.gui.groups_model import FOLDER

    header = model.data(model.index(0, FOLDER))
    assert header.startswith("3 files · ") and header.endswith(" to free")
    rows = _rows(model, 0)
    group = model.index(0, 0)
    deltas = [model.data(model.index(i.row(), SIZE_DELTA, group)) for i in rows]
    assert deltas[0] == ""  # the reference
    assert "same" in deltas[1:]  # its identical copy
    assert model.headerData(SIZE_DELTA, Qt.Orientation.Horizontal) == "Size vs reference"
    assert model.headerData(TIME_DELTA, Qt.Orientation.Horizontal) == "Time vs reference"
    assert _time_delta(0.2) == "same"
    assert _time_delta(90) == "+1.5 min"
    assert _time_delta(-3 * 86400) == "−3.0 d"
    assert _time_delta(40 * 86400) == "+40 d"


def test_the_confirmation_lists_similar_only_files_with_their_similarity(
        qtbot, window, tmp_path, monkeypatch):
    scan_tree(qtbot, window, tmp_path)
    window.mark_all_but_reference()
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Cancel)
    window.run_action(Action.TRASH)
    box = window.confirm_box
    info = box.informativeText()
    assert "Similar only, not copies (6):" in info
    similar_lines = [line for line in info.splitlines() if "(edited)" in line]
    assert len(similar_lines) == 6 and all("%" in line for line in similar_lines)
    details = box.detailedText()
    assert "Identical copies (6):" in details
    copies = details.split("Identical copies (6):")[1].split("Similar only")[0]
    assert "(edited)" not in copies


# -- the ignore list ------------------------------------------------------------------------

def test_not_duplicates_leaves_the_group_and_is_remembered(qtbot, window, tmp_path,
                                                           monkeypatch):
    from simgui.core.store import Store, ignored
    from simgui.gui.main_window import MainWindow

    scan_tree(qtbot, window, tmp_path)
    model = window.model
    rows = _rows(model, 0)
    member = next(i for i in rows[1:] if "(edited)" in model.data(i))
    reference = window.table.files.paths[model.file_of(rows[0])]
    path = window.table.files.paths[model.file_of(member)]
    window.groups.tree.setCurrentIndex(member)
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.groups.ignore_current()
    shown = {window.table.files.paths[f] for f in window.table.rows}
    assert path not in shown and reference in shown
    assert window.model.rowCount() == 6  # its group keeps the identical copy
    with Store(window.store_path()) as store:
        assert ignored.ignored_pairs(store) == [ignored.normalise(reference, path)]
    assert "1 pair on the ignore list" in window.status_text.text()

    # a new window leaves it out too, and Settings takes it off the list
    w = MainWindow(settings_path=str(tmp_path / "second.json"))
    qtbot.addWidget(w)
    w.show()
    w.folders.add_folders(window.folders.folders())
    w.start_up()
    qtbot.waitUntil(lambda: not w.tasks.busy and w.table is not None, timeout=WAIT_MS)
    assert path not in {w.table.files.paths[f] for f in w.table.rows}

    def remove_and_accept(dialog):
        editor = dialog.ignore_list
        assert editor.pairs() == [ignored.normalise(reference, path)]
        editor.list.selectAll()
        editor.remove_button.click()
        return dialog.DialogCode.Accepted

    from simgui.gui.settings_dialog import SettingsDialog

    monkeypatch.setattr(SettingsDialog, "exec", remove_and_accept)
    w.open_settings()
    qtbot.waitUntil(lambda: not w.tasks.busy and w.table is not None and path in {
        w.table.files.paths[f] for f in w.table.rows}, timeout=WAIT_MS)
    with Store(w.store_path()) as store:
        assert ignored.ignored_pairs(store) == []


def test_ignoring_a_group_row_ignores_each_member_with_its_reference(qtbot, window, tmp_path):
    scan_tree(qtbot, window, tmp_path)
    model = window.model
    pairs = model.pairs_to_ignore(model.index(0, 0))
    rows = _rows(model, 0)
    reference = window.table.files.paths[model.file_of(rows[0])]
    assert len(pairs) == 2 and all(a == reference for a, _ in pairs)
    assert model.pairs_to_ignore(rows[0]) == []  # a reference with itself: nothing
    window.groups.tree.setCurrentIndex(model.index(0, 0))
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.groups.ignore_current()
    assert window.model.rowCount() == 5
    # the counts under the sliders say the groups shown, not the search's 6
    assert "<b>5</b> groups" in window.tolerance.counts.text()
    assert len(window.table) == 5  # what the details read is what is shown


# -- re-prioritize --------------------------------------------------------------------------

def test_reprioritize_chooses_every_reference_by_rules_in_order(qtbot, window, tmp_path,
                                                                monkeypatch):
    from simgui.gui.reprioritize import ReprioritizeDialog, Rule, choose_references

    root = scan_tree(qtbot, window, tmp_path)
    table = window.table
    assert choose_references(table, []) == []
    # the folder rule first: each group's file in other/ becomes its reference
    rules = [Rule("folder", str(root / "other")), Rule("newest")]
    chosen = choose_references(table, rules)
    assert len(chosen) == 6
    assert all("/other/" in table.files.paths[f] for f in chosen)
    # a rule every current reference already wins changes nothing
    assert choose_references(table, [Rule("folder", str(root / "docs"))]) == []
    # name patterns, glob or regular expression
    assert len(choose_references(table, [Rule("name", "*(edited).bin")])) == 6
    assert len(choose_references(table, [Rule("name", r"re:^file[0-2]\.bin$")])) == 0

    def use_rules(dialog):
        dialog.available.setCurrentIndex(dialog.available.findData("folder"))
        dialog.argument.setText(str(root / "backup"))
        dialog.add_button.click()
        assert "6</b> of 6 groups" in dialog.summary.text()
        return dialog.DialogCode.Accepted

    monkeypatch.setattr(ReprioritizeDialog, "exec", use_rules)
    window.reprioritize_action.trigger()
    assert window.status_text.text() == "6 groups got another reference."
    t = window.table
    assert all("/backup/" in t.files.paths[t.rows[t.start[g]]] for g in range(len(t)))
    # the new references are identical copies of the old ones: still identical rows
    assert t.identical.sum() == 12


def test_reprioritize_dialog_refuses_a_rule_without_its_argument(qtbot, window, tmp_path):
    from simgui.gui.reprioritize import ReprioritizeDialog

    scan_tree(qtbot, window, tmp_path)
    dialog = ReprioritizeDialog(window.table)
    qtbot.addWidget(dialog)
    dialog.available.setCurrentIndex(dialog.available.findData("name"))
    dialog.add_button.click()
    assert "needs" in dialog.error.text() and not dialog.rules()
    dialog.argument.setText("re:(")
    dialog.add_button.click()
    assert "Not a regular expression" in dialog.error.text() and not dialog.rules()
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


# -- copies only ----------------------------------------------------------------------------

def test_copies_only_lists_each_extra_copy_flat_and_shares_marks(qtbot, window, tmp_path):
    from simgui.gui.copies_view import IDENTICAL as C_IDENTICAL, KEPT, NAME as C_NAME

    scan_tree(qtbot, window, tmp_path)
    view = window.groups.copies
    assert view.copies.rowCount() == 0  # made only while shown (slider moves skip it)
    window.groups.copies_only_action.trigger()
    assert window.groups.stack.currentWidget() is view
    # fits a 1280-pixel screen: the paths share the width, nothing scrolls sideways
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    assert view.horizontalScrollBar().maximum() == 0
    copies = view.copies
    assert copies.rowCount() == 12  # 18 files in 6 groups, less the 6 references
    t = window.table
    refs = {t.files.paths[t.rows[t.start[g]]] for g in range(len(t))}
    listed = {t.files.paths[copies.file_of(copies.index(r, 0))] for r in range(12)}
    assert not listed & refs
    assert {copies.data(copies.index(r, KEPT)) for r in range(12)} == refs
    # sortable: by size, largest first, then ascending
    sizes = [int(t.files.sizes[copies.file_of(copies.index(r, 0))]) for r in range(12)]
    assert sizes == sorted(sizes, reverse=True)
    view.sortByColumn(C_IDENTICAL, Qt.SortOrder.AscendingOrder)
    kinds = [copies.data(copies.index(r, C_IDENTICAL)) for r in range(12)]
    assert kinds == sorted(kinds, key=lambda k: k == "identical")
    # a tick here is a mark there
    first = copies.index(0, C_NAME)
    assert copies.setData(first, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert t.files.paths[copies.file_of(first)] in window.model.marked
    window.mark_all_but_reference()
    assert all(copies.data(copies.index(r, C_NAME), Qt.ItemDataRole.CheckStateRole)
               == Qt.CheckState.Checked for r in range(12))
    # selecting a copy shows it beside its reference
    view.setCurrentIndex(copies.index(3, C_NAME))
    assert window.groups.current_path() == t.files.paths[copies.file_of(copies.index(3, 0))]
    assert len(window.details.files) == 2
    # a slider move while shown: the rows follow the new groups
    window._apply_tolerances(dataclasses.replace(window.tolerance.tolerances(), sum=0.01))
    assert copies.rowCount() == int(np.diff(window.table.start).sum()) - len(window.table)
    window.groups.copies_only_action.trigger()
    assert window.groups.stack.currentWidget() is window.groups.tree
    assert copies.rowCount() == 0


# -- HTML export ----------------------------------------------------------------------------

def test_html_export_is_one_page_with_marks_and_odd_names_escaped(qtbot, window, tmp_path):
    import html.parser
    import os

    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    odd = os.fsencode(str(root / "other")) + b"/caf\xe9 <b>.bin"
    with open(odd, "wb") as f:
        f.write((root / "docs" / "file0.bin").read_bytes())
    scan(qtbot, window, root)
    window.mark_identical()
    out = tmp_path / "groups.html"
    window.export_groups(str(out))
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert "caf\\xe9 &lt;b&gt;.bin" in page  # the odd byte shown, the name escaped
    assert page.count("<table>") == window.model.group_count()
    assert page.count("✓ marked") == len(window.model.marked_in_view())
    html.parser.HTMLParser().feed(page)  # well-formed enough to parse
    assert "Exported 6 groups" in window.status_text.text()


def test_pairs_beyond_the_threshold_are_not_drawn_as_found(qtbot):
    from simgui.gui.charts import DistanceChart

    chart = DistanceChart()
    qtbot.addWidget(chart)
    x = 100.0 * np.arange(129) / 128
    found = np.zeros(129)
    found[[40, 120]] = 5  # about 31 % and 94 % resemblance
    chart.set_data("minhash", x, np.full(129, 10.0), found)
    chart.set_threshold(80.0)
    bars = {b.opts["name"]: b.opts["x"] for b in chart._bars}
    assert list(bars["pairs found"]) == [x[120]]
    assert list(bars["found if the threshold moves there"]) == [x[40]]
    chart.set_threshold(20.0)  # both found now
    bars = {b.opts["name"]: b.opts["x"] for b in chart._bars}
    assert sorted(bars["pairs found"]) == [x[40], x[120]]
    assert "found if the threshold moves there" not in bars
    # simhash: bits at most the threshold are found
    bits = np.arange(65.0)
    found = np.zeros(65)
    found[[2, 20]] = 3
    chart.set_data("simhash", bits, np.full(65, 10.0), found)
    chart.set_threshold(8)
    bars = {b.opts["name"]: b.opts["x"] for b in chart._bars}
    assert list(bars["pairs found"]) == [2.0]


def test_key_space_names_each_extension_stripe(qtbot):
    from simgui.gui.charts import KeySpaceChart

    chart = KeySpaceChart()
    qtbot.addWidget(chart)
    rng = np.random.default_rng(0)
    n = 60
    tables = rng.integers(1, 500, (n, 16))
    extensions = ["txt", "py", "md"] * (n // 3)
    chart.set_files(tables.sum(axis=1), tables, extensions, np.full(n, -1))
    chart.set_variant("skew", True)
    assert sorted(chart.labelled_stripes()) == [".md", ".py", ".txt"]
    chart.set_variant("skew", False)  # plain keys: numbers again
    assert chart.labelled_stripes() == []


# -- results you can keep ------------------------------------------------------------------

def test_saved_results_come_back_with_marks_and_chosen_references(qtbot, window, tmp_path):
    import json

    from simgui.gui.main_window import MainWindow

    root = scan_tree(qtbot, window, tmp_path)
    chosen = _make_an_edit_the_reference(window)
    window.mark_identical()
    marked = window.model.marked
    saved = tmp_path / "review.simgui-results"
    window.save_results(str(saved))
    assert "Saved 6 groups" in window.status_text.text()
    doc = json.loads(saved.read_text(encoding="ascii"))
    assert doc["references"] == [chosen] and len(doc["groups"]) == 6

    w = MainWindow(settings_path=str(tmp_path / "second.json"))
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        w.open_results(str(saved))
    assert w.folders.folders() == window.folders.folders()
    t = w.table
    assert chosen in {t.files.paths[t.rows[t.start[g]]] for g in range(len(t))}
    assert w.model.marked == marked
    assert w.status_text.text() == "Opened results: 6 groups saved; no file changed since."

    # a file changed since the save is said
    doc["groups"][0][1][1] += 1
    saved.write_text(json.dumps(doc), encoding="ascii")
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        w.open_results(str(saved))
    assert "1 of their files changed or gone since" in w.status_text.text()
    assert root.exists()


def test_a_file_that_is_not_saved_results_is_refused(qtbot, window, tmp_path, monkeypatch):
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warned.append(a[2]))
    bad = tmp_path / "x.simgui-results"
    bad.write_text('{"something": 1}')
    window.open_results(str(bad))
    assert warned and "cannot be opened as simgui results" in warned[0]
    assert window.analysis is None


# -- folder states in a tree --------------------------------------------------------------

def test_folder_states_make_subfolders_references_or_excluded(qtbot, window, tmp_path,
                                                              monkeypatch):
    from simgui.gui.folder_tree import EXCLUDED, NORMAL, REFERENCE, FolderTreeDialog

    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    window.folders.add_folders([str(root)])
    window.folders.set_exclude_patterns(["*.tmp"])

    def choose(dialog):
        assert dialog.item_for(str(root / "backup")) is not None  # listed when opened
        assert dialog.set_state(str(root / "backup"), REFERENCE) == ""
        assert dialog.set_state(str(root / "other"), EXCLUDED) == ""
        # below an excluded folder nothing can be scanned; below a reference, all is kept
        assert "excluded" in dialog.set_state(str(root / "other" / "x"), REFERENCE)
        assert "reference" in dialog.set_state(str(root / "backup" / "y"), NORMAL)
        assert dialog.item_for(str(root / "other")).text(1) == "excluded"
        dialog.test_path.setText(str(root / "other" / "alone.txt"))
        assert dialog.test_result.text().startswith("Skipped: inside the excluded folder")
        dialog.test_path.setText(str(root / "docs" / "a.tmp"))
        assert "matches a skip pattern" in dialog.test_result.text()
        dialog.test_path.setText(str(root / "backup" / "file1.bin"))
        assert dialog.test_result.text().startswith("Scanned, as a reference")
        return FolderTreeDialog.DialogCode.Accepted

    monkeypatch.setattr(FolderTreeDialog, "exec", choose)
    window.folders.edit_states()
    assert window.folders.references() == [str(root / "backup")]
    assert window.folders.exclude_patterns() == ["*.tmp", str(root / "other")]
    scan(qtbot, window, root)
    paths = window.analysis.files.paths
    assert not any("/other/" in p for p in paths)  # excluded: not scanned
    t = window.table
    assert len(t) == 6
    for g in range(len(t)):  # the reference folder's copy is each group's reference
        assert "/backup/" in t.files.paths[t.rows[t.start[g]]]
    window.mark_all_but_reference()
    assert not any("/backup/" in p for p in window.model.marked)
    # the states survive the settings round trip
    s = window.current_settings()
    window._apply_settings(s)
    assert window.folders.references() == [str(root / "backup")]


def test_folders_whose_names_are_not_utf8_keep_their_bytes(qtbot, window, tmp_path,
                                                            monkeypatch):
    """A folder listed or made a reference in States… is the folder itself, odd bytes and
    all (a Qt string held for it dropped them: the reference named a folder that does not
    exist, and the real one's files were not protected)."""
    import os

    from simgui.gui.folder_tree import EXCLUDED, REFERENCE, FolderTreeDialog

    base = os.fsencode(str(tmp_path))
    root = os.fsdecode(base + b"/ph\xf6tos")
    sub = os.fsdecode(base + b"/ph\xf6tos/caf\xe9")
    skipped = os.fsdecode(base + b"/ph\xf6tos/d\xfcnn")
    os.makedirs(sub)
    os.makedirs(skipped)
    window.folders.add_folders([root])
    assert window.folders.folders() == [root]
    assert window.folders.list.item(0).text().endswith("ph\\xf6tos")  # shown as ls -b

    def choose(dialog):
        item = dialog.item_for(sub)
        dialog.tree.clearSelection()
        item.setSelected(True)
        dialog.set_state_of_selected(REFERENCE)  # as the Reference button does
        assert dialog.set_state(skipped, EXCLUDED) == ""
        return FolderTreeDialog.DialogCode.Accepted

    monkeypatch.setattr(FolderTreeDialog, "exec", choose)
    window.folders.edit_states()
    assert window.folders.references() == [sub]
    assert window.folders.exclude_patterns() == [skipped]  # through the field, shown \xNN
    assert window.folders.excludes.text().endswith("d\\xfcnn")
    literal = str(tmp_path / "a\\x80b")  # a backslash and an x in the name itself
    window.folders.set_exclude_patterns([literal, skipped])
    assert window.folders.exclude_patterns() == [literal, skipped]
    window.folders.set_reference(root)
    assert window.folders.references()[0] == root


def test_both_views_write_a_similarity_alike_and_a_dash_where_it_is_unknown():
    from simgui.gui.groups_model import similarity_text

    assert [similarity_text(v) for v in (100.0, 97.125, float("nan"))] == [
        "100 %", "97.12 %", "—"]


def test_similar_files_of_one_name_are_told_apart_in_the_confirmation():
    from simgui.gui.main_window import _distinct_names

    assert _distinct_names(["/a/x/letter.txt", "/b/x/letter.txt", "/a/notes.md"]) == [
        "a/x/letter.txt", "b/x/letter.txt", "notes.md"]
    assert _distinct_names(["/docs/letter.txt", "/backup/letter.txt"]) == [
        "docs/letter.txt", "backup/letter.txt"]
    assert _distinct_names(["/only.txt"]) == ["only.txt"]
    assert _distinct_names([]) == []


def test_folders_excluded_in_states_whose_names_hold_a_comma_or_glob_characters(
        qtbot, window, tmp_path, monkeypatch):
    """A folder named "[old]" excluded in States… was read as the glob of the names o, l
    and d (those were skipped, it was scanned); one named "a,b" was split at its comma."""
    import os

    from simgui.gui.folder_tree import EXCLUDED, FolderTreeDialog
    from tests.test_gui_window import scan

    root = tmp_path / "tree"
    for name in ("[old]", "a,b", "o", "a", "b", 'say "hi"'):
        (root / name).mkdir(parents=True)
        (root / name / "file.txt").write_text(f"in {name} " * 50)
    window.folders.add_folders([str(root)])
    window.folders.set_exclude_patterns(["*.tmp"])
    odd = [str(root / "[old]"), str(root / "a,b"), str(root / 'say "hi"')]

    def choose(dialog):
        for folder in odd:
            assert dialog.set_state(folder, EXCLUDED) == ""
        return FolderTreeDialog.DialogCode.Accepted

    monkeypatch.setattr(FolderTreeDialog, "exec", choose)
    window.folders.edit_states()
    assert sorted(window.folders.excluded_folders()) == sorted(odd)
    # the field shows the folders as they are, read back exactly
    text = window.folders.excludes.text()
    assert str(root / "[old]") in text and f'"{root / "a,b"}"' in text
    window.folders.set_exclude_patterns(window.folders.exclude_patterns())
    assert sorted(window.folders.excluded_folders()) == sorted(odd)
    scan(qtbot, window, root)
    scanned = {os.path.basename(os.path.dirname(p)) for p in window.analysis.files.paths}
    assert scanned == {"o", "a", "b"}


def test_not_duplicates_after_make_reference_takes_the_file_out(qtbot, window, tmp_path):
    # the pair ignored is the file with the reference shown, the one the user chose:
    # the ignore list was applied before the chosen references, so nothing happened
    scan_tree(qtbot, window, tmp_path)
    model = window.model
    chosen = _make_an_edit_the_reference(window)

    def groups():
        t = window.table
        return [[t.files.paths[f] for f in t.rows[t.start[g]:t.start[g + 1]]]
                for g in range(len(t))]

    [mine] = [g for g in groups() if g[0] == chosen]
    other, copy = mine[2], mine[1]  # the edit chosen, then the two identical originals
    t = window.table
    assert t.files.hashes[t.files.paths.index(other)] == \
        t.files.hashes[t.files.paths.index(copy)]
    window.groups.tree.setCurrentIndex(model.index_of_file(t.files.paths.index(other)))
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.groups.ignore_current()
    # not a duplicate of the edit: it leaves with its copy, the two a group of copies
    assert not any(chosen in g and other in g for g in groups())
    assert sorted([other, copy]) in [sorted(g) for g in groups()]


def _make_an_edit_the_reference(window) -> str:
    """Make Reference on the first group's edited member; its path."""
    model = window.model
    rows = _rows(model, 0)
    member = next(i for i in rows[1:] if "(edited)" in model.data(i))
    chosen = window.table.files.paths[model.file_of(member)]
    window.groups.tree.setCurrentIndex(member)
    window.groups.make_current_reference()
    return chosen
