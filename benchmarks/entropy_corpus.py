"""A labelled collection of high-entropy files: unrelated ones of similar size, and the
edits users make to them.

Compressed photos, videos and archives look random to a byte-level method, and
the sum tables of two random files of about the same size are within 1 % of
each other (the law of large numbers): the hardest negatives for the paper's
method.  Sources, chosen deterministically from a seed:

- *camera*: synthetic camera-like files, a JPEG/Exif-like header (markers, a
  camera model, a date) before random bytes, of clustered sizes (2.0, 2.5 and
  3.0 MB, each +-2 %), as a folder of one camera's photos is;
- *archive*: real compressed files of this machine (gzip, xz, bzip2, zip,
  PNG, JPEG: 30 KB to 4 MB, no two with the same content).

Each source gets the edits users make to such files (a family):

- ``metadata``: 64-512 bytes rewritten within the first kilobyte (a tag editor);
- ``metadata_grown``: 100 bytes inserted in the header (a longer tag);
- ``appended``: 1 % of the size appended (a log, a resumed download);
- ``truncated``: the last 5 % cut off (an interrupted download);
- ``bit_rot``: 0.01 % of the bytes flipped at scattered places.

Labels: two files of one family are similar (every edit keeps almost all the
content); two files of different families are not.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

EDITS = ("metadata", "metadata_grown", "appended", "truncated", "bit_rot")
KINDS = ("source",) + EDITS
ARCHIVE_ROOTS = ("/usr/share", "/usr/lib", os.path.expanduser("~/.cache/pip"))
ARCHIVE_EXTENSIONS = (".gz", ".xz", ".bz2", ".zip", ".whl", ".png", ".jpg", ".jpeg")
MIN_ARCHIVE, MAX_ARCHIVE = 30_000, 4_000_000


@dataclass(frozen=True)
class EntropyFile:
    name: str  # relative path: family folder / kind + extension
    data: bytes
    family: int
    kind: str  # one of KINDS
    source_type: str  # "camera" or the archive's extension


def camera_file(rng: np.random.Generator, size: int, serial: int) -> bytes:
    """A photo as a byte-level method sees one: Exif-like header, then random bytes."""
    header = (b"\xff\xd8\xff\xe1" + (2048).to_bytes(2, "big") + b"Exif\x00\x00MM\x00*"
              + b"Canon\x00Canon EOS 90D\x00" + f"2026:0{1 + serial % 9}:1{serial % 10} "
              f"12:{serial % 60:02d}:00".encode() + bytes(64))
    header += rng.integers(0, 256, 2048 - len(header), dtype=np.uint8).tobytes()
    body = rng.integers(0, 256, size - len(header) - 2, dtype=np.uint8).tobytes()
    return header + body + b"\xff\xd9"


def archive_sources(count: int, rng: np.random.Generator) -> list[tuple[str, bytes]]:
    """Up to ``count`` real compressed files of this machine, distinct in content."""
    paths = []
    for root in ARCHIVE_ROOTS:
        for folder, dirs, names in os.walk(root):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(folder, name)
                if name.lower().endswith(ARCHIVE_EXTENSIONS) and os.path.isfile(path) \
                        and not os.path.islink(path) \
                        and MIN_ARCHIVE <= os.path.getsize(path) <= MAX_ARCHIVE:
                    paths.append(path)
    chosen, seen = [], set()
    for k in rng.permutation(len(paths)).tolist():
        try:
            with open(paths[k], "rb") as f:
                data = f.read()
        except OSError:
            continue
        digest = hashlib.blake2b(data, digest_size=16).digest()
        if digest not in seen:
            seen.add(digest)
            chosen.append((paths[k], data))
        if len(chosen) == count:
            break
    return chosen


def edited(data: bytes, edit: str, rng: np.random.Generator) -> bytes:
    buf = bytearray(data)
    n = len(buf)
    if edit == "metadata":
        length = int(rng.integers(64, 513))
        start = int(rng.integers(4, max(5, min(1024, n) - length)))
        buf[start:start + length] = rng.integers(0, 256, length, dtype=np.uint8).tobytes()
        return bytes(buf[:n])
    if edit == "metadata_grown":
        at = min(200, n // 2)
        return bytes(buf[:at]) + rng.integers(0, 256, 100, dtype=np.uint8).tobytes() \
            + bytes(buf[at:])
    if edit == "appended":
        return bytes(buf) + rng.integers(0, 256, max(n // 100, 1), dtype=np.uint8).tobytes()
    if edit == "truncated":
        return bytes(buf[:n - n // 20])
    if edit == "bit_rot":
        where = rng.choice(n, max(n // 10_000, 1), replace=False)
        for p in where.tolist():
            buf[p] ^= 1 << int(rng.integers(0, 8))
        return bytes(buf)
    raise ValueError(edit)


def iter_collection(cameras: int = 30, archives: int = 30, seed: int = 0
                    ) -> Iterator[EntropyFile]:
    """The families, each source followed by its edits."""
    rng = np.random.default_rng(seed)
    sources: list[tuple[str, str, bytes]] = []  # (type, extension, data)
    clusters = (2_000_000, 2_500_000, 3_000_000)
    for k in range(cameras):
        size = int(clusters[k % 3] * rng.uniform(0.98, 1.02))
        sources.append(("camera", "jpg", camera_file(rng, size, k)))
    for path, data in archive_sources(archives, rng):
        ext = path.rsplit(".", 1)[-1].lower()
        sources.append((ext, ext, data))
    for family, (kind_of_source, ext, data) in enumerate(sources):
        folder = f"{family:03d}-{kind_of_source}"
        yield EntropyFile(f"{folder}/source.{ext}", data, family, "source", kind_of_source)
        for edit in EDITS:
            yield EntropyFile(f"{folder}/{edit}.{ext}", edited(data, edit, rng), family, edit,
                              kind_of_source)
