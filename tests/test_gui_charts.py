"""The key-space and tolerance charts: what they plot, clicks, highlight, variants, theme."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("pytestqt")
pg = pytest.importorskip("pyqtgraph")

from PySide6.QtCore import QPointF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QPalette  # noqa: E402

from simgui.core.search.keys import SKEW, UNIFORM, compute_keys  # noqa: E402
from simgui.core.search.simfind import SearchSpace  # noqa: E402
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, ToleranceStats  # noqa: E402
from simgui.gui.charts import (PALETTE, KeySpaceChart, ToleranceChart,  # noqa: E402
                               _Scatter)
from tests.test_tolerance_stats import collection  # noqa: E402  near-copies of base tables

EXTENSIONS = ["jpg", "pdf", "txt", "py", "png", "doc", "mp3", "html", "c", "json", "so", "xml"]


def files(n: int, seed: int = 0, zero_sizes: int = 0, zero_keys: int = 0):
    """Sizes, tables, extensions and groups; the first files have size 0, the next key 0."""
    rng = np.random.default_rng(seed)
    sizes = np.exp(rng.normal(9, 2, n)).astype(np.int64) + 1
    tables = (sizes[:, None] * rng.gamma(0.6, 1, (n, 16)) / 40).astype(np.int64) + 1
    sizes[:zero_sizes] = 0
    tables[:zero_sizes] = 0
    tables[zero_sizes:zero_sizes + zero_keys] = 0
    weights = np.arange(len(EXTENSIONS), 0, -1, dtype=float)  # distinct frequencies
    extensions = list(rng.choice(EXTENSIONS, n, p=weights / weights.sum()))
    groups = np.where(rng.random(n) < 0.3, rng.integers(0, 50, n), -1)
    return sizes, tables, extensions, groups


@pytest.fixture
def chart(qtbot):
    widget = KeySpaceChart()
    qtbot.addWidget(widget)
    return widget


def shown_indices(chart: KeySpaceChart) -> np.ndarray:
    return np.array(list(chart.scatter.data["data"]), dtype=np.int64)


def brush_colours(chart: KeySpaceChart) -> dict[int, str]:
    return {int(i): b.color().name()
            for i, b in zip(chart.scatter.data["data"], chart.scatter.data["brush"])}


# --- key space --------------------------------------------------------------------------

def test_set_files_leaves_out_what_log_axes_cannot_show(chart):
    sizes, tables, extensions, groups = files(3000, zero_sizes=120, zero_keys=30)
    chart.set_files(sizes, tables, extensions, groups)
    assert len(chart.scatter.data) == 3000 - 150
    assert sorted(shown_indices(chart)) == list(range(150, 3000))
    assert "2,850 files shown" in chart.note_text
    assert "150 files of 0 bytes or key 0 not shown" in chart.note_text
    assert not chart.is_empty


def test_points_sit_at_log_size_and_log_key(chart):
    sizes, tables, extensions, groups = files(500)
    chart.set_files(sizes, tables, extensions, groups)
    index = shown_indices(chart)
    x, y = chart.scatter.getData()
    np.testing.assert_allclose(x, np.log10(sizes[index]))
    np.testing.assert_allclose(y, np.log10(compute_keys(tables, SKEW)[index]))


def test_reference_line_spans_the_size_range(chart):
    sizes, tables, extensions, groups = files(400, zero_sizes=5)
    chart.set_files(sizes, tables, extensions, groups)
    x, y = chart.reference_line.getData()
    span = np.log10([sizes[5:].min(), sizes[5:].max()])
    np.testing.assert_allclose(x, span)
    np.testing.assert_allclose(y, span)


def test_empty_state(chart):
    assert chart.is_empty
    assert chart.EMPTY_TEXT == "Scan a folder to see its files in key space"
    chart.set_files(*files(50))
    assert not chart.is_empty
    chart.set_files(np.zeros(0, np.int64), np.zeros((0, 16), np.int64), [], np.zeros(0, np.int64))
    assert chart.is_empty
    assert len(chart.scatter.data) == 0
    assert chart.note_text == ""


def test_mismatched_lengths_are_refused(chart):
    sizes, tables, extensions, groups = files(10)
    with pytest.raises(ValueError):
        chart.set_files(sizes, tables, extensions[:-1], groups)


def _shown_chart(qtbot, chart, sizes, tables):
    chart.set_files(sizes, tables, ["bin"] * len(sizes), np.full(len(sizes), -1))
    chart.resize(700, 500)
    chart.show()
    qtbot.waitExposed(chart)
    # the view range settles after the first layout: wait until every point is in view
    view_box = chart.plot_widget.getPlotItem().getViewBox()

    def every_point_in_view() -> bool:
        (x0, x1), (y0, y1) = view_box.viewRange()
        xs = np.log10(np.asarray(sizes, float))
        return x0 <= xs.min() and xs.max() <= x1 and x1 - x0 < 20
    qtbot.waitUntil(every_point_in_view, timeout=10_000)


def _viewport_pos(chart, size: float, key: float):
    view_box = chart.plot_widget.getPlotItem().getViewBox()
    scene = view_box.mapViewToScene(QPointF(math.log10(size), math.log10(key)))
    return chart.plot_widget.mapFromScene(scene)


def test_click_on_a_point_emits_its_index(qtbot, chart):
    sizes = np.geomspace(10, 10**8, 30).astype(np.int64)
    tables = np.zeros((30, 16), np.int64)
    tables[:, 0] = sizes // 12  # skew key = 6 x tag 00 = size / 2
    _shown_chart(qtbot, chart, sizes, tables)
    target = 17
    pos = _viewport_pos(chart, sizes[target], chart.keys()[target])
    with qtbot.waitSignal(chart.fileClicked, timeout=2000) as blocker:
        qtbot.mouseClick(chart.plot_widget.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [target]


def test_click_picks_the_nearest_of_overlapping_points(qtbot, chart):
    # two files whose points overlap: 1 % apart in size and key
    sizes = np.array([10_000, 10_100, 10**6, 100], np.int64)
    tables = np.zeros((4, 16), np.int64)
    tables[:, 0] = sizes // 12
    _shown_chart(qtbot, chart, sizes, tables)
    a, b = (_viewport_pos(chart, sizes[i], chart.keys()[i]) for i in (0, 1))
    assert (a - b).manhattanLength() <= 4  # the rings do overlap on screen
    for target, pos in ((0, a), (1, b)):
        with qtbot.waitSignal(chart.fileClicked, timeout=2000) as blocker:
            qtbot.mouseClick(chart.plot_widget.viewport(), Qt.MouseButton.LeftButton, pos=pos)
        assert blocker.args == [target]


def test_highlight_rings_only_shown_files_and_clears(chart):
    sizes, tables, extensions, groups = files(300, zero_sizes=3)
    chart.set_files(sizes, tables, extensions, groups)
    chart.highlight(np.array([0, 10, 20, 30, 30]))  # 0 has size 0: cannot be drawn
    rings = np.array(list(chart.highlight_overlay.data["data"]))
    assert sorted(rings) == [10, 20, 30]
    x, y = chart.highlight_overlay.getData()
    np.testing.assert_allclose(x, np.log10(sizes[[10, 20, 30]]))
    assert "selected" in chart.legend_text
    chart.set_variant("uniform", True)  # rings follow the points
    np.testing.assert_allclose(chart.highlight_overlay.getData()[1],
                               np.log10(chart.keys()[[10, 20, 30]]))
    chart.highlight(np.array([], int))
    assert len(chart.highlight_overlay.data) == 0
    assert "selected" not in chart.legend_text


def test_colour_by_extension_gives_the_ten_most_common_their_own_colour(chart):
    sizes, tables, extensions, groups = files(3000, seed=2)
    chart.set_files(sizes, tables, extensions, groups)
    colours = brush_colours(chart)
    by_extension: dict[str, set[str]] = {}
    for i, colour in colours.items():
        by_extension.setdefault(extensions[i], set()).add(colour)
    assert all(len(c) == 1 for c in by_extension.values())
    common = sorted(by_extension, key=extensions.count, reverse=True)
    top = {by_extension[e].pop() for e in common[:10]}
    rest = {by_extension[e].pop() for e in common[10:]}
    assert len(top) == 10 and top <= {QColor(c).name() for c in PALETTE}
    assert len(rest) == 1 and not rest & top  # one grey for the rest
    for ext in common[:10]:
        assert ext in chart.legend_text


def test_colour_by_group_changes_brushes_and_draws_loners_first(chart):
    sizes, tables, extensions, groups = files(2000, seed=3)
    chart.set_files(sizes, tables, extensions, groups)
    before = brush_colours(chart)
    chart.set_colour_by("group")
    after = brush_colours(chart)
    assert before != after
    index = shown_indices(chart)
    loners = groups[index] < 0
    # files in no group come first (drawn under the others), all one colour, smaller
    assert not loners[np.argmin(loners):].any()
    assert len({after[i] for i in index[loners]}) == 1
    sizes_drawn = chart.scatter.data["size"]
    assert sizes_drawn[loners].max() < sizes_drawn[~loners].min()
    # one colour per group id (modulo the palette)
    for g in np.unique(groups[groups >= 0])[:5]:
        assert len({after[i] for i in np.flatnonzero(groups == g)}) == 1
    assert "groups" in chart.legend_text
    chart.set_colour_by("extension")
    assert brush_colours(chart) == before


def test_set_variant_changes_the_keys(chart):
    sizes, tables, extensions, groups = files(1000, seed=4)
    chart.set_files(sizes, tables, extensions, groups)
    skew_y = chart.scatter.getData()[1].copy()
    chart.set_variant("uniform", False)
    assert chart.variant_box.currentText() == "Uniform"
    index = shown_indices(chart)
    np.testing.assert_allclose(chart.scatter.getData()[1],
                               np.log10(compute_keys(tables, UNIFORM)[index]))
    chart.set_variant("Skew", True)
    assert chart.variant_box.currentText() == "Skew + extension"
    ext_y = chart.scatter.getData()[1]
    np.testing.assert_allclose(ext_y, np.log10(compute_keys(tables, SKEW, extensions)[index]))
    assert not np.allclose(np.sort(ext_y), np.sort(skew_y))
    assert len(chart.reference_line.getData()[0]) == 0  # y = x means nothing with offsets
    with pytest.raises(ValueError):
        chart.set_variant("no such scheme", False)


def test_picking_a_variant_in_the_combo_tells_the_window(qtbot, chart):
    chart.set_files(*files(100))
    with qtbot.waitSignal(chart.variantChanged) as blocker:
        chart.variant_box.setCurrentIndex(3)
        chart.variant_box.activated.emit(3)
    assert blocker.args == ["uniform", True]
    assert chart.variant() == ("uniform", True)


def test_theme_follows_the_palette(chart):
    palette = QPalette(chart.palette())
    palette.setColor(QPalette.ColorRole.Window, QColor(30, 30, 34))
    palette.setColor(QPalette.ColorRole.WindowText, QColor(230, 230, 230))
    chart.setPalette(palette)
    assert chart.plot_widget.backgroundBrush().color() == QColor(30, 30, 34)
    axis = chart.plot_widget.getPlotItem().getAxis("bottom")
    assert axis.textPen().color() == QColor(230, 230, 230)


def test_two_hundred_thousand_points(chart):
    sizes, tables, extensions, groups = files(200_000, seed=5, zero_sizes=1000)
    chart.set_files(sizes, tables, extensions, groups)
    assert len(chart.scatter.data) == 199_000
    assert "1,000 files of 0 bytes or key 0 not shown" in chart.note_text


def test_fast_scatter_styles_points_like_pyqtgraph(qtbot):
    """The quick style path must give each point the same kind of atlas cell as the base."""
    rng = np.random.default_rng(6)
    n = 500
    brushes = np.array([pg.mkBrush(c) for c in PALETTE[:3]], dtype=object)
    codes = rng.integers(0, 3, n)
    size = rng.choice([3, 4], n)
    kwargs = dict(x=rng.random(n), y=rng.random(n), data=np.arange(n), size=size, pen=None)
    fast = _Scatter(pxMode=True)
    fast.setData(brush=brushes[codes], **kwargs)
    base = pg.ScatterPlotItem(pxMode=True)
    base.setData(brush=list(brushes[codes]), **kwargs)
    assert all(b is brushes[c] for b, c in zip(fast.data["brush"], codes))

    def cells(item):
        return [tuple(r) for r in item.data["sourceRect"]]

    for item in (fast, base):
        assert all(w > 0 for _, _, w, _ in cells(item))
    # same partition of points into styles, same cell sizes
    style = codes * 10 + size
    for s in np.unique(style):
        members = style == s
        assert len({c for c, m in zip(cells(fast), members) if m}) == 1
        widths = {c[2:] for c, m in zip(cells(base), members) if m}
        assert widths == {c[2:] for c, m in zip(cells(fast), members) if m}
    assert len(set(cells(fast))) == len(np.unique(style))


# --- tolerance --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def curve():
    sizes, tables = collection(1, 200)
    stats = ToleranceStats.build(SearchSpace.build(sizes, tables), max_key=10)
    return stats.curve(TOLERANCE_STEPS[::7])  # counted at the slider steps


@pytest.fixture
def tolerance(qtbot):
    widget = ToleranceChart()
    qtbot.addWidget(widget)
    return widget


def _plotted(item, log: bool) -> np.ndarray:
    y = item.getData()[1]
    return 10 ** y if log else y


def test_tolerance_chart_plots_both_curves(tolerance, curve):
    assert tolerance.is_empty
    tolerance.set_curve(curve)
    assert not tolerance.is_empty
    x, _ = tolerance.key_curve.getData()
    np.testing.assert_allclose(x, np.log10(curve["key_tolerance"]))
    log = tolerance.log_y
    np.testing.assert_allclose(_plotted(tolerance.key_curve, log), curve["key_hits"])
    np.testing.assert_allclose(_plotted(tolerance.sum_curve, log), curve["sum_hits"])
    names = [label.text for _, label in tolerance.plot_widget.getPlotItem().legend.items]
    assert names == ["key hits", "sum-table hits"]
    assert "possible pairs" in tolerance.note_text
    # read at a slider's mark, the curves need not match the counts: the caption says why
    assert ("to the same value" in tolerance.note_text) == np.allclose(
        curve["sum_tolerance"], curve["key_tolerance"])


def test_tolerance_chart_goes_log_for_wide_counts_and_leaves_zeros_out(tolerance):
    tol = np.geomspace(0.01, 10, 5)
    tolerance.set_curve({"key_tolerance": tol, "sum_tolerance": tol,
                         "key_hits": np.array([0, 10, 100, 1000, 50_000]),
                         "sum_hits": np.array([0, 0, 5, 40, 900])})
    assert tolerance.log_y
    y = tolerance.sum_curve.getData()[1]
    assert np.isnan(y[:2]).all()
    np.testing.assert_allclose(y[2:], np.log10([5, 40, 900]))
    assert "left out" in tolerance.note_text
    assert "log" in tolerance.plot_widget.getPlotItem().getAxis("left").labelText
    tolerance.set_curve({"key_tolerance": tol, "key_hits": np.array([5, 6, 7, 8, 9]),
                         "sum_hits": np.array([5, 5, 6, 6, 7])})
    assert not tolerance.log_y


def test_markers_follow_the_sliders(tolerance, curve):
    tolerance.set_curve(curve)
    tolerance.set_position(0.5, 2.0)
    assert tolerance.key_marker.value() == pytest.approx(math.log10(0.5))
    assert tolerance.sum_marker.value() == pytest.approx(math.log10(2.0))
    assert tolerance.key_marker.isVisible() and tolerance.sum_marker.isVisible()
    assert "0.5" in tolerance.key_marker.label.toPlainText()
    tolerance.set_position(1.0, 1.0)  # one line for both
    assert tolerance.key_marker.value() == pytest.approx(0.0)
    assert not tolerance.sum_marker.isVisible()
    assert "sum table" in tolerance.key_marker.label.toPlainText()
    assert tolerance.marker_positions() == (1.0, 1.0)


def test_clear_empties_the_tolerance_chart(tolerance, curve):
    tolerance.set_curve(curve)
    tolerance.set_position(0.5, 0.5)
    tolerance.clear()
    assert tolerance.is_empty
    x, _ = tolerance.key_curve.getData()
    assert x is None or len(x) == 0
    assert not tolerance.key_marker.isVisible()
    tolerance.set_curve(curve)  # the slider position is kept for the next curve
    assert tolerance.key_marker.isVisible()
