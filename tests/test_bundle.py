"""The one-folder Linux bundle (PyInstaller): build it, then run it without Python.

Slow (a fresh build downloads ~300 MB of wheels and takes minutes) and needs
network access, so it only runs when asked:

    SIMGUI_TEST_BUNDLE=1 python -m pytest tests/test_bundle.py -s

or, on a bundle already built (CI builds it with ``make bundle`` first):

    SIMGUI_TEST_BUNDLE=built python -m pytest tests/test_bundle.py

It runs packaging/build.sh (venv in packaging/build/venv, bundle in
packaging/dist/simgui) and packaging/check_bundle.sh on the result.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGING = REPO / "packaging"
BUNDLE = PACKAGING / "dist" / "simgui"

BUILD_TIMEOUT = 3600  # seconds: a fresh venv downloads PySide6, numba, llvmlite, PyInstaller
CHECK_TIMEOUT = 1800  # the first start compiles the numba kernels
MAX_BUNDLE_MB = 450  # 347 MB when written (llvmlite alone 160 MB); more means something crept in


def _size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def _run(script: str, *args: str, timeout: int) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHON=sys.executable)
    try:
        return subprocess.run(["bash", str(PACKAGING / script), *args], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{script} did not finish within {timeout} s:\n{exc.stdout}\n{exc.stderr}")


@pytest.fixture(scope="module")
def bundle() -> Path:
    asked = os.environ.get("SIMGUI_TEST_BUNDLE")
    if asked == "built":
        assert (BUNDLE / "simgui").is_file(), f"no bundle at {BUNDLE}: run make bundle first"
        return BUNDLE
    if asked != "1":
        pytest.skip("builds the PyInstaller bundle (minutes, network); run with "
                    "SIMGUI_TEST_BUNDLE=1 python -m pytest tests/test_bundle.py -s "
                    "(CI tests the bundle it built: SIMGUI_TEST_BUNDLE=built)")
    started = time.monotonic()
    result = _run("build.sh", timeout=BUILD_TIMEOUT)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, f"build.sh failed:\n{result.stdout}\n{result.stderr[-6000:]}"
    assert (BUNDLE / "simgui").is_file() and os.access(BUNDLE / "simgui", os.X_OK)
    print(f"\nbundle built in {elapsed:.0f} s: {BUNDLE} is {_size_mb(BUNDLE):.0f} MB, "
          f"{sum(1 for p in BUNDLE.rglob('*') if p.is_file())} files")
    return BUNDLE


def test_bundle_holds_what_simgui_needs_and_not_more(bundle):
    internal = bundle / "_internal"
    files = {p.relative_to(internal).as_posix() for p in internal.rglob("*")}
    names = {name.rsplit("/", 1)[-1] for name in files}
    # numba's cache=True needs simgui's sources on disk
    for source in ("simgui/cli.py", "simgui/core/reading/sumtable.py",
                   "simgui/core/search/simfind.py",
                   "simgui/gui/app.py"):
        assert source in files, f"{source} is not in the bundle"
    for needed in ("libQt6Widgets.so.6", "libQt6OpenGL.so.6", "libQt6Svg.so.6", "libllvmlite.so",
                   "libqxcb.so", "libqwayland.so", "libqoffscreen.so"):
        assert needed in names, f"{needed} is not in the bundle"
    # heavy or unused parts, and libraries that must come from the user's system
    for unwanted in ("_tkinter", "matplotlib", "libQt6Qml.so.6", "libQt6Quick.so.6",
                     "libQt6Network.so.6", "libqgtk3.so", "libstdc++.so.6", "libgcc_s.so.1",
                     "libX11.so.6", "libfontconfig.so.1", "libglib-2.0.so.0"):
        assert not any(name.startswith(unwanted) for name in names), f"{unwanted} is in the bundle"
    assert _size_mb(bundle) < MAX_BUNDLE_MB


def test_bundle_runs_without_python(bundle):
    started = time.monotonic()
    result = _run("check_bundle.sh", str(bundle), timeout=CHECK_TIMEOUT)
    print(f"\n{result.stdout}{result.stderr}check_bundle.sh took {time.monotonic() - started:.0f} s")
    assert result.returncode == 0, f"check_bundle.sh failed:\n{result.stdout}\n{result.stderr}"
    assert "all checks passed" in result.stdout
