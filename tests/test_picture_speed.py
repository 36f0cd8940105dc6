"""Camera-sized JPEGs hashed from their Exif thumbnail, only when it shows the picture.

Decoding a 12-megapixel JPEG costs its whole entropy-coded data even in draft mode,
so the scan hashes such a JPEG from the small thumbnail a camera writes into its Exif
block, after checking that the thumbnail is the picture as it is now.  The reference
is ``read_picture(..., thumbnails=False)``: the picture decoded itself.  A thumbnail
that is used must hash within a few bits of the reference (:data:`NEAR`; on 120 test
pictures the median was 1 bit, like a resize to 160 pixels); a stale one (a tool edited
the picture and kept the old Exif block) must not be used at all.
"""

import io
import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageEnhance

from simgui.core.reading import pictures

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
from bench_pictures import exif_with_thumbnail, thumbnail_jpeg  # noqa: E402

W, H = 800, 600
NEAR = 5  # bits: a thumbnail used hashes at most this far from the picture itself


@pytest.fixture(autouse=True)
def _small_cameras(monkeypatch):
    """Test-sized "camera" pictures: 800 x 600 counts as camera-sized here."""
    monkeypatch.setattr(pictures, "THUMBNAIL_MIN_PIXELS", W * H)


def scene(seed: int, size=(W, H)) -> Image.Image:
    """A photo-like picture: a smooth random field of colours (detail at every height,
    the top included), with grain."""
    rng = np.random.default_rng(seed)
    coarse = rng.uniform(0, 255, (6, 8, 3)).astype(np.uint8)
    img = Image.fromarray(coarse, "RGB").resize(size, Image.Resampling.BICUBIC)
    grain = rng.normal(0, 5, (size[1], size[0], 1))
    return Image.fromarray(np.clip(np.asarray(img, np.float64) + grain, 0, 255)
                           .astype(np.uint8), "RGB")


def save(img: Image.Image, path, exif: bytes | None = None, **options) -> str:
    if exif is not None:
        options["exif"] = exif
    img.save(path, "JPEG", quality=90, **options)
    return str(path)


def camera_file(tmp_path, img: Image.Image, name="photo.jpg", quality=75) -> str:
    """``img`` saved as a camera saves it: with its own thumbnail and size in Exif."""
    return save(img, tmp_path / name, exif_with_thumbnail(thumbnail_jpeg(img, quality=quality),
                                                          *img.size))


def both(path):
    return pictures.read_picture(path), pictures.read_picture(path, thumbnails=False)


# ------------------------------------------------------------------ the thumbnail used


@pytest.mark.parametrize("quality", [60, 75, 95])
def test_a_fresh_thumbnail_is_used_and_hashes_like_the_picture(tmp_path, quality):
    for seed in range(4):
        fast, ref = both(camera_file(tmp_path, scene(seed), f"p{seed}.jpg", quality))
        assert fast.from_thumbnail and not ref.from_thumbnail
        assert pictures.hash_distance(fast.hash, ref.hash) <= NEAR
        assert (fast.width, fast.height, fast.format) == (ref.width, ref.height, "JPEG")


def test_the_exif_orientation_turns_the_thumbnail_as_the_picture(tmp_path):
    img = scene(7)
    path = save(img, tmp_path / "turned.jpg",
                exif_with_thumbnail(thumbnail_jpeg(img), *img.size, orientation=6))
    fast, ref = both(path)
    assert fast.from_thumbnail
    assert (fast.width, fast.height) == (ref.width, ref.height) == (H, W)
    assert pictures.hash_distance(fast.hash, ref.hash) <= NEAR
    plain = pictures.read_picture(camera_file(tmp_path, img.transpose(
        Image.Transpose.ROTATE_270), "plain.jpg"), thumbnails=False)
    assert pictures.hash_distance(fast.hash, plain.hash) <= NEAR


def test_small_pictures_and_other_formats_decode_themselves(tmp_path, monkeypatch):
    path = camera_file(tmp_path, scene(1))
    monkeypatch.setattr(pictures, "THUMBNAIL_MIN_PIXELS", W * H + 1)
    fast, ref = both(path)
    assert not fast.from_thumbnail and fast == ref
    monkeypatch.setattr(pictures, "THUMBNAIL_MIN_PIXELS", W * H)
    img = scene(1)
    progressive = save(img, tmp_path / "progressive.jpg",
                       exif_with_thumbnail(thumbnail_jpeg(img), *img.size), progressive=True)
    fast, ref = both(progressive)
    assert not fast.from_thumbnail and fast == ref
    no_thumbnail = save(img, tmp_path / "bare.jpg")
    fast, ref = both(no_thumbnail)
    assert not fast.from_thumbnail and fast == ref


# ------------------------------------------------------------------ stale thumbnails


def stale(tmp_path, edited: Image.Image, original: Image.Image, name: str) -> str:
    """``edited`` saved with ``original``'s Exif block copied unchanged (as a tool that
    keeps the block does): its thumbnail and sizes are the original's."""
    return save(edited, tmp_path / name,
                exif_with_thumbnail(thumbnail_jpeg(original), *original.size))


@pytest.mark.parametrize("edit", ["brighter", "darker", "another picture", "cropped",
                                  "resized", "turned"])
def test_a_stale_thumbnail_is_never_used(tmp_path, edit):
    for seed in range(3):
        img = scene(seed)
        edited = {"brighter": lambda: ImageEnhance.Brightness(img).enhance(1.15),
                  "darker": lambda: ImageEnhance.Brightness(img).enhance(0.9),
                  "another picture": lambda: scene(seed + 100),
                  "cropped": lambda: img.crop((16, 16, W - 16, H - 16)),
                  "resized": lambda: img.resize((W * 9 // 10, H * 9 // 10)),
                  "turned": lambda: img.transpose(Image.Transpose.ROTATE_90)}[edit]()
        fast, ref = both(stale(tmp_path, edited, img, f"{seed}.jpg"))
        assert not fast.from_thumbnail
        assert fast == ref  # exactly the picture's own hash


def test_a_thumbnail_with_black_bars_or_too_small_is_not_used(tmp_path):
    img = scene(3)
    bars = Image.new("RGB", (160, 120))
    bars.paste(img.resize((160, 106)), (0, 7))  # a 3:2 camera's 4:3 thumbnail
    wide = img.resize((W, H * 2 // 3))
    out = io.BytesIO()
    bars.save(out, "JPEG", quality=80)
    fast, ref = both(save(wide, tmp_path / "bars.jpg",
                          exif_with_thumbnail(out.getvalue(), *wide.size)))
    assert not fast.from_thumbnail and fast == ref
    fast, ref = both(save(img, tmp_path / "tiny.jpg",
                          exif_with_thumbnail(thumbnail_jpeg(img, side=96), *img.size)))
    assert not fast.from_thumbnail and fast == ref


def test_a_picture_cut_short_fails_as_it_did(tmp_path):
    """Its header, thumbnail and top are intact, but it must still be reported as not
    decoding (the scan lists it as a picture issue), not hashed from its thumbnail."""
    path = camera_file(tmp_path, scene(5))
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    for thumbnails in (True, False):
        with pytest.raises(pictures.PictureUnreadable, match="truncated"):
            pictures.read_picture(path, thumbnails=thumbnails)


def test_a_damaged_thumbnail_is_not_used(tmp_path):
    img = scene(4)
    thumb = thumbnail_jpeg(img)
    fast, ref = both(save(img, tmp_path / "cut.jpg",
                          exif_with_thumbnail(thumb[:len(thumb) // 2], *img.size)))
    assert not fast.from_thumbnail and fast == ref


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), brightness=st.floats(0.8, 1.25),
       shift=st.integers(0, 12), other=st.booleans())
def test_a_thumbnail_used_always_hashes_within_a_few_bits(tmp_path_factory, seed, brightness,
                                                           shift, other):
    """Whatever was done to the picture after its thumbnail was made (brightened, moved
    a few pixels, replaced), a thumbnail the check lets through hashes within NEAR bits
    of the picture's own hash."""
    folder = tmp_path_factory.mktemp("prop")
    img = scene(seed)
    edited = scene(seed + 1) if other else ImageEnhance.Brightness(img).enhance(brightness)
    if shift:
        edited = edited.crop((shift, shift, W + shift, H + shift))  # same size, moved
    fast, ref = both(stale(folder, edited, img, "p.jpg"))
    if fast.from_thumbnail:
        assert pictures.hash_distance(fast.hash, ref.hash) <= NEAR
    else:
        assert fast == ref


# ------------------------------------------------------------------ the band decode


def full_top_rows(path, rows):
    """The reference: the whole picture decoded at 1/8 scale, its top rows."""
    with Image.open(path) as img:
        img.draft("L", (img.width // 8, img.height // 8))
        img.load()
        return np.asarray(img)[:rows // 8]


@pytest.mark.parametrize("subsampling", [0, 1, 2])
@pytest.mark.parametrize("prefix", [1 << 18, 600])
def test_the_top_band_is_exactly_the_pictures_top_rows(tmp_path, monkeypatch, subsampling,
                                                       prefix):
    """The band decoded from a copy with a shorter frame header is the same pixels as the
    top of the whole decode, also when the start read first is too short (read again)."""
    monkeypatch.setattr(pictures, "_BAND_PREFIX", prefix)
    monkeypatch.setattr(pictures, "THUMBNAIL_BAND", 0.1)
    path = save(scene(9, (1024, 768)), tmp_path / "p.jpg", subsampling=subsampling)
    with pictures.open_picture(path) as img:
        where = img.fp.tell()
        band, rows = pictures._top_band(img)
        assert img.fp.tell() == where  # left where Pillow expects it
    unit = 16 if subsampling == 2 else 8
    assert rows % unit == 0 and rows >= 0.1 * 768
    assert np.array_equal(np.asarray(band), full_top_rows(path, rows))


def test_a_picture_read_after_its_band_decodes_whole(tmp_path, monkeypatch):
    """Checking the thumbnail leaves the file where Pillow expects it: a stale thumbnail
    falls back to decoding the picture from the same open file."""
    img = scene(11)
    fast, ref = both(stale(tmp_path, scene(12), img, "p.jpg"))
    assert fast == ref and not fast.from_thumbnail
    assert ref == pictures.read_picture(save(scene(12), tmp_path / "plain.jpg"))
