"""Perceptual fingerprints of pictures: the same photo re-saved, resized or converted.

A re-encoded JPEG shares almost no bytes with its original, so no byte-level
method finds it; its *look* is what stays.  Each picture file (by extension:
:func:`picture_extensions`) is decoded small with Pillow (JPEG's draft mode
decodes at 1/2 to 1/8 scale, so a camera photo costs a fraction of a full
decode), turned grey, boxed down to 32 x 32 and given a 64-bit DCT hash:

- bit ``8u + v`` (``u``, ``v`` in 0..7, ``(u, v) != (0, 0)``) is set when the
  orthonormal 2-D DCT-II coefficient ``C[u, v]`` of the 32 x 32 picture is
  positive (above 1e-6: a flat picture's rounding noise is no sign): the signs of
  the lowest frequencies, the picture's coarse shape;
- bit 0 is set when the mean grey is above 127.5 (the DC coefficient's sign
  would always be set).

The sign (not ImageHash's median) is the threshold so that the eight
rotations and mirror images of a picture have hashes computable from its one
hash (:func:`dihedral_hashes`): transposing the picture transposes the
coefficients, and mirroring it negates those of odd frequency.  The search can
then find a rotated copy with one stored hash per file.  On the labelled
corpus (benchmarks/bench_pictures.py) this hash beat the 64-bit gradient hash
(dHash) on resizes and crops; see docs/pictures.md.

The EXIF orientation is applied first, so a camera photo and the same photo
rotated by an editor hash alike.  A file that does not decode gets a one-line
message (:class:`PictureUnreadable`), never a traceback.

Draft mode still entropy-decodes the whole file (some 30 ms for a 12-megapixel
photo), so a camera-sized JPEG is hashed from the thumbnail its Exif block
carries, when the thumbnail provably shows the picture as it is now: the Exif
sizes are the picture's own, the proportions match, and the picture's top 5 %,
decoded alone, matches the thumbnail's (:func:`_thumbnail_grey`).  Otherwise,
and for every other picture, the picture itself is decoded as above; those
hashes are exactly what they were before the thumbnail path existed.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import os
import warnings
from dataclasses import dataclass

import numpy as np

from simgui.core.reading.file_reads import OPEN_FLAGS

#: extensions decoded by Pillow itself
PICTURE_EXTENSIONS = frozenset({"jpg", "jpeg", "jpe", "png", "webp", "gif", "bmp", "tif",
                                "tiff"})
#: decoded only when pillow-heif is installed
HEIF_EXTENSIONS = frozenset({"heic", "heif"})
HASH_SIDE = 32  # the grey picture the DCT runs on
HASH_BITS = 64
_DRAFT = 64  # JPEG draft decoding keeps at least this many pixels a side


@functools.cache
def picture_extensions() -> frozenset[str]:
    """The extensions (case-folded, no dot) whose files are decoded as pictures."""
    if importlib.util.find_spec("pillow_heif") is not None:
        return PICTURE_EXTENSIONS | HEIF_EXTENSIONS
    return PICTURE_EXTENSIONS


@dataclass(frozen=True)
class Picture:
    """A decoded picture's fingerprint: the 64-bit hash (unsigned), its size as shown
    (EXIF orientation applied) and Pillow's name of its format ("JPEG", "PNG")."""

    hash: int
    width: int
    height: int
    format: str
    #: hashed from the Exif thumbnail (see :func:`read_picture`), not a decode of its own
    from_thumbnail: bool = False


class PictureUnreadable(Exception):
    """The file is not a picture Pillow can decode; the message says why in one line."""


# --------------------------------------------------------------------------- hashes


@functools.cache
def _dct_matrix(n: int = HASH_SIDE) -> np.ndarray:
    """The orthonormal DCT-II matrix: ``D @ x`` is the DCT of the column ``x``."""
    k = np.arange(n).reshape(-1, 1)
    x = np.arange(n).reshape(1, -1)
    d = np.cos(np.pi * (2 * x + 1) * k / (2 * n)) * np.sqrt(2.0 / n)
    d[0] /= np.sqrt(2.0)
    return d


#: coefficients up to this count as zero: a flat picture's are rounding noise (about
#: 1e-13), whose signs would make two flat pictures of nearly the same grey differ
_ZERO = 1e-6
_WEIGHTS = (np.uint64(1) << np.arange(64, dtype=np.uint64)).reshape(8, 8)


def dct_hash(grey: np.ndarray) -> int:
    """The 64-bit DCT hash of a 32 x 32 grey picture (values 0..255), as described above."""
    grey = np.asarray(grey, np.float64)
    if grey.shape != (HASH_SIDE, HASH_SIDE):
        raise ValueError(f"a {HASH_SIDE} x {HASH_SIDE} picture is hashed, got {grey.shape}")
    d = _dct_matrix()[:8]
    low = d @ grey @ d.T
    bits = low > _ZERO
    bits[0, 0] = grey.mean() > 127.5
    return int(_WEIGHTS[bits].sum(dtype=np.uint64))


def gradient_hash(grey: np.ndarray) -> int:
    """The 64-bit gradient hash (dHash) of a 8 x 9 grey picture: bit ``9r + c`` set when
    pixel ``c + 1`` of row ``r`` is brighter than pixel ``c``.  Kept for the benchmark's
    comparison; the scan stores :func:`dct_hash`."""
    grey = np.asarray(grey, np.float64)
    bits = grey[:, 1:] > grey[:, :-1]
    return int(_WEIGHTS[bits].sum(dtype=np.uint64))


def _dihedral_tables():
    """For each of the 8 rotations/mirrors: a source bit per bit, and a mask to invert."""
    u, v = np.divmod(np.arange(64), 8)
    tables = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                # the picture's rows are flipped, then its columns, then it is transposed:
                # flips negate the odd frequencies, transposing swaps u and v
                src = (v * 8 + u) if transpose else (u * 8 + v)
                su, sv = np.divmod(src, 8)
                invert = ((su % 2 == 1) & flip_rows) ^ ((sv % 2 == 1) & flip_cols)
                invert &= src != 0  # the mean's bit never changes
                tables.append((src.astype(np.uint64), int(_WEIGHTS.ravel()[invert].sum(
                    dtype=np.uint64))))
    return tables


_DIHEDRAL = _dihedral_tables()


def dihedral_hashes(hashes) -> np.ndarray:
    """uint64 ``(8, n)``: the hashes of each picture rotated by 0/90/180/270 degrees and
    mirrored, computed from its one hash (row 0 is the hash itself).  Exact for pictures
    with no coefficient exactly zero."""
    hashes = np.asarray(hashes, np.uint64).reshape(-1)
    out = np.zeros((8, hashes.shape[0]), np.uint64)
    one = np.uint64(1)
    for t, (src, invert) in enumerate(_DIHEDRAL):
        row = out[t]
        for bit in range(64):
            row |= ((hashes >> src[bit]) & one) << np.uint64(bit)
        row ^= np.uint64(invert)
    return out


def hash_distance(a, b) -> np.ndarray:
    """Differing bits of two hashes (elementwise, broadcasting)."""
    return np.bitwise_count(np.bitwise_xor(np.asarray(a, np.uint64), np.asarray(b, np.uint64)))


# --------------------------------------------------------------------------- decoding

_quiet = False


def _quiet_pillow() -> None:
    """Pillow warns (once per place) about odd EXIF data and very large pictures; a scan
    over thousands of pictures reports errors, not warnings.  Set once, not per call:
    warnings.catch_warnings is not thread-safe."""
    global _quiet
    if not _quiet:
        warnings.filterwarnings("ignore", module=r"PIL(\.|$)")
        _quiet = True


@functools.cache
def _heif_opener() -> bool:
    try:
        import pillow_heif
    except ImportError:
        return False
    pillow_heif.register_heif_opener()
    return True


@contextlib.contextmanager
def open_picture(path: str, ext: str | None = None):
    """A context giving the picture at ``path`` opened by Pillow (lazily: only its header
    is read), from a file opened without following links and closed on leaving.  Raises
    :class:`PictureUnreadable` for a file Pillow cannot open, and turns what Pillow raises
    inside the context (decoding) into one too."""
    from PIL import Image

    _quiet_pillow()
    if ext in HEIF_EXTENSIONS:
        _heif_opener()
    try:
        fd = os.open(path, OPEN_FLAGS)
    except OSError as exc:
        raise PictureUnreadable(f"picture not opened: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as f:
        try:
            img = Image.open(f)
        except Exception as exc:  # Pillow raises many kinds for a bad file
            raise PictureUnreadable(_message(exc)) from None
        with img:
            try:
                yield img
            except PictureUnreadable:
                raise
            except Exception as exc:
                raise PictureUnreadable(_message(exc)) from None


def read_picture(path: str, ext: str | None = None, thumbnails: bool = True) -> Picture:
    """Decode the picture at ``path`` small and fingerprint it.

    A camera-sized JPEG (:data:`THUMBNAIL_MIN_PIXELS`) is hashed from the thumbnail its
    Exif block carries when that thumbnail provably shows the picture as it is now
    (:func:`_thumbnail_grey`); ``thumbnails=False`` always decodes the picture itself
    (the reference the tests compare with).  Raises :class:`PictureUnreadable` with a
    one-line reason when Pillow cannot decode it (not a picture, truncated, corrupt,
    too large)."""
    with open_picture(path, ext) as img:
        width, height = img.size
        orientation = _orientation(img)
        small = _thumbnail_grey(img) if thumbnails else None
        fmt = img.format or (ext or "").upper()
        if small is None:
            grey = _shown(_reduced_image(img), orientation)
        else:
            grey = _shown(small, orientation)
    if orientation in _QUARTER_TURNS:
        width, height = height, width
    return Picture(dct_hash(grey), width, height, fmt, small is not None)


#: EXIF orientations 5 to 8 turn the picture a quarter: width and height swap
_QUARTER_TURNS = (5, 6, 7, 8)


def _orientation(img) -> int:
    """The EXIF orientation (1 to 8; 1, as stored, when there is none or it is damaged)."""
    try:
        orientation = img.getexif().get(0x0112, 1)
    except Exception:
        return 1  # a damaged EXIF block: the picture as stored
    return orientation if orientation in range(1, 9) else 1


def _reduced_image(img):
    """The picture decoded small (JPEG: draft mode), grey, boxed down to 32 x 32, as
    stored."""
    from PIL import Image

    if img.format == "JPEG":
        img.draft("L", (_DRAFT, _DRAFT))
    img.load()
    return _grey(img).resize((HASH_SIDE, HASH_SIDE), Image.Resampling.BOX)


def _shown(small, orientation: int) -> np.ndarray:
    """A 32 x 32 grey picture as stored, turned as its EXIF orientation says, as floats."""
    from PIL import Image

    if orientation in range(2, 9):
        method = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
                  4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
                  6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
                  8: Image.Transpose.ROTATE_90}[orientation]
        small = small.transpose(method)
    return np.asarray(small, np.float64)


# ------------------------------------------------------------- the Exif thumbnail

#: JPEGs of at least this many pixels may be hashed from their Exif thumbnail: decoding
#: them costs their whole entropy-coded data even in draft mode (some 30 ms for 12 MP)
THUMBNAIL_MIN_PIXELS = 2_000_000
#: the top share of the picture decoded to check its thumbnail against
THUMBNAIL_BAND = 0.05
#: the least of the file read first for the band (more when its top is dense)
_BAND_PREFIX = 1 << 18
_BAND_GRID = (32, 2)  # the band and the thumbnail's same band are compared as these cells
_BAND_MEAN, _BAND_MAX = 2.0, 16.0  # the largest mean and largest cell difference (of 255)
#: SOF markers of Huffman-coded sequential JPEGs; any other frame takes the full decode
_SEQUENTIAL = (0xC0, 0xC1)
_OTHER_FRAMES = frozenset({0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def _thumbnail_grey(img):
    """The 32 x 32 grey picture (as stored) from the JPEG's Exif thumbnail, or None when
    the thumbnail may not show the picture as it is now.

    A camera writes a small JPEG of the photo into the Exif block; a tool that edits the
    photo may copy that block unchanged, so the thumbnail is used only when all hold:
    the picture is a sequential JPEG of :data:`THUMBNAIL_MIN_PIXELS` or more whose Exif
    width and height are its own (a crop or resize that kept the old block fails); the
    thumbnail decodes, is at least 128 pixels long and has the picture's proportions
    (within 2 %: no black bars); and the picture's top :data:`THUMBNAIL_BAND`, decoded
    (only that much of the file's data is read), matches the thumbnail's top within a
    few grey levels (a brightened or replaced picture fails).  A file that does not end
    as a JPEG ends (cut short by a copy, say) is decoded whole, so that it fails as
    it did."""
    from PIL import ExifTags, Image

    width, height = img.size
    if img.format != "JPEG" or width * height < THUMBNAIL_MIN_PIXELS:
        return None
    try:
        exif = img.getexif()
        sizes = exif.get_ifd(ExifTags.IFD.Exif)
        ifd1 = exif.get_ifd(ExifTags.IFD.IFD1)
        if (sizes.get(0xA002), sizes.get(0xA003)) != (width, height):
            return None
        start, length = int(ifd1.get(0x0201, -1)), int(ifd1.get(0x0202, -1))
        raw = img.info.get("exif") or b""
        if not raw.startswith(b"Exif\x00\x00") or start < 0 or length <= 0:
            return None
        data = raw[6 + start:6 + start + length]
        if len(data) != length or not data.startswith(b"\xff\xd8"):
            return None
        thumb = Image.open(io.BytesIO(data))
        if thumb.format != "JPEG":
            return None
        thumb.draft("L", thumb.size)
        thumb.load()
        thumb = _grey(thumb)
        tw, th = thumb.size
        if max(tw, th) < 128 or abs(tw * height - th * width) > 0.02 * th * width:
            return None
        band, rows = _top_band(img)
        if band is None:
            return None
        ours = np.asarray(band.resize(_BAND_GRID, Image.Resampling.BOX), np.float64)
        theirs = np.asarray(thumb.resize(_BAND_GRID, Image.Resampling.BOX,
                                         box=(0, 0, tw, th * rows / height)), np.float64)
        diff = np.abs(ours - theirs)
        if diff.mean() > _BAND_MEAN or diff.max() > _BAND_MAX:
            return None
        return thumb.resize((HASH_SIDE, HASH_SIDE), Image.Resampling.BOX)
    except Exception:  # anything odd about the thumbnail: decode the picture itself
        return None


def _top_band(img):
    """(the picture's top rows decoded grey at 1/8 scale, how many rows of the picture
    they are), or (None, 0).  The rows are decoded from a copy of the file's start whose
    frame header says the picture is only that tall, so the decoder stops there; a start
    too short for them fails to decode (Pillow: "truncated"), and the whole file is
    read."""
    fp = img.fp
    where = fp.tell()
    try:
        size = fp.seek(0, os.SEEK_END)
        fp.seek(max(0, size - 4096))
        if not fp.read().rstrip(b"\0").endswith(b"\xff\xd9"):
            return None, 0  # truncated (or data after the picture): decode it whole
        fp.seek(0)
        data = fp.read(max(_BAND_PREFIX, int(size * 3 * THUMBNAIL_BAND)))
        try:
            return _decode_band(data, *img.size)
        except Exception:
            if len(data) >= size:
                raise
        return _decode_band(data + fp.read(), *img.size)
    finally:
        fp.seek(where)


def _decode_band(data: bytes, width: int, height: int):
    """The top band of the JPEG in ``data`` (see :func:`_top_band`)."""
    from PIL import Image

    at = _frame_header(data)
    if at < 0:
        raise ValueError("no sequential frame header")
    count = data[at + 9]
    vmax = max((data[at + 11 + 3 * c] & 0x0F for c in range(count)), default=1)
    unit = 8 * max(vmax, 1)  # rows of one MCU
    rows = max(unit, -(-int(height * THUMBNAIL_BAND) // unit) * unit)
    if rows >= height:
        return None, 0
    patched = data[:at + 5] + rows.to_bytes(2, "big") + data[at + 7:]
    band = Image.open(io.BytesIO(patched))
    band.draft("L", (-(-width // 8), rows // 8))
    band.load()
    return _grey(band), rows


def _frame_header(data: bytes) -> int:
    """Where the JPEG's sequential Huffman frame header (SOF0 or SOF1) starts, or -1 (a
    progressive, lossless or arithmetic-coded JPEG, or markers that do not parse)."""
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return -1
        marker = data[i + 1]
        if marker == 0xFF:  # a fill byte
            i += 1
            continue
        if marker in (0xDA, 0xD9) or marker in _OTHER_FRAMES:
            return -1
        if marker in _SEQUENTIAL:
            return i if i + 10 <= n and i + 10 + 3 * data[i + 9] <= n else -1
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return -1


def _grey(img):
    """A grey ("L") version of any mode; transparent parts show as white, as viewers do."""
    from PIL import Image

    mode = img.mode
    if mode == "L":
        return img
    if mode in ("I;16", "I;16B", "I;16L", "I;16N", "I", "F"):
        arr = np.asarray(img, np.float64)
        top = arr.max()
        scale = 255.0 / (65535.0 if mode.startswith("I;16") or top > 255 else 255.0)
        return Image.fromarray(np.clip(arr * scale, 0, 255).astype(np.uint8), "L")
    if mode == "P" and "transparency" in img.info or mode in ("RGBA", "LA", "PA", "RGBa", "La"):
        rgba = img.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("L")
    return img.convert("L")


def _message(exc: BaseException) -> str:
    """A decode failure as one short line."""
    name = type(exc).__name__
    text = " ".join(str(exc).split())
    if name == "UnidentifiedImageError":
        return "picture not decoded: not a picture Pillow knows"
    if name == "DecompressionBombError":
        return "picture not decoded: too many pixels (over Pillow's safety limit)"
    text = text[:160] if text else name
    return f"picture not decoded: {text}"
