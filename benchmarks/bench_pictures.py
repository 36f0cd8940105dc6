"""Accuracy and speed of the ``images`` method on the labelled picture corpus.

    python benchmarks/bench_pictures.py CORPUS [--compare] [--thumbnails] [--speed N]

CORPUS is a folder written by benchmarks/picture_corpus.py (written first when
missing).  For each distance up to 16 bits it reports the precision of all
pairs found and the recall per kind of edit (a kind's recall: the share of
(original, variant) pairs found); ``--compare`` adds the gradient hash (dHash)
computed from the same decode, to compare the two hashes; ``--thumbnails``
hashes the JPEG originals from an Exif thumbnail, as the scan hashes camera
photos (see ``load``), to show what that costs in recall.  The search is the
one ``simgui ... --method images`` runs (simgui.core.search.pictures), on the
hashes the scan stores.  ``--speed N`` hashes N camera-sized (12 MP) JPEGs
on one thread, each carrying an Exif thumbnail as camera photos do, and reports
pictures per second per core: from the verified thumbnail (what the scan does)
and decoding each picture itself in draft mode (what it does when the thumbnail
cannot be trusted).  Time it on a quiet machine.
"""

from __future__ import annotations

import argparse
import io
import os
import struct
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import picture_corpus  # noqa: E402

from simgui.core.reading import pictures  # noqa: E402
from simgui.core.search import pictures as pictures_search  # noqa: E402
from simgui.core.search.pictures import picture_pairs  # noqa: E402


def _gradient(path: str) -> int:
    """The dHash of the picture at ``path``, from the same draft decode as the scan's."""
    from PIL import Image

    with pictures.open_picture(path) as img:
        if img.format == "JPEG":
            img.draft("L", (64, 64))
        img.load()
        grey = pictures._grey(img).resize((9, 8), Image.Resampling.BOX)
        return pictures.gradient_hash(np.asarray(grey, np.float64))


def load(corpus: str, compare: bool, thumbnails: bool = False):
    """The corpus's labels and hashes.  With ``thumbnails``, every JPEG original is
    hashed as if it were a camera photo: from a copy (under CORPUS-exif) carrying a
    160-pixel Exif thumbnail of itself, checked and used as the scan would for a
    camera-sized picture; the variants (edits that dropped the Exif block) are decoded
    themselves as always."""
    labels = picture_corpus.read_labels(corpus)
    files, source, kind, dct, grad, dims = [], [], [], [], [], []
    used = total = 0
    for rel, src, k in labels:
        path = os.path.join(corpus, rel)
        if thumbnails and k == "original" and rel.endswith(".jpg"):
            path = _with_own_thumbnail(path, os.path.join(corpus.rstrip("/") + "-exif", rel))
            limit, pictures.THUMBNAIL_MIN_PIXELS = pictures.THUMBNAIL_MIN_PIXELS, 0
            try:
                pic = pictures.read_picture(path)
            finally:
                pictures.THUMBNAIL_MIN_PIXELS = limit
            used += pic.from_thumbnail
            total += 1
        else:
            pic = pictures.read_picture(path)
        files.append(rel)
        source.append(src)
        kind.append(k)
        dct.append(pic.hash)
        dims.append((pic.width, pic.height))
        grad.append(_gradient(path) if compare else 0)
    if thumbnails:
        print(f"{used} of {total} JPEG originals hashed from their Exif thumbnail")
    return (files, np.array(source), np.array(kind), np.array(dct, np.uint64),
            np.array(grad, np.uint64), np.array(dims))


def _with_own_thumbnail(path: str, copy: str) -> str:
    """A copy of the JPEG at ``path`` with an Exif block holding its thumbnail and size,
    inserted after the start marker: the picture's own bytes are unchanged."""
    from PIL import Image

    with open(path, "rb") as f:
        data = f.read()
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        exif = exif_with_thumbnail(thumbnail_jpeg(img), *img.size)
    os.makedirs(os.path.dirname(copy), exist_ok=True)
    with open(copy, "wb") as f:
        f.write(data[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + data[2:])
    return copy


def evaluate(hashes, source, kind, dims, max_bits: int, rotations: bool, rotation_safe=True):
    """(precision, {kind: recall}, pairs found, false pairs) at each distance 0..max_bits."""
    pairs, bits = picture_pairs(hashes, max_bits, rotations=rotations,
                                widths=dims[:, 0], heights=dims[:, 1])
    same = source[pairs[:, 0]] == source[pairs[:, 1]]
    originals = {s: i for i, (s, k) in enumerate(zip(source, kind)) if k == "original"}
    rows = []
    for d in range(max_bits + 1):
        keep = bits <= d
        found = int(keep.sum())
        true = int((keep & same).sum())
        hit = {(int(a), int(b)) for a, b in pairs[keep & same]}
        recall = {}
        for k in picture_corpus.KINDS:
            members = np.flatnonzero(kind == k)
            got = sum(1 for m in members
                      if (min(m, originals[source[m]]), max(m, originals[source[m]])) in hit)
            recall[k] = got / max(len(members), 1)
        rows.append((d, true / found if found else 1.0, recall, found, found - true))
    return rows


def report(name: str, rows, kinds=picture_corpus.KINDS) -> None:
    print(f"\n{name}: precision of all pairs found, recall of (original, variant) per kind")
    head = "bits  prec   pairs false " + " ".join(f"{k[:8]:>8}" for k in kinds)
    print(head)
    for d, precision, recall, found, false in rows:
        print(f"{d:4d}  {precision:5.3f} {found:6d} {false:5d} "
              + " ".join(f"{recall[k]:8.2f}" for k in kinds))


def exif_with_thumbnail(thumbnail: bytes, width: int, height: int,
                        orientation: int = 1) -> bytes:
    """An Exif block (APP1's payload, for Pillow's ``save(exif=...)``) as a camera writes
    it: IFD0 (the orientation, a pointer to the Exif IFD), the Exif IFD (the picture's
    width and height) and IFD1 (the JPEG ``thumbnail``)."""
    def ifd(entries, next_offset):
        out = struct.pack(">H", len(entries))
        for tag, kind, value in entries:  # kind 3: SHORT, 4: LONG
            out += (struct.pack(">HHIHH", tag, 3, 1, value, 0) if kind == 3
                    else struct.pack(">HHII", tag, 4, 1, value))
        return out + struct.pack(">I", next_offset)

    ifd0_at, exif_at = 8, 8 + 30
    ifd1_at = exif_at + 30
    thumb_at = ifd1_at + 42
    tiff = (b"MM\x00\x2a" + struct.pack(">I", ifd0_at)
            + ifd([(0x0112, 3, orientation), (0x8769, 4, exif_at)], ifd1_at)
            + ifd([(0xA002, 4, width), (0xA003, 4, height)], 0)
            + ifd([(0x0103, 3, 6), (0x0201, 4, thumb_at), (0x0202, 4, len(thumbnail))], 0)
            + thumbnail)
    return b"Exif\x00\x00" + tiff


def thumbnail_jpeg(img, side: int = 160, quality: int = 75) -> bytes:
    """A camera-like thumbnail of ``img``: at most ``side`` pixels long, JPEG."""
    from PIL import Image

    small = img.convert("RGB")
    small.thumbnail((side, side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "JPEG", quality=quality)
    return out.getvalue()


def with_thumbnails(paths: list[str], folder: str) -> list[str]:
    """Copies of the JPEGs at ``paths`` under ``folder`` with an Exif thumbnail each
    (made once)."""
    from PIL import Image

    os.makedirs(folder, exist_ok=True)
    out = []
    for p in paths:
        q = os.path.join(folder, os.path.basename(p))
        if not os.path.exists(q):
            with Image.open(p) as img:
                img.load()
                exif = exif_with_thumbnail(thumbnail_jpeg(img), *img.size)
                img.save(q + ".part", "JPEG", quality=90, exif=exif)
            os.replace(q + ".part", q)
        out.append(q)
    return out


def _time(paths: list[str], thumbnails: bool) -> tuple[float, int]:
    """Seconds per picture (best of three rounds) and how many took the thumbnail."""
    best, used = float("inf"), 0
    for _ in range(3):
        start = time.perf_counter()
        used = sum(pictures.read_picture(p, "jpg", thumbnails=thumbnails).from_thumbnail
                   for p in paths)
        best = min(best, (time.perf_counter() - start) / len(paths))
    return best, used


def speed(count: int, folder: str) -> None:
    paths = sorted(os.path.join(folder, p) for p in os.listdir(folder)
                   if p.endswith(".jpg")) if os.path.isdir(folder) else []
    if len(paths) < count:
        paths = picture_corpus.camera_jpegs(folder, count)
    paths = with_thumbnails(paths[:count], folder + "-exif")
    for p in paths:  # warm the page cache, as the scan's own read does
        with open(p, "rb") as f:
            f.read()
    size = sum(os.path.getsize(p) for p in paths) / len(paths) / 1e6
    print(f"\n{len(paths)} camera-sized JPEGs (12 MP, {size:.1f} MB each, with a 160 x 120 "
          "Exif thumbnail), one thread:")
    for thumbnails, what in ((True, "verified Exif thumbnail (the scan's way)"),
                             (False, "draft decoding of the picture itself")):
        each, used = _time(paths, thumbnails)
        print(f"  {what}: {1 / each:.0f} pictures/s per core ({1000 * each:.1f} ms each; "
              f"{used} of {len(paths)} from the thumbnail)")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--compare", action="store_true", help="also the gradient hash")
    parser.add_argument("--max-bits", type=int, default=pictures_search.MAX_BITS)
    parser.add_argument("--thumbnails", action="store_true",
                        help="hash the JPEG originals from an Exif thumbnail, as camera photos")
    parser.add_argument("--speed", type=int, default=0, metavar="N",
                        help="time N camera-sized JPEGs (made once under CORPUS-camera)")
    args = parser.parse_args(argv)
    if not os.path.exists(os.path.join(args.corpus, "labels.tsv")):
        picture_corpus.write_corpus(args.corpus)
    files, source, kind, dct, grad, dims = load(args.corpus, args.compare, args.thumbnails)
    print(f"{len(files)} pictures, {len(set(source))} sources")
    report("DCT hash (stored), rotations off",
           evaluate(dct, source, kind, dims, args.max_bits, False))
    report("DCT hash (stored), rotations on",
           evaluate(dct, source, kind, dims, args.max_bits, True))
    if args.compare:
        report("gradient hash (dHash), rotations off",
               evaluate(grad, source, kind, dims, args.max_bits, False))
    if args.speed:
        speed(args.speed, args.corpus.rstrip("/") + "-camera")


if __name__ == "__main__":
    main()
