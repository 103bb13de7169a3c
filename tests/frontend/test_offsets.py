"""OffsetAligner: normalized tokens placed back in the original text."""

from __future__ import annotations

import numpy as np

from onestep.frontend.offsets import OffsetAligner


def _spans(text: str, *utterances: list[str], raws: list[str] | None = None) -> list[tuple[list[str], str]]:
    aligner = OffsetAligner(text)
    out = []
    for k, tokens in enumerate(utterances):
        for span in aligner.align(tokens, None if raws is None else raws[k]):
            out.append(([tokens[i] for i in span.tokens], text[span.start : span.end]))
    return out


def test_rewritten_words_get_the_written_span() -> None:
    assert _spans("Dr. Smith paid $5, ok.", ["Doctor", "Smith", "paid", "five", "dollars", ",", "ok", "."]) == [
        (["Doctor"], "Dr."), (["Smith"], "Smith"), (["paid"], "paid"), (["five", "dollars"], "$5"), (["ok"], "ok"),
    ]  # fmt: skip


def test_a_spoken_form_later_in_the_text_is_not_taken_early() -> None:
    spans = _spans("2 cats and two dogs", ["two", "cats", "and", "two", "dogs"])
    assert spans == [(["two"], "2"), (["cats"], "cats"), (["and"], "and"), (["two"], "two"), (["dogs"], "dogs")]


def test_words_inside_longer_words_are_not_matched_and_utterances_continue() -> None:
    spans = _spans("Five fives. 我有3个苹果。", ["five", "fives", "."], ["我", "有", "三个", "苹果", "。"])
    assert [s for _, s in spans] == ["Five", "fives", "我", "有", "3个", "苹果"]


def test_markup_text_keeps_character_data_and_maps_it_back() -> None:
    from onestep.frontend.offsets import MarkupOffsetAligner, markup_text

    source = '<speak>A &amp; B<break time="1s"/> <!-- x > y --><s a="1>2">C&#x4e2d;</s><![CDATA[<d>]]> &bogus;</speak>'
    text, starts, ends = markup_text(source)
    assert text == "A & B C中 <d> &bogus;"  # </s> between two characters separates them: one space
    assert source[starts[2] : ends[2]] == "&amp;" and source[starts[7] : ends[7]] == "&#x4e2d;"
    assert all(source[a:b] == ch for ch, a, b in zip(text, starts, ends, strict=True) if b - a == 1)
    aligner = MarkupOffsetAligner(source)
    spans = aligner.align(["A", "and", "B", "C", "中"])
    assert [aligner.written(s) for s in spans] == ["A", "&amp;", "B", "C", "&#x4e2d;"]


def test_a_rewritten_run_takes_its_whole_written_form_up_to_the_sentence_end() -> None:
    text = "Dr. Smith paid $5 on Jan. 5. Then it rained."
    first = ["Doctor", "Smith", "paid", "five", "dollars", "on", "January", "fifth", "."]
    second = ["Then", "it", "rained", "."]
    spans = _spans(text, first, second, raws=["Dr. Smith paid $5 on Jan. 5.", "Then it rained."])
    assert (["January", "fifth"], "Jan. 5") in spans  # not "Jan", with the "5" left to no word
    assert [s for _, s in spans][-3:] == ["Then", "it", "rained"]
    one_sentence = _spans("On Jan. 5. Then it rained.", ["On", "January", "fifth", ".", "Then", "it", "rained", "."])
    assert (["January", "fifth"], "Jan. 5") in one_sentence  # the period closing it is the one before "Then"
    # the next word is rewritten too: the first period closes the run, as before
    spans = _spans("In the 1990s. St. Louis grew.", ["In", "the", "nineteen", "nineties", ".", "Saint", "Louis", "grew", "."])
    assert [s for _, s in spans] == ["In", "the", "1990s", "St.", "Louis", "grew"]


def test_words_the_normalizer_added_join_the_run_before_them() -> None:
    tokens = ["On", "January", "fifth", ",", "twenty", "twenty-four", ",", "we", "met", "."]
    spans = _spans("On Jan. 5 2024, we met.", tokens, raws=["On Jan. 5 2024, we met."])
    assert spans == [
        (["On"], "On"), (["January", "fifth", "twenty", "twenty-four"], "Jan. 5 2024"), (["we"], "we"), (["met"], "met"),
    ]  # fmt: skip


def test_an_utterance_is_not_placed_past_its_own_text() -> None:
    # "five" is rewritten in the first sentence; the "Five" of the next one must not be taken for it
    spans = _spans("I paid 5. Five is a lot.", ["I", "paid", "five", "."], ["Five", "is", "a", "lot", "."],
                   raws=["I paid 5.", "Five is a lot."])  # fmt: skip
    assert [s for _, s in spans] == ["I", "paid", "5", "Five", "is", "a", "lot"]


def test_a_break_between_two_words_separates_them_in_the_markup() -> None:
    from onestep.frontend.offsets import MarkupOffsetAligner

    source = '<speak>Hello<break time="1s"/>world<s>again</s></speak>'
    aligner = MarkupOffsetAligner(source)
    spans = aligner.align(["Hello"], "Hello") + aligner.align(["world"], "world") + aligner.align(["again"], "again")
    assert [aligner.written(s) for s in spans] == ["Hello", "world", "again"]


def _heldout_lines() -> list[str]:
    from importlib import resources

    lines: list[str] = []
    for name in ("heldout_en.txt", "heldout_zh.txt"):
        text = resources.files("onestep_dev.eval").joinpath(name).read_text(encoding="utf-8")
        lines += [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return lines


def test_every_written_character_belongs_to_one_word_with_the_real_frontend(real_frontend) -> None:  # noqa: ANN001
    from onestep.api import word_timings
    from onestep.frontend.symbols import phonemes_to_ids

    for text in (
        "Dr. Smith paid $5 on Jan. 5.", "On Jan. 5 2024, we met.", "Temperatures hit -5°C on Feb. 3.",
        "It was the 21st of Sept. 2001.", "At 5 o'clock vs. 6.", "He was born in 1990s. St. Louis is nice.",
        "Meet at 3:30 p.m. on Jan. 5, 2024.", "Price: $1,234.56!", "I live on Main St. It is 5 km away!",
        *_heldout_lines(),  # 224 more, English and Mandarin (3 of them had a -1 or uncovered word before)
    ):  # fmt: skip
        utterances = list(real_frontend.speakable_sentences(text))
        counts = [np.ones(len(phonemes_to_ids(u.phonemes)), dtype=np.int64) for u in utterances]
        words = word_timings(utterances, counts, 0.0125, text)
        assert all(0 <= a.char_start < a.char_end <= b.char_start for a, b in zip(words, words[1:])), text
        covered = {k for w in words for k in range(w.char_start, w.char_end)}
        assert all(k in covered for k, ch in enumerate(text) if ch.isalnum()), (text, [w.text for w in words])


def test_a_spoken_word_of_a_rewritten_run_is_not_taken_for_a_later_written_one() -> None:
    tokens = ["He", "paid", "five", "dollars", "and", "fifty", "cents", "for", "three", "apples", "and", "two", "pears", "."]
    spans = _spans("He paid $5.50 for 3 apples and 2 pears.", tokens, raws=["He paid $5.50 for 3 apples and 2 pears."])
    assert spans == [
        (["He"], "He"), (["paid"], "paid"), (["five", "dollars", "and", "fifty", "cents"], "$5.50"), (["for"], "for"),
        (["three"], "3"), (["apples"], "apples"), (["and"], "and"), (["two"], "2"), (["pears"], "pears"),
    ]  # fmt: skip


def test_long_utterances_of_repeated_words_stay_in_place() -> None:
    text = " ".join(["the cat and the dog"] * 40) + "."
    tokens = text.rstrip(".").split() + ["."]
    spans = _spans(text, tokens)  # no raw: as for a long sentence cut into pieces after normalization
    assert len(spans) == 200 and all(written == token[0] for token, written in spans)
    starts = [OffsetAligner(text).align(tokens)[k].start for k in (0, 199)]
    assert starts == [0, text.rindex("dog")]


def test_any_tokens_give_ordered_spans_inside_the_text() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    pieces = st.sampled_from(["Dr.", "5", "five", "and", ",", ".", " ", "  ", "$", "Jan", "我", "三个", "3个", "a", "&"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(pieces, max_size=30), st.lists(st.lists(pieces, max_size=12), max_size=4), st.booleans())
    def check(text_pieces: list[str], utterances: list[list[str]], with_raw: bool) -> None:
        text = "".join(text_pieces)
        aligner = OffsetAligner(text)
        last = 0
        for tokens in utterances:
            spans = aligner.align(tokens, "".join(tokens) if with_raw else None)
            for span in spans:
                assert last <= span.start < span.end <= len(text)
                assert all(0 <= i < len(tokens) for i in span.tokens)
                last = span.end

    check()
