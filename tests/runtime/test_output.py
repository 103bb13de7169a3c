"""Output stage: soxr resampling streamed == one-shot, gain in dB, the soft limiter, option checks."""

from __future__ import annotations

import numpy as np
import pytest

from onestep.errors import ConfigError
from onestep.runtime.output import LIMIT_KNEE, SAMPLE_RATES, OutputOptions, OutputStage, soft_limit


def _speechlike(seconds: float = 1.5, rate: int = 24000) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    rng = np.random.default_rng(0)
    return (0.3 * np.sin(2 * np.pi * 180 * t) * np.sin(2 * np.pi * 3 * t) + 0.05 * rng.standard_normal(t.size)).astype(
        np.float32
    )


@pytest.mark.parametrize("rate", SAMPLE_RATES)
def test_streamed_resampling_equals_one_shot(rate: int) -> None:
    x = _speechlike()
    one_shot = OutputStage(OutputOptions(rate), 24000).whole(x)
    stage = OutputStage(OutputOptions(rate), 24000)
    parts, i = [], 0
    for n in (1, 240, 7, 4800, 333, 10**6):  # uneven chunks, as the engine's first chunk is small
        parts.append(stage.process(x[i : i + n]))
        i += n
    parts.append(stage.flush())
    streamed = np.concatenate(parts)
    assert streamed.size == one_shot.size == round(x.size * rate / 24000)
    assert np.abs(streamed - one_shot).max() < 1e-4  # the stated tolerance (measured: 0)


def test_resampling_keeps_a_tone_at_its_frequency() -> None:
    t = np.arange(24000) / 24000
    x = (0.5 * np.sin(2 * np.pi * 1000 * t)).astype(np.float32)
    y = OutputStage(OutputOptions(16000), 24000).whole(x)
    spectrum = np.abs(np.fft.rfft(y))
    assert abs(np.argmax(spectrum) * 16000 / y.size - 1000) < 2
    assert abs(np.abs(y[2000:-2000]).max() - 0.5) < 0.01  # amplitude kept


def test_gain_in_db_scales_quiet_audio_exactly() -> None:
    x = (0.1 * np.sin(np.linspace(0, 100, 24000))).astype(np.float32)
    y = OutputStage(OutputOptions(gain_db=6.0), 24000).whole(x)
    np.testing.assert_allclose(y, x * 10 ** (6 / 20), rtol=1e-5)
    z = OutputStage(OutputOptions(gain_db=-20.0), 24000).whole(x)
    np.testing.assert_allclose(z, x * 0.1, rtol=1e-5)


def test_loud_gain_never_clips_and_keeps_order() -> None:
    x = np.linspace(-1, 1, 2001, dtype=np.float32)
    y = OutputStage(OutputOptions(gain_db=12.0), 24000).whole(x)
    assert np.abs(y).max() < 1.0
    assert np.all(np.diff(y) > 0)  # monotonic: no wrap-around or flat clipping
    quiet = np.abs(x * 10 ** (12 / 20)) <= LIMIT_KNEE
    np.testing.assert_allclose(y[quiet], (x * 10 ** (12 / 20))[quiet], rtol=1e-6)
    assert np.array_equal(soft_limit(np.array([0.5], np.float32)), np.array([0.5], np.float32))


def test_identity_options_pass_audio_unchanged() -> None:
    x = _speechlike(0.2)
    stage = OutputStage(OutputOptions(24000, 0.0), 24000)
    assert stage.identity and stage.whole(x) is not None and np.array_equal(stage.whole(x), x)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"sample_rate": 11025}, "sample_rate must be one of"), ({"gain_db": 40.0}, "gain_db must be between"),
     ({"gain_db": float("nan")}, "gain_db"), ({"sample_rate": True}, "sample_rate")],
)  # fmt: skip
def test_bad_options_are_user_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        OutputOptions(**kwargs)
