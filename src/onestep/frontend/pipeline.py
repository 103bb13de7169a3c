"""The text frontend: raw text -> normalized, language-tagged, phonemized :class:`Utterance` s.

Per sentence (see ``segment.split_sentences``): ``script.clean``; then the sentence's host language: the first
registered language whose script it holds (kana: Japanese, Han: Mandarin, Devanagari: Hindi, else English),
replaced by the requested language where that one reads the script (``language="es"`` for Latin text, ``"ja"``
for Han; :func:`onestep.languages.host_language`, docs/LANGUAGES.md). Non-English hosts go through their own
normalizer and G2P, with runs of other scripts (Latin words in Mandarin or Japanese) read by theirs:

* Mandarin sentence: user-lexicon Latin words are cut out first (so no normalizer touches them); the rest goes
  through ``normalize_zh`` (numbers are read in Chinese), is split into Chinese and Latin runs, Chinese runs
  go to ``MandarinG2P`` and Latin runs (words, acronyms: API, PLC) to ``normalize_en`` + ``EnglishG2P``.
  The result alternates ``zh``/``en`` segments, spoken by one voice.
* English sentence: lexicon words cut out, the rest through ``normalize_en`` + ``EnglishG2P``: one ``en``
  segment.

The G2Ps are built on first use (importing jieba/pypinyin or the English lexicons costs time) and reused.
Behaviour on bad input is documented in docs/FRONTEND.md.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import groupby
from pathlib import Path

import regex

from onestep.errors import UserError
from onestep.frontend.chunk import chunk_utterance
from onestep.frontend.import_tools import is_deferred, load_deferred
from onestep.frontend.language_tools import LanguageTools, load_language_tools
from onestep.frontend.lexicon import Lexicon, LexiconEntry, resolve_lexicon
from onestep.frontend.script import ZH_TO_ASCII_PUNCT, clean
from onestep.frontend.segment import (
    RunKind,
    join_segment_texts,
    split_script_runs,
    split_sentences,
)
from onestep.frontend.symbols import MAX_PHONEME_IDS
from onestep.frontend.symbols_unicode import read_symbols
from onestep.frontend.tokens import Lang, Segment, Token, Utterance
from onestep.languages import LATIN_LANGUAGE as LATIN
from onestep.languages import (
    DEFAULT_LANGUAGE,
    PRELOADED_LANGUAGES,
    get_language,
    host_language,
    language_codes,
    letters_language,
    script_language,
)

__all__ = ["Frontend", "LanguageTools", "TextTooLongError", "utterance_to_dict", "MAX_PHONEMIZE_CHARS"]

logger = logging.getLogger(__name__)

MAX_PHONEMIZE_CHARS = 100_000  # Frontend.phonemize refuses longer text; sentences() has no limit

# What English text may contain after normalize_en; anything else (left-over symbols) becomes a space.
_EN_DROP = regex.compile(r"[^\p{Latin}0-9\s,.!?;:'\"()\-—…“”]")
_NO_SPACE_BEFORE = tuple(",.!?;:)”’…")


class TextTooLongError(UserError, ValueError):
    """``Frontend.phonemize`` got more than ``MAX_PHONEMIZE_CHARS`` characters (use ``sentences`` instead)."""


@dataclass(frozen=True)
class _Match:
    """A user-lexicon Latin word found in the text, as written there."""

    surface: str
    entry: LexiconEntry


class Frontend:
    """Text to phonemes for every registered language and mixed text.

    Args:
        lexicon: user lexicon: a :class:`Lexicon`, a JSON file path, or a ``{word: pronunciation}`` mapping;
            None uses ``$ONESTEP_LEXICON`` when set (else no lexicon).
        tools: replace the built-in normalizer + G2P of some languages, by code (tests, experiments).
    Raises:
        LexiconError: the lexicon is invalid.
    """

    def __init__(
        self,
        lexicon: Lexicon | str | Path | Mapping[str, str] | None = None,
        *,
        tools: Mapping[Lang, LanguageTools] | None = None,
    ) -> None:
        self.lexicon = resolve_lexicon(lexicon)
        self._tools: dict[Lang, LanguageTools] = dict(tools or {})
        for code in self._tools:
            get_language(code)  # an unknown code is an error here, not at the first sentence
        self._init_lock = threading.Lock()

    def tools(self, lang: Lang) -> LanguageTools:
        """The tools of language ``lang``, built on first use (once, also when first used from several
        threads)."""
        found = self._tools.get(lang)
        if found is None:
            with self._init_lock:
                found = self._tools.get(lang)
                if found is None:
                    found = self._tools[lang] = load_language_tools(lang, self.lexicon)
        return found

    def preload(self, langs: Iterable[Lang] | None = None, *, background: bool = True) -> threading.Thread | None:
        """Build the tools of ``langs`` now instead of on their first use (e.g. while a server starts).

        Each language is warmed by phonemizing a short text of it, which loads everything a later call may
        need (imports, dictionaries, lexicons, the number readers and, for English, the espeak fallback for
        out-of-lexicon words); then each language's ``LanguageTools.preload`` loads the rest (e.g. compiles
        every normalizer pattern), so that no request pays for a first-time load. Safe to run alongside other
        calls: the tools are built once under a lock, and calls that need them wait for them.

        Args:
            langs: codes of the languages to load (default: :data:`~onestep.languages.PRELOADED_LANGUAGES`).
            background: load in a daemon thread and return it at once (``join()`` it to wait); else load
                before returning None.
        Raises:
            ValueError: an unknown language.
        """
        langs = list(PRELOADED_LANGUAGES if langs is None else langs)
        unknown = [lang for lang in langs if lang not in language_codes()]
        if unknown:
            raise ValueError(f"preload languages must be among {sorted(language_codes())}, got {unknown}")
        texts = [get_language(lang).warm_up_text for lang in langs]
        deferred = [name for lang in langs for name in get_language(lang).deferred_modules]

        def load() -> None:
            for text in texts:
                self.phonemize(text)
            for lang in langs:
                hook = self.tools(lang).preload
                if hook is not None:
                    hook()
            for name in deferred:
                if is_deferred(name):
                    load_deferred(name)

        if not background:
            load()
            return None
        thread = threading.Thread(target=load, name="onestep-frontend-preload", daemon=True)
        thread.start()
        return thread

    # -- public API -------------------------------------------------------------------------------------------

    def phonemize(self, text: str, language: str | None = None) -> Utterance:
        """Phonemize a whole text into one :class:`Utterance` (adjacent same-language segments merged).

        Args:
            text: up to ``MAX_PHONEMIZE_CHARS`` characters.
            language: the language of sentences of digits and symbols alone when the text has no letters
                (see :meth:`sentences`).
        Raises:
            TextTooLongError: the text is longer; use :meth:`sentences`, which streams.
        """
        if len(text) > MAX_PHONEMIZE_CHARS:
            raise TextTooLongError(
                f"text has {len(text)} characters, more than phonemize() takes ({MAX_PHONEMIZE_CHARS}); "
                "use Frontend.sentences() for long text"
            )
        skipped: Counter[str] = Counter()
        context = _NumbersLanguage(text, language)
        parts = [self._sentence(s, skipped, context) for s in split_sentences(text)]
        _warn_skipped(skipped)
        return _merge(text, parts)

    def sentences(
        self,
        text: str,
        max_ids: int = MAX_PHONEME_IDS,
        skipped_chars: Counter[str] | None = None,
        language: str | None = None,
    ) -> Iterator[Utterance]:
        """Yield the pieces to synthesize one by one, lazily: one per sentence, split further if too long.

        A sentence is read in the language of its letters (Mandarin if it has a Han character). A sentence of
        digits and symbols alone ("2. 点击登录" cut after "2.", a line "14:30") is read in the language of the
        last sentence with letters, else of the first one in the text, else in ``language``, else in
        :data:`~onestep.languages.DEFAULT_LANGUAGE`.

        Args:
            text: any length (a 1 MB text is processed sentence by sentence).
            max_ids: phoneme-id limit per piece, boundary pads excluded (510 = the models' limit).
            skipped_chars: when given, counts each character that cannot be spoken (symbols no reading
                covers, letters of unsupported scripts; :mod:`onestep.frontend.symbols_unicode`).
            language: the voice's language, for a text with no letters at all ("3+5=8").
        Yields:
            utterances with ``count_ids(u.phonemes) <= max_ids``; sentences with nothing to speak are skipped.
        """
        if max_ids < 1:
            raise ValueError(f"max_ids must be >= 1, got {max_ids}")
        warned: set[str] = set()
        context = _NumbersLanguage(text, language)
        for sentence in split_sentences(text):
            skipped: Counter[str] = Counter()
            utt = self._sentence(sentence, skipped, context, skipped_chars)
            new = Counter({k: v for k, v in skipped.items() if k not in warned})
            warned.update(new)
            _warn_skipped(new)
            if utt.segments:  # every kept segment has phonemes
                yield from chunk_utterance(utt, max_ids)

    def speakable_sentences(
        self,
        text: str,
        max_ids: int = MAX_PHONEME_IDS,
        skipped_chars: Counter[str] | None = None,
        language: str | None = None,
    ) -> Iterator[Utterance]:
        """:meth:`sentences` without the pieces whose phonemes are blank: what a voice speaks, lazily."""
        return (u for u in self.sentences(text, max_ids, skipped_chars, language) if u.phonemes.strip())

    # -- one sentence -----------------------------------------------------------------------------------------

    def _sentence(
        self,
        raw: str,
        skipped: Counter[str],
        context: _NumbersLanguage,
        skipped_chars: Counter[str] | None = None,
    ) -> Utterance:
        text, unreadable = read_symbols(raw)
        if skipped_chars is not None:
            skipped_chars.update(unreadable)
        text, removed = clean(text)
        skipped.update(removed)
        host = context.of(text)
        if host is None:
            segments = []
        elif host == LATIN:
            segments = [seg for seg in [self._latin_segment(self._pieces(text))] if seg is not None]
        else:
            segments = self.hosted_sentence(host, text)
        # drop segments with nothing to say (e.g. characters no G2P can read), then rejoin their neighbours
        segments = _merge_segments(seg for seg in segments if seg.phonemes)
        return Utterance(text=raw, normalized=join_segment_texts(segments), segments=segments)

    def _pieces(self, text: str) -> list[str | _Match]:
        """``text`` cut at user-lexicon Latin words: plain strings and :class:`_Match` es, in order."""
        if self.lexicon is None or not self.lexicon.latin:
            return [text]
        out: list[str | _Match] = []
        pos = 0
        for start, end, entry in self.lexicon.find_latin(text):
            if start > pos:
                out.append(text[pos:start])
            out.append(_Match(text[start:end], entry))
            pos = end
        if pos < len(text):
            out.append(text[pos:])
        return out

    def hosted_sentence(self, host: Lang, text: str) -> list[Segment]:
        """A sentence of a non-Latin language (``host``, e.g. Mandarin) that may hold Latin-script words:
        lexicon Latin words cut out, the rest normalized by the host's normalizer and split into script runs;
        the host's runs go to its G2P, Latin runs (and lexicon words) to :meth:`_latin_segment`. Public for
        tools that read a fragment as it would be read inside such a sentence ("25kg" in Mandarin: the external
        normalization suites of ``onestep eval-frontend``); ``text`` is already cleaned (symbols read)."""
        tools = self.tools(host)
        items: list[tuple[RunKind, str | _Match]] = []
        for piece in self._pieces(text):
            if isinstance(piece, _Match):
                items.append((LATIN, piece))
            elif piece.strip():
                items.extend(split_script_runs(tools.normalize(piece), host))
        segments: list[Segment] = []
        for kind, group in groupby(items, key=lambda item: item[0]):
            parts = [part for _, part in group]
            if kind == LATIN:
                seg = self._latin_segment(parts)
                if seg is not None:
                    segments.append(seg)
            else:
                run_text = "".join(p for p in parts if isinstance(p, str))
                segments.append(Segment(kind, run_text, self.tools(kind).g2p(run_text)))
        return segments

    def _latin_segment(self, parts: list[str | _Match]) -> Segment | None:
        """One Latin-script (English) segment from plain text and lexicon matches; None if nothing is left to
        speak."""
        texts: list[str] = []
        tokens: list[Token] = []

        def add(text: str, new_tokens: list[Token]) -> None:
            if not text:
                return
            if texts:
                space = not text.startswith(_NO_SPACE_BEFORE)
                if tokens:
                    tokens[-1] = replace(tokens[-1], whitespace=space)  # copy: a G2P may cache its tokens
                texts.append(" " if space else "")
            texts.append(text)
            tokens.extend(new_tokens)

        buffer = ""
        for part in [*parts, None]:
            if isinstance(part, str):
                buffer += part
            elif isinstance(part, _Match) and part.entry.kind == "respelling":
                buffer += part.entry.text
            else:
                normalized = self._normalize_latin(buffer)
                add(normalized, self.tools(LATIN).g2p(normalized) if normalized else [])
                buffer = ""
                if part is not None:
                    add(part.surface, [Token(part.surface, part.entry.text)])
        if not tokens:
            return None
        return Segment(LATIN, "".join(texts), tokens)

    def _normalize_latin(self, text: str) -> str:
        text = text.translate(ZH_TO_ASCII_PUNCT)
        if not text.strip():
            return ""
        text = _EN_DROP.sub(" ", self.tools(LATIN).normalize(text))
        return re.sub(r"\s+", " ", text).strip()


def _merge(text: str, parts: list[Utterance]) -> Utterance:
    """One utterance from per-sentence ones, merging adjacent segments of the same language."""
    segments = _merge_segments(seg for utt in parts for seg in utt.segments)
    return Utterance(text=text, normalized=join_segment_texts(segments), segments=segments)


def _merge_segments(segments: Iterable[Segment]) -> list[Segment]:
    """Adjacent segments of one language joined into one (a space between them in the phonemes)."""
    out: list[Segment] = []
    for seg in segments:
        if out and out[-1].lang == seg.lang:
            prev = out[-1]
            prev.tokens[-1] = replace(prev.tokens[-1], whitespace=True)
            prev.text += (" " if get_language(seg.lang).spaced else "") + seg.text
            prev.tokens.extend(seg.tokens)
        else:
            out.append(Segment(seg.lang, seg.text, list(seg.tokens)))
    return out


def _warn_skipped(skipped: Counter[str]) -> None:
    if skipped:
        detail = ", ".join(f"{name.lower()} ({n})" for name, n in sorted(skipped.items()))
        logger.warning("skipped characters of unsupported scripts: %s", detail)


def utterance_to_dict(utt: Utterance) -> dict[str, object]:
    """The JSON form of an utterance (the ``onestep phonemize --json`` contract).

    ``{"text", "normalized", "segments": [{"lang", "text", "pinyin" (languages with per-character readings:
    zh), "phonemes"}]}``.
    """
    segments: list[dict[str, object]] = []
    for seg in utt.segments:
        item: dict[str, object] = {"lang": seg.lang, "text": seg.text}
        if get_language(seg.lang).readings:
            item["pinyin"] = seg.pinyin
        item["phonemes"] = seg.phonemes
        segments.append(item)
    return {"text": utt.text, "normalized": utt.normalized, "segments": segments}


class _NumbersLanguage:
    """The language each sentence of one text is read in: that of its letters; for a sentence of digits and
    symbols alone, that of the last sentence with letters, else of the first letters in the whole text, else
    the caller's ``language``, else :data:`~onestep.languages.DEFAULT_LANGUAGE`."""

    def __init__(self, text: str, language: str | None) -> None:
        self._text = text
        self._language = language
        self._last: str | None = None

    def of(self, sentence: str) -> str | None:
        """The language of ``sentence``; None if it holds no character of a registered script."""
        written = letters_language(sentence)
        if written is not None:
            self._last = host_language(written, sentence, self._language)
            return self._last
        if script_language(sentence) is None:  # no letters and no digits either
            return None
        if self._last is None:  # the first lettered sentence may come later; scanned once per text
            written = letters_language(self._text)
            self._last = host_language(written, self._text, self._language) if written else None
            self._last = self._last or self._language or DEFAULT_LANGUAGE
        return self._last
