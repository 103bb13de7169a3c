"""Seeded template sentences for what users say and the text corpora lack.

Numbers, dates, times, money, units, phone numbers, percentages, questions and exclamations in both
languages, and Mandarin sentences with embedded English words and acronyms (the Mandarin voice must speak
"请打开API接口" itself). Raw text: the frontend normalizes it like any user input.
"""

from __future__ import annotations

import random
from collections.abc import Callable

ACRONYMS = ["API", "PLC", "USB", "CPU", "GPU", "AI", "APP", "WiFi", "PDF", "URL", "HTTP", "SQL", "VIP", "CEO", "DNA", "GPS"]
EN_WORDS = ["email", "iPhone", "Python", "Excel", "Windows", "Google", "online", "meeting", "project", "download", "update", "OK"]
ZH_CITIES = ["北京", "上海", "广州", "深圳", "杭州", "成都", "重庆", "武汉", "南京", "西安"]
EN_CITIES = ["Boston", "Chicago", "Seattle", "Denver", "Austin", "London", "Paris", "Tokyo", "Sydney", "Toronto"]
EN_NAMES = ["Alice", "Bob", "Maria", "James", "Priya", "Chen", "Omar", "Sofia", "David", "Emma"]
ZH_NAMES = ["小王", "李老师", "张经理", "陈医生", "刘先生", "王女士", "小明", "赵主任"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
MONTH_ABBR = ["Jan.", "Feb.", "Mar.", "Apr.", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."]


def _en_templates(r: random.Random) -> list[Callable[[], str]]:
    n = lambda a, b: r.randint(a, b)  # noqa: E731
    return [
        lambda: f"The total comes to ${n(1, 999)}.{n(0, 99):02d}, including tax.",
        lambda: f"Your flight to {r.choice(EN_CITIES)} leaves at {n(1, 12)}:{r.choice(['00', '15', '30', '45', '05'])} {r.choice(['am', 'pm'])}.",
        lambda: f"The meeting was moved to {r.choice(MONTHS)} {n(1, 28)}, {n(1990, 2035)}.",
        lambda: f"We shipped {n(2, 99999):,} units last quarter, up {n(1, 60)}% from last year.",
        lambda: f"It is {n(-20, 40)}°C in {r.choice(EN_CITIES)} right now, with winds of {n(3, 60)} mph.",
        lambda: f"Call me at ({n(200, 999)}) {n(200, 999)}-{n(1000, 9999)} after {n(1, 11)} pm.",
        lambda: "In an emergency, dial 911 and stay on the line.",
        lambda: f"The {r.choice(ACRONYMS)} team at the {r.choice(['FBI', 'NASA', 'BBC', 'UN'])} meets on the {n(1, 31)}{'th'}.",
        lambda: f"Did {r.choice(EN_NAMES)} really run {n(2, 42)}.{n(1, 9)} km in {n(20, 59)} minutes?",
        lambda: f"Wow, {r.choice(EN_NAMES)} won {r.choice(['first', 'second', 'third'])} place again!",
        lambda: f"Set the timer for {n(1, 59)} minutes and {n(1, 59)} seconds, please.",
        lambda: f"Turn left in {n(100, 900)} meters, then take exit {n(1, 120)}.",
        lambda: f"Dr. {r.choice(EN_NAMES)} lives at {n(1, 999)} Main St., apartment {n(1, 40)}{r.choice('ABCD')}.",
        lambda: f"The package weighs {n(1, 50)}.{n(1, 9)} kg and costs £{n(3, 200)} to send.",
        lambda: f"Version {n(1, 9)}.{n(0, 20)} fixed {n(2, 80)} bugs in the {r.choice(ACRONYMS)} driver.",
        lambda: f"Is the {r.choice(['USB', 'HDMI', 'SD'])} port on the left or on the right?",
        lambda: f"About {n(1, 9)}/{r.choice([2, 3, 4, 5, 8, 10])} of the votes were counted by {n(5, 11)}:{n(10, 59)} pm.",
        lambda: f"Order number {n(100000, 999999)} will arrive on {r.choice(MONTH_ABBR)} {n(1, 28)}.",
        lambda: f"Battery at {n(1, 100)} percent; about {n(1, 12)} hours of playback left.",
        lambda: f"The year {n(1900, 2030)} changed everything for {r.choice(EN_CITIES)}.",
    ]


def _zh_templates(r: random.Random) -> list[Callable[[], str]]:
    n = lambda a, b: r.randint(a, b)  # noqa: E731
    return [
        lambda: f"请打开{r.choice(ACRONYMS)}接口，然后重启{r.choice(['服务器', '设备', '程序', '系统'])}。",
        lambda: f"{r.choice(ACRONYMS)}控制器的温度是{n(-20, 95)}℃，请注意。",
        lambda: f"今天{r.choice(ZH_CITIES)}的气温是{n(-10, 39)}到{n(10, 40)}度，空气质量{r.choice(['良', '优', '轻度污染'])}。",
        lambda: f"会议定在{n(2000, 2035)}年{n(1, 12)}月{n(1, 28)}日下午{n(1, 6)}点{r.choice(['', '半', '十五分'])}。",
        lambda: f"这件衣服原价{n(50, 2000)}元，现在打{n(5, 9)}折，只要{n(20, 999)}.{n(1, 9)}元。",
        lambda: f"请拨打{r.choice(['110', '120', '119', '12345'])}，或者联系{r.choice(ZH_NAMES)}，电话1{n(3, 9)}{n(100000000, 999999999)}。",
        lambda: f"{r.choice(ZH_NAMES)}跑了{n(2, 42)}.{n(1, 9)}公里，用时{n(20, 59)}分钟。",
        lambda: f"本季度销售额增长了{n(1, 80)}%，利润达到{n(2, 9999)}万元。",
        lambda: f"我用{r.choice(EN_WORDS)}给你发了{n(2, 9)}个文件，你收到了吗？",
        lambda: f"下载速度只有{n(1, 900)}KB/s，{r.choice(['WiFi', '网络', '4G'])}信号太差了！",
        lambda: f"比赛比分是{n(0, 5)}:{n(0, 5)}，{r.choice(ZH_NAMES)}进了{n(1, 3)}个球。",
        lambda: f"这台{r.choice(['CPU', 'GPU', '电脑'])}的主频是{n(1, 5)}.{n(0, 9)}GHz，内存{r.choice([8, 16, 32, 64])}GB。",
        lambda: f"第{n(1, 10)}名的成绩是{n(60, 100)}分，比第{n(2, 20)}名高{n(1, 9)}分。",
        lambda: f"银行早上{n(8, 9)}:{r.choice(['00', '30'])}开门，下午{n(4, 5)}:{r.choice(['00', '30'])}关门。",
        lambda: f"{r.choice(ZH_CITIES)}到{r.choice(ZH_CITIES)}的距离大约是{n(100, 3000)}公里，开车要{n(2, 30)}个小时。",
        lambda: f"这个{r.choice(['project', 'meeting', 'App'])}下周一之前必须完成，{r.choice(ZH_NAMES)}负责。",
        lambda: f"你觉得这个方案怎么样？要不要再讨论{n(2, 3)}次？",
        lambda: f"太好了！我们终于在{r.choice(ZH_CITIES)}见面了！",
        lambda: f"药品每次服用{n(1, 3)}片，每天{n(2, 3)}次，饭后{n(10, 60)}分钟。",
        lambda: f"请把音量调到百分之{n(10, 100)}，谢谢。",
        lambda: f"库存还剩{n(1, 999)}件，其中{n(1, 99)}%已经预订。",
        lambda: f"{r.choice(['PLC', 'HMI', 'CNC'])}报警代码{n(100, 999)}，请检查{n(1, 8)}号电机。",
    ]


def extra_sentences(lang: str, count: int, seed: int = 20261130) -> list[str]:
    """``count`` distinct template sentences for ``lang`` ("en" or "zh"), identical for a given seed."""
    if lang not in ("en", "zh"):
        raise ValueError(f"lang must be 'en' or 'zh', got {lang!r}")
    r = random.Random(seed)
    templates = _en_templates(r) if lang == "en" else _zh_templates(r)
    seen: dict[str, None] = {}
    attempts = 0
    while len(seen) < count and attempts < count * 20:
        seen.setdefault(r.choice(templates)(), None)
        attempts += 1
    return list(seen)
