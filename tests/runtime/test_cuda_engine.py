"""CudaEngine's logic run eagerly on the CPU (fp32, no CUDA graphs) against OrtEngine; graphs only on a GPU."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from onestep.config import ConfigError  # noqa: E402
from onestep.frontend.symbols import phonemes_to_ids  # noqa: E402
from onestep.runtime import cuda_engine  # noqa: E402
from onestep.runtime.cuda_engine import (  # noqa: E402
    BatchPlan,
    CudaEngine,
    CudaSettings,
    FramePass,
    frames_per_id,
    plan_chunks,
    plan_frame_passes,
    split_rows,
)
from onestep.runtime.engine import frame_bucket  # noqa: E402
from onestep.runtime.ort_engine import OrtEngine  # noqa: E402
from onestep.runtime.regulate import frames_per_id as frames_per_id_np  # noqa: E402

SENTENCE = phonemes_to_ids("həlˈO wˈɜɹld, ðɪs ɪz ə tˈɛst.")
MEDIUM = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 2)
LONG = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 8)  # > largest frame bucket
SHORT = phonemes_to_ids("ðə kwˈɪk")
CPU_TOLERANCE = 1e-5  # same fp32 networks, torch vs ONNX Runtime kernels
SIZES = (1, 2, 4, 8, 16, 32, 64, 128)
FRAME_BUCKETS = (128, 256, 512, 1024, 2048)


@pytest.fixture(scope="module")
def cpu_engine(tiny_voice) -> CudaEngine:
    return CudaEngine(tiny_voice, CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, batch_sizes=(1, 2, 4)))


@pytest.mark.parametrize(("ids", "speed"), [(SENTENCE, 1.0), (SENTENCE, 2.0), (MEDIUM, 1.0), (LONG, 0.5)])
def test_matches_the_onnx_engine(cpu_engine: CudaEngine, engine: OrtEngine, ids, speed) -> None:
    gpu_logic, onnx = cpu_engine.synthesize(ids, speed), engine.synthesize(ids, speed)
    assert np.array_equal(gpu_logic.frames_per_id, onnx.frames_per_id)
    assert gpu_logic.audio.shape == onnx.audio.shape
    assert np.abs(gpu_logic.audio - onnx.audio).max() <= CPU_TOLERANCE


def test_batches_are_padded_and_split_across_batch_sizes(cpu_engine: CudaEngine, engine: OrtEngine) -> None:
    batch = [SENTENCE, MEDIUM, SENTENCE[:6] + [0], MEDIUM, SENTENCE]  # 5 > largest batch size 4: split 4 + 1
    for ids, result in zip(batch, cpu_engine.synthesize_batch(batch), strict=True):
        alone = engine.synthesize(ids)
        assert np.array_equal(result.frames_per_id, alone.frames_per_id)
        assert np.abs(result.audio - alone.audio).max() <= CPU_TOLERANCE


def test_stream_cuts_the_one_shot_audio(cpu_engine: CudaEngine) -> None:
    one_shot = cpu_engine.synthesize(MEDIUM)
    chunks = list(cpu_engine.stream(MEDIUM).chunks)
    hop = cpu_engine.hop
    assert chunks[0].size == cpu_engine.stream_settings.first_chunk_frames * hop
    assert np.array_equal(np.concatenate(chunks), one_shot.audio)


def test_rounding_rule_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    durations = rng.uniform(-1, 12, size=(3, 40)).astype(np.float32)
    durations[:, ::7] = 2.5  # exact halves: both round to even
    mask = (np.arange(40)[None, :] < np.array([[40], [23], [5]])).astype(np.float32)
    for speed in (0.5, 1.0, 1.7, 2.0, 1.3):
        ours = frames_per_id(torch.from_numpy(durations), torch.from_numpy(mask), torch.full((3,), speed, dtype=torch.float64))
        assert ours.dtype == torch.int64
        assert np.array_equal(ours.numpy(), frames_per_id_np(durations, mask, speed))


def test_the_rule_divides_in_float64_by_the_float64_speed() -> None:
    """Durations just past a half after the division by the speed: float64 keeps them there (both engines),
    a float32 speed or a float32 division (the GPU engine's old rule) moves some across."""
    speed = 1.7
    k = np.arange(1, 4000, dtype=np.float64)
    durations = ((k + 0.5) * speed + 1e-6).astype(np.float32)[None, :]  # (k + 0.5 + ~6e-7) frames after / speed
    mask = np.ones_like(durations)
    want = frames_per_id_np(durations, mask, speed)
    ours = frames_per_id(torch.from_numpy(durations), torch.from_numpy(mask), torch.tensor([speed], dtype=torch.float64))
    assert np.array_equal(ours.numpy(), want)
    float32_rule = torch.round(torch.from_numpy(durations) / torch.tensor([[speed]], dtype=torch.float32)).long()
    assert not np.array_equal(float32_rule.numpy(), want)


def test_fp32_durations_give_the_onnx_engines_frames_under_fp16_networks(tiny_voice, engine: OrtEngine) -> None:
    """The GPU engine's duration path run on the CPU: with the acoustic model in fp32 (the default) every row
    gets the ONNX engine's frames although the decoder and vocoder are fp16; in fp16 many rows do not."""
    rng = np.random.default_rng(5)
    batch = [[0, *rng.integers(1, 178, size=int(rng.integers(5, 120))).tolist(), 0] for _ in range(48)]
    onnx = [r.frames_per_id for r in engine.synthesize_batch(batch)]
    moved = {}
    for acoustic in ("fp32", "fp16"):
        settings = CudaSettings(device="cpu", dtype="fp16", acoustic_dtype=acoustic, cuda_graphs=False, batch_sizes=(1, 4, 8))
        half = CudaEngine(tiny_voice, settings, warmup=False)
        for speed in (1.0, 1.3):
            got = half.synthesize_batch(batch, speed)
            want = onnx if speed == 1.0 else [r.frames_per_id for r in engine.synthesize_batch(batch, speed)]
            moved[acoustic, speed] = sum(not np.array_equal(g.frames_per_id, w) for g, w in zip(got, want, strict=True))
            assert all(g.audio.size == int(g.frames_per_id.sum()) * half.hop for g in got)
    assert moved["fp32", 1.0] == moved["fp32", 1.3] == 0
    assert moved["fp16", 1.0] > 0 and moved["fp16", 1.3] > 0  # what the fp32 acoustic step is for


# --- planning: pure host logic ---------------------------------------------------------------------------


def test_chunks_keep_input_order_when_the_batch_fits() -> None:
    (chunk,) = plan_chunks([9, 3, 7], largest=4)
    assert chunk.tolist() == [0, 1, 2]


def test_oversized_batches_are_sorted_by_length_and_split_evenly() -> None:
    rng = np.random.default_rng(1)
    lengths = rng.integers(3, 500, size=300).tolist()
    chunks = plan_chunks(lengths, largest=128)
    assert [len(c) for c in chunks] == [100, 100, 100]
    assert sorted(np.concatenate(chunks).tolist()) == list(range(300))  # every utterance exactly once
    flat = [lengths[i] for i in np.concatenate(chunks)]
    assert flat == sorted(lengths)
    assert plan_chunks([5] * 129, largest=128)[0].tolist() == list(range(65))  # ties keep input order


def _padded_cost(sizes: tuple[int, ...], batch_sizes: tuple[int, ...], overhead: float) -> float:
    from onestep.runtime.buckets import bucket_for

    return sum(bucket_for(s, batch_sizes) for s in sizes) + overhead * len(sizes)


@pytest.mark.parametrize(
    ("n", "overhead", "want"),
    [(72, 4, (64, 8)), (128, 4, (128,)), (65, 4, (64, 1)), (100, 4, (64, 32, 4)), (72, 100, (72,)), (3, 0, (2, 1))],
)
def test_rows_are_cut_into_captured_sizes_when_padding_costs_more(n: int, overhead: float, want) -> None:
    assert split_rows(n, SIZES, overhead) == want


def test_row_split_is_optimal_against_brute_force() -> None:
    def best(n: int, sizes: tuple[int, ...], overhead: float) -> float:  # every multiset of pass sizes
        from onestep.runtime.buckets import bucket_for

        out = bucket_for(n, sizes) + overhead
        for s in sizes:
            if s < n:
                out = min(out, s + overhead + best(n - s, sizes, overhead))
        return out

    for sizes in [(1, 2, 4, 8), (1, 3, 8), (2, 5, 6), (4,)]:
        for overhead in (0.0, 0.5, 2.0, 9.0):
            for n in range(1, sizes[-1] + 1):
                got = split_rows(n, sizes, overhead)
                assert sum(got) == n and all(0 < s <= sizes[-1] for s in got)
                assert _padded_cost(got, sizes, overhead) == pytest.approx(best(n, sizes, overhead))
    with pytest.raises(ValueError, match="rows"):
        split_rows(129, SIZES, 1.0)


def _check_cover(passes: list[FramePass], totals: np.ndarray) -> None:
    rows = np.concatenate([p.rows for p in passes])
    assert sorted(rows.tolist()) == list(range(len(totals)))
    for p in passes:
        assert len(p.rows) <= p.batch and p.batch in SIZES
        assert all(frame_bucket(int(totals[r]), FRAME_BUCKETS) <= p.frames for r in p.rows)


def test_one_bucket_batch_is_one_pass_in_chunk_order() -> None:
    totals = np.array([300, 400, 260, 500] * 8)  # 32 rows, all in bucket 512
    (only,) = plan_frame_passes(totals, FRAME_BUCKETS, SIZES, 4096)
    assert only.rows.tolist() == list(range(32)) and only.frames == 512 and only.batch == 32
    (none,) = plan_frame_passes(np.array([100, 1900, 40]), FRAME_BUCKETS, SIZES, None)  # no splitting at all
    assert none.rows.tolist() == [0, 1, 2] and none.frames == 2048 and none.batch == 4


def test_a_long_outlier_runs_in_its_own_pass() -> None:
    totals = np.array([100] * 30 + [900, 950])
    totals = totals[np.random.default_rng(2).permutation(32)]
    passes = plan_frame_passes(totals, FRAME_BUCKETS, SIZES, 4096)
    _check_cover(passes, totals)
    assert sorted((p.frames, p.batch, len(p.rows)) for p in passes) == [(128, 32, 30), (1024, 2, 2)]
    # a huge pass overhead keeps the batch whole, at the outlier's bucket
    (whole,) = plan_frame_passes(totals, FRAME_BUCKETS, SIZES, 10**9)
    assert whole.frames == 1024 and whole.batch == 32 and whole.rows.tolist() == list(range(32))


def test_frame_passes_beyond_the_largest_bucket_and_zero_overhead() -> None:
    totals = np.array([5000, 10, 130, 2100, 2500, 700, 0])
    passes = plan_frame_passes(totals, FRAME_BUCKETS, SIZES, 0)
    _check_cover(passes, totals)
    # no overhead: every row runs at exactly its own bucket, in passes without padding
    for p in passes:
        assert all(frame_bucket(int(totals[r]), FRAME_BUCKETS) == p.frames for r in p.rows)
        assert len(p.rows) == p.batch
    assert {p.frames for p in passes} == {128, 256, 1024, 4096, 6144}


def test_frame_plan_is_never_worse_than_one_pass() -> None:
    rng = np.random.default_rng(3)
    from onestep.runtime.buckets import bucket_for

    for _ in range(200):
        n = int(rng.integers(1, 129))
        totals = rng.integers(0, 2400, size=n)
        overhead = int(rng.choice([0, 512, 4096, 65536]))
        passes = plan_frame_passes(totals, FRAME_BUCKETS, SIZES, overhead)
        _check_cover(passes, totals)
        cost = sum(p.batch * p.frames + overhead for p in passes)
        single = bucket_for(n, SIZES) * max(frame_bucket(int(t), FRAME_BUCKETS) for t in totals) + overhead
        assert cost <= single


# --- the engine's eager path on the CPU ---------------------------------------------------------------------


def _split_everything(engine: CudaEngine) -> None:
    engine.plan = BatchPlan(pass_overhead_frames=0)  # every row at its own bucket: the gather path


@pytest.fixture
def splitting_engine(tiny_voice):
    e = CudaEngine(tiny_voice, CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, batch_sizes=(1, 2, 4)))
    _split_everything(e)
    return e


@pytest.mark.parametrize("speed", [1.0, 0.5])
def test_split_passes_match_single_onnx_runs(splitting_engine: CudaEngine, engine: OrtEngine, monkeypatch, speed) -> None:
    seen: list[list[FramePass]] = []
    real = cuda_engine.plan_frame_passes

    def spy(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(cuda_engine, "plan_frame_passes", spy)
    batch = [MEDIUM, SHORT, LONG, SENTENCE]  # four different frame buckets, one beyond the largest
    results = splitting_engine.synthesize_batch(batch, speed)
    assert len(seen) == 1 and len(seen[0]) == 4  # one chunk, one pass per row
    for ids, result in zip(batch, results, strict=True):
        alone = engine.synthesize(ids, speed)
        assert np.array_equal(result.frames_per_id, alone.frames_per_id)
        assert result.audio.shape == alone.audio.shape
        assert np.abs(result.audio - alone.audio).max() <= CPU_TOLERANCE


def test_oversized_shuffled_batch_comes_back_in_input_order(splitting_engine: CudaEngine, engine: OrtEngine) -> None:
    pool = [SHORT, SENTENCE, MEDIUM, SENTENCE[:12] + [0], MEDIUM[:40] + [0], SHORT[:4] + [0]]
    batch = [pool[i] for i in np.random.default_rng(4).integers(0, len(pool), size=11)]  # 11 > 4: 3 chunks
    singles = {tuple(ids): engine.synthesize(ids) for ids in pool}
    for plan in (BatchPlan(0), BatchPlan(), BatchPlan(None)):
        splitting_engine.plan = plan
        for ids, result in zip(batch, splitting_engine.synthesize_batch(batch), strict=True):
            alone = singles[tuple(ids)]
            assert np.array_equal(result.frames_per_id, alone.frames_per_id)
            assert result.audio.size == alone.audio.size
            if plan.pass_overhead_frames == 0:  # own bucket: the same samples as alone
                assert np.abs(result.audio - alone.audio).max() <= CPU_TOLERANCE


def test_host_buffers_grow_for_long_batches(splitting_engine: CudaEngine) -> None:
    before = splitting_engine._audio_host.tensor.numel()
    out = splitting_engine.synthesize_batch([LONG, LONG, SHORT], 0.5)  # 2 x 6144 frames, beyond the warm size
    assert splitting_engine._audio_host.tensor.numel() > before
    assert [r.audio.size for r in out[:2]] == [int(out[0].frames_per_id.sum()) * splitting_engine.hop] * 2


def test_lazy_engine_builds_steps_and_buffers_on_first_use(tiny_voice, engine: OrtEngine) -> None:
    lazy = CudaEngine(
        tiny_voice, CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, batch_sizes=(1, 2)), warmup=False
    )
    assert lazy.warmup_seconds == 0.0 and not lazy._frame_steps
    for ids, result in zip([MEDIUM, SHORT, SENTENCE], lazy.synthesize_batch([MEDIUM, SHORT, SENTENCE]), strict=True):
        alone = engine.synthesize(ids)
        assert np.array_equal(result.frames_per_id, alone.frames_per_id)
        assert np.abs(result.audio - alone.audio).max() <= CPU_TOLERANCE


def test_timings_and_bad_input(cpu_engine: CudaEngine) -> None:
    timings: dict[str, float] = {}
    cpu_engine.synthesize_batch([SENTENCE, MEDIUM], timings=timings)
    assert set(timings) == {"acoustic", "frames_to_audio", "copy_out"} and all(v > 0 for v in timings.values())
    with pytest.raises(ValueError, match="at least one"):
        cpu_engine.synthesize_batch([SENTENCE, []])
    with pytest.raises(ValueError, match="largest phoneme bucket"):
        cpu_engine.synthesize([0] * 513)
    with pytest.raises(ConfigError, match="pass_overhead_frames"):
        BatchPlan(-1)


def test_background_warm_up_serves_meanwhile_and_then_is_ready(tiny_voice, engine: OrtEngine) -> None:
    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, capture="background", batch_sizes=(1, 2))
    e = CudaEngine(tiny_voice, settings)
    during = e.synthesize_batch([MEDIUM, SHORT])  # served while the warm-up thread builds the steps
    assert e.wait_ready(120) and e.fully_captured.wait(120) and e.capture_error is None
    assert 0 < e.ready_seconds <= e.warmup_seconds and e.captured_batch_sizes == (1, 2)
    n_t, n_f = len(e.config.phoneme_buckets), len(e.config.frame_buckets)
    assert len(e._acoustic_steps) == 2 * n_t and len(e._frame_steps) == 2 * n_f  # every step built
    after = e.synthesize_batch([MEDIUM, SHORT])
    for ids, a, b in zip([MEDIUM, SHORT], during, after, strict=True):
        onnx = engine.synthesize(ids)
        assert np.array_equal(a.frames_per_id, onnx.frames_per_id) and np.array_equal(a.audio, b.audio)


class _SlowWakingLock:
    """A lock whose waiters wake late (they poll every 10 ms), as a blocked thread does on a busy machine: a
    thread that releases it and asks again at once gets it back before any waiter."""

    def __init__(self) -> None:
        self._inner = threading.Lock()

    def acquire(self) -> bool:
        while not self._inner.acquire(blocking=False):
            time.sleep(0.01)
        return True

    def release(self) -> None:
        self._inner.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def test_a_request_during_the_background_warm_up_waits_for_one_step_not_for_all(tiny_voice, monkeypatch) -> None:
    """The warm-up takes the engine lock one step at a time and lets a waiting request go first, even when the
    request wakes later than the warm-up asks again (on an H100 the first call waited for all 50 steps)."""
    steps, step_s = 30, 0.03
    swapped = threading.Event()

    def slow_builders(self: CudaEngine, sizes=None) -> list:
        def first() -> None:
            swapped.wait(10)  # the test swaps in the slow-waking lock meanwhile

        def build() -> None:
            time.sleep(step_s)  # a capture holding the engine lock

        return [first] + [build] * steps

    monkeypatch.setattr(CudaEngine, "_step_builders", slow_builders)
    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, capture="background", batch_sizes=(1,))
    e = CudaEngine(tiny_voice, settings)
    e._lock = _SlowWakingLock()  # type: ignore[assignment]
    swapped.set()
    time.sleep(3 * step_s)  # the warm-up is inside its loop
    result = e.synthesize(SENTENCE)
    assert result.audio.size > 0
    assert not e.ready.is_set(), "the request waited for the whole warm-up"
    assert e.wait_ready(60) and e.capture_error is None


def test_a_failed_background_warm_up_is_reported_and_the_engine_still_serves(tiny_voice, monkeypatch) -> None:
    def broken(self: CudaEngine) -> None:
        raise RuntimeError("capture went wrong")

    monkeypatch.setattr(CudaEngine, "_warm_eager_ops", broken)
    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, capture="background", batch_sizes=(1,))
    e = CudaEngine(tiny_voice, settings)
    assert e.wait_ready(120) and isinstance(e.capture_error, RuntimeError)
    assert e.synthesize(SENTENCE).audio.size > 0


class _Gate:
    """A ``before_rest`` hook that holds the background warm-up between its first batch size and the rest."""

    def __init__(self) -> None:
        self.reached, self.go = threading.Event(), threading.Event()

    def __call__(self) -> None:
        self.reached.set()
        assert self.go.wait(60)


def _step_batches(e: CudaEngine) -> set[int]:
    return {b for _, b in e._acoustic_steps} | {b for _, b in e._frame_steps}


def test_ready_after_the_smallest_batch_size_and_passes_use_only_captured_sizes_meanwhile(
    tiny_voice, cpu_engine: CudaEngine
) -> None:
    """Ready once batch size 1 is captured and the eager ops are warm; until the larger sizes are captured a
    batch runs as passes of captured sizes only (no eager step of another size), with the same results as the
    fully captured engine."""
    gate = _Gate()
    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, capture="background", batch_sizes=(1, 2, 4))
    e = CudaEngine(tiny_voice, settings, before_rest=gate)
    assert gate.reached.wait(120), "the warm-up never reached its hook"
    assert e.ready.is_set() and not e.fully_captured.is_set() and e.ready_seconds > 0
    assert e.captured_batch_sizes == (1,) and _step_batches(e) == {1}
    batch = [SENTENCE, MEDIUM, SHORT, MEDIUM, SENTENCE]  # 5 rows: 2 chunks of <= 4 once every size is captured
    during = e.synthesize_batch(batch)
    assert _step_batches(e) == {1}, "a pass ran at a batch size not captured yet"
    gate.go.set()
    assert e.fully_captured.wait(120) and e.capture_error is None
    assert e.captured_batch_sizes == (1, 2, 4) and _step_batches(e) == {1, 2, 4}
    assert e.warmup_seconds >= e.ready_seconds
    for a, b, c in zip(during, e.synthesize_batch(batch), cpu_engine.synthesize_batch(batch), strict=True):
        assert np.array_equal(a.frames_per_id, c.frames_per_id) and np.array_equal(b.frames_per_id, c.frames_per_id)
        assert np.abs(a.audio - c.audio).max() <= CPU_TOLERANCE and np.abs(b.audio - c.audio).max() <= CPU_TOLERANCE


def test_a_failing_before_rest_hook_is_logged_and_the_warm_up_goes_on(tiny_voice, caplog) -> None:
    def hook() -> None:
        raise RuntimeError("preload gone")

    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, capture="background", batch_sizes=(1, 2))
    e = CudaEngine(tiny_voice, settings, before_rest=hook)
    assert e.fully_captured.wait(120) and e.ready.is_set() and e.capture_error is None
    assert e.captured_batch_sizes == (1, 2)
    assert "before_rest" in caplog.text


def test_a_capture_failing_after_ready_leaves_an_engine_serving_on_the_captured_sizes(
    tiny_voice, cpu_engine: CudaEngine, monkeypatch
) -> None:
    built = CudaEngine._step_builders

    def builders(self: CudaEngine, sizes=None) -> list:
        if sizes is not None and 2 in sizes:

            def broken() -> None:
                raise RuntimeError("capture went wrong")

            return [broken]
        return built(self, sizes)

    monkeypatch.setattr(CudaEngine, "_step_builders", builders)
    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, capture="background", batch_sizes=(1, 2, 4))
    e = CudaEngine(tiny_voice, settings)
    assert e.fully_captured.wait(120) and e.ready.is_set() and isinstance(e.capture_error, RuntimeError)
    assert e.captured_batch_sizes == (1,)
    batch = [SENTENCE, MEDIUM, SHORT]
    for a, c in zip(e.synthesize_batch(batch), cpu_engine.synthesize_batch(batch), strict=True):
        assert np.array_equal(a.frames_per_id, c.frames_per_id) and np.abs(a.audio - c.audio).max() <= CPU_TOLERANCE
    assert _step_batches(e) == {1}


def test_the_rest_of_the_warm_up_waits_for_a_quiet_engine(tiny_voice, monkeypatch) -> None:
    """After ready a step is captured only when no request has used the engine for QUIET_S (or after
    REST_PATIENCE_S under a steady flow): a request then rarely waits behind a capture."""
    monkeypatch.setattr(CudaEngine, "QUIET_S", 0.3)
    monkeypatch.setattr(CudaEngine, "REST_PATIENCE_S", 30.0)
    gate = _Gate()
    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, capture="background", batch_sizes=(1, 2))
    e = CudaEngine(tiny_voice, settings, before_rest=gate)
    assert gate.reached.wait(120)
    n = len(e._acoustic_steps) + len(e._frame_steps)
    e.synthesize(SHORT)
    gate.go.set()
    time.sleep(0.1)  # within QUIET_S of the request: no further step yet
    assert len(e._acoustic_steps) + len(e._frame_steps) == n
    assert e.fully_captured.wait(120) and e.captured_batch_sizes == (1, 2)


def test_engines_without_a_warm_up_are_ready_at_once(tiny_voice, engine: OrtEngine) -> None:
    from onestep.runtime.engine import engine_ready

    lazy = CudaEngine(tiny_voice, CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False), warmup=False)
    assert engine_ready(lazy) and engine_ready(engine)  # the ONNX engine has no background work
    assert lazy.fully_captured.is_set() and lazy.captured_batch_sizes == lazy.settings.batch_sizes


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"dtype": "int8"}, "dtype"),
        ({"acoustic_dtype": "fp8"}, "acoustic_dtype"),
        ({"capture": "later"}, "capture"),
        ({"batch_sizes": (4, 2)}, "batch_sizes"),
        ({"batch_sizes": ()}, "batch_sizes"),
        ({"device": "cpu", "cuda_graphs": True}, "cuda device"),
    ],
)
def test_settings_are_validated(kwargs, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        CudaSettings(**kwargs)
    assert CudaSettings(batch_sizes=[1, 4]).batch_sizes == (1, 4)  # type: ignore[arg-type]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("dtype", ["fp32", "fp16", "bf16"])
def test_cuda_graphs_match_the_onnx_engine_on_a_gpu(tiny_voice, engine: OrtEngine, dtype: str) -> None:
    gpu = CudaEngine(tiny_voice, CudaSettings(dtype=dtype, batch_sizes=(1, 4)))
    tolerance = {"fp32": 1e-4, "fp16": 0.05, "bf16": 0.15}[dtype]
    batch = [SENTENCE, MEDIUM, LONG, SENTENCE]
    for ids, result in zip(batch, gpu.synthesize_batch(batch), strict=True):
        onnx = engine.synthesize(ids)
        assert np.array_equal(result.frames_per_id, onnx.frames_per_id)  # fp32 durations, one rounding rule
        assert np.abs(result.audio - onnx.audio).max() <= tolerance


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_background_capture_on_a_gpu_serves_eagerly_then_replays(tiny_voice, engine: OrtEngine) -> None:
    gpu = CudaEngine(tiny_voice, CudaSettings(dtype="fp16", batch_sizes=(1, 2, 4), capture="background"))
    batch = [SENTENCE, MEDIUM, LONG]
    early = gpu.synthesize_batch(batch)  # while graphs are being captured
    assert gpu.wait_ready(300) and gpu.fully_captured.wait(300) and gpu.capture_error is None
    steps = [s for s, *_ in gpu._acoustic_steps.values()] + [s for s, _ in gpu._frame_steps.values()]
    assert steps and all(s.graph is not None for s in steps)
    late = gpu.synthesize_batch(batch)
    for ids, a, b in zip(batch, early, late, strict=True):
        assert np.array_equal(a.frames_per_id, b.frames_per_id)
        assert np.array_equal(a.frames_per_id, engine.synthesize(ids).frames_per_id)
        assert np.abs(a.audio - b.audio).max() <= 1e-3


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_graph_replays_in_any_order_equal_eager_runs(tiny_voice) -> None:
    settings = CudaSettings(dtype="fp16", batch_sizes=(1, 2))
    graphs = CudaEngine(tiny_voice, settings)
    eager = CudaEngine(tiny_voice, CudaSettings(dtype="fp16", batch_sizes=(1, 2), cuda_graphs=False))
    order = [[LONG], [SENTENCE, MEDIUM], [MEDIUM], [SENTENCE], [MEDIUM, LONG], [SENTENCE]]  # not capture order
    for batch in order + order[::-1]:
        for got, want in zip(graphs.synthesize_batch(batch), eager.synthesize_batch(batch), strict=True):
            assert np.array_equal(got.frames_per_id, want.frames_per_id)
            assert np.abs(got.audio - want.audio).max() <= 1e-3


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_split_passes_on_a_gpu_match_the_onnx_engine(tiny_voice, engine: OrtEngine) -> None:
    gpu = CudaEngine(tiny_voice, CudaSettings(dtype="fp32", batch_sizes=(1, 2, 4)))
    assert gpu._audio_host.tensor.is_pinned() and gpu._fpi_host.tensor.is_pinned()
    _split_everything(gpu)
    batch = [MEDIUM, SHORT, LONG, SENTENCE, SHORT, MEDIUM, SENTENCE]  # 7 > 4: sorted into 2 chunks
    for speed in (1.0, 0.5):
        for ids, result in zip(batch, gpu.synthesize_batch(batch, speed), strict=True):
            onnx = engine.synthesize(ids, speed)
            assert result.audio.size == int(result.frames_per_id.sum()) * gpu.hop
            assert np.array_equal(result.frames_per_id, onnx.frames_per_id)  # the acoustic step runs without TF32
            assert np.abs(result.audio - onnx.audio).max() <= 1e-3  # a wrong gather is off by ~0.1


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_graph_plans_agree_on_a_gpu(tiny_voice) -> None:
    gpu = CudaEngine(tiny_voice, CudaSettings(dtype="fp16", batch_sizes=(1, 2, 4, 8)))
    batch = [SENTENCE, LONG, MEDIUM, SHORT, MEDIUM, SENTENCE, SHORT, SENTENCE, MEDIUM]  # 9 > 8
    runs = []
    for plan in (BatchPlan(None), BatchPlan(), BatchPlan(0)):
        gpu.plan = plan
        runs.append(gpu.synthesize_batch(batch))
    for ids, *same in zip(batch, *runs, strict=True):  # the acoustic passes are the same whatever the plan
        assert all(np.array_equal(r.frames_per_id, same[0].frames_per_id) for r in same)
        assert len(same[0].frames_per_id) == len(ids)
        assert all(r.audio.size == int(r.frames_per_id.sum()) * gpu.hop for r in same)
        for r in same[1:]:  # other frame buckets and batch sizes: fp16 kernels and the bucket edge differ slightly
            assert np.abs(r.audio - same[0].audio).max() <= 0.05


@pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU the bench itself runs (lab/gpu/engine_bench.sh)")
def test_gpu_bench_script_runs_eagerly_on_the_cpu(tiny_voice, tmp_path) -> None:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "gpu_bench.json"
    args = ["--device", "cpu", "--voice-dir", str(tiny_voice), "--ids", str(root / "lab/gpu/bench_ids.json")]
    args += ["--no-text", "--dtypes", "fp32", "--batch-sizes", "1,2", "--batches", "1,3", "--runs", "2"]
    done = subprocess.run(
        [sys.executable, str(root / "lab/gpu/gpu_bench.py"), *args, "--batch-runs", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root / "dev" / "src")])},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(out.read_text())
    entry = report["dtypes"]["fp32"]
    assert entry["en"]["frames_equal_cpu"] and entry["en"]["max_abs_diff_cpu"] <= CPU_TOLERANCE
    assert set(entry["batch_bench"]) == set(entry["batch_short"]) == set(entry["batch_bench_one_pass"]) == {"1", "3"}
    assert report["text_to_pcm"] == {"skipped": "--no-text"}
    assert "| fp32 | " in done.stdout and "fp32 short: best batch" in done.stdout.splitlines()[-1]


def test_the_gpu_lab_puts_a_carried_site_after_the_interpreters_own(tmp_path) -> None:
    """lab/gpu/site_after: a pruned carried package (pygments without its formatters, as the traced site has
    it) no longer shadows the full one installed; what only the carried site has is still found after it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("pygments.formatters")
    root = Path(__file__).resolve().parents[2]
    site = tmp_path / "site"
    (site / "pygments").mkdir(parents=True)
    (site / "pygments" / "__init__.py").write_text("")  # pruned: no formatters
    (site / "only_carried.py").write_text("WHERE = 'carried'\n")
    code = "import pygments.formatters, only_carried, sys; print(only_carried.WHERE, pygments.__file__)"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ONESTEP_SITE_AFTER")}
    ahead = subprocess.run([sys.executable, "-c", code], env={**env, "PYTHONPATH": str(site)}, capture_output=True, text=True)
    assert ahead.returncode != 0 and "pygments.formatters" in ahead.stderr  # the failure seen on the GPU machine
    after = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True,
        env={**env, "PYTHONPATH": str(root / "lab/gpu/site_after"), "ONESTEP_SITE_AFTER": str(site)},
    )  # fmt: skip
    assert after.returncode == 0, after.stderr
    assert after.stdout.startswith("carried ") and str(site) not in after.stdout
