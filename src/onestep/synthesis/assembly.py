"""Whole audio from its utterances: their samples joined, their timings laid end to end, the output stage applied."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from onestep.runtime.engine import Engine
from onestep.runtime.output import OutputOptions, OutputStage
from onestep.runtime.voices import VoiceEntry
from onestep.synthesis.results import Audio, PhonemeTiming, WordTiming
from onestep.synthesis.timings import (
    Placed,
    phoneme_timings,
    placements,
    seconds_per_frame,
    timed_words,
    utterance_spans,
)

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.tokens import Utterance


def apply_output(audio: Audio, output: OutputOptions) -> Audio:
    """``audio`` at the options' sample rate and gain (timings are in seconds: unchanged)."""
    stage = OutputStage(output, audio.sample_rate)
    if stage.identity:
        return audio
    audio.samples = stage.whole(audio.samples)
    audio.sample_rate = stage.sample_rate
    return audio


def assemble(
    utterances: Sequence[Utterance],
    counts: Sequence[np.ndarray],
    audios: Sequence[np.ndarray],
    engine: Engine,
    entry: VoiceEntry,
    timestamps: str = "word",
    text: str = "",
    placed: Sequence[Sequence[Placed]] | None = None,
) -> Audio:
    """Join sentences' audio and timings into one :class:`Audio`.

    Per utterance: ``counts`` int [ids + 2] frames per model id (pads included) and ``audios`` float32
    [frames x hop] its native-rate samples (``engine.sample_rate``), which follow one another.
    ``timestamps``: ``"word"``, ``"char"`` (Chinese words split into characters) or ``""`` (no timings).
    ``text``: the original input, which word offsets refer to (none when empty). ``placed``: the words of
    ``timestamps``' kind already placed in ``text`` (:func:`placements`), else they are placed here.
    """
    phonemes = [u.phonemes for u in utterances]
    words: list[WordTiming] = []
    stamps: list[PhonemeTiming] = []
    if timestamps:
        if placed is None:
            placed = placements(text, utterances, timestamps == "char", phonemes)
        words, stamps = timings_of(phonemes, counts, audios, seconds_per_frame(engine), placed)
    samples = join_samples(audios)
    return Audio(samples, engine.sample_rate, " ".join(phonemes), words, stamps, entry.name)


def timings_of(
    phonemes: Sequence[str],
    counts: Sequence[np.ndarray],
    audios: Sequence[np.ndarray],
    spf: float,
    placed: Sequence[Sequence[Placed]],
) -> tuple[list[WordTiming], list[PhonemeTiming]]:
    """The word and phoneme timings of utterances spoken one after another (each utterance's ``phonemes``,
    ``counts`` int [ids + 2] frames per id, ``audios`` float32 [frames x hop], ``placed`` words; ``spf``
    seconds a frame): sentences start where the frames before them end."""
    spans = [utterance_spans(ph, c, a) for ph, c, a in zip(phonemes, counts, audios, strict=True)]
    words = timed_words(placed, counts, spans, spf)
    stamps: list[PhonemeTiming] = []
    offset = 0.0
    for ph, c, s in zip(phonemes, counts, spans, strict=True):
        stamps += phoneme_timings(ph, s, spf, offset)
        offset += float(np.sum(c)) * spf
    return words, stamps


def join_samples(audios: Sequence[np.ndarray]) -> np.ndarray:
    """float32 [sum of n]: the utterances' samples one after another. Utterances that already lie one after
    another in one buffer (a batched engine pass puts a text's utterances in one array) come back as one view
    of it, without a copy (a copy of ~8 s of audio into fresh memory costs ~0.3 ms, its page faults most of it)."""
    if not audios:
        return np.zeros(0, dtype=np.float32)
    if len(audios) == 1:  # one sentence: its own array, no copy
        return np.asarray(audios[0]).astype(np.float32, copy=False)
    adjacent = _adjacent_view(audios)
    return adjacent if adjacent is not None else np.concatenate(audios).astype(np.float32, copy=False)


def _adjacent_view(audios: Sequence[np.ndarray]) -> np.ndarray | None:
    """One view over ``audios`` when they are float32 1-D contiguous slices, each starting where the one
    before ends, of one 1-D float32 base array; else None."""
    base = audios[0].base
    if not isinstance(base, np.ndarray) or base.dtype != np.float32 or base.ndim != 1 or not base.flags.c_contiguous:
        return None
    origin = base.__array_interface__["data"][0]
    at = None
    for a in audios:
        if a.base is not base or a.dtype != np.float32 or a.ndim != 1 or not a.flags.c_contiguous:
            return None
        start = a.__array_interface__["data"][0]
        if at is not None and start != at:
            return None
        at = start + a.nbytes
    first = (audios[0].__array_interface__["data"][0] - origin) // 4
    return base[first : first + sum(a.size for a in audios)]
