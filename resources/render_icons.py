"""Render resources/simgui.svg into the hicolor PNG sizes.

Run from the repository root with PySide6 installed (no screen needed):

    QT_QPA_PLATFORM=offscreen python resources/render_icons.py
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SVG = HERE / "simgui.svg"
ICONS = HERE / "icons" / "hicolor"
SIZES = (16, 32, 48, 64, 128, 256)


def main() -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"render_icons: {SVG} is not a valid SVG", file=sys.stderr)
        return 1
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        out = ICONS / f"{size}x{size}" / "apps" / "simgui.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not image.convertToFormat(QImage.Format.Format_ARGB32).save(str(out), "PNG"):
            print(f"render_icons: could not write {out}", file=sys.stderr)
            return 1
        print(out.relative_to(HERE.parent))
    scalable = ICONS / "scalable" / "apps" / "simgui.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SVG, scalable)
    print(scalable.relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
