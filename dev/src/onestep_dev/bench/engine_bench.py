"""Engine benchmark: text -> PCM latency per stage, time to first audio, real-time factor, load time, memory.

    from onestep_dev.bench.engine_bench import run_engine_bench
    report = run_engine_bench("runs/bench/engine", voices_dir="voices/", repeat=3)

Over a built-in set of 20 English sentences (10-20 words) and 20 Mandarin sentences (20-30 characters), each
run ``repeat`` times warm, it measures per sentence: frontend, acoustic, length regulation, decoder and vocoder
time (one-shot synthesis), the total, the real-time factor (total / audio seconds) and the time to the first
streamed chunk (frontend included). The total and the first chunk are also taken as process CPU time, which a
busy shared machine inflates far less than wall time (with one thread it is close to an idle machine's wall
time). Cold, it measures the time from building ``TTS`` to the first audio of each language (frontend and
engine load attributed), and the process's peak RSS. Results: ``engine.json``, ``engine.md``, ``engine.png``.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import time
from pathlib import Path
from typing import Any

import numpy as np

from onestep.errors import ConfigError
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.engines import DEFAULT_ENGINE

EN_SENTENCES: tuple[str, ...] = (
    "The morning train to the city was late again, so we shared a taxi instead.",
    "Please remember to water the tomato plants before you leave for the weekend.",
    "Our team finished the quarterly report two days ahead of the deadline.",
    "She found an old photograph of her grandparents hidden inside a library book.",
    "If the weather stays clear tonight, we should be able to see Jupiter.",
    "The museum opens at nine, but the guided tours only start after lunch.",
    "He spent the whole afternoon fixing the bicycle chain in the garage.",
    "Could you send me the updated schedule for next week's training sessions?",
    "A small bakery on the corner sells the best cinnamon rolls in town.",
    "The children built a sandcastle and decorated it with shells and seaweed.",
    "After the meeting, the manager thanked everyone for their patience and hard work.",
    "Heavy rain is expected along the coast, with strong winds late on Sunday.",
    "I would like a window seat, a glass of water, and a quiet place to read.",
    "The new software update fixes several bugs and makes the battery last longer.",
    "They hiked for six hours before reaching the lake at the top of the valley.",
    "Learning a second language takes time, practice, and a bit of courage.",
    "The orchestra rehearsed the final movement until every note sounded right.",
    "My neighbor's dog barks at the mail carrier every single morning.",
    "We need three volunteers to help set up the chairs for tonight's concert.",
    "The recipe calls for two eggs, a cup of flour, and a pinch of salt.",
)

ZH_SENTENCES: tuple[str, ...] = (
    "今天早上的地铁比平时拥挤很多，我差点没有挤上车。",
    "请在周末出门之前，记得给阳台上的花浇一次水。",
    "我们小组提前两天完成了这个季度的工作报告。",
    "她在图书馆的一本旧书里发现了一张泛黄的老照片。",
    "如果今晚天气晴朗，我们就可以在山顶看到满天星星。",
    "博物馆上午九点开门，但是讲解服务要到下午才开始。",
    "他花了整整一个下午，在车库里修理那辆旧自行车。",
    "麻烦你把下周培训课程的最新安排发到我的邮箱里。",
    "街角那家小面包店做的肉桂卷是全城最好吃的。",
    "孩子们在海边堆了一座沙堡，还用贝壳把它装饰起来。",
    "会议结束以后，经理感谢大家这段时间的耐心和努力。",
    "天气预报说，沿海地区周日晚上会有大雨和强风。",
    "我想要一个靠窗的座位，一杯温水，还有安静的环境。",
    "新版本的软件修复了好几个问题，电池也更耐用了。",
    "他们走了六个小时的山路，终于到达了山谷里的湖边。",
    "学习一门新的语言需要时间、耐心，还需要一点勇气。",
    "乐团一遍又一遍地排练，直到每一个音符都准确无误。",
    "邻居家的小狗每天早上都会对着送信的邮递员叫个不停。",
    "今晚的音乐会需要三位志愿者帮忙提前摆好椅子。",
    "这道菜需要两个鸡蛋、一碗面粉，再加上一小撮盐。",
)

BENCH_SENTENCES: dict[str, tuple[str, ...]] = {"en": EN_SENTENCES, "zh": ZH_SENTENCES}

TARGETS = {"rtf": 0.03, "first_chunk_p50_ms": 30.0, "load_to_first_audio_s": 1.0, "peak_rss_mb": 200.0}
"""The CPU goals on a 2-core machine (first chunk includes the frontend)."""


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, MB (Linux reports ``ru_maxrss`` in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float | None:
    """Resident memory of this process now, MB (None without psutil)."""
    try:
        import psutil
    except ModuleNotFoundError:
        return None
    return psutil.Process().memory_info().rss / 2**20


def _percentiles(values: list[float]) -> dict[str, float]:
    a = np.asarray(values, dtype=np.float64)
    return {
        "p50": float(np.percentile(a, 50)),
        "p95": float(np.percentile(a, 95)),
        "p99": float(np.percentile(a, 99)),
        "mean": float(a.mean()),
    }


def _first_chunk(tts: Any, text: str, voice: str | None) -> tuple[float, float]:
    """Wall and CPU seconds to the first streamed chunk of ``text`` (the rest is drained, untimed)."""
    t1, c1 = time.perf_counter(), time.process_time()
    chunks = tts.stream(text, voice=voice)
    next(chunks)
    wall, cpu = time.perf_counter() - t1, time.process_time() - c1
    for _ in chunks:
        pass
    return wall, cpu


def _measure_sentence(tts: Any, text: str, voice: str | None, stream_first: bool = False) -> dict[str, Any]:
    """One run of ``text``: staged one-shot synthesis and a streamed run for the first chunk (``stream_first``:
    the streamed run first, so that on a sentence never seen before the first chunk is a first-sight figure,
    frontend caches cold; the staged run then sees the sentence a second time)."""
    engine = tts.engine(voice, text)
    max_ids = tts.max_ids(engine)
    if stream_first:
        first_chunk_s, first_chunk_cpu_s = _first_chunk(tts, text, voice)
    t0, c0 = time.perf_counter(), time.process_time()
    utterances = list(tts.frontend().speakable_sentences(text, max_ids))
    ids = [phonemes_to_ids(u.phonemes) for u in utterances]
    frontend_s = time.perf_counter() - t0
    stages: dict[str, float] = {}
    samples = 0
    frames = 0
    for seq in ids:
        result = engine.synthesize(seq, 1.0, stages)
        samples += result.audio.size
        frames += int(result.frames_per_id.sum())
    total_s, total_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    if not stream_first:
        first_chunk_s, first_chunk_cpu_s = _first_chunk(tts, text, voice)
    audio_s = samples / engine.sample_rate
    return {
        "text": text,
        "voice": engine.config.name,
        "ids": sum(len(s) for s in ids),
        "frames": frames,
        "audio_s": audio_s,
        "frontend_ms": frontend_s * 1e3,
        **{f"{stage}_ms": seconds * 1e3 for stage, seconds in stages.items()},
        "total_ms": total_s * 1e3,
        "rtf": total_s / audio_s,
        "first_chunk_ms": first_chunk_s * 1e3,
        "cpu": {"total_ms": total_cpu_s * 1e3, "first_chunk_ms": first_chunk_cpu_s * 1e3},
    }


UNSEEN_PER_LANGUAGE = 20  # held-out sentences timed once each at first sight, per language


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    stage_keys = [k for k in rows[0] if k.endswith("_ms") and k not in ("total_ms", "first_chunk_ms")]
    audio = sum(r["audio_s"] for r in rows)
    return {
        "runs": len(rows),
        "audio_s": audio,
        "rtf": sum(r["total_ms"] for r in rows) / 1e3 / audio,
        "rtf_per_sentence": _percentiles([r["rtf"] for r in rows]),
        "total_ms": _percentiles([r["total_ms"] for r in rows]),
        "first_chunk_ms": _percentiles([r["first_chunk_ms"] for r in rows]),
        "cpu_rtf": sum(r["cpu"]["total_ms"] for r in rows) / 1e3 / audio,
        "cpu_first_chunk_ms": _percentiles([r["cpu"]["first_chunk_ms"] for r in rows]),
        "stage_mean_ms": {k[: -len("_ms")]: float(np.mean([r[k] for r in rows])) for k in stage_keys},
        "frames_per_id": sum(r["frames"] for r in rows) / sum(r["ids"] for r in rows),
    }


def run_engine_bench(
    out_dir: str | Path,
    *,
    voices_dir: str | Path | None = None,
    voice: str | None = None,
    engine: str = DEFAULT_ENGINE,
    threads: int | None = None,
    repeat: int = 3,
    languages: tuple[str, ...] = ("en", "zh"),
    plot: bool = True,
) -> dict[str, Any]:
    """Run the benchmark and write ``engine.json``, ``engine.md`` and (with ``plot``) ``engine.png``.

    Args:
        out_dir: output directory (created).
        voices_dir: extra voice search directory.
        voice: one voice name for every sentence (default: by language).
        engine: a registered engine name or its device alias (:mod:`onestep.runtime.engines`).
        threads: CPU threads per graph.
        repeat: warm runs per sentence.
        languages: which of the built-in sentence sets to run.
    Returns:
        the report: ``machine``, ``settings``, ``cold`` (load/first-audio times, per-voice load and warm-up),
        ``summary`` per language and ``all``, ``peak_rss_mb``, ``targets`` with ``met`` flags, ``runs``.
    """
    from onestep.api import TTS

    if repeat < 1:
        raise ConfigError(f"repeat must be >= 1, got {repeat}")
    unknown = set(languages) - set(BENCH_SENTENCES)
    if unknown or not languages:
        raise ConfigError(f"languages must be a non-empty subset of {sorted(BENCH_SENTENCES)}, got {languages}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    t0 = time.perf_counter()
    tts = TTS(engine=engine, threads=threads, voices_dir=voices_dir, voice=voice)
    cold: dict[str, Any] = {"frontend_first_call_s": {}, "engine_load_s": {}, "first_audio_s": {}, "rss_mb": {}}
    voices = {}
    for lang in languages:  # cold start, attributed: frontend (G2P load), engine (load + warm-up), first chunk
        text = BENCH_SENTENCES[lang][0]
        t = time.perf_counter()
        tts.frontend().phonemize(text)
        cold["frontend_first_call_s"][lang] = time.perf_counter() - t
        cold["rss_mb"][f"after {lang} frontend"] = current_rss_mb()
        t = time.perf_counter()
        engine = tts.engine(voice, text)
        cold["engine_load_s"][lang] = time.perf_counter() - t
        cold["rss_mb"][f"after {lang} engine"] = current_rss_mb()
        t = time.perf_counter()
        next(iter(tts.stream(text, voice=voice)))
        cold["first_audio_s"][lang] = time.perf_counter() - t
        if lang == languages[0]:
            cold["load_to_first_audio_s"] = time.perf_counter() - t0
        voices[engine.config.name] = {
            "language": engine.config.language,
            "placeholder": engine.config.placeholder,
            "load_s": engine.load_seconds,
            "warmup_s": engine.warmup_seconds,
            "decoder": Path(str(getattr(engine, "decoder_file", engine.config.files["decoder"]))).name,
            "vocoder": Path(str(getattr(engine, "vocoder_file", engine.config.files["vocoder"]))).name,
        }
    cold["voices"] = voices

    runs: list[dict[str, Any]] = []
    for lang in languages:
        for text in BENCH_SENTENCES[lang]:
            for _ in range(repeat):
                runs.append({"lang": lang, **_measure_sentence(tts, text, voice)})
    summary = {lang: _summary([r for r in runs if r["lang"] == lang]) for lang in languages}
    summary["all"] = _summary(runs)
    # first sight: held-out sentences this process has never seen (the sets above repeat ~20 words, so their
    # frontend caches are warm), each run once, the streamed run first
    from onestep_dev.eval.heldout import load_heldout

    first_sight_runs: list[dict[str, Any]] = []  # kept apart: peers are compared on the warm sets only
    for lang in languages:
        unseen = [s.text for s in load_heldout(lang)[:UNSEEN_PER_LANGUAGE]]
        rows = [{"lang": lang, "sight": "first", **_measure_sentence(tts, text, voice, stream_first=True)}
                for text in unseen]  # fmt: skip
        first_sight_runs += rows
        summary[f"{lang} first sight"] = _summary(rows)
    rss = peak_rss_mb()
    measured = {
        "rtf": summary["all"]["rtf"],
        "first_chunk_p50_ms": summary["all"]["first_chunk_ms"]["p50"],
        "load_to_first_audio_s": cold["load_to_first_audio_s"],
        "peak_rss_mb": rss,
    }
    report = {
        "machine": {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()},
        "settings": {"engine": tts.engine_kind.name, "device": tts.device, "threads": threads, "repeat": repeat, "voice": voice, "languages": languages},
        "cold": cold,
        "summary": summary,
        "peak_rss_mb": rss,
        "targets": {k: {"target": TARGETS[k], "measured": v, "met": v <= TARGETS[k]} for k, v in measured.items()},
        "runs": runs,
        "first_sight_runs": first_sight_runs,
    }
    (out / "engine.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "engine.md").write_text(markdown(report), encoding="utf-8")
    if plot:
        _plot(report, out / "engine.png")
    return report


def markdown(report: dict[str, Any]) -> str:
    """The report as markdown: targets, per-language summary, per-stage means, voices."""
    lines = ["# Engine benchmark", ""]
    s = report["settings"]
    lines += [f"device {s['device']}, threads {s['threads'] or 'default'}, {s['repeat']} warm runs per sentence", ""]
    placeholders = [n for n, v in report["cold"]["voices"].items() if v["placeholder"]]
    if placeholders:
        lines += [f"Placeholder voices (random weights, durations not speech-like): {', '.join(placeholders)}", ""]
    lines += ["| goal | target | measured | met |", "| --- | ---: | ---: | --- |"]
    for name, t in report["targets"].items():
        lines.append(f"| {name} | {t['target']:g} | {t['measured']:.4g} | {'yes' if t['met'] else 'NO'} |")
    lines += [
        "",
        "| set | runs | audio s | RTF | total p50 / p95 / p99 ms | first chunk p50 / p95 / p99 ms | frames/id "
        "| CPU RTF | CPU first chunk p50 ms |",
        "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |",
    ]
    for name, x in report["summary"].items():
        t, f = x["total_ms"], x["first_chunk_ms"]
        lines.append(
            f"| {name} | {x['runs']} | {x['audio_s']:.1f} | {x['rtf']:.4f} | "
            f"{t['p50']:.1f} / {t['p95']:.1f} / {t['p99']:.1f} | {f['p50']:.1f} / {f['p95']:.1f} / {f['p99']:.1f} | "
            f"{x['frames_per_id']:.2f} | {x['cpu_rtf']:.4f} | {x['cpu_first_chunk_ms']['p50']:.1f} |"
        )
    stages = list(report["summary"]["all"]["stage_mean_ms"])
    lines += ["", "| set | " + " | ".join(f"{st} ms" for st in stages) + " |", "| --- |" + " ---: |" * len(stages)]
    for name, x in report["summary"].items():
        lines.append(f"| {name} | " + " | ".join(f"{x['stage_mean_ms'][st]:.2f}" for st in stages) + " |")
    cold = report["cold"]
    first = cold["load_to_first_audio_s"]
    lines += ["", f"load to first audio: {first:.2f} s; peak RSS {report['peak_rss_mb']:.0f} MB", ""]
    lines += [
        "| language | frontend first call s | engine load + warm-up s | first chunk s |",
        "| --- | ---: | ---: | ---: |",
    ]
    for lang in cold["first_audio_s"]:
        lines.append(
            f"| {lang} | {cold['frontend_first_call_s'][lang]:.2f} | {cold['engine_load_s'][lang]:.2f} | "
            f"{cold['first_audio_s'][lang]:.3f} |"
        )
    rss = ", ".join(f"{k} {v:.0f} MB" for k, v in cold["rss_mb"].items() if v is not None)
    lines += ["", f"resident memory: {rss}" if rss else "", ""]
    lines += ["| voice | language | graphs | load s | warm-up s |", "| --- | --- | --- | ---: | ---: |"]
    for name, v in cold["voices"].items():
        graphs = ", ".join(v[k] for k in ("decoder", "vocoder") if k in v)
        lines.append(f"| {name} | {v['language']} | {graphs} | {v['load_s']:.2f} | {v['warmup_s']:.2f} |")
    return "\n".join(lines) + "\n"


def _plot(report: dict[str, Any], path: Path) -> None:
    """Stacked mean stage times per language, and first-chunk / total latency distributions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    langs = [k for k in report["summary"] if k != "all"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    bottom = np.zeros(len(langs))
    for stage in report["summary"]["all"]["stage_mean_ms"]:
        heights = np.array([report["summary"][lang]["stage_mean_ms"][stage] for lang in langs])
        ax1.bar(langs, heights, bottom=bottom, label=stage)
        bottom += heights
    ax1.set_ylabel("mean ms per sentence")
    ax1.set_title("time per stage (one-shot)")
    ax1.legend()
    data, labels = [], []
    for lang in langs:
        rows = [r for r in report["runs"] if r["lang"] == lang]
        data += [[r["first_chunk_ms"] for r in rows], [r["total_ms"] for r in rows]]
        labels += [f"{lang} first chunk", f"{lang} total"]
    ax2.boxplot(data, tick_labels=labels)
    ax2.set_ylabel("ms")
    ax2.set_title("latency per sentence")
    ax2.tick_params(axis="x", rotation=20)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
