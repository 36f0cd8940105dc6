"""Start-up: commands that search nothing load no numerical module, and a command about to
compile the kernels (a machine's first run) says so (issue 25)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from simgui import _kernel_cache
from simgui import cli
from simgui.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r"""
import json, sys
from simgui.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in ("numpy", "numba", "llvmlite", "PySide6", "pyqtgraph")
                        if m in sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["stats"], ["journal"],
                                  ["undo"], ["scan", "--help"], ["groups", "--help"]])
def test_commands_that_search_nothing_load_no_numerical_module(tmp_path, argv):
    env = {**os.environ, "PYTHONPATH": ROOT, "SIMGUI_DB": str(tmp_path / "s.db")}
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=120)
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert loaded == [], f"{argv} loaded {loaded}"


def test_the_parser_offers_what_the_engine_has():
    from simgui.core.cleanup import KeepRule
    from simgui.core.search import methods
    from simgui.core.search.keys import SCHEMES

    assert cli.KEEP_RULES == tuple(r.value for r in KeepRule)
    from simgui.core.search.tolerances import METHODS, SCHEME_NAMES

    assert SCHEME_NAMES == tuple(sorted(SCHEMES))
    assert METHODS is methods.METHODS


def test_compiled_before_finds_an_index_beside_the_source_or_in_a_cache(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(_kernel_cache.ENV, str(tmp_path / "cache"))
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    # no index of a module anywhere: its kernels were never compiled
    assert not _kernel_cache.compiled_before("search/never_compiled.py")
    # numba keeps the index in a folder under NUMBA_CACHE_DIR named after the source's
    deep = tmp_path / "cache" / "work_main_simgui_core_search"
    deep.mkdir(parents=True)
    (deep / f"never_compiled._kernel-12.{tag}.nbi").write_bytes(b"")
    assert _kernel_cache.compiled_before("search/never_compiled.py")
    # an index for another Python does not count
    monkeypatch.setenv(_kernel_cache.ENV, str(tmp_path / "other"))
    other = tmp_path / "other"
    other.mkdir()
    (other / "never_compiled._kernel-12.py27.nbi").write_bytes(b"")
    assert not _kernel_cache.compiled_before("search/never_compiled.py")
    # ... and numba's per-user cache is looked in too
    user = tmp_path / "xdg" / "numba" / "x"
    user.mkdir(parents=True)
    (user / f"never_compiled._kernel-3.{tag}.nbi").write_bytes(b"")
    assert _kernel_cache.compiled_before("search/never_compiled.py")


@pytest.mark.parametrize("compiled", [False, True])
def test_a_first_run_says_it_is_preparing_the_engine(tmp_path, monkeypatch, capsys, compiled):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # said on a terminal
    asked = []

    def compiled_before(module):
        asked.append(module)
        return compiled

    monkeypatch.setattr(_kernel_cache, "compiled_before", compiled_before)
    db = str(tmp_path / "s.db")
    (tmp_path / "t").mkdir()
    assert main(["scan", "--db", db, "-q", str(tmp_path / "t")]) == 0
    assert main(["stats", "--db", db]) == 0
    err = capsys.readouterr().err
    assert asked == ["reading/sumtable.py"]  # the scan's kernels; stats needs none
    assert ("preparing the engine, first run only" in err) is not compiled


def test_nothing_is_said_of_the_engine_where_stderr_is_read_by_a_program(tmp_path, monkeypatch,
                                                                        capsys):
    monkeypatch.setattr(_kernel_cache, "compiled_before", lambda module: False)
    (tmp_path / "t").mkdir()
    assert main(["scan", "--db", str(tmp_path / "s.db"), "-q", str(tmp_path / "t")]) == 0
    assert "preparing the engine" not in capsys.readouterr().err
