"""bench_trust.py's diagnosis (issue 23): its pair-by-pair verdicts must be the search's
own, or the causes it counts mean nothing; and the candidate fix it measures (MinHash
LSH candidates before the content check) must find the edits the diagnosis blames on
the key and sum-table tolerances, and pair nothing unrelated."""

from __future__ import annotations

import itertools
import os
import sys

import numpy as np
import pytest

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "benchmarks")
sys.path.insert(0, BENCHMARKS)

bench_trust = pytest.importorskip("bench_trust")
corpus_mod = pytest.importorskip("corpus")

from simgui.core.search.pairs import similar_pairs  # noqa: E402
from simgui.core.search.simfind import Tolerances  # noqa: E402


def _zero_heavy(rng, n: int) -> bytes:
    """Like a program: most bytes zero (its key per byte is several times a text's)."""
    data = rng.integers(0, 256, n, dtype=np.uint8)
    data[rng.random(n) < 0.6] = 0
    return data.tobytes()


def _text(rng, n: int) -> bytes:
    words = [b"alpha", b"beta", b"gamma", b"delta", b"the", b"of", b"tag", b"sum", b"table"]
    out = b" ".join(words[i] for i in rng.integers(0, len(words), n // 4))
    return out[:n]


def _collection(tmp_path):
    """Files with known edits: appended, truncated, inserted, changed, copied (also
    under another extension), tiny, twice the size, and unrelated ones of each kind."""
    rng = np.random.default_rng(7)
    files: dict[str, bytes] = {}
    for kind, make in (("bin", _zero_heavy), ("txt", _text), ("dat", lambda r, n: r.integers(
            0, 256, n, dtype=np.uint8).tobytes())):
        for k in range(2):
            base = make(rng, 6000 + 1500 * k)
            cut = len(base) // 10
            files[f"{kind}{k}.{kind}"] = base
            files[f"{kind}{k}~append.{kind}"] = base + base[100:100 + cut]
            files[f"{kind}{k}~truncate.{kind}"] = base[:-cut]
            files[f"{kind}{k}~insert.{kind}"] = base[:500] + base[1000:1000 + cut // 2] + base[500:]
            files[f"{kind}{k}~copy.{kind}"] = base
            files[f"{kind}{k}~copy.other"] = base
            files[f"{kind}{k}~double.{kind}"] = base + base
            changed = bytearray(base)
            for p in rng.choice(len(base), len(base) // 50, replace=False):
                changed[p] ^= 0x5A
            files[f"{kind}{k}~change.{kind}"] = bytes(changed)
    files["tiny.bin"] = b"\0" * 40
    files["tiny~copy.bin"] = b"\0" * 39 + b"\1"
    paths = []
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    return paths, [os.path.basename(p).rsplit(".", 1)[-1] for p in paths]


@pytest.mark.parametrize("tolerances", [Tolerances(), Tolerances(3.2, 1.0, 0.0),
                                        Tolerances(10.0, 10.0, 30.0)])
def test_verdicts_reproduce_similar_pairs(tmp_path, tolerances):
    """The slow reference: every pair judged alone by verdicts() is admitted exactly when
    similar_pairs lists it, and a listed copy is judged identical."""
    paths, ext = _collection(tmp_path)
    files = bench_trust.stored_files(paths, ext)
    listed = similar_pairs(files, tolerances).pairs
    everything = np.array(list(itertools.combinations(range(len(paths)), 2)), np.int64)
    v = bench_trust.verdicts(files, everything, tolerances)
    admitted = {tuple(p) for p in everything[v["verdict"] == "admitted"].tolist()}
    listed_similar = {tuple(p) for p, same in zip(listed.tolist(),
                                                  bench_trust.verdicts(files, listed, tolerances)
                                                  ["identical"].tolist()) if not same}
    assert admitted == listed_similar
    assert len(admitted) >= 5  # the test means something
    identical = {tuple(p) for p in everything[v["identical"]].tolist()}
    assert {tuple(p) for p in listed.tolist()} - listed_similar <= identical
    # every stage rejects something here, so each rule was compared
    assert {"min size", "size factor", "extension", "key", "sum table"} <= set(v["verdict"])


def test_failing_names_every_stage_that_rejects(tmp_path):
    paths, ext = _collection(tmp_path)
    files = bench_trust.stored_files(paths, ext)
    i = paths.index(str(tmp_path / "bin0.bin"))
    j = paths.index(str(tmp_path / "bin0~double.bin"))
    v = bench_trust.verdicts(files, np.array([[i, j]]))
    assert v["verdict"][0] == "size factor"
    assert v["failing"][0].split("+")[0] == "size factor"
    assert v["key_distance"][0] > v["key_limit"][0]  # twice the size: the key moves too
    assert "key" in v["failing"][0]


def test_dense_files_edits_fail_the_key_and_lsh_candidates_find_them(tmp_path):
    """The diagnosed cause: a 10 % cut of a zero-heavy file moves its key by about 10 % of
    the key, several times 10 % of the size, so the default key tolerance rejects it
    though nearly all of the content is shared; LSH candidates let the check see it."""
    paths, ext = _collection(tmp_path)
    files = bench_trust.stored_files(paths, ext)
    name = {os.path.basename(p): i for i, p in enumerate(paths)}
    pair = np.array([[name["bin0.bin"], name["bin0~truncate.bin"]]])
    v = bench_trust.verdicts(files, pair)
    assert v["verdict"][0] == "key" and v["share"][0] > 80
    collection = type("C", (), {"paths": paths, "ext": ext})()
    default = {tuple(p) for p in similar_pairs(files).pairs.tolist()}
    with_lsh = {tuple(p) for p in bench_trust.with_lsh(10.0, 5.0)(collection)(50.0).tolist()}
    assert tuple(pair[0]) not in default and tuple(pair[0]) in with_lsh
    assert default <= with_lsh
    # nothing unrelated: every pair found joins two files of one base
    stem = [os.path.basename(p).split("~")[0].split(".")[0] for p in paths]
    assert all(stem[a] == stem[b] for a, b in with_lsh)


def test_corpus_labels_read_family_edit_and_type(tmp_path):
    source_path = tmp_path / "orig" / "module.py"
    source_path.parent.mkdir()
    source_path.write_bytes(b"print('hello')\n" * 300)
    source = corpus_mod.Source(str(source_path), "python", source_path.stat().st_size, "")
    folder = tmp_path / "corpus"
    paths, edits = [], []
    for family in (3, 12):
        for f in corpus_mod.family_files(source, family, seed=0):
            path = folder / f.name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(f.data)
            paths.append(str(path))
            edits.append(f.edit)
    family, edit, types = bench_trust.corpus_labels(paths, str(folder))
    assert edit == edits
    assert family.tolist() == [3] * 16 + [12] * 16
    assert set(types) == {"python"}
