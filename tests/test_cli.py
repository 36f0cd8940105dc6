"""The command line, driven as users and scripts drive it."""

import json
import os
import subprocess
import sys

import pytest

from simgui import __version__
from simgui.cli import main
from simgui.core.search.keys import SKEW, UNIFORM
from tests.reference import reference_sum_table

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_bytes(b"the tee test " * 100)
    (root / "sub" / "b.bin").write_bytes(bytes(range(256)) * 10)
    return root


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_scan_then_stats_json(tree, tmp_path, capsys):
    db = str(tmp_path / "s.db")
    code, out, err = run(capsys, "scan", "--db", db, str(tree))
    assert code == 0 and out == "" and "Scanned 2 files" in err
    code, out, err = run(capsys, "stats", "--db", db, "--json")
    stats = json.loads(out)
    assert code == 0 and (stats["files"], stats["bytes"], stats["errors"]) == (2, 3860, 0)
    assert stats["last_scan"]["status"] == "completed"
    assert stats["last_scan"]["roots"] == [str(tree)]


def test_simgui_db_environment_variable_chooses_the_store(tree, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SIMGUI_DB", str(tmp_path / "env.db"))
    assert run(capsys, "scan", str(tree))[0] == 0
    assert (tmp_path / "env.db").exists()
    assert json.loads(run(capsys, "stats", "--json")[1])["files"] == 2


def test_inspect_json_gives_tables_and_keys(tree, capsys):
    path = tree / "a.txt"
    code, out, err = run(capsys, "inspect", "--json", str(path), str(tree / "sub" / "b.bin"))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 2
    first = lines[0]
    expected = reference_sum_table(path.read_bytes())
    assert first["path"] == str(path) and first["size"] == 1300
    assert first["sum_table"] == expected
    assert first["keys"]["uniform"] == pytest.approx(UNIFORM.key(expected))
    assert first["keys"]["skew"] == pytest.approx(SKEW.key(expected))


def test_inspect_reports_missing_files_and_goes_on(tree, capsys):
    code, out, err = run(capsys, "inspect", "--json", str(tree / "nope"), str(tree / "a.txt"))
    assert code == 1
    assert len(out.splitlines()) == 1
    assert err.strip() == f"simgui: {tree / 'nope'}: no such file"


def test_scan_of_missing_folder_is_a_one_line_error(tmp_path, capsys):
    code, out, err = run(capsys, "scan", "--db", str(tmp_path / "s.db"), str(tmp_path / "nope"))
    assert code == 2 and err.count("\n") == 1 and err.startswith("simgui: no such file or folder")


def test_corrupt_store_is_a_one_line_error(tmp_path, capsys):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"garbage" * 100)
    code, out, err = run(capsys, "stats", "--db", str(bad))
    assert code == 2 and err.count("\n") == 1 and "not a simgui store" in err


def test_unreadable_files_give_exit_code_1(tree, tmp_path, capsys, monkeypatch):
    from simgui.core.reading import scanner, small_files

    def deny(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(scanner.os, "open", deny)
    # the compiled reads of small files open with the C library, past the patch above
    monkeypatch.setattr(small_files, "_compiled", False)
    code, out, err = run(capsys, "scan", "--db", str(tmp_path / "s.db"), str(tree))
    assert code == 1 and "permission denied" in err


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"simgui {__version__}"
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0 and "scan" in out and "inspect" in out and "stats" in out


def test_no_command_opens_the_window(monkeypatch):
    opened = []
    monkeypatch.setattr("simgui.gui.app.main", lambda: opened.append(True) or 0)
    assert main([]) == 0 and opened == [True]


def test_no_screen_gives_a_clear_message_not_a_crash():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run([sys.executable, "-m", "simgui"], capture_output=True, text=True,
                            env={**env, "PYTHONPATH": REPO}, timeout=60)
    assert result.returncode == 2 and "No screen" in result.stderr


def test_installed_console_script_runs():
    # the same entry point the 'simgui' command uses, in a fresh interpreter
    result = subprocess.run([sys.executable, "-m", "simgui", "--version"], capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": REPO})
    assert result.returncode == 0 and result.stdout.startswith("simgui ")
