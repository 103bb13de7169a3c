"""Collection at idle moments: the due generation is chosen by CPython's rule, nothing happens below the
minimum or with the collector off, the loop waits while busy, and idle collections are told apart in metrics."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from collections.abc import Iterator

import pytest

from onestep.runtime import idle_gc


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycles(n: int) -> list[weakref.ref[_Node]]:
    """``n`` unreachable two-node cycles (only a collection frees them); weak references to one node each."""
    refs = []
    for _ in range(n):
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        refs.append(weakref.ref(a))
    return refs


@pytest.fixture
def collector(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Automatic collection out of the way (a high threshold), and the idle loops of servers other tests left
    running in this process (their own threads) kept from collecting, so that only the code under test does."""
    real, here = idle_gc.collect_when_idle, threading.get_ident()

    def this_thread_only(min_young: int = idle_gc.MIN_YOUNG) -> int | None:
        return real(min_young) if threading.get_ident() == here else None

    monkeypatch.setattr(idle_gc, "collect_when_idle", this_thread_only)
    was_enabled, thresholds = gc.isenabled(), gc.get_threshold()
    gc.collect()
    gc.set_threshold(1_000_000, 10, 10)
    gc.enable()
    yield
    gc.set_threshold(*thresholds)
    (gc.enable if was_enabled else gc.disable)()  # as found, also after a test that switched it off


def test_idle_collection_frees_cycles_only_past_the_minimum(collector: None) -> None:
    few = _cycles(10)
    assert idle_gc.collect_when_idle(min_young=10_000) is None  # 20 young objects: not worth it
    assert all(r() is not None for r in few)
    many = _cycles(2_000)
    assert idle_gc.collect_when_idle(min_young=1_000) == 0
    assert all(r() is None for r in few + many)
    assert gc.get_count()[0] < 1_000


def test_nothing_is_collected_with_the_collector_off(collector: None) -> None:
    refs = _cycles(2_000)
    gc.disable()
    assert idle_gc.collect_when_idle(min_young=10) is None
    assert all(r() is not None for r in refs)


def test_the_due_generation_follows_cpythons_thresholds(collector: None) -> None:
    gc.collect()
    gc.set_threshold(1_000_000, 3, 1_000)
    assert idle_gc.next_generation() == 0
    for _ in range(3):  # each young collection counts one towards the middle generation
        gc.collect(0)
    assert idle_gc.next_generation() == 1
    _cycles(600)
    assert idle_gc.collect_when_idle(min_young=100) == 1
    assert idle_gc.next_generation() == 0


def test_callbacks_tell_idle_collections_from_automatic_ones(collector: None) -> None:
    seen: list[bool] = []

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(idle_gc.in_idle_collection())

    gc.callbacks.append(watch)
    try:
        _cycles(1_000)
        idle_gc.collect_when_idle(min_young=100)
        gc.collect(0)
    finally:
        gc.callbacks.remove(watch)
    assert seen == [True, False]
    assert not idle_gc.in_idle_collection()


def test_the_loop_collects_only_while_not_busy(collector: None) -> None:
    busy = True

    async def scenario() -> tuple[int, int]:
        task = asyncio.create_task(idle_gc.collect_while_idle(lambda: busy, interval_s=0.005, min_young=100))
        refs = _cycles(1_000)
        await asyncio.sleep(0.05)  # ~10 checks while busy
        alive_while_busy = sum(r() is not None for r in refs)
        nonlocal busy
        busy = False
        await asyncio.sleep(0.05)
        task.cancel()
        return alive_while_busy, sum(r() is not None for r in refs)

    alive_while_busy, alive_after = asyncio.run(scenario())
    assert alive_while_busy == 1_000 and alive_after == 0


def test_freezing_moves_the_survivors_out_of_the_walk(collector: None) -> None:
    keep = [_Node() for _ in range(100)]
    frozen_before = gc.get_freeze_count()
    try:
        assert idle_gc.freeze_survivors() >= frozen_before + len(keep)
        assert gc.get_count()[0] < 100
    finally:
        if not frozen_before:  # as found (a server started by another test may have frozen its own)
            gc.unfreeze()
