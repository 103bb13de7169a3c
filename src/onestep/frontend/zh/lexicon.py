"""Curated Mandarin pronunciation data on top of pypinyin's phrase dictionary.

All syllables are tone-numbered pinyin (``"zi3"``, 5 = neutral) and are *citation* forms: tone sandhi is
applied afterwards by :mod:`onestep.frontend.zh.sandhi`. The tables fix common errors found when checking
pypinyin 0.55 against the standard (现代汉语词典) readings; they are deliberately small.
"""

from __future__ import annotations

# Whole-word readings that pypinyin gets wrong (or that jieba should keep as one word).
WORD_PINYIN: dict[str, tuple[str, ...]] = {
    # 子 as a full-tone morpheme ("person", "particle", "master"), not the noun suffix zi5
    "男子": ("nan2", "zi3"), "电子": ("dian4", "zi3"), "原子": ("yuan2", "zi3"), "孔子": ("kong3", "zi3"),
    "孟子": ("meng4", "zi3"), "庄子": ("zhuang1", "zi3"), "卵子": ("luan3", "zi3"), "精子": ("jing1", "zi3"),
    "质子": ("zhi4", "zi3"), "中子": ("zhong1", "zi3"), "粒子": ("li4", "zi3"), "因子": ("yin1", "zi3"),
    "离子": ("li2", "zi3"), "光子": ("guang1", "zi3"), "棋子": ("qi2", "zi3"), "瓜子": ("gua1", "zi3"),
    "莲子": ("lian2", "zi3"), "游子": ("you2", "zi3"), "才子": ("cai2", "zi3"), "赤子": ("chi4", "zi3"),
    "天子": ("tian1", "zi3"), "太子": ("tai4", "zi3"), "公子": ("gong1", "zi3"), "诸子": ("zhu1", "zi3"),
    "电子邮件": ("dian4", "zi3", "you2", "jian4"),
    # polyphones
    "数一数": ("shu3", "yi1", "shu3"), "数数": ("shu3", "shu5"), "得去": ("dei3", "qu4"),
    "之子": ("zhi1", "zi3"), "其子": ("qi2", "zi3"), "麻将": ("ma2", "jiang4"), "行李": ("xing2", "li5"),
    # 着 for 著 (zhu4) as left by traditional -> simplified conversion
    "原着": ("yuan2", "zhu4"), "着名": ("zhu4", "ming2"), "着作": ("zhu4", "zuo4"), "着称": ("zhu4", "cheng1"),
    "显着": ("xian3", "zhu4"), "卓着": ("zhuo2", "zhu4"), "名着": ("ming2", "zhu4"), "论着": ("lun4", "zhu4"),
    "编着": ("bian1", "zhu4"), "专着": ("zhuan1", "zhu4"), "巨着": ("ju4", "zhu4"), "着述": ("zhu4", "shu4"),
    "流血": ("liu2", "xue4"), "大汗": ("da4", "han4"), "满头大汗": ("man3", "tou2", "da4", "han4"),
    "累死": ("lei4", "si3"), "答应": ("da1", "ying5"), "还钱": ("huan2", "qian2"), "还款": ("huan2", "kuan3"),
    "要是": ("yao4", "shi5"),  # "if" (现汉 yào·shi); not in NEUTRAL_FINAL, which would also hit 主要是
    # pypinyin phrase errors found by the polyphone arbiter's analysis of CPP dev (CC-CEDICT and 现代汉语词典 agree)
    "质朴": ("zhi4", "pu3"), "反差": ("fan3", "cha1"), "落差": ("luo4", "cha1"), "高差": ("gao1", "cha1"),
    "夹克": ("jia1", "ke4"), "率部": ("shuai4", "bu4"), "拚命": ("pin1", "ming4"),
    # everyday words whose phrase reading the arbiter (tuned on encyclopedia text) overrode, or that jieba glues
    "便宜": ("pian2", "yi5"), "分量": ("fen4", "liang4"), "教过": ("jiao1", "guo5"), "当耳边风": ("dang4", "er3", "bian1", "feng1"),
    "好面子": ("hao4", "mian4", "zi5"), "重重地": ("zhong4", "zhong4", "de5"), "系好": ("ji4", "hao3"),
    "系上": ("ji4", "shang5"), "数一下": ("shu3", "yi1", "xia4"), "相馆": ("xiang4", "guan3"), "重写": ("chong2", "xie3"),
    "凯撒": ("kai3", "sa1"),
    "接种": ("jie1", "zhong4"), "卡住": ("qia3", "zhu4"),  # 种 "plant, inoculate"; 卡 "get stuck" (现汉 qiǎ)
    "夺得": ("duo2", "de2"), "求得": ("qiu2", "de2"),  # 得 "obtain", not the complement marker
    # 应 ying1 "due, payable" in accounting and billing terms (应付 alone is ying4 fu5 "cope with")
    "应付金额": ("ying1", "fu4", "jin1", "e2"), "应付款": ("ying1", "fu4", "kuan3"),
    "应付账款": ("ying1", "fu4", "zhang4", "kuan3"),
    "应付款项": ("ying1", "fu4", "kuan3", "xiang4"),
    "一针见血": ("yi1", "zhen1", "jian4", "xue4"),  # pypinyin has the colloquial xie3; the idiom is read xue4
    "行李箱": ("xing2", "li5", "xiang1"), "稀里哗啦": ("xi1", "li5", "hua1", "la1"),  # 现汉 xíng·lixiāng, xī·lihuālā
    "空座": ("kong4", "zuo4"), "空座位": ("kong4", "zuo4", "wei4"),  # 空 kong4 "vacant" (空位 already is)
}

# Everyday readings of polyphones that no pypinyin phrase covers, from the text around them (so they hold however
# jieba cuts: 太重 and 都乐 are glued, 倒 | 点儿 is not). Per character, rules tried in order; a rule is
# (next, prev, reading, not_prev, not_next): it fires when the text right after the character starts with one of
# ``next`` (empty: any) and the text right before it ends with one of ``prev`` (empty: any), and neither
# ``not_prev`` nor ``not_next`` matches. "$" stands for the end of the phrase (punctuation or end of text).
# Chosen from the everyday polyphone table (zh-pinyin-polyphones-everyday.tsv) where the arbiter, trained on
# encyclopedia sentences, picks the written-language reading (背 bei4, 切 qie4, 撒 sa1, 倔 jue2, 累 lei3, 调 diao4).
ContextRule = tuple[tuple[str, ...], tuple[str, ...], str, tuple[str, ...], tuple[str, ...]]
_NUM_DEM = tuple("一二三四五六七八九十几两这那哪每各某该此本多何半")
NUM_DEM = frozenset(_NUM_DEM)
# Measure words whose context rules hold also inside a numeral/demonstrative + measure phrase of pypinyin (一场).
MEASURE_CONTEXT_CHARS = frozenset("场")
# Objects of 把 … 落在 that "fall, land" (luo4: 把目光落在), not things left behind (la4: 把雨伞落在地铁上).
LUO4_ABSTRACT_OBJECTS = ("目光", "视线", "眼光", "重心", "重点", "希望", "责任", "担子", "重担", "焦点", "脚", "手")
CONTEXT_READINGS: dict[str, tuple[ContextRule, ...]] = {
    "教": ((("得", "教", "我", "你", "他", "她", "孩子", "学生", "大家"), (), "jiao1", (), ("我们的",)),
           ((), ("教",), "jiao1", (), ())),
    "倒": ((("点", "一点", "杯", "了一杯", "了杯", "水", "油", "茶", "酒", "掉", "满", "进", "过来", "入"), (), "dao4", (), ()),),
    "背": (
        (("书包", "着孩子", "着包", "着书包", "着背包", "着一", "着个", "着行李", "起", "不动", "不了", "了一个", "了个",
          "孩子", "行李", "上书包", "上包", "上行李", "上孩子", "在肩", "在背上"), (), "bei1", (), ()),
        (("单词", "课文", "诗", "书", "熟", "下来", "得滚", "台词", "公式", "$"), (), "bei4", (), ()),
        ((), ("包", "行李", "篓", "筐", "袋", "麻袋", "背篓"), "bei1", (), ()),  # 把包背在身后: carried on the back
    ),
    "干": (
        (("的$", "的吗", "的吧"), (), "gan4", (), ()),
        (("杯", "了这杯", "了一杯"), (), "gan1", (), ()),
        ((), ("太", "很", "晒", "吹", "烘", "擦", "挺", "真", "等"), "gan1", (), ("活", "什么", "吗", "嘛", "部")),
        (("了$",), ("会儿就", "天就", "快", "晾", "很快就", "马上就", "早就", "还没"), "gan1", (), ()),  # 衣服一会儿就干了
    ),
    "切": ((("菜", "成", "开", "好", "块", "片", "丝", "碎", "肉", "断", "掉", "下", "一下", "了", "点", "到手"), (), "qie1", (), ()),),
    "撒": ((("点", "一点", "上", "了一", "一把", "些", "在", "盐", "糖", "葱", "胡椒", "孜然", "芝麻", "下"), (), "sa3", (), ()),),
    "倔": (
        (("$", "了", "得", "的", "脾气", "老头"), (), "jue4", (), ()),
        ((), ("很", "太", "真", "挺", "好", "么", "有点", "犯"), "jue4", (), ()),
    ),
    "累": (
        (("$", "了", "得", "死", "坏", "着", "出", "的", "吗", "啊", "呀", "不", "病"), (), "lei4", (), ()),
        ((), ("很", "太", "真", "好", "挺", "怕", "不", "多", "也", "又", "最", "别", "么", "有点", "觉得", "劳"), "lei4", (), ()),
    ),
    "差": (
        ((), ("还", "比我", "比他", "比你", "太", "很", "真", "挺", "有点", "越来越", "更", "最"), "cha4", (), ()),
        (("得远", "得很", "得太", "一点", "点儿", "了一点"), (), "cha4", (), ()),
    ),
    "量": ((("一下", "一量", "了体温", "体温", "血压", "身高", "尺寸", "了一下", "了血压", "了身高", "了尺寸", "体重",
            "了体重", "腰围", "取"), (), "liang2", (), ()),),
    "种": (
        (("了", "着", "过", "满", "在", "花", "树", "菜", "地", "玉米", "田", "草", "豆", "瓜", "庄稼", "上"), (), "zhong4",
         _NUM_DEM, ()),
    ),
    "重": (
        ((), ("太", "很", "好", "真", "挺", "更", "最", "越来越", "特别", "有点", "比较", "干"), "zhong4", (), ("新", "复", "叠", "逢")),
        (("$", "啊", "呀", "呢", "吗", "了", "吧"), ("多",), "zhong4", (), ()),  # 有多重？ 这箱子多重 (多重 "multiple" is attributive)
        (("写", "做", "来", "逢", "播", "装", "修", "建", "启"), (), "chong2", (), ()),
    ),
    "乐": ((("了", "坏了", "得", "呵呵"), (), "le4", (), ()),),
    "弹": ((("得", "琴", "钢琴", "吉他", "一首", "了一首", "奏"), (), "tan2", (), ()),),
    "只": (((), _NUM_DEM, "zhi1", (), ("是", "有", "能", "要", "好", "会", "不", "见", "在", "想", "得", "用", "剩")),),
    "待": (
        (("几天", "一会", "会儿", "着", "在家", "一天", "了几", "多久", "几"), (), "dai1", (), ()),
        ((), ("多", "再", "住", "呆"), "dai1", (), ()),
    ),
    "觉": (((), ("睡", "午", "好", "个", "一", "懒", "睡不着"), "jiao4", (), ()),),
    "系": ((("好", "上", "紧", "鞋带", "领带", "安全带", "扣子", "围裙"), (), "ji4", (), ()),),
    "调": (
        (("高", "低", "成", "好", "大一", "小一", "大点", "小点", "小了", "大了", "小些", "大些", "小到", "大到", "亮", "暗",
          "慢", "快", "准", "调", "到最", "至最", "到静音"), (), "tiao2", (), ()),
        ((), ("空调", "温度", "音量", "亮度", "声音", "闹钟", "风速", "水温"), "tiao2", (), ()),  # 空调调到二十六度
    ),
    "剥": ((("了壳", "壳", "皮", "开", "橘子", "桔子", "鸡蛋", "花生", "蒜", "了皮"), (), "bao1", (), ()),),
    "相": (((), ("照张", "照个", "拍张"), "xiang4", (), ()),),
    "看": ((("孩子$", "孩子。", "着点", "家$"), (), "kan1", (), ()),),
    "落": ((("家里", "在家", "东西", "下东西", "在出租", "在车上", "在车里", "在办公室", "在公司"), (), "la4", (), ()),),
    "藏": ((("了起来", "起来", "在", "了", "好", "着"), (), "cang2", (), ()),),
    "中": (
        (("了",), ("说", "猜", "打", "射", "命"), "zhong4", (), ()),
        (("$", "了", "过", "的", "率", "吗", "啊", "一", "两", "三", "目标", "要害", "靶", "篮"), ("投", "射", "击", "猜"),
         "zhong4", (), ()),  # 没投中, 投中率: "hit"
    ),
    "数": ((("也数", "一下", "一数", "不清", "不过来", "了", "着", "钱", "星星"), (), "shu3", (), ()),
           ((), ("数了", "数一"), "shu3", (), ())),  # 数了数
    # 没 glued to a verb by jieba (没考 | 好) is mei2; mo4 only in literary words, which phrases cover (淹没, 出没)
    "没": (((), (), "mei2", (), ("入", "顶", "齿", "世")),),
    "应": ((("及时", "尽快", "立即", "马上", "注意", "避免", "尽量", "按", "由", "予以", "多", "少", "保持", "定期", "主动",
            "提前", "严格", "如实", "遵守", "加强", "在", "向", "于", "承担", "支付", "赔偿", "退还", "还", "缴", "交",
            "予", "视为", "依", "符合", "具备", "提供", "确保", "保证", "给予", "做到", "妥善", "认真", "履行", "遵循",
            "包括", "注明", "告知", "通知", "停止", "负"), (), "ying1", (),
           ("还是", "还有", "还要", "还在", "还没", "还不", "还得", "还会", "还能", "还可")),),  # modal "should" (应及时就医)
    "还": ((("你$", "我$", "他$", "她$", "你钱", "我钱", "他钱", "你吧", "$", "了吗", "了没"), (), "huan2", (), ()),
           ((), ("应", "每期", "每月", "分期", "按期", "按月", "已", "待"), "huan2", (),
            ("是", "有", "要", "在", "没", "不", "得", "会", "能", "可", "很", "挺", "算", "真", "行", "好")),
           ),  # 应还金额, 每期还多少
    "嚼": ((("碎", "烂", "着", "了", "一", "口香糖", "不", "得", "完", "东西", "饭", "几"), (), "jiao2", (), ()),),
    "咽": ((("了", "下", "不下", "回", "进", "口", "唾沫", "口水", "着", "得", "气", "药"), (), "yan4", (), ()),),
    "着": ((("了凉", "了火", "了迷", "了魔", "了慌"), (), "zhao2", (), ()),),  # 着了凉: 着凉 "catch cold" split by 了
    "场": (
        (("雨", "雪", "大雨", "大雪", "暴雨", "秋雨", "春雨", "小雨", "冰雹", "雹", "霜", "大病", "病"), (), "chang2", (), ()),
        (("比赛", "球赛", "电影", "演出", "演唱会", "音乐会", "晚会", "考试", "讲座", "表演", "戏", "球"), (), "chang3", (), ()),
    ),  # a spell of weather or illness (这场雨) / a match or show (这场比赛)
    "空": ((("车位", "床位", "房间"), (), "kong4", (), ()),),
    # 遛 liu4 "stroll, walk (an animal)" (遛弯儿, 遛狗, 遛鸟); pypinyin's liu2 is only the 逗遛 variant of 逗留
    "遛": (((), (), "liu4", ("逗",), ()),),
    "划": ((("船", "着船", "着小船", "着一条", "着一只", "小船", "桨", "破", "伤", "了一道", "了个口子", "火柴"), (), "hua2", (), ()),),
}

# Words whose last syllable is neutral (轻声) in standard Mandarin but not in pypinyin's data.
NEUTRAL_FINAL: frozenset[str] = frozenset(
    """
    东西 朋友 时候 事情 名字 姑娘 葡萄 麻烦 热闹 清楚 明白 喜欢 告诉 窗户 衣服 知识 别人 认识 豆腐 漂亮 部分
    地方 先生 学生 消息 休息 客气 舒服 衣裳 打扮 打算 打听 打量 商量 收拾 眼睛 耳朵 眉毛 头发 嘴巴 尾巴
    下巴 巴掌 脑袋 屁股 胳膊 指甲 指头 喉咙 早上 晚上 月亮 太阳 结实 凉快 干净 聪明 糊涂 厉害 老实 规矩 生意
    故事 力气 脾气 本事 爱人 丈夫 媳妇 女婿 亲戚 师傅 师父 大夫 和尚 萝卜 核桃 玻璃 石榴 蘑菇 芝麻 棉花 包袱
    口袋 钥匙 扫帚 风筝 灯笼 狐狸 骆驼 苍蝇 喇叭 琵琶 月饼 点心 粮食 庄稼 买卖 道理 主意 相声 招呼 吩咐 嘱咐
    折腾 琢磨 溜达 凑合 将就 应酬 咳嗽 哆嗦 啰嗦 罗嗦 唠叨 嘀咕 委屈 冤枉 欺负 佩服 痛快 勤快 马虎 含糊 模糊
    迷糊 踏实 扎实 在乎 似的 工夫 功夫 客人 男人 女人 知道 困难 算盘 使唤 队伍 暖和 软和 便宜 窝囊 薄荷
    牲口 畜生 苗条 秀气 福气 运气 志气 小气 阔气 土气 俗气 神气 名堂 学问 体面 讲究 耽误 耽搁 张罗 盘算
    拾掇 提防 招牌 能耐 意思 多少 记性 没关系 味道 态度 葫芦 护士 好处 任务 笑话 硬朗 合同 恶心 底下 收成
    外边 前边 后边 里边 上边 下边 左边 右边 东边 西边 南边 北边
    路上 地上 身上 天上 脸上 手上 头上 桌上 床上 墙上 街上 树上 家里 心里 手里 屋里 夜里 这里 那里 哪里
    会上 网上 山上 车上 船上 书上 班上 台上 河上 湖上 板上 门上 肩上 脚上 腿上 山里 城里 村里 车里 店里 水里 梦里 眼里 嘴里 怀里 院里 园里
    """.split()
)
# Light-final words that the G2P does not force on jieba's segmentation (到底 | 下不下雨 must stay cut there).
NEUTRAL_FINAL_UNFORCED = frozenset(("底下",))
# Light-final words that also have a full-tone sense in compounds (东西方, 地方政府): a made-up word starting with
# one keeps the citation tone.
NEUTRAL_FINAL_FULL_SENSE = frozenset("东西 地方 大夫 买卖 生意".split())
# One-character suffixes after which a made-up word's light first word stays light (任务量, 家里人, 粮食店).
NEUTRAL_COMPOUND_SUFFIXES = frozenset("量人们家店")
# 关系 is only optionally light (现汉 guān·xì): full tone, except in 没关系 (above).

# One-character adjectives before an inchoative 起来 "become" (天 热 起来 了: qi5 lai5) that jieba does not tag a;
# not 快 (快 起来！ "get up, quick").
INCHOATIVE_ADJECTIVES = frozenset("热冷暖凉亮暗黑红绿胖瘦忙乱闲富穷紧松干湿")
# Words before 等等 that make it the tentative "wait a bit" (我再等等 deng3 deng5), not "and so on" (deng3 deng3).
WAIT_A_BIT_BEFORE = frozenset("再 先 稍 就 还 得 要 想 可以 能 不妨 耐心 多 你再 我再 再等".split())
# Reduplicated tentative verbs (看看 kan4 kan5); a 3rd-tone first syllable still becomes 2nd (想想 xiang2 xiang5).
TENTATIVE_VERBS: frozenset[str] = frozenset(
    """
    看看 想想 试试 听听 谈谈 问问 走走 尝尝 聊聊 歇歇 坐坐 玩玩 瞧瞧 说说 讲讲 找找 摸摸 拍拍 洗洗 学学 做做
    算算 查查 猜猜 比比 翻翻 逛逛 转转 帮帮 抱抱 摆摆 摇摇 拉拉 换换 碰碰 敲敲 挤挤 伸伸 练练 读读 写写 闻闻
    动动 跳跳 笑笑 见见 望望 指指 救救 数数 散散 教教 陪陪 剪剪 擦擦 晒晒 揉揉 炒炒 量量 跺跺 挥挥 踢踢
    """.split()
)
# Reduplicated kinship and other nouns plus the tentative verbs: the second syllable is neutral (妈妈 ma1 ma5).
NEUTRAL_REDUPLICATION: frozenset[str] = TENTATIVE_VERBS | frozenset(
    """
    妈妈 爸爸 哥哥 姐姐 弟弟 妹妹 爷爷 奶奶 姥姥 叔叔 舅舅 伯伯 婶婶 姑姑 婆婆 公公 嫂嫂 爹爹 娘娘 太太 娃娃
    宝宝 星星 猩猩 蛐蛐 饽饽 馍馍 泡泡 嬷嬷 谢谢
    """.split()
)


# Single-character action verbs: a directional complement right after one is neutral (拿出来 na2 chu5 lai5,
# 穿上 chuan1 shang5).
VERBS: frozenset[str] = frozenset(
    "拿走跑跳站坐爬飞搬送带拉推扔抬举递寄传放提捡掏摘取开关穿戴说写看想唱喊叫冲赶追逃滚流掉躺醒停接买卖借"
    "找请领拖抱扶背挑端泼吐喝吃踢打剪贴挂装收伸升降涨跌转游滑钻挤闯扑扛捧拔抽爱赶合锁盖围缠绑系"
    "发退签填缝钉插做考撒切倒包藏探捞舀拎抓捉挖扯拽揪闭搭叠"
)
# Verbs that move something somewhere: a bare 来/去 after one is its complement (送 去 了, 拿 来 吧).
TRANSFER_VERBS = frozenset("送拿带寄搬传递扔抬运派捎借发")
# Verbs of motion: a bare 来/去 ending the phrase after one is its directional complement (迎面 吹 来, 慢慢 走 来,
# 及时 赶 来: lai5); V来V去 keeps its tones (走来走去).
MOTION_VERBS = frozenset("走跑飞吹飘游爬冲扑涌奔滚流赶追逃跳漂")
# First characters of two-character jieba words V来/V去 whose 来/去 is a neutral directional complement (传来 chuan2
# lai5, 打来 (a call), 寄来, 送去); 带来/带去 keep the tone (现汉 dài·lái, only optionally light).
LAI5_VERBS = (TRANSFER_VERBS - {"带"}) | {"打"} | MOTION_VERBS
# First characters of two-character X过 words where 过 is "across" (穿过森林 guo4), not the experiential suffix,
# unless the word ends its phrase or a 的/吗 follows (没穿过, 穿过的衣服 guo5).
GUO_ACROSS = frozenset("穿越跨翻绕掠")
# The same for "get past" verbs (骗过门将, 躲过了一劫, 熬过冬天), also before 了, but not before a pronoun: 他骗过我
# is experiential.
GUO_PAST = frozenset("骗躲闪避瞒逃熬挺撑")
# 个 is neutral after a numeral or a demonstrative (一个 yi2 ge5, 这个 zhe4 ge5, 几个 ji3 ge5).
GE5_AFTER = frozenset("一二三四五六七八九十百千万两几这那哪半每某")
# 上个/下个 + one of these: 个 is neutral too (下个月 xia4 ge5 yue4, 上个星期).
GE5_TIME_AFTER: frozenset[str] = frozenset("月 星期 礼拜 周 学期 季度 阶段 世纪 年代".split())
# 个 that is not a measure word when it is a one-character word before these (个 人 is rare; 个儿 is handled by 儿).
GE_FULL_BEFORE = frozenset("人体性别案例")
# 着 after these verbs is the result complement zhao2 (睡着, 找着, 猜着), not the aspect particle zhe5.
ZHAO2_AFTER = frozenset("睡找猜够逮抓碰见")  # not 摸: 摸着很舒服 zhe5
# 着 after these verbs of getting hurt is zhao2 before 了 or ending the phrase (别摔着了, 小心烫着, 别累着), not
# the durative zhe5 (累着呢, 冻着脚).
ZHAO2_HURT = frozenset("摔磕烫吓冻累伤扭呛噎")
# 着手 after these one-character verbs is the aspect particle + "hand" (手拉着手, 背着手: zhe5 shou3), not 着手
# "set about" (zhuo2 shou3).
ZHE5_SHOU_AFTER = frozenset("拉牵握挽搀背揣抄拍搓")
# 为 is "for" (wei4) when one of these follows later in the phrase (为人民服务, 为别人着想).
WEI4_BEFORE: frozenset[str] = frozenset(
    """
    服务 着想 担心 操心 高兴 骄傲 自豪 效力 祝福 加油 喝彩 欢呼 鼓掌 难过 工作 奋斗 牺牲 报仇 干杯 付出
    提供 打下 奠定 做出 作出 创造 带来 送去 送来 捐款 捐赠 争光 争取 开辟 铺平 贡献 准备 解决 办事 做事 出力
    """.split()
)

# Frequent single-character words of running text whose everyday reading dominates (和 he2, 都 dou1, 没 mei2,
# 还 hai2, 更 geng4 ...): chosen from the polyphones most often left unsettled by the phrase data in the training
# corpus. The polyphone model, trained on encyclopedia sentences that sample every reading about equally, picks
# their rare readings far too often (没 as mo4, 都 as du1); as single-character words they keep the dictionary's.
DEFAULT_READING_WORDS = frozenset("和中上与会作大都吗比曾通可说那要给把过更约看没离难重只还好")
# Adverbs and other words before a directional complement that do not make it a verb's complement (快进来 kuai4
# jin4 lai5, not jin5).
NOT_VERB_BEFORE_DIRECTIONAL = frozenset("快都也就还再又才别请先刚已正没不很太常总早")

# Result and directional complements after 不 in a potential form (找 不到 zhao3 bu5 dao4, 搬 不动, 吃 不完).
POTENTIAL_COMPLEMENTS = frozenset("到动完见懂开了起住下出上清及透掉成通惯走")
# Complements (beyond POTENTIAL_COMPLEMENTS) that make a three-character word jieba made up of a verb + 不 + one
# of them a potential form (吃不饱, 睡不好, 睡不着: bu5); 天不亮 is a plain negation (bu2).
POTENTIAL_AFTER_VERB = frozenset("饱好着")
# Verbs that take a potential complement inside a made-up four-character word (说不清楚, 记不清楚, 看不明白).
POTENTIAL_VERBS = frozenset("说记看听想认弄搞分猜算数读做学写讲吃拿找搬睡等用办忍管打关洗背买卖跑走爬")
# Reduplicated kinship nouns: inside a longer word they keep their neutral tone (奶奶家, 老爷爷, 小妹妹).
KINSHIP_REDUPLICATION: frozenset[str] = frozenset(
    "妈妈 爸爸 哥哥 姐姐 弟弟 妹妹 爷爷 奶奶 姥姥 叔叔 舅舅 伯伯 婶婶 姑姑 婆婆 公公 嫂嫂 爹爹 宝宝 娃娃".split()
)
# Other light reduplications that keep their neutral tone at one end of a longer word only: 谢谢您 / 谢谢大家
# (xie4 xie5), 小星星 / 大猩猩 (xing1 xing5); not 星星之火 or 星星点点, where 星星 is "tiny" xing1 xing1.
NEUTRAL_REDUPLICATION_START = KINSHIP_REDUPLICATION | {"谢谢"}
NEUTRAL_REDUPLICATION_END = KINSHIP_REDUPLICATION | {"星星", "猩猩"}
# 地 glued by jieba to the next word is the noun di4 after these (这块地种, 一片地), else the adverbial de5.
DI4_AFTER = frozenset("块片亩这那每该此本土草田山耕种荒农")
# 里 after these is the unit of length li3 (十里, 公里), not the locative li5.
LI3_AFTER = frozenset("零〇一二三四五六七八九十百千万两几公英海华")
# One-character words after which 不 + complement is a plain negation, not a potential form (也 不到, 我 不动).
NOT_VERB_BEFORE_BU = frozenset("快都也就还再又才别请先刚已正没不很太可真并决绝从是要会能我你他她它您咱这那")

# Modal particles: neutral tone after another word (吗 呢 吧 ...).
PARTICLES: frozenset[str] = frozenset("吗呢吧啊呀哇啦嘛呗喽咯嘞哦")

# Verb + directional complement (上来, 回去): the complement is neutral.
DIRECTIONAL_FIRST = frozenset("上下进出回过起开")
DIRECTIONAL_LAST = frozenset("来去")

# Character pairs in which 得 keeps its full tone de2 ("obtain", or in names: 彼得 Peter), when no pypinyin
# phrase covers them; elsewhere an uncovered 得 after another character is the complement marker de5 (跑得快).
DE_FULL_TONE: frozenset[str] = frozenset(
    "乍得 彼得 奥得 罗得 宾得 可得 已得 安得 复得 兼得 始得 实得 募得 征得 录得 商得 劫得 喜得 互得 得得".split()
)
# First characters of two-character X过 words where 过 is not the experiential suffix.
GUO_NOT_SUFFIX = frozenset("一之而莫每再文知可同愆连")  # 连过两人 "got past two in a row"
# Verbs after which 过 is the experiential suffix guo5 even where pypinyin has a phrase reading guo4 (来过, 见过,
# 吃过饭) or jieba cut it off (吃 过, 遇到 过, 答应 过); 经过/通过/穿过/跳过 are not among them.
GUO5_AFTER = frozenset("来去见吃喝说看听做干用学写住玩买卖想试读找到遇碰等尝应教讲当上吵打")

# Words ending in 儿 where 儿 means "child" (full tone er2), not the 儿化 suffix.
ER_FULL_TONE: frozenset[str] = frozenset(
    """
    女儿 婴儿 幼儿 孤儿 患儿 男儿 健儿 宠儿 胎儿 新生儿 少儿 侄儿 孙儿 妻儿 育儿 弃儿 混血儿 早产儿 乞儿 产儿
    托儿 犬儿 爱儿 娇儿 红孩儿 宁馨儿 弄潮儿 幸运儿 佼佼儿 体弱儿 流浪儿 脑瘫儿 连体儿
    """.split()
)

# Single-character 为 reads wei4 ("for") after these words, otherwise wei2 ("be, as": 其首府为…).
WEI4_AFTER: frozenset[str] = frozenset("请 都 也 专门 特地 特意 专 不 正在 而 要 愿 就 只 是".split())

# Personal pronouns: 得 right after one of these and before a verb is "must" (我得去 wo3 dei3 qu4).
PRONOUNS: frozenset[str] = frozenset("我 你 他 她 它 您 咱 我们 你们 他们 她们 咱们 大家 自己".split())
# Adverbs after which a one-character 得 before a verb is "must" (就得出发, 还得等, 总得去).
DEI3_AFTER: frozenset[str] = frozenset(
    "就 还 也 都 又 总 就是 还是 非 必须 早晚 迟早 今天 明天 中午 晚上 下午 上午 早上 现在 以后 先 之前 以前 事儿".split()
)

# Measure words after which a morpheme-final 一 still changes tone (同一个 tong2 yi2 ge4).
MEASURE_AFTER_YI = frozenset("个种样次天年位件条只张本批群点些下会段回遍份场")

# Verbs before a glued measure word 个 with 一 dropped (睡个午觉, 回个电话, 调个座位): 个 is neutral.
GE5_VERBS = frozenset("睡回调换理剪洗泡聊问唱讲玩吃喝有是拐")  # 有个, 是个 (jieba's words)

NUMERAL_CHARS = frozenset("零〇一二三四五六七八九十")  # not 两: 一两个 is yi4 liang3
BIG_UNITS = frozenset("百千万亿")
