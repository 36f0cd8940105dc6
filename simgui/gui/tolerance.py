"""The tolerance panel: the method, its sliders (key and sum-table tolerance, or a
fingerprint method's threshold), search options, hit counts."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSlider,
    QVBoxLayout, QWidget,
)

from simgui.core.search import methods
from simgui.core.search.simfind import DEFAULT_MIN_CONTENT, Tolerances
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, HitCounts

SCHEME_NAMES = {"skew": "Skew (the paper's key)", "uniform": "Uniform", "custom": "Custom…"}
METHOD_NAMES = {"paper": "Sum tables (the paper's method)",
                "simhash": "Simhash fingerprints",
                "minhash": "MinHash resemblance",
                "images": "Similar pictures",
                "images-rotated": "Similar pictures, turned or mirrored too"}
METHOD_TIPS = {
    "paper": "Keys and sum tables of tag counts (Sadowski and Levin): fast to compute, found "
             "while scanning",
    "simhash": "64-bit fingerprints of each file's content, compared bit by bit. Needs "
               "fingerprints: the folders are read once more the first time",
    "minhash": "The share of content pieces two files have in common: finds the most edits. "
               "Needs fingerprints: the folders are read once more the first time",
    "images": "Pictures that look the same (re-saved, resized, another format), by a 64-bit "
              "perceptual hash of each picture, compared bit by bit",
    "images-rotated": "Similar pictures, also turned 90, 180 or 270 degrees or mirrored",
}


def nearest_step(value: float) -> int:
    """Slider position of the step closest to ``value`` (on a log scale)."""
    import numpy as np

    return int(np.argmin(np.abs(np.log(TOLERANCE_STEPS) - np.log(max(value, 1e-9)))))


def format_percent(value: float) -> str:
    return f"{value:.3g} %"


class _LabelledSlider(QWidget):
    """A horizontal slider with its value written to its right."""

    value_changed = Signal(float)

    def __init__(self, widest: str, parent=None):
        super().__init__(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.label = QLabel()
        self.label.setMinimumWidth(self.label.fontMetrics().horizontalAdvance(widest) + 6)
        self.label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.label)


class LogSlider(_LabelledSlider):
    """A horizontal slider over the tolerance steps (0.01 % .. 10 %, log scale) and its value."""

    def __init__(self, parent=None):
        super().__init__("0.015 %", parent)
        self.slider.setRange(0, len(TOLERANCE_STEPS) - 1)
        self.slider.setPageStep(10)
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


class ThresholdSlider(_LabelledSlider):
    """A fingerprint method's threshold: whole bits for simhash, resemblance for MinHash."""

    def __init__(self, parent=None):
        super().__init__("≥ 100 %", parent)
        self.method = "simhash"
        self.slider.valueChanged.connect(self._moved)
        self.set_method("simhash")

    def set_method(self, method: str) -> None:
        """simhash: 0 .. 8 bits; minhash: resemblance 100 % down to the floor (right: more
        different, like the tolerance sliders)."""
        self.method = method
        self.slider.blockSignals(True)
        if method == "simhash" or method in methods.PICTURE_METHODS:
            self.slider.setRange(0, int(methods.CEILING_THRESHOLD[method]))
            self.slider.setPageStep(1)
        else:
            self.slider.setRange(0, round(100 - methods.MINHASH_FLOOR * 100))
            self.slider.setPageStep(5)
        self.slider.blockSignals(False)
        self._moved(self.slider.value())

    def value(self) -> float:
        """Bits (simhash) or resemblance in percent (minhash)."""
        v = self.slider.value()
        return float(v) if self.method != "minhash" else 100.0 - v

    def set_value(self, value: float) -> None:
        self.slider.setValue(round(value) if self.method != "minhash" else round(100 - value))

    def difference(self) -> float:
        """The threshold as the method's difference in percent (what the analysis takes)."""
        return methods.threshold_difference(self.method, self.value())

    def _moved(self, _position: int) -> None:
        v = self.value()
        self.label.setText(methods.threshold_text(self.method, v))
        self.value_changed.emit(v)


class ContentSlider(_LabelledSlider):
    """The content check's threshold: the smallest share of content in common, in whole
    percent from 10 to 99, moving right towards less in common (more pairs), like the
    tolerance sliders."""

    LOWEST, HIGHEST = 10, 99

    def __init__(self, parent=None):
        super().__init__("≥ 100 %", parent)
        self.slider.setRange(0, self.HIGHEST - self.LOWEST)
        self.slider.setPageStep(5)
        self.slider.valueChanged.connect(self._moved)
        self.set_value(DEFAULT_MIN_CONTENT)

    def value(self) -> float:
        return float(self.HIGHEST - self.slider.value())

    def set_value(self, value: float) -> None:
        self.slider.setValue(self.HIGHEST - min(max(round(value), self.LOWEST), self.HIGHEST))

    def _moved(self, _position: int) -> None:
        v = self.value()
        self.label.setText(f"≥ {v:g} %")
        self.value_changed.emit(v)


class TolerancePanel(QGroupBox):
    """Tolerances (applied at once, no new search) and search options (a new search)."""

    tolerances_changed = Signal(object)  # Tolerances
    search_changed = Signal()  # scheme, extension modification or size factor

    def __init__(self, parent=None):
        super().__init__("Tolerances", parent)
        self.method = QComboBox()
        for name, label in METHOD_NAMES.items():
            self.method.addItem(label, name)
            self.method.setItemData(self.method.count() - 1, METHOD_TIPS[name],
                                    Qt.ItemDataRole.ToolTipRole)
        self.method.setToolTip("How files are compared")
        self.threshold = ThresholdSlider()
        self.threshold.setToolTip("How different two files may be and still count as similar")
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
        self.check = QCheckBox("Confirm similar files by their content")
        self.check.setChecked(True)
        self.check.setToolTip(
            "After the sum tables, two files that are not copies count as similar only if "
            "they have enough of their content in common. Without it, unrelated photos, "
            "videos or archives of about the same size look similar (the paper's method as "
            "published)")
        self.content = ContentSlider()
        self.content.setToolTip(
            "How much of their content two files must have in common to count as similar, "
            "estimated from fingerprints of their content (100 % only for copies)")
        self.ceiling_note = QLabel()
        self.ceiling_note.setWordWrap(True)
        self.ceiling_note.hide()
        self.counts = QLabel("—")
        self.counts.setTextFormat(Qt.TextFormat.RichText)
        self.counts.setWordWrap(True)

        form = self.form = QFormLayout()
        form.addRow("Method", self.method)
        form.addRow("Key tolerance", self.key)
        form.addRow("Sum-table tolerance", self.sum)
        form.addRow("Content in common", self.content)
        form.addRow("Threshold", self.threshold)
        form.addRow("Size factor", self.size_factor)
        form.addRow("Key scheme", self.scheme)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.extensions)
        layout.addWidget(self.check)
        layout.addWidget(self.ceiling_note)
        layout.addWidget(self.counts)

        # the key tolerance the user chose; a collection too large for memory caps what
        # the slider shows and the analysis uses, never this (what settings save)
        self._chosen_key = self.key.value()
        self._key_ceiling = float(TOLERANCE_STEPS[-1])
        self._capping = False  # the slider moves for the cap, not for the user
        self.key.value_changed.connect(self._key_moved)
        self.key.value_changed.connect(self._tolerances_moved)
        self.sum.value_changed.connect(self._tolerances_moved)
        self.threshold.value_changed.connect(self._tolerances_moved)
        self.content.value_changed.connect(self._tolerances_moved)
        self.method.activated.connect(self._method_chosen)
        self._thresholds = {m: float(t) for m, t in methods.DEFAULT_THRESHOLD.items()}
        self._show_method_rows()
        self.size_factor.editingFinished.connect(lambda: self.search_changed.emit())
        self.scheme.activated.connect(lambda _i: self.search_changed.emit())
        self.extensions.toggled.connect(lambda _on: self.search_changed.emit())
        # the check needs every file's fingerprints: a new search reads any that lack them
        self.check.toggled.connect(self._check_toggled)

    def method_name(self) -> str:
        return self.method.currentData()

    def set_method_name(self, name: str) -> None:
        self.method.setCurrentIndex(max(self.method.findData(name), 0))
        self._show_method_rows()

    def tolerances(self) -> Tolerances:
        """The paper's tolerances, or with a fingerprint method its threshold as a difference
        in the sum-table tolerance's place."""
        if self.method_name() == "paper":
            return Tolerances(self.key.value(), self.sum.value(),
                              self.content.value() if self.check.isChecked() else 0.0)
        return Tolerances(self.key.value(), self.threshold.difference(), 0.0)

    def _check_toggled(self, on: bool) -> None:
        self.content.setEnabled(on)
        self.search_changed.emit()

    def set_tolerances(self, tolerances: Tolerances) -> None:
        """The user's tolerances (from settings); the key one shows capped while a
        collection needs it (:meth:`set_key_ceiling`)."""
        self._chosen_key = tolerances.key
        self._show_key()
        self.sum.set_value(tolerances.sum)
        if tolerances.content > 0:
            self.content.set_value(tolerances.content)

    def chosen_key(self) -> float:
        """The key tolerance the user chose, whatever the current collection caps it to:
        what the settings keep."""
        return self._chosen_key

    def _key_moved(self, value: float) -> None:
        if not self._capping:
            self._chosen_key = value
            self._show_ceiling_note()

    def _show_key(self) -> None:
        """The slider at the user's key tolerance, or at the ceiling if that is lower."""
        self._capping = True
        try:
            self.key.set_maximum(self._key_ceiling)
            self.key.set_value(min(self._chosen_key, self._key_ceiling))
        finally:
            self._capping = False
        self._show_ceiling_note()

    def _show_method_rows(self) -> None:
        method = self.method_name()
        paper = method == "paper"
        for widget in (self.key, self.sum, self.content, self.scheme):
            self.form.setRowVisible(widget, paper)
        self.check.setVisible(paper)
        self.form.setRowVisible(self.threshold, not paper)
        # pictures pair whatever their sizes in bytes and extensions (a PNG and its JPEG)
        picture = method in methods.PICTURE_METHODS
        self.form.setRowVisible(self.size_factor, not picture)
        self.extensions.setVisible(not picture)
        if not paper:
            self.threshold.blockSignals(True)  # the label follows; no search is asked for
            self.threshold.set_method(method)
            self.threshold.set_value(self._thresholds[method])
            self.threshold.blockSignals(False)

    def set_thresholds(self, simhash_bits: float, minhash_resemblance: float) -> None:
        self._thresholds.update({"simhash": simhash_bits, "minhash": minhash_resemblance})
        self._show_method_rows()

    def thresholds(self) -> dict[str, float]:
        """Each method's threshold, kept while the user switches: bits for simhash,
        resemblance in percent for MinHash."""
        return dict(self._thresholds)

    def _method_chosen(self, _index: int) -> None:
        self._show_method_rows()
        self.search_changed.emit()

    def scheme_name(self) -> str:
        return self.scheme.currentData()

    def set_scheme_name(self, name: str) -> None:
        i = self.scheme.findData(name)
        self.scheme.setCurrentIndex(max(i, 0))

    def set_key_ceiling(self, value: float) -> None:
        """The largest key tolerance the current analysis can answer: the slider stops
        there for this collection only, and goes back to the user's value when a later
        one allows it."""
        self._key_ceiling = float(value)
        self._show_key()

    def _show_ceiling_note(self) -> None:
        value = self._key_ceiling
        limited = bool(value < TOLERANCE_STEPS[-1])
        self.ceiling_note.setVisible(limited)
        if limited:
            yours = (f" (your setting, {format_percent(self._chosen_key)}, applies again to a "
                     "collection that allows it)"
                     if nearest_step(self._chosen_key) > self.key.slider.value() else "")
            self.ceiling_note.setText(
                f"<small>Key tolerance stops at {format_percent(value)}{yours}: above it this "
                "collection has too many candidate pairs to hold in memory.</small>")

    def show_counts(self, counts: HitCounts | None) -> None:
        if counts is None:
            self.counts.setText("<i>Counts appear after a scan.</i>")
            return
        if self.method_name() != "paper":
            self.counts.setText(f"<b>{counts.groups:,}</b> groups<br>"
                                f"{counts.sum_hits:,} similar pairs of {counts.all_pairs:,}")
            return
        checked = self.check.isChecked()
        self.counts.setText(
            f"<b>{counts.groups:,}</b> groups<br>"
            f"{counts.similar:,} similar pairs"
            + (f", confirmed of {counts.sum_hits:,} sum-table hits<br>" if checked
               else " (sum-table hits)<br>")
            + f"{counts.key_hits:,} key hits of {counts.all_pairs:,} pairs")

    def _tolerances_moved(self, _value: float) -> None:
        if self.method_name() != "paper":
            self._thresholds[self.method_name()] = self.threshold.value()
        self.tolerances_changed.emit(self.tolerances())
