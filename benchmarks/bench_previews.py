"""The details panel's previews at their cap: how long the worker aligns, and how long the
GUI thread is busy showing the result.

    python benchmarks/bench_previews.py [--mb 1] [--edits 50]

Cases (each file ``--mb`` MB, ``--edits`` scattered edits: a changed byte or line,
an insertion, a deletion, in turn):

* bytes: random content (anchors find every equal run);
* bytes, worst: every 2,000-byte block of B new but for 100 bytes, so that every
  gap between anchors is solved exactly until the exact budget is spent, and
  the rest position by position;
* text: numbered lines, lined up by unique lines;
* the same shown in the widgets (offscreen): the GUI thread's share.

Printed: seconds per case, and the changed share found (checks the alignment is
sane).  Timings on a loaded machine are loose: run it on a quiet one for the record.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np


def edited(data: bytes, edits: int, rng, unit: bytes) -> bytes:
    out = bytearray(data)
    for k, place in enumerate(sorted(rng.integers(0, len(out) - 100, edits), reverse=True)):
        place = int(place)
        if k % 3 == 0:
            out[place] ^= 0x01
        elif k % 3 == 1:
            out[place:place] = unit * 3
        else:
            del out[place:place + 40]
    return bytes(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--edits", type=int, default=50)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from simgui.core.search.alignment import align, compare_hex, compare_text, warm_up
    from simgui.gui.hex_compare import HexCompare
    from simgui.gui.text_compare import TextCompare

    app = QApplication.instance() or QApplication([])
    warm_up()
    size = int(args.mb * (1 << 20))
    rng = np.random.default_rng(1)
    random = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
    worst = bytearray(random)
    for start in range(50, size - 2000, 2000):
        worst[start:start + 1900] = rng.integers(0, 256, 1900, dtype=np.uint8).tobytes()
    text = "".join(f"line {i}: some words of text\n" for i in range(size // 28)).encode()[:size]
    text = text[:text.rindex(b"\n") + 1]
    cases = {"bytes": (random, b"ins"), "bytes, worst": (random, bytes(worst)),
             "text": (text, b"an inserted line\n")}
    with tempfile.TemporaryDirectory() as folder:
        for name, (data, unit) in cases.items():
            other = unit if name == "bytes, worst" else edited(data, args.edits, rng, unit)
            ops = align(data, other, min_equal=4) if name != "text" else None
            pa, pb = os.path.join(folder, "a"), os.path.join(folder, "b")
            for path, content in ((pa, data), (pb, other)):
                with open(path, "wb") as f:
                    f.write(content)
            started = time.perf_counter()
            result = compare_text(pa, pb, max_bytes=size + 1) if name == "text" else \
                compare_hex(pa, pb, max_bytes=size + 1)
            worker = time.perf_counter() - started
            widget = TextCompare() if name == "text" else HexCompare()
            widget.resize(900, 500)
            widget.show()
            started = time.perf_counter()
            widget.show_comparison(result)
            app.processEvents()
            gui = time.perf_counter() - started
            rows = len(result.kind)
            changed = int(np.count_nonzero(result.kind))
            runs = f"{len(ops):,} runs; " if ops is not None else ""
            print(f"{name:14} worker {worker:6.2f} s   GUI thread {gui:6.2f} s   "
                  f"{runs}{changed:,} of {rows:,} {'rows' if name == 'text' else 'cells'} changed")
            widget.deleteLater()


if __name__ == "__main__":
    main()
