"""The groups view's Picture column: thumbnails made off the GUI thread, newest first,
with a small cache; painting never waits for a decode."""

from __future__ import annotations

import os
import threading

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PIL import Image  # noqa: E402
from PySide6.QtCore import QCoreApplication  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402

from simgui.gui import picture_thumbs  # noqa: E402
from simgui.gui.groups_model import PICTURE  # noqa: E402
from simgui.gui.picture_thumbs import ThumbnailLoader, decode_thumbnail  # noqa: E402
from tests.test_gui_pictures import SHOTS, landscape  # noqa: E402

WAIT_MS = 20_000


def key(name: str) -> tuple:
    return (name, 1, 1)


def solid(_path, side) -> QImage:
    image = QImage(side, side // 2, QImage.Format.Format_RGBA8888)
    image.fill(0xFF3366CC)
    return image


@pytest.fixture
def loader(qtbot):
    made = ThumbnailLoader()
    yield made
    made.clear()
    made.wait()


def test_a_thumbnail_is_made_off_the_gui_thread_and_kept(qtbot, loader):
    threads = []

    def decode(path, side):
        threads.append(threading.current_thread())
        return solid(path, side)

    loader.decode = decode
    assert loader.image(key("a.jpg")) is None  # not made yet: asked for
    with qtbot.waitSignal(loader.loaded, timeout=WAIT_MS) as blocker:
        pass
    assert blocker.args == [key("a.jpg")]
    assert threads and threads[0] is not threading.main_thread()
    image = loader.image(key("a.jpg"))
    assert image is not None and (image.width(), image.height()) == (48, 24)
    assert len(threads) == 1 and loader.pending() == 0  # answered from the cache


def test_the_newest_requests_go_first_and_old_ones_are_dropped(qtbot, monkeypatch):
    """While the user scrolls, the rows in sight now are made first, and rows scrolled
    past long ago are not made at all."""
    monkeypatch.setattr(picture_thumbs, "THREADS", 1)
    loader = ThumbnailLoader()  # one thread: a definite order
    gate = threading.Event()
    started = threading.Event()
    order = []

    def decode(path, side):
        if path == "first":
            started.set()
            gate.wait()
        order.append(path)
        return solid(path, side)

    loader.decode = decode
    loader.request(key("first"))
    assert started.wait(WAIT_MS / 1000)  # the one thread is busy with "first"
    names = [f"p{i}" for i in range(picture_thumbs.MAX_PENDING + 10)]
    for name in names:
        loader.request(key(name))
    loader.request(key("p50"))  # painted again: first in line
    with qtbot.waitSignal(loader.loaded, timeout=WAIT_MS,
                          check_params_cb=lambda k: k == key(names[10])):
        gate.set()
    assert order[:3] == ["first", "p50", names[-1]]
    assert order[-1] == names[10]
    assert not set(names[:10]) & set(order)  # dropped, never decoded
    assert loader.pending() == 0
    loader.wait()


def test_the_cache_keeps_only_the_latest(qtbot, loader):
    loader.decode = solid
    loader.capacity = 3
    for name in "abcde":
        with qtbot.waitSignal(loader.loaded, timeout=WAIT_MS):
            loader.request(key(name))
    assert [loader._cache.get(key(n)) is not None for n in "abcde"] == \
        [False, False, True, True, True]
    with qtbot.waitSignal(loader.loaded, timeout=WAIT_MS):
        assert loader.image(key("a")) is None  # made again when needed


def test_a_picture_that_does_not_decode_is_tried_once(qtbot, loader, tmp_path):
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    with qtbot.waitSignal(loader.loaded, timeout=WAIT_MS):
        loader.request((str(bad), 20, 1))
    image = loader.image((str(bad), 20, 1))
    assert image is not None and image.isNull()
    assert loader.pending() == 0


def test_decode_thumbnail_is_small_and_turned_as_shown(tmp_path):
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 degrees clockwise to show"
    path = tmp_path / "turned.jpg"
    landscape((640, 480)).save(path, quality=90, exif=exif)
    image = decode_thumbnail(str(path), 48)
    assert (image.width(), image.height()) == (36, 48)  # a quarter turn: portrait


# --------------------------------------------------------------------------- the view


def scan_pictures(qtbot, window, tmp_path):
    from tests.test_gui_methods import choose
    from tests.test_gui_window import scan

    root = tmp_path / "photos"
    root.mkdir()
    landscape().save(root / "holiday.jpg", quality=92)
    landscape().save(root / "holiday-q60.jpg", quality=60)
    landscape().resize((480, 360)).save(root / "holiday-small.png")
    sea = Image.new("RGB", (640, 480), (20, 60, 160))
    sea.save(root / "sea.jpg", quality=90)
    sea.save(root / "sea-copy.png")
    scan(qtbot, window, root)
    choose(qtbot, window, "images")
    return root


def cell_colours(tree, index):
    """The colours painted inside a cell (the tree grabbed as an image)."""
    shot = tree.viewport().grab().toImage()
    rect = tree.visualRect(index)
    return {shot.pixelColor(x, y).name() for x in range(rect.left(), rect.right(), 3)
            for y in range(rect.top(), rect.bottom(), 3)}


def test_groups_of_pictures_show_a_thumbnail_column(qtbot, window, tmp_path):
    scan_pictures(qtbot, window, tmp_path)
    view = window.groups
    tree = view.tree
    assert view.model.rowCount() == 2
    assert not tree.isColumnHidden(PICTURE)
    assert view.model.headerData(PICTURE, tree.header().orientation()) == "Picture"
    group = view.model.index(0, PICTURE)
    # rows are as tall as a thumbnail
    assert tree.visualRect(group).height() >= view.thumbnails.side
    rows = range(view.model.rowCount())
    loader = view.thumbnails
    # The window painted before: its decodes finish and land, then are forgotten, and
    # the next ones wait for the gate, so the first grab below sees the boxes for sure.
    loader.wait()
    QCoreApplication.processEvents()
    loader.clear()
    gate = threading.Event()
    decode = loader.decode
    loader.decode = lambda path, side: gate.wait(WAIT_MS / 1000) and decode(path, side)
    try:
        # painting asks for the thumbnails in sight, and shows a box meanwhile
        waiting = [cell_colours(tree, view.model.index(row, PICTURE)) for row in rows]
        assert loader.pending() >= len(rows)  # each row in sight asked (members too)
    finally:
        gate.set()
    while loader.pending():
        with qtbot.waitSignal(loader.loaded, timeout=WAIT_MS):
            pass
    for row, before in zip(rows, waiting):
        colours = cell_colours(tree, view.model.index(row, PICTURE))
        assert colours - before, colours  # the picture's colours, not an empty box
    if SHOTS:  # a member chosen: the details pane shows it beside its reference
        group = view.model.index(0, 0)
        view.select_file(view.model.file_of(view.model.index(2, 0, group)))
        assert window.details.picture_section.isVisibleTo(window.details)
        window.grab().save(os.path.join(SHOTS, "pictures-thumbnails.png"))


def test_painting_never_waits_for_a_thumbnail(qtbot, window, tmp_path):
    """With every decode held up, the tree still paints and scrolls: it shows a faint box
    where each thumbnail will be."""
    scan_pictures(qtbot, window, tmp_path)
    view = window.groups
    view.thumbnails.clear()
    view.thumbnails._cache.clear()
    gate = threading.Event()

    def stuck(path, side):
        gate.wait()
        return solid(path, side)

    view.thumbnails.decode = stuck
    try:
        for _ in range(3):  # returns although no thumbnail can be made
            view.tree.viewport().grab()
            view.tree.scrollToBottom()
            view.tree.scrollToTop()
        assert view.thumbnails.pending() > 0
    finally:
        with qtbot.waitSignal(view.thumbnails.loaded, timeout=WAIT_MS):
            gate.set()
    view.thumbnails.wait()


def test_other_groups_hide_the_column_and_the_user_can_show_it(qtbot, window, tmp_path):
    from tests.test_gui_window import scan_tree

    scan_tree(qtbot, window, tmp_path)
    view = window.groups
    assert view.model.rowCount() > 0
    assert not view.shows_pictures()
    assert view.tree.isColumnHidden(PICTURE)
    height = view.tree.visualRect(view.model.index(0, 0)).height()
    assert height < view.thumbnails.side  # rows of text stay compact
    view.set_column_shown(PICTURE, True)  # the header's menu
    assert view.tree.visualRect(view.model.index(0, 0)).height() >= view.thumbnails.side
    view.tree.viewport().grab()
    assert view.thumbnails.pending() == 0  # nothing to decode: no file is a picture


def test_a_few_groups_of_pictures_among_many_do_not_make_every_row_tall(qtbot, window,
                                                                       tmp_path):
    """The column shows by itself when the groups are mostly of pictures; one group of
    photos among the groups of other files leaves the rows compact (the header's menu
    shows the column)."""
    from tests.test_gui_window import make_tree, scan

    root = tmp_path / "tree"
    root.mkdir()
    make_tree(root)  # six groups of other files
    landscape().save(root / "holiday.jpg", quality=92)
    landscape().save(root / "other" / "holiday-copy.jpg", quality=92)
    scan(qtbot, window, root)
    view = window.groups
    t = window.table
    kinds = [t.files.paths[int(t.rows[t.start[g]])].endswith(".jpg") for g in range(len(t))]
    assert kinds.count(True) == 1 and len(kinds) == 7
    assert not view.shows_pictures() and view.tree.isColumnHidden(PICTURE)
    assert view.tree.visualRect(view.model.index(0, 0)).height() < view.thumbnails.side
