"""The command line's exit codes at its edges: Ctrl-C gives 130, a reader that stops
reading (``simgui groups | head -1``) is no error, and neither prints a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from simgui.cli import main


@pytest.fixture
def stored(tmp_path):
    """A store of 400 pairs of copies: more output than a pipe buffer holds."""
    tree = tmp_path / "t"
    tree.mkdir()
    for i in range(400):
        for copy in "ab":
            (tree / f"{copy}{i:03d}-with-a-long-name-to-fill-the-pipe.txt").write_text(
                f"file number {i} " * 8)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(tree)]) == 0
    return db


@pytest.mark.parametrize("command", [["groups", "--format", "csv"], ["groups"], ["pairs"]])
def test_a_reader_that_stops_early_is_not_an_error(stored, command):
    proc = subprocess.Popen([sys.executable, "-m", "simgui", *command, "--db", stored],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()  # like `head -1`: one line, then the pipe is closed
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert first and err == ""


def test_ctrl_c_gives_130_and_one_line(stored, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    from simgui.core.search import analysis

    monkeypatch.setattr(analysis, "find_group_table", interrupted)  # what groups asks
    assert main(["groups", "--db", stored]) == 130
    out, err = capsys.readouterr()
    assert err == "simgui: interrupted\n"


def test_ctrl_c_during_a_scan_gives_130_and_keeps_what_was_read(tmp_path):
    # a real SIGINT into a real scan: the scanner stops cleanly, the store stays usable
    tree = tmp_path / "t"
    tree.mkdir()
    for i in range(3000):
        (tree / f"{i}.bin").write_bytes(os.urandom(2048))
    db = str(tmp_path / "s.db")
    proc = subprocess.Popen([sys.executable, "-m", "simgui", "scan", "--db", db, str(tree)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # wait for the first progress line on stderr: reading has begun
    first = proc.stderr.readline()
    proc.send_signal(2)
    rest = proc.stderr.read()
    code = proc.wait(timeout=120)
    assert "Traceback" not in first + rest
    if code == 0:
        pytest.skip("the scan finished before the signal arrived")  # (a very fast machine)
    assert code == 130, first + rest
    assert main(["stats", "--db", db]) == 0  # the store is consistent


@pytest.mark.parametrize("command", [["journal"], ["stats"], ["groups"], ["undo"],
                                     ["ignore", "list"], ["ignore", "clear"],
                                     ["ignore", "add", "/a", "/b"]])
def test_a_reading_command_before_any_scan_makes_no_store(command, tmp_path, capsys,
                                                           monkeypatch):
    default = tmp_path / "data" / "simgui" / "simgui.sqlite3"
    monkeypatch.setenv("SIMGUI_DB", str(default))
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.startswith("simgui: no store yet at") and len(err.splitlines()) == 1
    assert "simgui scan FOLDER" in err
    assert not default.exists() and not default.parent.exists()
    # the first scan makes it
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a").write_text("a")
    assert main(["scan", "-q", str(folder)]) == 0 and default.exists()
