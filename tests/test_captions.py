"""Caption files: one SRT/VTT cue per word (default) or per sentence (``--captions sentences``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from onestep.captions import MAX_CUE_CHARS, cues, render, sentence_cues


@dataclass
class W:
    text: str
    start: float
    end: float
    char_start: int = -1
    char_end: int = -1

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "start": self.start, "end": self.end}


def _words(text: str, step: float = 0.5) -> list[W]:
    """One entry per space-separated word of ``text`` (punctuation stripped), with its offsets."""
    out, at = [], 0
    for i, token in enumerate(text.split()):
        word = token.strip(".,!?")
        at = text.index(word, at)
        out.append(W(word, i * step, i * step + 0.4, at, at + len(word)))
        at += len(word)
    return out


def test_sentence_cues_follow_the_sentences_of_the_text() -> None:
    text = "Dr. Smith paid $5 on Jan. 5. Then he left! Did he?"
    words = _words(text)
    words[0] = W("Dr.", 0.0, 0.4, 0, 3)  # the aligner gives "Dr." with its period
    words[5] = W("Jan. 5", 2.5, 3.4, 21, 27)
    del words[6]
    got = sentence_cues(words, text)
    assert [c.text for c in got] == ["Dr. Smith paid $5 on Jan. 5.", "Then he left!", "Did he?"]
    assert (got[0].start, got[0].end) == (words[0].start, words[5].end)
    assert got[1].start == words[6].start and got[-1].end == words[-1].end


def test_a_long_sentence_is_cut_into_cues_of_bounded_length() -> None:
    text = " ".join(["word"] * 60) + "."
    got = sentence_cues(_words(text, step=0.1), text)
    assert len(got) > 1 and all(len(c.text) <= MAX_CUE_CHARS for c in got)
    assert sum(len(c.text.split()) for c in got) == 60
    slow = sentence_cues(_words("one two three four five six.", step=3.0), "one two three four five six.")
    assert len(slow) == 2 and all(c.end - c.start <= 7.0 for c in slow)


def test_without_offsets_or_for_markup_the_word_texts_are_joined() -> None:
    words = [W("你好", 0, 0.4), W("世界。", 0.5, 0.9), W("Hello", 1.0, 1.4), W("again.", 1.5, 1.9)]
    assert [c.text for c in sentence_cues(words)] == ["你好世界。", "Hello again."]
    doc = '<speak>Hi<break time="1s"/>there.</speak>'
    assert [c.text for c in sentence_cues([W("Hi", 0, 0.3, 7, 9), W("there", 1.3, 1.6, 27, 32)], doc)] == ["Hi there"]


def test_srt_and_vtt_default_to_word_cues_and_take_sentences() -> None:
    text = "Hi there. Bye now."
    words = _words(text)
    assert render("srt", words, text).count(" --> ") == 4
    srt = render("srt", words, text, "sentences")
    assert srt.startswith("1\n00:00:00,000 --> 00:00:00,900\nHi there.\n\n2\n00:00:01,000 --> ") and srt.count(" --> ") == 2
    assert render("vtt", words, text, "sentences").startswith("WEBVTT\n\n00:00:00.000 --> 00:00:00.900\nHi there.\n")
    assert render("json", words, text, "sentences").count('"text"') == 5  # JSON lists every word either way
    with pytest.raises(ValueError, match="per words or sentences"):
        cues(words, text, "lines")
