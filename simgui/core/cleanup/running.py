"""Running a batch of journaled steps: one result per file, progress, cancellation.

Shared by :func:`simgui.core.cleanup.execution.execute` and
:func:`simgui.core.cleanup.undoing.undo`: every step's outcome is journaled, an
error becomes 'failed' (never success, never a crash of the batch), and a crash
leaves rows that :func:`simgui.core.cleanup.journal.recover` settles.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from simgui.core.cleanup import journal
from simgui.core.cleanup.actions import Outcome, Skip, why
from simgui.core.progress import Cancelled, Progress, ProgressCallback, report
from simgui.core.store import Store
from simgui.core.units import format_bytes

_PROGRESS_EVERY_SECONDS = 0.1


# -- results --------------------------------------------------------------------


@dataclass(frozen=True)
class FileResult:
    path: str
    status: str  # done, skipped, failed
    message: str = ""
    target: str | None = None  # where it went (move, trash, restore), when known
    size: int = 0


@dataclass
class BatchResult:
    batch_id: int
    action: str
    results: list[FileResult] = field(default_factory=list)
    cancelled: bool = False

    def _with(self, status: str) -> list[FileResult]:
        return [r for r in self.results if r.status == status]

    @property
    def done(self) -> list[FileResult]:
        return self._with("done")

    @property
    def skipped(self) -> list[FileResult]:
        return self._with("skipped")

    @property
    def failed(self) -> list[FileResult]:
        return self._with("failed")

    @property
    def bytes_done(self) -> int:
        return sum(r.size for r in self.done)

    def describe(self) -> str:
        head = (f"Batch {self.batch_id} ({self.action}): {len(self.done):,} done "
                f"({format_bytes(self.bytes_done)}), {len(self.skipped):,} skipped, "
                f"{len(self.failed):,} failed" + (", cancelled" if self.cancelled else "") + ".")
        lines = [head]
        for r in self.results:
            if r.status != "done":
                lines.append(f"  {r.status}: {r.path}: {r.message}")
        return "\n".join(lines)


def run_batch(store: Store, batch_id: int, action: str,
              steps: Sequence[tuple[int, str, int, Callable[[], Outcome]]],
              progress: ProgressCallback | None) -> BatchResult:
    """Run journaled steps (seq, path, size, do) in order; shared by execute and undo."""
    result = BatchResult(batch_id, action)
    recorder = journal.Recorder(store, batch_id)
    total_bytes = sum(size for _, _, size, _ in steps)
    started = last = time.monotonic()
    done_bytes = 0
    journal.LIVE_BATCHES.add(batch_id)
    try:
        try:
            for index, (seq, path, size, do) in enumerate(steps):
                now = time.monotonic()
                if now - last >= _PROGRESS_EVERY_SECONDS:
                    last = now
                    report(progress, Progress(action, index, len(steps), done_bytes,
                                              total_bytes, now - started, path))
                outcome = _guarded(do)
                result.results.append(FileResult(path, outcome.state, outcome.message,
                                                 outcome.target, size))
                recorder.add(seq, outcome)
                done_bytes += size
        except Cancelled:
            result.cancelled = True
            for seq, path, size, _ in steps[len(result.results):]:
                outcome = Outcome("skipped", "cancelled before this file")
                result.results.append(FileResult(path, "skipped", outcome.message, None, size))
                recorder.add(seq, outcome)
        recorder.finish("cancelled" if result.cancelled else "completed")
    except BaseException as exc:
        recorder.flush_quietly()  # a crash: keep what is known, recover() does the rest
        if isinstance(exc, KeyboardInterrupt):
            # Ctrl-C, maybe in the middle of a file: the file system tells what happened
            # to it, so that a move completed as the signal came is journaled as done
            journal.LIVE_BATCHES.discard(batch_id)
            _settle_quietly(store, batch_id)
        raise
    finally:
        journal.LIVE_BATCHES.discard(batch_id)
    if progress is not None:  # the end: too late to cancel
        progress(Progress(action, len(steps), len(steps), done_bytes, total_bytes,
                          time.monotonic() - started))
    return result


def _settle_quietly(store: Store, batch_id: int) -> None:
    try:
        journal.settle(store, batch_id)
    except Exception:
        pass  # the rows stay 'planned': recover() will find out


def _guarded(do: Callable[[], Outcome]) -> Outcome:
    """Run one step; an error becomes 'failed', never success, never a crash of the batch."""
    try:
        return do()
    except Skip as exc:
        return Outcome("skipped", str(exc))
    except OSError as exc:
        return Outcome("failed", why(exc))
    except Exception as exc:  # a bug must not stop the batch or pass as success
        return Outcome("failed", f"{type(exc).__name__}: {exc}")
