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
