"""Sliders set exactly (issue 27): a field beside each slider takes a typed value and
moves the slider; arrow keys step through round values and Page Up/Down jump between
round values that land on the defaults; the MinHash threshold moves the way it reads."""

import pytest
from PySide6.QtCore import Qt

from simgui.core.search import methods
from simgui.core.search.simfind import (
    DEFAULT_KEY_TOLERANCE, DEFAULT_MIN_CONTENT, DEFAULT_SUM_TOLERANCE,
)
from simgui.gui.tolerance import TolerancePanel


@pytest.fixture
def panel(qtbot):
    p = TolerancePanel()
    qtbot.addWidget(p)
    p.show()
    return p


def type_into(qtbot, slider, text: str) -> None:
    field = slider.field
    field.lineEdit().selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def test_a_typed_value_moves_the_slider(qtbot, panel):
    with qtbot.waitSignal(panel.tolerances_changed) as changed:
        type_into(qtbot, panel.sum, "2.5")
    assert panel.sum.value() == 2.5 and changed.args[0].sum == 2.5
    type_into(qtbot, panel.key, "0.512")  # between steps: the nearest, shown as it is
    assert panel.key.value() == 0.51 and panel.key.field.text() == "0.51 %"
    type_into(qtbot, panel.content, "73")
    assert panel.content.value() == 73 and panel.tolerances().content == 73
    assert panel.content.field.text() == "≥ 73 %"


def test_arrow_keys_step_round_values(qtbot, panel):
    panel.sum.set_value(DEFAULT_SUM_TOLERANCE)
    qtbot.keyClick(panel.sum.slider, Qt.Key.Key_Right)
    assert panel.sum.value() == 5.1
    qtbot.keyClick(panel.sum.field, Qt.Key.Key_Down)
    qtbot.keyClick(panel.sum.field, Qt.Key.Key_Down)
    assert panel.sum.value() == 4.9
    panel.sum.set_value(1.0)
    qtbot.keyClick(panel.sum.slider, Qt.Key.Key_Left)
    assert panel.sum.value() == 0.99


def test_page_keys_land_on_the_defaults(qtbot, panel):
    panel.sum.set_value(3.3)
    qtbot.keyClick(panel.sum.slider, Qt.Key.Key_PageUp)
    assert panel.sum.value() == DEFAULT_SUM_TOLERANCE
    qtbot.keyClick(panel.sum.slider, Qt.Key.Key_PageUp)
    assert panel.sum.value() == DEFAULT_KEY_TOLERANCE
    qtbot.keyClick(panel.sum.field, Qt.Key.Key_PageDown)
    assert panel.sum.value() == 5.0
    qtbot.keyClick(panel.sum.slider, Qt.Key.Key_PageDown)
    assert panel.sum.value() == 2.0
    # the content share falls to the right: Page Up in its field raises the share
    panel.content.set_value(43)
    qtbot.keyClick(panel.content.field, Qt.Key.Key_PageUp)
    assert panel.content.value() == DEFAULT_MIN_CONTENT
    qtbot.keyClick(panel.content.slider, Qt.Key.Key_PageUp)  # right: less in common
    assert panel.content.value() == 40


def test_minhash_threshold_moves_the_way_it_reads(qtbot, panel):
    panel.set_method_name("minhash")
    t = panel.threshold
    assert t.value() == methods.MINHASH_DEFAULT * 100
    before = t.value()
    qtbot.keyClick(t.slider, Qt.Key.Key_Right)  # right: a higher "≥ N %"
    assert t.value() == before + 1 and t.field.text() == f"≥ {before + 1:g} %"
    t.slider.setValue(t.slider.maximum())
    assert t.value() == 100
    qtbot.keyClick(t.slider, Qt.Key.Key_PageDown)
    assert t.value() == 95
    t.set_value(43)
    qtbot.keyClick(t.slider, Qt.Key.Key_PageUp)
    assert t.value() == methods.DEFAULT_THRESHOLD["minhash"]
    panel.set_method_name("simhash")
    type_into(qtbot, panel.threshold, "3")
    assert panel.threshold.value() == 3 and panel.threshold.field.text() == "≤ 3 bits"

