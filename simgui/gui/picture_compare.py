"""Two pictures side by side: thumbnails with their dimensions, format and size, and a zoom.

The details panel shows this when the files it compares are pictures
(:func:`is_picture_path`), so the user sees that a re-saved or resized photo is
the same picture before marking it.  Pictures are decoded by Pillow (as the
scan does: JPEG draft mode, EXIF orientation applied) down to at most
:data:`LONGEST` pixels a side, which is what the zoom enlarges; the two views
scroll together, so the same part of both pictures stays in sight.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QGridLayout, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSlider, QWidget,
)

from simgui.core.reading.names import extension_of
from simgui.core.reading.pictures import PictureUnreadable, open_picture, picture_extensions
from simgui.core.shown import shown_path
from simgui.core.units import format_bytes

LONGEST = 1600  # the largest side decoded for viewing (zoom beyond enlarges that)
BOX = 220  # the side of each thumbnail at 100 %
ZOOMS = (50, 800)  # the zoom slider's range, percent


def is_picture_path(path: str) -> bool:
    """Whether the file is named as a picture the scan decodes."""
    return extension_of(path) in picture_extensions()


def load_picture(path: str, longest: int = LONGEST) -> tuple[QImage | None, str]:
    """The picture at ``path`` as a QImage of at most ``longest`` pixels a side, and a line
    about it ("4000 × 3000 · JPEG"); (None, why) when it does not decode."""
    from PIL import Image, ImageOps

    try:
        with open_picture(path, extension_of(path)) as img:
            fmt = img.format or ""
            full = img.size
            try:
                if img.getexif().get(0x0112, 1) in (5, 6, 7, 8):  # a quarter turn
                    full = (full[1], full[0])
            except Exception:
                pass  # a damaged EXIF block: shown as stored
            if img.format == "JPEG":
                img.draft("RGB", (longest, longest))
            img.load()
            shown = ImageOps.exif_transpose(img)
            shown.thumbnail((longest, longest), Image.Resampling.LANCZOS)
            rgba = shown.convert("RGBA")
            data = rgba.tobytes("raw", "RGBA")
            qimage = QImage(data, rgba.width, rgba.height, 4 * rgba.width,
                            QImage.Format.Format_RGBA8888).copy()  # own its pixels
    except PictureUnreadable as exc:
        return None, str(exc)
    return qimage, f"{full[0]} × {full[1]} · {fmt}"


class PictureCompare(QWidget):
    """One or two pictures side by side, each with its dimensions, format and size."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.images: list[QImage | None] = [None, None]
        self.views: list[QLabel] = []
        self.scrolls: list[QScrollArea] = []
        self.captions: list[QLabel] = []
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(12)
        for column in range(2):
            view = QLabel()
            view.setAlignment(Qt.AlignmentFlag.AlignCenter)
            scroll = QScrollArea()
            scroll.setWidget(view)
            scroll.setWidgetResizable(False)
            scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
            scroll.setMinimumSize(BOX + 8, BOX + 8)
            caption = QLabel()
            caption.setWordWrap(True)
            caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(scroll, 0, column)
            grid.addWidget(caption, 1, column)
            self.views.append(view)
            self.scrolls.append(scroll)
            self.captions.append(caption)
        # the two views scroll together
        for bar in ("horizontalScrollBar", "verticalScrollBar"):
            a, b = (getattr(s, bar)() for s in self.scrolls)
            a.valueChanged.connect(b.setValue)
            b.valueChanged.connect(a.setValue)

        self.zoom = QSlider(Qt.Orientation.Horizontal)
        self.zoom.setRange(*ZOOMS)
        self.zoom.setValue(100)
        self.zoom.setToolTip(self.tr("Zoom both pictures (100 %: each fits a thumbnail)"))
        self.zoom.valueChanged.connect(self._render)
        self.zoom_label = QLabel()
        self.zoom_label.setMinimumWidth(48)
        fit = QPushButton(self.tr("Fit"))
        fit.setToolTip(self.tr("Back to thumbnails"))
        fit.clicked.connect(lambda: self.zoom.setValue(100))
        zoom_row = QHBoxLayout()
        zoom_row.addWidget(QLabel(self.tr("Zoom")))
        zoom_row.addWidget(self.zoom, 1)
        zoom_row.addWidget(self.zoom_label)
        zoom_row.addWidget(fit)

        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid, 0, 0)
        layout.addLayout(zoom_row, 1, 0)

    def show_pictures(self, files: list[tuple[str, int]]) -> None:
        """Show the pictures of one or two files, given as (path, size in bytes)."""
        files = list(files)[:2]
        for column in range(2):
            shown = column < len(files)
            self.scrolls[column].setVisible(shown)
            self.captions[column].setVisible(shown)
            if not shown:
                self.images[column] = None
                continue
            path, size = files[column]
            image, line = load_picture(path)
            self.images[column] = image
            name = shown_path(os.path.basename(path) or path)
            letter = "AB"[column] + ": " if len(files) == 2 else ""
            self.captions[column].setText(f"<b>{letter}{_escape(name)}</b><br>{_escape(line)}"
                                          f" · {format_bytes(size)}")
            self.captions[column].setToolTip(path)
            if image is None:
                self.views[column].setPixmap(QPixmap())
                self.views[column].setText(self.tr("(no preview)"))
                self.views[column].adjustSize()
        self._render()

    def _render(self) -> None:
        percent = self.zoom.value()
        self.zoom_label.setText(f"{percent} %")
        side = BOX * percent / 100
        for image, view in zip(self.images, self.views):
            if image is None:
                continue
            scale = side / max(image.width(), image.height())
            w, h = max(1, round(image.width() * scale)), max(1, round(image.height() * scale))
            pixmap = QPixmap.fromImage(image.scaled(
                w, h, Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation))
            view.setText("")
            view.setPixmap(pixmap)
            view.resize(pixmap.size())


def _escape(text: str) -> str:
    """Text for a rich-text label (a file name may hold < and &, or undecodable bytes)."""
    from html import escape

    return escape(text.encode("utf-8", "replace").decode("utf-8"))
