"""The user guide, shipped inside the package and shown rendered in the app (F1).

A wheel carries ``simgui/docs/user-guide.md`` (setup.py copies ``docs/`` into the
build); a source checkout reads ``docs/user-guide.md`` itself.  No browser or
file handler is needed: the guide opens in a :class:`QTextBrowser`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextCursor, QTextImageFormat
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

_PACKAGED = Path(__file__).resolve().parents[1] / "docs" / "user-guide.md"
_CHECKOUT = Path(__file__).resolve().parents[2] / "docs" / "user-guide.md"


def guide_path() -> Path | None:
    """Where the guide is: the packaged copy first, then a source checkout's."""
    for path in (_PACKAGED, _CHECKOUT):
        if path.is_file():
            return path
    return None


class GuideViewer(QDialog):
    """The guide rendered from Markdown, its pictures and links to other pages included."""

    def __init__(self, parent: QWidget | None = None, path: Path | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("simgui User Guide"))
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        path = path if path is not None else guide_path()
        if path is None:
            self.browser.setMarkdown(self.tr(
                "# The user guide is missing\n\nThis installation has no copy of the guide; "
                "it is online at <https://github.com/simgui/simgui/blob/main/docs/user-guide.md>."))
        else:
            self.browser.setSearchPaths([str(path.parent)])
            self.browser.setSource(QUrl.fromLocalFile(str(path)))
            _fit_images(self.browser, 720)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.resize(820, 700)


def _fit_images(browser: QTextBrowser, width: int) -> None:
    """Scale the guide's screenshots down to ``width`` pixels, so the page needs no
    sideways scrolling."""
    document = browser.document()
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                image = fmt.toImageFormat()
                picture = document.resource(2, QUrl(image.name()))  # ImageResource
                natural = picture.width() if picture is not None and hasattr(picture, "width") \
                    else 0
                if natural > width:
                    scaled = QTextImageFormat(image)
                    scaled.setWidth(width)
                    scaled.setHeight(picture.height() * width / natural)
                    cursor = QTextCursor(document)
                    cursor.setPosition(fragment.position())
                    cursor.setPosition(fragment.position() + fragment.length(),
                                       QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(scaled)
            it += 1
        block = block.next()
