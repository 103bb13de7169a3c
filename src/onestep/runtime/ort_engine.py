"""ONNX Runtime CPU engine: the three graphs of a voice, run at static bucket shapes warmed at load.

Pipeline for a batch of utterances (shapes for batch size B):

    ids [B,T_b] --acoustic--> durations [B,T_b], hidden [B,T_b,C]
        --length regulation (numpy)--> frames [B,F_b,C] --decoder--> mel [B,M,F_b] --vocoder--> audio [B,F_b*hop]

``T_b`` / ``F_b`` are the smallest phoneme / frame buckets of ``voice.json`` that fit the batch. Streaming
runs the acoustic model once per sentence, then the decoder and the vocoder window by window
(:mod:`onestep.runtime.windows`): the first chunk only waits for two short calls, not for the whole bucket.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime as ort

from onestep.config import ConfigError, SynthesisOptions, VoiceConfig
from onestep.frontend.buckets import batch_to_bucket
from onestep.runtime.engine import (
    Streamed,
    StreamSettings,
    SynthesisResult,
    Timings,
    add_time,
    decoder_context,
    frame_bucket,
)
from onestep.runtime.regulate import expand, frame_mask, frames_per_id
from onestep.runtime.windows import Window, plan_windows, span, window_lengths


@dataclass(frozen=True)
class OrtSettings:
    """ONNX Runtime session settings (measured choices; see ``onestep bench --mode engine``).

    Attributes:
        threads: intra-op threads per session; None = ONNX Runtime's default (one per physical core).
        spin: let idle intra-op threads spin. Off: on a shared 2-core machine spinning threads took the cores
            from the other graph and from concurrent requests (2-3x slower under load), for little gain idle.
        mem_pattern: pre-plan memory per input shape (cheap with static buckets).
        cpu_arena: keep freed tensor memory in ONNX Runtime's arena. Off: it held ~80 MB after warming the
            largest buckets (resident 203 -> 121 MB for the full-size voice) and CPU time was the same.
    """

    threads: int | None = None
    spin: bool = False
    mem_pattern: bool = True
    cpu_arena: bool = False

    def __post_init__(self) -> None:
        if self.threads is not None and self.threads < 1:
            raise ConfigError(f"threads must be >= 1, got {self.threads}")

    def session_options(self) -> ort.SessionOptions:
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.inter_op_num_threads = 1
        if self.threads is not None:
            opts.intra_op_num_threads = self.threads
        opts.enable_mem_pattern = self.mem_pattern
        opts.enable_cpu_mem_arena = self.cpu_arena
        opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if self.spin else "0")
        opts.add_session_config_entry("session.set_denormal_as_zero", "1")
        opts.log_severity_level = 3
        return opts


@cache
def _malloc_trim() -> ctypes._CFuncPtr | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows)
        return None


def release_freed_memory() -> None:
    """Return freed heap pages to the OS (glibc ``malloc_trim``; a no-op elsewhere).

    Building a session frees the parsed ONNX model (as large as the weights), but glibc keeps those pages
    mapped: trimming after each load lowers the full-size voice's resident memory from ~190 to ~120 MB.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


class OrtEngine:
    """One voice on ONNX Runtime (CPU).

    Args:
        voice_dir: directory holding ``voice.json`` and the three ONNX files.
        settings: session settings (threads etc.).
        stream: chunk sizes of :meth:`stream`.
        warmup: run every bucket shape once now so that no request pays for first-run planning.
    """

    def __init__(
        self,
        voice_dir: str | Path,
        settings: OrtSettings | None = None,
        stream: StreamSettings | None = None,
        warmup: bool = True,
    ) -> None:
        t0 = time.perf_counter()
        self.voice_dir = Path(voice_dir)
        self.config = VoiceConfig.load(self.voice_dir / "voice.json")
        self.settings = settings or OrtSettings()
        self.stream_settings = stream or StreamSettings()
        opts = self.settings.session_options()
        self._sessions: dict[str, ort.InferenceSession] = {}
        for key in ("acoustic", "decoder", "vocoder"):
            path = self.voice_dir / self.config.files[key]
            if not path.is_file():
                raise ConfigError(f"voice {self.config.name}: missing {key} graph {path}")
            self._sessions[key] = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
            release_freed_memory()  # the parsed model proto is freed now; keep the peak to one graph's copy
        self.hop = self.config.audio.hop_length
        self.context = self.config.vocoder_context
        self.decoder_context = decoder_context(self.config)
        self.load_seconds = time.perf_counter() - t0
        self.warmup_seconds = self.warm() if warmup else 0.0
        release_freed_memory()

    @property
    def sample_rate(self) -> int:
        return self.config.audio.sample_rate

    def warm(self) -> float:
        """Run each graph once at every shape requests use; returns the seconds it took."""
        t0 = time.perf_counter()
        cfg = self.config
        for size in cfg.phoneme_buckets:
            ids = np.zeros((1, size), dtype=np.int64)
            self._acoustic(ids, np.ones((1, size), dtype=np.float32))
        s = self.stream_settings
        stream_lengths = window_lengths(s.first_chunk_frames, s.chunk_frames, self.context)
        decoder_lengths = [n + 2 * self.decoder_context for n in stream_lengths] if self.decoder_context else []
        for size in sorted({*cfg.frame_buckets, *decoder_lengths}):
            frames = np.zeros((1, size, cfg.hidden_dim), dtype=np.float32)
            self._decoder(frames, np.ones((1, size), dtype=np.float32))
        for size in sorted({*cfg.frame_buckets, *stream_lengths}):
            self._vocoder(np.zeros((1, cfg.audio.n_mels, size), dtype=np.float32))
        return time.perf_counter() - t0

    # --- graph calls (batched numpy in, numpy out) -------------------------------------------------------

    def _acoustic(self, ids: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """ids int64 [B,T], mask float32 [B,T] -> durations float32 [B,T], hidden float32 [B,T,C]."""
        durations, hidden = self._sessions["acoustic"].run(
            ["durations", "hidden"], {"phoneme_ids": ids, "phoneme_mask": mask}
        )
        return durations, hidden

    def _decoder(self, frames: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """frames float32 [B,F,C], mask float32 [B,F] -> mel float32 [B,M,F]."""
        return self._sessions["decoder"].run(["mel"], {"frames": frames, "frame_mask": mask})[0]

    def _vocoder(self, mel: np.ndarray) -> np.ndarray:
        """mel float32 [B,M,F] -> audio float32 [B,F*hop]."""
        return self._sessions["vocoder"].run(["audio"], {"mel": np.ascontiguousarray(mel)})[0]

    # --- pipeline --------------------------------------------------------------------------------------

    def _frames(
        self, batch: Sequence[Sequence[int]], speed: float, timings: Timings | None
    ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Acoustic model and length regulation for a batch.

        Returns:
            frames float32 [B,F_b,C], frame mask float32 [B,F_b] and, per utterance, its frames per id
            int64 [T_u].
        """
        speed = SynthesisOptions(speed=speed).speed
        t0 = time.perf_counter()
        if not batch or min(len(ids) for ids in batch) < 1:
            raise ValueError("every utterance needs at least one phoneme id")
        ids, mask = batch_to_bucket(batch, self.config.phoneme_buckets)
        durations, hidden = self._acoustic(ids, mask)
        t1 = time.perf_counter()
        counts = frames_per_id(durations, mask, speed)
        n_frames = counts.sum(axis=1)
        size = frame_bucket(int(n_frames.max()), self.config.frame_buckets)
        frames = np.stack([expand(hidden[b], counts[b], size) for b in range(len(batch))])
        fmask = frame_mask(n_frames, size)
        add_time(timings, "acoustic", t1 - t0)
        add_time(timings, "regulate", time.perf_counter() - t1)
        return frames, fmask, [counts[b, : len(seq)] for b, seq in enumerate(batch)]

    def _vocode_windows(self, mel: np.ndarray, windows: Sequence[Window]) -> np.ndarray:
        """Vocode one utterance's mel [M,F] window by window (windows of one length batched together)."""
        pieces: dict[int, np.ndarray] = {}
        for length in sorted({w.length for w in windows}):
            group = [i for i, w in enumerate(windows) if w.length == length]
            stacked = np.stack([mel[:, windows[i].start : windows[i].start + length] for i in group])
            for i, audio in zip(group, self._vocoder(stacked), strict=True):
                pieces[i] = audio[windows[i].keep_slice(self.hop)]
        return np.concatenate([pieces[i] for i in range(len(windows))])

    def synthesize_batch(
        self, batch: Sequence[Sequence[int]], speed: float = 1.0, timings: Timings | None = None
    ) -> list[SynthesisResult]:
        """Synthesize B utterances of ids (each ``[0, *ids, 0]``) in one batched pass; results in order."""
        frames, fmask, counts = self._frames(batch, speed, timings)
        t0 = time.perf_counter()
        mel = self._decoder(frames, fmask)
        add_time(timings, "decoder", time.perf_counter() - t0)
        t0 = time.perf_counter()
        largest = self.config.frame_buckets[-1]
        results = []
        if mel.shape[2] <= largest:
            audio = self._vocoder(mel)
            for b, c in enumerate(counts):
                results.append(SynthesisResult(audio[b, : int(c.sum()) * self.hop].copy(), c))
        else:  # beyond the largest bucket: windows of the largest bucket with context
            core = largest - 2 * self.context
            for b, c in enumerate(counts):
                n = int(c.sum())
                if n == 0:
                    results.append(SynthesisResult(np.zeros(0, dtype=np.float32), c))
                    continue
                windows = plan_windows(n, mel.shape[2], core + self.context, core, self.context)
                results.append(SynthesisResult(self._vocode_windows(mel[b], windows), c))
        add_time(timings, "vocoder", time.perf_counter() - t0)
        return results

    def synthesize(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> SynthesisResult:
        """Synthesize one utterance of ids (``[0, *ids, 0]``)."""
        return self.synthesize_batch([ids], speed, timings)[0]

    def stream(self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None) -> Streamed:
        """Acoustic model and length regulation now; decoder and vocoder lazily, one window per chunk.

        Each vocoder window's mel is decoded from its frames plus ``decoder_context`` frames on each side
        (or, for a voice whose decoder reach is unknown, the whole bucket is decoded before the first chunk).
        """
        frames, fmask, (counts,) = self._frames([ids], speed, timings)
        n = int(counts.sum())
        s = self.stream_settings
        windows = plan_windows(n, frames.shape[1], s.first_chunk_frames, s.chunk_frames, self.context) if n else []
        return Streamed(counts, self._stream_chunks(frames, fmask, windows, timings))

    def _stream_chunks(
        self, frames: np.ndarray, fmask: np.ndarray, windows: list[Window], timings: Timings | None
    ) -> Iterator[np.ndarray]:
        """Decode and vocode each window of one utterance (frames [1,F,C], fmask [1,F]); yield its samples."""
        total = frames.shape[1]
        whole_mel: np.ndarray | None = None
        for w in windows:
            t0 = time.perf_counter()
            if self.decoder_context is None:
                if whole_mel is None:
                    whole_mel = self._decoder(frames, fmask)
                mel = whole_mel[:, :, w.start : w.start + w.length]
            else:
                ds, dl = span(w.start, w.length + 2 * self.decoder_context, self.decoder_context, total)
                decoded = self._decoder(frames[:, ds : ds + dl], fmask[:, ds : ds + dl])
                mel = decoded[:, :, w.start - ds : w.start - ds + w.length]
            t1 = time.perf_counter()
            chunk = self._vocoder(mel)[0][w.keep_slice(self.hop)].copy()
            add_time(timings, "decoder", t1 - t0)
            add_time(timings, "vocoder", time.perf_counter() - t1)
            yield chunk
