"""Issue 21's per-voice gate, read from ``onestep eval`` results (``results.json``).

* Languages Whisper base can judge (en, zh, ja, es, fr, it, pt): the student's WER/CER at most the teacher's plus
  ``max_rate_gap`` (2 points), and its DNSMOS OVRL at least the teacher's minus ``max_ovrl_drop`` (0.10).
* Hindi (agreement): the error rate of the student's transcripts against its own teacher's at most that of a
  second teacher voice's transcripts against the same teacher's (both from the run's ``agreement`` list), plus the
  same DNSMOS rule.

    python -m onestep_dev.eval.gate runs/es-dora/results.json runs/hi-alpha/results.json   # one row per student
    python -m onestep_dev.eval.gate --write-pack src/onestep/voices/multispeaker --measured "20 held-out ..." runs/*/results.json

``--write-pack PACK`` also stores each row in the pack's ``voice.json``: the speaker's ``quality[lang]`` (lines, its
and its teacher's OVRL, WER/CER or the agreement figures, in percent) and ``lang`` in its ``languages`` exactly when
the gate passed (what ``onestep voices`` shows); ``--measured`` replaces ``extra["measured"]`` (how and when).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

MAX_RATE_GAP = 0.02
MAX_OVRL_DROP = 0.10
AGREEMENT_LANGS = frozenset({"hi"})
"""Languages judged by agreement with the teacher instead of against the reference text."""


@dataclass(frozen=True)
class GateRow:
    """One student voice against its teacher.

    Attributes:
        student, teacher: system names (``onestep:es-dora``, ``kokoro:ef_dora``).
        lang, metric: the held-out language and its unit (``"WER"``/``"CER"``).
        sentences: sentences the student was scored on.
        student_rate, teacher_rate: error rates against the reference text (fractions).
        student_ovrl, teacher_ovrl: mean DNSMOS OVRL (1-5), None without DNSMOS.
        agreement, teacher_agreement: for an agreement language, the student's transcripts against its teacher's,
            and a second teacher's against the same teacher's (fractions); None otherwise.
        passed: every rule held.
        reasons: the rules that failed, in words.
    """

    student: str
    teacher: str
    lang: str
    metric: str
    sentences: int
    student_rate: float | None
    teacher_rate: float | None
    student_ovrl: float | None
    teacher_ovrl: float | None
    agreement: float | None
    teacher_agreement: float | None
    passed: bool
    reasons: tuple[str, ...]


def _pair_rate(results: dict[str, Any], reference: str, hypothesis: str) -> float | None:
    """The error rate of ``hypothesis``'s transcripts against ``reference``'s (``results["agreement"]``)."""
    for pair in results.get("agreement", []):
        if (pair["reference"], pair["hypothesis"]) == (reference, hypothesis):
            return pair["rate"]
    return None


def gate(
    results: dict[str, Any],
    student: str | None = None,
    teacher: str | None = None,
    *,
    max_rate_gap: float = MAX_RATE_GAP,
    max_ovrl_drop: float = MAX_OVRL_DROP,
) -> GateRow:
    """Judge ``student`` against ``teacher`` in one run's ``results``.

    Args:
        student, teacher: system names; None: the run's first student / first teacher.
    Raises:
        ValueError: the run has no such student or teacher, or (agreement language) no second teacher.
    """
    systems: dict[str, dict[str, Any]] = results["systems"]
    students = [n for n, s in systems.items() if s["kind"] == "student"]
    teachers = [n for n, s in systems.items() if s["kind"] == "teacher"]
    student = student or (students[0] if students else None)
    teacher = teacher or (teachers[0] if teachers else None)
    if student not in systems or teacher not in systems:
        raise ValueError(f"results need a student and a teacher system; have {', '.join(systems)}")
    s, t = systems[student], systems[teacher]
    s_ovrl = (s.get("dnsmos") or {}).get("ovrl")
    t_ovrl = (t.get("dnsmos") or {}).get("ovrl")
    reasons: list[str] = []
    agreement = teacher_agreement = None
    lang = results["lang"]
    if lang in AGREEMENT_LANGS:
        others = [n for n in teachers if n != teacher]
        if not others:
            raise ValueError(f"{lang}: agreement needs a second teacher voice in the run besides {teacher}")
        agreement = _pair_rate(results, teacher, student)
        teacher_agreement = _pair_rate(results, teacher, others[0])
        if agreement is None or teacher_agreement is None or agreement > teacher_agreement:
            reasons.append(
                f"{results['metric']} against {teacher}'s transcripts {_pct(agreement)} > {others[0]}'s "
                f"{_pct(teacher_agreement)}"
            )
    elif s["error_rate"] is None or t["error_rate"] is None or s["error_rate"] > t["error_rate"] + max_rate_gap:
        reasons.append(
            f"{results['metric']} {_pct(s['error_rate'])} > teacher {_pct(t['error_rate'])} + {100 * max_rate_gap:g} pt"
        )
    if s_ovrl is None or t_ovrl is None or s_ovrl < t_ovrl - max_ovrl_drop:
        reasons.append(f"OVRL {_mos(s_ovrl)} < teacher {_mos(t_ovrl)} - {max_ovrl_drop:g}")
    if s["failures"]:
        reasons.append(f"{s['failures']} sentences failed")
    return GateRow(
        student, teacher, lang, results["metric"], s["sentences"], s["error_rate"], t["error_rate"], s_ovrl, t_ovrl,
        agreement, teacher_agreement, not reasons, tuple(reasons),
    )  # fmt: skip


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _mos(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def markdown_table(rows: list[GateRow]) -> str:
    """One Markdown row per student: its rates, OVRL and pass/fail (agreement rates for Hindi)."""
    lines = [
        "| voice | lang | lines | student WER/CER | teacher WER/CER | student OVRL | teacher OVRL | agreement (student / "
        "teacher pair) | gate |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        agree = "" if r.agreement is None else f"{_pct(r.agreement)} / {_pct(r.teacher_agreement)}"
        lines.append(
            f"| {r.student} ({r.teacher}) | {r.lang} | {r.sentences} | {r.metric} {_pct(r.student_rate)} | "
            f"{_pct(r.teacher_rate)} | {_mos(r.student_ovrl)} | {_mos(r.teacher_ovrl)} | {agree} | "
            f"{'pass' if r.passed else 'FAIL: ' + '; '.join(r.reasons)} |"
        )
    return "\n".join(lines) + "\n"


def _round(rate: float | None) -> float | None:
    return None if rate is None else round(100 * rate, 1)


def quality_entry(row: GateRow) -> dict[str, Any]:
    """``voice.json``'s ``quality[lang]`` of one measured voice (rates in percent, OVRL to two decimals)."""
    entry: dict[str, Any] = {"lines": row.sentences}
    for key, value in (("dnsmos_ovrl", row.student_ovrl), ("teacher_dnsmos_ovrl", row.teacher_ovrl)):
        if value is not None:
            entry[key] = round(value, 2)
    if row.agreement is not None:
        entry.update(agreement_cer=_round(row.agreement), teacher_pair_cer=_round(row.teacher_agreement))
    else:
        unit = row.metric.lower()
        entry.update({unit: _round(row.student_rate), f"teacher_{unit}": _round(row.teacher_rate)})
    return entry


def write_pack(pack: Path, rows: list[GateRow], measured: str | None = None) -> int:
    """Store each row's figures and verdict in ``pack``'s ``voice.json`` speakers (see the module docstring);
    returns the number of speakers written. A row whose voice the pack does not have raises ``ValueError``."""
    from onestep.config import VoiceConfig

    path = pack / "voice.json"
    config = VoiceConfig.load(path)
    by_name = {s.name: s for s in config.speakers}
    for row in rows:
        name = row.student.split(":", 1)[-1]
        if name not in by_name:
            raise ValueError(f"{pack} has no voice {name!r} (measured as {row.student})")
        speaker = by_name[name]
        languages = [c for c in speaker.languages if c != row.lang] + ([row.lang] if row.passed else [])
        by_name[name] = replace(
            speaker, quality={**speaker.quality, row.lang: quality_entry(row)}, languages=tuple(languages)
        )
    extra = config.extra if measured is None else {**config.extra, "measured": measured}
    replace(config, speakers=tuple(by_name[s.name] for s in config.speakers), extra=extra).save(path)
    return len({row.student for row in rows})


def main(argv: list[str] | None = None) -> int:
    doc = (__doc__ or "").split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m onestep_dev.eval.gate", description=doc)
    parser.add_argument("results", nargs="+", type=Path, help="results.json files of onestep eval runs")
    parser.add_argument("--write-pack", type=Path, metavar="PACK", help="store figures and verdicts in PACK/voice.json")
    parser.add_argument("--measured", help="with --write-pack: voice.json's extra.measured (how and when)")
    args = parser.parse_args(argv)
    rows = [gate(json.loads(path.read_text(encoding="utf-8"))) for path in args.results]
    print(markdown_table(rows), end="")
    if args.write_pack is not None:
        n = write_pack(args.write_pack, rows, args.measured)
        print(f"wrote {n} voices' quality to {args.write_pack / 'voice.json'}; {sum(r.passed for r in rows)} pass")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
