"""What the server needs from a synthesizer, and the adapter that gives it ``onestep.TTS``.

The server only talks to :class:`SynthesisBackend`, so scheduling, encoding and the HTTP layer are
independent of how audio is made.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from onestep.errors import UserError
from onestep.frontend.warm_up import MIXED_WARM_UP_TEXT, warm_frontend
from onestep.runtime.output import OutputOptions
from onestep.server.admission import RequestCost
from onestep.work_limits import SECONDS_PER_PHONEME, NothingToSpeakError, TooMuchWorkError, planned_audio_s

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS
    from onestep.frontend.tokens import Utterance
    from onestep.runtime.host_pool import HostPool
    from onestep.server.host_work import RemoteKey

log = logging.getLogger("onestep.server")

#: Where a request's host work ran (:attr:`PreparedRequest.frontend_in`, the ``onestep_host_work_total`` metric).
SERVER, WORKER = "server_process", "worker_process"


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
        encoding: the format the route sends the whole audio in (``"pcm"``, ``"wav"``, ...), or None; a backend
            that finishes requests in worker processes encodes the file there and puts its bytes in
            :attr:`encoded` (others leave it empty and the route encodes).
        encoded: filled by such a backend: the whole file's bytes, once.
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
    encoding: str | None = None
    encoded: list[bytes] = field(default_factory=list, compare=False, repr=False)

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
        remote: where a worker process keeps what the frontend left for the finishing, which then runs there
            (None: the finishing runs in the server process).
        frontend_s: seconds the frontend pass took (measured by the server where it ran it before admission).
        frontend_in: where the frontend pass ran: ``"server_process"`` or ``"worker_process"``.
    """

    request: SynthesisRequest
    engine_key: tuple[Any, ...]
    utterances: list[list[int]]
    handle: Any = field(default=None, compare=False, repr=False)
    skipped: dict[str, int] = field(default_factory=dict, compare=False)
    remote: RemoteKey | None = field(default=None, compare=False, repr=False)
    frontend_s: float = field(default=0.0, compare=False)
    frontend_in: str = field(default="server_process", compare=False)

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


class PendingAudio(Protocol):
    """A request's audio whose engine pass is done and whose finishing runs elsewhere (a worker process)."""

    @property
    def group(self) -> Any:
        """A ``concurrent.futures.Future`` done when this audio (and the others sent with it) is finished."""
        ...

    def result(self) -> np.ndarray:
        """The finished audio (float32 [n]); raises the error that stopped it."""
        ...


class BatchAudio(list):  # type: ignore[type-arg]
    """What :meth:`SynthesisBackend.synthesize_prepared` may return: per request its audio (float32 [n]), its
    exception, or a :class:`PendingAudio`; with :attr:`engine_done_at`, the ``perf_counter`` time its engine pass
    ended (the rest of the call was the finishing work: timings, assembly, output stage)."""

    engine_done_at: float | None = None


def resolve(item: Any) -> np.ndarray:
    """An item of :meth:`SynthesisBackend.synthesize_prepared`'s answer as audio: waits for a
    :class:`PendingAudio`, raises an exception."""
    if isinstance(item, BaseException):
        raise item
    return item if isinstance(item, np.ndarray) else item.result()


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

    def synthesize_prepared(self, batch: Sequence[PreparedRequest]) -> list[Any]:
        """Engine only: the audio of each prepared request (float32 [n_i]), batched per ``engine_key``; a backend
        may answer an item with its exception or a :class:`PendingAudio`, and the list may be a
        :class:`BatchAudio`."""
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
        self, tts: TTS, warmup_text: str = WARMUP_TEXT, host_pool: HostPool | None = None, *, finish_remote: bool = True
    ) -> None:
        self._tts = tts
        self._warmup_text = warmup_text
        self._host = None
        if host_pool is not None:
            from onestep.server.host_work import HostWork

            self._host = HostWork(tts, host_pool)
        #: with a host pool: whole requests (micro-batching) are prepared AND finished in its workers; else only
        #: the frontend runs there (the streaming scheduler makes chunks on its own threads)
        self.finish_remote = finish_remote and self._host is not None

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
            if request.prepared is not None and request.prepared.frontend_in == WORKER and self.finish_remote:
                # prepared for the batch path (its utterances stayed in a worker): stream the text here instead
                self.discard(request.prepared)
                request = replace(request, prepared=None)
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
        return [resolve(a) for a in self.synthesize_prepared([self.prepare(r) for r in requests])]

    def prepare_future(self, request: SynthesisRequest) -> Future[PreparedRequest] | None:
        """With the finishing in worker processes: ``request``'s frontend pass in one of them, as a future that
        the worker's answer completes (no thread of this process waits for it; ``frontend_s`` is the time to
        that answer); None where the frontend runs on the caller's thread (call :meth:`prepare`): no worker
        processes, the streaming scheduler, SSML. Raises (now, or through the future) what :meth:`prepare` does."""
        if not self.finish_remote or _is_ssml(request.text):  # SSML: planned and rendered here
            return None
        assert self._host is not None
        started = time.perf_counter()
        try:
            pending = self._host.prepare_future(
                request.text, request.voice, request.speed, OutputOptions(request.sample_rate, request.gain_db),
                request.timestamps, request.language, request.encoding,
            )  # fmt: skip
        except Exception as e:
            if (error := _backend_error(e)) is e:
                raise
            raise error from e
        out: Future[PreparedRequest] = Future()

        def answered(f: Future[Any]) -> None:
            try:
                handle, place = f.result()
            except Exception as e:
                out.set_exception(_backend_error(e))
                return
            out.set_result(PreparedRequest(request, handle.batch_key, handle.ids, handle, dict(handle.skipped), place,
                                           time.perf_counter() - started, WORKER))  # fmt: skip

        pending.add_done_callback(answered)
        return out

    def prepare(self, request: SynthesisRequest) -> PreparedRequest:
        if (pending := self.prepare_future(request)) is not None:
            return pending.result()
        return self._prepare_on_this_thread(request, None if self._host is None else self._host.sentences)

    def prepare_here(self, request: SynthesisRequest) -> PreparedRequest:
        """:meth:`prepare` with the frontend on the caller's thread even where worker processes exist; the request
        is then finished in this process too (the engine thread: timings where asked, the output stage). What an
        idle server does with a lone request: the hops to a worker and back cost more than the work
        (:attr:`ServerConfig.inline_when_idle`)."""
        return self._prepare_on_this_thread(request, None)

    def _prepare_on_this_thread(
        self, request: SynthesisRequest, sentences: Callable[[str, int, str], list[Utterance]] | None
    ) -> PreparedRequest:
        """The frontend pass on the caller's thread (``sentences``: the worker processes' sentence splitter and
        phonemizer for the streaming scheduler, or None for this process's own frontend)."""
        try:
            prepared = self._tts.prepare(
                request.text, request.voice, request.speed, sentences=sentences,
                sample_rate=request.sample_rate, gain_db=request.gain_db, language=request.language,
            )  # fmt: skip
        except Exception as e:
            if (error := _backend_error(e)) is e:
                raise
            raise error from e
        where = WORKER if sentences is not None and prepared.plan is None else SERVER
        return PreparedRequest(request, prepared.batch_key, prepared.ids, prepared, dict(prepared.skipped),
                               frontend_in=where)  # fmt: skip

    def synthesize_prepared(self, batch: Sequence[PreparedRequest]) -> BatchAudio:
        """One engine pass over ``batch``, then each request's finishing: here (timings only where asked; the
        result is its samples), or, for requests a worker prepared, in that worker (the result is a
        :class:`PendingAudio`; the worker also encodes the file in the request's :attr:`~SynthesisRequest.encoding`)."""
        from onestep.synthesis.passes import engine_pass
        from onestep.synthesis.render import finish, timestamp_mode

        kinds = {p.request.timestamps for p in batch if p.remote is None}  # audio only unless asked (their cost)
        words = timestamp_mode("char" if "char" in kinds else any(kinds))
        try:
            parts = engine_pass([p.handle for p in batch])
            out = BatchAudio()
            out.engine_done_at = time.perf_counter()
            remote = [(i, p) for i, p in enumerate(batch) if p.remote is not None]
            sent = self._finish_remote(remote, parts) if remote else {}
            for i, p in enumerate(batch):
                if i in sent:
                    out.append(sent[i])
                    continue
                audio = finish(p.handle, parts[i], words, self._tts._resources)
                if p.request.timestamps:
                    p.request.words[:] = audio.words
                out.append(np.asarray(audio.samples, dtype=np.float32).reshape(-1))
        except UserError as e:
            raise BackendInputError(str(e)) from e
        return out

    def _finish_remote(self, remote: list[tuple[int, PreparedRequest]], parts: list[Any]) -> dict[int, Any]:
        """The finishing of the ``remote`` requests (index in the batch, request) sent to their workers:
        {index: PendingAudio or exception}."""
        assert self._host is not None
        answers = self._host.finish(
            [(p.handle, p.remote, parts[i], p.request.encoding or "") for i, p in remote]  # type: ignore[misc]
        )  # fmt: skip
        return {
            i: a if isinstance(a, Exception) else _Finished(a, p.request) for (i, p), a in zip(remote, answers, strict=True)
        }

    def discard(self, prepared: PreparedRequest) -> None:
        """``prepared`` will not be rendered (refused at admission, cancelled): its worker forgets it."""
        if prepared.remote is not None and self._host is not None:
            self._host.discard(prepared.remote)

    def warm_up(self) -> None:
        """Synthesize ``warmup_text`` with every voice (also through the batch path), wait until the TTS is
        ready with every CUDA graph captured (:meth:`onestep.TTS.wait_ready` with ``complete=True``; at once on
        the CPU), then load the frontend's lazily loaded parts (espeak-ng fallback); a failure of the latter is
        only logged."""
        for v in self.voices():
            self._tts.synthesize(self._warmup_text, voice=v.name)
            self.synthesize_batch([SynthesisRequest(self._warmup_text, v.name)] * 2)
        # /health says ok only once no GPU step runs eagerly and no capture runs beside requests: on an H100
        # the background capture of the larger batch sizes stalled requests for up to 1.7 s and made the
        # admission answer 503 during a fresh server's first ~30 s (lab/GPU_RUNS.md, session 16)
        self._tts.wait_ready(complete=True)
        warm_frontend(self._tts.frontend())
        if self._host is not None:
            pids = self._host.start()
            what = "text frontend and finishing" if self.finish_remote else "text frontend"
            log.info("%s in %d worker process(es): %s", what, len(pids), ", ".join(map(str, pids)))
            for v in self.voices()[:1]:  # the workers' finishing once, end to end (its shared memory slot made)
                request = SynthesisRequest(self._warmup_text, v.name, sample_rate=16000, timestamps=True, encoding="wav")
                self.synthesize_batch([request] * 2)

    def close(self) -> None:
        """Stop the worker processes (after their calls in flight) and unlink their shared memory, if any."""
        if self._host is not None:
            self._host.close()


class _Finished:
    """:class:`PendingAudio` of a request finished in a worker: its samples, and on the way its words (when
    asked) and encoded file put into the request."""

    __slots__ = ("answer", "request")

    def __init__(self, answer: Any, request: SynthesisRequest) -> None:
        self.answer, self.request = answer, request

    @property
    def group(self) -> Any:
        return self.answer.group

    def result(self) -> np.ndarray:
        audio = self.answer.result()
        if self.request.timestamps:
            self.request.words[:] = audio.words
        if audio.encoded is not None:
            self.request.encoded[:] = [audio.encoded]
        return np.asarray(audio.samples, dtype=np.float32).reshape(-1)


def _backend_error(e: Exception) -> Exception:
    """What the server is told of a failed frontend pass: :class:`BackendInputError` for a user error (the
    frontend rejects the input, a bad speed or voice), except those answered with their own status (413, 422)."""
    if isinstance(e, (TooMuchWorkError, NothingToSpeakError)) or not isinstance(e, UserError):
        return e
    error = BackendInputError(str(e))
    error.__cause__ = e
    return error


def _is_ssml(text: str) -> bool:
    from onestep.synthesis.prepare import is_ssml_text

    return is_ssml_text(text)

