"""Accuracy and speed of the ``images`` method on the labelled picture corpus.

    python benchmarks/bench_pictures.py CORPUS [--compare] [--speed N] [--distance D]

CORPUS is a folder written by benchmarks/picture_corpus.py (written first when
missing).  For each distance up to 16 bits it reports the precision of all
pairs found and the recall per kind of edit (a kind's recall: the share of
(original, variant) pairs found); ``--compare`` adds the gradient hash (dHash)
computed from the same decode, to compare the two hashes.  The search is the
one ``simgui ... --method images`` runs (simgui.core.search.pictures), on the
hashes the scan stores.  ``--speed N`` decodes N camera-sized (12 MP) JPEGs
with draft decoding on one thread and reports pictures per second per core:
time it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
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


def load(corpus: str, compare: bool):
    labels = picture_corpus.read_labels(corpus)
    files, source, kind, dct, grad, dims = [], [], [], [], [], []
    for rel, src, k in labels:
        path = os.path.join(corpus, rel)
        pic = pictures.read_picture(path)
        files.append(rel)
        source.append(src)
        kind.append(k)
        dct.append(pic.hash)
        dims.append((pic.width, pic.height))
        grad.append(_gradient(path) if compare else 0)
    return (files, np.array(source), np.array(kind), np.array(dct, np.uint64),
            np.array(grad, np.uint64), np.array(dims))


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


def speed(count: int, folder: str) -> None:
    paths = sorted(os.path.join(folder, p) for p in os.listdir(folder)
                   if p.endswith(".jpg")) if os.path.isdir(folder) else []
    if len(paths) < count:
        paths = picture_corpus.camera_jpegs(folder, count)
    paths = paths[:count]
    for p in paths:  # warm the page cache, as the scan's own read does
        with open(p, "rb") as f:
            f.read()
    start = time.perf_counter()
    for p in paths:
        pictures.read_picture(p, "jpg")
    elapsed = time.perf_counter() - start
    size = sum(os.path.getsize(p) for p in paths) / len(paths) / 1e6
    print(f"\n{len(paths)} camera-sized JPEGs (12 MP, {size:.1f} MB each), one thread: "
          f"{len(paths) / elapsed:.0f} pictures/s per core ({1000 * elapsed / len(paths):.1f} "
          "ms each)")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--compare", action="store_true", help="also the gradient hash")
    parser.add_argument("--max-bits", type=int, default=pictures_search.MAX_BITS)
    parser.add_argument("--speed", type=int, default=0, metavar="N",
                        help="time N camera-sized JPEGs (made once under CORPUS-camera)")
    args = parser.parse_args(argv)
    if not os.path.exists(os.path.join(args.corpus, "labels.tsv")):
        picture_corpus.write_corpus(args.corpus)
    files, source, kind, dct, grad, dims = load(args.corpus, args.compare)
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
