"""Admission by time: refuse a request at once when it could not start within a deadline.

A request's cost is estimated from its phoneme counts (known after the text frontend, before any engine
work): the engine seconds of its first chunk (``first_phonemes`` x :attr:`CostModel.first_s_per_phoneme`)
and its whole engine seconds (``phonemes`` x :attr:`CostModel.s_per_phoneme`). Both rates are learned from
the requests served (running means), seeded by :meth:`CostModel.calibrate` at warm-up.

The engine threads serve all streams chunk by chunk, earliest deadline first (see
:class:`onestep.server.scheduler.ThreadPoolScheduler`), so a new request's first chunk waits for the first
chunks of the requests admitted before it that have not started, on whatever capacity the playing streams
leave (each playing stream uses ``real-time factor`` of one thread). The estimated start delay is

    wait = (sum of waiting first-chunk costs + own first-chunk cost) / spare threads

times :attr:`CostModel.delay_scale`, the learned ratio of observed to estimated start delays (engine
times alone miss what else runs on the cores: the event loop, encoders, a load generator), and a request
whose ``wait`` exceeds the admission deadline (``ServerConfig.admission_deadline_ms``,
default 2 s) is answered 503 with ``Retry-After`` = the seconds until that backlog has drained enough.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

#: Spare capacity never counts as less than this share of the threads (new first chunks go before chunks
#: of playing streams that still have audio buffered, so some capacity is always theirs).
MIN_SPARE_SHARE = 0.25
#: Bounds of :attr:`CostModel.delay_scale`, and the least estimated delay that teaches it (seconds).
MIN_DELAY_SCALE, MAX_DELAY_SCALE = 0.5, 20.0
MIN_INFORMATIVE_DELAY_S = 0.05


@dataclass(frozen=True)
class RequestCost:
    """A request's size, from the text frontend.

    Attributes:
        phonemes: phoneme ids of the whole request.
        first_phonemes: phoneme ids of its first utterance (what its first chunk needs the acoustic model for).
    """

    phonemes: int
    first_phonemes: int


class CostModel:
    """Running estimates of engine time per phoneme (thread-safe; updated by the engine threads).

    Attributes:
        s_per_phoneme: engine seconds per phoneme of a whole request (one thread).
        first_s_per_phoneme: engine seconds of a first chunk per phoneme of the first utterance.
        rtf: engine seconds per second of audio (a playing stream's share of one thread).
        delay_scale: observed / estimated start delay of the requests admitted (a running mean that rises
            fast and falls slowly, so it tracks the slow ones; 0.5-20).
    """

    def __init__(self, s_per_phoneme: float = 0.004, first_s_per_phoneme: float = 0.003, rtf: float = 0.3) -> None:
        self.s_per_phoneme = s_per_phoneme
        self.first_s_per_phoneme = first_s_per_phoneme
        self.rtf = rtf
        self.delay_scale = 1.0
        self._lock = threading.Lock()

    def first_chunk_s(self, cost: RequestCost | None) -> float:
        """Estimated engine seconds before ``cost``'s first chunk (unknown cost: a 40-phoneme sentence)."""
        phonemes = 40 if cost is None else max(1, cost.first_phonemes)
        return phonemes * self.first_s_per_phoneme

    def total_s(self, cost: RequestCost | None) -> float:
        """Estimated engine seconds of the whole request."""
        phonemes = 40 if cost is None else max(1, cost.phonemes)
        return phonemes * self.s_per_phoneme

    def observe_first(self, cost: RequestCost | None, seconds: float) -> None:
        """Fold a measured first chunk in."""
        if cost is None or cost.first_phonemes <= 0:
            return
        with self._lock:
            self.first_s_per_phoneme = _mean(self.first_s_per_phoneme, seconds / cost.first_phonemes)

    def observe_done(self, cost: RequestCost | None, engine_s: float, audio_s: float) -> None:
        """Fold a finished request in (engine seconds and seconds of audio produced)."""
        with self._lock:
            if cost is not None and cost.phonemes > 0:
                self.s_per_phoneme = _mean(self.s_per_phoneme, engine_s / cost.phonemes)
            if audio_s > 0.5:
                self.rtf = _mean(self.rtf, engine_s / audio_s)

    def observe_start(self, estimated_s: float, observed_s: float) -> None:
        """Fold in how long a request really waited for its first chunk against what was estimated at its
        admission (only requests that had to wait teach the scale: an idle server says nothing of a busy one)."""
        if estimated_s < MIN_INFORMATIVE_DELAY_S:
            return
        with self._lock:
            ratio = min(MAX_DELAY_SCALE, max(MIN_DELAY_SCALE, observed_s / estimated_s))
            # up fast, down slowly: the scale follows the slow tail (the deadline is a promise for p99, not p50)
            self.delay_scale = _mean(self.delay_scale, ratio, 0.3 if ratio > self.delay_scale else 0.03)

    def calibrate(self, cost: RequestCost, first_s: float, total_s: float, audio_s: float) -> None:
        """Replace the seeds by one measured request (warm-up), so the first estimates fit this machine."""
        with self._lock:
            self.first_s_per_phoneme = first_s / max(1, cost.first_phonemes)
            self.s_per_phoneme = total_s / max(1, cost.phonemes)
            if audio_s > 0:
                self.rtf = total_s / audio_s


def _mean(old: float, new: float, weight: float = 0.1) -> float:
    return (1 - weight) * old + weight * new


def start_delay_s(
    waiting_first_s: float, own_first_s: float, threads: int, playing: int, rtf: float, waiting: int = 0,
    deadline_s: float = 0.0,
) -> float:
    """Seconds until a new request's first chunk is out: the first chunks ahead of it and its own, on the
    threads the ``playing`` streams leave (each needs ``rtf`` of a thread).

    Every admitted stream is produced at (at least) real time, so the streams admitted, this one included,
    need ``(playing + waiting + 1) x rtf`` threads; past ``threads`` the machine would fall behind all of
    them and chunks already late go first, so the delay is then at least ``deadline_s`` scaled by the
    overload (a refusal, with a ``Retry-After`` that grows with it).
    """
    spare = max(threads - playing * rtf, threads * MIN_SPARE_SHARE)
    delay = (waiting_first_s + own_first_s) / spare
    load = (playing + waiting + 1) * rtf
    if load > threads:
        delay = max(delay, deadline_s * load / threads)
    return delay


def retry_after_s(delay_s: float, deadline_s: float) -> int:
    """Whole seconds after which the backlog behind ``delay_s`` should have drained below ``deadline_s``
    (1-60)."""
    return int(min(60, max(1, math.ceil(delay_s - deadline_s))))
