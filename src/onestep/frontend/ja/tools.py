"""The Japanese frontend's hook for the language registry (:mod:`onestep.languages` names this module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from onestep.frontend.language_tools import LanguageTools

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.lexicon import Lexicon


def load_tools(lexicon: Lexicon | None = None) -> LanguageTools:
    """The built-in Japanese tools: ``normalize_ja`` (numbers, dates and counters read out in kana) +
    :class:`~onestep.frontend.ja.g2p.JapaneseG2P` (OpenJTalk readings, misaki's romanizer)."""
    from onestep.frontend.ja.g2p import JapaneseG2P
    from onestep.frontend.ja.normalize import normalize_ja

    return LanguageTools(normalize_ja, JapaneseG2P())
