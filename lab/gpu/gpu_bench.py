#!/usr/bin/env python3
"""GPU engine benchmark (run on the CUDA machine): text -> PCM of a ~3 s sentence, ids -> PCM, batched throughput.

    python lab/gpu/gpu_bench.py --out $OUT/gpu_bench.json                       # random full-size voice
    python lab/gpu/gpu_bench.py --voice-dir src/onestep/voices/<name> --out $OUT/gpu_bench.json
    python lab/gpu/gpu_bench.py --dump-ids lab/gpu/bench_ids.json           # here: phonemize once

``lab/gpu/engine_bench.sh`` runs it on the GPU machine (< 3 minutes). Where the frontend's packages
(spaCy, misaki, jieba, ...) import, the sentences are phonemized there and the public API path
``TTS(device="cuda").synthesize(text)`` is timed; where they do not, ``--ids`` (from ``--dump-ids``) supplies
the phoneme ids and the text path is reported as skipped, with the reason.

Measured, for each ``--dtypes`` entry (one CudaEngine each, captured at ``--batch-sizes``):
- load and CUDA-graph capture time, peak GPU memory;
- ids -> host float32 PCM (``CudaEngine.synthesize``) p50/p95 for the en and zh sentence closest to 3 s;
- with the first dtype, right after: ``TTS(device="cuda")`` (the API's default engine) text -> PCM p50/p95,
  frontend included, for distinct ~3 s sentences (each once) and for one sentence repeated, and the
  frontend's own share;
- sentences/s of ``synthesize_batch`` at each ``--batches`` size, for the 10-20 word benchmark set
  (``bench``, 4-8 s of audio each, sentences mixed as a server would batch them) and for the ~3 s set
  (``short``), with the mean time per stage; with the first dtype also with frame-pass splitting off
  (``BatchPlan(None)``), to show what the plan buys; batches above the largest captured size exercise the
  length-sorted chunking;
- frames and audio of the ~3 s sentences against the ONNX Runtime CPU engine (when onnxruntime imports).
Writes JSON to ``--out`` after every section (a run cut short keeps its numbers); prints a short table last.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from onestep_dev.bench.engine_bench import BENCH_SENTENCES
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.cuda_engine import BatchPlan, CudaEngine, CudaSettings

TARGET_AUDIO_S = 3.0
SHORT_SENTENCES: dict[str, tuple[str, ...]] = {
    "en": (
        "The train was late again this morning.",
        "Please close the window before you leave the house.",
        "We should meet for coffee next Tuesday afternoon.",
        "She found her keys under the kitchen table.",
        "The museum opens at nine on weekdays.",
        "Could you send me the report by Friday?",
    ),
    "zh": (
        "今天的天气非常好，我们去公园吧。",
        "请在下午三点以前回复我。",
        "我明天早上八点要去机场。",
        "这家餐厅的菜很好吃。",
        "周末我们一起去看电影吧。",
        "他每天骑自行车上班。",
    ),
}
TARGETS = {"text_to_pcm_p50_ms": 3.0, "sentences_per_s": 3000.0}
_EN_PARTS = (
    ("My sister", "The old man", "Our teacher", "A young doctor", "His neighbor", "The little boy"),
    ("bought", "painted", "found", "carried", "cleaned", "borrowed"),
    ("a red bicycle", "the wooden chair", "two small boxes", "a heavy suitcase", "the garden fence", "an old guitar"),
    ("last Sunday.", "this morning.", "after dinner.", "today."),
)
_ZH_PARTS = (
    ("我的妹妹", "那位老人", "我们的老师", "一个年轻医生", "他的邻居", "那个小男孩"),
    ("昨天", "今天", "晚上", "周末"),
    ("买了一辆自行车", "修好了木头椅子", "找到了两个盒子", "搬走了重箱子", "打扫了院子", "借了一把吉他"),
)


def fresh_sentences(lang: str) -> list[str]:
    """Distinct ~3 s sentences (words recur across them, as in real traffic; no sentence twice), shuffled."""
    joiner = " " if lang == "en" else ""
    parts = _EN_PARTS if lang == "en" else _ZH_PARTS
    texts = [joiner.join(p) + ("" if lang == "en" else "。") for p in itertools.product(*parts)]
    return [texts[i] for i in np.random.default_rng(0).permutation(len(texts))]


def all_sentences() -> dict[str, dict[str, tuple[str, ...]]]:
    """{"bench"|"short": {lang: texts}}."""
    return {"bench": BENCH_SENTENCES, "short": SHORT_SENTENCES}


def random_voice(directory: Path) -> Path:
    """Export a randomly initialised full-size voice (the placeholder architecture) into ``directory``."""
    from onestep.config import VoiceConfig
    from onestep.model_config import ModelConfig
    from onestep.model.export import export_voice
    from onestep.model.voice_models import build_models

    export_voice(build_models(ModelConfig(), seed=0), VoiceConfig(name="gpu-bench", language="en", placeholder=True),
                 directory)  # fmt: skip
    return directory


def percentiles_ms(seconds: list[float]) -> dict[str, float]:
    ms = np.asarray(seconds) * 1e3
    return {"p50": float(np.percentile(ms, 50)), "p95": float(np.percentile(ms, 95)), "mean": float(ms.mean())}


def timed(fn: Callable[[], Any], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def load_frontend() -> tuple[Any, str | None]:
    """The text frontend, warmed on both languages, or (None, why not)."""
    try:
        from onestep.frontend.pipeline import Frontend

        frontend = Frontend()
        for lang in ("en", "zh"):
            frontend.phonemize(SHORT_SENTENCES[lang][0])
        return frontend, None
    except Exception as e:  # noqa: BLE001 - any missing package or data file means: no text path here
        return None, f"{type(e).__name__}: {e}"


def phonemize_all(frontend: Any) -> dict[str, list[int]]:
    return {
        text: phonemes_to_ids(frontend.phonemize(text).phonemes)
        for group in all_sentences().values()
        for texts in group.values()
        for text in texts
    }


def interleaved(ids_by_text: dict[str, list[int]], group: dict[str, list[str]]) -> list[list[int]]:
    """The ids of a set's sentences, languages alternating (en, zh, en, ...), as concurrent requests mix."""
    rows = itertools.chain.from_iterable(itertools.zip_longest(*group.values()))
    return [ids_by_text[t] for t in rows if t is not None]


def throughput(engine: CudaEngine, pool: list[list[int]], sizes: list[int], runs: int) -> dict[int, dict[str, float]]:
    """Sentences/s of ``synthesize_batch`` for batches of ``size`` sentences cycled from ``pool``."""
    out = {}
    for b in sizes:
        batch = [pool[j % len(pool)] for j in range(b)]
        results = engine.synthesize_batch(batch)  # first run at this size: not timed
        stages: dict[str, float] = {}
        seconds = statistics.median(timed(lambda bt=batch, st=stages: engine.synthesize_batch(bt, timings=st), runs))
        audio_s = sum(r.audio.size for r in results) / engine.sample_rate
        out[b] = {
            "ms": seconds * 1e3,
            "sentences_per_s": b / seconds,
            "audio_s_per_s": audio_s / seconds,
            "stage_ms": {k: v / runs * 1e3 for k, v in stages.items()},  # means: acoustic, frames, copy out
        }
    return out


def cpu_reference(voice_dir: Path) -> tuple[Any, str | None]:
    try:
        from onestep.runtime.ort_engine import OrtEngine

        return OrtEngine(voice_dir), None
    except Exception as e:  # noqa: BLE001 - no onnxruntime on the image: skip the comparison
        return None, f"{type(e).__name__}: {e}"


def text_path(voice_dir: Path, texts: dict[str, str], runs: int, cuda: bool = True) -> dict[str, Any]:
    """The public API end to end on the GPU: ``TTS(device="cuda").synthesize(text)`` (CPU smoke runs: "cpu")."""
    from onestep import TTS

    t0 = time.perf_counter()
    api = TTS(voice=Path(voice_dir), device="cuda" if cuda else "cpu")
    engine = "CudaEngine, default settings" if cuda else "OrtEngine (CPU smoke run)"
    out: dict[str, Any] = {"load_s": time.perf_counter() - t0, "engine": engine}
    frontend = api.frontend()
    for lang, text in texts.items():
        try:
            out[lang] = _text_path_language(api, frontend, lang, text, runs)
        except Exception as e:  # noqa: BLE001 - the other language may still work
            out[f"{lang}_error"] = f"{type(e).__name__}: {e}"
    del api
    return out


def _text_path_language(api: Any, frontend: Any, lang: str, text: str, runs: int) -> dict[str, Any]:
    """One language's text -> PCM: ``text`` repeated (frontend caches warm) and distinct sentences, each once."""
    for _ in range(5):
        audio = api.synthesize(text)
    pool = fresh_sentences(lang)
    n = min(runs, len(pool) // 2)
    fresh, fresh_frontend = pool[:n], pool[n : 2 * n]  # each text once: no frontend cache hit per sentence
    seconds, samples = [], 0
    for t in fresh:
        t0 = time.perf_counter()
        samples += api.synthesize(t).samples.size
        seconds.append(time.perf_counter() - t0)
    return {
        "text": text,
        "audio_s": audio.samples.size / audio.sample_rate,
        "text_to_pcm_ms": percentiles_ms(timed(lambda: api.synthesize(text), runs)),
        "frontend_ms": percentiles_ms(timed(lambda: frontend.phonemize(text), runs)),
        "fresh": {
            "sentences": n,
            "example": fresh[0],
            "mean_audio_s": samples / n / audio.sample_rate,
            "text_to_pcm_ms": percentiles_ms(seconds),
            "frontend_ms": percentiles_ms([timed(lambda t=t: frontend.phonemize(t), 1)[0] for t in fresh_frontend]),
        },
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--voice-dir", type=Path, help="voice to load (default: a random full-size voice)")
    p.add_argument("--out", type=Path, help="JSON output path (required unless --dump-ids)")
    p.add_argument("--dtypes", default="fp16,bf16", help="comma-separated network dtypes to measure")
    p.add_argument("--batch-sizes", default="1,8,32,64,128", help="comma-separated captured batch sizes")
    p.add_argument("--batches", default="1,8,32,64,128,256", help="comma-separated batch sizes to time")
    p.add_argument("--runs", type=int, default=200, help="timed single-sentence runs")
    p.add_argument("--batch-runs", type=int, default=15, help="timed runs per batch size")
    p.add_argument("--ids", type=Path, help="JSON {text: phoneme ids} from --dump-ids, used without a frontend")
    p.add_argument("--no-text", action="store_true", help="do not try the frontend (ids only)")
    p.add_argument("--budget-s", type=float, default=140.0, help="start no further dtype after this many seconds")
    p.add_argument("--dump-ids", type=Path, help="phonemize the benchmark sentences into this JSON and exit")
    p.add_argument("--device", default="cuda", help="'cpu': eager smoke run of this script without a GPU (tests)")
    args = p.parse_args()
    start = time.perf_counter()
    if args.dump_ids:
        frontend, why = load_frontend()
        if frontend is None:
            raise SystemExit(f"the frontend does not load: {why}")
        table = phonemize_all(frontend)
        args.dump_ids.write_text(json.dumps(table, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {len(table)} sentences to {args.dump_ids}")
        return
    if args.out is None:
        p.error("--out is required")
    cuda = args.device.startswith("cuda")
    if cuda and not torch.cuda.is_available():
        raise SystemExit("no CUDA device visible to torch")

    frontend, frontend_error = (None, "--no-text") if args.no_text else load_frontend()
    if frontend is not None:
        try:
            ids_by_text = phonemize_all(frontend)
        except Exception as e:  # noqa: BLE001 - e.g. a missing fallback for an out-of-lexicon word
            frontend, frontend_error = None, f"{type(e).__name__}: {e}"
    if frontend is None and args.ids:
        ids_by_text = json.loads(args.ids.read_text(encoding="utf-8"))
    elif frontend is None:
        raise SystemExit(f"no frontend ({frontend_error}) and no --ids: nothing to synthesize")
    sets = {
        name: {lang: [t for t in texts if t in ids_by_text] for lang, texts in group.items()}
        for name, group in all_sentences().items()
    }
    batch_sizes = tuple(int(b) for b in args.batch_sizes.split(","))
    batches = [int(b) for b in args.batches.split(",")]
    report: dict[str, Any] = {
        "gpu": torch.cuda.get_device_name(0) if cuda else f"none ({args.device} smoke run)",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "platform": platform.platform(),
        "targets": TARGETS,
        "ids_source": "frontend on this machine" if frontend is not None else str(args.ids),
        "frontend_error": frontend_error,
        "captured_batch_sizes": list(batch_sizes),
        "dtypes": {},
    }
    with tempfile.TemporaryDirectory(prefix="onestep-gpu-bench-") as tmp:
        voice_dir = Path(args.voice_dir or random_voice(Path(tmp) / "voice"))
        report["voice"] = str(voice_dir)
        chosen: dict[str, str] = {}
        cpu: Any = None
        for i, dtype in enumerate(args.dtypes.split(",")):
            if i and time.perf_counter() - start > args.budget_s:
                report["dtypes"][dtype] = {"skipped": f"time budget {args.budget_s} s spent"}
                continue
            if cuda:
                torch.cuda.reset_peak_memory_stats()
            t0 = time.perf_counter()
            settings = CudaSettings(device=args.device, dtype=dtype, batch_sizes=batch_sizes, cuda_graphs=cuda)
            engine = CudaEngine(voice_dir, settings)
            entry: dict[str, Any] = {
                "load_s": engine.load_seconds,
                "capture_s": engine.warmup_seconds,
                "load_total_s": time.perf_counter() - t0,
            }
            report["dtypes"][dtype] = entry
            if not chosen:  # the en / zh sentence whose audio is closest to 3 s, by this first engine
                for lang, texts in sets["short"].items():
                    seconds = {t: engine.synthesize(ids_by_text[t]).audio.size / engine.sample_rate for t in texts}
                    if seconds:
                        chosen[lang] = min(seconds, key=lambda t, s=seconds: abs(s[t] - TARGET_AUDIO_S))
                report["sentences"] = {lang: {"text": t, "ids": len(ids_by_text[t])} for lang, t in chosen.items()}
            for lang, text in chosen.items():
                ids = ids_by_text[text]
                entry[lang] = {
                    "audio_s": engine.synthesize(ids).audio.size / engine.sample_rate,
                    "ids_to_pcm_ms": percentiles_ms(timed(lambda e=engine, x=ids: e.synthesize(x), args.runs)),
                }
            save(report, args.out, start)
            if i == 0:  # the headline next: the API's text -> PCM (its own engine, default settings)
                if frontend is None:
                    report["text_to_pcm"] = {"skipped": frontend_error}
                else:
                    try:
                        report["text_to_pcm"] = text_path(voice_dir, chosen, args.runs, cuda)
                    except Exception as e:  # noqa: BLE001 - keep the engine numbers whatever happens here
                        report["text_to_pcm"] = {"error": f"{type(e).__name__}: {e}"}
                    if cuda:
                        torch.cuda.empty_cache()
                save(report, args.out, start)
            for name, group in sets.items():
                pool = interleaved(ids_by_text, group)
                if pool:
                    entry[f"batch_{name}"] = throughput(engine, pool, batches, args.batch_runs)
                    save(report, args.out, start)
            pool = interleaved(ids_by_text, sets["bench"])
            if i == 0 and pool:  # what the frame-pass plan buys: the same batches, each chunk as one pass
                plan, engine.plan = engine.plan, BatchPlan(None)
                sizes = [b for b in batches if b >= 32] or batches
                entry["batch_bench_one_pass"] = throughput(engine, pool, sizes, args.batch_runs)
                engine.plan = plan
            if i == 0:  # against the ONNX Runtime CPU engine (fp32) on the chosen sentences
                cpu, report["cpu_reference_error"] = cpu_reference(voice_dir)
            for lang, text in chosen.items():
                if cpu is not None:
                    result, reference = engine.synthesize(ids_by_text[text]), cpu.synthesize(ids_by_text[text])
                    same = bool(np.array_equal(result.frames_per_id, reference.frames_per_id))
                    entry[lang]["frames_equal_cpu"] = same
                    if same:
                        entry[lang]["max_abs_diff_cpu"] = float(np.abs(result.audio - reference.audio).max())
            entry["peak_gpu_memory_mb"] = torch.cuda.max_memory_allocated() / 2**20 if cuda else None
            del engine
            if cuda:
                torch.cuda.empty_cache()
            save(report, args.out, start)
    save(report, args.out, start)
    print(f"wrote {args.out}")
    print_table(report)


def save(report: dict[str, Any], out: Path, start: float) -> None:
    """Write the report so far (a run cut short by a time limit still leaves its numbers)."""
    report["wall_s"] = time.perf_counter() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def print_table(report: dict[str, Any]) -> None:
    """A short summary of ``report`` (markdown)."""
    print(f"\n{report['gpu']}, torch {report['torch']}, wall {report['wall_s']:.0f} s; ids from {report['ids_source']}")
    for lang, s in report.get("sentences", {}).items():
        print(f"  {lang} sentence ({s['ids']} ids): {s['text']}")
    text = report.get("text_to_pcm", {})
    if not any(key.startswith(("en", "zh")) for key in text):
        print(f"  text -> PCM: not measured ({text.get('skipped') or text.get('error')})")
    for lang in ("en", "zh"):
        if f"{lang}_error" in text:
            print(f"  text -> PCM {lang}: failed ({text[f'{lang}_error']})")
        if lang in text:
            r, f = text[lang], text[lang]["fresh"]
            print(
                f"  text -> PCM {lang}, {f['sentences']} distinct sentences ({f['mean_audio_s']:.2f} s audio): "
                f"p50 {f['text_to_pcm_ms']['p50']:.2f} ms, p95 {f['text_to_pcm_ms']['p95']:.2f} ms (frontend "
                f"p50 {f['frontend_ms']['p50']:.2f} ms); one sentence repeated ({r['audio_s']:.2f} s): "
                f"p50 {r['text_to_pcm_ms']['p50']:.2f} ms"
            )
    print("\n| dtype | capture s | ids->PCM p50 en / zh ms | sentence set | sentences/s at batch size |")
    print("| --- | ---: | ---: | --- | --- |")
    for dtype, e in report["dtypes"].items():
        if "skipped" in e:
            print(f"| {dtype} | skipped: {e['skipped']} | | | |")
            continue
        ids_ms = " / ".join(f"{e[lang]['ids_to_pcm_ms']['p50']:.2f}" for lang in ("en", "zh") if lang in e)
        for name in ("batch_bench", "batch_bench_one_pass", "batch_short"):
            if name in e:
                cells = ", ".join(f"{b}: {v['sentences_per_s']:.0f}" for b, v in e[name].items())
                print(f"| {dtype} | {e['capture_s']:.1f} | {ids_ms} | {name[6:]} | {cells} |")
    for dtype, e in report["dtypes"].items():
        for name in ("batch_bench", "batch_short"):
            if name in e:
                size, best = max(e[name].items(), key=lambda kv: kv[1]["sentences_per_s"])
                stages = ", ".join(f"{k} {v:.2f}" for k, v in best.get("stage_ms", {}).items())
                print(f"{dtype} {name[6:]}: best batch {size}: {best['ms']:.2f} ms per batch ({stages} ms)")


if __name__ == "__main__":
    main()
