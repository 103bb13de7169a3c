"""Synthesis engines: phoneme ids -> PCM with a voice's three graphs.

``OrtEngine`` (ONNX Runtime, CPU) is the default; ``CudaEngine`` (PyTorch + CUDA graphs) is imported only
when ``device="cuda"`` is asked for. Both satisfy :class:`onestep.runtime.engine.Engine`.
"""

from __future__ import annotations

from pathlib import Path

from onestep.runtime.engine import Engine, StreamSettings

DEVICES = ("cpu", "cuda")


def load_engine(
    voice_dir: str | Path, device: str = "cpu", threads: int | None = None, stream: StreamSettings | None = None
) -> Engine:
    """Load (and warm) the engine for the voice in ``voice_dir``.

    Args:
        voice_dir: directory with ``voice.json`` and the ONNX graphs.
        device: ``"cpu"`` (ONNX Runtime) or ``"cuda"`` (PyTorch + CUDA graphs; needs torch with CUDA).
        threads: CPU intra-op threads (ONNX Runtime); None = one per physical core.
        stream: chunk sizes for streaming.
    """
    if device == "cpu":
        from onestep.runtime.ort_engine import OrtEngine, OrtSettings

        return OrtEngine(voice_dir, OrtSettings(threads=threads), stream)
    if device == "cuda":
        from onestep.runtime.cuda_engine import CudaEngine

        return CudaEngine(voice_dir, stream=stream)
    raise ValueError(f"device must be one of {DEVICES}, got {device!r}")
