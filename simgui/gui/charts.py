"""Charts from the paper: key space (Figures 3-4) and hits against tolerance (Figures 6-7).

Both charts plot log10 values on plain pyqtgraph items and switch the axes to
log ticking themselves, because pyqtgraph's PlotItem log mode only transforms
PlotDataItems, not scatter items or marker lines.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget
from pyqtgraph.graphicsItems.ScatterPlotItem import SpotItem

from simgui.core.search import methods
from simgui.core.search.keys import SCHEMES, SKEW, UNIFORM, compute_keys

#: Colour-blind-friendly: Okabe & Ito without yellow and black (too faint or
#: too close to the axes on one theme or the other), then Tol's "muted" hues.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9",
           "#CC79A7", "#882255", "#44AA99", "#332288", "#999933")
#: The same on dark backgrounds, with Tol's wine and indigo (too dark there)
#: swapped for his sand and purple.
PALETTE_DARK = PALETTE[:6] + ("#DDCC77", "#44AA99", "#AA4499", "#999933")

#: Combo box text (translated where shown, context "KeySpaceChart"), key scheme,
#: extension modification.
VARIANTS = ((QT_TRANSLATE_NOOP("KeySpaceChart", "Skew"), SKEW.name, False),
            (QT_TRANSLATE_NOOP("KeySpaceChart", "Uniform"), UNIFORM.name, False),
            (QT_TRANSLATE_NOOP("KeySpaceChart", "Skew + extension"), SKEW.name, True),
            (QT_TRANSLATE_NOOP("KeySpaceChart", "Uniform + extension"), UNIFORM.name, True))

COLOUR_MODES = ("extension", "group")
#: what the colour box shows for each mode
_COLOUR_MODE_TEXT = (QT_TRANSLATE_NOOP("KeySpaceChart", "extension"),
                     QT_TRANSLATE_NOOP("KeySpaceChart", "group"))

_TOP_EXTENSIONS = len(PALETTE)
_POINT_SIZE = 4
_FAINT_SIZE = 3
_RING_SIZE = 12
#: Above this many points the key space is drawn translucent and finer: where files
#: crowd the colour deepens, so 60,000 files read as density and stripes, not a blob.
DENSE_POINTS = 4000
_DENSE_SIZE = 3
_LEAST_ALPHA = 36


def point_alpha(points: int) -> int:
    """Opacity (0-255) of each point among ``points``: opaque up to DENSE_POINTS, then
    falling with the square root of the count (so a crowd of them stays opaque)."""
    if points <= DENSE_POINTS:
        return 255
    return max(_LEAST_ALPHA, round(255 * math.sqrt(DENSE_POINTS / points)))


# --- shared helpers -------------------------------------------------------------------

def _mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return QColor.fromRgbF(a.redF() + t * (b.redF() - a.redF()),
                           a.greenF() + t * (b.greenF() - a.greenF()),
                           a.blueF() + t * (b.blueF() - a.blueF()))


def _compact(x: float) -> str:
    """1500 -> '1.5k', 2e6 -> '2M': short tick labels for counts and keys."""
    if x == 0:
        return "0"
    for power, suffix in ((12, "T"), (9, "G"), (6, "M"), (3, "k")):
        if abs(x) >= 10.0**power * 0.9995:
            return f"{x / 10.0**power:.3g}{suffix}"
    return f"{x:.3g}"


def _bytes_tick(x: float) -> str:
    """1000 -> '1 KB' (powers of 1000 and unit names as in simgui.core.units)."""
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if x < 999.5 or unit == "TB":
            return f"{x:.3g} {unit}"
        x /= 1000
    raise AssertionError("unreachable")


def _percent_tick(x: float) -> str:
    return f"{x:.3g} %"


class _Axis(pg.AxisItem):
    """An axis whose tick labels come from a formatter of the (unlogged) value.

    On a log axis spanning more than a decade and a half only decades are
    labelled: labels at 2, 3 .. 9 x 10^k would overlap.
    """

    def __init__(self, orientation: str, formatter):
        super().__init__(orientation)
        self._formatter = formatter
        self._decades = 0.0
        self.enableAutoSIPrefix(False)  # the formatters print their own units

    def logTickValues(self, minVal, maxVal, size, stdTicks):
        self._decades = maxVal - minVal
        return super().logTickValues(minVal, maxVal, size, stdTicks)

    def logTickStrings(self, values, scale, spacing):
        decades_only = self._decades > 1.5
        return ["" if decades_only and abs(v - round(v)) > 1e-6
                else self._formatter(10.0 ** v * scale) for v in values]

    def tickStrings(self, values, scale, spacing):
        if self.logMode:
            return self.logTickStrings(values, scale, spacing)
        return [self._formatter(v * scale) for v in values]


class _Overlay(QLabel):
    """A centred message over a chart; follows the chart's size, lets clicks through."""

    def __init__(self, text: str, host: QWidget):
        super().__init__(text, host)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.setFont(font)
        self.setGeometry(host.rect())
        host.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(watched.rect())
        return False


def _make_plot(bottom: _Axis, left: _Axis, x_label: str, y_label: str) -> pg.PlotWidget:
    widget = pg.PlotWidget(axisItems={"bottom": bottom, "left": left})
    item = widget.getPlotItem()
    # the plot-options menu offers a log toggle that would mislabel our log10 data
    item.setMenuEnabled(False, True)
    item.setLabel("bottom", x_label)
    item.setLabel("left", y_label)
    item.showGrid(x=True, y=True, alpha=0.15)
    return widget


def _theme_colours(widget: QWidget) -> tuple[QColor, QColor]:
    palette = widget.palette()
    return palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.WindowText)


def _apply_theme(plot: pg.PlotWidget, background: QColor, foreground: QColor) -> None:
    """Per-widget colours, so pyqtgraph's global defaults stay untouched."""
    plot.setBackground(background)
    for name in ("bottom", "left"):
        axis = plot.getPlotItem().getAxis(name)
        axis.setPen(foreground)
        axis.setTextPen(foreground)


def _small_label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    font = QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * 0.9)
    label.setFont(font)
    return label


def _style_legend(legend, background: QColor, foreground: QColor) -> None:
    legend.setLabelTextColor(foreground)
    for _, label in legend.items:  # pyqtgraph restyles a label only on setText
        label.setText(label.text)
    legend.setBrush(pg.mkBrush(_mix(background, foreground, 0.04)))
    legend.setPen(pg.mkPen(_mix(background, foreground, 0.3)))


def _style_marker(line: pg.InfiniteLine, background: QColor, foreground: QColor) -> None:
    line.setPen(pg.mkPen(_mix(background, foreground, 0.55), width=2,
                         style=Qt.PenStyle.DashLine))
    line.label.setColor(foreground)


class _Themed(QWidget):
    """A chart that follows the palette: ``_apply_theme`` runs again when it changes."""

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()

    def _apply_theme(self) -> None:
        raise NotImplementedError


def _swatch(colour: str, text: str, symbol: str = "●") -> str:
    return f'<span style="color:{colour}">{symbol}</span>&nbsp;{text}'


# --- key space ------------------------------------------------------------------------

class _Scatter(pg.ScatterPlotItem):
    """A ScatterPlotItem that stays quick with 200,000 points of a few styles.

    The base class spends seconds in per-point Python on each setData: it
    re-makes every brush of a brush array, keys every point's style one by one,
    and on the first click builds a SpotItem per point.  Here brush arrays of
    QBrush objects are stored as given, styles are matched with numpy (each
    distinct one rendered once), and spot objects are made only for the points
    under a click.  Anything else goes to the base class unchanged.
    """

    def setBrush(self, *args, **kargs):
        brushes = args[0] if len(args) == 1 else None
        if not (isinstance(brushes, np.ndarray) and brushes.dtype == object
                and kargs.get("mask") is None
                and set(map(type, brushes)) <= {QBrush}):
            return super().setBrush(*args, **kargs)
        data = kargs.get("dataSet", self.data)
        if len(brushes) != len(data):
            raise ValueError(f"{len(brushes)} brushes for {len(data)} points")
        data["brush"] = brushes
        data["sourceRect"] = 0
        if kargs.get("update", True):
            self.updateSpots(data)

    def updateSpots(self, dataSet=None):
        data = self.data if dataSet is None else dataSet
        if not (self.opts["pxMode"] and self.opts["useCache"]):
            return super().updateSpots(dataSet)
        todo = np.flatnonzero(data["sourceRect"]["w"] == 0)
        if len(todo):
            styles = list(self._style(["symbol", "size", "pen", "brush"], data=data, idx=todo))
            first, which = _distinct_rows(styles)
            atlas = self.fragmentAtlas[[tuple(column[i] for column in styles) for i in first]]
            rects = np.array(atlas, dtype=data.dtype["sourceRect"]).reshape(-1)
            data["sourceRect"][todo] = rects[which]
            self._maybeRebuildAtlas()
        self._updateMaxSpotSizes(data=data)
        self.invalidate()

    def pointsAt(self, pos):
        hits = np.flatnonzero(self._maskAt(pos))[::-1]
        return [self._spot(i) for i in hits]

    def _spot(self, i: int) -> SpotItem:
        record = self.data[i]  # a view: the item is cached in the array
        if record["item"] is None:
            record["item"] = SpotItem(record, self, i)
        return record["item"]


def _distinct_rows(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """First row of each distinct combination of column values, and each row's combination.

    Object columns compare by identity, as pyqtgraph's symbol atlas does.
    """
    code = np.zeros(len(columns[0]), np.int64)
    for column in columns:
        if column.dtype == object:
            column = np.fromiter(map(id, column), np.int64, len(column))
        _, inverse = np.unique(column, return_inverse=True)
        code = code * (int(inverse.max()) + 1) + inverse.reshape(-1)
        # renumber densely, so the product never overflows
        _, first, code = np.unique(code, return_index=True, return_inverse=True)
        code = code.reshape(-1)
    return first, code


_STRIPE_LABELS = 16  # extensions named on the key axis, most common first


class KeySpaceChart(QWidget):
    """Key against file size on log-log axes, one point per file (the paper's Figures 3-4)."""

    fileClicked = Signal(int)
    #: The user picked another key variant here: (scheme name, use extensions).
    variantChanged = Signal(str, bool)

    EMPTY_TEXT = QT_TRANSLATE_NOOP("KeySpaceChart", "Scan a folder to see its files in key space")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._sizes = np.zeros(0, np.int64)
        self._tables = np.zeros((0, 16), np.int64)
        self._extensions: list[str] = []
        self._groups = np.zeros(0, np.int64)
        self._top_extensions: list[tuple[str, int]] = []
        self._extension_codes = np.zeros(0, np.int64)
        self._key_cache: dict[tuple[str, bool], np.ndarray] = {}
        self._keys = np.zeros(0)
        self._shown = np.zeros(0, bool)
        self._highlighted = np.zeros(0, np.int64)
        self._build()
        self._apply_theme()
        self._redraw()

    # public interface

    def set_files(self, sizes: np.ndarray, tables: np.ndarray, extensions: list[str],
                  group_of: np.ndarray) -> None:
        """Show these files (clearing any highlight); ``group_of``: group ids, -1 for none."""
        sizes = np.asarray(sizes, np.int64)
        n = len(sizes)
        tables = np.asarray(tables, np.int64).reshape(n, 16)
        group_of = np.asarray(group_of, np.int64)
        if len(extensions) != n or len(group_of) != n:
            raise ValueError("one extension and one group id per file are needed")
        self._sizes, self._tables, self._groups = sizes, tables, group_of
        self._extensions = list(extensions)
        self._key_cache.clear()
        self._highlighted = np.zeros(0, np.int64)
        self._rank_extensions()
        self._redraw(autorange=True)

    def set_variant(self, scheme_name: str, use_extensions: bool) -> None:
        """Show keys of scheme ``scheme_name`` ('skew' or 'uniform'), with or without extensions."""
        wanted = (scheme_name.casefold(), bool(use_extensions))
        for row, (_, name, ext) in enumerate(VARIANTS):
            if (name, ext) == wanted:
                break
        else:
            raise ValueError(f"no key variant {scheme_name!r} (known: {sorted(SCHEMES)})")
        if row != self._variant_box.currentIndex():
            self._variant_box.setCurrentIndex(row)
            self._redraw(autorange=True)

    def variant(self) -> tuple[str, bool]:
        _, name, ext = VARIANTS[self._variant_box.currentIndex()]
        return name, ext

    def set_colour_by(self, mode: str) -> None:
        """Colour points by 'extension' or by 'group'."""
        row = COLOUR_MODES.index(mode)
        if row != self._colour_box.currentIndex():
            self._colour_box.setCurrentIndex(row)
            self._redraw()

    def colour_by(self) -> str:
        return COLOUR_MODES[self._colour_box.currentIndex()]

    def keys(self) -> np.ndarray:
        """Keys of all files under the current variant, float64 (n,)."""
        return self._keys

    def highlight(self, indices: np.ndarray) -> None:
        """Ring these files (row indices); an empty array clears."""
        indices = np.unique(np.asarray(indices, np.int64).ravel())
        self._highlighted = indices[(indices >= 0) & (indices < len(self._sizes))]
        self._draw_highlight()
        self._update_legend()

    @property
    def scatter(self) -> pg.ScatterPlotItem:
        return self._scatter

    @property
    def highlight_overlay(self) -> pg.ScatterPlotItem:
        return self._rings

    @property
    def plot_widget(self) -> pg.PlotWidget:
        return self._plot

    @property
    def variant_box(self) -> QComboBox:
        return self._variant_box

    @property
    def colour_box(self) -> QComboBox:
        return self._colour_box

    @property
    def reference_line(self) -> pg.PlotCurveItem:
        return self._reference

    @property
    def legend_text(self) -> str:
        return self._legend.text()

    @property
    def note_text(self) -> str:
        return self._note.text()

    @property
    def is_empty(self) -> bool:
        return not self._overlay.isHidden()

    # construction

    def _build(self) -> None:
        self._variant_box = QComboBox()
        self._variant_box.addItems([self.tr(text) for text, _, _ in VARIANTS])
        self._variant_box.setToolTip(self.tr(
            "Which key this chart draws; '+ extension' adds the "
            "extension modification (each extension its own stripe)."
            "\nOnly the chart changes: the search's key is set in "
            "the Search panel."))
        self._variant_box.activated.connect(self._on_variant_picked)
        self._colour_box = QComboBox()
        self._colour_box.addItems([self.tr(text) for text in _COLOUR_MODE_TEXT])
        self._colour_box.activated.connect(lambda _: self._redraw())

        title = QLabel(self.tr("<b>Key space</b>"))
        bar = QHBoxLayout()
        bar.addWidget(title)
        bar.addStretch(1)
        bar.addWidget(QLabel(self.tr("Draw key (chart only):")))
        bar.addWidget(self._variant_box)
        bar.addSpacing(12)
        bar.addWidget(QLabel(self.tr("Colour by:")))
        bar.addWidget(self._colour_box)

        self._plot = _make_plot(_Axis("bottom", _bytes_tick), _Axis("left", _compact),
                                self.tr("File size (bytes)"), self.tr("Key"))
        item = self._plot.getPlotItem()
        for name in ("bottom", "left"):
            item.getAxis(name).setLogMode(True)
        self._reference = pg.PlotCurveItem()
        self._scatter = _Scatter(pxMode=True, size=_POINT_SIZE, pen=None, useCache=True)
        self._scatter.sigClicked.connect(self._on_clicked)
        self._rings = pg.ScatterPlotItem(pxMode=True, size=_RING_SIZE, symbol="o", brush=None)
        self._rings.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks reach the points
        self._rings.setZValue(10)
        for graphic in (self._reference, self._scatter, self._rings):
            item.addItem(graphic)
        self._overlay = _Overlay(self.tr(self.EMPTY_TEXT), self._plot)

        self._legend = _small_label()
        self._note = _small_label()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self._plot, 1)
        layout.addWidget(self._legend)
        layout.addWidget(self._note)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
            self._redraw()

    def _apply_theme(self) -> None:
        background, foreground = _theme_colours(self)
        _apply_theme(self._plot, background, foreground)
        self._foreground = foreground
        self._palette = PALETTE_DARK if background.lightnessF() < 0.5 else PALETTE
        self._other_colour = _mix(background, foreground, 0.45)
        self._faint_colour = _mix(background, foreground, 0.25)
        self._brushes = np.array(
            [pg.mkBrush(c) for c in self._palette] + [pg.mkBrush(self._other_colour),
                                                pg.mkBrush(self._faint_colour)], dtype=object)
        self._translucent: dict[int, np.ndarray] = {}  # alpha -> brushes (see _brushes_at)
        pen = pg.mkPen(_mix(background, foreground, 0.6), width=1, style=Qt.PenStyle.DashLine)
        self._reference.setPen(pen)
        self._rings.setPen(pg.mkPen(foreground, width=2))

    # drawing

    def _rank_extensions(self) -> None:
        """Colour codes for the most common extensions; the rest share 'other'."""
        counts = Counter(self._extensions)
        self._top_extensions = counts.most_common(_TOP_EXTENSIONS)
        lookup = {ext: i for i, (ext, _) in enumerate(self._top_extensions)}
        other = len(PALETTE)
        self._extension_codes = np.fromiter((lookup.get(e, other) for e in self._extensions),
                                            np.int64, len(self._extensions))

    def _current_keys(self) -> np.ndarray:
        variant = self.variant()
        keys = self._key_cache.get(variant)
        if keys is None:
            name, use_extensions = variant
            keys = compute_keys(self._tables, SCHEMES[name],
                                self._extensions if use_extensions else None)
            self._key_cache[variant] = keys
        return keys

    def _colour_codes(self) -> np.ndarray:
        """Per file: a palette index, or len(PALETTE) for 'other', +1 for 'in no group'."""
        if self.colour_by() == "extension":
            return self._extension_codes
        return np.where(self._groups >= 0, self._groups % len(PALETTE), len(PALETTE) + 1)

    def _redraw(self, autorange: bool = False) -> None:
        self._keys = self._current_keys()
        self._shown = (self._sizes > 0) & (self._keys > 0)
        codes = self._colour_codes()
        index = np.flatnonzero(self._shown)
        # grey points first, so coloured ones are drawn over them
        index = index[np.argsort(codes[index] < len(PALETTE), kind="stable")]
        shown_codes = codes[index]
        faint = shown_codes == len(PALETTE) + 1
        alpha = point_alpha(len(index))
        point = _POINT_SIZE if alpha == 255 else _DENSE_SIZE
        size = np.where(faint, min(_FAINT_SIZE, point), point) if faint.any() else point
        self._scatter.setData(x=np.log10(self._sizes[index]), y=np.log10(self._keys[index]),
                              data=index, brush=self._brushes_at(alpha)[shown_codes],
                              size=size)
        self._draw_reference(index)
        self._label_stripes(index)
        self._draw_highlight()
        self._update_legend()
        self._update_note(len(index))
        self._overlay.setVisible(len(self._sizes) == 0)
        if len(self._sizes) == 0:
            # a plausible frame (1 B .. 1 GB) rather than pyqtgraph's 1 .. 10
            self._plot.getPlotItem().setRange(xRange=(0, 9), yRange=(0, 9), padding=0.03)
        elif autorange:
            self._plot.getPlotItem().enableAutoRange()

    def _brushes_at(self, alpha: int) -> np.ndarray:
        """The palette's brushes at opacity ``alpha``, made once per theme and opacity
        (the scatter renders each distinct brush object once)."""
        if alpha == 255:
            return self._brushes
        cached = self._translucent.get(alpha)
        if cached is None:
            colours = [QColor(c) for c in self._palette] + [QColor(self._other_colour),
                                                            QColor(self._faint_colour)]
            for c in colours:
                c.setAlpha(alpha)
            cached = np.array([pg.mkBrush(c) for c in colours], dtype=object)
            self._translucent[alpha] = cached
        return cached

    def _label_stripes(self, index: np.ndarray) -> None:
        """With extensions in the key each extension is a stripe, 10^12 and more apart:
        the key axis names the stripes (the most common ones, none crowding another)
        instead of numbering powers of ten it cannot space out."""
        axis = self._plot.getPlotItem().getAxis("left")
        if not self.variant()[1] or len(index) == 0:
            axis.setTicks(None)
            axis.setLabel(self.tr("Key"))
            return
        y = np.log10(self._keys[index])
        extensions = np.array([self._extensions[i] for i in index.tolist()], object)
        ticks = []
        for ext, _ in Counter(extensions.tolist()).most_common(_STRIPE_LABELS):
            ticks.append((float(np.median(y[extensions == ext])), f".{ext}" if ext else
                          self.tr("(none)")))
        ticks.sort()
        spaced = []
        gap = max(float(y.max() - y.min()), 1.0) / 12  # about a dozen labels fit the axis
        for value, text in ticks:
            if not spaced or value - spaced[-1][0] >= gap:
                spaced.append((value, text))
        axis.setTicks([spaced, []])
        axis.setLabel(self.tr("Key"))  # the stripes are named by their ticks

    def labelled_stripes(self) -> list[str]:
        """The extensions the key axis names (extension variants only)."""
        levels = self._plot.getPlotItem().getAxis("left")._tickLevels
        return [text for _, text in levels[0]] if levels else []

    def _draw_reference(self, index: np.ndarray) -> None:
        # extension offsets lift keys 10^12 above any size: y = x says nothing there
        if len(index) == 0 or self.variant()[1]:
            self._reference.setData([], [])
            return
        sizes = self._sizes[index]
        span = np.log10([sizes.min(), sizes.max()])
        self._reference.setData(span, span)

    def _draw_highlight(self) -> None:
        index = self._highlighted[self._shown[self._highlighted]] if len(self._shown) else \
            self._highlighted[:0]
        self._rings.setData(x=np.log10(self._sizes[index]), y=np.log10(self._keys[index]),
                            data=index)

    def _update_legend(self) -> None:
        if len(self._sizes) == 0:
            self._legend.clear()
            return
        if self.colour_by() == "extension":
            parts = [_swatch(self._palette[i], ext or self.tr("(none)"))
                     for i, (ext, _) in enumerate(self._top_extensions)]
            if len(self._top_extensions) == _TOP_EXTENSIONS and (
                    self._extension_codes == len(PALETTE)).any():
                parts.append(_swatch(self._other_colour.name(), self.tr("other")))
        else:
            groups = len(np.unique(self._groups[self._groups >= 0]))
            dots = "".join(f'<span style="color:{c}">●</span>' for c in self._palette[:4])
            parts = [dots + "&nbsp;" + self.tr("{groups:,} groups (colours repeat)").format(
                         groups=groups),
                     _swatch(self._faint_colour.name(), self.tr("in no group"))]
        if not self.variant()[1]:
            parts.append(_swatch(self._foreground.name(), self.tr("key = size"), "‒ ‒"))
        if len(self._highlighted):
            parts.append(_swatch(self._foreground.name(),
                                 self.tr("{count:,} selected").format(
                                     count=len(self._highlighted)), "○"))
        self._legend.setText("&nbsp;&nbsp; ".join(parts))

    def _update_note(self, shown: int) -> None:
        if len(self._sizes) == 0:
            self._note.clear()
            return
        left_out = len(self._sizes) - shown
        text = self.tr("{count:,} files shown").format(count=shown)
        if point_alpha(shown) < 255:
            text += self.tr(" (each point translucent: the colour deepens where files crowd)")
        if left_out == 1:
            text += self.tr("; {count:,} file of 0 bytes or key 0 not shown (log axes)").format(
                count=left_out)
        elif left_out:
            text += self.tr("; {count:,} files of 0 bytes or key 0 not shown (log axes)").format(
                count=left_out)
        self._note.setText(text)

    # user actions

    def _on_variant_picked(self, _row: int) -> None:
        self._redraw(autorange=True)
        self.variantChanged.emit(*self.variant())

    def _on_clicked(self, item: pg.ScatterPlotItem, points, event) -> None:
        click = event.scenePos()

        def distance(point) -> float:
            where = item.mapToScene(point.pos())
            return (where.x() - click.x()) ** 2 + (where.y() - click.y()) ** 2

        nearest = min(points, key=distance)
        self.fileClicked.emit(int(nearest.data()))


# --- tolerance ------------------------------------------------------------------------

class ToleranceChart(_Themed):
    """Key hits and sum-table hits against tolerance for the user's files (Figures 6-7)."""

    EMPTY_TEXT = QT_TRANSLATE_NOOP("ToleranceChart",
                                   "Scan a folder to see how many pairs each tolerance finds")
    X_RANGE = (0.01, 10.0)
    #: Counts spanning this factor or more go on a log y axis (else the smaller
    #: curve hugs the floor).
    LOG_Y_SPAN = 30.0

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._curve: dict | None = None
        self._position: tuple[float, float] | None = None
        self._build()
        self._apply_theme()
        self.clear()

    # public interface

    def set_curve(self, curve: dict) -> None:
        """Plot a dict from :meth:`ToleranceStats.curve`."""
        self._curve = curve
        tolerance = np.asarray(curve["key_tolerance"], np.float64)
        key_hits = np.asarray(curve["key_hits"], np.float64)
        sum_hits = np.asarray(curve["sum_hits"], np.float64)
        on_axis = tolerance > 0  # a tolerance of 0 has no place on a log axis
        tolerance, key_hits, sum_hits = tolerance[on_axis], key_hits[on_axis], sum_hits[on_axis]
        positive = np.concatenate([key_hits, sum_hits])
        positive = positive[positive > 0]
        self.log_y = bool(len(positive)) and positive.max() >= self.LOG_Y_SPAN * positive.min()
        x = np.log10(tolerance)
        self._key_curve.setData(x, self._y(key_hits))
        self._sum_curve.setData(x, self._y(sum_hits))
        self._plot.getPlotItem().getAxis("left").setLogMode(self.log_y)
        self._plot.getPlotItem().setLabel("left", self.tr("File pairs (log scale)")
                                          if self.log_y else self.tr("File pairs"))
        self._set_ranges(tolerance, max(key_hits.max(initial=0), sum_hits.max(initial=0)))
        self._note.setText(self._describe(curve, key_hits, sum_hits))
        self._overlay.hide()
        self._legend.show()
        self._plot.getPlotItem().getAxis("left").setStyle(showValues=True)
        self._draw_markers()

    def set_position(self, key_tolerance: float, sum_tolerance: float) -> None:
        """Mark the tolerances the sliders are at (percent)."""
        self._position = (float(key_tolerance), float(sum_tolerance))
        self._draw_markers()

    def marker_positions(self) -> tuple[float, float] | None:
        """The (key, sum-table) tolerances marked, in percent, or None."""
        return self._position

    def clear(self, message: str = "") -> None:
        """No curve; the overlay says ``message`` (default: scan a folder) instead."""
        self.empty_message = message or self.tr(self.EMPTY_TEXT)
        self._overlay.setText(self.empty_message)
        self._curve = None
        self.log_y = False
        self._key_curve.setData([], [])
        self._sum_curve.setData([], [])
        self._note.clear()
        self._legend.hide()
        self._overlay.show()
        item = self._plot.getPlotItem()
        item.getAxis("left").setLogMode(False)
        item.getAxis("left").setStyle(showValues=False)  # no counts to show yet
        item.setLabel("left", self.tr("File pairs"))
        self._set_ranges(np.zeros(0), 1.0)
        self._draw_markers()

    @property
    def plot_widget(self) -> pg.PlotWidget:
        return self._plot

    @property
    def key_curve(self) -> pg.PlotDataItem:
        return self._key_curve

    @property
    def sum_curve(self) -> pg.PlotDataItem:
        return self._sum_curve

    @property
    def key_marker(self) -> pg.InfiniteLine:
        return self._key_line

    @property
    def sum_marker(self) -> pg.InfiniteLine:
        return self._sum_line

    @property
    def note_text(self) -> str:
        return self._note.text()

    @property
    def is_empty(self) -> bool:
        return self._curve is None

    # construction

    def _build(self) -> None:
        self._plot = _make_plot(_Axis("bottom", _percent_tick), _Axis("left", _compact),
                                self.tr("Tolerance (%)"), self.tr("File pairs"))
        item = self._plot.getPlotItem()
        item.getAxis("bottom").setLogMode(True)
        item.setMouseEnabled(x=False, y=False)  # a summary; the sliders drive it
        item.hideButtons()
        self._legend = item.addLegend(offset=(10, 10))
        self._key_curve = item.plot(name=self.tr("key hits"), symbol="o", symbolSize=5)
        self._sum_curve = item.plot(name=self.tr("sum-table hits"), symbol="s", symbolSize=5)
        # the paper's terms stay on its chart; the tooltip says them in the window's words
        self._plot.setToolTip(self.tr(
            "Key hits (the paper's term): candidates, pairs whose keys are "
            "within the tolerance.\nSum-table hits: similar pairs, "
            "candidates whose sum tables are within it too (before the "
            "content check)."))
        self._key_line = self._marker(self.tr("key"), 0.92)
        self._sum_line = self._marker(self.tr("sum table"), 0.80)
        self._overlay = _Overlay(self.tr(self.EMPTY_TEXT), self._plot)
        self._note = _small_label()

        title = QLabel(self.tr("<b>Hits against tolerance</b>"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(title)
        layout.addWidget(self._plot, 1)
        layout.addWidget(self._note)

    def _marker(self, text: str, label_at: float) -> pg.InfiniteLine:
        line = pg.InfiniteLine(angle=90, movable=False, label=text,
                               labelOpts={"position": label_at, "anchors": [(0, 0.5), (0, 0.5)]})
        line.setZValue(5)
        self._plot.getPlotItem().addItem(line, ignoreBounds=True)
        return line

    def _apply_theme(self) -> None:
        background, foreground = _theme_colours(self)
        _apply_theme(self._plot, background, foreground)
        self._key_curve.setPen(pg.mkPen(PALETTE[0], width=2))
        self._key_curve.setSymbolBrush(PALETTE[0])
        self._key_curve.setSymbolPen(None)
        self._sum_curve.setPen(pg.mkPen(PALETTE[3], width=2))
        self._sum_curve.setSymbolBrush(PALETTE[3])
        self._sum_curve.setSymbolPen(None)
        _style_legend(self._legend, background, foreground)
        for line in (self._key_line, self._sum_line):
            _style_marker(line, background, foreground)

    # drawing

    def _y(self, hits: np.ndarray) -> np.ndarray:
        if not self.log_y:
            return hits
        with np.errstate(divide="ignore"):
            return np.where(hits > 0, np.log10(hits), np.nan)  # gaps, not a fake floor

    def _set_ranges(self, tolerance: np.ndarray, most: float) -> None:
        low, high = self.X_RANGE
        if len(tolerance):
            low, high = min(low, tolerance.min()), max(high, tolerance.max())
        item = self._plot.getPlotItem()
        item.setXRange(math.log10(low), math.log10(high), padding=0.05)  # room for end labels
        if self.log_y:
            item.enableAutoRange(axis="y")
        else:
            item.setYRange(0, max(1.0, most), padding=0.05)  # counts start at 0

    def _describe(self, curve: dict, key_hits: np.ndarray, sum_hits: np.ndarray) -> str:
        """The caption: what is counted, and what the axes leave out."""
        hits = np.asarray(curve["key_hits"], np.float64)
        fraction = np.asarray(curve.get("key_fraction", np.zeros(len(hits))), np.float64)
        known = fraction > 0
        parts = [self.tr("Counts of file pairs")]
        if known.any():
            total = round(float(hits[known][0] / fraction[known][0]))
            parts[0] = self.tr("Counts of file pairs out of {total:,} possible pairs").format(
                total=total)
        if self.log_y and ((key_hits == 0).any() or (sum_hits == 0).any()):
            parts.append(self.tr("tolerances with no hits are left out of the log scale"))
        sum_tolerance = np.asarray(curve.get("sum_tolerance", curve["key_tolerance"]))
        if not np.allclose(sum_tolerance, curve["key_tolerance"]):
            parts.append(self.tr("x is the key tolerance; the sum-table tolerance moves "
                                 "with it"))
        else:  # read at a slider's mark, a curve need not match the counts beside the sliders
            parts.append(self.tr("each point sets the key and the sum-table tolerance to the "
                                 "same value, as the paper's Figures 6-7 do; the counts under "
                                 "the sliders use the two sliders' own values"))
        return "; ".join(parts) + "."

    def _draw_markers(self) -> None:
        if self._curve is None or self._position is None:
            self._key_line.hide()
            self._sum_line.hide()
            return
        key, total = self._position
        together = math.isclose(key, total, rel_tol=1e-9)
        self._key_line.show()
        self._sum_line.setVisible(not together)
        self._place(self._key_line, key,
                    self.tr("key and sum table {value:g} %").format(value=key) if together
                    else self.tr("key {value:g} %").format(value=key))
        self._place(self._sum_line, total, self.tr("sum table {value:g} %").format(value=total))

    def _place(self, line: pg.InfiniteLine, tolerance: float, text: str) -> None:
        """Put a marker at ``tolerance``, pinned to the chart's edge when beyond it."""
        low, high = self._plot.getPlotItem().getViewBox().viewRange()[0]
        x = min(max(math.log10(max(tolerance, 1e-12)), low), high)
        line.setValue(x)
        # the label goes on the side with room for it
        side = (1, 0.5) if x > (low + high) / 2 else (0, 0.5)
        line.label.anchors = [side, side]
        line.label.setFormat(text)  # takes effect only while the line is visible


# --- fingerprint distances --------------------------------------------------------------


class DistanceChart(_Themed):
    """How far apart the user's files are by a fingerprint method: a sample of all pairs
    against the pairs found, with the threshold marked, so a threshold can be set where
    the two part."""

    EMPTY_TEXT = QT_TRANSLATE_NOOP(
        "DistanceChart", "Choose the simhash or MinHash method (Tolerances › Method) to see "
        "how far apart your files are")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.method: str | None = None
        self._bars: list[pg.BarGraphItem] = []
        self._build()
        self._apply_theme()
        self.clear()

    def set_data(self, method: str, x: np.ndarray, sampled: np.ndarray,
                 found: np.ndarray) -> None:
        """``sampled``: estimated pairs at each x over all pairs; ``found``: pairs found."""
        self.method = method
        self.x, self.sampled, self.found = (np.asarray(x, np.float64),
                                            np.asarray(sampled, np.float64),
                                            np.asarray(found, np.float64))
        item = self._plot.getPlotItem()
        self._draw_bars()
        item.setLabel("bottom", self.tr("Differing bits") if method == "simhash"
                      else self.tr("Estimated resemblance (%)"))
        item.setXRange(float(self.x[0]), float(self.x[-1]), padding=0.02)
        top = np.log10(max(self.sampled.max(initial=1), self.found.max(initial=1), 1.0))
        item.setYRange(0, top + 0.3, padding=0)
        item.getAxis("left").setStyle(showValues=True)
        self._overlay.hide()
        self._legend.show()
        total = self.sampled.sum()
        if method == "simhash":
            note = self.tr("Bars: file pairs at each distance (log scale); {total:,.0f} pairs in "
                           "all. Unrelated files gather on the right, around 32 bits; near "
                           "copies on the left, near 0.")
        else:
            note = self.tr("Bars: file pairs at each resemblance (log scale); {total:,.0f} pairs "
                           "in all. Unrelated files gather on the left; near copies on the "
                           "right, near 100 %.")
        self._note.setText(note.format(total=total))
        self._draw_marker()

    def set_threshold(self, value: float | None) -> None:
        """Bits (simhash) or resemblance percent (MinHash) the slider is at."""
        self._threshold = value
        if self.method is not None:
            self._draw_bars()  # what is found changes with it
        self._draw_marker()

    def within(self) -> np.ndarray:
        """Per x: is it on the found side of the threshold (bits at most it; resemblance
        at least it)?  All of them while no threshold is set."""
        if self._threshold is None:
            return np.ones(len(self.x), bool)
        if self.method == "minhash":
            return self.x >= self._threshold - 1e-9
        return self.x <= self._threshold + 1e-9

    def _draw_bars(self) -> None:
        """All pairs; the pairs found at the threshold; and, paler, the pairs the search
        holds beyond it (found if the slider moves there), never drawn as found."""
        item = self._plot.getPlotItem()
        for bar in self._bars:
            item.removeItem(bar)
        width = 0.9 if self.method != "minhash" else 0.9 * 100 / (len(self.x) - 1)
        background, foreground = _theme_colours(self)
        inside = self.within()
        self._bars = []
        for counts, colour, name, optional in (
                (self.sampled, QColor(PALETTE[0]), self.tr("all pairs (estimated from a sample)"),
                 False),
                (np.where(inside, self.found, 0), QColor(PALETTE[3]), self.tr("pairs found"),
                 False),
                (np.where(inside, 0, self.found), _mix(background, QColor(PALETTE[3]), 0.35),
                 self.tr("found if the threshold moves there"), True)):
            shown = counts >= 1
            if not shown.any() and optional:
                continue
            bar = pg.BarGraphItem(x=self.x[shown], height=np.log10(counts[shown]),
                                  width=width, brush=pg.mkBrush(colour), pen=None, name=name)
            item.addItem(bar)
            self._bars.append(bar)
        self._legend.clear()
        for bar in self._bars:
            self._legend.addItem(bar, bar.opts["name"])
        _style_legend(self._legend, background, foreground)

    def clear(self) -> None:
        self.method = None
        item = self._plot.getPlotItem()
        for bar in self._bars:
            item.removeItem(bar)
        self._bars = []
        self._threshold = None
        self._legend.clear()
        self._legend.hide()
        self._note.clear()
        self._overlay.show()
        item.getAxis("left").setStyle(showValues=False)
        self._draw_marker()

    @property
    def is_empty(self) -> bool:
        return self.method is None

    @property
    def marker(self) -> pg.InfiniteLine:
        return self._line

    @property
    def note_text(self) -> str:
        return self._note.text()

    def _build(self) -> None:
        self._plot = _make_plot(_Axis("bottom", _compact), _Axis("left", _compact),
                                self.tr("Differing bits"), self.tr("File pairs (log scale)"))
        item = self._plot.getPlotItem()
        item.getAxis("left").setLogMode(True)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        self._legend = item.addLegend(offset=(-10, 10))
        self._line = pg.InfiniteLine(angle=90, movable=False, label="",
                                     labelOpts={"position": 0.9,
                                                "anchors": [(0, 0.5), (0, 0.5)]})
        self._line.setZValue(5)
        item.addItem(self._line, ignoreBounds=True)
        self._overlay = _Overlay(self.tr(self.EMPTY_TEXT), self._plot)
        self._note = _small_label()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(QLabel(self.tr("<b>Fingerprint distances between your files</b>")))
        layout.addWidget(self._plot, 1)
        layout.addWidget(self._note)

    def _apply_theme(self) -> None:
        background, foreground = _theme_colours(self)
        _apply_theme(self._plot, background, foreground)
        _style_legend(self._legend, background, foreground)
        _style_marker(self._line, background, foreground)

    def _draw_marker(self) -> None:
        if self.method is None or self._threshold is None:
            self._line.hide()
            return
        self._line.show()
        self._line.setValue(self._threshold)
        text = methods.threshold_text(self.method, self._threshold)
        # the label goes on the side with room for it
        side = (1, 0.5) if self.method == "minhash" else (0, 0.5)
        self._line.label.anchors = [side, side]
        self._line.label.setFormat(text)
