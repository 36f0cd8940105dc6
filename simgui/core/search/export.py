"""Groups as CSV or JSON, the same for ``simgui groups`` and the GUI's Export.

File names are bytes, and not every name is valid UTF-8.  CSV carries a name's
bytes as they are (write it to a stream with ``errors="surrogateescape"``, as the
command line does); JSON cannot, so :func:`json_ready` adds the exact bytes beside
the readable text.
"""

from __future__ import annotations

import base64
import csv
import json
import math
from collections.abc import Iterable
from typing import TextIO

from simgui.core.search.groups import Group, Member

FIELDS = ["group", "role", "path", "size", "identical", "key_distance", "sum_distance",
          "similarity", "copy_of"]


def _bad_utf8(text) -> bool:
    """A str holding surrogate escapes: a file name's bytes that are not UTF-8."""
    if not isinstance(text, str):
        return False
    try:
        text.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def _exact(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _readable(text: str) -> str:
    return _exact(text).decode("utf-8", "replace")


def json_ready(record: dict) -> dict:
    """``record`` with every text JSON can carry: a text that is not valid UTF-8 (a file
    name's bytes) becomes readable text, U+FFFD for each byte that is not UTF-8, and its
    exact bytes go beside it, base64-encoded, as ``<key>_base64`` (a list for a list of
    texts); only then, so that other records look as they always did."""
    out = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out[key] = json_ready(value)
        elif _bad_utf8(value):
            out[key] = _readable(value)
            out[f"{key}_base64"] = base64.b64encode(_exact(value)).decode("ascii")
        elif isinstance(value, list) and any(_bad_utf8(v) for v in value):
            out[key] = [_readable(v) if isinstance(v, str) else v for v in value]
            out[f"{key}_base64"] = [base64.b64encode(_exact(v)).decode("ascii")
                                    if isinstance(v, str) else None for v in value]
        else:
            out[key] = value
    return out


def member_row(group: Group, m: Member, role: str) -> dict:
    """One file's row; ``identical``: a copy of the group's reference (so never the
    reference itself, which a script keeping identical rows must not pick up)."""
    return {"group": group.id, "role": role, "path": m.path, "size": m.size,
            "identical": m.identical and role != "reference",
            "key_distance": round(m.key_distance, 4),
            "sum_distance": m.sum_distance, "similarity": percent_or_none(m.similarity),
            "copy_of": m.copy_of}


def percent_or_none(value: float) -> float | None:
    """A similarity for CSV and JSON: two decimals; None (an empty CSV field, JSON null)
    where it is unknown (a file without fingerprints), never NaN, which JSON lacks."""
    return None if math.isnan(value) else round(value, 2)


def group_rows(groups: Iterable[Group]) -> Iterable[dict]:
    for g in groups:
        yield member_row(g, g.reference, "reference")
        for m in g.members:
            yield member_row(g, m, "member")


def write_groups(groups: Iterable[Group], out: TextIO, fmt: str = "csv") -> None:
    """``fmt`` "csv": one row per file; "json": a list of groups, each with its files
    (see :func:`json_ready` for names that are not UTF-8)."""
    if fmt == "json":
        doc = [{"group": g.id, "files": [json_ready({k: v for k, v in row.items()
                                                    if k != "group"})
                                         for row in group_rows([g])]} for g in groups]
        json.dump(doc, out, indent=1)
        out.write("\n")
    elif fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(group_rows(groups))
    else:
        raise ValueError(f"unknown format {fmt!r} (csv or json)")
