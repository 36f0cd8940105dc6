"""Progress reports and cancellation for long core jobs, with no GUI in sight.

A long function takes ``progress``: a callable receiving a :class:`Progress`
and returning False to cancel, which makes the job raise :class:`Cancelled`
at its next safe point (the GUI adapts this callback to worker signals).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class Cancelled(Exception):
    """The user cancelled the job; whatever it committed so far is consistent."""


@dataclass(frozen=True)
class Progress:
    phase: str  # "walking", "reading", "saving", ...
    files_done: int = 0
    files_total: int | None = None  # None while unknown
    bytes_done: int = 0
    bytes_total: int | None = None
    elapsed: float = 0.0
    current: str = ""  # path being worked on, for display

    @property
    def rate(self) -> float:
        """Bytes per second so far."""
        return self.bytes_done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def fraction(self) -> float | None:
        if self.bytes_total:
            return min(1.0, self.bytes_done / self.bytes_total)
        if self.files_total:
            return min(1.0, self.files_done / self.files_total)
        return None

    @property
    def seconds_left(self) -> float | None:
        if not self.bytes_total or self.rate <= 0:
            return None
        return max(0.0, (self.bytes_total - self.bytes_done) / self.rate)


ProgressCallback = Callable[[Progress], "bool | None"]


def no_progress(_: Progress) -> bool:
    return True


def report(callback: ProgressCallback | None, progress: Progress) -> None:
    """Send ``progress``; raise Cancelled if the callback returns False."""
    if callback is not None and callback(progress) is False:
        raise Cancelled()
