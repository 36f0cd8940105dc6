"""The system check installs Qt's missing libraries when it can, and says how when not."""

from __future__ import annotations

import subprocess

import pytest

from simgui.gui import syscheck


@pytest.fixture
def missing(monkeypatch):
    """libxcb-cursor is missing until apt-get has run."""
    state = {"installed": False, "commands": []}

    def missing_libraries(qt_platform):
        return {} if state["installed"] else {"libxcb-cursor.so.0": "libxcb-cursor0"}

    def run(command, **kwargs):
        state["commands"].append(command)
        if "install" in command:
            state["installed"] = True
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(syscheck, "missing_libraries", missing_libraries)
    monkeypatch.setattr(syscheck.subprocess, "run", run)
    monkeypatch.setattr(syscheck.sys, "platform", "linux")
    monkeypatch.setattr(syscheck.shutil, "which", lambda name: f"/usr/bin/{name}")
    return state


def test_as_root_the_missing_packages_are_installed_and_said(missing, monkeypatch, capsys):
    monkeypatch.setattr(syscheck.os, "geteuid", lambda: 0)
    assert syscheck.main(["--offscreen", "--install"]) == 0
    assert missing["commands"] == [["apt-get", "install", "-y", "--no-install-recommends",
                                    "libxcb-cursor0"]]
    err = capsys.readouterr().err
    assert "installing libxcb-cursor0" in err and "libxcb-cursor.so.0" in err


def test_a_user_goes_through_sudo(missing, monkeypatch):
    monkeypatch.setattr(syscheck.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(syscheck.sys.stdin, "isatty", lambda: True, raising=False)
    assert syscheck.main(["--offscreen", "--install"]) == 0
    assert missing["commands"][-1][:2] == ["sudo", "apt-get"]


def test_without_root_or_sudo_it_stops_with_the_exact_command(missing, monkeypatch, capsys):
    monkeypatch.setattr(syscheck.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(syscheck.shutil, "which",
                        lambda name: None if name == "sudo" else f"/usr/bin/{name}")
    assert syscheck.main(["--offscreen", "--install"]) == 1
    assert missing["commands"] == []
    assert "sudo apt-get install libxcb-cursor0" in capsys.readouterr().err


def test_stale_package_lists_are_refreshed_once(missing, monkeypatch):
    monkeypatch.setattr(syscheck.os, "geteuid", lambda: 0)
    calls = missing["commands"]

    def run(command, **kwargs):
        calls.append(command)
        if "install" in command and len(calls) == 1:
            return subprocess.CompletedProcess(command, 100)  # E: Unable to locate package
        if "install" in command:
            missing["installed"] = True
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(syscheck.subprocess, "run", run)
    assert syscheck.main(["--offscreen", "--install"]) == 0
    assert [c[1] for c in calls] == ["install", "update", "install"]
