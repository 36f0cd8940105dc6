"""Groups as one self-contained HTML page, for sharing a review (no scripts, no
external files): a table per group, the reference first, marked files flagged.

File names that are not UTF-8 are shown with their odd bytes as ``\\xNN`` (the page
itself is UTF-8), and every text is escaped.
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Iterable
from typing import TextIO

from simgui.core.search.groups import Group
from simgui.core.shown import shown_path
from simgui.core.units import format_bytes

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.05em; margin: 1.6em 0 .3em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .2em .6em; border-bottom: 1px solid #ddd; }
td.n { text-align: right; white-space: nowrap; }
tr.reference td { font-weight: bold; }
tr.marked td { background: #fff3e0; }
.muted { color: #666; }
"""


def _text(path: str) -> str:
    return html.escape(shown_path(path))


def _percent(value: float) -> str:
    if math.isnan(value):
        return "?"
    return "100 %" if value >= 100 else f"{min(value, 99.99):.2f} %"


def write_groups_html(groups: Iterable[Group], out: TextIO, marked: Iterable[str] = (),
                      title: str = "Identical and similar files") -> None:
    """Write the page; ``marked``: paths shown as marked for removal."""
    marked = set(marked)
    groups = list(groups)
    files = sum(len(g.files) for g in groups)
    to_free = sum(g.size for g in groups)
    out.write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
              f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>\n")
    out.write(f"<h1>{html.escape(title)}</h1>\n<p class=\"muted\">{len(groups):,} groups, "
              f"{files:,} files, {format_bytes(to_free)} in the files besides each group's "
              f"reference; {len(marked & {m.path for g in groups for m in g.files}):,} "
              f"marked. Written by simgui on {time.strftime('%Y-%m-%d %H:%M')}.</p>\n")
    for g in groups:
        out.write(f"<h2>Group {g.id}: {len(g.files)} files · {format_bytes(g.size)} to "
                  "free</h2>\n<table><tr><th>File</th><th>Size</th><th>Similarity</th>"
                  "<th>Kind</th></tr>\n")
        for m in g.files:
            is_reference = m is g.reference
            kind = ("reference (kept)" if is_reference else "identical copy" if m.identical
                    else f"similar · copy of {_text(m.copy_of)}" if m.copy_of else "similar")
            classes = " ".join(c for c, on in (("reference", is_reference),
                                               ("marked", m.path in marked)) if on)
            flag = " ✓ marked" if m.path in marked else ""
            out.write(f"<tr class=\"{classes}\"><td>{_text(m.path)}</td>"
                      f"<td class=\"n\">{format_bytes(m.size)}</td>"
                      f"<td class=\"n\">{_percent(m.similarity)}</td>"
                      f"<td>{kind}{flag}</td></tr>\n")
        out.write("</table>\n")
    out.write("</body></html>\n")
