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

    def _find(self, word: str) -> int:
        """Index of ``word`` at or after the cursor (on Latin word boundaries), or -1."""
        needle = word.lower() if self._lower is not self.text else word
        at = self._lower.find(needle, self.cursor)
        while at >= 0:
            before = self.text[at - 1] if at > 0 else " "
            after_i = at + len(word)
            after = self.text[after_i] if after_i < len(self.text) else " "
            if not (_latin_edge(word[0]) and _latin_edge(before)) and not (_latin_edge(word[-1]) and _latin_edge(after)):
                return at
            at = self._lower.find(needle, at + 1)
        return -1

    def _gap_is_skippable(self, end: int) -> bool:
        return not _is_word(self.text[self.cursor : end])

    def _close(self, pending: list[int], end: int, spans: list[WordSpan]) -> None:
        """The pending group gets the original text from the cursor to ``end``, trimmed of spaces."""
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
        self.cursor = max(self.cursor, end)
        pending.clear()

    def align(self, texts: Sequence[str]) -> list[WordSpan]:
        """Spans of the word tokens among ``texts`` (one utterance's token texts, in order).

        Punctuation tokens anchor (and close a pending group) but get no span. A group still pending at
        the end takes the original text up to the next space after the cursor.
        """
        spans: list[WordSpan] = []
        pending: list[int] = []
        for i, text in enumerate(texts):
            word = text.strip()
            if not word:
                continue
            at = self._find(word)
            anchored = at >= 0 and (pending or self._gap_is_skippable(at))
            if not _is_word(word):
                if anchored:
                    self._close(pending, at, spans)
                    self.cursor = at + len(word)
                continue
            if not anchored:
                pending.append(i)
                continue
            self._close(pending, at, spans)
            spans.append(WordSpan((i,), at, at + len(word)))
            self.cursor = at + len(word)
        if pending:
            end = self.cursor
            while end < len(self.text) and self.text[end].isspace():
                end += 1
            while end < len(self.text) and not self.text[end].isspace():
                end += 1
            while end > self.cursor and not _is_word(self.text[end - 1]) and self.text[end - 1] not in ".":
                end -= 1  # trailing sentence punctuation is not part of the word ("$5," -> "$5")
            self._close(pending, end, spans)
        return spans


_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


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
    predefined entities and character references are decoded. Returns ``(text, starts, ends)``: ``text[i]``
    comes from ``source[starts[i]:ends[i]]`` (one character, or a whole entity). Malformed markup is not
    checked here (the SSML parser does that); an unterminated construct ends the text.
    """
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def keep(ch: str, start: int, end: int) -> None:
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
            i = _tag_end(source, i)
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

    def align(self, texts: Sequence[str]) -> list[WordSpan]:
        return [
            WordSpan(span.tokens, self._starts[span.start], self._ends[span.end - 1])
            for span in super().align(texts)
        ]

    def written(self, span: WordSpan) -> str:
        return self.source[span.start : span.end]
