"""Issue 22 on one GPU machine: engine-only throughput against ``TTS.synthesize_batch`` with all the host work,
the host pool's variants, CPU-vs-GPU frame counts on every held-out line, and the start of ``TTS(device=...)``.

Run by lab/gpu/measure_host.sh (two processes: ``ready`` first, in a fresh process, then ``throughput``);
``--device cpu`` is the dry run (a CPU checks the script: few lines, ONNX Runtime as "the GPU").

    python3 lab/gpu/measure_host.py ready --device cuda --out $OUT/ready.json
    python3 lab/gpu/measure_host.py throughput --device cuda --out $OUT/throughput.json

Texts: held-out sentences (``onestep_dev.eval.heldout``, never trained on) joined in pairs (10-30 words / 20-40
characters, ~8 s of audio, as the issue measured), ``--lines`` per language (>= 200 on the GPU), each pair
different. Every figure of one run comes from the same process, card and texts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


def process_start_epoch() -> float:
    """When this process started (epoch seconds, from /proc: the interpreter's start is counted too)."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines() if line.startswith("btime"))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return time.time()


STARTED = process_start_epoch()


def since_start() -> float:
    return round(time.time() - STARTED, 3)


def held_out_lines(per_language: int) -> dict[str, list[str]]:
    """``per_language`` texts per language: two held-out sentences joined, every pair different."""
    from onestep_dev.eval.heldout import load_heldout

    out: dict[str, list[str]] = {}
    for lang in ("en", "zh"):
        sentences = [s.text for s in load_heldout(lang)]
        n = len(sentences)
        joiner = "" if lang == "zh" else " "
        pairs, seen, k = [], set(), 0
        while len(pairs) < per_language and k < n * n:
            a, b = k % n, (k // n + 1 + k) % n  # first pass (i, i+1), then (i, i+2), ...
            k += 1
            if a != b and (a, b) not in seen:
                seen.add((a, b))
                pairs.append(sentences[a] + joiner + sentences[b])
        out[lang] = pairs
    return out


class GpuBusy:
    """Mean GPU utilisation over a phase, sampled by ``nvidia-smi -lms`` (None where there is none)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.samples: list[float] = []
        self.thread: threading.Thread | None = None

    def __enter__(self) -> GpuBusy:
        try:
            self.proc = subprocess.Popen(
                ["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits", "-lms", "100", "-i", "0"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            )  # fmt: skip
        except OSError:
            return self
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.samples.append(float(line.strip()))
            except ValueError:
                pass

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=5)

    @property
    def mean(self) -> float | None:
        return round(statistics.fmean(self.samples), 1) if self.samples else None


def timed_runs(fn, runs: int) -> dict[str, float | list[float] | None]:
    """Wall seconds of ``runs`` calls of ``fn`` (after none: the caller warms), with the GPU's busy share."""
    walls = []
    with GpuBusy() as busy:
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            walls.append(time.perf_counter() - t0)
    return {"seconds": [round(w, 4) for w in walls], "best_s": round(min(walls), 4), "gpu_busy_pct": busy.mean}


def sync(device: str) -> None:
    if device.startswith("cuda"):
        import torch

        torch.cuda.synchronize()


# --- ready: TTS(device) from process start ---------------------------------------------------------------------


def fully_captured(tts) -> bool:
    """Whether every loaded GPU engine has captured every batch size (``ready`` comes after the smallest)."""
    return all(e.fully_captured.is_set() for e in tts._resources._engines.values() if hasattr(e, "fully_captured"))


def wait_fully_captured(tts) -> None:
    for e in list(tts._resources._engines.values()):
        if hasattr(e, "fully_captured"):
            e.fully_captured.wait()


def run_ready(args: argparse.Namespace) -> dict:
    t_import0 = since_start()
    import numpy as np

    from onestep import TTS

    t_import = since_start()
    tts = TTS(device=args.device, voices_dir=args.voices_dir or None)
    t_tts = since_start()
    lines = held_out_lines(max(args.calls // 2, 2))
    texts = [t for lang in ("en", "zh") for t in lines[lang]]
    first_calls = []
    first_phases = []  # (frontend ms, render ms, steps built when the render began, ready after it)
    stacks = float(os.environ.get("STACKS_EVERY_S", "0"))  # > 0: every thread's stack every N s of the first call
    if stacks > 0:
        import faulthandler

        faulthandler.dump_traceback_later(stacks, repeat=True, file=sys.stderr)
    for text in texts[:1] + texts[len(texts) // 2 : len(texts) // 2 + 1]:  # loads the engine(s), serves eagerly
        t0 = time.perf_counter()
        prepared = tts.prepare(text)
        t1 = time.perf_counter()
        built = sum(len(getattr(e, "_acoustic_steps", {})) + len(getattr(e, "_frame_steps", {})) for e in tts._resources._engines.values())
        tts.render([prepared])
        t2 = time.perf_counter()
        first_calls.append(round((t2 - t0) * 1e3, 2))
        first_phases.append([round((t1 - t0) * 1e3, 2), round((t2 - t1) * 1e3, 2), built, tts.ready()])
    if stacks > 0:
        faulthandler.cancel_dump_traceback_later()
    t_first = since_start()
    during = []  # calls while the graphs are being captured, one every 100 ms (a light load: not a flood)
    while not tts.ready() and len(during) < 10_000:
        t0 = time.perf_counter()
        tts.synthesize(texts[len(during) % len(texts)])
        during.append((time.perf_counter() - t0) * 1e3)
        tts.wait_ready(0.1)
    tts.wait_ready()
    t_ready = since_start()
    after = []
    during_rest = []  # whether each call after ready started while larger batch sizes were still being captured
    for text in texts:  # held-out text on first sight (the frontend has not seen most of it)
        during_rest.append(not fully_captured(tts))
        t0 = time.perf_counter()
        audio = tts.synthesize(text)
        after.append((time.perf_counter() - t0) * 1e3)
        assert audio.samples.size > 0
    wait_fully_captured(tts)
    t_full = since_start()
    engines = {str(p): {"load_s": round(e.load_seconds, 3), "ready_s": round(getattr(e, "ready_seconds", 0.0), 3),
                        "warmup_s": round(e.warmup_seconds, 3),
                        "captured_batch_sizes": list(getattr(e, "captured_batch_sizes", ())),
                        "capture_error": repr(getattr(e, "capture_error", None))}
               for p, e in tts._resources._engines.items()}  # fmt: skip
    rest = np.array([ms for ms, busy in zip(after, during_rest, strict=True) if busy])
    ms = np.array(after)
    return {
        "device": args.device,
        "capture": os.environ.get("ONESTEP_CUDA_CAPTURE", "background"),
        "cudnn_benchmark": os.environ.get("ONESTEP_CUDNN_BENCHMARK", "0") == "1",
        "seconds_from_process_start": {"python_up": t_import0, "imports_done": t_import, "tts_constructed": t_tts,
                                       "first_calls_done": t_first, "ready": t_ready,
                                       "fully_captured": t_full},  # fmt: skip
        "first_calls_ms": first_calls,
        "first_calls_phases": {"columns": ["frontend_ms", "render_ms", "steps_built_before_render", "ready_after"],
                               "rows": first_phases},  # fmt: skip
        "calls_while_capturing": {"n": len(during), "max_ms": round(max(during), 2) if during else None,
                                  "p50_ms": round(statistics.median(during), 2) if during else None},  # fmt: skip
        "after_ready": {"calls": len(after), "p50_ms": round(float(np.median(ms)), 2),
                        "p99_ms": round(float(np.percentile(ms, 99)), 2), "max_ms": round(float(ms.max()), 2),
                        "over_10ms": int((ms > 10).sum())},  # fmt: skip
        # the calls after ready that started while the larger batch sizes were still being captured
        "after_ready_while_capturing": {"calls": int(rest.size),
                                        "max_ms": round(float(rest.max()), 2) if rest.size else None,
                                        "over_10ms": int((rest > 10).sum())},  # fmt: skip
        "engines": engines,
    }


# --- throughput: engine only vs synthesize_batch, and CPU-vs-GPU frames ------------------------------------------


def run_throughput(args: argparse.Namespace) -> dict:
    import numpy as np

    from onestep import TTS
    from onestep.runtime.host_pool import HostPool, HostPoolSettings, usable_cores
    from onestep.synthesis.render import engine_pass

    report: dict = {"device": args.device, "cores": usable_cores()}
    t0 = time.perf_counter()
    tts = TTS(device=args.device, voices_dir=args.voices_dir or None)
    lines = held_out_lines(args.lines)
    texts = [t for lang in ("en", "zh") for t in lines[lang]]
    langs = [lang for lang in ("en", "zh") for _ in lines[lang]]
    for text in (lines["en"][0], lines["zh"][0]):
        tts.synthesize(text)  # loads the engine(s)
    tts.wait_ready()
    wait_fully_captured(tts)  # ready comes after the smallest batch size; throughput needs them all
    report["start_s"] = round(time.perf_counter() - t0, 2)
    prepared = [tts.prepare(t) for t in texts]
    utts = sum(len(p.ids) for p in prepared)
    report["texts"] = {"n": len(texts), "per_language": args.lines, "utterances": utts,
                       "voices": sorted({p.entry.name for p in prepared})}  # fmt: skip

    # the frontend alone (first sight was the line above; this is "again")
    t1 = time.perf_counter()
    for t in texts:
        tts.prepare(t)
    report["frontend_ms_per_text_again"] = round((time.perf_counter() - t1) / len(texts) * 1e3, 3)

    def engine_only(chunk: int) -> None:
        for i in range(0, len(prepared), chunk):
            engine_pass(prepared[i : i + chunk])
        sync(args.device)

    results: dict[str, dict] = {}
    for chunk in args.chunks:
        engine_only(chunk)
        r = timed_runs(lambda c=chunk: engine_only(c), args.runs)
        r["texts_per_s"] = round(len(texts) / r["best_s"], 1)
        r["utterances_per_s"] = round(utts / r["best_s"], 1)
        results[f"engine_only_chunk{chunk}"] = r
    best_engine = max(r["texts_per_s"] for r in results.values())

    cores = usable_cores()
    variants: list[tuple[str, HostPoolSettings]] = [("serial_host", HostPoolSettings(threads=1, chunk=args.chunks[0]))]
    # first the host pool's worker processes (the frontend AND the finishing work in them, the engine's audio
    # handed over in shared memory: issue 22's path), then threads alone (the GIL-bound path measured before)
    for chunk in args.chunks:
        for procs in args.processes:
            if procs > 0:
                variants.append((f"procs{procs}_chunk{chunk}", HostPoolSettings(threads=1, processes=procs, chunk=chunk)))
    procs = max(args.processes)
    files_dir = None
    if args.files and procs > 0:  # onestep batch --frontend-processes's path: WAV files written by the workers too
        import tempfile

        files_dir = Path(tempfile.mkdtemp(prefix="onestep-measure-files-"))
        variants.append((f"files_wav_procs{procs}_chunk{args.chunks[0]}",
                         HostPoolSettings(threads=1, processes=procs, chunk=args.chunks[0])))  # fmt: skip
    for chunk in args.chunks[:1]:
        variants.append((f"threads{cores}_chunk{chunk}", HostPoolSettings(threads=cores, chunk=chunk)))
    for switch in args.switch_ms:  # the GIL switch interval (5 ms default) against the engine thread's waits
        variants.append((f"procs{procs}_chunk{args.chunks[0]}_switch{switch}ms",
                         HostPoolSettings(threads=1, processes=procs, chunk=args.chunks[0],
                                          switch_interval_s=switch / 1000)))  # fmt: skip
    deadline = time.monotonic() + args.budget_s
    for name, settings in variants:
        if time.monotonic() > deadline:
            results[name] = {"skipped": "budget"}
            continue
        with HostPool(settings) as pool:
            t_start = time.perf_counter()
            pool.start()
            started = round(time.perf_counter() - t_start, 2)
            tts.synthesize_batch(texts[: 4 * settings.chunk], pool=pool)  # warm the pool's threads and workers
            if name.startswith("files_"):
                r = timed_runs(lambda p=pool: write_files(tts, texts, p, files_dir), args.runs)
            else:
                r = timed_runs(lambda p=pool: tts.synthesize_batch(texts, pool=p), args.runs)
        r["texts_per_s"] = round(len(texts) / r["best_s"], 1)
        r["share_of_engine_only"] = round(r["texts_per_s"] / best_engine, 3)
        r["pool_start_s"] = started
        results[name] = r
        print(f"{name}: {r['texts_per_s']} texts/s ({r['share_of_engine_only']:.0%} of engine-only)", flush=True)
    report["throughput"] = results

    # the same lines on the CPU engine (ONNX Runtime): frames per id of every utterance, from its acoustic graph
    if args.compare_cpu:
        report["frames_cpu_vs_gpu"] = compare_frames(tts, prepared, langs, args)
    return report


def write_files(tts, texts: list[str], pool, out_dir: Path) -> None:
    """Every text's WAV file written by the pool's worker processes (``onestep batch --frontend-processes``)."""
    from onestep.synthesis.remote import render_in_processes

    files = [str(out_dir / f"{i:06d}.wav") for i in range(len(texts))]
    jobs = [(t, None, 1.0, None) for t in texts]
    done = render_in_processes(jobs, "word", pool, tts._resources, tts.max_phonemes, pool.settings.chunk, files=files)
    bad = [r for r in done if isinstance(r, Exception)]
    if bad:
        raise bad[0]


def compare_frames(tts, prepared, langs: list[str], args: argparse.Namespace) -> dict:
    """Per line: do the GPU engine's frames per id (of every utterance) equal ONNX Runtime's on the CPU?"""
    import numpy as np

    from onestep.synthesis.render import engine_pass

    from onestep import TTS

    cpu = TTS(device="cpu", voices_dir=args.voices_dir or None, preload=False)
    per_line: list[dict] = []
    gpu_frames: list[list[np.ndarray]] = []
    for i in range(0, len(prepared), 64):
        for parts in engine_pass(prepared[i : i + 64]):
            gpu_frames.append([f for f, _ in parts])
    for p, frames, lang in zip(prepared, gpu_frames, langs, strict=True):
        engine = cpu._resources.engine(p.entry)  # the same voice (and speaker vector) on ONNX Runtime
        inner = getattr(engine, "engine", engine)
        rows = inner.speaker_rows(getattr(engine, "vector", None), len(p.ids))
        counts = inner._frames(p.ids, p.speed, None, rows)[2]  # the acoustic graph + the rounding rule
        same_ids = all(np.array_equal(a, b) for a, b in zip(frames, counts, strict=True))
        total_gpu, total_cpu = sum(int(f.sum()) for f in frames), sum(int(c.sum()) for c in counts)
        per_line.append({"lang": lang, "same_frames_per_id": same_ids, "frames_gpu": total_gpu, "frames_cpu": total_cpu})
    out: dict = {}
    for lang in ("en", "zh"):
        rows = [r for r in per_line if r["lang"] == lang]
        out[lang] = {
            "lines": len(rows),
            "same_total_frames": sum(r["frames_gpu"] == r["frames_cpu"] for r in rows),
            "same_frames_per_id": sum(r["same_frames_per_id"] for r in rows),
            "differing": [i for i, r in enumerate(rows) if not r["same_frames_per_id"]][:20],
            "max_total_diff": max((abs(r["frames_gpu"] - r["frames_cpu"]) for r in rows), default=0),
        }
    out["all_equal"] = all(out[lang]["same_frames_per_id"] == out[lang]["lines"] for lang in ("en", "zh"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("ready", "throughput"))
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--out", required=True)
    ap.add_argument("--voices-dir", action="append", default=[])
    ap.add_argument("--lines", type=int, default=240, help="texts per language (throughput)")
    ap.add_argument("--calls", type=int, default=100, help="held-out calls after ready (ready)")
    ap.add_argument("--chunks", default="64,256", help="texts per engine pass, comma-separated")
    ap.add_argument("--processes", default="0,8", help="host worker processes to try (frontend + finishing), comma-separated")
    ap.add_argument("--no-files", dest="files", action="store_false", help="skip the variant that writes WAV files")
    ap.add_argument("--switch-ms", default="0.5", help="GIL switch intervals to try (ms), comma-separated; '' none")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget-s", type=float, default=150.0, help="start no pool variant after this")
    ap.add_argument("--no-compare-cpu", dest="compare_cpu", action="store_false")
    args = ap.parse_args()
    args.chunks = [int(x) for x in args.chunks.split(",")]
    args.processes = [int(x) for x in args.processes.split(",")]
    args.switch_ms = [float(x) for x in args.switch_ms.split(",") if x.strip()]
    report = run_ready(args) if args.mode == "ready" else run_throughput(args)
    if args.device.startswith("cuda"):
        import torch

        report["card"] = torch.cuda.get_device_name(0)
        report["torch"] = torch.__version__
    report["python"] = sys.version.split()[0]
    Path(args.out).write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(json.dumps(report, ensure_ascii=False)[:3000])


if __name__ == "__main__":
    main()
