"""Frontend benchmark: cold start (fresh interpreter) and warm per-call latency of ``Frontend.phonemize``.

Cold start runs in fresh subprocesses so nothing is loaded yet: time to import the pipeline, then the first
Mandarin call (loads jieba/pypinyin and the Mandarin G2P) and the first English call (loads the English
lexicons), in one process (``zh`` then ``en``) and in one process per language (a voice process speaks one
language: its peak RSS is the per-voice number). The dictionary tables in the onestep cache are built
before timing (a first-ever run builds them once, ~2-3 s). The load average is recorded with the numbers.
Warm latency: after ``warmup`` calls, ``repeats`` timed calls per sentence; p50/p95/mean in milliseconds.
Repeating one sentence lets the G2Ps' word caches help, so the benchmark also times text the process has never
seen: the shipped held-out sentences (``onestep_dev.eval.heldout``: 112 a language; 60 code-switched held-out sentences for
``mixed``), each timed once at first sight and once again (``"<lang>-heldout"`` cases: ``first_sight`` and
``again``); with ``corpus`` files also each of their first ``corpus_lines`` lines once (``"<lang>-corpus"``).
The cold start is reported twice per language: a bare interpreter (imports numpy and ONNX Runtime too) and one that
has already imported what every voice process imports before its frontend runs (numpy, onnxruntime): the second is
the frontend's own first-call cost in a voice process.
Targets (p50): Mandarin <= 2 ms for a 30-character sentence, English <= 1 ms for a 15-word sentence.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ZH_SENTENCE = "今天下午三点我们在大会议室讨论新产品的发布计划，请大家准时参加。"  # 30 Chinese characters + 2 marks
EN_SENTENCE = "The quick brown fox jumps over the lazy dog while three children watch the window."  # 15 words
MIXED_SENTENCE = "请打开API接口，然后用iPhone拍一张照片发给我。"
TARGET_P50_MS = {"zh": 2.0, "en": 1.0}

_COLD_START = """
import json, resource, sys, time
for name in PRELOADED:
    __import__(name)
t0 = time.perf_counter()
from onestep.frontend.pipeline import Frontend
out = {"import_s": time.perf_counter() - t0}
fe = Frontend(lexicon={})
for lang in LANGS:
    t = time.perf_counter()
    fe.phonemize(TEXTS[lang])
    out[lang + "_first_call_s"] = time.perf_counter() - t
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
print(json.dumps(out))
"""
_BUILD_TABLES = "from onestep.frontend.pipeline import Frontend\nFrontend(lexicon={}).preload(background=False)"
# What a voice process has imported before its frontend's first call (the runtime's own imports).
RUNTIME_IMPORTS = ("numpy", "onnxruntime")


def _fresh_process(code: str, env: Mapping[str, str] | None = None) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=600, env=env
    )
    if proc.returncode != 0:
        raise RuntimeError(f"cold-start subprocess failed: {proc.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout.strip() else {}
    return result


def cold_start() -> dict[str, Any]:
    """Cold start in fresh interpreters (tables already in the onestep cache).

    Returns:
        ``{"import_s", "zh_first_call_s", "en_first_call_s", "peak_rss_mb"}`` of one process running zh then
        en, plus ``"per_language": {lang: {"import_s", "<lang>_first_call_s", "peak_rss_mb"}}`` of one process
        per language, ``"per_language_runtime_loaded"`` (the same after an untimed import of
        :data:`RUNTIME_IMPORTS`), and ``"load_average"`` (1-minute, before the runs).
    """
    # Builds the cached tables if missing, so that no timed run does, and writes the bytecode of every module it
    # imports even where PYTHONDONTWRITEBYTECODE is set (as `pip install` does for an installed package): else
    # an editable checkout compiles its changed sources in every timed process.
    _fresh_process(_BUILD_TABLES, {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    load_average = os.getloadavg()[0]
    texts = {"zh": ZH_SENTENCE, "en": EN_SENTENCE}

    def run(langs: tuple[str, ...], preloaded: tuple[str, ...] = ()) -> dict[str, float]:
        return _fresh_process(f"TEXTS = {texts!r}\nLANGS = {langs!r}\nPRELOADED = {preloaded!r}\n" + _COLD_START)

    result: dict[str, Any] = run(("zh", "en"))
    result["per_language"] = {lang: run((lang,)) for lang in ("zh", "en")}
    result["per_language_runtime_loaded"] = {lang: run((lang,), RUNTIME_IMPORTS) for lang in ("zh", "en")}
    result["load_average"] = load_average
    return result


def warm_latency(text: str, frontend: Any, repeats: int, warmup: int) -> dict[str, float]:
    """Per-call latency of ``frontend.phonemize(text)`` after warm-up: p50/p95/mean in milliseconds."""
    for _ in range(warmup):
        frontend.phonemize(text)
    times = np.empty(repeats)
    for i in range(repeats):
        t = time.perf_counter()
        frontend.phonemize(text)
        times[i] = time.perf_counter() - t
    ms = times * 1e3
    return {"p50_ms": float(np.percentile(ms, 50)), "p95_ms": float(np.percentile(ms, 95)), "mean_ms": float(ms.mean())}


def once_latency(texts: Sequence[str], frontend: Any) -> dict[str, float]:
    """Latency of one ``frontend.phonemize`` call per text (each text timed once): p50/p95/mean in ms."""
    times = np.empty(len(texts))
    for i, text in enumerate(texts):
        t = time.perf_counter()
        frontend.phonemize(text)
        times[i] = time.perf_counter() - t
    ms = times * 1e3
    return {"p50_ms": float(np.percentile(ms, 50)), "p95_ms": float(np.percentile(ms, 95)), "mean_ms": float(ms.mean())}


def heldout_texts() -> dict[str, list[str]]:
    """The shipped held-out sentences by case name: ``en`` and ``zh`` (112 each), ``mixed`` (60 code-switched)."""
    from onestep_dev.bench.load_test import heldout_texts as load_test_texts
    from onestep_dev.train.code_switch import code_switch_sentences

    texts = {lang: list(load_test_texts((lang,))) for lang in ("en", "zh")}
    texts["mixed"] = code_switch_sentences(60, "heldout")
    return texts


def unseen_latency(texts: Sequence[str], frontend: Any) -> dict[str, Any]:
    """Latency of text new to the process: each text once at first sight, then each once again (warm).

    Returns:
        ``{"lines", "first_sight": {p50_ms, p95_ms, mean_ms}, "again": {...}}``; the p50/p95/mean keys of
        ``first_sight`` are also at the top level (the figure a judge compares with the target).
    """
    first = once_latency(texts, frontend)
    return {"lines": len(texts), **first, "first_sight": first, "again": once_latency(texts, frontend)}


def run_frontend_bench(
    repeats: int = 300,
    warmup: int = 30,
    cold: bool = True,
    corpus: Mapping[str, str | Path] | None = None,
    corpus_lines: int = 300,
    heldout: bool = True,
    show: bool = True,
) -> dict[str, Any]:
    """Run the frontend benchmark.

    Args:
        repeats: timed calls per sentence.
        warmup: untimed calls per sentence first.
        cold: also measure the cold start in a subprocess.
        corpus: optional ``{"zh": path, "en": path}`` text files (one sentence per line) for the unseen-text cases.
        corpus_lines: lines of each corpus file timed.
        heldout: also time the held-out sentences at first sight and again (:func:`unseen_latency`).
        show: print a rich table.
    Returns:
        ``{"cold_start": see :func:`cold_start` | None, "cases": {name: {"text"
        (or "lines"), "p50_ms", "p95_ms", "mean_ms", "target_p50_ms" (None without a target), "ok" (p50 within
        target, None without a target)}}}``, names ``zh``, ``en``, ``mixed``, ``<lang>-heldout`` (with
        ``first_sight`` and ``again``) and ``<lang>-corpus``.
    """
    from onestep.frontend.pipeline import Frontend

    result: dict[str, Any] = {"cold_start": cold_start() if cold else None, "cases": {}}
    frontend = Frontend(lexicon={})
    frontend.preload(("zh", "en"), background=False)  # as TTS() and the server do: no timed call pays a load
    for name, text in (("zh", ZH_SENTENCE), ("en", EN_SENTENCE), ("mixed", MIXED_SENTENCE)):
        stats: dict[str, Any] = {"text": text, **warm_latency(text, frontend, repeats, warmup)}
        result["cases"][name] = _judge(name, stats)
    for lang, texts in (heldout_texts() if heldout else {}).items():
        result["cases"][f"{lang}-heldout"] = _judge(f"{lang}-heldout", unseen_latency(texts, frontend))
    for lang, path in (corpus or {}).items():
        with open(path, encoding="utf-8") as f:
            lines = [line.strip() for _, line in zip(range(corpus_lines), f) if line.strip()]
        stats = {"lines": len(lines), **once_latency(lines, frontend)}
        result["cases"][f"{lang}-corpus"] = _judge(lang, stats)
    if show:
        _print_table(result)
    return result


def _judge(name: str, stats: dict[str, Any]) -> dict[str, Any]:
    target = TARGET_P50_MS.get(name)
    stats["target_p50_ms"] = target
    stats["ok"] = None if target is None else stats["p50_ms"] <= target
    return stats


def _print_table(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if result["cold_start"]:
        cold = result["cold_start"]
        console.print(
            f"cold start (load average {cold['load_average']:.1f}): import {cold['import_s'] * 1e3:.0f} ms, "
            f"first zh call {cold['zh_first_call_s'] * 1e3:.0f} ms, first en call {cold['en_first_call_s'] * 1e3:.0f} ms, "
            f"peak RSS {cold['peak_rss_mb']:.0f} MB"
        )
        for lang, one in cold["per_language"].items():
            loaded = cold.get("per_language_runtime_loaded", {}).get(lang)
            own = "" if loaded is None else (
                f"; after numpy + onnxruntime are imported: {(loaded['import_s'] + loaded[lang + '_first_call_s']) * 1e3:.0f} ms"
            )
            console.print(
                f"  {lang} only: import + first call {(one['import_s'] + one[lang + '_first_call_s']) * 1e3:.0f} ms"
                f"{own}, peak RSS {one['peak_rss_mb']:.0f} MB"
            )
    table = Table(title="Frontend.phonemize: one sentence repeated (warm); held-out lines at first sight, then again")
    for col in ("case", "p50 ms", "p95 ms", "mean ms", "again p50", "target p50", "ok"):
        table.add_column(col, justify="left" if col == "case" else "right")
    for name, s in result["cases"].items():
        target = "-" if s["target_p50_ms"] is None else f"{s['target_p50_ms']:.1f}"
        ok = "-" if s["ok"] is None else ("yes" if s["ok"] else "NO")
        again = f"{s['again']['p50_ms']:.3f}" if "again" in s else "-"
        table.add_row(name, f"{s['p50_ms']:.3f}", f"{s['p95_ms']:.3f}", f"{s['mean_ms']:.3f}", again, target, ok)
    console.print(table)


if __name__ == "__main__":  # pragma: no cover
    run_frontend_bench()
