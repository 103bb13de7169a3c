"""The teacher's phonemizer and the student read the held-out text in the evaluation's language (issue 21):
Latin-script text is Spanish when the run is Spanish, whatever the voice's own language."""

from __future__ import annotations

from pathlib import Path

import pytest

from onestep_dev.eval.systems import StudentSystem, frontend_phonemizer, student_teacher

TINY_VOICE = Path(__file__).parents[1] / "fixtures" / "tiny-voice"
TEXT = "Hola, amigo."


def _spanish() -> list[str]:
    from onestep.frontend.pipeline import Frontend

    return [u.phonemes for u in Frontend().speakable_sentences(TEXT, language="es")]


def test_teacher_phonemizer_reads_the_requested_language() -> None:
    spanish = frontend_phonemizer("es")(TEXT)
    assert spanish == _spanish()
    assert spanish != frontend_phonemizer()(TEXT)  # by its letters alone the text is English


def test_student_reads_the_evaluation_language_not_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONESTEP_PRELOAD", "0")
    student = StudentSystem(TINY_VOICE, threads=1, language="es")
    out = student.synthesize(TEXT)
    assert out.phonemes == " ".join(_spanish()) and out.audio.size > 0
    assert StudentSystem(TINY_VOICE, threads=1).language == "en"  # default: the voice's own language


def test_student_teacher_from_voice_json() -> None:
    assert student_teacher("en-heart") == "af_heart"  # "kokoro-82m-v1.0/af_heart" in the shipped pack
    assert student_teacher("zh-xiaoxiao") == "zf_xiaoxiao"
    assert student_teacher(TINY_VOICE) is None  # "none (random initialisation)"


def test_a_seeded_or_blended_voice_is_judged_against_the_same_blend_of_teachers() -> None:
    """A seeded voice's teacher is its voices' teachers mixed with its weights (issue 21: a seeded voice passes
    the same gate as a named one); a seed that draws one voice has that voice's teacher."""
    from onestep.runtime.voices import VoiceCatalog

    assert student_teacher("en-heart:0.7+en-bella:0.3") == "af_heart:0.7+af_bella:0.3"
    spec = VoiceCatalog().seeded("seed:1234:female")[1]
    teacher = student_teacher("seed:1234:female")
    assert teacher is not None
    parts = [part.split(":") for part in teacher.split("+")]
    assert [student_teacher(name) for name, _ in spec.components] == [name for name, _ in parts]
    assert [round(w, 4) for _, w in spec.components] == [float(w) for _, w in parts]
    assert student_teacher("seed:7:ja:male") == "jm_kumo"  # one Japanese male voice
