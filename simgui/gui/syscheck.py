"""Before Qt loads: is there a screen, and are the system libraries Qt needs installed?

Qt's own error for a missing library is a crash with a long plugin message;
this says which Debian/Ubuntu package to install instead, and with ``--install``
installs them (as root, or through sudo), saying what and why, so that ``make run``
and ``make test`` set up a fresh machine themselves.  Run as
``python -m simgui.gui.syscheck [--offscreen] [--install]`` (the Makefile does).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys

#: library -> Debian/Ubuntu package, for every Qt platform
_GUI_LIBRARIES = {
    "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1", "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6", "libxkbcommon.so.0": "libxkbcommon0",
    "libdbus-1.so.3": "libdbus-1-3", "libglib-2.0.so.0": "libglib2.0-0",
    "libX11.so.6": "libx11-6",
}
#: and for a window on X11 (Qt's xcb platform)
_XCB_LIBRARIES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-icccm.so.4": "libxcb-icccm4", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1", "libX11-xcb.so.1": "libx11-xcb1",
}


def platform() -> str:
    """The Qt platform the app will use: QT_QPA_PLATFORM, else wayland or xcb by session."""
    chosen = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0]
    if chosen:
        return chosen
    if sys.platform != "linux":
        return "native"
    if os.environ.get("WAYLAND_DISPLAY"):
        return "wayland"
    if os.environ.get("DISPLAY"):
        return "xcb"
    return ""


def missing_libraries(qt_platform: str) -> dict[str, str]:
    if sys.platform != "linux":
        return {}
    wanted = dict(_GUI_LIBRARIES)
    if qt_platform == "xcb":
        wanted.update(_XCB_LIBRARIES)
    missing = {}
    for library, package in wanted.items():
        try:
            ctypes.CDLL(library)
        except OSError:
            missing[library] = package
    return missing


def problems(qt_platform: str | None = None) -> list[str]:
    """What stops the window from opening, each with what to do; empty if nothing."""
    qt_platform = platform() if qt_platform is None else qt_platform
    found = []
    if not qt_platform:
        found.append("No screen: neither DISPLAY nor WAYLAND_DISPLAY is set. simgui is a "
                     "desktop application; start it from a desktop session (or use the "
                     "command line: simgui --help).")
        qt_platform = "offscreen"
    missing = missing_libraries(qt_platform)
    if missing:
        packages = " ".join(sorted(set(missing.values())))
        found.append(f"Qt needs system libraries that are not installed: "
                     f"{', '.join(sorted(missing))}.\n"
                     f"On Debian or Ubuntu: sudo apt-get install {packages}")
    return found


def install_command(packages: list[str]) -> list[str] | None:
    """The command that installs ``packages`` here without a question, or None: apt-get as
    root, else through sudo (which may ask for the password on a terminal)."""
    if not packages or sys.platform != "linux" or shutil.which("apt-get") is None:
        return None
    command = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
    if os.geteuid() == 0:
        return command
    if shutil.which("sudo") is None:
        return None
    if sys.stdin.isatty() or subprocess.run(["sudo", "-n", "true"], capture_output=True,
                                            check=False).returncode == 0:
        return ["sudo", *command]
    return None


def install_missing(qt_platform: str) -> bool:
    """Install the Debian/Ubuntu packages of the missing libraries; True when none is
    missing afterwards.  Says what it installs and why, and on failure the command."""
    missing = missing_libraries(qt_platform)
    if not missing:
        return True
    packages = sorted(set(missing.values()))
    command = install_command(packages)
    if command is None:
        return False
    print(f"simgui: Qt needs system libraries that are not installed "
          f"({', '.join(sorted(missing))}); installing {' '.join(packages)}: "
          f"{' '.join(command)}", file=sys.stderr)
    update = [*command[:command.index("apt-get")], "apt-get", "update", "-qq"]
    if subprocess.run(command, check=False).returncode != 0:
        # a fresh machine may have no package lists yet: fetch them once, try again
        subprocess.run(update, check=False)
        subprocess.run(command, check=False)
    return not missing_libraries(qt_platform)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    qt_platform = "offscreen" if "--offscreen" in argv else None
    if "--install" in argv:
        install_missing(qt_platform or platform() or "offscreen")
    found = problems(qt_platform)
    for problem in found:
        print(f"simgui: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
