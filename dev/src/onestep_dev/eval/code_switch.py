"""Are English words inside Mandarin sentences heard as English? A word-level measure for code-switched speech.

Whisper with the language forced to Mandarin writes short English words of a Chinese sentence as Chinese
characters, even for the teacher (TEACHERS.md), so a sentence-level CER says little about them. Here each English
word is cut out of the sentence's audio by our own word timestamps and recognized on its own with Whisper in
English. The student and the teacher go through the same code: the same frontend utterances
(``TTS.prepare``), timed by :func:`onestep.api.word_timings` (the alignment behind ``Audio.words``) from the
student's predicted frames or the teacher's own per-phoneme durations, cut and judged alike.

The cut (calibrated on plain English sentences, where a good reader's words should be heard; see
docs/EVAL.md "Code-switch measure"):

* Only the part of a written word that is read in English is cut: "117px" is read 一百一十七 + "P X", so the
  clip is the span of "px" alone; a word read entirely in Mandarin ("16GB" -> 十六吉字节) holds no English
  speech and is counted apart (``read_in_mandarin``), not judged.
* :data:`MARGIN_S` of audio is kept on each side of the span: the sound of a word starts a little before its
  timestamp (about 40 ms at a sentence start, measured from the audio's energy), and a cut without margins
  lost half the words.
* Whisper keeps every segment it decodes (``WhisperASR(keep_silent=True)``): its default silence filter
  emptied a third of the answers on one-word clips.

Judging: a word counts as heard when the recognized letters equal the word's letters or those of its spoken
form ("OK" read "okay"; case, spaces and punctuation ignored: "P.P.T." is "PPT"); for words of four or more
letters, when they contain them ("the iPhone"); or when the recognized text is pronounced exactly like the
word by our English frontend (stress ignored): "Cannon" for "Canon", "sequel" for "SQL" (read "sequel"), "K.P.I."
for "KPI" - what a listener cannot tell apart. "Sonny" for "Sony" or "pixels" for "px" (read "P X") is not.

Held-out sentences: :func:`onestep_dev.train.code_switch.code_switch_sentences` with ``split="heldout"`` (English
words the voices never heard inside a Mandarin sentence in training). ``--calibrate`` runs the same cut and
judge on plain English held-out sentences (every word), the measure's own ceiling for a good reader.

    python -m onestep_dev.eval.code_switch --voice zh-xiaoxiao --teacher-voice zf_xiaoxiao --sentences 30 --out DIR
    python -m onestep_dev.eval.code_switch ... --teacher-splice english   # the teacher as the spliced training data
    python -m onestep_dev.eval.code_switch --voice en-heart --teacher-voice af_heart --calibrate --sentences 30 --out DIR
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

MARGIN_S = 0.06  # audio kept on each side of a word's span
_LATIN = re.compile(r"[A-Za-z]")
_NOT_A_SOUND = re.compile(r"[\sˈˌ.,!?;:'\"()\-–—…↗↘↓→]")  # stress, word gaps, punctuation, tones


@dataclass(frozen=True)
class WordSpan:
    """An English word of a synthesized sentence: its text, where its English part sounds (seconds) and what
    is read there; ``english=False`` for a written word read entirely in Mandarin (not judged)."""

    text: str
    start: float
    end: float
    spoken: str = ""
    english: bool = True


@dataclass(frozen=True)
class WordResult:
    """One English word judged: the system, the sentence, the word, what Whisper heard, and the verdict."""

    system: str
    sentence: str
    word: str
    heard: str
    ok: bool


def letters(text: str) -> str:
    """Lower-case letters and digits only."""
    return "".join(ch for ch in text.lower() if ch.isascii() and ch.isalnum())


def heard_as(word: str, heard: str) -> bool:
    """Whether the recognized text is the word: the same letters, or for words of 4+ letters, letters that
    contain them ("the iPhone"); short words and acronyms must come back alone ("I" is not "That's it")."""
    want, got = letters(word), letters(heard)
    return bool(want) and (got == want or (len(want) >= 4 and want in got))


def english_sounds() -> Callable[[str], str]:
    """text -> its sounds by our English frontend, stress, word gaps and punctuation dropped (for judging
    homophones: "Canon" and "Cannon" give the same)."""
    from onestep.frontend.pipeline import Frontend

    frontend = Frontend()

    def sounds(text: str) -> str:
        if not _LATIN.search(text):
            return ""
        return _NOT_A_SOUND.sub("", "".join(u.phonemes for u in frontend.speakable_sentences(text)))

    return sounds


def same_word(span: WordSpan, heard: str, sounds: Callable[[str], str] | None = None) -> bool:
    """The verdict (module docstring): ``heard`` is ``span``'s word by its letters, those of its spoken form,
    or (with ``sounds``) by an identical pronunciation."""
    if heard_as(span.text, heard) or bool(span.spoken and heard_as(span.spoken, heard)):
        return True
    if sounds is None or not letters(heard):
        return False
    got = sounds(heard)
    return bool(got) and got == sounds(span.spoken or span.text)


def english_spans(words: Sequence[Any], tokens: Sequence[Any] | None = None) -> list[WordSpan]:
    """The words (objects with ``text``, ``start``, ``end``, optionally ``spoken``) that hold Latin letters.

    With ``tokens`` (per-token timings of the same audio: ``word_timings`` without text), each word's span is
    narrowed to its tokens read in English (Latin letters in what is read): "117px" read 一百一十 七 px is
    cut as "px"; a word with no such token comes back with ``english=False``.
    """
    out = []
    for w in words:
        if not _LATIN.search(w.text):
            continue
        spoken = getattr(w, "spoken", "") or w.text
        if tokens is None:
            out.append(WordSpan(w.text, w.start, w.end, spoken))
            continue
        inside = [t for t in tokens if t.start >= w.start - 1e-6 and t.end <= w.end + 1e-6]
        latin = [t for t in inside if _LATIN.search(t.text)]
        if not latin:
            out.append(WordSpan(w.text, w.start, w.end, spoken, english=False))
        elif len(latin) == len(inside):
            out.append(WordSpan(w.text, w.start, w.end, spoken))
        else:  # read partly in Mandarin: the English part alone, as written and as read
            part = " ".join(t.text for t in latin)
            out.append(WordSpan(part, latin[0].start, latin[-1].end, part))
    return out


def cut(audio: np.ndarray, sample_rate: int, span: WordSpan, margin: float = MARGIN_S) -> np.ndarray:
    """The samples of ``span`` with ``margin`` seconds on each side (clipped to the audio)."""
    a = max(0, int((span.start - margin) * sample_rate))
    z = min(audio.size, int((span.end + margin) * sample_rate))
    return audio[a:z]


def timed_spans(utterances: Sequence[Any], frames: Sequence[np.ndarray], seconds_per_frame: float, text: str,
                audio: Sequence[np.ndarray] | None = None) -> list[WordSpan]:
    """English word spans of ``text`` spoken as ``utterances`` with ``frames`` per phoneme id each: the API's
    word timestamps (:func:`onestep.api.word_timings`), narrowed to the parts read in English. ``audio``: each
    utterance's samples (frames x hop), with which a word before a pause ends where its sound does, as in
    ``Audio.words``."""
    from onestep.api import word_timings

    words = word_timings(utterances, frames, seconds_per_frame, text, audio=audio)
    return english_spans(words, word_timings(utterances, frames, seconds_per_frame, audio=audio))


def student_words(tts: Any, voice: str, text: str) -> tuple[np.ndarray, int, list[WordSpan]]:
    """Our voice: audio and English word spans from the API's own word timestamps (``Audio.words`` of
    ``tts.synthesize(text, voice)`` and the same audio)."""
    prepared = tts.prepare(text, voice)
    results = [prepared.engine.synthesize(ids, prepared.speed) for ids in prepared.ids]
    audio = np.concatenate([np.asarray(r.audio, dtype=np.float32) for r in results])
    config = prepared.engine.config.audio
    spf = config.hop_length / config.sample_rate
    spans = timed_spans(prepared.utterances, [r.frames_per_id for r in results], spf, text, [r.audio for r in results])
    return audio, int(config.sample_rate), spans


def teacher_words(teacher: Any, style: np.ndarray, utterances: Sequence[Any], text: str,
                  splice: str | None = None) -> tuple[np.ndarray, int, list[WordSpan]]:
    """The teacher on our frontend's ``utterances`` of ``text`` (``TTS.prepare(text).utterances``, the
    student's own): audio and English word spans timed by the teacher's per-phoneme durations, which align
    one to one with our phoneme ids. ``splice``: render utterances of two languages in language runs as the
    training data does (``teacher_data --splice-code-switch``, :mod:`onestep_dev.train.splice`)."""
    from onestep.config import AudioConfig
    from onestep.frontend.symbols import phonemes_to_ids
    from onestep_dev.train.teacher_data import FRAMES_PER_UNIT, render_row

    rate = int(teacher.sample_rate)
    spf = AudioConfig().hop_length / rate  # seconds per frame; one teacher unit = FRAMES_PER_UNIT frames

    def synth(ids: list[int], row_style: np.ndarray, seed: int, **speed: float) -> tuple[np.ndarray, np.ndarray]:
        return teacher.synthesize(ids, row_style, **speed)  # the ONNX teacher is deterministic: no seed

    parts, frames = [], []
    for k, utterance in enumerate(utterances):  # rendered as teacher_data renders a training row
        row = {"id": f"code-switch-{k}", "ids": phonemes_to_ids(utterance.phonemes), "phonemes": utterance.phonemes,
               "segments": [[g.lang, g.phonemes] for g in utterance.segments if g.phonemes]}
        samples, units = render_row(synth, style, row, splice)
        frames.append(np.asarray(units, dtype=np.int64) * FRAMES_PER_UNIT)
        parts.append(np.asarray(samples, dtype=np.float32))
    audio = np.concatenate(parts) if parts else np.zeros(0, np.float32)
    hop = AudioConfig().hop_length  # each part measured at exactly its frames x hop (as teacher_data stores it)
    sizes = [int(f.sum()) * hop for f in frames]
    fitted = [np.pad(a, (0, max(0, n - a.size)))[:n] for a, n in zip(parts, sizes, strict=True)]
    return audio, rate, timed_spans(utterances, frames, spf, text, fitted)


def judge(
    system: str,
    sentence: str,
    audio: np.ndarray,
    sample_rate: int,
    spans: Sequence[WordSpan],
    asr: Any,
    sounds: Callable[[str], str] | None = None,
    margin: float = MARGIN_S,
) -> list[WordResult]:
    """Recognize each English-read word's audio alone, in English, and judge it (:func:`same_word`)."""
    results = []
    for span in spans:
        if not span.english:
            continue
        heard = asr.transcribe(cut(audio, sample_rate, span, margin), sample_rate, "en")
        results.append(WordResult(system, sentence, span.text, heard.strip(), same_word(span, heard, sounds)))
    return results


def summarize(results: Sequence[WordResult]) -> dict[str, dict[str, float]]:
    """Per system: words judged and the share heard as English."""
    out: dict[str, dict[str, float]] = {}
    for system in dict.fromkeys(r.system for r in results):
        mine = [r for r in results if r.system == system]
        out[system] = {"words": len(mine), "heard": sum(r.ok for r in mine), "rate": sum(r.ok for r in mine) / max(len(mine), 1)}
    return out


def measure(
    voice: str,
    sentences: Sequence[str],
    asr: Any,
    *,
    teacher_voice: str | None = None,
    tts: Any = None,
    teacher: Any = None,
    sounds: Callable[[str], str] | None = None,
    margin: float = MARGIN_S,
    progress: bool = True,
    teacher_splice: str | None = None,
) -> dict[str, Any]:
    """Judge the English words of ``sentences`` read by ``voice`` and, when given, by the Kokoro
    ``teacher_voice`` on the same utterances (``teacher_splice``: rendered as spliced training data, see
    :func:`teacher_words`); returns ``{"summary", "read_in_mandarin", "words"}``."""
    from rich.progress import track

    if tts is None:
        from onestep import TTS

        tts = TTS()
    style = None
    if teacher_voice:
        from onestep_dev.teacher import KokoroTeacher, load_kokoro_voice

        teacher = teacher if teacher is not None else KokoroTeacher(threads=1)
        style = load_kokoro_voice(teacher_voice)
    if sounds is None:
        sounds = english_sounds()
    results: list[WordResult] = []
    mandarin: dict[str, list[str]] = {}
    names = (f"onestep:{voice}", f"kokoro:{teacher_voice}" + (f"+splice-{teacher_splice}" if teacher_splice else ""))
    for text in track(sentences, description=f"English words: {voice}", disable=not progress):
        audio, rate, spans = student_words(tts, voice, text)
        runs = [(names[0], audio, rate, spans)]
        if style is not None:
            runs.append((names[1], *teacher_words(teacher, style, tts.prepare(text, voice).utterances, text,
                                                      teacher_splice)))
        for name, audio, rate, spans in runs:
            mandarin.setdefault(name, []).extend(s.text for s in spans if not s.english)
            results += judge(name, text, audio, rate, spans, asr, sounds, margin)
    return {"summary": summarize(results), "read_in_mandarin": mandarin, "words": [asdict(r) for r in results]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--voice", required=True, help="our voice (a name, or a blend)")
    p.add_argument("--teacher-voice", help="Kokoro voice to compare with in the same run (e.g. zf_xiaoxiao)")
    p.add_argument("--sentences", type=int, default=30, help="held-out sentences")
    p.add_argument("--calibrate", action="store_true", help="every word of plain English held-out sentences")
    p.add_argument("--margin", type=float, default=MARGIN_S, help=f"seconds kept each side (default {MARGIN_S})")
    p.add_argument("--asr", choices=("base", "tiny.en"), default="base")
    p.add_argument("--teacher-splice", choices=("runs", "english", "carrier"), default=None,
                   help="render the teacher's two-language sentences as spliced training data (train.splice)")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)

    from onestep_dev.eval.asr import WhisperASR

    if args.calibrate:
        from onestep_dev.eval.heldout import load_heldout, select

        sentences = [s.text for s in select(load_heldout("en"), args.sentences)]
    else:
        from onestep_dev.train.code_switch import code_switch_sentences

        sentences = code_switch_sentences(args.sentences, "heldout")
    asr = WhisperASR(args.asr, keep_silent=True)
    report = measure(args.voice, sentences, asr, teacher_voice=args.teacher_voice, margin=args.margin,
                     teacher_splice=args.teacher_splice)
    report["settings"] = {"sentences": len(sentences), "calibrate": args.calibrate, "margin": args.margin,
                          "asr": asr.name, "teacher_splice": args.teacher_splice}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "code_switch.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for system, s in report["summary"].items():
        extra = len(report["read_in_mandarin"].get(system, []))
        note = f"; {extra} read in Mandarin, not judged" if extra else ""
        print(f"{system}: {s['heard']}/{s['words']} English words heard as English ({100 * s['rate']:.1f} %){note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
