"""`simgui groups` and `simgui pairs` print a readable table on a terminal (and what
scripts read everywhere else), and `simgui remove --dry-run` lists every file with what
would happen to it (issue 27)."""

import csv
import io
import json
import os
import sys

from simgui.cli import main
from tests.test_bytes_paths import BAD, LATIN, odd_tree  # noqa: F401  (fixture)
from tests.test_cli_search import home, run, scanned  # noqa: F401  (fixtures)


def on_a_terminal(monkeypatch):
    """stdout says it is a terminal, as when a user types the command."""
    monkeypatch.setattr(type(sys.stdout), "isatty", lambda self: True, raising=False)


def test_groups_on_a_terminal_is_a_table(scanned, capsys, monkeypatch):
    root, db = scanned
    on_a_terminal(monkeypatch)
    code, out, _ = run(capsys, "groups", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["group", "match", "size", "file"]
    ref = next(line for line in lines if "reference" in line)
    assert ref.split()[0] == "1"
    copy = next(line for line in lines if line.endswith("copy.bin"))
    assert "identical" in copy
    edited = next(line for line in lines if line.endswith("edited.bin"))
    assert "similar" in edited and "%" in edited
    assert "other.bin" not in out
    assert lines[-1].startswith("1 group, 3 files")


def test_pairs_on_a_terminal_is_a_table(scanned, capsys, monkeypatch):
    root, db = scanned
    on_a_terminal(monkeypatch)
    code, out, _ = run(capsys, "pairs", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["pair", "match", "size", "file"]
    assert lines[1].split()[0] == "1"  # each pair numbered on its first line ...
    assert not lines[2].split()[0].isdigit()  # ... its second file under it
    assert lines[-1] == "3 pairs"
    assert "identical" in out and "similar" in out


def test_piped_output_and_format_stay_as_scripts_read_them(scanned, capsys, monkeypatch):
    root, db = scanned
    code, out, _ = run(capsys, "pairs", "--db", db)  # capsys: not a terminal
    assert {"path_a", "path_b"} <= set(next(csv.DictReader(io.StringIO(out))))
    code, out, _ = run(capsys, "groups", "--db", db)
    assert json.loads(out)[0]["files"][0]["role"] == "reference"
    on_a_terminal(monkeypatch)
    code, out, _ = run(capsys, "groups", "--db", db, "--format", "csv")
    assert next(csv.DictReader(io.StringIO(out)))["role"] == "reference"
    code, out, _ = run(capsys, "pairs", "--db", db, "--format", "json")
    assert "path_a" in json.loads(out.splitlines()[0])


def test_remove_dry_run_lists_every_file_and_its_fate(scanned, home, capsys):
    root, db = scanned
    code, out, _ = run(capsys, "remove", "--db", db, "--dry-run")
    assert code == 0
    lines = out.splitlines()
    assert f"Group 1: keep {root / 'orig.bin'}" in lines
    assert any(line.split()[:2] == ["keep", str(root / "orig.bin")] for line in lines)
    trash = next(line for line in lines if line.endswith("copy.bin"))
    assert trash.split()[:2] == ["trash", "identical"]
    leave = next(line for line in lines if line.endswith("edited.bin"))
    assert leave.split()[:2] == ["leave", "similar"] and "%" in leave
    assert lines[-1] == "Dry run: nothing was changed."
    assert (root / "sub" / "copy.bin").exists()
    code, out, _ = run(capsys, "remove", "--db", db, "--dry-run", "--include-similar",
                       "--move-to", str(root.parent / "moved"))
    moved = next(line for line in out.splitlines() if "edited.bin  ->" in line)
    assert moved.split()[:2] == ["move", "similar"]
    assert str(root.parent / "moved") in moved


def test_tables_print_names_that_are_not_utf8_as_their_bytes(odd_tree, home, tmp_path,
                                                             capsysbinary, monkeypatch):
    root, files = odd_tree
    db = str(tmp_path / "odd.db")
    assert main(["scan", "-q", "--db", db, os.fsdecode(root)]) == 0
    capsysbinary.readouterr()
    for command in (["groups", "--format", "table"], ["pairs", "--format", "table"],
                    ["remove", "--dry-run"]):
        assert main([*command, "--db", db]) == 0
        out = capsysbinary.readouterr().out
        assert BAD in out and LATIN in out, command
