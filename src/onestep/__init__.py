"""OneStep TTS: one non-autoregressive forward pass from text to PCM.

The flow is visible in the package layout::

    frontend/  text -> normalized text -> phonemes (Kokoro/misaki 114-symbol inventory)
    model/     phonemes -> durations -> mel -> audio (PyTorch definitions, ONNX export)
    runtime/   ONNX Runtime (CPU) and CUDA-graph (GPU) engines, streaming
    synthesis/ TTS's work by role: voice choice, SSML plans, prepare, render, streaming, timings
    server/    HTTP (FastAPI), OpenAI-compatible endpoint, WebSocket, Wyoming

``from onestep import TTS`` is the one object most users touch; it is imported lazily so that
``import onestep`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS, Audio, AudioChunk

__all__ = ["TTS", "Audio", "AudioChunk", "__version__"]


def __getattr__(name: str) -> Any:
    if name in {"TTS", "Audio", "AudioChunk"}:
        from onestep import api

        return getattr(api, name)
    raise AttributeError(name)
