"""Tag sets: the 16 distinct 8-bit patterns whose occurrences make a sum table."""

from __future__ import annotations

from collections.abc import Iterable

TAG_COUNT = 16

#: The authors' published sample configuration, in order (DESIGN.md).
DEFAULT_TAGS: tuple[int, ...] = (
    0x00, 0x74, 0x65, 0xA4, 0xD3, 0x27, 0x3F, 0xC0,
    0x49, 0xED, 0x3C, 0x18, 0x05, 0xDB, 0x76, 0xEF,
)


def validate_tags(tags: Iterable[int]) -> tuple[int, ...]:
    """Return ``tags`` as a tuple after checking it is 16 distinct bytes."""
    result = tuple(int(t) for t in tags)
    if len(result) != TAG_COUNT:
        raise ValueError(f"a tag set holds {TAG_COUNT} tags, got {len(result)}")
    if any(not 0 <= t <= 0xFF for t in result):
        raise ValueError("every tag must be an 8-bit value (0..255)")
    if len(set(result)) != TAG_COUNT:
        raise ValueError("the tags of a tag set must be distinct")
    return result


def tags_to_hex(tags: Iterable[int]) -> str:
    """``'00 74 65 ...'``: the form used in the store and on the command line."""
    return " ".join(f"{t:02x}" for t in validate_tags(tags))


def tags_from_hex(text: str) -> tuple[int, ...]:
    """Parse ``'00 74 65 ...'`` (spaces or commas) into a validated tag set."""
    parts = text.replace(",", " ").split()
    try:
        return validate_tags(int(p, 16) for p in parts)
    except ValueError as exc:
        raise ValueError(f"bad tag set {text!r}: {exc}") from None
