"""GPU engine: a voice's PyTorch networks in fp16/bf16 with one CUDA graph per static shape.

The weights come from the voice's own ONNX files (``onestep.model.export.load_voice_models``), so the GPU
speaks exactly the voice the CPU engine speaks. A request runs in two steps, each a captured CUDA graph:

1. ``acoustic`` step, one graph per (phoneme bucket ``T``, batch size ``B``):
   ids [B,T] -> durations, hidden -> frames per id (rounded, / speed, on the GPU) -> written into buffers
   padded to the largest phoneme bucket, plus each row's total frame count.
2. ``frames`` step, one graph per (frame bucket ``F``, batch size ``B``): length regulation on the GPU
   (cumsum + searchsorted, no host sync) -> decoder -> vocoder -> audio [B, F*hop] float32.

Between the two, the host reads the B frame totals (the one sync per request) to choose ``F``. Every step
writes into output buffers allocated outside its graph, so all graphs can share one memory pool: a pool
then only ever holds intermediates, and the engine lock makes replays sequential. Frame counts beyond the
largest frame bucket (very long, slow sentences) run the second step eagerly at the needed size.

Built with ``cuda_graphs=False`` and ``device="cpu"`` the same steps run eagerly on the CPU, which is how
the tests check this module without a GPU.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn

from onestep.config import ConfigError, SynthesisOptions
from onestep.frontend.buckets import batch_to_bucket, bucket_for
from onestep.model.acoustic import length_regulate
from onestep.model.export import load_voice_models
from onestep.runtime.engine import (
    Streamed,
    StreamSettings,
    SynthesisResult,
    Timings,
    add_time,
    frame_bucket,
)

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}


@dataclass(frozen=True)
class CudaSettings:
    """GPU engine settings.

    Attributes:
        device: torch device (``"cuda"``, ``"cuda:1"``; ``"cpu"`` only for tests, with ``cuda_graphs=False``).
        dtype: ``"fp16"``, ``"bf16"`` or ``"fp32"`` for the networks (the iSTFT always runs in fp32).
        batch_sizes: batch sizes captured; a batch is padded to the next one, larger batches are split.
        cuda_graphs: capture CUDA graphs (False: run the same steps eagerly).
    """

    device: str = "cuda"
    dtype: str = "fp16"
    batch_sizes: tuple[int, ...] = (1, 2, 4, 8, 16)
    cuda_graphs: bool = True

    def __post_init__(self) -> None:
        if self.dtype not in DTYPES:
            raise ConfigError(f"dtype must be one of {sorted(DTYPES)}, got {self.dtype!r}")
        sizes = self.batch_sizes
        if not sizes or list(sizes) != sorted(set(sizes)) or sizes[0] < 1:
            raise ConfigError(f"batch_sizes must be strictly increasing positive ints, got {sizes}")
        if self.cuda_graphs and not self.device.startswith("cuda"):
            raise ConfigError(f"cuda_graphs needs a cuda device, got {self.device!r}")


def frames_per_id(durations: torch.Tensor, mask: torch.Tensor, speed: torch.Tensor) -> torch.Tensor:
    """The contract's rounding rule on the GPU (as ``onestep.runtime.regulate.frames_per_id``).

    Args: durations [B,T] (any float dtype), mask [B,T] (1 = real id), speed [B] float32.
    Returns: float32 [B,T] whole frames per id, 0 at masked positions (round half to even, like numpy).
    """
    return torch.clamp(torch.round(durations.float() / speed[:, None]), min=0.0) * (mask > 0)


class _Float32(nn.Module):
    """Runs the wrapped module in float32 whatever the dtype of its inputs (the iSTFT's envelope division)."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner.float()

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
        return self.inner(*(x.float() for x in inputs))


class _Step:
    """A function over static buffers, replayed from a CUDA graph when captured, else called eagerly."""

    def __init__(self, fn: Callable[[], None], capture: bool, pool: object | None) -> None:
        self.fn = fn
        self.graph: torch.cuda.CUDAGraph | None = None
        if capture:
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):  # warm-up runs (cuDNN autotuning, lazy init) outside the capture
                for _ in range(2):
                    fn()
            torch.cuda.current_stream().wait_stream(side)
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph, pool=pool):
                fn()

    def __call__(self) -> None:
        if self.graph is not None:
            self.graph.replay()
        else:
            self.fn()


@dataclass
class _Shared:
    """Per batch size: the acoustic step's outputs, padded to the largest phoneme bucket ``T_max``.

    Attributes:
        hidden: [B, T_max, C] network dtype; fpi: [B, T_max] int64 frames per id; totals: [B] int64.
    """

    hidden: torch.Tensor
    fpi: torch.Tensor
    totals: torch.Tensor


class CudaEngine:
    """One voice on the GPU (see the module docstring).

    Args:
        voice_dir: directory with ``voice.json`` (exported by onestep: it carries ``extra.model``) and graphs.
        settings: device, dtype, batch sizes, CUDA graphs on/off.
        stream: chunk sizes of :meth:`stream` (the audio is computed whole, then cut).
        warmup: build (and capture) every (bucket, batch size) step now; otherwise on first use.
    """

    def __init__(
        self,
        voice_dir: str | Path,
        settings: CudaSettings | None = None,
        stream: StreamSettings | None = None,
        warmup: bool = True,
    ) -> None:
        t0 = time.perf_counter()
        self.settings = settings or CudaSettings()
        self.stream_settings = stream or StreamSettings()
        self.device = torch.device(self.settings.device)
        if self.device.type == "cuda" and not torch.cuda.is_available():
            raise RuntimeError("device 'cuda' asked for but torch sees no CUDA device")
        self.dtype = DTYPES[self.settings.dtype]
        self.config, models = load_voice_models(voice_dir)
        istft = models.vocoder.istft  # kept out of the cast: its basis/envelope must stay exact fp32
        models.vocoder.istft = nn.Identity()
        for module in models.parts().values():
            module.to(self.device, self.dtype).requires_grad_(False)
        models.vocoder.istft = _Float32(istft.to(self.device))
        self.models = models
        self.hop = self.config.audio.hop_length
        if self.device.type == "cuda":
            torch.backends.cudnn.benchmark = True  # static shapes: pick the fastest conv kernels once
        self._pool = torch.cuda.graph_pool_handle() if self.settings.cuda_graphs else None
        t_max = self.config.phoneme_buckets[-1]
        c = self.config.hidden_dim
        self._shared = {
            b: _Shared(
                torch.zeros(b, t_max, c, dtype=self.dtype, device=self.device),
                torch.zeros(b, t_max, dtype=torch.int64, device=self.device),
                torch.zeros(b, dtype=torch.int64, device=self.device),
            )
            for b in self.settings.batch_sizes
        }
        self._acoustic_steps: dict[tuple[int, int], tuple[_Step, torch.Tensor, torch.Tensor, torch.Tensor]] = {}
        self._frame_steps: dict[tuple[int, int], tuple[_Step, torch.Tensor]] = {}
        self._lock = threading.Lock()
        self.load_seconds = time.perf_counter() - t0
        self.warmup_seconds = self.warm() if warmup else 0.0

    @property
    def sample_rate(self) -> int:
        return self.config.audio.sample_rate

    def warm(self) -> float:
        """Build (capture) the step of every (bucket, batch size); returns the seconds it took."""
        t0 = time.perf_counter()
        with self._lock, torch.inference_mode():
            for b in self.settings.batch_sizes:
                for t in self.config.phoneme_buckets:
                    self._acoustic_step(t, b)
                for f in self.config.frame_buckets:
                    self._frame_step(f, b)
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
        return time.perf_counter() - t0

    # --- steps -----------------------------------------------------------------------------------------

    def _acoustic_step(self, t: int, b: int) -> tuple[_Step, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Step 1 for phoneme bucket ``t`` and batch size ``b``; returns it with its inputs (ids, mask, speed)."""
        key = (t, b)
        if key not in self._acoustic_steps:
            ids = torch.zeros(b, t, dtype=torch.int64, device=self.device)
            mask = torch.zeros(b, t, dtype=self.dtype, device=self.device)
            speed = torch.ones(b, dtype=torch.float32, device=self.device)
            shared = self._shared[b]
            acoustic = self.models.acoustic

            def fn() -> None:
                durations, hidden = acoustic(ids, mask)
                fpi = frames_per_id(durations, mask, speed)
                shared.hidden[:, :t].copy_(hidden)
                shared.hidden[:, t:].zero_()
                shared.fpi[:, :t].copy_(fpi)
                shared.fpi[:, t:].zero_()
                shared.totals.copy_(shared.fpi.sum(dim=1))

            self._acoustic_steps[key] = (_Step(fn, self.settings.cuda_graphs, self._pool), ids, mask, speed)
        return self._acoustic_steps[key]

    def _frames_fn(self, f: int, b: int, audio: torch.Tensor) -> Callable[[], None]:
        """Step 2 as a function: regulate ``b`` rows to ``f`` frames, decode, vocode into ``audio`` [b, f*hop]."""
        shared = self._shared[b]
        decoder, vocoder = self.models.decoder, self.models.vocoder

        def fn() -> None:
            frames, frame_mask = length_regulate(shared.hidden, shared.fpi, f)
            audio.copy_(vocoder(decoder(frames, frame_mask.to(self.dtype))))

        return fn

    def _frame_step(self, f: int, b: int) -> tuple[_Step, torch.Tensor]:
        """Step 2 for frame bucket ``f`` and batch size ``b``; returns it with its output audio buffer."""
        key = (f, b)
        if key not in self._frame_steps:
            audio = torch.zeros(b, f * self.hop, dtype=torch.float32, device=self.device)
            self._frame_steps[key] = (_Step(self._frames_fn(f, b, audio), self.settings.cuda_graphs, self._pool), audio)
        return self._frame_steps[key]

    # --- synthesis -------------------------------------------------------------------------------------

    def _run(self, batch: Sequence[Sequence[int]], speed: float, timings: Timings | None) -> list[SynthesisResult]:
        """One padded batch (len(batch) <= the largest batch size) through both steps."""
        n = len(batch)
        b = bucket_for(n, self.settings.batch_sizes)
        ids_np, mask_np = batch_to_bucket([*batch, *([[0]] * (b - n))], self.config.phoneme_buckets)
        mask_np[n:] = 0.0  # padding rows: no real ids, so no frames
        t = ids_np.shape[1]
        with self._lock, torch.inference_mode():
            t0 = time.perf_counter()
            step, ids, mask, speeds = self._acoustic_step(t, b)
            ids.copy_(torch.from_numpy(ids_np))
            mask.copy_(torch.from_numpy(mask_np))
            speeds.fill_(speed)
            step()
            shared = self._shared[b]
            totals = shared.totals[:n].cpu().numpy()  # the one host sync: it picks the frame bucket
            t1 = time.perf_counter()
            most = int(totals.max())
            f = frame_bucket(most, self.config.frame_buckets)
            if f <= self.config.frame_buckets[-1]:
                frame_step, audio_buf = self._frame_step(f, b)
                frame_step()
            else:  # beyond the largest bucket: eager at the needed size (rare)
                audio_buf = torch.empty(b, f * self.hop, dtype=torch.float32, device=self.device)
                self._frames_fn(f, b, audio_buf)()
            audio = audio_buf[:n, : most * self.hop].cpu().numpy()
            fpi = shared.fpi[:n, :t].cpu().numpy()
            t2 = time.perf_counter()
        add_time(timings, "acoustic", t1 - t0)
        add_time(timings, "frames_to_audio", t2 - t1)
        return [
            SynthesisResult(audio[i, : int(totals[i]) * self.hop].copy(), fpi[i, : len(seq)].copy())
            for i, seq in enumerate(batch)
        ]

    def synthesize_batch(
        self, batch: Sequence[Sequence[int]], speed: float = 1.0, timings: Timings | None = None
    ) -> list[SynthesisResult]:
        """Synthesize utterances of ids (``[0, *ids, 0]`` each), in batches of the captured sizes."""
        speed = SynthesisOptions(speed=speed).speed
        if not batch or min(len(ids) for ids in batch) < 1:
            raise ValueError("every utterance needs at least one phoneme id")
        largest = self.settings.batch_sizes[-1]
        results: list[SynthesisResult] = []
        for start in range(0, len(batch), largest):
            results += self._run(batch[start : start + largest], speed, timings)
        return results

    def synthesize(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> SynthesisResult:
        """Synthesize one utterance of ids (``[0, *ids, 0]``)."""
        return self.synthesize_batch([ids], speed, timings)[0]

    def stream(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> Streamed:
        """The whole utterance at once (milliseconds on a GPU), handed out in the stream chunk sizes."""
        result = self.synthesize(ids, speed, timings)
        s = self.stream_settings
        first = s.first_chunk_frames * self.hop
        bounds = [0, *range(first, result.audio.size, s.chunk_frames * self.hop), result.audio.size]
        chunks = (result.audio[a:z] for a, z in zip(bounds, bounds[1:], strict=False) if z > a)
        return Streamed(result.frames_per_id, chunks)
