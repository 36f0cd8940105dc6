"""The details panel shows two pictures side by side, with their sizes and a zoom."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PIL import Image, ImageDraw  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel  # noqa: E402

from simgui.core import sum_table_of_file  # noqa: E402
from simgui.gui.details import DetailsPanel, FileDetails  # noqa: E402
from simgui.gui.picture_compare import load_picture  # noqa: E402

SHOTS = os.environ.get("SIMGUI_SCREENSHOTS")  # a folder: save screenshots there


def details(path) -> FileDetails:
    path = str(path)
    st = os.stat(path)
    return FileDetails(path, st.st_size, st.st_mtime_ns, sum_table_of_file(path), 1.0,
                       os.path.splitext(path)[1][1:])


def landscape(size=(640, 480)) -> Image.Image:
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    sky = np.stack([60 + 0 * x + y * 0.2, 120 + y * 0.2, 200 - y * 0.1], -1)
    img = Image.fromarray(np.clip(sky, 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(img)
    draw.polygon([(0, h), (w * 0.3, h * 0.4), (w * 0.6, h), ], fill=(70, 110, 60))
    draw.polygon([(w * 0.4, h), (w * 0.75, h * 0.3), (w, h)], fill=(90, 90, 80))
    draw.ellipse((w * 0.7, h * 0.08, w * 0.82, h * 0.24), fill=(250, 220, 120))
    return img


@pytest.fixture
def panel(qtbot):
    widget = DetailsPanel()
    widget.resize(620, 900)
    qtbot.addWidget(widget)
    return widget


def test_two_pictures_are_shown_side_by_side_with_their_sizes(panel, tmp_path):
    landscape().save(tmp_path / "holiday.jpg", quality=92)
    landscape().resize((320, 240)).save(tmp_path / "holiday-small.png")
    panel.show_files([details(tmp_path / "holiday.jpg"), details(tmp_path / "holiday-small.png")])
    panel.show()
    assert panel.picture_section.isVisibleTo(panel)
    pics = panel.pictures
    assert all(not view.pixmap().isNull() for view in pics.views)
    a, b = (c.text() for c in pics.captions)
    assert "640 × 480 · JPEG" in a and "holiday.jpg" in a
    assert "320 × 240 · PNG" in b and "holiday-small.png" in b
    before = pics.views[0].pixmap().width()
    pics.zoom.setValue(300)
    assert pics.views[0].pixmap().width() == 3 * before
    assert pics.views[1].pixmap().width() == 3 * before  # the same box: both fill it
    pics.zoom.setValue(100)
    if SHOTS:
        QApplication.processEvents()  # the new rows laid out
        panel.grab().save(os.path.join(SHOTS, "pictures-side-by-side.png"))


def test_other_files_show_no_pictures(panel, tmp_path):
    (tmp_path / "a.txt").write_text("one " * 50)
    landscape().save(tmp_path / "b.jpg")
    panel.show_files([details(tmp_path / "a.txt"), details(tmp_path / "b.jpg")])
    assert not panel.picture_section.isVisibleTo(panel)


def test_a_broken_picture_says_why_instead_of_a_preview(panel, tmp_path):
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8\xff" + bytes(200))
    landscape().save(tmp_path / "fine.jpg")
    panel.show_files([details(tmp_path / "broken.jpg"), details(tmp_path / "fine.jpg")])
    assert "picture not decoded" in panel.pictures.captions[0].text()
    assert panel.pictures.views[0].text() == "(no preview)"


def test_load_picture_applies_the_exif_orientation(tmp_path):
    exif = Image.Exif()
    exif[0x0112] = 6
    landscape().save(tmp_path / "tagged.jpg", exif=exif)
    image, line = load_picture(str(tmp_path / "tagged.jpg"))
    assert (image.width(), image.height()) == (480, 640) and line.startswith("480 × 640")


def test_the_window_groups_similar_pictures_and_shows_them(qtbot, window, tmp_path):
    from simgui.core.search import methods
    from tests.test_gui_methods import choose
    from tests.test_gui_window import scan

    root = tmp_path / "photos"
    root.mkdir()
    landscape().save(root / "holiday.jpg", quality=92)
    landscape().save(root / "holiday-q60.jpg", quality=60)
    landscape().resize((480, 360)).save(root / "holiday-small.png")
    landscape().transpose(Image.Transpose.ROTATE_90).save(root / "holiday-turned.jpg")
    (root / "notes.txt").write_text("not a picture " * 40)
    for i in range(3):  # copies are found by every method: here more of them than pictures
        for copy in ("", " copy"):
            (root / f"notes{i}{copy}.txt").write_text(f"not a picture {i} " * 40)
    scan(qtbot, window, root)
    choose(qtbot, window, "images")
    threshold = window.tolerance.threshold
    assert threshold.isVisible() and threshold.slider.maximum() == 12
    # pictures pair whatever their sizes and extensions: those settings are not shown
    assert not window.tolerance.size_factor.isVisible()
    assert not window.tolerance.extensions.isVisible()
    assert threshold.label.text() == f"≤ {methods.DEFAULT_THRESHOLD['images']} bits"
    model = window.model
    assert model.rowCount() == 4  # the pictures, and the text files' copies
    # the method is the pictures': their thumbnails show, whatever else is grouped
    from simgui.gui.groups_model import KEY, PICTURE, SUM
    assert not window.groups.tree.isColumnHidden(PICTURE)
    # the paper's key and sum-table distances mean nothing here: left blank
    first = model.index(0, 0)
    assert all(model.index(r, c, first).data() == "" for r in range(model.rowCount(first))
               for c in (KEY, SUM))
    group = next(g for g in window.table.groups() if g.reference.path.endswith((".jpg",
                                                                               ".png")))
    assert len(group.files) == 3  # not the turned one
    names = sorted(os.path.basename(f.path) for f in group.files)
    assert names == ["holiday-q60.jpg", "holiday-small.png", "holiday.jpg"]
    assert all(80 <= m.similarity < 100 for m in group.members if not m.identical)
    g = group.id - 1
    member = int(window.table.rows[window.table.start[g] + 1])
    window._selection_changed([member], g)  # a member: with its reference
    assert window.details.picture_section.isVisibleTo(window.details)
    assert all(not v.pixmap().isNull() for v in window.details.pictures.views)
    # how alike they look, not a share of bytes; no key or sum distance, which mean nothing
    texts = [w.text() for w in window.details.findChildren(QLabel)]
    assert any(t.endswith(" % alike") for t in texts), texts
    assert not any(t.endswith(" % in common") for t in texts) and "Key distance" not in texts
    if SHOTS:
        window.grab().save(os.path.join(SHOTS, "pictures-window.png"))
    choose(qtbot, window, "images-rotated")
    assert model.rowCount(model.index(0, 0)) == 4  # the turned copy too
    assert window.details.pictures_method  # its similarities say how alike, too
    threshold.set_value(0)
    qtbot.waitUntil(lambda: window.tolerance.tolerances().sum == 0)
