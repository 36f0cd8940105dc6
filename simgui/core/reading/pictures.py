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
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import warnings
from dataclasses import dataclass

import numpy as np

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
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_CLOEXEC", 0))
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


def read_picture(path: str, ext: str | None = None) -> Picture:
    """Decode the picture at ``path`` small and fingerprint it.

    Raises :class:`PictureUnreadable` with a one-line reason when Pillow cannot
    decode it (not a picture, truncated, corrupt, too large)."""
    with open_picture(path, ext) as img:
        grey, width, height = _reduced(img)
        fmt = img.format or (ext or "").upper()
    return Picture(dct_hash(grey), width, height, fmt)


#: EXIF orientations 5 to 8 turn the picture a quarter: width and height swap
_QUARTER_TURNS = (5, 6, 7, 8)


def _reduced(img) -> tuple[np.ndarray, int, int]:
    """The picture as shown (EXIF orientation applied), grey, 32 x 32, float; and its width
    and height as shown."""
    from PIL import Image

    width, height = img.size
    try:
        orientation = img.getexif().get(0x0112, 1)
    except Exception:
        orientation = 1  # a damaged EXIF block: the picture as stored
    if img.format == "JPEG":
        img.draft("L", (_DRAFT, _DRAFT))
    img.load()
    img = _grey(img)
    small = img.resize((HASH_SIDE, HASH_SIDE), Image.Resampling.BOX)
    if orientation in range(2, 9):
        method = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
                  4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
                  6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
                  8: Image.Transpose.ROTATE_90}[orientation]
        small = small.transpose(method)
    if orientation in _QUARTER_TURNS:
        width, height = height, width
    return np.asarray(small, np.float64), width, height


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
