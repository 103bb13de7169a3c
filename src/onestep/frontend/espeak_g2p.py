"""G2P of the espeak-read languages (Spanish, French, Italian, Brazilian Portuguese, Hindi) in the teacher's style.

Kokoro v1.0 was trained on these languages with misaki's espeak path (``misaki.espeak.EspeakG2P``: espeak-ng IPA
with stress, diphthongs and affricates folded into Kokoro's one-symbol forms). We call the same class on each
normalized sentence, so the student hears exactly the phoneme style its teacher rendered, and cut the result
into word tokens for timestamps:

* the sentence is phonemized whole (espeak's cross-word rules, e.g. French liaison, are kept);
* when espeak gives one phoneme word per written word, the two are paired one to one; otherwise (a word espeak
  splits or joins) each written word is phonemized alone, so that every token still carries its own phonemes;
* punctuation attached to a word becomes its own token (``"mundo."`` -> ``mundo`` + ``.``), kept as phonemes
  only where the 114-symbol inventory has it (``¿``/``¡`` are not spoken).

libespeak-ng and its data come with ``espeakng-loader`` (a base dependency); misaki drives it through
``phonemizer``.
"""

from __future__ import annotations

import importlib
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from onestep.frontend.language_tools import LanguageTools
from onestep.frontend.symbols import is_known
from onestep.frontend.tokens import Token

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.lexicon import Lexicon

_LEADING = "¿¡«“\"(‘'"
_TRAILING = ",.!?;:»”\")…’'।॥"
_SPOKEN_AS = {"।": ".", "॥": "."}  # the Devanagari danda ends a sentence like a full stop


class EspeakG2P:
    """Normalized text of one espeak language -> word tokens with Kokoro-style phonemes.

    Args:
        espeak_voice: the espeak-ng voice (``"es"``, ``"fr-fr"``, ``"it"``, ``"pt-br"``, ``"hi"``).
    """

    def __init__(self, espeak_voice: str) -> None:
        from onestep.frontend.espeak_import import import_misaki_espeak

        self.espeak_voice = espeak_voice
        self._g2p = import_misaki_espeak().EspeakG2P(language=espeak_voice)
        self._lock = threading.Lock()  # one espeak-ng instance per process: calls must not interleave

    def phonemes(self, text: str) -> str:
        """The teacher-style phoneme string of ``text`` (punctuation kept as espeak keeps it)."""
        if not text.strip():
            return ""
        with self._lock:
            ps, _ = self._g2p(text)
        return ps

    def __call__(self, text: str) -> list[Token]:
        words = text.split()
        if not words:
            return []
        spoken = self.phonemes(text).split()
        if len(spoken) != len(words):
            spoken = [self.phonemes(word) for word in words]
        tokens: list[Token] = []
        for word, ps in zip(words, spoken):
            tokens.extend(_word_tokens(word, ps))
            if tokens:
                tokens[-1].whitespace = True
        tokens[-1].whitespace = False
        return tokens


def _word_tokens(word: str, phonemes: str) -> list[Token]:
    """One written word and its phonemes -> [leading punctuation] + word + [trailing punctuation] tokens."""
    lead, body, trail = _strip_punct(word)
    _, ps_body, _ = _strip_punct(phonemes)
    out = [Token(ch, _spoken_punct(ch)) for ch in lead]
    if body:
        out.append(Token(body, ps_body))
    out.extend(Token(ch, _spoken_punct(ch)) for ch in trail)
    return out


def _strip_punct(word: str) -> tuple[str, str, str]:
    start, end = 0, len(word)
    while start < end and word[start] in _LEADING:
        start += 1
    while end > start and word[end - 1] in _TRAILING:
        end -= 1
    return word[:start], word[start:end], word[end:]


@lru_cache(maxsize=64)
def _spoken_punct(ch: str) -> str:
    """``ch`` as a phoneme when the inventory has it (pauses and intonation), else nothing."""
    ch = _SPOKEN_AS.get(ch, ch)
    return ch if is_known(ch) else ""


def load_espeak_tools(code: str, lexicon: Lexicon | None = None) -> LanguageTools:
    """The tools of an espeak-read language of the registry: its package's ``normalize_<code>`` (numbers,
    dates, money and units spelled out in that language) + :class:`EspeakG2P` with the language's espeak-ng
    voice. User-lexicon Latin words are cut out by the pipeline before the G2P sees the text."""
    from onestep.languages import get_language

    normalizer = importlib.import_module(f"onestep.frontend.{code}.normalize")
    return LanguageTools(getattr(normalizer, f"normalize_{code}"), EspeakG2P(get_language(code).espeak_voice))
