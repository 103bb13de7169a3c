"""ONNX Runtime CPU engine: the three graphs of a voice, run on each input's real length.

Pipeline for a batch of utterances (shapes for batch size B, ``T`` = the longest utterance's ids,
``F`` = its frames, ``L = min(F + vocoder_context, frame bucket)``):

    ids [B,T] --acoustic--> durations [B,T], hidden [B,T,C]
        --length regulation (numpy)--> frames [B,F,C] --decoder--> mel [B,M,F] (+ silence frames to L)
        --vocoder--> audio [B,L*hop] (cut to each utterance's frames)

Every graph is masked or local, so running it on the real length plus the receptive context it needs gives
the samples of a run over the whole padded bucket (bit for bit for the shipped voices in our tests, within
3e-8 for the tiny test voice: ONNX Runtime's Conv rounds a little differently per length) at less work; ONNX
Runtime's CPU kernels plan nothing per shape worth warming, so one small call per session at load suffices.
With ``threads >= 2`` the decoder and the vocoder run each long input as ``threads`` windows at once when
cores are idle (:mod:`onestep.runtime.parallel`): the same samples, both cores busy. A voice directory
holding ``vocoder.int8.onnx`` (written by :mod:`onestep.model.quantize`) uses it for the vocoder (likewise
``decoder.int8.onnx``, derived only where ``onestep eval`` found it harmless). A shipped voice's
``voice.json`` names the INT8 graphs themselves (one precision per network, no float twin beside them), so
``OrtSettings(int8=False)`` changes only voices that also hold float graphs (exports, test fixtures).
Streaming runs the acoustic model once per sentence, then the decoder and the vocoder window by window
(:mod:`onestep.runtime.windows`): the first chunk only waits for two short calls.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime as ort

from onestep.config import ConfigError, SynthesisOptions, VoiceConfig, int8_path
from onestep.runtime.buckets import bucket_for, pad_batch
from onestep.runtime.mel_postfilter import pack_postfilter
from onestep.runtime.engine import (
    Streamed,
    StreamSettings,
    SynthesisResult,
    Timings,
    add_time,
    decoder_context,
    frame_bucket,
)
from onestep.runtime.parallel import FrameParallel
from onestep.runtime.speakers import batch_speakers, load_speaker_table, with_speaker
from onestep.runtime.regulate import expand, frame_mask, frames_per_id
from onestep.runtime.windows import Window, plan_windows, span

LOG_MEL_FLOOR = np.float32(-11.512925464970229)
"""Natural-log mel of silence, ``log(1e-5)`` as float32: what ``decoder.onnx`` writes at masked frames."""

MAX_WINDOW_FRAMES = 1024
"""Longest input (frames, 12.8 s) the decoder / vocoder see in one call; longer ones run as windows with
context (the same samples), which bounds the activations' memory of very long sentences."""


@dataclass(frozen=True)
class OrtSettings:
    """ONNX Runtime session settings (measured choices; see ``onestep bench --mode engine``).

    Attributes:
        threads: cores to use; None = ONNX Runtime's default (one intra-op thread per physical core). With
            ``threads >= 2`` and ``parallel_windows`` the decoder and the vocoder run single-threaded, as up to
            ``threads`` concurrent calls on windows of one input when cores are idle at that moment
            (:mod:`onestep.runtime.parallel`).
        spin: let idle intra-op threads spin. Off: on a shared 2-core machine spinning threads took the cores
            from the other graph and from concurrent requests (2-3x slower under load), for little gain idle.
        mem_pattern: pre-plan memory per input shape. Off: inputs run at their real lengths, so shapes vary
            per request and a plan would be made (and kept) for each.
        cpu_arena: keep freed tensor memory in ONNX Runtime's arena. Off: it held ~80 MB after warming the
            largest buckets (resident 203 -> 121 MB for the full-size voice) and CPU time was the same.
        parallel_windows: see ``threads``. (ONNX Runtime's own 2 threads ran the vocoder no faster than 1.)
        int8: use ``vocoder.int8.onnx`` / ``decoder.int8.onnx`` where the voice directory has them beside the
            float graphs ``voice.json`` names (a voice that names the INT8 graphs runs them either way).
    """

    threads: int | None = None
    spin: bool = False
    mem_pattern: bool = False
    cpu_arena: bool = False
    parallel_windows: bool = True
    int8: bool = True

    def __post_init__(self) -> None:
        if self.threads is not None and self.threads < 1:
            raise ConfigError(f"threads must be >= 1, got {self.threads}")

    @property
    def workers(self) -> int:
        """Concurrent calls per windowed graph (1 = plain calls with ``threads`` intra-op threads)."""
        return self.threads if self.parallel_windows and self.threads and self.threads >= 2 else 1

    def session_options(self, threads: int | None = None) -> ort.SessionOptions:
        """Options of one session; ``threads`` overrides :attr:`threads` (the windowed graphs use 1)."""
        threads = self.threads if threads is None else threads
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.inter_op_num_threads = 1
        if threads is not None:
            opts.intra_op_num_threads = threads
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
        voice_dir: directory holding ``voice.json`` and the three ONNX files (and optionally
            ``vocoder.int8.onnx`` / ``decoder.int8.onnx``).
        settings: session settings (threads etc.).
        stream: chunk sizes of :meth:`stream`.
        warmup: run each session once now (a few frames), so that no request pays for first-run setup.
    Attributes:
        decoder_file, vocoder_file: the graphs in use (e.g. ``vocoder.onnx`` or ``vocoder.int8.onnx``).
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
        self.hop = self.config.audio.hop_length
        self.context = self.config.vocoder_context
        self.decoder_context = decoder_context(self.config)
        paths = {key: self.voice_dir / self.config.files[key] for key in ("acoustic", "decoder", "vocoder")}
        for key, path in paths.items():
            if not path.is_file():
                raise ConfigError(f"voice {self.config.name}: missing {key} graph {path}")
        for key in ("decoder", "vocoder"):
            int8 = int8_path(paths[key])
            if self.settings.int8 and int8.is_file():
                paths[key] = int8
        self.decoder_file, self.vocoder_file = paths["decoder"], paths["vocoder"]
        self.speakers = load_speaker_table(self.voice_dir, self.config)
        self.postfilter = pack_postfilter(self.config, self.speakers)
        workers = self.settings.workers
        self._pool = ThreadPoolExecutor(workers - 1, thread_name_prefix="onestep-ort") if workers > 1 else None
        self._acoustic_session = self._session(paths["acoustic"], self.settings.threads)
        reach = self.decoder_context
        decoder_workers = workers if reach is not None else 1
        self._decoder_run = FrameParallel(
            self._session(paths["decoder"], 1 if decoder_workers > 1 else self.settings.threads), decoder_workers,
            "mel", {"frames": 1, "frame_mask": 1}, 2, 1, reach or 0, 4 * (reach or 0) + 1,
            MAX_WINDOW_FRAMES if reach is not None else None, self._pool,
        )  # fmt: skip
        self._vocoder_run = FrameParallel(
            self._session(paths["vocoder"], 1 if workers > 1 else self.settings.threads), workers,
            "audio", {"mel": 2}, 1, self.hop, self.context, 4 * self.context + 1, MAX_WINDOW_FRAMES, self._pool,
        )  # fmt: skip
        self.load_seconds = time.perf_counter() - t0
        self.warmup_seconds = self.warm() if warmup else 0.0
        release_freed_memory()

    def _session(self, path: Path, threads: int | None) -> ort.InferenceSession:
        """One graph's session (built from the path: reading the bytes first kept a second copy resident)."""
        session = ort.InferenceSession(
            str(path), self.settings.session_options(threads), providers=["CPUExecutionProvider"]
        )
        release_freed_memory()  # the parsed model proto is freed now; keep the peak to one graph's copy
        return session

    @property
    def sample_rate(self) -> int:
        return self.config.audio.sample_rate

    def warm(self) -> float:
        """Run every session once on a few frames (first-run setup); returns the seconds it took."""
        t0 = time.perf_counter()
        cfg = self.config
        n = 8
        speaker = None if self.speakers is None else self.speakers[:1]
        self._acoustic(np.zeros((1, n), dtype=np.int64), np.ones((1, n), dtype=np.float32), speaker)
        frames = {"frames": np.zeros((1, n, cfg.hidden_dim), np.float32), "frame_mask": np.ones((1, n), np.float32)}
        self._decoder_run.session.run(["mel"], with_speaker(frames, speaker))
        mel = np.full((1, cfg.audio.n_mels, n), LOG_MEL_FLOOR, dtype=np.float32)
        self._vocoder_run.session.run(["audio"], {"mel": mel})
        return time.perf_counter() - t0

    # --- graph calls (batched numpy in, numpy out) -------------------------------------------------------

    def _acoustic(
        self, ids: np.ndarray, mask: np.ndarray, speaker: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """ids int64 [B,T], mask float32 [B,T], speaker float32 [B,S] (multi-speaker voices; else None)
        -> durations float32 [B,T], hidden float32 [B,T,C]."""
        durations, hidden = self._acoustic_session.run(
            ["durations", "hidden"], with_speaker({"phoneme_ids": ids, "phoneme_mask": mask}, speaker)
        )
        return durations, hidden

    def _decoder(self, frames: np.ndarray, mask: np.ndarray, speaker: np.ndarray | None) -> np.ndarray:
        """frames float32 [B,F,C], mask float32 [B,F], speaker float32 [B,S] or None -> mel float32 [B,M,F]."""
        return self._decoder_run(with_speaker({"frames": frames, "frame_mask": mask}, speaker))

    def speaker_rows(self, speaker: np.ndarray | None, batch: int) -> np.ndarray | None:
        """The graphs' ``speaker`` input [B,S] (:func:`onestep.runtime.speakers.batch_speakers`)."""
        return batch_speakers(self.speakers, self.config, speaker, batch)

    def _vocoder(self, mel: np.ndarray) -> np.ndarray:
        """mel float32 [B,M,F] -> audio float32 [B,F*hop]."""
        return self._vocoder_run({"mel": mel})

    # --- pipeline --------------------------------------------------------------------------------------

    def _frames(
        self, batch: Sequence[Sequence[int]], speed: float, timings: Timings | None, speaker: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Acoustic model and length regulation for a batch.

        Returns:
            frames float32 [B,L,C] (zero after each utterance's frames), frame mask float32 [B,L] and, per
            utterance, its frames per id int64 [T_u]. ``L`` = the longest utterance's frames + the vocoder's
            context, at most its frame bucket: what the vocoder needs to see for the one-shot samples.
        """
        speed = SynthesisOptions(speed=speed).speed
        t0 = time.perf_counter()
        if not batch or min(len(ids) for ids in batch) < 1:
            raise ValueError("every utterance needs at least one phoneme id")
        longest = max(len(ids) for ids in batch)
        bucket_for(longest, self.config.phoneme_buckets)  # the same length limit as the padded graphs
        ids, mask = pad_batch(batch, longest)
        durations, hidden = self._acoustic(ids, mask, speaker)
        t1 = time.perf_counter()
        counts = frames_per_id(durations, mask, speed)
        n_frames = counts.sum(axis=1)
        n_max = int(n_frames.max())
        size = min(n_max + self.context, frame_bucket(n_max, self.config.frame_buckets))
        frames = np.stack([expand(hidden[b], counts[b], size) for b in range(len(batch))])
        fmask = frame_mask(n_frames, size)
        add_time(timings, "acoustic", t1 - t0)
        add_time(timings, "regulate", time.perf_counter() - t1)
        return frames, fmask, [counts[b, : len(seq)] for b, seq in enumerate(batch)]

    def _mel(self, frames: np.ndarray, fmask: np.ndarray, n_max: int, speaker: np.ndarray | None) -> np.ndarray:
        """Decode the first ``n_max`` frames; the rest of the ``L`` frames are silence, as the decoder writes
        at masked frames. Returns mel float32 [B,M,L], through the pack's per-voice postfilter when it has one."""
        mel = self._decoder(frames[:, :n_max], fmask[:, :n_max], speaker) if n_max else None
        if mel is not None and self.postfilter is not None and speaker is not None:
            mel = self.postfilter.apply(mel, speaker)
        pad = frames.shape[1] - n_max
        if pad == 0 and mel is not None:
            return mel
        silence = np.full((frames.shape[0], self.config.audio.n_mels, pad), LOG_MEL_FLOOR, dtype=np.float32)
        return silence if mel is None else np.concatenate([mel, silence], axis=2)

    def synthesize_batch(
        self,
        batch: Sequence[Sequence[int]],
        speed: float = 1.0,
        timings: Timings | None = None,
        speaker: np.ndarray | None = None,
    ) -> list[SynthesisResult]:
        """Synthesize B utterances of ids (each ``[0, *ids, 0]``) in one batched pass; results in order.

        ``speaker``: a multi-speaker voice's speaker vector (S,) for every utterance or [B,S] one each
        (default: the voice's default speaker); see :meth:`speaker_rows`.
        """
        rows = self.speaker_rows(speaker, len(batch))
        frames, fmask, counts = self._frames(batch, speed, timings, rows)
        n_max = max(int(c.sum()) for c in counts)
        t0 = time.perf_counter()
        mel = self._mel(frames, fmask, n_max, rows)
        add_time(timings, "decoder", time.perf_counter() - t0)
        t0 = time.perf_counter()
        audio = self._vocoder(mel) if n_max else np.zeros((len(batch), 0), dtype=np.float32)
        results = [SynthesisResult(audio[b, : int(c.sum()) * self.hop].copy(), c) for b, c in enumerate(counts)]
        add_time(timings, "vocoder", time.perf_counter() - t0)
        return results

    def synthesize(
        self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None, speaker: np.ndarray | None = None
    ) -> SynthesisResult:
        """Synthesize one utterance of ids (``[0, *ids, 0]``)."""
        return self.synthesize_batch([ids], speed, timings, speaker)[0]

    def stream(
        self, ids: Sequence[int], speed: float = 1.0, timings: Timings | None = None, speaker: np.ndarray | None = None
    ) -> Streamed:
        """Acoustic model and length regulation now; decoder and vocoder lazily, one window per chunk.

        Each vocoder window's mel is decoded from its frames plus ``decoder_context`` frames on each side
        (or, for a voice whose decoder reach is unknown, all frames are decoded before the first chunk).
        """
        rows = self.speaker_rows(speaker, 1)
        frames, fmask, (counts,) = self._frames([ids], speed, timings, rows)
        n = int(counts.sum())
        s = self.stream_settings
        windows = plan_windows(n, frames.shape[1], s.first_chunk_frames, s.chunk_frames, self.context) if n else []
        return Streamed(counts, self._stream_chunks(frames, fmask, n, windows, timings, rows))

    def _stream_chunks(
        self,
        frames: np.ndarray,
        fmask: np.ndarray,
        n: int,
        windows: list[Window],
        timings: Timings | None,
        speaker: np.ndarray | None,
    ) -> Iterator[np.ndarray]:
        """Decode and vocode each window of one utterance (frames [1,L,C], fmask [1,L], n real frames)."""
        total = frames.shape[1]
        whole_mel: np.ndarray | None = None
        for w in windows:
            t0 = time.perf_counter()
            if self.decoder_context is None:
                if whole_mel is None:
                    whole_mel = self._mel(frames, fmask, n, speaker)
                mel = whole_mel[:, :, w.start : w.start + w.length]
            else:
                ds, dl = span(w.start, w.length + 2 * self.decoder_context, self.decoder_context, total)
                real = max(0, min(n - ds, dl))  # frames of this decoder window before the silence
                decoded = self._mel(frames[:, ds : ds + dl], fmask[:, ds : ds + dl], real, speaker)
                mel = decoded[:, :, w.start - ds : w.start - ds + w.length]
            t1 = time.perf_counter()
            chunk = self._vocoder(np.ascontiguousarray(mel))[0][w.keep_slice(self.hop)].copy()
            add_time(timings, "decoder", t1 - t0)
            add_time(timings, "vocoder", time.perf_counter() - t1)
            yield chunk


def load(voice_dir: str | Path, threads: int | None = None, stream: StreamSettings | None = None) -> OrtEngine:
    """The ``ort-cpu`` engine's loader (named by :mod:`onestep.runtime.engines`)."""
    return OrtEngine(voice_dir, OrtSettings(threads=threads), stream)
