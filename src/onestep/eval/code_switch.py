"""Are English words inside Mandarin sentences heard as English? A word-level measure for code-switched speech.

Whisper with the language forced to Mandarin writes short English words of a Chinese sentence as Chinese
characters, even for the teacher (TEACHERS.md), so a sentence-level CER says little about them. Here each English
word is cut out of the sentence's audio by its word timestamps (ours for the student; for the teacher, the same
frontend words timed by the teacher's own per-phoneme durations, which align one to one with our phonemes) and
recognized on its own with Whisper in English. Words are as written in the input (the API's word timestamps
map a spelled acronym "K P I" back to "KPI"). A word counts as heard when the recognized letters equal the
word's letters, or those of its spoken form ("OK" read "okay"; case, spaces and punctuation ignored: "P.P.T."
is "PPT"), or for words of four or more letters contain them. Whisper on a word's own clip is a harsh judge
(it hallucinates on short clips); it judges the teacher alike, which is the comparison that counts.

Held-out sentences: :func:`onestep.train.code_switch.code_switch_sentences` with ``split="heldout"`` (English
words the voices never heard inside a Mandarin sentence in training).

    python -m onestep.eval.code_switch --voice zh-xiaoxiao --teacher-voice zf_xiaoxiao --sentences 30 --out DIR
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

MARGIN_S = 0.06  # audio kept on each side of a word's span
_LATIN = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class WordSpan:
    """An English word of a synthesized sentence: its text and where it sounds, seconds."""

    text: str
    start: float
    end: float
    spoken: str = ""


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


def english_spans(words: Sequence[object]) -> list[WordSpan]:
    """The words (objects with ``text``, ``start``, ``end``) that hold Latin letters."""
    return [
        WordSpan(w.text, w.start, w.end, getattr(w, "spoken", "")) for w in words if _LATIN.search(w.text)  # type: ignore[attr-defined]
    ]


def cut(audio: np.ndarray, sample_rate: int, span: WordSpan) -> np.ndarray:
    """The samples of ``span`` with :data:`MARGIN_S` on each side."""
    a = max(0, int((span.start - MARGIN_S) * sample_rate))
    z = min(audio.size, int((span.end + MARGIN_S) * sample_rate))
    return audio[a:z]


def student_words(tts: object, voice: str, text: str) -> tuple[np.ndarray, int, list[WordSpan]]:
    """Our voice: audio and English word spans from the API's own word timestamps."""
    audio = tts.synthesize(text, voice=voice)  # type: ignore[attr-defined]
    return np.asarray(audio.samples, dtype=np.float32), int(audio.sample_rate), english_spans(audio.words)


def teacher_words(teacher: object, style: np.ndarray, frontend: object, text: str) -> tuple[np.ndarray, int, list[WordSpan]]:
    """The teacher on our frontend's phonemes: audio and English word spans timed by its own durations."""
    from onestep.api import _word_timings
    from onestep.config import AudioConfig
    from onestep.frontend.offsets import OffsetAligner
    from onestep.frontend.symbols import phonemes_to_ids
    from onestep.teacher import style_for
    from onestep.train.teacher_data import FRAMES_PER_UNIT

    rate = int(teacher.sample_rate)  # type: ignore[attr-defined]
    spf = AudioConfig().hop_length / rate  # seconds per frame; one teacher unit = FRAMES_PER_UNIT frames
    aligner = OffsetAligner(text)  # words as written ("KPI", not its spelled letters), as the API reports them
    parts, spans, offset = [], [], 0.0
    for utterance in frontend.speakable_sentences(text):  # type: ignore[attr-defined]
        ids = phonemes_to_ids(utterance.phonemes)
        samples, units = teacher.synthesize(ids, style_for(style, ids))  # type: ignore[attr-defined]
        counts = np.asarray(units, dtype=np.int64) * FRAMES_PER_UNIT
        tokens = [t for segment in utterance.segments for t in segment.tokens]
        spans += english_spans(_word_timings(utterance.phonemes, tokens, counts, spf, offset, aligner))
        parts.append(np.asarray(samples, dtype=np.float32))
        offset += parts[-1].size / rate
    return np.concatenate(parts) if parts else np.zeros(0, np.float32), rate, spans


def judge(system: str, sentence: str, audio: np.ndarray, sample_rate: int, spans: Sequence[WordSpan], asr: object) -> list[WordResult]:
    """Recognize each English word's audio alone, in English."""
    results = []
    for span in spans:
        heard = asr.transcribe(cut(audio, sample_rate, span), sample_rate, "en")  # type: ignore[attr-defined]
        ok = heard_as(span.text, heard) or bool(span.spoken and heard_as(span.spoken, heard))  # "OK" read "okay"
        results.append(WordResult(system, sentence, span.text, heard.strip(), ok))
    return results


def summarize(results: Sequence[WordResult]) -> dict[str, dict[str, float]]:
    """Per system: words judged and the share heard as English."""
    out: dict[str, dict[str, float]] = {}
    for system in dict.fromkeys(r.system for r in results):
        mine = [r for r in results if r.system == system]
        out[system] = {"words": len(mine), "heard": sum(r.ok for r in mine), "rate": sum(r.ok for r in mine) / max(len(mine), 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--voice", required=True, help="our voice (a name, or a blend)")
    p.add_argument("--teacher-voice", help="Kokoro voice to compare with in the same run (e.g. zf_xiaoxiao)")
    p.add_argument("--sentences", type=int, default=30, help="held-out code-switched sentences")
    p.add_argument("--asr", choices=("base", "tiny.en"), default="base")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)

    from rich.progress import track

    from onestep import TTS
    from onestep.eval.asr import WhisperASR
    from onestep.train.code_switch import code_switch_sentences

    sentences = code_switch_sentences(args.sentences, "heldout")
    asr = WhisperASR(args.asr)
    tts = TTS()
    results: list[WordResult] = []
    teacher = style = frontend = None
    if args.teacher_voice:
        from onestep.teacher import KokoroTeacher, load_kokoro_voice

        teacher, style, frontend = KokoroTeacher(threads=1), load_kokoro_voice(args.teacher_voice), tts.frontend()
    for text in track(sentences, description="code-switched sentences"):
        results += judge(f"onestep:{args.voice}", text, *student_words(tts, args.voice, text), asr)
        if teacher is not None:
            results += judge(f"kokoro:{args.teacher_voice}", text, *teacher_words(teacher, style, frontend, text), asr)
    summary = summarize(results)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "code_switch.json").write_text(
        json.dumps({"summary": summary, "words": [asdict(r) for r in results]}, ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
    for system, s in summary.items():
        print(f"{system}: {s['heard']}/{s['words']} English words heard as English ({100 * s['rate']:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
