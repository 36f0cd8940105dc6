"""Keys: linear combinations of a sum table, and the extension modification.

A key is ``sum(w_t * S_t)`` over the 16 counts.  Keys are computed from stored
sum tables, so a new key scheme never needs a rescan.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from simgui.core.reading.names import extension_of  # noqa: F401  (re-exported)
from simgui.core.search.workers import in_chunks
from simgui.core.tags import DEFAULT_TAGS, TAG_COUNT, validate_tags

#: Extension offsets fall in [0, EXTENSION_SPAN): far above the key of any file
#: under a terabyte, so each extension gets its own horizontal stripe (the
#: paper's Figure 4), yet small enough that float64 keys keep 1/256 resolution.
EXTENSION_SPAN = float(1 << 44)
#: The largest weight, in size: 16 counts of up to 2**63 times this stay far below the
#: largest double, so no key overflows to infinity (inf - inf would make a NaN key,
#: which no tolerance holds and no sort can place).
MAX_WEIGHT = 1e100


@dataclass(frozen=True)
class KeyScheme:
    """A named weight vector over a tag set, in tag order."""

    name: str
    weights: tuple[float, ...]

    def __post_init__(self):
        if len(self.weights) != TAG_COUNT:
            raise ValueError(f"a key scheme needs {TAG_COUNT} weights, got {len(self.weights)}")
        if not all(abs(w) <= MAX_WEIGHT for w in self.weights):  # NaN too
            raise ValueError(f"key weights must be numbers from -{MAX_WEIGHT:g} to "
                             f"{MAX_WEIGHT:g}")

    @classmethod
    def from_tag_weights(cls, name: str, weights: Mapping[int, float],
                         tags: Iterable[int] = DEFAULT_TAGS) -> KeyScheme:
        """Weights given per tag value (e.g. ``{0x00: 6.0}``); tags not named weigh 0."""
        tags = validate_tags(tags)
        unknown = set(weights) - set(tags)
        if unknown:
            raise ValueError(f"tags not in the tag set: {sorted(f'{t:02x}' for t in unknown)}")
        return cls(name, tuple(float(weights.get(t, 0.0)) for t in tags))

    def key(self, table: Sequence[int]) -> float:
        return float(self.keys(np.asarray(table).reshape(1, TAG_COUNT))[0])

    def keys(self, tables: np.ndarray) -> np.ndarray:
        """Keys of an (n, 16) array of sum tables, as float64 (n,)."""
        tables = np.asarray(tables)
        kind = np.int64 if tables.dtype.kind in "biu" else np.float64
        tables = np.ascontiguousarray(tables, dtype=kind).reshape(-1, TAG_COUNT)
        out = np.empty(len(tables), np.float64)
        in_chunks(_weighted_sums, len(tables), tables, np.asarray(self.weights, np.float64), out)
        return out


@njit(nogil=True, cache=True)
def _weighted_sums(lo, hi, tables, weights, out):
    """Rows lo .. hi-1 of ``tables`` weighted, summed in tag order (one order for every
    caller, so a key is the same to the last bit however it is asked for)."""
    for i in range(lo, hi):
        total = 0.0
        for t in range(16):
            total += weights[t] * tables[i, t]
        out[i] = total
    return 0


#: Every weight 1.
UNIFORM = KeyScheme("uniform", (1.0,) * TAG_COUNT)
#: The paper's standard key (authors' configuration): 00=6.00 74=4.03 65=3.29 a4=2.68.
SKEW = KeyScheme.from_tag_weights("skew", {0x00: 6.00, 0x74: 4.03, 0x65: 3.29, 0xA4: 2.68})

SCHEMES: dict[str, KeyScheme] = {UNIFORM.name: UNIFORM, SKEW.name: SKEW}


def extension_unit(extension: str) -> float:
    """A stable hash of the extension's first three characters, uniform in [0, 1).

    blake2b, never Python's salted ``hash()``, so it is the same on every run
    and machine.
    """
    head = extension.casefold()[:3].encode("utf-8")
    digest = hashlib.blake2b(head, digest_size=8, person=b"simgui-ext").digest()
    return int.from_bytes(digest, "big") / 2.0**64


def extension_offset(extension: str) -> float:
    """What the extension modification adds to a key: an integer in [0, EXTENSION_SPAN)."""
    return float(np.floor(extension_unit(extension) * EXTENSION_SPAN))


def extension_offsets(extensions: Iterable[str]) -> np.ndarray:
    """Offsets for many files; each distinct extension is hashed once."""
    extensions = extensions if isinstance(extensions, (list, tuple)) else list(extensions)
    offset = {ext: extension_offset(ext) for ext in set(extensions)}
    return np.fromiter(map(offset.__getitem__, extensions), np.float64, len(extensions))


def compute_keys(tables: np.ndarray, scheme: KeyScheme = SKEW,
                 extensions: Iterable[str] | None = None) -> np.ndarray:
    """Keys for (n, 16) sum tables; with ``extensions``, the extension modification."""
    keys = scheme.keys(tables)
    if extensions is not None:
        offsets = extension_offsets(extensions)
        if len(offsets) != len(keys):
            raise ValueError("one extension per sum table is needed")
        keys = keys + offsets
    return keys
