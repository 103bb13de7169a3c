"""Where the host work of ``TTS.synthesize_batch`` goes, per text, on a CPU, with a stand-in engine (issue 22).

The engine answers at once (lab/standin_engine.py), so what is timed is the work around it: the frontend,
grouping texts into engine batches, word and phoneme timings, assembly, the output stage and PCM conversion.

    PYTHONPATH=$PWD/src:$PWD/dev/src:$PWD/lab python3 lab/host_profile.py profile --lines 112
    PYTHONPATH=... python3 lab/host_profile.py throughput --lines 112 --variants serial,threads,procs2

Texts: held-out sentences joined in pairs (lab/gpu/measure_host.py's ``held_out_lines``), en and zh.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "gpu"))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def texts_of(lines: int) -> list[str]:
    from measure_host import held_out_lines

    found = held_out_lines(lines)
    return [t for lang in ("en", "zh") for t in found[lang]]


def per_text_us(fn, n: int, repeat: int) -> float:
    """Best of ``repeat`` wall times of ``fn()``, in µs per text (``n`` texts per call)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return round(best / n * 1e6, 1)


def run_profile(args: argparse.Namespace) -> dict:
    import numpy as np

    from onestep import TTS
    from onestep.runtime.encoders import encode_file
    from onestep.runtime.pcm import to_pcm16
    from onestep.synthesis.assembly import apply_output, assemble
    from onestep.synthesis.render import engine_pass, finish
    from onestep.synthesis.timings import phoneme_timings, placements, seconds_per_frame, timed_words, utterance_spans
    from standin_engine import use_standin

    tts = TTS(preload=False)
    use_standin(tts)
    texts = texts_of(args.lines)
    prepared = [tts.prepare(t) for t in texts]  # first sight (loads the languages)
    n = len(texts)
    parts = engine_pass(prepared)
    audio_s = sum(sum(a.size for _, a in q) for q in parts) / 24000
    resources = tts._resources
    out: dict = {"texts": n, "utterances": sum(len(p.ids) for p in prepared), "audio_s_per_text": round(audio_s / n, 2)}
    r = args.repeat
    out["frontend (TTS.prepare, again)"] = per_text_us(lambda: [tts.prepare(t) for t in texts], n, r)
    out["engine pass: grouping + stand-in (one copy)"] = per_text_us(lambda: engine_pass(prepared), n, r)

    def spans() -> None:
        for p, q in zip(prepared, parts, strict=True):
            for u, (c, a) in zip(p.utterances, q, strict=True):
                utterance_spans(u.phonemes, c, a)

    def place() -> None:
        for p in prepared:
            placements(p.text, p.utterances, False)

    allspans = [[utterance_spans(u.phonemes, c, a) for u, (c, a) in zip(p.utterances, q, strict=True)]
                for p, q in zip(prepared, parts, strict=True)]  # fmt: skip
    allplaced = [placements(p.text, p.utterances, False) for p in prepared]

    def timed() -> None:
        for p, q, s, pl in zip(prepared, parts, allspans, allplaced, strict=True):
            timed_words(pl, [c for c, _ in q], s, seconds_per_frame(p.engine))

    def phon() -> None:
        for p, q, s in zip(prepared, parts, allspans, strict=True):
            off = 0.0
            for u, (c, _), sp in zip(p.utterances, q, s, strict=True):
                phoneme_timings(u.phonemes, sp, seconds_per_frame(p.engine), off)
                off += float(np.sum(c)) * seconds_per_frame(p.engine)

    def join() -> None:
        for p, q in zip(prepared, parts, strict=True):
            assemble(p.utterances, [c for c, _ in q], [a for _, a in q], p.engine, p.entry, "")

    audios = [finish(p, q, "", resources) for p, q in zip(prepared, parts, strict=True)]

    def resample16() -> None:
        from onestep.runtime.output import OutputOptions

        for a in audios:
            apply_output(type(a)(a.samples, a.sample_rate), OutputOptions(16000))

    out["word timings: frame spans (RMS on the audio)"] = per_text_us(spans, n, r)
    out["word timings: words placed in the text"] = per_text_us(place, n, r)
    out["word timings: placed words timed"] = per_text_us(timed, n, r)
    out["phoneme timings"] = per_text_us(phon, n, r)
    out["assembly (sentences joined, no timings)"] = per_text_us(join, n, r)
    out["finish, all (timings + assembly + output at the native rate)"] = per_text_us(
        lambda: [finish(p, q, "word", resources) for p, q in zip(prepared, parts, strict=True)], n, r
    )
    out["output stage: resample 24 -> 16 kHz"] = per_text_us(resample16, n, r)
    out["PCM16 conversion (Audio.pcm16)"] = per_text_us(lambda: [to_pcm16(a.samples) for a in audios], n, r)
    out["WAV encoding"] = per_text_us(lambda: [encode_file("wav", a.samples, a.sample_rate) for a in audios], n, r)
    out["synthesize_batch, serial (threads=1), all included"] = per_text_us(lambda: serial(tts, texts), n, r)
    return out


def serial(tts, texts: list[str]) -> list:
    from onestep.runtime.host_pool import HostPool, HostPoolSettings

    with HostPool(HostPoolSettings(threads=1, chunk=64)) as pool:
        return tts.synthesize_batch(texts, pool=pool)


def run_throughput(args: argparse.Namespace) -> dict:
    from onestep import TTS
    from onestep.runtime.host_pool import HostPool, HostPoolSettings, usable_cores
    from standin_engine import use_standin

    tts = TTS(preload=False)
    use_standin(tts)
    texts = texts_of(args.lines)
    for t in texts:
        tts.prepare(t)
    cores = usable_cores()
    settings = {
        "serial": HostPoolSettings(threads=1, chunk=args.chunk),
        "threads": HostPoolSettings(threads=cores, chunk=args.chunk),
    }
    for v in args.variants:
        if v.startswith("procs"):
            settings[v] = HostPoolSettings(threads=cores, processes=int(v[5:]), chunk=args.chunk)
    out: dict = {"cores": cores, "texts": len(texts), "chunk": args.chunk}
    if "engine" in args.variants:  # the stand-in engine's passes alone (frontend done before): the baseline
        from onestep.synthesis.render import engine_pass

        prepared = [tts.prepare(t) for t in texts]
        best, cpu = float("inf"), float("inf")
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            kept = [engine_pass(prepared[i : i + args.chunk]) for i in range(0, len(texts), args.chunk)]
            best, cpu = min(best, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
            del kept
        out["engine"] = {"texts_per_s": round(len(texts) / best, 1), "parent_cpu_us_per_text": round(cpu / len(texts) * 1e6)}
        print(f"engine: {out['engine']}", flush=True)
    for name in [v for v in args.variants if v != "engine"]:
        with HostPool(settings[name]) as pool:
            pool.start()
            tts.synthesize_batch(texts[: 2 * args.chunk], pool=pool)  # warm
            best, cpu = float("inf"), float("inf")
            for _ in range(args.repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                tts.synthesize_batch(texts, pool=pool)
                best = min(best, time.perf_counter() - t0)
                cpu = min(cpu, time.process_time() - c0)
        # the parent's CPU time (all its threads) per text: what a GPU host's engine process spends besides the engine
        out[name] = {"texts_per_s": round(len(texts) / best, 1), "parent_cpu_us_per_text": round(cpu / len(texts) * 1e6)}
        print(f"{name}: {out[name]}", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("profile", "throughput"))
    ap.add_argument("--lines", type=int, default=112, help="texts per language")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=64)
    ap.add_argument("--variants", default="serial,threads,procs2")
    ap.add_argument("--out")
    args = ap.parse_args()
    args.variants = args.variants.split(",")
    report = run_profile(args) if args.mode == "profile" else run_throughput(args)
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
