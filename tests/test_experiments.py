"""Smoke tests of benchmarks/experiments: every module imports, and the helpers the
figures rest on compute what they say on tiny inputs.  No timings are asserted."""

from __future__ import annotations

import importlib
import math
import os
import shutil
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

EXPERIMENTS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                               "benchmarks", "experiments")
sys.path.insert(0, EXPERIMENTS_DIR)

MODULES = ("common", "fig3_4_keyspace", "fig6_7_tolerance", "fig8_formats", "fig9_simfind_time",
           "accuracy", "speed", "run_all")


@pytest.mark.parametrize("name", MODULES)
def test_module_imports(name):
    module = importlib.import_module(name)
    if name not in ("common", "run_all"):
        assert callable(module.main) and module.NAME


def test_run_all_lists_every_experiment():
    run_all = importlib.import_module("run_all")
    scripts = {f[:-3] for f in os.listdir(EXPERIMENTS_DIR)
               if f.endswith(".py") and f not in ("common.py", "run_all.py")}
    assert set(run_all.EXPERIMENTS) == scripts


def test_interpolate_crossing():
    common = importlib.import_module("common")
    assert common.interpolate_crossing([1, 10, 100], [0.0, 0.5, 1.0], 0.5) == pytest.approx(10)
    assert math.isclose(common.interpolate_crossing([1, 10, 100], [0.0, 0.5, 1.0], 0.75),
                        math.sqrt(1000))
    assert common.interpolate_crossing([1, 10], [0.0, 0.2], 0.5) is None


def test_report_writes_machine_header(tmp_path):
    common = importlib.import_module("common")
    out = common.Report(str(tmp_path), "t", "title")
    out.table(("a", "b"), [("x", 1.5)], ("", "{:.1f}"))
    text = open(out.write(), encoding="utf-8").read()
    for field in ("machine:", "versions:", "command:", "date:", "shared"):
        assert field in text
    assert "x  1.5" in text


def test_chain_changes_the_given_bytes_per_step():
    fig = importlib.import_module("fig6_7_tolerance")
    rng = np.random.default_rng(0)
    files = fig.chain(bytes(range(256)) * 16, 5, 3, rng)
    assert len(files) == 5 and all(len(f) == 4096 for f in files)
    for a, b in zip(files, files[1:]):
        assert sum(x != y for x, y in zip(a, b)) == 3
    steps = np.array([1, 1, 2, 1, 1, 2, 3])  # 2 chains of 3 files: all pairs 1 and 2 apart
    assert fig._all_found_up_to(steps[:6], 2, 3) == 2
    assert fig._all_found_up_to(np.array([1, 1, 1, 1, 2]), 2, 3) == 1
    assert fig._all_found_up_to(np.array([1, 1, 2]), 2, 3) == 0


def test_random_ascii_and_edits():
    fig = importlib.import_module("fig8_formats")
    rng = np.random.default_rng(1)
    text = fig.random_ascii(rng, 4096, 72)
    a = np.frombuffer(text, np.uint8)
    assert len(a) == 4096 and set(np.flatnonzero(a == 10)) == set(range(72, 4096, 73))
    assert ((a == 10) | ((a >= 32) & (a < 127))).all()
    edited = np.frombuffer(fig.edit_text(text, 8, rng), np.uint8)
    assert (edited != a).sum() == 8 and ((edited == 10) == (a == 10)).all()


def test_pair_tolerances_match_the_search():
    from simgui.core.search.simfind import find_pairs
    fig = importlib.import_module("fig8_formats")
    rng = np.random.default_rng(2)
    sizes = rng.integers(900, 1100, 40)
    tables = (sizes[:, None] * rng.uniform(0.02, 0.04, (1, 16))).astype(np.int64) \
        + rng.integers(0, 4, (40, 16))
    min_t = fig.pair_min_tolerance(sizes, tables)
    i, j = np.triu_indices(40, 1)
    for t in (0.1, 1.0, 3.2):
        found = find_pairs(sizes, tables, key_tolerance=t, sum_tolerance=t)
        mine = np.stack([i[min_t <= t], j[min_t <= t]], axis=1)
        assert np.array_equal(found, mine)
    assert fig.fraction_hit(np.array([0.1, 1.0, np.inf]), [0.05, 1.0])[1] == pytest.approx(2 / 3)


def test_quadratic_baseline_equals_find_pairs():
    from simgui.core.search.simfind import Tolerances, find_pairs
    fig = importlib.import_module("fig9_simfind_time")
    rng = np.random.default_rng(3)
    sizes = rng.integers(40, 3000, 300)
    tables = (sizes[:, None] * rng.uniform(0.01, 0.05, (300, 16))).astype(np.int64)
    tables[150:] = tables[:150] + rng.integers(0, 2, (150, 16))  # near copies
    sizes[150:] = sizes[:150]
    for k, s in ((1.0, 1.0), (3.2, 1.0), (10.0, 5.0)):
        assert np.array_equal(fig.all_pairs(sizes, tables, Tolerances(k, s)),
                              find_pairs(sizes, tables, key_tolerance=k, sum_tolerance=s))


def test_line_similarity_and_registry():
    acc = importlib.import_module("accuracy")
    a = b"".join(b"line %d\n" % i for i in range(100))
    assert acc.line_similarity(a, a) == 1.0
    b = a.replace(b"line 50\n", b"LINE 50\n")
    assert acc.line_similarity(a, b) == pytest.approx(1 - 8 / len(a))
    pairs = acc._pairs_from_codes(np.array([5, 1, 5, 2]), 3)  # codes a * n + b
    assert pairs.tolist() == [[0, 1], [0, 2], [1, 2]]
    for name, method in acc.METHODS.items():
        assert method.sweep and method.threshold and method.default_source, name


def test_sum_table_methods_on_a_tiny_collection():
    acc = importlib.import_module("accuracy")
    sizes = np.array([1000, 1000, 1000, 5000], np.int64)
    tables = np.array([[40] * 16, [40] * 15 + [41], [10] * 16, [200] * 16], np.int64)

    def score(pairs, identical_found):
        return {"precision": 1.0, "recall": len(pairs) / 1.0, "f1": 1.0, "found": len(pairs),
                "pairs": pairs.tolist()}

    c = acc.Collection("tiny", ["a", "b", "c", "d"], sizes, tables, ["x"] * 4, score)
    methods = {k: v for k, v in acc.METHODS.items() if k.startswith("sum tables")}
    lines = []
    results = acc.evaluate(c, methods, lines.append)
    for res in results.values():
        assert res["default"]["pairs"] == [[0, 1]]


@pytest.mark.skipif(shutil.which("ssdeep") is None, reason="ssdeep is not installed")
def test_ssdeep_scores(tmp_path):
    acc = importlib.import_module("accuracy")
    text = b"".join(b"%d the quick brown fox jumps over the lazy dog\n" % i for i in range(400))
    paths = []
    for name, data in (("a", text), ("b", text[:-50] + b"x" * 50), ("c", bytes(range(256)) * 64)):
        paths.append(str(tmp_path / name))
        open(paths[-1], "wb").write(data)
    codes, scores = acc.ssdeep_scores(paths, str(tmp_path))
    found = dict(zip(codes.tolist(), scores.tolist()))
    assert found.get(0 * 3 + 1, 0) > 50 and 0 * 3 + 2 not in found


@pytest.mark.skipif(shutil.which("rdfind") is None or shutil.which("jdupes") is None,
                    reason="rdfind or jdupes is not installed")
def test_duplicate_tools_parse_alike(tmp_path, monkeypatch):
    speed = importlib.import_module("speed")
    tree = tmp_path / "tree"
    (tree / "a b").mkdir(parents=True)
    data = b"some content\n" * 100
    for name in ("x", "a b/y z", "a b/w"):
        (tree / name).write_bytes(data)
    (tree / "other").write_bytes(b"other content\n" * 100)
    os.link(tree / "x", tree / "hard")
    (tree / "e1").write_bytes(b"")
    (tree / "e2").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    expected = None
    for fn in (speed.groups_rdfind, speed.groups_jdupes):
        groups, stats = speed.normalise(fn("tree", str(tmp_path)), "tree")
        assert len(groups) == 1 and stats["files"] == 3
        expected = expected or groups
        assert groups == expected


def test_simgui_groups_give_copies_of_each_other_as_one_set_of_duplicates(monkeypatch):
    # the exact-duplicates comparison reads copies only similar to their group's reference
    # from copy_of (git's RelNotes/2.37.5.txt: four copies beside a similar 2.34.5.txt)
    import io

    from simgui.core.search.analysis import Analysis, SearchSettings
    from simgui.core.search.export import write_groups
    from simgui.core.search.simfind import Tolerances
    from tests.test_analysis import copies_beside_a_similar_reference

    speed = importlib.import_module("speed")
    files = copies_beside_a_similar_reference()
    out = io.StringIO()
    write_groups(Analysis.build(files, SearchSettings()).groups(Tolerances(3.2, 1.0, 0)).groups(),
                 out, "json")
    monkeypatch.setattr(speed, "_simgui", lambda *args, **kw: out.getvalue())
    assert [sorted(g) for g in speed.groups_simgui_json("db")] == [
        ["/r/a/2.37.5.txt", "/r/b/2.37.5.txt", "/r/c/2.37.5.txt"]]
