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
    spf = seconds_per_frame(engine)
    words: list[WordTiming] = []
    stamps: list[PhonemeTiming] = []
    phonemes = [u.phonemes for u in utterances]
    if timestamps:  # an utterance's audio is exactly its frames x hop: sentences start where frames end
        spans = [utterance_spans(ph, c, a) for ph, c, a in zip(phonemes, counts, audios, strict=True)]
        if placed is None:
            placed = placements(text, utterances, timestamps == "char", phonemes)
        words = timed_words(placed, counts, spans, spf)
        offset = 0.0
        for ph, c, s in zip(phonemes, counts, spans, strict=True):
            stamps += phoneme_timings(ph, s, spf, offset)
            offset += float(np.sum(c)) * spf
    if len(audios) == 1:  # one sentence: its own array, no copy
        samples = np.asarray(audios[0])
    else:
        samples = np.concatenate(audios) if audios else np.zeros(0, dtype=np.float32)
    return Audio(samples.astype(np.float32, copy=False), engine.sample_rate, " ".join(phonemes), words, stamps, entry.name)
