"""Groups and hit counts at any tolerance from one search: what the sliders drive.

:meth:`Analysis.build` does the expensive part once: one path per file,
classes of identical files, the order in which files become references, and
one search at the ceiling tolerances (:class:`ToleranceStats`).  Groups and
counts at any tolerance below the ceiling are then a linear pass over the
candidate pairs, with no new search, so a slider can be dragged over 100,000
files.  :func:`find_groups` is the same code at one tolerance, which is what
the command line uses: the GUI and the CLI cannot disagree.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from simgui.core.search import methods
from simgui.core.search.budget import (
    BYTES_PER_KEPT_PAIR, check_affordable,
    pair_budget,
)
from simgui.core.folders import folder_test
from simgui.core.memory import handing_freed_memory_back
from simgui.core.search.groups import Group, GroupTable
from simgui.core.search.group_rows import ClassRecords, group_columns
from simgui.core.search.identical import one_path_per_file
from simgui.core.search.keys import SKEW, KeyScheme
from simgui.core.search.simfind import (
    DEFAULT_MIN_SIMILAR_SIZE, DEFAULT_SIZE_FACTOR, SearchSpace, Tolerances,
)
from simgui.core.search.tolerances import LOWEST_MIN_CONTENT
from simgui.core.store import StoredFiles
from simgui.core.search.tolerance_stats import MAX_TOLERANCE, HitCounts, ToleranceStats


@dataclass(frozen=True)
class SearchSettings:
    """What changes the search itself (a new :class:`Analysis`), unlike tolerances."""

    scheme: KeyScheme = SKEW
    use_extensions: bool = True
    size_factor: float = DEFAULT_SIZE_FACTOR
    references: tuple[str, ...] = ()  # folders whose files are kept first and never acted on
    min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE
    reference_rule: str = "oldest"  # after reference folders: one of REFERENCE_RULES
    # "paper" (keys and sum tables), or a fingerprint method of simgui.core.search.methods,
    # whose difference in percent takes the sum-table tolerance's place
    method: str = "paper"
    # the paper's method only: the content check will be asked for (Tolerances.content),
    # so every file needs its fingerprints (:func:`require_fingerprints` says how many
    # lack them); its threshold moves live, like the tolerances
    content_check: bool = True
    # the paper's method only: (extension, key tolerance, sum-table tolerance) fixed
    # for the files of that extension, whatever the sliders (needs use_extensions)
    overrides: tuple[tuple[str, float, float], ...] = ()

    def override_map(self) -> dict[str, Tolerances]:
        return {ext: Tolerances(key, sum_) for ext, key, sum_ in self.overrides}


class MissingFingerprints(ValueError):
    """A fingerprint method was asked for files scanned without fingerprints."""

    def __init__(self, missing: int, method: str):
        files = "1 file has" if missing == 1 else f"{missing:,} files have"
        what = f"the {method} method" if method in methods.METHODS else f"the {method}"
        super().__init__(f"{files} no content fingerprints for {what} yet: scan again "
                         "to compute them")
        self.missing = missing


#: How a group's reference is chosen after reference folders (ties: shortest path, then
#: store order).
REFERENCE_RULES = ("oldest", "newest", "largest", "shortest-path")


class SimilarityMemo:
    """:func:`methods.pair_similarity` of a group table's files with their references,
    each file's kept with the reference it was measured against: most files keep
    theirs from one slider step to the next, and measuring a file reads two MinHash
    signatures of 512 bytes far apart in memory (at a million synthetic files, 124 ms
    of every move for the 300,000 files in groups)."""

    def __init__(self):
        self.reference: np.ndarray | None = None  # int64 per file, -1: not measured
        self.similarity: np.ndarray | None = None
        self.lock = threading.Lock()

    def __reduce__(self):  # a copy (another process) measures afresh
        return SimilarityMemo, ()

    def __call__(self, method: str, files: StoredFiles, rows: np.ndarray, ref: np.ndarray,
                 identical: np.ndarray) -> np.ndarray:
        with self.lock:
            if self.reference is None:
                self.reference = np.full(len(files), -1, np.int64)
                self.similarity = np.empty(len(files))
            stale = np.flatnonzero(self.reference[rows] != ref)
            if len(stale):
                a, b = rows[stale], ref[stale]
                self.similarity[a] = methods.pair_similarity(method, files, a, b,
                                                             identical[stale])
                self.reference[a] = b
            return self.similarity[rows]


@dataclass(frozen=True)
class Analysis:
    files: StoredFiles  # one path per file (see identical.one_path_per_file)
    original_index: np.ndarray  # row of each file in the StoredFiles given to build
    settings: SearchSettings
    stats: ToleranceStats
    plain_keys: np.ndarray  # keys without the extension offset, for distances users read
    hashes: np.ndarray  # int64 (n, 2): content hashes
    path_rank: np.ndarray  # int64 (n,): position of each path in sorted order
    class_best: np.ndarray  # int64 (c,): each class's best file, its reference if it leads
    class_records: ClassRecords  # what a grouping reads of each class
    #: each file's similarity to the reference it was last measured against
    similarities: SimilarityMemo = dataclasses.field(default_factory=lambda: SimilarityMemo())
    #: the last search between the slider steps: [(tolerances, its statistics)]
    _between: list = dataclasses.field(default_factory=lambda: [None], repr=False,
                                       compare=False)

    @property
    def space(self) -> SearchSpace:
        return self.stats.space

    @classmethod
    def build(cls, files: StoredFiles, settings: SearchSettings = SearchSettings(), *,
              ceiling: Tolerances | None = None) -> Analysis:
        """Prepare searches over ``files``.

        ``ceiling``: the largest tolerances that will be asked for, and no key
        hit counts (for one search); default: the sliders' whole range with key
        hits.
        """
        references = tuple(os.path.abspath(r) for r in settings.references)
        settings = dataclasses.replace(settings, references=references)
        # links resolved, in the folders and in the stored paths: clean-up protects the
        # same files (fileops)
        in_reference = in_folders(files.paths, references, resolve_links=True)
        files, original_index = one_path_per_file(files, in_reference)
        in_reference = in_reference[original_index]
        n = len(files)
        hashes = np.frombuffer(b"".join(h if h else bytes(16) for h in files.hashes),
                               dtype=np.int64).reshape(n, 2)
        space = SearchSpace.build(files.sizes, files.tables, scheme=settings.scheme,
                                  extensions=files.extensions if settings.use_extensions else None,
                                  size_factor=settings.size_factor, class_extra=hashes,
                                  min_similar_size=settings.min_similar_size,
                                  classes_by_extension=False)  # copies are copies, whatever the name
        path_len = np.fromiter((len(p) for p in files.paths), np.int64, n)
        # best reference first: in a reference folder, then by the rule, then shortest path
        rule = {"oldest": files.mtimes_ns, "newest": -files.mtimes_ns, "largest": -files.sizes,
                "shortest-path": path_len}.get(settings.reference_rule)
        if rule is None:
            raise ValueError(f"unknown reference rule {settings.reference_rule!r}; "
                             f"one of {', '.join(REFERENCE_RULES)}")
        priority = np.lexsort((np.arange(n), path_len, rule, ~in_reference))
        content = _content_of_pairs(files, settings)
        if settings.method != "paper":
            stats = _method_stats(files, space, settings.method, priority, ceiling)
        elif ceiling is None:
            overrides = settings.override_map()
            # with the check on, pairs it can confirm at no setting are not kept (turning
            # it off is a new search)
            floor = LOWEST_MIN_CONTENT if settings.content_check and content else 0.0
            # the search holds no more hits than groups can keep (the sum-table ceiling
            # lowered as it finds more, at 13 bytes a hit held), the few it does not hold
            # (classes searched in several extensions) among them; BYTES_PER_KEPT_PAIR is
            # the peak of the whole build per pair kept.  The sliders stop on steps, so
            # each pair keeps its steps, not its tolerances (steps_only: 9 bytes, not 36);
            # a program's tolerances between the steps are a search of their own
            # (built once from temporaries by the thousand: what they free is handed back
            # as it is freed, else it stays scattered over the heaps, see core.memory)
            kept = pair_budget(BYTES_PER_KEPT_PAIR)
            with handing_freed_memory_back():
                stats = ToleranceStats.build(space, MAX_TOLERANCE, priority,
                                             max_sum=MAX_TOLERANCE, content=content,
                                             overrides=overrides, content_floor=floor,
                                             max_found=kept, max_kept=kept, steps_only=True)
        else:
            check_affordable(space, ceiling, settings.override_map())
            stats = ToleranceStats.build(space, ceiling.key, priority, max_sum=ceiling.sum,
                                         key_hits=False, content=content,
                                         overrides=settings.override_map())
        of_file = space.classes.of_file[priority]
        _, first_seen = np.unique(of_file, return_index=True)
        path_rank = np.empty(n, np.int64)
        path_rank[np.argsort(np.array(files.paths, dtype=object), kind="stable")] = np.arange(n)
        return cls(files, original_index, settings, stats, space.plain_keys, hashes, path_rank,
                   priority[first_seen],
                   ClassRecords(space.classes.members_start, space.classes.first, files.sizes,
                                path_rank))

    def counts(self, tolerances: Tolerances) -> HitCounts:
        return self._counts_and_groups(tolerances)[0]

    def at(self, tolerances: Tolerances) -> tuple[HitCounts, GroupTable]:
        """Counts and groups in one pass: what a slider move needs."""
        counts, assignment = self._counts_and_groups(tolerances)
        return counts, self.groups(tolerances, assignment)

    def _counts_and_groups(self, tolerances: Tolerances):
        stats, asked = self._stats_at(tolerances), self._asked(tolerances)
        if stats is self.stats:
            return stats.counts_and_groups(asked)
        assignment = stats.assign(asked)
        return stats.counts_from_pairs(asked, assignment), assignment

    def _stats_at(self, tolerances: Tolerances) -> ToleranceStats:
        """The statistics that group at ``tolerances``: the analysis' own, or, where those
        are kept for the slider steps alone and ``tolerances`` lies between the steps
        (a program's values; the sliders stop on steps), a search at ``tolerances``
        itself, as exact as the command line's (its key hits are not counted), and
        refused as the command line's is where its pairs would not fit in memory
        (NotEnoughMemory).  The last such search is kept for the next question."""
        stats = self.stats
        if not stats.steps_only or stats.on_steps(tolerances):
            return stats
        between = self._between[0]
        if between is not None and between[0] == tolerances:
            return between[1]
        stats.check_within(tolerances)
        check_affordable(stats.space, tolerances, self.settings.override_map())
        # the classes in the order the analysis takes them, by their best files; then
        # those it left out (no pair above its content floor: at no setting allowed here
        # are they in a group), which the search meets all the same
        left_out = np.ones(len(self.class_best), np.bool_)
        left_out[stats.class_order] = False
        order = np.concatenate((stats.class_order, np.flatnonzero(left_out)))
        searched = ToleranceStats.build(stats.space, tolerances.key, self.class_best[order],
                                        max_sum=tolerances.sum, key_hits=False,
                                        content=_content_of_pairs(self.files, self.settings),
                                        overrides=self.settings.override_map(),
                                        content_floor=stats.content_floor)
        self._between[0] = (tolerances, searched)
        return searched

    def _asked(self, tolerances: Tolerances) -> Tolerances:
        """The tolerances this method reads: a fingerprint method is its own content
        check, so the paper's is off for it."""
        if self.settings.method != "paper" and tolerances.content:
            return dataclasses.replace(tolerances, content=0.0)
        if tolerances.content > 0 and not self.stats.has_content:
            _require_fingerprints(self.files, "content check")
        return tolerances

    def groups(self, tolerances: Tolerances, assignment=None) -> GroupTable:
        """Every group at ``tolerances``; largest (bytes besides the reference) first.

        Files with equal size, sum table and content hash are one class and
        always one group's core, whatever their extensions.  Classes are taken
        in order of their best file; each unclaimed class with unclaimed
        similar classes becomes a group whose reference is that best file, and
        everything in it is within tolerance of the reference (or, with the
        extension rule, of a copy of it in the member's own extension).
        """
        if assignment is None:
            assignment = self._stats_at(tolerances).assign(self._asked(tolerances))
        files = self.files
        c = group_columns(assignment.group_start, assignment.group_classes, self.class_best,
                          self.class_records, self.space.classes.members, files.tables,
                          self.plain_keys, self.hashes, files.sizes, self.path_rank)
        rows, start, identical = c["rows"], c["start"], c["identical"]
        ref = np.repeat(rows[start[:-1]], np.diff(start))  # the reference leads its group
        similarity = self.similarities(self.settings.method, files, rows, ref, identical)
        return GroupTable(files, self.original_index, start, rows, c["key_distance"],
                          c["sum_distance"], identical, similarity, c["group_bytes"],
                          c["copy_of"])

    def curve(self, key_tolerances, sum_tolerances=None) -> dict[str, np.ndarray]:
        return self.stats.curve(key_tolerances, sum_tolerances)


def find_groups(files: StoredFiles, tolerances: Tolerances = Tolerances(), *,
                scheme: KeyScheme = SKEW, use_extensions: bool = True,
                size_factor: float = DEFAULT_SIZE_FACTOR, references: Sequence[str] = (),
                min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE,
                method: str = "paper", overrides: Mapping[str, Tolerances] | None = None) -> list[Group]:
    """Groups of identical and similar files among ``files`` (see :meth:`Analysis.groups`).

    With a fingerprint ``method``, ``tolerances.sum`` is its difference in percent;
    with the paper's, ``tolerances.content`` is the content check (it needs fingerprints).
    ``overrides``: extension -> its own tolerances (see :class:`SearchSettings`)."""
    if len(files) == 0:
        return []
    return find_group_table(files, tolerances, scheme=scheme, use_extensions=use_extensions,
                            size_factor=size_factor, references=references,
                            min_similar_size=min_similar_size, method=method,
                            overrides=overrides).groups()


def find_group_table(files: StoredFiles, tolerances: Tolerances = Tolerances(), *,
                     scheme: KeyScheme = SKEW, use_extensions: bool = True,
                     size_factor: float = DEFAULT_SIZE_FACTOR, references: Sequence[str] = (),
                     min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE, method: str = "paper",
                     overrides: Mapping[str, Tolerances] | None = None) -> GroupTable:
    """:func:`find_groups` as the table (no object per file: what an export needs)."""
    settings = SearchSettings(scheme, use_extensions, size_factor, tuple(references),
                              min_similar_size, method=method,
                              content_check=tolerances.content > 0,
                              overrides=tuple((e, t.key, t.sum)
                                              for e, t in (overrides or {}).items()))
    analysis = Analysis.build(files, settings, ceiling=tolerances)
    return analysis.groups(tolerances)


def require_fingerprints(files: StoredFiles, settings: SearchSettings) -> None:
    """Raise MissingFingerprints if the search of ``settings`` needs fingerprints (a
    fingerprint method, or the paper's with the content check) that some file lacks:
    the window reads those files first."""
    if settings.method != "paper":
        _require_fingerprints(files, settings.method)
    elif settings.content_check:
        _require_fingerprints(files, "content check")


def _require_fingerprints(files: StoredFiles, method: str) -> None:
    if files.fingerprinted is None or not files.fingerprinted.all():
        missing = len(files) if files.fingerprinted is None else int((~files.fingerprinted).sum())
        raise MissingFingerprints(missing, method)


def _content_of_pairs(files: StoredFiles, settings: SearchSettings):
    """The paper's method's content check: each candidate's share of content in common,
    from MinHash (None when some file has no fingerprints: no check can be made)."""
    if settings.method != "paper" or files.fingerprinted is None \
            or not files.fingerprinted.all():
        return None
    return methods.ContentShares(files.signatures)


def _method_stats(files: StoredFiles, space: SearchSpace, method: str, priority: np.ndarray,
                  ceiling: Tolerances | None) -> ToleranceStats:
    """Statistics of a fingerprint method: its difference on the sum-table axis, every
    pair a key hit (the key slider has no say)."""
    if method not in methods.METHODS[1:]:
        raise methods.unknown_method(method)
    if method not in methods.PICTURE_METHODS:  # pictures have their own hashes
        _require_fingerprints(files, method)
    top = methods.ceiling_difference(method) if ceiling is None else ceiling.sum
    pairs, difference = methods.class_pairs(space, method, files.simhashes, files.signatures,
                                            top, files=files)
    return ToleranceStats.from_pairs(space, pairs, np.zeros(len(pairs)), difference, priority,
                                     max_key=np.inf, max_sum=top, key_hits=ceiling is None,
                                     content=methods.method_share(method, difference))


def in_folders(paths: Sequence[str], folders: Sequence[str], *,
               resolve_links: bool = False) -> np.ndarray:
    """For each path: is it one of ``folders`` or inside one (links resolved with
    ``resolve_links``)?  See :func:`simgui.core.folders.folder_test`."""
    if not folders:
        return np.zeros(len(paths), bool)
    return np.fromiter(map(folder_test(folders, resolve_links=resolve_links), paths), bool,
                       len(paths))
