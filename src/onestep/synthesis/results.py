"""What synthesis hands back: whole :class:`Audio`, streamed :class:`AudioChunk` s, and their timings.

Samples are float32 mono PCM in [-1, 1]; times are seconds from the start of the audio (or of the stream).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from onestep.runtime.pcm import to_pcm16


@dataclass(frozen=True)
class PhonemeTiming:
    """One phoneme symbol and when it sounds, in seconds from the start of the audio."""

    phoneme: str
    start: float
    end: float


@dataclass(frozen=True)
class WordTiming:
    """One word (or Chinese word, or character) with its phonemes and when it sounds.

    Attributes:
        text: the word as written in the input (``"Dr."``, ``"3个"``); the normalized form when it could
            not be found in the input.
        phonemes: its phonemes (words of a rewritten run joined by spaces).
        start, end: seconds from the start of the audio; ``end`` is where the word stops sounding: a pause after
            it (punctuation, a sentence's end, an SSML break) lies between words and belongs to none (measured
            on the audio, :mod:`onestep.runtime.sounding`). Words are in order and do not overlap.
        spoken: what is read (``"Doctor"``, ``"三个"``).
        char_start, char_end: ``text``'s offsets in the ORIGINAL input, ``input[char_start:char_end]``
            (-1 when it could not be placed).
    """

    text: str
    phonemes: str
    start: float
    end: float
    spoken: str = ""
    char_start: int = -1
    char_end: int = -1

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form (seconds rounded to 0.1 ms)."""
        return {
            "text": self.text, "spoken": self.spoken, "start": round(self.start, 4), "end": round(self.end, 4),
            "char_start": self.char_start, "char_end": self.char_end, "phonemes": self.phonemes,
        }  # fmt: skip


@dataclass
class Audio:
    """A synthesized text.

    Attributes:
        samples: float32 [N] mono PCM in [-1, 1].
        sample_rate: Hz.
        phonemes: the phonemes spoken, sentences joined by a space.
        words: per word timing (from the predicted durations; a word before a pause ends where its sound does);
            empty for phoneme input.
        phoneme_timestamps: per phoneme symbol timing; they tile each sentence: a pause's frames belong to its
            punctuation symbol (or to the sentence's closing pad, which has no entry), not to the phoneme before.
        voice: name of the voice used.
        skipped: characters of the text that could not be spoken (removed), with their counts.
    """

    samples: np.ndarray
    sample_rate: int
    phonemes: str = ""
    words: list[WordTiming] = field(default_factory=list)
    phoneme_timestamps: list[PhonemeTiming] = field(default_factory=list)
    voice: str = ""
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.samples.size / self.sample_rate

    @property
    def pcm16(self) -> bytes:
        """16-bit little-endian PCM of :attr:`samples`."""
        return to_pcm16(self.samples)

    def save(self, path: str | os.PathLike[str], format: str | None = None, bitrate: int | None = None) -> None:
        """Write an audio file through the one encoder module (:mod:`onestep.runtime.encoders`, the server's).

        ``format`` (``wav``, ``flac``, ``mp3``, ``opus``, ``pcm``, or an extension such as ``ogg``) defaults to
        the one the extension names
        (``.ogg`` and ``.opus``: Ogg Opus; ``.raw``/``.pcm``: raw 16-bit PCM).
        ``bitrate``: kbit/s for mp3, aac and opus (None: the encoder's default; a chosen one and aac need PyAV,
        the ``audio`` extra).
        """
        from onestep.runtime.encoders import encode_file
        from onestep.runtime.formats import format_for_path, format_name

        fmt = format_name(format) if format else format_for_path(path)
        data = encode_file(fmt, self.samples, self.sample_rate, bitrate)
        Path(path).write_bytes(data)


@dataclass
class AudioChunk:
    """A piece of streamed audio.

    Attributes:
        samples: float32 [n] mono PCM in [-1, 1].
        sample_rate: Hz.
        sentence: index of the sentence (of the frontend's split) the chunk belongs to.
        words: with ``stream(..., timestamps=True)``: words (times in seconds from the start of the stream,
            offsets into the input text) as soon as their timing is final, each at the latest with the chunk in
            which it starts; else empty.
    """

    samples: np.ndarray
    sample_rate: int
    sentence: int = 0
    words: list[WordTiming] = field(default_factory=list)

    @cached_property
    def pcm16(self) -> bytes:
        """16-bit little-endian PCM of :attr:`samples` (computed on first access)."""
        return to_pcm16(self.samples)
