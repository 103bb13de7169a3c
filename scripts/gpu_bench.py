#!/usr/bin/env python3
"""GPU engine benchmark (run on the CUDA machine): latency of text -> PCM for a ~3 s sentence, batched throughput.

    python scripts/gpu_bench.py --out gpu_out/gpu_bench.json                      # random full-size voice
    python scripts/gpu_bench.py --voice-dir src/onestep/voices/<name> --out gpu_out/gpu_bench.json

The GPU image lacks the frontend's packages (spaCy, misaki, jieba, ...): phonemize here first with
``--dump-ids scripts/gpu/bench_ids.json`` and pass ``--ids`` there (the text -> PCM API path is then skipped).

Measures, for each ``--dtypes`` entry: load + CUDA-graph capture time, the p50/p95 of ``CudaEngine.synthesize``
(phoneme ids -> host float32 PCM) for the sentence whose audio is closest to 3 s, and the sentences/s of
``synthesize_batch`` at each batch size; with the first dtype also the whole API path ``TTS.synthesize`` (text
-> PCM, frontend on the CPU included) and the difference to the ONNX Runtime CPU engine's audio.
Prints a summary and writes everything as JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from onestep import TTS
from onestep.bench.engine_bench import BENCH_SENTENCES
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.cuda_engine import CudaEngine, CudaSettings
from onestep.runtime.ort_engine import OrtEngine

TARGET_AUDIO_S = 3.0


def random_voice(directory: Path) -> Path:
    """Export a randomly initialised full-size voice (the placeholder architecture) into ``directory``."""
    from onestep.config import VoiceConfig
    from onestep.model.config import ModelConfig
    from onestep.model.export import export_voice
    from onestep.model.voice_models import build_models

    export_voice(build_models(ModelConfig(), seed=0), VoiceConfig(name="gpu-bench", language="en", placeholder=True),
                 directory)  # fmt: skip
    return directory


def percentiles_ms(seconds: list[float]) -> dict[str, float]:
    ms = np.asarray(seconds) * 1e3
    return {"p50": float(np.percentile(ms, 50)), "p95": float(np.percentile(ms, 95)), "mean": float(ms.mean())}


def timed(fn: Any, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--voice-dir", type=Path, help="voice to load (default: a random full-size voice)")
    p.add_argument("--out", type=Path, required=True, help="JSON output path")
    p.add_argument("--dtypes", default="fp16,bf16,fp32", help="comma-separated network dtypes to measure")
    p.add_argument("--batch-sizes", default="1,2,4,8,16,32", help="comma-separated captured batch sizes")
    p.add_argument("--runs", type=int, default=200, help="timed single-sentence runs")
    p.add_argument("--batch-runs", type=int, default=20, help="timed runs per batch size")
    p.add_argument("--ids", type=Path, help="JSON {text: phoneme ids} from --dump-ids (no frontend needed)")
    p.add_argument("--dump-ids", type=Path, help="phonemize the benchmark sentences into this JSON and exit")
    args = p.parse_args()
    if args.dump_ids:
        from onestep.frontend.pipeline import Frontend

        frontend = Frontend()
        table = {t: phonemes_to_ids(frontend.phonemize(t).phonemes) for lang in ("en", "zh") for t in BENCH_SENTENCES[lang]}
        args.dump_ids.write_text(json.dumps(table, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {len(table)} sentences to {args.dump_ids}")
        return
    if not torch.cuda.is_available():
        raise SystemExit("no CUDA device visible to torch")

    with tempfile.TemporaryDirectory(prefix="onestep-gpu-bench-") as tmp:
        voice_dir = args.voice_dir or random_voice(Path(tmp) / "voice")
        tts = TTS(voice=Path(voice_dir), device="cpu")  # CPU engine (+ frontend): reference audio, sentence choice
        if args.ids:
            ids_by_text = json.loads(args.ids.read_text(encoding="utf-8"))
        else:
            frontend = tts.frontend()
            ids_by_text = {
                text: phonemes_to_ids(frontend.phonemize(text).phonemes)
                for lang in ("en", "zh")
                for text in BENCH_SENTENCES[lang]
            }
        cpu: OrtEngine = tts.engine()  # type: ignore[assignment]
        durations = {t: cpu.synthesize(ids).audio.size / cpu.sample_rate for t, ids in ids_by_text.items()}
        text = min(durations, key=lambda t: abs(durations[t] - TARGET_AUDIO_S))
        ids = ids_by_text[text]
        reference = cpu.synthesize(ids)
        batch_sizes = tuple(int(b) for b in args.batch_sizes.split(","))
        all_ids = list(ids_by_text.values())

        report: dict[str, Any] = {
            "gpu": torch.cuda.get_device_name(0),
            "torch": torch.__version__,
            "cuda": torch.version.cuda,
            "platform": platform.platform(),
            "voice": str(voice_dir),
            "placeholder": cpu.config.placeholder,
            "sentence": {"text": text, "ids": len(ids), "audio_s": durations[text]},
            "dtypes": {},
        }
        for i, dtype in enumerate(args.dtypes.split(",")):
            torch.cuda.reset_peak_memory_stats()
            t0 = time.perf_counter()
            engine = CudaEngine(voice_dir, CudaSettings(dtype=dtype, batch_sizes=batch_sizes))
            load_s = time.perf_counter() - t0
            result = engine.synthesize(ids)
            same_frames = bool(np.array_equal(result.frames_per_id, reference.frames_per_id))
            entry: dict[str, Any] = {
                "load_s": engine.load_seconds,
                "capture_s": engine.warmup_seconds,
                "load_total_s": load_s,
                "frames_equal_cpu": same_frames,
                "max_abs_diff_cpu": float(np.abs(result.audio - reference.audio).max()) if same_frames else None,
                "ids_to_pcm_ms": percentiles_ms(timed(lambda e=engine: e.synthesize(ids), args.runs)),
                "batch": {},
            }
            for b in batch_sizes:
                batch = [all_ids[j % len(all_ids)] for j in range(b)]
                engine.synthesize_batch(batch)
                seconds = statistics.median(timed(lambda e=engine, bt=batch: e.synthesize_batch(bt), args.batch_runs))
                audio_s = sum(r.audio.size for r in engine.synthesize_batch(batch)) / engine.sample_rate
                entry["batch"][b] = {
                    "ms": seconds * 1e3,
                    "sentences_per_s": b / seconds,
                    "audio_s_per_s": audio_s / seconds,
                }
            entry["peak_gpu_memory_mb"] = torch.cuda.max_memory_allocated() / 2**20
            if i == 0 and not args.ids:  # the public API end to end (frontend on the CPU + this dtype's default engine)
                api = TTS(voice=Path(voice_dir), device="cuda")
                api.synthesize(text)
                entry["api_text_to_pcm_ms"] = percentiles_ms(timed(lambda a=api: a.synthesize(text), args.runs))
                del api
            report["dtypes"][dtype] = entry
            del engine
            torch.cuda.empty_cache()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    s = report["sentence"]
    print(f"{report['gpu']}; sentence {s['audio_s']:.2f} s audio, {s['ids']} ids: {s['text']}")
    for dtype, e in report["dtypes"].items():
        best = max(e["batch"].items(), key=lambda kv: kv[1]["sentences_per_s"])
        api = f", API text->PCM p50 {e['api_text_to_pcm_ms']['p50']:.2f} ms" if "api_text_to_pcm_ms" in e else ""
        print(
            f"{dtype}: ids->PCM p50 {e['ids_to_pcm_ms']['p50']:.2f} ms{api}; best batch {best[0]}: "
            f"{best[1]['sentences_per_s']:.0f} sentences/s ({best[1]['audio_s_per_s']:.0f} s audio/s); "
            f"capture {e['capture_s']:.1f} s; frames equal CPU {e['frames_equal_cpu']}, "
            f"max diff {e['max_abs_diff_cpu']}"
        )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
