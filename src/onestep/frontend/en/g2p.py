"""English grapheme-to-phoneme conversion in the phoneme style of Kokoro's teacher voices.

The phonemes are misaki 0.9.4's American English (``misaki.en.G2P(trf=False, british=False)``, Kokoro v1.0
style: flap ``T``, stress marks ``ˈ ˌ``), because the teacher voices were trained on exactly those. misaki
normally tags words with spaCy's ``en_core_web_sm``, which is not installable here; this module runs misaki's
own pipeline (lexicon, stemming, number reading, stress, espeak fallback) on words that spaCy's blank English
tokenizer split (re-run without spaCy: :mod:`onestep.frontend.en.tokenizer`) and
:mod:`onestep.frontend.en.tagger` tagged.

Speed: misaki's pipeline costs about 0.1 ms a word. Its output for a "unit" (a run of tokens with no space
between them, e.g. ``do|n't`` or ``well|-|known``, or one punctuation mark) depends only on the unit and on the
two facts misaki carries leftwards from the next unit (does the next word start with a vowel sound; is it "to").
So each (unit, context) is run through misaki once and cached: a plain word alone, its lexicon look-up handed
the context; anything else between two probe words that set and read the context. A sentence of known words
then costs a tokenizer call, the tagger and dictionary look-ups (~0.2 ms for 15 words). Sentences that misaki
treats across units (currency symbols before numbers) run through misaki whole. Tests check that the unit
path gives exactly the whole-sentence result.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
import types
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from onestep.frontend.en.spacy_import import defer_spacy
from onestep.frontend.espeak_import import import_misaki_espeak

defer_spacy()  # before misaki, whose `import spacy` then costs nothing (spaCy is not needed, see spacy_import)

from misaki import en as misaki_en  # noqa: E402

from onestep.frontend.en.lexicon_cache import load_lexicons  # noqa: E402
from onestep.frontend.en.tagger import UNKNOWN_TAG, tag  # noqa: E402
from onestep.frontend.en.tokenizer import BlankEnglishTokenizer  # noqa: E402
from onestep.frontend.symbols import unknown_symbols, vocab  # noqa: E402
from onestep.frontend.tokens import Token  # noqa: E402

UNIT_CACHE_SIZE = 1 << 16
FALLBACK_CACHE_SIZE = 1 << 14
# A run of characters without spaces longer than this is no word; misaki's cost on one unit grows with the
# cube of its length, so such runs are read as their letter and digit pieces (at most this long) instead.
MAX_UNIT_CHARS = 48

# misaki's context, right to left: (next word starts with a vowel sound: True/False/None at a pause,
# next word is "to"), and a word that produces it when placed right of a unit.
_Context = tuple[bool | None, bool]
_END_CONTEXT: _Context = (None, False)
_RIGHT_PROBES: dict[_Context, tuple[str, str]] = {
    (True, False): ("I", "PRP"),
    (False, False): ("my", "PRP$"),
    (False, True): ("to", "TO"),
}
_PROBE_TAG = "PROBE"  # tags the left probe word; misaki keeps a token's tag through its re-tokenization
_LEFT_PROBE = ("the", _PROBE_TAG)
_LETTER_PLURAL = re.compile(r"^[A-Z]s$")
_FINAL_INITIAL = re.compile(r"^[A-Za-z]\.$")


@dataclass(frozen=True)
class Word:
    """One tokenizer token, carrying the attributes of a spaCy token that misaki's ``G2P.tokenize`` reads.

    Attributes:
        text: the token as written.
        tag_: its Penn Treebank tag (from :func:`onestep.frontend.en.tagger.tag`).
        whitespace_: ``" "`` if a space follows it, else ``""``.
        preset: phonemes fixed in advance (user lexicon, letter plurals), or None to look them up.
    """

    text: str
    tag_: str
    whitespace_: str
    preset: str | None = None


class _ProbedLexicon(misaki_en.Lexicon):
    """misaki's US lexicon, instrumented for the unit cache.

    At a probe word it records the context it is handed instead of looking the word up. Inside
    :meth:`given_context` it looks words up in that context instead of the one misaki hands it (for a
    one-word run, misaki's fresh start-of-text context). It notes each word's phonemes on the token, as they
    are before misaki's final flap/glottal-stop rewrite.
    """

    def __init__(self, british: bool) -> None:
        # misaki's own __init__ parses its JSON lexicons on every start; these are the attributes it sets,
        # with the same dictionaries read from a cache (see lexicon_cache).
        self.british = british
        self.cap_stresses = (0.5, 2)
        self.golds, self.silvers = load_lexicons(british)
        self._local = threading.local()

    @contextlib.contextmanager
    def given_context(self, context: _Context) -> Iterator[None]:
        self._local.context = misaki_en.TokenContext(*context)
        try:
            yield
        finally:
            self._local.context = None

    def __call__(self, tk: Any, ctx: Any) -> tuple[str | None, int | None]:
        if tk.tag == _PROBE_TAG:
            tk._.seen_context = (ctx.future_vowel, ctx.future_to)
            return "", 4
        given = getattr(self._local, "context", None)
        ps, rating = super().__call__(tk, ctx if given is None else given)
        tk._.raw_phonemes = ps
        return ps, rating


class _CachedEspeak:
    """misaki's espeak-ng fallback for out-of-lexicon words, memoized on the word's text.

    The fallback (phonemizer and espeak-ng, ~0.4 s to import) is loaded on the first out-of-lexicon word.
    """

    def __init__(self) -> None:
        self._espeak: Any = None
        self._lock = threading.Lock()
        self._phonemize = functools.lru_cache(maxsize=FALLBACK_CACHE_SIZE)(self._run)

    def _run(self, text: str) -> tuple[str | None, int | None]:
        with self._lock:
            if self._espeak is None:
                self._espeak = import_misaki_espeak().EspeakFallback(british=False)
        return self._espeak(types.SimpleNamespace(text=text))  # EspeakFallback reads token.text only

    def __call__(self, token: Any) -> tuple[str | None, int | None]:
        ps, rating = self._phonemize(token.text)
        token._.raw_phonemes = ps
        return ps, rating


class _MisakiPipeline(misaki_en.G2P):
    """misaki's English G2P run on pre-tokenized, pre-tagged :class:`Word` lists.

    Call it as ``pipeline(words, preprocess=False)``: misaki's ``tokenize`` asks ``self.nlp`` for the spaCy
    doc, which here is the word list itself.
    """

    def __init__(self, lexicon: misaki_en.Lexicon, fallback: _CachedEspeak) -> None:
        # misaki's own __init__ loads en_core_web_sm; these are the attributes its methods use.
        self.version = None  # Kokoro v1.0 style: flap ɾ -> T, glottal stop ʔ -> t
        self.british = False
        self.nlp = _as_doc
        self.lexicon = lexicon
        self.fallback = fallback
        self.unk = ""

    def tokenize(self, text: Any, tokens: Any, features: Any) -> list[Any]:
        mtokens = super().tokenize(text, tokens, features)
        for word, mt in zip(text, mtokens, strict=True):
            if word.preset is not None:
                mt.phonemes = word.preset
                mt._.rating = 5
                mt._.preset = word.preset
        return mtokens

    def run(self, words: Sequence[Word]) -> list[Any]:
        """misaki's output tokens (``MToken``) for ``words``, user phonemes kept verbatim."""
        _, mtokens = self(words, preprocess=False)
        for mt in mtokens:
            if mt._.preset is not None:
                mt.phonemes = mt._.preset
        return mtokens


def _as_doc(words: Sequence[Word]) -> Sequence[Word]:
    return words


@functools.lru_cache(maxsize=1)
def _shared_parts() -> tuple[BlankEnglishTokenizer, _ProbedLexicon, _MisakiPipeline]:
    """spaCy's blank English tokenizer (re-run without spaCy), misaki's US lexicon and the pipeline around it
    (loaded once from the onestep cache: ~0.1 s)."""
    lexicon = _ProbedLexicon(british=False)
    return BlankEnglishTokenizer(), lexicon, _MisakiPipeline(lexicon, _CachedEspeak())


@dataclass(frozen=True)
class _UnitResult:
    tokens: tuple[tuple[str, str], ...]  # (text, phonemes) of misaki's output tokens for the unit
    context: _Context  # the context misaki hands to the unit on the left


class EnglishG2P:
    """Normalized English text -> one :class:`~onestep.frontend.tokens.Token` per word or punctuation mark.

    Args:
        user_phonemes: word -> phoneme string (inventory symbols, no spaces) used verbatim in place of
            everything else; matched on the exact token text first, then on its lowercase form. Words are
            matched as spaCy's tokenizer splits them (``"don't"`` is ``"do"`` + ``"n't"``).
    Raises:
        ValueError: a user phoneme string is empty, has a space, or has a symbol outside the inventory.
    """

    def __init__(self, user_phonemes: Mapping[str, str] | None = None) -> None:
        self.user_phonemes = _checked_user_phonemes(user_phonemes or {})
        self._tokenizer, self._lexicon, self._pipeline = _shared_parts()

    def __call__(self, text: str) -> list[Token]:
        """Phonemize normalized English text.

        Args:
            text: normalized English (numbers, symbols and abbreviations already spelled out).
        Returns:
            tokens in order; ``"".join(t.phonemes + " " * t.whitespace for t in tokens)`` is misaki's
            phoneme string for ``text``.
        """
        text = text.strip()
        if not text:
            return []
        words = self.words(text)
        units = _units(words)
        too_long = any(sum(len(w.text) for w in u) > MAX_UNIT_CHARS for u in units)
        if not too_long and any(w.tag_ == "$" and w.text in misaki_en.CURRENCIES for w in words):
            return self.phonemize_whole(words)
        if too_long:
            units = [piece for u in units for piece in _split_long(u)]
        results: list[tuple[list[Word], _UnitResult]] = []
        context = _END_CONTEXT
        for unit in reversed(units):
            if context != _END_CONTEXT and context not in _RIGHT_PROBES:  # only with odd user phonemes
                if not too_long:
                    return self.phonemize_whole(words)
                context = _END_CONTEXT  # text too odd to be worth misaki's cost on its long units
            result = _unit_result(tuple((w.text, w.tag_, w.preset) for w in unit), context)
            results.append((unit, result))
            context = result.context
        out: list[Token] = []
        for unit, result in reversed(results):
            pieces = [Token(text=t, phonemes=p) for t, p in result.tokens]
            if pieces:
                pieces[-1].whitespace = bool(unit[-1].whitespace_)
            out.extend(pieces)
        return out

    def words(self, text: str) -> list[Word]:
        """Tokenize and tag ``text``, attaching user phonemes and letter-plural phonemes ("A P Is")."""
        pieces = self._tokenizer(text)
        texts = [p.text for p in pieces]
        spaces = [" " if p.space else "" for p in pieces]
        if texts and _FINAL_INITIAL.match(texts[-1]):
            # spaCy keeps "M." whole (an initial) and misaki then drops its period; at the end of the
            # text that period ends the sentence, so it is kept as punctuation ("... seven A M.").
            texts[-1:] = [texts[-1][0], "."]
            spaces[-1:] = ["", spaces[-1]]
        tags = tag(texts, [bool(s) for s in spaces])
        words = []
        for i, (t, s, g) in enumerate(zip(texts, spaces, tags, strict=True)):
            preset = self.user_phonemes.get(t)
            if preset is None:
                preset = self.user_phonemes.get(t.lower())
            if preset is None and _LETTER_PLURAL.match(t) and i > 0 and _is_letter(texts[i - 1]) and spaces[i - 1]:
                preset = self._lexicon._s(self._lexicon.golds[t[0]])
            words.append(Word(t, g, s, preset))
        return words

    def phonemize_whole(self, words: Sequence[Word]) -> list[Token]:
        """Run misaki on the whole word list at once (the reference the unit cache reproduces)."""
        return [
            Token(text=mt.text, phonemes=_in_inventory(mt.phonemes or ""), whitespace=bool(mt.whitespace))
            for mt in self._pipeline.run(words)
        ]



def _unit_result(unit: tuple[tuple[str, str, str | None], ...], context: _Context) -> _UnitResult:
    """misaki's reading of one unit given the context on its right (cached)."""
    try:
        return _run_unit(unit, context)
    except Exception:  # noqa: BLE001 - misaki raises assorted errors on garbage (e.g. 5,000-digit numbers)
        return _UnitResult(tokens=tuple((t, "") for t, _, _ in unit), context=context)


@functools.lru_cache(maxsize=UNIT_CACHE_SIZE)
def _run_unit(unit: tuple[tuple[str, str, str | None], ...], context: _Context) -> _UnitResult:
    if len(unit) == 1 and unit[0][2] is None and _plain_word(unit[0][0], unit[0][1]):
        return _run_plain_word(unit[0][0], unit[0][1], context)
    words = [Word(t, g, "", p) for t, g, p in unit]
    words[-1] = Word(words[-1].text, words[-1].tag_, " ", words[-1].preset)
    probe_l = Word(*_LEFT_PROBE, " ")
    probes_r = [Word(*_RIGHT_PROBES[context], "")] if context in _RIGHT_PROBES else []
    mtokens = _shared_parts()[2].run([probe_l, *words, *probes_r])
    inner = mtokens[1 : len(mtokens) - len(probes_r)]
    return _UnitResult(
        tokens=tuple((mt.text, _in_inventory(mt.phonemes or "")) for mt in inner),
        context=mtokens[0]._.seen_context,
    )


def _plain_word(text: str, tag_: str) -> bool:
    """True for a word misaki reads as one token on its own (its single-token branch)."""
    return tag_ != "$" and not _standalone(Word(text, tag_, " ")) and _unsplit(text)


@functools.lru_cache(maxsize=UNIT_CACHE_SIZE)
def _unsplit(text: str) -> bool:
    """True if misaki's sub-tokenizer keeps ``text`` whole."""
    return misaki_en.subtokenize(text) == [text]


def _run_plain_word(text: str, tag_: str, context: _Context) -> _UnitResult:
    """One plain word in one misaki run, without probes: the lexicon is handed the context directly, and
    the context passed on is misaki's own ``token_context`` of the word's phonemes (what its loop does)."""
    _, lexicon, pipeline = _shared_parts()
    with lexicon.given_context(context):
        (mt,) = pipeline.run([Word(text, tag_, " ")])
    passed_on = misaki_en.G2P.token_context(misaki_en.TokenContext(*context), mt._.raw_phonemes, mt)
    return _UnitResult(
        tokens=((mt.text, _in_inventory(mt.phonemes or "")),), context=(passed_on.future_vowel, passed_on.future_to)
    )


def _in_inventory(phonemes: str) -> str:
    """``phonemes`` without symbols outside the inventory (as Kokoro's own users drop them); normally all are in."""
    if _inventory().issuperset(phonemes):
        return phonemes
    bad = unknown_symbols(phonemes)
    return "".join(c for c in phonemes if c not in bad)


@functools.lru_cache(maxsize=1)
def _inventory() -> frozenset[str]:
    return frozenset(vocab())


def _is_letter(text: str) -> bool:
    return len(text) == 1 and "A" <= text <= "Z"


def _standalone(word: Word) -> bool:
    """True for tokens misaki never joins with their neighbours (punctuation, preset phonemes)."""
    if word.preset is not None:
        return True
    if word.tag_ == ":" and word.text in ("-", "–"):
        return True
    return word.tag_ in misaki_en.PUNCT_TAGS and not all(97 <= ord(c.lower()) <= 122 for c in word.text)


def _split_long(unit: list[Word]) -> list[list[Word]]:
    """A unit longer than ``MAX_UNIT_CHARS`` as one-word units of its letter and digit runs (chunked)."""
    if sum(len(w.text) for w in unit) <= MAX_UNIT_CHARS:
        return [unit]
    text = "".join(w.text for w in unit)
    pieces = [
        run[i : i + MAX_UNIT_CHARS]
        for run in re.findall(r"[^\W\d_]+|\d+", text)
        for i in range(0, len(run), MAX_UNIT_CHARS)
    ]
    split = [[Word(p, "CD" if p.isdigit() else UNKNOWN_TAG, " ")] for p in pieces]
    if split:
        split[-1] = [Word(pieces[-1], split[-1][0].tag_, unit[-1].whitespace_)]
    return split


def _units(words: Sequence[Word]) -> list[list[Word]]:
    """Split words into misaki's units: standalone tokens, and runs of tokens with no space in between."""
    units: list[list[Word]] = []
    open_run = False
    for w in words:
        if _standalone(w):
            units.append([w])
            open_run = False
            continue
        if open_run:
            units[-1].append(w)
        else:
            units.append([w])
        open_run = not w.whitespace_
    return units


def _checked_user_phonemes(user_phonemes: Mapping[str, str]) -> dict[str, str]:
    table = vocab()
    checked = {}
    for word, phonemes in user_phonemes.items():
        if not isinstance(phonemes, str) or not phonemes or " " in phonemes:
            raise ValueError(f"user phonemes for {word!r} must be a non-empty string without spaces, got {phonemes!r}")
        bad = sorted({c for c in phonemes if c not in table})
        if bad:
            raise ValueError(f"user phonemes for {word!r} use symbols outside the inventory: {bad}")
        checked[word] = phonemes
    return checked
