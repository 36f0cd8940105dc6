"""Human-readable sizes, durations and rates, and parsing sizes and percentages typed by
users."""

from __future__ import annotations

import re
from decimal import Decimal

_UNITS = ("B", "KB", "MB", "GB", "TB", "PB")
# ASCII digits only: str's \d and float() also take other scripts' digits
_PARSE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE | re.ASCII)
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$", re.IGNORECASE | re.ASCII)
#: The largest size a file can have (off_t): a larger size limit means nothing.
MAX_SIZE = 2**63 - 1


def _shown(number: str) -> str:
    """A number as typed, cut short if long (a message stays one readable line)."""
    return number if len(number) <= 24 else number[:20] + "..."


def format_bytes(n: float) -> str:
    """1536 -> '1.5 KB' (powers of 1000, as file managers show them)."""
    value = float(n)
    for unit in _UNITS:
        if abs(value) < 1000 or unit == _UNITS[-1]:
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def parse_size(text: str) -> int:
    """'10k', '1.5M', '2GiB', '512' -> bytes (k = 1000, Ki = 1024), 0 to :data:`MAX_SIZE`.

    Exact (no float: a long number neither overflows nor rounds); a size no file
    can have is refused, not taken as a limit that leaves out every file."""
    match = _PARSE.match(text)
    if not match:
        raise ValueError(f"not a size: {_shown(text.strip())!r} (0 or more bytes, e.g. 512, 10k, "
                         "1.5M, 2GiB)")
    number, prefix, suffix = match.groups()
    base = 1024 if suffix.lower().startswith("i") else 1000
    power = "kmgtp".find(prefix.lower()) + 1 if prefix else 0
    if len(number) > 40:  # far beyond MAX_SIZE whatever the unit; spares Decimal the work
        size = MAX_SIZE + 1
    else:
        size = int(Decimal(number) * base**power)
    if size > MAX_SIZE:
        raise ValueError(f"too large: a size is at most {MAX_SIZE} bytes (8 EiB), the "
                         "largest a file can be")
    return size


def format_duration(seconds: float) -> str:
    """72.5 -> '1 min 12 s'."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def format_rate(bytes_per_second: float) -> str:
    return f"{format_bytes(bytes_per_second)}/s"


def parse_percent(text: str) -> float:
    """'1.5', '1.5 %', '2e-1' -> 1.5, 1.5, 0.2; a tolerance, so 0 to 100.

    A plain decimal number and at most one '%': NaN, infinities, '5%%' and the
    forms only float() knows (underscores, other scripts' digits) are refused."""
    number = text.strip()
    if number.endswith("%"):
        number = number[:-1].rstrip()
    if not _NUMBER.match(number):
        raise ValueError(f"not a percentage: {_shown(text.strip())!r} (a number between 0 "
                         "and 100, e.g. 1.5 or 1.5%)")
    value = float(number) + 0.0  # -0 is 0
    if not 0 <= value <= 100:
        raise ValueError(f"{_shown(text.strip())!r}: a tolerance is between 0 and 100 percent")
    return value


def parse_number(text: str, low: float, high: float) -> float:
    """A plain decimal number from ``low`` to ``high`` (no NaN, infinity or underscores)."""
    number = text.strip()
    if not _NUMBER.match(number):
        raise ValueError(f"not a number: {_shown(number)!r} (one from {low:g} to {high:g})")
    value = float(number) + 0.0
    if not low <= value <= high:
        raise ValueError(f"{_shown(number)} is out of range (a number from {low:g} to "
                         f"{high:g})")
    return value


def parse_whole(text: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` as typed (ASCII digits, an optional sign)."""
    number = text.strip()
    if not re.fullmatch(r"[+-]?\d+", number, re.ASCII):
        raise ValueError(f"not a whole number: {_shown(number)!r} (one from {low} to {high})")
    if len(number) > 40 or not low <= int(number) <= high:
        raise ValueError(f"{_shown(number)} is out of range (a whole number from {low} to "
                         f"{high})")
    return int(number)


def format_share(value: float, digits: int = 1) -> str:
    """A similarity in percent with ``digits`` decimals, never rounded up to 100: 100 %
    is for identical copies alone, so 99.97 reads 99.9 at one decimal, not 100.0."""
    text = f"{value:.{digits}f}"
    if value < 100 and float(text) >= 100:
        text = f"{100 - 10 ** -digits:.{digits}f}"
    return text


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``1 file``, ``2 files``: a count with its noun (``plural``: where it is not the
    noun and an s)."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"
