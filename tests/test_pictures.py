"""Similar pictures: the perceptual hash, its turns, the search, the scan and the store."""

import csv
import io
import json
import math
import os
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image, ImageDraw

from simgui.cli import main
from simgui.core.reading import pictures
from simgui.core.reading.scanner import ScanOptions, read_file, scan
from simgui.core.search.pictures import distances, picture_pairs
from simgui.core.store import Store
from simgui.core.store.database import _MIGRATIONS, APPLICATION_ID


# --------------------------------------------------------------------------- references


def reference_hash(grey) -> int:
    """The DCT hash by its definition: C[u, v] = a(u) a(v) sum_x sum_y g[y, x]
    (a(0) = sqrt(1/32), else sqrt(2/32))
    cos(pi (2y + 1) u / 64) cos(pi (2x + 1) v / 64), a bit per coefficient above 1e-6
    (positive, and not a flat picture's rounding noise), bit 0 for a mean above 127.5."""
    n = 32
    value = 0
    for u in range(8):
        for v in range(8):
            if (u, v) == (0, 0):
                bit = sum(map(sum, grey)) / (n * n) > 127.5
            else:
                total = 0.0
                for y in range(n):
                    cy = math.cos(math.pi * (2 * y + 1) * u / (2 * n))
                    for x in range(n):
                        total += grey[y][x] * cy * math.cos(math.pi * (2 * x + 1) * v / (2 * n))
                a = [math.sqrt((1 if f == 0 else 2) / n) for f in (u, v)]
                bit = a[0] * a[1] * total > 1e-6
            value |= int(bit) << (8 * u + v)
    return value


def turns(grey: np.ndarray) -> list[np.ndarray]:
    """The eight rotations and mirror images of a square picture."""
    out = []
    for g in (grey, grey.T):
        out += [g, g[::-1], g[:, ::-1], g[::-1, ::-1]]
    return out


def popcount(x: int) -> int:
    return bin(x).count("1")


greys = arrays(np.float64, (32, 32), elements=st.floats(0, 255, width=32))


@settings(max_examples=15, deadline=None)
@given(greys)
def test_dct_hash_matches_its_definition(grey):
    assert pictures.dct_hash(grey) == reference_hash(grey.tolist())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_turned_hashes_are_the_hashes_of_the_turned_pictures(seed):
    grey = np.random.default_rng(seed).uniform(0, 255, (32, 32))  # no coefficient is 0
    computed = set(pictures.dihedral_hashes([pictures.dct_hash(grey)])[:, 0].tolist())
    assert computed == {pictures.dct_hash(g) for g in turns(grey)}
    assert pictures.dihedral_hashes([pictures.dct_hash(grey)])[0, 0] == pictures.dct_hash(grey)


def brute_pairs(hashes, max_bits, rotations):
    found = {}
    hs = [int(h) for h in hashes]
    for i in range(len(hs)):
        for j in range(i + 1, len(hs)):
            options = [hs[j]]
            if rotations:
                options = pictures.dihedral_hashes([hs[j]])[:, 0].tolist()
            best = min(popcount(hs[i] ^ int(o)) for o in options)
            if best <= max_bits:
                found[(i, j)] = best
    return found


near_hashes = st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=6).flatmap(
    lambda base: st.lists(st.tuples(st.sampled_from(base), st.integers(0, 2**64 - 1),
                                    st.integers(0, 12)), min_size=0, max_size=25))


def _scatter(spec):
    """Hashes near a few bases: each a base with up to 12 random bits flipped."""
    rng_bits = []
    for base, noise, k in spec:
        mask = 0
        for b in range(k):
            mask |= 1 << ((noise >> (6 * (b % 10))) & 63)
        rng_bits.append(base ^ mask)
    return np.array(rng_bits, np.uint64)


@settings(max_examples=40, deadline=None)
@given(near_hashes, st.integers(0, 12), st.booleans())
def test_picture_pairs_match_a_brute_force_search(spec, max_bits, rotations):
    hashes = _scatter(spec)
    pairs, bits = picture_pairs(hashes, max_bits, rotations=rotations)
    got = {(int(a), int(b)): int(d) for (a, b), d in zip(pairs, bits)}
    assert got == brute_pairs(hashes, max_bits, rotations)
    assert all(a < b for a, b in got)


def test_same_dimensions_keeps_pictures_of_equal_size_or_turned_a_quarter():
    h = np.array([5, 5, 5, 5], np.uint64)
    widths, heights = np.array([40, 40, 30, 41]), np.array([30, 30, 40, 30])
    pairs, _ = picture_pairs(h, 0, widths=widths, heights=heights, same_dimensions=True)
    assert pairs.tolist() == [[0, 1]]
    grey = np.random.default_rng(3).uniform(0, 255, (32, 32))
    a, b = pictures.dct_hash(grey), pictures.dct_hash(grey.T)
    pairs, _ = picture_pairs(np.array([a, b], np.uint64), 0, rotations=True,
                             widths=np.array([40, 30]), heights=np.array([30, 40]),
                             same_dimensions=True)
    assert pairs.tolist() == [[0, 1]]


def test_distances_with_rotations_is_the_least_over_the_turns():
    grey = np.random.default_rng(4).uniform(0, 255, (32, 32))
    a, b = pictures.dct_hash(grey), pictures.dct_hash(grey[::-1].T)
    assert distances(a, b, rotations=True) == 0
    assert distances(a, b) == popcount(a ^ b) > 0


# --------------------------------------------------------------------------- decoding


def photo(seed=0, size=(320, 240)) -> Image.Image:
    """A smooth, photo-like picture with shapes."""
    rng = np.random.default_rng(seed)
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([np.sin(x / rng.uniform(20, 60) + rng.uniform(0, 6)) * 90 + 128,
                     np.cos(y / rng.uniform(20, 60) + rng.uniform(0, 6)) * 90 + 128,
                     (x + y) * 255.0 / (w + h)], axis=-1)
    img = Image.fromarray(base.astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(img)
    for _ in range(5):
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(10, 50)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r),
                     fill=tuple(int(c) for c in rng.uniform(0, 255, 3)))
    return img


@pytest.mark.parametrize("fmt,ext", [("JPEG", "jpg"), ("PNG", "png"), ("GIF", "gif"),
                                     ("BMP", "bmp"), ("TIFF", "tif"), ("WEBP", "webp")])
def test_every_format_decodes_to_the_same_picture(tmp_path, fmt, ext):
    img = photo(1)
    ref = tmp_path / "ref.png"
    img.save(ref)
    path = tmp_path / f"pic.{ext}"
    img.save(path, fmt)
    got, want = pictures.read_picture(str(path), ext), pictures.read_picture(str(ref), "png")
    assert (got.width, got.height, got.format) == (320, 240, fmt)
    assert popcount(got.hash ^ want.hash) <= 4


def test_exif_orientation_is_applied_like_a_viewer(tmp_path):
    img = photo(2)
    turned = tmp_path / "turned.jpg"
    img.transpose(Image.Transpose.ROTATE_270).save(turned, quality=95)
    tagged = tmp_path / "tagged.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 degrees clockwise to show"
    img.save(tagged, quality=95, exif=exif)
    a, b = pictures.read_picture(str(turned)), pictures.read_picture(str(tagged))
    assert (b.width, b.height) == (240, 320) == (a.width, a.height)
    assert popcount(a.hash ^ b.hash) <= 3


def test_transparent_parts_read_as_white(tmp_path):
    rgba = Image.new("RGBA", (64, 64), (0, 0, 0, 0))  # transparent black
    ImageDraw.Draw(rgba).rectangle((10, 10, 30, 50), fill=(0, 0, 0, 255))
    white = Image.new("RGB", (64, 64), (255, 255, 255))
    ImageDraw.Draw(white).rectangle((10, 10, 30, 50), fill=(0, 0, 0))
    rgba.save(tmp_path / "a.png")
    white.save(tmp_path / "b.png")
    assert (pictures.read_picture(str(tmp_path / "a.png")).hash
            == pictures.read_picture(str(tmp_path / "b.png")).hash)


def test_sixteen_bit_pictures_are_scaled_not_clipped(tmp_path):
    grey = (np.random.default_rng(5).uniform(0, 65535, (40, 40))).astype(np.uint16)
    Image.fromarray(grey).save(tmp_path / "deep.png")
    Image.fromarray((grey // 257).astype(np.uint8)).save(tmp_path / "flat.png")
    a = pictures.read_picture(str(tmp_path / "deep.png"))
    b = pictures.read_picture(str(tmp_path / "flat.png"))
    assert popcount(a.hash ^ b.hash) <= 2


@pytest.mark.parametrize("content", [b"", b"\xff", b"\xff\xd8", b"\xff\xd8\xff",
                                     b"not a picture at all" * 10])
def test_tiny_and_bogus_files_named_jpg_are_errors_not_tracebacks(tmp_path, content):
    path = tmp_path / "x.jpg"
    path.write_bytes(content)
    with pytest.raises(pictures.PictureUnreadable) as info:
        pictures.read_picture(str(path), "jpg")
    message = str(info.value)
    assert message.startswith("picture not decoded") and "\n" not in message


def test_a_truncated_jpeg_is_an_error(tmp_path):
    buf = io.BytesIO()
    photo(3).save(buf, "JPEG", quality=90)
    (tmp_path / "cut.jpg").write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    with pytest.raises(pictures.PictureUnreadable):
        pictures.read_picture(str(tmp_path / "cut.jpg"))


def test_other_files_are_not_decoded(tmp_path):
    photo(4).save(tmp_path / "pic.dat", "JPEG")  # a JPEG, but not named as a picture
    record = read_file(str(tmp_path / "pic.dat"))
    assert record.error is None and record.picture_hash is None
    assert record.picture_error is None


# --------------------------------------------------------------------------- scan and store


def _pictures_tree(root):
    """An original, its re-encodings (JPEG 80, PNG, resized) and an unrelated picture."""
    root.mkdir(parents=True, exist_ok=True)
    photo(10).save(root / "original.jpg", quality=95)
    photo(10).save(root / "again.jpg", quality=80)
    photo(10).save(root / "as.png")
    photo(10).resize((240, 180)).save(root / "small.jpg", quality=90)
    photo(11).save(root / "other.jpg", quality=95)
    (root / "notes.txt").write_text("not a picture " * 20)
    return root


def test_scan_stores_pictures_and_records_decode_failures(tmp_path):
    root = _pictures_tree(tmp_path / "tree")
    (root / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 300)
    with Store(tmp_path / "s.db") as store:
        rep = scan(store, [root], ScanOptions(workers=2))
        assert [(os.path.basename(p), k) for p, k, _ in rep.issues] == [("broken.jpg",
                                                                         "picture")]
        assert rep.issues[0][2].startswith("picture not decoded") and rep.errors == 0
        assert store.issues() == [(str(root / "broken.jpg"), "picture", rep.issues[0][2])]
        files = store.files()
        by_name = {os.path.basename(p): i for i, p in enumerate(files.paths)}
        assert "broken.jpg" in by_name  # its bytes were read: copies of it are still found
        i = by_name["as.png"]
        assert files.is_picture[i] and files.picture_formats[i] == "PNG"
        assert (files.picture_widths[i], files.picture_heights[i]) == (320, 240)
        j = by_name["notes.txt"]
        assert not files.is_picture[j] and files.picture_widths[j] == -1
        assert not files.is_picture[by_name["broken.jpg"]]
        # nothing changed: nothing is read again, the broken picture included
        rep = scan(store, [root], ScanOptions(workers=2))
        assert rep.files_read == 0 and rep.files_unchanged == 7


def test_an_older_store_upgrades_and_its_pictures_are_read_again(tmp_path):
    root = _pictures_tree(tmp_path / "tree")
    new = tmp_path / "new.db"
    with Store(new) as store:
        scan(store, [root])
    # a schema-4 store holding the same scan, as simgui 0.x left it
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    for script in _MIGRATIONS[:4]:
        con.executescript(script)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute("PRAGMA user_version = 4")
    con.execute("ATTACH DATABASE ? AS new", (str(new),))
    columns = ", ".join(row[1] for row in con.execute("PRAGMA main.table_info(files)"))
    for table in ("tagsets", "scans"):
        con.execute(f"INSERT INTO main.{table} SELECT * FROM new.{table}")
    con.execute(f"INSERT INTO main.files ({columns}) SELECT {columns} FROM new.files")
    con.commit()
    con.close()
    with Store(db, read_only=True) as store:  # read-only: read as it is, no pictures
        assert not store.files().is_picture.any()
    with Store(db) as store:
        assert store.schema_version == len(_MIGRATIONS) >= 5
        assert not store.files().is_picture.any()
        rep = scan(store, [root])
        assert rep.files_read == 5 and rep.files_unchanged == 1  # the pictures; not notes.txt
        assert store.files().is_picture.sum() == 5


def test_a_fresh_store_of_schema_4_migrates(tmp_path):
    db = str(tmp_path / "v4.db")
    con = sqlite3.connect(db)
    for script in _MIGRATIONS[:4]:
        con.executescript(script)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute("PRAGMA user_version = 4")
    con.commit()
    con.close()
    with Store(db) as store:
        columns = {row[1] for row in store.connection.execute("PRAGMA table_info(files)")}
        assert {"picture_hash", "picture_width", "picture_height", "picture_format",
                "picture_error"} <= columns


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_pairs_finds_a_re_encoded_jpeg_and_its_png(tmp_path, capsys):
    root = _pictures_tree(tmp_path / "tree")
    db = str(tmp_path / "s.db")
    assert run(capsys, "scan", "--db", db, str(root))[0] == 0
    code, out, err = run(capsys, "pairs", "--db", db, "--method", "images")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    found = {frozenset((os.path.basename(r["path_a"]), os.path.basename(r["path_b"])))
             for r in rows}
    same = {"original.jpg", "again.jpg", "as.png", "small.jpg"}
    assert found == {frozenset((a, b)) for a in same for b in same if a < b}
    for r in rows:
        assert r["identical"] == "False" and 80 <= float(r["similarity"]) < 100
    code, out, err = run(capsys, "similar", "--db", db, "--method", "images",
                         "--format", "json", str(root / "original.jpg"))
    assert code == 0, err
    names = {os.path.basename(json.loads(line)["path"]) for line in out.splitlines()}
    assert names == same - {"original.jpg"}
    code, out, err = run(capsys, "groups", "--db", db, "--method", "images", "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["group"] for r in rows} == {"1"}
    assert {os.path.basename(r["path"]) for r in rows} == same
    code, out, err = run(capsys, "pairs", "--db", db, "--method", "images", "--threshold", "99")
    assert code == 2 and "whole number of bits from 0 to 12" in err
    # a clean-up's plan says how alike they look, not what bytes they share (they share none)
    code, out, err = run(capsys, "remove", "--db", db, "--method", "images",
                         "--include-similar", "--dry-run")
    assert code == 0, err
    assert "how alike each looks" in out and "share of content" not in out


def test_cli_finds_pictures_with_undecodable_names(tmp_path, capsys):
    root = tmp_path / "tree"
    root.mkdir()
    name = os.fsdecode(b"caf\xe9")  # Latin-1 bytes: not UTF-8
    photo(12).save(os.path.join(str(root), name + ".jpg"), quality=95)
    photo(12).save(os.path.join(str(root), name + "-copy.png"))
    db = str(tmp_path / "s.db")
    assert run(capsys, "scan", "--db", db, str(root))[0] == 0
    code, out, err = run(capsys, "pairs", "--db", db, "--method", "images", "--format", "json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 1 and "path_a_base64" in rows[0] and "path_b_base64" in rows[0]


def test_rotated_copies_pair_only_with_rotations(tmp_path, capsys):
    root = tmp_path / "tree"
    root.mkdir()
    photo(13).save(root / "a.jpg", quality=95)
    photo(13).transpose(Image.Transpose.ROTATE_90).save(root / "b.jpg", quality=95)
    db = str(tmp_path / "s.db")
    run(capsys, "scan", "--db", db, str(root))
    assert run(capsys, "pairs", "--db", db, "--method", "images")[1].count("\n") == 1
    code, out, _ = run(capsys, "pairs", "--db", db, "--method", "images-rotated")
    assert code == 0 and out.count("\n") == 2


def test_flat_pictures_of_nearly_the_same_grey_hash_alike():
    """A flat picture's coefficients are rounding noise, which must not be read as signs."""
    hashes = {pictures.dct_hash(np.full((32, 32), float(v))) for v in (1, 17, 100, 127)}
    assert hashes == {0}
    assert pictures.dct_hash(np.full((32, 32), 200.0)) == 1  # only the mean's bit
