"""Mandarin G2P: polyphones, tone sandhi, neutral tones, phonemes, punctuation, user lexicon, robustness."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice
from pathlib import Path

import pytest

from onestep.frontend.symbols import unknown_symbols
from onestep.frontend.tokens import Segment, Token
from onestep.frontend.zh.g2p import MandarinG2P
from onestep.frontend.zh.normalize import normalize_zh
from onestep.frontend.zh.phonemes import syllable_phonemes



@pytest.fixture(scope="module")
def g2p() -> MandarinG2P:
    return MandarinG2P()


def pinyin(tokens: list[Token]) -> str:
    return " ".join(p for t in tokens for p in t.pinyin)


def phonemes(tokens: list[Token]) -> str:
    return Segment("zh", "", tokens).phonemes


# word in context -> expected pinyin of the whole text (surface tones)
POLYPHONES: list[tuple[str, str]] = [
    ("银行", "yin2 hang2"),
    ("行走", "xing2 zou3"),
    ("银行行长", "yin2 hang2 hang2 zhang3"),
    ("重庆", "chong2 qing4"),
    ("重要", "zhong4 yao4"),
    ("长大", "zhang3 da4"),
    ("长城", "chang2 cheng2"),
    ("这条路很长", "zhe4 tiao2 lu4 hen3 chang2"),
    ("你长得很高", "ni2 zhang3 de5 hen3 gao1"),
    ("长筱之战", "chang2 xiao3 zhi1 zhan4"),
    ("村长", "cun1 zhang3"),
    ("觉得", "jue2 de5"),
    ("睡觉", "shui4 jiao4"),
    ("还是", "hai2 shi4"),
    ("还钱", "huan2 qian2"),
    ("便宜", "pian2 yi5"),
    ("方便", "fang1 bian4"),
    ("音乐", "yin1 yue4"),
    ("快乐", "kuai4 le4"),
    ("朝阳", "zhao1 yang2"),
    ("朝代", "chao2 dai4"),
    ("了解", "liao2 jie3"),
    ("好了", "hao3 le5"),
    ("得到", "de2 dao4"),
    ("我得去", "wo2 dei3 qu4"),
    ("他跑得很快", "ta1 pao3 de5 hen3 kuai4"),
    ("都市", "du1 shi4"),
    ("都是", "dou1 shi4"),
    ("传记", "zhuan4 ji4"),
    ("传说", "chuan2 shuo1"),
    ("地方", "di4 fang5"),
    ("地上", "di4 shang5"),
    ("慢慢地走", "man4 man4 de5 zou3"),
    ("为了", "wei4 le5"),
    ("因为", "yin1 wei4"),
    ("调查", "diao4 cha2"),
    ("空调", "kong1 tiao2"),
    ("数学", "shu4 xue2"),
    ("数一数", "shu3 yi5 shu3"),
    ("教我", "jiao1 wo3"),
    ("教育", "jiao4 yu4"),
    ("着急", "zhao2 ji2"),
    ("看着我", "kan4 zhe5 wo3"),
    ("男子", "nan2 zi3"),
    ("其首府为北京", "qi2 shou2 fu3 wei2 bei3 jing1"),
    ("请为我们唱首歌", "qing3 wei4 wo3 men5 chang4 shou3 ge1"),
    ("他被视为英雄", "ta1 bei4 shi4 wei2 ying1 xiong2"),
    ("跑得快", "pao3 de5 kuai4"),
    ("圣彼得堡", "sheng4 bi3 de2 bao3"),
    ("原着小说", "yuan2 zhu4 xiao3 shuo1"),
    ("种子", "zhong3 zi5"),
    # 子/长 in words no pypinyin phrase covers: CC-CEDICT's phrase inside the word decides
    ("皇太子", "huang2 tai4 zi3"),
    ("中微子", "zhong1 wei1 zi3"),
    ("他是王建的养子", "ta1 shi4 wang2 jian4 de5 yang2 zi3"),
    ("包子", "bao1 zi5"),
    ("边长", "bian1 chang2"),
    # 子 cut as a word of its own: zi3, unless a CC-CEDICT phrase across the cut reads it (语句|子)
    ("他是第三子", "ta1 shi4 di4 san1 zi3"),
    ("夏威夷语句子", "xia4 wei1 yi2 yu3 ju4 zi5"),
]

SANDHI: list[tuple[str, str]] = [
    # third tone
    ("你好", "ni2 hao3"),
    ("展览馆", "zhan2 lan2 guan3"),
    ("小老虎", "xiao3 lao2 hu3"),
    ("我很好", "wo3 hen2 hao3"),
    ("我也很好", "wo2 ye3 hen2 hao3"),
    ("水果", "shui2 guo3"),
    # 一
    ("一个", "yi2 ge5"),  # 个 as a measure word after a numeral is neutral
    ("一天", "yi4 tian1"),
    ("一起", "yi4 qi3"),
    ("一年", "yi4 nian2"),
    ("第一", "di4 yi1"),
    ("第一名", "di4 yi1 ming2"),
    ("一一", "yi1 yi1"),
    ("十一", "shi2 yi1"),
    ("一百一十", "yi4 bai3 yi1 shi2"),
    ("一九四九年", "yi1 jiu3 si4 jiu3 nian2"),
    ("统一", "tong3 yi1"),
    ("统一规划", "tong3 yi1 gui1 hua4"),
    ("一月一号", "yi1 yue4 yi1 hao4"),
    ("看一看", "kan4 yi5 kan4"),
    ("一模一样", "yi4 mu2 yi2 yang4"),
    # 不
    ("不是", "bu2 shi4"),
    ("不好", "bu4 hao3"),
    ("不去", "bu2 qu4"),
    ("不一定", "bu4 yi2 ding4"),
    ("对不起", "dui4 bu5 qi3"),
    ("你想不想去", "ni2 xiang3 bu5 xiang3 qu4"),
    # neutral tones
    ("妈妈", "ma1 ma5"),
    ("爸爸妈妈", "ba4 ba5 ma1 ma5"),
    ("比比皆是", "bi2 bi3 jie1 shi4"),
    ("看看", "kan4 kan5"),
    ("想想", "xiang2 xiang5"),
    ("东西", "dong1 xi5"),
    ("东西南北", "dong1 xi1 nan2 bei3"),
    ("木头", "mu4 tou5"),
    ("我们", "wo3 men5"),
    ("桌子", "zhuo1 zi5"),
    ("你好吗", "ni2 hao3 ma5"),
    ("走吧", "zou3 ba5"),
    ("他说了什么", "ta1 shuo1 le5 shen2 me5"),
    ("他去过北京", "ta1 qu4 guo5 bei3 jing1"),
    ("狮过江", "shi1 guo4 jiang1"),
    ("站起来", "zhan4 qi5 lai5"),  # a compound directional complement is neutral
    ("朋友", "peng2 you5"),
    ("哪儿", "na3 er5"),
    ("女儿", "nv3 er2"),
]


@pytest.mark.parametrize(("text", "expected"), POLYPHONES + SANDHI)
def test_pinyin(g2p: MandarinG2P, text: str, expected: str) -> None:
    assert pinyin(g2p(text)) == expected


@pytest.mark.parametrize(
    ("syllable", "expected"),
    [("yin2", "i↗n"), ("hao3", "xau↓"), ("shi4", "ʂɨ↘"), ("zi5", "ʦɨ"), ("lv4", "ly↘"), ("er2", "ɚ↗"), ("n2", "n↗"),
     ("zhuang1", "ꭧwa→ŋ"), ("xue2", "ɕɥe↗")],
)
def test_syllable_phonemes(syllable: str, expected: str) -> None:
    assert syllable_phonemes(syllable) == expected


def test_tokens_are_words_with_phonemes_and_spaces(g2p: MandarinG2P) -> None:
    tokens = g2p("我们在银行。")
    assert [t.text for t in tokens] == ["我们", "在", "银行", "。"]
    assert [t.pinyin for t in tokens] == [["wo3", "men5"], ["zai4"], ["yin2", "hang2"], []]
    assert [t.whitespace for t in tokens] == [True, True, False, False]
    assert phonemes(tokens) == "wo↓mən ʦai↘ i↗nxa↗ŋ."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("你好，世界。", "ni↗xau↓, ʂɨ↘ʨje↘."),
        ("好！真的？", "xau↓! ꭧə→ntɤ?"),
        ("他说：走；好、行", "tʰa→ ʂwo→: ʦou↓; xau↓, ɕi↗ŋ"),
        ("我读《红楼梦》了", "wo↓tu↗ “xʊ↗ŋlou↗mə↘ŋ” lɤ"),
        ("「好」（是）", "“xau↓” (ʂɨ↘)"),
        ("他说：“走！”", "tʰa→ ʂwo→: “ʦou↓! ”"),
        ("他说“走”……好——", "tʰa→ ʂwo→“ʦou↓”……xau↓——"),
    ],
)
def test_punctuation(g2p: MandarinG2P, text: str, expected: str) -> None:
    assert phonemes(g2p(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["他们在北京工作。", "银行行长说：“他们都没来！”", "《红楼梦》（曹雪芹）", "他说“走”……好——"],
)
def test_phonemes_match_misaki_where_no_sandhi_applies(g2p: MandarinG2P, text: str) -> None:
    from misaki.zh import ZHG2P

    expected = re.sub(r" +", " ", ZHG2P()(text)[0])
    assert phonemes(g2p(text)) == expected


@pytest.fixture(scope="module")
def user_g2p() -> MandarinG2P:
    return MandarinG2P(
        {"朝阳区": ["chao2", "yang2", "qu1"], "你好": ["ni3", "hao3"], "行长说": ["hang2", "zhang3", "shuo1"],
         "绿色": ["lü4", "se4"]}
    )


def test_user_words_are_one_word_with_exact_pinyin(user_g2p: MandarinG2P) -> None:
    tokens = user_g2p("我在朝阳区说你好")
    assert "朝阳区" in [t.text for t in tokens]
    assert pinyin(tokens) == "wo3 zai4 chao2 yang2 qu1 shuo1 ni3 hao3"  # no sandhi inside a user word


def test_user_word_cuts_across_jieba_words(user_g2p: MandarinG2P) -> None:
    tokens = user_g2p("银行行长说话")
    assert [t.text for t in tokens] == ["银行", "行长说", "话"]
    assert pinyin(tokens) == "yin2 hang2 hang2 zhang3 shuo1 hua4"


def test_user_word_accepts_u_umlaut(user_g2p: MandarinG2P) -> None:
    assert pinyin(user_g2p("绿色")) == "lv4 se4"


@pytest.mark.parametrize(
    "entry",
    [{"": []}, {"银行A": ["yin2", "hang2", "ei1"]}, {"银行": ["yin2"]}, {"银行": ["yin", "hang2"]}, {"银行": ["xyz2", "hang2"]}, {"银行": "yin2hang2"}],
)
def test_bad_user_words_are_rejected(entry: dict) -> None:
    with pytest.raises(ValueError):
        MandarinG2P(entry)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", []), ("，。！？", [",", ".", "!", "?"]), ("😀🎉", []), ("\x00\x07\x1b", []), ("abc123", [])],
)
def test_degenerate_input(g2p: MandarinG2P, text: str, expected: list[str]) -> None:
    assert [t.phonemes for t in g2p(text)] == expected


def test_unreadable_and_emoji_characters_produce_nothing(g2p: MandarinG2P) -> None:
    tokens = g2p("你😀好\u3000\x07吗")
    assert "".join(t.text for t in tokens) == "你好吗"
    assert not unknown_symbols(phonemes(tokens))


def test_long_input(g2p: MandarinG2P) -> None:
    tokens = g2p("一二三四五六七八九十，" * 2000)
    assert len(tokens) >= 4000
    assert not unknown_symbols(phonemes(tokens))


def test_corpus_never_raises_and_stays_in_inventory(g2p: MandarinG2P, shared_file: Callable[..., Path]) -> None:
    with shared_file("corpus", "zh_train.txt").open(encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in islice(f, 2000)]
    assert len(lines) == 2000
    for line in lines:
        text = re.sub(r"[A-Za-z]+", " ", normalize_zh(line))
        tokens = g2p(text)
        assert not unknown_symbols(phonemes(tokens)), line
        for token in tokens:
            assert len(token.pinyin) in (0, len(token.text)), line


# Neutral tones that depend on neighbouring words (zh/neutral_context.py), including jieba's cuts of them.
CONTEXT_NEUTRAL = [
    ("学校里新建了", "xue2 xiao4 li5 xin1 jian4 le5"),  # locative 里 after a noun
    ("走了十里路", "zou3 le5 shi2 li3 lu4"),  # 里 the unit of length
    ("广场上的教堂", "guang2 chang3 shang5 de5 jiao4 tang2"),
    ("大家马上站了起来", "da4 jia1 ma3 shang4 zhan4 le5 qi5 lai5"),
    ("您的订单已经发出去了", "nin2 de5 ding4 dan1 yi3 jing1 fa1 chu5 qu5 le5"),
    ("我们一起去吧", "wo3 men5 yi4 qi3 qu4 ba5"),  # not a complement
    ("你想去吗", "ni2 xiang3 qu4 ma5"),
    ("你看这个对不对", "ni3 kan4 zhe4 ge5 dui4 bu5 dui4"),
    ("我的手机找不到了", "wo3 de5 shou3 ji1 zhao3 bu5 dao4 le5"),
    ("这些钱不够", "zhe4 xie1 qian2 bu2 gou4"),  # plain negation
    ("他是个很老实的人", "ta1 shi4 ge5 hen2 lao3 shi5 de5 ren2"),
    ("我们打算下个星期去", "wo3 men5 da3 suan5 xia4 ge5 xing1 qi1 qu4"),
    ("奶奶家的小狗", "nai3 nai5 jia1 de5 xiao2 gou3"),
    ("请您稍等，我帮您查一查", "qing3 nin2 shao1 deng3 wo3 bang1 nin2 cha2 yi5 cha2"),
    ("中国队以三比一战胜了对手", "zhong1 guo2 dui4 yi3 san1 bi3 yi1 zhan4 sheng4 le5 dui4 shou3"),
    ("你怎么找得到他", "ni2 zen3 me5 zhao3 de5 dao4 ta1"),
    ("这次他终于得到了认可", "zhe4 ci4 ta1 zhong1 yu2 de2 dao4 le5 ren4 ke3"),
    ("他们为灾区群众送去了粮食", "ta1 men5 wei4 zai1 qu1 qun2 zhong4 song4 qu5 le5 liang2 shi5"),
    ("两国的关系", "liang3 guo2 de5 guan1 xi4"),
    ("他笑着说没关系", "ta1 xiao4 zhe5 shuo1 mei2 guan1 xi5"),
    # issue 12, second round (zh-pinyin-sentences-2.tsv)
    ("我们已经吃过饭了", "wo3 men5 yi3 jing1 chi1 guo5 fan4 le5"),  # experiential 过 inside jieba's word
    ("他答应过我", "ta1 da1 ying5 guo5 wo3"),  # 过 cut off a two-character verb
    ("这个地方我以前来过", "zhe4 ge5 di4 fang5 wo2 yi3 qian2 lai2 guo5"),
    ("他通过了考试", "ta1 tong1 guo4 le5 kao3 shi4"),  # 通过 is not V + experiential 过
    ("你最好打个电话", "ni3 zui4 hao2 da3 ge5 dian4 hua4"),  # 个 after a verb, 一 dropped
    ("我们去散散步吧", "wo3 men5 qu4 san4 san5 bu4 ba5"),  # AAB tentative verb + object
    ("他一边儿哼着歌", "ta1 yi4 bian1 er5 heng1 zhe5 ge1"),  # 儿化 suffix cut off by jieba
    ("她的女儿很可爱", "ta1 de5 nv3 er2 hen2 ke3 ai4"),  # 儿 "child" keeps er2
    ("他轻轻地打开门", "ta1 qing1 qing1 de5 da3 kai1 men2"),  # AA地 is adverbial
    ("他坐在沙发上", "ta1 zuo4 zai4 sha1 fa1 shang5"),  # a dictionary word ending in 发 is a noun here
    ("你看合不合身", "ni3 kan4 he2 bu5 he2 shen1"),  # A 不 AB
    ("他非常不常见", "ta1 fei1 chang2 bu4 chang2 jian4"),  # not A 不 A
    ("我们就得出发", "wo3 men5 jiu4 dei3 chu1 fa1"),  # 得 "must" after an adverb
    ("东里寨的历史", "dong1 li3 zhai4 de5 li4 shi3"),  # place name, not locative 里
    ("书架上的书掉了", "shu1 jia4 shang5 de5 shu1 diao4 le5"),  # locative ending a word, phrase-initially
    ("他在会上讲话", "ta1 zai4 hui4 shang5 jiang3 hua4"),  # dictionary noun + 上 in a 在 frame
    ("我在楼上等你", "wo3 zai4 lou2 shang4 deng2 ni3"),  # 楼上 keeps its tone
    ("她的遗体被埋葬在马德里", "ta1 de5 yi2 ti3 bei4 mai2 zang4 zai4 ma3 de2 li3"),  # a name, not 马德 + 里
    ("这些事要记在心里", "zhe4 xie1 shi4 yao4 ji4 zai4 xin1 li5"),  # 在 X 里 inside one word
    ("我拿不回去", "wo3 na2 bu5 hui2 qu4"),  # potential: the complement keeps its tones
    ("这本书我看不下去", "zhe4 ben3 shu1 wo3 kan4 bu5 xia4 qu4"),
    ("他们把他派到上海去", "ta1 men5 ba3 ta1 pai4 dao4 shang4 hai3 qu5"),  # 到 + place + 去
    ("他跑回家去了", "ta1 pao3 hui2 jia1 qu5 le5"),  # bare 回 before its object keeps its tone
    ("粮食产量很高", "liang2 shi5 chan3 liang4 hen3 gao1"),  # light word inside a made-up compound
    ("学生会主席来了", "xue2 sheng1 hui4 zhu3 xi2 lai2 le5"),  # not any one-character suffix
    ("他总为别人操心", "ta1 zong3 wei4 bie2 ren5 cao1 xin1"),  # 为 "for" in jieba's 总为
    ("我写不完", "wo2 xie3 bu5 wan2"),  # potential 不 cut apart
    ("这本书我读不下去了", "zhe4 ben3 shu1 wo3 du2 bu5 xia4 qu4 le5"),  # jieba's 我读 | 不 | 下去
    ("他一下课就跑出去玩", "ta1 yi2 xia4 ke4 jiu4 pao3 chu5 qu5 wan2"),  # 跑 + 出去玩 (glued)
    ("骨头汤得炖很久", "gu3 tou5 tang1 dei3 dun4 hen2 jiu3"),  # 得 "must" after a noun subject (glued 得炖)
    ("衣服得洗了", "yi1 fu5 dei2 xi3 le5"),  # 得 "must" between a noun and a verb
    ("他高兴得跳了起来", "ta1 gao1 xing4 de5 tiao4 le5 qi5 lai5"),  # degree complement after an adjective
    ("他累得走不动了", "ta1 lei4 de5 zou3 bu5 dong4 le5"),
    ("我们去过多个国家", "wo3 men5 qu4 guo5 duo1 ge5 guo2 jia1"),  # 个 after 多
    ("锅里的汤快凉了", "guo1 li5 de5 tang1 kuai4 liang2 le5"),  # noun + 里 made up by jieba
    ("他在海里游泳", "ta1 zai4 hai3 li5 you2 yong3"),  # 海里 inside a 在 frame
    ("离岸十海里", "li2 an4 shi2 hai2 li3"),  # 海里 a measure after a numeral
    ("老人谁也劝不动", "lao3 ren2 shui2 ye3 quan4 bu5 dong4"),  # potential 不 after a verb jieba tags v
    ("他可能不到", "ta1 ke3 neng2 bu2 dao4"),  # not after a modal
    # issue 12, fifth round (zh-pinyin-sentences-5.tsv)
    ("门外传来一阵笑声", "men2 wai4 chuan2 lai5 yi2 zhen4 xiao4 sheng1"),  # 来 after a transfer verb
    ("她给我打来电话", "ta1 gei3 wo2 da3 lai5 dian4 hua4"),
    ("这给大家带来了方便", "zhe4 gei3 da4 jia1 dai4 lai2 le5 fang1 bian4"),  # 带来 keeps lai2 (现汉)
    ("消息传来传去", "xiao1 xi5 chuan2 lai2 chuan2 qu4"),  # V来V去 keeps its tones
    ("天不亮就出门了", "tian1 bu2 liang4 jiu4 chu1 men2 le5"),  # plain negation in jieba's 天不亮
    ("这点饭我吃不饱", "zhe4 dian3 fan4 wo3 chi1 bu5 bao3"),  # potential form
    ("他穿过马路", "ta1 chuan1 guo4 ma3 lu4"),  # 过 "across"
    ("这件衣服我没穿过", "zhe4 jian4 yi1 fu5 wo3 mei2 chuan1 guo5"),  # experiential 过
    ("他穿过的衣服", "ta1 chuan1 guo5 de5 yi1 fu5"),
    ("把萝卜切成长条", "ba3 luo2 bo5 qie1 cheng2 chang2 tiao2"),  # jieba's 切 | 成长 | 条
    ("孩子在不断成长", "hai2 zi5 zai4 bu2 duan4 cheng2 zhang3"),  # 成长 "grow"
    ("今年一季度", "jin1 nian2 yi1 ji4 du4"),  # ordinal: the first quarter
    ("我想买大一号的", "wo3 xiang2 mai3 da4 yi2 hao4 de5"),  # a size bigger
    ("五月一号", "wu3 yue4 yi1 hao4"),  # a date
    # issue 12, sixth round (zh-pinyin-sentences-6.tsv)
    ("七月一日起施行", "qi1 yue4 yi1 ri4 qi3 shi1 xing2"),  # a date with 日
    ("主队以一比零领先", "zhu3 dui4 yi3 yi1 bi3 ling2 ling3 xian1"),  # a score starting with 一
    ("一比较就知道", "yi4 bi3 jiao4 jiu4 zhi1 dao5"),  # not a score
    ("他连过两人", "ta1 lian2 guo4 liang3 ren2"),  # 过 "get past", not experiential
    ("再捞出来沥干", "zai4 lao1 chu5 lai5 li4 gan1"),  # compound directional after a verb jieba glues to 再
    ("把他抓起来", "ba3 ta1 zhua1 qi5 lai5"),
    ("接种疫苗", "jie1 zhong4 yi4 miao2"),
    ("夺得金牌", "duo2 de2 jin1 pai2"),  # 得 "obtain"
    ("他跑得快", "ta1 pao3 de5 kuai4"),
    # issue 12, seventh round (zh-pinyin-sentences-7.tsv)
    ("请将手机放在充电板上", "qing3 jiang1 shou3 ji1 fang4 zai4 chong1 dian4 ban3 shang5"),  # locative 上 after a noun
    ("黑板上写着字", "hei1 ban3 shang5 xie3 zhe5 zi4"),
    ("请闭上眼睛", "qing3 bi4 shang5 yan3 jing5"),  # 上 after a verb, jieba's four-character word
    ("跺跺脚", "duo4 duo5 jiao3"),  # tentative AAB
    ("小星星", "xiao3 xing1 xing5"),  # light reduplication at the end of a longer word
    ("星星之火", "xing1 xing1 zhi1 huo3"),  # but not at its start: 星星 "tiny"
    ("谢谢您", "xie4 xie5 nin2"),
    ("把积木搭起来", "ba3 ji1 mu4 da1 qi5 lai5"),  # compound directional after the verb 搭
    ("手拉着手往前走", "shou3 la1 zhe5 shou2 wang3 qian2 zou3"),  # 拉着 + 手, not 着手 "set about"
    ("我们马上着手准备", "wo3 men5 ma3 shang4 zhuo2 shou2 zhun3 bei4"),
    ("钥匙又找不着了", "yao4 shi5 you4 zhao3 bu5 zhao2 le5"),  # V不着: the result complement zhao2
    ("晚上睡不着觉", "wan3 shang5 shui4 bu5 zhao2 jiao4"),
    ("你不着急吗", "ni3 bu4 zhao2 ji2 ma5"),
    # issue 12, eighth round (zh-pinyin-sentences-8.tsv)
    ("一个假动作骗过门将", "yi2 ge5 jia3 dong4 zuo4 pian4 guo4 men2 jiang4"),  # 过 "get past" before an object
    ("他骗过我", "ta1 pian4 guo5 wo3"),  # before a pronoun: experiential
    ("这种药得空腹吃", "zhe4 zhong3 yao4 dei3 kong1 fu4 chi1"),  # 得 "must" before jieba's adverb + verb word
    ("药膏薄薄地涂一层", "yao4 gao1 bao2 bao2 de5 tu2 yi4 ceng2"),  # AA地 reads both A alike
    ("秧苗插得太密，长不好", "yang1 miao2 cha1 de5 tai4 mi4 zhang3 bu5 hao3"),  # 长 "grow", potential 不好
    ("这种日子长不了", "zhe4 zhong3 ri4 zi5 chang2 bu4 liao3"),
    ("两个月就长长了", "liang3 ge5 yue4 jiu4 zhang3 chang2 le5"),  # grew long
    ("长长的头发", "chang2 chang2 de5 tou2 fa5"),
    ("从前有个小姑娘", "cong2 qian2 you3 ge5 xiao3 gu1 niang5"),  # 有个: 个 with 一 dropped
    ("我们要飞回北方去了", "wo3 men5 yao4 fei1 hui2 bei3 fang1 qu5 le5"),  # verb + 回 + place + 去
    ("小花猫钓不着鱼", "xiao3 hua1 mao1 diao4 bu5 zhao2 yu2"),  # V不着 with a verb jieba tags v
    ("转眼就下起雨来了", "zhuan2 yan3 jiu4 xia4 qi5 yu3 lai5 le5"),  # 下 起 雨来: split compound directional
    ("会上，王经理宣布了", "hui4 shang5 wang2 jing1 li3 xuan1 bu4 le5"),  # locative 会上 phrase-initially
    ("我会上网", "wo3 hui4 shang4 wang3"),
    ("同学听不清楚", "tong2 xue2 ting1 bu5 qing1 chu5"),  # potential with a two-character complement
    ("说我腰上的劲儿不够", "shuo1 wo3 yao1 shang5 de5 jin4 er5 bu2 gou4"),  # locative after a one-character noun
    ("向乙方支付上月租金", "xiang4 yi3 fang1 zhi1 fu4 shang4 yue4 zu1 jin1"),  # 上月 "last month"
    # round 9 (zh-pinyin-sentences-9.tsv)
    ("墙壁上挂着一幅画", "qiang2 bi4 shang5 gua4 zhe5 yi4 fu2 hua4"),  # noun + jieba's glued 上挂
    ("一阵凉风迎面吹来", "yi2 zhen4 liang2 feng1 ying2 mian4 chui1 lai5"),  # 来 after a motion verb
    ("他走过了大半辈子", "ta1 zou3 guo4 le5 da4 ban4 bei4 zi5"),  # 走过 了 + more: "through"
    ("这件衣服我穿过了", "zhe4 jian4 yi1 fu5 wo3 chuan1 guo5 le5"),  # experiential at the end
    ("他哭得说不出话来", "ta1 ku1 de5 shuo1 bu5 chu1 hua4 lai5"),  # potential 说不出 + object + 来
    ("他拿出钱来", "ta1 na2 chu5 qian2 lai5"),  # split compound directional, object glued to 来
    ("我从盒里拿出一块糖", "wo3 cong2 he2 li5 na2 chu1 yi2 kuai4 tang2"),  # 从 + made-up X里
    ("我想了很久也没想出来", "wo2 xiang3 le5 hen3 jiu2 ye3 mei2 xiang3 chu5 lai5"),  # 没V + compound complement
    ("我不想出来", "wo3 bu4 xiang3 chu1 lai5"),  # 不想 "not want to"
    ("你明天回得来吗", "ni3 ming2 tian1 hui2 de5 lai2 ma5"),  # potential 得来
    ("小心别烫着了", "xiao3 xin1 bie2 tang4 zhao2 le5"),  # got hurt
    ("孩子累着呢", "hai2 zi5 lei4 zhe5 ne5"),  # durative
    ("三年过去了", "san1 nian2 guo4 qu5 le5"),  # the verb 过去
    ("我们一起过去吧", "wo3 men5 yi4 qi3 guo4 qu5 ba5"),
    ("回到过去", "hui2 dao4 guo4 qu4"),  # the noun "the past"
    ("我的过去", "wo3 de5 guo4 qu4"),
    ("他帮不上什么忙", "ta1 bang1 bu5 shang4 shen2 me5 mang2"),
    ("她悄悄地走了", "ta1 qiao1 qiao1 de5 zou3 le5"),  # jieba's adverbial word in 地
    ("我们拐个弯", "wo3 men5 guai3 ge5 wan1"),
    ("他们没打过架", "ta1 men5 mei2 da3 guo5 jia4"),  # 过 glued to the object
    ("天慢慢亮起来了", "tian1 man4 man4 liang4 qi5 lai5 le5"),  # inchoative 起来
    ("快起来", "kuai4 qi3 lai5"),  # "get up"
    ("我再等等你", "wo3 zai4 deng2 deng5 ni3"),  # wait a bit
    ("苹果、梨等等", "ping2 guo3 li2 deng2 deng3"),  # and so on
    ("我们聊聊吧", "wo3 men5 liao2 liao5 ba5"),
    ("一会儿一会儿", "yi2 hui4 er5 yi2 hui4 er5"),
    ("他常常遛狗", "ta1 chang2 chang2 liu4 gou3"),
    ("桌子底下", "zhuo1 zi5 di3 xia5"),
    ("到底下不下雨", "dao4 di3 xia4 bu5 xia4 yu3"),  # 到底 | 下: 底下 not forced on jieba
    ("他倒了一杯水给我", "ta1 dao4 le5 yi4 bei1 shui3 gei2 wo3"),  # jieba's 水给: right to left
]


@pytest.mark.parametrize(("text", "expected"), CONTEXT_NEUTRAL)
def test_context_neutral_tones(g2p: MandarinG2P, text: str, expected: str) -> None:
    assert pinyin(g2p(text)) == expected


def _char_reading(g2p: MandarinG2P, text: str, index: int) -> str:
    reading = g2p.char_readings(text)[index]
    assert reading is not None
    return reading[1]  # the chosen (citation) reading, before sandhi


@pytest.mark.parametrize(
    ("text", "char", "expected"),
    [
        ("他背着孩子走了。", "背", "bei1"),  # carry
        ("他每天早上背单词。", "背", "bei4"),  # memorize
        ("我明天就还你。", "还", "huan2"),  # give back, phrase-final pronoun
        ("我还差十块钱。", "差", "cha4"),
        ("把土豆切成丝。", "切", "qie1"),
        ("出锅前撒点儿盐。", "撒", "sa3"),
        ("这个箱子太重了。", "重", "zhong4"),  # jieba glues 太重
        ("这道菜要重做。", "重", "chong2"),
        ("两只小狗。", "只", "zhi1"),  # measure word after a numeral
        ("这只是个误会。", "只", "zhi3"),  # "only" after a demonstrative
        ("空调的温度调高一点儿。", "调", "tiao2"),
        ("锅里倒点儿油。", "倒", "dao4"),
        ("他累得不想说话。", "累", "lei4"),
        ("他划着小船出海。", "划", "hua2"),  # row
        ("发烧时应及时就医。", "应", "ying1"),  # modal "should"
        ("患者应多喝水。", "应", "ying1"),
        ("鱼刺卡住了。", "卡", "qia3"),  # get stuck
        ("已将音量调到最大。", "调", "tiao2"),  # adjust to the maximum
        ("他被调到北京工作。", "调", "diao4"),  # transfer
        ("音量已经调小了。", "调", "tiao2"),
        ("你把空调调到二十六度。", "调", "tiao2"),  # after the device it adjusts
        ("护士给他量了血压。", "量", "liang2"),
        ("每次量取十毫升。", "量", "liang2"),
        ("他没投中。", "中", "zhong4"),  # hit
        ("但不能嚼碎。", "嚼", "jiao2"),
        ("又把话咽了回去。", "咽", "yan4"),
        ("他着了凉。", "着", "zhao2"),  # 着凉 split by 了
        ("今冬这几场大雪下得好。", "场", "chang2"),  # a spell of weather
        ("这场比赛很精彩。", "场", "chang3"),  # a match
        ("甲方应于每月五日前付款。", "应", "ying1"),  # "shall"
        ("均应承担法律责任。", "应", "ying1"),
        ("应还金额为三千元。", "还", "huan2"),  # repay
        ("分期付款每期还多少钱。", "还", "huan2"),
        ("小熊数了数松果。", "数", "shu3"),
        ("你猜这个西瓜有多重？", "重", "zhong4"),  # 多重 "how heavy" ending its phrase
        ("他这次期末没考好。", "没", "mei2"),  # jieba's 没考
        ("车厢里还有空座。", "空", "kong4"),
        ("衣服一会儿就干了。", "干", "gan1"),  # dry
        ("按应付金额的千分之五支付。", "应", "ying1"),  # payable
        ("他这番话可谓一针见血。", "血", "xue4"),
        ("我把钥匙落在办公桌上了。", "落", "la4"),  # 把 + object + 落在: left behind
        ("钥匙落在我那儿了。", "落", "la4"),
        ("晚上一起去看一场电影吧。", "场", "chang3"),  # 一场 (a pypinyin phrase) before a show
        ("他把书包背在身后。", "背", "bei1"),
    ],
)
def test_everyday_context_readings(g2p: MandarinG2P, text: str, char: str, expected: str) -> None:
    assert _char_reading(g2p, text, text.index(char)) == expected


@pytest.mark.parametrize(
    ("text", "char", "expected"),
    [
        ("一切都会好起来的。", "切", "qie4"),  # covered by the phrase 一切: the context rules leave it
        ("这些年他积累了经验。", "累", "lei3"),  # 积累 (a phrase), even before 了
        ("至殿中少监，累迁刑部。", "累", "lei3"),  # written "repeatedly": no everyday context around it
        ("我们要积极应对风险。", "应", "ying4"),  # covered by the phrase 应对
        ("这个词有多重含义。", "重", "chong2"),  # 多重 "multiple" before a noun
        ("我应付不了。", "应", "ying4"),  # 应付 "cope with"
        ("你还是去吧。", "还", "hai2"),
        ("船没入水中。", "没", "mo4"),  # literary "sink into"
        ("活都干了。", "干", "gan4"),  # do
        ("他把目光落在我身上。", "落", "luo4"),  # fall, land
        ("树叶落在地上了。", "落", "luo4"),
        ("一场秋雨一场寒。", "场", "chang2"),
    ],
)
def test_context_rules_leave_phrases_and_other_contexts(g2p: MandarinG2P, text: str, char: str, expected: str) -> None:
    assert _char_reading(g2p, text, text.index(char)) == expected
