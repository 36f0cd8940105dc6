"""Opening files and folders with the system's applications, and saying when that fails.

A path is a str that may hold surrogate escapes (file names that are not UTF-8).
``QUrl.fromLocalFile`` would encode such a str as the escapes' own code points,
naming a file that does not exist; :func:`url_for_path` percent-encodes the
path's real bytes (``os.fsencode``), so the application opens the right file.
"""

from __future__ import annotations

import os
import urllib.parse

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from simgui.core.shown import shown_path


def url_for_path(path: str) -> QUrl:
    """A file:// URL naming exactly the bytes of ``path`` (absolute)."""
    raw = os.fsencode(os.path.abspath(path))
    return QUrl.fromEncoded(b"file://" + urllib.parse.quote_from_bytes(raw, safe="/").encode())


def open_path(path: str, parent: QWidget | None = None, what: str = "file") -> bool:
    """Open ``path`` with the system's application for it; when there is none (or it
    fails), say so in a message box instead of doing nothing.  True if it opened."""
    if QDesktopServices.openUrl(url_for_path(path)):
        return True
    shown = shown_path(path)
    if what == "folder":
        text = QCoreApplication.translate(
            "opening", "Cannot open this folder: no application on this system opens it.")
    else:
        text = QCoreApplication.translate(
            "opening", "Cannot open this file: no application on this system opens it.")
    box = QMessageBox(QMessageBox.Icon.Warning,
                      QCoreApplication.translate("opening", "Cannot open"), text,
                      QMessageBox.StandardButton.Ok, parent)
    box.setInformativeText(shown)
    box.setModal(False)
    box.show()
    if parent is not None:
        parent.open_failed_box = box  # tests find it here
    return False
