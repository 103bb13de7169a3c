"""Voices inside a multi-speaker model: the speaker table, blends of its rows, and one voice as an engine.

A multi-speaker model (``voice.json`` with ``speakers``; docs/ARCHITECTURE.md) is one set of graphs for many
voices: its acoustic and decoder graphs take a speaker vector (B, S) float32, and ``speakers.npy`` holds the
trained voices' vectors (n_speakers, S). A voice is a row; a blend of voices is a weighted sum of rows
(weights normalized to 1), computed once when the voice is resolved, so a blend costs nothing per request.

:class:`SpeakerEngine` presents one voice (or blend) of a loaded multi-speaker engine through the ordinary
:class:`~onestep.runtime.engine.Engine` protocol, so the API, the server and the benchmarks hold "an engine per
voice" as before while every voice of a model shares one engine (one set of sessions or CUDA graphs).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from onestep.config import ConfigError, VoiceConfig
from onestep.runtime.engine import Streamed, SynthesisResult, Timings

SpeakerMix = tuple[tuple[int, float], ...]
"""Rows of a speaker table and their weights (summing to 1): ``((3, 0.7), (5, 0.3))``."""


def load_speaker_table(voice_dir: str | Path, config: VoiceConfig) -> np.ndarray | None:
    """The speaker table float32 (n_speakers, S) of a multi-speaker voice directory; None for a single-speaker
    voice. Raises ConfigError when the file is missing or its shape disagrees with ``voice.json``."""
    if not config.multi_speaker:
        return None
    path = Path(voice_dir) / config.files["speakers"]
    try:
        table = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise ConfigError(f"voice {config.name}: cannot read the speaker table {path}: {e}") from e
    model = config.model
    expected = (len(config.speakers), model.speaker_dim if model is not None else table.shape[-1])
    if table.shape != expected or not np.all(np.isfinite(table)):
        raise ConfigError(f"voice {config.name}: {path} has shape {table.shape}, expected {expected} (finite)")
    return np.ascontiguousarray(table, dtype=np.float32)


def default_speaker(config: VoiceConfig) -> int:
    """Row of the speaker a multi-speaker model speaks with when none is named: the first marked default in
    the model's own language, else the first marked default, else row 0."""
    marked = [i for i, s in enumerate(config.speakers) if s.default]
    own = [i for i in marked if config.speakers[i].language == config.language]
    return (own or marked or [0])[0]


def batch_speakers(
    table: np.ndarray | None, config: VoiceConfig, speaker: np.ndarray | None, batch: int
) -> np.ndarray | None:
    """The graphs' ``speaker`` input float32 [B,S] for a batch of ``batch`` utterances: ``speaker`` (S,) for
    all or [B,S] one each; for a multi-speaker voice called without one, its default voice's vector. None
    for a single-speaker voice (``table`` None), which refuses a speaker."""
    if table is None:
        if speaker is not None:
            raise ValueError(f"voice {config.name} has one speaker: it takes no speaker vector")
        return None
    if speaker is None:
        speaker = table[default_speaker(config)]
    dim = table.shape[1]
    rows = np.asarray(speaker, dtype=np.float32)
    if rows.shape not in ((dim,), (batch, dim)):
        raise ValueError(f"speaker vectors must be ({dim},) or ({batch}, {dim}), got {rows.shape}")
    return np.ascontiguousarray(np.broadcast_to(rows, (batch, dim)))


def mix_vector(table: np.ndarray, mix: SpeakerMix) -> np.ndarray:
    """The speaker vector (S,) float32 of a mix: sum of weight x row."""
    vector = np.zeros(table.shape[1], dtype=np.float64)
    for row, weight in mix:
        vector += weight * table[row].astype(np.float64)
    return vector.astype(np.float32)


def with_speaker(feeds: dict[str, np.ndarray], speaker: np.ndarray | None) -> dict[str, np.ndarray]:
    """A graph's feeds plus its ``speaker`` input when the voice has one."""
    if speaker is not None:
        feeds["speaker"] = speaker
    return feeds


class MultiSpeakerEngine(Protocol):
    """An engine whose synthesis methods take a ``speaker`` vector (both engines of this package do)."""

    config: VoiceConfig
    speakers: np.ndarray | None
    load_seconds: float
    warmup_seconds: float

    @property
    def sample_rate(self) -> int: ...

    def synthesize(
        self, ids: Sequence[int], speed: float = ..., timings: Timings | None = ..., speaker: np.ndarray | None = ...
    ) -> SynthesisResult: ...

    def synthesize_batch(
        self,
        batch: Sequence[Sequence[int]],
        speed: float = ...,
        timings: Timings | None = ...,
        speaker: np.ndarray | None = ...,
    ) -> list[SynthesisResult]: ...

    def stream(
        self, ids: Sequence[int], speed: float = ..., timings: Timings | None = ..., speaker: np.ndarray | None = ...
    ) -> Streamed: ...


class SpeakerEngine:
    """One voice (or blend) of a multi-speaker engine, as an :class:`~onestep.runtime.engine.Engine`.

    Args:
        engine: the loaded multi-speaker engine (shared by every voice of its model).
        mix: the voice's rows and weights.
        name: the voice's name (a blend's canonical string).

    Attributes:
        vector: the speaker vector (S,) float32 every call passes.
    """

    def __init__(self, engine: MultiSpeakerEngine, mix: SpeakerMix, name: str) -> None:
        if engine.speakers is None:
            raise ConfigError(f"voice {engine.config.name} is not a multi-speaker model")
        self.engine = engine
        self.mix = mix
        self.name = name
        self.vector = mix_vector(engine.speakers, mix)
        self.config = engine.config
        self.load_seconds = engine.load_seconds
        self.warmup_seconds = engine.warmup_seconds

    @property
    def sample_rate(self) -> int:
        return self.engine.sample_rate

    def synthesize(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> SynthesisResult:
        return self.engine.synthesize(ids, speed, timings, speaker=self.vector)

    def synthesize_batch(
        self, batch: Sequence[Sequence[int]], speed: float = 1.0, timings: Timings | None = None
    ) -> list[SynthesisResult]:
        return self.engine.synthesize_batch(batch, speed, timings, speaker=self.vector)

    def stream(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> Streamed:
        return self.engine.stream(ids, speed, timings, speaker=self.vector)

    def __getattr__(self, name: str) -> Any:
        """Everything else (stream settings, engine-specific attributes) is the shared engine's."""
        return getattr(self.engine, name)

