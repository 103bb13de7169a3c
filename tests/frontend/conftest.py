"""Fixtures for the frontend tests.

``fake_frontend`` runs the pipeline (segmentation, lexicon, chunking) on tiny deterministic stand-ins for the
normalizers and G2Ps, so those tests check the pipeline's own logic; ``real_frontend`` uses the built-in
Mandarin and English tools and is skipped while they are not importable.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from onestep.frontend.pipeline import Frontend, LanguageTools
from onestep.frontend.script import PUNCT
from onestep.frontend.tokens import Token

_DIGITS_ZH = dict(zip("0123456789", "零一二三四五六七八九"))
_DIGITS_EN = dict(zip("0123456789", ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]))


def fake_normalize_zh(text: str) -> str:
    """Digits read one by one in Chinese."""
    return "".join(_DIGITS_ZH.get(c, c) for c in text)


def fake_zh_g2p(text: str) -> list[Token]:
    """One token per Han character (pinyin ``"ha1"``, phonemes ``"xa→"``); punctuation tokens as ``","``."""
    tokens: list[Token] = []
    for ch in text:
        if ch in PUNCT:
            tokens.append(Token(ch, ",", whitespace=True))
        else:
            tokens.append(Token(ch, "xa→", pinyin=["ha1"]))
    return tokens


def fake_normalize_en(text: str) -> str:
    """Digits read one by one; all-caps words of 2-4 letters spelled as letters (``API`` -> ``A P I``)."""
    words = []
    for word in text.split():
        core = word.rstrip(",.!?")
        if core.isalpha() and core.isupper() and 2 <= len(core) <= 4:
            word = " ".join(core) + word[len(core) :]
        words.append("".join(_DIGITS_EN[c] + " " if c in _DIGITS_EN else c for c in word).strip())
    return " ".join(words)


def fake_en_g2p(text: str) -> list[Token]:
    """One token per word: phonemes = the word lower-cased; punctuation split off as its own token."""
    tokens: list[Token] = []
    for word in text.split():
        core = word.strip(",.!?;:\"'()")
        lead = word[: word.index(core)] if core else word
        trail = word[len(lead) + len(core) :]
        for p in lead:
            tokens.append(Token(p, p))
        if core:
            tokens.append(Token(core, core.lower()))
        for p in trail:
            tokens.append(Token(p, p))
        tokens[-1].whitespace = True
    return tokens


FAKE_ZH = LanguageTools(fake_normalize_zh, fake_zh_g2p)
FAKE_EN = LanguageTools(fake_normalize_en, fake_en_g2p)


@pytest.fixture
def fake_tools() -> tuple[LanguageTools, LanguageTools]:
    """The fake ``(zh, en)`` tools."""
    return FAKE_ZH, FAKE_EN


@pytest.fixture
def make_fake() -> Callable[..., Frontend]:
    """Build a Frontend on the fake tools: ``make_fake(lexicon=...)``."""

    def _make(lexicon: object = None) -> Frontend:
        return Frontend(lexicon, tools={"zh": FAKE_ZH, "en": FAKE_EN})  # type: ignore[arg-type]

    return _make


@pytest.fixture
def fake_frontend(make_fake: Callable[..., Frontend], monkeypatch: pytest.MonkeyPatch) -> Frontend:
    monkeypatch.delenv("ONESTEP_LEXICON", raising=False)
    return make_fake()


def _real_tools_available() -> bool:
    names = ("onestep.frontend.zh.g2p", "onestep.frontend.zh.normalize", "onestep.frontend.en.g2p",
             "onestep.frontend.en.normalize")
    return all(importlib.util.find_spec(n) is not None for n in names)


@pytest.fixture(scope="session")
def real_frontend() -> Frontend:
    """The built-in tools, no user lexicon (an empty one, so ``$ONESTEP_LEXICON`` is ignored)."""
    if not _real_tools_available():
        pytest.skip("Mandarin/English G2P modules not built yet")
    return Frontend(lexicon={})


@pytest.fixture
def write_lexicon(tmp_path: Path) -> Callable[[object], Path]:
    """Write a lexicon JSON object (or raw text) to a temporary file and return its path."""

    def _write(data: object, name: str = "lexicon.json") -> Path:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return path

    return _write
