"""Peer: Kokoro-82M v1.0 int8 (the teacher) driven by our frontend's phonemes, English and Mandarin."""

from __future__ import annotations

import numpy as np

from onestep_dev.eval.runner import DEFAULT_TEACHER_VOICE
from onestep_dev.teacher.kokoro import TEACHER_SAMPLE_RATE

_FRONTEND_WARMUP = {"en": "Hello.", "zh": "你好。"}


class KokoroPeer:
    """Kokoro int8 on ONNX Runtime, one voice per language.

    Latency includes our frontend's phonemization; loading includes building the frontend.
    """

    sample_rate = TEACHER_SAMPLE_RATE

    def __init__(self, lang: str, threads: int = 1, voice: str | None = None) -> None:
        from onestep_dev.eval.systems import TeacherSystem

        self.lang = lang
        self.system = TeacherSystem(voice or DEFAULT_TEACHER_VOICE[lang], threads=threads)
        self.name = f"kokoro-int8:{voice or DEFAULT_TEACHER_VOICE[lang]}"
        self.system.phonemize(_FRONTEND_WARMUP[lang])  # builds the frontend's lexicons/tagger: part of loading

    def synthesize(self, text: str) -> np.ndarray:
        """float32 [N] audio at 24 kHz (pieces of ``Frontend.sentences`` concatenated)."""
        return self.system.synthesize(text).audio
