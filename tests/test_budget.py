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


def _kept(stats) -> set:
    """The pairs of classes a ToleranceStats keeps for groups."""
    lists = np.repeat(stats.class_order, np.diff(stats.adjacent_start))
    return {frozenset(p) for p in zip(lists.tolist(), stats.adjacent_class.tolist())}


def test_the_sum_ceiling_comes_down_exactly_to_what_fits_while_searching():
    """The search holds the sum-table hits as it finds them and lowers its ceiling a step
    at a time when they pass the budget: it ends at the largest step whose hits fit, and
    keeps exactly those, with no estimate made before."""
    from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, ToleranceStats

    space = dense_space(600)
    whole = ToleranceStats.build(space)
    assert whole.max_sum == 10.0
    per_step = [int((whole.hit_sum <= s).sum()) for s in TOLERANCE_STEPS]
    for budget_ in (per_step[-1], per_step[-1] - 1, per_step[len(per_step) // 2],
                    per_step[3] + 1, 1):
        held = ToleranceStats.build(space, max_found=budget_)
        fits = [s for s, count in zip(TOLERANCE_STEPS, per_step) if count <= budget_]
        assert held.max_sum == (fits[-1] if fits else TOLERANCE_STEPS[0]), budget_
        # the counts still reach 10 %
        assert np.array_equal(held.sum_hits_at, whole.sum_hits_at)
        assert np.array_equal(held.key_hits_at, whole.key_hits_at)
        want = ToleranceStats.build(space, max_sum=held.max_sum)
        assert _kept(held) == _kept(want)


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


def test_the_ceiling_is_exact_over_the_top_steps_too():
    """Hits first met at the top steps (8.6-10 %, the slider's steps 256-270) count
    where they belong: a step held in a byte wrapped them round to the lowest."""
    from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, ToleranceStats

    n = 240
    tables = np.tile(np.full(16, 600), (n, 1))
    tables[:, 9] += 5 * np.arange(n)  # a tag out of the key: pairs at every step to 10 %
    space = SearchSpace.build(np.full(n, 10_000), tables)
    whole = ToleranceStats.build(space)
    per_step = [int((whole.hit_sum <= s).sum()) for s in TOLERANCE_STEPS]
    assert per_step[255] < per_step[262] < per_step[-1]
    for budget_ in (per_step[-1] - 1, per_step[262], per_step[257] + 1):
        fits = [s for s, count in zip(TOLERANCE_STEPS, per_step) if count <= budget_]
        assert ToleranceStats.build(space, max_found=budget_).max_sum == fits[-1] > 8.5


def test_a_content_floor_raises_the_sum_ceiling_by_what_it_drops():
    """With the content check on, the sliders keep only pairs with some content in
    common: unrelated files' pairs are never held, so more sum-table steps fit."""
    from simgui.core.search.tolerance_stats import ToleranceStats

    space = dense_space(600)
    everything = len(space.class_pairs(Tolerances(10.0, 10.0)))

    def ceiling(share):
        return ToleranceStats.build(space, content=lambda pairs: np.full(len(pairs), share),
                                    content_floor=10.0, max_found=everything // 8).max_sum

    plain = ToleranceStats.build(space, max_found=everything // 8).max_sum
    assert ceiling(80.0) == plain < ceiling(0.0) == 10.0
