"""A sum-table tolerance capped because a collection's similar pairs would not fit in
memory applies to that analysis only: the user's value stays in the settings and comes
back when a later collection allows it (issue 24, item 10; the key tolerance is no longer
capped: its candidates are tallied, not held, issue 30)."""

import dataclasses

import pytest

from simgui.core.search.tolerance_stats import MAX_TOLERANCE, ToleranceStats
from simgui.core.settings import Settings, load_settings
from simgui.gui.main_window import MainWindow
from tests.test_gui_window import WAIT_MS, make_tree

CAP = 0.5  # a slider step, well below the user's 5 %
KEY = 5.0  # the user's key tolerance, never capped


@pytest.fixture
def cap(monkeypatch):
    """The sum-table ceiling of the analyses to come: ``cap["sum"] = 0.5`` makes the
    collection one whose similar pairs above 0.5 % would not fit in memory (as a small
    pair budget would); None leaves what the memory holds."""
    real = ToleranceStats.build.__func__
    state = {"sum": None}

    def build(cls, space, *args, max_sum=MAX_TOLERANCE, **kwargs):
        if state["sum"] is not None:
            max_sum = min(max_sum, state["sum"])
        return real(cls, space, *args, max_sum=max_sum, **kwargs)

    monkeypatch.setattr(ToleranceStats, "build", classmethod(build))
    return state


@pytest.fixture
def capped(qtbot, tmp_path, cap):
    """A window whose user chose a 5 % sum-table tolerance, after a scan capped at 0.5 %."""
    w = MainWindow(settings=Settings(key_tolerance=KEY, sum_tolerance=5.0),
                   settings_path=str(tmp_path / "settings.json"))
    qtbot.addWidget(w)
    w.show()
    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)
    w.folders.add_folders([str(root)])
    cap["sum"] = CAP
    rescan(qtbot, w)
    assert w.analysis.stats.max_sum == CAP and w.analysis.stats.max_key == 10.0
    return w


def rescan(qtbot, w):
    with qtbot.waitSignal(w.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        w.start_scan()
    assert w.analysis is not None, w.status_text.text()


def test_the_cap_applies_to_the_analysis_and_says_so(capped):
    w = capped
    assert w.tolerance.sum.value() == CAP and w.tolerance.tolerances().sum == CAP
    assert w.tolerance.key.value() == KEY
    note = w.tolerance.ceiling_note
    assert not note.isHidden()
    assert "Sum-table tolerance stops at 0.5 %" in note.text()
    assert "5 %" in note.text().replace("0.5 %", "") and "Key" not in note.text()
    # the counts and the curves still reach the user's value (tallied, not held)
    assert w.analysis.curve([5.0])["sum_hits"][0] >= w.analysis.curve([CAP])["sum_hits"][0]


def test_the_capped_value_is_not_saved(capped, tmp_path):
    w = capped
    assert w.current_settings().sum_tolerance == 5.0
    assert w.current_settings(with_marks=True).sum_tolerance == 5.0  # sessions too
    w.close()  # saves the settings
    assert load_settings(tmp_path / "settings.json").sum_tolerance == 5.0


def test_the_users_value_comes_back_when_a_collection_allows_it(qtbot, capped, cap):
    w = capped
    cap["sum"] = None  # the collection fits again
    rescan(qtbot, w)
    assert w.analysis.stats.max_sum == 10.0
    assert w.tolerance.sum.value() == 5.0 and w.tolerance.tolerances().sum == 5.0
    assert w.tolerance.ceiling_note.isHidden()
    assert w.current_settings().sum_tolerance == 5.0


def test_a_value_the_user_picks_under_the_cap_is_theirs(qtbot, capped, cap, tmp_path):
    w = capped
    w.tolerance.sum.set_value(0.2)  # as a drag of the slider does
    assert w.current_settings().sum_tolerance == 0.2
    cap["sum"] = None
    rescan(qtbot, w)
    assert w.tolerance.sum.value() == 0.2  # not back up to 5 %: the user moved it since
    w.close()
    assert load_settings(tmp_path / "settings.json").sum_tolerance == 0.2


def test_a_value_set_in_the_settings_while_capped_is_kept(qtbot, capped, tmp_path):
    w = capped
    w.apply_preferences(dataclasses.replace(w.current_settings(), sum_tolerance=8.0))
    assert w.tolerance.sum.value() == CAP  # the cap still holds for this collection
    assert w.current_settings().sum_tolerance == 8.0
    assert load_settings(tmp_path / "settings.json").sum_tolerance == 8.0


def test_results_kept_above_a_content_floor_wait_while_the_check_is_off(qtbot, window,
                                                                          tmp_path):
    """A search that ran with the content check on lands after the user turned it off (a
    search without it is queued): nothing is shown until that one lands, rather than
    groups the sliders can no longer move."""
    from simgui.gui.jobs import Results
    from tests.test_gui_window import scan_tree

    scan_tree(qtbot, window, tmp_path)
    floored = window.analysis
    assert floored.stats.content_floor > 0 and window.model.table is not None
    window.tolerance.check.blockSignals(True)  # turned off; its search not started here
    window.tolerance.check.setChecked(False)
    window.tolerance.check.blockSignals(False)
    window._results_arrived(Results(floored, []))
    assert window.table is None and window.model.table is None
    window.tolerance.key.set_value(1.0)  # a slider moved meanwhile changes nothing
    assert window.model.table is None


def test_counts_not_known_between_steps_show_as_a_question_mark(qtbot):
    from simgui.core.search.tolerance_stats import HitCounts
    from simgui.gui.tolerance import TolerancePanel

    panel = TolerancePanel()
    qtbot.addWidget(panel)
    panel.show_counts(HitCounts(key_hits=None, sum_hits=None, groups=3, all_pairs=10,
                                similar=2))
    assert "? before the content check" in panel.counts.text()
    assert "? candidates of 10 pairs" in panel.counts.text()


def test_counts_of_one_read_in_the_singular(qtbot):
    from simgui.core.search.tolerance_stats import HitCounts
    from simgui.gui.tolerance import TolerancePanel

    panel = TolerancePanel()
    qtbot.addWidget(panel)
    # two files, an edit of each other: what a first try on a tiny folder shows
    panel.show_counts(HitCounts(key_hits=1, sum_hits=1, groups=1, all_pairs=1, similar=1))
    assert panel.counts.text() == ("<b>1</b> group<br>1 similar pair, confirmed of 1 before "
                                   "the content check<br>1 candidate of 1 pair")
    panel.show_counts(HitCounts(key_hits=0, sum_hits=0, groups=0, all_pairs=1, similar=0))
    assert panel.counts.text().endswith("<br>0 similar pairs, confirmed of 0 before the "
                                        "content check<br>0 candidates of 1 pair")
