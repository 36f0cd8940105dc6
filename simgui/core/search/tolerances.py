"""The search's settings and their defaults, in plain Python: no numpy, no kernels.

The command line builds its options from these (``simgui --help`` and ``--version``
must start in a few dozen milliseconds, before any numerical module loads), and
``simfind``, ``methods`` and ``keys`` take them from here, so each default lives once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from simgui.core.units import parse_percent

#: Chosen on the labelled collections with the content check after them (see
#: docs/accuracy.md): wide enough to let in most real edits as candidates (the check,
#: not the sum table, rejects unrelated files).  Without the check the paper's method
#: was best at 3.2 % and 1 %.
DEFAULT_KEY_TOLERANCE = 10.0
DEFAULT_SUM_TOLERANCE = 5.0
DEFAULT_SIZE_FACTOR = 1.5
#: Smaller files are only ever paired with copies of themselves (equal size and
#: sum table).  A few dozen bytes hold a handful of tag matches, so the
#: tolerance floor of 1 makes nearly all of them "similar" to each other, which
#: is noise to a user and quadratic work (TLSH likewise needs 50 bytes).
DEFAULT_MIN_SIMILAR_SIZE = 64
#: The content check's default: a pair that is not a copy is called similar only if the
#: files have at least this share of their content in common (estimated from their
#: MinHash signatures, see methods.shared_content); chosen on the labelled corpus, see
#: docs/accuracy.md.
DEFAULT_MIN_CONTENT = 50.0
#: The lowest threshold the content check can be set to (the window's slider starts
#: here): with the check on, the sliders' statistics keep no pair with less in common.
LOWEST_MIN_CONTENT = 10.0

#: Similar folders (simgui.core.search.similar_folders): the smallest similarity, in
#: percent, of a pair of folders listed by default.
DEFAULT_MIN_FOLDER_SIMILARITY = 50.0

#: The key schemes (simgui.core.search.keys.SCHEMES), by name.
SCHEME_NAMES = ("skew", "uniform")

METHODS = ("paper", "simhash", "minhash", "images", "images-rotated")
#: the picture methods (simgui.core.search.pictures): perceptual hashes of pictures only,
#: across extensions and sizes; "images-rotated" also pairs turned and mirrored copies
PICTURE_METHODS = ("images", "images-rotated")
#: The largest simhash distance searched (its slider's top): the index needs
#: C(blocks, bits) sorted tables, so wider searches cost more than they find.
SIMHASH_MAX_BITS = 8
SIMHASH_DEFAULT_BITS = 8  # best F1 within the searchable range (0.72 on the corpus)
MINHASH_FLOOR = 0.4  # the smallest resemblance searched (the slider's bottom)
MINHASH_DEFAULT = 0.45  # precision 1.000 and recall 0.85 on the corpus (F1 0.92)


@dataclass(frozen=True)
class Tolerances:
    """Key and sum-table tolerance in percent (the paper's search), and the content
    check after it: the smallest share of content in common, in percent, that confirms
    a pair (0: no check, the paper's method as published).  The search itself only
    reads ``key`` and ``sum``."""

    key: float = DEFAULT_KEY_TOLERANCE
    sum: float = DEFAULT_SUM_TOLERANCE
    content: float = DEFAULT_MIN_CONTENT

    def __post_init__(self):
        if not (0 <= self.key < math.inf and 0 <= self.sum < math.inf):  # NaN too
            raise ValueError("tolerances must be zero or more percent, and finite")
        if not 0 <= self.content <= 100:
            raise ValueError("the content check is a share from 0 to 100 percent")


def parse_override(text: str) -> tuple[str, Tolerances]:
    """``EXT=KEY,SUM`` (percent each, e.g. ``ps=3.2,0.23``) -> (extension, tolerances).

    Raises ValueError with a message a user can act on."""
    ext, sep, values = text.partition("=")
    key, comma, sum_ = values.partition(",")
    ext = ext.strip().lstrip("*.").strip().casefold()  # "ps", ".ps" or "*.ps"
    if not (sep and comma and ext):
        raise ValueError(f"not EXT=KEY,SUM: {text.strip()!r} (for example ps=3.2,0.23)")
    try:
        tolerances = Tolerances(parse_percent(key), parse_percent(sum_))
    except ValueError as exc:
        raise ValueError(f"{exc} in {text.strip()!r}") from None
    last = ext.rsplit(".", 1)[-1].strip()
    if last != ext:  # a file's extension is what follows its last dot (keys.extension_of)
        raise ValueError(f"*.{ext} files have the extension {last!r} (what follows the "
                         f"last dot): write {last}={values.strip()}" if last else
                         f"{ext!r} ends with a dot: an extension follows the last dot")
    return ext, tolerances


def parse_overrides(text: str) -> dict[str, Tolerances]:
    """Overrides separated by semicolons (``ps=3.2,0.23; pdf=1,0.24``); blank: none."""
    return dict(parse_override(item) for item in text.split(";") if item.strip())


def format_overrides(overrides: Mapping[str, Tolerances]) -> str:
    return "; ".join(f"{ext}={tol.key:.12g},{tol.sum:.12g}" for ext, tol in overrides.items())
