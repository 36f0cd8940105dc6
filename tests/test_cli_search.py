"""pairs, groups, similar, remove, undo and journal on the command line."""

import csv
import io
import json
import re
import os

import numpy as np
import pytest

from simgui.cli import main


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A throwaway home and trash, so clean-up tests never touch the real ones."""
    home = tmp_path / "home"
    (home / ".local" / "share").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    return home


@pytest.fixture
def scanned(tmp_path, capsys):
    rng = np.random.default_rng(11)
    base = rng.bytes(50_000)
    edited = bytearray(base)
    edited[1000:1010] = b"0123456789"
    root = tmp_path / "files"
    (root / "sub").mkdir(parents=True)
    (root / "orig.bin").write_bytes(base)
    (root / "sub" / "copy.bin").write_bytes(base)
    (root / "edited.bin").write_bytes(bytes(edited))
    (root / "other.bin").write_bytes(rng.bytes(50_000))
    os.utime(root / "orig.bin", ns=(1, 10**9))  # the oldest: kept by default
    db = str(tmp_path / "s.db")
    assert main(["scan", "-q", "--db", db, str(root)]) == 0
    capsys.readouterr()
    return root, db


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_pairs_csv_marks_identical_and_similar(scanned, capsys):
    root, db = scanned
    code, out, _ = run(capsys, "pairs", "--db", db)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0
    assert set(rows[0]) >= {"path_a", "path_b", "identical", "key_distance", "sum_distance",
                            "similarity"}
    found = {frozenset((os.path.basename(r["path_a"]), os.path.basename(r["path_b"]))): r
             for r in rows}
    assert found[frozenset(("copy.bin", "orig.bin"))]["identical"] == "True"
    assert not any("other.bin" in k for k in found)
    edited = [r for k, r in found.items() if "edited.bin" in k]
    assert edited and all(r["identical"] == "False" and 99 < float(r["similarity"]) < 100
                          for r in edited)


def test_groups_json_and_similar(scanned, capsys):
    root, db = scanned
    code, out, _ = run(capsys, "groups", "--db", db)
    groups = json.loads(out)
    assert code == 0 and len(groups) == 1
    files = groups[0]["files"]
    assert files[0]["role"] == "reference" and files[0]["path"] == str(root / "orig.bin")
    assert sorted(os.path.basename(f["path"]) for f in files[1:]) == ["copy.bin", "edited.bin"]
    # identical: a copy of the reference, which the reference is not
    assert {os.path.basename(f["path"]): f["identical"] for f in files} == {
        "orig.bin": False, "copy.bin": True, "edited.bin": False}
    code, out, _ = run(capsys, "similar", "--db", db, "--format", "json", str(root / "orig.bin"))
    ranked = [json.loads(line) for line in out.splitlines()]
    assert [os.path.basename(r["path"]) for r in ranked] == ["copy.bin", "edited.bin"]
    assert ranked[0]["identical"] and not ranked[1]["identical"]


def test_tight_tolerance_keeps_only_identical(scanned, capsys):
    root, db = scanned
    code, out, _ = run(capsys, "groups", "--db", db, "--sum-tolerance", "0.001")
    (group,) = json.loads(out)
    assert [os.path.basename(f["path"]) for f in group["files"]] == ["orig.bin", "copy.bin"]


def test_remove_dry_run_changes_nothing(scanned, capsys):
    root, db = scanned
    before = sorted(p.name for p in root.rglob("*"))
    code, out, _ = run(capsys, "remove", "--db", db, "--dry-run")
    # identical copies only, unless asked: the edited file is named as left alone
    assert code == 0 and "Send 1 file" in out and "1 file only similar" in out
    code, out, _ = run(capsys, "remove", "--db", db, "--dry-run", "--include-similar")
    assert code == 0 and "Send 2 files" in out
    # the similar file is listed with its similarity before anything happens
    assert re.search(r"\d+\.\d %\s+\S*edited\.bin", out), out
    assert sorted(p.name for p in root.rglob("*")) == before


def test_remove_without_yes_refuses_when_not_interactive(scanned, capsys, monkeypatch):
    root, db = scanned
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(capsys, "remove", "--db", db)
    assert code == 2 and "--yes" in err
    assert (root / "sub" / "copy.bin").exists()


def test_trash_identical_then_undo(scanned, capsys, home):
    root, db = scanned
    code, out, _ = run(capsys, "remove", "--db", db, "--identical-only", "--yes")
    assert code == 0, out
    assert not (root / "sub" / "copy.bin").exists()
    assert (root / "orig.bin").exists() and (root / "edited.bin").exists()
    trashed = list((home / ".local/share/Trash/files").iterdir())
    assert [p.read_bytes() == (root / "orig.bin").read_bytes() for p in trashed] == [True]
    # the store no longer lists what left: groups show what is on disk
    code, out, _ = run(capsys, "groups", "--db", db)
    listed = {os.path.basename(f["path"]) for g in json.loads(out) for f in g["files"]}
    assert listed == {"orig.bin", "edited.bin"}
    code, out, _ = run(capsys, "journal", "--db", db, "--json")
    (batch,) = [json.loads(line) for line in out.splitlines()]
    assert batch["action"] == "trash" and batch["counts"] == {"done": 1}
    code, out, _ = run(capsys, "undo", "--db", db)
    assert code == 0, out
    assert (root / "sub" / "copy.bin").read_bytes() == (root / "orig.bin").read_bytes()


def test_move_keeps_relative_paths(scanned, capsys, tmp_path):
    root, db = scanned
    target = tmp_path / "moved"
    code, out, _ = run(capsys, "remove", "--db", db, "--move-to", str(target), "--yes",
                       "--include-similar")
    assert code == 0, out
    moved = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    assert moved == ["edited.bin", os.path.join("sub", "copy.bin")]
    assert (root / "orig.bin").exists() and (root / "other.bin").exists()


def test_move_keeps_paths_below_each_scanned_folder(scanned, capsys, tmp_path):
    root, db = scanned
    second = tmp_path / "second"
    (second / "deep").mkdir(parents=True)
    (second / "deep" / "orig-again.bin").write_bytes((root / "orig.bin").read_bytes())
    assert main(["scan", "-q", "--db", db, str(second)]) == 0  # the last scan: only second
    target = tmp_path / "moved"
    code, out, _ = run(capsys, "remove", "--db", db, "--identical-only", "--move-to",
                       str(target), "--yes")
    assert code == 0, out
    moved = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    assert moved == [os.path.join("deep", "orig-again.bin"), os.path.join("sub", "copy.bin")]


def test_move_to_is_checked_before_anything_moves(scanned, capsys, tmp_path):
    root, db = scanned
    a_file = tmp_path / "not-a-folder"
    a_file.write_bytes(b"x")
    for target in (a_file, a_file / "below"):
        code, out, err = run(capsys, "remove", "--db", db, "--move-to", str(target), "--yes")
        assert code == 2 and f"{a_file} is not a folder" in err and not out
    assert (root / "sub" / "copy.bin").exists() and (root / "edited.bin").exists()
    code, out, err = run(capsys, "remove", "--db", db, "--move-to", str(root / "dupes"),
                         "--dry-run")
    assert code == 0 and "inside the scanned folder" in err
    # named through a link that leads into the scanned folder: inside it all the same
    (tmp_path / "link").symlink_to(root / "sub")
    code, out, err = run(capsys, "remove", "--db", db, "--move-to", str(tmp_path / "link"),
                         "--dry-run")
    assert code == 0 and f"inside the scanned folder {root}" in err


def test_reference_folder_is_never_touched(scanned, capsys):
    root, db = scanned
    code, out, _ = run(capsys, "remove", "--db", db, "--reference", str(root / "sub"),
                       "--delete", "--identical-only", "--yes")
    assert code == 0, out
    assert (root / "sub" / "copy.bin").exists()  # protected, so it is the copy kept
    assert not (root / "orig.bin").exists()


def test_reference_through_a_link_protects_the_same_files(scanned, capsys, tmp_path):
    root, db = scanned
    link = tmp_path / "link-to-sub"
    link.symlink_to(root / "sub")
    code, out, _ = run(capsys, "remove", "--db", db, "--reference", str(link),
                       "--delete", "--identical-only", "--yes")
    assert code == 0, out
    assert (root / "sub" / "copy.bin").exists()
    assert not (root / "orig.bin").exists()


def test_reference_through_a_link_is_preferred_as_the_groups_reference(scanned, capsys,
                                                                      tmp_path):
    root, db = scanned
    link = tmp_path / "link-to-sub"
    link.symlink_to(root / "sub")
    code, out, _ = run(capsys, "groups", "--db", db, "--reference", str(link))
    (group,) = json.loads(out)
    assert code == 0 and group["files"][0]["path"] == str(root / "sub" / "copy.bin")


@pytest.mark.parametrize("where, message", [
    ("missing", "no such folder"),
    ("elsewhere", "no stored file is in it, so it would protect nothing"),
])
def test_a_reference_that_protects_nothing_is_refused(scanned, capsys, tmp_path, where,
                                                      message):
    root, db = scanned
    folder = tmp_path / where
    if where == "elsewhere":
        folder.mkdir()
    code, out, err = run(capsys, "remove", "--db", db, "--reference", str(folder), "--yes")
    assert code == 2 and message in err and not out
    assert sorted(p.name for p in root.rglob("*.bin")) == [
        "copy.bin", "edited.bin", "orig.bin", "other.bin"]
    # groups only prefers reference files: an empty one is worth a warning, not an error
    if where == "elsewhere":
        code, out, err = run(capsys, "groups", "--db", db, "--reference", str(folder))
        assert code == 0 and "no stored file is in it" in err and json.loads(out)


def test_remove_leaves_empty_files_alone(tmp_path, capsys):
    root = tmp_path / "proj"
    for name in ("pkg/__init__.py", "pkg/a/__init__.py", "logs/.gitkeep"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"")
    db = str(tmp_path / "s.db")
    assert main(["scan", "-q", "--db", db, str(root)]) == 0
    code, out, _ = run(capsys, "remove", "--db", db, "--delete", "--yes")
    assert code == 0 and "Nothing to do." in out
    assert "2 other files of these groups are left alone" in out
    assert "2 of them are empty files" in out
    assert "--include-similar" not in out  # none of them is only similar
    assert all((root / name).exists() for name in ("pkg/__init__.py", "pkg/a/__init__.py",
                                                   "logs/.gitkeep"))


def test_read_only_commands_need_an_existing_store(tmp_path, capsys):
    db = tmp_path / "typo.db"
    for command in (["stats"], ["groups"], ["pairs"], ["journal"]):
        code, _, err = run(capsys, *command, "--db", str(db))
        assert code == 2 and "no store at" in err
    assert not db.exists()


def test_a_damaged_store_is_one_message_not_a_traceback(scanned, capsys, tmp_path):
    import sqlite3

    root, db = scanned
    with sqlite3.connect(db) as con:  # the pages written out, not left in the log
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode = DELETE")
        page = con.execute("PRAGMA page_size").fetchone()[0]
        root_page = con.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'files'").fetchone()[0]
    con.close()
    # the files table's page is garbage: the store opens, reading it fails
    with open(db, "r+b") as f:
        f.seek((root_page - 1) * page)
        f.write(b"\xa5" * page)
    for command in (["stats"], ["groups"], ["remove", "--dry-run"], ["pairs"]):
        code, out, err = run(capsys, *command, "--db", db)
        assert code == 2, (command, out, err)
        assert err.startswith("simgui: ") and "Traceback" not in err
        assert db in err and len(err.strip().splitlines()) == 1


def test_similar_follows_a_link_and_finds_copies_of_any_extension(scanned, capsys, tmp_path):
    root, db = scanned
    (root / "orig.bak").write_bytes((root / "orig.bin").read_bytes())
    assert main(["scan", "-q", "--db", db, str(root)]) == 0
    capsys.readouterr()
    link = tmp_path / "link.bin"
    link.symlink_to(root / "orig.bin")
    code, out, err = run(capsys, "similar", "--db", db, "--format", "json", str(link))
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    found = {os.path.basename(r["path"]): r["identical"] for r in rows}
    # the file itself is not its own match, by any name; its copy in .bak is
    assert found == {"copy.bin": True, "orig.bak": True, "edited.bin": False}
    # rewritten in place (a new inode, as editors do): still not its own match
    data = (root / "orig.bin").read_bytes()
    (root / "orig.bin").unlink()
    (root / "orig.bin").write_bytes(data)
    code, out, err = run(capsys, "similar", "--db", db, "--format", "json", str(link))
    assert "orig.bin" not in {os.path.basename(json.loads(line)["path"])
                              for line in out.splitlines()}
    code, _, err = run(capsys, "inspect", str(link))
    assert code == 0, err
    dangling = tmp_path / "dangling.bin"
    dangling.symlink_to(tmp_path / "nowhere")
    code, _, err = run(capsys, "inspect", str(dangling))
    assert code == 1 and "symbolic link to a missing file" in err


def test_pairs_lists_every_identical_copy(tmp_path, capsys):
    """Copies with different extensions, and copies whose sum table equals that of a
    different file, are listed as identical (rdfind and jdupes list them; pairs did not)."""
    from tests.reference import tag_free_bytes

    quiet = tag_free_bytes()  # strings of these have sum tables of all zeros
    rng = np.random.default_rng(2)
    root = tmp_path / "files"
    root.mkdir()
    a = rng.choice(quiet, 4000).astype(np.uint8).tobytes()
    b = rng.choice(quiet, 4000).astype(np.uint8).tobytes()
    (root / "a.bin").write_bytes(a)
    (root / "b.bin").write_bytes(b)
    (root / "b copy.bin").write_bytes(b)
    script = rng.bytes(5000)
    (root / "tool").write_bytes(script)
    (root / "tool.sh").write_bytes(script)
    db = str(tmp_path / "s.sqlite3")
    assert main(["scan", "--db", db, "-q", str(root)]) == 0
    capsys.readouterr()
    assert main(["pairs", "--db", db, "--format", "json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    identical = {tuple(sorted(os.path.basename(r[k]) for k in ("path_a", "path_b")))
                 for r in rows if r["identical"]}
    assert identical == {("b copy.bin", "b.bin"), ("tool", "tool.sh")}
    # a and b: equal (empty) sum tables, unrelated contents: the content check drops them,
    # and the paper's method as published lists them
    assert all(r["identical"] for r in rows)
    assert main(["pairs", "--db", db, "--format", "json", "--no-check"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any(not r["identical"] for r in rows)


def test_override_fixes_one_extensions_tolerances(scanned, capsys):
    root, db = scanned
    # at 0 % for .bin files only the copies are left, whatever the tolerances given
    for command in ("pairs", "groups"):
        code, loose, _ = run(capsys, command, "--db", db, "--format", "json")
        assert code == 0 and "edited.bin" in loose
        code, out, _ = run(capsys, command, "--db", db, "--format", "json",
                           "--override", ".BIN=0,0")
        assert code == 0
        assert "edited.bin" not in out and "copy.bin" in out
        # an override for another extension changes nothing
        code, other, err = run(capsys, command, "--db", db, "--format", "json",
                               "--override", "ps=0,0")
        assert other == loose and "no stored file has the extension .ps" in err
    code, out, _ = run(capsys, "similar", "--db", db, str(root / "orig.bin"),
                       "--override", "bin=0,0")
    assert code == 0 and "copy.bin" in out and "edited.bin" not in out


@pytest.mark.parametrize("value, message", [
    ("bin", "EXT=KEY,SUM"), ("bin=1", "EXT=KEY,SUM"), ("=1,1", "EXT=KEY,SUM"),
    ("bin=1,200", "between 0 and 100"), ("bin=x,1", "not a percentage"),
    ("tar.gz=1,1", "write gz=1,1"), ("tar.=1,1", "ends with a dot"),
    ("tar.gz=x,1", "not a percentage"),
])
def test_override_refuses_malformed_values(scanned, capsys, value, message):
    _, db = scanned
    with pytest.raises(SystemExit) as exit_info:
        main(["pairs", "--db", db, "--override", value])
    assert exit_info.value.code == 2  # bad usage, as the README promises
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("more, message", [
    (["--no-extensions"], "--no-extensions"), (["--method", "minhash"], "paper's method"),
])
def test_override_refuses_what_it_cannot_mean(scanned, capsys, more, message):
    _, db = scanned
    code, _, err = run(capsys, "groups", "--db", db, "--override", "bin=1,1", *more)
    assert code == 2 and message in err and err.startswith("simgui: ")


def test_a_search_says_which_files_an_identical_only_scan_left_unread(tmp_path, capsys):
    # after scan --identical-only, "no groups" alone said something untrue: there are
    # copies, and files the similar search cannot see yet
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a").write_text("hello " * 100)
    (folder / "b").write_text("hello " * 100)
    (folder / "c").write_text("other " * 100)
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "--identical-only", str(folder)]) == 0
    err = capsys.readouterr().err
    assert "Identical copies: 1 set, 1 file that is a copy of another" in err
    assert "Scanned 3 files" in err and "0 hard links" in err
    for command in (["groups"], ["pairs"], ["remove", "--dry-run"], ["folders"]):
        assert main([*command, "--db", db]) == 0
        err = capsys.readouterr().err
        assert "3 stored files were scanned with --identical-only" in err, command
    assert main(["stats", "--db", db]) == 0
    assert "3 files scanned with --identical-only" in capsys.readouterr().out
    assert main(["groups", "--db", db, "--identical-only"]) == 0
    assert "scanned with --identical-only" not in capsys.readouterr().err


def test_a_dry_run_never_reads_100_percent_for_a_file_that_is_not_a_copy(tmp_path, capsys):
    # keep the newest (an edit): the original's copy is left, and its 100 % was measured
    # against the group's reference, not against the edit that stays
    folder = tmp_path / "d"
    folder.mkdir()
    words = " ".join(f"w{i}" for i in range(4000))
    (folder / "a.txt").write_text(words)
    (folder / "b.txt").write_text(words)
    (folder / "c.txt").write_text(words.replace("w5 ", "W5 ") + " a new ending")
    os.utime(folder / "a.txt", (1, 1))
    os.utime(folder / "b.txt", (2, 2))
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(folder)]) == 0
    capsys.readouterr()
    assert main(["remove", "--db", db, "--keep", "newest", "--dry-run"]) == 0
    out = capsys.readouterr().out
    left = next(line for line in out.splitlines() if line.lstrip().startswith("leave"))
    assert "100" not in left.split(str(folder))[0]  # not "similar 100.0 %" beside it
    assert "to the group's reference" in left
