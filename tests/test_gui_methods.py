"""The fingerprint methods in the window: choose one, the files are fingerprinted once,
the threshold slider drives groups and counts, the distance chart shows the files."""

import numpy as np
import pytest

from simgui.core.search import methods
from simgui.core.settings import load_settings
from simgui.gui.main_window import MainWindow
from tests.test_gui_window import WAIT_MS, make_tree, scan_tree


@pytest.fixture
def scanned(qtbot, window, tmp_path):
    """The window has scanned a tree with the paper's method (fingerprints come with it)."""
    scan_tree(qtbot, window, tmp_path)


def choose(qtbot, w, method):
    box = w.tolerance.method
    index = box.findData(method)
    box.setCurrentIndex(index)
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        box.activated.emit(index)
    assert w.analysis is not None and w.analysis.settings.method == method, \
        w.status_text.text()


def test_choosing_minhash_fingerprints_the_files_and_groups_them(qtbot, window, scanned, tmp_path):
    assert window.analysis.files.fingerprinted.all()  # one read computes everything
    assert window.tolerance.key.isVisible() and not window.tolerance.threshold.isVisible()

    choose(qtbot, window, "minhash")
    assert window.analysis.files.fingerprinted.all()
    assert window.scan_options().fingerprints
    assert window.tolerance.threshold.isVisible() and not window.tolerance.key.isVisible()
    assert window.tolerance.threshold.label.text() == f"≥ {methods.MINHASH_DEFAULT * 100:.0f} %"
    model = window.model
    assert model.rowCount() == 6  # each original with its copy and its edited copy
    assert all(model.rowCount(model.index(r, 0)) == 3 for r in range(6))
    assert "6</b> groups" in window.tolerance.counts.text()

    # at 100 % resemblance: only files whose signatures agree in every slot (a 10-byte
    # edit of 20 KB often does); the counts follow the slider
    window.tolerance.threshold.set_value(100)
    expected = window.analysis.counts(window.tolerance.tolerances())
    assert window.tolerance.tolerances().sum == 0
    qtbot.waitUntil(lambda: f"{expected.sum_hits:,} similar pairs"
                    in window.tolerance.counts.text()
                    and window.distance_chart.marker.value() == 100)
    loose = window.analysis.counts(window.tolerance.tolerances().__class__(0, 50.0))
    assert loose.sum_hits >= expected.sum_hits >= 6  # the identical copies, always

    # the distance chart: every sampled pair counted, the threshold marked
    chart = window.distance_chart
    assert not chart.is_empty and chart.method == "minhash"
    n = len(window.analysis.files)
    assert chart.sampled.sum() == pytest.approx(n * (n - 1) / 2)
    assert chart.found[-1] >= 6  # the identical copies, at 100 %
    # every pair the analysis keeps is counted once, with the files it stands for
    stats = window.analysis.stats
    everything = window.analysis.counts(window.tolerance.tolerances().__class__(0, stats.max_sum))
    assert chart.found.sum() == pytest.approx(everything.sum_hits)
    assert chart.marker.isVisible() and chart.marker.value() == 100


def test_a_file_in_no_group_after_a_switch_leaves_the_details(qtbot, window, scanned,
                                                              tmp_path):
    """The details showed a file beside its reference; with the pictures method no group
    holds it (no file is a picture), so the pane goes back to its empty state rather
    than show a pair, roles and a similarity from the groups gone."""
    view = window.groups
    paths = window.analysis.files.paths
    edited = next(f for f in range(len(paths)) if "(edited)" in paths[f])
    assert view.select_file(edited)  # only similar to its reference
    assert len(window.details.files) == 2
    choose(qtbot, window, "images")  # the identical copies alone are grouped
    now = window.analysis.files.paths
    assert not view.model.index_of_file(now.index(paths[edited])).isValid()
    assert window.details.files == [] and window.details.stack.currentIndex() == 0
    choose(qtbot, window, "paper")  # and a file that is still grouped stays selected
    view.select_file(view.model.file_of(view.model.index(1, 0, view.model.index(0, 0))))
    shown = window.details.files[1].path
    window._apply_tolerances(window.tolerance.tolerances())
    assert window.details.files[1].path == shown


def test_switching_methods_keeps_each_threshold_and_remembers_it(qtbot, window, scanned, tmp_path):
    choose(qtbot, window, "simhash")
    assert window.tolerance.threshold.label.text() == f"≤ {methods.SIMHASH_DEFAULT_BITS} bits"
    window.tolerance.threshold.set_value(3)
    choose(qtbot, window, "minhash")  # fingerprints are there: no second read
    assert window.analysis.files.fingerprinted.all()
    window.tolerance.threshold.set_value(75)
    choose(qtbot, window, "simhash")
    assert window.tolerance.threshold.value() == 3
    assert window.tolerance.tolerances().sum == pytest.approx(3 * 100 / 64)
    window.close()
    saved = load_settings(tmp_path / "settings.json")
    assert (saved.method, saved.simhash_bits, saved.minhash_resemblance) == ("simhash", 3, 75)

    again = MainWindow(settings_path=str(tmp_path / "settings.json"))
    qtbot.addWidget(again)
    assert again.tolerance.method_name() == "simhash"
    assert again.tolerance.threshold.value() == 3
    assert again.search_settings().method == "simhash"


def test_back_to_the_paper_method_hides_the_distance_chart(qtbot, window, scanned, tmp_path):
    choose(qtbot, window, "simhash")
    assert not window.distance_chart.is_empty
    assert np.argmax(window.distance_chart.sampled) > 16  # unrelated files: about 32 bits
    choose(qtbot, window, "paper")
    assert window.distance_chart.is_empty and not window.tolerance_chart.is_empty
    assert window.model.rowCount() == 6


def test_the_content_check_is_on_by_default_moves_live_and_is_remembered(qtbot, window,
                                                                          scanned, tmp_path):
    panel = window.tolerance
    assert panel.check.isChecked() and panel.content.isVisible()
    assert panel.content.label.text() == "≥ 50 %"
    assert window.analysis.settings.content_check
    # every edit in the tree has almost all its content in common with its original
    groups = window.model.rowCount()
    assert groups == 6
    # the slider at the top asks for 99 %: the counts and groups follow without a search
    panel.content.set_value(99)
    expected = window.analysis.counts(panel.tolerances())
    assert panel.tolerances().content == 99
    qtbot.waitUntil(lambda: f"{expected.similar:,} similar pairs, confirmed"
                    in panel.counts.text())
    assert not window.tasks.busy  # live: no new search ran
    assert expected.similar <= expected.sum_hits
    # the analysis kept only the pairs the check can confirm at some setting
    assert window.analysis.stats.content_floor == panel.content.LOWEST
    # off: the paper's method as published, one switch away (a new search); a slider
    # moved before it lands leaves the groups of the search with the check alone
    shown = window.model.table
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        panel.check.setChecked(False)
        panel.key.set_value(5.0)
        assert window.model.table is shown
    assert not window.analysis.settings.content_check and panel.tolerances().content == 0
    assert window.analysis.stats.content_floor == 0
    assert not panel.content.isEnabled()
    assert "(not confirmed by content)" in panel.counts.text()
    choose(qtbot, window, "minhash")
    assert not panel.content.isVisible()  # a fingerprint method is its own check
    window.close()
    saved = load_settings(tmp_path / "settings.json")
    assert (saved.content_check, saved.min_content) == (False, 99)


def test_a_saved_setting_of_the_old_unchecked_kind_does_not_turn_the_check_off(tmp_path):
    from simgui.core.settings import Settings

    old = Settings.from_json('{"check_by_content": false, "method": "paper"}')
    assert old.content_check and old.min_content == 50


def test_switching_method_during_a_scan_never_shows_stale_groups(qtbot, window, scanned,
                                                               tmp_path):
    root = tmp_path / "tree"
    (root / "docs" / "new.bin").write_bytes(np.random.default_rng(4).bytes(9000))
    with open(root / "docs" / "file0.bin", "r+b") as f:
        f.write(b"changed")
    seen = []
    arrived = window._results_arrived

    def spy(results):  # after every job's results: is what is shown of these files?
        arrived(results)
        seen.append(window.table is None or window.table.files is window.analysis.files)

    window._results_arrived = spy  # connected per job, so jobs started below use it
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.start_scan()  # the paper's method: no fingerprints read
        box = window.tolerance.method
        box.setCurrentIndex(box.findData("simhash"))
        box.activated.emit(box.currentIndex())  # while the scan runs
    qtbot.waitUntil(lambda: not window.tasks.busy and window.analysis.settings.method == "simhash",
                    timeout=WAIT_MS)
    assert window.analysis.files.fingerprinted.all()
    assert window.table is not None and window.table.files is window.analysis.files
    assert window.model.table is window.table
    assert len(seen) >= 2 and all(seen)  # never a table of other files than the analysis'


def test_start_up_with_a_method_reads_the_missing_fingerprints(qtbot, tmp_path):
    from simgui.core.reading.scanner import ScanOptions, scan as scan_into
    from simgui.core.settings import Settings, save_settings
    from simgui.core.store import Store

    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    store = tmp_path / "store.sqlite3"
    with Store(store) as s:
        scan_into(s, [root], ScanOptions())  # scanned earlier with the paper's method
    settings = tmp_path / "settings.json"
    save_settings(Settings(folders=[str(root)], method="minhash", store=str(store)), settings)
    w = MainWindow(settings_path=str(settings))
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        w.start_up()
    qtbot.waitUntil(lambda: not w.tasks.busy and w.analysis is not None, timeout=WAIT_MS)
    assert w.analysis.settings.method == "minhash"
    assert w.analysis.files.fingerprinted.all()
    assert w.model.rowCount() == 6 and w.problems.count() == 0


def test_two_files_of_different_groups_show_their_own_figures(qtbot, window, scanned):
    # each file's figures are against its own group's reference: for two files of
    # different groups the panel shows no roles and the two files measured between them
    table = window.table
    a = int(table.rows[table.start[0] + 1])  # a member of the first group
    b = int(table.rows[table.start[1]])  # the reference of the second
    window._selection_changed([a, b], -1)
    details = window.details
    shown = [f.role for f in details.files]
    assert shown == ["", ""]
    assert details.files[1].similarity is None and details.files[1].key_distance is None
    expected = methods.pair_similarity("paper", window.analysis.files, [a], [b],
                                       np.array([False]))[0]
    assert details.pair_similarity == pytest.approx(expected)
    assert expected < 50  # unrelated files: little in common, not a member's 99 %
    texts = [w.text() for w in details.findChildren(type(details.title))]
    assert not any("reference" in t or "member" in t for t in texts)
    # two files of one group: the reference and a member, as before
    window._selection_changed([int(table.rows[table.start[0]]), a], 0)
    assert [f.role for f in details.files] == ["reference", "member"]
    assert details.pair_similarity is None
