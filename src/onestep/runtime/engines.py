"""The engine registry: the one place that knows which synthesis engines exist.

An engine turns phoneme ids into PCM with a voice's graphs (:class:`onestep.runtime.engine.Engine`). Each
:class:`EngineKind` names one implementation by what it is (``ort-cpu``: ONNX Runtime on the CPU;
``torch-cuda-graphs``: PyTorch with CUDA graphs on an NVIDIA GPU), says which hardware it runs on (its
``device``, still accepted everywhere as an alias: ``--device cpu`` = ``--engine ort-cpu``), whether the server
should micro-batch its requests, and how to load it. The CLI's ``--engine``/``--device`` choices, the server
config and the Python API read this registry.

Adding an engine = one module implementing ``Engine`` + one record in :data:`ENGINES` (docs/ARCHITECTURE.md).
Engine modules are imported only when their engine is loaded (torch is never imported for ``ort-cpu``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onestep.errors import UserError

if TYPE_CHECKING:  # pragma: no cover
    from onestep.runtime.engine import Engine, StreamSettings


@dataclass(frozen=True)
class EngineKind:
    """One synthesis engine.

    Attributes:
        name: what the engine is, used by ``--engine`` and ``TTS(engine=...)`` (``"ort-cpu"``).
        device: the hardware it runs on (``"cpu"``, ``"cuda"``); accepted as an alias of ``name``.
        description: one line for help texts.
        loader: ``"module:function"``; the function takes ``(voice_dir, threads, stream)`` and returns a warmed
            :class:`~onestep.runtime.engine.Engine`. Imported on first load.
        batches: the server micro-batches concurrent requests into one engine call by default (GPU engines);
            otherwise it runs one request per worker thread.
        install_hint: what to install when the engine's dependencies are missing.
        probe: ``"module:function"`` returning ``(facts, problem)`` about this machine for the engine (``onestep
            doctor``: facts shown under the engine's device, problem "" when it can run); "" = nothing to check
            beyond the base install.
    """

    name: str
    device: str
    description: str
    loader: str
    batches: bool = False
    install_hint: str = ""
    probe: str = ""

    def load(self, voice_dir: str | Path, threads: int | None = None, stream: StreamSettings | None = None) -> Engine:
        """Load (and warm) this engine for the voice in ``voice_dir`` (``threads``: CPU intra-op threads,
        None = one per physical core; ``stream``: chunk sizes for streaming)."""
        module_name, _, function = self.loader.partition(":")
        return getattr(importlib.import_module(module_name), function)(voice_dir, threads, stream)

    def check(self) -> tuple[dict[str, Any], str]:
        """What this machine offers the engine: ``(facts, problem)``, problem "" when it can run (its
        :attr:`probe`; a missing dependency is reported with :attr:`install_hint`, not raised)."""
        if not self.probe:
            return {}, ""
        module_name, _, function = self.probe.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            hint = f": {self.install_hint}" if self.install_hint else ""
            return {str(e.name): "not installed"}, f"it needs {e.name}{hint}"
        facts, problem = getattr(module, function)()
        return dict(facts), str(problem)


ENGINES: tuple[EngineKind, ...] = (
    EngineKind(
        name="ort-cpu",
        device="cpu",
        description="ONNX Runtime on the CPU (INT8 graphs where the voice has them)",
        loader="onestep.runtime.ort_engine:load",
    ),
    EngineKind(
        name="torch-cuda-graphs",
        device="cuda",
        description="PyTorch with CUDA graphs on an NVIDIA GPU (micro-batched in the server)",
        loader="onestep.runtime.cuda_engine:load",
        batches=True,
        install_hint="pip install 'onestep-tts[gpu]'",
        probe="onestep.runtime.cuda_engine:probe",
    ),
)
DEFAULT_ENGINE = "ort-cpu"


class UnknownEngineError(UserError, ValueError):
    """An engine name or device alias that is not in the registry; the message lists the known ones."""


def engine_names() -> tuple[str, ...]:
    """Registered engine names, in registry order."""
    return tuple(kind.name for kind in ENGINES)


def device_aliases() -> tuple[str, ...]:
    """The devices accepted as engine aliases (``("cpu", "cuda")``)."""
    return tuple(kind.device for kind in ENGINES)


def get_engine(name: str) -> EngineKind:
    """The engine called ``name``, or whose device is ``name`` (``"cuda"`` -> ``torch-cuda-graphs``).

    Raises:
        UnknownEngineError: neither; the message lists engines and devices.
    """
    for kind in ENGINES:
        if name in (kind.name, kind.device):
            return kind
    known = ", ".join(f"{kind.name} (device {kind.device})" for kind in ENGINES)
    raise UnknownEngineError(f"unknown engine/device {name!r}; engines: {known}")
