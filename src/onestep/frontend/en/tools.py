"""The English frontend's hook for the language registry (:mod:`onestep.languages` names this module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from onestep.frontend.language_tools import LanguageTools

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.lexicon import Lexicon


def load_tools(lexicon: Lexicon | None = None) -> LanguageTools:
    """The built-in English tools: ``normalize_en`` + ``EnglishG2P`` (user-lexicon Latin words are cut out
    by the pipeline before the G2P sees the text, so the lexicon is not used here); their preload compiles
    every normalizer pattern."""
    from onestep.frontend.en.g2p import EnglishG2P
    from onestep.frontend.en.normalize import normalize_en, preload

    return LanguageTools(normalize_en, EnglishG2P(None), preload)
