"""Two voices' CPU engine speed in one run, A and B alternated per sentence (fair on a noisy machine).

    python lab/tools/voice_speed_ab.py --a OLD_EN_DIR --a-zh OLD_ZH_DIR --b src/onestep/voices/multispeaker

A side is a voice directory; a multi-speaker model is read through its voice ``--voice-en``/``--voice-zh``
(defaults en-heart, zh-xiaoxiao). Prints RTF and first-streamed-chunk p50 per side and language, and B/A ratios,
over the benchmark's sentence sets (onestep_dev.bench.engine_bench.BENCH_SENTENCES), 3 rounds, 2 threads.
"""

from __future__ import annotations

import argparse
import statistics
import time

from onestep_dev.bench.engine_bench import BENCH_SENTENCES
from onestep.frontend.pipeline import Frontend
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.ort_engine import OrtEngine, OrtSettings
from onestep.runtime.speakers import SpeakerEngine


def side(path: str, voice: str, threads: int):  # noqa: ANN201 - an Engine
    engine = OrtEngine(path, OrtSettings(threads=threads))
    if not engine.config.multi_speaker:
        return engine
    rows = {s.name: i for i, s in enumerate(engine.config.speakers)}
    return SpeakerEngine(engine, ((rows[voice], 1.0),), voice)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", required=True, help="voice dir of side A (English, or both languages)")
    p.add_argument("--a-zh", help="side A's Mandarin voice dir (default: --a)")
    p.add_argument("--b", required=True, help="voice dir of side B")
    p.add_argument("--b-zh", help="side B's Mandarin voice dir (default: --b)")
    p.add_argument("--voice-en", default="en-heart")
    p.add_argument("--voice-zh", default="zh-xiaoxiao")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    engines = {
        ("A", "en"): side(args.a, args.voice_en, args.threads), ("A", "zh"): side(args.a_zh or args.a, args.voice_zh, args.threads),
        ("B", "en"): side(args.b, args.voice_en, args.threads), ("B", "zh"): side(args.b_zh or args.b, args.voice_zh, args.threads),
    }  # fmt: skip
    frontend = Frontend()
    rtf: dict[tuple[str, str], list[float]] = {k: [] for k in engines}
    first: dict[tuple[str, str], list[float]] = {k: [] for k in engines}
    for rnd in range(args.rounds):
        for lang, texts in BENCH_SENTENCES.items():
            for text in texts:
                ids = phonemes_to_ids(next(iter(frontend.sentences(text))).phonemes)
                for name in ("A", "B") if rnd % 2 == 0 else ("B", "A"):
                    engine = engines[(name, lang)]
                    t = time.perf_counter()
                    result = engine.synthesize(ids)
                    rtf[(name, lang)].append((time.perf_counter() - t) / (result.audio.size / engine.sample_rate))
                    t = time.perf_counter()
                    next(engine.stream(ids).chunks)
                    first[(name, lang)].append((time.perf_counter() - t) * 1000)
    for lang in BENCH_SENTENCES:
        a_rtf, b_rtf = statistics.median(rtf[("A", lang)]), statistics.median(rtf[("B", lang)])
        a_first, b_first = statistics.median(first[("A", lang)]), statistics.median(first[("B", lang)])
        print(f"{lang}: RTF p50 A {a_rtf:.4f} B {b_rtf:.4f} (B/A {b_rtf / a_rtf:.3f}); first chunk p50 A {a_first:.1f} ms "
              f"B {b_first:.1f} ms (B/A {b_first / a_first:.3f}); n={len(rtf[('A', lang)])}")


if __name__ == "__main__":
    main()
