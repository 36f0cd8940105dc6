"""A labelled corpus of pictures and known edits, for measuring the ``images`` method.

    python benchmarks/picture_corpus.py OUTDIR [--synthetic 60] [--seed 0]

writes OUTDIR/<source>/<kind>.<ext> for every source picture and each of its
variants, and OUTDIR/labels.tsv (file, source, kind) so that the folder can be
scanned like any other.

Sources (the originals)
-----------------------
- ``photo``: the one real photo that ships with matplotlib (grace_hopper.jpg,
  512 x 600), whole, and its four quadrants as four more pictures: unrelated
  pictures of the same content (one face, one uniform, one background).
- ``dem``: the four quadrants of matplotlib's Jacksboro fault elevation model,
  hill-shaded and coloured, enlarged 3x: four pictures of the same terrain.
- ``icon``: up to 12 of the 512 x 512 Adwaita icons of this machine (PNG with
  transparency; flat drawings that look alike), when installed.
- ``synth``: ``--synthetic`` generated "photos" (640 x 480): a sky gradient,
  1/f noise terrain, blurred shapes and grain.  They come in families of
  three cut side by side from one 1280 x 480 scene, each half overlapping the
  next: unrelated pictures of similar content, the hardest negatives here.

Kinds of variant (each made from the original, seeded per source)
-----------------------------------------------------------------
``jpeg95``, ``jpeg80``, ``jpeg60`` (re-encoded at that JPEG quality);
``resize50``, ``resize75``, ``resize90`` (that share of each side, Lanczos,
same format as the original); ``format`` (PNG -> JPEG 90, JPEG -> PNG);
``crop2``, ``crop5`` (that per cent cut off, split between the four sides);
``bright`` (brightness x 1.2); ``text`` (a small caption drawn in a corner);
``rot90``, ``rot180``, ``mirror`` (found only with rotations on).

Every variant is labelled with its source; two files are the same picture
when their sources are equal.
"""

from __future__ import annotations

import argparse
import glob
import os
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter

KINDS = ("jpeg95", "jpeg80", "jpeg60", "resize50", "resize75", "resize90", "format",
         "crop2", "crop5", "bright", "text", "rot90", "rot180", "mirror")
#: the kinds the targets are set for (precision >= 0.99, recall >= 0.95)
TARGET_KINDS = ("jpeg95", "jpeg80", "jpeg60", "resize50", "resize75", "resize90", "format")
ROTATION_KINDS = ("rot90", "rot180", "mirror")


@dataclass(frozen=True)
class Source:
    name: str
    image: Image.Image  # RGB or RGBA
    fmt: str  # "JPEG" or "PNG": how the original is saved


def sources(synthetic: int = 60, seed: int = 0) -> list[Source]:
    """Every original picture, deterministic for a seed."""
    from matplotlib import cbook, colormaps
    from matplotlib.colors import LightSource

    out: list[Source] = []
    photo = Image.open(cbook.get_sample_data("grace_hopper.jpg", asfileobj=False)).convert("RGB")
    out.append(Source("photo", photo, "JPEG"))
    w, h = photo.size
    for i, (x, y) in enumerate([(0, 0), (w // 2, 0), (0, h // 2), (w // 2, h // 2)]):
        out.append(Source(f"photo_q{i}", photo.crop((x, y, x + w // 2, y + h // 2)), "JPEG"))
    dem = cbook.get_sample_data("jacksboro_fault_dem.npz")["elevation"]
    shaded = LightSource(azdeg=315, altdeg=45).shade(dem, cmap=colormaps["gist_earth"],
                                                     blend_mode="soft", vert_exag=2)
    rgb = Image.fromarray((shaded[..., :3] * 255).astype(np.uint8), "RGB")
    w, h = rgb.size
    for i, (x, y) in enumerate([(0, 0), (w // 2, 0), (0, h // 2), (w // 2, h // 2)]):
        part = rgb.crop((x, y, x + w // 2, y + h // 2))
        out.append(Source(f"dem_q{i}", part.resize((part.width * 3, part.height * 3),
                                                   Image.Resampling.BICUBIC), "PNG"))
    icons = sorted(glob.glob("/usr/share/icons/Adwaita/512x512/*/*.png"))[:12]
    for path in icons:
        name = os.path.splitext(os.path.basename(path))[0]
        out.append(Source(f"icon_{name}", Image.open(path).convert("RGBA"), "PNG"))
    rng = np.random.default_rng(seed)
    for family in range(synthetic // 3):
        scene = _scene(rng, 1280, 480)
        for i, x in enumerate((0, 320, 640)):
            fmt = "JPEG" if (family + i) % 2 else "PNG"
            out.append(Source(f"synth{family:02d}_{i}", scene.crop((x, 0, x + 640, 480)), fmt))
    return out


def _noise(rng, w, h, beta=2.0):
    """1/f^beta noise scaled to 0..1: the texture of terrain and clouds."""
    fy = np.fft.fftfreq(h).reshape(-1, 1)
    fx = np.fft.rfftfreq(w).reshape(1, -1)
    f = np.sqrt(fx * fx + fy * fy)
    f[0, 0] = 1.0
    spectrum = (rng.normal(size=f.shape) + 1j * rng.normal(size=f.shape)) / f ** (beta / 2)
    field = np.fft.irfft2(spectrum, s=(h, w))
    field -= field.min()
    return field / max(field.max(), 1e-12)


def _scene(rng, w, h) -> Image.Image:
    """A generated landscape: sky, a ridge of noise, shapes, grain."""
    y = np.linspace(0, 1, h).reshape(-1, 1)
    top, bottom = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
    sky = top * (1 - y)[..., None] + bottom * y[..., None] + np.zeros((h, w, 1))
    ridge = h * (0.35 + 0.4 * _noise(rng, w, 1, 2.5)[0])
    ground = y * h > ridge.reshape(1, -1)
    texture = _noise(rng, w, h, 2.0)[..., None]
    colour = rng.uniform(30, 220, 3)
    land = colour * (0.5 + texture)
    img = np.where(ground[..., None], land, sky)
    pic = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(pic)
    for _ in range(int(rng.integers(3, 9))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(15, 90)
        fill = tuple(int(c) for c in rng.uniform(0, 255, 3))
        if rng.random() < 0.5:
            draw.ellipse((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), fill=fill)
        else:
            draw.rectangle((cx - r, cy - r / 2, cx + r * 0.8, cy + r), fill=fill)
    pic = pic.filter(ImageFilter.GaussianBlur(1.2))
    grain = rng.normal(0, 6, (h, w, 1))
    return Image.fromarray(np.clip(np.asarray(pic) + grain, 0, 255).astype(np.uint8), "RGB")


def _save(img: Image.Image, path: str, fmt: str, quality: int = 92) -> None:
    if fmt == "JPEG":
        if img.mode == "RGBA":  # as a viewer shows it: on white
            white = Image.new("RGBA", img.size, (255, 255, 255, 255))
            img = Image.alpha_composite(white, img)
        img.convert("RGB").save(path, "JPEG", quality=quality)
    else:
        img.save(path, "PNG")


def variant(img: Image.Image, kind: str) -> tuple[Image.Image, str | None, int]:
    """The edited picture, the format to save it in (None: the original's) and the JPEG
    quality."""
    w, h = img.size
    if kind.startswith("jpeg"):
        return img, "JPEG", int(kind[4:])
    if kind.startswith("resize"):
        share = int(kind[6:]) / 100
        size = (max(1, round(w * share)), max(1, round(h * share)))
        return img.resize(size, Image.Resampling.LANCZOS), None, 90
    if kind == "format":
        return img, "FLIP", 90
    if kind.startswith("crop"):
        cut = int(kind[4:]) / 100 / 2  # per side, of each dimension
        dx, dy = round(w * cut), round(h * cut)
        return img.crop((dx, dy, w - dx, h - dy)), None, 90
    if kind == "bright":
        return ImageEnhance.Brightness(img).enhance(1.2), None, 90
    if kind == "text":
        out = img.copy()
        draw = ImageDraw.Draw(out)
        draw.text((max(4, w // 30), h - max(16, h // 12)), "holiday 2024",
                  fill=(255, 255, 255, 255) if out.mode == "RGBA" else (255, 255, 255))
        return out, None, 90
    if kind == "rot90":
        return img.transpose(Image.Transpose.ROTATE_90), None, 90
    if kind == "rot180":
        return img.transpose(Image.Transpose.ROTATE_180), None, 90
    if kind == "mirror":
        return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT), None, 90
    raise ValueError(f"unknown kind {kind!r}")


def write_corpus(outdir: str, synthetic: int = 60, seed: int = 0) -> list[tuple[str, str, str]]:
    """Write the corpus; returns its labels (relative path, source, kind)."""
    labels = []
    for src in sources(synthetic, seed):
        folder = os.path.join(outdir, src.name)
        os.makedirs(folder, exist_ok=True)
        ext = {"JPEG": "jpg", "PNG": "png"}
        name = f"original.{ext[src.fmt]}"
        _save(src.image, os.path.join(folder, name), src.fmt)
        labels.append((f"{src.name}/{name}", src.name, "original"))
        for kind in KINDS:
            img, fmt, quality = variant(src.image, kind)
            fmt = fmt or src.fmt
            if fmt == "FLIP":
                fmt = "PNG" if src.fmt == "JPEG" else "JPEG"
            name = f"{kind}.{ext[fmt]}"
            _save(img, os.path.join(folder, name), fmt, quality)
            labels.append((f"{src.name}/{name}", src.name, kind))
    with open(os.path.join(outdir, "labels.tsv"), "w") as f:
        f.write("file\tsource\tkind\n")
        for row in labels:
            f.write("\t".join(row) + "\n")
    return labels


def read_labels(outdir: str) -> list[tuple[str, str, str]]:
    with open(os.path.join(outdir, "labels.tsv")) as f:
        next(f)
        return [tuple(line.rstrip("\n").split("\t")) for line in f]


def camera_jpegs(outdir: str, count: int = 8, size=(4000, 3000), seed: int = 1) -> list[str]:
    """``count`` camera-sized JPEGs (quality 90, 12 megapixels by default) of generated
    scenes, for the throughput measurement."""
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    paths = []
    for i in range(count):
        small = _scene(rng, size[0] // 4, size[1] // 4)
        big = small.resize(size, Image.Resampling.BICUBIC)
        grain = rng.normal(0, 4, (size[1], size[0], 1)).astype(np.float32)
        big = Image.fromarray(np.clip(np.asarray(big, np.float32) + grain, 0, 255)
                              .astype(np.uint8), "RGB")
        path = os.path.join(outdir, f"camera{i:02d}.jpg")
        big.save(path, "JPEG", quality=90)
        paths.append(path)
    return paths


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--synthetic", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    labels = write_corpus(args.outdir, args.synthetic, args.seed)
    print(f"{len(labels)} pictures written to {args.outdir}")


if __name__ == "__main__":
    main()
