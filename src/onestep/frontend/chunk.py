"""Cut one sentence's :class:`Utterance` into pieces that fit the model's phoneme-id limit.

Cuts happen between tokens only: first after clause punctuation tokens (``，,、；;：:…—。！？!?.``), packing as many
whole clauses into a piece as fit; a clause that alone is too long is cut between words (tokens). A single
token whose phonemes alone exceed the limit (only pathological input, e.g. a 500-letter "word") is the one
case cut inside a word: its phoneme string is split into limit-sized parts, with a logged warning.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from itertools import groupby

from onestep.frontend.script import CLAUSE_END
from onestep.frontend.segment import join_segment_texts
from onestep.frontend.symbols import phonemes_to_ids
from onestep.frontend.tokens import Lang, Segment, Token, Utterance
from onestep.languages import get_language

logger = logging.getLogger(__name__)


def count_ids(phonemes: str) -> int:
    """Number of model ids of a phoneme string, boundary pads excluded (unknown symbols are not counted)."""
    return len(phonemes_to_ids(phonemes, pad=False))


@dataclass(frozen=True)
class _Item:
    """A token with the index of the segment it came from."""

    seg: int
    lang: Lang
    token: Token

    @property
    def cost(self) -> int:
        # Upper bound of the ids the token adds to a piece: its phonemes plus one separating space.
        return count_ids(self.token.phonemes) + 1


def _is_clause_end(token: Token) -> bool:
    text = token.text.strip()
    return bool(text) and all(c in CLAUSE_END or c.isspace() for c in text)


def chunk_utterance(utt: Utterance, max_ids: int) -> list[Utterance]:
    """Split ``utt`` into utterances of at most ``max_ids`` phoneme ids each (``count_ids(u.phonemes)``).

    Args:
        utt: one sentence as returned by the pipeline.
        max_ids: id limit per piece, boundary pads excluded (>= 1).
    Returns:
        ``[utt]`` itself when it fits; else pieces in order whose tokens, concatenated, are ``utt``'s. A piece's
        ``text`` and ``normalized`` are its own normalized text; segments keep their language.
    """
    if max_ids < 1:
        raise ValueError(f"max_ids must be >= 1, got {max_ids}")
    if count_ids(utt.phonemes) <= max_ids:
        return [utt]
    items = [_Item(i, seg.lang, tok) for i, seg in enumerate(utt.segments) for tok in seg.tokens]
    pieces: list[list[_Item]] = []
    current: list[_Item] = []
    used = 0
    for clause in _clauses(items):
        cost = sum(it.cost for it in clause)
        if cost <= max_ids:
            units = [clause]
        else:
            units = [[part] for it in clause for part in _split_token(it, max_ids)]
        for unit in units:
            unit_cost = sum(it.cost for it in unit)
            if current and used + unit_cost > max_ids:
                pieces.append(current)
                current, used = [], 0
            current.extend(unit)
            used += unit_cost
    if current:
        pieces.append(current)
    return [_build(piece, utt) for piece in pieces]


def _clauses(items: list[_Item]) -> list[list[_Item]]:
    out: list[list[_Item]] = [[]]
    for it in items:
        out[-1].append(it)
        if _is_clause_end(it.token):
            out.append([])
    return [c for c in out if c]


def _split_token(item: _Item, max_ids: int) -> list[_Item]:
    """The item itself if it fits, else parts of its phoneme string of at most ``max_ids - 1`` ids each."""
    if item.cost <= max_ids:
        return [item]
    logger.warning(
        "word %r has %d phoneme ids, more than the chunk limit %d: cutting it", item.token.text, item.cost - 1, max_ids
    )
    size = max(max_ids - 1, 1)
    phonemes = item.token.phonemes
    parts = [phonemes[i : i + size] for i in range(0, len(phonemes), size)]
    return [
        _Item(item.seg, item.lang, replace(item.token, phonemes=p, text=item.token.text if k == 0 else "",
                                           pinyin=item.token.pinyin if k == 0 else [], whitespace=False))
        for k, p in enumerate(parts)
    ]


def _build(piece: list[_Item], whole: Utterance) -> Utterance:
    segments: list[Segment] = []
    for seg_index, group in groupby(piece, key=lambda it: it.seg):
        tokens = [it.token for it in group]
        source = whole.segments[seg_index]
        if len(tokens) == len(source.tokens):
            text = source.text
        else:
            sep = " " if get_language(source.lang).spaced else ""
            text = "".join(t.text + (sep if t.whitespace else "") for t in tokens).strip()
        segments.append(Segment(source.lang, text, tokens))
    normalized = join_segment_texts(segments)
    return Utterance(text=normalized, normalized=normalized, segments=segments)
