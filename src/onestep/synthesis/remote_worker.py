"""The host worker processes' half of :mod:`onestep.synthesis.remote`: a text's frontend pass and its words
placed (:func:`remote_prepare`, kept in the worker), then its finishing from the engine's audio in a shared
memory slot (:func:`remote_finish`: word and phoneme timings, the output stage, the file). Module-level
functions: they are sent to the workers by name.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.output import OutputOptions, OutputStage
from onestep.runtime.shm import Segment
from onestep.work_limits import count_phonemes


def remote_prepare(key: Any, text: str, most_ids: int, language: str | None, words: str) -> tuple[list[list[int]], dict[str, int], int]:
    """In a worker: the frontend pass of ``text`` (utterances of at most ``most_ids`` ids) and, with ``words``
    (``"word"`` / ``"char"``), its words placed in the text; kept under ``key`` for :func:`remote_finish` (``key``
    None: nothing is kept).

    Returns per utterance its model ids ``[0, *ids, 0]``, the characters skipped, and the phonemes in all.
    """
    from onestep.runtime.host_pool import worker_frontend
    from onestep.runtime.host_workers import worker_state
    from onestep.synthesis.timings import placements

    skipped: Counter[str] = Counter()
    found = list(worker_frontend().speakable_sentences(text, most_ids, skipped, language))  # type: ignore[attr-defined]
    phonemes = [u.phonemes for u in found]
    if found and key is not None:  # None: the text is finished elsewhere, nothing is kept for it
        placed = placements(text, found, words == "char", phonemes) if words else None
        worker_state()[key] = (phonemes, placed)
    return [phonemes_to_ids(ph) for ph in phonemes], dict(skipped), sum(count_phonemes(ph) for ph in phonemes)


def remote_prepare_many(calls: list[tuple[Any, str, int, str | None]], words: str) -> list[tuple[bool, Any]]:
    """In a worker: :func:`remote_prepare` of each ``(key, text, most_ids, language)``, each as ``(True, its
    result)`` or ``(False, its exception)`` (one message for a chunk's texts on this worker)."""
    return [_attempt(remote_prepare, key, text, most, language, words) for key, text, most, language in calls]


def _attempt(fn: Any, *args: Any) -> tuple[bool, Any]:
    from onestep.runtime.host_workers import picklable_error

    try:
        return True, fn(*args)
    except Exception as e:
        return False, picklable_error(e)


def remote_drop(key: Any) -> None:
    """In a worker: forget what :func:`remote_prepare` kept under ``key`` (its text will not be finished)."""
    from onestep.runtime.host_workers import worker_state

    worker_state().pop(key, None)


@dataclass(frozen=True)
class FinishOrder:
    """Where a text's engine output lies in a shared memory slot, and what to make of it.

    Attributes:
        segment: the slot's segment name. offset: byte offset of the text's samples (float32, its utterances
            one after another); sizes: samples per utterance. counts: per utterance, its frames per id (int64
            [ids + 2]) as bytes. out_offset, out_capacity: where (bytes) and how many samples the output stage
            may write (capacity 0: the output is the engine's audio as it is). native_rate: Hz of the engine's
            audio; spf: seconds a frame. output: (sample rate, gain dB). file, file_format: when given, the
            worker also encodes the output and writes it there (:func:`write_audio`), unless it is empty.
    """

    segment: str
    offset: int
    sizes: tuple[int, ...]
    counts: tuple[bytes, ...]
    out_offset: int
    out_capacity: int
    native_rate: int
    spf: float
    output: tuple[int | None, float]
    file: str = ""
    file_format: str = "wav"
    encode: str = ""


_SEGMENTS: dict[str, Segment] = {}  # in a worker: the slots mapped lately (the ring's, and those it replaced)


def _segment(name: str) -> Segment:
    seg = _SEGMENTS.get(name)
    if seg is None:
        while len(_SEGMENTS) >= 8:  # a slot replaced by a larger one: unmap the oldest
            _SEGMENTS.pop(next(iter(_SEGMENTS))).close()
        seg = _SEGMENTS[name] = Segment.attach(name)
    return seg


def remote_finish(key: Any, order: FinishOrder) -> tuple[int, int, str, list, list, bytes | None]:
    """In a worker: the text kept under ``key`` finished from its engine output in ``order``'s slot: its word
    and phoneme timings measured on that audio and, when the output options change the audio, the output
    stage's samples written at ``order.out_offset``.

    Returns (how many output samples were written, or -1: the engine's audio is the output; their rate in Hz; the
    phonemes; the words and the phoneme timings, each pickled: see
    :class:`onestep.synthesis.remote.RemoteAudio`; the encoded file when ``order.encode`` asks for one, else
    None). Raises :class:`~onestep.runtime.host_workers.WorkerDied` when nothing is kept under ``key`` here.
    """
    from onestep.runtime.host_workers import WorkerDied, worker_state
    from onestep.synthesis.assembly import timings_of

    kept = worker_state().pop(key, None)
    if kept is None:  # this process is not the one that prepared the text (that one died and was replaced)
        raise WorkerDied("the host worker process that prepared this text ended before finishing it")
    phonemes, placed = kept
    seg = _segment(order.segment)
    samples = seg.array(order.offset, sum(order.sizes))
    bounds = np.cumsum((0, *order.sizes))
    audios = [samples[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    counts = [np.frombuffer(c, dtype=np.int64) for c in order.counts]
    words: list = []
    stamps: list = []
    if placed is not None:
        words, stamps = timings_of(phonemes, counts, audios, order.spf, placed)
    stage = OutputStage(OutputOptions(*order.output), order.native_rate)
    n, out = -1, samples
    if not stage.identity:
        out = stage.whole(samples)
        if out.size > order.out_capacity:
            raise RuntimeError(f"{out.size} output samples do not fit the {order.out_capacity} reserved")
        seg.array(order.out_offset, out.size)[:] = out
        n = out.size
    if order.file and out.size:
        write_audio(order.file, order.file_format, out, stage.sample_rate)
    data = None
    if order.encode:
        from onestep.runtime.encoders import encode_file

        data = encode_file(order.encode, out, stage.sample_rate)
    del samples, audios, out
    return n, stage.sample_rate, " ".join(phonemes), _blob(words), _blob(stamps), data


def remote_finish_many(calls: list[tuple[Any, FinishOrder]]) -> list[tuple[bool, Any]]:
    """In a worker: :func:`remote_finish` of each ``(key, order)``, each as ``(True, its result)`` or ``(False,
    its exception)``."""
    return [_attempt(remote_finish, key, order) for key, order in calls]


def _blob(items: list) -> bytes | list:
    """``items`` pickled (the parent unpickles them when first read: :class:`onestep.synthesis.remote.RemoteAudio`); [] as is."""
    import pickle

    return pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL) if items else []


def write_audio(path: str, audio_format: str, samples: np.ndarray, sample_rate: int) -> None:
    """Encode ``samples`` (float32 [n] at ``sample_rate`` Hz) and write them to ``path``: under a temporary
    name first (``.<name>.<pid>.tmp`` beside it, deleted if the write fails), then renamed."""
    import os
    from pathlib import Path

    from onestep.runtime.encoders import encode_file

    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(encode_file(audio_format, samples, sample_rate))
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
