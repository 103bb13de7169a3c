"""What the server needs from a synthesizer, and the adapter that gives it ``onestep.TTS``.

The server only talks to :class:`SynthesisBackend`, so scheduling, encoding and the HTTP layer are
independent of how audio is made.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from onestep.errors import UserError
from onestep.frontend.warm_up import MIXED_WARM_UP_TEXT, warm_frontend
from onestep.server.admission import RequestCost
from onestep.work_limits import SECONDS_PER_PHONEME, NothingToSpeakError, TooMuchWorkError, planned_audio_s

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS
    from onestep.server.frontend_pool import FrontendProcesses

log = logging.getLogger("onestep.server")


class BackendInputError(UserError, ValueError):
    """The text (or an option) cannot be synthesized; reported to the client as a 400. Only user errors
    (:class:`onestep.errors.UserError`) become this; anything else is a server error (500)."""


@dataclass(frozen=True)
class VoiceInfo:
    """A voice as the server lists it.

    Attributes:
        name: voice id accepted in requests.
        language: a registry language code (``"zh"``, ``"en"``).
        sample_rate: Hz of the voice's audio.
        version: voice version string.
        placeholder: True for randomly initialized development voices (they produce noise).
        default: the voice is its language's default (``voice.json``'s ``default``).
    """

    name: str
    language: str
    sample_rate: int
    version: str = ""
    placeholder: bool = False
    default: bool = False
    gender: str = ""


@dataclass(frozen=True)
class SynthesisRequest:
    """One validated request.

    Attributes:
        text: input text (non-empty, within the server's limit).
        voice: a voice name from :meth:`SynthesisBackend.voices`, or ``None`` to pick by text language.
        speed: speaking rate multiplier within the engine's range (0.5-2.0).
        sample_rate: Hz of the delivered audio (:data:`onestep.runtime.output.SAMPLE_RATES`), None = the voice's.
        gain_db: volume change in dB (with clipping prevention).
        timestamps: collect word timings into :attr:`words` while the audio is produced (``"char"``: Chinese
            words split into characters).
        language: read the text in this registry language (``TTS.synthesize``'s ``language``); None: the voice's.
        words: filled by the backend when ``timestamps`` is set (``onestep.api.WordTiming``), in order; each
            word is appended at the latest when the chunk in which it starts is handed out.
        prepared: the request after the text frontend, when the server already ran it (admission costs a
            request by its phonemes); the backend then skips the frontend.
    """

    text: str
    voice: str | None = None
    speed: float = 1.0
    sample_rate: int | None = None
    gain_db: float = 0.0
    timestamps: bool | str = False
    language: str | None = None
    words: list[Any] = field(default_factory=list, compare=False, repr=False)
    prepared: PreparedRequest | None = field(default=None, compare=False, repr=False)

    def output_rate(self, native: int) -> int:
        """Hz of this request's audio when the voice's rate is ``native``."""
        return self.sample_rate or native


@dataclass(frozen=True)
class PreparedRequest:
    """A request after the text frontend: what the engine needs, no text processing left.

    Attributes:
        request: the request it came from.
        engine_key: requests with equal keys (same voice engine and speed) may share one engine call.
        utterances: phoneme ids per sentence (``[0, *ids, 0]`` each).
        skipped: characters of the text that cannot be spoken, with their counts.
        handle: the backend's own prepared form of the request (opaque to the scheduler).
    """

    request: SynthesisRequest
    engine_key: tuple[Any, ...]
    utterances: list[list[int]]
    handle: Any = field(default=None, compare=False, repr=False)
    skipped: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def cost(self) -> RequestCost:
        """Its size for admission: phoneme ids in all, and in the first utterance (pads excluded)."""
        sizes = [max(0, len(u) - 2) for u in self.utterances]
        if not sizes:  # SSML: the API counted its pieces and breaks (PreparedText.plan_phonemes)
            total, first = getattr(self.handle, "plan_phonemes", (0, 0))
            return RequestCost(int(total), int(first))
        return RequestCost(sum(sizes), sizes[0])

    @property
    def planned_audio_s(self) -> float:
        """Seconds of audio it will make (:func:`onestep.work_limits.planned_audio_s`): its phonemes after SSML
        expansion at its slowest speed (the request's, times an SSML part's ``prosody rate``, clamped as the
        engine does), plus its breaks."""
        speed = float(getattr(self.handle, "speed", None) or self.request.speed or 1.0)
        plan = getattr(self.handle, "plan", None)
        if not plan:
            return planned_audio_s(self.cost.phonemes, speed)
        from onestep.config import SPEED_MAX, SPEED_MIN
        from onestep.ssml import Pause

        pause_s = sum(p.seconds for p, _ in plan if isinstance(p, Pause))
        rates = [getattr(p, "rate", 1.0) for p, _ in plan if not isinstance(p, Pause)]
        slowest = min((min(max(speed * r, SPEED_MIN), SPEED_MAX) for r in rates), default=speed)
        phonemes = self.cost.phonemes - pause_s / SECONDS_PER_PHONEME  # plan_phonemes counts breaks as phonemes
        return planned_audio_s(phonemes, slowest, pause_s)


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

    def prepare(self, request: SynthesisRequest) -> PreparedRequest:
        """Run the text frontend for ``request`` (CPU work, any thread); :class:`BackendInputError` if unusable."""
        ...

    def synthesize_prepared(self, batch: Sequence[PreparedRequest]) -> list[np.ndarray]:
        """Engine only: the audio of each prepared request (float32 [n_i]), batched per ``engine_key``."""
        ...

    def warm_up(self) -> None:
        """Run the engine once per voice so that the first real request is not slowed by lazy setup."""
        ...


#: Mixed text, so that warm-up also loads both languages' frontends (any voice may get mixed input).
WARMUP_TEXT = MIXED_WARM_UP_TEXT


class TTSBackend:
    """:class:`SynthesisBackend` over one shared :class:`onestep.TTS` (its ONNX sessions are thread-safe).

    ``warmup_text`` is synthesized once per voice by :meth:`warm_up` (default: mixed Mandarin/English, so
    that both languages' frontends are loaded before the first request).
    """

    def __init__(
        self, tts: TTS, warmup_text: str = WARMUP_TEXT, frontend_pool: FrontendProcesses | None = None
    ) -> None:
        self._tts = tts
        self._warmup_text = warmup_text
        self._frontend_pool = frontend_pool

    @property
    def sample_rate(self) -> int:
        return int(self._tts.sample_rate)

    @property
    def warmup_text(self) -> str:
        """The text :meth:`warm_up` synthesizes."""
        return self._warmup_text

    def voices(self) -> list[VoiceInfo]:
        out = []
        genders = {e.name: e.gender for e in self._tts.catalog.entries.values()}
        for v in self._tts.voices():
            out.append(
                VoiceInfo(
                    name=v.name,
                    language=v.language,
                    sample_rate=int(v.audio.sample_rate),
                    version=v.version,
                    placeholder=bool(v.placeholder),
                    default=v.default,
                    gender=genders.get(v.name, ""),
                )
            )
        return out

    def stream(self, request: SynthesisRequest) -> Iterator[np.ndarray]:
        try:
            if request.prepared is not None:
                chunks = self._tts.stream_prepared(request.prepared.handle, timestamps=request.timestamps)
            else:
                chunks = self._tts.stream(
                    request.text, request.voice, request.speed, sample_rate=request.sample_rate,
                    gain_db=request.gain_db, timestamps=bool(request.timestamps),
                    characters=request.timestamps == "char", language=request.language,
                )  # fmt: skip
            for chunk in chunks:
                request.words.extend(chunk.words)
                yield np.asarray(chunk.samples, dtype=np.float32).reshape(-1)
        except UserError as e:  # the frontend/engine rejects the input (e.g. text too long, bad speed)
            raise BackendInputError(str(e)) from e

    def synthesize_batch(self, requests: Sequence[SynthesisRequest]) -> list[np.ndarray]:
        return self.synthesize_prepared([self.prepare(r) for r in requests])

    def prepare(self, request: SynthesisRequest) -> PreparedRequest:
        try:
            sentences = None if self._frontend_pool is None else self._frontend_pool.sentences
            prepared = self._tts.prepare(
                request.text, request.voice, request.speed, sentences=sentences,
                sample_rate=request.sample_rate, gain_db=request.gain_db, language=request.language,
            )  # fmt: skip
        except (TooMuchWorkError, NothingToSpeakError):
            raise  # the server answers these with their own status (413 / 422)
        except UserError as e:  # the frontend rejects the input, or a bad speed
            raise BackendInputError(str(e)) from e
        return PreparedRequest(request, prepared.batch_key, prepared.ids, prepared, dict(prepared.skipped))

    def synthesize_prepared(self, batch: Sequence[PreparedRequest]) -> list[np.ndarray]:
        try:
            kinds = {p.request.timestamps for p in batch}  # audio only unless asked (their cost)
            timestamps = "char" if "char" in kinds else any(kinds)
            audios = self._tts.render([p.handle for p in batch], timestamps=timestamps)
        except UserError as e:
            raise BackendInputError(str(e)) from e
        for p, audio in zip(batch, audios, strict=True):
            if p.request.timestamps:
                p.request.words[:] = audio.words
        return [np.asarray(a.samples, dtype=np.float32).reshape(-1) for a in audios]

    def warm_up(self) -> None:
        """Synthesize ``warmup_text`` with every voice (also through the batch path), wait until the TTS is
        ready (:meth:`onestep.TTS.wait_ready`: a GPU engine's smallest batch size captured; at once on the CPU),
        then load the frontend's lazily loaded parts (espeak-ng fallback); a failure of the latter is only
        logged."""
        for v in self.voices():
            self._tts.synthesize(self._warmup_text, voice=v.name)
            self.synthesize_batch([SynthesisRequest(self._warmup_text, v.name)] * 2)
        self._tts.wait_ready()  # /health says ok only once no call runs a GPU step eagerly
        warm_frontend(self._tts.frontend())
        if self._frontend_pool is not None:
            pids = self._frontend_pool.start()
            log.info("text frontend in %d worker process(es): %s", len(pids), ", ".join(map(str, pids)))

    def close(self) -> None:
        """Stop the frontend worker processes, if any."""
        if self._frontend_pool is not None:
            self._frontend_pool.shutdown()

