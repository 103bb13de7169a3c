"""What the server needs from a synthesizer, and the adapter that gives it ``onestep.TTS``.

The server only talks to :class:`SynthesisBackend`, so scheduling, encoding and the HTTP layer are
independent of how audio is made.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS


class BackendInputError(ValueError):
    """The text (or an option) cannot be synthesized; reported to the client as a 400."""


@dataclass(frozen=True)
class VoiceInfo:
    """A voice as the server lists it.

    Attributes:
        name: voice id accepted in requests.
        language: ``"zh"`` or ``"en"``.
        sample_rate: Hz of the voice's audio.
        version: voice version string.
        placeholder: True for randomly initialized development voices (they produce noise).
    """

    name: str
    language: str
    sample_rate: int
    version: str = ""
    placeholder: bool = False


@dataclass(frozen=True)
class SynthesisRequest:
    """One validated request.

    Attributes:
        text: input text (non-empty, within the server's limit).
        voice: a voice name from :meth:`SynthesisBackend.voices`, or ``None`` to pick by text language.
        speed: speaking rate multiplier within the engine's range (0.5-2.0).
    """

    text: str
    voice: str | None = None
    speed: float = 1.0


class SynthesisBackend(Protocol):
    """A synthesizer usable from several threads at once."""

    @property
    def sample_rate(self) -> int:
        """Hz of every chunk produced."""
        ...

    def voices(self) -> list[VoiceInfo]:
        """The voices that requests may name."""
        ...

    def stream(self, request: SynthesisRequest) -> Iterator[np.ndarray]:
        """Yield float32 mono chunks [n] in [-1, 1], in order, as they are produced."""
        ...

    def synthesize_batch(self, requests: Sequence[SynthesisRequest]) -> list[np.ndarray]:
        """Synthesize several requests in one engine call; float32 [n_i] per request, same order."""
        ...

    def warm_up(self) -> None:
        """Run the engine once per voice so that the first real request is not slowed by lazy setup."""
        ...


#: Mixed text, so that warm-up also loads both languages' frontends (any voice may get mixed input).
WARMUP_TEXT = "你好, hello."


class TTSBackend:
    """:class:`SynthesisBackend` over one shared :class:`onestep.TTS` (its ONNX sessions are thread-safe).

    ``warmup_text`` is synthesized once per voice by :meth:`warm_up` (default: mixed Mandarin/English, so
    that both languages' frontends are loaded before the first request).
    """

    def __init__(self, tts: TTS, warmup_text: str = WARMUP_TEXT) -> None:
        self._tts = tts
        self._warmup_text = warmup_text

    @property
    def sample_rate(self) -> int:
        return int(self._tts.sample_rate)

    def voices(self) -> list[VoiceInfo]:
        out = []
        for v in self._tts.voices():
            out.append(
                VoiceInfo(
                    name=v.name,
                    language=v.language,
                    sample_rate=int(v.audio.sample_rate),
                    version=v.version,
                    placeholder=bool(v.placeholder),
                )
            )
        return out

    def stream(self, request: SynthesisRequest) -> Iterator[np.ndarray]:
        try:
            for chunk in self._tts.stream(request.text, voice=request.voice, speed=request.speed):
                yield np.asarray(chunk.samples, dtype=np.float32).reshape(-1)
        except ValueError as e:  # the frontend/engine rejects the input (e.g. nothing speakable)
            raise BackendInputError(str(e)) from e

    def synthesize_batch(self, requests: Sequence[SynthesisRequest]) -> list[np.ndarray]:
        try:
            audios = self._tts.synthesize_batch(
                [r.text for r in requests], voices=[r.voice for r in requests], speeds=[r.speed for r in requests]
            )
        except ValueError as e:
            raise BackendInputError(str(e)) from e
        return [np.asarray(a.samples, dtype=np.float32).reshape(-1) for a in audios]

    def warm_up(self) -> None:
        for v in self.voices():
            self._tts.synthesize(self._warmup_text, voice=v.name)
