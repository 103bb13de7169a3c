"""Mandarin tone sandhi and neutral tones over one phrase (the words between two punctuation marks).

Input syllables are citation readings (pypinyin + curated fixes); the rules turn them into surface tones:

1. 一 and 不, judged on the *citation* tone of the next syllable (even across word boundaries):
   一 → yi2 before tone 4, yi4 before tones 1-3, yi1 as an ordinal (第一), in numbers (十一, 一九九八),
   before 月/号/楼/年级/季度 (not 大一号, a size), word- or phrase-finally (统一); 不 → bu2 before tone 4, else bu4.
2. Neutral tones: particles (吗 呢 吧 ...), 的/地/得 as structural particles, 们, experiential 过 (also cut off
   its verb: 答应 过; not 穿过 森林), 个 after a verb (打个电话), AAB tentative verbs (散散步), 儿化 儿 cut off its word,
   来/去 in jieba's words of a transfer verb (传来, 打来; not 带来),
   directional complements (回来), 儿化 suffixes, reduplicated kinship nouns and tentative verbs (妈妈, 看看),
   the middle of 看一看 / 对不起, and a curated word list (东西 dong1 xi5).
3. Third tone: inside a word, cyclically over its dictionary structure ([展览]馆 → 2 2 3, 纸[老虎] → 3 2 3);
   across words, right to left on surface tones (我 很 好 → wo3 hen2 hao3).

Words marked ``frozen`` (user lexicon entries) are never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from onestep.frontend.zh import lexicon as lx
from onestep.frontend.zh.neutral_context import apply_context_neutral, word_tags
from onestep.frontend.zh.word import Word


def tone(syllable: str) -> int:
    """Tone digit (1-5) of ``"yin2"``-style pinyin."""
    return int(syllable[-1])


def with_tone(syllable: str, new_tone: int) -> str:
    """``syllable`` with its tone digit replaced."""
    return f"{syllable[:-1]}{new_tone}"


def apply_sandhi(words: Sequence[Word], is_word: Callable[[str], bool]) -> None:
    """Rewrite the syllables of one phrase's words from citation to surface tones, in place.

    Args:
        words: the phrase's words in order.
        is_word: dictionary membership test used to find the internal structure of words of 3+ characters.
    """
    _yi_bu(words, is_word)
    _neutral_tones(words, is_word)
    apply_context_neutral(words, is_word)
    _third_tone(words, is_word)


def _yi_bu(words: Sequence[Word], is_word: Callable[[str], bool]) -> None:
    chars: list[str] = []
    where: list[tuple[int, int]] = []
    for wi, w in enumerate(words):
        for ci, c in enumerate(w.text):
            chars.append(c)
            where.append((wi, ci))
    citation = [words[wi].syllables[ci] for wi, ci in where]
    for k, c in enumerate(chars):
        if c == "一" and citation[k].startswith("yi"):
            citation[k] = "yi1"
        elif c == "不" and citation[k].startswith("bu"):
            citation[k] = "bu4"
    n = len(chars)
    for k, c in enumerate(chars):
        wi, ci = where[k]
        word = words[wi]
        if word.frozen or c not in "一不" or not citation[k].startswith(("yi", "bu")):
            continue
        prev = chars[k - 1] if k > 0 else ""
        nxt = chars[k + 1] if k + 1 < n else ""
        nxt2 = chars[k + 2] if k + 2 < n else ""
        word_final = len(word.text) > 1 and ci == len(word.text) - 1 and is_word(word.text)  # not jieba's 人一|起来
        if c == "一" and ci > 0 and len(word.text) > 2 and nxt not in lx.MEASURE_AFTER_YI:
            word_final = word_final or ci == _split_point(word.text, is_word) - 1  # [统一]规划
        if c == "一" and prev and prev == nxt and (k < 2 or chars[k - 2] != "一") and _repeatable(prev):
            word.syllables[ci] = "yi5"  # 查 一查, 讲 一 讲 (看一看 cut apart)
            continue
        if not nxt or word_final:
            new = 1 if c == "一" else 4
        elif c == "不":
            new = 2 if tone(citation[k + 1]) == 4 else 4
        else:
            new = _yi_tone(prev, nxt, nxt2, chars[k - 2] if k > 1 else "", tone(citation[k + 1]))
        word.syllables[ci] = f"{'yi' if c == '一' else 'bu'}{new}"


_TENTATIVE_CHARS = frozenset(word[0] for word in lx.TENTATIVE_VERBS)


def _repeatable(char: str) -> bool:
    """Whether ``char`` is a verb that makes a V一V tentative form (查一查; not 一剑一剑, 一步一步)."""
    return char in lx.VERBS or char in lx.POTENTIAL_VERBS or char in _TENTATIVE_CHARS


def _yi_tone(prev: str, nxt: str, nxt2: str, prev2: str, next_tone: int) -> int:
    """Tone of a non-final 一 from its neighbours and the citation tone of the next syllable."""
    if prev == "第" or (prev == "比" and prev2 in lx.NUMERAL_CHARS) or (nxt == "比" and nxt2 in lx.NUMERAL_CHARS):
        return 1  # 第一, 三比一, 一比零
    if nxt not in lx.BIG_UNITS:
        if nxt in lx.NUMERAL_CHARS or (nxt == "点" and nxt2 in lx.NUMERAL_CHARS):
            return 1  # digit sequences and decimals: 一九九八, 一点五
        if prev in lx.NUMERAL_CHARS or prev in lx.BIG_UNITS or (prev == "点" and prev2 in lx.NUMERAL_CHARS):
            return 1  # 十一, 一百一, 三点一
        if (nxt in "月楼" or (nxt == "号" and prev not in "大小") or (nxt == "年" and nxt2 == "级")
                or (nxt == "季" and nxt2 == "度") or (nxt == "日" and prev == "月")):
            return 1  # 一月, 一号, 一楼, 一年级, 一季度, 七月一日 (not 大一号: a size bigger)
    return 2 if next_tone in (4, 5) else 4


def _neutral_tones(words: Sequence[Word], is_word: Callable[[str], bool]) -> None:
    for i, w in enumerate(words):
        if w.frozen:
            continue
        t, s, n = w.text, w.syllables, len(w.text)
        prev = words[i - 1] if i > 0 else None
        nxt = words[i + 1] if i + 1 < len(words) else None
        nxt2 = words[i + 2] if i + 2 < len(words) else None
        if t in lx.NEUTRAL_FINAL or (n > 2 and t[-2:] in lx.NEUTRAL_FINAL):  # 东西, 没关系, 红衣服
            s[-1] = with_tone(s[-1], 5)
        elif n > 2 and t[:2] in lx.NEUTRAL_FINAL and not w.in_dictionary and (
            t[2] in "一了过着上里" or t[2:] == "好"
            or (t[:2] not in lx.NEUTRAL_FINAL_FULL_SENSE and (t[2:] in lx.NEUTRAL_COMPOUND_SUFFIXES or (n > 3 and is_word(t[2:]))))
        ):
            s[1] = with_tone(s[1], 5)  # 商量一下, 休息了, 窗户上, 粮食产量, 任务量, 家里人 (jieba's made-up words)
        _neutral_ge(w, prev, nxt)
        pairs = [t[j : j + 2] for j in range(0, n, 2)]
        if n % 2 == 0 and all(p in lx.NEUTRAL_REDUPLICATION for p in pairs):  # 妈妈, 爸爸妈妈, 看看 (not 比比皆是)
            for j in range(0, n, 2):
                s[j + 1] = with_tone(s[j + 1], 5)
                if t[j : j + 2] in lx.TENTATIVE_VERBS and tone(s[j]) == 3:
                    s[j] = with_tone(s[j], 2)  # 想想 xiang2 xiang5
        if n >= 2 and t[0] == "不" and prev is not None and (
            prev.text == t[1:] or (prev.text[-1] == t[1] and not prev.in_dictionary and not w.in_dictionary)
        ):
            s[0] = "bu5"  # 想 不想, 看合 不合身 (A 不 AB; not 非常 不常见)
        if n == 3 and t[:2] in lx.NEUTRAL_REDUPLICATION and t[2] in lx.PARTICLES and not w.in_dictionary:
            s[1] = with_tone(s[1], 5)  # 聊聊吧, 妈妈呢 (jieba's made-up words)
            if t[:2] in lx.TENTATIVE_VERBS and tone(s[0]) == 3:
                s[0] = with_tone(s[0], 2)
        if t == "等等" and prev is not None and (prev.text in lx.PRONOUNS or prev.text in lx.WAIT_A_BIT_BEFORE):
            s[0], s[1] = "deng2", "deng5"  # 我 再 等等 (wait a bit, as 想想), not 苹果、梨 等等 ("and so on")
        if n >= 4 and n % 2 == 0 and t[: n // 2] == t[n // 2 :] and t[-1] == "儿":
            s[n // 2 - 1] = "er5"  # 一点儿一点儿: both halves 儿化
        if n == 3 and t[0] == t[1] and t[:2] in lx.TENTATIVE_VERBS and is_word(t[1:]):
            s[1] = with_tone(s[1], 5)  # 散散步, 聊聊天, 看看书 (AAB of a verb-object word)
            if tone(s[0]) == 3:
                s[0] = with_tone(s[0], 2)
        if t[0] == "儿" and prev is not None and (n == 1 or not is_word(t)) and not _er_full(prev.text):
            s[0] = "er5"  # 一边 儿, 门口 儿有, 公园 儿里 (jieba cut the 儿化 suffix off its word)
        if n == 3 and ((t[1] == "不" and _potential_or_question(w)) or (t[1] in "一了" and t[0] == t[2])):
            s[1] = with_tone(s[1], 5)  # 对不起, 吃不饱, 好不好, 看一看, 看了看 (not 天不亮)
            if t[1:] == "不着":
                s[2] = "zhao2"  # 找不着, 睡不着, 用不着: the result complement, not the aspect particle
        if n == 3 and t[1] == "过" and t[0] in lx.GUO5_AFTER and not w.in_dictionary:
            s[1] = with_tone(s[1], 5)  # 吃过饭, 去过北京 (jieba's made-up words)
        if n == 1:
            _single_char_neutral(w, prev, nxt)
            continue
        last = t[-1]
        if last == "们" or (not w.in_dictionary and (last in lx.PARTICLES or last == "的")):
            s[-1] = with_tone(s[-1], 5)
        elif last == "地" and n == 3 and t[0] == t[1]:
            s[-1] = "de5"  # 轻轻地, 慢慢地 (AA地 is always adverbial)
        elif last == "地" and not w.in_dictionary and n >= 3 and not is_word(t) and not is_word(t[-2:]):
            s[-1] = "de5"  # 慢慢地, 认真地 (words jieba made up; not 胜地/目的地, where 地 is a noun)
        elif last == "地" and n >= 3 and not w.in_dictionary and _adverbial_de_word(t):
            s[-1] = "de5"  # 倔强地, 狡猾地 (jieba's adverbial words; not 盐硷地, 哭天嚎地)
        elif n >= 3 and t.endswith("不得") and s[-1].startswith("de"):
            s[-2], s[-1] = "bu5", "de5"  # 舍不得, 怪不得
        elif last == "过" and n == 2 and not _guo_across(t, nxt, nxt2) and (
            (not w.in_dictionary and is_word(t) and t[0] not in lx.GUO_NOT_SUFFIX) or t[0] in lx.GUO5_AFTER
        ):
            s[-1] = with_tone(s[-1], 5)  # 去过, 来过, 见过 (jieba words: its HMM joins 狮|过 in 狮过江)
        elif last == "过" and n >= 3 and t[0] == "没" and t[-2] in lx.GUO5_AFTER and not w.in_dictionary:
            s[-1] = with_tone(s[-1], 5)  # 没听说过, 没吃过 (made-up words of jieba)
        elif (last in lx.DIRECTIONAL_LAST and t[-2] in lx.DIRECTIONAL_FIRST
              and (t != "过去" or _after_verb(prev, is_word) or _guoqu_verb(prev, nxt))
              and not (t == "起来" and prev is not None and prev.text[-1] == "一")  # not 人一|起来 (一起 来)
              and not (n >= 4 and t[-3] == "不")):  # 看不下去: a potential form keeps the complement's tones
            s[-1] = with_tone(s[-1], 5)  # 回来, 上去
            if (n >= 3 and (not w.in_dictionary or t[-3] in lx.VERBS) and t[-3] not in lx.NOT_VERB_BEFORE_DIRECTIONAL) or (
                n == 2 and _after_verb(prev, is_word)
            ):
                s[-2] = with_tone(s[-2], 5)  # 站起来, 拿 出来 (a compound complement after a verb)
        elif n == 2 and last in lx.DIRECTIONAL_LAST and t[0] in lx.LAI5_VERBS and not (nxt and nxt.text[0] == t[0]):
            s[-1] = with_tone(s[-1], 5)  # 传来, 打来, 寄去 (jieba's words; not 带来, 传来传去)
        elif n == 2 and last == "上" and t[0] in lx.VERBS:
            s[-1] = with_tone(s[-1], 5)  # 穿上, 关上
        elif n in (3, 4) and t[1] == "上" and t[0] in lx.VERBS and not w.in_dictionary:
            s[1] = with_tone(s[1], 5)  # 关上门, 穿上鞋, 闭上眼睛 (jieba's made-up verb + 上 + object)
        elif last == "儿" and not any(t[-k:] in lx.ER_FULL_TONE for k in range(2, min(n, 4) + 1)):
            s[-1] = "er5"  # 儿化: 哪儿, 一点儿


def _potential_or_question(w: Word) -> bool:
    """Whether a three-character X不Y word is a potential form or an A不A question, whose 不 is light: a dictionary
    word (对不起, 来不及), A不A (好不好), or a made-up verb + 不 + complement (搬不动, 吃不饱); not 天不亮."""
    t = w.text
    if w.in_dictionary or t[0] == t[2] or t[2] in lx.POTENTIAL_COMPLEMENTS:
        return True
    verb = t[0] in lx.VERBS or t[0] in lx.POTENTIAL_VERBS or word_tags().get(t[0]) == "v"  # 钓不着
    return t[2] in lx.POTENTIAL_AFTER_VERB and verb


def _guo_across(text: str, nxt: Word | None, nxt2: Word | None = None) -> bool:
    """Whether 过 of a two-character word is the directional "across" or "past" (穿过 森林, 骗过 门将 guo4), not
    experiential (没 穿过, 穿过 的, 他 骗过 我); after a "get past" verb also before 了 (躲过 了 一劫, 熬过 了 冬天); after
    an "across" verb or 走 before 了 and more words (穿过 了 森林, 走过 了 五十 年; 这件 我 穿过 了 is experiential)."""
    if nxt is None or nxt.text[0] in "的吗呢吧啊":
        return False
    if text[0] in lx.GUO_PAST:
        return nxt.text not in lx.PRONOUNS
    if nxt.text == "了" and (text[0] in lx.GUO_ACROSS or text[0] == "走"):
        return nxt2 is not None and nxt2.text[0] not in lx.PARTICLES and nxt2.text[0] not in "的了"
    return text[0] in lx.GUO_ACROSS and nxt.text[0] != "了"


def _guoqu_verb(prev: Word | None, nxt: Word | None) -> bool:
    """Whether the dictionary word 过去 is the verb "pass, go over" (guo4 qu5: 多年 过去 了, 我 马上 过去), not the
    noun "the past" (回到 过去, 我 的 过去, 过去 的 日子): before 了/吧/啦, or ending the phrase after a pronoun or
    an adverb."""
    if nxt is not None:
        return nxt.text[0] in "了吧啦"
    if prev is None or prev.text == "的":
        return False
    return prev.text in lx.PRONOUNS or prev.text in lx.NOT_VERB_BEFORE_DIRECTIONAL or word_tags().get(prev.text) == "d"


def _adverbial_de_word(text: str) -> bool:
    """Whether a word of jieba's dictionary ending in 地 is an adjective or adverb + the adverbial 地 (倔强地, 默默地:
    jieba tags these z), not a noun or an idiom in 地 (盐硷地, 哭天嚎地)."""
    tags = word_tags()
    stem = text[:-1]
    return tags.get(text) == "z" and (tags.get(stem) in ("a", "ad", "d", "z") or (len(stem) == 2 and stem[0] == stem[1]))


def _single_char_neutral(w: Word, prev: Word | None, nxt: Word | None) -> None:
    """Neutral tones of one-character function words, which depend on their neighbours."""
    c = w.text
    if prev is None:
        if c == "得" and nxt is not None and nxt.text[0] not in "了到出知" and not w.learned:
            w.syllables[0] = "dei3"  # phrase-initial before a verb: "must" (，得多休息)
        return  # phrase-initial: an interjection (啊!) or a full word (得了吧)
    if c == "着" and prev.text[-1] in lx.ZHAO2_AFTER and not w.learned:
        w.syllables[0] = "zhao2"  # 睡着, 找着
        return
    if c == "着" and prev.text[-1] in lx.ZHAO2_HURT and not w.learned and (nxt is None or nxt.text[0] in "了吧啊呀"):
        w.syllables[0] = "zhao2"  # 别摔 着 了, 小心烫 着 (got hurt); not 累 着 呢
        return
    if c == "过" and not w.learned and prev.text[-1] in lx.GUO5_AFTER and prev.text not in lx.PRONOUNS and (
        nxt is None or nxt.text[0] not in "来去得"
    ):
        w.syllables[0] = "guo5"  # 吃 过, 遇到 过, 答应 过 (experiential, cut off its verb)
        return
    if c in "上里" and nxt is None and not ends_in_verb(prev):
        w.syllables[0] = with_tone(w.syllables[0], 5)  # 桌子上, 屋里: a locative after a noun
        return
    if c == "上" and prev.text[-1] in lx.VERBS and len(prev.text) == 1:
        w.syllables[0] = "shang5"  # 穿 上
        return
    if w.learned and c in "的了着得地":
        return  # the polyphone model chose the reading (le5 vs liao3, zhe5 vs zhao2, de5 vs dei3)
    if c in lx.PARTICLES or c in "的了着":
        w.syllables[0] = with_tone(w.syllables[0], 5)
    elif c == "地" and nxt is not None:
        w.syllables[0] = "de5"  # 慢慢 地 走
    elif c == "得":
        if (prev.text in lx.PRONOUNS or prev.text in lx.DEI3_AFTER) and nxt is not None:
            w.syllables[0] = "de2" if nxt.text[0] in "了到" else "dei3"  # 我得去, 就得出发 / 他得了奖
        elif nxt is not None and nxt.text[0] == "了" and len(prev.text) >= 2:
            w.syllables[0] = "de2"  # 考试 得了 满分 (obtained)
        else:
            w.syllables[0] = "de5"  # 跑 得 快


def ends_in_verb(prev: Word) -> bool:
    """Whether ``prev`` ends in a one-character action verb that a following 上/里 would complement (拿 上):
    a dictionary word of two or more characters is a noun or a finished word there (沙发 上, 头发 里)."""
    return prev.text[-1] in lx.VERBS and not (len(prev.text) >= 2 and prev.in_dictionary)


def _er_full(before: str) -> bool:
    """Whether ``儿`` after ``before`` is a full-tone morpheme "child" (女 儿, 婴 儿), not the 儿化 suffix."""
    return any((before + "儿")[-k:] in lx.ER_FULL_TONE for k in range(2, 5))


def _after_verb(prev: Word | None, is_word: Callable[[str], bool]) -> bool:
    """Whether ``prev`` is a one-character action verb, or a word jieba made up that ends in one (so what follows
    is its complement: 拿 出来, 没发 下来; not 适合 出去)."""
    if prev is None or prev.text[-1] not in lx.VERBS:
        return False
    p = prev.text
    if len(p) == 2 and (p[0] == "没" or (p[0] in "不别" and p[1] != "想")):
        return True  # 没想 出来, 不拿 出来 (jieba's negated verb); not 不想 出来 "not want to come out"
    return len(p) == 1 or not is_word(p)


def _neutral_ge(w: Word, prev: Word | None, nxt: Word | None) -> None:
    """个 as a measure word is neutral: after a numeral or demonstrative (一个, 这个, 两个, 每个), after 多 (两千多个,
    多个城市), in 上个/下个 before 月/星期 …, and as a word of its own after a verb (是 个 好人); not 个人."""
    for k, c in enumerate(w.text):
        if c != "个" or w.syllables[k] != "ge4":
            continue
        before = w.text[k - 1] if k > 0 else (prev.text[-1] if prev is not None else "")
        after = w.text[k + 1 :] or (nxt.text if nxt is not None else "")
        if (
            before in lx.GE5_AFTER
            or before == "多"  # 两千多个, 多个城市, 好多个
            or (before in "上下" and any(after.startswith(x) for x in lx.GE5_TIME_AFTER))
            or (w.text == "个" and prev is not None and after[:1] not in lx.GE_FULL_BEFORE)
            or (len(w.text) == 2 and k == 1 and not w.in_dictionary
                and (before in lx.VERBS or before in lx.GE5_VERBS or word_tags().get(before) == "v"))  # 打个电话, 找个地儿
        ):
            w.syllables[k] = "ge5"


def _third_tone(words: Sequence[Word], is_word: Callable[[str], bool]) -> None:
    """Third-tone sandhi: inside dictionary words cyclically, then right to left across words. A two-character word
    that jieba made up of a word and a function word (倒了一杯 水给 我: 水 + the preposition 给) is two words here:
    水 给 我 → shui3 gei2 wo3, as the right-to-left pass over the words gives, not shui2 gei2 from its inside first
    (a made-up compound such as 鼠尾 in 鼠尾鳕 keeps its inside first)."""
    units: list[tuple[Word, int, int]] = []  # (word, first index, last index) of each unit, in order
    for w in words:
        n = len(w.syllables)
        if not w.frozen and n == 2 and not w.in_dictionary and not is_word(w.text) and _glued_function_word(w.text):
            units += [(w, 0, 0), (w, 1, 1)]
            continue
        if not w.frozen and n > 1:
            _cyclic_third_tone(w.text, w.syllables, 0, n, is_word)
        units.append((w, 0, n - 1))
    for i in range(len(units) - 2, -1, -1):
        (left, _, end), (right, start, _) = units[i], units[i + 1]
        if not left.frozen and tone(left.syllables[end]) == 3 and tone(right.syllables[start]) == 3:
            left.syllables[end] = with_tone(left.syllables[end], 2)


# jieba tags of function words (preposition, conjunction, particle, adverb, pronoun).
_FUNCTION_TAGS = frozenset(("p", "c", "u", "d", "r", "y"))


def _glued_function_word(text: str) -> bool:
    """Whether a two-character word jieba made up is a word glued to a function word (水给, 我把), not a compound."""
    tags = word_tags()
    return any(tags.get(c) in _FUNCTION_TAGS for c in text)


def _cyclic_third_tone(text: str, syllables: list[str], lo: int, hi: int, is_word: Callable[[str], bool]) -> None:
    """3-3 → 2-3 applied innermost constituent first over ``text[lo:hi]`` (its binary dictionary structure)."""
    if hi - lo < 2:
        return
    k = lo + _split_point(text[lo:hi], is_word)
    _cyclic_third_tone(text, syllables, lo, k, is_word)
    _cyclic_third_tone(text, syllables, k, hi, is_word)
    if tone(syllables[k - 1]) == 3 and tone(syllables[k]) == 3:
        syllables[k - 1] = with_tone(syllables[k - 1], 2)


def _split_point(text: str, is_word: Callable[[str], bool]) -> int:
    """Where a word of two or more characters splits into its two immediate constituents."""
    n = len(text)
    if n == 2:
        return 1
    if n == 3:
        if is_word(text[:2]):
            return 2
        return 1 if is_word(text[1:]) else 2
    both = [k for k in range(1, n) if _is_part(text[:k], is_word) and _is_part(text[k:], is_word)]
    if both:
        return min(both, key=lambda k: (abs(2 * k - n), -k))
    prefixes = [k for k in range(2, n) if is_word(text[:k])]
    return max(prefixes) if prefixes else n // 2


def _is_part(text: str, is_word: Callable[[str], bool]) -> bool:
    return len(text) == 1 or is_word(text)
