"""The code-switch measure: English words cut out of Mandarin sentences by word timestamps, judged one by one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onestep_dev.eval.code_switch import (
    WordSpan, cut, english_sounds, english_spans, heard_as, judge, letters, same_word, student_words, summarize,
    teacher_words,
)  # fmt: skip
from onestep_dev.train.code_switch import WORDS, code_switch_sentences, word_split

MULTI_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "multi"


class Timed:
    def __init__(self, text: str, start: float, end: float, spoken: str = "") -> None:
        self.text, self.start, self.end, self.spoken = text, start, end, spoken or text


@pytest.mark.parametrize(
    ("word", "heard", "ok"),
    [("PPT", "P.P.T.", True), ("iPhone", "the iPhone", True), ("Amazon", "Amazon.", True),
     ("Amazon", "a mason", False), ("GitHub", "Get hub", False), ("OK", "", False), ("I", "That's it.", False),
     ("KPI", "KPIs", False), ("KPI", "K.P.I.", True)],
)  # fmt: skip
def test_a_word_is_heard_when_its_letters_come_back(word: str, heard: str, ok: bool) -> None:
    assert heard_as(word, heard) is ok
    assert letters("Wi-Fi!") == "wifi"


@pytest.fixture(scope="module")
def sounds():
    return english_sounds()


@pytest.mark.parametrize(
    ("word", "spoken", "heard", "ok"),
    [("Canon", "Canon", "Cannon.", True), ("SQL", "sequel", "Sequel", True), ("OK", "okay", "Okay.", True),
     ("KPI", "K P I", "K.P.I.", True), ("Sony", "Sony", "Sonny.", False), ("px", "px", "pixels", False),
     ("Paul", "Paul", "Pause.", False), ("Ivy", "Ivy", "", False), ("debug", "debug", "The bug.", False),
     ("Tom", "Tom", "Tom and", False)],
)  # fmt: skip
def test_the_judge_accepts_letters_or_the_same_sounds_and_nothing_looser(sounds, word, spoken, heard, ok) -> None:
    assert same_word(WordSpan(word, 0.0, 1.0, spoken), heard, sounds) is ok


def test_heldout_words_never_appear_in_training_sentences() -> None:
    train, held = word_split("train"), word_split("heldout")
    for category, words in WORDS.items():
        assert set(train[category]) | set(held[category]) == set(words)
        assert not set(train[category]) & set(held[category])
    import re

    held_words = [w for ws in held.values() for w in ws]
    pattern = re.compile("|".join(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])" for w in held_words))
    assert not [s for s in code_switch_sentences(300, "train") if pattern.search(s)]
    assert len(code_switch_sentences(50, "heldout")) == 50


def test_spans_are_narrowed_to_what_is_read_in_english() -> None:
    words = [Timed("请把", 0.0, 0.3), Timed("PPT", 0.3, 0.7, "P P T"), Timed("117px", 0.7, 1.5, "一百一十 七 px"),
             Timed("16GB", 1.5, 2.0, "十六 吉 字节")]  # fmt: skip
    tokens = [Timed("请", 0.0, 0.15), Timed("把", 0.15, 0.3), Timed("P", 0.3, 0.4), Timed("P", 0.4, 0.55),
              Timed("T", 0.55, 0.7), Timed("一百一十", 0.7, 1.1), Timed("七", 1.1, 1.2), Timed("px", 1.2, 1.5),
              Timed("十六", 1.5, 1.7), Timed("吉", 1.7, 1.8), Timed("字节", 1.8, 2.0)]  # fmt: skip
    assert english_spans(words, tokens) == [
        WordSpan("PPT", 0.3, 0.7, "P P T"), WordSpan("px", 1.2, 1.5, "px"),
        WordSpan("16GB", 1.5, 2.0, "十六 吉 字节", english=False),
    ]  # fmt: skip
    assert english_spans(words) == [WordSpan("PPT", 0.3, 0.7, "P P T"), WordSpan("117px", 0.7, 1.5, "一百一十 七 px"),
                                    WordSpan("16GB", 1.5, 2.0, "十六 吉 字节")]  # fmt: skip


def test_spans_cut_and_judge_with_a_stand_in_recognizer() -> None:
    spans = english_spans([Timed("请把", 0.0, 0.3), Timed("PPT", 0.3, 0.7), Timed("发给我", 0.7, 1.2)])
    assert spans == [WordSpan("PPT", 0.3, 0.7, "PPT")]
    audio = np.arange(24000 * 2, dtype=np.float32)
    piece = cut(audio, 24000, spans[0])
    assert piece[0] == int((0.3 - 0.06) * 24000) and piece.size == int(0.76 * 24000) - int(0.24 * 24000)
    assert cut(audio, 24000, WordSpan("x", 0.01, 1.99), margin=0.1).size == audio.size  # clipped to the audio

    class Echo:  # "hears" the word only when the cut holds its middle sample
        def transcribe(self, samples: np.ndarray, sample_rate: int, language: str) -> str:
            assert language == "en"
            return "P P T" if samples[0] <= 0.5 * 24000 <= samples[-1] else "pity"

    results = judge("sys", "请把PPT发给我", audio, 24000, spans, Echo())
    assert [r.ok for r in results] == [True]
    assert summarize(results) == {"sys": {"words": 1, "heard": 1, "rate": 1.0}}
    off = [WordSpan("PPT", 1.5, 1.9, "PPT"), WordSpan("16GB", 0.0, 1.0, english=False)]
    assert [(r.word, r.ok) for r in judge("sys", "x", audio, 24000, off, Echo())] == [("PPT", False)]


def test_student_words_are_the_apis_word_timestamps() -> None:
    from onestep import TTS

    tts = TTS(voices_dir=[MULTI_DIR], threads=1)
    text = "我用iPhone拍的照片，再发到GitHub上。下载速度只有117px。"
    audio, rate, spans = student_words(tts, "tiny-zh-m", text)
    api = tts.synthesize(text, voice="tiny-zh-m")
    assert rate == api.sample_rate and np.allclose(audio, api.samples, atol=1e-6)
    assert [s.text for s in spans] == ["iPhone", "GitHub", "px"]
    by_text = {w.text: w for w in api.words}
    for span in spans[:2]:
        assert (span.start, span.end) == (by_text[span.text].start, by_text[span.text].end)
    px = by_text["117px"]
    assert px.start < spans[2].start < spans[2].end == px.end  # the English part of "117px" only


def test_the_teacher_is_timed_by_the_same_words_from_its_own_durations() -> None:
    from onestep import TTS

    class Teacher:  # 3 units per id, silence: what matters is the timing path
        sample_rate = 24000

        def synthesize(self, ids, style):
            units = np.full(len(ids), 3, dtype=np.int64)
            return np.zeros(int(units.sum()) * 600, np.float32), units

    tts = TTS(voices_dir=[MULTI_DIR], threads=1)
    text = "请把PPT发给我。"
    utterances = tts.prepare(text, "tiny-zh-m").utterances
    audio, rate, spans = teacher_words(Teacher(), np.zeros((510, 1, 256), np.float32), utterances, text)
    assert [s.text for s in spans] == ["PPT"] and spans[0].spoken == "P P T"
    from onestep.frontend.symbols import phonemes_to_ids

    phonemes = utterances[0].phonemes  # each id lasts 3 units = 6 frames = 75 ms
    at, end = phonemes.find("pˈi"), phonemes.rfind("tˈi") + len("tˈi")
    assert spans[0].start == pytest.approx(0.075 * (1 + len(phonemes_to_ids(phonemes[:at], pad=False))))
    assert spans[0].end == pytest.approx(0.075 * (1 + len(phonemes_to_ids(phonemes[:end], pad=False))))
    assert audio.size / rate == pytest.approx(0.075 * len(phonemes_to_ids(phonemes)))


def test_the_teacher_can_be_rendered_as_spliced_training_data() -> None:
    from onestep import TTS
    from onestep.frontend.symbols import phonemes_to_ids

    class Teacher:  # a run rendered alone lasts 5 units per id, the whole sentence 3: the source shows in timing
        sample_rate = 24000

        def __init__(self) -> None:
            self.calls: list[int] = []

        def synthesize(self, ids, style):
            self.calls.append(len(ids))
            units = np.full(len(ids), 3 if len(ids) == full else 5, dtype=np.int64)
            return np.zeros(int(units.sum()) * 600, np.float32), units

    tts = TTS(voices_dir=[MULTI_DIR], threads=1)
    text = "请把PPT发给我。"
    utterances = tts.prepare(text, "tiny-zh-m").utterances
    full = len(phonemes_to_ids(utterances[0].phonemes))
    plain = teacher_words(Teacher(), np.zeros((510, 1, 256), np.float32), utterances, text)
    teacher = Teacher()
    audio, rate, spans = teacher_words(teacher, np.zeros((510, 1, 256), np.float32), utterances, text, "english")
    assert sorted(teacher.calls)[-1] == full and len(teacher.calls) == 2  # the sentence, then "PPT " alone
    assert [s.text for s in spans] == ["PPT"] and spans[0].start == pytest.approx(plain[2][0].start)
    english = len(phonemes_to_ids("pˈi pˈi tˈi ", pad=False))
    assert spans[0].end - spans[0].start == pytest.approx(0.125 * (english - 1))  # 5 units = 125 ms per id
    assert audio.size - plain[0].size == english * 2 * 600
