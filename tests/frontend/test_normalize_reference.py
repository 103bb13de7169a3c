"""Round 6 (issue 12): reference genres — biographies and history, technical documentation, book references,
academic abstracts, everyday notes — read as a careful reader says them, and look-alikes left alone."""

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
