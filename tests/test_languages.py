"""Issue 21: the languages of the registry, the requested language, OpenAI voice names and seeded voices.

The frontend tests use the real G2Ps (espeak-ng comes with the base install; Japanese needs the ``ja`` extra and
skips without it); the synthesis tests use the tiny multi-speaker fixture voice (tests/fixtures/multi).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import pytest

from onestep.frontend.pipeline import Frontend
from onestep.languages import (
    UnknownLanguageError,
    host_language,
    language_codes,
    language_of_char,
    script_language,
)
from onestep.runtime.voices import OPENAI_VOICES, VoiceNotFoundError, canonical_voice, choose_voice, seeded_blend

FIXTURES = Path(__file__).parent / "fixtures" / "multi"
HAS_JA = importlib.util.find_spec("pyopenjtalk") is not None and importlib.util.find_spec("fugashi") is not None


@dataclass(frozen=True)
class FakeVoice:
    name: str
    language: str
    gender: str = ""
    default: bool = False


VOICES = [
    FakeVoice("en-heart", "en", "female", True), FakeVoice("en-bella", "en", "female"),
    FakeVoice("en-sky", "en", "female"), FakeVoice("en-michael", "en", "male"), FakeVoice("en-onyx", "en", "male"),
    FakeVoice("es-dora", "es", "female", True), FakeVoice("es-alex", "es", "male"),
    FakeVoice("ja-alpha", "ja", "female", True), FakeVoice("ja-nezumi", "ja", "female"),
]  # fmt: skip


def test_registry_holds_the_nine_teacher_languages_once() -> None:
    assert sorted(language_codes()) == ["en", "es", "fr", "hi", "it", "ja", "pt", "zh"]


@pytest.mark.parametrize(
    ("text", "written"),
    [("今日は晴れ", "ja"), ("東京", "zh"), ("नमस्ते", "hi"), ("Hola", "en"), ("请打开API", "zh"), ("3+5", "en")],
)
def test_script_alone_detects_kana_han_devanagari_and_latin(text: str, written: str) -> None:
    assert (script_language(text) or "en") == written


@pytest.mark.parametrize(
    ("written", "text", "requested", "host"),
    [
        ("en", "Hola amigo", "es", "es"),  # Latin letters: the requested Latin-script language reads them
        ("zh", "東京", "ja", "ja"),  # Han alone: Japanese when asked
        ("zh", "你好", "es", "zh"),  # Spanish cannot read Han
        ("ja", "東京です", "zh", "ja"),  # kana is always Japanese
        ("hi", "नमस्ते", "fr", "hi"),
        ("en", "Hello", None, "en"),
    ],
)
def test_requested_language_wins_only_where_it_reads_the_script(
    written: str, text: str, requested: str | None, host: str
) -> None:
    assert host_language(written, text, requested) == host


def test_a_sentence_host_reads_its_own_script_and_digits() -> None:
    assert language_of_char("東", "ja") == "ja"
    assert language_of_char("7", "es") == "es"
    assert language_of_char("a", "ja") == "en"  # Latin words inside Japanese are read in English
    assert language_of_char("東") == "zh"


@pytest.mark.parametrize(
    ("text", "lang", "word"),
    [("Hola, ¿cómo estás?", "es", "estás"), ("Je m'appelle Marie.", "fr", "m'appelle"),
     ("Ciao, come stai?", "it", "stai"), ("Olá, tudo bem?", "pt", "bem")],
)  # fmt: skip
def test_latin_languages_are_read_by_espeak_when_requested(text: str, lang: str, word: str) -> None:
    utterances = list(Frontend().sentences(text, language=lang))
    tokens = [t for u in utterances for seg in u.segments for t in seg.tokens]
    assert {seg.lang for u in utterances for seg in u.segments} == {lang}
    assert word in [t.text for t in tokens]
    assert all(t.phonemes for t in tokens if t.text == word)
    english = [seg.lang for u in Frontend().sentences(text) for seg in u.segments]
    assert set(english) == {"en"}  # the same text without a request: English


def test_hindi_is_detected_and_the_danda_ends_a_sentence() -> None:
    utterances = list(Frontend().sentences("नमस्ते। आप कैसे हैं?"))
    assert len(utterances) == 2
    assert all(seg.lang == "hi" for u in utterances for seg in u.segments)
    assert utterances[0].phonemes.endswith(".")


@pytest.mark.skipif(not HAS_JA, reason="the 'ja' extra (pyopenjtalk-plus, fugashi, mojimoji) is not installed")
def test_japanese_words_carry_their_own_phonemes() -> None:
    (utt,) = list(Frontend().sentences("東京へ行きます。"))
    tokens = [(t.text, t.phonemes) for seg in utt.segments for t in seg.tokens]
    assert utt.segments[0].lang == "ja"
    assert ("東京", "toːkʲoː") in tokens
    assert "".join(p for _, p in tokens).replace(" ", "") == utt.phonemes.replace(" ", "")


def test_openai_names_give_distinct_voices_where_present() -> None:
    assert choose_voice(VOICES, "shimmer").name == "en-sky"
    assert choose_voice(VOICES, "alloy").name == "en-heart"  # en-alloy absent: the next in its list
    assert choose_voice(VOICES, "onyx").name == "en-onyx"
    assert len(OPENAI_VOICES) == 13
    full = [FakeVoice(name, "en") for names in OPENAI_VOICES.values() for name in names]
    assert len({choose_voice(full, alias).name for alias in OPENAI_VOICES}) == 13


def test_a_seed_gives_the_same_voice_every_time_and_follows_its_qualifiers() -> None:
    name, spec = seeded_blend(VOICES, "seed:1234")
    assert (name, spec) == seeded_blend(VOICES, "SEED:1234")
    assert abs(sum(w for _, w in spec.components) - 1) < 1e-3
    genders = {next(v.gender for v in VOICES if v.name == n) for n, _ in spec.components}
    assert len(genders) == 1  # one gender per seeded voice
    assert any(seeded_blend(VOICES, f"seed:{k}")[1] != spec for k in range(1, 6))
    _, female_ja = seeded_blend(VOICES, "seed:7:ja:female")
    assert {n for n, _ in female_ja.components} <= {"ja-alpha", "ja-nezumi"}
    _, male = seeded_blend(VOICES, "seed:7:male")
    assert {n for n, _ in male.components} <= {"en-michael", "en-onyx"}
    assert canonical_voice(VOICES, "seed:0042:es") == "seed:42:es"


@pytest.mark.parametrize("bad", ["seed:", "seed:abc", "seed:1:xx", "seed:1:ja:male", "seed:1:fr"])
def test_bad_seeds_are_clear_errors(bad: str) -> None:
    with pytest.raises(VoiceNotFoundError):
        seeded_blend(VOICES, bad)


def test_the_api_reads_a_text_in_the_requested_language() -> None:
    from onestep.api import TTS

    tts = TTS(voices_dir=[FIXTURES], preload=False)
    plain = tts.prepare("Hola amigo, son las 10.", "tiny-en-f")
    spanish = tts.prepare("Hola amigo, son las 10.", "tiny-en-f", language="es")
    assert {s.lang for u in plain.utterances for s in u.segments} == {"en"}
    assert {s.lang for u in spanish.utterances for s in u.segments} == {"es"}
    assert spanish.entry.name == "tiny-en-f" and spanish.ids != plain.ids
    audio = tts.synthesize("Hola amigo.", "tiny-en-f", language="es")
    assert audio.samples.size > 0 and [w.text for w in audio.words][:2] == ["Hola", "amigo"]
    seeded = tts.synthesize("Hello there.", "seed:5")
    assert seeded.samples.size > 0
    with pytest.raises(UnknownLanguageError):
        tts.prepare("Hola", language="xx")


def test_cli_rejects_an_unknown_language(capsys: pytest.CaptureFixture[str]) -> None:
    from onestep.cli import main

    with pytest.raises(SystemExit) as e:
        main(["say", "Hola", "--lang", "xx", "-o", "x.wav"])
    assert e.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
