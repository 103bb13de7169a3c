"""English G2P: misaki-style phonemes, heteronyms, letters, espeak fallback, user phonemes, spacing, inventory."""

from __future__ import annotations

import types
from collections.abc import Callable
from pathlib import Path

import pytest

from onestep.frontend.en.g2p import EnglishG2P
from onestep.frontend.en.normalize import normalize_en
from onestep.frontend.symbols import unknown_symbols
from onestep.frontend.tokens import Segment



@pytest.fixture(scope="module")
def g2p() -> EnglishG2P:
    return EnglishG2P()


@pytest.fixture(scope="module")
def corpus_path(shared_file: Callable[..., Path]) -> Path:
    """The English training corpus in ../shared (tests that use it skip on a fresh clone)."""
    return shared_file("corpus", "en_train.txt")


def _corpus(path: Path, n: int) -> list[str]:
    with path.open(encoding="utf-8") as f:
        return [line.rstrip("\n") for _, line in zip(range(n), f, strict=False)]


def _phonemes_of(g2p: EnglishG2P, text: str, word: str) -> list[str]:
    return [t.phonemes for t in g2p(text) if t.text == word]


# (sentence, word, expected phonemes): heteronyms take the reading their context gives, else misaki's default.
HETERONYMS = [
    ("I want to record it.", "record", "ɹəkˈɔɹd"),
    ("Play the record.", "record", "ɹˈɛkəɹd"),
    ("I live here.", "live", "lˈɪv"),
    ("A live show.", "live", "lˈIv"),
    ("I will read it.", "read", "ɹˈid"),
    ("I have read it.", "read", "ɹˈɛd"),
    ("Close the door.", "Close", "klˈOz"),
    ("It is close.", "close", "klˈOs"),
    ("The use of force.", "use", "jˈus"),
    ("They use tools.", "use", "jˈuz"),
    ("We used to go.", "used", "jˈust"),
    ("It was used.", "used", "jˈuzd"),
    ("The present situation.", "present", "pɹˈɛzᵊnt"),
    ("I present it.", "present", "pɹizˈɛnt"),
    ("They object.", "object", "əbʤˈɛkt"),
    ("An object.", "object", "ˈɑbʤəkt"),
]

# Function words whose reading depends on the next word or on their tag.
FUNCTION_WORDS = [
    ("the apple", "the", "ði"),
    ("the pear", "the", "ðə"),
    ("to eat", "to", "tʊ"),
    ("to go", "to", "tə"),
    ("a cat", "a", "ɐ"),
    ("A cat.", "A", "ɐ"),
    ("I think.", "I", "ˌI"),
    ("Come in.", "in", "ˈɪn"),
    ("in the house", "in", "ɪn"),
    ("that car", "that", "ðˈæt"),
    ("I said that he left.", "that", "ðæt"),
]

# Single capitals from initialisms are letter names, plural letters too.
LETTERS = [
    ("F B I", ["ˈɛf", "bˈi", "ˈI"]),
    ("A P I", ["ˈA", "pˈi", "ˈI"]),
    ("A P Is", ["ˈA", "pˈi", "ˈIz"]),
    ("C P Us", ["sˈi", "pˈi", "jˈuz"]),
    ("A and B.", ["ˈA", "ænd", "bˈi", "."]),
    ("seven A M.", ["sˈɛvən", "ˈA", "ˈɛm", "."]),
    ("W", ["dˈʌbᵊlju"]),
]


@pytest.mark.parametrize(("text", "word", "expected"), HETERONYMS + FUNCTION_WORDS)
def test_context_readings(g2p: EnglishG2P, text: str, word: str, expected: str) -> None:
    assert _phonemes_of(g2p, text, word) == [expected]


@pytest.mark.parametrize(("text", "expected"), LETTERS)
def test_letters(g2p: EnglishG2P, text: str, expected: list[str]) -> None:
    assert [t.phonemes for t in g2p(text)] == expected


@pytest.mark.parametrize("word", ["Kokoro", "xylophonist", "Grzegorz"])
def test_unknown_words_use_espeak(g2p: EnglishG2P, word: str) -> None:
    from misaki.espeak import EspeakFallback

    lexicon = g2p._lexicon
    assert word not in lexicon.golds and word not in lexicon.silvers
    expected, _ = EspeakFallback(british=False)(types.SimpleNamespace(text=word))
    assert _phonemes_of(g2p, f"{word} is here.", word) == [expected]
    assert expected and not unknown_symbols(expected)


def test_whitespace_flags_follow_spacing(g2p: EnglishG2P) -> None:
    tokens = g2p("Hello, world! Don't stop.")
    assert [(t.text, t.whitespace) for t in tokens] == [
        ("Hello", False), (",", True), ("world", False), ("!", True), ("Don't", True), ("stop", False), (".", False)
    ]
    assert Segment(lang="en", text="", tokens=tokens).phonemes == "həlˈO, wˈɜɹld! dˈOnt stˈɑp."


def test_quotes_and_dashes(g2p: EnglishG2P) -> None:
    tokens = g2p('He said "yes" -- well-known (really).')
    phonemes = Segment(lang="en", text="", tokens=tokens).phonemes
    assert "“jˈɛs”" in phonemes and "(ɹˈiᵊli)." in phonemes
    assert _phonemes_of(g2p, "a well-known fact", "well-known") == ["wˌɛlnˈOn"]  # infix hyphen: one word
    assert _phonemes_of(g2p, "wait — what", "—") == ["—"]


def test_user_phonemes_take_priority(g2p: EnglishG2P) -> None:
    custom = EnglishG2P({"Kokoro": "kˈOkəɹO", "tomato": "təmˈɑTO"})
    assert _phonemes_of(custom, "Kokoro likes a tomato.", "Kokoro") == ["kˈOkəɹO"]
    assert _phonemes_of(custom, "Tomato soup.", "Tomato") == ["təmˈɑTO"]  # lowercase match
    assert _phonemes_of(g2p, "Tomato soup.", "Tomato") != ["təmˈɑTO"]  # other instances are unaffected
    assert _phonemes_of(EnglishG2P({"the": "ðˈi"}), "the end", "the") == ["ðˈi"]  # beats misaki's special cases


@pytest.mark.parametrize("bad", [{"x": "a b"}, {"x": ""}, {"x": "k❓"}])
def test_user_phonemes_are_validated(bad: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="'x'"):
        EnglishG2P(bad)


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_input(g2p: EnglishG2P, text: str) -> None:
    assert g2p(text) == []


def _assert_unit_cache_matches_whole(g2p: EnglishG2P, texts: list[str]) -> None:
    for text in texts:
        fast = [(t.text, t.phonemes, t.whitespace) for t in g2p(text)]
        whole = [(t.text, t.phonemes, t.whitespace) for t in g2p.phonemize_whole(g2p.words(text.strip()))]
        assert fast == whole, text


def test_unit_cache_matches_whole_sentence_misaki(g2p: EnglishG2P) -> None:
    """Phonemizing unit by unit (cached) gives exactly what misaki gives for the whole sentence at once."""
    crafted = [
        "I can't believe it's not butter, said the man's wife.",
        "The F B I and the A P Is, well-known to the U S.",
        "To be or not to be: that is the question.",
        "He used to live in an old house by the sea -- in 2005, he left.",
        "McDonald's HTTPServer B2B isn't 3.5 or 1,000 or 12th or 1990s.",
        "The U.S.A. and e.g. Mr. Smith's cats' toys...",
    ]
    _assert_unit_cache_matches_whole(g2p, crafted)


def test_unit_cache_matches_whole_sentence_misaki_on_the_corpus(g2p: EnglishG2P, corpus_path: Path) -> None:
    """The same on the first 300 lines of the English training corpus."""
    _assert_unit_cache_matches_whole(g2p, _corpus(corpus_path, 300))


def test_corpus_inventory(g2p: EnglishG2P, corpus_path: Path) -> None:
    """First 2,000 corpus lines: normalize + G2P never raise, every symbol is in the inventory, every word is read."""
    for line in _corpus(corpus_path, 2000):
        tokens = g2p(normalize_en(line))
        phonemes = Segment(lang="en", text="", tokens=tokens).phonemes
        assert phonemes and not unknown_symbols(phonemes), line
        assert all(t.phonemes for t in tokens if any(c.isalnum() for c in t.text)), line
