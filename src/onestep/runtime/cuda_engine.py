"""GPU engine: a voice's PyTorch networks in fp16/bf16 with one CUDA graph per static shape.

The weights come from the voice's own ONNX files (``onestep.model.export.load_voice_models``), so the GPU
speaks exactly the voice the CPU engine speaks. A request runs in two steps, each a captured CUDA graph:

1. ``acoustic`` step, one graph per (phoneme bucket ``T``, batch size ``B``):
   ids [B,T] -> durations, hidden (in fp32 by default: the CPU engine's durations) -> frames per id (the
   shared rounding rule of :mod:`onestep.runtime.regulate`, on the GPU) -> written into the frame step
   inputs of batch size ``B`` (padded to the largest phoneme bucket, cast to the network dtype).
2. ``frames`` step, one graph per (frame bucket ``F``, batch size ``B``): length regulation on the GPU
   (cumsum + searchsorted, no host sync) -> decoder -> vocoder -> audio [B, F*hop] float32.

Between the two, the host reads the frames per id (one sync) and plans the frame passes
(:func:`plan_frame_passes`): rows are grouped by the frame bucket they need, so one long sentence does not
make a whole batch run at its length, and a group is cut into captured batch sizes when padding would cost
more than an extra pass. The rows of each pass are gathered (on the GPU) into the inputs of its batch size.
Audio comes back through page-locked host buffers allocated once (:class:`_HostBuffer`): one asynchronous
copy per pass, one sync per request, then the utterances' samples are copied out into one new array per
chunk (each result's ``audio`` is a view of it). Batches larger than the
largest captured batch size are sorted by length and split into near-equal chunks (:func:`plan_chunks`), so
each chunk's phoneme bucket fits its own sentences; results come back in input order.

Every step writes into buffers allocated outside its graph, so all graphs share one memory pool: a pool
then only ever holds intermediates, and the engine lock makes replays sequential. Frame counts beyond the
largest frame bucket (very long, slow sentences) run the second step eagerly at the needed size.

A background warm-up (``capture="background"``, what ``TTS(device="cuda")`` uses) captures the steps batch
size by batch size, smallest first; requests are planned only over the batch sizes captured so far, and the
engine is :attr:`CudaEngine.ready` once the smallest is (the rest follow, :attr:`CudaEngine.fully_captured`).

Built with ``cuda_graphs=False`` and ``device="cpu"`` the same steps and plans run eagerly on the CPU, which
is how the tests check this module without a GPU.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from onestep.config import ConfigError, SynthesisOptions
from onestep.runtime.buckets import bucket_for, pad_batch
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
from onestep.runtime.mel_postfilter import DECIMALS, pack_postfilter
from onestep.runtime.regulate import frames_per_id_torch
from onestep.runtime.speakers import batch_speakers, load_speaker_table

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}
CAPTURE_MODES = ("now", "background")
#: Environment variable: the capture mode of engines loaded by name (``TTS(device="cuda")``, the server).
CAPTURE_ENV = "ONESTEP_CUDA_CAPTURE"
#: Environment variable: ``0`` turns cuDNN's autotuning off for engines loaded by name.
BENCHMARK_ENV = "ONESTEP_CUDNN_BENCHMARK"

log = logging.getLogger("onestep.runtime")


@dataclass(frozen=True)
class BatchPlan:
    """How a batch is cut into frame passes; no graph depends on it, so ``engine.plan`` may be replaced.

    Attributes:
        pass_overhead_frames: the fixed cost of one more frame pass (replay, gather, copy), counted in
            batch rows x frames of frame-step work; rows are split into more passes only when that saves more
            padded work than this. ``None``: never split (every chunk runs as one pass at its longest row).
    """

    pass_overhead_frames: int | None = 4096

    def __post_init__(self) -> None:
        if self.pass_overhead_frames is not None and self.pass_overhead_frames < 0:
            raise ConfigError(f"pass_overhead_frames must be >= 0 or None, got {self.pass_overhead_frames}")


@dataclass(frozen=True)
class CudaSettings:
    """GPU engine settings.

    Attributes:
        device: torch device (``"cuda"``, ``"cuda:1"``; ``"cpu"`` only for tests, with ``cuda_graphs=False``).
        dtype: ``"fp16"``, ``"bf16"`` or ``"fp32"`` for the decoder and the vocoder (the iSTFT always runs in
            fp32).
        acoustic_dtype: the same for the acoustic model (phoneme encoder + duration predictor). ``"fp32"``
            (default, run without TF32): its durations match the CPU engine's, so every text gets the same
            frames on both (:mod:`onestep.runtime.regulate`); a lower precision moved ~1 line in 7 by a frame.
            Its hidden states are cast to ``dtype`` for the frame step.
        batch_sizes: batch sizes captured; a pass is padded to the next one, larger batches are split.
        cuda_graphs: capture CUDA graphs (False: run the same steps eagerly).
        cudnn_benchmark: let cuDNN time every convolution algorithm once per shape and keep the fastest (the
            shapes are static). Off by default: the warm-up of the shipped voice (50 steps, fp16, one H100)
            took 9.8 s without it and 16.3 s with it, and single calls after it were no slower (p50 5.5 vs
            8.0 ms, p99 8.2 vs 12.1 ms on 100 held-out texts; lab/GPU_RUNS.md session 11); batch throughput
            with it off is not measured yet.
        capture: when the warm-up builds (and captures) the steps: ``"now"`` (in the constructor: ~10-16 s for
            a shipped voice in fp16 on an H100) or ``"background"`` (a thread, one step at a time under the engine
            lock, batch sizes smallest first; the engine serves at once: eagerly until the smallest batch size's
            steps are captured, then only through captured batch sizes (a larger chunk runs as several passes
            of the largest captured size); :attr:`CudaEngine.ready` is set when the smallest batch size is
            captured and the eager ops are warm, :attr:`CudaEngine.fully_captured` when every step is).
        plan: how batches are cut into frame passes (see :class:`BatchPlan`).
    """

    device: str = "cuda"
    dtype: str = "fp16"
    acoustic_dtype: str = "fp32"
    batch_sizes: tuple[int, ...] = (1, 2, 4, 8, 16)
    cuda_graphs: bool = True
    cudnn_benchmark: bool = False
    capture: str = "now"
    plan: BatchPlan = field(default_factory=BatchPlan)

    def __post_init__(self) -> None:
        for name in ("dtype", "acoustic_dtype"):
            if getattr(self, name) not in DTYPES:
                raise ConfigError(f"{name} must be one of {sorted(DTYPES)}, got {getattr(self, name)!r}")
        if self.capture not in CAPTURE_MODES:
            raise ConfigError(f"capture must be one of {', '.join(CAPTURE_MODES)}, got {self.capture!r}")
        sizes = tuple(self.batch_sizes)
        if not sizes or list(sizes) != sorted(set(sizes)) or sizes[0] < 1:
            raise ConfigError(f"batch_sizes must be strictly increasing positive ints, got {sizes}")
        object.__setattr__(self, "batch_sizes", sizes)  # a list works too (the plans cache on it)
        if self.cuda_graphs and not self.device.startswith("cuda"):
            raise ConfigError(f"cuda_graphs needs a cuda device, got {self.device!r}")


# --- planning (pure host logic) ----------------------------------------------------------------------------


def plan_chunks(lengths: Sequence[int], largest: int) -> list[np.ndarray]:
    """Cut a batch into acoustic chunks of at most ``largest`` rows, similar lengths together.

    Args:
        lengths: ids per utterance (boundary pads included), N values.
        largest: the largest captured batch size.
    Returns:
        int64 index arrays into the batch: one chunk ``[0..N)`` in input order when ``N <= largest``, else
        the indices sorted by length (stable) and split into ``ceil(N / largest)`` near-equal chunks.
    """
    n = len(lengths)
    if n <= largest:
        return [np.arange(n, dtype=np.int64)]
    order = np.argsort(np.asarray(lengths), kind="stable").astype(np.int64)
    return list(np.array_split(order, -(-n // largest)))


@functools.lru_cache(maxsize=4096)
def split_rows(n: int, batch_sizes: tuple[int, ...], overhead_rows: float) -> tuple[int, ...]:
    """Rows per pass for ``n <= batch_sizes[-1]`` rows, minimising padded rows + ``overhead_rows`` per pass.

    Each pass runs at the captured size ``bucket_for(rows)``; at most one pass is padded (the last).
    Returns: pass sizes, largest first, summing to ``n``.
    """
    if not 1 <= n <= batch_sizes[-1]:
        raise ValueError(f"need 1 <= n <= {batch_sizes[-1]} rows, got {n}")
    best = [0.0] * (n + 1)
    choice = [0] * (n + 1)
    for i in range(1, n + 1):
        best[i] = bucket_for(i, batch_sizes) + overhead_rows  # one (padded) pass holds all i rows
        choice[i] = i
        for s in batch_sizes:
            if s >= i:
                break
            cost = best[i - s] + s + overhead_rows
            if cost < best[i]:
                best[i], choice[i] = cost, s
    sizes = []
    while n:
        sizes.append(choice[n])
        n -= choice[n]
    return tuple(sorted(sizes, reverse=True))


@dataclass(frozen=True)
class FramePass:
    """One frame-step replay.

    Attributes:
        rows: int64 [k] chunk rows run by this pass, in buffer order (buffer row j holds chunk row rows[j]).
        frames: frame bucket F the pass runs at (beyond the largest bucket: an eager size).
        batch: captured batch size B >= k the pass is padded to.
    """

    rows: np.ndarray
    frames: int
    batch: int


def plan_frame_passes(
    totals: np.ndarray,
    frame_buckets: Sequence[int],
    batch_sizes: tuple[int, ...],
    overhead_frames: int | None,
) -> list[FramePass]:
    """Group a chunk's rows into frame passes by the frame bucket they need.

    Rows are sorted by total frames; runs needing the same bucket form groups; adjacent groups are merged
    (the merged group runs at the larger bucket) and groups are cut into captured batch sizes
    (:func:`split_rows`) wherever that minimises ``padded rows x F + overhead_frames`` per pass.

    Args:
        totals: int64 [n] frames of each chunk row, n <= ``batch_sizes[-1]``.
        frame_buckets: the voice's frame buckets.
        batch_sizes: captured batch sizes.
        overhead_frames: fixed cost of one pass in rows x frames; ``None``: one pass for all rows.
    Returns:
        passes covering every row exactly once. A single pass over all rows keeps them in chunk order
        (``rows == arange(n)``), so its inputs need no gather.
    """
    n = len(totals)
    need = [frame_bucket(int(t), frame_buckets) for t in totals]
    if overhead_frames is None or n == 1:
        return [FramePass(np.arange(n, dtype=np.int64), max(need), bucket_for(n, batch_sizes))]
    order = np.argsort(np.asarray(totals), kind="stable").astype(np.int64)
    sorted_need = [need[i] for i in order]
    bounds = [0] + [i for i in range(1, n) if sorted_need[i] != sorted_need[i - 1]] + [n]  # group edges

    def segment(a: int, z: int) -> tuple[float, tuple[int, ...], int]:
        """Rows bounds[a]..bounds[z] at the bucket of their last group: (cost, pass sizes, F)."""
        f = sorted_need[bounds[z] - 1]
        sizes = split_rows(bounds[z] - bounds[a], batch_sizes, overhead_frames / f)
        cost = sum(bucket_for(s, batch_sizes) for s in sizes) * f + overhead_frames * len(sizes)
        return cost, sizes, f

    m = len(bounds) - 1
    best: list[float] = [0.0] + [float("inf")] * m
    cut = [0] * (m + 1)
    for z in range(1, m + 1):
        for a in range(z):
            cost = best[a] + segment(a, z)[0]
            if cost < best[z]:
                best[z], cut[z] = cost, a
    passes: list[FramePass] = []
    z = m
    while z:
        a = cut[z]
        _, sizes, f = segment(a, z)
        start = bounds[a]
        for s in sizes:
            passes.append(FramePass(order[start : start + s], f, bucket_for(s, batch_sizes)))
            start += s
        z = a
    if len(passes) == 1:
        return [FramePass(np.arange(n, dtype=np.int64), passes[0].frames, passes[0].batch)]
    return passes[::-1]


# --- device-side building blocks ------------------------------------------------------------------------------


frames_per_id = frames_per_id_torch
"""The contract's rounding rule on the GPU: :func:`onestep.runtime.regulate.frames_per_id_torch` (the CPU
engine's rule, one definition)."""


class _ExactFloat32:
    """Within: float32 convolutions and matmuls in full float32 (no TF32), so the fp32 acoustic step's
    durations match the CPU engine's to float32 rounding (TF32 keeps 10 mantissa bits: ~1e-3 relative, enough
    to move a duration near a half to the other frame). Restores the previous settings on exit."""

    def __enter__(self) -> None:
        try:  # the legacy flags; torch refuses them once the process has set the newer fp32_precision API
            self._saved: tuple[object, object] = (torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32)
            self._new_api = False
            torch.backends.cudnn.allow_tf32 = False
            torch.backends.cuda.matmul.allow_tf32 = False
        except RuntimeError:
            self._saved = (torch.backends.cudnn.conv.fp32_precision, torch.backends.cuda.matmul.fp32_precision)
            self._new_api = True
            torch.backends.cudnn.conv.fp32_precision = "ieee"
            torch.backends.cuda.matmul.fp32_precision = "ieee"

    def __exit__(self, *exc: object) -> None:
        if self._new_api:
            torch.backends.cudnn.conv.fp32_precision, torch.backends.cuda.matmul.fp32_precision = self._saved
        else:
            torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = self._saved


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
        self.pool = pool
        self.graph: torch.cuda.CUDAGraph | None = None
        if capture:
            self.capture()

    def capture(self) -> None:
        """Capture the graph (once; the engine lock held): two warm-up runs on a side stream, then the capture.
        Only the capturing thread is barred from unsafe CUDA calls meanwhile (``thread_local``), so other
        engines' threads may go on."""
        if self.graph is not None:
            return
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up runs (cuDNN autotuning, lazy init) outside the capture
            for _ in range(2):
                self.fn()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, pool=self.pool, capture_error_mode="thread_local"):
            self.fn()
        self.graph = graph

    def __call__(self) -> None:
        if self.graph is not None:
            self.graph.replay()
        else:
            self.fn()


class _HostBuffer:
    """Reusable host memory that device -> host copies land in.

    Page-locked on CUDA, so a copy runs at full bus speed and asynchronously (one sync for all the passes of
    a request), and allocated once and grown only when a request needs more, so no request pays for fresh
    pages. ``array`` is a numpy view of the same memory; callers copy their rows out before reusing it.
    """

    def __init__(self, dtype: torch.dtype, pin: bool) -> None:
        self.dtype, self.pin = dtype, pin
        self.tensor = torch.empty(1, dtype=dtype, pin_memory=pin)
        self.array: np.ndarray = self.tensor.numpy()

    def reserve(self, numel: int) -> None:
        """Make room for ``numel`` elements (drops the contents when it grows)."""
        if numel > self.tensor.numel():
            self.tensor = torch.empty(numel, dtype=self.dtype, pin_memory=self.pin)
            self.array = self.tensor.numpy()

    def copy_from(self, offset: int, src: torch.Tensor) -> None:
        """Start copying device tensor ``src`` [k, L] into elements ``offset .. offset + k*L`` (row-major)."""
        if src.numel():
            self.tensor[offset : offset + src.numel()].view(src.shape).copy_(src, non_blocking=True)


@dataclass
class _Shared:
    """Per batch size: the frame step's inputs, padded to the largest phoneme bucket ``T_max``.

    Attributes:
        hidden: [B, T_max, C] network dtype; fpi: [B, T_max] int64 frames per id (0 past each row's ids).
        speaker: [B, S] speaker vectors of a multi-speaker voice in the acoustic model's dtype (its input;
            the frame step reads them cast to the network dtype); None for a single-speaker voice.
    """

    hidden: torch.Tensor
    fpi: torch.Tensor
    speaker: torch.Tensor | None = None


class CudaEngine:
    """One voice on the GPU (see the module docstring).

    Args:
        voice_dir: directory with ``voice.json`` (exported by onestep: it carries ``extra.model``) and graphs.
        settings: device, dtype, batch sizes, CUDA graphs on/off, batch plan.
        stream: chunk sizes of :meth:`stream` (the audio is computed whole, then cut).
        warmup: build (and capture) every (bucket, batch size) step, now or in the background
            (``settings.capture``); otherwise each on first use.
        before_rest: a background warm-up calls it (in its thread, without the engine lock) once :attr:`ready`
            is set, before it captures the larger batch sizes: a way to let other start-up work (the TTS's
            frontend preload) have the interpreter first. It should return within seconds; what it raises is
            logged and ignored. May also be set as an attribute before the warm-up gets there.

    Attributes:
        plan: the :class:`BatchPlan` in use (from ``settings``; may be replaced at any time).
        ready: set once every step of the smallest batch size is captured (and run once) and the eager ops
            around the steps are warm: from then on no request runs a step eagerly (a background warm-up goes
            on capturing the larger batch sizes, one step at a time under the engine lock, and requests are cut
            into passes of the captured sizes meanwhile). Also set when a warm-up fails, and at once without a
            warm-up. A server reports ready (``/health``) only then; the engine serves before, eagerly.
        fully_captured: set once the warm-up is over (every step of every batch size captured and run once,
            or :attr:`capture_error` says what stopped it); with ``capture="now"`` or no warm-up together with
            :attr:`ready`.
        capture_error: what stopped a background warm-up (the engine then goes on, eagerly where a step is not
            captured), else None.
        ready_seconds: wall time from the warm-up's start to :attr:`ready` (a background one's once set).
        warmup_seconds: the whole warm-up's wall time (a background one's once :attr:`fully_captured`).
    """

    #: A background warm-up before :attr:`ready`: how long it waits for queued requests before its next step.
    PATIENCE_S = 0.5
    #: After :attr:`ready` (requests are served from graphs by then, so a capture is what would delay one):
    #: each further step waits until no request is queued and none ended in the last ``QUIET_S`` seconds,
    #: for at most ``REST_PATIENCE_S``.
    QUIET_S = 0.25
    REST_PATIENCE_S = 2.0

    def __init__(
        self,
        voice_dir: str | Path,
        settings: CudaSettings | None = None,
        stream: StreamSettings | None = None,
        warmup: bool = True,
        before_rest: Callable[[], None] | None = None,
    ) -> None:
        t0 = time.perf_counter()
        self.settings = settings or CudaSettings()
        self.plan = self.settings.plan
        self.stream_settings = stream or StreamSettings()
        self.device = torch.device(self.settings.device)
        if self.device.type == "cuda" and not torch.cuda.is_available():
            raise RuntimeError("device 'cuda' asked for but torch sees no CUDA device")
        self.dtype = DTYPES[self.settings.dtype]
        self.config, models = load_voice_models(voice_dir)
        self.speakers = load_speaker_table(voice_dir, self.config)
        postfilter = pack_postfilter(self.config, self.speakers)  # the same per-voice rule as the CPU engine
        self._postfilter = None if postfilter is None else (
            torch.from_numpy(postfilter.weight).to(self.device),
            postfilter.bias,
            torch.from_numpy(postfilter.difference).to(self.device, self.dtype),
        )
        istft = models.vocoder.istft  # kept out of the cast: its basis/envelope must stay exact fp32
        models.vocoder.istft = nn.Identity()
        self.acoustic_dtype = DTYPES[self.settings.acoustic_dtype]
        for name, module in models.parts().items():
            dtype = self.acoustic_dtype if module is models.acoustic else self.dtype
            module.to(self.device, dtype).requires_grad_(False)
        models.vocoder.istft = _Float32(istft.to(self.device))
        self.models = models
        self.hop = self.config.audio.hop_length
        on_cuda = self.device.type == "cuda"
        if on_cuda and self.settings.cudnn_benchmark:
            torch.backends.cudnn.benchmark = True  # static shapes: pick the fastest conv kernels once
        self._pool = torch.cuda.graph_pool_handle() if self.settings.cuda_graphs else None
        self._t_max = self.config.phoneme_buckets[-1]
        c = self.config.hidden_dim
        s = None if self.speakers is None else self.speakers.shape[1]
        self._shared = {
            b: _Shared(
                torch.zeros(b, self._t_max, c, dtype=self.dtype, device=self.device),
                torch.zeros(b, self._t_max, dtype=torch.int64, device=self.device),
                None if s is None else torch.zeros(b, s, dtype=self.acoustic_dtype, device=self.device),
            )
            for b in self.settings.batch_sizes
        }
        self._audio_host = _HostBuffer(torch.float32, pin=on_cuda)
        self._fpi_host = _HostBuffer(torch.int64, pin=on_cuda)
        self._acoustic_steps: dict[tuple[int, int], tuple[_Step, torch.Tensor, torch.Tensor, torch.Tensor]] = {}
        self._frame_steps: dict[tuple[int, int], tuple[_Step, torch.Tensor]] = {}
        self._lock = threading.Lock()
        self._requests_waiting = 0  # requests blocked on _lock; the background warm-up lets them go first
        self._requests_in = 0  # requests waiting for or holding _lock (the warm-up's rest waits for none)
        self._last_turn_end = float("-inf")  # time.monotonic() when the last request released _lock
        self._turns = threading.Condition()
        self._background = self.settings.capture == "background"
        # the batch sizes requests are planned over (read and changed under _lock): a background warm-up
        # starts with none captured (then every size, eagerly) and adds each once all its steps are captured
        self._captured: tuple[int, ...] = () if warmup and self._background else self.settings.batch_sizes
        self.before_rest = before_rest
        self.ready = threading.Event()
        self.fully_captured = threading.Event()
        self.capture_error: BaseException | None = None
        self.load_seconds = time.perf_counter() - t0
        self.ready_seconds = 0.0
        self.warmup_seconds = 0.0
        self._capturer: threading.Thread | None = None
        if warmup and self._background:
            self._capturer = threading.Thread(target=self._warm_in_background, name="onestep-capture", daemon=True)
            self._capturer.start()
        else:
            self.warmup_seconds = self.ready_seconds = self.warm() if warmup else 0.0
            self.ready.set()
            self.fully_captured.set()

    @property
    def sample_rate(self) -> int:
        return self.config.audio.sample_rate

    def warm(self) -> float:
        """Build (capture) the step of every (bucket, batch size), size the host buffers and run every eager
        op once (gathers, copies); returns the seconds it took."""
        t0 = time.perf_counter()
        with self._lock, torch.inference_mode():
            for build in self._step_builders():
                build()
            self._captured = self.settings.batch_sizes
            self._warm_eager_ops()
        self._sync()
        return time.perf_counter() - t0

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until :attr:`ready` (or ``timeout`` seconds); returns whether it is set."""
        return self.ready.wait(timeout)

    @property
    def captured_batch_sizes(self) -> tuple[int, ...]:
        """The batch sizes whose steps are all captured so far (every size once :attr:`fully_captured`, with
        ``capture="now"`` and without a warm-up; a snapshot: a background warm-up may add one at any time)."""
        return self._captured

    def _serving_sizes(self) -> tuple[int, ...]:
        """The batch sizes a request is planned over (the engine lock held): the captured ones, or every size
        (eagerly) while none is."""
        return self._captured or self.settings.batch_sizes

    def _step_builders(self, sizes: Sequence[int] | None = None) -> list[Callable[[], None]]:
        """One function per (bucket, batch size) step that builds it and captures its graph, for the batch
        sizes ``sizes`` (default every one, smallest first: what a lightly loaded server needs first)."""

        def acoustic(t: int, b: int) -> None:
            step = self._acoustic_step(t, b)[0]
            if self.settings.cuda_graphs:
                step.capture()

        def frames(f: int, b: int) -> None:
            step = self._frame_step(f, b)[0]
            if self.settings.cuda_graphs:
                step.capture()

        builders: list[Callable[[], None]] = []
        for b in self.settings.batch_sizes if sizes is None else sizes:
            builders += [functools.partial(acoustic, t, b) for t in self.config.phoneme_buckets]
            builders += [functools.partial(frames, f, b) for f in self.config.frame_buckets]
        return builders

    def _warm_eager_ops(self) -> None:
        """Size the host buffers and run the eager ops around the steps once (the lock held)."""
        largest = self.settings.batch_sizes[-1]
        self._fpi_host.reserve(largest * self._t_max)
        self._audio_host.reserve(largest * self.config.frame_buckets[-1] * self.hop)
        # the eager ops of one pass (input and read-back copies), at the smallest size requests are planned on
        self._run_chunk([[0, 1, 0]], 1.0, None, sizes=self._serving_sizes())
        smallest = self.settings.batch_sizes[0]
        for stage in self._gather(self._shared[smallest], [FramePass(np.zeros(1, dtype=np.int64), 0, smallest)] * 2):
            stage()  # the eager ops of a split chunk: index upload, gathers, copies

    def _warm_in_background(self) -> None:
        """The background warm-up, batch sizes smallest first: each step built and captured under the engine
        lock, one at a time, so a request waits for at most one capture; a batch size joins the sizes requests
        are planned over once all its steps are captured. After the smallest: the eager ops, then :attr:`ready`,
        then :attr:`before_rest`; then the larger sizes (each step when requests leave the engine a quiet
        moment), then :attr:`fully_captured`."""
        t0 = time.perf_counter()
        on_cuda = self.device.type == "cuda"
        try:
            with torch.cuda.device(self.device) if on_cuda else contextlib.nullcontext(), torch.inference_mode():
                for b in self.settings.batch_sizes:
                    # the rest (after ready): requests run on graphs, so a capture is what would delay one
                    turn = (self.REST_PATIENCE_S, self.QUIET_S) if self.ready.is_set() else (self.PATIENCE_S, 0.0)
                    for build in self._step_builders((b,)):
                        self._let_requests_go_first(*turn)
                        with self._lock:
                            build()
                    with self._lock:
                        self._captured = (*self._captured, b)
                    if not self.ready.is_set():
                        self._let_requests_go_first()
                        with self._lock:
                            self._warm_eager_ops()
                            self._sync()
                        self._set_ready(t0)
                        self._call_before_rest()
        except BaseException as e:  # the engine still serves, eagerly where a step is not captured
            self.capture_error = e
            log.exception("CUDA-graph capture failed for voice %s; serving without graphs", self.config.name)
        finally:
            self.warmup_seconds = time.perf_counter() - t0
            if not self.ready.is_set():
                self._set_ready(t0)
            self.fully_captured.set()

    def _set_ready(self, t0: float) -> None:
        self.ready_seconds = time.perf_counter() - t0
        self.ready.set()

    def _call_before_rest(self) -> None:
        """Run :attr:`before_rest`, if any (in the warm-up thread, no lock held); what it raises is logged."""
        hook = self.before_rest
        if hook is None:
            return
        try:
            hook()
        except Exception:
            log.exception("the warm-up's before_rest hook failed for voice %s; capturing on", self.config.name)

    def _let_requests_go_first(self, patience_s: float = PATIENCE_S, quiet_s: float = 0.0) -> None:
        """Before the warm-up takes the engine lock for its next step: wait (up to ``patience_s``) until no
        request is waiting for it (``quiet_s`` > 0: none is waiting for or holding it, and none released it in
        the last ``quiet_s`` seconds). A released lock goes to whichever thread asks first, and the warm-up
        thread, busy in torch with the GIL, asked first every time: on an H100 the first request waited for all
        50 steps (16 s) instead of one. Under a steady flood of requests the warm-up still moves on, one step
        every ``patience_s``."""
        deadline = time.monotonic() + patience_s
        with self._turns:
            while True:
                now = time.monotonic()
                if now >= deadline:
                    return
                if self._requests_waiting or (quiet_s > 0 and self._requests_in):
                    wait = deadline - now
                else:
                    idle = now - self._last_turn_end
                    if idle >= quiet_s:
                        return
                    wait = min(quiet_s - idle, deadline - now)
                self._turns.wait(wait)

    @contextlib.contextmanager
    def _engine_turn(self) -> Iterator[None]:
        """Hold the engine lock for a request, flagged as waiting while it queues and as in while it waits or
        holds it (see :meth:`_let_requests_go_first`)."""
        with self._turns:
            self._requests_waiting += 1
            self._requests_in += 1
        acquired = False
        try:
            acquired = self._lock.acquire()
        finally:
            with self._turns:
                self._requests_waiting -= 1
                if not acquired:
                    self._requests_in -= 1
                self._turns.notify_all()
        try:
            yield
        finally:
            self._lock.release()
            with self._turns:
                self._requests_in -= 1
                self._last_turn_end = time.monotonic()
                self._turns.notify_all()

    def _sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.current_stream(self.device).synchronize()

    # --- steps -----------------------------------------------------------------------------------------

    def _acoustic_step(self, t: int, b: int) -> tuple[_Step, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Step 1 for phoneme bucket ``t`` and batch size ``b``; returns it with its inputs (ids, mask, speed)."""
        key = (t, b)
        if key not in self._acoustic_steps:
            ids = torch.zeros(b, t, dtype=torch.int64, device=self.device)
            mask = torch.zeros(b, t, dtype=self.acoustic_dtype, device=self.device)
            speed = torch.ones(b, dtype=torch.float64, device=self.device)  # the rule's float64 speed
            shared = self._shared[b]
            acoustic = self.models.acoustic
            exact = self.acoustic_dtype == torch.float32 and self.device.type == "cuda"

            def fn() -> None:
                if exact:
                    with _ExactFloat32():
                        durations, hidden = acoustic(ids, mask, shared.speaker)
                else:
                    durations, hidden = acoustic(ids, mask, shared.speaker)
                fpi = frames_per_id(durations, mask, speed)
                shared.hidden[:, :t].copy_(hidden)
                shared.hidden[:, t:].zero_()
                shared.fpi[:, :t].copy_(fpi)
                shared.fpi[:, t:].zero_()

            capture = self.settings.cuda_graphs and not self._background  # background: the warm-up captures it
            self._acoustic_steps[key] = (_Step(fn, capture, self._pool), ids, mask, speed)
        return self._acoustic_steps[key]

    def _frames_fn(self, f: int, b: int, audio: torch.Tensor) -> Callable[[], None]:
        """Step 2 as a function: regulate ``b`` rows to ``f`` frames, decode, vocode into ``audio`` [b, f*hop]."""
        shared = self._shared[b]
        decoder, vocoder = self.models.decoder, self.models.vocoder

        def fn() -> None:
            frames, frame_mask = length_regulate(shared.hidden, shared.fpi, f)
            speaker = None if shared.speaker is None else shared.speaker.to(self.dtype)
            mel = decoder(frames, frame_mask.to(self.dtype), speaker)
            if self._postfilter is not None and shared.speaker is not None:
                mel = self._sharpen(mel, shared.speaker)
            audio.copy_(vocoder(mel))

        return fn

    def _sharpen(self, mel: torch.Tensor, speaker: torch.Tensor) -> torch.Tensor:
        """The pack's per-voice postfilter (:mod:`onestep.runtime.mel_postfilter`): mel [B, n_mels, F] of
        speaker vectors [B, S] -> mel + strength(speaker) * D @ mel (the strength's readout in fp32)."""
        assert self._postfilter is not None
        weight, bias, difference = self._postfilter
        strength = torch.round(speaker.float() @ weight + bias, decimals=DECIMALS).to(mel.dtype)
        return mel + strength[:, None, None] * (difference @ mel)

    def _frame_step(self, f: int, b: int) -> tuple[_Step, torch.Tensor]:
        """Step 2 for frame bucket ``f`` and batch size ``b``; returns it with its output audio buffer."""
        key = (f, b)
        if key not in self._frame_steps:
            audio = torch.zeros(b, f * self.hop, dtype=torch.float32, device=self.device)
            capture = self.settings.cuda_graphs and not self._background
            self._frame_steps[key] = (_Step(self._frames_fn(f, b, audio), capture, self._pool), audio)
        return self._frame_steps[key]

    def _run_frames(self, f: int, b: int) -> torch.Tensor:
        """Run step 2 on the inputs of batch size ``b`` at ``f`` frames; returns the audio [b, f*hop]."""
        if f <= self.config.frame_buckets[-1]:
            step, audio = self._frame_step(f, b)
            step()
            return audio
        audio = torch.empty(b, f * self.hop, dtype=torch.float32, device=self.device)  # rare: eager, sized
        self._frames_fn(f, b, audio)()
        return audio

    def _gather(self, shared: _Shared, passes: Sequence[FramePass]) -> list[Callable[[], None]]:
        """Gather every pass's rows out of ``shared`` now; returns, per pass, the function that writes its
        rows into the inputs of its batch size (padding rows zeroed). All rows are taken before any pass
        writes, so a pass may reuse the very buffers it was gathered from."""
        index = torch.from_numpy(np.concatenate([p.rows for p in passes])).to(self.device)
        hidden, fpi = shared.hidden.index_select(0, index), shared.fpi.index_select(0, index)
        speaker = None if shared.speaker is None else shared.speaker.index_select(0, index)
        stages: list[Callable[[], None]] = []
        start = 0
        for p in passes:

            def stage(a: int = start, k: int = len(p.rows), dst: _Shared = self._shared[p.batch]) -> None:
                dst.hidden[:k].copy_(hidden[a : a + k])
                dst.hidden[k:].zero_()
                dst.fpi[:k].copy_(fpi[a : a + k])
                dst.fpi[k:].zero_()
                if dst.speaker is not None and speaker is not None:
                    dst.speaker[:k].copy_(speaker[a : a + k])
                    dst.speaker[k:].zero_()

            stages.append(stage)
            start += len(p.rows)
        return stages

    # --- synthesis -------------------------------------------------------------------------------------

    def _run_chunk(
        self,
        batch: Sequence[Sequence[int]],
        speed: float,
        timings: Timings | None,
        speakers: np.ndarray | None = None,
        sizes: tuple[int, ...] | None = None,
    ) -> list[SynthesisResult]:
        """One chunk (``len(batch) <=`` the largest of ``sizes``) through both steps; results in chunk order.

        ``sizes``: the batch sizes to plan over (default every configured one). The caller holds the engine
        lock and inference mode.
        """
        sizes = self.settings.batch_sizes if sizes is None else sizes
        n = len(batch)
        b = bucket_for(n, sizes)
        t = bucket_for(max(len(ids) for ids in batch), self.config.phoneme_buckets)
        ids_np = np.zeros((b, t), dtype=np.int64)
        mask_np = np.zeros((b, t), dtype=np.float32)  # padding rows: no real ids, so no frames
        ids_np[:n], mask_np[:n] = pad_batch(batch, t)
        t0 = time.perf_counter()
        step, ids, mask, speeds = self._acoustic_step(t, b)
        ids.copy_(torch.from_numpy(ids_np))
        mask.copy_(torch.from_numpy(mask_np))
        speeds.fill_(speed)
        shared = self._shared[b]
        if shared.speaker is not None:
            rows = np.zeros((b, shared.speaker.shape[1]), dtype=np.float32)
            rows[:n] = batch_speakers(self.speakers, self.config, speakers, n)
            shared.speaker.copy_(torch.from_numpy(rows))
        step()
        self._fpi_host.reserve(n * t)
        self._fpi_host.copy_from(0, shared.fpi[:n, :t])
        self._sync()  # the sync that lets the host plan the frame passes
        fpi = self._fpi_host.array[: n * t].reshape(n, t).copy()
        totals = fpi.sum(axis=1)
        t1 = time.perf_counter()

        passes = plan_frame_passes(totals, self.config.frame_buckets, sizes, self.plan.pass_overhead_frames)
        widths = [int(totals[p.rows].max()) * self.hop for p in passes]  # samples read back per row of a pass
        offsets = np.cumsum([0] + [len(p.rows) * w for p, w in zip(passes, widths, strict=True)])
        self._audio_host.reserve(int(offsets[-1]))
        keep: list[torch.Tensor] = []  # device buffers with copies in flight
        if len(passes) == 1:
            keep.append(self._run_frames(passes[0].frames, b))  # in chunk order: no gather
            self._audio_host.copy_from(0, keep[0][:n, : widths[0]])
        else:
            for p, stage, width, offset in zip(passes, self._gather(shared, passes), widths, offsets, strict=False):
                stage()
                keep.append(self._run_frames(p.frames, p.batch))
                self._audio_host.copy_from(int(offset), keep[-1][: len(p.rows), :width])
        self._sync()
        t2 = time.perf_counter()
        audio = self._audio_host.array
        # the chunk's audio goes into ONE new array (its rows are views of it): a fresh array per utterance
        # cost twice the CPU time here (page faults on every new buffer; a large array gets huge pages), and
        # this copy runs on the engine's thread, which every other request waits for
        sizes = totals.astype(np.int64) * self.hop
        ends = np.cumsum(sizes)
        block = np.empty(int(ends[-1]) if n else 0, dtype=np.float32)
        results: list[SynthesisResult | None] = [None] * n
        for p, width, offset in zip(passes, widths, offsets, strict=False):
            for j, row in enumerate(p.rows):
                a, z = int(offset) + j * width, int(ends[row])
                samples = block[z - int(sizes[row]) : z]
                samples[...] = audio[a : a + int(sizes[row])]
                results[row] = SynthesisResult(samples, fpi[row, : len(batch[row])].copy())
        add_time(timings, "acoustic", t1 - t0)  # inputs up, acoustic pass, frames per id back
        add_time(timings, "frames_to_audio", t2 - t1)  # plan, gathers, frame passes, audio in host buffer
        add_time(timings, "copy_out", time.perf_counter() - t2)  # each utterance's samples into its own array
        return results  # type: ignore[return-value]

    def synthesize_batch(
        self,
        batch: Sequence[Sequence[int]],
        speed: float = 1.0,
        timings: Timings | None = None,
        speaker: np.ndarray | None = None,
    ) -> list[SynthesisResult]:
        """Synthesize utterances of ids (``[0, *ids, 0]`` each); results in input order.

        Up to the largest captured batch size the batch is one acoustic pass; larger batches are sorted by
        length and split into near-equal chunks (:func:`plan_chunks`). While a background warm-up runs, only
        the batch sizes captured so far are used (:attr:`captured_batch_sizes`; every size, eagerly, until the
        first is captured). ``speaker``: a multi-speaker voice's
        vector (S,) for all or [B,S] one per utterance (voices of one model share a pass); default its
        default voice.
        """
        rows = batch_speakers(self.speakers, self.config, speaker, len(batch))
        speed = SynthesisOptions(speed=speed).speed
        if not batch or min(len(ids) for ids in batch) < 1:
            raise ValueError("every utterance needs at least one phoneme id")
        longest = max(len(ids) for ids in batch)
        if longest > self._t_max:
            raise ValueError(f"an utterance has {longest} ids, more than the largest phoneme bucket {self._t_max}")
        results: list[SynthesisResult | None] = [None] * len(batch)
        with self._engine_turn(), torch.inference_mode():
            sizes = self._serving_sizes()  # one snapshot per call, under the lock a warm-up changes it under
            for chunk in plan_chunks([len(ids) for ids in batch], sizes[-1]):
                chunk_rows = None if rows is None else rows[chunk]
                run = self._run_chunk([batch[i] for i in chunk], speed, timings, chunk_rows, sizes)
                for i, result in zip(chunk, run, strict=True):
                    results[i] = result
        return results  # type: ignore[return-value]

    def synthesize(
        self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None, speaker: np.ndarray | None = None
    ) -> SynthesisResult:
        """Synthesize one utterance of ids (``[0, *ids, 0]``)."""
        return self.synthesize_batch([ids], speed, timings, speaker)[0]

    def stream(
        self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None, speaker: np.ndarray | None = None
    ) -> Streamed:
        """The whole utterance at once (milliseconds on a GPU), handed out in the stream chunk sizes."""
        result = self.synthesize(ids, speed, timings, speaker)
        s = self.stream_settings
        first = s.first_chunk_frames * self.hop
        bounds = [0, *range(first, result.audio.size, s.chunk_frames * self.hop), result.audio.size]
        chunks = (result.audio[a:z] for a, z in zip(bounds, bounds[1:], strict=False) if z > a)
        return Streamed(result.frames_per_id, chunks)


def load(voice_dir: str | Path, threads: int | None = None, stream: StreamSettings | None = None) -> CudaEngine:
    """The ``torch-cuda-graphs`` engine's loader (named by :mod:`onestep.runtime.engines`; ``threads`` is
    unused: the GPU does the work). Graphs are captured in the background (``capture="background"``): the
    engine serves at once, eagerly, sets :attr:`CudaEngine.ready` when the smallest batch size's graphs are
    captured and :attr:`CudaEngine.fully_captured` when every graph is;
    ``$ONESTEP_CUDA_CAPTURE=now`` captures them in the constructor instead; ``$ONESTEP_CUDNN_BENCHMARK=1``
    turns cuDNN's autotuning on (``CudaSettings.cudnn_benchmark``)."""
    capture = os.environ.get(CAPTURE_ENV, "background")
    benchmark = os.environ.get(BENCHMARK_ENV, "0") == "1"
    return CudaEngine(voice_dir, CudaSettings(capture=capture, cudnn_benchmark=benchmark), stream=stream)


def probe() -> tuple[dict[str, object], str]:
    """What this machine offers the engine (``onestep doctor``): torch's version and whether it sees a CUDA
    device (its name and CUDA version when it does); the problem "" when one is there."""
    available = torch.cuda.is_available()
    facts: dict[str, object] = {"torch": torch.__version__, "cuda available": available}
    if available:
        facts["gpu"] = torch.cuda.get_device_name(0)
        facts["cuda version"] = torch.version.cuda
    return facts, "" if available else "torch sees no CUDA device"
