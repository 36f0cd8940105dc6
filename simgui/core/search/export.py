"""Groups as CSV or JSON, the same for ``simgui groups`` and the GUI's Export.

File names are bytes, and not every name is valid UTF-8.  CSV carries a name's
bytes as they are (write it to a stream with ``errors="surrogateescape"``, as the
command line does); JSON cannot, so :func:`json_ready` adds the exact bytes beside
the readable text.
"""

from __future__ import annotations

import base64
import csv
import itertools
import math
import operator
import re
from collections.abc import Iterable
from json.encoder import encode_basestring_ascii
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # (annotations only: 'simgui stats' and 'journal' use json_ready)
    from simgui.core.search.groups import Group, GroupTable, Member

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
    (see :func:`json_ready` for names that are not UTF-8).

    The text is what ``csv.DictWriter`` over :func:`group_rows`, and ``json.dump(...,
    indent=1)`` over those rows made ready by :func:`json_ready`, write, byte for byte;
    but written a batch of files at a time from columns, without a dict per row or a
    Python call per field: JSON's indenting encoder, which is pure Python, took most
    of ``simgui groups``' time (issue 25)."""
    groups = iter(groups)

    def batches():
        while batch := list(itertools.islice(groups, _BATCH_GROUPS)):
            yield _columns(batch), [g.id for g in batch], [1 + len(g.members) for g in batch]

    _write(batches(), out, fmt)


def write_group_table(table: GroupTable, out: TextIO, fmt: str = "csv") -> None:
    """:func:`write_groups` of ``table.groups()``, byte for byte, from the table's
    columns: no object per file (a Member per file was a third of ``simgui groups
    --format csv`` on /usr's 44,000 grouped files)."""
    import numpy as np

    n = len(table)
    files, start = table.files, table.start
    paths, rows_all = files.paths, table.rows

    def batches():
        for g0 in range(0, n, _BATCH_GROUPS):
            g1 = min(g0 + _BATCH_GROUPS, n)
            r0, r1 = int(start[g0]), int(start[g1])
            counts = np.diff(start[g0:g1 + 1])
            ids = np.repeat(np.arange(g0 + 1, g1 + 1), counts).tolist()
            reference = np.zeros(r1 - r0, bool)
            reference[start[g0:g1] - r0] = True
            rows = rows_all[r0:r1]
            file_paths = [paths[f] for f in rows.tolist()]
            copy_of = [paths[f] if c >= 0 else "" for c, f in
                       zip(table.copy_of[r0:r1].tolist(),
                           rows_all[np.maximum(table.copy_of[r0:r1], 0)].tolist())]
            columns = [ids, ["reference" if ref else "member" for ref in reference.tolist()],
                       file_paths, files.sizes[rows].tolist(),
                       (table.identical[r0:r1] & ~reference).tolist(),
                       list(map(round, table.key_distance[r0:r1].tolist(), itertools.repeat(4))),
                       table.sum_distance[r0:r1].tolist(),
                       [None if v != v else round(v, 2) for v in table.similarity[r0:r1].tolist()],
                       copy_of]
            yield columns, list(range(g0 + 1, g1 + 1)), counts.tolist()

    _write(batches(), out, fmt)


def _write(batches, out: TextIO, fmt: str) -> None:
    """Write (columns, group ids, files per group) batches as ``fmt``."""
    if fmt not in ("csv", "json"):
        raise ValueError(f"unknown format {fmt!r} (csv or json)")
    if fmt == "csv":
        csv.writer(out).writerow(FIELDS)
        for columns, _, _ in batches:
            out.write("".join(_csv_rows(columns)))
        return
    first = True
    for columns, ids, counts in batches:
        out.write((",\n" if not first else "[\n") + ",\n".join(_json_groups(columns, ids, counts)))
        first = False
    out.write("[]\n" if first else "\n]\n")


#: groups written at a time (their text is built in memory, then written)
_BATCH_GROUPS = 2000
_FILE_FIELDS = operator.attrgetter("path", "size", "identical", "key_distance",
                                   "sum_distance", "similarity", "copy_of")


def _plain(values: list, kind: type) -> list:
    """``values`` as ``kind`` (int, float, bool, str), untouched when they already are
    (then the text is what the csv and json modules would write for them)."""
    return values if set(map(type, values)) <= {kind} else list(map(kind, values))


def _columns(groups: list[Group]) -> list[list]:
    """The values of :func:`member_row` as columns (group, role, path, size, identical,
    key_distance, sum_distance, similarity, copy_of), one row per file of ``groups``."""
    members = [m for g in groups for m in (g.reference, *g.members)]
    ids = [g.id for g in groups for _ in range(1 + len(g.members))]
    roles = [role for g in groups for role in ("reference", *("member",) * len(g.members))]
    if not members:
        return [[] for _ in FIELDS]
    paths, sizes, identical, key_distance, sum_distance, similarity, copy_of = (
        list(column) for column in zip(*map(_FILE_FIELDS, members)))
    identical = [same and role != "reference"
                 for same, role in zip(_plain(identical, bool), roles)]
    similarity = [None if v != v else round(v, 2) for v in _plain(similarity, float)]
    return [_plain(ids, int), roles, _plain(paths, str), _plain(sizes, int), identical,
            list(map(round, _plain(key_distance, float), itertools.repeat(4))),
            _plain(sum_distance, int), similarity, _plain(copy_of, str)]


_CSV_ROW = "{},{},{},{},{},{},{},{},{}\r\n".format  # csv's default dialect, excel
#: what makes csv quote a field (QUOTE_MINIMAL): the delimiter, the quote, a line end
_CSV_QUOTED = re.compile(r'[,"\r\n]')


def _csv_texts(texts: list[str]) -> list[str]:
    """Each text as csv writes it: in quotes, its quotes doubled, where it must be."""
    if not _CSV_QUOTED.search("".join(texts)):
        return texts
    return ['"' + t.replace('"', '""') + '"' if _CSV_QUOTED.search(t) else t for t in texts]


def _csv_rows(columns: list[list]) -> map:
    """Each file of the columns (see :func:`_columns`) as the row ``csv.writer`` writes
    for :func:`member_row`."""
    ids, roles, paths, sizes, identical, key_distance, sum_distance, similarity, copy_of = \
        columns
    return map(_CSV_ROW, ids, roles, _csv_texts(paths), sizes, identical,
               map(repr, key_distance), sum_distance,
               ["" if v is None else repr(v) for v in similarity], _csv_texts(copy_of))


_JSON_FILE = ("   {{\n"
              "    \"role\": \"{}\",\n"
              "    \"path\": {}{},\n"
              "    \"size\": {},\n"
              "    \"identical\": {},\n"
              "    \"key_distance\": {},\n"
              "    \"sum_distance\": {},\n"
              "    \"similarity\": {},\n"
              "    \"copy_of\": {}{}\n"
              "   }}").format
_JSON_FLOATS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}  # as json writes them


def _json_groups(columns: list[list], group_ids: list[int], counts: list[int]) -> list[str]:
    """Each group (``group_ids``, each of ``counts`` files of the columns, see
    :func:`_columns`) as ``json.dump(..., indent=1)`` writes it as an item of the list."""
    ids, roles, paths, sizes, identical, key_distance, sum_distance, similarity, copy_of = \
        columns
    floats = [_JSON_FLOATS.get(text, text) for text in map(repr, key_distance)]
    texts = map(_JSON_FILE, roles, *_json_texts(paths, ",\n    \"path_base64\": "),
                map(repr, sizes), ["true" if v else "false" for v in identical], floats,
                map(repr, sum_distance),
                ["null" if v is None else _JSON_FLOATS.get(t, t)
                 for v, t in zip(similarity, map(repr, similarity))],
                *_json_texts(copy_of, ",\n    \"copy_of_base64\": "))
    files = list(texts)
    out, start = [], 0
    for group_id, count in zip(group_ids, counts):
        end = start + count
        out.append(f" {{\n  \"group\": {int(group_id)!r},\n  \"files\": [\n"
                   + ",\n".join(files[start:end]) + "\n  ]\n }")
        start = end
    return out


def _json_texts(texts: list[str], base64_key: str) -> tuple[list[str], list[str]]:
    """JSON of each text as :func:`json_ready` makes it ready, and what follows it: its
    exact bytes in base64 under ``base64_key`` when it is not UTF-8, else nothing."""
    try:
        "".join(texts).encode("utf-8")
        bad = None
    except UnicodeEncodeError:
        bad = [_bad_utf8(t) for t in texts]
    if bad is None:
        return list(map(encode_basestring_ascii, texts)), [""] * len(texts)
    return ([encode_basestring_ascii(_readable(t) if b else t) for t, b in zip(texts, bad)],
            [f"{base64_key}\"{base64.b64encode(_exact(t)).decode('ascii')}\"" if b else ""
             for t, b in zip(texts, bad)])
