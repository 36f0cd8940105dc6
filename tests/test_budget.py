"""Searches size themselves to the memory available: an estimate from a sample decides
whether a search runs, and a command that would not fit says so in one line (issue 25)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from simgui.cli import main
from simgui.core import memory
from simgui.core.search import budget
from simgui.core.search.simfind import SearchSpace, Tolerances


def dense_space(n: int = 6_000, seed: int = 1) -> SearchSpace:
    """Files of a few sizes with tables near each other's: many candidate pairs."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(10_000, 10_400, n)
    tables = (sizes[:, None] * 0.03 + rng.normal(0, 4, (n, 16))).astype(np.int64)
    return SearchSpace.build(sizes, np.maximum(tables, 0))


def test_available_memory_is_what_the_system_says():
    got = memory.available_memory()
    if sys.platform.startswith("linux"):
        with open("/proc/meminfo") as f:
            said = next(int(line.split()[1]) * 1024 for line in f
                        if line.startswith("MemAvailable:"))
        assert got is not None and abs(got - said) < said * 0.5
    assert got is None or got > 0


def test_the_budget_follows_the_memory_available():
    gib = 1 << 30
    assert budget.pair_budget(250, available=10 * gib) == int(10 * gib * 0.5) // 250
    assert budget.pair_budget(250, available=20 * gib) == 2 * budget.pair_budget(
        250, available=10 * gib)
    assert budget.pair_budget(250, available=0) == 1_000_000  # a floor: search what fits


def test_a_search_that_would_not_fit_is_refused_before_it_runs_and_names_what_fits():
    space = dense_space()
    tol = Tolerances(10.0, 10.0)
    found = len(space.class_pairs(tol))
    assert found > 10_000
    # room for every pair (the estimate may err by half): no refusal
    budget.check_affordable(space, tol, budget=found * 4)
    with pytest.raises(memory.NotEnoughMemory) as refused:
        budget.check_affordable(space, tol, budget=found // 20)
    message = str(refused.value)
    assert "\n" not in message and "6,000 files" in message
    fits = float(message.split("a key tolerance of ")[1].split(" %")[0])
    assert fits < tol.key
    # the tolerance it names does fit the same budget, and finds fewer pairs
    budget.check_affordable(space, Tolerances(fits, tol.sum), budget=found // 20)
    assert len(space.class_pairs(Tolerances(fits, tol.sum))) < found


def test_the_sum_ceiling_comes_down_with_the_budget():
    space = dense_space()
    everything = len(space.class_pairs(Tolerances(10.0, 10.0)))
    top = budget.affordable_sum_ceiling(space, budget=10**12)
    low = budget.affordable_sum_ceiling(space, budget=everything // 4)
    lower = budget.affordable_sum_ceiling(space, budget=everything // 16)
    assert top == 10.0 and lower < low < top
    # the pairs kept at the ceiling fit the budget the estimate was given (with its margin)
    assert len(space.class_pairs(Tolerances(10.0, low))) <= everything // 4


def test_groups_that_would_not_fit_say_so_in_one_line(tmp_path, monkeypatch, capsys):
    tree = tmp_path / "t"
    tree.mkdir()
    rng = np.random.default_rng(0)
    base = rng.integers(0, 256, 3_000, dtype=np.uint8).tobytes()
    for i in range(120):  # edits of one file: every pair similar
        data = bytearray(base)
        data[i * 7 % 3000] ^= 0xFF
        (tree / f"f{i}.bin").write_bytes(bytes(data))
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(tree)]) == 0
    monkeypatch.setattr(budget, "SAMPLE", 40)
    monkeypatch.setattr(budget, "pair_budget", lambda *a, **k: 100)
    capsys.readouterr()
    assert main(["groups", "--db", db, "--format", "json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("simgui: at key tolerance 10 % and sum-table tolerance 5 %")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_content_floor_raises_the_sum_ceiling_by_what_it_drops():
    """With the content check on, the sliders keep only pairs with some content in
    common: unrelated files' pairs are held only briefly, so more sum-table steps fit."""
    space = dense_space()
    everything = len(space.class_pairs(Tolerances(10.0, 10.0)))
    plain = budget.affordable_sum_ceiling(space, budget=everything // 8)
    unrelated = budget.affordable_sum_ceiling(space, budget=everything // 8,
                                              content=lambda pairs: np.zeros(len(pairs)),
                                              content_floor=10.0)
    related = budget.affordable_sum_ceiling(space, budget=everything // 8,
                                            content=lambda pairs: np.full(len(pairs), 80.0),
                                            content_floor=10.0)
    assert related <= plain < unrelated
