"""A fast second look (issue 25, part 3): the store's bulk loading of columns, the
walk of a rescan, and the groups writers give exactly what the plain, row-by-row
code gave, which is kept here as the reference."""

from __future__ import annotations

import dataclasses
import io
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simgui.core.reading.scanner import ScanOptions, _Walker
from simgui.core.search import export
from simgui.core.search.groups import Group, GroupTable, Member
from simgui.core.store import FileRecord, Store, StoredFiles
from simgui.core.store import database
from simgui.core.store.database import MINHASH_SLOTS, PICTURES_FROM
from simgui.core.tags import DEFAULT_TAGS, TAG_COUNT, tags_to_hex


def files_row_by_row(store: Store, tagset_id: int | None = None) -> StoredFiles:
    """Store.files as it was: one Python tuple per row, one object per field."""
    db = store.connection
    if tagset_id is None and not store.read_only:
        tagset_id = store.tagset_id(DEFAULT_TAGS)
    if tagset_id is None:
        row = db.execute("SELECT id FROM tagsets WHERE tags = ?",
                         (tags_to_hex(DEFAULT_TAGS),)).fetchone()
        tagset_id = row[0] if row else 0
    pictures = ("picture_hash, picture_width, picture_height, picture_format"
                if store.schema_version >= PICTURES_FROM else "NULL, NULL, NULL, NULL")
    rows = db.execute(
        "SELECT id, path, size, mtime_ns, sum_table, content_hash, extension, device, "
        f"inode, simhash, minhash, {pictures} FROM files "
        "WHERE error IS NULL AND tagset_id = ? ORDER BY path", (tagset_id,)).fetchall()
    n = len(rows)
    tables = np.frombuffer(b"".join(r[4] for r in rows), dtype="<i8").reshape(n, TAG_COUNT)
    fingerprinted = np.fromiter((r[10] is not None and r[9] is not None for r in rows), bool, n)
    simhashes = np.fromiter((r[9] if r[9] is not None else 0 for r in rows), np.int64,
                            n).view(np.uint64)
    empty = bytes(4 * MINHASH_SLOTS)
    signatures = np.frombuffer(b"".join(r[10] if r[10] is not None else empty for r in rows),
                               dtype="<u4").reshape(n, MINHASH_SLOTS).astype(np.uint32)
    return StoredFiles(
        ids=np.fromiter((r[0] for r in rows), np.int64, n),
        paths=[os.fsdecode(r[1]) for r in rows],
        sizes=np.fromiter((r[2] for r in rows), np.int64, n),
        mtimes_ns=np.fromiter((r[3] for r in rows), np.int64, n),
        devices=np.fromiter((r[7] for r in rows), np.int64, n),
        inodes=np.fromiter((r[8] for r in rows), np.int64, n),
        tables=tables.astype(np.int64), hashes=[r[5] for r in rows],
        extensions=[r[6] for r in rows],
        simhashes=simhashes, signatures=signatures, fingerprinted=fingerprinted,
        picture_hashes=np.fromiter((r[11] or 0 for r in rows), np.int64, n).view(np.uint64),
        picture_widths=np.fromiter((-1 if r[12] is None else r[12] for r in rows), np.int64, n),
        picture_heights=np.fromiter((-1 if r[13] is None else r[13] for r in rows), np.int64,
                                    n),
        picture_formats=[r[14] or "" for r in rows],
        is_picture=np.fromiter((r[11] is not None for r in rows), bool, n))


def write_groups_plainly(groups, out, fmt: str = "csv") -> None:
    """The groups writer as it was: a dict per row, csv.DictWriter, json.dump."""
    import csv
    import json

    from simgui.core.search.export import FIELDS, group_rows, json_ready

    if fmt == "json":
        doc = [{"group": g.id, "files": [json_ready({k: v for k, v in row.items()
                                                    if k != "group"})
                                         for row in group_rows([g])]} for g in groups]
        json.dump(doc, out, indent=1)
        out.write("\n")
    else:
        writer = csv.DictWriter(out, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(group_rows(groups))


def known_files_row_by_row(store: Store, roots) -> dict[bytes, tuple]:
    """Store.known_files as it was, each file's fields as a tuple."""
    known = {}
    sql = ("SELECT path, id, size, mtime_ns, device, inode, tagset_id, "
           "sum_table IS NOT NULL AND error IS NULL, minhash IS NOT NULL, "
           "picture_hash IS NOT NULL OR picture_error IS NOT NULL FROM files "
           "WHERE path = ? OR (path > ? AND path < ?)")
    for root in roots:
        below = root.rstrip(b"/") + b"/"
        for row in store.connection.execute(sql, (root, below, below[:-1] + b"0")):
            known[row[0]] = (*row[1:7], bool(row[7]), bool(row[8]), bool(row[9]))
    return known


# -- the store's bulk reads ------------------------------------------------------------

#: names of one or two parts under /r or /r2, some not UTF-8, some with commas, quotes,
#: line ends and letters beyond ASCII
_NAME = st.binary(min_size=1, max_size=6).map(
    lambda b: bytes(c for c in b if c not in b"/\0") or b"x") | st.sampled_from(
    [b"a.txt", b"caf\xe9.TXT", b"\xff\xfe", "é,\"q\"\n.jpg".encode(), b"b.png", b"0"])
_PATH = st.builds(lambda root, parts: root + b"/" + b"/".join(parts),
                  st.sampled_from([b"/r", b"/r2", b"/r/s", b"/r-x"]),
                  st.lists(_NAME, min_size=1, max_size=2))
_INT64 = st.integers(-(2**63), 2**63 - 1)
_UINT64 = st.integers(0, 2**64 - 1)


@st.composite
def _records(draw):
    """FileRecords as scans save them: read ones (with or without fingerprints and
    pictures), unreadable ones, and ones saved without a sum table."""
    paths = draw(st.lists(_PATH, min_size=0, max_size=12, unique=True))
    records = []
    for path in paths:
        kind = draw(st.sampled_from(["read", "read", "read", "error", "no table"]))
        table = None if kind != "read" else np.array(
            draw(st.lists(_INT64, min_size=TAG_COUNT, max_size=TAG_COUNT)), np.int64)
        fingerprints = kind == "read" and draw(st.booleans())
        picture = kind == "read" and draw(st.sampled_from(["none", "hash", "error"]))
        records.append(FileRecord(
            path, draw(_INT64), draw(_INT64), draw(_INT64), draw(_INT64),
            draw(st.sampled_from(["", "txt", "jpg", "é"])), table,
            draw(st.none() | st.binary(min_size=0, max_size=20)) if kind != "error" else None,
            error="permission denied" if kind == "error" else None,
            simhash=draw(_UINT64) if fingerprints else None,
            minhash=np.array(draw(st.lists(st.integers(0, 2**32 - 1), min_size=MINHASH_SLOTS,
                                           max_size=MINHASH_SLOTS)), np.uint32)
            if fingerprints else None,
            picture_hash=draw(_UINT64) if picture == "hash" else None,
            picture_width=draw(st.integers(0, 2**31)) if picture == "hash" else None,
            picture_height=draw(st.integers(0, 2**31)) if picture == "hash" else None,
            picture_format=draw(st.sampled_from(["JPEG", "PNG", ""])) if picture == "hash"
            else None,
            picture_error="not a picture" if picture == "error" else None))
    return records


def _assert_same_files(got: StoredFiles, want: StoredFiles) -> None:
    for field in dataclasses.fields(StoredFiles):
        a, b = getattr(got, field.name), getattr(want, field.name)
        if isinstance(b, np.ndarray):
            assert (a.dtype, a.shape) == (b.dtype, b.shape), field.name
            assert np.array_equal(a, b), field.name
        else:
            assert [type(v) for v in a] == [type(v) for v in b], field.name
            assert a == b, field.name


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])
@given(records=_records(), chunk=st.sampled_from([1, 2, 3, 1 << 18]), data=st.data())
def test_bulk_reads_match_the_row_by_row_reads(tmp_path_factory, monkeypatch, records, chunk,
                                               data):
    """Store.files and Store.known_files read the columns in chunks of a few SQL values
    each: what they give is exactly what one Python object per field gave, chunk
    boundaries, missing fingerprints and pictures, odd names and extreme integers
    included; files saved in any order come back in path order."""
    monkeypatch.setattr(database, "_FILES_CHUNK", chunk)
    with Store(tmp_path_factory.mktemp("s") / "s.db") as store:
        other = store.tagset_id([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
        scan_id = store.begin_scan(["/r"])
        for part in (records[::2], records[1::2]):  # two saves: rowids not in path order
            store.save_files(part, store.tagset_id(), scan_id)
        store.save_files(data.draw(st.lists(st.sampled_from(records), max_size=2,
                                            unique_by=lambda r: r.path)) if records else [],
                         other, scan_id)
        _assert_same_files(store.files(), files_row_by_row(store))
        _assert_same_files(store.files(other), files_row_by_row(store, other))
        roots = data.draw(st.lists(st.sampled_from([b"/r", b"/r2", b"/r/s", b"/", b"/none"]),
                                   min_size=1, max_size=2, unique=True))
        known = store.known_files(roots)
        want = known_files_row_by_row(store, roots)
        assert {path: tuple(k) for path, k in known.items()} == want
        assert all([type(v) for v in known[p]] == [type(v) for v in want[p]] for p in want)
    with Store(store.path, read_only=True) as reading:
        _assert_same_files(reading.files(), files_row_by_row(reading))


def test_an_empty_store_has_no_files(tmp_path):
    with Store(tmp_path / "s.db") as store:
        _assert_same_files(store.files(), files_row_by_row(store))
        assert store.known_files([b"/"]) == {}


def _to_read_plainly(walked, known: dict, tagset_id: int, fingerprints: bool):
    """Whether a rescan reads each walked file, as it was decided file by file: (per
    file, files unchanged, files read again for their fingerprints)."""
    from simgui.core.reading.names import extension_of
    from simgui.core.reading.pictures import picture_extensions

    out, unchanged, refingerprinted = [], 0, 0
    for found in walked:
        old = known.get(os.fsencode(found.path))
        same = (old is not None and old.ok and old.tagset_id == tagset_id
                and (old.size, old.mtime_ns, old.device, old.inode)
                == (found.size, found.mtime_ns, found.device, found.inode))
        if same and (old.fingerprinted or not fingerprints) and (
                old.pictured or extension_of(found.path) not in picture_extensions()):
            unchanged += 1
            out.append(False)
        else:
            refingerprinted += same
            out.append(True)
    return out, unchanged, refingerprinted


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])
@given(records=_records(), data=st.data())
def test_a_rescan_reads_what_it_read_file_by_file(tmp_path_factory, records, data):
    """The rescan's decision, taken over columns (scanner._to_read), is the one taken
    file by file: new files, each field changed, other tag sets, files stored without
    a sum table, fingerprints or a picture's hash, odd names."""
    from simgui.core.reading.names import extension_of
    from simgui.core.reading.scanner import ScanReport, _Found, _to_read

    # as scans store them: the extension is the path's
    records = [dataclasses.replace(r, extension=extension_of(os.fsdecode(r.path)))
               for r in records]
    with Store(tmp_path_factory.mktemp("s") / "s.db") as store:
        tagsets = [store.tagset_id(), store.tagset_id(list(range(16)))]
        scan_id = store.begin_scan(["/r"])
        for r in records:
            store.save_files([r], data.draw(st.sampled_from(tagsets)), scan_id)
        walked = []
        for r in records:
            change = data.draw(st.sampled_from([None, None, "size", "mtime", "device",
                                                "inode", "gone"]))
            if change == "gone":
                continue
            fields = [os.fsdecode(r.path), r.size, r.mtime_ns, r.device, r.inode]
            if change:
                at = ["size", "mtime", "device", "inode"].index(change) + 1
                fields[at] = fields[at] - 1 if fields[at] > 0 else fields[at] + 1
            walked.append(_Found(*fields))
        walked += [_Found(os.fsdecode(p), 1, 2, 3, 4) for p in data.draw(
            st.lists(_PATH, max_size=3, unique=True)) if p not in {r.path for r in records}]
        walked = data.draw(st.permutations(walked))
        roots = data.draw(st.lists(st.sampled_from([b"/r", b"/r2", b"/r/s", b"/"]),
                                   min_size=1, max_size=2, unique=True))
        tagset_id, fingerprints = data.draw(st.sampled_from(tagsets)), data.draw(st.booleans())
        known = store.known_columns(roots)
        assert len(set(known.paths)) == len(known.paths)  # roots within roots: once
        assert {p: (i, e) for p, i, e in zip(known.paths, known.ids.tolist(),
                                             known.extensions)} == {
            p: (k.id, extension_of(os.fsdecode(p)))
            for p, k in store.known_files(roots).items()}
        report = ScanReport(0)
        got = _to_read(walked, [os.fsencode(f.path) for f in walked], known, tagset_id,
                       ScanOptions(fingerprints=fingerprints), report)
        want, unchanged, refingerprinted = _to_read_plainly(
            walked, store.known_files(roots), tagset_id, fingerprints)
        assert got == want
        assert (report.files_unchanged, report.files_fingerprinted) == (unchanged,
                                                                        refingerprinted)
        # an inode number past int64 (some FUSE file systems) is compared, not refused
        odd = [f._replace(inode=2**64 - 1 - i) for i, f in enumerate(walked)]
        assert _to_read(odd, [os.fsencode(f.path) for f in odd], known, tagset_id,
                        ScanOptions(fingerprints=fingerprints), ScanReport(0)) == \
            _to_read_plainly(odd, store.known_files(roots), tagset_id, fingerprints)[0]


# -- the walk ------------------------------------------------------------------------


def _walk_plainly(root: str, excludes=()) -> list[tuple]:
    """What the walk yields, by the plainest means: every regular file under ``root``
    that no pattern excludes, in name order, folders after the files beside them,
    links not followed, a file with several names once."""
    import fnmatch
    import stat as st_

    out, seen = [], set()

    def visit(folder):
        subfolders = []
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(path, p)
                   for p in excludes):
                continue
            s = os.lstat(path)
            if st_.S_ISDIR(s.st_mode):
                subfolders.append(path)
            elif st_.S_ISREG(s.st_mode) and (s.st_dev, s.st_ino) not in seen:
                seen.add((s.st_dev, s.st_ino))
                out.append((path, s.st_size, s.st_mtime_ns, s.st_dev, s.st_ino))
        for path in subfolders:
            visit(path)

    visit(root)
    return out


@pytest.mark.parametrize("excludes", [(), ("*.tmp", "skip")])
def test_the_walk_yields_what_a_plain_walk_finds(tmp_path, excludes):
    root = tmp_path / "t"
    for name, data in {"b.txt": b"bb", "a.tmp": b"a", "z/y.txt": b"y" * 5,
                       "skip/x": b"x", "m/n/o.bin": b"o", "\udcff-name": b"w"}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    os.link(root / "b.txt", root / "m" / "hard.txt")
    os.symlink(root / "z", root / "link")
    os.symlink(root / "b.txt", root / "c-link")
    issues = []
    walker = _Walker(ScanOptions(excludes=excludes), lambda *i: issues.append(i))
    found = list(walker.walk(str(root)))
    assert [tuple(f) for f in found] == _walk_plainly(str(root), excludes)
    assert len(found) == (4 if excludes else 6)
    assert walker.hard_links == 1 and issues == []


# -- the groups writers ----------------------------------------------------------------

_TEXT = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=8),
    # a name's bytes that are not UTF-8, as os.fsdecode gives them
    st.binary(max_size=8).map(os.fsdecode),
    st.sampled_from(["", "a,b", 'say "hi"', "two\nlines", "cr\rlf", "caf\udce9", "é"]))
_FLOAT = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.0, 100.0, 12.345678, 1e-7, 2506799.0700000003])


def _member(draw, index):
    return Member(index, "/" + draw(_TEXT), draw(st.integers(0, 2**63 - 1)),
                  draw(st.integers(0, 2**62)), 1, index, b"h" * 16, draw(st.booleans()),
                  draw(_FLOAT), draw(st.integers(0, 2**40)), draw(_FLOAT),
                  draw(st.just("") | _TEXT.map(lambda t: "/" + t)))


@st.composite
def _groups(draw):
    groups = []
    for number in range(1, draw(st.integers(0, 5)) + 1):
        files = [_member(draw, i) for i in range(draw(st.integers(1, 4)))]
        groups.append(Group(number, files[0], tuple(files[1:])))
    return groups


@settings(max_examples=150)
@given(groups=_groups(), batch=st.sampled_from([1, 2, 1000]))
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_groups_are_written_as_the_plain_writer_wrote_them(groups, batch, fmt):
    """CSV and JSON from columns are byte for byte what csv.DictWriter and json.dump
    wrote from a dict per row: names that are not UTF-8 (with their *_base64 fields in
    JSON), names csv must quote, an unknown similarity (null, an empty field), NaN and
    infinite distances, no groups at all, and groups given one at a time."""
    want = io.StringIO()
    write_groups_plainly(groups, want, fmt)
    old_batch = export._BATCH_GROUPS
    export._BATCH_GROUPS = batch
    try:
        got = io.StringIO()
        export.write_groups(iter(groups), got, fmt)
    finally:
        export._BATCH_GROUPS = old_batch
    assert got.getvalue() == want.getvalue()


def test_an_unknown_format_is_refused():
    with pytest.raises(ValueError, match="csv or json"):
        export.write_groups([], io.StringIO(), "xml")


def test_a_store_of_the_last_release_is_read_in_bulk_too(tmp_path):
    """Schema 3 (simgui 0.1) has no picture columns: a read-only store of it still
    gives every file, as the row-by-row read did."""
    import sqlite3

    path = str(tmp_path / "v3.db")
    con = sqlite3.connect(path)
    for script in database._MIGRATIONS[:3]:
        con.executescript(script)
    con.execute(f"PRAGMA application_id = {database.APPLICATION_ID}")
    con.execute("PRAGMA user_version = 3")
    con.execute("INSERT INTO tagsets (id, tags) VALUES (1, ?)", (tags_to_hex(DEFAULT_TAGS),))
    table = np.arange(TAG_COUNT, dtype="<i8").tobytes()
    for i, name in enumerate([b"/d/b", b"/d/\xff", b"/d/a"]):
        con.execute("INSERT INTO files (path, size, mtime_ns, device, inode, extension, "
                    "tagset_id, sum_table, content_hash, scanned_at, simhash, minhash) "
                    "VALUES (?, ?, 5, 1, ?, '', 1, ?, ?, 0, ?, ?)",
                    (name, 10 * i, i, table, b"h" * 16, -i if i else None,
                     bytes(range(4)) * MINHASH_SLOTS if i else None))
    con.commit()
    con.close()
    with Store(path, read_only=True) as store:
        assert store.schema_version < PICTURES_FROM
        files = store.files()
        _assert_same_files(files, files_row_by_row(store))
        assert files.paths == ["/d/a", "/d/b", os.fsdecode(b"/d/\xff")]


@st.composite
def _tables(draw):
    """A GroupTable of a few groups, its files' names and numbers as _groups draws them,
    each member maybe a copy of an earlier member of its group."""
    counts = draw(st.lists(st.integers(1, 4), max_size=5))
    n = sum(counts)
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    paths = ["/" + draw(_TEXT) + f"/{i}" for i in range(n)]
    files = StoredFiles(ids=np.arange(n), paths=paths,
                        sizes=np.array([draw(st.integers(0, 2**62)) for _ in range(n)], np.int64),
                        mtimes_ns=np.zeros(n, np.int64), devices=np.ones(n, np.int64),
                        inodes=np.arange(n), tables=np.zeros((n, 16), np.int64),
                        hashes=[b"h" * 16] * n, extensions=[""] * n)
    rows = np.array(draw(st.permutations(range(n))), np.int64).reshape(n)
    copy_of = np.full(n, -1, np.int64)
    for g in range(len(counts)):
        for r in range(int(start[g]) + 2, int(start[g + 1])):
            if draw(st.booleans()):
                copy_of[r] = draw(st.integers(int(start[g]) + 1, r - 1))
    floats = lambda: np.array([draw(_FLOAT) for _ in range(n)], np.float64)  # noqa: E731
    return GroupTable(files, np.arange(n), start, rows, floats(),
                      np.array([draw(st.integers(0, 2**40)) for _ in range(n)], np.int64),
                      np.array([draw(st.booleans()) for _ in range(n)], bool), floats(),
                      np.zeros(len(counts), np.int64), copy_of)


@settings(max_examples=150)
@given(table=_tables(), batch=st.sampled_from([1, 2, 1000]))
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_table_is_written_as_its_groups_are(table, batch, fmt):
    """``simgui groups`` writes CSV and JSON from the table's columns, without an object
    per file: byte for byte what the writer of the groups as objects writes."""
    want = io.StringIO()
    export.write_groups(table.groups(), want, fmt)
    old_batch = export._BATCH_GROUPS
    export._BATCH_GROUPS = batch
    try:
        got = io.StringIO()
        export.write_group_table(table, got, fmt)
    finally:
        export._BATCH_GROUPS = old_batch
    assert got.getvalue() == want.getvalue()
