"""The server's per-request host work in worker processes (``onestep serve --frontend-processes N``).

On a GPU the engine pass of a request takes a fraction of a millisecond; the Python around it (the text frontend,
word and phoneme timings, the output stage, encoding) held the GIL that the event loop and the engine thread need.
:class:`HostWork` runs that work in the worker processes of a :class:`onestep.runtime.host_pool.HostPool`, with
the machinery ``TTS.synthesize_batch`` uses (:mod:`onestep.synthesis.remote`): a request's frontend pass runs in a
worker, which keeps its utterances and placed words and sends back only the phoneme ids (:meth:`prepare`); after
the engine pass the server copies the request's audio into a shared memory slot and the SAME worker finishes it
(timings when asked, the output stage, and the whole file encoded in the response's format:
:meth:`finish`). The server's own threads only hand things over.

For the streaming (CPU) scheduler only the frontend moves (:meth:`sentences`): its chunks are made sentence by
sentence on the engine threads, whose work a worker cannot take over chunk by chunk.

A worker that dies fails only the requests it held (:class:`~onestep.runtime.host_workers.WorkerDied`, answered
503); the next request sent to its place starts a new one; a frontend pass that met a dead worker is retried once.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from onestep.config import SynthesisOptions
from onestep.runtime.host_pool import HostPool
from onestep.runtime.host_workers import WorkerDied
from onestep.runtime.output import OutputOptions
from onestep.synthesis.remote import drop_remote, finish_remote, prepared_of
from onestep.synthesis.remote_worker import remote_prepare_many
from onestep.synthesis.render import timestamp_mode
from onestep.synthesis.resources import max_ids

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS
    from onestep.frontend.tokens import Utterance
    from onestep.synthesis.prepare import PreparedText
    from onestep.runtime.voices import VoiceEntry


@dataclass(frozen=True)
class RemoteKey:
    """Where a request's prepared text is kept: the worker's place in the pool and its key there."""

    worker: int
    key: Any


class HostWork:
    """The frontend and the finishing work of the server's requests on ``pool``'s worker processes.

    Args:
        tts: the server's TTS (its voices, engines and phoneme limit).
        pool: a host pool with ``processes >= 1`` whose workers load the TTS's user lexicon.
    """

    def __init__(self, tts: TTS, pool: HostPool) -> None:
        if not pool.settings.processes:
            raise ValueError("HostWork needs a host pool with worker processes")
        self._tts = tts
        self.pool = pool
        self._turn = itertools.count()
        self._keys = itertools.count()

    @property
    def processes(self) -> int:
        return self.pool.settings.processes

    def start(self) -> list[int]:
        """Start every worker and wait until each has built its frontend; returns their process ids."""
        return self.pool.start()

    def close(self) -> None:
        """Stop the workers (after the calls in flight) and unlink the shared memory slots."""
        self.pool.close()

    def sentences(self, text: str, most_ids: int, language: str | None) -> list[Utterance]:
        """The frontend pass alone, in a worker (``TTS.prepare``'s ``sentences``), retried once on a dead worker."""
        try:
            found, _ = self.pool.sentences(text, most_ids, language).result()
        except WorkerDied:
            found, _ = self.pool.sentences(text, most_ids, language).result()
        return found

    def prepare(self, text: str, voice: str | None, speed: float, output: OutputOptions, timestamps: bool | str,
                language: str | None, encoding: str | None = None) -> tuple[PreparedText, RemoteKey | None]:  # fmt: skip
        """:meth:`prepare_future`, waited for."""
        return self.prepare_future(text, voice, speed, output, timestamps, language, encoding).result()

    def prepare_future(self, text: str, voice: str | None, speed: float, output: OutputOptions,
                       timestamps: bool | str, language: str | None,
                       encoding: str | None = None) -> Future[tuple[PreparedText, RemoteKey | None]]:  # fmt: skip
        """``text``'s frontend pass (and its words placed, with ``timestamps``) in the next worker in turn, as a
        future (no thread waits for it: the worker's answer completes it) of the prepared text (ids, no
        utterances) and, when the worker keeps it for :meth:`finish`, where.

        The worker keeps it (and finishes it) only when the finishing is work worth moving
        (:func:`finish_elsewhere`): word timings, resampling or gain, or a compressed ``encoding``. Otherwise the
        finishing is the engine's own samples (a view) and a PCM/WAV conversion, cheaper in the server than
        shipping the audio to a worker and back.

        Raises (now) a bad speed or voice; the future fails with what ``TTS.prepare`` raises for the text (the
        frontend's errors as if it had run here), or :class:`WorkerDied` when the worker asked again after one
        died failed too. A voice whose engine is not loaded yet is loaded on a thread of its own: the caller (the
        server's event loop) never waits for a load (an ONNX session, or a GPU engine's graph capture).
        """
        resources = self._tts._resources
        SynthesisOptions(speed=speed)  # a bad speed is the caller's error, before any work
        entry = resources.voices.entry(voice, text, language)
        args = (text, entry, speed, output, timestamps, encoding)
        if resources.has_engine(entry):
            return self._ask_worker(*args)
        out: Future[tuple[PreparedText, RemoteKey | None]] = Future()

        def load_then_ask() -> None:
            try:
                pending = self._ask_worker(*args)
            except BaseException as e:
                out.set_exception(e)
                return
            pending.add_done_callback(lambda f: _settle(out, f))

        threading.Thread(target=load_then_ask, name="onestep-voice-load", daemon=True).start()
        return out

    def _ask_worker(self, text: str, entry: VoiceEntry, speed: float, output: OutputOptions, timestamps: bool | str,
                    encoding: str | None) -> Future[tuple[PreparedText, RemoteKey | None]]:  # fmt: skip
        """:meth:`prepare_future`'s work once the voice is known (its engine loaded here if it is not)."""
        resources = self._tts._resources
        engine = resources.engine(entry)
        most = max_ids(engine)
        words = timestamp_mode(timestamps)
        keep = finish_elsewhere(words, output, engine.sample_rate, encoding)
        out: Future[tuple[PreparedText, RemoteKey | None]] = Future()

        def ask(worker: int, retry: bool) -> None:
            place = RemoteKey(worker, ("serve", next(self._keys)) if keep else None)
            call = self.pool.submit(remote_prepare_many, [(place.key, text, most, entry.config.language)], words,
                                    worker=worker)  # fmt: skip

            def answered(f: Future[list[tuple[bool, Any]]]) -> None:
                try:
                    ((ok, value),) = f.result()
                    if not ok:
                        raise value
                except WorkerDied as e:
                    if retry:  # once, on the next worker (this one's place gets a new worker on its next call)
                        try:
                            ask((worker + 1) % self.processes, False)
                        except Exception as again:
                            out.set_exception(again)
                    else:
                        out.set_exception(e)
                    return
                except Exception as e:
                    out.set_exception(e)
                    return
                try:
                    prepared = prepared_of(value, entry, resources, speed, output, text, self._tts.max_phonemes)
                except Exception as e:
                    self.discard(place)
                    out.set_exception(e)
                    return
                out.set_result((prepared, place if keep else None))

            call.add_done_callback(answered)

        ask(next(self._turn) % self.processes, True)
        return out

    def finish(self, texts: Sequence[tuple[PreparedText, RemoteKey, list[tuple[np.ndarray, np.ndarray]], str]]) -> list[Any]:
        """Send each text's engine results to the worker that prepared it: per text ``(prepared, key, engine
        results, encode)``, ``encode`` a format to encode the output in there ("" for none). Returns per text an
        answer (``result()``: its ``RemoteAudio``; ``group``: the future of its worker's whole message) or the
        exception that kept it from being sent."""
        return finish_remote([(k.worker, k.key, p, parts, encode) for p, k, parts, encode in texts], self.pool)

    def discard(self, place: RemoteKey) -> None:
        """Let the worker forget a prepared text that will not be finished (refused, cancelled)."""
        if place.key is None:
            return
        try:
            drop_remote(self.pool, place.worker, place.key)
        except Exception:  # a closed pool: nothing is kept any more
            pass


def _settle(out: Future[Any], done: Future[Any]) -> None:
    """Complete ``out`` as ``done`` completed."""
    try:
        out.set_result(done.result())
    except BaseException as e:
        out.set_exception(e)


def finish_elsewhere(words: str, output: OutputOptions, native_rate: int, encoding: str | None) -> bool:
    """Whether a request's finishing is worth a worker process: word timings (``words`` not ""), an output stage
    that changes the audio (resampling, gain), or a compressed ``encoding`` (flac, mp3, opus, aac)."""
    from onestep.runtime.encoders import INLINE_FORMATS

    return bool(words) or not output.is_identity(native_rate) or (encoding is not None and encoding not in INLINE_FORMATS)
