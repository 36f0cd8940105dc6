"""``simgui cluster pairs|groups``: SimFind on a dataset, spread over a Dask cluster,
with the result of the local commands on the same files, exactly.

Why it splits: a similar pair is decided by its two files alone (same extension,
sizes within the size factor, keys and sum tables within tolerance; or their
fingerprints), so any set of files that holds both finds it with the same kernel.

1. *classes*: each part's readable rows go to a bucket by content hash; a bucket's
   task forms the classes of identical files (``simfind.classes_of`` on size, sum
   table and hash, as the local search does, whatever the extensions) and picks
   the search representatives as ``SearchSpace.search_reps`` does (each class's
   first file by path, and the first of each other extension).
2. *bands*: representatives go to a partition by extension and size band (bands
   1.25 times as wide as the size factor's reach, so a pair is in one band or two
   neighbouring ones); each partition, with the next band up, is searched by the
   local search's own function (``core.search.pairs.similar_pairs``: SimFind or a
   fingerprint method, then the content check), and keeps the pairs with a file in
   its own band.
3. the client takes the files of every class in a pair and every copy (all the
   files any pair or group can hold), and runs ``similar_pairs`` on them for the
   rows ``simgui pairs`` prints, and ``analysis.find_groups`` for the groups
   ``simgui groups`` prints: exactly the local answers, as every pair is among them.

Data moves between stages as Dask futures of numpy blocks (a hand-off task picks
each destination's share where the data lies), so the client holds only the files
that have a partner or a copy, not the whole dataset; the search over all files, the
costly part, runs on the workers.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from operator import getitem
from dataclasses import dataclass

import numpy as np

from simgui.cluster.dataset import MINHASH_SLOTS, TAG_COUNT, Dataset, fixed_list
from simgui.core.search.keys import SCHEMES
from simgui.core.search.pairs import similar_pairs
from simgui.core.search.simfind import (
    DEFAULT_MIN_SIMILAR_SIZE, DEFAULT_SIZE_FACTOR, Tolerances, classes_of,
)
from simgui.core.store import StoredFiles

_TASKS_PER_WORKER = 4
_BAND_MARGIN = 1.25  # band width / ln(size factor): a pair spans less than one band


@dataclass(frozen=True)
class Search:
    """What to search for: the local commands' search options (``tolerances.content``
    is the paper's method's content check)."""

    tolerances: Tolerances = Tolerances()
    scheme: str = "skew"
    use_extensions: bool = True
    size_factor: float = DEFAULT_SIZE_FACTOR
    method: str = "paper"
    overrides: tuple[tuple[str, Tolerances], ...] = ()
    min_similar_size: int = DEFAULT_MIN_SIMILAR_SIZE

    @property
    def needs_signatures(self) -> bool:
        """Whether the search itself reads MinHash signatures (not only the report)."""
        return self.method == "minhash" or (self.method == "paper"
                                            and self.tolerances.content > 0)

    @property
    def needs_fingerprints(self) -> str | None:
        """What needs every file's fingerprints, if anything (as ``simgui pairs`` says)."""
        if self.method != "paper":
            return self.method
        return "content check" if self.tolerances.content else None

    def band_of(self, sizes: np.ndarray) -> np.ndarray:
        width = _BAND_MARGIN * math.log(max(self.size_factor, 1.01))
        return np.floor(np.log(np.maximum(sizes, 1).astype(np.float64)) / width).astype(np.int64)

    def pairs(self, files: StoredFiles):
        """The local search's one function (``simgui pairs``), on ``files``."""
        return similar_pairs(files, self.tolerances, scheme=SCHEMES[self.scheme],
                             use_extensions=self.use_extensions, size_factor=self.size_factor,
                             method=self.method, overrides=dict(self.overrides))


class MissingFingerprints(ValueError):
    """Some files of the dataset were read without the fingerprints the search needs."""


CLUSTER_METHODS = ("paper", "simhash", "minhash")  # what a dataset holds fingerprints for


# -- blocks: a dict of column arrays --------------------------------------------------

def _take(block: dict, index) -> dict:
    return {k: (v[index] if isinstance(v, np.ndarray) else [v[i] for i in index])
            for k, v in block.items()}


def _concat(blocks: list[dict]) -> dict | None:
    blocks = [b for b in blocks if b is not None and len(b["gid"])]
    if not blocks:
        return None
    return {k: np.concatenate([b[k] for b in blocks]) for k in blocks[0]}


def _split(block: dict, keys: np.ndarray) -> dict:
    """block -> {key: rows with that key}."""
    if not len(keys):
        return {}
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    cuts = np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1
    starts = np.r_[0, cuts]
    ends = np.r_[cuts, len(order)]
    return {sorted_keys[s].item() if hasattr(sorted_keys[s], "item") else sorted_keys[s]:
            _take(block, order[s:e]) for s, e in zip(starts, ends)}


# -- stage 1: parts to hash buckets ------------------------------------------------------

def _load_parts(folder: str, parts: list[int], search: Search, buckets: int) -> dict:
    """The readable rows of some parts, by hash bucket; and the files without the
    fingerprints the search needs (under the key "missing")."""
    dataset = Dataset.open(folder)
    columns = ["path", "size", "extension", "counts", "hash", "simhash", "error"]
    columns += ["minhash"] if search.needs_signatures else []
    blocks, missing = [], 0
    for part in parts:
        t = dataset.read(columns, part=part)
        n = t.num_rows
        ok = np.asarray(t.column("error").is_null().to_numpy(zero_copy_only=False), bool)
        fp = np.asarray(t.column("simhash").is_valid().to_numpy(zero_copy_only=False), bool)
        if search.needs_fingerprints:
            missing += int((ok & ~fp).sum())
        rows = np.flatnonzero(ok)
        hash_column = t.column("hash").to_pylist()
        hashes = np.frombuffer(b"".join(hash_column[i] for i in rows.tolist()),
                               np.int64).reshape(-1, 2)
        block = {
            "gid": (np.int64(part) << 32) | rows.astype(np.int64),
            "path": np.array(t.column("path").to_pylist(), dtype=object)[rows]
            if n else np.zeros(0, object),
            "size": t.column("size").to_numpy()[rows].astype(np.int64),
            "ext": np.array([os.fsdecode(e) if search.use_extensions else ""
                             for e in t.column("extension").to_pylist()], dtype=object)[rows]
            if n else np.zeros(0, object),
            "counts": fixed_list(t.column("counts"), TAG_COUNT, np.int64)[rows],
            "hash": hashes,
            "simhash": np.asarray(t.column("simhash").fill_null(0).to_numpy(),
                                  np.uint64)[rows],
        }
        if search.needs_signatures:  # 512 bytes a file: only where the search reads them
            block["minhash"] = fixed_list(t.column("minhash"), MINHASH_SLOTS, np.uint32)[rows]
        block["fp"] = fp[rows]
        blocks.append(block)
    block = _concat(blocks)
    out: dict = {"missing": missing}
    if block is not None:
        bucket = (block["hash"][:, 0].view(np.uint64) % np.uint64(buckets)).astype(np.int64)
        out.update(_split(block, bucket))
    return out


def _pick(source: dict, keys) -> dict:
    """The share of ``source`` (key -> block) that a destination needs."""
    return {k: source[k] for k in keys if k in source}


# -- stage 2: classes and representatives ------------------------------------------------

def _classes(pieces: list[dict], bucket: int, search: Search) -> dict:
    """One bucket's classes of identical files: the multi-file classes (their members'
    gids, first by path) and the search representatives by (extension, band)."""
    block = _concat([p.get(bucket) for p in pieces])
    if block is None:
        return {"multi": (np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int64)),
                "summary": {}}  # (each class's first file, CSR offsets, its members)
    order = np.argsort(block["path"], kind="stable")  # the store's order: by path bytes
    block = _take(block, order)
    classes = classes_of(block["size"], block["counts"], None, block["hash"])
    of_file = classes.of_file
    start, members = classes.members_start, classes.members
    first = members[start[:-1]]  # ascending index within a class: its first path
    class_id = block["gid"][first][of_file]  # a class is named by its first file's gid
    per_class = np.diff(start)
    multi = np.flatnonzero(per_class > 1)
    lengths = per_class[multi]
    multi_members = np.concatenate([members[start[c]:start[c + 1]] for c in multi]) \
        if len(multi) else np.zeros(0, np.int64)
    multi_out = (block["gid"][first[multi]], np.r_[0, np.cumsum(lengths)].astype(np.int64),
                 block["gid"][multi_members])
    # the search representatives, as SearchSpace.search_reps picks them
    big = block["size"] >= search.min_similar_size
    if search.use_extensions:
        ext_codes = {e: i for i, e in enumerate(sorted(set(block["ext"].tolist())))}
        code = of_file * len(ext_codes) + np.array([ext_codes[e] for e in block["ext"]],
                                                   np.int64)
        _, at = np.unique(code, return_index=True)  # rows are in path order: the first
        reps = at
    else:
        reps = first
    reps = np.sort(reps[big[reps]])
    rep_block = _take(block, reps)
    rep_block["cls"] = class_id[reps]
    del rep_block["path"]
    band = search.band_of(rep_block["size"])
    rep_block["band"] = band
    by_key = _split(rep_block, np.array([f"{b}\0{e}" for e, b in zip(
        rep_block["ext"].tolist(), band.tolist())], dtype=object)) if len(reps) else {}
    partitions = {_unkey(k): v for k, v in by_key.items()}
    summary = {k: len(v["gid"]) for k, v in partitions.items()}
    return {"multi": multi_out, "summary": summary, **partitions}


def _unkey(key: str) -> tuple[str, int]:
    band, _, ext = key.partition("\0")
    return ext, int(band)


# -- stage 3: the exact search in each partition -------------------------------------------

def _search_partitions(pieces: list[dict], owned: list[tuple[str, int]], search: Search
                       ) -> np.ndarray:
    """Class pairs (min, max) of the partitions ``owned``, each searched with the next
    band up; a pair is kept by the partition of its lower band."""
    found = []
    for ext, band in owned:
        own = _concat([p.get((ext, band)) for p in pieces])
        if own is None:
            continue
        above = _concat([p.get((ext, band + 1)) for p in pieces])
        block = own if above is None else _concat([own, above])
        n_own = len(own["gid"])
        if len(block["gid"]) < 2:
            continue
        pairs = _kernel(block, search)
        pairs = pairs[(pairs[:, 0] < n_own) | (pairs[:, 1] < n_own)]
        cls = block["cls"][pairs]
        found.append(np.sort(cls, axis=1))
    if not found:
        return np.zeros((0, 2), np.int64)
    return np.unique(np.concatenate(found), axis=0)


def _kernel(block: dict, search: Search) -> np.ndarray:
    """The local search's own function on one partition (one file per class): its
    pairs, content check included, as rows of ``block``."""
    n = len(block["gid"])
    zeros = np.zeros(n, np.int64)
    files = StoredFiles(
        ids=block["gid"], paths=[""] * n, sizes=block["size"], mtimes_ns=zeros,
        devices=zeros, inodes=zeros, tables=block["counts"],
        hashes=[h.tobytes() for h in block["hash"]], extensions=list(block["ext"]),
        simhashes=block["simhash"],
        signatures=block.get("minhash"),  # None: the search does not read them
        fingerprinted=block["fp"])
    return search.pairs(files).pairs


# -- the client's part ----------------------------------------------------------------------

@dataclass
class Found:
    """The files that have a similar partner or a copy (sorted by path, as a store lists
    them), and their pairs as ``simgui pairs`` lists them (a PairTable of those files)."""

    files: StoredFiles
    pairs: object  # simgui.core.search.pairs.PairTable


def _groups_of(n: int, groups: int) -> list[list[int]]:
    groups = max(1, min(n, groups))
    return [list(range(n))[i::groups] for i in range(groups)] if n else []


def _fetch_rows(folder: str, part: int, rows: np.ndarray) -> dict:
    """Some rows of one part, as the columns of StoredFiles."""
    t = Dataset.open(folder).read(part=part).take(rows)
    return {
        "gid": (np.int64(part) << 32) | rows.astype(np.int64),
        "path": np.array(t.column("path").to_pylist(), dtype=object),
        "size": t.column("size").to_numpy().astype(np.int64),
        "mtime": t.column("mtime_ns").to_numpy().astype(np.int64),
        "device": t.column("device").to_numpy().astype(np.int64),
        "inode": t.column("inode").to_numpy().astype(np.int64),
        "ext": np.array([os.fsdecode(e) for e in t.column("extension").to_pylist()], object),
        "counts": fixed_list(t.column("counts"), TAG_COUNT, np.int64),
        "hash": np.array(t.column("hash").to_pylist(), dtype=object),
        "simhash": np.asarray(t.column("simhash").fill_null(0).to_numpy(), np.uint64),
        "fp": np.asarray(t.column("simhash").is_valid().to_numpy(zero_copy_only=False), bool),
        "minhash": fixed_list(t.column("minhash"), MINHASH_SLOTS, np.uint32),
    }


def find(client, folder: str, search: Search,
         progress: Callable[[str, int, int], None] | None = None) -> Found:
    """Every similar pair of the dataset in ``folder`` (see the module docstring)."""
    from distributed import as_completed

    if search.method not in CLUSTER_METHODS:
        raise ValueError(f"--method {search.method} is not available on the cluster yet "
                         f"(its datasets hold no picture hashes); use "
                         f"{', '.join(CLUSTER_METHODS)}")

    def stage(name: str, futures: list) -> None:
        if progress is None:
            return
        done = 0
        for _ in as_completed(futures):
            done += 1
            progress(name, done, len(futures))

    dataset = Dataset.open(folder)
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    width = workers * _TASKS_PER_WORKER
    # 1. parts -> buckets by content hash
    part_groups = _groups_of(len(dataset.parts), width)
    buckets = max(1, min(width, len(part_groups) * 2))
    loaded = [client.submit(_load_parts, folder, g, search, buckets, pure=False)
              for g in part_groups]
    stage("reading", loaded)
    missing = sum(client.gather([client.submit(getitem, f, "missing") for f in loaded]))
    if missing:
        raise MissingFingerprints(
            f"{_missing_text(missing, search.needs_fingerprints)} ('simgui cluster scan' "
            "reads them once more" + (", or --no-check)" if search.method == "paper" else ")"))
    # 2. buckets -> classes and representatives
    classes = []
    for b in range(buckets):
        pieces = [client.submit(_pick, f, [b]) for f in loaded]
        classes.append(client.submit(_classes, pieces, b, search, pure=False))
    stage("classes", classes)
    del loaded
    summaries = client.gather([client.submit(getitem, f, "summary") for f in classes])
    multi = client.gather([client.submit(getitem, f, "multi") for f in classes])
    # 3. (extension, band) partitions, balanced over the search tasks by size
    count: dict[tuple[str, int], int] = {}
    for s in summaries:
        for k, v in s.items():
            count[k] = count.get(k, 0) + v

    def load(k):
        return count[k] + count.get((k[0], k[1] + 1), 0)

    loads = [0] * width
    assigned: list[list] = [[] for _ in range(width)]
    for k in sorted(count, key=lambda k: (-load(k), k)):  # largest first, to the least loaded
        i = loads.index(min(loads))
        assigned[i].append(k)
        loads[i] += load(k)
    searches = []
    for keys in assigned:
        if not keys:
            continue
        wanted = sorted(set(keys) | {(e, b + 1) for e, b in keys})
        pieces = [client.submit(_pick, f, wanted)
                  for f, s in zip(classes, summaries) if any(k in s for k in wanted)]
        searches.append(client.submit(_search_partitions, pieces, keys, search, pure=False))
    stage("searching", searches)
    found = client.gather(searches)
    del classes, searches
    # 4. the files in a pair: every copy (so every file of a class of copies in a pair),
    # and the classes of one file in a pair (a class is named by its first file)
    involved = np.unique(np.concatenate([np.concatenate(found).reshape(-1) if found else [],
                                         *(gids for _, _, gids in multi)]).astype(np.int64))
    parts = involved >> 32
    fetched = client.gather([
        client.submit(_fetch_rows, folder, int(p), involved[parts == p] & 0xFFFFFFFF,
                      pure=False)
        for p in np.unique(parts).tolist()])
    files = _stored_files(_concat(fetched) if fetched else None)
    # 5. their pairs, by the local search's one function: exactly what it finds among all
    # the files, as a pair is decided by its two files and these hold every pair's both
    return Found(files, search.pairs(files))


def _missing_text(missing: int, needs: str) -> str:
    from simgui.core.search.analysis import MissingFingerprints as Missing

    return str(Missing(missing, needs))


def _stored_files(rows: dict | None) -> StoredFiles:
    if rows is None:
        rows = {"gid": np.zeros(0, np.int64), "path": np.zeros(0, object),
                "size": np.zeros(0, np.int64), "mtime": np.zeros(0, np.int64),
                "device": np.zeros(0, np.int64), "inode": np.zeros(0, np.int64),
                "ext": np.zeros(0, object), "counts": np.zeros((0, TAG_COUNT), np.int64),
                "hash": np.zeros(0, object), "simhash": np.zeros(0, np.uint64),
                "fp": np.zeros(0, bool), "minhash": np.zeros((0, MINHASH_SLOTS), np.uint32)}
    order = np.argsort(rows["path"], kind="stable")
    rows = _take(rows, order)
    return StoredFiles(
        ids=rows["gid"], paths=[os.fsdecode(p) for p in rows["path"]], sizes=rows["size"],
        mtimes_ns=rows["mtime"], devices=rows["device"], inodes=rows["inode"],
        tables=rows["counts"], hashes=list(rows["hash"]), extensions=list(rows["ext"]),
        simhashes=rows["simhash"], signatures=rows["minhash"], fingerprinted=rows["fp"])


def groups(found: Found, search: Search, references=()):
    """The groups ``simgui groups`` forms: the local grouping on the files that have a
    partner (a file with none is in no group, and a pair is decided by its two files)."""
    from simgui.core.search.analysis import find_groups

    return find_groups(found.files, search.tolerances, scheme=SCHEMES[search.scheme],
                       use_extensions=search.use_extensions, size_factor=search.size_factor,
                       references=references, method=search.method,
                       overrides=dict(search.overrides),
                       min_similar_size=search.min_similar_size)
