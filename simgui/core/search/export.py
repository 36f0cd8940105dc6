"""Groups as CSV or JSON, the same for ``simgui groups`` and the GUI's Export."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import TextIO

from simgui.core.search.groups import Group, Member

FIELDS = ["group", "role", "path", "size", "identical", "key_distance", "sum_distance",
          "similarity", "copy_of"]


def member_row(group: Group, m: Member, role: str) -> dict:
    """One file's row; ``identical``: a copy of the group's reference (so never the
    reference itself, which a script keeping identical rows must not pick up)."""
    return {"group": group.id, "role": role, "path": m.path, "size": m.size,
            "identical": m.identical and role != "reference",
            "key_distance": round(m.key_distance, 4),
            "sum_distance": m.sum_distance, "similarity": round(m.similarity, 2),
            "copy_of": m.copy_of}


def group_rows(groups: Iterable[Group]) -> Iterable[dict]:
    for g in groups:
        yield member_row(g, g.reference, "reference")
        for m in g.members:
            yield member_row(g, m, "member")


def write_groups(groups: Iterable[Group], out: TextIO, fmt: str = "csv") -> None:
    """``fmt`` "csv": one row per file; "json": a list of groups, each with its files."""
    if fmt == "json":
        doc = [{"group": g.id, "files": [{k: v for k, v in row.items() if k != "group"}
                                         for row in group_rows([g])]} for g in groups]
        json.dump(doc, out, indent=1)
        out.write("\n")
    elif fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(group_rows(groups))
    else:
        raise ValueError(f"unknown format {fmt!r} (csv or json)")
