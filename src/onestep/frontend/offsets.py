"""Character offsets of spoken words in the ORIGINAL input text (before normalization).

The frontend's tokens carry normalized text ("Doctor" for "Dr.", "twelve" for "12", "三个" for "3个"). The
:class:`OffsetAligner` walks the original text once, left to right, over the tokens of every utterance in
order:

* a token whose text occurs next in the original (case-insensitively; Latin words on word boundaries, with
  nothing but spaces and punctuation skipped) is *anchored* there;
* tokens that do not occur (they were rewritten by the normalizer) wait in a pending group; the next anchor
  closes the group, which gets the original text between the previous anchor and this one ("Dr.").

So a rewritten run is one entry with the offsets of what the user wrote, and slicing the input with the
offsets gives back the written words. Offsets are Python string indices (code points), ``[start, end)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_LATIN = "abcdefghijklmnopqrstuvwxyz0123456789'"


@dataclass(frozen=True)
class WordSpan:
    """Tokens (indices into the sequence given to :meth:`OffsetAligner.align`) and their original text span."""

    tokens: tuple[int, ...]
    start: int
    end: int


def _is_word(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def _latin_edge(ch: str) -> bool:
    return ch.lower() in _LATIN


class OffsetAligner:
    """Aligns the tokens of one input text (possibly several utterances, in order) to that text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lower = text.lower() if len(text.lower()) == len(text) else text  # keep indices aligned
        self.cursor = 0

    def written(self, span: WordSpan) -> str:
        """What the user wrote for ``span`` (the input sliced with its offsets)."""
        return self.text[span.start : span.end]

    def _find(self, word: str, stop: int | None = None, start: int | None = None) -> int:
        """Index of ``word`` at or after ``start`` (default: the cursor), on Latin word boundaries and ending by
        ``stop`` (default: the text's end), or -1."""
        needle = word.lower() if self._lower is not self.text else word
        stop = len(self.text) if stop is None else stop
        at = self._lower.find(needle, self.cursor if start is None else start)
        while 0 <= at and at + len(word) <= stop:
            before = self.text[at - 1] if at > 0 else " "
            after_i = at + len(word)
            after = self.text[after_i] if after_i < len(self.text) else " "
            if not (_latin_edge(word[0]) and _latin_edge(before)) and not (_latin_edge(word[-1]) and _latin_edge(after)):
                return at
            at = self._lower.find(needle, at + 1)
        return -1

    def _gap_is_skippable(self, end: int) -> bool:
        return not _is_word(self.text[self.cursor : end])

    def _sentence_end(self, raw: str | None) -> int | None:
        """End index of the utterance's original text ``raw`` (the frontend's ``Utterance.text``) at or after
        the cursor, or None when it is not given or not found there (e.g. SSML that the parser rewrote)."""
        raw = (raw or "").strip()
        if not raw:
            return None
        at = self.text.find(raw, self.cursor)
        return None if at < 0 else at + len(raw)

    def _closing_mark(self, mark: str, texts: Sequence[str], i: int, stop: int | None) -> int:
        """Where the punctuation ``texts[i] == mark`` that ends a rewritten run sits: its first occurrence
        after which only spaces and punctuation lie before the next word token (where that one is found as
        written) or the sentence's end, so that "Jan. 5." read "January fifth." closes at the last period, not
        inside the run; else (the next word is rewritten too: "1990s. St. Louis") its first occurrence, or -1."""
        first = at = self._find(mark, stop)
        bound = len(self.text) if stop is None else stop
        later = next((w for w in (t.strip() for t in texts[i + 1 :]) if _is_word(w)), None)
        if later is not None:
            bound = self._find(later, stop)
            if bound < 0:
                return first
        while 0 <= at < bound:
            if not _is_word(self.text[at + len(mark) : bound]):
                return at
            at = self._find(mark, stop, at + 1)
        return first

    def _close(self, pending: list[int], end: int, spans: list[WordSpan]) -> None:
        """The pending group gets the original text from the cursor to ``end``, trimmed of spaces. A group with
        nothing written left for it (the normalizer also inserted punctuation: "Jan. 5 2024" read "January
        fifth, twenty twenty-four") joins the span before it in this utterance."""
        if not pending:
            return
        start = self.cursor
        while start < end and self.text[start].isspace():
            start += 1
        stop = end
        while stop > start and self.text[stop - 1].isspace():
            stop -= 1
        if stop > start:
            spans.append(WordSpan(tuple(pending), start, stop))
        elif spans:
            spans[-1] = WordSpan(spans[-1].tokens + tuple(pending), spans[-1].start, spans[-1].end)
        self.cursor = max(self.cursor, end)
        pending.clear()

    def align(self, texts: Sequence[str], raw: str | None = None) -> list[WordSpan]:
        """Spans of the word tokens among ``texts`` (one utterance's token texts, in order).

        ``raw``: the utterance's original text (``Utterance.text``); where it is found in the text, nothing of
        the utterance is placed past its end. Punctuation tokens anchor (and close a pending group) but get no
        span. A group still pending at the end takes the original text up to the utterance's end (without
        ``raw``: up to the next space after the cursor), less trailing spaces and punctuation other than ".".
        """
        spans: list[WordSpan] = []
        pending: list[int] = []
        stop = self._sentence_end(raw)
        for i, text in enumerate(texts):
            word = text.strip()
            if not word:
                continue
            if not _is_word(word):
                at = self._closing_mark(word, texts, i, stop) if pending else self._find(word, stop)
                if at >= 0 and (pending or self._gap_is_skippable(at)):
                    self._close(pending, at, spans)
                    self.cursor = at + len(word)
                continue
            at = self._find(word, stop)
            if not (at >= 0 and (pending or self._gap_is_skippable(at))):
                pending.append(i)
                continue
            self._close(pending, at, spans)
            spans.append(WordSpan((i,), at, at + len(word)))
            self.cursor = at + len(word)
        if pending:
            if stop is None:
                end = self.cursor
                while end < len(self.text) and self.text[end].isspace():
                    end += 1
                while end < len(self.text) and not self.text[end].isspace():
                    end += 1
            else:
                end = stop
            while end > self.cursor and (self.text[end - 1].isspace() or (
                not _is_word(self.text[end - 1]) and self.text[end - 1] not in "."
            )):  # fmt: skip
                end -= 1  # trailing sentence punctuation is not part of the word ("$5," -> "$5")
            self._close(pending, end, spans)
        return spans


_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
#: SSML elements whose tags separate words (the parser ends a sentence or pauses there, onestep.ssml.parse):
#: ``Hello<break/>world`` is two words. Other tags are transparent, as the parser reads them.
_WORD_BREAKING_TAGS = frozenset({"speak", "p", "s", "break", "phoneme", "prosody", "lang", "voice"})


def _tag_name(source: str, i: int, end: int) -> str:
    """Local name of the tag ``source[i:end]`` (``"<break time='1s'/>"`` -> ``break``, ``"</ns:s>"`` -> ``s``)."""
    m = re.match(r"</?\s*([^\s/>]+)", source[i:end])
    return m.group(1).rsplit(":", 1)[-1] if m else ""


def _tag_end(source: str, i: int) -> int:
    """Index just past the markup construct starting at ``source[i] == "<"`` (quoted ``>`` in attributes
    skipped), or ``len(source)`` when it does not end."""
    for opener, closer in (("<!--", "-->"), ("<?", "?>")):
        if source.startswith(opener, i):
            stop = source.find(closer, i + len(opener))
            return len(source) if stop < 0 else stop + len(closer)
    quote = ""
    for k in range(i + 1, len(source)):
        ch = source[k]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == ">":
            return k + 1
    return len(source)


def _entity(source: str, i: int) -> tuple[str, int] | None:
    """The character of the entity or character reference at ``source[i] == "&"`` and the index past it."""
    stop = source.find(";", i + 1, i + 12)
    if stop < 0:
        return None
    name = source[i + 1 : stop]
    if name in _ENTITIES:
        return _ENTITIES[name], stop + 1
    try:
        if name[:2] in ("#x", "#X"):
            return chr(int(name[2:], 16)), stop + 1
        if name[:1] == "#":
            return chr(int(name[1:])), stop + 1
    except (ValueError, OverflowError):
        pass
    return None


def markup_text(source: str) -> tuple[str, list[int], list[int]]:
    """The character data of an XML document (SSML) and where each of its characters sits in ``source``.

    Tags, comments, processing instructions and declarations are left out; CDATA keeps its content; the five
    predefined entities and character references are decoded. A tag that separates words
    (:data:`_WORD_BREAKING_TAGS`, e.g. ``<break/>``) between two non-space characters becomes one space, which
    maps to the tag itself. Returns ``(text, starts, ends)``: ``text[i]`` comes from
    ``source[starts[i]:ends[i]]`` (one character, a whole entity, or such a tag). Malformed markup is not
    checked here (the SSML parser does that); an unterminated construct ends the text.
    """
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    gap: tuple[int, int] | None = None  # the last word-breaking tag since the last character kept

    def keep(ch: str, start: int, end: int) -> None:
        nonlocal gap
        if gap is not None and text and not text[-1].isspace() and not ch.isspace():
            text.append(" ")
            starts.append(gap[0])
            ends.append(gap[1])
        gap = None
        text.append(ch)
        starts.append(start)
        ends.append(end)

    i, n = 0, len(source)
    while i < n:
        if source.startswith("<![CDATA[", i):
            stop = source.find("]]>", i + 9)
            stop = n if stop < 0 else stop
            for k in range(i + 9, stop):
                keep(source[k], k, k + 1)
            i = stop + 3
        elif source[i] == "<":
            end = _tag_end(source, i)
            if _tag_name(source, i, end) in _WORD_BREAKING_TAGS:
                gap = (i, end)
            i = end
        elif source[i] == "&" and (entity := _entity(source, i)) is not None:
            keep(entity[0], i, entity[1])
            i = entity[1]
        else:
            keep(source[i], i, i + 1)
            i += 1
    return "".join(text), starts, ends


class MarkupOffsetAligner(OffsetAligner):
    """An :class:`OffsetAligner` for SSML input: words are found in the document's text (tags left out,
    entities decoded) and their spans are offsets into the markup as given, so ``source[start:end]`` is the
    written word (a ``<sub>``'s alias or a ``<say-as>`` reading gets the element's text, like "Dr.")."""

    def __init__(self, source: str) -> None:
        text, self._starts, self._ends = markup_text(source)
        super().__init__(text)
        self.source = source

    def align(self, texts: Sequence[str], raw: str | None = None) -> list[WordSpan]:
        return [
            WordSpan(span.tokens, self._starts[span.start], self._ends[span.end - 1])
            for span in super().align(texts, raw)
        ]

    def written(self, span: WordSpan) -> str:
        return self.source[span.start : span.end]
