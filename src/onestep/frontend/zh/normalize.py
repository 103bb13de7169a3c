"""Mandarin text normalization: numbers and symbols spelled out in Chinese characters.

:func:`normalize_zh` folds full-width forms to half-width (Chinese punctuation stays), then applies an
ordered list of regular-expression rules, most specific first: dates, years, times, ratios, phone numbers
and codes, money, percentages, arithmetic, fractions, ranges, units, signs, 两 before measure words, and
finally any remaining number. Each rule rewrites digits into characters, so later rules never see them
again. Latin letter runs are left untouched (the English G2P reads them).

Every pattern is anchored with a look-behind so that it can only start at the beginning of a digit run,
and no pattern nests unbounded quantifiers, so the cost stays linear in the input length.
"""

from __future__ import annotations

import contextvars
import functools
import re
from collections.abc import Callable

from onestep.frontend.zh.an2cn import load_an2cn
from onestep.frontend.zh.numbers import MAX_CARDINAL_DIGITS, read_cardinal, read_digits

Replacement = str | Callable[[re.Match[str]], str]  # a re.sub replacement
Rule = tuple[str, Replacement]  # pattern (compiled by compiled_rules), replacement

_KEEP_FULL_WIDTH = "，！？：；（）"  # Chinese punctuation that lives in the full-width block
_FOLD = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F) if chr(c) not in _KEEP_FULL_WIDTH}
_FOLD.update({0x3000: 0x20, 0xFFE5: ord("¥"), 0x2212: ord("-")})  # ideographic space, ￥, minus sign
# every rule needs an ASCII digit or one of these symbols (C++, ℃ alone, × ÷ = < >, 米/秒 after a numeral), or 单位
# (a unit named alone: 单位：cm²)
# round 16: a file name's extension (config.yaml), read 点
_FILE_EXTENSIONS = (
    "yaml|yml|json|py|txt|log|md|csv|xml|html?|css|sh|ini|toml|cfg|conf|pdf|docx?|xlsx?|pptx?|zip|rar|exe|apk|"
    "dmg|jpe?g|png|gif|webp|svg|mp4|mp3|wav|ipynb|sql|java|cpp|tsx?|jsx|vue|php|env|bat|dll|iso|tar"
)
_RULES_NEED = re.compile(
    rf"[0-9+=<>×÷℃℉°/@]|[-−－]\s?[百千]分之|单位|\.(?:com|cn|net|org|js|{_FILE_EXTENSIONS})(?![A-Za-z])|[*#]\s?号?键|按\s?[*#]"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")

_NUM = r"[0-9]+(?:\.[0-9]+)?"
_DASH = r"[-~—–]"  # ~ also stands for the folded full-width ～
_RANGE = r"[-~—–至到]"

_MEASURES = (
    "个|位|只|本(?!院校|大学)|呎|坪|条|张|件|次(?!元|方)|天|周|岁|名|人|支|辆|家|台|部|块|元|角|毛|分钟|小时|秒钟|秒|公斤|千克|克|"
    "斤|米|公里|千米|厘米|毫米|升|毫升|吨|倍|种|样|项|层|栋|座|所(?![示述])|间|套|份|双|对|段|句|页|片|颗|粒|棵|头|匹|艘|架|场|届|"
    # round 15: 2次方, 2本院校, 2期工程 (二); 两英寸, 两亩, 两美元
    "期(?!工程|项目)|英寸|平方米|平方公里|立方米|平米|亩|公顷|美元|欧元|英镑|港元|港币|日元|韩元|澳元|加元|卢布|"
    "球(?![场队迷衣鞋星拍员馆类])|批|轮|组|篇|首|瓶|杯|碗|盒|袋|箱|包|万|千|亿|百|口|把|枚|封|趟|遍|回|下|声|笔|幅|扇|根|顶|面|门|盏|节|堂|"
    "课|桌|道|集|章|户|餐|顿|步|圈|排|行|列|队|群|股|阵|番|些|勺|汤匙|茶匙|瓣|滴|撮|串|罐|桶|壶|盘|碟|拍|海里|英里|"
    "晚(?![上饭餐会间安点辈霞报婚年期])|宿(?![舍命敌])|"
    "点(?![0-9])|年(?!级)|分(?!之)"
)

# unit -> (reading, may a bare 2 before it be read 两?)
_UNITS: dict[str, tuple[str, bool]] = {
    "km/h": ("公里每小时", True), "m/s": ("米每秒", True), "kWh": ("千瓦时", True), "kwh": ("千瓦时", True),
    "mAh": ("毫安时", True), "km²": ("平方公里", True), "m²": ("平方米", True), "cm²": ("平方厘米", True),
    "m³": ("立方米", True), "cm³": ("立方厘米", True),
    "km": ("公里", True), "KM": ("公里", True), "cm": ("厘米", True), "mm": ("毫米", True), "nm": ("纳米", True),
    "μm": ("微米", True), "m": ("米", True), "km/s": ("公里每秒", True), "dB": ("分贝", True),
    "μg": ("微克", True), "μs": ("微秒", True), "µm": ("微米", True), "µg": ("微克", True), "µs": ("微秒", True),
    "Mbps": ("兆比特每秒", True), "Gbps": ("吉比特每秒", True), "kbps": ("千比特每秒", True),
    "Kbps": ("千比特每秒", True),
    "kg": ("公斤", True), "KG": ("公斤", True), "Kg": ("公斤", True), "mg": ("毫克", True), "g": ("克", True),
    "ml": ("毫升", True), "mL": ("毫升", True), "L": ("升", True),
    "TB": ("太字节", True), "GB": ("吉字节", True), "MB": ("兆字节", True), "KB": ("千字节", True),
    "kB": ("千字节", True),
    # round 14: the prefixed hertz by the unit's full name, as Hz (赫兹): 2.4GHz -> 二点四吉赫兹
    "GHz": ("吉赫兹", True), "MHz": ("兆赫兹", True), "kHz": ("千赫兹", True), "Hz": ("赫兹", True),
    "kV": ("千伏", True), "mV": ("毫伏", True), "MW": ("兆瓦", True), "GW": ("吉瓦", True),  # round 15
    "MWh": ("兆瓦时", True), "GWh": ("吉瓦时", True),
    "kW": ("千瓦", True), "Wh": ("瓦时", True), "W": ("瓦", True), "V": ("伏", True), "mA": ("毫安", True),
    "N·m": ("牛米", True), "N.m": ("牛米", True), "Nm": ("牛米", True), "kN": ("千牛", True),
    "kΩ": ("千欧姆", True), "MΩ": ("兆欧姆", True), "k欧姆": ("千欧姆", True), "M欧姆": ("兆欧姆", True),
    "min": ("分钟", True), "ms": ("毫秒", True), "h": ("小时", True), "s": ("秒", True),
    "kcal": ("千卡", True), "hPa": ("百帕", True), "kPa": ("千帕", True), "MPa": ("兆帕", True),
    "Pa": ("帕", True), "mmHg": ("毫米汞柱", True), "mmol/L": ("毫摩尔每升", True), "mol/L": ("摩尔每升", True),
    "mmol": ("毫摩尔", True), "mol": ("摩尔", True),
    "t": ("吨", True), "IU": ("国际单位", True),  # round 14: 载重10t, 维生素D3 400IU
    "bar": ("巴", True), "rpm": ("转每分钟", True), "r/min": ("转每分钟", True),
    "mg/kg": ("毫克每千克", True), "μg/kg": ("微克每千克", True), "µg/kg": ("微克每千克", True),
    "mg/L": ("毫克每升", True), "mg/dL": ("毫克每分升", True), "g/L": ("克每升", True), "kJ": ("千焦", True),
    "℃": ("摄氏度", False), "°C": ("摄氏度", False), "℉": ("华氏度", False), "°F": ("华氏度", False),
    "°": ("度", False),
}
_TEMPERATURES = {"℃", "°C", "℉", "°F"}
# a unit after a slash (per ...) read by its full name: 300Wh/kg -> 瓦时每千克 (as in mg/kg), not 每公斤
_PER_READINGS = {"kg": "千克", "KG": "千克", "Kg": "千克"}
# what a bare 2 before these is read as 两 (两室两厅两卫, 两成), and unit readings a range may end in (2到五毫米)
_LIANG_NOUNS = r"厅|卫|居室|居|室(?=\s?[0-9]\s?厅)|梯(?=\s?[0-9]\s?户)|成(?![都功绩本立员果交长])"
_UNIT_ALT = "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))
_LIANG_UNITS = "|".join(sorted({r for r, liang in _UNITS.values() if liang}, key=len, reverse=True))

_CURRENCIES = {
    "US$": "美元", "HK$": "港元", "NT$": "新台币", "$": "美元", "USD": "美元", "¥": "元", "RMB": "元",
    "CNY": "元", "€": "欧元", "EUR": "欧元", "£": "英镑", "GBP": "英镑", "₩": "韩元", "₹": "卢比",
    # round 14: other dollars and yen by their prefix, ISO codes written before an amount (CHF 12,000)
    "JP¥": "日元", "S$": "新加坡元", "SG$": "新加坡元", "A$": "澳元", "AU$": "澳元", "C$": "加元", "CA$": "加元",
    "NZ$": "新西兰元", "JPY": "日元", "HKD": "港元", "AUD": "澳元", "CAD": "加元", "SGD": "新加坡元", "KRW": "韩元",
    "CHF": "瑞士法郎", "TWD": "新台币",
    # round 15: more currencies by sign or ISO code (₽500 -> 五百卢布, THB 1,200 -> 一千二百泰铢)
    "₽": "卢布", "RUB": "卢布", "฿": "泰铢", "THB": "泰铢", "₫": "越南盾", "VND": "越南盾", "₱": "比索",
    "₺": "里拉", "INR": "卢比", "MYR": "林吉特", "RM": "林吉特", "MOP": "澳门元", "NZD": "新西兰元",
    "MOP$": "澳门元", "IDR": "印尼盾", "SEK": "瑞典克朗", "DKK": "丹麦克朗", "NOK": "挪威克朗",
}
_CURRENCY_ALT = "|".join(re.escape(c) for c in sorted(_CURRENCIES, key=len, reverse=True))

_SERVICE_NUMBERS = (
    "110|119|120|122|114|12315|12345|12306|12320|12369|10086|10010|10000|95588|95533|95555|95566|95599|95522"
    "|12[0-9]{3}|9[56][0-9]{3}|950[0-9]{3}"  # government hotlines 12xxx, company numbers 95xxx/96xxx/950xxx
)
_DIAL_BEFORE = re.compile(r"(?:拨打|拨|打|呼叫|致电|报警|电话|热线|号码|求救|求助|客服|专线|铁路|【)[是为:：]?\s?$")
_DIAL_AFTER = re.compile(r"^\s?(?:报警|急救|火警|求助|电话|热线|专线|中心|客服|查号|台|App|APP|app|小程序|客户端|公众号)|^[\u4e00-\u9fff]{0,6}(?:热线|客服|服务电话)")
_EMERGENCY = frozenset({"110", "119", "120", "122"})
# a quantity, not a phone number: followed by a measure word or unit, or preceded by 第/共/约/是...
_COUNTED_AFTER = re.compile(rf"\s?(?:[A-Za-z0-9%‰.+]|{_MEASURES}|多|余|来|月|日|号|度|名)")
_COUNTED_BEFORE = re.compile(r"(?:[第共约计达近超过到至为是了比加减乘除+\-×÷*/=~.$¥€£人价费]|[A-Za-z]\s?)$")
# a 3-4 digit number before these is a room, read digit by digit (305房间, 2019号房, 307诊室)
_ROOMS_AFTER = "房间|室|号房|宿舍|寝室|会议室|教室|办公室|病房|实验室|诊室"
_ID_KEYWORDS = (
    "电话|手机|号码|编号|单号|账号|帐号|卡号|工号|学号|证号|邮编|验证码|密码|尾号|房间号|房间|房号|分机|车牌号|"
    "QQ号|QQ|qq|微信号|航班号|取件码|订单号|运单号|单号|会员卡号|卡号|编码|代码|区号|口令|序列号|识别码|"
    "处方号|病历号|住院号|门诊号|就诊号|流水号|合同号|发票号|校验码|动态码|确认码|授权码|激活码|兑换码|提货码|核销码|券码|"
    # round 15: accounts and product codes
    "账户|户号|会员号|保单号|批号|批次号|税号|信用代码|护照号|证件号|条码|车架号|发动机号|设备号"
)


def normalize_zh(text: str) -> str:
    """Spell out numbers and symbols of a Mandarin sentence in Chinese characters.

    Args:
        text: raw text; may contain Latin words, digits, symbols, full-width forms.
    Returns:
        the text with digits and numeric symbols rewritten (``"12500"`` → ``"一万两千五百"``,
        ``"-5℃"`` → ``"零下五摄氏度"``, ``"13812345678"`` → ``"幺三八幺二三四五六七八"``); Latin letters and
        Chinese punctuation unchanged.
    """
    text = _CONTROL.sub(" ", text.translate(_FOLD))
    if _OLD_NUMERALS_NEED.search(text):
        text = _old_numerals(text)
    if not _RULES_NEED.search(text):
        return text  # no digit and none of the symbols a rule reads: most sentences, skipped in one scan
    grouped = _GROUPED.set(_long_grouped(text) if "," in text else frozenset())
    try:
        for pattern, replace in compiled_rules():
            text = pattern.sub(replace, text)
    finally:
        _GROUPED.reset(grouped)
    return text


# 1,234,567,890,123: an integer of 13-16 digits written with thousands separators is an amount (一万两千三百四十五亿…),
# not an id or a card number read digit by digit as the same digits unseparated are. The separators go early (the
# money, unit and percent rules read plain digits), so the amounts of the sentence being normalized are noted here.
_LONG_GROUPED = re.compile(r"(?<![0-9,.])[0-9]{1,3}(?:,[0-9]{3}){4,5}(?![0-9,])")
_GROUPED: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar("zh_grouped_amounts", default=frozenset())


def _long_grouped(text: str) -> frozenset[str]:
    """The integers of 13 to 16 digits written with thousands separators in ``text``, separators removed."""
    found = (m.group().replace(",", "") for m in _LONG_GROUPED.finditer(text))
    return frozenset(n for n in found if 12 < len(n) <= MAX_CARDINAL_DIGITS)


# round 14 (issue 12): numerals a reader says in their everyday form: 〇 (二〇二四), 廿/卅/卌 (腊月廿三, 十月卅日; the
# name 五卅 stays), and the financial capitals of an amount (叁佰伍拾万元整 -> 三百五十万元整; 陆 is liù here)
_OLD_NUMERALS_NEED = re.compile(r"[〇廿卅卌壹贰貳叁肆伍陆柒捌玖]")
_CAPITAL_DIGITS = "壹贰貳叁肆伍陆柒捌玖"
_CAPITALS = str.maketrans(dict(zip("壹贰貳叁肆伍陆柒捌玖拾佰仟萬億", "一二二三四五六七八九十百千万亿")))
# a run of capitals (two or more digits, a 拾/佰/仟, or before 元/圆/角/整/万/亿; a run of two only before those),
# or one capital digit before 元/圆/角/整: 伍元, 伍万元 (大陆万人, 放肆, 伍佰 the singer stay words)
_CAPITAL_RUN = re.compile(rf"[{_CAPITAL_DIGITS}拾佰仟萬億万亿零]{{2,}}|[{_CAPITAL_DIGITS}](?=[元圆角整])")
_OLD_TENS = re.compile(r"廿|(?<!五)卅|卌")


def _capital_run(m: re.Match[str]) -> str:
    run = m.group()
    digits = sum(c in _CAPITAL_DIGITS for c in run)
    followed = m.string[m.end() : m.end() + 1] in ("元", "圆", "整", "角", "万", "亿")
    if len(run) == 2 and not followed:
        return run  # 伍佰 (a singer), 陆万: two characters count as an amount only before 元, 整, 万...
    if digits and (digits >= 2 or followed or len(run) == 1 or any(c in "拾佰仟" for c in run)):
        return run.translate(_CAPITALS)
    return run


def _old_numerals(text: str) -> str:
    """``二〇二四`` -> 二零二四, ``腊月廿三`` -> 腊月二十三, ``壹万零捌佰元整`` -> 一万零八百元整."""
    text = text.replace("〇", "零")
    text = _OLD_TENS.sub(lambda m: {"廿": "二十", "卅": "三十", "卌": "四十"}[m.group()], text)
    return _CAPITAL_RUN.sub(_capital_run, text)


@functools.cache
def compiled_rules() -> tuple[tuple[re.Pattern[str], Replacement], ...]:
    """The rules, compiled: on the first sentence that needs them (most need none, and a process that only
    reads such sentences never compiles them), or at load by :func:`preload`."""
    return tuple((re.compile(pattern), replace) for pattern, replace in _RULES)


def preload() -> None:
    """Compile the rules and load the number reader now, so that no later call pays for it (``Frontend.preload``
    runs this)."""
    compiled_rules()
    load_an2cn()


_WEB_TLD = r"com|cn|net|org|gov|edu|io|ai|hk|tw|co|info|top|xyz|me|tv|uk|jp|de"
_WEB_ADDRESS = (
    r"(?<![A-Za-z0-9.@_/-])(?:https?://)?(?:[A-Za-z0-9_.+-]+@)?(?:[A-Za-z0-9-]+\.)+"
    rf"(?:{_WEB_TLD})(?![A-Za-z0-9@-])(?:/[A-Za-z0-9_./-]*[A-Za-z0-9_/])?"
)
_WEB_SYMBOLS = {".": "点", "@": " at ", "/": "斜杠", "-": "杠", "_": "下划线", "+": "加"}


def _web_address(m: re.Match[str]) -> str:
    """``www.gov.cn`` -> www点gov点cn, ``service@163.com`` -> service at 一六三点com: a web or e-mail address
    in a Mandarin sentence, its dots said 点 and its digits one by one (the scheme ``https://`` is not said)."""
    text = re.sub(r"^https?://", "", m.group())
    out = []
    for part in re.findall(r"[0-9]+|[A-Za-z]+|.", text):
        out.append(read_digits(part) if part.isdigit() else _WEB_SYMBOLS.get(part, part))
    return "".join(out)


def _before(m: re.Match[str], n: int) -> str:
    """Up to ``n`` characters before the match (a bounded look-back, so rules stay linear)."""
    return m.string[max(0, m.start() - n) : m.start()]


def _after(m: re.Match[str], n: int) -> str:
    return m.string[m.end() : m.end() + n]


def _thousands(m: re.Match[str]) -> str:
    return m.group().replace(",", "")


def _date(m: re.Match[str]) -> str:
    year, month, day = m.group(1), int(m.group(3)), int(m.group(4))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group()
    return f"{year}年{month}月{day}日"


def _date_year_last(m: re.Match[str]) -> str:
    """``20/5/2024`` -> 2024年5月20日: day first (Hong Kong, Singapore); a second part over 12 is the day
    (``3/15/2024``, the American order); dots alike, and dashes with two-digit parts (``15-08-2019``, issue 24)."""
    first, second = int(m.group(1)), int(m.group(3))
    day, month = (first, second) if second <= 12 else (second, first)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group()
    return f"{m.group(4)}年{month}月{day}日"


def _date_two_digit_year(m: re.Match[str]) -> str:
    """``12/05/98`` -> 98年5月12日 (day first, as ``_date_year_last``; a second part over 12 is the day),
    ``98/12/05`` -> 98年12月5日 (a first part over 31 is the year); the two-digit year is then said digit by
    digit (九八年). A one-digit last part cannot be a year as years are written: then the date is year first
    when its first part has two digits (``09/3/8`` -> 09年3月8日, ``12/2/2``), else it is not a date (``1/2/3``)."""
    a, b, c = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if len(m.group(3)) == 1:
        if len(m.group(1)) != 2:
            return m.group()
        year, month, day = m.group(1), b, c
    elif a > 31:
        year, month, day = m.group(1), b, c
    else:
        year = m.group(3)
        day, month = (a, b) if b <= 12 else (b, a)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group()
    return f"{year}年{month}月{day}日"


_HALF_DAY = {"a": "上午", "p": "下午"}


def _am_pm(m: re.Match[str]) -> str:
    """``7:30pm`` -> 晚上7:30, ``9am`` -> 上午9点, ``12:15 PM`` -> 中午12:15, ``09:15:30am`` -> 上午09:15:30 (the
    clock is read by the time rule)."""
    hour, minutes, half = int(m.group(1)), m.group(2), m.group(3).lower()
    if not 1 <= hour <= 12:
        return m.group()
    if half == "p":
        word = "中午" if hour == 12 else "晚上" if hour >= 7 else "下午"
    else:
        word = "凌晨" if hour == 12 else "上午"
    return f"{word}{m.group(1)}{minutes or '点'}"


def _month_day(m: re.Match[str]) -> str:
    """``03-15 14:22`` -> 3月15日 14:22: a zero-padded month and day before a clock time (app and bank notices)."""
    return f"{int(m.group(1))}月{int(m.group(2))}日"


# round 12 (issue 12): a month/day with a slash in a notice (预计12/11送达, 请于3/15前还款); 1/3 stays a fraction
_SLASH_DATE_AFTER = re.compile(
    r"\s?(?:[（(]?(?:周|星期)[一二三四五六日天]|送达|到达|到货|发货|发出|签收|出发|起飞|到期|截止|当天|之前|"
    r"上午|下午|晚上|早上|中午|凌晨|傍晚|当晚|"  # round 15: 体检安排在4/8上午, 改签到12/25晚上
    r"前(?:送达|到达|还款|缴费|付款|支付|完成|办理|发货|取件|提交|领取))"
)
_SLASH_DATE_BEFORE = re.compile(r"(?:请于|将于|已于|定于|预计于?|最晚|最迟|截至|截止到?|日期[是为:：]?|改为|改期至|延期至|顺延至)\s?$")
_NOT_A_DATE_AFTER = re.compile(r"\s?(?:的|以|左右|多|强|弱)")


def _slash_month_day(m: re.Match[str]) -> str:
    """``预计12/11送达`` -> 12月11日: a month/day between a date cue before it or a delivery or due word after it."""
    after = _after(m, 6)
    if _SLASH_DATE_AFTER.match(after) or (
        _SLASH_DATE_BEFORE.search(_before(m, 6))
        and not _NOT_A_DATE_AFTER.match(after)
        and not _COUNTED_AFTER.match(after)
    ):
        return _month_day(m)
    return m.group()


_AMPERE_BEFORE = re.compile(r"电流|额定|输出|输入|保险丝|熔断|充电|安培")


def _ampere(m: re.Match[str]) -> str:
    """``电流12.5A`` -> 十二点五安: A after a number near a current word (5A景区, 12A座位 stay letters)."""
    if not _AMPERE_BEFORE.search(_before(m, 8)):
        return m.group()
    return read_cardinal(m.group(1)) + "安"


_YEAR_MONTH_CUE = re.compile(r"(?:至|于|到|从|自|截至|截止|日期|时间|有效期|期限)[是为:：]?\s?$")


def _year_month(m: re.Match[str]) -> str:
    """``有效期至2026.09`` -> 2026年9月, ``2019.09-2023.06`` -> 2019年9月到2023年6月: a dotted year and month after
    a date cue, or two of them as a range (``报收2015.12`` without a cue stays a number)."""
    if m.group(4) is None and not _YEAR_MONTH_CUE.search(_before(m, 6)):
        return m.group()
    spoken = f"{m.group(1)}年{int(m.group(2))}月"
    return spoken + (f"{_connector(m.group(3))}{m.group(4)}年{int(m.group(5))}月" if m.group(4) else "")


def _year_month_cued(m: re.Match[str]) -> str:
    """``有效期至2025-12`` -> 2025年12月: a year and month with a dash or slash, only after a date cue."""
    if not _YEAR_MONTH_CUE.search(_before(m, 6)):
        return m.group()
    return f"{m.group(1)}年{int(m.group(2))}月"


def _connector(sign: str) -> str:
    """How a range sign is read: 至 and 到 as written, a dash or tilde as 到."""
    sign = sign.strip()
    return sign if sign in ("至", "到") else "到"


def _year_range(m: re.Match[str]) -> str:
    return f"{read_digits(m.group(1))}{_connector(m.group(2))}{read_digits(m.group(3))}"


# round 15 (issue 12): a four-digit number of years, not a year: 已有2500年的历史, 树龄约1300年, 历经1400年风雨
_YEARS_SPAN_BEFORE = re.compile(
    r"(?:已有|已经有|长达|历经|经历了?|经过了?|走过了?|跨越了?|持续了?|延续了?|相隔|相距|距今约?|约有|足足|整整|"
    r"树龄约?|树龄达|寿命约?|历史约?|超过|将近|至少)$"  # (not a bare 约: 约1450年 is a year)
)
_YEARS_SPAN_AFTER = re.compile(r"\s?年(?:的历史|历史|之久|的时间|光阴|岁月|风雨|沧桑|的岁月)")


def _year(m: re.Match[str]) -> str:
    if not 1000 < int(m.group()) < 3000:
        return m.group()
    before = _before(m, 4)
    if _YEARS_SPAN_AFTER.match(m.string, m.end()) or (
        _YEARS_SPAN_BEFORE.search(before) and not re.match(r"\s?年\s?[0-9]{1,2}\s?月", m.string[m.end() : m.end() + 6])
    ):
        return read_cardinal(m.group(), liang=True)
    return read_digits(m.group())


def _small_cardinal(m: re.Match[str]) -> str:
    return read_cardinal(m.group(1))


def _clock(hour: str, minute: str, second: str | None, *, minute_word: bool = True) -> str:
    """``8:05:30`` -> 八点零五分三十秒; zero seconds are not read (16:00:00 -> 十六点)."""
    if second == "00":
        second = None
    spoken = read_cardinal(hour, liang=True) + "点"
    if minute != "00" or second:
        spoken += ("零" if minute[0] == "0" and minute != "00" else "") + read_cardinal(minute)
        spoken += "分" if minute_word or second else ""
    if second:
        spoken += ("零" if second[0] == "0" else "") + read_cardinal(second) + "秒"
    return spoken


def _duration(hours: str, minutes: str, seconds: str | None) -> str:
    """``2:15:30`` as an elapsed time: 两小时十五分三十秒."""
    spoken = (read_cardinal(hours, liang=True) + "小时") if int(hours) else ""
    spoken += read_cardinal(minutes) + "分"
    return spoken + (read_cardinal(seconds) + "秒" if seconds and seconds != "00" else "")


_SCORE_BEFORE = re.compile(
    r"(?:比分|比数|以|战绩|比赛结果)[是为:：]?\s?$"
    # round 15: 比分定格在2-1, 比分来到15:12, 双方打成12:10 (a score after these, not a time or a range)
    r"|比分(?:定格在|定格为|锁定在|来到|变成|变为|改写为|扩大到|扩大为|缩小到|缩小为|追至|追到)\s?$"
    r"|(?:打成|战成|扳成|追成|追平为)\s?$"
)
# the scores listed before this one (以21:15、21:18: the first game's cue holds for the next)
_COLON_SCORE_LIST_BEFORE = re.compile(r"(?:[0-9]{1,3}\s?[:：]\s?[0-9]{1,3}、\s?){1,4}$")
_DURATION_BEFORE = re.compile(r"(?:用时|耗时|历时|时长|成绩|还剩|剩余|倒计时|跑了|游了|全程用了|跑出了?|游出了?|骑出了?)[是为:：]?\s?$")


_RESULT_AFTER = re.compile(r"的?(?:成绩|用时|时间)(?:夺|获|打破|刷新|完赛|冲线|排名|位列|晋级)|的成绩")


def _time(m: re.Match[str]) -> str:
    before = _before(m, 6)
    listed = _COLON_SCORE_LIST_BEFORE.search(_before(m, 40))
    if listed:
        before = _before(m, 40)[: listed.start()][-6:]
    if m.group(3) is not None and m.group(5) is None and _RESULT_AFTER.match(_after(m, 6)):
        return _duration(m.group(1), m.group(2), m.group(3))  # round 14: 以2:05:30的成绩 (a result, not a clock)
    if _SCORE_BEFORE.search(before):
        return _ratio_text(m.group(1), m.group(2)) if m.group(3) is None and m.group(5) is None else m.group()
    if m.group(5) is None and _DURATION_BEFORE.search(before):
        if m.group(3) is None and len(m.group(1)) == 2 and m.group(1)[0] == "0":  # 时长03:25: minutes:seconds
            return read_cardinal(m.group(1)) + "分" + read_cardinal(m.group(2)) + "秒"
        return _duration(m.group(1), m.group(2), m.group(3))
    minute_word = not _after(m, 1).startswith("分")  # 7:08分
    if m.group(5) is None:
        return _clock(m.group(1), m.group(2), m.group(3), minute_word=minute_word)
    return _clock(m.group(1), m.group(2), m.group(3)) + _connector(m.group(4)) + _clock(
        m.group(5), m.group(6), m.group(7), minute_word=minute_word
    )


def _unit_slash(m: re.Match[str]) -> str:
    """A slash between two measures: ``10.6g/100mL`` -> 每 (a per-amount: a round 1/10/100/1000 of another unit),
    ``2.4GHz/5GHz`` -> 、 (two measures side by side)."""
    per = m.group(2) in ("1", "10", "100", "1000") and _UNITS[m.group(1)][0] != _UNITS[m.group(3)][0]
    return m.group(1) + ("每" if per else "、")


def _ratio_text(a: str, b: str) -> str:
    return f"{read_cardinal(a)}比{read_cardinal(b)}"


def _ratio(m: re.Match[str]) -> str:
    return _ratio_text(m.group(1), m.group(2))


def _mobile(m: re.Match[str]) -> str:
    prefix = m.group(1) or ""
    spoken = ("加" if prefix.startswith("+") else "") + (read_digits("86") if prefix else "")
    return spoken + read_digits(m.group(2) + m.group(3) + m.group(4), yao=True)


def _digit_groups(m: re.Match[str]) -> str:
    return "".join(read_digits(g, yao=True) for g in m.groups() if g)


# round 15: a bare 110/120 after these is a quantity (限速120, 时速120, 满分120), not the emergency number
_QUANTITY_BEFORE = re.compile(r"(?:限速|时速|车速|速度|限高|限重|满分|总分|得分|考了|售价|定价|只有|仅有|大约)$")


def _service_number(m: re.Match[str]) -> str:
    if len(m.group()) == 5 and _COUNTED_AFTER.match(_after(m, 3)) and not _DIAL_AFTER.search(_after(m, 10)):
        return m.group()  # 热线12000人次: a count
    if _DIAL_BEFORE.search(_before(m, 5)) or _DIAL_AFTER.search(_after(m, 10)):
        return read_digits(m.group(), yao=True)
    if m.group() in _EMERGENCY and not _COUNTED_AFTER.match(_after(m, 3)) and not _COUNTED_BEFORE.search(_before(m, 2)) \
            and not _QUANTITY_BEFORE.search(_before(m, 4)):
        return read_digits(m.group(), yao=True)  # a bare 110/119/120/122 is the emergency number
    return m.group()


def _lottery_balls(m: re.Match[str]) -> str:
    """``03 08 15 22`` -> 零三 零八 十五 二十二: lottery balls, each a two-digit number (a leading zero said)."""
    balls = re.findall(r"[0-9]{2}", m.group(2))
    return m.group(1) + " ".join(("零" + read_digits(b[1])) if b[0] == "0" else read_cardinal(b) for b in balls)


def _id_number(m: re.Match[str]) -> str:
    if len(m.group(3)) <= 3 and _COUNTED_AFTER.match(_after(m, 3)):
        return m.group()  # 身份号码为18位: a count, not a code
    return m.group(1) + m.group(2) + read_digits(re.sub(r"[-\s]", "", m.group(3)), yao=True)


_ID_NEAR = re.compile(rf"(?:{_ID_KEYWORDS}|热线|专线)")  # round 16: 市民热线1999 (热线12000人次 is counted)


def _code_near_keyword(m: re.Match[str]) -> str:
    """A 4+ digit string a few characters after a code keyword (密码，例如246810) and not counted: a code."""
    if _ID_NEAR.search(_before(m, 16)) and not _COUNTED_AFTER.match(_after(m, 3)) \
            and not re.search(rf"(?:{_CURRENCY_ALT})\s?$", _before(m, 4)):  # round 16: 手机卖HK$7999 is a price
        return read_digits(m.group(), yao=True)
    return m.group()


def _latin_code(m: re.Match[str]) -> str:
    """Digits glued to Latin letters: 3+ digits are a code read digit by digit (CA1501, G101, C919)."""
    digits = m.group(2).replace("-", "")
    if re.fullmatch(r"[1-9]00", digits) and not re.match(r"\s?(?:次|航班|号)", _after(m, 3)):
        return m.group(1).rstrip("-") + read_cardinal(digits)  # model names X100, A300: 一百, 三百
    return m.group(1).rstrip("-") + read_digits(digits, yao=True)


def _version(m: re.Match[str]) -> str:
    """1.2.3 / 2.10.1: the first part as a number, later parts digit by digit (一点一零 for .10)."""
    first, *rest = m.group().split(".")
    return "点".join([read_cardinal(first), *(read_digits(p) for p in rest)])


def _money_amount(amount: str) -> str:
    if "." in amount:
        amount = amount.rstrip("0").rstrip(".")
    return amount


# a dollar currency named right before a bare $ (港币$42 -> 港币四十二元, not 美元)
_DOLLAR_NAMED_BEFORE = re.compile(r"(?:港币|港元|新台币|台币|新币|新元|坡币|澳币|澳元|加币|纽币|美金)\s?$")


def _money_prefix(m: re.Match[str]) -> str:
    """``¥12.5`` -> 十二点五元, ``$1.2亿`` -> 一点二亿美元, ``¥85~100`` -> 八十五到一百元 (a range after one sign)."""
    spoken = read_cardinal(_money_amount(m.group("amount")), liang=True)
    if m.group("to"):
        spoken += _connector(m.group("sign")) + read_cardinal(_money_amount(m.group("to")), liang=True)
    currency = _CURRENCIES[m.group("currency")]
    if m.group("currency") == "$" and _DOLLAR_NAMED_BEFORE.search(_before(m, 4)):
        currency = "元"  # round 16: 港币$42, 新台币$350: the currency is named before its sign
    return spoken + (m.group("scale") or "") + currency


def _money_suffix(m: re.Match[str]) -> str:
    return _money_amount(m.group())


def _percent_range(m: re.Match[str]) -> str:
    word = "千分之" if m.group(5) == "‰" else "百分之"
    second = read_cardinal(m.group(4))
    return f"{word}{read_cardinal(m.group(1))}{_connector(m.group(3))}{word if m.group(2) else ''}{second}"


def _percent(m: re.Match[str]) -> str:
    word = "千分之" if m.group(3) == "‰" else "百分之"
    return ("负" if m.group(1) else "") + word + read_cardinal(m.group(2))


_OPERATORS = {"+": "加", "-": "减", "—": "减", "–": "减", "×": "乘", "*": "乘", "x": "乘", "X": "乘", "÷": "除以",
              "/": "除以", "=": "等于"}
_OPERATOR = re.compile(r"\s?([-+×*xX÷/=—–])\s?")


def _expression(m: re.Match[str]) -> str:
    if "=" not in m.group():
        return m.group()
    text = _PROPER_FRACTION.sub(_proper_fraction, m.group())
    return _OPERATOR.sub(lambda o: _OPERATORS[o.group(1)], text)


def _fraction(m: re.Match[str]) -> str:
    numerator, denominator = m.group(1), m.group(2)
    if int(denominator) == 0:
        return m.group()
    return f"{read_cardinal(denominator)}分之{read_cardinal(numerator)}"


def _spaced_fraction(m: re.Match[str]) -> str:
    """``1 / 3`` -> 三分之一 (a proper fraction written with spaces); ``10 / 5`` stays."""
    return _fraction(m) if 0 < int(m.group(1)) < int(m.group(2)) else m.group()


def _fraction_unit(m: re.Match[str]) -> str:
    """``1/2kg`` -> 二分之一公斤, ``3/4L`` -> 四分之三升: a proper fraction of a unit (``140/90``, ``5/3`` stay)."""
    numerator, denominator, unit = int(m.group(1)), int(m.group(2)), m.group(3)
    if not 0 < numerator < denominator:
        return m.group()
    return _fraction(m) + _UNITS[unit][0]


# round 14: a bare ° after a weather word is a temperature (最低温度-2° -> 零下二度; an angle of -30° stays 负)
_WEATHER_BEFORE = re.compile(r"温|气温|低温|高温|最低|最高|体感|降至|零度|天气|冷")


def _unit(m: re.Match[str]) -> str:
    sign, number, scale, unit = m.group(1), m.group(2), m.group(3) or "", m.group(4)
    reading, liang = _UNITS[unit]
    if len(unit) == 1 and unit.isalpha() and re.search(r"[A-Za-z]\s?$", _before(m, 2)):
        return m.group()  # part of a Latin name: "iPhone 5s"
    if unit == "s" and re.fullmatch(r"1[0-9]{2}0|20[0-9]0", number) and not sign and not scale:
        return read_digits(number) + "年代"  # 1990s
    spoken = read_cardinal(number, liang=liang) + scale
    if sign:
        below = unit in _TEMPERATURES or (unit == "°" and _WEATHER_BEFORE.search(_before(m, 12)))
        spoken = ("零下" if below else "负") + spoken
    for per in (m.group(5), m.group(6)):  # 35µg/m³ -> 三十五微克每立方米, 250ml/盒, 52ml/kg/min
        if per:
            reading += "每" + _per_reading(per)
    return spoken + reading


def _per_reading(unit: str) -> str:
    """The reading of a unit after a slash (``/kg`` -> 千克, ``/L`` -> 升; a Chinese word stays itself)."""
    return _PER_READINGS.get(unit) or (_UNITS[unit][0] if unit in _UNITS else unit)


# an 11-digit string that can be a mobile number; other strings of 11-12 digits are amounts (一千亿...): 账户余额
# 100200300400元, 共有23456789012人 (longer ones, barcodes, card and id numbers, stay digit by digit)
_MOBILE_SHAPE = re.compile(r"1[3-9][0-9]{9}")


def _number(m: re.Match[str]) -> str:
    parts = m.group().split(".")
    integer = parts[0]
    if len(parts) > 2:  # version numbers: 1.2.3
        return "点".join([read_cardinal(integer), *(read_digits(p) for p in parts[1:])])
    if len(integer) > 1 and integer[0] == "0" and len(parts) == 1:
        return read_digits(integer, yao=True)  # codes with leading zeros: 007
    if len(integer) >= 11 and (len(integer) > 12 or _MOBILE_SHAPE.fullmatch(integer)) and (
        len(parts) == 1 and integer not in _GROUPED.get()  # 1,234,567,890,123元: an amount, written grouped
    ):
        return read_digits(integer, yao=True)  # a mobile number (11 digits, 13-19...), ids, card numbers
    return read_cardinal(m.group())


# the scores listed before this one (以6-3、6-4: the first pair's cue holds for the next)
_SCORE_LIST_BEFORE = re.compile(r"(?:[0-9]{1,3}\s?[-–—]\s?[0-9]{1,3}、\s?){1,4}$")
_SCORE_VERBS = re.compile(r"^\s?(?:击败|战胜|胜|负|获胜|取胜|险胜|力克|大胜|完胜|逆转|告负|不敌|横扫|落败|送走|拿下|带走|赢|战平|打平|逼平|战成|领先|落后|握手言和|言和)")


def _score(m: re.Match[str]) -> str:
    """``主场3-2击败`` / ``比分为2-0`` / ``以6-3、6-4``: a score read with 比 (a dash elsewhere is a range)."""
    after = _after(m, 3)
    before = _before(m, 40)
    listed = _SCORE_LIST_BEFORE.search(before)
    if listed:
        before = before[: listed.start()]
    if _SCORE_VERBS.match(_after(m, 5)) or (_SCORE_BEFORE.search(before[-6:]) and not _COUNTED_AFTER.match(after)):
        return _ratio_text(m.group(1), m.group(2))
    return m.group()


def _power(m: re.Match[str]) -> str:
    """``10^8`` -> 十的八次方, ``10^-3`` -> 十的负三次方 (exponents come as ``^N``; see symbols_unicode)."""
    exponent = m.group(2)
    sign = "负" if exponent.startswith("-") else ""
    unit = _UNITS[m.group(3)][0] if m.group(3) else ("每" + _per_reading(m.group(4)) if m.group(4) else "")
    if exponent == "2" and m.group(1) != "10":
        return f"{read_cardinal(m.group(1))}的平方{unit}"  # 3² -> 三的平方 (10² stays 十的二次方, as in 10⁸)
    return f"{read_cardinal(m.group(1))}的{sign}{read_cardinal(exponent.lstrip('-'))}次方{unit}"


def _thousands_k(m: re.Match[str]) -> str:
    """Chat shorthand: ``2k多`` -> 两千多 (k = thousand)."""
    value = round(float(m.group(1)) * 1000)
    return read_cardinal(str(value), liang=True)


_POWER_WORDS = re.compile(r"功率|充电|快充|瓦|输出|输入|电源|灯")


def _ten_thousands_w(m: re.Match[str]) -> str:
    """Chat shorthand: ``1w步`` -> 一万步, ``100w`` -> 一百万 (w = 万); after a power word it is watts (功率5w: 五瓦)."""
    if _POWER_WORDS.search(_before(m, 6)):
        return read_cardinal(m.group(1), liang=True) + "瓦"
    return read_cardinal(m.group(1), liang=True) + "万"


def _international_phone(m: re.Match[str]) -> str:
    """``+86 21 6888 8888``, ``+1-800-275-2273``: 加 and every digit (1 as 幺)."""
    return "加" + read_digits(re.sub(r"[^0-9]", "", m.group()), yao=True)


_EVENT_AFTER = (
    "假期|小长假|长假|黄金周|晚会|劳动节|国庆|事变|事件|惨案|运动|大促|促销|购物节|狂欢节|纪念日|当天|期间|前夕|"
    "妇女节|儿童节|青年节|建军节|植树节|消费者权益日"  # round 15: 3.8妇女节, 6/1儿童节
)


def _event_date(m: re.Match[str]) -> str:
    """``5.1假期`` -> 五一, ``9.18事变`` -> 九一八, ``10.1黄金周`` -> 十一: a month.day naming an event, read as its name."""
    month, day = m.group(1), m.group(2)
    if month == day and month in ("11", "12"):
        return ("" if _before(m, 1) == "双" else "双") + read_cardinal(month)
    if (month, day) == ("10", "1"):
        return "十一"
    return read_digits(month + day)


_YEAR_LABEL = (
    "赛季|财年|学年|届|款|版|级(?=新生|学生|本科|研究生|硕士|博士|校友|同学|学员)|"
    "冬奥会|奥运会|夏奥会|亚运会|世界杯|欧洲杯|世博会|全运会|春晚"
)


def _year_label(m: re.Match[str]) -> str:
    """``2023赛季``, ``2024款``, ``2022-2023赛季``, ``北京2022冬奥会``: a year naming a season or edition, digit by digit
    (``2000款产品`` stays a count)."""
    first, sign, second, label = m.group(1), m.group(2), m.group(3), m.group(4)
    if _before(m, 1) == "第" or (second is None and label in ("款", "版", "届") and first.endswith("00")):
        return m.group()
    return read_digits(first) + (_connector(sign) + read_digits(second) if second else "")


_NOT_A_YEAR_BEFORE = re.compile(r"(?:第|了|近|过去|约|这|那|前|后|多|每|满|有|共|整|用|花|达|超过|历经|经过|持续|长达|将近|至少|最近)$")


def _short_year(m: re.Match[str]) -> str:
    """``23年的时候``, ``24年底``, ``23年5月``: a two-digit year, digit by digit (``近10年底`` stays a span)."""
    return m.group() if _NOT_A_YEAR_BEFORE.search(_before(m, 4)) else read_digits(m.group())


# round 13 (issue 12): ISO codes of a currency pair (USD/CNY → USD兑CNY) and exchange suffixes of a stock code
_CURRENCY_CODES = "USD|CNY|CNH|EUR|JPY|GBP|HKD|AUD|CAD|CHF|NZD|SGD|KRW|RUB|INR|BTC|ETH|USDT"
_EXCHANGE_SUFFIXES = "SH|SZ|SS|BJ|HK|US"
# indices whose number is said digit by digit (沪深300, 标普500, 科创50 are counts: 三百, 五百, 五十)
_DIGIT_INDEX_NAMES = "日经"


def _season_years(m: re.Match[str]) -> str:
    """``2024-25赛季``, ``2023-24财年``: a season spanning two years, the second shortened to two digits, digit by
    digit (only when it is the next year: ``2024-30赛季`` is left to the other rules)."""
    first, sign, second = m.group(1), m.group(2), m.group(3)
    if (int(first[2:]) + 1) % 100 != int(second):
        return m.group()
    return read_digits(first) + _connector(sign) + read_digits(second)


def _race_time(m: re.Match[str]) -> str:
    """``1:45.32`` -> 一分四十五秒三二 (minutes, seconds, hundredths read digit by digit)."""
    seconds = m.group(2)
    return (read_cardinal(m.group(1)) + "分" + ("零" if seconds[0] == "0" and seconds != "00" else "")
            + read_cardinal(seconds) + "秒" + read_digits(m.group(3)))


def _arc(m: re.Match[str]) -> str:
    """``116°23′`` -> 一百一十六度二十三分 (degrees, minutes and seconds of arc)."""
    spoken = read_cardinal(m.group(1)) + "度" + read_cardinal(m.group(2)) + "分"
    return spoken + (read_cardinal(m.group(3)) + "秒" if m.group(3) else "")


def _pace(m: re.Match[str]) -> str:
    """``5'30"`` -> 五分三十秒 (minutes and seconds marks)."""
    return read_cardinal(m.group(1)) + "分" + read_cardinal(m.group(2)) + "秒"


# numbers of chat slang, said digit by digit when nothing counts them (今天520, 太666了, 哈哈2333)
_SLANG_NUMBERS = "5201314|1314|520|2333+|666+|233|886"
# round 14: 今天是520 (the day's name after 今天是, not a count after 是); 233 beside laughter; 886 (拜拜了) closing a line
_SLANG_DAY_BEFORE = re.compile(r"(?:今天|明天|后天|昨天|今日|明日|又)(?:就|也|又)?是$")
_LAUGH = "哈呵嘿嘻笑"
_SIGN_OFF_AFTER = re.compile(r"(?:[!！~～。，,\s]|$|啦|了|哦|喽|咯|哟)")


def _slang_number(m: re.Match[str]) -> str:
    """``今天520`` -> 五二零, ``太666了`` -> 六六六; a counted one stays a number (520元, 花了520, 第666)."""
    number, before, after = m.group(), _before(m, 4), _after(m, 3)
    if _COUNTED_AFTER.match(after):
        return number
    if number == "233" and not (before[-1:] in _LAUGH or after[:1] in _LAUGH):
        return number
    if number == "886" and not (_SIGN_OFF_AFTER.match(after) and not re.search(r"[0-9]$", before)):
        return number
    if _COUNTED_BEFORE.search(before[-2:]) and not _SLANG_DAY_BEFORE.search(before):
        return number
    return read_digits(number)


_LIST_AFTER_ORDINAL = re.compile(r"第[0-9一二三四五六七八九十百]{1,4}[、，,和与及至到]$")


# round 15: a building or a seat row numbered 2 (2栋3单元, 2排5座), not two of them
_NUMBERED_AFTER = re.compile(
    r"(?:栋|幢)\s?[0-9]{1,2}\s?(?:单元|号)|排\s?[0-9]{1,2}\s?[座号]"
    r"|座\s?[0-9]{1,2}\s?[楼层]"  # round 16: 2座11楼 (tower 2)
)
# round 16: a basement level (地下2层, 负2层: the second level down)
_LEVEL_BEFORE = re.compile(r"(?:地下|负)$")


def _two(m: re.Match[str]) -> str:
    """A bare 2 before a measure word: 两 (两个, 两室两厅, 两三天), but 二 in a list after an ordinal (第1、2名)
    and as a number (2栋3单元, 2排5座, 2座11楼, 地下2层)."""
    if _LIST_AFTER_ORDINAL.search(_before(m, 8)) or _NUMBERED_AFTER.match(m.string, m.end()):
        return "二"
    if _LEVEL_BEFORE.search(_before(m, 2)) and re.match(r"\s?[层楼]", _after(m, 2)):
        return "二"
    return "两"


_PROPER_FRACTION = re.compile(r"(?<![0-9.])([0-9]+)/([0-9]+)(?![0-9.])")


def _proper_fraction(m: re.Match[str]) -> str:
    """Inside arithmetic, ``1/3`` (numerator below denominator) is a fraction; ``6/2`` stays a division."""
    return _fraction(m) if 0 < int(m.group(1)) < int(m.group(2)) else m.group()


def _blood_pressure(high: str, low: str) -> str:
    """``140/90mmHg`` -> 一百四十、九十毫米汞柱: two pressures, not a fraction."""
    return read_cardinal(high) + "、" + read_cardinal(low) + "毫米汞柱"


def _variable_minus(m: re.Match[str]) -> str:
    """``2x-3=x+6``: a minus after a one-letter variable in an equation (elsewhere a hyphen: COVID-19)."""
    return "减" if "=" in m.string else m.group()


_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"


def _ipv4(m: re.Match[str]) -> str:
    """192.168.0.1 -> 幺九二点幺六八点零点幺 (each part digit by digit, 1 as 幺; not a version after 版本号/V)."""
    if re.search(r"(?:版本号?|版|[Vv]|build|Build)[是为:：]?\s?$", _before(m, 6)):
        return m.group()
    return "点".join(read_digits(part, yao=True) for part in m.group().split("."))


def _status_code(m: re.Match[str]) -> str:
    """``返回404`` -> 四零四 (an HTTP status code, digit by digit); ``返回100元`` is a sum."""
    if m.group(2) and _COUNTED_AFTER.match(_after(m, 3)):
        return m.group()
    return read_digits(m.group(1) or m.group(2))


_FACTOR_AFTER = re.compile(r"\s?(?:播放|速度|倍速|变焦|光学|放大|慢放|快进|加速)")
_FACTOR_BEFORE = re.compile(r"倍速|速度|变焦|放大|快进|播放")


def _times_factor(m: re.Match[str]) -> str:
    """``1.5x播放速度`` -> 一点五倍, ``倍速可选0.75x、2x`` -> 两倍: a factor near a speed or zoom word."""
    if not (_FACTOR_AFTER.match(_after(m, 4)) or _FACTOR_BEFORE.search(_before(m, 16))):
        return m.group()
    return read_cardinal(m.group(1), liang=True) + "倍"


def _e_notation(m: re.Match[str]) -> str:
    """``1e-3`` -> 一乘十的负三次方, ``3E8`` -> 三乘十的八次方."""
    sign = "负" if m.group(2) == "-" else ""
    return f"{read_cardinal(m.group(1))}乘十的{sign}{read_cardinal(m.group(3))}次方"


def _letter_power(m: re.Match[str]) -> str:
    """``n^2`` -> n的平方, ``x^3`` -> x的三次方, ``a^-1`` -> a的负一次方."""
    exponent = m.group(2)
    if exponent == "2":
        return f"{m.group(1)}的平方"
    sign = "负" if exponent.startswith("-") else ""
    return f"{m.group(1)}的{sign}{read_cardinal(exponent.lstrip('-'))}次方"


def _port(m: re.Match[str]) -> str:
    """端口8080 -> 八零八零, 端口443 -> 四四三, 端口22 -> 二十二 (a port of 3+ digits is a code)."""
    n = m.group("n")
    return m.group("pre") + (read_cardinal(n) if len(n) <= 2 else read_digits(n, yao=True))


def _era_year(m: re.Match[str]) -> str:
    """公元79年 -> 公元七十九年, 公元前3000年 -> 公元前三千年 (round hundreds before Christ), 公元960年 -> 九六零."""
    return _era_reading(m.group(1), m.group(2))


def _era_reading(era: str, n: str) -> str:
    """``("公元前", "500")`` -> 公元前五百 (see :func:`_era_year`)."""
    if len(n) <= 2 or (era.endswith("前") and len(n) >= 3 and n.endswith("00")):
        return era + read_cardinal(n)
    return era + read_digits(n)


_ERA_BC = r"(?i:bce|bc|b\.c\.e\.|b\.c\.)"
_ERA_AD = r"(?i:ad|a\.d\.)"


def _era_word(marker: str) -> str:
    """公元前 for BC/BCE in any casing, else 公元."""
    return "公元前" if marker.lower().startswith("b") else "公元"


def _era_after(m: re.Match[str]) -> str:
    """``500 BC`` / ``323bc`` / ``1066 ad`` / ``79 CE`` -> 公元前/公元 + the year (:func:`_era_reading`) + 年; a plain
    lowercase marker after one or two digits is left alone (12bc, 3ad: more often a code than a year)."""
    number, marker = m.group(1), m.group(2)
    if marker.islower() and "." not in marker and len(number) < 3:
        return m.group()
    return _era_reading(_era_word(marker), number) + "年"


def _resolution(m: re.Match[str]) -> str:
    """1920×1080 after 分辨率 (or before 像素/分辨率): 一九二零乘一零八零."""
    if "分辨率" not in _before(m, 8) and not re.match(r"\s?(?:像素|分辨率|的分辨率)", _after(m, 5)):
        return m.group()
    return f"{read_digits(m.group(1))}乘{read_digits(m.group(2))}"


def _time_signature(m: re.Match[str]) -> str:
    """``3/4拍`` -> 四三拍, ``6/8拍`` -> 八六拍: a time signature, said denominator first (the school reading)."""
    return read_digits(m.group(2)) + read_digits(m.group(1))


def _runway(m: re.Match[str]) -> str:
    """``36R跑道`` -> 三六R, ``跑道09L`` -> 零九L: a runway number said digit by digit, as air traffic control does."""
    return read_digits(m.group("n") or m.group("n2")) + (m.group("side") or m.group("side2") or "")


_PER_CHAIN_UNIT = re.compile(rf"/(?:({_UNIT_ALT})(?![A-Za-z²³]))?")


def _per_chain(m: re.Match[str]) -> str:
    """``二点八元/m²/月`` -> 二点八元每平方米每月: a Chinese measure per Latin units (and per Chinese words)."""
    return m.group(1) + _PER_CHAIN_UNIT.sub(lambda u: "每" + (_per_reading(u.group(1)) if u.group(1) else ""), m.group(2))


# game stats whose + is a bonus, said 加 (暴击伤害+50%, 攻击力+20%); a statistic's + elsewhere is 正 (同比+12.5%)
_BONUS_STATS = re.compile(r"(?:伤害|攻击力?|防御力?|暴击率?|攻速|移速|经验值?|生命值?|血量|护甲|法强|魔抗|闪避|命中率?|治疗量?|金币|掉落率?)\s?$")


def _signed_percent(m: re.Match[str]) -> str:
    """The + of a signed percentage: 正 on a statistic (涨跌幅+3.25%), 加 on a game bonus (暴击伤害+50%)."""
    return "加" if _BONUS_STATS.search(_before(m, 5)) else "正"


def _book_number(m: re.Match[str]) -> str:
    """``ISBN 978-7-5447-6543-2`` -> 九七八七五四四七六五四三二: digits one by one, dashes not said (check letter X kept)."""
    last = m.group(3)
    return m.group(1) + read_digits(m.group(2).replace("-", ""), yao=True) + (
        read_digits(last, yao=True) if last.isdigit() else last)


def _sub(pattern: str, replace: Replacement) -> Rule:
    return pattern, replace


_RULES: list[Rule] = [
    # round 8 (issue 12): web and e-mail addresses, said with 点 and digit by digit
    # round 16: localhost:3000, 192.168.1.1:8080, example.com:443: a host's port, 冒号 and its digits one by one
    _sub(rf"(?<![A-Za-z0-9.])(localhost|(?:[0-9]{{1,3}}\.){{3}}[0-9]{{1,3}}|(?:[A-Za-z0-9-]+\.)+(?:{_WEB_TLD}))"
         r":([0-9]{2,5})(?![0-9])", lambda m: m.group(1) + "冒号" + read_digits(m.group(2), yao=True)),
    _sub(_WEB_ADDRESS, _web_address),
    # round 16: config.yaml, main.py, requirements.txt: a file name, its dot said 点
    _sub(rf"(?<![A-Za-z0-9_./@-])([A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]*)\.({_FILE_EXTENSIONS})(?![A-Za-z0-9])",
         r"\1点\2"),
    # round 16: /help (a chat command) after 输入 or at the start, 斜杠
    _sub(r"(?:(?<=输入|键入|发送|使用|执行|运行)|^)\s?/(?=[a-z]{2,}(?![A-Za-z]*[/.]))", "斜杠"),
    # round 16: 15/F, G/F (Hong Kong floors: 十五楼, 地下); A/B测试, I/O: two letters side by side
    _sub(r"(?<![A-Za-z0-9/])G/F(?![A-Za-z])", "地下"),
    _sub(r"(?<![0-9./])([0-9]{1,3})/F(?![A-Za-z])", r"\1楼"),
    _sub(r"(?<![A-Za-z/])([A-Z])/([A-Z])(?![A-Za-z/])", r"\1 \2"),
    # round 16: f(x), P(A): a one-letter function of a one-letter argument, said f x
    _sub(r"(?<![A-Za-z])([A-Za-z])\(([A-Za-z])\)", r"\1 \2"),
    # round 14 (issue 12): ISBN 978-7-5447-6543-2, ISSN 1002-0829: a book or serial number, digit by digit
    _sub(r"(?<=ISBN|ISSN)((?:号|编号)?[是为:：]?\s?)([0-9][0-9-]{7,16})([0-9Xx])(?![0-9])", _book_number),
    # x86, x64 (instruction sets), i7-13700H / R7-7840HS (processor models): the numbers digit by digit
    _sub(r"(?<![A-Za-z0-9])([xX])(86|64)(?![0-9])", lambda m: m.group(1) + read_digits(m.group(2))),
    # Windows 22H2, 23H2: a release code digit by digit
    _sub(r"(?<![0-9A-Za-z.])([0-9]{2})H([12])(?![0-9A-Za-z])",
         lambda m: read_digits(m.group(1)) + "H" + read_digits(m.group(2))),
    _sub(r"(?<![A-Za-z0-9])([iIrR])([3579])[-\s]([0-9]{4,5})(?=[A-Z]{0,3}(?![a-z0-9]))",
         lambda m: m.group(1) + read_cardinal(m.group(2)) + read_digits(m.group(3))),
    # 歼-20, 东风-41, 运-20运输机: the dash of a Chinese military designation is not said (not a minus)
    _sub(r"(?:(?<=歼)|(?<=轰)|(?<=东风)|(?<=红旗)|(?<=鹰击)|(?<=巨浪)|(?<=长剑)|(?<=霹雳)|(?<=翼龙)|(?<=彩虹))\s?[-–](?=[0-9])"
         r"|(?:(?<=运)|(?<=直))[-–](?=[0-9]{1,2}[A-Z]?\s?(?:运输机|直升机|武装直升机|战机|型|首飞|大型))", ""),
    _sub(r"(?<=[A-Za-z])\.(?=js(?![A-Za-z]))", " "),  # Node.js, Vue.js: the dot is not said
    # round 10 (issue 12): @小明, @TechCrunch: a mention on social media is said 艾特 (an e-mail's @ is read above)
    _sub(r"(?<![A-Za-z0-9._%+\-])@\s?(?=[\u4e00-\u9fffA-Za-z0-9_])", "艾特"),
    # round 13 (issue 12): financial news. USD/CNY, EUR/USD: a currency pair's slash is said 兑
    _sub(rf"(?<![A-Za-z/])({_CURRENCY_CODES})\s?/\s?({_CURRENCY_CODES})(?![A-Za-z/])", r"\1兑\2"),
    # 300750.SZ, 00700.HK: a stock code with its exchange suffix, digit by digit, the dot said 点
    _sub(rf"(?<![0-9.A-Za-z])([0-9]{{4,6}})\.({_EXCHANGE_SUFFIXES})(?![A-Za-z0-9])",
         lambda m: read_digits(m.group(1), yao=True) + "点" + m.group(2)),
    # 10BP, 25bp: basis points said 个基点 (BP公司, a BP after no number, stays)
    _sub(r"(?<=[0-9])\s?(?:BP|bp|bps|BPS)(?![A-Za-z])", "个基点"),
    _sub(rf"(?<=(?:{_DIGIT_INDEX_NAMES}))\s?225(?![0-9.])", "二二五"),  # 日经225
    # 2024-25赛季, 2023/24财年: a season over two years, the second shortened
    _sub(r"(?<![0-9.])((?:19|20)[0-9]{2})(\s?[-~—–/]\s?)([0-9]{2})(?![0-9.])(?=\s?(?:赛季|财年|年度|学年))",
         _season_years),
    # names that are numbers said digit by digit: Office 365, Xbox 360, 台北101 (365天, 360度 stay counts)
    _sub(r"(?<=[A-Za-z] )(36[05])(?![0-9.]|\s?[度天日个元%])", lambda m: read_digits(m.group(1))),
    _sub(r"(?<=台北)101(?![0-9.])", "一零一"),
    # 1,234,567 → 1234567
    _sub(r"(?<![0-9,.])[0-9]{1,3}(?:,[0-9]{3})+(?![0-9,])", _thousands),
    # round 6 (issue 12), technical text: IPv4 addresses, ports, video modes, resolutions, status codes
    _sub(rf"(?<![0-9.])(?:{_OCTET}\.){{3}}{_OCTET}(?![0-9]|\.[0-9])", _ipv4),
    _sub(r"(?P<pre>端口(?:号)?(?:[是为:：]|改成|改为|设为|设成|设置为|换成)?\s?)(?P<n>[0-9]{2,5})(?![0-9.])", _port),
    _sub(r"(?<![0-9.])(?P<pre>)(?P<n>[0-9]{3,5})(?=\s?(?:号)?端口)", _port),
    _sub(r"(?<![0-9.])(480|576|720|1080|1440|2160|4320)(?=[PpIi](?![A-Za-z]))", lambda m: read_digits(m.group())),
    _sub(r"(?<![0-9.])([0-9]{3,4})\s?[×xX*]\s?([0-9]{3,4})(?![0-9.])", _resolution),
    # round 16: 返回404, 429错误: a status code after 返回 or before 错误/报错 (返回100元 stays a sum)
    _sub(r"(?<![0-9.])([1-5][0-9]{2})(?=\s?(?:错误|报错|状态码))|(?<=返回)([1-5][0-9]{2})(?![0-9.])", _status_code),
    _sub(r"(?:(?<=HTTP)|(?<=HTTPS)|(?<=状态码)|(?<=错误码))([是为:：]?\s?)([1-5][0-9]{2})(?![0-9.])",
         lambda m: m.group(1) + read_digits(m.group(2))),
    _sub(r"(?<![A-Za-z])C(89|90|99)(?![0-9A-Za-z])", lambda m: "C" + read_digits(m.group(1))),  # C99标准
    _sub(r"(?<![0-9.])([0-9]{1,3})\.[xX](?![A-Za-z])", lambda m: read_cardinal(m.group(1)) + "点x"),  # 2.x版本
    # 国家统计局（2024）: a year alone in brackets after a name (a source or a date)
    _sub(r"(?<=[\u4e00-\u9fff][（(])((?:19|20)[0-9]{2})(?=[)）])", lambda m: read_digits(m.group(1))),
    # round 15: （2023）沪02民终4567号: the year in brackets that opens a case number (at the start of a line too)
    _sub(r"(?<![0-9A-Za-z])(?<=[（(])((?:19|20)[0-9]{2})(?=[)）]\s?[\u4e00-\u9fff]{1,6}[0-9]{0,6}[\u4e00-\u9fff]{0,6}[0-9]+\s?号)",
         lambda m: read_digits(m.group(1))),
    # round 15: 985、211 (the university programmes), 211工程, 985高校: names said digit by digit, 1 as 一
    _sub(r"(?<![0-9.])(?:985|211)(?=\s?(?:[、/和或与及]\s?(?:985|211)|工程|高校|院校|大学|名校|学校|双料|学历|毕业))"
         r"|(?<=985[、/和或与及])211(?![0-9.])|(?<=985)\s?211(?![0-9.])|(?<=211[、/和或与及])985(?![0-9.])",
         lambda m: read_digits(m.group().strip())),
    # round 15: LPR-20BP, LPR+10BP: a spread over the loan prime rate, said 减/加
    _sub(r"(?<=LPR)\s?([-–+])\s?(?=[0-9])", lambda m: "加" if m.group(1) == "+" else "减"),
    # 5.1假期, 3.15晚会, 勿忘9.18: a month.day naming an event
    _sub(rf"(?<![0-9.])(1[0-2]|[1-9])\.([1-9]|[12][0-9]|3[01])(?![0-9.])(?=\s?(?:{_EVENT_AFTER}))", _event_date),
    _sub(r"(?<=勿忘|铭记|纪念)(1[0-2]|[1-9])\.([1-9]|[12][0-9]|3[01])(?![0-9.])", _event_date),
    _sub(rf"(?<![0-9./])(1[0-2]|[1-9])/([1-9]|[12][0-9]|3[01])(?![0-9./])(?=\s?(?:{_EVENT_AFTER}))", _event_date),
    # round 11 (issue 12): 3·15晚会, 5·12汶川地震, 9·11: a month and day joined by a middle dot name an event
    _sub(r"(?<![0-9.·A-Za-z])(1[0-2]|[1-9])·([1-9]|[12][0-9]|3[01])(?![0-9.·])", _event_date),
    # 〔2023〕5号, [2024]: a year in the brackets of a document number
    _sub(r"(?<=[〔\[【])\s?((?:19|20)[0-9]{2})\s?(?=[〕\]】])", lambda m: read_digits(m.group(1))),
    # round 15: 生产日期：20240312 -> 2024年3月12日: eight digits of a date after a date label
    _sub(r"(?<=日期|日至|期至|效期|生日)([是为:：]?\s?)((?:19|20)[0-9]{2})(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])(?![0-9])",
         lambda m: f"{m.group(1)}{m.group(2)}年{int(m.group(3))}月{int(m.group(4))}日"),
    # 2024-03-15, 2024/3/15, 2024.3.15, 2024·3·15 (issue 24) → 2024年3月15日 (read by the year/month/day rules below)
    _sub(r"(?<![0-9.·])([0-9]{4})([-/.·])([0-9]{1,2})\2([0-9]{1,2})(?![0-9])", _date),
    # round 16: 20/5/2024, 31.12.2025: the year last (Hong Kong, Singapore), read year, month, day
    _sub(r"(?<![0-9./-])([0-9]{1,2})([/.])([0-9]{1,2})\2((?:19|20)[0-9]{2})(?![0-9]|[./-][0-9])", _date_year_last),
    # issue 24: 15-08-2019 with dashes, day and month of two digits each (取件码8-3-2047 is a code)
    _sub(r"(?<![0-9./-])([0-9]{2})(-)([0-9]{2})-((?:19|20)[0-9]{2})(?![0-9]|[./-][0-9])", _date_year_last),
    # issue 24: 2008/08, 03/2027: a year and month with a slash, no cue needed (a fraction is not written so);
    # not a season (2011/12赛季), a sum (2048/4=512) or a shutter speed (1/2000s: a one-digit month is not taken)
    _sub(r"(?<![0-9./-])((?:19|20)[0-9]{2})/(0?[1-9]|1[0-2])(?![0-9]|[./][0-9]|\s?[=＝]|\s?(?:赛季|财年|年度|学年|季))",
         lambda m: f"{m.group(1)}年{int(m.group(2))}月"),
    _sub(r"(?<![0-9./-])(0[1-9]|1[0-2])/((?:19|20)[0-9]{2})(?![0-9]|[./][0-9]|\s?[=＝]|\s?(?:秒|[A-Za-z]))",
         lambda m: f"{m.group(2)}年{int(m.group(1))}月"),
    # issue 24: 12/05/98, 98/12/05, 09/3/8: a slash date with a two-digit year (said 九八年, digit by digit)
    _sub(r"(?<![0-9./-])([0-9]{1,2})/([0-9]{1,2})/([0-9]{1,2})(?![0-9]|[./][0-9])", _date_two_digit_year),
    # issue 24: 500 BC, AD 79, 79 CE: the era said as 公元前/公元 before the year (read by _era_year below); in
    # any casing (323bc, 1066ad, 753 b.c.; plain lowercase after three or four digits only), and after a date
    # (44年3月15日BC -> 公元前44年3月15日)
    _sub(rf"(?<![0-9.])([0-9]{{1,4}})年([0-9]{{1,2}}月(?:[0-9]{{1,2}}[日号])?)\s?({_ERA_BC}|{_ERA_AD})(?![A-Za-z])",
         lambda m: f"{_era_word(m.group(3))}{m.group(1)}年{m.group(2)}"),
    _sub(rf"(?<![0-9.])([0-9]{{1,4}})\s?({_ERA_BC})(?![A-Za-z])(?:\s?年)?", _era_after),
    _sub(r"(?<![A-Za-z])(?:AD|A\.D\.|a\.d\.)\s?([0-9]{1,4})(?![0-9.])(?:\s?年)?", lambda m: _era_reading("公元", m.group(1)) + "年"),
    _sub(rf"(?<![0-9.])([0-9]{{1,4}})\s?({_ERA_AD}|CE|C\.E\.)(?![A-Za-z])(?:\s?年)?", _era_after),
    # issue 24: -百分之五: a minus sign before a percentage written in words is 负
    _sub(r"(?<![0-9A-Za-z%％])[-−－]\s?(?=[百千]分之)", "负"),
    # round 16: 9:00a.m., 10:30am, 9am, 7:30pm, 12:15 PM: the half of the day said before the time (issue 24:
    # also after seconds, 09:15:30am)
    _sub(r"(?<![0-9.:])(?<![0-9][:：])([01]?[0-9])((?:[:：][0-5][0-9]){0,2})\s?([aApP])\.?[mM]\.?(?![A-Za-z])", _am_pm),
    _sub(r"(?<=点)\s?[-~—–]\s?(?=(?:上午|下午|晚上|中午|凌晨)[0-9])", "到"),  # 上午9点-下午6点
    # round 16: 5月20日（一）: the weekday in brackets after a date, said 星期一
    _sub(r"(?<=[0-9][日号])\s?[（(]([一二三四五六日天])[)）]", r"星期\1"),
    # round 16: 请于113年5月31日前: a year of the Republic (民国) in an instruction, read as a number
    _sub(r"(?:(?<=请于)|(?<=须于)|(?<=需于)|(?<=应于)|(?<=务必于))(\s?)(1[01][0-9])(?=\s?年\s?[0-9]{1,2}\s?月)",
         lambda m: m.group(1) + read_cardinal(m.group(2))),
    _sub(r"(?<![0-9.\-/])(0[1-9]|1[0-2])[-/.](0[1-9]|[12][0-9]|3[01])(?=\s(?:[01]?[0-9]|2[0-3])[:：][0-5][0-9])",
         _month_day),  # 03-15 14:22
    _sub(r"(?<![0-9./])(1[0-2]|0?[1-9])/(3[01]|[12][0-9]|0?[1-9])(?![0-9./])", _slash_month_day),  # round 12: 12/11送达
    _sub(rf"(?<![0-9.])((?:19|20)[0-9]{{2}})\.(0[1-9]|1[0-2])(?:(\s?[-~—–至到]\s?)((?:19|20)[0-9]{{2}})\.(0[1-9]|1[0-2]))?"
         rf"(?![0-9]|\.[0-9]|\s?(?:{_MEASURES}|[A-Za-z%‰]))", _year_month),  # 有效期至2026.09, 2019.09-2023.06
    # round 15: 有效期至2025-12, 截止2024/06: a year and month with a dash or slash after a date cue
    _sub(r"(?<![0-9.])((?:19|20)[0-9]{2})[-/](0[1-9]|1[0-2])(?![0-9]|[-/.][0-9]|\s?[-~—–至到]\s?[0-9])",
         _year_month_cued),
    _sub(r"(?<![0-9.])([0-9]{4})(\s?" + _RANGE + r"\s?)([0-9]{4})(?=\s?年)", _year_range),
    _sub(r"(?<=[（(])([12][0-9]{3})(\s?[-~—–至到]\s?)([12][0-9]{3})(?=[)）])", _year_range),  # （1939-1945）
    _sub(r"(?<=年)\s?[-~—–]\s?(?=(?:公元前|公元|前)?[0-9]{3,4}\s?年)", "到"),  # 618年—907年, 前259年—前210年
    _sub(r"(?<=[（(])([1-9][0-9]{2})(\s?[-~—–]\s?)([1-9][0-9]{2})(?=\s?年)", _year_range),  # （755—763年）
    _sub(r"(?<=[（(—–~到至从于]前)[1-9][0-9]{2}(?=\s?年)", lambda m: read_digits(m.group())),  # （前259年
    # a 3-digit year after 于/从/（/a dash (于618年, 618年—907年); not a span of years (近300年来, 300年前)
    _sub(r"(?<=[（(—–~到至从于])\s?[1-9][0-9]{2}(?=\s?年(?![来间多左以后之内前代里中级半度]))",
         lambda m: read_digits(m.group().strip())),
    _sub(r"(?<![0-9.])618(?=\s?(?:年中|大促|购物|狂欢|活动|当天|期间|促销))", "六一八"),
    _sub(rf"(?<![0-9.])(1[6-9][0-9]{{2}}|20[0-9]{{2}})(?:(\s?[-~—–至到]\s?)(1[6-9][0-9]{{2}}|20[0-9]{{2}}))?"
         rf"(?=\s?({_YEAR_LABEL}))", _year_label),  # 2023赛季, 2022-2023赛季, 2024款, 北京2022冬奥会
    _sub(r"(?<![0-9.])[0-9]{2}(?=年(?:底|初|末|的时候|上半年|下半年|[0-9]{1,2}\s?月))", _short_year),  # 23年的时候
    _sub(r"(?<![0-9.])[0-9]{4}(?=\s?年)", _year),
    _sub(r"(?<![0-9.])([0-9]{1,2})\s?[-~—–]\s?(?=[0-9]{1,2}\s?[月日号])", r"\1到"),
    # 5月1日-5月5日, 6月-8月, 2023年12月-2024年3月
    _sub(r"(?<=[日号月])\s?[-~—–]\s?(?=(?:[零一二三四五六七八九]{4}\s?年\s?)?[0-9]{1,2}\s?[月日号])", "到"),
    _sub(r"(?<![0-9.])(0?[1-9]|1[0-2])(?=\s?月)", _small_cardinal),
    _sub(r"(?<![0-9.])(0?[1-9]|[12][0-9]|3[01])(?=\s?[日号](?!元))", _small_cardinal),
    _sub(r"(?<![0-9.])(?<![0-9][:：])([0-9]{1,2})[:：]([0-5][0-9])\.([0-9]{1,3})(?![0-9])", _race_time),  # 1:45.32
    _sub(r"(?<![0-9.])([0-9]{1,3}(?:\.[0-9]+)?)\s?°\s?([0-9]{1,2}(?:\.[0-9]+)?)\s?['′]"
         r"(?:\s?([0-9]{1,2}(?:\.[0-9]+)?)\s?(?:[\"″]|''))?", _arc),  # 116°23′
    _sub(r"(?<![0-9.])([0-9]{1,2})\s?['′]\s?([0-9]{1,2}(?:\.[0-9]+)?)\s?(?:[\"″]|'')", _pace),  # 5'30"
    _sub(r"(?<![0-9.])(?:996|955|965|007|715)(?=\s?(?:工作制|工作|模式|作息|制度|福报|加班|上班))",
         lambda m: read_digits(m.group())),  # 996工作制
    # 520, 1314, 2333, 666 in chat (not a group of a phone number: 8888 6666)
    _sub(rf"(?<![0-9.])(?<![0-9][\s-])(?:{_SLANG_NUMBERS})(?![0-9.]|[\s-][0-9])", _slang_number),
    # 10:30, 8:05:30, 10:00-12:00 (a 比/比分 before makes it a score)
    _sub(
        r"(?<![0-9.])(?<![0-9][:：])([01]?[0-9]|2[0-4])[:：]([0-5][0-9])(?:[:：]([0-5][0-9]))?"
        r"(?:(\s?" + _RANGE + r"\s?)([01]?[0-9]|2[0-4])[:：]([0-5][0-9])(?:[:：]([0-5][0-9]))?)?(?![0-9:：])",
        _time,
    ),
    _sub(rf"(?<![0-9.])(?<![0-9][:：])({_NUM})[:：]({_NUM})[:：]({_NUM})(?![0-9:：])",  # round 11: 3:2:1 (not a time)
         lambda m: "比".join(read_cardinal(g) for g in m.groups())),
    _sub(rf"(?<![0-9.])(?<![0-9][:：])({_NUM})[:：]({_NUM})(?![0-9:：])", _ratio),
    _sub(r"(?<![0-9.])([0-9]{1,3})\s?[-–—]\s?([0-9]{1,3})(?![0-9.])", _score),
    _sub(r"(?<![0-9.])([0-9]+(?:\.[0-9]+)?)\s?[×xX]\s?(?=10\^)", lambda m: read_cardinal(m.group(1)) + "乘"),
    # round 16: 1e-3, 5e-4, 3E8: scientific e-notation, 一乘十的负三次方
    _sub(r"(?<![0-9A-Za-z.])([0-9]+(?:\.[0-9]+)?)[eE]([-+]?)([0-9]{1,3})(?![0-9A-Za-z])", _e_notation),
    # round 16: n^2, x^3 (a variable's power, as x² -> x的平方)
    _sub(r"(?<![A-Za-z])([A-Za-z])\^(-?[0-9]{1,3})(?![0-9])", _letter_power),
    # round 16: 1.5x播放速度, 倍速可选0.75x、2x: a speed or zoom factor, 倍
    _sub(r"(?<![0-9.A-Za-z])([0-9]+(?:\.[0-9]+)?)[xX×](?![A-Za-z0-9])", _times_factor),
    # round 16: 1/x -> x分之一 (a fraction with a variable below)
    _sub(r"(?<![0-9./])([0-9]+)/([abcnxyz])(?![A-Za-z0-9])", lambda m: f"{m.group(2)}分之{read_cardinal(m.group(1))}"),
    _sub(rf"(?<![0-9.])([0-9]+)\^(-?[0-9]{{1,3}})(?:\s?({_UNIT_ALT})(?![A-Za-z²³/])|/({_UNIT_ALT})(?![A-Za-z²³/]))?",
         _power),  # 10^8 m/s, 10^9/L
    _sub(r"(?<=次方|平方)\s?-\s?(?=[0-9])", "减"),  # 2⁵−1: a subtraction after a power
    # round 16: a²+b²=c² (arrives as a的平方+b的平方=c的平方): the signs after a power
    _sub(r"(?<=次方|平方|立方)\s?([+=])\s?(?=[0-9A-Za-z])", lambda m: "加" if m.group(1) == "+" else "等于"),
    _sub(r"(?<![0-9])\+[0-9]{1,3}(?:[-\s][0-9]{1,5}){2,5}(?![0-9])", _international_phone),
    _sub(r"(区号[是为：:]?)\s?\+([0-9]{1,4})(?![0-9])", lambda m: m.group(1) + "加" + read_digits(m.group(2))),
    # phone numbers, service numbers and codes: digit by digit, 1 as 幺
    # round 16: a country or area code in brackets before eight digits ((852) 2123 4567, (02)2345-6789); a Taiwan
    # mobile or toll-free number in 4-3-3 groups (0912-345-678, 0800-000-123)
    _sub(r"(?<![0-9])[(（]([0-9]{2,4})[)）]\s?([0-9]{3,4})[-\s]?([0-9]{4})(?![0-9]|[-\s][0-9])", _digit_groups),
    _sub(r"(?<![0-9])(0(?:9[0-9]{2}|800))[-\s]?([0-9]{3})[-\s]?([0-9]{3})(?![0-9]|[-\s][0-9])", _digit_groups),
    _sub(r"(?<![0-9])(?:(\+?86)[-\s]?)?(1[3-9][0-9])[-\s]?([0-9]{4})[-\s]?([0-9]{4})(?![0-9])", _mobile),
    # (round 14: not a group inside a longer run of digit groups, such as a card number 6222 0210 0112 3456 789)
    _sub(r"(?<![0-9])(?<![0-9][-\s])[(（]?(0[0-9]{2,3})[)）]?\s?[-\s]?([0-9]{7,8}|[0-9]{3,4}[-\s][0-9]{4})"
         r"(?![0-9]|[-\s][0-9])",
         lambda m: "".join(read_digits(re.sub(r"[-\s]", "", g), yao=True) for g in m.groups())),
    _sub(r"(?<![0-9])([48]00)[-\s]?([0-9]{3})[-\s]?([0-9]{4})(?![0-9])", _digit_groups),
    _sub(rf"(?<![0-9])(?:{_SERVICE_NUMBERS})(?![0-9.])", _service_number),
    _sub(r"(?<![0-9.:：])0([0-9])(?=\s?时(?![间代候期刻尚装髦光]))", lambda m: read_cardinal(m.group(1))),  # 08时 -> 八时
    # round 16: 下午2时, 2时30分 -> 两时 (the hour, as 两点)
    _sub(r"(?:(?<=上午|下午|晚上|凌晨|早上|中午|傍晚|清晨)|(?<![0-9.:：=A-Za-z]))\s?2(?=\s?时(?:[0-9]{1,2}\s?分|许|整))"
         r"|(?<=上午|下午|晚上|凌晨|早上|中午|傍晚|清晨)\s?2(?=\s?时(?![间代候期刻尚装髦光段]))", "两"),
    _sub(r"(?<=[零幺二三四五六七八九]转)\s?[0-9]{1,5}(?![0-9.])", lambda m: read_digits(m.group().strip(), yao=True)),
    _sub(rf"(?<![0-9.])[0-9]{{3,4}}(?=\s?(?:{_ROOMS_AFTER}))|(?<=单元)\s?[0-9]{{3,4}}(?![0-9.])",
         lambda m: read_digits(m.group().strip(), yao=True)),  # 305房间, 2单元401
    _sub(rf"(?:(?<=号楼)|(?<=[栋幢])|(?<=[A-Z]座))\s?[0-9]{{3,4}}(?![0-9.]|\s?(?:{_MEASURES}|[A-Za-z%]))",
         lambda m: read_digits(m.group().strip(), yao=True)),  # 7号楼312, A座1206
    _sub(r"(?<=[\u4e00-\u9fff][（(])[0-9]{6}(?=[)）])", lambda m: read_digits(m.group(), yao=True)),  # 茅台（600519）
    # round 16: a four- or five-digit stock code in brackets after a listed name (美团-W（3690）, 腾讯（00700）)
    _sub(r"(?<=[\u4e00-\u9fff][（(])[0-9]{4,5}(?=[)）])|(?<=-[A-Z][（(])[0-9]{4,6}(?=[)）])",
         lambda m: read_digits(m.group(), yao=True)),
    # round 16: lottery balls of two digits each (开奖号码：03 08 15, 前区05 11, 后区03 09): 零三 零八 十五
    _sub(r"(?<=号码|前区|后区|红球|蓝球)([是为:：]?\s?)((?:[0-9]{2}[\s、,，]\s?)+[0-9]{2})(?![0-9])", _lottery_balls),
    # round 16: a licence plate: 车牌京A 88888, 车牌号码为AB 1234 (digits one by one, 1 as 幺)
    _sub(r"(?<=[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z])\s(?=[A-Z0-9]{5,6}(?![A-Za-z0-9]))", ""),
    _sub(r"(?<=车牌)((?:号码|号)?[为是:：]?\s?)([A-Z]{1,3})[\s·-]?([0-9]{1,5})(?![0-9])",
         lambda m: m.group(1) + m.group(2) + read_digits(m.group(3), yao=True)),
    _sub(r"(?<=备|案)\s?[0-9]{6,}(?![0-9.])", lambda m: read_digits(m.group().strip(), yao=True)),  # 京ICP备12345678号
    _sub(rf"({_ID_KEYWORDS})((?:号码|号)?[是为:：]?\s?)([0-9]+(?:[-\s][0-9]+)*)(?![0-9.])", _id_number),
    _sub(r"(?<![0-9.,A-Za-z-])[0-9]{4,}(?![0-9.,])", _code_near_keyword),
    _sub(r"(?<=拨打|呼叫|致电|拨通)(\s?)([0-9]{3,}(?:[-\s][0-9]{3,})*)(?![0-9.])",  # round 16: 致电2345 6789
         lambda m: m.group(1) + read_digits(re.sub(r"[-\s]", "", m.group(2)), yao=True)),
    # HT-2024-0086; a lowercase word glued to digits is a user name or password (guest2024)
    _sub(r"(?<![A-Za-z])((?:[A-Z]{1,3}|[a-z]{1,12})-?)([0-9]{3,}(?:-[0-9]{2,})*)(?![0-9.])", _latin_code),
    # round 14: a two-digit train number, digit by digit like longer ones (Z19次 -> Z幺九次; G7次 stays 七)
    _sub(r"(?<![A-Za-z])([GDCZTKYLS])([0-9]{2})(?=\s?次)", lambda m: m.group(1) + read_digits(m.group(2), yao=True)),
    _sub(r"(?<![0-9.])88(?=\s?VIP)", "八八"),  # 88VIP (a membership's name)
    # 2G of data (多用了2G, 送2G流量) -> 两G; 2G网络 (the generation) stays 二
    _sub(r"(?<![0-9.A-Za-z])2(?=\s?G(?![A-Za-z0-9])\s?(?:流量|内存|运存|存储|空间|显存|[，。！？,.!?]|$))"
         r"|(?<=[了用剩送超余])2(?=\s?G(?![A-Za-z0-9]))", "两"),
    _sub(r"(?<![A-Za-z])((?:KN|KF|N|AK|IP|IPX)-?)([0-9]{2})(?![0-9.])", _latin_code),  # IP68  # N95 / KN95 masks, AK47: 九五
    # round 11 (issue 12): runways 01-36 (with L/R/C) before or after 跑道 (3号跑道 stays a count)
    _sub(r"(?<![0-9.])(?P<n>0[1-9]|[12][0-9]|3[0-6])(?P<side>[LRC]?)(?=\s?跑道)"
         r"|(?<=跑道)\s?(?P<n2>0[1-9]|[12][0-9]|3[0-6])(?P<side2>[LRC])(?![0-9A-Za-z])",
         _runway),
    _sub(r"(?<=波音|空客)(\s?)([0-9]{3})(?![0-9.])", lambda m: m.group(1) + read_digits(m.group(2))),  # 波音737
    _sub(r"(?<![0-9.])(?:[0-9]0|[0-9]5)(?=后(?![来面天]))", lambda m: read_digits(m.group())),  # 90后, 00后, 95后
    _sub(r"(?<=[A-Za-z]\s)(?:19|20)[0-9]{2}(?![0-9.])", lambda m: read_digits(m.group())),  # Office 2019
    # 9秒83, 2米35: hundredths of a second and centimetres after a result, digit by digit
    _sub(rf"(?<=[0-9][秒米])[0-9]{{2}}(?![0-9.A-Za-z]|\s?(?:{_MEASURES}))", lambda m: read_digits(m.group())),
    _sub(r"(?<![0-9.])([1-9])\.([0-9])(?=\s?折)|(?<![0-9.])([1-9][0-9])(?=\s?折)",
         lambda m: read_digits((m.group(1) or "") + (m.group(2) or "") + (m.group(3) or ""))),  # 8.8折, 95折
    _sub(r"(?<![0-9.])([0-9]+(?:\.[0-9])?)k(?=多|左右|出头|块|元|以上|以下|[，。！？,.!?\s]|$)", _thousands_k),
    # round 14: chat 万 as w: 走了1w步, 播放量破100w, 月薪2.5w (a lowercase w after a power word is watts)
    _sub(r"(?<![0-9.A-Za-z])([0-9]+(?:\.[0-9]+)?)w(?=多|左右|出头|块|元|以上|以下|步|粉|人|了|的|[，。！？,.!?~～\s]|$)",
         _ten_thousands_w),
    _sub(r"(?<=广场|小区|工程|项目|花园|机场|园区|大厦)2(?=期)", "二"),
    _sub(r"(公元前?)\s?([0-9]{1,4})(?=\s?年)", _era_year),
    _sub(r"(?<![0-9.])100\s?%", "百分之百"),
    _sub(r"(?<![A-Za-z])C\+\+", "C加加"),
    # round 12: keypad keys in a voice menu (请按*号键, 按#键结束, 以#号结束 after 按)
    _sub(r"(?:(?<=按)\s?([*#])|([*#])(?=\s?号?键))\s?号?", lambda m: "星号" if "*" in m.group() else "井号"),
    # money: ¥12.5 → 十二点五元, $100 → 一百美元; 12.50元 → 12.5元
    _sub(rf"(?<!兑)(?<![A-Za-z])(?P<currency>{_CURRENCY_ALT})\s?(?P<amount>[0-9]+(?:\.[0-9]+)?)"
         rf"(?:\s?(?P<sign>[-~—–至到])\s?(?:{_CURRENCY_ALT})?\s?(?P<to>[0-9]+(?:\.[0-9]+)?)(?![0-9:：]|\s?=))?"
         r"\s?(?P<scale>万亿|亿|万|千|百万|百)?", _money_prefix),  # ¥85~100
    _sub(r"(?<![0-9.])[0-9]+\.[0-9]+(?=\s?(?:元|块|美元|欧元|英镑|港元|日元))", _money_suffix),
    # model numbers after a capitalized Latin name: RTX 4090, ISO 9001 (digit by digit)
    _sub(r"(?<=[A-Z]{2}\s)[0-9]{4}(?:-[0-9]{4})?(?![0-9.,A-Za-z]|\s?(?:万|亿|千|百|元|美元|点|个|%|年))",
         lambda m: read_digits(m.group().replace("-", ""))),
    _sub(r"(?<![0-9A-Za-z)）%])\+(?=[0-9]+(?:\.[0-9]+)?\s?%)", _signed_percent),  # 涨跌幅+3.25%, 暴击伤害+50%
    _sub(r"(?<=(?<![A-Za-z])[A-Za-z])\s?\+\s?(?=[A-Za-z](?![A-Za-z]))|(?<=(?<![A-Za-z])[A-Z])\+(?![+A-Za-z0-9])"
         r"|(?<=Pro|Max)\+(?![+A-Za-z0-9])", "加"),  # x+y, A+, Pro+
    _sub(r"(?<=[A-Za-z])([0-9]+(?:\.[0-9]+)?)-(?=[0-9]+(?:\.[0-9]+)?[A-Za-z])", r"\1 "),  # Qwen2.5-72B
    # percentages: 15% → 百分之十五, 10%-20% → 百分之十到百分之二十
    _sub(rf"(?<![0-9.])({_NUM})\s?(%|‰)?\s?(" + _RANGE + rf")\s?({_NUM})\s?(%|‰)", _percent_range),
    _sub(rf"(?<![0-9.])(-)?({_NUM})\s?(%|‰)", _percent),
    # 140/90mmHg: a blood pressure, the two readings one after the other
    _sub(r"(?<![0-9./])([0-9]{2,3})/([0-9]{2,3})\s?mmHg", lambda m: _blood_pressure(m.group(1), m.group(2))),
    _sub(r"(?<![0-9./])([1-9])/([248])(?=\s?拍)", _time_signature),  # round 11: 3/4拍 -> 四三拍
    # issue 24: 1/2kg, 3/4 L: a proper fraction before a unit symbol (read before arithmetic takes the slash)
    _sub(rf"(?<![0-9./])([0-9]{{1,3}})/([0-9]{{1,3}})\s?({_UNIT_ALT})(?![A-Za-z²³/])", _fraction_unit),
    # arithmetic with an equals sign: 1+1=2, 6/2=3, 5-3=2
    _sub(rf"(?<![0-9.])(?<![A-Za-z][0-9])(?<![A-Za-z])[0-9]+(?:\.[0-9]+)?(?:\s?[-+×*xX÷/—–]\s?{_NUM})+(?:\s?=\s?)?",
         _expression),  # (not after a letter: x1x2=6 is x一x二, round 16)
    _sub(r"(?<![0-9./])([0-9]+)/([0-9]+)(?![0-9/]|\.[0-9])", _fraction),
    # issue 24: 1 / 3 with spaces (the slash was dropped: 一三): a proper fraction; other spaced slashes stay
    _sub(r"(?<![0-9./])([0-9]{1,3}) / ([0-9]{1,3})(?![0-9/]|\.[0-9]|\s?[=＝/])", _spaced_fraction),
    _sub(r"(?<=[0-9A-Za-z])\+(?=[A-Za-z])|(?<=[A-Za-z])\+(?=[0-9])", "加"),  # x2+y, a+3: an algebraic sum
    _sub(r"(?<=[0-9])\+(?![0-9+A-Za-z])", "多"),  # 5000+ → 五千多 (not x2+y: an algebraic sum)
    # temperature ranges below zero: -5~-2℃ → 零下5到零下2℃
    _sub(rf"(?<![0-9A-Za-z.])-({_NUM})\s?[~—–至到]\s?(-)?(?=({_NUM})\s?(?:℃|°C|℉|°F|度|摄氏度|华氏度))",
         lambda m: f"零下{m.group(1)}到" + ("零下" if m.group(2) else "")),
    # ranges: 3-5天 → 3到5天
    _sub(rf"(?<![0-9.])({_NUM})\s?{_DASH}\s?(?=[0-9])", r"\1到"),
    _sub(rf"(?<=[0-9][万亿千百])\s?{_DASH}\s?(?=[0-9])", "到"),
    _sub(r"(?<![0-9A-Za-z.])[-–]\s?(?=[0-9]+(?:\.[0-9]+)?\s?(?:度|摄氏度|华氏度))", "零下"),
    # round 15: 1v1, 5V5, 3vs3 (players against players), not volts
    _sub(r"(?<![0-9.A-Za-z])([1-9]|1[01])\s?([vV]|vs|VS)\s?([1-9]|1[01])(?![0-9.A-Za-z])",
         lambda m: read_cardinal(m.group(1)) + m.group(2) + read_cardinal(m.group(3))),
    # 5V/2A, 9V/2A: a charger's volts and amps
    _sub(rf"(?<![0-9.])({_NUM})\s?V\s?/?\s?({_NUM})\s?A(?![A-Za-z])",
         lambda m: read_cardinal(m.group(1)) + "伏" + read_cardinal(m.group(2), liang=False) + "安"),
    _sub(rf"(?<![0-9.])({_NUM})\s?A(?![A-Za-z0-9])", _ampere),  # round 12: 电流12.5A
    # 0℃～40℃ (℃ already read by symbols_unicode), 10cm-20cm: a range with the unit on both ends
    _sub(r"(?:(?<=[0-9]摄氏度)|(?<=[0-9]华氏度))\s?[-~—–]\s?(?=-?[0-9]|零下)", "到"),
    _sub(rf"(?<=[0-9])({_UNIT_ALT})\s?[-~—–]\s?(?=-?{_NUM}\s?\1(?![A-Za-z]))", r"\1到"),
    # 2.4GHz/5GHz: two measures side by side; 10.6g/100mL: per a round amount of another unit
    _sub(rf"(?<=[0-9])({_UNIT_ALT})/(?=({_NUM})\s?({_UNIT_ALT})(?![A-Za-z]))", _unit_slash),
    _sub(rf"(?<=单位[:：])\s?({_UNIT_ALT})(?![A-Za-z0-9])", lambda m: _UNITS[m.group(1)][0]),  # 单位：cm²
    _sub(rf"(?<![0-9.])(-)?({_NUM})(万|亿)?\s?({_UNIT_ALT})(?:/({_UNIT_ALT}|[\u4e00-\u9fff])(?![A-Za-z²³])"
         rf"(?:/({_UNIT_ALT}|[\u4e00-\u9fff])(?![A-Za-z²³]))?)?(?![A-Za-z²³/])", _unit),  # 35µg/m³, 250ml/盒, ml/kg/min
    _sub(r"(?<=(?<![A-Za-z])[a-z])\s?[-–]\s?(?=[0-9a-z](?![A-Za-z]))", _variable_minus),  # 2x-3=x+6
    _sub(r"(?<=[A-Za-z])[-–](?=[0-9])", " "),  # COVID-19: a hyphen, not a minus
    # round 15: -0.6‰ arrives as -千分之0.6, and -1/2 as -二分之一
    _sub(r"(?<![0-9A-Za-z.])[-–](?=[0-9]|[千万]分之[0-9]|[一二三四五六七八九十百千]+分之[零一二三四五六七八九十百千])", "负"),
    _sub(rf"(?<![0-9.A-Za-z])(?<!第)(?<!周)(?<!星期)(?<!礼拜)2(?=\s?(?:{_MEASURES}|{_LIANG_NOUNS})|、\s?3\s?(?:{_MEASURES})"
         rf"|到(?:[0-9]+(?:\.[0-9]+)?|[零一二三四五六七八九十百千万两点]+)\s?(?:{_MEASURES}|{_LIANG_UNITS}))", _two),
    _sub(r"(?<![0-9])[0-9]+(?:\.[0-9]+)*", _number),
    _sub(r"(?<![A-Za-z+])\s?\+\s?(?![+A-Za-z])|(?<=[A-Za-z])\+(?=[0-9一二三四五六七八九十零百两])", "加"),
    # issue 24: <=, >=, != before a number or a letter (they were dropped): 小于等于, 大于等于, 不等于
    _sub(r"\s?([<>!])=\s?(?=[0-9A-Za-z零一二三四五六七八九十负两])",
         lambda m: {"<": "小于等于", ">": "大于等于", "!": "不等于"}[m.group(1)]),
    _sub(r"\s?<\s?(?=[0-9零一二三四五六七八九十])", "小于"),
    _sub(r"\s?>\s?(?=[0-9零一二三四五六七八九十])", "大于"),
    # round 11: 元/㎡/月 (㎡ arrives as m²) -> 元每平方米每月
    _sub(rf"(?<=[零一二三四五六七八九十百千万亿点两])([\u4e00-\u9fff]{{1,3}})((?:/(?:{_UNIT_ALT})(?![A-Za-z²³]))"
         rf"(?:/(?:{_UNIT_ALT}(?![A-Za-z²³/])|(?=[\u4e00-\u9fff])))?)", _per_chain),
    _sub(r"(?<=[零一二三四五六七八九十百千万亿点两])([\u4e00-\u9fff]{1,3})/(?=[\u4e00-\u9fff])", r"\1每"),  # 33米/秒
    _sub(r"(?<=[零一二三四五六七八九十百千万两][\u4e00-\u9fff]每[\u4e00-\u9fff])/(?=[\u4e00-\u9fff])", "每"),  # 元/人/天
    _sub(r"(每[\u4e00-\u9fff]{1,4})\s?[·•]\s?(?=[月年天日])", r"\1每"),  # round 15: 元/㎡·月 -> 元每平方米每月
    _sub(r"(?<=[零一二三四五六七八九十百千万])\s?=\s?(?=[a-z](?![A-Za-z]))", "等于"),  # 2x-3=x+6
    _sub(r"\s?×\s?", "乘"),
    _sub(r"\s?÷\s?", "除以"),
    _sub(r"(?:(?<![A-Za-z=<>!])|(?<=(?<![A-Za-z])[A-Za-z]))\s?=\s?(?![A-Za-z=])", "等于"),
    _sub(r"(?<=(?<![A-Za-z])[A-Z]{2})\s?=\s?(?=[零一二三四五六七八九十负])", "等于"),  # OR=2.1, RR=0.75
    _sub(r"℃|°C", "摄氏度"),
    _sub(r"℉|°F", "华氏度"),
]
