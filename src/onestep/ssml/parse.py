"""SSML document -> a flat plan of :class:`Speech`, :class:`Phonemes` and :class:`Pause` pieces.

The supported subset and the rule for everything else are in docs/SSML.md. In short: ``speak``, ``p``,
``s``, ``break``, ``say-as``, ``phoneme``, ``sub``, ``prosody rate``, ``lang``, ``voice``; any other element
is *transparent* (its text is spoken as if the tags were absent, e.g. ``<emphasis>``); unknown attributes are
ignored; a bad value of a supported attribute is an error. Errors name the line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from xml.etree.ElementTree import Element, ParseError

from onestep.config import SPEED_MAX, SPEED_MIN
from onestep.errors import UserError
from onestep.languages import DEFAULT_LANGUAGE, language_codes, language_from_tag, language_of_char, script_language
from onestep.ssml.say_as import INTERPRETATIONS, say_as
from onestep.work_limits import NothingToSpeakError

#: Longest single ``<break>``, seconds (every request's work is bounded).
MAX_BREAK_S = 10.0
#: ``<break strength>`` -> seconds of silence.
BREAK_STRENGTHS: dict[str, float] = {
    "none": 0.0, "x-weak": 0.1, "weak": 0.2, "medium": 0.4, "strong": 0.7, "x-strong": 1.0,
}  # fmt: skip
#: Silence after a ``<p>`` (a paragraph ends with a pause; ``<s>`` only ends the sentence).
PARAGRAPH_BREAK_S = BREAK_STRENGTHS["medium"]
#: ``<prosody rate>`` keywords -> speed multiplier.
RATE_KEYWORDS: dict[str, float] = {"x-slow": 0.6, "slow": 0.8, "medium": 1.0, "default": 1.0, "fast": 1.25, "x-fast": 1.5}
_SENTENCE_END = frozenset(".!?。！？；;")
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_TIME = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$")
_RATE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$")


EMPTY_DOCUMENT = "the SSML document has nothing to speak"


class SsmlError(UserError, ValueError):
    """Malformed SSML or a bad value in it; the message names the line and column where known."""


@dataclass(frozen=True)
class Context:
    """What enclosing elements set for the text inside them."""

    rate: float = 1.0  # product of the enclosing <prosody rate>s
    voice: str | None = None  # <voice name>
    language: str | None = None  # <lang xml:lang> / <speak xml:lang>, a registry code


@dataclass(frozen=True)
class Speech:
    """Text to run through the frontend, with the settings of its context."""

    text: str
    rate: float = 1.0
    voice: str | None = None
    language: str | None = None


@dataclass(frozen=True)
class Phonemes:
    """An utterance given as phonemes of the 114-symbol inventory (``<phoneme>``); ``text`` is what it stands for."""

    phonemes: str
    text: str = ""
    rate: float = 1.0
    voice: str | None = None
    language: str | None = None


@dataclass(frozen=True)
class Pause:
    """Silence, seconds."""

    seconds: float


Piece = Speech | Phonemes | Pause


def is_ssml(text: str) -> bool:
    """True when ``text`` is an SSML document: it starts (after white space) with ``<speak``."""
    return text.lstrip().startswith("<speak")


def parse_ssml(text: str) -> list[Piece]:
    """The pieces of an SSML document, in order (adjacent text of one context joined).

    Raises:
        SsmlError: not well-formed XML (line and column given), a forbidden DTD/entity, a root other than
            ``<speak>``, or a bad value of a supported attribute.
        NothingToSpeakError: the document holds neither text, phonemes nor a break (``<speak></speak>``,
            ``<speak><sub alias="">x</sub></speak>``): every interface answers it as bad input, never with empty
            audio.
    """
    import defusedxml.ElementTree as safe_xml
    from defusedxml import DefusedXmlException

    try:
        root = safe_xml.fromstring(text)
    except ParseError as e:
        line, column = e.position
        reason = str(e).split(":")[0]
        raise SsmlError(f"malformed SSML at line {line}, column {column + 1}: {reason}") from None
    except DefusedXmlException as e:
        raise SsmlError(f"SSML may not declare a DTD or entities ({type(e).__name__})") from None
    if _local(root.tag) != "speak":
        raise SsmlError(f"the SSML root element must be <speak>, got <{_local(root.tag)}>")
    document_text = "".join(root.itertext())
    walker = _Walker(default_language=script_language(document_text) or DEFAULT_LANGUAGE)
    walker.element(root, Context(language=_language(root)))
    pieces = walker.finish()
    if not pieces:
        raise NothingToSpeakError(EMPTY_DOCUMENT)
    return pieces


def _local(tag: object) -> str:
    """Tag name without a namespace (``{http://www.w3.org/2001/10/synthesis}speak`` -> ``speak``)."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _where(element: Element) -> str:
    return f"<{_local(element.tag)}>"


def _language(element: Element) -> str | None:
    tag = element.get(_XML_LANG) or element.get("lang")
    if tag is None:
        return None
    code = language_from_tag(tag)
    if code is None:
        raise SsmlError(f"{_where(element)}: xml:lang {tag!r} is not spoken here; use one of {', '.join(language_codes())}")
    return code


class _Walker:
    def __init__(self, default_language: str) -> None:
        self.default_language = default_language
        self.pieces: list[Piece] = []

    def speak(self, text: str, ctx: Context) -> None:
        if not text or not text.strip():
            if text and self.pieces and isinstance(self.pieces[-1], Speech):
                self.pieces[-1] = replace(self.pieces[-1], text=self.pieces[-1].text + " ")
            return
        last = self.pieces[-1] if self.pieces else None
        if isinstance(last, Speech) and (last.rate, last.voice, last.language) == (ctx.rate, ctx.voice, ctx.language):
            self.pieces[-1] = replace(last, text=last.text + text)
        else:
            self.pieces.append(Speech(text, ctx.rate, ctx.voice, ctx.language))

    def nearby_language(self, after: str) -> str:
        """The language of the sentence around an element: its last letter before the element, else its
        first after it, else the document's."""
        before = next((p.text for p in reversed(self.pieces) if isinstance(p, Speech)), "")
        for text in (reversed(before), after):
            for ch in text:
                if ch in _SENTENCE_END:
                    break
                if (code := language_of_char(ch)) is not None:
                    return code
        return self.default_language

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            self.pieces.append(Pause(seconds))

    def end_sentence(self) -> None:
        """A sentence ends here: the next text is a new piece (the frontend sees a sentence boundary)."""
        if self.pieces and isinstance(self.pieces[-1], Speech):
            self.pieces.append(Pause(0.0))

    def element(self, el: Element, ctx: Context) -> None:
        name = _local(el.tag)
        handler = getattr(self, "_" + name.replace("-", "_"), None) if name in SUPPORTED else None
        if handler is not None:
            handler(el, ctx)
        else:  # the documented rule: unsupported elements are transparent
            self.children(el, ctx)

    def children(self, el: Element, ctx: Context) -> None:
        self.speak(el.text or "", ctx)
        for child in el:
            if isinstance(child.tag, str):  # comments and processing instructions have callable tags
                self.element(child, ctx)
            self.speak(child.tail or "", ctx)

    # --- supported elements --------------------------------------------------------------------------------
    def _speak(self, el: Element, ctx: Context) -> None:
        self.children(el, ctx)

    def _p(self, el: Element, ctx: Context) -> None:
        self.end_sentence()
        self.children(el, ctx)
        self.pause(PARAGRAPH_BREAK_S)

    def _s(self, el: Element, ctx: Context) -> None:
        self.end_sentence()
        self.children(el, ctx)
        self.end_sentence()

    def _break(self, el: Element, ctx: Context) -> None:
        time, strength = el.get("time"), el.get("strength")
        if time is not None:
            m = _TIME.match(time)
            if m is None:
                raise SsmlError(f"<break>: time {time!r} must look like '500ms' or '1.5s'")
            seconds = float(m.group(1)) / (1000.0 if m.group(2) == "ms" else 1.0)
            if seconds > MAX_BREAK_S:
                raise SsmlError(f"<break>: time {time!r} is longer than the limit of {MAX_BREAK_S:g} s")
        elif strength is not None:
            if strength not in BREAK_STRENGTHS:
                raise SsmlError(f"<break>: strength {strength!r} must be one of {', '.join(BREAK_STRENGTHS)}")
            seconds = BREAK_STRENGTHS[strength]
        else:
            seconds = BREAK_STRENGTHS["medium"]
        self.end_sentence()
        self.pause(seconds)

    def _say_as(self, el: Element, ctx: Context) -> None:
        kind = el.get("interpret-as", "")
        if kind not in INTERPRETATIONS:
            raise SsmlError(f"<say-as>: interpret-as {kind!r} must be one of {', '.join(INTERPRETATIONS)}")
        content = "".join(el.itertext())
        language = ctx.language or self.nearby_language(el.tail or "")
        try:
            spoken = say_as(kind, content, language, el.get("format"))
        except ValueError as e:
            raise SsmlError(f"<say-as interpret-as={kind!r}>: {e}") from None
        self.speak(spoken, ctx)

    def _sub(self, el: Element, ctx: Context) -> None:
        alias = el.get("alias")
        if alias is None:
            raise SsmlError("<sub> needs an alias attribute")
        self.speak(alias, ctx)

    def _phoneme(self, el: Element, ctx: Context) -> None:
        from onestep.ssml.phonemes import to_inventory

        alphabet, ph = el.get("alphabet", "ipa"), el.get("ph")
        if ph is None:
            raise SsmlError("<phoneme> needs a ph attribute")
        try:
            phonemes = to_inventory(alphabet, ph)
        except ValueError as e:
            raise SsmlError(f"<phoneme alphabet={alphabet!r}>: {e}") from None
        self.end_sentence()
        text = "".join(el.itertext())
        self.pieces.append(Phonemes(phonemes, text, ctx.rate, ctx.voice, ctx.language))

    def _prosody(self, el: Element, ctx: Context) -> None:
        rate = el.get("rate")
        if rate is None:
            self.children(el, ctx)  # pitch, volume: not supported, the content is spoken (documented rule)
            return
        if rate in RATE_KEYWORDS:
            factor = RATE_KEYWORDS[rate]
        else:
            m = _RATE.match(rate)
            if m is None:
                raise SsmlError(f"<prosody>: rate {rate!r} must be a keyword ({', '.join(RATE_KEYWORDS)}), '120%' or 1.2")
            factor = float(m.group(1)) / (100.0 if m.group(2) else 1.0)
        if factor <= 0:
            raise SsmlError(f"<prosody>: rate {rate!r} must be positive")
        self.end_sentence()
        combined = min(max(ctx.rate * factor, SPEED_MIN), SPEED_MAX)  # clamped to the engine's range
        self.children(el, replace(ctx, rate=combined))
        self.end_sentence()

    def _lang(self, el: Element, ctx: Context) -> None:
        language = _language(el)
        if language is None:
            raise SsmlError("<lang> needs an xml:lang attribute")
        self.end_sentence()
        self.children(el, replace(ctx, language=language))
        self.end_sentence()

    def _voice(self, el: Element, ctx: Context) -> None:
        name = el.get("name")
        if not name:
            raise SsmlError("<voice> needs a name attribute")
        self.end_sentence()
        self.children(el, replace(ctx, voice=name))
        self.end_sentence()

    def finish(self) -> list[Piece]:
        """The plan: sentence markers dropped, text pieces with nothing to say dropped."""
        return [p for p in self.pieces if not (isinstance(p, Pause) and p.seconds == 0.0)
                and not (isinstance(p, Speech) and not p.text.strip())]  # fmt: skip


SUPPORTED = frozenset({"speak", "p", "s", "break", "say-as", "sub", "phoneme", "prosody", "lang", "voice"})
