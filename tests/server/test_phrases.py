"""Instant phrases (``onestep.server.phrases``): the LRU byte-bounded cache, preloading, and the HTTP hook."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import numpy as np
import pytest

from onestep.server.backend import TTSBackend
from onestep.server.encoders import encode_file
from onestep.server.phrases import (
    RAW,
    Phrase,
    PhraseCache,
    PhraseKey,
    preload,
    read_phrases,
)

from .conftest import TEXT, VOICE, live_server


def key(text: str, fmt: str = "wav", voice: str | None = None) -> PhraseKey:
    return PhraseKey(text, voice, 1.0, fmt, 24000)


def test_lru_evicts_least_recently_used_within_the_byte_budget() -> None:
    cache = PhraseCache(max_bytes=300, max_entry_bytes=200)
    assert cache.put(key("a"), b"x" * 100)
    assert cache.put(key("b"), b"y" * 100)
    assert cache.get(key("a")) == b"x" * 100  # a is now the most recently used
    assert cache.put(key("c"), b"z" * 150)  # 350 > 300: b goes, a stays
    assert key("b") not in cache and key("a") in cache and key("c") in cache
    s = cache.stats()
    assert (s.hits, s.evictions, s.entries, s.bytes) == (1, 1, 2, 250)
    assert not cache.put(key("big"), b"w" * 201)  # larger than one entry may be: never kept
    assert not cache.put(key("empty"), b"")
    assert cache.get(key("big")) is None
    assert cache.stats().misses == 1


def test_keys_differ_by_voice_speed_format_and_rate() -> None:
    cache = PhraseCache(max_bytes=10_000)
    cache.put(key("hi", "wav"), b"wav")
    assert cache.get(key("hi", "pcm")) is None
    assert cache.get(key("hi", "wav", voice="other")) is None
    assert cache.get(PhraseKey("hi", None, 1.5, "wav", 24000)) is None
    assert cache.get(PhraseKey("hi", None, 1.0, "wav", 16000)) is None
    assert cache.get(key("hi", "wav")) == b"wav"


def test_raw_samples_answer_any_format_once_encoded() -> None:
    calls: list[str] = []

    def encode(fmt: str, samples: np.ndarray, rate: int) -> bytes:
        calls.append(fmt)
        return encode_file(fmt, samples, rate)

    cache = PhraseCache(max_bytes=1 << 20, encode=encode)
    samples = np.linspace(-0.5, 0.5, 2400, dtype=np.float32)
    assert cache.put(key("door open", RAW), samples)
    wav = cache.get(key("door open", "wav"))
    assert wav == encode_file("wav", samples, 24000)
    assert cache.get(key("door open", "wav")) == wav
    assert calls == ["wav"]  # encoded once, then served from its own entry
    assert cache.get(key("door open", "pcm")) == encode_file("pcm", samples, 24000)
    np.testing.assert_array_equal(cache.get_samples(key("door open", "flac")), samples)
    with pytest.raises(TypeError):
        cache.put(key("x", "wav"), samples)
    with pytest.raises(ValueError):
        cache.get(key("x", RAW))


def test_concurrent_use_keeps_the_budget() -> None:
    cache = PhraseCache(max_bytes=5_000, max_entry_bytes=1_000)

    def work(t: int) -> None:
        for i in range(300):
            cache.put(key(f"{t}-{i % 40}"), bytes(100 + i % 50))
            cache.get(key(f"{(t + 1) % 4}-{i % 40}"))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    s = cache.stats()
    assert s.bytes <= 5_000 and s.entries == len(cache)
    assert s.hits + s.misses == 4 * 300


def test_read_phrases(tmp_path: Path) -> None:
    f = tmp_path / "phrases.txt"
    f.write_text("# comment\nDoor open.\n\n请注意。\ttiny\nSlow.\t\t0.8\n", encoding="utf-8")
    assert read_phrases(f) == [Phrase("Door open."), Phrase("请注意。", "tiny"), Phrase("Slow.", None, 0.8)]
    f.write_text("x\t\tfast\n", encoding="utf-8")
    with pytest.raises(ValueError, match=":1: bad speed"):
        read_phrases(f)


def test_preload_synthesizes_and_skips_bad_phrases(backend: TTSBackend) -> None:
    cache = PhraseCache(max_bytes=16 << 20)
    n = preload(cache, backend, [Phrase(TEXT, VOICE), Phrase("你好。", VOICE, 1.2), Phrase("   ", VOICE)])
    assert n == 2  # the blank phrase has no audio
    samples = cache.get_samples(PhraseKey(TEXT, VOICE, 1.0, RAW, backend.sample_rate))
    assert samples is not None and samples.size > backend.sample_rate // 2


def test_http_speech_and_synthesize_hit_the_cache_and_count_in_metrics(backend: TTSBackend) -> None:
    cache = PhraseCache(max_bytes=16 << 20)
    preload(cache, backend, [Phrase("请注意，车辆正在倒车。", VOICE)])
    with live_server(backend, phrases=cache) as live, httpx.Client(base_url=live.url, timeout=60) as http:
        # a preloaded phrase: answered from memory in the requested format
        r = http.post("/synthesize", json={"text": "请注意，车辆正在倒车。", "voice": VOICE, "format": "wav"})
        assert r.status_code == 200 and r.headers["x-phrase-cache"] == "hit"
        samples = cache.get_samples(PhraseKey("请注意，车辆正在倒车。", VOICE, 1.0, RAW, backend.sample_rate))
        assert r.content == encode_file("wav", samples, backend.sample_rate)
        # a new phrase: synthesized (miss), then the same bytes from the cache
        body = {"model": "onestep", "input": TEXT, "voice": VOICE, "response_format": "pcm"}
        first = http.post("/v1/audio/speech", json=body)
        assert first.status_code == 200 and "x-phrase-cache" not in first.headers and len(first.content) > 1000
        second = http.post("/v1/audio/speech", json=body)
        assert second.status_code == 200 and second.headers["x-phrase-cache"] == "hit"
        assert second.content == first.content
        assert http.post("/v1/audio/speech", json=body | {"speed": 1.5}).headers.get("x-phrase-cache") is None
        metrics = http.get("/metrics").text
    hits = [line for line in metrics.splitlines() if line.startswith("onestep_phrase_cache_hits_total")]
    misses = [line for line in metrics.splitlines() if line.startswith("onestep_phrase_cache_misses_total")]
    # hits: the preloaded /synthesize, the repeated speech request and the test's own get_samples
    assert hits == ["onestep_phrase_cache_hits_total 3.0"]
    assert misses == ["onestep_phrase_cache_misses_total 2.0"]  # the first speech request and the 1.5x one


def test_skipped_characters_are_reported_on_every_answer_and_draining_serves_no_hit(backend: TTSBackend) -> None:
    """A text with unspeakable characters is synthesized each time (a cached copy would lose the
    X-Skipped-Characters header); during a graceful shutdown even a cached phrase is refused 503."""
    cache = PhraseCache(max_bytes=16 << 20)
    with live_server(backend, phrases=cache) as live, httpx.Client(base_url=live.url, timeout=60) as http:
        body = {"text": "你好★世界。", "voice": VOICE, "format": "wav"}
        for _ in range(2):
            r = http.post("/synthesize", json=body)
            assert r.status_code == 200 and len(r.content) > 1000
            assert r.headers["x-skipped-characters"] == "U+2605" and "x-phrase-cache" not in r.headers
        clean = {"text": "你好世界。", "voice": VOICE, "format": "wav"}
        assert http.post("/synthesize", json=clean).status_code == 200
        assert http.post("/synthesize", json=clean).headers["x-phrase-cache"] == "hit"
        live.state.draining = True
        try:
            refused = http.post("/synthesize", json=clean)
        finally:
            live.state.draining = False
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "shutting_down"
