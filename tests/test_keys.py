import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simgui.core.search.keys import (
    EXTENSION_SPAN, SKEW, UNIFORM, KeyScheme, compute_keys, extension_of, extension_offset,
)
from simgui.core.tags import DEFAULT_TAGS


def test_uniform_key_is_the_sum_of_the_table():
    table = np.arange(16)
    assert UNIFORM.key(table) == table.sum()


def test_skew_key_uses_the_papers_weights():
    table = np.zeros(16, dtype=np.int64)
    for tag, count in {0x00: 1, 0x74: 10, 0x65: 100, 0xA4: 1000, 0xEF: 5}.items():
        table[DEFAULT_TAGS.index(tag)] = count
    assert SKEW.key(table) == pytest.approx(6.00 + 40.3 + 329 + 2680)


def test_custom_weights_and_bulk_keys_agree():
    scheme = KeyScheme.from_tag_weights("mine", {0x3F: 2.5, 0xC0: -1})
    tables = np.random.default_rng(1).integers(0, 1000, (50, 16))
    bulk = scheme.keys(tables)
    assert bulk.tolist() == pytest.approx([float(np.dot(scheme.weights, t)) for t in tables])
    # one summation order: a key is the same to the last bit however it is asked for
    assert bulk.tolist() == [scheme.key(t) for t in tables]
    assert scheme.keys(tables.astype(np.float64)).tolist() == bulk.tolist()


def test_keys_split_across_threads_are_the_same(monkeypatch):
    import simgui.core.search.workers as workers

    tables = np.random.default_rng(2).integers(0, 10**9, (1000, 16))
    whole = SKEW.keys(tables)
    monkeypatch.setattr(workers, "PARALLEL_FROM", 10)
    assert SKEW.keys(tables).tolist() == whole.tolist()


def test_bad_schemes_are_refused():
    with pytest.raises(ValueError):
        KeyScheme("short", (1.0,) * 15)
    with pytest.raises(ValueError):
        KeyScheme.from_tag_weights("x", {0x01: 1.0})  # 0x01 is not a default tag
    for weight in (float("nan"), float("inf"), -1e101, 1e305):
        with pytest.raises(ValueError, match="numbers from -1e.100 to 1e.100"):
            KeyScheme.from_tag_weights("x", {0x00: weight})


def test_the_largest_weights_keep_every_key_finite():
    # inf - inf would make a NaN key, which no tolerance holds and no sort can place
    extreme = KeyScheme("extreme", (1e100, -1e100) + (1e100,) * 14)
    tables = np.array([[2**62] * 16, [2**62, 0] * 8, [0, 2**62] * 8], np.int64)
    assert np.isfinite(compute_keys(tables, extreme)).all()


@pytest.mark.parametrize("path, ext", [("a/b.TXT", "txt"), ("x.tar.gz", "gz"), ("noext", ""),
                                        (".bashrc", ""), ("dir.d/file", "")])
def test_extension_of(path, ext):
    assert extension_of(path) == ext


def reference_extension_of(path: str) -> str:
    """Obviously correct: the name, split at its last dot (as text: surrogates, a name's
    bytes that are not UTF-8, escaped)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, ext = name.rpartition(".")
    return ext.casefold().encode("utf-8", "backslashreplace").decode() if dot and stem else ""


@given(st.lists(st.sampled_from(["a", "B", ".", "/", "\\", "..", "tXt", "\udcff", "ß"]),
                max_size=12).map("".join))
def test_extension_of_equals_the_reference(path):
    assert extension_of(path) == reference_extension_of(path)


def test_extension_offset_uses_first_three_case_folded_characters():
    assert extension_offset("HTML") == extension_offset("htm")
    assert extension_offset("jpeg") == extension_offset("JPE")
    assert extension_offset("jpeg") != extension_offset("jpg")
    assert extension_offset("pdf") != extension_offset("ps")
    assert 0 <= extension_offset("pdf") < EXTENSION_SPAN


def test_extension_offset_is_the_same_in_another_process():
    # Python's hash() is salted per process; ours must not be
    code = "from simgui.core.search.keys import extension_offset as f; print(f('pdf'), f('txt'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONHASHSEED": "123", **_env()}).stdout.split()
    assert [float(x) for x in out] == [extension_offset("pdf"), extension_offset("txt")]


def test_extension_modification_keeps_distances_within_an_extension():
    tables = np.random.default_rng(2).integers(0, 10**6, (20, 16))
    plain = compute_keys(tables, SKEW)
    modified = compute_keys(tables, SKEW, ["ps"] * 20)
    assert np.allclose(np.diff(modified), np.diff(plain), atol=1e-3)
    apart = compute_keys(tables[:2], SKEW, ["ps", "pdf"])
    assert abs(apart[0] - apart[1]) > 1e9


def _env():
    import os
    return {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
