"""How far past the sound do word timestamps end? (shipped voices, CPU, about a minute per 40 lines)

For held-out sentences this synthesizes each line with :class:`onestep.TTS` (default voices) and compares
every word that a pause follows (the last word of the line or of a sentence, and a word before a comma-like
mark) with where the audio's energy actually stops: the start of the longest run (50 ms or more) of quiet
windows (RMS more than ``--threshold`` dB below the line's loudest window) between the word's start and 100 ms
after the next word's start (or the end of the audio): the pause. Overshoot = reported end - that energy end
(positive: the word ends after the sound does). Also counts overlapping neighbours and words that end before
they start; a word before a comma with no such pause (the voice reads on) counts as ``no_pause_found``.

    PYTHONPATH=src:dev/src python lab/tools/word_end_overshoot.py --lines 40 --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import numpy as np

FINAL = set(".!?。！？…")
COMMA = set(",;:，、；：")
FRAME_S = 0.005  # energy frame hop (seconds); window = 2 hops
MIN_PAUSE_S = 0.05  # the shortest quiet run taken for a pause


def frame_db(samples: np.ndarray, rate: int) -> np.ndarray:
    """RMS per 10 ms window at a 5 ms hop, in dB relative to the loudest window."""
    hop = max(1, round(FRAME_S * rate))
    win = 2 * hop
    n = max(1, (samples.size - win) // hop + 1)
    idx = np.arange(win)[None, :] + hop * np.arange(n)[:, None]
    padded = np.pad(samples.astype(np.float64), (0, max(0, idx.max() + 1 - samples.size)))
    rms = np.sqrt(np.mean(padded[idx] ** 2, axis=1)) + 1e-12
    db = 20 * np.log10(rms)
    return db - db.max()


def energy_end(db: np.ndarray, start: float, stop: float, threshold: float) -> float | None:
    """Where the longest quiet run in [start, stop) begins (seconds: the end of the loud window before it);
    None when the span has no quiet run of at least ``MIN_PAUSE_S`` (a stop's closure is no pause) or no loud
    window before it."""
    lo, hi = int(start / FRAME_S), min(int(np.ceil(stop / FRAME_S)), db.size)
    quiet = np.concatenate([[False], db[lo:hi] <= threshold, [False]])
    edges = np.flatnonzero(np.diff(quiet.astype(np.int8)))
    runs = list(zip(edges[::2], edges[1::2], strict=True))  # [first, after) of each quiet run, within the span
    runs = [(a, b) for a, b in runs if (b - a) * FRAME_S >= MIN_PAUSE_S and a > 0]
    if not runs:
        return None
    first, _ = max(runs, key=lambda r: r[1] - r[0])
    return (lo + int(first) - 1) * FRAME_S + 2 * FRAME_S  # the end of the last loud window's 10 ms


def pause_after(text: str, char_end: int) -> str:
    """``"final"``, ``"comma"`` or ``""``: the mark that follows a word ending at ``char_end`` of ``text``."""
    rest = text[char_end:].lstrip(" \"'”’)」』")
    if not rest:
        return "final"
    if rest[0] in FINAL:
        return "final"
    if rest[0] in COMMA:
        return "comma"
    return ""


def measure(lang: str, lines: int, threshold: float) -> dict[str, list[float]]:
    """Overshoots (seconds) per pause kind for ``lines`` held-out sentences of ``lang``."""
    from onestep import TTS
    from onestep_dev.eval.heldout import load_heldout, select

    tts = TTS()
    out: dict[str, list[float]] = {"final": [], "comma": [], "overlaps": [], "order_errors": [], "no_pause": []}
    for sentence in select(load_heldout(lang), lines):  # type: ignore[arg-type]
        audio = tts.synthesize(sentence.text, voice=None)
        db = frame_db(audio.samples, audio.sample_rate)
        words = audio.words
        for i, w in enumerate(words):
            nxt = words[i + 1].start if i + 1 < len(words) else audio.duration
            if i + 1 < len(words) and words[i + 1].start < w.end - 1e-9:
                out["overlaps"].append(w.end - words[i + 1].start)
            if w.end < w.start:
                out["order_errors"].append(w.start - w.end)
            kind = "final" if i + 1 == len(words) else pause_after(sentence.text, w.char_end) if w.char_end >= 0 else ""
            if not kind:
                continue
            end = energy_end(db, w.start, max(nxt + 0.1, w.end), threshold)
            if end is None:
                out["no_pause"].append(0.0)
            else:
                out[kind].append(w.end - end)
    return out


def summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    a = np.asarray(values) * 1000
    return {
        "n": int(a.size), "mean_ms": round(float(a.mean()), 1), "p50_ms": round(float(np.median(a)), 1),
        "p95_ms": round(float(np.percentile(a, 95)), 1), "max_ms": round(float(a.max()), 1),
        "min_ms": round(float(a.min()), 1),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lines", type=int, default=40, help="held-out lines per language")
    p.add_argument("--langs", default="en,zh")
    p.add_argument("--threshold", type=float, default=-40.0, help="dB below the line's loudest window")
    p.add_argument("--json", help="write the summary here")
    args = p.parse_args(argv)
    report: dict[str, dict[str, object]] = {}
    for lang in args.langs.split(","):
        got = measure(lang, args.lines, args.threshold)
        report[lang] = {
            "final": summary(got["final"]), "comma": summary(got["comma"]),
            "overlapping_pairs": len(got["overlaps"]), "end_before_start": len(got["order_errors"]),
            "no_pause_found": len(got["no_pause"]),
        }  # fmt: skip
        print(lang, json.dumps(report[lang]), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"threshold_db": args.threshold, "lines": args.lines, "report": report}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
