"""Choosing a polyphone's reading from several witnesses: the phrase dictionary, g2pM and CC-CEDICT phrases.

The G2P asks :class:`PolyphoneArbiter` about every polyphone that its guards leave open (not user-lexicon
words, curated words, the function characters its rules read, nor frequent one-character words with a
dominant reading: see :meth:`onestep.frontend.zh.g2p.MandarinG2P._disambiguate`). Each candidate reading of
the character gets a linear score over these features:

* g2pM's log-probability of the reading (:mod:`onestep.frontend.zh.polyphone`, the whole sentence in view);
* whether it is the phrase dictionary's reading, once overall and once per kind of word the character sits in
  (``covered`` by a pypinyin phrase, a ``single``-character word, a ``jiebaword`` of jieba's dictionary that
  pypinyin lacks, a word jieba ``madeup``), so the weights learn how far each kind of dictionary answer can be
  trusted; whether it is the character's default reading; whether it is a neutral tone;
* what CPP's dev split (labelled encyclopedia sentences) says: how often the character takes the reading, and
  how often it does in the same character n-grams around it (5 windows) and in the same jieba word;
* whether CC-CEDICT's longest phrase around the character (2-6 characters) gives this reading, any covering
  phrase gives it, or the longest phrase gives another.

The highest score wins. The weights are a logistic regression fitted on CPP dev by
:mod:`onestep_dev.train.polyphone_arbiter` (dev counts excluded for the sentence being scored), which also writes
the data files: ``polyphone_arbiter.json`` (weights) and ``polyphone_context.marisa`` (a MARISA trie of the
CC-CEDICT phrases that hold a polyphone and the dev counts; memory-mapped, ~1 ms to open).

Cost: ~0.01-0.03 ms per asked character (trie look-ups and a dot product), on top of the one g2pM run per
sentence.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_DATA = Path(__file__).parent / "data"

# Kinds of word a queried character sits in (see the module docstring).
CATEGORIES = ("covered", "single", "jiebaword", "madeup")
# Character windows (start, end) relative to the polyphone whose dev counts are features; the jieba word is one more.
WINDOWS = ((-1, 1), (0, 2), (-2, 1), (0, 3), (-1, 2))
MAX_PHRASE = 6  # longest CC-CEDICT phrase looked up
# g2pM's preference counts as evidence against a phrase reading only in a text this long: trained on long
# encyclopedia sentences, on a few characters it reads the character alone (朝阳 chao2, 会计 hui4, 有空 kong1).
MIN_MODEL_CONTEXT = 10
FEATURES = (
    "log_p_model", "is_dictionary", "is_default", "is_neutral", "dev_char_share",
    *(f"is_dictionary_{c}" for c in CATEGORIES),
    *(f"dev_{name}_{kind}" for name in [f"w{a}{b}" for a, b in WINDOWS] + ["word"] for kind in ("log_count", "share")),
    "cedict_longest", "cedict_any", "cedict_longest_other", "cedict_longest_new",
)


@dataclass(frozen=True)
class Query:
    """One polyphone the G2P asks about.

    Attributes:
        text: the whole text being read.
        position: offset of the character in ``text``.
        word: the jieba word holding it, and ``index`` its offset in the word.
        category: one of :data:`CATEGORIES`.
        dictionary: the phrase dictionary's (pypinyin's) reading of the character.
    """

    text: str
    position: int
    word: str
    index: int
    category: str
    dictionary: str


_CONTEXT_SUPPORT = [FEATURES.index(n) for n in
                    ("dev_w-21_log_count", "dev_w03_log_count", "dev_w-12_log_count", "dev_word_log_count")]
_CEDICT_LONGEST = FEATURES.index("cedict_longest")
_CEDICT_NEW = FEATURES.index("cedict_longest_new")
_TWO = math.log1p(1.5)  # a log_count feature above this: 2 or more dev sentences


def support(row: Sequence[float]) -> int:
    """Lexical support of a candidate for replacing a pypinyin phrase's reading (see
    :meth:`PolyphoneArbiter.choose`): 2 = a CPP dev trigram or word context, or CC-CEDICT's longest phrase
    around the character where pypinyin lacks that phrase; 1 = CC-CEDICT's longest phrase (which pypinyin
    reads otherwise), enough only when g2pM agrees; 0 = none."""
    if row[_CEDICT_NEW] > 0 or any(row[i] > _TWO for i in _CONTEXT_SUPPORT):
        return 2
    return 1 if row[_CEDICT_LONGEST] > 0 else 0


def may_replace(category: str, candidate: str, dictionary: str, level: int, model_top: bool) -> bool:
    """Whether ``candidate`` may be chosen: always outside pypinyin phrases, else per :func:`support` ``level``."""
    return category != "covered" or candidate == dictionary or level == 2 or (level == 1 and model_top)


def context_keys(query: Query) -> list[str | None]:
    """Trie keys of the dev-count contexts of ``query`` (None where a window runs off the text)."""
    text, i = query.text, query.position
    keys: list[str | None] = []
    for n, (a, b) in enumerate(WINDOWS):
        keys.append(f"n{n}{text[i + a : i + b]}" if i + a >= 0 and i + b <= len(text) else None)
    keys.append(f"n{len(WINDOWS)}{query.word}|{query.index}" if len(query.word) > 1 else None)
    return keys


def parse_counts(raw: bytes) -> dict[str, int]:
    """``b"zhong4:3 chong2:1"`` -> ``{"zhong4": 3, "chong2": 1}``."""
    out: dict[str, int] = {}
    for item in raw.decode().split():
        reading, _, count = item.partition(":")
        out[reading] = int(count)
    return out


def format_counts(counts: Mapping[str, int]) -> bytes:
    return " ".join(f"{r}:{c}" for r, c in sorted(counts.items()) if c > 0).encode()


class PolyphoneArbiter:
    """Scores the candidate readings of asked polyphones. Thread-safe; loads on first use.

    Args:
        data_dir: folder with ``polyphone_arbiter.json`` and ``polyphone_context.marisa``.
    """

    def __init__(self, data_dir: Path = _DATA) -> None:
        self._dir = data_dir
        self._lock = threading.Lock()
        self._trie = None
        self._weights: list[float] = []
        self._bias = 0.0
        self._defaults: dict[str, str] = {}
        self._phrases: Mapping[str, object] = {}
        self._lexical: dict[tuple, list[tuple[float, int]]] = {}
        self._parsed: dict[str, dict[str, int]] = {}

    def load(self) -> None:
        """Open the trie and read the weights now (idempotent)."""
        if self._trie is not None:
            return
        with self._lock:
            if self._trie is not None:
                return
            import marisa_trie

            spec = json.loads((self._dir / "polyphone_arbiter.json").read_text(encoding="utf-8"))
            if tuple(spec["features"]) != FEATURES:
                raise ValueError(
                    "polyphone_arbiter.json was fitted for other features; rerun onestep_dev.train.polyphone_arbiter"
                )
            self._weights = [float(w) for w in spec["weights"]]
            self._bias = float(spec["bias"])
            from pypinyin.constants import PHRASES_DICT  # the compact table when the G2P installed it

            self._phrases = PHRASES_DICT
            trie = marisa_trie.BytesTrie()
            trie.mmap(str(self._dir / "polyphone_context.marisa"))
            self._trie = trie

    def _counts(self, key: str | None) -> dict[str, int]:
        """Dev counts under a trie key (a fresh dict: callers may change it)."""
        if key is None:
            return {}
        counts = self._parsed.get(key)
        if counts is None:
            assert self._trie is not None
            found = self._trie.get(key)
            counts = parse_counts(found[0]) if found else {}
            if len(self._parsed) < 200_000:
                self._parsed[key] = counts
        return dict(counts)

    def _default(self, char: str) -> str:
        reading = self._defaults.get(char)
        if reading is None:
            from pypinyin import Style, lazy_pinyin

            reading = lazy_pinyin(char, style=Style.TONE3, neutral_tone_with_five=True)[0]
            if not reading[-1:].isdigit():
                reading += "5"
            self._defaults[char] = reading
        return reading

    def cedict_readings(self, query: Query) -> tuple[str | None, set[str], str]:
        """The reading of the queried character in the longest CC-CEDICT phrase covering it (leftmost among
        equals), its readings in every covering phrase of 2-6 characters, and that longest phrase (``""`` if
        none). Phrases that cut across the jieba word (游行 in 旅游|行业) do not count."""
        self.load()
        text, position = query.text, query.position
        word_start = position - query.index
        word_end = word_start + len(query.word)
        trie = self._trie
        assert trie is not None
        best: str | None = None
        phrase = ""
        best_length = 0
        every: set[str] = set()
        for start in range(max(0, position - MAX_PHRASE + 1), position + 1):
            for key in trie.prefixes("c" + text[start : start + MAX_PHRASE]):
                length = len(key) - 1
                end = start + length
                if length < 2 or end <= position:
                    continue
                if not (start <= word_start and end >= word_end) and not (start >= word_start and end <= word_end):
                    continue
                reading = trie[key][0].decode().split(" ")[position - start]
                every.add(reading)
                if length > best_length:
                    best, phrase, best_length = reading, key[1:], length
        return best, every, phrase

    def features(
        self, query: Query, candidates: Sequence[str], probabilities: Mapping[str, float], exclude: str | None = None
    ) -> list[list[float]]:
        """One feature row (in :data:`FEATURES` order) per candidate reading.

        Args:
            exclude: a reading to take out of the dev counts once (training: the sentence's own label).
        """
        self.load()
        char = query.text[query.position]
        n = len(candidates)
        contexts = []
        for key in context_keys(query):
            if key is None:
                contexts.append(None)
                continue
            counts = self._counts(key)
            if exclude is not None and counts.get(exclude, 0) > 0:
                counts[exclude] -= 1
            contexts.append((counts, sum(counts.values())))
        prior = self._counts("q" + char)
        if exclude is not None and prior.get(exclude, 0) > 0:
            prior[exclude] -= 1
        prior_total = sum(prior.values())
        best, every, phrase = self.cedict_readings(query)
        new_phrase = bool(phrase) and phrase not in self._phrases
        default = self._default(char)
        rows = []
        for c in candidates:
            is_dict = float(c == query.dictionary)
            row = [
                math.log(probabilities.get(c, 0.0) + 1e-7), is_dict, float(c == default), float(c.endswith("5")),
                (prior.get(c, 0) + 0.5) / (prior_total + 0.5 * n),
            ]
            row += [is_dict * (query.category == k) for k in CATEGORIES]
            for ctx in contexts:
                if ctx is None or ctx[1] == 0:
                    row += [0.0, 0.0]
                else:
                    counts, total = ctx
                    row += [math.log1p(counts.get(c, 0)), counts.get(c, 0) / total - 1 / n]
            row += [float(best == c), float(c in every), float(best is not None and best != c),
                    float(best == c and new_phrase)]
            rows.append(row)
        return rows

    def lexical(self, query: Query, candidates: Sequence[str]) -> list[tuple[float, int]]:
        """Per candidate: its score without g2pM's term, and its :func:`support` level.

        These depend only on the 5 characters either side, the word and the dictionary reading, so they are
        cached per such context (bounded).
        """
        text, i = query.text, query.position
        lo = max(0, i - MAX_PHRASE + 1)
        key = (text[lo : i + MAX_PHRASE], i - lo, query.word, query.index, query.category, query.dictionary,
               tuple(candidates))
        lexical = self._lexical.get(key)
        if lexical is None:
            local = Query(key[0], key[1], query.word, query.index, query.category, query.dictionary)
            weights, bias = self._weights, self._bias
            lexical = [(bias + sum(w * x for w, x in zip(weights[1:], row[1:])), support(row))
                       for row in self.features(local, candidates, {})]
            if len(self._lexical) < 100_000:
                self._lexical[key] = lexical
        return lexical

    def settled(self, query: Query, candidates: Sequence[str]) -> bool:
        """Whether the dictionary's reading must stand whatever g2pM says (a phrase reading with no supported
        alternative), so that the model need not run for it."""
        if query.category != "covered":
            return False
        lexical = self.lexical(query, candidates)
        return all(c == query.dictionary or level == 0 for c, (_, level) in zip(candidates, lexical))

    def choose(self, query: Query, candidates: Sequence[str], probabilities: Mapping[str, float]) -> str:
        """The best-scoring reading among ``candidates`` (g2pM's ``probabilities`` over them).

        A reading that a pypinyin phrase settled (category ``covered``) is only replaced by one with lexical
        support (:func:`support`, :func:`may_replace`): a CPP dev trigram or word context with that reading;
        CC-CEDICT's longest phrase around the character when pypinyin lacks that phrase; or CC-CEDICT's reading
        of the same phrase when g2pM also prefers it (pypinyin's phrase data has errors: 落差 cha4, 质朴 piao2,
        夹克 jia2). g2pM alone is no evidence against a pypinyin phrase of everyday text (会计 kuai4, 有空 kong4:
        trained on long encyclopedia sentences, it is sure of hui4 and kong1), nor is CC-CEDICT alone, which
        keeps one reading of a phrase that has two (便宜 bian4 yi2).
        """
        lexical = self.lexical(query, candidates)
        w_model = self._weights[0]
        top = max(candidates, key=lambda c: probabilities.get(c, 0.0))
        best, best_score = candidates[0], -math.inf
        for c, (part, level) in zip(candidates, lexical):
            sure = c == top and len(query.text) >= MIN_MODEL_CONTEXT
            if not may_replace(query.category, c, query.dictionary, level, sure):
                continue
            score = part + w_model * math.log(probabilities.get(c, 0.0) + 1e-7)
            if score > best_score:
                best, best_score = c, score
        return best


_SHARED = PolyphoneArbiter()  # cheap to build: it reads its files on first use


def shared_arbiter() -> PolyphoneArbiter:
    """The process-wide arbiter over the shipped files (its data load on first use)."""
    return _SHARED
