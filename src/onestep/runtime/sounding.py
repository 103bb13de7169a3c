"""When each phoneme id of an utterance sounds, in frames: the predicted durations, with pauses given back to
the pauses.

The acoustic models (like the teacher they learned from) put most of a pause into the frames of the sound
before it: in "Hello world." the last phoneme of "world" gets about 300 ms, of which about 60 ms sound, and
the last tone mark of a Mandarin sentence about 550 ms of silence. Spans taken from the durations alone make a
word before a pause end long after its sound does. :func:`frame_spans` therefore ends each run of sounding
symbols that a pause follows (a punctuation symbol, :data:`onestep.frontend.symbols.PUNCTUATION`, or the
utterance's end) at its last frame within :data:`SILENCE_DB` dB of the loudest frame so far (of the
utterance, up to the run's end: what a stream has made by then too), measured on the audio, and starts what
follows (the pause symbol, or the closing pad) there. Spans still tile the utterance: every frame belongs to
exactly one id.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from onestep.frontend.symbols import PUNCTUATION, vocab

#: A frame more than this many dB below the loudest frame of the utterance so far is silence.
SILENCE_DB = -40.0
#: Audio whose loudest frame is quieter than this RMS is left as the durations say (nothing to measure).
MIN_PEAK_RMS = 1e-5


@dataclass(frozen=True)
class FrameSpans:
    """Frame spans of an utterance's ids (``[0, *ids, 0]``, boundary pads included).

    Attributes:
        starts, ends: int64 [T], id ``k`` sounds in frames ``[starts[k], ends[k])``.
        need: int64 [T], frames of the utterance's audio needed before id ``k``'s span is final (the end of
            its run when a pause follows the run, else 0: the durations alone decide).
    """

    starts: np.ndarray
    ends: np.ndarray
    need: np.ndarray


def frame_rms(samples: np.ndarray, hop: int) -> np.ndarray:
    """RMS of each whole frame of ``hop`` samples (float64 [len // hop])."""
    n = samples.size // hop
    frames = np.asarray(samples[: n * hop], dtype=np.float32).reshape(n, hop)
    # one pass over the float32 samples (no float64 copy of the audio, no squared temporary): ~0.07 ms for 8 s
    # of audio against ~1.8 ms in float64; the sums differ from float64's by ~1e-7 relative, far below what
    # moves a frame across the -40 dB line
    return np.sqrt(np.einsum("ij,ij->i", frames, frames).astype(np.float64) / hop)


def sound_end(rms: np.ndarray, first: int, stop: int) -> int:
    """The frame after the last frame in ``[first, stop)`` within :data:`SILENCE_DB` dB of the loudest frame of
    ``rms[:stop]`` (the utterance so far), at least ``first + 1``; ``stop`` when that speech is (near) silent."""
    if stop <= first:
        return stop
    peak = float(rms[:stop].max())
    if peak < MIN_PEAK_RMS:
        return stop
    loud = np.flatnonzero(rms[first:stop] >= peak * 10 ** (SILENCE_DB / 20))
    return first + 1 + (int(loud[-1]) if loud.size else 0)


def frame_spans(phonemes: str, counts: np.ndarray, samples: np.ndarray | None = None, hop: int = 0) -> FrameSpans:
    """Frame spans of the ids of ``phonemes`` from ``counts`` (frames per id, pads included).

    With ``samples`` (the utterance's audio from its first frame, ``hop`` samples a frame; it may be shorter
    than the utterance, as while streaming) every run of sounding symbols followed by a pause ends where its
    sound does, once the audio reaches the run's end (see the module docstring); a space between the run and
    the pause counts as part of the pause. Without them the spans are the durations'.
    """
    counts = np.asarray(counts, dtype=np.int64)
    table = vocab()
    kept = [c for c in phonemes if c in table]
    if counts.size != len(kept) + 2:
        raise ValueError(f"{counts.size} frame counts for {len(kept) + 2} ids")
    ends = np.cumsum(counts)
    starts = ends - counts
    need = np.zeros_like(counts)
    rms = frame_rms(np.asarray(samples).reshape(-1), hop) if samples is not None and hop > 0 else None
    symbols = ["", *kept, ""]  # pads as ""
    last = len(symbols) - 1  # the closing pad
    i = 1
    while i < last:
        if symbols[i] == " " or symbols[i] in PUNCTUATION:
            i += 1
            continue
        j = i  # the run of sounding symbols i..j
        while j + 1 < last and symbols[j + 1] != " " and symbols[j + 1] not in PUNCTUATION:
            j += 1
        after = j + 1
        while after < last and symbols[after] == " ":
            after += 1
        if after == last or symbols[after] in PUNCTUATION:
            stop = int(ends[j])
            need[i : j + 1] = stop
            if rms is not None and rms.size >= stop:
                cut = sound_end(rms, int(starts[i]), stop)
                np.minimum(ends[i : j + 1], cut, out=ends[i : j + 1])
                np.minimum(starts[i : j + 1], cut, out=starts[i : j + 1])
                starts[j + 1] = cut  # the space or pause after the run starts where the sound stops
        i = j + 1
    return FrameSpans(starts, ends, need)
