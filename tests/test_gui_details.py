"""The details panel: empty, one file, two files compared (results handed in as a worker would)."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QColor, QPalette  # noqa: E402
from PySide6.QtWidgets import QLabel  # noqa: E402

from simgui.core import sum_table_of_file  # noqa: E402
from simgui.core.search.differences import compare_files  # noqa: E402
from simgui.gui.details import DIFFERS_ROLE, DetailsPanel, FileDetails  # noqa: E402


def make_file(folder, name: str, data: bytes, role: str = "") -> FileDetails:
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data)
    st = os.stat(path)
    return FileDetails(path, st.st_size, st.st_mtime_ns, sum_table_of_file(path), 1234.5,
                       os.path.splitext(name)[1].lstrip("."), None, None, None, None, role)


@pytest.fixture
def pair(tmp_path):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 256, 20_000, dtype=np.uint8).tobytes()
    b = bytearray(a)
    b[3000] ^= 0xFF
    b[10_000:10_000] = b"inserted" * 64
    return (make_file(tmp_path, "a.bin", a, "reference"),
            make_file(tmp_path, "b.bin", bytes(b), "member"))


@pytest.fixture
def panel(qtbot):
    widget = DetailsPanel()
    qtbot.addWidget(widget)
    widget.resize(700, 800)
    return widget


def label_texts(widget) -> list[str]:
    return [w.text() for w in widget.findChildren(QLabel) if w.isVisibleTo(widget)]


def test_empty_state(panel):
    assert panel.stack.currentWidget() is panel.empty_label
    assert "Select a file to see its details" in panel.empty_label.text()
    assert not panel.grab().isNull()


def test_one_file_shows_metadata_and_16_table_rows(panel, tmp_path):
    f = make_file(tmp_path, "notes.txt", b"the tee\x00\x00" * 200)
    panel.show_files([f])
    assert panel.stack.currentIndex() == 1
    assert panel.table.rowCount() == 16 and panel.table.columnCount() == 2
    assert panel.table.item(1, 0).text() == "0x74"
    assert panel.table.item(0, 1).text() == f"{int(f.table[0]):,}"
    texts = label_texts(panel)
    assert "notes.txt" in texts and "txt" in texts
    assert "1.8 KB (1,800 bytes)" in texts
    assert not panel.diff_section.isVisibleTo(panel)
    panel.show_files([])
    assert panel.stack.currentWidget() is panel.empty_label


def test_two_files_highlight_differing_rows_and_ask_for_a_comparison(panel, pair, qtbot):
    a, b = pair
    with qtbot.waitSignal(panel.compare_requested, timeout=2000) as blocker:
        panel.show_files([a, b])
        assert panel.status_label.text() == "Comparing…"
    assert blocker.args == [a.path, b.path]
    table = panel.table
    assert table.rowCount() == 16 and table.columnCount() == 4
    for row in range(16):
        differs = int(a.table[row]) != int(b.table[row])
        assert table.item(row, 3).data(DIFFERS_ROLE) == differs
        assert (table.item(row, 1).background().style() != Qt.BrushStyle.NoBrush) == differs
    assert any(table.item(row, 3).data(DIFFERS_ROLE) for row in range(16))
    assert panel.diff_section.isVisibleTo(panel)
    assert not panel.compare_button.isEnabled()  # already comparing


def test_a_name_that_is_not_utf8_is_shown_and_compared_whole(panel, tmp_path, qtbot):
    """Its odd byte shows as \\xNN (as everywhere else), and the comparison is asked for
    the file itself: a Qt string would drop the byte and name another file."""
    a = make_file(str(tmp_path), "report.txt", b"the same words\n" * 100)
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/caf\xe9.txt")
    with open(odd, "wb") as f:
        f.write(b"the same w0rds\n" * 100)
    st = os.stat(odd)
    b = FileDetails(odd, st.st_size, st.st_mtime_ns, sum_table_of_file(odd), 1234.5, "txt",
                    None, None, None, None, "member")
    with qtbot.waitSignal(panel.compare_requested, timeout=2000) as blocker:
        panel.show_files([a, b])
    assert blocker.args == [a.path, odd] and os.path.exists(blocker.args[1])
    assert panel.title.text() == "report.txt  vs  caf\\xe9.txt"
    assert "caf\\xe9.txt" in label_texts(panel)


def test_show_differences_fills_the_strip(panel, pair, qtbot):
    a, b = pair
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([a, b])
    result = compare_files(a.path, b.path)
    panel.show_differences(result)
    assert panel.pending is None and panel.compare_button.isEnabled()
    text = panel.status_label.text()
    assert text.startswith(f"A: {result.percent_changed_a:.1f} % changed, "
                           f"B: {result.percent_changed_b:.1f} % changed")
    assert f"{result.block}-byte blocks" in text
    assert result.percent_changed_b > 2  # the insertion, about 2.5 %
    assert panel.strip.result is result and panel.strip.toolTip() == text
    assert "First difference at byte 3,000 (0xbb8)" in panel.detail_label.text()
    # no fixed window of bytes that marks everything after an insertion as changed: the
    # bytes are shown by the Hex preview, lined up again (tests/test_gui_previews.py)
    assert not hasattr(panel, "hex_view")
    # a cell under the insertion in B, then one in A far from any change
    strip = panel.strip
    rect_b = strip._bar_rect(1)
    assert "not found in A" in strip.cell_text(1, rect_b.left() + rect_b.width() * 0.5)
    rect_a = strip._bar_rect(0)
    far = strip.cell_text(0, rect_a.left() + rect_a.width() * 0.9)
    assert far.endswith(": 0.0 % not found in B")
    assert rect_a.width() < rect_b.width()  # B is longer
    assert not panel.grab().isNull()  # paints


def test_stale_results_are_ignored_and_results_are_cached(panel, pair, tmp_path, qtbot):
    a, b = pair
    other = make_file(tmp_path, "c.bin", b"something else entirely")
    old = compare_files(a.path, other.path)
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([a, b])
    panel.show_differences(old)  # for a pair no longer shown
    assert panel.status_label.text() == "Comparing…" and panel.strip.result is None
    panel.show_differences(compare_files(a.path, b.path))
    panel.show_files([a])
    with qtbot.assertNotEmitted(panel.compare_requested):
        panel.show_files([a, b])  # the same pair again: the last result is reused
    assert not panel.comparison_scheduled  # nor will it be asked for later
    assert panel.status_label.text().startswith("A: ")


def test_error_message_shown_in_place_of_the_strip(panel, pair, qtbot):
    a, b = pair
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([a, b])
    panel.show_differences("Cannot read /x/b.bin: the file no longer exists")
    assert "Cannot read /x/b.bin: the file no longer exists" in panel.status_label.text()
    assert not panel.strip.isVisibleTo(panel)
    assert panel.compare_button.isEnabled()


def test_large_files_wait_for_the_button(panel, pair, qtbot):
    a, b = pair
    panel.auto_compare_limit = 1000
    with qtbot.assertNotEmitted(panel.compare_requested):
        panel.show_files([a, b])
    assert not panel.comparison_scheduled  # nor later: large files wait for the button
    assert "Compare contents" in panel.status_label.text()
    with qtbot.waitSignal(panel.compare_requested, timeout=1000) as blocker:
        panel.compare_button.click()
    assert blocker.args == [a.path, b.path]
    assert panel.status_label.text() == "Comparing…"


def test_arrowing_through_pairs_asks_once(panel, pair, tmp_path, qtbot):
    a, b = pair
    c = make_file(tmp_path, "c.bin", b"c" * 100)
    requests = []
    panel.compare_requested.connect(lambda x, y: requests.append((x, y)))
    panel.show_files([a, c])
    panel.show_files([b, c])
    assert panel.comparison_scheduled  # the selection has not rested yet: nothing asked
    assert requests == []
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([a, b])
    assert not panel.comparison_scheduled  # and nothing more will be
    assert requests == [(a.path, b.path)]


def test_identical_files_and_many_selected(panel, tmp_path, qtbot):
    a = make_file(tmp_path, "x", b"same" * 100)
    b = make_file(tmp_path, "y", b"same" * 100)
    c = make_file(tmp_path, "z", b"other")
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([a, b, c])
    assert "3 files selected" in panel.note.text()
    assert panel.table_note.text() == "The sum tables are equal."
    panel.show_differences(compare_files(a.path, b.path))
    assert panel.status_label.text() == "The contents are identical."


def test_two_members_are_measured_against_each_other(panel, pair, qtbot):
    import dataclasses

    ref, member = pair
    # two members of one group, each 99 % and 98 % like the reference
    a = dataclasses.replace(ref, role="member", similarity=99.0, key_distance=5.0,
                            sum_distance=10, identical=False)
    b = dataclasses.replace(member, role="member", similarity=98.0, key_distance=9.0,
                            sum_distance=20, identical=False, key=1300.0)
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([a, b])
    texts = label_texts(panel)
    assert "Similarity to reference" in texts and "Sum distance to reference" in texts
    apart = int(np.abs(a.table - b.table).sum())
    assert apart > 0
    between = next(t for t in texts if "· sum distance" in t)
    assert f"sum distance {apart:,}" in between and "key distance 65.5" in between
    # a member beside its reference keeps the plain labels and no A-to-B row
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([ref, member])
    texts = label_texts(panel)
    assert "Similarity" in texts and "A to B" not in texts


def test_follows_palette_changes(panel, pair, qtbot):
    a, b = pair
    with qtbot.waitSignal(panel.compare_requested, timeout=2000):
        panel.show_files([a, b])
    panel.show_differences(compare_files(a.path, b.path))
    dark = QPalette(panel.palette())
    dark.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    dark.setColor(QPalette.ColorRole.WindowText, QColor("#e0e0e0"))
    dark.setColor(QPalette.ColorRole.Highlight, QColor("#ff8800"))
    panel.setPalette(dark)
    highlighted = [panel.table.item(r, 1).background().color() for r in range(16)
                   if panel.table.item(r, 1).data(DIFFERS_ROLE)]
    assert highlighted and all(c.red() == 0xFF and c.green() == 0x88 for c in highlighted)
    assert panel.status_label.text().startswith("A: ")
    assert not panel.grab().isNull()
