"""The tolerance panel: sliders for key and sum-table tolerance, search options, hit counts."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSlider,
    QVBoxLayout, QWidget,
)

from simgui.core.simfind import Tolerances
from simgui.core.tolerance_stats import TOLERANCE_STEPS, HitCounts

SCHEME_NAMES = {"skew": "Skew (the paper's key)", "uniform": "Uniform", "custom": "Custom…"}


def nearest_step(value: float) -> int:
    """Slider position of the step closest to ``value`` (on a log scale)."""
    import numpy as np

    return int(np.argmin(np.abs(np.log(TOLERANCE_STEPS) - np.log(max(value, 1e-9)))))


def format_percent(value: float) -> str:
    return f"{value:.3g} %"


class LogSlider(QWidget):
    """A horizontal slider over the tolerance steps (0.01 % .. 10 %, log scale) and its value."""

    value_changed = Signal(float)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, len(TOLERANCE_STEPS) - 1)
        self.slider.setPageStep(10)
        self.label = QLabel()
        self.label.setMinimumWidth(self.label.fontMetrics().horizontalAdvance("0.015 %") + 6)
        self.label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.label)
        self.slider.valueChanged.connect(self._moved)
        self._moved(self.slider.value())

    def value(self) -> float:
        return float(TOLERANCE_STEPS[self.slider.value()])

    def set_value(self, value: float) -> None:
        self.slider.setValue(nearest_step(value))

    def set_maximum(self, value: float) -> None:
        """Limit the slider to steps up to ``value`` (moving it down if it is above)."""
        self.slider.setMaximum(nearest_step(value))

    def _moved(self, position: int) -> None:
        value = float(TOLERANCE_STEPS[position])
        self.label.setText(format_percent(value))
        self.value_changed.emit(value)


class TolerancePanel(QGroupBox):
    """Tolerances (applied at once, no new search) and search options (a new search)."""

    tolerances_changed = Signal(object)  # Tolerances
    search_changed = Signal()  # scheme, extension modification or size factor

    def __init__(self, parent=None):
        super().__init__("Tolerances", parent)
        self.key = LogSlider()
        self.key.setToolTip("How far apart two files' keys may be, in percent of the larger "
                            "file's size: the first, fast filter")
        self.sum = LogSlider()
        self.sum.setToolTip("How far apart two files' sum tables may be (L1 distance), in percent "
                            "of their mean size: what makes two files similar")
        self.size_factor = QDoubleSpinBox()
        self.size_factor.setRange(1.0, 100.0)
        self.size_factor.setSingleStep(0.1)
        self.size_factor.setDecimals(2)
        self.size_factor.setSuffix(" ×")
        self.size_factor.setToolTip("Files are compared only if the larger is at most this "
                                    "many times the smaller")
        self.scheme = QComboBox()
        for name, label in SCHEME_NAMES.items():
            self.scheme.addItem(label, name)
        self.scheme.setToolTip("Weights that turn a sum table into a key")
        self.extensions = QCheckBox("Only compare files with the same extension")
        self.extensions.setToolTip("The paper's extension modification: keys of different "
                                   "extensions lie far apart. Identical copies are found "
                                   "whatever their names.")
        self.ceiling_note = QLabel()
        self.ceiling_note.setWordWrap(True)
        self.ceiling_note.hide()
        self.counts = QLabel("—")
        self.counts.setTextFormat(Qt.TextFormat.RichText)
        self.counts.setWordWrap(True)

        form = QFormLayout()
        form.addRow("Key tolerance", self.key)
        form.addRow("Sum-table tolerance", self.sum)
        form.addRow("Size factor", self.size_factor)
        form.addRow("Key scheme", self.scheme)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.extensions)
        layout.addWidget(self.ceiling_note)
        layout.addWidget(self.counts)

        self.key.value_changed.connect(self._tolerances_moved)
        self.sum.value_changed.connect(self._tolerances_moved)
        self.size_factor.editingFinished.connect(lambda: self.search_changed.emit())
        self.scheme.activated.connect(lambda _i: self.search_changed.emit())
        self.extensions.toggled.connect(lambda _on: self.search_changed.emit())

    def tolerances(self) -> Tolerances:
        return Tolerances(self.key.value(), self.sum.value())

    def set_tolerances(self, tolerances: Tolerances) -> None:
        self.key.set_value(tolerances.key)
        self.sum.set_value(tolerances.sum)

    def scheme_name(self) -> str:
        return self.scheme.currentData()

    def set_scheme_name(self, name: str) -> None:
        i = self.scheme.findData(name)
        self.scheme.setCurrentIndex(max(i, 0))

    def set_key_ceiling(self, value: float) -> None:
        """The largest key tolerance the current analysis can answer."""
        self.key.set_maximum(value)
        limited = bool(value < TOLERANCE_STEPS[-1])
        self.ceiling_note.setVisible(limited)
        if limited:
            self.ceiling_note.setText(
                f"<small>Key tolerance stops at {format_percent(value)}: above it this "
                "collection has too many candidate pairs to hold in memory.</small>")

    def show_counts(self, counts: HitCounts | None) -> None:
        if counts is None:
            self.counts.setText("<i>Counts appear after a scan.</i>")
            return
        self.counts.setText(
            f"<b>{counts.groups:,}</b> groups<br>"
            f"{counts.sum_hits:,} similar pairs (sum-table hits)<br>"
            f"{counts.key_hits:,} key hits of {counts.all_pairs:,} pairs")

    def _tolerances_moved(self, _value: float) -> None:
        self.tolerances_changed.emit(self.tolerances())
