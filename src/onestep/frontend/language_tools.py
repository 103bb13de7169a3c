"""The interface between the frontend pipeline and one language's normalizer + G2P.

A language package (``onestep.frontend.zh.tools``, ``onestep.frontend.en.tools``, named by its record in
:mod:`onestep.languages`) exposes ``load_tools(lexicon) -> LanguageTools``; :func:`load_language_tools`
imports it on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from onestep.frontend.tokens import Token
from onestep.languages import get_language

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.lexicon import Lexicon


class LanguageTools(NamedTuple):
    """A language's normalizer and G2P.

    Attributes:
        normalize: raw text -> normalized text (numbers, symbols and abbreviations spelled out).
        g2p: normalized text -> tokens with phonemes.
        preload: loads now what the tools otherwise load on first use and a warm-up text does not reach (e.g.
            compiles every normalizer pattern); run by ``Frontend.preload``. None: nothing such.
    """

    normalize: Callable[[str], str]
    g2p: Callable[[str], list[Token]]
    preload: Callable[[], None] | None = None


def load_language_tools(code: str, lexicon: Lexicon | None = None) -> LanguageTools:
    """Build the tools of language ``code`` (its package's ``load_tools``; the user lexicon is passed on so
    that a G2P can take the entries of its own language)."""
    module = importlib.import_module(get_language(code).tools_module)
    return module.load_tools(lexicon)
