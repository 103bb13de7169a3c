"""Progress of a batch job: a progress bar on a terminal, a throughput / ETA line either way."""

from __future__ import annotations

import sys
import time
from typing import IO, Any

#: Seconds between two plain progress lines when the output is not a terminal.
PLAIN_EVERY_S = 10.0


class JobProgress:
    """Counts finished rows and the audio they produced; shows a bar (terminal) or periodic lines (log).

    Args:
        total: rows this run will process (skipped rows excluded).
        skipped: rows already done by an earlier run.
        stream: where to report (default stderr); ``enabled=False`` reports nothing.
    """

    def __init__(self, total: int, skipped: int = 0, stream: IO[str] | None = None, enabled: bool = True) -> None:
        self.total = total
        self.skipped = skipped
        self.done = 0
        self.errors = 0
        self.audio_s = 0.0
        self.started = time.perf_counter()
        self._stream = stream or sys.stderr
        self._enabled = enabled
        self._last_plain = self.started
        self._bar: Any = None
        self._first: tuple[float, int, float] | None = None  # (when, rows, audio s) of the first rows back
        self._last = self.started
        if enabled and self._stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("synthesizing"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=Console(file=self._stream),
            )
            self._task = self._bar.add_task("rows", total=total, rate="")
            self._bar.start()

    @property
    def elapsed_s(self) -> float:
        return time.perf_counter() - self.started

    def advance(self, entries: list[dict[str, Any]]) -> None:
        """Count the manifest ``entries`` of rows just finished."""
        if self._first is None:  # the first rows back: the workers are up
            self._first = (time.perf_counter(), len(entries), sum(float(e.get("duration_s") or 0) for e in entries))
        self._last = time.perf_counter()
        self.done += len(entries)
        self.errors += sum(1 for e in entries if e.get("error"))
        self.audio_s += sum(float(e.get("duration_s") or 0.0) for e in entries)
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, rate=self._rates())
        elif self._enabled and time.perf_counter() - self._last_plain >= PLAIN_EVERY_S and self.done < self.total:
            self._last_plain = time.perf_counter()
            print(self.line(), file=self._stream, flush=True)

    def _rates(self) -> str:
        t = max(self.elapsed_s, 1e-9)
        return f"{self.done / t:.1f} texts/s, {self.audio_s / t:.1f}x real time"

    def line(self) -> str:
        """``done/total rows (errors), texts/s, audio hours per hour, ETA``."""
        t = max(self.elapsed_s, 1e-9)
        rate = self.done / t
        left = self.total - self.done
        eta = f"ETA {_hms(left / rate)}" if rate > 0 and left > 0 else ("done" if left <= 0 else "ETA ?")
        skipped = f", {self.skipped} skipped (done before)" if self.skipped else ""
        return (
            f"{self.done}/{self.total} rows ({self.errors} errors{skipped}) in {_hms(t)}: "
            f"{rate:.2f} texts/s, {self.audio_s / t:.2f} audio-hours per hour, {eta}"
        )

    def summary(self) -> dict[str, Any]:
        """Counts and rates over the whole run (``texts_per_s``, start-up included) and from the first
        finished rows to the last (``steady_texts_per_s``: the workers' rate once loaded)."""
        t = self.elapsed_s
        steady: dict[str, Any] = {"startup_s": None, "steady_texts_per_s": None, "steady_audio_hours_per_hour": None}
        if self._first is not None and self.done > self._first[1]:  # rows came back after the first ones
            span = self._last - self._first[0]
            steady = {
                "startup_s": round(self._first[0] - self.started, 3),
                "steady_texts_per_s": round((self.done - self._first[1]) / span, 3),
                "steady_audio_hours_per_hour": round((self.audio_s - self._first[2]) / span, 3),
            }
        return steady | {
            "rows": self.done,
            "errors": self.errors,
            "skipped": self.skipped,
            "audio_s": round(self.audio_s, 3),
            "wall_s": round(t, 3),
            "texts_per_s": round(self.done / t, 3) if t > 0 else None,
            "audio_hours_per_hour": round(self.audio_s / t, 3) if t > 0 else None,
        }

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
        if self._enabled:
            print(self.line(), file=self._stream, flush=True)


def _hms(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
