"""What every synthesis engine offers, and the small value types that cross its boundary.

An engine owns one voice's three graphs and turns phoneme ids (``[0, *ids, 0]``) into float32 PCM. The ONNX
Runtime engine (:mod:`onestep.runtime.ort_engine`) and the CUDA-graph engine
(:mod:`onestep.runtime.cuda_engine`) both satisfy :class:`Engine`; the API, the server and the benchmarks
only talk to this protocol.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

from onestep.config import ConfigError, VoiceConfig
from onestep.runtime.buckets import bucket_for

Timings = dict[str, float]
"""Seconds spent per stage (``acoustic``, ``regulate``, ``decoder``, ``vocoder``), accumulated by engines."""


@dataclass(frozen=True)
class StreamSettings:
    """How streamed audio is cut (in mel frames; one frame = ``hop_length`` samples, 12.5 ms at 24 kHz).

    Attributes:
        first_chunk_frames: frames of the first chunk (small: it sets the time to first audio).
        chunk_frames: frames of every later chunk.
    """

    first_chunk_frames: int = 32
    chunk_frames: int = 128

    def __post_init__(self) -> None:
        if self.first_chunk_frames < 1 or self.chunk_frames < 1:
            raise ConfigError(
                f"stream chunk sizes must be >= 1 frame, got {self.first_chunk_frames}, {self.chunk_frames}"
            )


@dataclass(frozen=True)
class SynthesisResult:
    """One utterance's audio.

    Attributes:
        audio: float32 [frames_per_id.sum() * hop], mono PCM in [-1, 1].
        frames_per_id: int64 [T], frames given to each input id (T = number of ids, boundary pads included).
    """

    audio: np.ndarray
    frames_per_id: np.ndarray


class Streamed(NamedTuple):
    """A streamed utterance: its durations (known before any audio) and the audio chunks.

    Attributes:
        frames_per_id: int64 [T], as in :class:`SynthesisResult`.
        chunks: float32 sample arrays whose concatenation is the utterance's audio.
    """

    frames_per_id: np.ndarray
    chunks: Iterator[np.ndarray]


class Engine(Protocol):
    """A loaded voice that synthesizes phoneme ids.

    Attributes:
        config: the voice's ``voice.json``.
        sample_rate: Hz of the produced audio.
        load_seconds: wall time of loading the graphs; ``warmup_seconds``: of warming every bucket.
    """

    config: VoiceConfig
    load_seconds: float
    warmup_seconds: float

    @property
    def sample_rate(self) -> int: ...

    def synthesize(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> SynthesisResult:
        """One utterance of ids (boundary pads included) -> audio."""
        ...

    def synthesize_batch(
        self, batch: Sequence[Sequence[int]], speed: float = 1.0, timings: Timings | None = None
    ) -> list[SynthesisResult]:
        """Several utterances in one batched pass (the server's micro-batching); results in input order."""
        ...

    def stream(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> Streamed:
        """Like :meth:`synthesize` but the audio comes in chunks, the first one small."""
        ...


def decoder_context(config: VoiceConfig) -> int | None:
    """Receptive radius of the voice's decoder in frames, or None when ``voice.json`` does not say.

    Read from ``model`` (the ``ModelConfig`` written by ``onestep export``): the decoder is a 1x1 input
    projection and ``decoder_blocks`` depthwise convolutions of ``decoder_kernel`` frames.
    """
    cfg = config.model
    if cfg is None:
        return None
    return cfg.decoder_blocks * (cfg.decoder_kernel // 2)


def add_time(timings: Timings | None, stage: str, seconds: float) -> None:
    """Accumulate ``seconds`` under ``stage`` when the caller asked for timings."""
    if timings is not None:
        timings[stage] = timings.get(stage, 0.0) + seconds


def frame_bucket(n_frames: int, buckets: Sequence[int]) -> int:
    """Frames the decoder runs at for ``n_frames`` real frames.

    The smallest frame bucket that holds them; beyond the largest bucket (a rare, very long or slow sentence),
    the next multiple of the largest, a size the engines handle off their warmed path.
    """
    largest = buckets[-1]
    if n_frames <= largest:
        return bucket_for(max(n_frames, 1), buckets)
    return -(-n_frames // largest) * largest


def engine_ready(engine: object) -> bool:
    """Whether ``engine`` is ready: an engine with a ``ready`` event (the GPU engine, which captures its CUDA
    graphs in the background after loading, serves eagerly meanwhile and is ready once its smallest batch
    size's graphs are captured) once it is set; any other engine at once."""
    ready = getattr(engine, "ready", None)
    return ready is None or ready.is_set()


def engine_fully_captured(engine: object) -> bool:
    """Whether ``engine`` has nothing left to capture: an engine with a ``fully_captured`` event (the GPU
    engine, once every batch size's CUDA graphs are captured) once it is set; any other engine at once."""
    captured = getattr(engine, "fully_captured", None)
    return captured is None or captured.is_set()
