"""The window on a 1280 x 800 screen and in plain words (issue 27): the default columns
fit without scrolling sideways, the groups view is taller than the details, the Folders
list is as tall as its folders, and a clean-up is "clean-up N", not "Batch N"."""

from PySide6.QtWidgets import QMessageBox

from simgui.core.cleanup import Action
from simgui.gui.groups_model import KEY, NAME, SIZE_DELTA
from simgui.gui.groups_view import HIDDEN_BY_DEFAULT
from tests.test_gui_window import WAIT_MS, scan_tree


def test_default_columns_fit_1280_by_800(qtbot, window, tmp_path):
    window.resize(1280, 800)
    scan_tree(qtbot, window, tmp_path)
    window.groups.tree.expandAll()
    qtbot.waitUntil(lambda: window.groups.tree.viewport().width() > 0)
    tree = window.groups.tree
    header = tree.header()
    shown = [c for c in range(header.count()) if not header.isSectionHidden(c)]
    assert set(HIDDEN_BY_DEFAULT).isdisjoint(shown) and NAME in shown
    assert sum(header.sectionSize(c) for c in shown) <= tree.viewport().width()
    assert tree.horizontalScrollBar().maximum() == 0  # nothing to scroll to
    # the groups view is the larger part of the window's centre
    assert window.groups.height() > window.tabs.height()
    # a hidden column comes back from the header's menu, and the others make room
    window.groups.set_column_shown(KEY, True)
    assert not header.isSectionHidden(KEY)
    assert tree.horizontalScrollBar().maximum() == 0
    window.groups.set_column_shown(SIZE_DELTA, True)
    assert not header.isSectionHidden(SIZE_DELTA)


def test_folders_list_is_as_tall_as_its_folders(qtbot, window, tmp_path):
    window.resize(1280, 800)
    listing = window.folders.list
    empty = listing.height()
    row = listing.sizeHintForRow(0) if listing.count() else listing.fontMetrics().height()
    assert empty < 8 * row  # not a tall empty box
    for i in range(12):
        (tmp_path / f"f{i}").mkdir()
    window.folders.add_folders([str(tmp_path / f"f{i}") for i in range(5)])
    qtbot.waitUntil(lambda: listing.height() > empty)  # grows with its entries ...
    five = listing.height()
    window.folders.add_folders([str(tmp_path / f"f{i}") for i in range(5, 12)])
    qtbot.waitUntil(lambda: listing.height() > five)
    assert listing.height() < 10 * listing.sizeHintForRow(0)  # ... up to a few rows


def test_a_clean_up_is_called_a_clean_up(qtbot, window, tmp_path, monkeypatch):
    window.resize(1280, 800)
    scan_tree(qtbot, window, tmp_path)
    window.mark_all_but_reference()
    monkeypatch.setattr(QMessageBox, "exec", _accept)
    target = tmp_path / "moved"
    target.mkdir()
    monkeypatch.setattr("simgui.gui.main_window.QFileDialog.getExistingDirectory",
                        lambda *a, **k: str(target))
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.run_action(Action.MOVE)
    assert window.status_text.text().startswith("Clean-up 1 (move): 12 done")
    assert "Batch" not in window.last_result_box.text()


def test_counts_use_plain_words_and_keep_the_papers_terms_in_a_tooltip(qtbot, window,
                                                                       tmp_path):
    scan_tree(qtbot, window, tmp_path)
    counts = window.tolerance.counts
    text = counts.text()
    assert "candidates of" in text and "similar pairs" in text
    assert "key hits" not in text and "sum-table hits" not in text
    assert "key hits" in counts.toolTip() and "sum-table hits" in counts.toolTip()
    chart = window.tolerance_chart
    assert "x is x" not in chart.note_text and "both tolerances are x" not in chart.note_text


def _accept(box):
    accept_button = next(b for b in box.buttons()
                         if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole)
    box.clickedButton = lambda: accept_button
    return 0


def _key_space_files(n: int, seed: int = 4):
    """``n`` files of a few extensions, each with its own mix of tags (its stripe)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    exts = ["txt", "py", "so", "png", "html", "gz"]
    which = rng.integers(0, len(exts), n)
    profiles = rng.dirichlet(np.ones(16) * 0.5, size=len(exts))
    sizes = np.exp(rng.normal(8.5, 2.0, n)).astype(np.int64) + 1
    tables = (sizes[:, None] * profiles[which] * rng.lognormal(0, 0.15, (n, 16)) / 8)
    return sizes, tables.astype(np.int64), [exts[i] for i in which], np.full(n, -1)


def test_key_space_draws_a_crowd_translucent(qtbot):
    from simgui.gui.charts import DENSE_POINTS, KeySpaceChart

    chart = KeySpaceChart()
    qtbot.addWidget(chart)
    chart.set_files(*_key_space_files(300))
    few = chart.scatter.data["brush"]
    assert all(b.color().alpha() == 255 for b in few)  # a few files: solid points
    chart.set_files(*_key_space_files(60_000))
    many = chart.scatter.data["brush"]
    alphas = {b.color().alpha() for b in many}
    assert len(alphas) == 1 and 0 < alphas.pop() < 128  # overlaps add up to density
    assert chart.scatter.data["size"].max() < 4  # and finer
    assert "translucent" in chart.note_text
    # the paper's Figure 4: each extension a stripe, still named on the key axis
    chart.set_variant("skew", True)
    assert len(chart.labelled_stripes()) >= 4  # (those too close to another are not)
    assert 60_000 > DENSE_POINTS
