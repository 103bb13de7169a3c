"""Pipeline logic on fake normalizers/G2Ps (see conftest): language routing, lexicon, bad input, chunking."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest

import onestep.frontend.zh.tools
from onestep.frontend import pipeline
from onestep.frontend.chunk import count_ids
from onestep.frontend.lexicon import ENV_VAR, Lexicon, LexiconError
from onestep.frontend.pipeline import (
    MAX_PHONEMIZE_CHARS,
    Frontend,
    TextTooLongError,
    utterance_to_dict,
)
from onestep.frontend.tokens import Token, Utterance


def _segs(utt: Utterance) -> list[tuple[str, str]]:
    return [(s.lang, s.text) for s in utt.segments]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("请打开API接口", [("zh", "请打开"), ("en", "A P I"), ("zh", "接口")]),
        ("PLC控制器", [("en", "P L C"), ("zh", "控制器")]),
        ("我用iPhone 15拍的", [("zh", "我用"), ("en", "iPhone"), ("zh", "一五拍的")]),
        ("I love 北京 food", [("en", "I love"), ("zh", "北京"), ("en", "food")]),
        ("Hello world", [("en", "Hello world")]),
        ("你好，世界", [("zh", "你好，世界")]),
        ("It costs 15 dollars.", [("en", "It costs one five dollars.")]),
        ("你好。Hello。", [("zh", "你好。"), ("en", "Hello.")]),
        ("Hello. World.", [("en", "Hello. World.")]),
        ("你好。我很好！", [("zh", "你好。我很好！")]),
        ("PLC，控制器", [("en", "P L C,"), ("zh", "控制器")]),
    ],
)
def test_language_routing(fake_frontend: Frontend, text: str, expected: list[tuple[str, str]]) -> None:
    utt = fake_frontend.phonemize(text)
    assert utt.text == text
    assert _segs(utt) == expected


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("请打开API接口", "请打开 A P I 接口"),
        ("I love 北京 food", "I love 北京 food"),
        ("你好。我很好！", "你好。我很好！"),
        ("", ""),
    ],
)
def test_normalized_text(fake_frontend: Frontend, text: str, normalized: str) -> None:
    assert fake_frontend.phonemize(text).normalized == normalized


def test_zh_segments_carry_pinyin_en_do_not(fake_frontend: Frontend) -> None:
    utt = fake_frontend.phonemize("请打开API接口")
    assert [len(s.pinyin) for s in utt.segments] == [3, 0, 2]
    assert utt.phonemes == "xa→xa→xa→ a p i xa→xa→"


def test_sentences_are_joined_with_a_space(fake_frontend: Frontend) -> None:
    assert fake_frontend.phonemize("你好。你好").phonemes == "xa→xa→, xa→xa→"
    assert fake_frontend.phonemize("Hi. Yo.").phonemes == "hi. yo."


def test_no_space_before_punctuation_after_a_lexicon_word(make_fake: Callable[..., Frontend]) -> None:
    fe = make_fake({"OneStep": "w ʌ n s t ɛ p"})
    utt = fe.phonemize("Use OneStep, now")
    assert utt.phonemes == "use wʌnstɛp, now"
    assert utt.normalized == "Use OneStep, now"


@pytest.mark.parametrize(
    "text",
    ["", "   ", "\n\t\r", "。，！", "...", "?!", "😀😀", "👍🏽❤️", "Привет мир", "안녕하세요", "\x00\x01\x7f", "★☆♪", "\u200b\ufeff"],
)
def test_nothing_to_speak_gives_no_segments(fake_frontend: Frontend, text: str) -> None:
    utt = fake_frontend.phonemize(text)
    assert utt.segments == [] and utt.phonemes == "" and utt.text == text
    assert list(fake_frontend.sentences(text)) == []


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("hi 😀 there", "hi there"),
        ("hi\x00there", "hi there"),
        ("hi\tthere\x0b", "hi there"),
        ("hi Привет there", "hi there"),
        ("東京안녕行", "東京行"),
        ("你好😀世界", "你好世界"),
        ("ＡＰＩ接口", "API接口"),
        ("hi★there", "hi there"),
    ],
)
def test_dropped_characters(fake_frontend: Frontend, text: str, same_as: str) -> None:
    assert fake_frontend.phonemize(text).phonemes == fake_frontend.phonemize(same_as).phonemes


def test_unsupported_scripts_are_logged(fake_frontend: Frontend, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="onestep.frontend.pipeline"):
        fake_frontend.phonemize("hi Привет. 안녕")
    assert len(caplog.records) == 1
    assert "cyrillic (6)" in caplog.text and "hangul (2)" in caplog.text


def test_sentences_warn_once_per_script(fake_frontend: Frontend, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="onestep.frontend.pipeline"):
        chunks = list(fake_frontend.sentences("Привет one. Привет two. Привет three."))
    assert [c.normalized for c in chunks] == ["one.", "two.", "three."]
    assert len(caplog.records) == 1


def test_phonemize_length_limit(fake_frontend: Frontend) -> None:
    with pytest.raises(TextTooLongError, match="sentences"):
        fake_frontend.phonemize("a" * (MAX_PHONEMIZE_CHARS + 1))


def test_sentences_stream_a_megabyte(fake_frontend: Frontend) -> None:
    text = "这是一个很长的句子，用来测试。" * 70_000  # ~1 MB of UTF-8
    assert len(text.encode()) > 1_000_000
    chunks = fake_frontend.sentences(text)
    first = next(chunks)
    assert first.normalized == "这是一个很长的句子，用来测试。"
    assert next(chunks).normalized == first.normalized


def test_sentence_without_punctuation_is_streamed(fake_frontend: Frontend) -> None:
    chunks = list(fake_frontend.sentences("word " * 3000, max_ids=510))
    assert sum(len(c.segments[0].tokens) for c in chunks) == 3000
    assert all(count_ids(c.phonemes) <= 510 for c in chunks)


LONG_TEXTS = {
    "en": " ".join(f"word{i % 10}abc, and more{i % 7} things" + ("." if i % 5 == 4 else "") for i in range(120)),
    "zh": "今天天气很好，我们去公园散步吧。" * 30 + "这是一个没有标点的非常长的中文句子" * 20,
    "mixed": "请打开API接口，然后用iPhone拍照。I love 北京 food and 上海 too, really. " * 25,
    "one_clause": "alpha beta gamma delta epsilon " * 80,
}


@pytest.mark.parametrize("kind", sorted(LONG_TEXTS))
@pytest.mark.parametrize("max_ids", [12, 40, 100, 510])
def test_chunks_fit_and_keep_words_whole(fake_frontend: Frontend, kind: str, max_ids: int) -> None:
    text = LONG_TEXTS[kind]
    chunks = list(fake_frontend.sentences(text, max_ids=max_ids))
    assert chunks
    assert all(0 < count_ids(c.phonemes) <= max_ids for c in chunks)
    chunk_tokens = [(s.lang, t.text, t.phonemes) for c in chunks for s in c.segments for t in s.tokens]
    whole = fake_frontend.phonemize(text)
    assert chunk_tokens == [(s.lang, t.text, t.phonemes) for s in whole.segments for t in s.tokens]


def test_chunks_prefer_clause_boundaries(fake_frontend: Frontend) -> None:
    text = "one two three, four five six, seven eight nine, ten eleven twelve."
    chunks = list(fake_frontend.sentences(text, max_ids=40))
    assert [c.normalized for c in chunks] == ["one two three, four five six,", "seven eight nine, ten eleven twelve."]


def test_short_sentence_is_one_chunk_with_original_text(fake_frontend: Frontend) -> None:
    chunks = list(fake_frontend.sentences("Hi there. 你好！"))
    assert [(c.text, _segs(c)) for c in chunks] == [("Hi there.", [("en", "Hi there.")]), ("你好！", [("zh", "你好！")])]


def test_oversized_word_is_cut_with_a_warning(fake_frontend: Frontend, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="onestep.frontend.chunk"):
        chunks = list(fake_frontend.sentences("a" * 50 + " b", max_ids=20))
    assert all(count_ids(c.phonemes) <= 20 for c in chunks)
    assert "".join(c.phonemes.replace(" ", "") for c in chunks) == "a" * 50 + "b"
    assert "more than the chunk limit" in caplog.text


def test_sentences_rejects_bad_limit(fake_frontend: Frontend) -> None:
    with pytest.raises(ValueError, match="max_ids"):
        list(fake_frontend.sentences("hi", max_ids=0))


# -- lexicon through the pipeline ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the PLC works", [("en", "the P L C works")]),
        ("PLC控制器", [("en", "P L C"), ("zh", "控制器")]),
        ("see GitHub today", [("en", "see git hub today")]),
        ("see github today", [("en", "see git hub today")]),
        ("Use OneStep now", [("en", "Use OneStep now")]),
        ("用OneStep合成", [("zh", "用"), ("en", "OneStep"), ("zh", "合成")]),
        ("我的MP3坏了", [("zh", "我的"), ("en", "M P three"), ("zh", "坏了")]),
        ("an MP3 file", [("en", "an M P three file")]),
        ("PLCs stay", [("en", "PLCs stay")]),
    ],
)
def test_lexicon_latin_overrides(make_fake: Callable[..., Frontend], text: str, expected: list[tuple[str, str]]) -> None:
    fe = make_fake({"PLC": "P L C", "GitHub": "git hub", "OneStep": "w ʌ n s t ɛ p", "MP3": "M P three"})
    assert _segs(fe.phonemize(text)) == expected


def test_lexicon_phonemes_are_used_verbatim(make_fake: Callable[..., Frontend]) -> None:
    fe = make_fake({"OneStep": "w ʌ n s t ɛ p", "New York": "/nu jˈɔɹk/"})
    assert fe.phonemize("Use OneStep").phonemes == "use wʌnstɛp"
    assert fe.phonemize("去New York玩").phonemes == "xa→ nu jˈɔɹk xa→"
    assert fe.phonemize("ONESTEP").phonemes == "wʌnstɛp"  # case-insensitive fallback


def test_lexicon_case_sensitive_match_first(make_fake: Callable[..., Frontend]) -> None:
    fe = make_fake({"Go": "g o", "GO": "G O"})
    assert fe.phonemize("Go").phonemes == "g o"
    assert fe.phonemize("GO").phonemes == "g o".upper().lower()  # respelling "G O" goes through the G2P
    assert fe.phonemize("gO").segments[0].text == "g o"  # first case-insensitive key in order


def test_zh_lexicon_reaches_the_mandarin_g2p(
    monkeypatch: pytest.MonkeyPatch, fake_tools: tuple[pipeline.LanguageTools, pipeline.LanguageTools]
) -> None:
    fake_zh, fake_en = fake_tools
    seen: list[object] = []

    def fake_load(lexicon: Lexicon | None = None) -> pipeline.LanguageTools:
        seen.append(lexicon.zh_words if lexicon else None)
        return fake_zh

    monkeypatch.setattr(onestep.frontend.zh.tools, "load_tools", fake_load)
    fe = Frontend({"车库": "che1 ku4", "PLC": "P L C"}, tools={"en": fake_en})
    assert seen == []  # built lazily
    fe.phonemize("hello")
    assert seen == []  # English-only text never loads the Mandarin tools
    fe.phonemize("车库")
    fe.phonemize("车库")
    assert seen == [{"车库": ["che1", "ku4"]}]  # built once, with the Chinese entries


def test_env_lexicon_is_used(monkeypatch: pytest.MonkeyPatch, write_lexicon: Callable[..., Path],
                             make_fake: Callable[..., Frontend]) -> None:
    monkeypatch.setenv(ENV_VAR, str(write_lexicon({"PLC": "P L C"})))
    assert make_fake().phonemize("PLC").phonemes == "p l c"
    assert make_fake({"PLC": "plick"}).phonemize("PLC").phonemes == "plick"


def test_lexicon_from_path_and_errors(write_lexicon: Callable[..., Path], make_fake: Callable[..., Frontend]) -> None:
    assert make_fake(str(write_lexicon({"PLC": "P L C"}))).phonemize("PLC").phonemes == "p l c"
    with pytest.raises(LexiconError, match="entry 'PLC'"):
        make_fake(write_lexicon({"PLC": "wʌn"}, name="bad.json"))


def test_utterance_to_dict(fake_frontend: Frontend) -> None:
    d = utterance_to_dict(fake_frontend.phonemize("请打开API接口"))
    assert list(d) == ["text", "normalized", "segments"]
    assert d["segments"] == [
        {"lang": "zh", "text": "请打开", "pinyin": ["ha1"] * 3, "phonemes": "xa→xa→xa→"},
        {"lang": "en", "text": "A P I", "phonemes": "a p i"},
        {"lang": "zh", "text": "接口", "pinyin": ["ha1"] * 2, "phonemes": "xa→xa→"},
    ]


def test_frontend_is_reusable(fake_frontend: Frontend) -> None:
    first = fake_frontend.phonemize("请打开API接口").phonemes
    fake_frontend.phonemize("something else entirely")
    assert fake_frontend.phonemize("请打开API接口").phonemes == first


def test_segments_without_phonemes_are_dropped_and_neighbours_joined(fake_tools: tuple) -> None:
    fake_zh, fake_en = fake_tools
    mute_zh = pipeline.LanguageTools(fake_zh.normalize, lambda text: [Token(text, "")])
    fe = Frontend({}, tools={"zh": mute_zh, "en": fake_en})
    utt = fe.phonemize("hello 𠀀 world")
    assert [(s.lang, s.text) for s in utt.segments] == [("en", "hello world")]
    assert utt.phonemes == "hello world"
    assert list(fe.sentences("𠀀𠀁。")) == []
