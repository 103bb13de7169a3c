"""Round 5 (issue 12): numbers in running text — equations, powers, units named alone, amperes, race times,
year nouns, spec pairs and same-unit ranges — read as a careful reader says them, and look-alikes left alone."""

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
        ("支持2.4GHz/5GHz双频。", "支持二点四吉赫、五吉赫双频。"),
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
