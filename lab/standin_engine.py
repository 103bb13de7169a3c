"""A stand-in engine for measuring the host work around synthesis on a CPU (issue 22).

It has a real voice's config and speaker table (so the frontend, bucketing and voice resolution are the real
ones) but answers ``synthesize_batch`` at once: frames per id from a fixed rule (7 frames a phoneme, 3 per
boundary pad, 16 after punctuation: ~85 ms a phoneme, as the shipped voices speak) and audio that is noise
(RMS ~0.1) whose pause frames are quiet (so the word ends are measured as on real speech). Like the GPU
engine it copies a batch's audio into ONE new array (results are views of it): the page faults of that copy are
the engine thread's cost there too.

    tts = TTS(voices_dir=...)
    use_standin(tts)        # every engine TTS loads from now on is a stand-in
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from onestep.frontend.symbols import PUNCTUATION, vocab
from onestep.runtime.engine import SynthesisResult

_NOISE = np.random.default_rng(0).normal(0, 0.1, 24000 * 120).astype(np.float32)  # 120 s at 24 kHz
_PUNCT_IDS = {i + 1 for i, c in enumerate(vocab()) if c in PUNCTUATION}


class StandinEngine:
    """An engine with ``real``'s config (and speakers) whose passes cost nothing but one copy."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.config = real.config
        self.load_seconds = 0.0
        self.warmup_seconds = 0.0
        self.speakers = getattr(real, "speakers", None)
        self.hop = real.config.audio.hop_length

    @property
    def sample_rate(self) -> int:
        return int(self.real.sample_rate)

    def frames(self, ids: Sequence[int]) -> np.ndarray:
        """int64 [len(ids)]: 3 for the pads, 16 for punctuation, 7 for any other id."""
        a = np.asarray(ids, dtype=np.int64)
        counts = np.full(a.size, 7, dtype=np.int64)
        counts[np.isin(a, list(_PUNCT_IDS))] = 16
        counts[[0, -1]] = 3
        return counts

    def synthesize_batch(
        self, batch: Sequence[Sequence[int]], speed: float = 1.0, timings: object = None, speaker: object = None
    ) -> list[SynthesisResult]:
        counts = [self.frames(ids) for ids in batch]
        sizes = [int(c.sum()) * self.hop for c in counts]
        out = np.empty(sum(sizes), dtype=np.float32)  # one new array per pass, as the GPU engine's copy
        results, at = [], 0
        for ids, c, n in zip(batch, counts, sizes, strict=True):
            audio = out[at : at + n]
            audio[:] = _NOISE[:n]
            quiet = np.isin(np.asarray(ids), list(_PUNCT_IDS))
            quiet[-1] = True  # a pause (and the closing pad) sounds quiet
            audio.reshape(-1, self.hop)[np.repeat(quiet, c)] *= 1e-3
            results.append(SynthesisResult(audio, c))
            at += n
        return results

    def synthesize(self, ids: Sequence[int], speed: float = 1.0, timings: object = None, speaker: object = None) -> SynthesisResult:
        return self.synthesize_batch([ids], speed, timings, speaker)[0]


def use_standin(tts: Any) -> None:
    """From now on ``tts`` loads stand-in engines (already loaded ones are replaced)."""
    resources = tts._resources
    kind = resources.engine_kind

    class _Kind:
        name, device, batches = "standin", "cpu", True

        def load(self, voice_dir: Any, threads: int | None = None, stream: Any = None) -> StandinEngine:
            return StandinEngine(kind.load(voice_dir, 1, stream))

    resources.engine_kind = _Kind()
    resources._engines = {p: StandinEngine(e) for p, e in resources._engines.items()}
    resources._speaker_engines = {}
