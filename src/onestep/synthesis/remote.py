"""``TTS.synthesize_batch`` with the host work in worker processes: the parent only feeds the engine.

Per text, one worker process (of :class:`onestep.runtime.host_pool.HostPool`'s ``processes``, chosen in turn)
runs the frontend and places the words (:func:`~onestep.synthesis.remote_worker.remote_prepare`: it keeps the
utterances' phonemes and placed words, and sends back only the phoneme ids); the parent runs the engine over a
chunk of texts; a shipping thread copies the chunk's audio into a slot of the pool's ring of reused shared memory
segments (:mod:`onestep.runtime.shm`: no pickled arrays) and sends each worker one message for its texts; the
same worker finishes each text (:func:`~onestep.synthesis.remote_worker.remote_finish`: frame spans measured on
the audio, word and phoneme timings, the output stage, whose samples it writes into the slot when they differ
from the engine's, and the file when asked). A text's :class:`Audio` (:class:`RemoteAudio`) has the engine's
own samples (or the output stage's, copied out of the slot) and its timings unpickled on first read. The
functions are the serial path's (:func:`onestep.synthesis.assembly.timings_of`, the output stage), so the
results are equal to it.

Errors stay with their text: a text whose frontend, engine pass or finishing fails gets its exception in its
place (:func:`render_in_processes` returns it; ``errors="raise"`` raises the first in input order). SSML texts
are prepared and rendered here, in the parent, as in the serial path.
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from onestep.config import SynthesisOptions
from onestep.runtime.host_pool import HostPool
from onestep.runtime.output import OutputOptions, expected_length
from onestep.runtime.shm import Segment
from onestep.synthesis.passes import engine_pass_or_errors, render_plan
from onestep.synthesis.prepare import PreparedText, is_ssml_text, prepare_text
from onestep.synthesis.remote_worker import (
    FinishOrder,
    remote_drop,
    remote_finish_many,
    remote_prepare_many,
    write_audio,
)
from onestep.synthesis.resources import Resources, max_ids
from onestep.synthesis.results import Audio
from onestep.synthesis.timings import seconds_per_frame
from onestep.synthesis.voice_choice import VoiceArg
from onestep.work_limits import nothing_to_speak, too_much_work

Job = tuple[str, VoiceArg, float, "str | None"]
_runs = itertools.count()
#: Extra samples reserved per text for the output stage's samples beyond :func:`expected_length`.
OUT_SLACK = 256


class _Answer:
    """Item ``i`` of a ``*_many`` call's answer, read when needed (no future of its own: a ``Future`` costs a
    condition and a lock to make, ~3 µs of the parent's GIL, three of them a text before)."""

    __slots__ = ("batch", "i")

    def __init__(self, batch: Future[list[Any]], i: int) -> None:
        self.batch, self.i = batch, i

    def result(self) -> Any:
        """The item's value; its exception raised (the call's own, e.g. a dead worker's, for every item)."""
        ok, value = self.batch.result()[self.i]
        if not ok:
            raise value
        return value

    @property
    def group(self) -> Future[list[Any]]:
        """The future of the whole call this item is part of (done when every item of it is)."""
        return self.batch


# --- in the parent -------------------------------------------------------------------------------------------


@dataclass
class _Text:
    """A text in flight: its job, where it goes, and what became of it."""

    index: int
    job: Job
    worker: int
    key: Any = None
    output: OutputOptions = OutputOptions()
    entry: Any = None
    prepared: _Answer | None = None
    local: PreparedText | None = None  # SSML: prepared in the parent
    result: Any = None  # Audio, Exception, or a Future of the worker's finish


def render_in_processes(
    jobs: Sequence[Job],
    words: str,
    pool: HostPool,
    resources: Resources,
    max_phonemes: int | None,
    chunk: int,
    output: OutputOptions = OutputOptions(),
    ssml: Sequence[bool | None] | None = None,
    files: Sequence[str | None] | None = None,
    file_format: str = "wav",
) -> list[Audio | Exception]:
    """Every job's :class:`Audio` (or its exception), in input order; the frontend and finishing work on
    ``pool``'s worker processes, the engine on this thread, ``chunk`` texts a pass (see the module docstring).

    ``jobs``: (text, voice, speed, language) each; ``output``: the delivered sample rate and gain of every text;
    ``ssml``: per job, as :meth:`onestep.TTS.prepare`'s ``ssml`` (None: SSML when the text starts as SSML);
    ``files``: per job, a file to write its audio to in ``file_format`` (:func:`write_audio`, in the worker: the
    encoding leaves the parent too), or None; a text whose audio is empty gets no file, one whose file cannot
    be written gets the error."""
    lexicon = None if resources.lexicon is None else str(resources.lexicon)
    if pool.settings.lexicon != lexicon:  # the workers' frontends would read otherwise than this TTS's
        raise ValueError(
            f"the host pool's workers load lexicon {pool.settings.lexicon!r} but this TTS uses {lexicon!r}: "
            "give HostPoolSettings the TTS's lexicon"
        )
    procs = pool.processes
    assert procs is not None
    run = next(_runs)
    texts = [_Text(i, job, i % len(procs), output=output) for i, job in enumerate(jobs)]
    flags = list(ssml) if ssml is not None else [None] * len(jobs)
    paths = list(files) if files is not None else [None] * len(jobs)
    ahead = 2  # chunks whose frontend is asked for ahead of the engine

    def send(members: list[_Text]) -> None:
        """The frontend pass of ``members`` asked of their workers (one message per worker); SSML here."""
        calls: dict[int, list[tuple[_Text, tuple[Any, str, int, str | None]]]] = {}
        for t in members:
            text, voice, speed, language = t.job
            try:
                SynthesisOptions(speed=speed)
                flag = flags[t.index]
                if flag or (flag is None and is_ssml_text(text)):
                    t.local = prepare_text(
                        text, voice, speed, resources, max_phonemes, language=language, ssml=True,
                        sample_rate=output.sample_rate, gain_db=output.gain_db,
                    )  # fmt: skip
                    continue
                t.entry = resources.voices.entry(voice, text, language)
                most = max_ids(resources.engine(t.entry))
                t.key = (run, t.index)
                calls.setdefault(t.worker, []).append((t, (t.key, text, most, t.entry.config.language)))
            except Exception as e:
                t.result = e
        for worker, items in calls.items():
            batch = pool.submit(remote_prepare_many, [c for _, c in items], words, worker=worker)
            for i, (t, _) in enumerate(items):
                t.prepared = _Answer(batch, i)

    def prepared(t: _Text) -> PreparedText | Exception:
        if t.result is not None:
            return t.result  # type: ignore[no-any-return]
        if t.local is not None:
            return t.local
        assert t.prepared is not None
        text, _, speed, _ = t.job
        try:
            return prepared_of(t.prepared.result(), t.entry, resources, speed, t.output, text, max_phonemes)
        except Exception as e:
            _drop_key(pool, t)
            return e

    shipper = ThreadPoolExecutor(1, thread_name_prefix="onestep-ship")  # copies + sends while the engine runs on
    shipped: list[Future[None]] = []
    switch = pool.settings.switch_interval_s
    previous = sys.getswitchinterval()
    if switch is not None:  # the engine's thread gets the GIL back sooner from the threads reading answers
        sys.setswitchinterval(switch)
    try:
        starts = list(range(0, len(texts), chunk))
        for k in starts[:ahead]:
            send(texts[k : k + chunk])
        for c, k in enumerate(starts):
            if c + ahead < len(starts):
                send(texts[starts[c + ahead] : starts[c + ahead] + chunk])
            members = texts[k : k + chunk]
            ready = [prepared(t) for t in members]
            if len(shipped) >= 2:
                shipped[-2].result()  # at most two chunks' engine output waiting to be shipped
            rendered = engine_pass_or_errors(ready)
            orders: list[tuple[_Text, PreparedText, list[tuple[np.ndarray, np.ndarray]]]] = []
            for t, p, r in zip(members, ready, rendered, strict=True):
                if isinstance(p, Exception) or isinstance(r, Exception):
                    t.result = p if isinstance(p, Exception) else r
                    if not isinstance(p, Exception):
                        _drop_key(pool, t)
                elif p.plan is not None:
                    try:
                        t.result = render_plan(p, words, resources)
                        if paths[t.index] and t.result.samples.size:
                            write_audio(paths[t.index], file_format, t.result.samples, t.result.sample_rate)  # type: ignore[arg-type]
                    except Exception as e:
                        t.result = e
                else:
                    orders.append((t, p, r))
            if orders:
                files = [(paths[t.index] or "", file_format) for t, _, _ in orders]
                shipped.append(shipper.submit(_ship_or_fail, orders, pool, files))
        for f in shipped:
            f.result()
        out: list[Audio | Exception] = []
        for t in texts:
            if isinstance(t.result, _Answer):
                try:
                    t.result = t.result.result()
                except Exception as e:
                    t.result = e
            out.append(t.result)
        return out
    except BaseException:  # interrupted: the workers forget the texts prepared and not sent to be finished
        for t in texts:
            if t.prepared is not None and t.result is None:
                _drop_key(pool, t)
        raise
    finally:
        shipper.shutdown(wait=True, cancel_futures=True)
        if switch is not None:
            sys.setswitchinterval(previous)


def prepared_of(
    answer: tuple[list[list[int]], dict[str, int], int],
    entry: Any,
    resources: Resources,
    speed: float,
    output: OutputOptions,
    text: str,
    max_phonemes: int | None,
) -> PreparedText:
    """The :class:`PreparedText` of a text a worker prepared (:func:`remote_prepare`'s ``answer``: ids per
    utterance, characters skipped, phonemes in all); no utterances (the worker keeps them).

    Raises:
        NothingToSpeakError: no ids. TooMuchWorkError: more than ``max_phonemes`` phonemes.
    """
    ids, skipped, n_phonemes = answer
    if not ids:
        raise nothing_to_speak(Counter(skipped))
    if max_phonemes is not None and n_phonemes > max_phonemes:
        raise too_much_work(max_phonemes)
    speed = SynthesisOptions(speed=speed).speed
    return PreparedText(entry, resources.engine(entry), speed, [], ids, output, text, skipped=dict(skipped))


def finish_remote(
    texts: Sequence[tuple[int, Any, PreparedText, list[tuple[np.ndarray, np.ndarray]], str]], pool: HostPool
) -> list[_Answer | Exception]:
    """Each prepared text's finishing in the worker that prepared it, from its engine results: per text
    ``(worker, key, prepared, engine results, encode)`` (``encode``: a format to encode the output in there, or
    ""). Returns per text an answer (``result()``: its :class:`RemoteAudio`, with ``encoded`` bytes when asked;
    ``group``: the future of its worker's whole message) or the exception that stopped it being sent."""
    items = [
        _Text(i, (p.text, p.entry.name, p.speed, None), worker, key=key, output=p.output, entry=p.entry)
        for i, (worker, key, p, _, _) in enumerate(texts)
    ]
    orders = [(t, p, parts) for t, (_, _, p, parts, _) in zip(items, texts, strict=True)]
    _ship_or_fail(orders, pool, [("", "wav", encode) for *_, encode in texts])
    return [t.result for t in items]


def drop_remote(pool: HostPool, worker: int, key: Any) -> None:
    """Let ``worker`` forget the text it prepared under ``key`` (it will not be finished)."""
    pool.submit(remote_drop, key, worker=worker)


def _ship_or_fail(
    orders: list[tuple[_Text, PreparedText, list[tuple[np.ndarray, np.ndarray]]]],
    pool: HostPool,
    files: Sequence[tuple[str, ...]],
) -> None:
    """:func:`_ship`; if it fails (no shared memory, a worker's pipe broken), its texts not yet sent get the error."""
    try:
        _ship(orders, pool, files)
    except Exception as e:
        for t, _, _ in orders:
            if t.result is None:
                t.result = e
                _drop_key(pool, t)


def _drop_key(pool: HostPool, t: _Text) -> None:
    """Let ``t``'s worker forget what it kept for ``t`` (its text will not be finished)."""
    if t.key is not None:
        pool.submit(remote_drop, t.key, worker=t.worker)


def _ship(
    orders: list[tuple[_Text, PreparedText, list[tuple[np.ndarray, np.ndarray]]]],
    pool: HostPool,
    files: Sequence[tuple[str, ...]] | None = None,
) -> None:
    """Copy a chunk's engine output into a slot of the pool's ring and send each text's :func:`remote_finish`;
    each text's ``result`` becomes a future of its :class:`Audio`. The slot is released when all are done.
    ``files``: per text, (file path or "", its format[, a format to encode the output in and send back])."""
    layout: list[tuple[int, int, int]] = []  # per text: (offset, out offset, out capacity), bytes / samples
    at = 0
    for _, p, parts in orders:
        n = sum(a.size for _, a in parts)
        native = p.engine.sample_rate
        cap = 0 if p.output.is_identity(native) else expected_length(n, native, p.output.rate(native)) + OUT_SLACK
        layout.append((at, at + 4 * n, cap))
        at += 4 * (n + cap)
    index, seg = pool.ring.acquire(at)
    files = files or [("", "wav")] * len(orders)
    calls: dict[int, list[tuple[_Text, PreparedText, list[np.ndarray], int, FinishOrder]]] = {}
    submitted = 0
    left = [0]
    lock = threading.Lock()

    def done() -> None:
        with lock:
            left[0] -= 1
            last = left[0] == 0
        if last:
            pool.ring.release(index)

    try:
        for i, ((t, p, parts), (offset, out_offset, cap)) in enumerate(zip(orders, layout, strict=True)):
            sizes = tuple(a.size for _, a in parts)
            dest = seg.array(offset, sum(sizes))
            bounds = np.cumsum((0, *sizes))
            for (_, a), lo, hi in zip(parts, bounds[:-1], bounds[1:], strict=True):
                dest[lo:hi] = a
            order = FinishOrder(
                seg.name, offset, sizes, tuple(np.asarray(c, dtype=np.int64).tobytes() for c, _ in parts),
                out_offset, cap, p.engine.sample_rate, seconds_per_frame(p.engine),
                (p.output.sample_rate, p.output.gain_db), *files[i],
            )  # fmt: skip
            calls.setdefault(t.worker, []).append((t, p, [a for _, a in parts], out_offset, order))
        left[0] = len(calls)
        for worker, items in calls.items():  # one message per worker
            built: Future[list[Any]] = Future()
            batch = pool.submit(remote_finish_many, [(t.key, order) for t, _, _, _, order in items], worker=worker)
            submitted += 1
            batch.add_done_callback(_audios_of(items, seg, built, done))
            for j, (t, *_) in enumerate(items):
                t.result = _Answer(built, j)
    except BaseException:
        if not submitted:  # nothing sent: the slot is free now
            pool.ring.release(index)
        else:  # released once the sent ones are done
            for _ in range(len(calls) - submitted):
                done()
        raise


def _audios_of(
    items: list[tuple[_Text, PreparedText, list[np.ndarray], int, FinishOrder]],
    seg: Segment,
    built: Future[list[Any]],
    done: Any,
) -> Any:
    """The callback of a worker's :func:`remote_finish_many` answer: each text's :class:`RemoteAudio` (its
    samples the engine's, joined without a copy where they lie one after another, or the output stage's, copied
    out of the slot) or its exception, as ``(ok, value)`` into ``built``; then ``done()`` (the slot may go)."""
    from onestep.synthesis.assembly import join_samples

    def make(f: Future[list[tuple[bool, Any]]]) -> None:
        error = f.exception()
        answers = f.result() if error is None else [(False, error)] * len(items)
        out: list[tuple[bool, Any]] = []
        for (_, p, audios, out_offset, _), (ok, value) in zip(items, answers, strict=True):
            if not ok:
                out.append((False, value))
                continue
            try:
                n, rate, phonemes, words, stamps, data = value
                samples = join_samples(audios) if n < 0 else seg.array(out_offset, n).copy()
                audio = RemoteAudio(samples, rate, phonemes, words, stamps, p.entry.name, dict(p.skipped))
                audio.encoded = data
                out.append((True, audio))
            except Exception as e:
                out.append((False, e))
        built.set_result(out)
        done()

    return make


def _lazy(name: str) -> property:
    """A timings attribute of :class:`RemoteAudio`: a list, kept pickled until first read."""
    key = "_" + name

    def get(self: RemoteAudio) -> list:
        blob = self._blobs.get(name)
        if blob is not None:
            import pickle

            self.__dict__[key] = pickle.loads(blob)
            self._blobs.pop(name, None)
        return self.__dict__[key]  # type: ignore[no-any-return]

    def put(self: RemoteAudio, value: list | bytes | None) -> None:
        if isinstance(value, bytes):
            self._blobs[name] = value
            return
        self._blobs.pop(name, None)
        self.__dict__[key] = [] if value is None else value

    return property(get, put, doc=f"As :attr:`Audio.{name}` (unpickled on first read).")


class RemoteAudio(Audio):
    """An :class:`Audio` finished in a host worker process: the same fields, but :attr:`words` and
    :attr:`phoneme_timestamps` arrive pickled and are unpickled when first read (in the reader's thread), not
    while the parent feeds the engine (~100 objects a text: ~0.1 ms of the parent's GIL; a batch job reads the
    words only, a caller that wants audio alone reads neither). ``words`` / ``phoneme_timestamps`` may be given
    as a list or as its pickle."""

    def __init__(
        self,
        samples: np.ndarray,
        sample_rate: int,
        phonemes: str = "",
        words: list | bytes | None = None,
        phoneme_timestamps: list | bytes | None = None,
        voice: str = "",
        skipped: dict[str, int] | None = None,
    ) -> None:
        self._blobs: dict[str, bytes] = {}
        #: the output encoded as a whole file, when the finishing was asked for one (FinishOrder.encode)
        self.encoded: bytes | None = None
        super().__init__(samples, sample_rate, phonemes, words, phoneme_timestamps, voice, skipped or {})  # type: ignore[arg-type]

    words = _lazy("words")  # type: ignore[assignment]
    phoneme_timestamps = _lazy("phoneme_timestamps")  # type: ignore[assignment]
