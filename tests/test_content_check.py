"""The content check after the sum tables, and the similarity users read.

Similar must mean similar: unrelated files never pass the check, whatever their sizes
and sum tables; identical copies never need it; the percent is the share of content
two files have in common, low for unrelated files and high for small edits.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simgui.core.reading.fingerprints import fingerprints
from simgui.core.reading.scanner import ScanOptions, scan
from simgui.core.search import methods
from simgui.core.search.analysis import Analysis, SearchSettings, find_groups
from simgui.core.search.pairs import similar_pairs
from simgui.core.search.simfind import DEFAULT_MIN_CONTENT, Tolerances
from simgui.core.store import Store, StoredFiles
from simgui.core.reading.sumtable import sum_table


def stored(contents: list[bytes], names: list[str] | None = None) -> StoredFiles:
    """What a scan would store for these contents (no files needed)."""
    import hashlib

    n = len(contents)
    names = names or [f"/f/{i}.bin" for i in range(n)]
    prints = [fingerprints(c) for c in contents]
    zeros = np.zeros(n, np.int64)
    return StoredFiles(
        np.arange(n), names, np.array([len(c) for c in contents], np.int64), zeros, zeros,
        np.arange(n), np.array([sum_table(c) for c in contents], np.int64).reshape(-1, 16),
        [hashlib.blake2b(c, digest_size=16).digest() for c in contents],
        [name.rsplit(".", 1)[-1] for name in names],
        simhashes=np.array([p[0] for p in prints], np.uint64),
        signatures=np.array([p[1] for p in prints], np.uint32).reshape(-1, 128),
        fingerprinted=np.ones(n, bool))


def share(a: bytes, b: bytes) -> float:
    files = stored([a, b])
    return float(methods.shared_content(files.signatures, np.array([[0, 1]]))[0])


@settings(max_examples=60, deadline=None)
@given(st.integers(64, 40_000), st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_unrelated_random_files_of_equal_size_are_never_confirmed(size, seed, count):
    """Their sum tables are alike (the law of large numbers): the widest tolerances
    pair them, and the check must drop every pair."""
    rng = np.random.default_rng(seed)
    contents = [rng.integers(0, 256, size, dtype=np.uint8).tobytes() for _ in range(count)]
    files = stored(contents)
    loose = Tolerances(10, 10, 1.0)  # the sliders' tops, and the check at its lowest
    assert len(similar_pairs(files, loose)) == 0
    assert find_groups(files, loose) == []
    unchecked = similar_pairs(files, Tolerances(10, 10, 0))
    assert (unchecked.similarity < 10).all()  # what the paper's method alone pairs reads low


@settings(max_examples=40, deadline=None)
@given(st.lists(st.binary(min_size=0, max_size=3000), min_size=1, max_size=5),
       st.lists(st.integers(0, 4), min_size=1, max_size=6),
       st.sampled_from([0.0, 1.0, 50.0, 99.0, 100.0]))
def test_identical_copies_are_never_dropped_by_the_check(originals, copies, content):
    contents = list(originals) + [originals[k % len(originals)] for k in copies]
    files = stored(contents)
    found = similar_pairs(files, Tolerances(3.2, 1.0, content))
    same = {tuple(p) for p, ident in zip(found.pairs.tolist(), found.identical) if ident}
    # every file with an equal earlier one is listed with the first file of its contents
    first = {}
    expected = set()
    for i, c in enumerate(contents):
        if c in first:
            expected.add((first[c], i))
        else:
            first[c] = i
    assert same == expected
    assert (found.similarity[found.identical] == 100).all()
    # and the groups hold every copy
    grouped = {m.index for g in find_groups(files, Tolerances(3.2, 1.0, content))
               for m in g.files}
    assert {j for _, j in expected} <= grouped


def test_the_percent_is_the_share_of_content_in_common():
    rng = np.random.default_rng(3)
    base = rng.integers(0, 256, 100_000, dtype=np.uint8)
    block = base.copy()
    block[50_000:51_000] = rng.integers(0, 256, 1000, dtype=np.uint8)  # 1 % in one place
    scattered = base.copy()
    where = rng.choice(len(base), 1000, replace=False)  # 1 % of the bytes, everywhere
    scattered[where] ^= 0x55
    other = rng.integers(0, 256, 100_000, dtype=np.uint8)
    half = np.concatenate([base[:50_000], other[:50_000]])
    assert share(base.tobytes(), block.tobytes()) >= 95
    assert share(base.tobytes(), scattered.tobytes()) >= 60  # 16-byte pieces: 16 % touched
    assert 35 <= share(base.tobytes(), half.tobytes()) <= 65
    assert share(base.tobytes(), other.tobytes()) < 5
    # text: an edited paragraph of a source file
    text = open(__file__, "rb").read() * 3
    edited = text.replace(b"unrelated", b"UNRELATED", 2)
    assert share(text, edited) >= 90
    # one scale for every method: simhash reads the same content alike
    files = stored([base.tobytes(), block.tobytes(), other.tobytes()])
    sim = methods.pair_similarity("simhash", files, [0, 0], [1, 2], [False, False])
    assert sim[0] >= 80 and sim[1] < 30
    # 100 only for identical copies, even where every slot agrees
    assert methods.similarity(np.array([100.0]), [False])[0] < 100


def test_rules_of_the_scale():
    assert methods.share_from_resemblance(1.0) == 100 and methods.share_from_resemblance(0) == 0
    for s in (10.0, 50.0, 90.0):
        assert abs(methods.share_from_resemblance(methods.resemblance_from_share(s)) - s) < 1e-9
    assert methods.share_from_bits(0) == 100 and methods.share_from_bits(32) < 1e-9


def test_the_check_moves_without_a_new_search_and_never_counts_more_than_the_sum_table():
    rng = np.random.default_rng(4)
    base = rng.integers(0, 256, 30_000, dtype=np.uint8)
    contents = [base.tobytes()]
    for k in range(1, 6):  # ever larger changes in one block
        edit = base.copy()
        edit[:3000 * k] = rng.integers(0, 256, 3000 * k, dtype=np.uint8)
        contents.append(edit.tobytes())
    contents += [rng.integers(0, 256, 30_000, dtype=np.uint8).tobytes() for _ in range(4)]
    files = stored(contents)
    # built with the check off, the check can be turned on and moved live; built with
    # it on (the window's default), it moves live above its floor and agrees
    analysis = Analysis.build(files, SearchSettings(content_check=False))
    checked = Analysis.build(files, SearchSettings())
    previous = None
    for content in (0.0, 20.0, 50.0, 80.0, 95.0):
        tol = Tolerances(10, 10, content)
        counts, table = analysis.at(tol)
        assert counts.similar <= counts.sum_hits
        # the live answer is the one-off search's (no copies here: pairs count alike)
        assert counts.similar == len(similar_pairs(files, tol))
        if content:
            assert checked.counts(tol) == counts
        if previous is not None:
            assert counts.similar <= previous  # a higher bar confirms fewer
        previous = counts.similar
    assert analysis.counts(Tolerances(10, 10, 0)).similar > analysis.counts(
        Tolerances(10, 10, DEFAULT_MIN_CONTENT)).similar  # unrelated ones, unchecked


def test_an_older_store_is_fingerprinted_by_reading_those_files_once(tmp_path):
    root = tmp_path / "files"
    root.mkdir()
    rng = np.random.default_rng(5)
    for i in range(4):
        (root / f"{i}.bin").write_bytes(rng.integers(0, 256, 5000, dtype=np.uint8).tobytes())
    with Store(tmp_path / "s.db") as store:
        scan(store, [root], ScanOptions(fingerprints=False))  # as simgui 0.1 stored them
        assert not store.files().fingerprinted.any()
        again = scan(store, [root])
        assert (again.files_read, again.files_fingerprinted) == (4, 4)
        assert store.files().fingerprinted.all()
        third = scan(store, [root])
        assert (third.files_read, third.files_unchanged, third.files_fingerprinted) == (0, 4, 0)


def test_no_check_holds_for_an_overridden_extension_too(tmp_path, capsys):
    """--override fixes an extension's key and sum-table tolerances, never the check."""
    from simgui.cli import main

    rng = np.random.default_rng(6)
    root = tmp_path / "files"
    root.mkdir()
    for i in range(4):  # unrelated random files of one size: alike sum tables
        (root / f"{i}.bin").write_bytes(rng.integers(0, 256, 30_000, dtype=np.uint8).tobytes())
    db = str(tmp_path / "s.db")
    assert main(["scan", "--db", db, "-q", str(root)]) == 0
    capsys.readouterr()
    loose = ["--override", "bin=10,10", "--format", "json", str(root / "0.bin")]
    assert main(["similar", "--db", db, *loose]) == 0
    assert capsys.readouterr().out == ""  # checked: none is similar
    assert main(["similar", "--db", db, "--no-check", *loose]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3  # as published: all three


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(2, 10),
       changed=st.lists(st.integers(0, 128), min_size=1, max_size=10),
       same_low=st.floats(0, 1), values=st.sampled_from(["random", "few", "runs"]),
       floor=st.sampled_from([0.0, 1e-9, 10.0, 10.5, 50.0, 66.6, 99.99, 100.0, 101.0])
       | st.floats(0, 100))
def test_the_floor_test_from_low_bytes_is_the_shares_compared(seed, rows, changed, same_low,
                                                              values, floor):
    """ContentShares.at_least (what the sliders' search drops below the check's floor)
    gives exactly ``shares >= floor``: signatures edited from one another in any number
    of slots, the new values often equal to the old in their low byte, in runs of 0x00
    and 0xFF, or from a handful of values, at every floor around the steps of 1/128."""
    rng = np.random.default_rng(seed)
    if values == "random":
        base = rng.integers(0, 2**32, 128, dtype=np.uint32)
    elif values == "few":
        base = rng.choice(np.array([0, 0xFF, 0x100, 0x1FF, 0xFFFFFF00, 0xFFFFFFFF], np.uint32),
                          128)
    else:
        base = np.repeat(np.array([0, 0xFFFFFFFF], np.uint32), 64)
    signatures = np.empty((rows, 128), np.uint32)
    for r in range(rows):
        row = base.copy()
        k = changed[r % len(changed)]
        slots = rng.choice(128, k, replace=False)
        # a new value equal to the old in its low byte (only the full slot tells them
        # apart), or any other
        high = rng.integers(1, 2**24, k, dtype=np.uint32) << np.uint32(8)
        row[slots] = np.where(rng.random(k) < same_low, row[slots] ^ high,
                              rng.integers(0, 2**32, k, dtype=np.uint32))
        signatures[r] = row
    pairs = np.array([(a, b) for a in range(rows) for b in range(rows) if a != b])
    check = methods.ContentShares(signatures)
    assert np.array_equal(check.at_least(pairs, floor), check(pairs) >= floor)
