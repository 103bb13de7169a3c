"""``onestep eval``: synthesize held-out sentences with each system, transcribe, score, write the results.

Per sentence and system: synthesis wall time and real-time factor, the ASR transcript, unit errors against the
reference (WER for English, Spanish, French, Italian, Portuguese; CER for Mandarin, Japanese, Hindi; see
:mod:`onestep_dev.eval.textnorm`), and DNSMOS. Aggregates per system: corpus-level error rate (all errors / all
reference units), the same per held-out section, mean DNSMOS, RTF (total synthesis time / total audio time, after
one untimed warm-up call).

Agreement (issue 21's measure for Hindi, which Whisper base cannot transcribe faithfully): for every pair of
systems, the error rate of one system's transcript against the other's on the same sentences. A student that
agrees with its own teacher at least as well as two different teacher voices agree with each other says what the
teacher says, as far as the recognizer can tell.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from onestep_dev.eval.asr import ASR_MODELS, Transcriber
from onestep_dev.eval.dnsmos import QualityScorer
from onestep_dev.eval.heldout import Sentence
from onestep.errors import UserError
from onestep_dev.eval.metrics import ErrorCounts, error_counts, total
from onestep_dev.eval.systems import Phonemizer, System
from onestep_dev.eval.textnorm import EVAL_LANGS, Lang, metric_name, normalize

DEFAULT_TEACHER_VOICE: dict[str, str] = {
    "en": "af_heart", "zh": "zm_yunxi", "ja": "jf_alpha", "es": "ef_dora", "fr": "ff_siwis", "it": "if_sara",
    "pt": "pf_dora", "hi": "hf_alpha",
}  # fmt: skip
"""Kokoro voice compared when neither the student's ``voice.json`` nor the caller names one (and used by the Kokoro
peer); zh: best CER/DNSMOS of the 8 (docs/EVAL.md); the others: the language's first Kokoro pack."""
KOKORO_PREFIX_LANG: dict[str, str] = {
    "a": "en", "b": "en", "z": "zh", "j": "ja", "e": "es", "f": "fr", "i": "it", "p": "pt", "h": "hi",
}  # fmt: skip
"""A Kokoro voice's language by the first letter of its name (``ef_dora`` -> Spanish)."""


def warmup_text(lang: str) -> str:
    """A short text of ``lang`` (the registry's warm-up text) synthesized once, untimed, before the run."""
    from onestep.languages import get_language

    return get_language(lang).warm_up_text


class EvalError(UserError, ValueError):
    """An evaluation setting is invalid; the message names it."""


@dataclass(frozen=True)
class EvalConfig:
    """What to evaluate.

    Attributes:
        lang: held-out set and scoring language, one of :data:`~onestep_dev.eval.textnorm.EVAL_LANGS`; the text is
            read in this language by every system (the request's language).
        voice: our voice (name or directory); None evaluates the teacher voices only.
        voices_dir: a folder searched for ``voice`` before the package's voices (e.g. a candidate voice pack).
        teacher_voices: Kokoro voices to run side by side (empty: none).
        limit: evaluate at most this many sentences (spread over the set); None = all.
        asr: ``"base"`` (multilingual) or ``"tiny.en"``.
        dnsmos: also score DNSMOS.
        teacher_threads: ONNX Runtime threads of the teacher.
        student_threads: ONNX Runtime threads per graph of our voice (None: the API's default).
        save_audio: write every clip as ``audio/<system>/<id>.wav``.
    """

    lang: Lang
    voice: str | None = None
    voices_dir: str | None = None
    teacher_voices: tuple[str, ...] = ()
    limit: int | None = None
    asr: str = "base"
    dnsmos: bool = True
    teacher_threads: int = 1
    student_threads: int | None = None
    save_audio: bool = False

    def __post_init__(self) -> None:
        if self.lang not in EVAL_LANGS:
            raise EvalError(f"lang must be one of {', '.join(EVAL_LANGS)}, got {self.lang!r}")
        if self.asr not in ASR_MODELS:
            raise EvalError(f"asr must be one of {', '.join(ASR_MODELS)}, got {self.asr!r}")
        if self.asr.endswith(".en") and self.lang != "en":
            raise EvalError(f"ASR model {self.asr} is English-only; use --asr base for {self.lang!r}")
        if self.limit is not None and self.limit < 1:
            raise EvalError(f"limit must be >= 1, got {self.limit}")
        if self.voice is None and not self.teacher_voices:
            raise EvalError("nothing to evaluate: give a voice and/or teacher voices")
        if self.teacher_threads < 1:
            raise EvalError(f"teacher_threads must be >= 1, got {self.teacher_threads}")


@dataclass
class _Track:
    """Running per-system record."""

    kind: str
    counts: list[ErrorCounts] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    synth_s: float = 0.0
    audio_s: float = 0.0
    quality: list[dict[str, float]] = field(default_factory=list)
    failures: int = 0


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def _mean(values: Sequence[float]) -> float | None:
    finite = [v for v in values if not math.isnan(v)]
    return float(np.mean(finite)) if finite else None


def _summary(track: _Track) -> dict[str, Any]:
    overall = total(track.counts)
    by_section: dict[str, float] = {}
    for section in dict.fromkeys(track.sections):
        by_section[section] = total([c for c, s in zip(track.counts, track.sections, strict=True) if s == section]).rate
    n = len(track.counts)
    return {
        "kind": track.kind,
        "sentences": n,
        "failures": track.failures,
        "error_rate": overall.rate if n else None,
        "errors": overall.to_dict(),
        "mean_sentence_rate": float(np.mean([c.rate for c in track.counts])) if n else None,
        "by_section": by_section,
        "dnsmos": {k: _mean([q[k] for q in track.quality]) for k in ("sig", "bak", "ovrl", "p808")}
        if track.quality
        else None,
        "rtf": track.synth_s / track.audio_s if track.audio_s else None,
        "mean_synth_s": track.synth_s / n if n else None,
        "audio_s": track.audio_s,
    }


def run_eval(
    sentences: Sequence[Sentence],
    systems: Sequence[System],
    transcriber: Transcriber,
    lang: Lang,
    out_dir: str | Path,
    *,
    quality: QualityScorer | None = None,
    save_audio: bool = False,
    progress: bool = True,
    meta: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Evaluate ``systems`` on ``sentences`` and write ``results.json`` and ``results.md`` into ``out_dir``.

    A system that raises on a sentence is recorded (``error`` field, ``failures`` count) and skipped in the
    aggregates; the run goes on.

    Returns:
        the results dictionary written to ``results.json``.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tracks = {s.name: _Track(s.kind) for s in systems}
    rows: list[dict[str, Any]] = []
    for system in systems:
        system.synthesize(warmup_text(lang))
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, disable=not progress) as bar:
        task = bar.add_task("eval", total=len(sentences) * len(systems))
        for sentence in sentences:
            row: dict[str, Any] = {**asdict(sentence), "reference": normalize(sentence.text, lang), "systems": {}}
            for system in systems:
                bar.update(task, description=f"{system.name} {sentence.id}")
                row["systems"][system.name] = _score_one(
                    system, sentence, transcriber, quality, lang, tracks[system.name], out if save_audio else None
                )
                bar.advance(task)
            rows.append(row)
    results = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "lang": lang,
        "metric": metric_name(lang),
        "asr": transcriber.name,
        "meta": meta or {},
        "systems": {name: _summary(track) for name, track in tracks.items()},
        "agreement": agreement(rows, [s.name for s in systems], lang),
        "sentences": rows,
    }
    (out / "results.json").write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    from onestep_dev.eval.report import markdown_report

    (out / "results.md").write_text(markdown_report(results), encoding="utf-8")
    return results


def _score_one(
    system: System,
    sentence: Sentence,
    transcriber: Transcriber,
    quality: QualityScorer | None,
    lang: Lang,
    track: _Track,
    audio_dir: Path | None,
) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        result = system.synthesize(sentence.text)
    except Exception as e:  # noqa: BLE001 - a failing sentence is a finding, not a crash
        track.failures += 1
        return {"error": f"{type(e).__name__}: {e}"}
    synth_s = time.perf_counter() - start
    audio_s = result.audio.size / result.sample_rate
    hypothesis = transcriber.transcribe(result.audio, result.sample_rate, lang) if result.audio.size else ""
    counts = error_counts(sentence.text, hypothesis, lang)
    track.counts.append(counts)
    track.sections.append(sentence.section)
    track.synth_s += synth_s
    track.audio_s += audio_s
    entry: dict[str, Any] = {
        "phonemes": result.phonemes,
        "audio_s": round(audio_s, 4),
        "synth_s": round(synth_s, 4),
        "rtf": round(synth_s / audio_s, 4) if audio_s else None,
        "asr": hypothesis,
        "hypothesis": normalize(hypothesis, lang),
        "errors": counts.to_dict(),
    }
    if quality is not None and result.audio.size:
        q = quality.score(result.audio, result.sample_rate).to_dict()
        track.quality.append(q)
        entry["dnsmos"] = {k: round(v, 4) for k, v in q.items()}
    if audio_dir is not None:
        import soundfile

        path = audio_dir / "audio" / _safe(system.name) / f"{sentence.id}.wav"
        path.parent.mkdir(parents=True, exist_ok=True)
        soundfile.write(str(path), result.audio, result.sample_rate, subtype="PCM_16")
    return entry


def agreement(rows: Sequence[dict[str, Any]], names: Sequence[str], lang: Lang) -> list[dict[str, Any]]:
    """For every ordered pair of different systems (A, B): B's transcripts scored against A's as the reference,
    over the sentences both transcribed (``rows`` as in ``results.json``).

    Returns:
        ``[{"reference": A, "hypothesis": B, "sentences": n, "rate": errors / A's units, "errors": {...}}]``.
    """
    out: list[dict[str, Any]] = []
    for a in names:
        for b in names:
            if a == b:
                continue
            counts = [
                error_counts(row["systems"][a]["asr"], row["systems"][b]["asr"], lang)
                for row in rows
                if "asr" in row["systems"].get(a, {}) and "asr" in row["systems"].get(b, {})
            ]
            overall = total(counts)
            out.append({
                "reference": a, "hypothesis": b, "sentences": len(counts),
                "rate": overall.rate if counts else None, "errors": overall.to_dict(),
            })  # fmt: skip
    return out


def resolve_lang(voice: str | None, teacher_voices: Sequence[str], voices_dir: str | None = None) -> Lang:
    """The evaluation language implied by our voice's ``voice.json``, else by the first Kokoro voice's name
    (:data:`KOKORO_PREFIX_LANG`: ``zm_yunxi`` -> Mandarin, ``ef_dora`` -> Spanish)."""
    if voice is not None:
        from onestep_dev.eval.systems import student_language

        lang = student_language(voice, voices_dir)
    elif teacher_voices:
        lang = KOKORO_PREFIX_LANG.get(Path(teacher_voices[0]).stem[:1], "en")
    else:
        raise EvalError("nothing to evaluate: give a voice and/or teacher voices")
    return lang if lang in EVAL_LANGS else "en"  # type: ignore[return-value]


def default_teachers(voice: str | None, lang: Lang, voices_dir: str | None = None) -> tuple[str, ...]:
    """The Kokoro voices compared when none is named: the student's own teacher (``voice.json``), else the
    language's default (:data:`DEFAULT_TEACHER_VOICE`)."""
    if voice is not None:
        from onestep_dev.eval.systems import student_teacher

        own = student_teacher(voice, voices_dir)
        if own:
            return (own,)
    return (DEFAULT_TEACHER_VOICE[lang],)


def evaluate(
    config: EvalConfig,
    out_dir: str | Path,
    *,
    phonemize: Phonemizer | None = None,
    transcriber: Transcriber | None = None,
    quality: QualityScorer | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Build the systems and scorers ``config`` asks for and run :func:`run_eval` on the held-out set.

    Args:
        phonemize: the teacher's phonemizer (default: our frontend).
        transcriber, quality: replace the Whisper / DNSMOS scorers (tests use fakes).
    """
    from onestep_dev.eval.heldout import load_heldout, select
    from onestep_dev.eval.systems import StudentSystem, TeacherSystem

    systems: list[System] = []
    if config.voice is not None:
        # a voice may be evaluated on the other language's held-out set too (a multi-speaker model's voices read
        # both languages: issue 11's cross-language measure)
        systems.append(
            StudentSystem(config.voice, config.student_threads, language=config.lang, voices_dir=config.voices_dir)
        )
    if config.teacher_voices:
        from onestep_dev.eval.systems import frontend_phonemizer
        from onestep_dev.teacher import KokoroTeacher

        teacher = KokoroTeacher(threads=config.teacher_threads)
        phonemize = phonemize or frontend_phonemizer(config.lang)
        systems += [TeacherSystem(v, phonemize, teacher) for v in config.teacher_voices]
    if transcriber is None:
        from onestep_dev.eval.asr import WhisperASR

        transcriber = WhisperASR(config.asr)
    if quality is None and config.dnsmos:
        from onestep_dev.eval.dnsmos import DNSMOS

        quality = DNSMOS()
    sentences = select(load_heldout(config.lang), config.limit)
    return run_eval(
        sentences,
        systems,
        transcriber,
        config.lang,
        out_dir,
        quality=quality,
        save_audio=config.save_audio,
        progress=progress,
        meta=asdict(config),
    )
