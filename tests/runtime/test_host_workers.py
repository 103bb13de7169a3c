"""The host pool's worker processes and shared memory: calls go to the chosen worker and keep state there,
errors stay with their call, a dead worker fails only its own calls, nothing is left in /dev/shm, and
closing stops every process; ``synthesize_batch`` with processes equals the serial path."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from onestep import TTS
from onestep.runtime.host_pool import HostPool, HostPoolSettings
from onestep.runtime.host_workers import WorkerDied, WorkerProcs, worker_state
from onestep.runtime.shm import Segment, SegmentRing, leftover_segments, shm_dir
from onestep.work_limits import NothingToSpeakError, TooMuchWorkError

TINY_VOICE = Path(__file__).resolve().parents[1] / "fixtures" / "tiny-voice"


# --- functions run in the workers (module level: pickled by reference) ---


def _keep(key: str, value: int) -> int:
    worker_state()[key] = value
    return os.getpid()


def _take(key: str) -> tuple[int, int]:
    return worker_state().pop(key), os.getpid()


def _fail(message: str) -> None:
    raise ValueError(message)


class _Unpicklable(Exception):
    def __init__(self, a: int, b: int) -> None:  # pickling drops the args: loading it fails
        super().__init__(f"{a} {b}")


def _fail_unpicklable() -> None:
    raise _Unpicklable(1, 2)


def _die() -> None:
    os._exit(3)


def _sum_segment(name: str, count: int) -> float:
    seg = Segment.attach(name)
    total = float(seg.array(0, count).sum())
    seg.array(0, count)[:] = 2.0  # the parent sees what a worker writes
    seg.close()
    return total


def _segments_of_my_pid() -> list[str]:
    return leftover_segments(os.getpid())


@pytest.fixture()
def procs():
    workers = WorkerProcs(2)
    yield workers
    workers.close()


def test_calls_go_to_the_chosen_worker_and_keep_state_there(procs: WorkerProcs) -> None:
    pids = [procs.submit(_keep, f"k{i}", i, worker=i).result(30) for i in range(4)]
    assert pids[0] == pids[2] != pids[1] == pids[3] and set(pids) == set(procs.pids)
    assert procs.submit(_take, "k2", worker=0).result(30) == (2, pids[0])  # worker 0 kept k0 and k2
    with pytest.raises(KeyError):
        procs.submit(_take, "k1", worker=0).result(30)  # k1 is on worker 1


def test_an_error_stays_with_its_call(procs: WorkerProcs) -> None:
    bad = procs.submit(_fail, "bad one", worker=0)
    good = procs.submit(_keep, "x", 1, worker=0)
    odd = procs.submit(_fail_unpicklable, worker=0)
    with pytest.raises(ValueError, match="bad one"):
        bad.result(30)
    assert good.result(30) in procs.pids
    with pytest.raises(RuntimeError, match="_Unpicklable"):
        odd.result(30)


def test_a_dead_worker_fails_only_its_own_calls_and_is_replaced(procs: WorkerProcs) -> None:
    other = procs.submit(_keep, "y", 1, worker=1).result(30)
    before = procs.pids[0]
    dying = procs.submit(_die, worker=0)
    with pytest.raises(WorkerDied):
        dying.result(30)
    assert procs.submit(_take, "y", worker=1).result(30) == (1, other)  # the other worker goes on
    # a later call to its place starts a new worker there (what it kept is gone with the old one)
    assert procs.submit(_keep, "z", 1, worker=0).result(60) == procs.pids[0] != before
    assert procs.replaced == 1


def test_without_replacing_later_calls_to_a_dead_worker_fail_at_once() -> None:
    procs = WorkerProcs(1, replace=False)
    try:
        with pytest.raises(WorkerDied):
            procs.submit(_die, worker=0).result(30)
        with pytest.raises(WorkerDied):
            procs.submit(_keep, "z", 1, worker=0).result(30)
        assert procs.replaced == 0
    finally:
        procs.close()


def test_close_stops_every_worker_and_reader() -> None:
    procs = WorkerProcs(2)
    processes = [w.process for w in procs._workers]
    readers = [w.reader for w in procs._workers]
    assert all(p.is_alive() for p in processes)
    pending = procs.submit(_keep, "k", 1, worker=0)
    procs.close()
    assert pending.done() and pending.result() in [p.pid for p in processes]  # calls in flight finish first
    assert not any(p.is_alive() for p in processes) and all(p.exitcode == 0 for p in processes)
    assert not any(r.is_alive() for r in readers)
    with pytest.raises(WorkerDied):
        procs.submit(_keep, "k", 1, worker=0).result(5)


def test_segments_are_shared_and_unlinked(procs: WorkerProcs) -> None:
    seg = Segment.create(4 * 1000)
    view = seg.array(0, 1000)
    view[:] = 0.5
    assert procs.submit(_sum_segment, seg.name, 1000, worker=0).result(30) == 500.0
    assert float(view.sum()) == 2000.0  # written by the worker
    assert seg.name in leftover_segments(os.getpid())
    seg.unlink()
    assert seg.name not in leftover_segments(os.getpid()) and float(view[0]) == 2.0  # the view outlives the name
    seg.close()  # a view is left: the mapping stays
    assert float(view[-1]) == 2.0


def test_ring_reuses_slots_and_grows_them() -> None:
    ring = SegmentRing(2)
    a, seg_a = ring.acquire(1000)
    b, seg_b = ring.acquire(2 << 20)
    assert a != b and seg_b.size >= 2 << 20
    with pytest.raises(TimeoutError):
        ring.acquire(10, timeout=0.05)  # both taken
    ring.release(a)
    again, seg = ring.acquire(1000)
    assert again == a and seg is seg_a  # reused, not made anew
    ring.release(again)
    ring.release(b)
    big, seg_big = ring.acquire(8 << 20)
    assert seg_big.size >= 8 << 20
    names = [seg_a.name, seg_b.name, seg_big.name]
    ring.close()
    assert not set(names) & set(leftover_segments(os.getpid()))


# --- synthesize_batch with the finishing work in the worker processes ---

TEXTS = [
    "Hello world, this is a test.",
    "The second text has two sentences. Here is the other one!",
    "Dr. Smith paid $3.50 on 5 May.",
    "A short one.",
    "Numbers like 1,234 and 56% are read out loud; so are dates such as 2024-01-02.",
    "你好，世界。",
    "One more line ✓ with a symbol nobody speaks.",
    '<speak>SSML too: <break time="100ms"/> it is read in the parent.</speak>',
    "Three sentences now. Two of them short. Fine?",
]


def _serial(tts: TTS, texts: list[str], chunk: int, **kwargs) -> list:
    """The serial path over the same engine batches (the tiny voice's ONNX Conv rounds a little differently
    per batch length)."""
    prepared = [tts.prepare(t) for t in texts]
    return [a for i in range(0, len(texts), chunk) for a in tts.render(prepared[i : i + chunk], **kwargs)]


@pytest.mark.parametrize(("processes", "chunk"), [(2, 3), (3, 4)])
def test_finishing_in_processes_equals_the_serial_path_in_order(same_audio, tts: TTS, processes: int, chunk: int) -> None:
    serial = _serial(tts, TEXTS, chunk)
    with HostPool(HostPoolSettings(threads=2, processes=processes, chunk=chunk)) as pool:
        for _ in range(2):  # the second run reuses the pool's shared memory slots
            pooled = tts.synthesize_batch(TEXTS, pool=pool)
            assert len(pooled) == len(TEXTS)
            for a, b in zip(pooled, serial, strict=True):
                same_audio(a, b)
        assert pooled[6].skipped and pooled[0].words and pooled[0].phoneme_timestamps
        chars = tts.synthesize_batch(TEXTS, pool=pool, timestamps="char")
        for a, b in zip(chars, _serial(tts, TEXTS, chunk, timestamps="char"), strict=True):
            same_audio(a, b)
        plain = tts.synthesize_batch(TEXTS, pool=pool, timestamps=False)
        assert all(not a.words and not a.phoneme_timestamps for a in plain[:7])
        assert all(np.array_equal(a.samples, b.samples) for a, b in zip(plain, serial, strict=True))
        workers = list(pool.processes.pids)  # type: ignore[union-attr]
    assert not leftover_segments(os.getpid())  # the ring's slots are unlinked at close
    assert not any(leftover_segments(pid) for pid in workers)
    assert not any(Path(f"/proc/{pid}").exists() and _alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_bad_text_gets_its_error_and_the_others_their_audio(same_audio, tts: TTS) -> None:
    texts = ["Fine.", "✓✓", "Also fine, twice over.", "x " * 400, "", "Last one, fine too."]
    speeds = [1.0, 1.0, 9.0, 1.0, 1.0, 1.0]
    small = TTS(TINY_VOICE, preload=False, max_phonemes=300)
    with HostPool(HostPoolSettings(threads=2, processes=2, chunk=2)) as pool:
        out = small.synthesize_batch(texts, speeds=speeds, pool=pool, errors="return")
        assert isinstance(out[1], NothingToSpeakError) and isinstance(out[2], ValueError)  # speed out of range
        assert isinstance(out[3], TooMuchWorkError) and isinstance(out[4], NothingToSpeakError)
        same_audio(out[0], small.render([small.prepare("Fine.")])[0])  # type: ignore[arg-type]
        same_audio(out[5], small.render([small.prepare("Last one, fine too.")])[0])  # type: ignore[arg-type]
        with pytest.raises(NothingToSpeakError):
            small.synthesize_batch(["Fine.", "✓✓"], pool=pool)
        # nothing was left behind in the workers by the texts that failed or were not finished
        states = [pool.submit(_state_size, worker=i).result(30) for i in range(2)]
        assert states == [0, 0]


def _state_size() -> int:
    return len(worker_state())


def test_an_engine_failure_fails_only_its_text(tts: TTS, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = tts.engine()
    real = engine.synthesize_batch

    def flaky(batch, speed=1.0, timings=None):
        if any(len(ids) == len(bad_ids) and list(ids) == bad_ids for ids in batch):
            raise RuntimeError("engine says no")
        return real(batch, speed, timings)

    bad_ids = tts.prepare("A short one.").ids[0]
    monkeypatch.setattr(engine, "synthesize_batch", flaky)
    with HostPool(HostPoolSettings(threads=2, processes=2, chunk=4)) as pool:
        out = tts.synthesize_batch(TEXTS[:5], pool=pool, errors="return")
    assert isinstance(out[3], RuntimeError) and "engine says no" in str(out[3])
    assert all(not isinstance(a, Exception) and a.samples.size for i, a in enumerate(out) if i != 3)


def test_a_killed_worker_is_replaced_before_the_next_texts(same_audio, tts: TTS) -> None:
    with HostPool(HostPoolSettings(threads=2, processes=2, chunk=2)) as pool:
        pool.start()
        assert isinstance(pool.submit(_die, worker=1).exception(30), WorkerDied)  # worker 1 is gone
        out = tts.synthesize_batch(TEXTS[:4], pool=pool, errors="return")
        assert not any(isinstance(a, Exception) for a in out)  # texts 1 and 3 went to its successor
        assert pool.processes is not None and pool.processes.replaced == 1
        same_audio(out[1], tts.render([tts.prepare(TEXTS[1])])[0])  # type: ignore[arg-type]


def test_a_text_whose_worker_died_after_its_frontend_fails_alone(tts: TTS) -> None:
    """The worker that ran a text's frontend keeps its words for the finishing: another cannot finish it."""
    from onestep.synthesis.remote_worker import FinishOrder, remote_finish

    with pytest.raises(WorkerDied, match="prepared this text"):  # nothing kept under the key in this process
        remote_finish(("gone", 1), FinishOrder("", 0, (), (), 0, 0, 24000, 0.0125, (None, 0.0)))


def test_no_segment_is_left_after_an_interrupted_run(tts: TTS, monkeypatch: pytest.MonkeyPatch) -> None:
    import onestep.synthesis.remote as remote

    calls = [0]
    real = remote._ship

    def ship_then_stop(orders, pool, *rest):
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        return real(orders, pool, *rest)

    monkeypatch.setattr(remote, "_ship", ship_then_stop)
    with HostPool(HostPoolSettings(threads=2, processes=2, chunk=2)) as pool:
        with pytest.raises(KeyboardInterrupt):
            tts.synthesize_batch(TEXTS, pool=pool)
        workers = pool.processes.pids  # type: ignore[union-attr]
    assert not leftover_segments(os.getpid())
    assert not any(leftover_segments(pid) for pid in workers)


def test_segments_leave_a_full_dev_shm_for_the_temporary_folder() -> None:
    import tempfile

    assert shm_dir(1 << 62) == Path(tempfile.gettempdir())  # no room for it in /dev/shm (a container's 64 MB)
    seg = Segment.create(4096)
    assert Path(seg.name).parent == shm_dir(4096)
    seg.unlink()


def test_pools_can_be_used_from_several_threads(same_audio, tts: TTS) -> None:
    serial = _serial(tts, TEXTS[:6], 3)
    results: dict[int, list] = {}
    with HostPool(HostPoolSettings(threads=2, processes=2, chunk=3)) as pool:

        def run(k: int) -> None:
            results[k] = tts.synthesize_batch(TEXTS[:6], pool=pool)

        threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    for k in range(3):
        for a, b in zip(results[k], serial, strict=True):
            same_audio(a, b)


def test_a_pool_whose_workers_read_with_another_lexicon_is_refused(tts: TTS, tmp_path: Path) -> None:
    pool = HostPool(HostPoolSettings(processes=1, lexicon=str(tmp_path / "other.txt")))
    with pytest.raises(ValueError, match="lexicon"):
        tts.synthesize_batch(TEXTS[:2], pool=pool)
    assert pool._processes is None  # refused before any worker started
    pool.close()


def _parent_with_workers(tmp_path: Path, setup: str = "") -> tuple[subprocess.Popen[str], list[int]]:
    """A parent process with a 2-worker :class:`WorkerProcs` (and ``setup``'s lines after it), waiting on stdin;
    returns it and its workers' pids (the first line it prints; ``setup`` may print more)."""
    script = tmp_path / "parent.py"
    script.write_text(
        "import sys\n"
        "from onestep.runtime.host_workers import WorkerProcs\n"
        "from onestep.runtime.shm import SegmentRing\n"
        "if __name__ == '__main__':\n"
        "    procs = WorkerProcs(2)\n"
        "    print(*procs.pids, flush=True)\n"
        + setup
        + "    sys.stdin.read()\n",
        encoding="utf-8",
    )
    parent = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    return parent, [int(x) for x in parent.stdout.readline().split()]


def _kill_and_wait_until(parent: subprocess.Popen[str], done: Callable[[], bool], timeout_s: float = 20) -> None:
    """SIGKILL ``parent``, then poll until ``done()`` or ``timeout_s`` (the caller asserts what it wants)."""
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + timeout_s
    while not done() and time.monotonic() < deadline:
        time.sleep(0.1)


def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    parent, pids = _parent_with_workers(tmp_path)
    assert len(pids) == 2 and all(_alive(p) for p in pids)
    _kill_and_wait_until(parent, lambda: not any(_alive(p) for p in pids))
    assert not any(_alive(p) for p in pids)


def test_a_killed_parents_shared_memory_is_unlinked_by_its_workers(tmp_path: Path) -> None:
    """A parent killed with SIGKILL unlinks nothing; its workers, ending with it, unlink its segments."""
    parent, pids = _parent_with_workers(
        tmp_path,
        "    ring = SegmentRing(3)\n"
        "    slots = [ring.acquire(1 << 16)[1] for _ in range(3)]\n"
        "    print(*(s.name for s in slots), flush=True)\n",
    )
    assert parent.stdout is not None
    names = parent.stdout.readline().split()
    assert len(names) == 3 and set(leftover_segments(parent.pid)) == set(names)  # the ring's, linked
    _kill_and_wait_until(parent, lambda: not leftover_segments(parent.pid) and not any(_alive(p) for p in pids))
    assert leftover_segments(parent.pid) == []
    assert not any(_alive(p) for p in pids)


def test_dead_owners_segments_go_and_live_ones_stay(tmp_path: Path) -> None:
    """``remove_dead_owners`` leaves a live process's segments (and files not named like one) alone."""
    from onestep.runtime.shm import PREFIX, remove_dead_owners

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(10)  # reaped: its pid is free
    d = shm_dir()
    dead = d / f"{PREFIX}{child.pid}-0-abcd1234"
    odd = d / f"{PREFIX}{child.pid}-notours"
    live = d / f"{PREFIX}{os.getppid()}-0-abcd1234"  # the parent of this test process lives
    for p in (dead, odd, live):
        p.write_bytes(b"x")
    try:
        assert remove_dead_owners(os.getppid()) == [] and live.exists()
        assert remove_dead_owners(child.pid) == [str(dead)]
        assert not dead.exists() and odd.exists()
    finally:
        for p in (dead, odd, live):
            p.unlink(missing_ok=True)


def _ring_holder() -> tuple[subprocess.Popen[str], list[str]]:
    """A process holding a 2-slot ring's segments (no workers), waiting on stdin; returns it and the names."""
    code = ("import sys\nfrom onestep.runtime.shm import SegmentRing\nring = SegmentRing(2)\n"
            "slots = [ring.acquire(1 << 16)[1] for _ in range(2)]\nprint(*(s.name for s in slots), flush=True)\n"
            "sys.stdin.read()\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().split()


def test_segments_of_a_group_killed_whole_are_swept_by_the_next_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Creator and workers killed together leave the ring's segments; the next pool to map shared memory sweeps
    them (not while they are younger than the sweep's age guard)."""
    from onestep.runtime import shm

    proc, names = _ring_holder()
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    try:
        assert len(names) == 2 and set(leftover_segments(proc.pid)) == set(names)
        assert shm.remove_orphaned_segments(min_age_s=3600) == []  # too young: maybe a creator before its flock
        for name in names:
            os.utime(name, (time.time() - 60, time.time() - 60))
        monkeypatch.setattr(shm, "_swept", False)  # as in a new process
        with HostPool(HostPoolSettings(threads=1)) as pool:
            assert pool.ring is not None
        assert leftover_segments(proc.pid) == []
    finally:
        for name in names:
            Path(name).unlink(missing_ok=True)


def test_a_live_creators_segments_are_not_swept_even_when_its_pid_looks_dead(monkeypatch: pytest.MonkeyPatch) -> None:
    """The creator's flock keeps its segments, as for a creator in another PID namespace (its pid unknown here)."""
    from onestep.runtime import shm

    proc, names = _ring_holder()
    try:
        monkeypatch.setattr(shm, "pid_alive", lambda pid: False)
        assert shm.remove_orphaned_segments(min_age_s=0) == []
        assert set(leftover_segments(proc.pid)) == set(names)
        assert proc.stdin is not None
        proc.stdin.close()  # it ends normally: its ring is not closed, its names stay, its locks go
        proc.wait(10)
        assert sorted(shm.remove_orphaned_segments(min_age_s=0)) == sorted(names)
    finally:
        proc.kill()
        for name in names:
            Path(name).unlink(missing_ok=True)


def _young_objects_after_garbage(n: int) -> tuple[int, int]:
    """Leave ``n`` unreachable cycles behind; return (frozen objects, young objects now). The automatic
    threshold is raised first, so that only the worker's idle collection can take them."""
    import gc

    gc.set_threshold(1_000_000, 10, 10)
    for _ in range(n):
        a: list[object] = []
        a.append(a)
    return gc.get_freeze_count(), gc.get_count()[0]


def test_a_worker_freezes_its_tables_and_collects_between_calls(procs: WorkerProcs) -> None:
    frozen, young = procs.submit(_young_objects_after_garbage, 5_000, worker=0).result(30)
    assert frozen > 0  # what the initializer loaded is out of every later collection
    assert young >= 5_000  # the garbage is there when the call returns ...
    time.sleep(0.2)  # ... and the worker, idle, collects it before the next call
    _, young_next = procs.submit(_young_objects_after_garbage, 0, worker=0).result(30)
    assert young_next < 1_000
