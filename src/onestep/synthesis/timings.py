"""Word and phoneme timings from the engine's frames per phoneme id.

An utterance's model input is ``[0, *ids, 0]``; ``frames_per_id`` (int [len(ids) + 2]) holds the frames each id
lasts, and frame ``f`` starts ``f * hop`` samples into the utterance's audio, so a frame lasts ``hop /
sample_rate`` seconds (:func:`seconds_per_frame`). A word before a pause ends where its sound does, measured on
the audio (:mod:`onestep.runtime.sounding`). Words are first *placed* (in the utterance's phonemes and the
original text: :func:`placed_words`, no durations needed), then *timed* (:meth:`Placed.timed`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from onestep.frontend.offsets import OffsetAligner
from onestep.frontend.symbols import phonemes_to_ids, vocab
from onestep.frontend.tokens import Token
from onestep.runtime.engine import Engine
from onestep.runtime.sounding import FrameSpans, frame_spans
from onestep.synthesis.results import PhonemeTiming, WordTiming

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.tokens import Segment, Utterance


def seconds_per_frame(engine: Engine) -> float:
    """Seconds one frame of ``engine``'s voice lasts (hop length / sample rate)."""
    return engine.config.audio.hop_length / engine.config.audio.sample_rate


def phoneme_timings(phonemes: str, spans: FrameSpans, spf: float, offset: float) -> list[PhonemeTiming]:
    """Timing of each inventory symbol of ``phonemes`` (symbol ``k`` is model id ``k + 1``, after the pad)."""
    table = vocab()
    kept = [c for c in phonemes if c in table]
    n = len(kept)
    starts = (offset + spans.starts[1 : n + 1].astype(np.float64) * spf).tolist()  # the same sums as per symbol
    ends = (offset + spans.ends[1 : n + 1].astype(np.float64) * spf).tolist()
    return [PhonemeTiming(c, a, z) for c, a, z in zip(kept, starts, ends, strict=True)]


def timed_tokens(segments: Sequence[Segment], characters: bool) -> list[Token]:
    """The tokens of an utterance's ``segments`` that word timestamps are made of (Chinese words split into
    characters when ``characters``)."""
    tokens = [t for segment in segments for t in segment.tokens]
    return _character_tokens(tokens) if characters else tokens


def _character_tokens(tokens: Sequence[Token]) -> list[Token]:
    """Chinese words split into one token per character (its pinyin syllable's phonemes); others as they are.

    A word whose syllables' phonemes do not join to its own phonemes (a lexicon override) stays whole.
    """
    from onestep.frontend.zh.phonemes import syllable_phonemes

    out: list[Token] = []
    for token in tokens:
        if len(token.pinyin) > 1 and len(token.pinyin) == len(token.text):
            try:
                parts = [syllable_phonemes(p) for p in token.pinyin]
            except ValueError:
                parts = []
            if parts and "".join(parts) == token.phonemes:
                out += [Token(ch, ph, [py]) for ch, ph, py in zip(token.text, parts, token.pinyin, strict=True)]
                continue
        out.append(token)
    return out


@dataclass(frozen=True)
class Placed:
    """A word placed in the text, not yet timed: its entry (times 0) and the model ids it spans."""

    word: WordTiming
    first: int
    last: int

    def timed(self, spans: FrameSpans, spf: float, offset: float) -> WordTiming:
        start, end = offset + float(spans.starts[self.first]) * spf, offset + float(spans.ends[self.last]) * spf
        w = self.word  # a new entry with the times (as dataclasses.replace, ~4x cheaper)
        return WordTiming(w.text, w.phonemes, start, end, w.spoken, w.char_start, w.char_end)


def placed_words(
    phonemes: str, tokens: Sequence[Token], aligner: OffsetAligner | None = None, raw: str | None = None
) -> list[Placed]:
    """The word tokens, found in order in the utterance's phoneme string, with the model ids they span; with
    ``aligner``, tokens are placed in the original text (``raw``: the utterance's own original text, which
    bounds it) and a rewritten run ("Dr." read "Doctor", "Jan. 5" read "January fifth") becomes one entry."""
    table = vocab()
    kept_before = np.concatenate([[0], np.cumsum([c in table for c in phonemes])])  # [len+1]
    found: list[tuple[Token, int, int]] = []  # (token, first id, last id); ids -1 for punctuation
    cursor = 0
    for token in tokens:
        if not token.phonemes:
            continue
        at = phonemes.find(token.phonemes, cursor)
        if at < 0:
            continue
        cursor = at + len(token.phonemes)
        first, last = int(kept_before[at]) + 1, int(kept_before[cursor])  # model ids of the token's symbols
        if first <= last and any(ch.isalnum() for ch in token.text):
            found.append((token, first, last))
        elif not any(ch.isalnum() for ch in token.text):
            found.append((token, -1, -1))  # punctuation: anchors the alignment, gets no entry
    if aligner is None:
        return [Placed(WordTiming(t.text, t.phonemes, 0.0, 0.0, t.text), a, b) for t, a, b in found if a >= 0]
    words: list[Placed] = []
    placed: set[int] = set()
    spans = {span.tokens[0]: span for span in aligner.align([t.text for t, _, _ in found], raw)}
    for i, (token, first, last) in enumerate(found):
        if i in placed or first < 0:
            continue
        span = spans.get(i)
        if span is None:
            words.append(Placed(WordTiming(token.text, token.phonemes, 0.0, 0.0, token.text), first, last))
            continue
        group = [found[k] for k in span.tokens if found[k][1] >= 0]
        placed.update(span.tokens)
        entry = WordTiming(
            aligner.written(span),
            " ".join(t.phonemes for t, _, _ in group),
            0.0,
            0.0,
            " ".join(t.text for t, _, _ in group),
            span.start,
            span.end,
        )
        words.append(Placed(entry, min(a for _, a, _ in group), max(b for _, _, b in group)))
    return words


def timed_chunks(
    chunks: Iterable[np.ndarray],
    phonemes: str,
    counts: np.ndarray,
    placed: Sequence[Placed],
    spf: float,
    hop: int,
    offset: float,
) -> Iterator[tuple[np.ndarray, list[WordTiming]]]:
    """An utterance's native ``chunks``, each with the words handed out with it.

    A word is handed out as soon as its timing is final: at once from the durations, but a word before a pause
    ends where its sound does (:func:`onestep.runtime.sounding.frame_spans`), so it waits for the audio through its
    frames. Every word comes at the latest with the chunk in which it starts: a chunk in which a word not yet
    final starts is held back until the next chunk's audio has made it final. The words are those of
    :func:`word_timings` on the whole audio.
    """
    provisional = frame_spans(phonemes, counts)
    needs = [int(provisional.need[p.first : p.last + 1].max()) * hop for p in placed]
    starts = [int(provisional.starts[p.first]) * hop for p in placed]
    parts: list[np.ndarray] = []
    held: list[np.ndarray] = []
    have = given = handed = 0  # samples made, words handed out, samples handed out

    def release(done: bool) -> Iterator[tuple[np.ndarray, list[WordTiming]]]:
        nonlocal given, handed
        while held:
            final = given
            while final < len(placed) and (done or needs[final] <= have):
                final += 1
            end = handed + held[0].size
            if final < len(placed) and starts[final] < end:
                return  # a word starting in this chunk waits for more audio
            words: list[WordTiming] = []
            if final > given:
                spans = frame_spans(phonemes, counts, np.concatenate(parts), hop)
                words = [p.timed(spans, spf, offset) for p in placed[given:final]]
            given, handed = final, end
            yield held.pop(0), words

    for samples in chunks:
        parts.append(samples)
        held.append(samples)
        have += samples.size
        yield from release(False)
    yield from release(True)
    if given < len(placed):  # no audio at all
        spans = frame_spans(phonemes, counts)
        yield np.zeros(0, dtype=np.float32), [p.timed(spans, spf, offset) for p in placed[given:]]


def word_timings(
    utterances: Sequence[Utterance],
    frames_per_id: Sequence[np.ndarray],
    seconds_per_frame: float,
    text: str = "",
    *,
    characters: bool = False,
    audio: Sequence[np.ndarray] | None = None,
) -> list[WordTiming]:
    """Word timestamps of ``utterances`` spoken one after another, from each one's frames per phoneme id.

    This is the alignment behind ``Audio.words``, public so that other durations of the same phonemes are
    timed exactly alike (the teacher's, in :mod:`onestep_dev.eval.code_switch`): ``frames_per_id[i]`` holds a count
    per id of ``[0, *phonemes_to_ids(utterances[i].phonemes), 0]`` (boundary pads included), and utterance
    ``i`` starts where the frames before it end. ``seconds_per_frame``: hop length / sample rate.

    With ``text`` (the input the utterances came from) words are placed in it as ``Audio.words`` are: the
    word as written, its offsets, and a rewritten run ("Dr." read "Doctor", "117px") as one entry. Without
    ``text``, one entry per frontend token (``text`` and ``spoken`` are the token as read). ``characters``
    splits Chinese words into characters (``TTS.synthesize(characters=True)``).

    With ``audio`` (each utterance's samples, exactly its frames x hop, as ``Audio.words`` has them) a word
    that a pause (punctuation, or the utterance's end) follows ends where its sound does
    (:func:`onestep.runtime.sounding.frame_spans`): the pause lies between words and belongs to none. Without it,
    a word's end is the end of its last phoneme's frames, pause included.
    """
    if len(utterances) != len(frames_per_id):
        raise ValueError(f"{len(utterances)} utterances but {len(frames_per_id)} frame counts")
    if audio is not None and len(audio) != len(utterances):
        raise ValueError(f"{len(utterances)} utterances but {len(audio)} audio arrays")
    spans = []
    for i, (utterance, counts) in enumerate(zip(utterances, frames_per_id, strict=True)):
        counts = np.asarray(counts, dtype=np.int64)
        if counts.size != len(phonemes_to_ids(utterance.phonemes)):
            raise ValueError(f"{counts.size} frame counts for {len(phonemes_to_ids(utterance.phonemes))} ids")
        spans.append(utterance_spans(utterance.phonemes, counts, None if audio is None else audio[i]))
    phonemes = [u.phonemes for u in utterances]
    return _words_of_spans(utterances, phonemes, frames_per_id, spans, seconds_per_frame, text, characters)


def _words_of_spans(
    utterances: Sequence[Utterance],
    phonemes: Sequence[str],
    frames_per_id: Sequence[np.ndarray],
    spans: Sequence[FrameSpans],
    seconds_per_frame: float,
    text: str,
    characters: bool,
) -> list[WordTiming]:
    """:func:`word_timings` from each utterance's frame spans (measured once, shared with the phoneme timings);
    ``phonemes``: each utterance's phoneme string (``Utterance.phonemes``, joined anew on every access)."""
    return timed_words(placements(text, utterances, characters, phonemes), frames_per_id, spans, seconds_per_frame)


def placements(
    text: str, utterances: Sequence[Utterance], characters: bool, phonemes: Sequence[str] | None = None
) -> list[list[Placed]]:
    """Per utterance, its words placed in ``text`` (:func:`placed_words`, one aligner through the text). They
    depend on the text and the frontend's output only (no durations, no audio): a frontend worker process
    computes them with the utterances (:func:`onestep.synthesis.remote_worker.remote_prepare`)."""
    aligner = OffsetAligner(text) if text else None
    phonemes = phonemes if phonemes is not None else [u.phonemes for u in utterances]
    return [
        placed_words(ph, timed_tokens(u.segments, characters), aligner, u.text)
        for u, ph in zip(utterances, phonemes, strict=True)
    ]


def timed_words(
    placed: Sequence[Sequence[Placed]], frames_per_id: Sequence[np.ndarray], spans: Sequence[FrameSpans], spf: float
) -> list[WordTiming]:
    """The placed words of utterances spoken one after another, timed by each one's frame spans."""
    words: list[WordTiming] = []
    offset = 0.0
    for ps, counts, s in zip(placed, frames_per_id, spans, strict=True):
        words += [p.timed(s, spf, offset) for p in ps]
        offset += float(np.sum(counts)) * spf
    return words


def utterance_spans(phonemes: str, counts: np.ndarray, samples: np.ndarray | None) -> FrameSpans:
    """An utterance's frame spans, measured on ``samples`` (its whole audio: frames x hop) when given."""
    n = int(np.sum(counts))
    if samples is None or n == 0:
        return frame_spans(phonemes, counts)
    samples = np.asarray(samples).reshape(-1)
    hop, rest = divmod(samples.size, n)
    if rest or hop == 0:
        raise ValueError(f"{samples.size} samples are not a whole number of hops for {n} frames")
    return frame_spans(phonemes, counts, samples, hop)
