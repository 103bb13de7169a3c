"""Work limits of the Python API, and every character either spoken or reported (issue 14, items 1 and 7)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from onestep import TTS
from onestep.frontend.pipeline import Frontend
from onestep.frontend.symbols_unicode import read_symbols
from onestep.work_limits import (
    SECONDS_PER_PHONEME,
    TooMuchWorkError,
    count_phonemes,
    trim_allocator,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def tiny() -> TTS:
    return TTS(voices_dir=[FIXTURES], threads=1, voice="tiny", max_phonemes=2000)


def test_a_few_kilobytes_of_digits_are_refused_before_any_engine_work(tiny: TTS) -> None:
    """Numbers are the cheapest text to amplify: 5,000 characters of four-digit numbers read as ~20,000
    phonemes. (One unbroken run of digits no longer does: the English reader speaks its first sixteen
    digits, then "and <n> more digits".)"""
    rng = random.Random(14)
    digits = " ".join(str(rng.randrange(1000, 10000)) for _ in range(1000))[:4999]
    engine_calls = []
    engine = tiny.engine()
    original = engine.synthesize
    engine.synthesize = lambda *a, **k: engine_calls.append(1) or original(*a, **k)  # type: ignore[method-assign]
    try:
        with pytest.raises(TooMuchWorkError, match="more than 2000 phonemes") as err:
            tiny.synthesize(digits)
    finally:
        del engine.synthesize
    assert err.value.limit == 2000 and engine_calls == []


def test_the_limit_is_configurable_and_none_lifts_it() -> None:
    text = "你好，世界。" * 20
    with pytest.raises(TooMuchWorkError):
        TTS(voices_dir=[FIXTURES], threads=1, voice="tiny", max_phonemes=50).synthesize(text)
    audio = TTS(voices_dir=[FIXTURES], threads=1, voice="tiny", max_phonemes=None).synthesize(text)
    assert audio.samples.size > 0
    with pytest.raises(ValueError, match="max_phonemes"):
        TTS(voices_dir=[FIXTURES], max_phonemes=0)


def test_stream_is_lazy_so_memory_stays_bounded_for_any_length(tiny: TTS) -> None:
    """stream() has no phoneme limit: it phonemizes one sentence at a time, so the first chunk comes before
    the frontend has seen more than a sentence or two of a text of any length."""
    frontend = tiny.frontend()
    seen: list[str] = []
    original = frontend._sentence
    frontend._sentence = lambda raw, *a: seen.append(raw) or original(raw, *a)  # type: ignore[method-assign]
    try:
        chunks = tiny.stream("你好，世界。" * 5000)  # 30,000 characters, far above max_phonemes
        first = next(chunks)
        assert first.samples.size > 0 and len(seen) <= 2
        chunks.close()
    finally:
        del frontend._sentence


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("加½杯糖", "加二分之一杯糖"),
        ("①②③", " 1  2  3 "),
        ("㊿", " 50 "),
        ("5‰", "  5 per mille "),
        ("温度25℃", "温度25摄氏度"),
        ("OneStep™", "OneStep trademark "),
        ("x²", "x squared "),
        ("¹²³", " 1  2  3 "),
        ("二〇二四年", "二〇二四年"),  # a Han numeral: its G2P reads it
        # a Greek letter alone is a symbol, read by its name (a Greek word stays an unsupported script)
        ("α粒子和β射线", "阿尔法粒子和贝塔射线"),
        ("the β decay", "the  beta  decay"),
        ("Δt", " delta t"),
        ("σ=2", " sigma =2"),
        # forms the language normalizers read themselves pass unchanged (units, signs, full-width symbols)
        ("20 m²", "20 m²"),
        ("9.8 m/s²", "9.8 m/s²"),
        ("120㎡", "120m²"),
        ("10 μm", "10 µm"),  # Greek mu as the micro sign, which clean() keeps
        ("−7", "−7"),
        ("3～5天", "3～5天"),
        ("￥120", "￥120"),
    ],
)
def test_symbols_and_number_forms_get_readings(text: str, expected: str) -> None:
    assert read_symbols(text) == (expected, Counter())


def test_greek_words_are_reported_not_spelled() -> None:
    text, skipped = read_symbols("καλημέρα α ή")
    assert skipped == Counter("καλημέρα") + Counter("ή") and text.endswith(" alpha  ή")


def test_unreadable_characters_are_reported() -> None:
    text, skipped = read_symbols("hi ★ мир 😀")
    assert skipped == Counter({"★": 1, "м": 1, "и": 1, "р": 1, "😀": 1})
    assert "★" not in text and "😀" not in text


@pytest.mark.parametrize("text", ["加½杯糖", "①②③", "¹²³", "™", "㊿", "℃", "‰"])
def test_symbols_alone_are_spoken_in_both_languages(text: str) -> None:
    frontend = Frontend()
    for host in (text, "说" + text):  # English reading alone, Mandarin reading after a Chinese character
        skipped: Counter[str] = Counter()
        phonemes = sum(count_phonemes(u.phonemes) for u in frontend.speakable_sentences(host, 510, skipped))
        assert phonemes > (2 if host != text else 0) and not skipped


def test_speakable_parts_are_spoken_and_the_rest_reported(tiny: TTS) -> None:
    audio = tiny.synthesize("你好★，世界😀。")
    assert audio.samples.size > 0
    assert audio.skipped == {"★": 1, "😀": 1}


def test_trim_allocator_runs_on_glibc() -> None:
    assert trim_allocator() in (True, False)  # False only off glibc
    import platform

    if platform.libc_ver()[0] == "glibc":
        assert trim_allocator()


def test_ssml_is_bounded_like_plain_text(tiny: TTS) -> None:
    """An SSML text counts its pieces' phonemes and its breaks (a second of silence as the phonemes that
    would fill it) against the same limit, before any engine work."""
    breaks = "<speak>" + "好。<break time='10s'/>" * 20 + "</speak>"  # 200 s of silence from ~400 characters
    with pytest.raises(TooMuchWorkError, match="2000 phonemes"):
        tiny.synthesize(breaks)
    long_text = "<speak><p>" + "一二三四五六七八九十，" * 200 + "</p></speak>"
    with pytest.raises(TooMuchWorkError):
        tiny.prepare(long_text)
    audio = tiny.synthesize("<speak>你好<break time='500ms'/>世界。</speak>")  # within the limit: spoken
    assert audio.duration > 0.5


def test_an_ssml_request_is_costed_by_its_pieces_and_breaks(tiny: TTS) -> None:
    from onestep.server.backend import SynthesisRequest, TTSBackend

    backend = TTSBackend(tiny)
    plain = backend.prepare(SynthesisRequest(text="你好世界。", voice="tiny", speed=1.0))
    ssml = backend.prepare(SynthesisRequest(text="<speak>你好世界。<break time='3s'/></speak>", voice="tiny", speed=1.0))
    assert plain.cost.phonemes > 0 and plain.cost.first_phonemes == plain.cost.phonemes
    # phoneme symbols (SSML) vs phoneme ids (plain text: word spaces are ids too): within a few
    assert abs(ssml.cost.first_phonemes - plain.cost.phonemes) <= 3
    assert abs(ssml.cost.phonemes - (plain.cost.phonemes + 3 / SECONDS_PER_PHONEME)) <= 3
