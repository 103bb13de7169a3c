"""Streamed rendering: audio chunk by chunk as the engine makes it, through a stateful output stage, with each
word handed out as soon as its timing is final (:func:`onestep.synthesis.timings.timed_chunks`).

Chunks are float32 [n] PCM; the engine's are at its native rate, the :class:`AudioChunk` s at the output
stage's rate. Resampling is stateful across chunks and sentences, so joined chunks equal the whole audio.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from onestep.config import SPEED_MAX, SPEED_MIN
from onestep.frontend.offsets import MarkupOffsetAligner, OffsetAligner
from onestep.frontend.symbols import phonemes_to_ids
from onestep.frontend.tokens import Token
from onestep.runtime.engine import Engine
from onestep.runtime.output import OutputStage
from onestep.runtime.voices import VoiceEntry
from onestep.ssml.parse import SsmlError
from onestep.synthesis.prepare import PreparedText
from onestep.synthesis.resources import Resources, max_ids
from onestep.synthesis.results import AudioChunk, WordTiming
from onestep.synthesis.ssml_plan import Plan, plan_rate
from onestep.synthesis.timings import placed_words, seconds_per_frame, timed_chunks, timed_tokens
from onestep.work_limits import nothing_to_speak

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.tokens import Utterance


def plan_chunks(
    plan: Plan, speed: float, rate: int, timestamps: str, resources: Resources, source: str = ""
) -> Iterator[tuple[np.ndarray, list[WordTiming]]]:
    """Native-rate audio of a plan (``rate``: its voices' one rate, Hz), piece by piece and chunk by chunk,
    with each sentence's words (with offsets into ``source``, the SSML as given, when it is given)."""
    from onestep.ssml import Pause, Phonemes

    done = 0  # samples so far
    aligner = MarkupOffsetAligner(source) if source and timestamps else None
    for piece, entry in plan:
        if isinstance(piece, Pause):
            silence = np.zeros(round(piece.seconds * rate), dtype=np.float32)
            done += silence.size
            yield silence, []
            continue
        assert entry is not None
        engine = resources.engine(entry)
        spf = seconds_per_frame(engine)
        piece_speed = min(max(speed * piece.rate, SPEED_MIN), SPEED_MAX)
        if isinstance(piece, Phonemes):
            ids = phonemes_to_ids(piece.phonemes)
            if len(ids) > max_ids(engine) + 2:
                raise SsmlError(f"<phoneme> ph is too long for one utterance ({len(ids) - 2} > {max_ids(engine)} ids)")
            utterances = [(piece.phonemes, [Token(piece.text or piece.phonemes, piece.phonemes)], piece.text)]
        else:
            utterances = [
                (u.phonemes, timed_tokens(u.segments, timestamps == "char"), u.text)
                for u in resources.sentences(piece.text, entry)
            ]
        for phonemes, tokens, raw in utterances:
            streamed = engine.stream(phonemes_to_ids(phonemes), piece_speed)
            if not timestamps:
                for samples in streamed.chunks:
                    done += samples.size
                    yield samples, []
                continue
            placed = placed_words(phonemes, tokens, aligner, raw)
            hop = engine.config.audio.hop_length
            timed = timed_chunks(streamed.chunks, phonemes, streamed.frames_per_id, placed, spf, hop, done / rate)
            for samples, words in timed:
                done += samples.size
                yield samples, words


def stream_plan(
    plan: Plan,
    speed: float,
    stage: OutputStage,
    timestamps: str,
    resources: Resources,
    source: str = "",
) -> Iterator[AudioChunk]:
    """The chunks of an SSML plan (:func:`plan_chunks`) through ``stage``, each with the words handed out so far."""
    pending: list[WordTiming] = []
    sounded = False
    chunks = plan_chunks(plan, speed, stage.native_rate, timestamps, resources, source)
    for index, (samples, words) in enumerate(chunks):
        pending += words
        out = stage.process(samples)
        if out.size:
            sounded = True
            yield AudioChunk(out, stage.sample_rate, index, pending)
            pending = []
    tail = stage.flush()
    if tail.size or pending:
        sounded = True
        yield AudioChunk(tail, stage.sample_rate, 0, pending)
    if not sounded:  # e.g. <speak>★</speak>: no phoneme and no break: an error, as TTS.synthesize says
        raise nothing_to_speak({})


def stream_prepared(prepared: PreparedText, words: str, resources: Resources) -> Iterator[AudioChunk]:
    """``TTS.stream_prepared``: the chunks of a prepared text (``words``: ``"word"``, ``"char"`` or ``""``)."""
    if prepared.plan is not None:
        rate = plan_rate(prepared.plan, prepared.entry.path, resources.voices)
        stage = OutputStage(prepared.output, rate)
        return stream_plan(prepared.plan, prepared.speed, stage, words, resources, prepared.text)
    stage = OutputStage(prepared.output, prepared.engine.sample_rate)
    return stream_utterances(prepared.utterances, prepared.text, prepared.engine, prepared.speed, stage, words)


def stream_text(
    text: str, entry: VoiceEntry, speed: float, stage: OutputStage, resources: Resources, timestamps: str = ""
) -> Iterator[AudioChunk]:
    """The chunks of a plain ``text`` spoken by ``entry``, its sentences read as they are needed.

    Raises (at its end):
        NothingToSpeakError: nothing in the text could be spoken.
    """
    skipped: Counter[str] = Counter()
    spoken = yield from stream_utterances(
        resources.sentences(text, entry, skipped), text, resources.engine(entry), speed, stage, timestamps
    )
    if not spoken:
        raise nothing_to_speak(skipped)


def stream_utterances(
    utterances: Iterable[Utterance],
    text: str,
    engine: Engine,
    speed: float,
    stage: OutputStage,
    timestamps: str = "",
) -> Generator[AudioChunk, None, bool]:
    """The chunks of ``utterances`` (of ``text``) through ``stage``; returns whether any audio was made."""
    index = -1
    spoken = False
    aligner = OffsetAligner(text) if timestamps else None
    spf = seconds_per_frame(engine)
    native_samples = 0  # of the sentences before this one: their duration sets this sentence's offset
    pending: list[WordTiming] = []  # words not yet handed out (the resampler may hold a first chunk back)
    hop = engine.config.audio.hop_length
    for index, utterance in enumerate(utterances):
        streamed = engine.stream(phonemes_to_ids(utterance.phonemes), speed)
        timed: Iterable[tuple[np.ndarray, list[WordTiming]]] = ((c, []) for c in streamed.chunks)
        if aligner is not None:
            tokens = timed_tokens(utterance.segments, timestamps == "char")
            placed = placed_words(utterance.phonemes, tokens, aligner, utterance.text)
            offset = native_samples / engine.sample_rate
            counts = streamed.frames_per_id
            timed = timed_chunks(streamed.chunks, utterance.phonemes, counts, placed, spf, hop, offset)
        for samples, words in timed:
            spoken = spoken or samples.size > 0
            native_samples += samples.size
            pending += words
            out = stage.process(samples)
            if out.size:
                yield AudioChunk(out, stage.sample_rate, index, pending)
                pending = []
    tail = stage.flush()
    if tail.size or pending:
        yield AudioChunk(tail, stage.sample_rate, max(index, 0), pending)
    return spoken
