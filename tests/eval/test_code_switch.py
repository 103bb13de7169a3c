"""The code-switch measure: English words cut out of Mandarin sentences by word timestamps, judged one by one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onestep.eval.code_switch import WordSpan, cut, english_spans, heard_as, judge, letters, student_words, summarize
from onestep.train.code_switch import WORDS, code_switch_sentences, word_split

MULTI_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "multi"


@pytest.mark.parametrize(
    ("word", "heard", "ok"),
    [("PPT", "P.P.T.", True), ("iPhone", "the iPhone", True), ("Amazon", "Amazon.", True),
     ("Amazon", "a mason", False), ("GitHub", "Get hub", False), ("OK", "", False), ("I", "That's it.", False),
     ("KPI", "KPIs", False), ("KPI", "K.P.I.", True)],
)  # fmt: skip
def test_a_word_is_heard_when_its_letters_come_back(word: str, heard: str, ok: bool) -> None:
    assert heard_as(word, heard) is ok
    assert letters("Wi-Fi!") == "wifi"


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


def test_spans_cut_and_judge_with_a_stand_in_recognizer() -> None:
    class Word:
        def __init__(self, text: str, start: float, end: float) -> None:
            self.text, self.start, self.end = text, start, end

    spans = english_spans([Word("请把", 0.0, 0.3), Word("PPT", 0.3, 0.7), Word("发给我", 0.7, 1.2)])
    assert spans == [WordSpan("PPT", 0.3, 0.7)]
    audio = np.arange(24000 * 2, dtype=np.float32)
    piece = cut(audio, 24000, spans[0])
    assert piece[0] == int((0.3 - 0.06) * 24000) and piece.size == int(0.76 * 24000) - int(0.24 * 24000)

    class Echo:  # "hears" the word only when the cut holds its middle sample
        def transcribe(self, samples: np.ndarray, sample_rate: int, language: str) -> str:
            assert language == "en"
            return "P P T" if samples[0] <= 0.5 * 24000 <= samples[-1] else "pity"

    results = judge("sys", "请把PPT发给我", audio, 24000, spans, Echo())
    assert [r.ok for r in results] == [True]
    assert summarize(results) == {"sys": {"words": 1, "heard": 1, "rate": 1.0}}


def test_student_words_come_from_the_apis_word_timestamps() -> None:
    from onestep import TTS

    tts = TTS(voices_dir=[MULTI_DIR], threads=1)
    audio, rate, spans = student_words(tts, "tiny-zh-m", "我用iPhone拍的照片，再发到GitHub上。")
    assert rate == 24000 and audio.size > 0
    assert [s.text for s in spans] == ["iPhone", "GitHub"]
    assert all(0 <= s.start < s.end <= audio.size / rate + 1e-6 for s in spans)
