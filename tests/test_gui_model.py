"""The groups model: Qt's model tester finds no inconsistency; sorting, filtering and marks work."""

import functools
import os

import numpy as np
import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester

from simgui.core.search.analysis import Analysis, SearchSettings
from simgui.core.search import simfind
from simgui.core.store import StoredFiles
from simgui.gui.groups_model import (FETCH_BATCH, FILE_ROLE, GROUP_ROLE, IDENTICAL, NAME, SIZE,
                                     GroupsModel)
from tests.test_analysis import copies_beside_a_similar_reference

# synthetic tables without contents: the model is tested, not the content check
Tolerances = functools.partial(simfind.Tolerances, content=0.0)


def files_with_groups(n_groups=30, per_group=4, seed=0) -> StoredFiles:
    rng = np.random.default_rng(seed)
    tables, sizes, paths, hashes = [], [], [], []
    for g in range(n_groups):
        base = rng.integers(500, 5000, 16)
        size = int(base.sum() * 3)
        for k in range(per_group):
            identical = k < 2
            t = base if identical else base + rng.integers(0, 3, 16)
            tables.append(t)
            sizes.append(size)
            hashes.append(g.to_bytes(8, "little") + (0 if identical else k).to_bytes(8, "little"))
            paths.append(f"/data/{'ref' if g % 5 == 0 and k == 0 else 'copies'}/g{g:03d}_{k}.bin")
    n = len(paths)
    return StoredFiles(ids=np.arange(n), paths=paths, sizes=np.array(sizes, np.int64),
                       mtimes_ns=np.arange(n, dtype=np.int64), devices=np.ones(n, np.int64),
                       inodes=np.arange(n), tables=np.array(tables, np.int64), hashes=hashes,
                       extensions=["bin"] * n)


@pytest.fixture
def model(qtbot):
    files = files_with_groups()
    analysis = Analysis.build(files, SearchSettings(references=("/data/ref",)))
    m = GroupsModel()
    QAbstractItemModelTester(m, QAbstractItemModelTester.FailureReportingMode.Fatal)
    m.set_table(analysis.groups(Tolerances(1, 1)), ("/data/ref",))
    return m


def test_groups_and_files_are_rows_and_children(model):
    assert model.rowCount() == 30
    group = model.index(0, 0)
    assert model.rowCount(group) == 4
    first = model.index(0, NAME, group)
    assert "(reference)" in model.data(first)
    assert model.parent(first) == group
    assert model.data(first, GROUP_ROLE) == model.data(group, GROUP_ROLE)
    assert model.data(group, FILE_ROLE) == -1 and model.data(first, FILE_ROLE) >= 0


def test_sorting_by_name_orders_groups_and_keeps_references_first(model):
    model.sort(NAME, Qt.SortOrder.AscendingOrder)
    names = [model.data(model.index(0, NAME, model.index(r, 0))) for r in range(model.rowCount())]
    stripped = [n.replace("  (reference)", "") for n in names]
    assert stripped == sorted(stripped)
    model.sort(SIZE, Qt.SortOrder.DescendingOrder)
    for r in range(model.rowCount()):
        assert "(reference)" in model.data(model.index(0, NAME, model.index(r, 0)))


def test_filter_keeps_whole_groups_with_a_matching_path(model):
    model.set_filter("G007_3")
    assert model.rowCount() == 1
    assert model.rowCount(model.index(0, 0)) == 4
    model.set_filter("")
    assert model.rowCount() == 30


def test_filter_finds_a_name_that_is_not_utf8_as_it_is_shown(qtbot):
    """Such a name shows its odd byte as \\xNN; typing what is shown finds it."""
    files = files_with_groups(n_groups=3)
    odd = os.fsdecode(b"/data/copies/caf\xe9.bin")
    files.paths[5] = odd  # a member of the second group
    m = GroupsModel()
    m.set_table(Analysis.build(files).groups(Tolerances(1, 1)), ())
    m.set_filter("CAF\\xE9")
    assert m.rowCount() == 1
    group = m.index(0, 0)
    shown = [m.data(m.index(r, NAME, group)) for r in range(m.rowCount(group))]
    assert "caf\\xe9.bin" in shown


def test_marks_skip_references_and_reference_folders(model, qtbot):
    with qtbot.waitSignal(model.marks_changed):
        marked = model.mark_all_but_reference()
    assert marked == 30 * 3
    table = model.table
    references = {table.files.paths[table.rows[s]] for s in table.start[:-1]}
    assert not references & model.marked
    # a file in a reference folder cannot be ticked, even by hand
    model.clear_marks()
    model.invert_marks()
    assert not any(p.startswith("/data/ref/") for p in model.marked)
    protected = next(r for r in range(model.rowCount())
                     if model.data(model.index(0, NAME, model.index(r, 0)),
                                   Qt.ItemDataRole.CheckStateRole) is None)
    index = model.index(0, NAME, model.index(protected, 0))
    assert not model.setData(index, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert not model.flags(index) & Qt.ItemFlag.ItemIsUserCheckable


def test_identical_only_marks_just_the_copies(model):
    model.mark_all_but_reference(identical_only=True)
    assert len(model.marked) == 30  # one identical copy per group besides the reference
    # after Mark All, the similar files are unmarked again: only the copies stay marked
    model.mark_all_but_reference()
    assert len(model.marked) > 30
    model.mark_all_but_reference(identical_only=True)
    assert len(model.marked) == 30


def test_members_identical_to_each_other_say_so(qtbot):
    files = copies_beside_a_similar_reference()
    m = GroupsModel()
    m.set_table(Analysis.build(files, SearchSettings()).groups(Tolerances(3.2, 1.0)))
    group = m.index(0, 0)
    shown = {}
    for r in range(m.rowCount(group)):
        f = m.data(m.index(r, NAME, group), FILE_ROLE)
        shown[files.paths[f]] = (m.data(m.index(r, IDENTICAL, group)),
                                 m.data(m.index(r, IDENTICAL, group), Qt.ItemDataRole.ToolTipRole))
    assert shown["/r/2.34.5.txt"][0] == ""  # the reference
    assert shown["/r/a/2.37.5.txt"][0] == "similar · has 2 copies"
    assert "2 other members are identical copies" in shown["/r/a/2.37.5.txt"][1]
    for copy in ("/r/b/2.37.5.txt", "/r/c/2.37.5.txt"):
        assert shown[copy][0] == "similar · copy of a/2.37.5.txt"
        assert "Identical to /r/a/2.37.5.txt" in shown[copy][1]
    assert shown["/r/2.35.5.txt"][0] == "similar"
    assert m.data(group.siblingAtColumn(IDENTICAL)) == "similar"


def test_ticking_a_file_marks_it(model):
    index = model.index(1, NAME, model.index(0, 0))
    path = model.table.files.paths[model.file_of(index)]
    assert model.setData(index, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert model.marked == {path}
    assert model.marked_in_view() == [path]
    assert Qt.CheckState(model.data(index, Qt.ItemDataRole.CheckStateRole)) == Qt.CheckState.Checked


def test_index_of_file_finds_its_row(model):
    table = model.table
    f = int(table.rows[table.start[5] + 2])
    index = model.index_of_file(f)
    assert index.isValid() and model.file_of(index) == f
    assert not model.index_of_file(10**6).isValid()
    assert model.file_of(QModelIndex()) == -1


def test_a_large_table_is_handled(qtbot):
    files = files_with_groups(n_groups=25_000, per_group=4, seed=1)  # 100,000 files
    analysis = Analysis.build(files)
    # so many files of one size: the sum-table ceiling may come down to keep memory bounded
    m = GroupsModel()
    m.set_table(analysis.groups(Tolerances(1.0, min(1.0, analysis.stats.max_sum))))
    assert m.group_count() == 25_000
    assert m.rowCount() == FETCH_BATCH  # the view is given the groups a batch at a time
    m.sort(NAME, Qt.SortOrder.AscendingOrder)
    m.set_filter("/g001_")
    assert m.rowCount() == m.group_count() == 1


def test_groups_come_to_the_view_a_batch_at_a_time(qtbot):
    """A reset gives the view FETCH_BATCH groups (it lays out every row it has, a slider
    move at a time); scrolling down fetches more, and a file asked for by the window
    fetches as far as its group, with Qt's model tester checking every step."""
    from PySide6.QtWidgets import QTreeView

    files = files_with_groups(n_groups=2 * FETCH_BATCH + 30, per_group=2, seed=2)
    analysis = Analysis.build(files)
    m = GroupsModel()
    QAbstractItemModelTester(m, QAbstractItemModelTester.FailureReportingMode.Fatal)
    m.set_table(analysis.groups(Tolerances(1, 1)))
    total = m.group_count()
    assert total == 2 * FETCH_BATCH + 30 and m.rowCount() == FETCH_BATCH
    assert m.canFetchMore(QModelIndex()) and not m.index(FETCH_BATCH, 0).isValid()
    view = QTreeView()
    qtbot.addWidget(view)
    view.setUniformRowHeights(True)
    view.setModel(m)
    view.resize(400, 300)
    view.show()
    view.scrollToBottom()  # the view asks for more when the last row comes in sight
    qtbot.waitUntil(lambda: m.rowCount() > FETCH_BATCH)
    # the last group's file: fetched on demand, all of them now
    last = m.shown_groups()[-1]
    f = int(m.table.rows[m.table.start[last]])
    index = m.index_of_file(f)
    assert index.isValid() and m.file_of(index) == f
    assert m.rowCount() == total and not m.canFetchMore(QModelIndex())
    # a new table starts over with one batch; a sort gives the view every row first
    m.set_table(analysis.groups(Tolerances(1, 1)))
    assert m.rowCount() == FETCH_BATCH
    view.setCurrentIndex(m.index(3, 0))
    kept = m.group_of(view.currentIndex())
    m.sort(NAME, Qt.SortOrder.DescendingOrder)
    assert m.rowCount() == total and m.group_of(view.currentIndex()) == kept


def test_the_copies_view_reads_and_ticks_marks_without_fetching_groups(qtbot):
    """Copies sorted by size belong to groups anywhere in the list: their check boxes
    come from the groups model by table row, so showing them fetches nothing."""
    from simgui.gui.copies_view import NAME as C_NAME, CopiesModel

    files = files_with_groups(n_groups=2 * FETCH_BATCH + 30, per_group=3, seed=3)
    analysis = Analysis.build(files)
    m = GroupsModel()
    m.set_table(analysis.groups(Tolerances(1, 1)))
    copies = CopiesModel(m)
    QAbstractItemModelTester(copies, QAbstractItemModelTester.FailureReportingMode.Fatal)
    copies.set_active(True)
    assert copies.rowCount() == 2 * (2 * FETCH_BATCH + 30)  # two copies a group
    states = [copies.data(copies.index(r, C_NAME), Qt.ItemDataRole.CheckStateRole)
              for r in range(copies.rowCount())]
    assert states == [Qt.CheckState.Unchecked] * len(states)
    last = copies.index(copies.rowCount() - 1, C_NAME)
    assert copies.flags(last) & Qt.ItemFlag.ItemIsUserCheckable
    assert copies.setData(last, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert m.table.files.paths[copies.file_of(last)] in m.marked
    assert m.rowCount() == FETCH_BATCH  # nothing fetched into the tree
    # a tick in the tree shows in the copies view, and the other way round
    group = m.index(0, 0)
    member = m.index(1, NAME, group)
    m.setData(member, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    f = m.file_of(member)
    r = [copies.file_of(copies.index(i, 0)) for i in range(copies.rowCount())].index(f)
    assert copies.data(copies.index(r, C_NAME), Qt.ItemDataRole.CheckStateRole) == \
        Qt.CheckState.Checked


def test_expand_all_opens_the_groups_beyond_the_first_batch_too(qtbot):
    """Qt's expandAll fetches what the model holds back: every group opens."""
    from simgui.gui.groups_view import GroupsView

    files = files_with_groups(n_groups=FETCH_BATCH + 30, per_group=2, seed=4)
    table = Analysis.build(files).groups(Tolerances(1, 1))
    m = GroupsModel()
    view = GroupsView(m)
    qtbot.addWidget(view)
    m.set_table(table)
    assert m.rowCount() == FETCH_BATCH
    view.expand_all()
    assert m.rowCount() == FETCH_BATCH + 30
    assert all(view.tree.isExpanded(m.index(r, 0)) for r in range(m.rowCount()))


def test_size_order_holds_for_a_table_whose_groups_are_not_largest_first(qtbot):
    """The window takes a search's table as it comes (largest first) without sorting it
    again; a table in another order (references changed, say) is still shown largest
    first, equal groups in table order."""
    import dataclasses

    files = files_with_groups(n_groups=12, per_group=3, seed=6)
    table = Analysis.build(files).groups(Tolerances(1, 1))
    reordered = dataclasses.replace(table, group_bytes=np.array(
        [5, 9, 5, 1, 9, 0, 7, 7, 3, 9, 2, 5], np.int64)[:len(table)])
    m = GroupsModel()
    m.set_table(reordered)
    m.sort(SIZE, Qt.SortOrder.DescendingOrder)
    shown = [m.data(m.index(i, 0), GROUP_ROLE) for i in range(m.rowCount())]
    assert shown == sorted(range(len(table)), key=lambda g: (-reordered.group_bytes[g], g))


def test_members_are_in_order_in_groups_given_to_the_view_later_too(qtbot):
    """Members are ordered as each group reaches the view (a batch, fetchMore, a file
    asked for), not all at every slider move: every group given, reference first, the
    rest by the sort column."""
    files = files_with_groups(n_groups=FETCH_BATCH + 30, per_group=4, seed=7)
    table = Analysis.build(files).groups(Tolerances(1, 1))
    m = GroupsModel()
    QAbstractItemModelTester(m, QAbstractItemModelTester.FailureReportingMode.Fatal)
    m.sort(NAME, Qt.SortOrder.DescendingOrder)  # before a table: applies to it
    m.set_table(table)

    def names(row):
        group = m.index(row, 0)
        return [m.data(m.index(i, NAME, group)).replace("  (reference)", "")
                for i in range(m.rowCount(group))]

    def in_order(row):
        members = names(row)[1:]
        return members == sorted(members, key=str.casefold, reverse=True)

    assert m.rowCount() == FETCH_BATCH and all(in_order(r) for r in range(m.rowCount()))
    m.fetchMore(QModelIndex())
    assert m.rowCount() == FETCH_BATCH + 30
    assert all(in_order(r) for r in range(m.rowCount()))
    assert not all(names(r)[1:] == sorted(names(r)[1:]) for r in range(m.rowCount()))
    # a file asked for in a group the view does not have yet
    m.set_table(table)
    file = int(table.rows[table.start[m.shown_groups()[-1]] + 2])
    index = m.index_of_file(file)
    assert index.isValid() and m.file_of(index) == file
    assert in_order(index.parent().row())


def test_a_chosen_reference_holds_in_the_groups_of_another_search(qtbot):
    """The chosen references are found by path in each table's files; a new search
    (files in another order, as a rescan may give) finds the same file again."""
    from simgui.core.search.rereference import with_references

    files = files_with_groups(n_groups=6, per_group=4, seed=8)
    order = np.arange(len(files.paths))[::-1]
    shuffled = StoredFiles(ids=files.ids[order], paths=[files.paths[i] for i in order],
                           sizes=files.sizes[order], mtimes_ns=files.mtimes_ns[order],
                           devices=files.devices[order], inodes=files.inodes[order],
                           tables=files.tables[order], hashes=[files.hashes[i] for i in order],
                           extensions=[files.extensions[i] for i in order])
    analyses = [Analysis.build(f) for f in (files, shuffled)]
    m = GroupsModel()
    current = {}
    m.rereference = lambda table, chosen: with_references(current["analysis"], table, chosen)

    def show(analysis):
        current["analysis"] = analysis
        m.set_table(analysis.groups(Tolerances(1, 1)))
        t = m.table
        return {t.files.paths[t.rows[t.start[g]]] for g in range(len(t))}

    show(analyses[0])
    t = m.table
    chosen = t.files.paths[int(t.rows[t.start[0] + 3])]  # a member, not the reference
    m.make_reference(int(t.rows[t.start[0] + 3]))
    for analysis in (analyses[0], analyses[1], analyses[0]):
        assert chosen in show(analysis)


def test_the_copies_view_shows_names_that_are_not_utf8_as_the_tree_does(qtbot):
    import dataclasses
    import os

    from simgui.gui.copies_view import FOLDER as C_FOLDER, KEPT, NAME as C_NAME, CopiesModel

    files = files_with_groups(n_groups=1, per_group=3)
    odd = os.fsdecode(b"/data/caf\xe9/g000_\xff.bin")
    files = dataclasses.replace(files, paths=[files.paths[0], odd, files.paths[2]])
    m = GroupsModel()
    m.set_table(Analysis.build(files).groups(Tolerances(1, 1)))
    copies = CopiesModel(m)
    copies.set_active(True)
    rows = {m.table.files.paths[copies.file_of(copies.index(r, 0))]: r
            for r in range(copies.rowCount())}
    if odd in rows:  # a copy: its name and folder as the tree shows them
        r = rows[odd]
        assert copies.data(copies.index(r, C_NAME)) == "g000_\\xff.bin"
        assert copies.data(copies.index(r, C_FOLDER)) == "/data/caf\\xe9"
    else:  # the kept file
        assert copies.data(copies.index(0, KEPT)) == "/data/caf\\xe9/g000_\\xff.bin"
    assert not any("\udcff" in (t or "") or "\ufffd" in (t or "")
                   for r in range(copies.rowCount()) for c in (C_NAME, C_FOLDER, KEPT)
                   for t in [copies.data(copies.index(r, c))])


def test_the_copies_view_fits_sizes_and_elides_paths_in_the_middle(qtbot):
    from simgui.gui.copies_view import SIZE as C_SIZE, CopiesView

    m = GroupsModel()
    view = CopiesView(m)
    qtbot.addWidget(view)
    fm = view.fontMetrics()
    # "405.9 KB" was cut to "405.9 …": the digits are wider than an average character
    assert view.horizontalHeader().sectionSize(C_SIZE) > fm.horizontalAdvance("999.9 MB")
    # a path wrapped at a slash lost its end ("/tmp/demo/usb/..."): one line, elided
    # in the middle, keeps the last folder
    assert not view.wordWrap() and view.textElideMode() == Qt.TextElideMode.ElideMiddle


def test_the_folder_column_shows_what_tells_a_groups_folders_apart(qtbot):
    import dataclasses

    from simgui.gui.groups_model import FOLDER

    files = files_with_groups(n_groups=2, per_group=3)
    paths = ["/srv/demo/home/anna/Documents/photos/a.jpg",
             "/srv/demo/usb/Backup 2023/Documents/photos/a.jpg",
             "/srv/demo/usb/old laptop/Pictures/a.jpg",
             "/x/b.bin", "/y/b.bin", "/x/c.bin"]
    files = dataclasses.replace(files, paths=paths)
    m = GroupsModel()
    m.set_table(Analysis.build(files).groups(Tolerances(1, 1)))
    shown = {}
    for g in range(m.rowCount()):
        group = m.index(g, 0)
        for r in range(m.rowCount(group)):
            f = m.file_of(m.index(r, NAME, group))
            shown[m.table.files.paths[f]] = m.index(r, FOLDER, group).data()
    # past the folders the group shares ("/srv/demo"), which alone would fill the column
    assert shown[paths[0]] == "…/home/anna/Documents/photos"
    assert shown[paths[1]] == "…/usb/Backup 2023/Documents/photos"
    assert shown[paths[2]] == "…/usb/old laptop/Pictures"
    # nothing shared but "/": the whole folder
    assert {shown[p] for p in paths[3:]} <= {"/x", "/y"}
    tip = m.index(0, FOLDER, m.index(0, 0)).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("/srv/demo/") or tip.startswith("/x") or tip.startswith("/y")
