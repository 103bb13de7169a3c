"""Synthesis engines: phoneme ids -> PCM with a voice's three graphs.

Which engines exist is the registry's business (:mod:`onestep.runtime.engines`): ``ort-cpu`` (ONNX Runtime,
the default) and ``torch-cuda-graphs`` (PyTorch + CUDA graphs, imported only when asked for). Both satisfy
:class:`onestep.runtime.engine.Engine`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from onestep.runtime.engines import DEFAULT_ENGINE, get_engine

if TYPE_CHECKING:  # pragma: no cover - kept light: `onestep --help` reads the engine registry through here
    from onestep.runtime.engine import Engine, StreamSettings



def load_engine(
    voice_dir: str | Path,
    engine: str = DEFAULT_ENGINE,
    threads: int | None = None,
    stream: StreamSettings | None = None,
) -> Engine:
    """Load (and warm) an engine for the voice in ``voice_dir``.

    Args:
        voice_dir: directory with ``voice.json`` and the ONNX graphs.
        engine: a registered engine name (``"ort-cpu"``, ``"torch-cuda-graphs"``) or its device alias
            (``"cpu"``, ``"cuda"``).
        threads: CPU intra-op threads (ONNX Runtime); None = one per physical core.
        stream: chunk sizes for streaming.
    Raises:
        UnknownEngineError: ``engine`` is neither.
    """
    return get_engine(engine).load(voice_dir, threads, stream)
