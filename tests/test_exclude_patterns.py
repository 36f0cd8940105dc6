"""Skip patterns: globs match a name or a path, ``re:`` patterns are regular expressions
searched in the path; a bad one is refused in one line before anything is read."""

import pytest

from simgui.cli import main
from simgui.core.reading.scanner import ScanOptions, exclude_pattern, scan
from simgui.core.store import Store


def test_globs_and_regular_expressions(tmp_path):
    for rel in ("keep/a.txt", "build/b.txt", "src/build-notes.txt", "x/c.tmp", "cache/d.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(rel)
    options = ScanOptions(excludes=("*.tmp", r"re:/(build|cache)/"))
    with Store(tmp_path / "s.db") as store:
        scan(store, [tmp_path / "keep", tmp_path / "build", tmp_path / "src", tmp_path / "x",
                     tmp_path / "cache"], options)
        names = sorted(p.rsplit("/", 1)[1] for p in store.files().paths)
    # "build" and "cache" as whole folders only: build-notes.txt stays
    assert names == ["a.txt", "build-notes.txt"]
    assert options.excluded("b.txt", "/data/build/b.txt")
    assert not options.excluded("build.txt", "/data/build.txt")


def test_a_bad_regular_expression_is_refused_in_one_line(tmp_path, capsys):
    with pytest.raises(ValueError, match="not a regular expression"):
        exclude_pattern("re:((")
    with pytest.raises(ValueError):
        ScanOptions(excludes=("re:[",))
    with pytest.raises(SystemExit) as exit_:
        main(["scan", "--db", str(tmp_path / "s.db"), "--exclude", "re:((", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("simgui:") and "not a regular expression" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s.db").exists()


def test_the_window_leaves_out_a_bad_pattern_and_says_which(qtbot):
    from simgui.gui.folders import FoldersPanel

    panel = FoldersPanel()
    qtbot.addWidget(panel)
    panel.set_exclude_patterns(["*.tmp", "re:((", "re:/build/"])
    assert panel.exclude_patterns() == ["*.tmp", "re:/build/"]
    assert "not a regular expression" in panel.excludes.toolTip()
