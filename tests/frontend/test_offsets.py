"""OffsetAligner: normalized tokens placed back in the original text."""

from __future__ import annotations

from onestep.frontend.offsets import OffsetAligner


def _spans(text: str, *utterances: list[str]) -> list[tuple[list[str], str]]:
    aligner = OffsetAligner(text)
    out = []
    for tokens in utterances:
        for span in aligner.align(tokens):
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
    assert text == "A & B C中<d> &bogus;"
    assert source[starts[2] : ends[2]] == "&amp;" and source[starts[7] : ends[7]] == "&#x4e2d;"
    assert all(source[a:b] == ch for ch, a, b in zip(text, starts, ends, strict=True) if b - a == 1)
    aligner = MarkupOffsetAligner(source)
    spans = aligner.align(["A", "and", "B", "C", "中"])
    assert [aligner.written(s) for s in spans] == ["A", "&amp;", "B", "C", "&#x4e2d;"]
