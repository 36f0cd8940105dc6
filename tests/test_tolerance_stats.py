"""Counts looked up from tolerance statistics equal fresh searches at that tolerance."""

import functools
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simgui.core.search.analysis import find_groups
from simgui.core.search.keys import SKEW
from simgui.core.search import simfind
from simgui.core.search.simfind import SearchSpace, find_pairs
from simgui.core.store import StoredFiles
from simgui.core.search.tolerance_stats import TOLERANCE_STEPS, ToleranceStats, step_at_or_above

# these tests check the paper's search itself: the content check after it is off
Tolerances = functools.partial(simfind.Tolerances, content=0.0)


def collection(seed, n):
    rng = np.random.default_rng(seed)
    base = rng.integers(100, 2000, (max(1, n // 4), 16))
    tables = base[rng.integers(0, len(base), n)] + rng.integers(0, 40, (n, 16)) * (
        rng.random((n, 1)) < 0.6)
    sizes = (tables.sum(axis=1) * rng.choice([1.0, 1.0, 1.2, 2.0], n)).astype(np.int64)
    return sizes, tables.astype(np.int64)


@st.composite
def collections(draw, min_size: int = 0, max_size: int = 40):
    """The shape of :func:`collection` (clusters of near-equal tables), drawn part by part
    so that hypothesis can shrink a failure to a few files and small numbers."""
    n = draw(st.integers(min_size, max_size))
    row = st.lists(st.integers(100, 1999), min_size=16, max_size=16)
    bases = draw(st.lists(row, min_size=1, max_size=max(1, n // 4)))
    bump = st.none() | st.lists(st.integers(0, 39), min_size=16, max_size=16)
    picks = draw(st.lists(st.tuples(st.integers(0, len(bases) - 1), bump,
                                    st.sampled_from([1.0, 1.0, 1.2, 2.0])),
                          min_size=n, max_size=n))
    tables = np.array([np.add(bases[b], d if d is not None else 0) for b, d, _ in picks],
                      np.int64).reshape(n, 16)
    sizes = (tables.sum(axis=1) * np.array([f for _, _, f in picks])).astype(np.int64)
    return sizes, tables


@settings(max_examples=40, deadline=None)
@given(collections(),
       st.lists(st.sampled_from([0.0, 0.0123, 0.1, 0.37, 0.5, 1.0, 2.0, 3.2, 4.44, 5.0]),
                min_size=2, max_size=2))
def test_lookups_equal_searches(data, tol):
    """On slider steps sum-table hits come from a table, elsewhere from a scan: both exact."""
    sizes, tables = data
    n = len(sizes)
    key_tol, sum_tol = tol
    space = SearchSpace.build(sizes, tables)
    stats = ToleranceStats.build(space, max_key=5.0)
    counts = stats.counts(Tolerances(key_tol, sum_tol))
    assert counts.sum_hits == len(find_pairs(sizes, tables, key_tolerance=key_tol,
                                             sum_tolerance=sum_tol))
    # key hits are the pairs found when the sum-table test lets everything through;
    # they are tallied at the slider steps only
    if key_tol in TOLERANCE_STEPS:
        assert counts.key_hits == len(find_pairs(sizes, tables, key_tolerance=key_tol,
                                                 sum_tolerance=3200))
    else:
        assert counts.key_hits is None
    assert counts.all_pairs == n * (n - 1) // 2


@settings(max_examples=30, deadline=None)
@given(collections(min_size=1), st.sampled_from([0.2, 1.0, 3.0]))
def test_group_counts_match_find_groups(data, tol):
    sizes, tables = data
    n = len(sizes)
    hashes = [bytes([i % 256]) * 16 for i in range(n)]  # all contents differ
    files = StoredFiles(ids=np.arange(n), paths=[f"/f/{i:05d}" for i in range(n)], sizes=sizes,
                        mtimes_ns=np.arange(n), devices=np.ones(n, np.int64),
                        inodes=np.arange(n), tables=tables, hashes=hashes,
                        extensions=["bin"] * n)
    extra = np.frombuffer(b"".join(hashes), np.int64).reshape(n, 2)
    space = SearchSpace.build(sizes, tables, scheme=SKEW, extensions=files.extensions,
                              class_extra=extra, classes_by_extension=False)
    stats = ToleranceStats.build(space, max_key=5.0)
    assert stats.counts(Tolerances(tol, tol)).groups == len(find_groups(files,
                                                                        Tolerances(tol, tol)))


def test_curve_is_monotone_and_ratio_bounded():
    sizes, tables = collection(3, 300)
    stats = ToleranceStats.build(SearchSpace.build(sizes, tables), max_key=3.2)
    curve = stats.curve([0.01, 0.1, 0.4, 1.6, 3.2])
    with pytest.raises(ValueError, match="slider steps"):
        stats.curve([0.455])
    assert (np.diff(curve["key_hits"]) >= 0).all() and (np.diff(curve["sum_hits"]) >= 0).all()
    assert ((0 <= curve["ratio"]) & (curve["ratio"] <= 1)).all()


def test_slider_steps_are_round_numbers_covering_the_range():
    from simgui.core.search.tolerance_stats import TOLERANCE_STEPS
    assert TOLERANCE_STEPS[0] == 0.01 and TOLERANCE_STEPS[-1] == 10.0
    assert {0.1, 1.0, 3.2, 0.05}.issubset(set(TOLERANCE_STEPS.tolist()))
    ratios = TOLERANCE_STEPS[1:] / TOLERANCE_STEPS[:-1]
    assert (ratios > 1).all() and ratios.max() <= 1.1 + 1e-9  # no step jumps more than 10 %


@settings(max_examples=60, deadline=None)
@given(st.integers(1000, 200_000), st.integers(0, 270), st.integers(-2, 2), st.booleans())
@example(20_000, 20, 1, True)  # 0.03 %: 200 * 6 / 40,000 is 0.03, the search's limit 5.999...
def test_pairs_on_a_tolerance_boundary_agree_with_the_search(size, step, nudge, on_sum):
    """Distances placed exactly at a slider step's limit, where rounding decides."""
    from simgui.core.search.tolerance_stats import TOLERANCE_STEPS
    t = float(TOLERANCE_STEPS[step])
    base = np.full(16, size // 64, np.int64)
    other = base.copy()
    if on_sum:
        limit = int(max(1.0, (2 * size) * (t / 100.0) / 2.0))
        other[0] += max(0, limit + nudge)
        tol = Tolerances(10.0, t)
    else:
        tol = Tolerances(t, 10.0)
    tables = np.stack([base, other])
    sizes = np.array([size, size], np.int64)
    if not on_sum:
        # move the key by an amount on the key limit: the Uniform key is the table's sum
        limit = int(max(1.0, size * (t / 100.0)))
        tables[1, 1] += max(0, limit + nudge)
    from simgui.core.search.keys import UNIFORM
    space = SearchSpace.build(sizes, tables, scheme=UNIFORM)
    stats = ToleranceStats.build(space, max_key=10.0)
    expected = len(find_pairs(sizes, tables, key_tolerance=tol.key, sum_tolerance=tol.sum,
                              scheme=UNIFORM))
    assert stats.counts(tol).sum_hits == expected
    assert stats.counts(tol).groups == expected


near_steps = st.integers(0, len(TOLERANCE_STEPS) - 1).map(lambda i: float(TOLERANCE_STEPS[i]))


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.floats(allow_nan=True), st.floats(-1, 12), near_steps,
                 near_steps.map(lambda v: float(np.nextafter(v, np.inf))),
                 near_steps.map(lambda v: float(np.nextafter(v, -np.inf))),
                 st.integers(0, 10_000).map(lambda i: i / 1000)))
def test_the_step_lookup_is_a_binary_search(value):
    assert step_at_or_above(value) == np.searchsorted(TOLERANCE_STEPS, value)


def test_adjacency_split_between_threads_gives_the_same_groups_and_counts(monkeypatch):
    import simgui.core.search.workers as workers

    sizes, tables = collection(5, 400)
    space = SearchSpace.build(sizes, tables)
    probes = [Tolerances(k, s) for k, s in ((1.0, 1.0), (2.0, 0.37), (4.44, 3.2), (10.0, 10.0))]

    def results():
        stats = ToleranceStats.build(space, max_key=10.0)
        lists = [stats.hit_sum[a:b] for a, b in zip(stats.adjacent_start[:-1],
                                                     stats.adjacent_start[1:])]
        # each list in order of the step at or above its sum-table tolerance
        assert all((np.diff(np.searchsorted(TOLERANCE_STEPS, h)) >= 0).all() for h in lists)
        return [(stats.counts(t), stats.assign(t).group_of_class.tolist()) for t in probes]

    whole = results()
    monkeypatch.setattr(workers, "PARALLEL_FROM", 10)
    assert results() == whole
    assert any(c.sum_hits > 0 for c, _ in whole)


def test_a_slider_between_steps_sees_every_hit_of_its_step():
    # Lists are ordered by step only: within the step (4.4, 4.5], 4.48 may come before
    # 4.41, and a slider at 4.44 must still find 4.41 and stop only past the step.
    tables = np.arange(48, dtype=np.int64).reshape(3, 16) * 7
    space = SearchSpace.build(tables.sum(axis=1), tables)
    pairs = np.array([[0, 1], [0, 2]])
    stats = ToleranceStats.from_pairs(space, pairs, np.zeros(2), np.array([4.48, 4.41]),
                                      max_key=10.0, max_sum=10.0)
    at = Tolerances(1.0, 4.44)
    assert stats.counts(at).sum_hits == 1
    groups = stats.assign(at).group_of_class[space.classes.of_file]
    assert groups[0] == groups[2] >= 0 and groups[1] == -1
    assert stats.counts(Tolerances(1.0, 4.5)).sum_hits == 2
    assert stats.counts(Tolerances(1.0, 4.4)).sum_hits == 0


def test_tolerances_above_the_top_step_are_exact():
    # the fingerprint methods' differences reach 60 %, above the slider's top step
    tables = np.arange(64, dtype=np.int64).reshape(4, 16) * 7
    space = SearchSpace.build(tables.sum(axis=1), tables)
    pairs = np.array([[0, 1], [0, 2], [0, 3]])
    found = np.array([35.0, 12.0, 20.0])
    stats = ToleranceStats.from_pairs(space, pairs, np.zeros(3), found, max_key=10.0,
                                      max_sum=60.0)
    for tolerance in (11.0, 12.0, 19.99, 25.0, 35.0, 60.0):
        at = Tolerances(1.0, tolerance)
        assert stats.counts(at).sum_hits == int((found <= tolerance).sum())
        groups = stats.assign(at).group_of_class[space.classes.of_file]
        assert [bool(groups[f] >= 0 and groups[f] == groups[0]) for f in (1, 2, 3)] == \
            (found <= tolerance).tolist()


@settings(max_examples=40, deadline=None)
@given(collections(min_size=2), st.lists(st.sampled_from(["a", "b", "c"]), min_size=40,
                                         max_size=40),
       st.integers(0, 3), st.sampled_from([0.01, 0.5, 3.2, 10.0]),
       st.sampled_from([0.0, 0.37, 1.0, 10.0]), st.booleans())
def test_the_search_tallies_every_pair_it_meets_as_holding_them_would(data, exts, copies, key,
                                                                      keep, override):
    """The sliders' search keeps only the sum-table hits at ``keep``; its tally of every
    key candidate equals one over all the pairs a search holding them finds, with copies
    in several extensions (met once per extension, tallied once) and an extension with
    its own tolerances."""
    from simgui.core.search.steps import pair_tolerances, tally

    sizes, tables = data
    if copies:  # the first files again, under other extensions: classes met several times
        sizes = np.concatenate((sizes, sizes[:copies]))
        tables = np.concatenate((tables, tables[:copies]))
    extensions = [exts[i % len(exts)] for i in range(len(sizes))]
    space = SearchSpace.build(sizes, tables, extensions=extensions, classes_by_extension=False)
    overrides = {"c": Tolerances(2.0, 0.5)} if override else None
    weight = np.diff(space.classes.members_start)[space.classes.of_file]
    kept, hist = space.tallied_pairs(Tolerances(key, 3200.0), keep, weight, overrides)
    held = space.class_pairs(Tolerances(key, 3200.0), overrides)
    min_key, min_sum = pair_tolerances(held, space.sizes, space.keys, space.tables)
    fixed = np.isin(space.ext_ids[held[:, 0]], list(space.override_ids(overrides)))
    min_key[fixed] = min_sum[fixed] = 0.0
    np.testing.assert_array_equal(hist, tally(min_key, min_sum,
                                              weight[held[:, 0]] * weight[held[:, 1]]))

    def rows(p):
        return sorted(map(tuple, space.classes.of_file[p].tolist()))

    assert rows(kept) == rows(held[min_sum <= keep])


def test_confirmed_pairs_counted_on_several_threads_equal_one_pass(monkeypatch):
    """Beside the groups, the pairs the content check confirms are counted in parts of
    the class lists on the other threads: the same count as one pass, and as the
    pairs themselves say."""
    import simgui.core.search.workers as workers

    sizes, tables = collection(7, 500)
    space = SearchSpace.build(sizes, tables)
    pairs = space.class_pairs(Tolerances(10.0, 10.0))
    min_key, min_sum = np.random.default_rng(1).uniform(0, 10, (2, len(pairs)))
    shared = np.random.default_rng(2).uniform(0, 100, len(pairs))
    shared[::7] = np.nan  # no fingerprints: never confirmed
    stats = ToleranceStats.from_pairs(space, pairs, min_key, min_sum, max_key=10.0,
                                      max_sum=10.0, content=shared)
    probes = [simfind.Tolerances(k, s, c) for k, s, c in ((10.0, 10.0, 10.0), (3.2, 5.0, 50.0),
                                                           (0.5, 1.0, 90.0))]
    one = [stats.counts(t).similar for t in probes]
    monkeypatch.setattr(workers, "PARALLEL_FROM", 10)
    monkeypatch.setattr(workers, "workers", lambda: 4)
    assert [stats.counts(t).similar for t in probes] == one
    counts = np.diff(space.classes.members_start)
    weight = counts[space.classes.of_file[pairs]].prod(axis=1)  # file pairs each stands for
    for t, similar in zip(probes, one):
        hit = (min_key <= t.key) & (min_sum <= t.sum) & (shared >= t.content)
        assert similar == int(weight[hit].sum()) + stats.within


def test_a_slider_move_does_not_wait_behind_a_search_on_the_worker_pool(monkeypatch):
    """A search (a new analysis, a scan) may fill the search's worker pool for minutes;
    a slider move meanwhile runs on the calling thread and a pool of its own."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import simgui.core.search.workers as workers
    from simgui.core.search.group_rows import ClassRecords, group_columns

    sizes, tables = collection(7, 500)
    space = SearchSpace.build(sizes, tables)
    pairs = space.class_pairs(Tolerances(10.0, 10.0))
    shared = np.random.default_rng(2).uniform(0, 100, len(pairs))
    stats = ToleranceStats.from_pairs(space, pairs, np.zeros(len(pairs)), np.zeros(len(pairs)),
                                      max_key=10.0, max_sum=10.0, content=shared)
    monkeypatch.setattr(workers, "PARALLEL_FROM", 10)
    monkeypatch.setattr(workers, "workers", lambda: 2)
    pool = workers._pool()
    release = threading.Event()
    busy = [pool.submit(release.wait) for _ in range(pool._max_workers)]
    try:
        rows = np.arange(len(sizes))
        move = ThreadPoolExecutor(1)
        counted = move.submit(stats.counts_and_groups, simfind.Tolerances(10.0, 10.0, 50.0))
        # one group of every file, file 0 its reference
        starts = np.arange(len(sizes) + 1)
        measured = move.submit(group_columns, np.array([0, len(sizes)]), rows, rows,
                               ClassRecords(starts, rows, sizes, rows), rows, tables,
                               sizes * 1.0, np.zeros((len(sizes), 2), np.int64), sizes, rows)
        counts, _ = counted.result(timeout=120)  # not behind the blocked pool
        weight = np.diff(space.classes.members_start)[space.classes.of_file[pairs]].prod(axis=1)
        assert counts.similar == int(weight[shared >= 50].sum()) + stats.within
        table = measured.result(timeout=120)
        distance = np.abs(tables[table["rows"]] - tables[0]).sum(axis=1)
        np.testing.assert_array_equal(table["sum_distance"], distance)
        assert not any(b.done() for b in busy)
    finally:
        release.set()


def test_the_tally_is_the_same_in_one_chunk_or_many(monkeypatch):
    """The sweep's chunks (one per ~16,000 files) each tally their pairs into one
    histogram as they end, on worker threads."""
    sizes, tables = collection(3, 600)
    space = SearchSpace.build(sizes, tables)
    weight = np.diff(space.classes.members_start)[space.classes.of_file]
    whole, whole_hist = space.tallied_pairs(Tolerances(10.0, 3200.0), 2.0, weight)
    monkeypatch.setattr(simfind, "_CHUNK_FILES", 16)
    parts, parts_hist = space.tallied_pairs(Tolerances(10.0, 3200.0), 2.0, weight)
    np.testing.assert_array_equal(parts_hist, whole_hist)
    assert whole_hist.sum() > 0
    assert sorted(map(tuple, parts.tolist())) == sorted(map(tuple, whole.tolist()))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 300),
       st.lists(st.tuples(st.integers(0, len(TOLERANCE_STEPS) - 1),
                          st.integers(0, len(TOLERANCE_STEPS) - 1)), min_size=1, max_size=8),
       st.sampled_from([0.0, 30.0, 50.0]))
def test_grouping_at_steps_from_the_hits_steps_equals_it_from_their_tolerances(
        seed, n, moves, min_content):
    """A slider move groups from each hit's step (two bytes) instead of its tolerance
    (eight): the same groups, with the content check or without."""
    import dataclasses

    sizes, tables = collection(seed, n)
    space = SearchSpace.build(sizes, tables)
    rng = np.random.default_rng(seed)
    stats = ToleranceStats.build(space, 10.0, rng.permutation(n), max_sum=10.0,
                                 content=lambda pairs: rng.uniform(0, 100, len(pairs)))
    from_tolerances = dataclasses.replace(stats, hit_key_step=None, hit_sum_step=None)
    for k, s in moves:
        t = simfind.Tolerances(float(TOLERANCE_STEPS[k]), float(TOLERANCE_STEPS[s]),
                               min_content)
        a, b = stats.assign(t), from_tolerances.assign(t)
        np.testing.assert_array_equal(a.group_start, b.group_start)
        np.testing.assert_array_equal(a.group_classes, b.group_classes)


@settings(max_examples=40, deadline=None)
@given(collections(min_size=2), st.lists(st.sampled_from(["a", "b", "c"]), min_size=40,
                                         max_size=40),
       st.integers(0, 3), st.sampled_from([0.5, 3.2, 10.0]), st.sampled_from([10.0, 50.0]),
       st.booleans(), st.integers(1, 64), st.sampled_from([1, 2, 7, 1 << 21]),
       st.sampled_from([None, 1, 5, 40, 10**9]))
def test_a_content_floor_dropped_during_the_search_equals_one_dropped_after_it(
        data, exts, copies, max_sum, floor, override, chunk, between, max_found):
    """The content floor drops pairs a chunk of the search at a time (few of a real
    collection's hits are related files, too many to hold at once at a million files),
    and within a chunk every ``between`` pairs found; the search holds at most
    ``max_found`` of them, lowering its sum-table ceiling as it must (HeldHits): the
    statistics equal those of every hit held, then the floor applied and the pairs cut
    at that ceiling; with copies in several extensions (their pairs tallied once per
    pair of classes), an extension with its own tolerances, and chunks of any size."""
    import pytest

    from simgui.core.search.steps import pair_tolerances

    sizes, tables = data
    if copies:
        sizes = np.concatenate((sizes, sizes[:copies]))
        tables = np.concatenate((tables, tables[:copies]))
    extensions = [exts[i % len(exts)] for i in range(len(sizes))]
    space = SearchSpace.build(sizes, tables, extensions=extensions, classes_by_extension=False)
    overrides = {"c": Tolerances(2.0, 0.5)} if override else None

    def content(pairs):  # a share of content in common for each pair, the same every time
        a, b = pairs[:, 0], pairs[:, 1]
        return ((a * 7919 + b * 104729) % 101).astype(np.float64)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simfind, "_KEEP_CHUNK_FILES", chunk)
        patch.setattr(simfind, "_KEEP_PAIRS", between)
        streamed = ToleranceStats.build(space, 10.0, max_sum=max_sum, content=content,
                                        overrides=overrides, content_floor=floor,
                                        max_found=max_found)
        assert streamed.max_sum <= max_sum
        # the search itself keeps only what passes (or what it tallies after it: the
        # pairs of classes searched in several extensions), not everything
        weight = np.diff(space.classes.members_start)[space.classes.of_file]
        found, _ = space.tallied_pairs(simfind.Tolerances(10.0, 3200.0, 0.0), max_sum, weight,
                                       overrides, keep=lambda p: content(p) >= floor)
        multi = space._searched_in_several_extensions(space.search_reps())
        assert ((content(found) >= floor) | multi[found[:, 0]] | multi[found[:, 1]]).all()
    # every hit held, then the floor: what the statistics did before
    weight = np.diff(space.classes.members_start)[space.classes.of_file]
    pairs, hist = space.tallied_pairs(simfind.Tolerances(10.0, 3200.0, 0.0), max_sum, weight,
                                      overrides)
    min_key, min_sum = pair_tolerances(pairs, space.sizes, space.keys, space.tables)
    fixed = np.isin(space.ext_ids[pairs[:, 0]], list(space.override_ids(overrides)))
    min_key[fixed] = min_sum[fixed] = 0.0
    keep = content(pairs) >= floor
    if max_found is None:
        assert streamed.max_sum == max_sum
    else:  # the largest step whose pairs (the first step's, whatever their number) fit,
        # of those the search gave it to hold (not those of classes searched in several
        # extensions, which the search thins to one per pair of classes itself)
        from simgui.core.search.tolerance_stats import _largest_step_holding
        multi = space._searched_in_several_extensions(space.search_reps())
        given_ = keep & ~(multi[pairs[:, 0]] | multi[pairs[:, 1]])
        assert streamed.max_sum == _largest_step_holding(min_sum[given_], max_sum, max_found)
    held = ToleranceStats.from_pairs(space, pairs[keep], min_key[keep], min_sum[keep],
                                     max_key=10.0, max_sum=streamed.max_sum,
                                     content=content(pairs)[keep], tallied=hist)
    for name in ("key_hits_at", "sum_hits_at", "adjacent_start", "class_order", "hit_key_step",
                 "hit_sum_step"):
        np.testing.assert_array_equal(getattr(streamed, name), getattr(held, name), name)

    def edges(stats):  # each list's edges, in a canonical order (ties may come either way)
        rows = []
        for p in range(len(stats.class_order)):
            lo, hi = stats.adjacent_start[p], stats.adjacent_start[p + 1]
            rows.append(sorted(zip(stats.adjacent_class[lo:hi].tolist(),
                                   stats.hit_key[lo:hi].tolist(), stats.hit_sum[lo:hi].tolist(),
                                   stats.weight[lo:hi].tolist(),
                                   stats.hit_content[lo:hi].tolist())))
        return rows

    assert edges(streamed) == edges(held)
    assert streamed.content_floor == floor


def _some_share(pairs):
    """A share of content in common for each pair, the same for the same pair."""
    return ((pairs[:, 0] * 7919 + pairs[:, 1] * 104729) % 101).astype(np.float64)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(20, 300), st.integers(0, 400),
       st.sampled_from([1.0, 3.7, 10.0]), st.sampled_from([0.0, 50.0]), st.booleans())
def test_the_pairs_kept_for_groups_are_cut_exactly_to_a_count(seed, n, max_kept, max_sum,
                                                              floor, key_hits):
    """``max_kept``: the groups reach the largest slider step whose pairs are no more
    than that many (counted, not estimated), below the search's own ceiling; the counts
    still reach the ceiling.  With a content ``floor``, only the pairs above it count
    (dropped during the search with ``key_hits``, after it without)."""
    sizes, tables = collection(seed, n)
    space = SearchSpace.build(sizes, tables)
    check = dict(content=_some_share, content_floor=floor, key_hits=key_hits) if floor \
        else dict(key_hits=key_hits)
    whole = ToleranceStats.build(space, 10.0, max_sum=max_sum, **check)
    cut = ToleranceStats.build(space, 10.0, max_sum=max_sum, max_kept=max_kept, **check)
    pairs = whole.pairs_kept
    kept = cut.pairs_kept
    np.testing.assert_array_equal(cut.key_hits_at, whole.key_hits_at)
    np.testing.assert_array_equal(cut.sum_hits_at, whole.sum_hits_at)
    assert cut.max_sum <= max_sum
    if pairs <= max_kept:
        assert cut.max_sum == max_sum and kept == pairs
        return
    assert cut.max_sum in TOLERANCE_STEPS

    def held_at(tolerance):
        return int((whole.hit_sum <= tolerance).sum())

    assert kept == held_at(cut.max_sum)
    above = TOLERANCE_STEPS[TOLERANCE_STEPS > cut.max_sum]
    assert kept <= max_kept or cut.max_sum == TOLERANCE_STEPS[0]
    # the next step up would hold too many, unless the search stopped below it
    assert not len(above) or above[0] > max_sum or held_at(above[0]) > max_kept


def test_the_cut_counts_a_pair_on_a_step_at_that_step():
    """A pair whose sum-table tolerance is exactly a step is a hit at that step (as
    ``min_sum <= max_sum`` keeps it), not only at the next."""
    from simgui.core.search.tolerance_stats import _largest_step_holding

    steps = TOLERANCE_STEPS
    min_sum = np.array([steps[3]] * 2 + [steps[5]] * 3 + [steps[9]] * 4, np.float64)
    assert _largest_step_holding(min_sum, float(steps[20]), 2) == steps[4]
    assert _largest_step_holding(min_sum, float(steps[20]), 5) == steps[8]
    assert _largest_step_holding(min_sum, float(steps[20]), 9) == steps[20]
    assert _largest_step_holding(min_sum, float(steps[7]), 9) == steps[7]
    assert _largest_step_holding(min_sum, float(steps[20]), 1) == steps[2]
    # too many at the first step: it is kept all the same
    assert _largest_step_holding(np.zeros(3), float(steps[20]), 1) == steps[0]
    # nudged just above a step: a hit only at the next
    assert _largest_step_holding(np.nextafter(min_sum, np.inf), float(steps[20]), 2) == steps[5]
    assert _largest_step_holding(min_sum, float(steps[0]) / 2, 0) == float(steps[0]) / 2


def test_each_pair_kept_is_in_one_list_and_the_file_pairs_are_let_go(monkeypatch):
    """A pair of classes is in the list of the one grouping takes first, and the file
    pairs handed over are held by nothing while the lists are made (at a million files
    they are 16 bytes a pair at the peak of the build)."""
    import weakref

    from simgui.core.search import tolerance_stats
    from simgui.core.search.steps import pair_tolerances

    alive_then = []
    make_lists = tolerance_stats._adjacency

    def watched(*args):
        alive_then.append(gone() is not None)
        return make_lists(*args)

    monkeypatch.setattr(tolerance_stats, "_adjacency", watched)

    sizes, tables = collection(11, 400)
    space = SearchSpace.build(sizes, tables)
    pairs = space.class_pairs(Tolerances(5.0, 5.0))
    assert len(pairs) > 100
    min_key, min_sum = pair_tolerances(pairs, space.sizes, space.keys, space.tables)
    of_file = space.classes.of_file
    found = {frozenset(p) for p in of_file[pairs].tolist()}
    gone = weakref.ref(pairs)
    handed = [pairs]
    del pairs
    stats = ToleranceStats._from_handed(space, handed, min_key, min_sum, max_key=5.0,
                                        max_sum=5.0)
    assert handed == [] and alive_then == [False]
    position = {c: p for p, c in enumerate(stats.class_order.tolist())}
    owners = np.repeat(stats.class_order, np.diff(stats.adjacent_start)).tolist()
    kept = list(zip(owners, stats.adjacent_class.tolist()))
    assert stats.pairs_kept == len(kept) == len(found)
    assert {frozenset(p) for p in kept} == found
    assert all(position[a] < position[b] for a, b in kept)


def test_weights_stay_exact_for_classes_of_many_copies():
    """A pair's weight is the product of its classes' file counts: in four bytes where
    they fit, else in eight (two classes of 70,000 copies stand for 4.9 billion pairs)."""
    n = 70_000
    table = np.full(16, 1_000, np.int64)
    near = table.copy()
    near[0] += 3
    for copies, dtype in ((n, np.int64), (3, np.uint32)):
        tables = np.vstack([np.tile(table, (copies, 1)), np.tile(near, (copies, 1))])
        sizes = np.full(2 * copies, 20_000, np.int64)
        stats = ToleranceStats.build(SearchSpace.build(sizes, tables), max_key=5.0)
        assert stats.weight.dtype == dtype and stats.pairs_kept == 1
        within = 2 * (copies * (copies - 1) // 2)
        assert stats.counts(Tolerances(5.0, 5.0)).sum_hits == copies * copies + within
        # between steps the count comes from the lists' weights
        assert stats.counts(Tolerances(4.99, 4.99)).sum_hits == copies * copies + within


def _assert_the_same_at(whole, stepped, k: int, s: int, share: float) -> None:
    """Both statistics count and group alike at key step k, sum-table step s and the
    content check at ``share``."""
    t = simfind.Tolerances(float(TOLERANCE_STEPS[k]), float(TOLERANCE_STEPS[s]), share)
    (a, ga), (b, gb) = whole.counts_and_groups(t), stepped.counts_and_groups(t)
    assert a == b, t
    np.testing.assert_array_equal(ga.group_start, gb.group_start)
    np.testing.assert_array_equal(ga.group_classes, gb.group_classes)


def _signatures(n: int, rng) -> np.ndarray:
    """MinHash-like signatures of ``n`` files from three families: each file keeps a share
    of its family's slots (any from none to all), so pairs share any number of slots."""
    family = rng.integers(0, 2**32, (3, 128), dtype=np.uint32)
    out = rng.integers(0, 2**32, (n, 128), dtype=np.uint32)
    kept = rng.random((n, 128)) < rng.random(n)[:, None]
    out[kept] = family[rng.integers(0, 3, n)][kept]
    return out


@settings(max_examples=40, deadline=None)
@given(collections(min_size=2), st.lists(st.sampled_from(["a", "b", "c"]), min_size=40,
                                         max_size=40),
       st.integers(0, 3), st.sampled_from([0.5, 3.2, 10.0]), st.sampled_from([0.0, 10.0, 50.0]),
       st.booleans(), st.sampled_from([None, 1, 5, 40, 10**9]), st.integers(0, 2**32 - 1),
       st.booleans())
def test_statistics_kept_for_the_steps_alone_equal_the_whole_at_every_step(
        data, exts, copies, max_sum, floor, override, max_found, seed, with_content):
    """What the window keeps (``steps_only``: each pair's steps and equal MinHash slots, its
    weight made from its classes' sizes) counts and groups as the statistics that keep
    every pair's tolerances, share and weight do, at every slider step and setting of
    the content check; with copies in several extensions, an extension with its own
    tolerances, a content floor, and a budget that lowers the sum-table ceiling."""
    from simgui.core.search.methods import ContentShares

    sizes, tables = data
    rng = np.random.default_rng(seed)
    signatures = _signatures(len(sizes), rng)
    if copies:  # copies: the same size, table and signature
        sizes = np.concatenate((sizes, sizes[:copies]))
        tables = np.concatenate((tables, tables[:copies]))
        signatures = np.concatenate((signatures, signatures[:copies]))
    extensions = [exts[i % len(exts)] for i in range(len(sizes))]
    space = SearchSpace.build(sizes, tables, extensions=extensions, classes_by_extension=False)
    overrides = {"c": Tolerances(2.0, 0.5)} if override else None
    content = ContentShares(signatures) if with_content else None
    priority = rng.permutation(len(sizes))
    options = dict(max_sum=max_sum, content=content, overrides=overrides,
                   content_floor=floor if with_content else 0.0, max_found=max_found,
                   max_kept=max_found)
    whole = ToleranceStats.build(space, 10.0, priority, **options)
    stepped = ToleranceStats.build(space, 10.0, priority, steps_only=True, **options)
    assert stepped.steps_only and not whole.steps_only
    assert stepped.hit_key is None and stepped.weight is None and stepped.hit_content is None
    assert (stepped.max_sum, stepped.pairs_kept, stepped.content_floor, stepped.within) == \
        (whole.max_sum, whole.pairs_kept, whole.content_floor, whole.within)
    np.testing.assert_array_equal(stepped.class_order, whole.class_order)
    np.testing.assert_array_equal(stepped.sum_hits_at, whole.sum_hits_at)
    np.testing.assert_array_equal(np.sort(stepped.pair_weights()), np.sort(whole.weight))
    top = int(np.searchsorted(TOLERANCE_STEPS, whole.max_sum))
    shares = [0.0] if not with_content else \
        sorted(x for x in {0.0, 1.0, 10.0, 30.0, 50.0, 75.0, 99.0, 100.0} if x >= floor)
    for k in sorted({0, 1, 40, 100, 200, 250, len(TOLERANCE_STEPS) - 1}):
        for s in sorted({0, min(1, top), top // 2, top}):
            for share in shares:
                _assert_the_same_at(whole, stepped, k, s, share)
    # between the steps they group nowhere (the analysis asks a search there)
    with pytest.raises(ValueError, match="slider steps only"):
        stepped.assign(simfind.Tolerances(0.0, 0.0, floor if with_content else 0.0))


def test_statistics_for_the_steps_alone_of_a_dense_collection_on_the_worker_threads(
        monkeypatch):
    """One larger case than the property test draws: lists of tens of pairs (sorted by
    counting, not insertion), and the lists dealt, sorted and counted in parts on the
    worker threads; the same groups and counts as the whole statistics at every step."""
    from simgui.core.search import workers
    from simgui.core.search.methods import ContentShares

    monkeypatch.setattr(workers, "PARALLEL_FROM", 1000)
    rng = np.random.default_rng(8)
    n = 700
    tables = rng.integers(300, 320, 16)[None, :] + rng.integers(0, 6, (n, 16))
    sizes = tables.sum(axis=1) * rng.choice([1, 1, 2], n)
    extensions = list(rng.choice(["a", "b"], n))
    space = SearchSpace.build(sizes, tables, extensions=extensions, classes_by_extension=False)
    content = ContentShares(_signatures(n, rng))
    priority = rng.permutation(n)
    options = dict(max_sum=10.0, content=content, content_floor=10.0)
    whole = ToleranceStats.build(space, 10.0, priority, **options)
    stepped = ToleranceStats.build(space, 10.0, priority, steps_only=True, **options)
    lengths = np.diff(stepped.adjacent_start)
    assert (lengths > 32).sum() > 10 and stepped.pairs_kept > 10 * workers.PARALLEL_FROM
    for k in (0, 100, 150, 200, len(TOLERANCE_STEPS) - 1):
        for s in (0, 100, 150, 200, len(TOLERANCE_STEPS) - 1):
            for share in (10.0, 40.0, 60.0, 100.0):
                _assert_the_same_at(whole, stepped, k, s, share)
