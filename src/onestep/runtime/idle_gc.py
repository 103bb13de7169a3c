"""Garbage collection at idle moments, so that the collector's pauses fall between requests, not inside them.

CPython collects the young generation whenever its allocation count passes a threshold, i.e. in the middle of
whatever is running then: in a server that is a request's first audio. A process that knows when it is idle (no
request in flight, no message waiting) collects there instead, before the threshold is reached, so an automatic
collection only happens under load that leaves no idle moment. Used by the HTTP server's event loop
(:func:`collect_while_idle`) and by the host worker processes between calls.
"""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable

#: Young objects (net container allocations) worth a collection when idle: below it a check costs more than it
#: saves. A young-generation collection takes very roughly 1 µs per object (0.5 ms here).
MIN_YOUNG = 500

_state = threading.local()


def freeze_survivors() -> int:
    """Collect everything once and move what survives (models, tables, imported modules) into the permanent
    generation, out of every later collection's walk. Returns the number of objects frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def next_generation() -> int:
    """The oldest generation whose count has reached its threshold (CPython's counting rule), 0 if none. CPython
    also delays a collection of the oldest generation until the objects that reached it since the last one are a
    quarter of it; an idle moment does not need that delay (after :func:`freeze_survivors` the oldest
    generation holds only what survived since)."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1):
        if thresholds[generation] and counts[generation] >= thresholds[generation]:
            return generation
    return 0


def collect_when_idle(min_young: int = MIN_YOUNG) -> int | None:
    """Collect the generation that is due (:func:`next_generation`) if at least ``min_young`` young objects
    wait and the collector is enabled; the caller has checked that nothing is waiting on this process.
    Returns the generation collected, or None."""
    if not gc.isenabled() or gc.get_count()[0] < min_young:
        return None
    generation = next_generation()
    _state.idle = True
    try:
        gc.collect(generation)
    finally:
        _state.idle = False
    return generation


def in_idle_collection() -> bool:
    """True while :func:`collect_when_idle` runs a collection in this thread (for ``gc.callbacks``: tells an
    idle collection from an automatic one)."""
    return getattr(_state, "idle", False)


#: How often the server's event loop looks for an idle moment, in seconds.
CHECK_INTERVAL_S = 0.02


async def collect_while_idle(
    busy: Callable[[], bool], *, interval_s: float = CHECK_INTERVAL_S, min_young: int = MIN_YOUNG
) -> None:
    """Run forever on an event loop: every ``interval_s`` seconds, if ``busy()`` is false (e.g. no request in
    flight), :func:`collect_when_idle`. A collection runs on the loop's thread: a request arriving during it waits
    for it (a young collection ~1 µs an object; an older generation's, every 10 or 100 of them, also walks what
    has survived into it since the freeze)."""
    while True:
        await asyncio.sleep(interval_s)
        if not busy():
            collect_when_idle(min_young)
