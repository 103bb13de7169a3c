"""Word timestamps end where the sound does: a pause (punctuation, a sentence's end, an SSML break) lies
between words and belongs to none, in whole synthesis, streaming and SSML, with the shipped voices."""

from __future__ import annotations

import numpy as np
import pytest

from onestep import TTS
from onestep.api import Audio, AudioChunk, word_timings
from onestep.frontend.tokens import Token
from onestep.runtime.sounding import SILENCE_DB, frame_spans
from onestep.synthesis.timings import placed_words, timed_chunks

HOP = 300  # samples per frame of the shipped voices (12.5 ms at 24 kHz)


@pytest.fixture(scope="module")
def tts() -> TTS:
    return TTS(threads=1)


def frame_db(audio: Audio) -> np.ndarray:
    """dB of each 12.5 ms frame relative to the loudest one."""
    n = audio.samples.size // HOP
    rms = np.sqrt(np.mean(audio.samples[: n * HOP].astype(np.float64).reshape(n, HOP) ** 2, axis=1)) + 1e-12
    return 20 * np.log10(rms / rms.max())


def at(t: float) -> int:
    return round(t / 0.0125)


def check_order(words: list) -> None:
    assert all(0 <= w.start < w.end for w in words)
    assert all(a.end <= b.start + 1e-9 for a, b in zip(words, words[1:]))


@pytest.mark.parametrize("text", ["Hello world.", "你好，世界。"])
def test_the_last_word_ends_before_the_final_pause(tts: TTS, text: str) -> None:
    audio = tts.synthesize(text)
    db, last = frame_db(audio), audio.words[-1]
    assert db[at(last.end) - 1] > SILENCE_DB  # its last frame still sounds
    assert (db[at(last.end) :] < SILENCE_DB - 5).mean() > 0.9  # after it: the pause, (nearly) all silence
    assert audio.duration - last.end > 0.15  # a real pause is left after the word
    stamps = audio.phoneme_timestamps
    assert stamps[-1].phoneme == "." and stamps[-1].start == pytest.approx(last.end)  # the pause symbol holds it
    check_order(audio.words)


@pytest.mark.parametrize(
    ("text", "before", "after"),
    [("Hello world, how are you today?", "world", "how"), ("Well, I think so, but not today.", "so", "but")],
)
def test_a_comma_pause_is_not_inside_the_word_before_it(tts: TTS, text: str, before: str, after: str) -> None:
    audio = tts.synthesize(text)
    db = frame_db(audio)
    words = {w.text: w for w in audio.words}
    if text.startswith("Well"):  # the voice reads "Well, I" without a pause: nothing is cut from "Well"
        assert db[at(words["Well"].end) - 1] > SILENCE_DB and words["I"].start - words["Well"].end < 0.06
    for a, b in [(words[before], words[after])]:
        assert db[at(a.end) - 1] > SILENCE_DB  # its last frame still sounds
        silent = np.flatnonzero(db[at(a.end) : at(b.start)] <= SILENCE_DB)
        # ends where its sound stops: at the first silent frame of the pause, or (a voice that breathes through
        # the comma, never falling below the silence level) at the comma's own start (asserted below)
        assert silent.size == 0 or silent[0] == 0
        assert b.start - a.end > 0.08  # the pause is a gap between the words
        comma = [p for p in audio.phoneme_timestamps if p.phoneme == "," and a.end - 1e-9 <= p.start < b.start]
        assert comma and comma[0].start == pytest.approx(a.end)
    check_order(audio.words)


def test_phoneme_timings_tile_and_words_hold_their_phonemes(tts: TTS) -> None:
    audio = tts.synthesize("Yes, of course! 我们明天见，好吗？")
    stamps = audio.phoneme_timestamps
    assert all(p.start <= p.end for p in stamps)
    assert all(a.end <= b.start + 1e-9 for a, b in zip(stamps, stamps[1:]))
    for word in audio.words:
        inside = [p for p in stamps if word.start - 1e-9 <= p.start and p.end <= word.end + 1e-9]
        assert "".join(p.phoneme for p in inside) == word.phonemes.replace(" ", "")
    check_order(audio.words)


def test_streamed_words_match_the_whole_and_come_no_later_than_their_chunk(tts: TTS) -> None:
    text = "Hello, world. This is a longer sentence, with a pause in the middle of it, and one at the end."
    whole = tts.synthesize(text).words
    chunks: list[AudioChunk] = list(tts.stream(text, timestamps=True))
    streamed = [w for c in chunks for w in c.words]
    assert [w.text for w in streamed] == [w.text for w in whole]
    for s, w in zip(streamed, whole, strict=True):  # the stream's samples differ from the whole's by a hair
        assert s.start == pytest.approx(w.start) and s.end == pytest.approx(w.end, abs=0.0126)
    check_order(streamed)
    t = 0.0
    for c in chunks:
        assert all(w.start >= t - 1e-9 for w in c.words)  # handed out at the latest with the chunk it starts in
        t += c.samples.size / c.sample_rate


def test_the_word_before_an_ssml_break_ends_where_its_sound_does(tts: TTS) -> None:
    doc = '<speak>Hello there.<break time="1s"/>Goodbye now</speak>'
    audio = tts.synthesize(doc)
    db = frame_db(audio)
    there, goodbye = audio.words[1], audio.words[2]
    # (the cut is relative to the loudest frame of its sentence, ``db`` to the loudest of the whole audio)
    assert db[at(there.end) - 1] > SILENCE_DB - 6 and (db[at(there.end) : at(goodbye.start) - 8] < SILENCE_DB).all()
    assert goodbye.start - there.end > 1.0
    assert [(w.text, w.end) for c in tts.stream(doc, timestamps=True) for w in c.words] == [
        (w.text, w.end) for w in audio.words
    ]


# --- the measurement itself, on made-up audio ------------------------------------------------------------


def tone(frames: int, amplitude: float = 0.5) -> np.ndarray:
    return (amplitude * np.sin(np.arange(frames * HOP) * 0.3)).astype(np.float32)


# "ab c." as ids pad a b " " c "." pad, frames 0-2, 2-5, 5-9, 9-11, 11-17, 17-20, 20-22; the audio sounds in
# frames 2-14 only: "c" stops 3 frames into its 6, the rest of them is the pause before "."
PHONEMES = "ab c."
COUNTS = np.array([2, 3, 4, 2, 6, 3, 2])
AUDIO = np.concatenate([np.zeros(2 * HOP), tone(12), np.zeros(8 * HOP)]).astype(np.float32)


def test_frame_spans_give_a_pause_back_to_the_pause() -> None:
    plain = frame_spans(PHONEMES, COUNTS)
    assert list(plain.ends) == [2, 5, 9, 11, 17, 20, 22]  # no audio: the durations
    assert list(plain.need) == [0, 0, 0, 0, 17, 0, 0]  # only "c" (a pause follows it) waits for the audio
    spans = frame_spans(PHONEMES, COUNTS, AUDIO, HOP)
    assert list(spans.starts) == [0, 2, 5, 9, 11, 14, 20]  # "." starts where "c" stops sounding
    assert list(spans.ends) == [2, 5, 9, 11, 14, 20, 22]  # "ab" and the space are untouched: no pause after them
    assert list(frame_spans(PHONEMES, COUNTS, AUDIO[: 16 * HOP], HOP).ends) == list(plain.ends)  # audio too short
    silent = frame_spans(PHONEMES, COUNTS, np.zeros_like(AUDIO), HOP)
    assert list(silent.ends) == list(plain.ends)  # nothing to measure: the durations
    with pytest.raises(ValueError, match="frame counts"):
        frame_spans(PHONEMES, COUNTS[:-1])


def test_a_stream_holds_the_chunk_in_which_a_word_before_a_pause_starts() -> None:
    placed = placed_words(PHONEMES, [Token("ab", "ab"), Token("c", "c"), Token(".", ".")])
    cuts = [0, 10 * HOP, 15 * HOP, AUDIO.size]  # "c" starts in the second chunk and ends in the third
    chunks = [AUDIO[a:b] for a, b in zip(cuts, cuts[1:])]
    out = list(timed_chunks(iter(chunks), PHONEMES, COUNTS, placed, 0.0125, HOP, 1.0))
    assert [s.size for s, _ in out] == [c.size for c in chunks]
    assert [[w.text for w in ws] for _, ws in out] == [["ab"], ["c"], []]  # "ab" at once, "c" once its audio is in
    ab, c = out[0][1][0], out[1][1][0]
    assert (ab.start, ab.end) == pytest.approx((1.025, 1.1125))
    assert (c.start, c.end) == pytest.approx((1.1375, 1.175))  # offset 1 s + frames 11-14


def test_word_timings_without_audio_keep_the_durations(tts: TTS) -> None:
    prepared = tts.prepare("Hello world.")
    result = prepared.engine.synthesize(prepared.ids[0], prepared.speed)
    spf = 0.0125
    plain = word_timings(prepared.utterances, [result.frames_per_id], spf)
    measured = word_timings(prepared.utterances, [result.frames_per_id], spf, audio=[result.audio])
    counts = result.frames_per_id
    assert plain[-1].end == pytest.approx(float(counts[:-2].sum()) * spf)  # up to the "." (pause included)
    assert measured[-1].end < plain[-1].end - 0.1 and measured[-1].start == plain[-1].start
    with pytest.raises(ValueError, match="whole number of hops"):
        word_timings(prepared.utterances, [result.frames_per_id], spf, audio=[result.audio[:-1]])
