"""Instant phrases: a bounded, process-wide cache of synthesized audio.

Assistants and machines repeat themselves ("Door open.", "请注意，车辆正在倒车。"). A repeated request is
answered from memory, without the scheduler or the engine.

Entries are keyed by :class:`PhraseKey` ``(text, voice, speed, format, sample_rate)``. A value is either
the encoded bytes of one response format (``wav``, ``pcm``, ``flac``, ...) or, under the pseudo-format
:data:`RAW`, the float32 samples [n] themselves. A lookup in a format that is missing but whose raw
samples are cached encodes them once and keeps the result, so a preloaded phrase answers in any format.

The cache is bounded by bytes (least recently used entries go first) and by entry size (an entry larger
than ``max_entry_bytes`` is never kept). It is thread-safe: the HTTP routes, the Wyoming handler and the
Python API of one process share it (:func:`shared_cache`). Hits, misses, stores and evictions are
counted and exported to Prometheus by :meth:`PhraseCache.collector`.

    cache = configure_shared_cache(max_bytes=64 << 20)
    preload(cache, backend, read_phrases("phrases.txt"))
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from onestep.server.backend import SynthesisBackend

log = logging.getLogger("onestep.server")

#: Pseudo-format of an entry holding float32 samples (encoded on demand to any response format).
RAW = "f32"
#: Default byte budget of ``--phrase-cache-mb`` when only ``--preload`` is given.
DEFAULT_MAX_BYTES = 64 << 20


class PhraseKey(NamedTuple):
    """What identifies one cached audio.

    Attributes:
        text: the request text, exactly as sent.
        voice: the voice name, or ``None`` for "the default voice of the text's language".
        speed: the engine speed (after clamping).
        format: a response format (``wav``, ``pcm``, ``flac``, ``mp3``, ``opus``) or :data:`RAW`.
        sample_rate: Hz.
    """

    text: str
    voice: str | None
    speed: float
    format: str
    sample_rate: int


@dataclass(frozen=True)
class PhraseStats:
    """Counters of a :class:`PhraseCache` (monotonic since creation, except ``entries`` and ``bytes``)."""

    hits: int
    misses: int
    stores: int
    evictions: int
    entries: int
    bytes: int


def _size(value: bytes | np.ndarray) -> int:
    return value.nbytes if isinstance(value, np.ndarray) else len(value)


class PhraseCache:
    """LRU cache of audio, bounded by ``max_bytes`` in all and ``max_entry_bytes`` per entry.

    Args:
        max_bytes: byte budget (bytes of encoded audio + float32 samples); > 0.
        max_entry_bytes: largest single entry kept (default: an eighth of ``max_bytes``).
        encode: ``encode(format, samples [n] float32, sample_rate) -> bytes``, used to turn a :data:`RAW`
            entry into a missing format (default: the server's whole-file encoder).
    """

    def __init__(
        self,
        max_bytes: int,
        max_entry_bytes: int | None = None,
        encode: Callable[[str, np.ndarray, int], bytes] | None = None,
    ) -> None:
        if max_bytes <= 0:
            raise ValueError(f"max_bytes must be > 0, got {max_bytes}")
        self.max_bytes = int(max_bytes)
        self.max_entry_bytes = int(max_entry_bytes) if max_entry_bytes is not None else max(1, self.max_bytes // 8)
        if encode is None:
            from onestep.server.encoders import encode_file

            encode = encode_file
        self._encode = encode
        self._lock = threading.Lock()
        self._entries: OrderedDict[PhraseKey, bytes | np.ndarray] = OrderedDict()
        self._bytes = 0
        self._hits = self._misses = self._stores = self._evictions = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: PhraseKey) -> bool:
        return key in self._entries

    def get(self, key: PhraseKey) -> bytes | None:
        """The cached bytes of ``key`` (format must not be :data:`RAW`), or ``None`` (a miss).

        A miss whose raw samples are cached is encoded now, stored under ``key`` and counted as a hit.
        """
        if key.format == RAW:
            raise ValueError("get() returns encoded audio; use get_samples() for raw samples")
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
                self._hits += 1
                return value  # type: ignore[return-value]
            raw = self._entries.get(key._replace(format=RAW))
            if raw is None:
                self._misses += 1
                return None
            self._entries.move_to_end(key._replace(format=RAW))
            self._hits += 1
        data = self._encode(key.format, raw, key.sample_rate)  # type: ignore[arg-type]
        self.put(key, data)
        return data

    def get_samples(self, key: PhraseKey) -> np.ndarray | None:
        """The cached float32 samples of ``key`` (any format: the :data:`RAW` entry is looked up), or ``None``."""
        raw_key = key._replace(format=RAW)
        with self._lock:
            value = self._entries.get(raw_key)
            if value is None:
                self._misses += 1
                return None
            self._entries.move_to_end(raw_key)
            self._hits += 1
            return value  # type: ignore[return-value]

    def put(self, key: PhraseKey, value: bytes | np.ndarray) -> bool:
        """Keep ``value`` under ``key`` (a float32 array exactly when ``key.format`` is :data:`RAW`);
        False if it is too large to keep or empty. Older entries are evicted to make room."""
        if (key.format == RAW) != isinstance(value, np.ndarray):
            raise TypeError("raw samples go under format RAW, encoded bytes under a response format")
        if isinstance(value, np.ndarray):
            value = np.ascontiguousarray(value, dtype=np.float32).reshape(-1)
            value.flags.writeable = False
        size = _size(value)
        if size == 0 or size > self.max_entry_bytes:
            return False
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= _size(old)
            self._entries[key] = value
            self._bytes += size
            self._stores += 1
            while self._bytes > self.max_bytes:
                _, evicted = self._entries.popitem(last=False)
                self._bytes -= _size(evicted)
                self._evictions += 1
        return True

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def stats(self) -> PhraseStats:
        with self._lock:
            return PhraseStats(
                self._hits, self._misses, self._stores, self._evictions, len(self._entries), self._bytes
            )

    def collector(self) -> Any:
        """A Prometheus collector of this cache's counters (register it in any number of registries):
        ``onestep_phrase_cache_{hits,misses,stores,evictions}_total``, ``onestep_phrase_cache_entries``,
        ``onestep_phrase_cache_bytes``."""
        return _PhraseCollector(self)


class _PhraseCollector:
    def __init__(self, cache: PhraseCache) -> None:
        self.cache = cache

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        s = self.cache.stats()
        for name, value, doc in (
            ("hits", s.hits, "Phrase-cache lookups answered from memory."),
            ("misses", s.misses, "Phrase-cache lookups that had to synthesize."),
            ("stores", s.stores, "Audio stored in the phrase cache."),
            ("evictions", s.evictions, "Entries evicted from the phrase cache (LRU)."),
        ):
            yield CounterMetricFamily(f"onestep_phrase_cache_{name}", doc, value=value)
        yield GaugeMetricFamily("onestep_phrase_cache_entries", "Entries in the phrase cache.", value=s.entries)
        yield GaugeMetricFamily("onestep_phrase_cache_bytes", "Bytes held by the phrase cache.", value=s.bytes)


# --- the process-wide cache ------------------------------------------------------------------------------

_shared: PhraseCache | None = None
_shared_lock = threading.Lock()


def shared_cache() -> PhraseCache | None:
    """This process's phrase cache, or ``None`` when none is configured (caching off)."""
    return _shared


class KeptCopy:
    """The bytes of a response as it streams, kept for the cache only while they fit one entry
    (``max_bytes``): a long stream's copy is dropped as soon as it could not be stored, so it never costs more
    than one cache entry of memory."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._parts: list[bytes] | None = []
        self._size = 0

    def add(self, data: bytes) -> None:
        if self._parts is None:
            return
        self._size += len(data)
        if self._size > self.max_bytes:
            self._parts = None
        else:
            self._parts.append(data)

    def value(self) -> bytes | None:
        """The whole copy, or None when it outgrew an entry."""
        return None if self._parts is None else b"".join(self._parts)


def configure_shared_cache(max_bytes: int | None, max_entry_bytes: int | None = None) -> PhraseCache | None:
    """Create (or replace) this process's phrase cache; ``max_bytes`` None or 0 turns caching off."""
    global _shared
    with _shared_lock:
        _shared = PhraseCache(max_bytes, max_entry_bytes) if max_bytes else None
        return _shared


# --- preloading ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    """A phrase to preload: ``text`` in ``voice`` (None: by language) at ``speed``."""

    text: str
    voice: str | None = None
    speed: float = 1.0


def read_phrases(path: str | Path) -> list[Phrase]:
    """Phrases of a UTF-8 file: one per line, ``text`` or ``text<TAB>voice`` or ``text<TAB>voice<TAB>speed``
    (an empty voice field = by language). Blank lines and lines starting with ``#`` are skipped.

    Raises ``ValueError`` naming the line of a bad speed.
    """
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        text = fields[0].strip()
        voice = fields[1].strip() or None if len(fields) > 1 else None
        try:
            speed = float(fields[2]) if len(fields) > 2 and fields[2].strip() else 1.0
        except ValueError:
            raise ValueError(f"{path}:{n}: bad speed {fields[2]!r}") from None
        if text:
            out.append(Phrase(text, voice, speed))
    return out


def preload(
    cache: PhraseCache, backend: SynthesisBackend, phrases: Sequence[Phrase] | Iterable[Phrase], batch: int = 16
) -> int:
    """Synthesize ``phrases`` with ``backend`` and keep their samples (format :data:`RAW`); returns how
    many were stored. A phrase that cannot be synthesized is logged and skipped."""
    from onestep.server.backend import SynthesisRequest

    t0 = time.perf_counter()
    items = list(phrases)
    stored = 0
    rate = int(backend.sample_rate)
    for i in range(0, len(items), batch):
        group = items[i : i + batch]
        requests = [SynthesisRequest(p.text, p.voice, p.speed) for p in group]
        try:
            audios = backend.synthesize_batch(requests)
        except ValueError:  # one bad phrase: retry one by one to keep the others
            audios = []
            for r in requests:
                try:
                    audios.extend(backend.synthesize_batch([r]))
                except ValueError as e:
                    log.warning("preload: cannot synthesize %r: %s", r.text[:60], e)
                    audios.append(np.zeros(0, dtype=np.float32))
        for p, audio in zip(group, audios, strict=True):
            stored += cache.put(PhraseKey(p.text, p.voice, p.speed, RAW, rate), audio)
    log.info("phrase cache: %d of %d phrase(s) preloaded in %.1f s", stored, len(items), time.perf_counter() - t0)
    return stored
