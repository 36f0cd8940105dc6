"""Bad input on the command line: one line on stderr, exit 2, nothing changed (issue 24,
items 4 and 7), and the exit code of an undo that put nothing back (item 10)."""

import os

import pytest

from simgui.cli import main
from simgui.core.store import Store
from tests.test_cli_search import home, scanned  # noqa: F401  (fixtures used below)


def run(capsys, *argv):
    """Exit code, stdout and stderr, whether the parser exits or main returns."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code, err, *words):
    assert code == 2, err
    assert err.startswith("simgui: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and "usage:" not in err
    for word in words:
        assert word in err, err


def stored_paths(db) -> list[str]:
    with Store(db) as store:
        return sorted(store.files().paths)


HUGE = "99999999999999999999999"
SEARCH = ["groups", "pairs", "similar", "remove"]

BAD_OPTIONS = [
    # (option, value, words the message must hold: the option and the range)
    ("--size-factor", "nan", ["--size-factor", "1 to 100"]),
    ("--size-factor", "inf", ["--size-factor", "1 to 100"]),
    ("--size-factor", "-inf", ["--size-factor", "1 to 100"]),
    ("--size-factor", "1e400", ["--size-factor", "1 to 100"]),
    ("--size-factor", "0.5", ["--size-factor", "1 to 100"]),
    ("--size-factor", "1e308", ["--size-factor", "1 to 100"]),
    ("--size-factor", "x", ["--size-factor", "1 to 100"]),
    ("--key-tolerance", "5%%", ["--key-tolerance", "between 0 and 100"]),
    ("--key-tolerance", "nan", ["--key-tolerance", "between 0 and 100"]),
    ("--key-tolerance", "inf", ["--key-tolerance", "between 0 and 100"]),
    ("--key-tolerance", "1e400", ["--key-tolerance", "between 0 and 100"]),
    ("--key-tolerance", "-1", ["--key-tolerance", "between 0 and 100"]),
    ("--key-tolerance", "1_0", ["--key-tolerance", "between 0 and 100"]),
    ("--key-tolerance", "", ["--key-tolerance", "between 0 and 100"]),
    ("--sum-tolerance", "%5", ["--sum-tolerance", "between 0 and 100"]),
    ("--sum-tolerance", "101", ["--sum-tolerance", "between 0 and 100"]),
    ("--check", "nan", ["--check", "between 0 and 100"]),
    ("--check", "5%%", ["--check", "between 0 and 100"]),
    ("--override", "ps=5%%,1", ["--override", "between 0 and 100"]),
    ("--override", "ps=1,inf", ["--override", "between 0 and 100"]),
    ("--override", "ps=nan,1", ["--override", "between 0 and 100"]),
]


@pytest.mark.parametrize("option, value, words", BAD_OPTIONS)
@pytest.mark.parametrize("command", SEARCH)
def test_bad_search_options_are_one_line_usage_errors(scanned, capsys, command, option,
                                                      value, words):
    root, db = scanned
    before = stored_paths(db)
    extra = [str(root / "orig.bin")] if command == "similar" else []
    extra += ["--yes"] if command == "remove" else []
    code, out, err = run(capsys, command, "--db", db, f"{option}={value}", *extra)
    assert_usage_error(code, err, *words)
    assert out == ""
    assert (root / "sub" / "copy.bin").exists() and stored_paths(db) == before


@pytest.mark.parametrize("method, value", [
    ("simhash", "nan"), ("simhash", "1e400"), ("simhash", "-inf"), ("simhash", "9"),
    ("minhash", "nan"), ("minhash", "inf"), ("minhash", "101"), ("minhash", "x"),
])
def test_bad_thresholds_are_one_line_usage_errors(scanned, capsys, method, value):
    _, db = scanned
    code, _, err = run(capsys, "groups", "--db", db, "--method", method,
                       f"--threshold={value}")
    assert_usage_error(code, err, "--threshold")


@pytest.mark.parametrize("value, words", [
    (HUGE + "T", ["--min-size", "at most"]),
    ("9" * 400, ["--min-size", "at most"]),
    ("9" * 400 + "P", ["--min-size", "at most"]),
    ("9223372036854775808", ["--min-size", "at most"]),  # 2**63: no file is that large
    ("nan", ["--min-size"]), ("inf", ["--min-size"]), ("-1", ["--min-size"]),
    ("1e3", ["--min-size"]), ("", ["--min-size"]),
    ("\u0661\u0662k", ["--min-size"]),  # Arabic-Indic digits: not what anyone means by 12k
])
def test_bad_min_size_is_refused_and_the_store_is_unchanged(scanned, capsys, value, words):
    root, db = scanned
    before = stored_paths(db)
    assert len(before) == 4
    code, out, err = run(capsys, "scan", "--db", db, f"--min-size={value}", str(root))
    assert_usage_error(code, err, *words)
    assert stored_paths(db) == before


@pytest.mark.parametrize("value", ["-1", "257", HUGE, "1e3", "nan", "x", ""])
def test_bad_worker_counts_are_refused(scanned, capsys, value):
    root, db = scanned
    before = stored_paths(db)
    code, _, err = run(capsys, "scan", "--db", db, f"--workers={value}", str(root))
    assert_usage_error(code, err, "--workers", "0 to 256")
    assert stored_paths(db) == before


@pytest.mark.parametrize("argv", [
    ["journal", HUGE], ["undo", HUGE], ["journal", "0"], ["undo", "0"], ["journal", "-1"],
    ["undo", "-5"], ["journal", "1.5"], ["undo", "x"], ["journal", str(2**63)],
    ["journal", "\u0661"],
])
def test_bad_batch_ids_are_one_line_usage_errors(scanned, capsys, home, argv):
    root, db = scanned
    code, _, err = run(capsys, *argv, "--db", db)
    assert_usage_error(code, err, "BATCH_ID")


def test_a_batch_id_that_fits_but_is_not_there_is_still_said_in_one_line(scanned, capsys):
    _, db = scanned
    code, _, err = run(capsys, "journal", "--db", db, str(2**63 - 1))
    assert code == 2 and err == f"simgui: no batch {2**63 - 1} in the journal\n"


@pytest.mark.parametrize("argv, option", [
    (["remove", "--move-to", "", "--yes"], "--move-to"),
    (["remove", "--move-to=", "--yes"], "--move-to"),
    (["remove", "--reference", "", "--yes"], "--reference"),
    (["groups", "--reference", ""], "--reference"),
    (["groups", "--db", ""], "--db"),
    (["stats", "--db", ""], "--db"),
    (["remove", "--yes", "--db", ""], "--db"),
    (["scan", ""], "PATH"),
    (["inspect", ""], "FILE"),
    (["similar", ""], "FILE"),
])
def test_an_empty_path_is_a_usage_error_and_changes_nothing(scanned, capsys, home, argv,
                                                            option):
    root, db = scanned
    before = stored_paths(db)
    with_db = argv if "--db" in argv else [*argv, "--db", db]
    if argv[0] == "inspect":
        with_db = argv
    code, out, err = run(capsys, *with_db)
    assert_usage_error(code, err, option, "empty")
    assert (root / "sub" / "copy.bin").exists() and (root / "orig.bin").exists()
    assert not os.listdir(home / ".local" / "share")  # nothing was trashed
    assert stored_paths(db) == before


def test_parser_errors_are_one_line_too(capsys):
    code, out, err = run(capsys, "groups", "--format", "xml")
    assert_usage_error(code, err, "--format", "simgui groups --help")
    code, out, err = run(capsys, "frobnicate")
    assert_usage_error(code, err, "frobnicate")


def test_good_values_still_pass(scanned, capsys):
    _, db = scanned
    for extra in (["--key-tolerance", "5%"], ["--key-tolerance", " 3.2 % "],
                  ["--size-factor", "100"], ["--size-factor", "1"], ["--check", "0"],
                  ["--override", "bin=1%,2"], ["--sum-tolerance", "1e-1"]):
        code, _, err = run(capsys, "groups", "--db", db, *extra)
        assert code == 0, (extra, err)


# -- undo that puts nothing back --------------------------------------------------------


def test_undo_that_puts_nothing_back_exits_1_and_says_why(scanned, capsys, home):
    root, db = scanned
    copy = root / "sub" / "copy.bin"
    code, out, _ = run(capsys, "remove", "--db", db, "--identical-only", "--yes")
    assert code == 0 and not copy.exists(), out
    copy.write_bytes(b"a new file in the old place")  # undo must not overwrite it
    code, out, err = run(capsys, "undo", "--db", db)
    assert code == 1, (out, err)
    assert "taken by another file" in out
    assert err.startswith("simgui: nothing was put back") and err.count("\n") == 1, err
    assert copy.read_bytes() == b"a new file in the old place"


def test_undo_of_a_permanent_delete_exits_1(scanned, capsys, home):
    root, db = scanned
    code, out, _ = run(capsys, "remove", "--db", db, "--delete", "--yes")
    assert code == 0 and not (root / "sub" / "copy.bin").exists(), out
    code, out, err = run(capsys, "undo", "--db", db, "1")
    assert code == 1, (out, err)
    assert "simgui: nothing was put back" in err and "deleted permanently" in err


def test_undo_that_puts_files_back_exits_0(scanned, capsys, home):
    root, db = scanned
    assert run(capsys, "remove", "--db", db, "--identical-only", "--yes")[0] == 0
    code, out, err = run(capsys, "undo", "--db", db)
    assert code == 0 and err == "" and (root / "sub" / "copy.bin").exists(), (out, err)
