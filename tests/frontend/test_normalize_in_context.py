"""Numbers in context, issue 12's rounds 5 and 6: running text (equations, powers, units named alone, amperes,
race times, year nouns, spec pairs, same-unit ranges) and reference genres (biographies and history, technical
documentation, book references, academic abstracts, everyday notes), read as a careful reader says them, and
look-alikes left alone."""

from __future__ import annotations

import pytest

from onestep.frontend.en.normalize import normalize_en
from onestep.frontend.symbols_unicode import read_symbols
from onestep.frontend.zh.normalize import normalize_zh


def _en(text: str) -> str:
    return normalize_en(read_symbols(text, "en")[0])


def _zh(text: str) -> str:
    return normalize_zh(read_symbols(text, "zh")[0])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What is 2⁵ − 1?", "What is two to the fifth minus one?"),
        ("Solve for y: 2y - 7 = 11.", "Solve for y: two y minus seven equals eleven."),
        ("If 2x - 4 = 10, find x.", "If two x minus four equals ten, find x."),
        ("x^2 - 4 = 0", "x squared minus four equals zero"),
        ("What is its speed in km/h?", "What is its speed in kilometers per hour?"),
        ("Find its area in cm².", "Find its area in square centimeters."),
        ("Do not exceed 1,800 W on a 15 A circuit.", "Do not exceed one thousand eight hundred watts on a fifteen amp circuit."),
        ("Output: 5 V, 2 A input.", "Output: five volts, two amps input."),
        ("Tighten to 25 Nm.", "Tighten to twenty-five newton meters."),
        ("Keep it 10 cm (4 in) from the wall.", "Keep it ten centimeters (four inches) from the wall."),
        ("one 23 kg checked bag", "one twenty-three kilogram checked bag"),
        ("The CPI rose 0.4% m/m.", "The C P I rose zero point four percent month over month."),
        ("Sales fell 4% q/q.", "Sales fell four percent quarter over quarter."),
        ("A 2023 poll found it.", "A twenty twenty-three poll found it."),
        ("Between 2010 and 2020, it grew.", "Between twenty ten and twenty twenty, it grew."),
        ("The 10K race drew 400 runners.", "The ten K race drew four hundred runners."),
        ("The winner finished in 29:48.", "The winner finished in twenty-nine forty-eight."),
        ("Total: $5 incl. tax.", "Total: five dollars including tax."),
    ],
)
def test_english_running_text(text: str, expected: str) -> None:
    assert _en(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Group 2 A students", "Group two A students"),  # a grade, not amperes
        ("His 2000 points led.", "His two thousand points led."),  # a count, not a year
        ("The ratio is 3:2.", "The ratio is three to two."),
        ("Pages 10 - 12", "Pages ten to twelve"),  # a range: no equation
        ("It is 3x faster.", "It is three times faster."),
        ("The area is 20 m^2.", "The area is twenty square meters."),
        ("25 kg/m²", "twenty-five kilograms per square meter"),
    ],
)
def test_english_look_alikes_keep_their_reading(text: str, expected: str) -> None:
    assert _en(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("计算2⁵−1的值。", "计算二的五次方减一的值。"),
        ("解方程：2x-3=x+6。", "解方程：二x减三等于x加六。"),
        ("充电电压为5V/2A。", "充电电压为五伏二安。"),
        ("本机工作温度为0℃～40℃。", "本机工作温度为零摄氏度到四十摄氏度。"),
        ("气温-5℃~-2℃。", "气温零下五摄氏度到零下二摄氏度。"),
        ("规格为10cm-20cm。", "规格为十厘米到二十厘米。"),
        ("拧紧力矩为2.5N·m。", "拧紧力矩为二点五牛米。"),
        ("血压≥140/90mmHg者", "血压大于等于一百四十、九十毫米汞柱者"),
        ("求它的面积（单位：cm²）。", "求它的面积（单位：平方厘米）。"),
        ("支持2.4GHz/5GHz双频。", "支持二点四吉赫兹、五吉赫兹双频。"),
        ("预计12日08时至13日08时", "预计十二日八时至十三日八时"),
        ("在3楼301会议室", "在三楼三零幺会议室"),
    ],
)
def test_mandarin_running_text(text: str, expected: str) -> None:
    assert _zh(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("这是4A级景区。", "这是四A级景区。"),  # a grade, not amperes
        ("COVID-19疫情", "COVID 十九疫情"),  # a hyphen, not a minus: no equation
        ("35µg/m³", "三十五微克每立方米"),  # a unit per unit is still 每
        ("单位名称：北京大学", "单位名称：北京大学"),
    ],
)
def test_mandarin_look_alikes_keep_their_reading(text: str, expected: str) -> None:
    assert _zh(text) == expected


# --- round 6: reference genres ---


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Henry VIII (r. 1509–1547) ruled.", "Henry the eighth (reigned fifteen oh nine to fifteen forty-seven) ruled."),
        ("The poet (b. 1962) lives here.", "The poet (born nineteen sixty-two) lives here."),
        ("It was written c. AD 150.", "It was written circa A D one fifty."),
        ("Towns appeared around 3,000 BC.", "Towns appeared around three thousand B C."),
        ("the 1960s–70s", "the nineteen sixties to seventies"),
        ("the 1990s-2000s", "the nineteen nineties to two thousands"),
        ("(begun 1163, completed 1345)", "(begun eleven sixty-three, completed thirteen forty-five)"),
        ("Go to 192.168.0.1 now.", "Go to one nine two dot one six eight dot zero dot one now."),
        ("Mask 255.255.255.0.", "Mask two five five dot two five five dot two five five dot zero."),
        ("It listens on port 8080.", "It listens on port eighty eighty."),
        ("HTTPS uses port 443.", "H T T P S uses port four four three."),
        ("It returns HTTP 404.", "It returns H T T P four oh four."),
        ("See RFC 2616.", "See R F C twenty-six sixteen."),
        ("Use IPv6.", "Use I P v six."),
        ("Upgrade from 2.x first.", "Upgrade from two point x first."),
        ("The screen has a 16:9 aspect ratio.", "The screen has a sixteen by nine aspect ratio."),
        ("A 2 TB SSD", "A two terabyte S S D"),
        ("It supports 65 W charging.", "It supports sixty-five watt charging."),
        ("The 2nd ed. added an index.", "The second edition added an index."),
        ("Footnote 12 cites vol. IV, p. 210.", "Footnote twelve cites volume four, page two hundred ten."),
        ("Matthew 5:3–12 is read.", "Matthew five three to twelve is read."),
        ("The odds ratio was 2.1 (95% CI 1.2–3.4).",
         "The odds ratio was two point one (ninety-five percent C I one point two to three point four)."),
        ("Buy 2 pcs.", "Buy two pieces."),
        ("Meet on the 4th fl. at 2ish.", "Meet on the fourth floor at two ish."),
        ("Get 1 doz eggs.", "Get one dozen eggs."),
        ("Dentist appt at 3.", "Dentist appointment at three."),
        ("The party is Sat at 7.", "The party is Saturday at seven."),
        ("The café is on 3rd Ave near 42nd St.", "The café is on third Avenue near forty-second Street."),
        ("She lives at 18 W 4th St.", "She lives at eighteen West fourth Street."),
    ],
)
def test_english_reference_genres(text: str, expected: str) -> None:
    assert _en(text).lower() == expected.lower()


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Build 10.0.19041.1", "point"),  # a version with a part above 255 is no address
        ("a 16:9 screen", "to"),  # a ratio without "aspect" stays "to"
        ("Monday 9:05-11", "oh five"),  # a clock after a weekday is no verse range
        ("in 500 BC", "five hundred B C"),
    ],
)
def test_english_look_alikes(text: str, kept: str) -> None:
    assert kept.lower() in _en(text).lower()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("维苏威火山于公元79年喷发。", "维苏威火山于公元七十九年喷发。"),
        ("约公元前3000年，古埃及统一。", "约公元前三千年，古埃及统一。"),
        ("秦始皇（前259年—前210年）", "秦始皇（前二五九年到前二一零年）"),
        ("安史之乱（755—763年）", "安史之乱（七五五到七六三年）"),
        ("地址设为192.168.0.1。", "地址设为幺九二点幺六八点零点幺。"),
        ("服务默认监听8080端口。", "服务默认监听八零八零端口。"),
        ("端口号为443。", "端口号为四四三。"),
        ("端口为22。", "端口为二十二。"),
        ("支持1080P视频录制。", "支持一零八零P视频录制。"),
        ("屏幕分辨率为1920×1080。", "屏幕分辨率为一九二零乘一零八零。"),
        ("返回HTTP 404错误。", "返回HTTP 四零四错误。"),
        ("本项目采用C99标准。", "本项目采用C九九标准。"),
        ("从2.x版本升级。", "从二点x版本升级。"),
        ("溶液浓度为1×10^-6 mol/L。", "溶液浓度为一乘十的负六次方摩尔每升。"),
        ("数据来源：国家统计局（2024）。", "数据来源：国家统计局（二零二四）。"),
        ("相对风险降低（RR=0.75）。", "相对风险降低（RR等于零点七五）。"),
    ],
)
def test_mandarin_reference_genres(text: str, expected: str) -> None:
    assert _zh(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("客户端版本号2.3.0.1", "客户端版本号二点三点零点一"),  # a version, not an address
        ("尺寸1920×1080毫米", "尺寸一千九百二十乘一千零八十毫米"),  # a size, not a resolution
        ("公元960年", "公元九六零年"),
    ],
)
def test_mandarin_look_alikes(text: str, expected: str) -> None:
    assert _zh(text) == expected


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("$", "en", "dollars"),
        ("＄", "en", "dollars"),
        ("Costs $$ each", "en", "Costs dollars dollars each"),
        ("价格是＄", "zh", "价格是美元"),
        ("用$付款", "zh", "用美元付款"),
        # an amount, a prefix or a ticker: the normalizers' business, not a lone sign
        ("$5", "en", "$5"),
        ("US$ 5", "en", "US$ 5"),
        ("$AAPL", "en", "$AAPL"),
        ("价格是$5", "zh", "价格是$5"),
    ],
)
def test_a_dollar_sign_without_an_amount_is_read(text: str, lang: str, expected: str) -> None:
    """A lone dollar sign was dropped silently ("价格是＄" read as 价格是): it reads as the currency's name."""
    read, skipped = read_symbols(text, lang)
    assert " ".join(read.split()) == expected
    assert not skipped


@pytest.mark.parametrize(
    ("text", "lang", "expected", "skipped"),
    [
        ("＋", "en", "plus", ""),
        ("价格＜税", "zh", "价格小于税", ""),
        ("￡", "en", "pounds", ""),
        ("好的～", "zh", "好的", "～"),
        ("｜", "en", "", "｜"),
        # beside a number or a Latin letter: left for the normalizers
        ("10～20岁", "zh", "10～20岁", ""),
        ("x＋y", "en", "x＋y", ""),
        ("￥50", "zh", "￥50", ""),
    ],
)
def test_a_full_width_symbol_alone_is_read_or_reported(text: str, lang: str, expected: str, skipped: str) -> None:
    """Full-width symbols with no number beside them were dropped silently ("＋" alone, "价格＜税")."""
    read, removed = read_symbols(text, lang)
    assert " ".join(read.split()) == expected
    assert "".join(removed.elements()) == skipped
