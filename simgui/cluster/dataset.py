"""The cluster's dataset: what ``simgui cluster scan`` read, as Parquet parts in a folder.

One row per file, the same fields a local scan stores (simgui.core.store.FileRecord):
the path as bytes (a name need not be UTF-8), size, mtime_ns, device, inode, the
extension (bytes, for the same reason), the 16 counts of the sum table, the xxh3-128
content hash, the simhash and the MinHash signature, and the error of a file that
could not be read (its counts zero, its hash null).

A scan writes a new *generation* (``gen-NNNNNN/part-*.parquet`` and
``issues.parquet``) and only then points ``dataset.json`` at it (written whole and
renamed into place), so an interrupted scan leaves the previous dataset as it was;
the previous generation is removed after the switch.  Each part holds one task's
files sorted by path, so a reader can skip parts by their path statistics.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from simgui.core.store import MINHASH_SLOTS, FileRecord
from simgui.core.tags import DEFAULT_TAGS, tags_from_hex, tags_to_hex

FORMAT = 1
INDEX = "dataset.json"
TAG_COUNT = 16

SCHEMA = pa.schema([
    ("path", pa.binary()),
    ("size", pa.int64()),
    ("mtime_ns", pa.int64()),
    ("device", pa.uint64()),
    ("inode", pa.uint64()),
    ("extension", pa.binary()),
    ("counts", pa.list_(pa.int64(), TAG_COUNT)),
    ("hash", pa.binary(16)),
    ("simhash", pa.uint64()),  # null: not fingerprinted
    ("minhash", pa.list_(pa.uint32(), MINHASH_SLOTS)),  # zeros when not fingerprinted
    ("error", pa.binary()),  # null: read; else why not (bytes: it may name a path)
])
ISSUES = pa.schema([("path", pa.binary()), ("kind", pa.string()), ("message", pa.binary())])


class DatasetError(Exception):
    """A folder that is no dataset, or a damaged one: one line for the user."""


def _text(value: str) -> bytes:
    return os.fsencode(value)


def _untext(value: bytes | None) -> str | None:
    return None if value is None else os.fsdecode(value)


def records_table(records: Sequence[FileRecord]) -> pa.Table:
    """Records as a table of :data:`SCHEMA`, sorted by path."""
    records = sorted(records, key=lambda r: r.path)
    n = len(records)
    zeros16 = np.zeros(TAG_COUNT, np.int64)
    zeros_sig = np.zeros(MINHASH_SLOTS, np.uint32)
    counts = np.array([zeros16 if r.sum_table is None else np.asarray(r.sum_table, np.int64)
                       for r in records], np.int64).reshape(n, TAG_COUNT)
    minhash = np.array([zeros_sig if r.minhash is None else np.asarray(r.minhash, np.uint32)
                        for r in records], np.uint32).reshape(n, MINHASH_SLOTS)
    return pa.Table.from_arrays([
        pa.array([r.path for r in records], pa.binary()),
        pa.array([r.size for r in records], pa.int64()),
        pa.array([r.mtime_ns for r in records], pa.int64()),
        pa.array([r.device for r in records], pa.uint64()),
        pa.array([r.inode for r in records], pa.uint64()),
        pa.array([_text(r.extension) for r in records], pa.binary()),
        pa.FixedSizeListArray.from_arrays(pa.array(counts.reshape(-1)), TAG_COUNT),
        pa.array([r.content_hash if r.error is None else None for r in records], pa.binary(16)),
        pa.array([None if r.simhash is None else int(r.simhash) for r in records], pa.uint64()),
        pa.FixedSizeListArray.from_arrays(pa.array(minhash.reshape(-1)), MINHASH_SLOTS),
        pa.array([None if r.error is None else _text(r.error) for r in records], pa.binary()),
    ], schema=SCHEMA)


def table_records(table: pa.Table) -> list[FileRecord]:
    """The rows of a table of :data:`SCHEMA` as FileRecords (what the store saves)."""
    cols = table.to_pydict()
    counts = fixed_list(table.column("counts"), TAG_COUNT, np.int64)
    minhash = fixed_list(table.column("minhash"), MINHASH_SLOTS, np.uint32)
    out = []
    for i, path in enumerate(cols["path"]):
        error = _untext(cols["error"][i])
        simhash = cols["simhash"][i]
        out.append(FileRecord(
            path, cols["size"][i], cols["mtime_ns"][i], cols["device"][i], cols["inode"][i],
            os.fsdecode(cols["extension"][i]), None if error else counts[i].copy(),
            None if error else cols["hash"][i], error,
            simhash=simhash, minhash=None if simhash is None else minhash[i].copy()))
    return out


def fixed_list(column, width: int, dtype) -> np.ndarray:
    """A fixed-size list column (never null) as an (n, width) array."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    return np.asarray(column.flatten().to_numpy(zero_copy_only=False),
                      dtype).reshape(len(column), width)


@dataclass(frozen=True)
class Dataset:
    """An open dataset: its folder, the current generation's parts, and what it was
    scanned with."""

    folder: str
    generation: str | None
    roots: tuple[str, ...]
    tags: tuple[int, ...]
    fingerprints: bool
    parts: tuple[str, ...]  # paths of the Parquet parts, in order

    @classmethod
    def open(cls, folder: str | os.PathLike, *, missing_ok: bool = False) -> Dataset:
        folder = os.fspath(folder)
        index = os.path.join(folder, INDEX)
        try:
            with open(index, "rb") as f:
                info = json.loads(f.read())
        except FileNotFoundError:
            if missing_ok:
                return cls(folder, None, (), DEFAULT_TAGS, True, ())
            raise DatasetError(f"no dataset in {folder} ('simgui cluster scan --out "
                               f"{folder} FOLDER' makes one)") from None
        except (OSError, ValueError) as exc:
            raise DatasetError(f"cannot read the dataset {index}: {exc}") from None
        if not isinstance(info, dict) or info.get("format") != FORMAT:
            raise DatasetError(f"{index} is not a simgui dataset of format {FORMAT}")
        generation = info["generation"]
        parts = tuple(os.path.join(folder, generation, name) for name in info["parts"])
        roots = tuple(os.fsdecode(bytes.fromhex(r)) for r in info["roots"])
        return cls(folder, generation, roots, tags_from_hex(info["tags"]),
                   bool(info["fingerprints"]), parts)

    @property
    def issues_path(self) -> str | None:
        return (None if self.generation is None
                else os.path.join(self.folder, self.generation, "issues.parquet"))

    def read(self, columns: Sequence[str] | None = None, *, part: int | None = None,
             under: Sequence[bytes] = (), paths: Sequence[bytes] | None = None) -> pa.Table:
        """Rows of one part (or all), optionally only those at or under ``under`` or with
        one of ``paths`` (parts whose path statistics exclude them are not read)."""
        files = list(self.parts) if part is None else [self.parts[part]]
        if not files:
            return SCHEMA.empty_table() if columns is None else SCHEMA.empty_table().select(
                list(columns))
        data = pads.dataset(files, schema=SCHEMA, format="parquet")
        wanted = None
        for root in under:
            below = root.rstrip(b"/") + b"/"
            f = ((pc.field("path") == pa.scalar(root, pa.binary()))
                 | ((pc.field("path") >= pa.scalar(below, pa.binary()))
                    & (pc.field("path") < pa.scalar(below[:-1] + b"0", pa.binary()))))
            wanted = f if wanted is None else wanted | f
        if paths is not None:
            f = pc.field("path").isin(pa.array(list(paths), pa.binary()))
            wanted = f if wanted is None else wanted | f
        return data.to_table(columns=None if columns is None else list(columns), filter=wanted)

    def issues(self) -> list[tuple[str, str, str]]:
        """(path, kind, message) of what the scan skipped or could not read."""
        if self.issues_path is None or not os.path.exists(self.issues_path):
            return []
        t = pq.read_table(self.issues_path).to_pydict()
        return [(os.fsdecode(p), k, os.fsdecode(m))
                for p, k, m in zip(t["path"], t["kind"], t["message"])]


class Generation:
    """A new generation being written; :meth:`commit` makes it the dataset's current one."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = os.fspath(folder)
        os.makedirs(self.folder, exist_ok=True)
        self.previous = Dataset.open(self.folder, missing_ok=True)
        self.name = f"gen-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}-{time.monotonic_ns()}"
        self.path = os.path.join(self.folder, self.name)
        os.makedirs(self.path)

    def part_path(self, number: int) -> str:
        return os.path.join(self.path, f"part-{number:06d}.parquet")

    def commit(self, roots: Iterable[str], tags: Sequence[int], fingerprints: bool,
               issues: Iterable[tuple[str, str, str]]) -> Dataset:
        issues = list(issues)
        pq.write_table(pa.Table.from_arrays([
            pa.array([_text(p) for p, _, _ in issues], pa.binary()),
            pa.array([k for _, k, _ in issues], pa.string()),
            pa.array([_text(m) for _, _, m in issues], pa.binary())], schema=ISSUES),
            os.path.join(self.path, "issues.parquet"))
        parts = sorted(n for n in os.listdir(self.path) if n.startswith("part-"))
        info = {"format": FORMAT, "generation": self.name, "parts": parts,
                "roots": [_text(r).hex() for r in roots], "tags": tags_to_hex(tags),
                "fingerprints": fingerprints, "written_at": time.time()}
        temporary = os.path.join(self.folder, f".{INDEX}.{os.getpid()}")
        with open(temporary, "w") as f:
            json.dump(info, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, os.path.join(self.folder, INDEX))
        if self.previous.generation and self.previous.generation != self.name:
            shutil.rmtree(os.path.join(self.folder, self.previous.generation),
                          ignore_errors=True)
        return Dataset.open(self.folder)

    def abandon(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
