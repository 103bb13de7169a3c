"""The Mandarin frontend's hook for the language registry (:mod:`onestep.languages` names this module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from onestep.frontend.language_tools import LanguageTools

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.lexicon import Lexicon


def load_tools(lexicon: Lexicon | None = None) -> LanguageTools:
    """The built-in Mandarin tools: ``normalize_zh`` + ``MandarinG2P`` with the lexicon's Chinese words; their
    preload compiles the normalizer's rules (compiled on the first sentence with digits or symbols otherwise)."""
    from onestep.frontend.zh.g2p import MandarinG2P
    from onestep.frontend.zh.neutral_context import word_tags
    from onestep.frontend.zh.normalize import normalize_zh, preload

    word_tags()  # the part-of-speech table some neutral-tone rules read: opened (built once per machine) at load
    return LanguageTools(normalize_zh, MandarinG2P((lexicon.zh_words if lexicon else None) or None), preload)
