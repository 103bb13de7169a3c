"""Every voice of a pack against its own teacher voice: issue 11's quality gate in one resumable run.

For each voice (every voice of ``--pack``, or a ``--voices`` list), with its Kokoro teacher voice (the
``teacher`` of its ``voice.json`` entry) in the same run:

* its own language: ``onestep eval`` on ``--limit`` held-out lines (the gate wants >= 112), Whisper base WER
  (English) or CER (Mandarin) and DNSMOS OVRL, student vs teacher;
* the other language (Mandarin voices on English lines, English voices on Mandarin ones; ``--cross-limit``);
* the code-switch measure (:mod:`onestep_dev.eval.code_switch`, ``--cs-sentences``): English words of Mandarin
  sentences heard as English.

Gate (issue 11), per voice: own language WER <= teacher + 1.0 pt (en) or CER <= teacher + 2.0 pt (zh), and
DNSMOS OVRL >= teacher - 0.10; other language WER <= teacher + 2 pt (a Mandarin voice on English) or CER <=
teacher + 3 pt (an English voice on Mandarin); code-switch >= 80 % and never below the teacher. A voice passes
a language when its gate there passes (the code-switch result is reported, not part of ``languages``).

Writes ``OUT/<voice>/{native,cross}/results.{json,md}``, ``OUT/<voice>/code_switch.json`` and
``OUT/<voice>/summary.json`` per voice (a voice with a summary is skipped when the run is started again), then
``OUT/voices.json`` and ``OUT/voices.md`` for all. ``--write-pack`` stores each voice's measured ``quality``
and passed ``languages`` in the pack's ``voice.json`` (what ``onestep voices`` shows).

    python -m onestep_dev.eval.voices --pack src/onestep/voices/multispeaker --out runs/voices --limit 112
    python -m onestep_dev.eval.voices --voices zh-xiaoxiao,en-heart --limit 112 --out runs/two --write-pack
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from onestep_dev.eval.runner import EvalConfig, evaluate

GATE = {"en": ("wer", 1.0), "zh": ("cer", 2.0)}  # own language: metric, points allowed above the teacher
CROSS_GATE = {"en": ("wer", 2.0), "zh": ("cer", 3.0)}  # the other language, keyed by the language read
OVRL_SLACK = 0.10
CODE_SWITCH_TARGET = 80.0


def other(lang: str) -> str:
    return "zh" if lang == "en" else "en"


def teacher_of(entry: Any) -> str | None:
    """The Kokoro voice a voice was distilled from (``kokoro-82m-v1.0/af_heart`` -> ``af_heart``), or None."""
    teacher = entry.speaker.teacher if entry.speaker is not None else entry.config.teacher
    name = teacher.split("/")[-1].strip()
    return name if name and name[:2] in {"af", "am", "bf", "bm", "zf", "zm"} and " " not in name else None


def _pct(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 2)


def figures(results: dict[str, Any], student: str, teacher: str | None) -> dict[str, Any]:
    """Student vs teacher error rate (%) and DNSMOS OVRL from an ``onestep eval`` results dictionary."""
    systems = results["systems"]
    s, t = systems[student], systems.get(teacher) if teacher else None
    metric = results["metric"].lower()
    return {
        metric: _pct(s["error_rate"]),
        f"teacher_{metric}": _pct(t["error_rate"]) if t else None,
        "dnsmos_ovrl": round(s["dnsmos"]["ovrl"], 2) if s.get("dnsmos") else None,
        "teacher_dnsmos_ovrl": round(t["dnsmos"]["ovrl"], 2) if t and t.get("dnsmos") else None,
        "lines": s["sentences"],
    }


def gate(fig: dict[str, Any], metric: str, slack: float, ovrl: bool) -> bool | None:
    """Whether ``fig`` passes: error <= teacher + slack points (and OVRL >= teacher - 0.10 when ``ovrl``);
    None when the teacher's figures are missing."""
    mine, theirs = fig.get(metric), fig.get(f"teacher_{metric}")
    if mine is None or theirs is None:
        return None
    ok = mine <= theirs + slack
    if ovrl:
        if fig.get("dnsmos_ovrl") is None or fig.get("teacher_dnsmos_ovrl") is None:
            return None
        ok = ok and fig["dnsmos_ovrl"] >= fig["teacher_dnsmos_ovrl"] - OVRL_SLACK
    return ok


def _finished(folder: Path, config: EvalConfig) -> dict[str, Any] | None:
    """An earlier ``onestep eval`` of the same voice, teacher, scorers and held-out lines in ``folder`` (a run
    stopped between parts, or the same eval run by hand with ``--out folder``), else None."""
    from onestep_dev.eval.heldout import load_heldout, select

    path = folder / "results.json"
    if not path.exists():
        return None
    results = json.loads(path.read_text(encoding="utf-8"))
    meta = results.get("meta", {})
    keys = ("lang", "voice", "asr", "dnsmos")
    if any(meta.get(k) != getattr(config, k) for k in keys) or list(meta.get("teacher_voices", ())) != list(config.teacher_voices):
        return None
    wanted = [s.id for s in select(load_heldout(config.lang), config.limit)]
    return results if [s.get("id") for s in results.get("sentences", ())] == wanted else None


def evaluate_voice(
    entry: Any,
    out: Path,
    *,
    limit: int | None,
    cross_limit: int | None,
    cs_sentences: int,
    asr: str = "base",
    dnsmos: bool = True,
    with_teacher: bool = True,
    transcriber: Any = None,
    quality: Any = None,
    word_asr: Any = None,
    sounds: Callable[[str], str] | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """One voice: own language, other language, code-switch; writes and returns its ``summary.json``."""
    name, lang = entry.name, entry.config.language
    teacher = teacher_of(entry) if with_teacher else None
    teachers = (teacher,) if teacher else ()
    summary: dict[str, Any] = {"voice": name, "lang": lang, "teacher": teacher, "quality": {}, "gates": {}}
    timings: dict[str, float] = {}
    for part, read, n in (("native", lang, limit), ("cross", other(lang), cross_limit)):
        if n == 0:
            continue
        start = time.perf_counter()
        log(f"{name}: {part} ({read}, {n or 'all'} lines, teacher {teacher or 'none'})")
        config = EvalConfig(lang=read, voice=name, teacher_voices=teachers, limit=n, asr=asr, dnsmos=dnsmos)
        results = _finished(out / part, config)
        if results is None:
            results = evaluate(config, out / part, transcriber=transcriber, quality=quality, progress=False)
        else:
            log(f"{name}: {part}: reusing {out / part / 'results.json'} (same lines, teacher and scorers)")
        fig = figures(results, f"onestep:{name}", f"kokoro:{teacher}" if teacher else None)
        metric, slack = GATE[read] if part == "native" else CROSS_GATE[read]
        if part == "cross":
            fig = {k: v for k, v in fig.items() if "dnsmos" not in k}
        summary["quality"][read] = fig
        summary["gates"][read] = gate(fig, metric, slack, ovrl=part == "native" and dnsmos)
        timings[part] = round(time.perf_counter() - start, 1)
        log(f"{name}: {read} {metric.upper()} {fig[metric]} % vs teacher {fig[f'teacher_{metric}']} % -> gate {summary['gates'][read]}")
    if cs_sentences:
        from onestep_dev.eval.code_switch import measure
        from onestep_dev.train.code_switch import code_switch_sentences

        start = time.perf_counter()
        log(f"{name}: code-switch ({cs_sentences} sentences)")
        if word_asr is None:
            from onestep_dev.eval.asr import WhisperASR

            word_asr = WhisperASR(asr, keep_silent=True)
        report = measure(name, code_switch_sentences(cs_sentences, "heldout"), word_asr, teacher_voice=teacher, sounds=sounds, progress=False)
        (out / "code_switch.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        mine = report["summary"][f"onestep:{name}"]
        theirs = report["summary"].get(f"kokoro:{teacher}")
        cs = {"english_words_heard": _pct(mine["rate"]), "teacher": _pct(theirs["rate"]) if theirs else None, "words": mine["words"]}
        summary["quality"]["code_switch"] = cs
        summary["gates"]["code_switch"] = (
            None if cs["teacher"] is None else cs["english_words_heard"] >= max(CODE_SWITCH_TARGET, cs["teacher"])
        )
        timings["code_switch"] = round(time.perf_counter() - start, 1)
        log(f"{name}: code-switch {cs['english_words_heard']} % vs teacher {cs['teacher']} %")
    summary["languages"] = [code for code in (lang, other(lang)) if summary["gates"].get(code)]
    summary["seconds"] = timings
    (out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return summary


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "pass" if value else "FAIL"
    return f"{value:g}" if isinstance(value, float) else str(value)


def markdown_table(summaries: Sequence[dict[str, Any]]) -> str:
    """One row per voice: own-language error and OVRL vs teacher, other-language error vs teacher, code-switch."""
    head = ["voice", "lang", "teacher", "own err % (teacher)", "OVRL (teacher)", "gate", "other err % (teacher)",
            "gate", "code-switch % (teacher)", "gate", "passes"]  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in summaries:
        own, cross = s["lang"], other(s["lang"])
        q, g = s["quality"], s["gates"]
        m_own, m_cross = GATE[own][0], CROSS_GATE[cross][0]
        qo, qc, cs = q.get(own, {}), q.get(cross, {}), q.get("code_switch", {})
        lines.append("| " + " | ".join([
            s["voice"], own, s["teacher"] or "–",
            f"{m_own.upper()} {_cell(qo.get(m_own))} ({_cell(qo.get('teacher_' + m_own))})",
            f"{_cell(qo.get('dnsmos_ovrl'))} ({_cell(qo.get('teacher_dnsmos_ovrl'))})", _cell(g.get(own)),
            f"{m_cross.upper()} {_cell(qc.get(m_cross))} ({_cell(qc.get('teacher_' + m_cross))})", _cell(g.get(cross)),
            f"{_cell(cs.get('english_words_heard'))} ({_cell(cs.get('teacher'))})", _cell(g.get("code_switch")),
            ",".join(s["languages"]) or "–",
        ]) + " |")  # fmt: skip
    gates = (
        f"Gates (issue 11): own language WER <= teacher + {GATE['en'][1]} pt / CER <= teacher + {GATE['zh'][1]} pt and "
        f"OVRL >= teacher - {OVRL_SLACK}; other language WER <= teacher + {CROSS_GATE['en'][1]} pt / CER <= teacher + "
        f"{CROSS_GATE['zh'][1]} pt; code-switch >= {CODE_SWITCH_TARGET:g} % and >= teacher."
    )
    return "\n".join(["# Voices against their teachers", "", *lines, "", gates, ""])


def write_pack(pack: Path, summaries: Sequence[dict[str, Any]]) -> int:
    """Store each measured voice's ``quality`` and passed ``languages`` in ``pack/voice.json``; returns how
    many speakers were updated."""
    from onestep.config import VoiceConfig

    path = pack / "voice.json"
    config = VoiceConfig.load(path)
    by_name = {s["voice"]: s for s in summaries}
    speakers, n = [], 0
    for speaker in config.speakers:
        s = by_name.get(speaker.name)
        if s is not None:
            speaker = replace(speaker, quality=s["quality"], languages=tuple(s["languages"]))
            n += 1
        speakers.append(speaker)
    replace(config, speakers=tuple(speakers)).save(path)
    return n


def run(
    entries: Sequence[Any],
    out: Path,
    *,
    log: Callable[[str], None] = print,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """Every voice of ``entries`` (skipping those with a ``summary.json`` in ``out``), then the tables."""
    summaries = []
    for i, entry in enumerate(entries, 1):
        folder = out / entry.name
        done = folder / "summary.json"
        if done.is_file():
            log(f"[{i}/{len(entries)}] {entry.name}: done before, skipped")
            summaries.append(json.loads(done.read_text(encoding="utf-8")))
            continue
        log(f"[{i}/{len(entries)}] {entry.name}")
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        summaries.append(evaluate_voice(entry, folder, log=lambda line: log(f"[{i}/{len(entries)}] {line}"), **kwargs))
        log(f"[{i}/{len(entries)}] {entry.name}: {time.perf_counter() - start:.0f} s")
    out.mkdir(parents=True, exist_ok=True)
    (out / "voices.json").write_text(json.dumps({"voices": summaries}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "voices.md").write_text(markdown_table(summaries), encoding="utf-8")
    return summaries


def put_pack_first(pack: Path) -> None:
    """Make ``pack``'s voices resolve by name first in this process (``$ONESTEP_VOICES``): the per-voice evals
    look voices up by name. The command does this; a caller that must not change the environment does not."""
    os.environ["ONESTEP_VOICES"] = os.pathsep.join(p for p in (str(pack), os.environ.get("ONESTEP_VOICES", "")) if p)


def select_voices(pack: Path | None, names: Sequence[str]) -> list[Any]:
    """The voices to evaluate: ``names`` (or all) among the pack's voices (or all voices found)."""
    from onestep.runtime.voices import VoiceCatalog, VoiceNotFoundError

    catalog = VoiceCatalog([pack] if pack is not None else None)
    entries = [e for e in catalog.entries.values() if pack is None or e.path.resolve() == pack.resolve()]
    if names:
        by_name = {e.name: e for e in entries}
        missing = [n for n in names if n not in by_name]
        if missing:
            raise VoiceNotFoundError(f"not found: {', '.join(missing)}; available: {', '.join(by_name)}")
        entries = [by_name[n] for n in names]
    return entries


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pack", type=Path, help="a voice pack directory (default: every voice found)")
    p.add_argument("--voices", default="", help="comma-separated voice names (default: all of the pack)")
    p.add_argument("--limit", type=int, default=112, help="own-language held-out lines (the gate wants >= 112)")
    p.add_argument("--cross-limit", type=int, default=40, help="other-language lines (0: skip)")
    p.add_argument("--cs-sentences", type=int, default=30, help="code-switched sentences (0: skip)")
    p.add_argument("--asr", choices=("base",), default="base")
    p.add_argument("--no-dnsmos", action="store_true")
    p.add_argument("--no-teacher", action="store_true", help="students only (no Kokoro; gates are not decided)")
    p.add_argument("--write-pack", action="store_true", help="store quality and languages in the pack's voice.json")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if args.pack is not None:
        put_pack_first(args.pack)
    entries = select_voices(args.pack, [v.strip() for v in args.voices.split(",") if v.strip()])
    summaries = run(
        entries, args.out, limit=args.limit, cross_limit=args.cross_limit, cs_sentences=args.cs_sentences,
        asr=args.asr, dnsmos=not args.no_dnsmos, with_teacher=not args.no_teacher,
    )  # fmt: skip
    print(markdown_table(summaries))
    if args.write_pack:
        packs = {e.path for e in entries}
        for pack in packs:
            print(f"{pack / 'voice.json'}: {write_pack(pack, summaries)} voices updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
