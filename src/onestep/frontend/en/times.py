"""The time class of English text: ``"3:30 pm"`` -> ``"three thirty P M"``, ``"15:00"`` -> ``"fifteen hundred"``,
``"14:10:30"`` -> ``"fourteen hours ten minutes and thirty seconds"``, ``"3 pm"``, ``"0930 hours"``, ``"21h00"``,
``"1842 GMT"``, ``"at 0600"`` — one grammar (``TIME_RULE``) read by its form; ``"2:01:09"`` as an elapsed time
after "finished in". ``normalize``'s number passes run ``TIME_RULE`` after the passes that prepare times
(``dot_time``: "at 10.15" where a cue says so; ``time_range``: "9am-5pm" -> "9am to 5pm").
"""

from __future__ import annotations

import re

from onestep.frontend.en.numbers import cardinal, digits
from onestep.frontend.en.rules import Rule, ends_sentence, previous_word

def meridiem(text: str | None) -> str:
    return "" if not text else (" A M" if text.lower() == "a" else " P M")


TIME_ZONES = "GMT|UTC|Zulu|BST|CET|CEST|EET|EEST|WET|IST|JST|KST|SGT|HKT|AEST|AEDT|[ECMP][SD]T|[ECMP]T"
_DOT_TIME_BEFORE = re.compile(r"\b(?:at|by|until|till|[Tt]he|opens?|closes?|departs?|arrives?|"
                              r"leaves?|[Dd]oors|[Kk]ick-off|hours(?: are)?)[ :]+$")
_DOT_TIME_AFTER = re.compile(rf" (?:{TIME_ZONES}|train|service|"
                             r"departure|arrival|flight|bus|local time|hrs|hours)\b")


_DOT_TIME_WORDS_AFTER = frozenset("on and to or till until tonight today tomorrow every each sharp in for at from when if "
                                  "but then with local daily weekdays".split())


def dot_time(m: re.Match[str]) -> str:
    """"at 10.15" -> "at 10:15", "the 06.52 from Reading", "9.30–17.30", "(15.00 GMT)": hours and minutes with a dot
    (British usage) where a clock word, a second time or a time zone says so (a price or a decimal is left alone:
    "at 2.45%", "from 1.25 to 1.50 dollars" have no such cue or have a unit after them)."""
    text, start, end = m.string, m.start(), m.end()
    partner = re.match(r" ?(?:[-–—]|to|till|until|and) ?(\d+(?:\.\d+)?)( ?%)?", text[end : end + 20])
    if partner and (partner.group(2) or ("." in partner.group(1)
                                         and not re.fullmatch(r"(?:[01]?\d|2[0-3])\.[0-5]\d", partner.group(1)))):
        return m.group(0)  # "rates at 5.25–5.5%": a range of decimals
    word = re.match(r" ?(%|[A-Za-z]+)", text[end : end + 16])
    if word and word.group(1) not in _DOT_TIME_WORDS_AFTER and not _DOT_TIME_AFTER.match(text, end):
        return m.group(0)  # "at 12.45 points", "2.50 dollars", "2.45 %": a decimal with what it counts
    before = text[max(0, start - 24) : start]
    after_cue = _DOT_TIME_AFTER.match(text, end) is not None and not re.match(r" ?(?:[-–—]|to|till|until|and) ", text[end:end + 8])
    pair = (re.search(r"(?:[01]?\d|2[0-3])\.[0-5]\d ?(?:[-–—]|to|till|until) ?$", before)
            or re.match(r" ?(?:[-–—]|to|till|until) ?(?:[01]?\d|2[0-3])\.[0-5]\d\b", text[end : end + 16]))
    zero_led = m.group(1).startswith("0") and len(m.group(1)) == 2
    # a range of two times is one when either reads as a 24-hour clock ("9.30–17.30", "08.30 to 18.00")
    clock_pair = pair is not None and re.search(r"\b(?:0\d|1[3-9]|2[0-3])\.[0-5]\d\b", pair.group(0) + m.group(0))
    if not (after_cue or clock_pair or zero_led or _DOT_TIME_BEFORE.search(before)):
        return m.group(0)
    if re.search(r"[$€£¥]\s?$", before):
        return m.group(0)
    return f"{m.group(1)}:{m.group(2)}"


def clock(m: re.Match[str]) -> str:
    """"3:30 pm" -> "three thirty P M", "15:00" -> "fifteen hundred", "10.30am" -> "ten thirty A M"."""
    h, mi = int(m.group("h") or m.group("h2")), int(m.group("m") or m.group("m2"))
    ap = m.group("ap") or m.group("ap2") or m.group("ap1")  # "10:30a" (calendars) -> "ten thirty A M"
    if h > 24 or mi > 59:
        return m.group(0)
    if m.group("s") and not ap and _is_duration(m):
        return _hms(h, mi, int(m.group("s")))
    half = meridiem(ap)
    if mi == 0 and not half and 0 < h <= 12 and (_MERIDIEM_TIME_AFTER.match(m.string, m.end())
                                                     or _NOON_AFTER.match(m.string, m.end())):
        return cardinal(h)  # "between 2:00 and 6:00 PM" -> "between two and six P M" (not "two o'clock"); "12:00 noon"
    if mi == 0:
        spoken = cardinal(h) + ("" if half else (" hundred" if h > 12 or h == 0 else " o'clock"))
    else:
        minutes = f"oh {cardinal(mi)}" if mi < 10 else cardinal(mi)
        spoken = f"{cardinal(h)} {minutes}"
    if m.group("s") and int(m.group("s")):
        # "14:10:30" -> "fourteen hours ten minutes and thirty seconds" (NeMo's reading); zero seconds add
        # nothing a listener needs ("10:00:00Z" -> "ten o'clock")
        spoken = _hms_said(h, mi, int(m.group("s")))
    spoken += half  # "2:12:38 p.m." -> "two hours twelve minutes and thirty-eight seconds P M"
    if ap and m.group(0).endswith(".") and ends_sentence(m.string, m.end()):
        spoken += "."
    return spoken


_NOON_AFTER = re.compile(r" (?:noon|midnight)\b")  # "at 12:00 midnight" -> "at twelve midnight"
_MERIDIEM_TIME_AFTER = re.compile(r" ?(?:and|to|until|till|or) \d{1,2}(?::\d{2})? ?[AaPp]\.? ?[Mm]\b")
_DURATION_CUES = frozenset("in of clocked timed time finished finishing won winning record".split())


def _is_duration(m: re.Match[str]) -> bool:
    """"finished in 2:01:09", "1:02:03 into the race": h:mm:ss that is an elapsed time, not a clock time."""
    return (previous_word(m.string, m.start()).lower() in _DURATION_CUES or m.string.startswith(" into", m.end())
            or _TIME_WAS_BEFORE.search(m.string, max(0, m.start() - 16), m.start()) is not None)


_TIME_WAS_BEFORE = re.compile(r"\btimes? (?:was|is|of) $")  # "her winning time was 2:18:31"


def race_hundredths(m: re.Match[str]) -> str:
    """"ran the mile in 3:43.13" -> "three forty-three point one three" (minutes, seconds and hundredths: no clock
    time has a decimal part after its minutes)."""
    sec = int(m.group(2))
    seconds = f"oh {cardinal(sec)}" if sec < 10 else cardinal(sec)
    return f"{cardinal(int(m.group(1)))} {seconds} point {digits(m.group(3))}"


def _hms(h: int, mi: int, sec: int) -> str:
    """``(2, 1, 9)`` -> ``"two hours, one minute and nine seconds"`` (zero parts left out)."""
    parts = [f"{cardinal(n)} {unit}{'' if n == 1 else 's'}"
             for n, unit in ((h, "hour"), (mi, "minute"), (sec, "second")) if n]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts) or "zero seconds"


def _hms_said(h: int, mi: int, sec: int) -> str:
    """A clock time with seconds, every part said: ``(10, 0, 0)`` -> ``"ten hours zero minutes and zero
    seconds"``."""
    parts = [f"{cardinal(n)} {unit}{'' if n == 1 else 's'}" for n, unit in ((h, "hour"), (mi, "minute"))]
    return f"{parts[0]} {parts[1]} and {cardinal(sec)} second{'' if sec == 1 else 's'}"


def military_time(hour: str, minute: str, hours: bool = True) -> str:
    """``("09", "30")`` -> ``"oh nine thirty hours"``, ``("15", "00")`` -> ``"fifteen hundred hours"`` (without
    "hours" when ``hours`` is false: "0930 UTC", "at 0600")."""
    mi = int(minute)
    spoken_hour = "zero" if hour == "00" else ("oh " if hour[0] == "0" else "") + cardinal(int(hour))
    minutes = "hundred" if mi == 0 else (f"oh {cardinal(mi)}" if mi < 10 else cardinal(mi))
    return f"{spoken_hour} {minutes}" + (" hours" if hours else "")


def hour_meridiem(m: re.Match[str]) -> str:
    h = int(m.group("h3"))
    if not 0 < h <= 12:
        return m.group(0)
    spoken = cardinal(h) + meridiem(m.group("ap3"))
    if m.group(0).endswith(".") and ends_sentence(m.string, m.end()):
        spoken += "."
    return spoken


def hour_h_minutes(hour: str, minute: str) -> str:
    """``("21", "00")`` -> ``"twenty-one hundred"``, ``("9", "30")`` -> ``"nine thirty"`` (the French-style clock
    time of timetables, "21h00")."""
    mi = int(minute)
    minutes = "hundred" if mi == 0 else (f"oh {cardinal(mi)}" if mi < 10 else cardinal(mi))
    return f"{cardinal(int(hour))} {minutes}"


# The time class, one grammar: "3:30 pm", "14:10:30", "10:30a" (calendars), "10.30am"; "3 pm"; "0930 hours";
# "21h00"; "1842 GMT" (four digits before a zone); "at 0600" (a zero-led four-digit time after at/by).
_MERIDIEM = r" ?(?P<{0}>[AaPp])\.? ?[Mm]\.?(?![A-Za-z])"
TIME_PATTERN = (
    r"(?=\d)(?:(?<![\w:.])(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?(?![\d:])"
    rf"(?:{_MERIDIEM.format('ap')}|(?P<ap1>[ap])(?![\w'’]))?"
    rf"|(?<![\w:.])(?P<h2>\d{{1,2}})\.(?P<m2>\d{{2}})(?P<s2>){_MERIDIEM.format('ap2')}"
    r"|(?<![\w:.,])(?P<mh>[01]\d|2[0-3])(?P<mm>[0-5]\d) (?P<hrs>hours|hrs)\b"
    r"|(?<![\w:.,])(?P<hh>[01]?\d|2[0-3])h(?P<hm>[0-5]\d)(?![\w:]|[.,]\d)"
    rf"|(?<![\w:.,$€£¥#-])(?P<zh>[01]\d|2[0-3])(?P<zm>[0-5]\d) (?=(?:{TIME_ZONES})\b)"
    r"|(?<=\b(?:at|by) )(?P<ah>0\d)(?P<am>[0-5]\d)(?![\w,:-]|\.\d)"
    rf"|(?<![\w:.])(?P<h3>\d{{1,2}}){_MERIDIEM.format('ap3')})"
)


def time_span(m: re.Match[str]) -> str:
    """A span of the time class, read by its form (see ``TIME_PATTERN``)."""
    if m.group("h") or m.group("h2"):
        return clock(m)
    if m.group("mh"):
        return military_time(m.group("mh"), m.group("mm"))
    if m.group("hh"):
        return hour_h_minutes(m.group("hh"), m.group("hm"))
    if m.group("zh"):
        return military_time(m.group("zh"), m.group("zm"), hours=False) + " "
    if m.group("ah"):
        return military_time(m.group("ah"), m.group("am"), hours=False)
    return hour_meridiem(m)


TIME_RULE = Rule(TIME_PATTERN, time_span, (":", ".", "hours", "hrs", "h", "GMT", "UTC", "Z", "T", "at 0", "by 0", "m",
                                           "M"))


def time_range(m: re.Match[str]) -> str:
    """"9am-5pm", "9:00-17:00", "2:15-3:45 pm": the dash is read "to" (the times are read by the next passes).
    Plain number ranges ("5-10") are left to the range pass."""
    first, second = m.group(1), m.group(2)
    is_time = ":" in first and ":" in second or any(c in "AaPp" for c in second)
    if ":" in first and second.isdigit() and int(first.split(":")[0]) < int(second) <= 12:
        is_time = True  # "at 9:30-10": a clock time, then a later whole hour
    if not is_time:
        return m.group(0)
    if first.endswith(":00") and not any(c in "AaPp" for c in first) and any(c in "AaPp" for c in second):
        first = first[:-3]  # "9:00–9:30 AM" -> "nine to nine thirty A M" (not "nine o'clock")
    return f"{first} {range_word(m)} "


def range_word(m: re.Match[str]) -> str:
    """"and" after "between" ("between 2-4pm" -> "between two and four P M"), else "to"."""
    return "and" if previous_word(m.string, m.start()).lower() == "between" else "to"
