"""Desktop integration files: the icon, the .desktop entry and the AppStream metainfo.

The validators are Debian's ``desktop-file-validate`` (desktop-file-utils) and
``appstreamcli`` (appstream); ``.ci/install-system-tools`` installs them.  A test
that needs one is skipped, saying which package to install, only when it is absent.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import simgui

ROOT = Path(__file__).resolve().parents[1]
RESOURCES = ROOT / "resources"
DESKTOP = RESOURCES / "simgui.desktop"
METAINFO = RESOURCES / "io.github.simgui.simgui.metainfo.xml"
SVG = RESOURCES / "simgui.svg"
ICONS = RESOURCES / "icons" / "hicolor"
SIZES = (16, 32, 48, 64, 128, 256)


def _validator(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian/Ubuntu package {package}; "
                    f"run .ci/install-system-tools as root)")
    return path


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive in desktop entries
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def _metainfo() -> ET.Element:
    return ET.parse(METAINFO).getroot()


# -- validators -----------------------------------------------------------------------


def test_desktop_file_validates():
    tool = _validator("desktop-file-validate", "desktop-file-utils")
    result = subprocess.run([tool, str(DESKTOP)], capture_output=True, text=True)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # hints are advice; errors and warnings are not accepted
    assert not [line for line in output.splitlines()
                if "error:" in line or "warning:" in line], output


def test_metainfo_validates():
    tool = _validator("appstreamcli", "appstream")
    result = subprocess.run([tool, "validate", "--no-net", str(METAINFO)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


# -- icons ------------------------------------------------------------------------------


def test_svg_icon_is_valid(qapp):
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    assert renderer.isValid()
    box = renderer.viewBoxF()
    assert (box.x(), box.y(), box.width(), box.height()) == (0, 0, 128, 128)


def test_scalable_icon_is_the_svg():
    scalable = ICONS / "scalable" / "apps" / "simgui.svg"
    assert scalable.read_bytes() == SVG.read_bytes(), \
        "resources/icons/hicolor/scalable/apps/simgui.svg differs from resources/simgui.svg; " \
        "run: QT_QPA_PLATFORM=offscreen python resources/render_icons.py"


@pytest.mark.parametrize("size", SIZES)
def test_png_icon_has_its_size(qapp, size):
    from PySide6.QtGui import QImage

    path = ICONS / f"{size}x{size}" / "apps" / "simgui.png"
    assert path.is_file(), f"{path} is missing; run resources/render_icons.py"
    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable PNG"
    assert (image.width(), image.height()) == (size, size)
    assert image.hasAlphaChannel()
    # transparent corners, something drawn in the middle
    assert image.pixelColor(0, 0).alpha() == 0
    assert image.pixelColor(size // 2, size // 2).alpha() == 255


# -- the desktop entry matches the package --------------------------------------------


def test_desktop_entry_runs_the_console_script():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    command = _desktop_entry()["Exec"].split()[0]
    assert command in scripts, f"Exec={command} is not a [project.scripts] entry: {scripts}"
    # the console script opens the window when it is given no command
    assert scripts[command] == "simgui.cli:main"
    assert _desktop_entry()["Exec"].strip() == command, "the app takes no file arguments"


def test_desktop_entry_icon_matches_the_icon_files():
    icon = _desktop_entry()["Icon"]
    assert "/" not in icon and not icon.endswith((".png", ".svg")), \
        "Icon must be a theme name, found in the hicolor folders"
    for size in SIZES:
        assert (ICONS / f"{size}x{size}" / "apps" / f"{icon}.png").is_file()
    assert (ICONS / "scalable" / "apps" / f"{icon}.svg").is_file()


def test_desktop_entry_fields():
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Terminal"] == "false"
    # Qt sets the window's class and Wayland app id from the desktop file name
    assert entry["StartupWMClass"] == DESKTOP.stem


# -- the metainfo matches the desktop entry and the package ---------------------------


def test_metainfo_launches_the_desktop_entry():
    root = _metainfo()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == METAINFO.name.removesuffix(".metainfo.xml")
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name
    binaries = [b.text for b in root.iter("binary")]
    assert _desktop_entry()["Exec"].split()[0] in binaries


def test_metainfo_release_is_the_package_version():
    releases = _metainfo().find("releases")
    assert releases is not None
    newest = releases.find("release")
    assert newest is not None and newest.get("version") == simgui.__version__


def test_metainfo_screenshots_exist_in_the_repository():
    urls = [image.text for image in _metainfo().iter("image")]
    assert urls
    prefix = "https://github.com/simgui/simgui/raw/main/"
    for url in urls:
        assert url.startswith(prefix), url
        assert (ROOT / url.removeprefix(prefix)).is_file(), f"{url}: no such file in the repo"
