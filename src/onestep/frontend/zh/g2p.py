"""Mandarin grapheme-to-phoneme: normalized Chinese text -> words with pinyin and Kokoro phonemes.

Pipeline for one call: split the text into runs of readable Chinese characters and punctuation marks;
segment each run with a per-instance jieba tokenizer (user lexicon words are cut out first, whole);
read each word with pypinyin's phrase data plus the curated tables of :mod:`onestep.frontend.zh.lexicon`;
let the polyphone arbiter (:mod:`onestep.frontend.zh.arbiter`: g2pM's probabilities, the dictionary reading,
CC-CEDICT phrases, CPP dev counts) choose the readings of the polyphones the guards leave open; apply tone sandhi per phrase (:mod:`onestep.frontend.zh.sandhi`); convert syllables to phonemes
(:mod:`onestep.frontend.zh.phonemes`). Characters that are neither readable nor punctuation (Latin letters,
digits, emoji, control characters, characters pypinyin cannot read) produce nothing.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping

from onestep.frontend.zh import pinyin_tables

pinyin_tables.install()  # pypinyin with the compact phrase table, before anything imports pypinyin

from onestep.frontend.zh import jieba_dict  # noqa: E402  (imports jieba without pkg_resources)

import jieba  # noqa: E402
from pypinyin import Style, lazy_pinyin  # noqa: E402
from pypinyin.constants import PHRASES_DICT  # noqa: E402
from pypinyin.pinyin_dict import pinyin_dict  # noqa: E402

from onestep.frontend.tokens import Token  # noqa: E402
from onestep.frontend.zh import lexicon as lx  # noqa: E402
from onestep.frontend.zh.arbiter import PolyphoneArbiter, Query, shared_arbiter  # noqa: E402
from onestep.frontend.zh.neutral_context import word_tags  # noqa: E402
from onestep.frontend.zh.phonemes import PUNCTUATION, syllable_phonemes  # noqa: E402
from onestep.frontend.zh.polyphone import PolyphoneModel, shared_model  # noqa: E402
from onestep.frontend.zh.sandhi import Word, apply_sandhi  # noqa: E402

_SYLLABLE = re.compile(r"[a-z]+[1-5]")
# 长 reads zhang3 ("grow") before these characters and chang2 ("long") after these, when no phrase covers it.
_ZHANG_BEFORE = frozenset("得了大出成满着高胖")
_CHANG_AFTER = frozenset("很太更最好真挺越较超变拉够蛮多")
# 长 + 不 + one of these is the verb "grow" in a potential form (长不好, 长不大, 长不高); 长不了 is chang2.
_ZHANG_AFTER_BU = frozenset("好大高出胖壮")


def _is_readable(char: str) -> bool:
    return ord(char) in pinyin_dict


class MandarinG2P:
    """Mandarin G2P producing one :class:`~onestep.frontend.tokens.Token` per word or punctuation mark.

    The jieba tokenizer is private to the instance (no global jieba state) and loaded on first use
    (or by :meth:`load`); later calls only pay for segmentation and cached lookups.

    Args:
        user_words: user lexicon, word -> one tone-numbered pinyin syllable per character
            (e.g. ``{"重庆": ["chong2", "qing4"]}``). Such a word is always segmented as one word and gets
            exactly that pinyin (no sandhi inside it).
        polyphone_model: the g2pM model (default: the process-wide one over the shipped files).
        arbiter: the polyphone arbiter (default: the process-wide one over the shipped files).
    Raises:
        ValueError: if a user entry is empty, has a character without a pinyin reading, a syllable count
            different from its length, or a syllable that is not tone-numbered pinyin.
    """

    def __init__(
        self,
        user_words: Mapping[str, list[str]] | None = None,
        *,
        polyphone_model: PolyphoneModel | None = None,
        arbiter: PolyphoneArbiter | None = None,
    ) -> None:
        self._user: dict[str, tuple[str, ...]] = {
            word: _validate_entry(word, syllables) for word, syllables in (user_words or {}).items()
        }
        self._user_pattern = (
            re.compile("|".join(re.escape(w) for w in sorted(self._user, key=len, reverse=True)))
            if self._user
            else None
        )
        self._tokenizer: jieba.Tokenizer | None = None
        self._lock = threading.Lock()
        self._readings: dict[str, tuple[tuple[str, ...], bool, tuple[bool, ...]]] = {}
        self._model: PolyphoneModel | None = polyphone_model if polyphone_model is not None else shared_model()
        self._arbiter: PolyphoneArbiter | None = arbiter if arbiter is not None else shared_arbiter()

    def load(self) -> None:
        """Load the jieba dictionary now (idempotent); otherwise the first call does it."""
        if self._tokenizer is not None:
            return
        with self._lock:
            if self._tokenizer is not None:
                return
            tokenizer = jieba.Tokenizer()
            jieba_dict.initialize(tokenizer)
            curated = [*lx.WORD_PINYIN, *(lx.NEUTRAL_FINAL - lx.NEUTRAL_FINAL_UNFORCED), *lx.NEUTRAL_REDUPLICATION]
            for word in curated:  # make sure the curated words are cut as one word
                freq = tokenizer.suggest_freq(word, tune=False)
                if freq > tokenizer.FREQ.get(word, 0):
                    tokenizer.add_word(word, freq)
            if self._model is not None:
                self._model.load()
            if self._arbiter is not None:
                self._arbiter.load()
            self._tokenizer = tokenizer

    def __call__(self, text: str) -> list[Token]:
        """Convert normalized Chinese text to tokens.

        Args:
            text: Chinese characters and punctuation (no Latin letters or digits; anything unreadable is
                skipped).
        Returns:
            tokens in text order: words (``pinyin`` = surface syllables, ``phonemes`` = Kokoro symbols) and
            punctuation marks (``phonemes`` = one inventory symbol); ``whitespace`` marks a space after the
            token in the phoneme string.
        """
        tokens: list[Token] = []
        kinds: list[str] = []  # "word" or the spacing of a punctuation mark
        for item in self._items(text):
            if isinstance(item, tuple):
                char, (symbol, spacing) = item
                tokens.append(Token(char, symbol))
                kinds.append(spacing)
                continue
            for w in item:
                tokens.append(Token(w.text, "".join(map(syllable_phonemes, w.syllables)), list(w.syllables)))
                kinds.append("word")
        for i in range(len(tokens) - 1):
            here, after = kinds[i], kinds[i + 1]
            tokens[i].whitespace = here == "after" or (here == "word" and after in ("word", "before"))
        return tokens

    def char_readings(self, text: str) -> list[tuple[str, str, str] | None]:
        """Per character of ``text``: ``(char, citation, surface)`` pinyin, or None where nothing is read.

        ``citation`` is the character's reading as chosen (dictionary, user lexicon or polyphone arbiter) before
        tone sandhi and neutral tones; ``surface`` is what is spoken. Used by the evaluation.
        """
        out: list[tuple[str, str, str] | None] = [None] * len(text)
        pos = 0
        for item in self._items(text):
            if isinstance(item, tuple):
                pos = text.index(item[0], pos) + 1
                continue
            for w in item:
                start = text.index(w.text, pos)
                for k, (c, cit, sur) in enumerate(zip(w.text, w.citation, w.syllables)):
                    out[start + k] = (c, cit, sur)
                pos = start + len(w.text)
        return out

    def _items(self, text: str) -> list[list[Word] | tuple[str, tuple[str, str]]]:
        """Phrases (words with surface syllables) and punctuation marks ``(char, (symbol, spacing))`` in order."""
        self.load()
        items: list[list[Word] | tuple[str, tuple[str, str]]] = []
        phrase: list[Word] = []
        starts: list[int] = []  # offset in text of each word of every phrase, in order
        words: list[Word] = []

        def add_run(end: int, run: str) -> None:
            offset = end - len(run)
            for w in self._segment(run):
                phrase.append(w)
                words.append(w)
                starts.append(offset)
                offset += len(w.text)

        run_start = -1
        for i, char in enumerate(text):
            if _is_readable(char):
                if run_start < 0:
                    run_start = i
                continue
            if run_start >= 0:
                add_run(i, text[run_start:i])
                run_start = -1
            mark = PUNCTUATION.get(char)
            if mark is not None:
                if phrase:
                    items.append(list(phrase))
                    phrase.clear()
                items.append((char, mark))
        if run_start >= 0:
            add_run(len(text), text[run_start:])
        if phrase:
            items.append(list(phrase))

        self._disambiguate(text, words, starts)
        for item in items:
            if isinstance(item, list):
                self._apply_context(item)
                for w in item:
                    w.citation = tuple(w.lexical.get(k, s) for k, s in enumerate(w.syllables))
                apply_sandhi(item, self._is_word)
        return items

    def _disambiguate(self, text: str, words: list[Word], starts: list[int]) -> None:
        """Let the polyphone arbiter choose the readings of the polyphones the guards leave open (in place).

        Every such polyphone (:meth:`polyphone_queries`) gets the reading that
        :class:`~onestep.frontend.zh.arbiter.PolyphoneArbiter` scores best from g2pM's probabilities over the
        whole text, the phrase dictionary's reading, CC-CEDICT phrases around it and CPP dev counts.
        """
        model, arbiter = self._model, self._arbiter
        _context_readings(text, words, starts)
        if arbiter is not None:
            self._cedict_rule_readings(text, words, starts, arbiter)
        if model is None or arbiter is None:
            return
        queries = []
        for w, k, q in self.polyphone_queries(text, words, starts):
            if not arbiter.settled(q, model.candidates(text[q.position])):
                queries.append((w, k, q))
            elif w.syllables[k] != q.dictionary:
                w.lexical[k] = q.dictionary  # 姥姥: lao5 spoken, lao3 its citation
        if not queries:
            return  # no g2pM run for a text whose phrase readings have no supported alternative
        for (w, k, query), guess in zip(queries, model.predict(text, [q.position for _, _, q in queries])):
            reading = arbiter.choose(query, model.candidates(text[query.position]), guess.probabilities)
            if reading == query.dictionary and w.syllables[k] != reading:
                w.lexical[k] = reading  # the phrase's neutral tone is spoken (姥姥 lao5); lao3 is its citation
            else:
                w.syllables[k] = reading
            w.learned.add(k)

    @staticmethod
    def _cedict_rule_readings(text: str, words: list[Word], starts: list[int], arbiter: PolyphoneArbiter) -> None:
        """Readings of :data:`CEDICT_RULE_CHARS` that no pypinyin phrase settles, from CC-CEDICT (in place).

        In a word that no pypinyin phrase covers, pypinyin reads such a character alone (子 zi5, 长 zhang3) and
        :func:`_uncovered_reading` guesses from its position; CC-CEDICT's longest phrase around the character
        inside the word settles it where there is one (养子 zi3 but 包子 zi5, 皇太子 and 孤对电子 zi3, 全长 chang2,
        副将 jiang4). A 子 that jieba cut as a word of its own takes the reading of a CC-CEDICT phrase across
        the cut (语句|子 zi5), else zi3: "son" (第三子) or "sub-" (子分期), not the noun suffix. Such characters
        count as :attr:`Word.learned`, so the neighbour rules leave them alone.
        """
        for w, start in zip(words, starts):
            if w.frozen or w.text in lx.WORD_PINYIN:
                continue
            if len(w.text) == 1:
                if w.text == "子":
                    reading = arbiter.cedict_readings(Query(text, start, "子", 0, "single", "zi5"))[0]
                    w.syllables[0] = reading if reading in ("zi3", "zi5") else "zi3"
                    w.learned.add(0)
                continue
            for k, char in enumerate(w.text):
                if char not in CEDICT_RULE_CHARS or (w.covered and w.covered[k]):
                    continue
                query = Query(text, start + k, w.text, k, "madeup", w.syllables[k])
                reading = arbiter.cedict_readings(query)[0]
                if reading is not None:
                    w.syllables[k] = reading

    def polyphone_queries(self, text: str, words: list[Word], starts: list[int]) -> list[tuple[Word, int, Query]]:
        """The polyphones of ``words`` (starting at ``starts`` in ``text``) whose reading the arbiter chooses.

        Guards: user lexicon words, the curated words of :mod:`~onestep.frontend.zh.lexicon`, the function
        characters that the context rules read (``RULE_CHARS``) and frequent one-character words with a dominant
        reading (``lexicon.DEFAULT_READING_WORDS``: 都, 没, 还 ...) keep their readings, and so do phrase readings
        that are none of g2pM's candidates (陂 pi2, 一会儿 er5) unless a neutral tone stands for a candidate of its
        syllable (姥姥 lao5 is asked about as lao3; if lao3 wins, it is the citation and lao5 what is spoken). The others
        are asked about
        with the kind of word they sit in (covered by a pypinyin phrase, a one-character word, a word of jieba's
        dictionary, a word jieba made up) and the reading the dictionaries gave.
        """
        model = self._model
        out: list[tuple[Word, int, Query]] = []
        if model is None:
            return out
        for w, start in zip(words, starts):
            if w.frozen or w.text in lx.WORD_PINYIN or w.text in lx.DEFAULT_READING_WORDS:
                continue
            for k, char in enumerate(w.text):
                if char in RULE_CHARS or k in w.learned or not model.is_polyphone(char):
                    continue
                dictionary = w.syllables[k]
                if w.covered and w.covered[k]:
                    candidates = model.candidates(char)
                    if dictionary not in candidates:
                        # a neutral-tone phrase reading (姥姥 lao5) is asked about as its syllable's candidate
                        # (lao3); one with no candidate of its syllable stands
                        same = [c for c in candidates if c[:-1] == dictionary[:-1]]
                        if len(same) != 1 or not dictionary.endswith("5"):
                            continue
                        dictionary = same[0]
                    category = "covered"
                elif len(w.text) == 1:
                    category = "single"
                elif self._is_word(w.text):
                    category = "jiebaword"
                else:
                    category = "madeup"
                out.append((w, k, Query(text, start + k, w.text, k, category, dictionary)))
        return out

    def _segment(self, run: str) -> list[Word]:
        """Words of a run of readable characters: user lexicon words whole, the rest cut by jieba."""
        assert self._tokenizer is not None
        pieces: list[tuple[str, bool]] = []
        if self._user_pattern is None:
            pieces.append((run, False))
        else:
            start = 0
            for m in self._user_pattern.finditer(run):
                if m.start() > start:
                    pieces.append((run[start : m.start()], False))
                pieces.append((m.group(), True))
                start = m.end()
            if start < len(run):
                pieces.append((run[start:], False))
        words: list[Word] = []
        for piece, is_user in pieces:
            if is_user:
                words.append(Word(piece, list(self._user[piece]), frozen=True, in_dictionary=True))
                continue
            for text in self._tokenizer.lcut(piece):
                syllables, in_dictionary, covered = self._reading(text)
                words.append(Word(text, list(syllables), in_dictionary=in_dictionary, covered=covered))
        return words

    def _reading(self, word: str) -> tuple[tuple[str, ...], bool, tuple[bool, ...]]:
        """Citation syllables of a word, whether a phrase dictionary covered it whole, and per character
        whether a phrase of 2+ characters inside the word covers it (cached)."""
        cached = self._readings.get(word)
        if cached is not None:
            return cached
        if word in lx.WORD_PINYIN:
            result = (lx.WORD_PINYIN[word], True, (True,) * len(word))
        else:
            syllables = lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True)
            syllables = [s if s[-1:].isdigit() else f"{s}5" for s in syllables]
            if len(word) > 1:
                for i, char in enumerate(word):
                    if char in _UNCOVERED_RULES and not _covered_by_phrase(word, i):
                        syllables[i] = _uncovered_reading(word, i, syllables[i])
            in_dictionary = word in PHRASES_DICT
            covered = tuple(len(word) > 1 and (in_dictionary or _covered_by_phrase(word, i)) for i in range(len(word)))
            result = (tuple(syllables), in_dictionary, covered)
        if len(self._readings) < 200_000:
            self._readings[word] = result
        return result

    def _apply_context(self, phrase: list[Word]) -> None:
        """Readings of single-character words that depend on their neighbours (长, 教, 为)."""
        for i, w in enumerate(phrase):
            _reduplication_reading(w)
            if w.text == "长长" and not w.frozen and i + 1 < len(phrase) and phrase[i + 1].text[0] == "了":
                w.syllables[:] = ["zhang3", "chang2"]  # 头发长长了: grew long (长长的 is chang2 chang2)
            if (not w.frozen and len(w.text) == 2 and w.text[1] == "为" and not w.in_dictionary
                    and w.text[0] in lx.NOT_VERB_BEFORE_DIRECTIONAL and 1 not in w.learned):
                w.syllables[1] = "wei4" if _wei_is_for(phrase, i) else "wei2"  # 总为 孩子 操心 (jieba's cut)
            if w.frozen or w.learned or (len(w.text) != 1 and w.text != "成长"):
                continue
            if w.text == "长":
                after = "".join(x.text for x in phrase[i + 1 : i + 3])
                grow = after[:1] in _ZHANG_BEFORE or (after[:1] == "不" and after[1:2] in _ZHANG_AFTER_BU)
                w.syllables[0] = "zhang3" if grow else "chang2"  # 长得快, 长不好 / 很长
            elif w.text == "成长" and _resultative_cheng(phrase, i):
                w.syllables[1] = "chang2"  # 切 成长 条: 切成 + 长条 (jieba's cut)
            elif w.text == "教" and i + 1 < len(phrase):
                w.syllables[0] = "jiao1"  # 教 + object: teach
            elif w.text == "为":
                w.syllables[0] = "wei4" if _wei_is_for(phrase, i) else "wei2"

    def _is_word(self, text: str) -> bool:
        assert self._tokenizer is not None
        return bool(self._tokenizer.FREQ.get(text))


_UNCOVERED_RULES = frozenset("长为子得将")
# Function characters read by the context rules here and in sandhi.py (neutral 的/了/着/地/得, 为 wei2/wei4,
# 长, 教, 子, 将), not by the polyphone model, which is worse on them in running text (慢慢地 as di4).
RULE_CHARS = frozenset("的了着地得为长教子将")
# Rule characters whose reading in a word no pypinyin phrase covers is CC-CEDICT's where a phrase of it covers them.
CEDICT_RULE_CHARS = frozenset("子长将")


def _uncovered_reading(word: str, index: int, syllable: str) -> str:
    """Reading of a polyphone inside a multi-character word that no pypinyin phrase covers.

    pypinyin then falls back to the character's most common reading, which is wrong in these positions.
    """
    char, last = word[index], index == len(word) - 1
    if char == "长":  # zhang3 "grow" (长得) or "chief" (村长), else chang2 "long"
        if index + 1 < len(word) and word[index + 1] in _ZHANG_BEFORE:
            return "zhang3"
        if index > 0 and word[index - 1] in _CHANG_AFTER:
            return "chang2"
        return "zhang3" if last else "chang2"
    if char == "为":
        return "wei2"  # 名为, 视为: "as, to be"
    if char == "子" and not last:
        return "zi3"  # 子公司
    if char == "得" and index > 0 and not any(pair in word for pair in lx.DE_FULL_TONE):
        return "de5"  # 跑得快, 长得
    if char == "将" and last:
        return "jiang4"  # 副将
    return syllable


def _context_readings(text: str, words: list[Word], starts: list[int]) -> None:
    """Everyday readings from the text around a polyphone (:data:`lexicon.CONTEXT_READINGS`), in place.

    Only characters that no pypinyin phrase of 2+ characters covers, outside user and curated words; a reading
    set here counts as :attr:`Word.learned`, so the arbiter and the neighbour rules leave it alone. A measure
    word (:data:`lexicon.MEASURE_CONTEXT_CHARS`) counts as uncovered in a numeral or demonstrative + measure
    phrase, whose one reading pypinyin gives for every sense (一场 chang2: 一场雨, but 一场电影 chang3).
    """
    for w, start in zip(words, starts):
        if w.frozen or w.text in lx.WORD_PINYIN:
            continue
        for k, char in enumerate(w.text):
            rules = lx.CONTEXT_READINGS.get(char)
            if rules is None:
                continue
            pos = start + k
            if w.covered and w.covered[k] and not (
                char in lx.MEASURE_CONTEXT_CHARS and len(w.text) == 2 and k == 1 and w.text[0] in lx.NUM_DEM
            ):
                continue
            if char == "落" and _left_behind(text, pos):
                w.syllables[k] = "la4"
                w.learned.add(k)
                continue
            after = "".join(c if _is_readable(c) else "$" for c in text[pos + 1 : pos + 6]) or "$"
            before = text[max(0, pos - 4) : pos]
            for nexts, prevs, reading, not_prev, not_next in rules:
                if (
                    (not nexts or after.startswith(nexts))
                    and (not prevs or before.endswith(prevs))
                    and not (not_prev and before.endswith(not_prev))
                    and not (not_next and after.startswith(not_next))
                ):
                    w.syllables[k] = reading
                    w.learned.add(k)
                    break


def _left_behind(text: str, pos: int) -> bool:
    """Whether 落 at ``pos`` is la4 "leave behind": 把 + an object + 落在 (我把护照落在酒店里了), or 落在 + a place
    ending in 那儿/这儿/那里/这里 + 了 (快递落在门卫那儿了); not 把目光落在 or 落在了地上 (luo4 "fall, land")."""
    if not text.startswith("落在", pos):
        return False
    before = re.split(r"[^\u4e00-\u9fff]", text[max(0, pos - 6) : pos])[-1]
    if "把" in before:
        obj = before[before.rindex("把") + 1 :]
        return bool(obj) and not any(obj.endswith(x) for x in lx.LUO4_ABSTRACT_OBJECTS)
    after = re.split(r"[^\u4e00-\u9fff]", text[pos + 2 : pos + 10])[0]
    return bool(re.fullmatch(r"[\u4e00-\u9fff]{1,4}(那儿|这儿|那里|这里)了", after))


def _reduplication_reading(w: Word) -> None:
    """An AA地 / AA的 word jieba made up reads both A alike, as its first (薄薄地 bao2 bao2, not bao2 bo2)."""
    t = w.text
    a, b = w.syllables[0], w.syllables[1] if len(t) > 1 else ""
    if (len(t) == 3 and t[0] == t[1] and t[2] in "地的" and not w.frozen and a[:-1] != b[:-1]
            and "5" not in (a[-1], b[-1])):
        w.syllables[1] = a  # two readings of one polyphone; a light second syllable (星星的) is left alone


def _resultative_cheng(phrase: list[Word], index: int) -> bool:
    """Whether jieba's 成长 at ``index`` is the result complement 成 of the one-character verb before it plus 长
    "long" starting the next word (揉 成长 条, 剪 成长 发), not "grow" (不断 成长, 要 成长)."""
    if index == 0 or index + 1 >= len(phrase):
        return False
    prev, nxt = phrase[index - 1].text, phrase[index + 1].text
    if len(prev) != 1 or prev in _NOT_RESULT_VERBS or nxt[0] in _NOT_AFTER_LONG:
        return False
    return prev in lx.VERBS or word_tags().get(prev) == "v"


# One-character words tagged v that are auxiliaries or causatives before 成长 "grow" (要 成长, 使 成长).
_NOT_RESULT_VERBS = frozenset("要想会能该得让使促助帮在是有")
# Words after 成长 that show it is the verb "grow" (成长 了, 成长 起来, 成长 的).
_NOT_AFTER_LONG = frozenset("了的着过起为中吗呢吧啊得")


def _wei_is_for(phrase: list[Word], index: int) -> bool:
    """Whether a single-character 为 means "for" (wei4: 为你, 请为我们) rather than "be, as" (wei2: 首府为…)."""
    if index == 0:
        return True
    nxt = phrase[index + 1].text if index + 1 < len(phrase) else ""
    later = phrase[index + 1 : index + 6]
    if any(w.text in lx.WEI4_BEFORE or (len(w.text) == 1 and w.text in lx.TRANSFER_VERBS) for w in later[1:]):
        return True  # 为人民服务, 为别人着想, 为灾区群众送去
    return nxt in lx.PRONOUNS or nxt[:1] in ("了", "此", "何") or phrase[index - 1].text in lx.WEI4_AFTER


def _covered_by_phrase(word: str, index: int) -> bool:
    """Whether some substring of ``word`` (2+ characters) containing position ``index`` is a pypinyin phrase."""
    n = len(word)
    return any(
        word[a:b] in PHRASES_DICT for a in range(index + 1) for b in range(max(index + 1, a + 2), n + 1)
    )


def _validate_entry(word: str, syllables: list[str]) -> tuple[str, ...]:
    """Check one user lexicon entry and return its syllables normalized (lower case, ``v`` for ü)."""
    if not isinstance(word, str) or not word:
        raise ValueError(f"user word must be a non-empty string, got {word!r}")
    if not all(_is_readable(c) for c in word):
        raise ValueError(f"user word {word!r}: only Chinese characters with a pinyin reading are allowed")
    if isinstance(syllables, str) or len(syllables) != len(word):
        raise ValueError(f"user word {word!r}: need one pinyin syllable per character, got {syllables!r}")
    out: list[str] = []
    for s in syllables:
        norm = str(s).strip().lower().replace("ü", "v").replace("u:", "v")
        if not _SYLLABLE.fullmatch(norm):
            raise ValueError(f"user word {word!r}: {s!r} is not tone-numbered pinyin like 'yin2'")
        syllable_phonemes(norm)  # raises ValueError for non-syllables
        out.append(norm)
    return tuple(out)
