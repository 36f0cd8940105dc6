"""Every similar pair of stored files, as ``simgui pairs`` lists them.

The paper's method finds candidates by keys and sum tables; each candidate that
is not an identical copy is then confirmed by content (``Tolerances.content``:
the smallest estimated share of content in common, from MinHash) before it is
called similar.  A fingerprint method finds and confirms in one step.  k
identical copies are listed as k-1 pairs with the first copy.  One function, so
that the command line and a distributed search give the same rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from simgui.core.search.budget import check_affordable
from simgui.core.search import methods
from simgui.core.search.keys import SKEW, KeyScheme
from simgui.core.search.simfind import (
    DEFAULT_SIZE_FACTOR, SearchSpace, Tolerances, expand_pairs, identity_and_similarity,
    pair_distances,
)
from simgui.core.store import StoredFiles


@dataclass(frozen=True)
class PairTable:
    """Pairs of file indices and how alike each pair is, as columns."""

    pairs: np.ndarray  # int64 (m, 2): rows of the StoredFiles searched
    identical: np.ndarray  # bool (m,)
    key_distance: np.ndarray  # float64 (m,): keys without the extension offset
    sum_distance: np.ndarray  # int64 (m,): L1 distance of the sum tables
    similarity: np.ndarray  # float64 (m,): share of content in common, percent (NaN: unknown)

    def __len__(self) -> int:
        return len(self.pairs)


def content_hashes(files: StoredFiles) -> np.ndarray:
    """The content hashes as int64 (n, 2), zeros where a file has none."""
    return np.frombuffer(b"".join(h or bytes(16) for h in files.hashes),
                         np.int64).reshape(-1, 2)


def similar_pairs(files: StoredFiles, tolerances: Tolerances = Tolerances(), *,
                  scheme: KeyScheme = SKEW, use_extensions: bool = True,
                  size_factor: float = DEFAULT_SIZE_FACTOR, method: str = "paper",
                  overrides: Mapping[str, Tolerances] | None = None) -> PairTable:
    """Every similar pair among ``files``.

    With a fingerprint ``method``, ``tolerances.sum`` is its difference in percent.
    With the paper's, a content check above 0 needs every file's fingerprints (the
    caller says so first: see analysis.MissingFingerprints).
    """
    # classes are sets of identical files, as for groups: a class's members are listed
    # with its first file only, so files of equal size and sum table but other contents
    # must not share one, and copies are copies whatever their extensions
    hashes = content_hashes(files)
    space = SearchSpace.build(files.sizes, files.tables, scheme=scheme,
                              extensions=files.extensions if use_extensions else None,
                              size_factor=size_factor, class_extra=hashes,
                              classes_by_extension=False)
    if method != "paper":
        rep_pairs, _ = methods.class_pairs(space, method, files.simhashes, files.signatures,
                                           tolerances.sum, files=files)
    else:
        check_affordable(space, tolerances, dict(overrides or {}))
        rep_pairs = space.class_pairs(tolerances, dict(overrides or {}))
        if tolerances.content > 0 and len(rep_pairs):
            # class pairs are never copies of each other: every one needs the check
            shared = methods.shared_content(files.signatures, rep_pairs)
            rep_pairs = rep_pairs[shared >= tolerances.content]
    pairs = expand_pairs(space.classes, rep_pairs, expand_identical=False)
    key_d, sum_d = pair_distances(space, pairs)
    a, b = pairs[:, 0], pairs[:, 1]
    hashed = np.fromiter((bool(h) for h in files.hashes), bool, len(files.hashes))
    same_hash = (hashes[a] == hashes[b]).all(axis=1) & hashed[a] & hashed[b]
    identical, _ = identity_and_similarity(sum_d, files.sizes[a], files.sizes[b], same_hash)
    similarity = methods.pair_similarity(method, files, a, b, identical)
    return PairTable(pairs, identical, key_d, sum_d.astype(np.int64), similarity)
