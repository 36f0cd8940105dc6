"""The details panel's previews: text side by side, hex lined up after insertions, their
empty and error states (contents read on a worker; results awaited with waitSignal)."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from simgui.core import sum_table_of_file  # noqa: E402
from simgui.core.search.alignment import (  # noqa: E402
    CHANGED_ROW, DELETED_ROW, EQUAL_ROW, INSERTED_ROW,
)
from simgui.gui.content_preview import HEX, TEXT, ContentPreview  # noqa: E402
from simgui.gui.details import DetailsPanel, FileDetails  # noqa: E402


def write(folder, name: str, data: bytes) -> tuple[str, int, int]:
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data)
    st = os.stat(path)
    return path, st.st_size, st.st_mtime_ns


TEXT_A = "".join(f"line {i}\n" for i in range(200)).encode()
TEXT_B = (TEXT_A.replace(b"line 20\n", b"line twenty\n").replace(b"line 100\n", b"")
          .replace(b"line 150\n", b"line 150\nnew line\n"))


def random_bytes(n: int, seed: int = 1) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()


@pytest.fixture
def preview(qtbot):
    widget = ContentPreview()
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.show()
    return widget


def load(qtbot, preview, a, b, expect: str):
    with qtbot.waitSignal(preview.loaded, timeout=20000,
                          check_params_cb=lambda mode: mode == expect):
        preview.set_pair(a, b)


def test_text_files_show_side_by_side_with_changes_marked(preview, qtbot, tmp_path):
    a, b = write(tmp_path, "a.txt", TEXT_A), write(tmp_path, "b.txt", TEXT_B)
    load(qtbot, preview, a, b, TEXT)
    assert preview.mode == TEXT
    text = preview.text
    kinds = text.row_kinds()
    assert kinds.count(CHANGED_ROW) == 1 and kinds.count(DELETED_ROW) == 1
    assert kinds.count(INSERTED_ROW) == 1 and kinds.count(EQUAL_ROW) == 198
    left, right = (c.document() for c in text.columns)
    assert left.blockCount() == right.blockCount() == len(kinds)  # blanks keep rows facing
    changed = kinds.index(CHANGED_ROW)
    assert left.findBlockByNumber(changed).text().endswith("line 20")
    assert right.findBlockByNumber(changed).text().endswith("line twenty")
    assert right.findBlockByNumber(kinds.index(DELETED_ROW)).text() == ""  # the gap
    # three runs, and within the changed line the characters that differ: "20" / "twenty"
    assert len(text.columns[0].extraSelections()) == 4
    assert [s.cursor.selectedText() for s in text.columns[0].extraSelections()][-1] == "20"
    assert [s.cursor.selectedText() for s in text.columns[1].extraSelections()][-1] == "twenty"
    assert "Lines changed: 1" in text.summary.text()
    # the columns scroll together
    bar_a, bar_b = (c.verticalScrollBar() for c in text.columns)
    bar_a.setValue(bar_a.maximum() // 2)
    assert bar_b.value() == bar_a.value() > 0
    # change to change
    assert text.go_to_change(True) == kinds.index(DELETED_ROW)
    assert text.go_to_change(False) == changed


def test_binary_files_show_hex_realigned_after_an_insertion(preview, qtbot, tmp_path):
    data = random_bytes(5000)
    a = write(tmp_path, "a.bin", data)
    b = write(tmp_path, "b.bin", data[:1000] + b"INSERTED" * 4 + data[1000:])
    load(qtbot, preview, a, b, HEX)
    assert preview.mode == HEX
    rows = preview.hex.rows
    result = rows.result
    assert result.changed_cells == 32
    assert set(result.kind[result.kind != EQUAL_ROW].tolist()) == {INSERTED_ROW}
    # a row after the insertion: the same bytes on both sides (offsets differ by 32)
    w = rows.width_bytes
    row = 2000 // w
    left, right = rows.row_text(row)
    assert left[10:] == right[10:] and int(left[:8], 16) + 32 == int(right[:8], 16)
    # rows of the insertion show a gap on A's side
    first = rows.change_rows[0]
    gap, inserted = rows.row_text(int(first))
    assert gap[10:].strip() == "" and "49 4e 53" in inserted  # "INS"
    assert "Bytes changed: 0 · only in A: 0 · only in B: 32" in preview.hex.summary.text()
    assert "not both text" in preview.text.message.text()
    assert preview.text.stack.currentWidget() is preview.text.message


def test_hex_tab_on_text_files_loads_on_demand(preview, qtbot, tmp_path, monkeypatch):
    a, b = write(tmp_path, "a.txt", TEXT_A), write(tmp_path, "b.txt", TEXT_B)
    load(qtbot, preview, a, b, TEXT)
    assert preview.hex.rows.result is None
    with qtbot.waitSignal(preview.loaded, timeout=20000,
                          check_params_cb=lambda mode: mode == HEX):
        preview.tabs.setCurrentWidget(preview.hex)
    assert preview.hex.rows.result.changed_cells > 0
    # back and forth: nothing read again
    started = []
    monkeypatch.setattr(preview.tasks, "start", started.append)
    preview.tabs.setCurrentWidget(preview.text)
    preview.tabs.setCurrentWidget(preview.hex)
    assert started == [] and not preview.loading


def test_a_tab_the_user_picked_stays(preview, qtbot, tmp_path):
    """Hex picked before text files were read: hex is read for it, and the tab stays."""
    a, b = write(tmp_path, "a.txt", TEXT_A), write(tmp_path, "b.txt", TEXT_B)
    preview.tabs.setCurrentWidget(preview.text)
    preview.set_pair(a, b)
    preview.tabs.setCurrentWidget(preview.hex)
    with qtbot.waitSignal(preview.loaded, timeout=20000,
                          check_params_cb=lambda mode: mode == HEX):
        pass
    assert preview.mode == HEX and preview.hex.rows.result is not None
    assert preview.text.result is None  # read when its tab is picked
    with qtbot.waitSignal(preview.loaded, timeout=20000,
                          check_params_cb=lambda mode: mode == TEXT):
        preview.tabs.setCurrentWidget(preview.text)
    assert preview.text.result is not None


def test_large_files_are_cut_and_say_so(preview, qtbot, tmp_path):
    preview.max_bytes = 1000
    a = write(tmp_path, "a.txt", TEXT_A)
    b = write(tmp_path, "b.txt", TEXT_B)
    load(qtbot, preview, a, b, TEXT)
    assert preview.text.result.a.cut
    summary = preview.text.summary.text()
    assert "Only the first 1.0 KB of A (1.7 KB) are shown." in summary
    assert "Only the first 1.0 KB of B" in summary
    assert preview.text.result.a.read == 1000
    assert len(preview.text.result.lines_a) == TEXT_A[:1000].count(b"\n")


def test_a_file_gone_says_why(preview, qtbot, tmp_path):
    a, b = write(tmp_path, "a.txt", TEXT_A), write(tmp_path, "b.txt", TEXT_B)
    os.remove(a[0])
    load(qtbot, preview, a, b, TEXT)
    for view in (preview.text, preview.hex):
        assert view.stack.currentWidget() is view.message
        assert "Cannot show a preview" in view.message.text()
        assert "no longer exists" in view.message.text()


def test_a_fifo_is_refused_not_waited_on(preview, qtbot, tmp_path):
    a = write(tmp_path, "a.txt", TEXT_A)
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    load(qtbot, preview, a, (fifo, 0, 0), TEXT)
    assert "not a regular file" in preview.text.message.text()


def test_undecodable_bytes_are_replaced(preview, qtbot, tmp_path):
    a = write(tmp_path, "a.txt", "é\n".encode() * 200 + b"bad \xff byte\n")
    b = write(tmp_path, "b.txt", "é\n".encode() * 200)
    load(qtbot, preview, a, b, TEXT)
    last = preview.text.columns[0].document().lastBlock().text()
    assert last.endswith("bad \ufffd byte")


def test_line_breaks_inside_lines_and_wide_characters_keep_rows_and_marks_in_place(
        preview, qtbot, tmp_path):
    """A lone CR or a Unicode paragraph separator would start a new row in Qt's text, and
    an emoji counts twice there: neither may shift the rows or the marked words."""
    a = write(tmp_path, "a.txt", "one\rtwo\nx\u2029y\n🙂 old word\nend\n".encode())
    b = write(tmp_path, "b.txt", "one\rtwo\nx\u2029y\n🙂 new word\nend\n".encode())
    load(qtbot, preview, a, b, TEXT)
    left, right = (c.document() for c in preview.text.columns)
    assert left.blockCount() == right.blockCount() == 4
    assert preview.text.row_kinds() == [EQUAL_ROW, EQUAL_ROW, CHANGED_ROW, EQUAL_ROW]
    marks = [s.cursor.selectedText() for s in preview.text.columns[1].extraSelections()]
    assert marks[-1] == "new"


def test_empty_files(preview, qtbot, tmp_path):
    a, b = write(tmp_path, "a.txt", b""), write(tmp_path, "b.txt", b"x\n")
    load(qtbot, preview, a, b, TEXT)
    assert preview.text.row_kinds() == [INSERTED_ROW]


def test_a_late_result_for_another_pair_is_dropped(preview, qtbot, tmp_path, monkeypatch):
    """The old pair's reading is held until the selection moved on, then let finish."""
    import threading

    import simgui.gui.content_preview as content_preview

    real = content_preview.load_preview
    started, release = threading.Event(), threading.Event()

    def held(*args, **kwargs):
        started.set()
        assert release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(content_preview, "load_preview", held)
    old = write(tmp_path, "old.bin", random_bytes(3000, 2)), write(tmp_path, "o2", b"\x00")
    a, b = write(tmp_path, "a.txt", TEXT_A), write(tmp_path, "b.txt", TEXT_B)
    preview.set_pair(*old)
    preview._start()  # read at once, not after the pause
    assert started.wait(20)  # the old pair is being read
    seen = []
    preview.loaded.connect(seen.append)
    preview.set_pair(a, b)
    release.set()
    with qtbot.waitSignal(preview.loaded, timeout=20000):
        pass
    assert seen == [TEXT]
    assert preview.text.result.a.path == a[0]
    assert preview.hex.rows.result is None  # the old pair's hex never shown


def make_details(path: str, role: str) -> FileDetails:
    st = os.stat(path)
    return FileDetails(path, st.st_size, st.st_mtime_ns, sum_table_of_file(path), 1.0, "txt",
                       None, None, None, None, role)


def test_details_panel_previews_two_files_and_clears_for_one(qtbot, tmp_path):
    panel = DetailsPanel()
    qtbot.addWidget(panel)
    panel.resize(800, 1000)
    panel.show()
    a = make_details(write(tmp_path, "a.txt", TEXT_A)[0], "reference")
    b = make_details(write(tmp_path, "b.txt", TEXT_B)[0], "member")
    with qtbot.waitSignal(panel.preview.loaded, timeout=20000):
        panel.show_files([a, b])
    assert panel.preview.isVisibleTo(panel)
    assert panel.preview.text.result is not None
    panel.show_files([a])
    assert not panel.preview.isVisibleTo(panel) and panel.preview.key is None
    assert panel.preview.text.result is None
    panel.show_files([])
    assert panel.preview.key is None
