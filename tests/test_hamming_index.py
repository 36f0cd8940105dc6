"""HammingIndex and hamming_pairs against an obviously correct brute force."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.search.hamming_index import HammingIndex, hamming_pairs

ONES = 2**64 - 1

# (num_blocks, max_distance): block counts that do and do not divide 64,
# distance 0, one-bit blocks, many tables
PARAMS = [(1, 0), (2, 0), (4, 0), (2, 1), (3, 1), (5, 1), (3, 2), (5, 2), (7, 2),
          (4, 3), (5, 3), (6, 3), (7, 3), (8, 3), (7, 4), (9, 5), (64, 1)]


# --------------------------------------------------------------------------- reference


def popcount(x: int) -> int:
    return bin(x).count("1")


def brute_find_all(stored, query, d):
    return sorted(s for s in set(stored) if popcount(s ^ query) <= d)


def brute_pairs(fps, d):
    return [(i, j, popcount(fps[i] ^ fps[j]))
            for i in range(len(fps)) for j in range(i + 1, len(fps))
            if popcount(fps[i] ^ fps[j]) <= d]


def as_ints(arr):
    return [int(x) for x in arr]


# --------------------------------------------------------------------------- strategies


@st.composite
def near_values(draw, d, min_size=0, max_size=30):
    """Random values, the extremes, and values exactly d-1, d, d+1 bits from a
    few bases, so boundary distances keep coming up; with repeats."""
    bases = draw(st.lists(
        st.one_of(st.integers(0, ONES), st.sampled_from([0, ONES, 0x5555555555555555,
                                                         0xAAAAAAAAAAAAAAAA, 1, 1 << 63])),
        min_size=1, max_size=4))
    out = []
    size = draw(st.integers(min_size, max_size))
    while len(out) < size:
        base = draw(st.sampled_from(bases))
        kind = draw(st.sampled_from(["flip", "flip", "flip", "same", "random"]))
        if kind == "random":
            out.append(draw(st.integers(0, ONES)))
        elif kind == "same":
            out.append(base)
        else:
            k = draw(st.sampled_from([max(d - 1, 0), d, d, d + 1, d + 1, d + 2]))
            bits = draw(st.lists(st.integers(0, 63), min_size=k, max_size=k, unique=True))
            out.append(base ^ sum(1 << b for b in bits))
    return out


@st.composite
def index_cases(draw):
    b, d = draw(st.sampled_from(PARAMS))
    stored = draw(near_values(d, 0, 30))
    queries = draw(near_values(d, 0, 20))
    # queries also hit the stored values and their neighbours directly
    queries += draw(st.lists(st.sampled_from(stored), max_size=5)) if stored else []
    return b, d, stored, queries


# --------------------------------------------------------------------------- index


def check_queries(index, stored, queries, d):
    q = np.array(queries, dtype=np.uint64)
    found_all = index.find_all(q)
    matches, found = index.find_first(q)
    assert isinstance(found_all, list) and len(found_all) == len(queries)
    assert matches.dtype == np.uint64 and found.dtype == bool
    assert matches.shape == found.shape == (len(queries),)
    for qv, got, m, f in zip(queries, found_all, matches, found):
        want = brute_find_all(stored, qv, d)
        assert got.dtype == np.uint64
        assert as_ints(got) == want, (hex(qv), [hex(x) for x in want])
        assert bool(f) == bool(want)
        if f:
            assert int(m) in want
        else:
            assert int(m) == 0


@settings(max_examples=100)
@given(index_cases())
def test_queries_match_brute_force(case):
    b, d, stored, queries = case
    index = HammingIndex(b, d)
    index.add(np.array(stored, dtype=np.uint64))
    assert len(index) == len(set(stored))
    check_queries(index, stored, queries, d)


@settings(max_examples=50)
@given(st.sampled_from(PARAMS), st.data())
def test_add_remove_sequence_matches_set(params, data):
    b, d = params
    index = HammingIndex(b, d)
    model: set[int] = set()
    pool = data.draw(near_values(d, 1, 25))
    for _ in range(data.draw(st.integers(1, 5))):
        batch = data.draw(st.lists(st.sampled_from(pool), max_size=12))
        if data.draw(st.booleans()):
            index.add(np.array(batch, dtype=np.uint64))
            model |= set(batch)
        else:
            index.remove(np.array(batch, dtype=np.uint64))
            model -= set(batch)
        assert len(index) == len(model)
        assert as_ints(index.fingerprints) == sorted(model)
    check_queries(index, sorted(model), pool + data.draw(near_values(d, 0, 8)), d)


@pytest.mark.parametrize("b,d", PARAMS + [(64, 2), (64, 0), (13, 4)])
def test_exact_boundary_distances(b, d):
    """Every distance 0..d+2 from each stored value, over all blocks patterns."""
    rng = np.random.default_rng(b * 100 + d)
    stored = [0, ONES] + [int(x) for x in rng.integers(0, ONES, 6, dtype=np.uint64,
                                                      endpoint=True)]
    queries = []
    for s in stored:
        for k in range(d + 3):
            bits = rng.choice(64, k, replace=False)
            queries.append(s ^ sum(1 << int(x) for x in bits))
        # flips confined to one block, and spread one per block
        queries.append(s ^ ((1 << min(d + 1, 64)) - 1))
        queries.append(s ^ sum(1 << (64 * i // b) for i in range(min(b, d + 1))))
    index = HammingIndex(b, d)
    index.add(stored)
    check_queries(index, stored, queries, d)
    pairs, dist = hamming_pairs(stored + queries, d, b)
    fps = stored + queries
    assert [(i, j, k) for (i, j), k in zip(pairs.tolist(), dist.tolist())] == \
        brute_pairs(fps, d)


def test_empty_index_and_empty_queries():
    index = HammingIndex(6, 3)
    assert len(index) == 0
    matches, found = index.find_first(np.array([0, 5, ONES], dtype=np.uint64))
    assert as_ints(matches) == [0, 0, 0] and not found.any()
    assert [r.shape for r in index.find_all(np.array([0, ONES], dtype=np.uint64))] == \
        [(0,), (0,)]
    index.remove(np.array([1, 2], dtype=np.uint64))  # absent: no-op
    assert len(index) == 0
    index.add(np.array([], dtype=np.uint64))
    assert len(index) == 0
    index.add(np.array([7, 7, 7], dtype=np.uint64))
    assert len(index) == 1
    matches, found = index.find_first(np.array([], dtype=np.uint64))
    assert matches.shape == found.shape == (0,)
    assert index.find_all(np.array([], dtype=np.uint64)) == []
    assert index.find_all([]) == []


def test_set_semantics_and_extremes():
    index = HammingIndex(5, 2)
    index.add(np.array([0, ONES, 3, 0], dtype=np.uint64))
    index.add(np.array([ONES, 3], dtype=np.uint64))  # all present: no-op
    assert len(index) == 3
    assert as_ints(index.fingerprints) == [0, 3, ONES]
    [near0, near_ones] = index.find_all(np.array([1, ONES ^ 0b101], dtype=np.uint64))
    assert as_ints(near0) == [0, 3] and as_ints(near_ones) == [ONES]
    index.remove(np.array([3, 3, 12345], dtype=np.uint64))
    assert as_ints(index.fingerprints) == [0, ONES]
    index.remove(np.array([0, ONES], dtype=np.uint64))
    assert len(index) == 0 and not index.find_first([0])[1].any()


def test_input_forms():
    index = HammingIndex(4, 1)
    index.add([ONES, 1, 2**63])  # Python ints beyond int64 stay exact
    index.add(np.array([5], dtype=np.int64))
    index.add(np.array([6], dtype=np.uint32))
    assert as_ints(index.fingerprints) == [1, 5, 6, 2**63, ONES]
    assert as_ints(index.find_all([ONES ^ 4])[0]) == [ONES]
    with pytest.raises(ValueError):
        index.add(np.array([-1], dtype=np.int64))
    with pytest.raises(ValueError):
        index.add([-1, 2])
    with pytest.raises(ValueError):
        index.add([2**64])
    with pytest.raises(TypeError):
        index.add(np.array([1.0]))
    with pytest.raises(TypeError):
        index.find_all(np.array([True]))
    with pytest.raises(ValueError):
        index.find_first(np.zeros((2, 2), dtype=np.uint64))
    assert len(index) == 5


@pytest.mark.parametrize("b,d", [(3, 3), (2, 3), (65, 3), (6, -1), (0, 0), (-1, -2)])
def test_invalid_parameters(b, d):
    with pytest.raises(ValueError):
        HammingIndex(b, d)
    with pytest.raises(ValueError):
        hamming_pairs(np.array([1, 2], dtype=np.uint64), d, b)


def test_invalid_parameter_types_and_default_blocks():
    with pytest.raises(TypeError):
        HammingIndex(6.0, 3)
    with pytest.raises(TypeError):
        HammingIndex(6, True)
    with pytest.raises(TypeError):
        hamming_pairs([1, 2], 1.5)
    with pytest.raises(ValueError):
        hamming_pairs([1, 2], -1)
    with pytest.raises(ValueError):
        hamming_pairs([1, 2], 64)
    with pytest.raises(ValueError):
        HammingIndex(64, 32)  # C(64, 32) tables
    index = HammingIndex(np.int64(6), np.int32(3))
    assert (index.num_blocks, index.max_distance, index.num_tables) == (6, 3, 20)


# --------------------------------------------------------------------------- all pairs


@settings(max_examples=100)
@given(st.sampled_from(PARAMS + [(None, 0), (None, 2), (None, 3), (None, 7)]), st.data())
def test_pairs_match_brute_force(params, data):
    b, d = params
    fps = data.draw(near_values(d, 0, 35))
    pairs, dist = hamming_pairs(np.array(fps, dtype=np.uint64), d, b)
    assert pairs.dtype == np.int64 and dist.dtype == np.int64
    assert pairs.shape == (len(dist), 2)
    assert [(i, j, k) for (i, j), k in zip(pairs.tolist(), dist.tolist())] == \
        brute_pairs(fps, d)


def test_pairs_of_many_equal_values():
    fps = np.array([9] * 300 + [8] * 3 + [ONES] * 2 + [10], dtype=np.uint64)
    pairs, dist = hamming_pairs(fps, 1)
    assert [(i, j, k) for (i, j), k in zip(pairs.tolist(), dist.tolist())] == \
        brute_pairs([int(x) for x in fps], 1)
    equal = hamming_pairs(np.full(2000, 123, dtype=np.uint64), 0)[0]
    assert equal.shape == (2000 * 1999 // 2, 2)
    assert (equal[:, 0] < equal[:, 1]).all()


def test_pairs_small_inputs():
    for fps in ([], [5]):
        pairs, dist = hamming_pairs(np.array(fps, dtype=np.uint64), 3)
        assert pairs.shape == (0, 2) and dist.shape == (0,)
        assert pairs.dtype == dist.dtype == np.int64
    pairs, dist = hamming_pairs([0, ONES], 63, 64)
    assert pairs.tolist() == [] and dist.tolist() == []
    pairs, dist = hamming_pairs([ONES, 0, ONES], 0)
    assert pairs.tolist() == [[0, 2]] and dist.tolist() == [0]


def test_larger_random_against_numpy():
    """A few thousand values with planted neighbours, checked with numpy."""
    rng = np.random.default_rng(7)
    base = rng.integers(0, ONES, 3000, dtype=np.uint64, endpoint=True)
    flips = rng.integers(0, 64, (1000, 3))
    near = base[:1000] ^ np.bitwise_or.reduce(np.uint64(1) << flips.astype(np.uint64), axis=1)
    fps = np.concatenate([base, near, base[:50]])
    d = 3
    index = HammingIndex(6, d)
    index.add(fps[:3500])
    index.remove(fps[:100])
    stored = np.unique(fps[100:3500])
    queries = np.concatenate([fps[3000:], rng.integers(0, ONES, 200, dtype=np.uint64)])
    got = index.find_all(queries)
    for q, g in zip(queries, got):
        assert np.array_equal(g, stored[np.bitwise_count(stored ^ q) <= d])
    dist_all = np.bitwise_count(fps[:, None] ^ fps[None, :])
    i, j = np.nonzero(np.triu(dist_all <= d, 1))
    pairs, dist = hamming_pairs(fps, d)
    assert np.array_equal(pairs, np.stack([i, j], axis=1))
    assert np.array_equal(dist, dist_all[i, j])


@pytest.mark.parametrize("b,d", [(6, 3), (5, 2), (4, 3), (9, 5)])
def test_crowded_prefixes_and_many_matches(b, d):
    """Hundreds of values sharing their high bits: long runs in every table,
    queries with dozens of matches."""
    rng = np.random.default_rng(b + d)
    high = np.uint64(0xDEADBEEF12300000)
    fps = np.concatenate([high | np.arange(400, dtype=np.uint64),
                          high | (np.arange(50, dtype=np.uint64) << np.uint64(20)),
                          rng.integers(0, ONES, 100, dtype=np.uint64, endpoint=True)])
    index = HammingIndex(b, d)
    index.add(fps[::2])
    index.add(fps[1::2])
    index.remove(fps[::7])
    stored = np.unique(np.setdiff1d(fps, fps[::7]))
    queries = np.concatenate([fps[:60], fps[::9] ^ np.uint64(3)])
    got = index.find_all(queries)
    assert max(g.shape[0] for g in got) > 24
    for q, g in zip(queries, got):
        assert np.array_equal(g, stored[np.bitwise_count(stored ^ q) <= d])
    matches, found = index.find_first(queries)
    assert found.tolist() == [g.shape[0] > 0 for g in got]
    assert (np.bitwise_count(matches[found] ^ queries[found]) <= d).all()
    dist_all = np.bitwise_count(fps[:, None] ^ fps[None, :])
    i, j = np.nonzero(np.triu(dist_all <= d, 1))
    pairs, dist = hamming_pairs(fps, d, b)
    assert np.array_equal(pairs, np.stack([i, j], axis=1))
    assert np.array_equal(dist, dist_all[i, j])
