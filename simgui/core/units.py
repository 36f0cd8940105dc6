"""Human-readable sizes, durations and rates, and parsing sizes and percentages typed by
users."""

from __future__ import annotations

import re

_UNITS = ("B", "KB", "MB", "GB", "TB", "PB")
_PARSE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE)


def format_bytes(n: float) -> str:
    """1536 -> '1.5 KB' (powers of 1000, as file managers show them)."""
    value = float(n)
    for unit in _UNITS:
        if abs(value) < 1000 or unit == _UNITS[-1]:
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def parse_size(text: str) -> int:
    """'10k', '1.5M', '2GiB', '512' -> bytes (k = 1000, Ki = 1024)."""
    match = _PARSE.match(text)
    if not match:
        raise ValueError(f"not a size: {text!r} (examples: 512, 10k, 1.5M, 2GiB)")
    number, prefix, suffix = match.groups()
    base = 1024 if suffix.lower().startswith("i") else 1000
    power = "kmgtp".find(prefix.lower()) + 1 if prefix else 0
    return int(float(number) * base**power)


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
    """'1.5', '1.5 %' -> 1.5; a tolerance, so 0 to 100 (NaN refused)."""
    try:
        value = float(text.strip().rstrip("%"))
    except ValueError:
        raise ValueError(f"not a percentage: {text.strip()!r}") from None
    if not 0 <= value <= 100:
        raise ValueError("a tolerance is between 0 and 100 percent")
    return value
