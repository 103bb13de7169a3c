"""Property-based fuzzing of the frontend and ``TTS.synthesize`` (issue 14, item 8).

Fixed seed (``derandomize``), a bounded number of examples per property (a few seconds each on a CI core):
random Unicode, long digit runs, nested markup and mixed scripts. Properties: nothing crashes except with a
documented user error, every utterance fits the model, phonemes stay in the inventory, the work a text causes
is bounded by its length, audio is finite, and every character is either spoken or reported as skipped.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onestep import TTS
from onestep.frontend.pipeline import Frontend
from onestep.frontend.symbols import vocab
from onestep.work_limits import NothingToSpeakError, TooMuchWorkError, count_phonemes

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MAX_IDS = 126
FUZZ = settings(derandomize=True, deadline=None, max_examples=60, suppress_health_check=list(HealthCheck))

_HAN = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
_LATIN = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ")
_DIGIT = st.sampled_from("0123456789")
_PUNCT = st.sampled_from(",.!?;:'\"()-，。！？；：、…—《》“”%$&+=@#/")
_SYMBOL = st.characters(categories=("So", "Sm", "Sc", "Sk", "No", "Nl"))
MIXED = st.text(st.one_of(_HAN, _LATIN, _DIGIT, _PUNCT, _SYMBOL), max_size=120)
ANY_UNICODE = st.text(st.characters(codec="utf-8"), max_size=120)
DIGIT_RUNS = st.text(_DIGIT, min_size=50, max_size=2000)


@st.composite
def nested_markup(draw: st.DrawFn) -> str:
    """Text inside randomly nested brackets, quotes and tags (``<b>《“(a[1])”》</b>``)."""
    text = draw(st.text(st.one_of(_HAN, _LATIN, _DIGIT), min_size=1, max_size=20))
    pairs = [("(", ")"), ("[", "]"), ("{", "}"), ("《", "》"), ("“", "”"), ("<b>", "</b>"), ("<", ">"), ("'", "'")]
    for _ in range(draw(st.integers(0, 12))):
        left, right = draw(st.sampled_from(pairs))
        text = left + text + (right if draw(st.booleans()) else "")  # sometimes left open
    return text


@pytest.fixture(scope="module")
def frontend() -> Frontend:
    return Frontend(lexicon={})


@pytest.fixture(scope="module")
def tiny() -> TTS:
    return TTS(voices_dir=[FIXTURES], threads=1, voice="tiny", max_phonemes=3000)


def _check_frontend(frontend: Frontend, text: str) -> tuple[int, Counter[str]]:
    inventory = set(vocab()) | {" "}
    skipped: Counter[str] = Counter()
    total = 0
    for utterance in frontend.speakable_sentences(text, MAX_IDS, skipped):
        phonemes = utterance.phonemes
        assert set(phonemes) <= inventory, set(phonemes) - inventory
        assert 0 < len(phonemes) <= MAX_IDS
        total += count_phonemes(phonemes)
    assert set(skipped) <= set(text)  # only characters of the input are reported
    return total, skipped


@FUZZ
@given(text=ANY_UNICODE)
def test_random_unicode_never_breaks_the_frontend(frontend: Frontend, text: str) -> None:
    _check_frontend(frontend, text)


@FUZZ
@given(text=MIXED)
def test_mixed_scripts_and_symbols(frontend: Frontend, text: str) -> None:
    _check_frontend(frontend, text)


@FUZZ
@given(text=nested_markup())
def test_nested_markup(frontend: Frontend, text: str) -> None:
    _check_frontend(frontend, text)


@settings(FUZZ, max_examples=15)
@given(text=DIGIT_RUNS)
def test_long_digit_runs_cost_work_in_proportion_to_their_length(frontend: Frontend, text: str) -> None:
    total, _ = _check_frontend(frontend, text)
    assert total <= 12 * len(text)  # at most a short word per digit: bounded by the length, hence by max_chars


@settings(FUZZ, max_examples=150)
@given(c=st.characters(categories=("So", "Sm", "Sc", "Sk", "No", "Nl")).filter(lambda c: not c.isascii()))
def test_every_symbol_alone_is_spoken_or_reported(frontend: Frontend, c: str) -> None:
    total, skipped = _check_frontend(frontend, c)
    assert total > 0 or skipped, f"U+{ord(c):04X} {unicodedata.name(c, '?')} is neither spoken nor reported"


@settings(FUZZ, max_examples=25)
@given(text=st.one_of(MIXED, nested_markup(), st.text(_DIGIT, min_size=1, max_size=400)))
def test_synthesize_gives_finite_audio_or_a_clear_user_error(tiny: TTS, text: str) -> None:
    try:
        audio = tiny.synthesize(text)
    except (NothingToSpeakError, TooMuchWorkError):
        return
    assert audio.samples.size > 0 and np.isfinite(audio.samples).all()
    assert np.abs(audio.samples).max() <= 1.0
