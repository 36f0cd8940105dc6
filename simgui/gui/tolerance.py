"""The tolerance panel: the method, its sliders (key and sum-table tolerance, or a
fingerprint method's threshold), search options, hit counts."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractSpinBox, QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSlider,
    QVBoxLayout, QWidget,
)

from simgui.core.search import methods
from simgui.core.search.simfind import DEFAULT_MIN_CONTENT, Tolerances
from simgui.core.search.tolerances import LOWEST_MIN_CONTENT
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, HitCounts

# names and tips, translated where shown (context "TolerancePanel")
SCHEME_NAMES = {"skew": QT_TRANSLATE_NOOP("TolerancePanel", "Skew (the paper's key)"),
                "uniform": QT_TRANSLATE_NOOP("TolerancePanel", "Uniform"),
                "custom": QT_TRANSLATE_NOOP("TolerancePanel", "Custom…")}
METHOD_NAMES = {"paper": QT_TRANSLATE_NOOP("TolerancePanel", "Sum tables (the paper's method)"),
                "simhash": QT_TRANSLATE_NOOP("TolerancePanel", "Simhash fingerprints"),
                "minhash": QT_TRANSLATE_NOOP("TolerancePanel", "MinHash resemblance"),
                "images": QT_TRANSLATE_NOOP("TolerancePanel", "Similar pictures"),
                "images-rotated": QT_TRANSLATE_NOOP("TolerancePanel",
                                                    "Similar pictures, turned or mirrored too")}
METHOD_TIPS = {
    "paper": QT_TRANSLATE_NOOP(
        "TolerancePanel", "Keys and sum tables of tag counts (Sadowski and Levin): fast to "
        "compute, found while scanning"),
    "simhash": QT_TRANSLATE_NOOP(
        "TolerancePanel", "64-bit fingerprints of each file's content, compared bit by bit. Needs "
        "fingerprints: the folders are read once more the first time"),
    "minhash": QT_TRANSLATE_NOOP(
        "TolerancePanel", "The share of content pieces two files have in common: finds the "
        "most edits. Needs fingerprints: the folders are read once more the first time"),
    "images": QT_TRANSLATE_NOOP(
        "TolerancePanel", "Pictures that look the same (re-saved, resized, another format), by "
        "a 64-bit perceptual hash of each picture, compared bit by bit"),
    "images-rotated": QT_TRANSLATE_NOOP(
        "TolerancePanel", "Similar pictures, also turned 90, 180 or 270 degrees or mirrored"),
}


def nearest_step(value: float) -> int:
    """Slider position of the step closest to ``value`` (on a log scale)."""
    import numpy as np

    return int(np.argmin(np.abs(np.log(TOLERANCE_STEPS) - np.log(max(value, 1e-9)))))


def format_percent(value: float) -> str:
    return f"{value:.3g} %"


#: Page Up/Down on a tolerance: 1-2-5 round values, which hold the defaults (5 and 10 %)
TOLERANCE_PAGES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)


class ValueField(QDoubleSpinBox):
    """A slider's value as text the user can type over (Enter or leaving the field moves
    the slider to the nearest value it has); its arrow and page keys step the slider."""

    def __init__(self, owner: "_LabelledSlider"):
        super().__init__(owner)
        self._owner = owner
        self.setKeyboardTracking(False)  # a value only when typed out, not per digit
        self.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)

    def textFromValue(self, value: float) -> str:  # "0.5", "10", not "0.500"
        return self.locale().toString(float(value), "g", 3)

    def stepBy(self, steps: int) -> None:
        """Up/Down: the next value up or down; Page Up/Down (10 steps to Qt): the next
        round value, as on the slider."""
        if abs(steps) >= 10:
            self._owner.page_value(1 if steps > 0 else -1)
        else:
            self._owner.step_value(steps)
        self.selectAll()

    def stepEnabled(self):
        flags = QAbstractSpinBox.StepEnabledFlag
        return flags.StepUpEnabled | flags.StepDownEnabled


class _Slider(QSlider):
    """A horizontal slider whose Page Up/Down go to the next round value (arrow keys
    step by one position, which each slider makes a round value)."""

    def __init__(self, owner: "_LabelledSlider"):
        super().__init__(Qt.Orientation.Horizontal, owner)
        self._owner = owner

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            self._owner.page(1 if key == Qt.Key.Key_PageUp else -1)
            event.accept()
            return
        super().keyPressEvent(event)


class _LabelledSlider(QWidget):
    """A horizontal slider with its value in a field to its right that takes a typed
    value.  A subclass maps values to positions (``position_of``, ``value``) and names
    the round values Page Up/Down land on (``page_values``, the defaults among them)."""

    value_changed = Signal(float)
    #: +1: the value grows to the right; -1: it falls (the slider still moves right
    #: towards more pairs)
    rising = 1

    def __init__(self, widest: str, parent=None):
        super().__init__(parent)
        self.slider = _Slider(self)
        self.field = ValueField(self)
        self.label = self.field  # its text() is the value as shown: "≥ 50 %"
        self.field.setMinimumWidth(self.field.fontMetrics().horizontalAdvance(widest) + 14)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.field)
        self.field.valueChanged.connect(self._typed)
        self.slider.valueChanged.connect(self._moved)

    # what a subclass says
    def value(self) -> float:
        raise NotImplementedError

    def position_of(self, value: float) -> int:
        raise NotImplementedError

    def page_values(self) -> list[float]:
        raise NotImplementedError

    def affixes(self, value: float) -> tuple[str, str]:
        """The field's prefix and suffix for ``value``."""
        return "", " %"

    # shared
    def set_value(self, value: float) -> None:
        self.slider.setValue(self.position_of(value))

    def page(self, direction: int) -> None:
        """The next round value's position to the right (+1) or left (-1), else the end."""
        here = self.slider.value()
        stops = sorted({min(max(self.position_of(v), self.slider.minimum()),
                            self.slider.maximum()) for v in self.page_values()})
        if direction > 0:
            to = next((p for p in stops if p > here), self.slider.maximum())
        else:
            to = max((p for p in stops if p < here), default=self.slider.minimum())
        self.slider.setValue(to)

    def page_value(self, direction: int) -> None:
        """Page Up/Down in the field: towards larger (+1) or smaller values."""
        self.page(direction * self.rising)

    def step_value(self, steps: int) -> None:
        self.slider.setValue(self.slider.value() + steps * self.rising)

    def _typed(self, value: float) -> None:
        self.set_value(value)
        self._show()  # a typed 0.512 reads 0.51, the value the slider has

    def _show(self) -> None:
        v = self.value()
        prefix, suffix = self.affixes(v)
        self.field.blockSignals(True)
        self.field.setPrefix(prefix)
        self.field.setSuffix(suffix)
        self.field.setValue(v)
        self.field.blockSignals(False)

    def _moved(self, _position: int) -> None:
        self._show()
        self.value_changed.emit(self.value())


class LogSlider(_LabelledSlider):
    """A horizontal slider over the tolerance steps (0.01 % .. 10 %, log scale) and its value."""

    def __init__(self, parent=None):
        super().__init__("0.015 %", parent)
        self.slider.setRange(0, len(TOLERANCE_STEPS) - 1)
        self.slider.setPageStep(10)
        self.field.setDecimals(3)
        self.field.setRange(float(TOLERANCE_STEPS[0]), float(TOLERANCE_STEPS[-1]))
        self._moved(self.slider.value())

    def value(self) -> float:
        return float(TOLERANCE_STEPS[self.slider.value()])

    def position_of(self, value: float) -> int:
        return nearest_step(value)

    def page_values(self) -> list[float]:
        return list(TOLERANCE_PAGES)

    def set_maximum(self, value: float) -> None:
        """Limit the slider to steps up to ``value`` (moving it down if it is above)."""
        self.slider.setMaximum(nearest_step(value))
        self.field.setMaximum(float(TOLERANCE_STEPS[self.slider.maximum()]))


class ThresholdSlider(_LabelledSlider):
    """A fingerprint method's threshold: whole bits for simhash and pictures (right: more
    bits may differ), resemblance for MinHash (right: a higher resemblance), so the
    slider moves the way its label reads."""

    def __init__(self, parent=None):
        super().__init__("≥ 100 %", parent)
        self.method = "simhash"
        self.field.setDecimals(0)
        self.set_method("simhash")

    def set_method(self, method: str) -> None:
        """simhash: 0 .. 8 bits; pictures: 0 .. 12 bits; minhash: resemblance from the
        floor up to 100 %."""
        self.method = method
        self.slider.blockSignals(True)
        if method == "simhash" or method in methods.PICTURE_METHODS:
            top = int(methods.CEILING_THRESHOLD[method])
            self.slider.setRange(0, top)
            self.slider.setPageStep(1)
            self.field.setRange(0, top)
        else:
            self.slider.setRange(0, round(100 - methods.MINHASH_FLOOR * 100))
            self.slider.setPageStep(5)
            self.field.setRange(methods.MINHASH_FLOOR * 100, 100)
        self.slider.blockSignals(False)
        self._moved(self.slider.value())

    def _bits(self) -> bool:
        return self.method != "minhash"

    def value(self) -> float:
        """Bits (simhash, pictures) or resemblance in percent (minhash)."""
        v = self.slider.value()
        return float(v) if self._bits() else methods.MINHASH_FLOOR * 100 + v

    def position_of(self, value: float) -> int:
        return round(value) if self._bits() else round(value - methods.MINHASH_FLOOR * 100)

    def page_values(self) -> list[float]:
        default = methods.DEFAULT_THRESHOLD[self.method]
        if self._bits():  # every other bit, and the default
            return sorted({*range(0, int(methods.CEILING_THRESHOLD[self.method]) + 1, 2),
                           default})
        return sorted({*range(40, 101, 5), default})

    def affixes(self, value: float) -> tuple[str, str]:
        if self._bits():
            return "≤ ", (QCoreApplication.translate("ThresholdSlider", " bit") if value == 1
                          else QCoreApplication.translate("ThresholdSlider", " bits"))
        return "≥ ", " %"

    def difference(self) -> float:
        """The threshold as the method's difference in percent (what the analysis takes)."""
        return methods.threshold_difference(self.method, self.value())


class ContentSlider(_LabelledSlider):
    """The content check's threshold: the smallest share of content in common, in whole
    percent from 10 to 99, moving right towards less in common (more pairs), like the
    tolerance sliders."""

    LOWEST, HIGHEST = int(LOWEST_MIN_CONTENT), 99
    rising = -1

    def __init__(self, parent=None):
        super().__init__("≥ 100 %", parent)
        self.slider.setRange(0, self.HIGHEST - self.LOWEST)
        self.slider.setPageStep(5)
        self.field.setDecimals(0)
        self.field.setRange(self.LOWEST, self.HIGHEST)
        self.set_value(DEFAULT_MIN_CONTENT)
        self._show()

    def value(self) -> float:
        return float(self.HIGHEST - self.slider.value())

    def position_of(self, value: float) -> int:
        return self.HIGHEST - min(max(round(value), self.LOWEST), self.HIGHEST)

    def page_values(self) -> list[float]:  # every 10 %, the default 50 among them
        return sorted({*range(self.LOWEST, self.HIGHEST, 10), self.HIGHEST,
                       DEFAULT_MIN_CONTENT})

    def affixes(self, value: float) -> tuple[str, str]:
        return "≥ ", " %"


class _Unknown:
    """A count that is not known, in a "{:,}" field: "?"."""

    def __format__(self, spec: str) -> str:
        return "?"


def _count(value: int | None):
    """A count as the panel formats it; "?" where it is not known."""
    return _Unknown() if value is None else value


class TolerancePanel(QGroupBox):
    """Tolerances (applied at once, no new search) and search options (a new search)."""

    tolerances_changed = Signal(object)  # Tolerances
    search_changed = Signal()  # scheme, extension modification or size factor

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setTitle(self.tr("Tolerances"))
        self.method = QComboBox()
        for name, label in METHOD_NAMES.items():
            self.method.addItem(self.tr(label), name)
            self.method.setItemData(self.method.count() - 1, self.tr(METHOD_TIPS[name]),
                                    Qt.ItemDataRole.ToolTipRole)
        self.method.setToolTip(self.tr("How files are compared"))
        self.threshold = ThresholdSlider()
        self.threshold.setToolTip(
            self.tr("How different two files may be and still count as similar"))
        self.key = LogSlider()
        self.key.setToolTip(self.tr("How far apart two files' keys may be, in percent of the "
                                    "larger file's size: the first, fast filter"))
        self.sum = LogSlider()
        self.sum.setToolTip(self.tr("How far apart two files' sum tables may be (L1 distance), "
                                    "in percent of their mean size: what makes two files "
                                    "similar"))
        self.size_factor = QDoubleSpinBox()
        self.size_factor.setRange(1.0, 100.0)
        self.size_factor.setSingleStep(0.1)
        self.size_factor.setDecimals(2)
        self.size_factor.setSuffix(" ×")
        self.size_factor.setToolTip(self.tr("Files are compared only if the larger is at most "
                                            "this many times the smaller"))
        self.scheme = QComboBox()
        for name, label in SCHEME_NAMES.items():
            self.scheme.addItem(self.tr(label), name)
        self.scheme.setToolTip(self.tr("Weights that turn a sum table into a key"))
        self.extensions = QCheckBox(self.tr("Only compare files with the same extension"))
        self.extensions.setToolTip(self.tr("The paper's extension modification: keys of "
                                           "different extensions lie far apart. Identical "
                                           "copies are found whatever their names."))
        self.check = QCheckBox(self.tr("Confirm similar files by their content"))
        self.check.setChecked(True)
        self.check.setToolTip(self.tr(
            "After the sum tables, two files that are not copies count as similar only if "
            "they have enough of their content in common. Without it, unrelated photos, "
            "videos or archives of about the same size look similar (the paper's method as "
            "published)"))
        self.content = ContentSlider()
        self.content.setToolTip(self.tr(
            "How much of their content two files must have in common to count as similar, "
            "estimated from fingerprints of their content (100 % only for copies)"))
        self.ceiling_note = QLabel()
        self.ceiling_note.setWordWrap(True)
        self.ceiling_note.hide()
        self.counts = QLabel("—")
        self.counts.setTextFormat(Qt.TextFormat.RichText)
        self.counts.setWordWrap(True)
        self.counts.setToolTip(self.tr(
            "Candidates: pairs whose keys are within the key tolerance (the paper's \"key "
            "hits\").<br>Similar pairs: candidates whose sum tables are within the sum-table "
            "tolerance (the paper's \"sum-table hits\"), then confirmed by their content "
            "when that is on."))

        form = self.form = QFormLayout()
        form.addRow(self.tr("Method"), self.method)
        form.addRow(self.tr("Key tolerance"), self.key)
        form.addRow(self.tr("Sum-table tolerance"), self.sum)
        form.addRow(self.tr("Content in common"), self.content)
        form.addRow(self.tr("Threshold"), self.threshold)
        form.addRow(self.tr("Size factor"), self.size_factor)
        form.addRow(self.tr("Key scheme"), self.scheme)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.extensions)
        layout.addWidget(self.check)
        layout.addWidget(self.ceiling_note)
        layout.addWidget(self.counts)

        # the sum-table tolerance the user chose; a collection whose similar pairs would
        # not fit in memory caps what the slider shows and the analysis groups at, never
        # this (what settings save).  The key tolerance is never capped: its candidates
        # are tallied by the search, not held.
        self._chosen_sum = self.sum.value()
        self._sum_ceiling = float(TOLERANCE_STEPS[-1])
        self._capping = False  # the slider moves for the cap, not for the user
        self.key.value_changed.connect(self._tolerances_moved)
        self.sum.value_changed.connect(self._sum_moved)
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
        """The user's tolerances (from settings); the sum-table one shows capped while a
        collection needs it (:meth:`set_sum_ceiling`)."""
        self.key.set_value(tolerances.key)
        self._chosen_sum = tolerances.sum
        self._show_sum()
        if tolerances.content > 0:
            self.content.set_value(tolerances.content)

    def chosen_sum(self) -> float:
        """The sum-table tolerance the user chose, whatever the current collection caps
        it to: what the settings keep."""
        return self._chosen_sum

    def _sum_moved(self, value: float) -> None:
        if not self._capping:
            self._chosen_sum = value
            self._show_ceiling_note()

    def _show_sum(self) -> None:
        """The slider at the user's sum-table tolerance, or at the ceiling if lower."""
        self._capping = True
        try:
            self.sum.set_maximum(self._sum_ceiling)
            self.sum.set_value(min(self._chosen_sum, self._sum_ceiling))
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

    def set_sum_ceiling(self, value: float) -> None:
        """The largest sum-table tolerance the current analysis can group at: the slider
        stops there for this collection only, and goes back to the user's value when a
        later one allows it."""
        self._sum_ceiling = float(value)
        self._show_sum()

    def _show_ceiling_note(self) -> None:
        value = self._sum_ceiling
        limited = bool(value < TOLERANCE_STEPS[-1])
        self.ceiling_note.setVisible(limited)
        if limited:
            if nearest_step(self._chosen_sum) > self.sum.slider.value():
                text = self.tr("<small>Sum-table tolerance stops at {value} (your setting, "
                               "{yours}, applies again to a collection that allows it): above "
                               "it this collection has too many similar pairs to group in "
                               "memory. The counts and the tolerance curves still cover the "
                               "whole range.</small>")
            else:
                text = self.tr("<small>Sum-table tolerance stops at {value}: above it this "
                               "collection has too many similar pairs to group in memory. The "
                               "counts and the tolerance curves still cover the whole "
                               "range.</small>")
            self.ceiling_note.setText(text.format(value=format_percent(value),
                                                  yours=format_percent(self._chosen_sum)))

    def show_counts(self, counts: HitCounts | None) -> None:
        if counts is None:
            self.counts.setText(self.tr("<i>Counts appear after a scan.</i>"))
            return
        groups = (self.tr("<b>{n:,}</b> group") if counts.groups == 1
                  else self.tr("<b>{n:,}</b> groups")).format(n=counts.groups)
        # (the wording of one: "1 similar pair", "1 candidate of 1 pair")
        similar = counts.sum_hits if self.method_name() != "paper" else counts.similar
        pairs = (self.tr("{n:,} similar pair") if similar == 1
                 else self.tr("{n:,} similar pairs")).format(n=similar)
        if self.method_name() != "paper":
            self.counts.setText(groups + "<br>" + self.tr("{pairs} of {all:,}").format(
                pairs=pairs, all=counts.all_pairs))
            return
        if self.check.isChecked():
            line = self.tr("{pairs}, confirmed of {before:,} before the content check")
        else:
            line = self.tr("{pairs} (not confirmed by content)")
        # counts between the slider steps may be unknown (the sliders stop on steps)
        candidates = _count(counts.key_hits)
        candidates = (self.tr("{n:,} candidate") if candidates == 1
                      else self.tr("{n:,} candidates")).format(n=candidates)
        of_all = (self.tr("{candidates} of {all:,} pair") if counts.all_pairs == 1
                  else self.tr("{candidates} of {all:,} pairs"))
        self.counts.setText(groups + "<br>" + line.format(pairs=pairs,
                                                          before=_count(counts.sum_hits))
                            + "<br>" + of_all.format(candidates=candidates,
                                                     all=counts.all_pairs))

    def _tolerances_moved(self, _value: float) -> None:
        if self.method_name() != "paper":
            self._thresholds[self.method_name()] = self.threshold.value()
        self.tolerances_changed.emit(self.tolerances())
