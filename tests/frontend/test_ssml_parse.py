"""The SSML subset: parsing into pieces, say-as readers, phoneme alphabets, errors with line and column."""

from __future__ import annotations

import pytest

from onestep.ssml import Pause, Phonemes, Speech, SsmlError, is_ssml, parse_ssml


def test_detection_needs_a_leading_speak() -> None:
    assert is_ssml("  <speak>hi</speak>") and not is_ssml("say <speak>") and not is_ssml("hello")


def test_breaks_prosody_voice_lang_and_sub() -> None:
    plan = parse_ssml(
        '<speak>Hello<break time="250ms"/>there <break strength="strong"/>'
        '<prosody rate="150%">fast <prosody rate="x-slow">slow</prosody></prosody>'
        '<voice name="tiny">Bye</voice><lang xml:lang="zh-CN">hi</lang><sub alias="World Wide Web">WWW</sub></speak>'
    )
    assert plan == [
        Speech("Hello"), Pause(0.25), Speech("there "), Pause(0.7), Speech("fast ", rate=1.5),
        Speech("slow", rate=pytest.approx(0.9)), Speech("Bye", voice="tiny"), Speech("hi", language="zh"), Speech("World Wide Web"),
    ]  # fmt: skip


def test_paragraphs_pause_and_unsupported_elements_are_transparent() -> None:
    plan = parse_ssml("<speak><p>One <emphasis level='strong'>two</emphasis>.</p><p><s>Three.</s></p><mark name='x'/></speak>")
    assert plan == [Speech("One two."), Pause(0.4), Speech("Three."), Pause(0.4)]


@pytest.mark.parametrize(
    ("markup", "spoken"),
    [
        ('It is <say-as interpret-as="cardinal">1,234</say-as>.', "one thousand, two hundred and thirty-four"),
        ('The <say-as interpret-as="ordinal">21</say-as> time.', "twenty-first"),
        ('Code <say-as interpret-as="digits">907</say-as>.', "nine zero seven"),
        ('Say <say-as interpret-as="characters">tts</say-as>.', "T T S"),
        ('On <say-as interpret-as="date" format="mdy">3/5/2024</say-as>.', "March fifth, twenty twenty-four"),
        ('At <say-as interpret-as="time">2:05pm</say-as>.', "two oh five PM"),
        ('Call <say-as interpret-as="telephone">555-0123</say-as>.', "five five five, zero one two three"),
        ('我有<say-as interpret-as="cardinal">12</say-as>个', "十二"),
        ('今天是<say-as interpret-as="date">2024-03-05</say-as>', "二零二四年三月五日"),
        ('现在<say-as interpret-as="time">14:30</say-as>', "十四点三十分"),
        ('第<say-as interpret-as="ordinal">3</say-as>', "第三"),
    ],
)
def test_say_as_reads_in_the_language_around_it(markup: str, spoken: str) -> None:
    (piece,) = parse_ssml(f"<speak>{markup}</speak>")
    assert spoken in piece.text


def test_phoneme_alphabets() -> None:
    (piece,) = parse_ssml('<speak><phoneme alphabet="x-pinyin" ph="ni3 hao3">你好</phoneme></speak>')
    assert piece == Phonemes("ni↓xau↓", "你好")
    (ipa,) = parse_ssml('<speak><phoneme alphabet="ipa" ph="həlˈO">hello</phoneme></speak>')
    assert ipa.phonemes == "həlˈO"


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("<speak>\n  <p>unclosed\n</speak>", "malformed SSML at line 3, column 3"),
        ("<speak>a &amp b</speak>", "malformed SSML at line 1"),
        ('<!DOCTYPE speak [<!ENTITY x "boom">]><speak>&x;</speak>', "DTD or entities"),
        ("<p>not speak</p>", "root element must be <speak>"),
        ('<speak><break time="soon"/></speak>', "'500ms' or '1.5s'"),
        ('<speak><break time="11s"/></speak>', "limit of 10 s"),
        ('<speak><say-as interpret-as="money">5</say-as></speak>', "interpret-as 'money' must be one of"),
        ('<speak><say-as interpret-as="cardinal">five</say-as></speak>', "not a whole number"),
        ('<speak><phoneme alphabet="ipa" ph="Ω">x</phoneme></speak>', "not in the voices' inventory: Ω"),
        ('<speak><phoneme alphabet="x-pinyin" ph="xx9">x</phoneme></speak>', "not a pinyin syllable"),
        ('<speak><lang xml:lang="ko-KR">annyeong</lang></speak>', "'ko-KR' is not spoken here"),
        ('<speak><prosody rate="warp">x</prosody></speak>', "rate 'warp'"),
    ],
)
def test_errors_say_what_and_where(document: str, message: str) -> None:
    with pytest.raises(SsmlError, match=None) as e:
        parse_ssml(document)
    assert message in str(e.value)


@pytest.mark.parametrize(
    "document",
    ["<speak></speak>", "<speak>  \n </speak>", "<speak><prosody rate='slow'></prosody></speak>",
     '<speak><sub alias="">x</sub></speak>', '<speak><break time="0s"/></speak>'],
)
def test_a_document_with_nothing_to_speak_is_an_error(document: str) -> None:
    from onestep.work_limits import NothingToSpeakError

    with pytest.raises(NothingToSpeakError, match="the SSML document has nothing to speak"):
        parse_ssml(document)
    assert parse_ssml('<speak><break time="1s"/></speak>') == [Pause(1.0)]  # a break alone is silence asked for
