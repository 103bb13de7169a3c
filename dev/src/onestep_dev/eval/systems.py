"""The speech systems an evaluation compares: our student voice (``onestep.TTS``) and the Kokoro teacher.

Both are driven by text. The teacher is fed the phonemes of OUR frontend (sentence pieces of
``Frontend.sentences``), so it shows what the student could reach with the same input; each piece gets the voice
pack's style row for its length and the pieces' audio is concatenated, as the student does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from onestep.frontend.symbols import phonemes_to_ids

if TYPE_CHECKING:  # pragma: no cover
    from onestep.runtime.voices import VoiceEntry
    from onestep_dev.teacher import KokoroTeacher

_KOKORO_NAME = re.compile(r"[a-z][fm]_[a-z0-9]+")
Phonemizer = Callable[[str], list[str]]
"""text -> phoneme strings, one per piece to synthesize (each <= 510 inventory symbols)."""


@dataclass
class Synthesis:
    """One synthesized text: float32 ``audio`` [N] at ``sample_rate`` Hz, and the ``phonemes`` spoken."""

    audio: np.ndarray
    sample_rate: int
    phonemes: str = ""


class System(Protocol):
    """A text-to-speech system under evaluation."""

    name: str
    kind: str  # "student" or "teacher"

    def synthesize(self, text: str) -> Synthesis:
        """Speak ``text``."""
        ...


def frontend_phonemizer(language: str | None = None) -> Phonemizer:
    """Our frontend's phonemes: one string per piece of ``Frontend.sentences`` (the student's own split).

    Args:
        language: the requested language (a registry code): Latin-script text is read in it, Han characters in
            Japanese when it is ``"ja"`` (as for a student voice of that language). None: by the letters.
    """
    from onestep.frontend.pipeline import Frontend

    frontend = Frontend()

    def phonemize(text: str) -> list[str]:
        return [u.phonemes for u in frontend.speakable_sentences(text, language=language)]

    return phonemize


def student_voice(voice: str | os.PathLike[str]) -> str | Path:
    """A voice argument as the API takes it: a path (has a separator or is a directory) or a voice name."""
    text = os.fspath(voice)
    return Path(text) if ("/" in text or os.sep in text or Path(text).is_dir()) else text


def _student_entry(voice: str | os.PathLike[str], voices_dir: str | os.PathLike[str] | None = None) -> VoiceEntry:
    from onestep.runtime.voices import VoiceCatalog, load_voice_dir

    arg = student_voice(voice)
    return load_voice_dir(arg) if isinstance(arg, Path) else VoiceCatalog(voices_dir).get(arg)


def student_language(voice: str | os.PathLike[str], voices_dir: str | os.PathLike[str] | None = None) -> str:
    """The native language (a registry code) of our voice, read from its ``voice.json`` without loading graphs."""
    return _student_entry(voice, voices_dir).config.language


def student_teacher(voice: str | os.PathLike[str], voices_dir: str | os.PathLike[str] | None = None) -> str | None:
    """The Kokoro voice our voice was distilled from (``"af_heart"`` from ``kokoro-82m-v1.0/af_heart``), or None
    when its ``voice.json`` names no Kokoro voice pack. A blend or a seeded voice (``seed:1234:female``) has the
    same blend of its voices' teachers (``"af_bella:0.2+af_heart:0.8"``,
    :func:`onestep_dev.teacher.voices.kokoro_blend`), or None when one of them has none."""
    from onestep.runtime.voices import VoiceCatalog, VoiceSpec, is_seed, parse_voice

    arg = student_voice(voice)
    if isinstance(arg, str) and (is_seed(arg) or "+" in arg):
        spec = VoiceCatalog(voices_dir).seeded(arg)[1] if is_seed(arg) else parse_voice(arg)
        found = [(student_teacher(name, voices_dir), weight) for name, weight in spec.components]
        teachers = tuple((t, w) for t, w in found if t is not None)
        return VoiceSpec(teachers).name if len(teachers) == len(found) else None  # one voice: its plain name
    name = _student_entry(voice, voices_dir).config.teacher.rsplit("/", 1)[-1]
    return name if _KOKORO_NAME.fullmatch(name) else None


class StudentSystem:
    """A OneStep voice through the public API (``onestep.TTS``).

    Args:
        voice: a voice name, or a directory holding ``voice.json`` and the ONNX graphs.
        threads: ONNX Runtime threads per graph (None: the API's default).
        language: the language the text is read in (a registry code), as a request's ``language`` would ask;
            None: the voice's native language (``voice.json``), as the API does.
        voices_dir: a folder searched for ``voice`` before the package's voices (a candidate voice pack).
    """

    kind = "student"

    def __init__(
        self,
        voice: str | os.PathLike[str],
        threads: int | None = None,
        language: str | None = None,
        voices_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        from onestep import TTS

        arg = student_voice(voice)
        self.tts = TTS(voice=arg, threads=threads, voices_dir=voices_dir)
        self.name = f"onestep:{arg.name if isinstance(arg, Path) else arg}"
        self.language = language or student_language(voice, voices_dir)

    def _sentences(self, text: str, max_ids: int, _voice_language: str) -> list:
        return list(self.tts.frontend().speakable_sentences(text, max_ids, None, self.language))

    def synthesize(self, text: str) -> Synthesis:
        prepared = self.tts.prepare(text, sentences=self._sentences)
        audio = self.tts.render([prepared])[0]
        return Synthesis(np.asarray(audio.samples, dtype=np.float32), int(audio.sample_rate), audio.phonemes)


class TeacherSystem:
    """Kokoro (int8 ONNX) with one voice pack.

    Args:
        voice: Kokoro voice name (``af_heart``) or ``.pt`` path.
        phonemize: text -> phoneme pieces (default: our frontend).
        teacher: a shared :class:`~onestep_dev.teacher.KokoroTeacher` (one is built when None).
        threads: ONNX Runtime threads when a teacher is built here.
    """

    kind = "teacher"

    def __init__(
        self, voice: str, phonemize: Phonemizer | None = None, teacher: KokoroTeacher | None = None, threads: int = 1
    ) -> None:
        from onestep_dev.teacher import KokoroTeacher, load_kokoro_voice

        self.voice = load_kokoro_voice(voice)
        self.name = f"kokoro:{voice if '+' in voice else Path(voice).stem}"  # a blend's weights have dots
        self.phonemize = phonemize or frontend_phonemizer()
        self.teacher = teacher if teacher is not None else KokoroTeacher(threads=threads)

    def synthesize(self, text: str) -> Synthesis:
        from onestep_dev.teacher import style_for

        pieces = [p for p in self.phonemize(text) if phonemes_to_ids(p, pad=False)]
        audio = [np.zeros(0, np.float32)]
        for phonemes in pieces:
            ids = phonemes_to_ids(phonemes)
            samples, _ = self.teacher.synthesize(ids, style_for(self.voice, ids))
            audio.append(samples)
        return Synthesis(np.concatenate(audio), self.teacher.sample_rate, " ".join(pieces))
