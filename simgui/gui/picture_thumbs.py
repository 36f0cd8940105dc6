"""The groups view's Picture column: a small thumbnail of each picture, loaded lazily.

A row asks for its thumbnail only when it is painted; :class:`ThumbnailLoader`
decodes it on its own two pool threads (never the GUI thread, and never behind a
scan on the store's pool) and keeps the last :data:`CAPACITY` in a cache keyed by
(path, size, modified time), so a file changed on disk is decoded again.  Requests
are served newest first and only the newest :data:`MAX_PENDING` are kept: while the
user scrolls fast, the rows scrolled past are dropped, not decoded.  Painting only
looks in the cache, so scrolling never waits for a decode.  A group row shows its
reference's thumbnail.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque

from PySide6.QtCore import (
    QCoreApplication, QObject, QRect, QRunnable, QSize, Qt, QThreadPool, Signal, Slot,
)
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QStyledItemDelegate

from simgui.gui.picture_compare import is_picture_path, load_picture

SIDE = 48  # a thumbnail's longest side, pixels
CAPACITY = 600  # thumbnails kept (48 x 48 RGBA: about 9 KB each)
MAX_PENDING = 96  # requests kept; older ones (rows scrolled past) are dropped
THREADS = 2


def decode_thumbnail(path: str, side: int = SIDE) -> QImage:
    """The picture at ``path`` as an image of at most ``side`` pixels a side (EXIF
    orientation applied); a null QImage when it does not decode.  Runs on a pool thread:
    a QImage, unlike a QPixmap, may be made there."""
    image, _line = load_picture(path, side)
    return image if image is not None else QImage()


class ThumbnailLoader(QObject):
    """Thumbnails decoded off the GUI thread, newest request first, with a small cache.

    :meth:`image` answers from the cache at once (None while the thumbnail is being
    made, and asks for it); :attr:`loaded` says, on the GUI thread, that a key's
    thumbnail is ready (a null image: the picture does not decode, and it is not tried
    again)."""

    loaded = Signal(object)  # the key: (path, size, mtime_ns)
    _decoded = Signal(object, object)  # from a pool thread: key, QImage

    def __init__(self, side: int = SIDE, capacity: int = CAPACITY, parent=None):
        super().__init__(parent)
        self.side = side
        self.capacity = capacity
        self.decode = decode_thumbnail  # (path, side) -> QImage; tests replace it
        self._cache: OrderedDict[tuple, QImage] = OrderedDict()
        self._lock = threading.Lock()
        self._pending: deque[tuple] = deque()  # newest last
        self._asked: set[tuple] = set()  # pending or being decoded
        self._running = 0
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(THREADS)
        self._decoded.connect(self._store)  # queued: emitted on pool threads
        app = QCoreApplication.instance()
        if app is not None:  # quitting waits for the decode under way, not for the queue
            app.aboutToQuit.connect(self.clear)

    def image(self, key: tuple) -> QImage | None:
        """The thumbnail of ``key`` = (path, size, mtime_ns) if made, else None (and it is
        asked for)."""
        image = self._cache.get(key)
        if image is not None:
            self._cache.move_to_end(key)
            return image
        self.request(key)
        return None

    def request(self, key: tuple) -> None:
        """Ask for ``key``'s thumbnail, before those asked for earlier."""
        with self._lock:
            if key in self._asked:
                try:  # asked again (painted again): it goes first
                    self._pending.remove(key)
                except ValueError:
                    return  # being decoded now
            self._pending.append(key)
            self._asked.add(key)
            while len(self._pending) > MAX_PENDING:
                self._asked.discard(self._pending.popleft())
            start = self._running < THREADS
            if start:
                self._running += 1
        if start:
            self._pool.start(_Drain(self))

    def pending(self) -> int:
        """Thumbnails asked for and not yet made."""
        with self._lock:
            return len(self._asked)

    def clear(self) -> None:
        """Forget the thumbnails made and the requests not yet started."""
        with self._lock:
            for key in self._pending:
                self._asked.discard(key)
            self._pending.clear()
        self._cache.clear()

    def wait(self, msecs: int = -1) -> bool:
        """Wait for the pool threads (at exit, in tests)."""
        return self._pool.waitForDone(msecs)

    def _drain(self) -> None:
        """On a pool thread: decode the newest request until none is left."""
        while True:
            with self._lock:
                if not self._pending:
                    self._running -= 1
                    return
                key = self._pending.pop()
            try:
                image = self.decode(key[0], self.side)
            except Exception:  # a thumbnail is never worth a crash
                image = QImage()
            try:
                self._decoded.emit(key, image)
            except RuntimeError:  # the loader is gone (its view closed): stop
                with self._lock:
                    self._running -= 1
                return

    @Slot(object, object)
    def _store(self, key, image) -> None:
        with self._lock:
            self._asked.discard(key)
        self._cache[key] = image
        self._cache.move_to_end(key)
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        self.loaded.emit(key)


class _Drain(QRunnable):
    def __init__(self, loader: ThumbnailLoader):
        super().__init__()
        self._loader = loader

    def run(self) -> None:
        self._loader._drain()


class ThumbnailDelegate(QStyledItemDelegate):
    """Paints the Picture column of the groups tree from a :class:`ThumbnailLoader`:
    the row's picture (a group row: its reference's), centred; nothing for a file that
    is not a picture or does not decode, a faint box while it is being made."""

    def __init__(self, model, loader: ThumbnailLoader, parent=None):
        super().__init__(parent)
        self.model = model
        self.loader = loader

    def key_of(self, index) -> tuple | None:
        """(path, size, mtime_ns) of the picture a row shows, or None."""
        t = self.model.table
        if t is None or not index.isValid():
            return None
        f = self.model.file_of(index)
        if f < 0:
            g = self.model.group_of(index)
            if g < 0:
                return None
            f = int(t.rows[t.start[g]])
        path = t.files.paths[f]
        if not is_picture_path(path):
            return None
        return path, int(t.files.sizes[f]), int(t.files.mtimes_ns[f])

    def sizeHint(self, option, index) -> QSize:
        side = self.loader.side + 4
        return QSize(side, side)

    def paint(self, painter, option, index) -> None:
        super().paint(painter, option, index)  # background, selection
        key = self.key_of(index)
        if key is None:
            return
        image = self.loader.image(key)
        side = self.loader.side
        rect = option.rect
        if image is None:  # being made
            box = QRect(0, 0, side, side)
            box.moveCenter(rect.center())
            painter.save()
            painter.setPen(QColor(128, 128, 128, 90))
            painter.drawRect(box.adjusted(0, 0, -1, -1))
            painter.restore()
            return
        if image.isNull():
            return
        size = image.size().scaled(QSize(min(side, rect.width() - 2),
                                         min(side, rect.height() - 2)),
                                   Qt.AspectRatioMode.KeepAspectRatio)
        target = QRect(0, 0, size.width(), size.height())
        target.moveCenter(rect.center())
        painter.drawImage(target, image)
