"""The accuracy benchmark's labelled corpus (benchmarks/corpus.py): deterministic,
edits that do what they say, consistent labels."""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys

import numpy as np
import pytest

_PATH = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "corpus.py")
_spec = importlib.util.spec_from_file_location("simgui_bench_corpus", _PATH)
corpus = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = corpus
_spec.loader.exec_module(corpus)


def random_bytes(n: int, seed: int = 1) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()


def text_bytes(n: int, seed: int = 2) -> bytes:
    words = [b"alpha", b"beta", b"gamma", b"delta", b"\n", b"def ", b"return", b"(x)"]
    rng = np.random.default_rng(seed)
    out = bytearray()
    while len(out) < n:
        out += words[rng.integers(len(words))] + b" "
    return bytes(out[:n])


def fake_source(n: int = 10_000, kind: str = "python", path: str = "/x/mod.py") -> corpus.Source:
    return corpus.Source(path, kind, n, "0" * 32)


def variants(data: bytes, family: int = 0, seed: int = 0) -> dict[str, bytes]:
    files = corpus.family_files(fake_source(len(data)), family, seed, data=data)
    return {f.edit: f.data for f in files}


def differing(a: bytes, b: bytes) -> int:
    return int((np.frombuffer(a, np.uint8) != np.frombuffer(b, np.uint8)).sum())


def common_prefix(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    x, y = np.frombuffer(a[:n], np.uint8), np.frombuffer(b[:n], np.uint8)
    diff = np.flatnonzero(x != y)
    return int(diff[0]) if len(diff) else n


def common_suffix(a: bytes, b: bytes) -> int:
    return common_prefix(a[::-1], b[::-1])


# --------------------------------------------------------------------------- edits


@pytest.mark.parametrize("data", [random_bytes(10_000), text_bytes(10_000)], ids=["random", "text"])
def test_each_edit_does_what_it_says(data):
    n = len(data)
    v = variants(data)
    assert list(v) == list(corpus.KINDS)
    assert v["source"] == data and v["copy"] == data
    for name, share in (("change_0p1", 0.001), ("change_0p5", 0.005), ("change_1", 0.01),
                        ("change_2", 0.02), ("heavy_30", 0.30)):
        assert len(v[name]) == n
        assert differing(v[name], data) == round(n * share), name
    for name, share in (("insert_1", 0.01), ("insert_5", 0.05)):
        k = round(n * share)
        out = v[name]
        assert len(out) == n + k
        # the source is the variant with one block of k bytes taken out
        assert common_prefix(out, data) + common_suffix(out, data) >= n
        pos = common_prefix(out, data)
        assert out[:pos] + out[pos + k:] == data
    for name, share in (("delete_1", 0.01), ("delete_5", 0.05)):
        k = round(n * share)
        out = v[name]
        assert len(out) == n - k
        pos = common_prefix(out, data)
        assert common_prefix(out, data) + common_suffix(out, data) >= n - k
        assert data[:pos] + data[pos + k:] == out
    k = round(n * 0.05)
    moved = v["move_5"]
    assert len(moved) == n and moved != data
    assert sorted(moved) == sorted(data)  # same bytes, rearranged
    # outside the span from the block's old to its new place nothing changed
    assert common_prefix(moved, data) + common_suffix(moved, data) + k <= n
    for name, share in (("append_1", 0.01), ("append_10", 0.10)):
        k = round(n * share)
        out = v[name]
        assert len(out) == n + k and out[:n] == data and out[n:] in data
    for name, share in (("truncate_1", 0.01), ("truncate_10", 0.10)):
        out = v[name]
        assert out == data[:n - round(n * share)]


def test_inserted_blocks_come_from_the_file():
    data = text_bytes(20_000)
    out = variants(data)["insert_5"]
    k = round(len(data) * 0.05)
    pos = common_prefix(out, data)
    assert out[pos:pos + k] in data


def test_tiny_files_still_get_an_edit():
    data = b"abcdefgh"
    v = variants(data)
    assert differing(v["change_0p1"], data) == 1
    assert len(v["insert_1"]) == 9 and len(v["truncate_1"]) == 7 and len(v["delete_1"]) == 7
    assert sorted(v["move_5"]) == sorted(data)


# --------------------------------------------------------------------------- determinism


def test_family_is_deterministic_and_seeded():
    data = random_bytes(5000)
    assert variants(data, 3, 0) == variants(data, 3, 0)
    other_seed = variants(data, 3, 1)
    other_family = variants(data, 4, 0)
    for e in corpus.EDITS:
        if e.name in ("copy",) or e.name.startswith("truncate"):
            continue
        assert other_seed[e.name] != variants(data, 3, 0)[e.name], e.name
        assert other_family[e.name] != variants(data, 3, 0)[e.name], e.name


def _tree(tmp_path):
    """Files the selector can find: a folder that looks like a Python library."""
    lib = tmp_path / "lib"
    lib.mkdir()
    for i in range(6):
        (lib / f"mod{i}.py").write_bytes(random_bytes(3000 + 500 * i, seed=10 + i))
    (lib / "again.py").write_bytes(random_bytes(3000, seed=10))  # same content as mod0
    near = bytearray(random_bytes(3500, seed=11))  # mod1 with 1 % changed
    near[::100] = bytes(len(near[::100]))
    (lib / "nearly.py").write_bytes(bytes(near))
    (lib / "small.py").write_bytes(b"x" * 100)
    (lib / "notes.bin").write_bytes(random_bytes(4000, seed=30))  # not a corpus type
    (lib / "link.py").symlink_to(lib / "mod2.py")
    sub = lib / "sub"
    sub.mkdir()
    (sub / "mod3.py").write_bytes(random_bytes(5000, seed=40))  # base name taken
    return lib


def test_source_selection_is_deterministic_and_skips_duplicates(tmp_path):
    lib = _tree(tmp_path)
    first = corpus.select_sources(50, seed=0, roots=[str(lib)])
    assert first == corpus.select_sources(50, seed=0, roots=[str(lib)])
    names = sorted(os.path.basename(s.path) for s in first)
    # copies, near copies, small files, links, other types and repeated names stay out
    # of a copy, a near copy or a repeated base name only one comes in, whichever is first
    assert len(names) == 6 and len(set(names)) == 6
    assert {"mod2.py", "mod3.py", "mod4.py", "mod5.py"} <= set(names)
    assert len({"mod0.py", "again.py"} & set(names)) == 1
    assert len({"mod1.py", "nearly.py"} & set(names)) == 1
    assert all(s.type == "python" for s in first)
    assert all(s.size == os.path.getsize(s.path) for s in first)
    assert len(corpus.select_sources(2, seed=0, roots=[str(lib)])) == 2


def test_corpus_in_memory_matches_the_written_corpus(tmp_path):
    lib = _tree(tmp_path)
    sources = corpus.select_sources(3, seed=0, roots=[str(lib)])
    c = corpus.build_corpus(seed=0, sources=sources)
    again = corpus.build_corpus(seed=0, sources=sources)
    assert c.names == again.names and c.data == again.data
    assert len(c.names) == 3 * corpus.FAMILY_SIZE == len(set(c.names))
    assert set(c.ext) == {"py"} and set(c.type) == {"python"}
    out = tmp_path / "out"
    assert corpus.write_corpus(str(out), corpus.iter_corpus(sources, 0), sources) == len(c.names)
    for name, data in zip(c.names, c.data):
        assert (out / name).read_bytes() == data
    rows = (out / "labels.tsv").read_text().splitlines()
    assert len(rows) == 1 + len(c.names)
    heavy = [r for r in rows[1:] if "\theavy_30\t" in r]
    assert len(heavy) == 3 and all(r.split("\t")[3] == "0" for r in heavy)


def test_variant_names_keep_the_extension():
    from simgui.core.search.keys import extension_of
    assert corpus.variant_name("ls", "change_1") == "ls~change_1"
    assert corpus.variant_name("a.tar.gz", "copy") == "a.tar~copy.gz"
    assert corpus.variant_name("libz.so.1", "move_5") == "libz.so~move_5.1"
    for kind in corpus.KINDS[1:]:
        assert extension_of(corpus.variant_name("x.py", kind)) == "py"
        assert extension_of(corpus.variant_name("ls", kind)) == ""


# --------------------------------------------------------------------------- labels


def test_labels_are_consistent():
    files = [f for fam in range(3)
             for f in corpus.family_files(fake_source(2000), fam, 0, data=random_bytes(2000, fam))]
    c = corpus.Corpus.from_files(files, [])
    n = len(files)
    pairs = np.array(list(itertools.combinations(range(n), 2)), dtype=np.int64)
    rel = c.relation(pairs)
    fam = c.labels(pairs)
    assert np.array_equal(fam, rel != corpus.UNRELATED)
    for (i, j), r in zip(pairs, rel):
        a, b = files[i], files[j]
        heavy = "heavy_30" in (a.edit, b.edit)
        if a.family != b.family or heavy:
            assert r == corpus.UNRELATED
        elif corpus.SOURCE in (a.edit, b.edit):
            assert r == corpus.EDIT
        else:
            assert r == corpus.SIBLING
    members = corpus.FAMILY_SIZE - 1  # all but the heavy edit
    assert (corpus.count_positives(c.family, c.member) == int(fam.sum())
            == 3 * members * (members - 1) // 2)
    assert (corpus.count_edit_pairs(c.family, c.member, c.is_source)
            == int((rel == corpus.EDIT).sum()))
    assert int((rel == corpus.EDIT).sum()) == 3 * (members - 1)
    # symmetric and order-free
    assert np.array_equal(c.relation(pairs[:, ::-1]), rel)
    assert not c.labels(np.array([[0, 0]])).any()
    assert [e.positive for e in corpus.EDITS].count(False) == 1
