"""The host pool: per-text work on threads (and the frontend in processes) around one engine, in order."""

from __future__ import annotations

import random
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from onestep import TTS
from onestep.runtime.host_pool import HostPool, HostPoolSettings, run_ordered
from onestep.work_limits import NothingToSpeakError

TINY_VOICE = Path(__file__).resolve().parents[1] / "fixtures" / "tiny-voice"
TEXTS = [
    "Hello world, this is a test.",
    "The second text has two sentences. Here is the other one!",
    "Dr. Smith paid $3.50 on 5 May.",
    "A short one.",
    "Numbers like 1,234 and 56% are read out loud; so are dates such as 2024-01-02.",
    "你好，世界。",  # digits and letters in the English voice's language, Han characters read too
    "One more line ✓ with a symbol nobody speaks.",
]


def test_results_come_back_in_input_order_whatever_the_threads_finish() -> None:
    rng = random.Random(0)
    chunks: list[list[int]] = []
    engine_threads: set[int] = set()

    def prepare(x: int) -> int:
        time.sleep(rng.random() * 0.003)  # threads finish out of order
        return x * 10

    def engine(batch: list[int]) -> list[int]:
        engine_threads.add(threading.get_ident())
        chunks.append(list(batch))
        return [p + 1 for p in batch]

    def finish(p: int, r: int) -> tuple[int, int]:
        time.sleep(rng.random() * 0.003)
        return p, r

    before = sys.getswitchinterval()
    seen: list[float] = []

    def engine_seeing(batch: list[int]) -> list[int]:
        seen.append(sys.getswitchinterval())
        return engine(batch)

    with HostPool(HostPoolSettings(threads=4, chunk=5, switch_interval_s=0.0005)) as pool:
        out = run_ordered(list(range(23)), prepare, engine_seeing, finish, pool)
    assert seen and all(abs(v - 0.0005) < 1e-9 for v in seen) and sys.getswitchinterval() == before
    assert out == [(10 * i, 10 * i + 1) for i in range(23)]
    assert chunks == [[10 * i for i in range(a, min(a + 5, 23))] for a in range(0, 23, 5)]  # chunks in order
    assert engine_threads == {threading.get_ident()}  # one engine, fed by the calling thread


@pytest.mark.parametrize("threads", [1, 3])
def test_the_first_failing_item_in_input_order_raises_and_later_chunks_skip_the_engine(threads: int) -> None:
    calls: list[list[int]] = []

    def prepare(x: int) -> int:
        if x in (7, 4):
            time.sleep(0.01 if x == 4 else 0)  # 7 fails first in time, 4 first in order
            raise ValueError(f"bad {x}")
        return x

    def engine(batch: list[int]) -> list[int]:
        calls.append(batch)
        return batch

    with HostPool(HostPoolSettings(threads=threads, chunk=3)) as pool, pytest.raises(ValueError, match="bad 4"):
        run_ordered(list(range(10)), prepare, engine, lambda p, r: r, pool)
    assert calls == [[0, 1, 2]]  # the chunk of item 4 never reached the engine


def test_settings_are_checked() -> None:
    for kwargs in ({"threads": 0}, {"processes": -1}, {"chunk": 0}, {"switch_interval_s": 0.0}):
        with pytest.raises(ValueError):
            HostPoolSettings(**kwargs)  # type: ignore[arg-type]
    assert HostPoolSettings(threads=None).n_threads >= 1
    with pytest.raises(RuntimeError, match="no frontend processes"):
        HostPool(HostPoolSettings(threads=1)).sentences("hi", 30, "en")


@pytest.mark.parametrize(("threads", "processes", "chunk"), [(3, 0, 2), (2, 1, 3)])
def test_pooled_synthesize_batch_equals_the_serial_path(same_audio, tts: TTS, threads: int, processes: int, chunk: int) -> None:
    speeds = [1.0, 1.3, 0.8, 1.0, 1.0, 1.0, 1.0]
    prepared = [tts.prepare(t, None, s) for t, s in zip(TEXTS, speeds, strict=True)]
    # the serial path over the same engine batches (ONNX Runtime's Conv rounds a little differently per
    # batch length on the tiny voice, ~1e-8: the same batches give the same samples)
    serial = [a for i in range(0, len(TEXTS), chunk) for a in tts.render(prepared[i : i + chunk])]
    with HostPool(HostPoolSettings(threads=threads, processes=processes, chunk=chunk)) as pool:
        pooled = tts.synthesize_batch(TEXTS, speeds=speeds, pool=pool)
        assert len(pooled) == len(TEXTS)
        for a, b in zip(pooled, serial, strict=True):
            same_audio(a, b)
        assert pooled[-1].skipped  # the symbol nobody speaks, counted in the worker process too
        with pytest.raises(NothingToSpeakError):
            tts.synthesize_batch(["Fine.", "✓✓"], pool=pool)
        plain = tts.synthesize_batch(TEXTS, speeds=speeds, pool=pool, timestamps=False)
        assert all(not a.words and not a.phoneme_timestamps for a in plain)
        assert all(np.array_equal(a.samples, b.samples) for a, b in zip(plain, serial, strict=True))


def test_default_pool_is_shared_and_serial_for_one_text(same_audio, tts: TTS) -> None:
    assert tts.host_pool() is tts.host_pool()
    assert tts.ready() and tts.wait_ready(1)  # the ONNX engine has no background warm-up
    one = tts.synthesize_batch(TEXTS[:1])
    same_audio(one[0], tts.synthesize(TEXTS[0]))
    two = tts.synthesize_batch(TEXTS[:2], ["tiny", None])
    for a, b in zip(two, tts.render([tts.prepare(t) for t in TEXTS[:2]]), strict=True):
        same_audio(a, b)


def test_errors_can_come_back_in_place(same_audio, tts: TTS) -> None:
    texts = ["Fine.", "✓✓", "Also fine, twice over."]
    with HostPool(HostPoolSettings(threads=2, chunk=2)) as pool:
        out = tts.synthesize_batch(texts, speeds=[1.0, 1.0, 9.0], pool=pool, errors="return")
        assert isinstance(out[1], NothingToSpeakError) and isinstance(out[2], ValueError)  # speed out of range
        same_audio(out[0], tts.render([tts.prepare("Fine.")])[0])  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="errors"):
            tts.synthesize_batch(texts, pool=pool, errors="ignore")
