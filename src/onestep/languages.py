"""The language registry: the one place that knows which languages OneStep speaks.

Each :class:`Language` record says how to recognize the language's script, where its frontend tools live,
how to warm them up, how its words are joined, and how protocols tag it. Everything else (the frontend's
script runs and tool loading, voice configs, the default-voice rule, the CLI's ``--language`` choices, the
Wyoming service description) reads this registry instead of writing the codes out.

Adding a language = one frontend package whose ``tools`` module has ``load_tools(lexicon) -> LanguageTools`` (see
``onestep.frontend.zh``) + one record in :data:`LANGUAGES` (see docs/ARCHITECTURE.md).

This module sits at the bottom of the import graph (beside ``onestep.config``): it imports no frontend code;
the tools are named by module path and imported on first use by ``onestep.frontend.pipeline``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import regex

from onestep.errors import UserError


@dataclass(frozen=True)
class Language:
    """One spoken language.

    Attributes:
        code: the language code used in voice.json, segments and the API (``"zh"``, ``"en"``).
        name: English name, for messages and docs.
        script: regex character class of the characters that belong to this language's runs of text
            (``\\p{Han}`` for Mandarin; Latin letters and ASCII digits for English).
        tools_module: module whose ``load_tools(lexicon)`` returns the normalizer and G2P; imported on first use.
        warm_up_text: a short text whose phonemization loads everything a later call may need
            (dictionaries, lexicons, fallbacks), used by ``Frontend.preload``.
        deferred_modules: modules imported lazily on first use that the warm-up imports as well.
        spaced: words are separated by spaces (English) rather than written together (Mandarin); runs of an
            unspaced language keep only their own script and punctuation.
        readings: tokens carry one reading per character (Mandarin pinyin), shown by ``phonemize --json``.
        sample_text: a short sentence for health checks (``onestep doctor``).
        protocol_tags: language tags announced to protocol clients (Wyoming), first = preferred.
        abbreviations_module: module with ``TITLES_BEFORE_NAMES`` and ``BEFORE_NUMBERS`` (lower-case words after
            which a ``.`` does not end a sentence; the latter only when a digit follows), read by the sentence
            splitter on first use; "" = none.
        detected: text is recognized as this language by its script alone. False for the Latin-script languages
            other than English (Spanish, French, ...): their letters cannot be told apart, so their text is read
            in them only when the request's language or the voice's native language says so.
        also_reads: regex character class of other scripts this language reads when it is the requested
            language (Japanese reads Han characters: "東京" is Japanese with ``language="ja"``, else Mandarin).
        espeak_voice: the espeak-ng voice of an espeak-read language (``"fr-fr"``), "" for the others.
        extra: the optional-dependency group its frontend needs (``"ja"``), "" = the base install.
        say_as_module: module with ``READER``, the language's words for SSML ``<say-as>`` (a
            :class:`onestep.ssml.say_as.SayAsReader`); "" = it reads ``<say-as>`` with :data:`DEFAULT_LANGUAGE`'s.
        han_symbol_words: symbols in its sentences (``½``, ``™``, ``℃``, ``α``, ``²``) are spelled in Han words for
            its own normalizer (``二分之一``, ``商标``: Mandarin); otherwise in Latin words (``one half``,
            ``trademark``) that its sentence reads as a Latin run (by :data:`LATIN_LANGUAGE`): see
            :func:`onestep.frontend.symbols_unicode.read_symbols`.
        normalizer_symbols: symbols its own normalizer reads beside a number, which
            :func:`~onestep.frontend.symbols_unicode.read_symbols` leaves for it in its sentences (``₽500`` ->
            五百卢布 in Mandarin, ``3℃`` -> さんど in Japanese) instead of spelling or dropping them.
    """

    code: str
    name: str
    script: str
    tools_module: str
    warm_up_text: str
    deferred_modules: tuple[str, ...] = ()
    spaced: bool = True
    readings: bool = False
    sample_text: str = ""
    protocol_tags: tuple[str, ...] = ()
    abbreviations_module: str = ""
    detected: bool = True
    also_reads: str = ""
    espeak_voice: str = ""
    extra: str = ""
    say_as_module: str = ""
    han_symbol_words: bool = False
    normalizer_symbols: str = ""

    @cached_property
    def script_char(self) -> regex.Pattern[str]:
        """Compiled :attr:`script` (matches one character)."""
        return regex.compile(self.script)

    @cached_property
    def reads_char(self) -> regex.Pattern[str]:
        """Matches one character this language reads in its own sentences: its script, :attr:`also_reads`, or
        an ASCII digit (every language writes them; its normalizer reads them)."""
        return regex.compile("|".join(part for part in (self.script, self.also_reads, "[0-9]") if part))


# Order matters: a sentence belongs to the first detected language whose script it contains (Japanese text
# has kana, so it comes before Mandarin; Mandarin text with English words in it is a Mandarin sentence); text
# with no such script falls back to DEFAULT_LANGUAGE. The Latin-script languages after English are never
# detected: a request's language (or the voice's native language) selects them (see host_language).
_LATIN = r"[\p{Latin}0-9]"
LANGUAGES: tuple[Language, ...] = (
    Language(
        code="ja",
        name="Japanese",
        script=r"[\p{Hiragana}\p{Katakana}ー]",
        also_reads=r"[\p{Han}々〆ヶ]",
        tools_module="onestep.frontend.ja.tools",
        warm_up_text="こんにちは、東京。",
        spaced=False,
        sample_text="こんにちは、世界。",
        normalizer_symbols="℃",
        protocol_tags=("ja", "ja_JP"),
        extra="ja",
    ),
    Language(
        code="zh",
        name="Mandarin Chinese",
        script=r"\p{Han}",
        tools_module="onestep.frontend.zh.tools",
        warm_up_text="你好。",
        spaced=False,
        readings=True,
        han_symbol_words=True,
        say_as_module="onestep.frontend.zh.say_as",
        normalizer_symbols="₽฿₫₱₺",
        sample_text="你好，世界。",
        protocol_tags=("zh", "zh_CN"),
    ),
    Language(
        code="hi",
        name="Hindi",
        script=r"[\p{Devanagari}]",
        tools_module="onestep.frontend.hi.tools",
        warm_up_text="नमस्ते।",
        sample_text="नमस्ते दुनिया।",
        protocol_tags=("hi", "hi_IN"),
        espeak_voice="hi",
    ),
    Language(
        code="en",
        name="English",
        script=_LATIN,
        tools_module="onestep.frontend.en.tools",
        # "zorblax" is in no lexicon: it loads the espeak fallback too
        warm_up_text="Hello, zorblax.",
        sample_text="Hello world.",
        protocol_tags=("en", "en_US", "en_GB"),
        abbreviations_module="onestep.frontend.en.tables",
        say_as_module="onestep.frontend.en.say_as",
    ),
    Language(
        code="es",
        name="Spanish",
        script=_LATIN,
        tools_module="onestep.frontend.es.tools",
        warm_up_text="Hola, mundo.",
        sample_text="Hola, mundo.",
        protocol_tags=("es", "es_ES", "es_MX"),
        detected=False,
        espeak_voice="es",
    ),
    Language(
        code="fr",
        name="French",
        script=_LATIN,
        tools_module="onestep.frontend.fr.tools",
        warm_up_text="Bonjour, le monde.",
        sample_text="Bonjour le monde.",
        protocol_tags=("fr", "fr_FR"),
        detected=False,
        espeak_voice="fr-fr",
    ),
    Language(
        code="it",
        name="Italian",
        script=_LATIN,
        tools_module="onestep.frontend.it.tools",
        warm_up_text="Ciao, mondo.",
        sample_text="Ciao mondo.",
        protocol_tags=("it", "it_IT"),
        detected=False,
        espeak_voice="it",
    ),
    Language(
        code="pt",
        name="Portuguese (Brazil)",
        script=_LATIN,
        tools_module="onestep.frontend.pt.tools",
        warm_up_text="Olá, mundo.",
        sample_text="Olá, mundo.",
        protocol_tags=("pt", "pt_BR"),
        detected=False,
        espeak_voice="pt-br",
    ),
)
PRELOADED_LANGUAGES: tuple[str, ...] = ("zh", "en")
"""The languages a frontend loads ahead by default (``Frontend.preload``, ``TTS()``): the two that any voice may
meet in mixed text. The others load on their first sentence, or ahead when a voice of theirs is loaded."""
DEFAULT_LANGUAGE = "en"
"""The language of text in no registered script, and of the voice used when there is no text at all."""
LATIN_LANGUAGE = "en"
"""The language whose tools read Latin-script words: user-lexicon Latin entries, and Latin runs inside other
languages' sentences (English words in Mandarin text)."""

_BY_CODE: dict[str, Language] = {lang.code: lang for lang in LANGUAGES}

SPOKEN_SCRIPTS = "".join(dict.fromkeys(part for lang in LANGUAGES for part in (lang.script, lang.also_reads) if part))
"""The characters some registered language reads, as the inside of a regex character class (``regex`` V1):
letters of any other script (Cyrillic, Hangul, ...) cannot be spoken."""


UNSPACED_CHAR = "|".join(
    dict.fromkeys(part for lang in LANGUAGES if not lang.spaced for part in (lang.script, lang.also_reads) if part)
)
"""A regex alternation matching one character of a language written without spaces (Han, kana): after such a
character a sentence may start right after ``!`` or ``.`` with no space (``onestep.frontend.segment``)."""


class UnknownLanguageError(UserError, ValueError):
    """A language code that is not in the registry; the message lists the known ones."""


def language_codes() -> tuple[str, ...]:
    """All registered codes, in registry order (``("zh", "en")``)."""
    return tuple(_BY_CODE)


def get_language(code: str) -> Language:
    """The record of ``code``; raises :class:`UnknownLanguageError` naming the known codes."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise UnknownLanguageError(f"unknown language {code!r}; known languages: {', '.join(_BY_CODE)}") from None


_DETECTED: tuple[Language, ...] = tuple(lang for lang in LANGUAGES if lang.detected)


def language_of_char(ch: str, host: str | None = None) -> str | None:
    """The language a character is read in: ``host`` when it reads the character (Han in a Japanese
    sentence, Latin letters in a Spanish one), else the first detected language whose script holds it, else
    None (punctuation, symbols, space)."""
    if host is not None and _BY_CODE[host].reads_char.match(ch) is not None:
        return host
    for lang in _DETECTED:
        if lang.script_char.match(ch) is not None:
            return lang.code
    return None


def language_from_tag(tag: str) -> str | None:
    """The registered code of a language tag (``"en_US"``, ``"zh-CN"``, ``"ZH"``), or None if not spoken."""
    code = tag.replace("-", "_").split("_")[0].lower()
    return code if code in _BY_CODE else None


def requested_language(tag: str) -> str:
    """The registry code of a language a request asks for (a code or a tag: ``"es-MX"``, ``"ja_JP"``); raises
    :class:`UnknownLanguageError` naming the languages spoken here."""
    code = language_from_tag(tag)
    if code is None:
        raise UnknownLanguageError(f"unknown language {tag[:32]!r}; known languages: {', '.join(_BY_CODE)}")
    return code


def script_language(text: str) -> str | None:
    """The first registered language whose script occurs in ``text`` (``"zh"`` for any text with a Han
    character, mixed Chinese-English text included), or None if no character of a registered script does."""
    for lang in _DETECTED:
        if lang.script_char.search(text) is not None:
            return lang.code
    return None


_DIGITS = regex.compile(r"[0-9]")


def letters_language(text: str) -> str | None:
    """:func:`script_language` of ``text``'s letters alone: digits, which every language writes, decide
    nothing ("3+5=8", "14:30" -> None; "A4纸" -> ``"zh"``)."""
    return script_language(_DIGITS.sub("", text))


def host_language(written: str, text: str, requested: str | None) -> str:
    """The language a sentence is read in, given the language its letters detect (``written``) and the
    requested one (the request's ``language``, else the voice's native language): the requested language
    when it reads the characters that made ``written`` ("Hola" with ``"es"`` -> Spanish; "東京" with
    ``"ja"`` -> Japanese), else ``written`` ("你好" with ``"es"`` stays Mandarin; kana is always Japanese)."""
    if requested is None or requested == written or requested not in _BY_CODE:
        return written
    match = _BY_CODE[written].script_char.search(_DIGITS.sub("", text)) or _BY_CODE[written].script_char.search(text)
    if match is not None and _BY_CODE[requested].reads_char.match(match.group()) is not None:
        return requested
    return written


def detect_language(text: str) -> str:
    """The language a whole text is spoken in: :func:`script_language`, else :data:`DEFAULT_LANGUAGE`."""
    return script_language(text) or DEFAULT_LANGUAGE
