"""Skip patterns: globs match a name or a path, ``re:`` patterns are regular expressions
searched in the path; a bad one is refused in one line before anything is read."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


@given(st.lists(st.text(alphabet=st.sampled_from("ab[]*?,\\ \udcff-"), min_size=1, max_size=6),
                min_size=1, max_size=3))
def test_a_folder_pattern_names_its_folder_and_nothing_else(parts):
    import fnmatch

    from simgui.core.reading.names import folder_of_pattern, folder_pattern

    folder = "/" + "/".join(parts)
    pattern = folder_pattern(folder)
    assert folder_of_pattern(pattern) == folder
    assert fnmatch.fnmatchcase(folder, pattern)
    other = folder + "x"
    assert not fnmatch.fnmatchcase(other, pattern)
    # a glob typed by hand is no folder's pattern
    assert folder_of_pattern("/data/*.tmp") is None and folder_of_pattern("*.tmp") is None
