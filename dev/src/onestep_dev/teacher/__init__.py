"""The Kokoro-82M v1.0 teacher (int8 ONNX on ONNX Runtime): audio plus per-phoneme durations.

Used by the teacher-data generator (training targets) and by ``onestep eval`` / ``onestep bench --peers``
(the quality reference). ``assets`` finds and assembles the model from its PyPI packages, ``voices`` reads
Kokoro voice packs without torch, ``kokoro`` runs the model.
"""

from __future__ import annotations

from onestep_dev.teacher.kokoro import TEACHER_HOP, TEACHER_SAMPLE_RATE, KokoroTeacher
from onestep_dev.teacher.voices import KOKORO_VOICES, load_kokoro_voice, style_for

__all__ = [
    "KOKORO_VOICES",
    "TEACHER_HOP",
    "TEACHER_SAMPLE_RATE",
    "KokoroTeacher",
    "load_kokoro_voice",
    "style_for",
]
