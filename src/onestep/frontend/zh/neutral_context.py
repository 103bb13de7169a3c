"""Neutral tones that depend on the words around a word (jieba often cuts these constructions apart).

Run by :func:`onestep.frontend.zh.sandhi.apply_sandhi` after the per-word neutral tones and before third-tone
sandhi, over one phrase's words (surface syllables are rewritten in place):

* locative 上/里 after a noun (学校 里 li5, 广场 上 的 shang5, 书架上, 口袋 里, 沙发 上, jieba's 锅里 / 里焯), not
  十 里 / 公里 or names (东里 寨);
* directional complements cut off their verb: 站 了 起来 (qi5 lai5), 发出 去 (chu5 qu5), 唱起歌 来 (qi5 … lai5),
  跑 回家 去 (qu5), 送 去 了 (qu5), 出去玩 (qu5);
* 不 in A 不 A (对 不 对) and in potential complements (找 不到, 搬 不动, 说不清楚: bu5);
* 得 "must" after a noun subject and before a verb, also glued by jieba (鸡汤 得炖, 衣服 得 洗, 汤得 煮: dei3);
* 得到 after a one-character verb (找 得到: de5); 地 glued to the next word (慢慢 地站: de5, 这块 地种: di4);
* reduplicated kinship nouns inside longer words (奶奶家, 老爷爷);
* a 轻声 word cut across two words (记不清 楚: chu5).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from onestep.frontend.zh import lexicon as lx
from onestep.frontend.zh.word import Word

_AFTER_COMPLEMENT = frozenset("了吧的吗呢啊呀啦")
# A word ending in one of these is not the noun of a locative 上/里 (导致了 里贝克, 在 上).
_NOT_NOUN_END = frozenset("了的着过地得在和与及或向往从到把被让给对")
# Aspect-like compound complements that follow two-character verbs too (结合 起来, 坚持 下去, 安静 下来).
_ASPECT_COMPLEMENTS = frozenset(("起来", "下来", "下去"))
# One-character words that make the word before them a place name (东里 寨, 梅里 村): its 里 is li3.
_PLACE_SUFFIXES = frozenset("寨村镇乡庄屯街巷路县市区港站桥")
# Words ending in 上/里 that are not a noun plus a neutral locative (以上 yi3 shang4, 楼上 lou2 shang4, 马上).
_NOT_LOCATIVE = frozenset("以上 之上 楼上 马上 线上 向上 往上 至上 以里 之里 公里 千里 万里 海里 英里 华里".split())
# 上 before one of these is "last, previous" (上 月租金, 上 周五), not a locative.
_TIME_AFTER_SHANG = frozenset("月周")
# A word ending in one of these before 起来 … is a time or an adverb, not the verb (早上 起来: get up).
_NOT_VERB_END = frozenset("上天午晚候时点一") | lx.NOT_VERB_BEFORE_DIRECTIONAL


def _neutral(w: Word, k: int) -> None:
    w.syllables[k] = f"{w.syllables[k][:-1]}5"


def _compound_directional(text: str) -> bool:
    return len(text) == 2 and text[0] in lx.DIRECTIONAL_FIRST and text[1] in lx.DIRECTIONAL_LAST


def apply_context_neutral(words: Sequence[Word], is_word: Callable[[str], bool]) -> None:
    """Rewrite neutral tones that depend on neighbouring words (see the module docstring), in place.

    Args:
        words: one phrase's words, syllables already through the per-word neutral-tone rules.
        is_word: jieba dictionary membership.
    """
    n = len(words)
    for i, w in enumerate(words):
        if w.frozen:
            continue
        prev = words[i - 1] if i > 0 else None
        nxt = words[i + 1] if i + 1 < n else None
        t = w.text
        _kinship(w)
        if len(t) == 3 and _compound_directional(t[:2]) and not w.in_dictionary and t[:2] != "过去":
            _neutral(w, 1)  # 出去玩 chu1 qu5 wan2
            if prev is not None and not prev.frozen and len(prev.text) == 1 and prev.text in lx.VERBS:
                _neutral(w, 0)  # 跑 出去玩: a compound complement of 跑
        if (len(t) == 4 and t[1] == "不" and (t[0] in lx.POTENTIAL_VERBS or _is_verb(t[0]))
                and t[2] in lx.POTENTIAL_COMPLEMENTS | {"明"} and not w.in_dictionary):
            w.syllables[1] = "bu5"  # 说不清楚, 看不明白, 帮不上忙
        if _made_up_locative_li(w, prev, nxt, is_word) or _framed_li(w, prev):
            _neutral(w, 1)  # 锅里 倒油, 在 公园 儿里
        _locative_suffix(w, is_word)
        _noun_li(w, prev, nxt)
        if len(t) >= 4 and t[-1] in "上里" and t[-3] == "在" and t[-2:] not in _NOT_LOCATIVE:
            _neutral(w, len(t) - 1)  # 放在心上, 记在心里 (jieba's made-up verb phrases)
        if prev is None or prev.frozen:
            continue
        _locative(w, prev, nxt, is_word)
        _framed_locative(w, prev, words[i - 2] if i > 1 else None, is_word)
        _directional(w, prev, words[i - 2] if i > 1 else None, nxt)
        _bu(w, prev, nxt)
        if (len(t) == 2 and t[0] == "得" and t[1] in lx.POTENTIAL_COMPLEMENTS and t[1] != "了"
                and (prev.text in lx.VERBS or prev.text in lx.POTENTIAL_VERBS)):
            w.syllables[0] = "de5"  # 找 得到, 搬 得动 (potential), not 他 得到 (obtained)
        elif (t in ("得来", "得去") and len(prev.text) == 1 and not w.in_dictionary
              and (prev.text in lx.DIRECTIONAL_FIRST or prev.text in lx.VERBS)):
            w.syllables[0] = "de5"  # 起 得来, 回 得去 (potential), not 得来 "obtained"
        elif (len(t) == 2 and t[0] == "地" and not w.in_dictionary and not is_word(t)
              and prev.text[-1] not in lx.DI4_AFTER and w.syllables[0].startswith("d")):
            w.syllables[0] = "de5"  # 慢慢 地站 (jieba's cut); 这块 地种 keeps di4
        if len(t) == 1 and t not in "上里" and (prev.text[-1] + t) in lx.NEUTRAL_FINAL - lx.NEUTRAL_FINAL_UNFORCED:
            _neutral(w, 0)  # 记不清 楚
        _must_dei(w, prev, nxt, is_word)
        if (len(t) == 2 and t[0] == "过" and not w.in_dictionary and not is_word(t)
                and prev.text[-1] in lx.GUO5_AFTER and (len(prev.text) == 1 or prev.text[0] in "没未曾")):
            _neutral(w, 0)  # 没吵 过架, 吃 过饭 (jieba glued the experiential 过 to the object)
        if (t == "起来" and len(prev.text) == 1
                and (prev.text in lx.INCHOATIVE_ADJECTIVES or (_pos_tag(prev.text) == "a" and prev.text != "快"))
                and (nxt is None or nxt.text[0] in _AFTER_COMPLEMENT)):
            _neutral(w, 0)  # 好 起来 的, 热 起来 了: inchoative 起来 after an adjective
        if t == "着手" and prev.text in lx.ZHE5_SHOU_AFTER and w.syllables[0] == "zhuo2":
            w.syllables[0] = "zhe5"  # 手拉 着手: 拉着 + 手, not 着手 "set about"


def _noun_li(w: Word, prev: Word | None, nxt: Word | None) -> None:
    """A two-character word of a one-character noun and the locative 里, which jieba keeps whole or makes up (群里,
    汤里, 地里, 在 海里): li5; not 十 海里 (a measure), names (萧 海里, 东里 寨) or 邻里/故里."""
    t = w.text
    if len(t) != 2 or t[1] != "里" or w.frozen or 1 in w.learned or w.syllables[1][:-1] != "li":
        return
    tag = _pos_tag(t)
    if not (tag == "s" or (tag is None and (_pos_tag(t[0]) or "").startswith("n"))):
        return
    if prev is not None and prev.text[-1] in lx.NUMERAL_CHARS | lx.BIG_UNITS | set("两几多"):
        return  # 十 海里
    if t in _NOT_LOCATIVE and (prev is None or prev.text[-1] not in "在从到进往"):
        return  # 海里 is a locative only in a frame (在 海里), else a measure or a name (萧 海里)
    if nxt is not None and nxt.text in _PLACE_SUFFIXES:
        return
    _neutral(w, 1)


def _pos_tag(text: str) -> str | None:
    """jieba's part-of-speech tag of a dictionary word (``n`` noun, ``s`` place, ``v`` verb …), or None."""
    return word_tags().get(text)


@cache
def word_tags() -> Mapping[str, str]:
    """jieba's word -> part-of-speech table (memory-mapped; opened when the Mandarin tools load)."""
    from onestep.frontend.zh.jieba_dict import load_tags

    return load_tags()


def _noun_word(text: str) -> bool:
    """Whether ``text`` is a common noun or a place word of jieba's dictionary (湖面, 墙壁; not a name)."""
    tag = _pos_tag(text) or ""
    return tag in ("n", "s", "f", "ng", "nz")


def _is_noun(text: str) -> bool:
    """Whether ``text`` is a noun (or a demonstrative phrase 这事) that can be the subject before 得 "must"."""
    tag = _pos_tag(text) or ""
    return tag.startswith("n") and tag not in ("nr", "nrt") or (len(text) >= 2 and tag == "r" and text[0] in "这那")


def _verb_start(word: Word | None) -> bool:
    """Whether ``word`` starts with a one-character action verb and is no potential or degree complement."""
    if word is None or any(c in word.text for c in "不得"):
        return False
    t = word.text
    if 2 <= len(t) <= 3 and t[-1] in lx.VERBS and not word.in_dictionary and not (_pos_tag(t) or "").startswith("n"):
        return True  # an adverb + verb that jieba keeps whole: 这种药 得 空腹吃
    return _is_verb(t[0]) or (_pos_tag(t) or "").startswith("v")


def _is_verb(char: str) -> bool:
    """Whether one character is an action verb (our list, or jieba tags it ``v``)."""
    return char in lx.VERBS or _pos_tag(char) == "v"


def _must_dei(w: Word, prev: Word, nxt: Word | None, is_word: Callable[[str], bool]) -> None:
    """得 "must" between a noun subject and a verb (鸡汤 得炖, 衣服 得 洗, jieba's 汤得 煮: dei3); not 累得 走不动
    or 气得 说不出 (a degree complement after an adjective or verb)."""
    t = w.text
    if "得" not in t or len(t) > 2 or w.in_dictionary and len(t) == 2:
        return
    k = t.index("得")
    if k in w.learned:
        return
    if len(t) == 1:
        ok = _is_noun(prev.text) and _verb_start(nxt)
    elif k == 0:
        ok = _is_noun(prev.text) and _is_verb(t[1]) and not is_word(t)
    else:
        ok = _pos_tag(t[0]) == "n" and t[0] not in "气火劲" and _verb_start(nxt) and not is_word(t)
    if ok:
        w.syllables[k] = "dei3"


def _locative_suffix(w: Word, is_word: Callable[[str], bool]) -> None:
    """上/里 ending a word jieba made up of a noun and the locative, even phrase-initially (书架上, 垃圾桶里,
    基本上, 窗户上)."""
    t = w.text
    if (len(t) >= 3 and t[-1] in "上里" and not w.in_dictionary and not w.frozen and is_word(t[:-1])
            and t[-2] not in lx.VERBS and t[-2] not in lx.LI3_AFTER and t[-3:] not in lx.NEUTRAL_FINAL):
        _neutral(w, len(t) - 1)


def _made_up_locative_li(w: Word, prev: Word | None, nxt: Word | None, is_word: Callable[[str], bool]) -> bool:
    """Whether ``w`` is a two-character word jieba made up of a noun and the locative 里 (锅里, 儿里), judged
    from a frame around it: after 在/从/到 …, or phrase-initially before a one-character verb (锅里 倒油); not
    the names 梅里奥尼斯, 东里 寨."""
    t = w.text
    if len(t) != 2 or t[1] != "里" or w.in_dictionary or w.learned or not _noun_before_li(t[0], is_word):
        return False
    if prev is not None:
        return t[0] == "儿" or prev.text[-1] in "在从到进放往向"
    return nxt is not None and len(nxt.text) == 1 and nxt.text not in _PLACE_SUFFIXES


def _framed_li(w: Word, prev: Word | None) -> bool:
    """A two-character word jieba made up of a one-character verb-or-noun and 里 right after 在/从/往 … (从 包里,
    在 盒里): in that frame the character is the noun (a bag), so 里 is the locative."""
    t = w.text
    if prev is None or len(t) != 2 or t[1] != "里" or w.in_dictionary or w.learned or w.frozen:
        return False
    if prev.text[-1] not in "在从往" or t[0] not in lx.VERBS or t[0] in lx.LI3_AFTER:
        return False
    return _pos_tag(t[0]) in ("n", "v") and w.syllables[1][:-1] == "li"


def _noun_before_li(char: str, is_word: Callable[[str], bool]) -> bool:
    """Whether ``char`` before 里 in a two-character word jieba made up is a noun (锅里), not a verb, numeral,
    preposition or pronoun (走里, 十里, 往里, 我里)."""
    return (char not in lx.VERBS and char not in lx.LI3_AFTER and char not in _NOT_NOUN_END
            and char not in lx.PRONOUNS and (is_word(char) or char == "儿"))


def _framed_locative(w: Word, prev: Word, prev2: Word | None, is_word: Callable[[str], bool]) -> None:
    """A word of a noun and 上/里 inside a locative frame, after 在/从/到 or 的 (在 会上 发言, 背在 肩上, 明天 的
    会上, 落在 出租车 上 了): the locative is neutral even where the dictionary gives the word a full tone.
    Not 以上/之上/楼上 …, numerals (十 里, 公里), names (马德里) or 上/里 after a verb."""
    t = w.text
    if t in ("上", "里") and prev2 is not None and prev2.text[-1] in "在从到" and len(prev.text) >= 2:
        if prev.text[-1] not in lx.VERBS and prev.text not in lx.PRONOUNS and prev.text[-2:] + t not in _NOT_LOCATIVE:
            _neutral(w, 0)  # 落在 出租车 上 了
        return
    if not 2 <= len(t) <= 4 or t[-1] not in "上里" or t[-2:] in _NOT_LOCATIVE:
        return
    if t[-2] in lx.VERBS or t[-2] in lx.LI3_AFTER or t[-2] in _NOT_NOUN_END or t[:-1] in lx.PRONOUNS:
        return
    if not is_word(t[:-1]):
        return  # 马德里 (a name, not 马德 + 里)
    if prev.text[-1] in "在从到" or (prev.text == "的" and len(t) == 2):
        _neutral(w, len(t) - 1)


def _kinship(w: Word) -> None:
    """妈妈/爷爷 … at either end of a longer word keep their neutral tone (奶奶家 nai3 nai5 jia1, 老爷爷), 谢谢 at
    its start (谢谢您), 星星 at its end (小星星)."""
    t = w.text
    if len(t) < 3 or w.in_dictionary:
        return
    if t[:2] in lx.NEUTRAL_REDUPLICATION_START:
        _neutral(w, 1)
    if t[-2:] in lx.NEUTRAL_REDUPLICATION_END:
        _neutral(w, len(t) - 1)


def _locative(w: Word, prev: Word, nxt: Word | None, is_word: Callable[[str], bool]) -> None:
    """上/里 after a noun: 学校 里, 森林 里, 广场 上 的, 总体 上, and made-up words 书架上, 垃圾桶里."""
    t = w.text
    glued = len(t) == 2 and t[0] in "上里" and not w.in_dictionary and not is_word(t)  # 开水 里焯 (jieba's cut)
    if glued and t[0] == "上" and len(prev.text) == 2 and (
        (prev.in_dictionary and prev.text[-1] == "子") or _noun_word(prev.text)
    ):
        _neutral(w, 0)  # 桌子 上放, 湖面 上结 了 冰, 火车 上人 (a noun, then jieba's 上 + the next word)
        return
    if not glued and (t not in "上里" or len(t) != 1):
        return
    if t == "上" and nxt is not None and nxt.text[0] in _TIME_AFTER_SHANG:
        return  # 支付 上 月租金: 上月 "last month", not a locative
    last = prev.text[-1]
    phrase_end = nxt is None or nxt.text[0] == "的"
    noun_word = prev.in_dictionary and len(prev.text) >= 2
    verb_before = last in lx.VERBS and not ((phrase_end or t[0] == "里") and noun_word)  # not 沙发 上, 背包 里
    if verb_before or last in lx.LI3_AFTER or last in _NOT_NOUN_END or prev.text in lx.PRONOUNS:
        return  # 拿 上, 十 里, 导致了 里贝克
    if t[0] == "里":
        _neutral(w, 0)  # 学校 里, 口袋 里
    elif not glued and len(prev.text) == 1 and phrase_end and nxt is not None and _pos_tag(prev.text) == "n":
        _neutral(w, 0)  # 腰 上 的, 船 上 的 (a one-character noun)
    elif (not glued and len(prev.text) >= 2 and last not in lx.NOT_VERB_BEFORE_DIRECTIONAL
          and last not in "天午晚年月起要会能去来"
          and (nxt is None or nxt.text[0] not in "了过着")):
        _neutral(w, 0)  # 广场 上 的, 总体 上; not 明天 上 (verb), 一起 上


def _directional(w: Word, prev: Word, prev2: Word | None, nxt: Word | None) -> None:
    """Directional complements that jieba cut off their verb."""
    t = w.text
    if _compound_directional(t) and prev.text == "了" and prev2 is not None and not (t[0] == "起" and prev2.text[-1] == "一"):
        _neutral(w, 0)  # 站 了 起来, 踢 了 出去, 扑 了 上去
        _neutral(w, 1)
        return
    if (t in _ASPECT_COMPLEMENTS and len(prev.text) >= 2 and prev.text[-1] not in _NOT_VERB_END
            and prev.text not in lx.PRONOUNS and prev.text[-1] not in _NOT_NOUN_END):
        _neutral(w, 0)  # 结合 起来, 坚持 下去
        _neutral(w, 1)
        return
    if (len(t) == 2 and t[1] in lx.DIRECTIONAL_LAST and not w.in_dictionary and prev.text in ("起", "出")
            and prev2 is not None and len(prev2.text) == 1 and (_is_verb(prev2.text) or prev2.text in "上下")
            and not prev.frozen and not w.frozen):
        _neutral(prev, 0)  # 下 起 雨来, 唱 起 歌来 (jieba glued the object to 来)
        _neutral(w, 1)
        return
    if (len(t) == 2 and t[1] in lx.DIRECTIONAL_LAST and not w.in_dictionary and len(prev.text) == 2
            and prev.text[0] in lx.VERBS and prev.text[1] in "出起进回过" and not prev.frozen and not w.frozen
            and not _is_verb(t[0]) and (nxt is None or nxt.text[0] in _AFTER_COMPLEMENT)):
        _neutral(prev, 1)  # 拿出 钱来 (jieba glued the object to 来)
        _neutral(w, 1)
        return
    if t not in lx.DIRECTIONAL_LAST:
        return
    p = prev.text
    if len(p) == 2 and p[1] in lx.DIRECTIONAL_FIRST and p[0] in lx.VERBS and not prev.frozen and not w.learned:
        _neutral(prev, 1)  # 伸出 来 让我看看, 拿回 来 (even before more words)
        _neutral(w, 0)
        return
    if nxt is not None and nxt.text[0] not in _AFTER_COMPLEMENT:
        return
    if prev2 is not None and _to_place(prev2) and not prev.frozen and p[-1] not in lx.VERBS:
        _neutral(w, 0)  # 调到 上海 去, 搬 到 新家 去, 快进 屋里 来
        return
    if (len(p) == 2 and p[0] in "出起过" and prev2 is not None and len(prev2.text) == 1
            and prev2.text in lx.VERBS and not prev.frozen):
        _neutral(prev, 0)  # 探 出头 来, 转 过脸 去
        _neutral(w, 0)
        return
    if len(p) == 2 and p[1] in lx.DIRECTIONAL_FIRST and p[0] in lx.VERBS and not prev.frozen:
        _neutral(prev, 1)  # 发出 去, 拿回 来
        _neutral(w, 0)
    elif len(p) == 3 and p[1] in lx.DIRECTIONAL_FIRST and p[0] in lx.VERBS and not prev.frozen:
        _neutral(prev, 1)  # 唱起歌 来, 转过身 去
        _neutral(w, 0)
    elif p[0] in "回进出上下" and len(p) in (2, 3) and prev2 is not None and (
            prev2.text[-1] in lx.VERBS or prev2.in_dictionary and len(prev2.text) >= 2):
        _neutral(w, 0)  # 跑 回家 去, 带孩子 回老家 去
    elif len(p) == 1 and p in lx.TRANSFER_VERBS:
        _neutral(w, 0)  # 送 去 了, 拿 来 吧
    elif len(p) == 1 and p in lx.MOTION_VERBS and not (prev2 is not None and prev2.text[-1] in lx.DIRECTIONAL_LAST):
        _neutral(w, 0)  # 迎面 吹 来, 朝我 走 来 (not 追 来 追 去)
    elif (prev2 is not None and len(prev2.text) >= 2 and prev2.text[-1] in lx.DIRECTIONAL_FIRST
          and len(p) <= 2 and not _is_verb(p[0]) and p not in lx.PRONOUNS and not prev2.frozen):
        if prev2.text[-2] in "不得":
            _neutral(w, 0)  # 说不出 话 来: a potential form keeps 出 chu1
        elif len(prev2.text) == 2 and prev2.text[0] in lx.VERBS:
            _neutral(prev2, 1)  # 拿出 钱 来, 转过 身 去 (jieba's cut)
            _neutral(w, 0)


def _to_place(word: Word) -> bool:
    """Whether ``word`` opens a "to a place" frame before a directional 来/去: 到 alone or after a verb (调到,
    搬 到), or 进/回 alone or after an adverb (快进 屋里 来)."""
    t = word.text
    if t in ("到", "进", "回"):
        return True
    return len(t) == 2 and ((t[1] == "到" and (t[0] in lx.VERBS or t[0] in "调运派")) or (
        t[1] in "进回" and (t[0] in lx.NOT_VERB_BEFORE_DIRECTIONAL or t[0] in lx.VERBS)))  # 飞回 北方 去


def _ends_in_verb(word: Word) -> bool:
    """Whether ``word`` is a one-character verb, or a pronoun or adverb jieba glued to one (我读 不 下去)."""
    t = word.text
    if t[-1] not in lx.VERBS and t[-1] not in lx.POTENTIAL_VERBS:
        return False
    return len(t) == 1 or (len(t) == 2 and not word.in_dictionary
                           and (t[0] in lx.PRONOUNS or t[0] in lx.NOT_VERB_BEFORE_DIRECTIONAL))


# Two-character complements of a potential form cut off its 不 (听 不 清楚).
_POTENTIAL_WORDS = frozenset(("清楚", "明白"))


def _bu(w: Word, prev: Word, nxt: Word | None) -> None:
    """不 in A 不 A and in potential complements: neutral."""
    t, p = w.text, prev.text
    if t == "不" and nxt is not None and nxt.text == p and w.syllables[0].startswith("bu"):
        w.syllables[0] = "bu5"  # 对 不 对
    elif (t == "不" and nxt is not None and _compound_directional(nxt.text) and _ends_in_verb(prev)
          and not nxt.frozen and len(nxt.citation) == 2):
        w.syllables[0] = "bu5"  # 拿 不 回去, 搬 不 上去: potential, the complement keeps its tones
        nxt.syllables[:] = list(nxt.citation)
    elif t == "不" and nxt is not None and nxt.text in _POTENTIAL_WORDS and _ends_in_verb(prev):
        w.syllables[0] = "bu5"  # 听 不 清楚, 看 不 明白
    elif (t == "不" and nxt is not None and len(nxt.text) == 1 and nxt.text in lx.POTENTIAL_COMPLEMENTS
          and nxt.text != "了" and _ends_in_verb(prev) and p[-1] != nxt.text):
        w.syllables[0] = "bu5"  # 写 不 完, 听 不 懂 (cut apart)
    elif (len(t) == 2 and t[0] == "不" and t[1] in lx.POTENTIAL_COMPLEMENTS and len(p) == 1
          and (p in lx.VERBS or p in lx.POTENTIAL_VERBS or _pos_tag(p) == "v") and p != t[1]):
        w.syllables[0] = "bu5"  # 找 不到, 搬 不动, 吃 不完, 劝 不动
    elif len(t) == 2 and t[0] == "不" and t[1] in "好饱" and len(p) == 1 and (
            p in lx.VERBS or p in lx.POTENTIAL_VERBS or prev.syllables[0] == "zhang3"):
        w.syllables[0] = "bu5"  # 长 不好, 睡 不好, 吃 不饱: potential
    elif (len(t) == 2 and t[0] == "不" and t[1] in "到动完见懂住" and len(p) == 2 and _pos_tag(p) == "v"
          and p[-1] not in "能要会该可以得是想"):
        w.syllables[0] = "bu5"  # 接触 不到, 修理 不完; not 可能 不到
