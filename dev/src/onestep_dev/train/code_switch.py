"""Code-switched Mandarin sentences: Chinese carrier sentences with English words of every kind inside.

Chinese users put English brand names, tech terms, people's names, acronyms and units into almost every
sentence ("请把PPT发给我", "我用iPhone拍的照片"). Every voice is trained on such sentences (as rendered by the
teacher in that voice) so that one voice reads a mixed sentence without switching timbre.

The English words are split into a training part and a held-out part (every fifth word of each category, by
list position), so that evaluation sentences (``split="heldout"``) contain English words the voices never
heard inside a Mandarin sentence.
"""

from __future__ import annotations

import random
from collections.abc import Callable

WORDS: dict[str, list[str]] = {
    "brand": [
        "iPhone", "Amazon", "Google", "Microsoft", "Tesla", "Starbucks", "Netflix", "YouTube", "Facebook",
        "Instagram", "Twitter", "Nike", "Adidas", "Samsung", "Sony", "Intel", "Nvidia", "Uber", "Airbnb", "Spotify",
        "McDonald's", "Costco", "Walmart", "IKEA", "Zoom", "Slack", "GitHub", "LinkedIn", "Disney", "Coca-Cola",
        "Pepsi", "BMW", "Toyota", "Honda", "Canon", "Nikon", "Dell", "Lenovo", "Xbox", "PlayStation",
    ],
    "tech": [
        "email", "Python", "Excel", "Windows", "online", "download", "update", "App", "bug", "debug", "server",
        "cloud", "Wi-Fi", "Bluetooth", "password", "login", "browser", "chatbot", "router", "laptop", "iPad",
        "Java", "Linux", "Android", "backup", "offline", "demo", "feedback", "deadline", "meeting", "project",
        "office", "check", "cover", "level", "style", "party", "fashion", "happy", "OK",
    ],
    "acronym": [
        "PPT", "API", "USB", "CPU", "GPU", "AI", "PDF", "URL", "HTTP", "SQL", "VIP", "CEO", "DNA", "GPS",
        "KPI", "HR", "IT", "NBA", "MBA", "UI", "IPO", "ATM", "LED", "HDMI", "VPN", "QQ", "BBC", "CNN", "NASA",
        "SUV", "DIY", "PK", "PS", "CD", "DVD", "TV", "MP3", "OA", "ERP", "CRM",
    ],
    "name": [
        "Alice", "Bob", "Emma", "James", "Michael", "Sarah", "David", "Kevin", "Jessica", "Tony", "Linda",
        "Peter", "Jack", "Lucy", "Tom", "Anna", "Chris", "Daniel", "Grace", "Henry", "Amy", "Eric", "Frank",
        "Helen", "Ivy", "Jason", "Kate", "Leo", "Mike", "Nancy", "Oliver", "Rachel", "Steve", "Vincent", "William",
        "Sophia", "Ryan", "Mary", "John", "Paul",
    ],
    "unit": [
        "GB", "MB", "KB", "TB", "GHz", "MHz", "km", "kg", "cm", "mm", "ml", "mAh", "kW", "dB", "Mbps", "fps",
        "Hz", "V", "W", "px",
    ],
}

_CARRIERS: list[Callable[[random.Random, Callable[[str], str]], str]] = [
    lambda r, w: f"请把{w('acronym')}发给我，我马上看。",
    lambda r, w: f"我用{w('brand')}拍的照片特别清楚。",
    lambda r, w: f"帮我查一下{w('brand')}的订单到哪儿了。",
    lambda r, w: f"{w('name')}说这个{w('tech')}明天之前一定要完成。",
    lambda r, w: f"你把{w('tech')}的{w('acronym')}链接发到群里吧。",
    lambda r, w: f"今天下午三点跟{w('name')}开个短会，讨论一下{w('tech')}的问题。",
    lambda r, w: f"这台电脑的内存是{r.choice([8, 16, 32, 64])}{w('unit')}，够用了。",
    lambda r, w: f"我在{w('brand')}上买了一双鞋，还没发货。",
    lambda r, w: f"{w('acronym')}部门的{w('name')}下周要去出差。",
    lambda r, w: f"打开{w('brand')}的{w('tech')}，然后点右上角的按钮。",
    lambda r, w: f"这个{w('tech')}太难用了，我想换一个。",
    lambda r, w: f"你有没有{w('name')}的微信？我想问他{w('acronym')}的事。",
    lambda r, w: f"周末我们去{w('brand')}喝咖啡吧，{w('name')}也来。",
    lambda r, w: f"下载速度只有{r.randint(2, 900)}{w('unit')}，网络太慢了。",
    lambda r, w: f"老板让我做一个{w('acronym')}，明天早上给客户看。",
    lambda r, w: f"我的{w('brand')}手机又没电了，你有充电器吗？",
    lambda r, w: f"这次{w('tech')}的结果不太好，{w('name')}有点失望。",
    lambda r, w: f"他在{w('brand')}工作了五年，现在是{w('acronym')}。",
    lambda r, w: f"记得把{w('tech')}备份到{w('brand')}的云盘里。",
    lambda r, w: f"屏幕亮度调到最高，耗电大概多了{r.randint(5, 40)}{w('unit')}。",
    lambda r, w: f"{w('name')}，你的{w('tech')}通过了吗？",
    lambda r, w: f"我们公司今年的{w('acronym')}目标是增长百分之二十。",
    lambda r, w: f"听说{w('brand')}要出新产品了，你知道是什么吗？",
    lambda r, w: f"这个{w('acronym')}接口返回了一个错误，{w('name')}正在看。",
    lambda r, w: f"把文件存成{w('acronym')}格式，再用{w('tech')}发出去。",
    lambda r, w: f"晚上一起看{w('acronym')}比赛吗？{w('name')}请客。",
    lambda r, w: f"这款耳机支持{w('tech')}，续航很长。",
    lambda r, w: f"{w('brand')}和{w('brand')}哪个更好？",
    lambda r, w: f"别忘了今天是{w('tech')}的最后一天。",
    lambda r, w: f"我刚才用{w('brand')}打车，司机说十分钟就到。",
]


def word_split(split: str) -> dict[str, list[str]]:
    """The English words of each category for ``split``: "train" (4 of 5) or "heldout" (every fifth)."""
    if split not in ("train", "heldout"):
        raise ValueError(f"split must be 'train' or 'heldout', got {split!r}")
    keep = (lambda i: i % 5 != 4) if split == "train" else (lambda i: i % 5 == 4)
    return {cat: [w for i, w in enumerate(words) if keep(i)] for cat, words in WORDS.items()}


def code_switch_sentences(count: int, split: str = "train", seed: int = 20261201) -> list[str]:
    """``count`` distinct code-switched Mandarin sentences (fewer if the templates run out), fixed per seed."""
    words = word_split(split)
    r = random.Random(seed if split == "train" else seed + 1)

    def pick(category: str) -> str:
        return r.choice(words[category])

    seen: dict[str, None] = {}
    attempts = 0
    while len(seen) < count and attempts < count * 20:
        seen.setdefault(r.choice(_CARRIERS)(r, pick), None)
        attempts += 1
    return list(seen)
