"""Character offsets of spoken words in the ORIGINAL input text (before normalization).

The frontend's tokens carry normalized text ("Doctor" for "Dr.", "twelve" for "12", "三个" for "3个"). The
:class:`OffsetAligner` places the tokens of every utterance, in order, in the original text:

* a token whose text occurs in the original (case-insensitively; Latin words on word boundaries) may be
  *anchored* at one of its occurrences;
* tokens left unanchored were rewritten by the normalizer: a run of them between two anchors gets the
  original text between those anchors ("Dr.", "$5.50", "Jan. 5").

The anchors are chosen together, per utterance, as the best chain (:meth:`OffsetAligner.align`): in order,
as many word anchors as possible, where written text between two anchors always has rewritten tokens to
account for it. Choosing them one by one, left to right, went wrong where a normalized word also occurs
later in the text: the "and" of "$5.50" read "five dollars and fifty cents" taken for the "and" of "3 apples
and 2 pears" left every word in between to the wrong run.

So a rewritten run is one entry with the offsets of what the user wrote, and slicing the input with the
offsets gives back the written words. Offsets are Python string indices (code points), ``[start, end)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_LATIN = "abcdefghijklmnopqrstuvwxyz0123456789'"
#: Occurrences of a token tried as its anchor after a path's position (the nearest ones), and paths kept.
_NEXT_OCCURRENCES, _BEAM = 3, 12
#: Chain scores: an anchored word, an anchored punctuation mark (it bounds the runs around it), written text
#: with no rewritten token to account for it (only where nothing better exists), a rewritten run with no
#: written text of its own (words the normalizer added: they join a neighbour), and per character of gap
#: (the nearest occurrences win a tie).
_WORD, _MARK, _UNREAD, _ADDED, _PER_CHAR = 1.0, 0.1, -5.0, -0.5, -1e-4


@dataclass(frozen=True)
class WordSpan:
    """Tokens (indices into the sequence given to :meth:`OffsetAligner.align`) and their original text span."""

    tokens: tuple[int, ...]
    start: int
    end: int


@dataclass(frozen=True)
class _Anchor:
    token: int  # index into the utterance's tokens
    start: int
    end: int
    word: bool  # a word (gets a span) or punctuation (bounds runs, gets none)


def _is_word(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


def _latin_edge(ch: str) -> bool:
    return ch.lower() in _LATIN


class OffsetAligner:
    """Aligns the tokens of one input text (possibly several utterances, in order) to that text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lower = text.lower() if len(text.lower()) == len(text) else text  # keep indices aligned
        self._alnum = [0]  # _alnum[i]: letters and digits in text[:i]
        for ch in text:
            self._alnum.append(self._alnum[-1] + ch.isalnum())
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

    def _sentence_end(self, raw: str | None) -> int | None:
        """End index of the utterance's original text ``raw`` (the frontend's ``Utterance.text``) at or after
        the cursor, or None when it is not given or not found there (a long sentence cut into pieces after
        normalization, SSML that the parser rewrote)."""
        raw = (raw or "").strip()
        if not raw:
            return None
        at = self.text.find(raw, self.cursor)
        return None if at < 0 else at + len(raw)

    def _has_word(self, start: int, end: int) -> bool:
        return self._alnum[end] > self._alnum[start]

    def _blank(self, start: int, end: int) -> bool:
        return not self.text[start:end].strip()

    def _gap_score(self, start: int, end: int, rewritten: bool) -> float:
        """Score of the written text ``[start, end)`` between two anchors, with or without rewritten word
        tokens between them."""
        score = _PER_CHAR * (end - start)
        if rewritten and self._blank(start, end):
            score += _ADDED
        elif not rewritten and self._has_word(start, end):
            score += _UNREAD
        return score

    def _tail_end(self, stop: int | None) -> int:
        """Where a rewritten run at the utterance's end stops: the utterance's end, or without it the next
        space after the cursor; less trailing spaces and punctuation other than "." ("$5," -> "$5")."""
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
            end -= 1
        return end

    def _chain(self, words: Sequence[str], stop: int | None) -> list[_Anchor]:
        """The best chain of anchors for the utterance's ``words`` (stripped token texts), from the cursor.

        A beam search over the tokens in order: a path is where its last anchor ends, whether rewritten word
        tokens wait since then, its score and its anchors; each token either waits (rewritten) or anchors at
        one of its next :data:`_NEXT_OCCURRENCES` occurrences after the path's position. The
        :data:`_BEAM` best paths go on (paths at the same place keep the best), so the work is linear in the
        tokens."""
        limit = stop if stop is not None else min(len(self.text), self.cursor + 2 * sum(len(w) + 1 for w in words) + 32)
        # a path: (score, position, waiting, anchors as a linked list (anchor, rest) or None)
        paths: dict[tuple[int, bool], tuple[float, object]] = {(self.cursor, False): (0.0, None)}
        for j, w in enumerate(words):
            if not w:
                continue
            word = _is_word(w)
            gain = _WORD if word else _MARK
            grown: dict[tuple[int, bool], tuple[float, object]] = {}

            def offer(key: tuple[int, bool], score: float, chain: object) -> None:
                if key not in grown or grown[key][0] < score:
                    grown[key] = (score, chain)

            for (position, waiting), (score, chain) in paths.items():
                offer((position, waiting or word), score, chain)  # rewritten: waits for the next anchor
                at = self._find(w, limit, position)
                for _ in range(_NEXT_OCCURRENCES):
                    if at < 0:
                        break
                    anchor = _Anchor(j, at, at + len(w), word)
                    offer((anchor.end, False), score + gain + self._gap_score(position, at, waiting), (anchor, chain))
                    at = self._find(w, limit, at + 1)
            paths = dict(sorted(grown.items(), key=lambda item: -item[1][0])[:_BEAM])
        tail = self._tail_end(stop) if stop is not None else None
        best_score, best_chain = -float("inf"), None
        for (position, waiting), (score, chain) in paths.items():
            if tail is not None:  # where the utterance ends is known: its rest must be accounted for
                score += self._gap_score(position, max(position, tail), waiting)
            if score > best_score:
                best_score, best_chain = score, chain
        out: list[_Anchor] = []
        while best_chain is not None:
            anchor, best_chain = best_chain  # type: ignore[misc]
            out.append(anchor)
        return out[::-1]

    def align(self, texts: Sequence[str], raw: str | None = None) -> list[WordSpan]:
        """Spans of the word tokens among ``texts`` (one utterance's token texts, in order).

        ``raw``: the utterance's original text (``Utterance.text``); where it is found in the text, nothing of
        the utterance is placed past its end. Punctuation tokens may anchor (they bound the rewritten runs
        around them) but get no span. A run still pending at the end takes the original text up to the
        utterance's end (without ``raw``: up to the next space after the cursor), less trailing spaces and
        punctuation other than ".". A run with no written text of its own (words the normalizer added:
        "Jan. 5 2024" read "January fifth, twenty twenty-four") joins the span before it (or after it).
        """
        words = [t.strip() for t in texts]
        stop = self._sentence_end(raw)
        spans: list[WordSpan] = []
        pending: list[int] = []
        carried: list[int] = []  # added words with no span before them: they join the next one

        def close(end: int) -> None:
            if not pending:
                return
            start, stop_ = self.cursor, end
            while start < stop_ and self.text[start].isspace():
                start += 1
            while stop_ > start and self.text[stop_ - 1].isspace():
                stop_ -= 1
            if stop_ > start:
                spans.append(WordSpan(tuple(carried + pending), start, stop_))
                carried.clear()
            elif spans:
                spans[-1] = WordSpan(spans[-1].tokens + tuple(pending), spans[-1].start, spans[-1].end)
            else:
                carried.extend(pending)
            self.cursor = max(self.cursor, end)
            pending.clear()

        chain = {a.token: a for a in self._chain(words, stop)}
        for j, word in enumerate(words):
            if not word:
                continue
            anchor = chain.get(j)
            if anchor is None:
                if _is_word(word):
                    pending.append(j)
                continue
            close(anchor.start)
            if anchor.word:
                spans.append(WordSpan(tuple(carried) + (j,), anchor.start, anchor.end))
                carried.clear()
            self.cursor = anchor.end
        if pending:
            close(self._tail_end(stop))
        if carried and spans:
            spans[-1] = WordSpan(spans[-1].tokens + tuple(carried), spans[-1].start, spans[-1].end)
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
