"""Rows -> audio files + manifest entries, on one engine: the work of one batch worker (a pool process or
a Ray actor).

:class:`RowSynthesizer` runs the frontend of each row (a row that fails gets an error entry), renders
the good rows in one batched engine pass per (voice, speed), and writes each audio file atomically
(``audio/<id>.<ext>``, written under a temporary name, then renamed). :class:`FrontendStage` is the
text half alone, for pipelines that run the frontend on other workers than the engine (GPU).
"""

from __future__ import annotations

import logging
import os
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onestep.batch.manifest import AUDIO_DIR, error_entry
from onestep.batch.rows import BatchRow
from onestep.runtime.engines import DEFAULT_ENGINE, get_engine
from onestep.runtime.formats import MEDIA_TYPES
from onestep.runtime.output import OutputOptions
from onestep.runtime.voices import voice_ref
from onestep.work_limits import NothingToSpeakError, describe_skipped

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS, Audio, PreparedText
    from onestep.runtime.host_pool import HostPool

log = logging.getLogger("onestep.batch")

#: Output audio formats (the encoders' of every interface, :mod:`onestep.runtime.formats`) -> file extension.
AUDIO_FORMATS: dict[str, str] = {fmt: f".{fmt}" for fmt in MEDIA_TYPES}
NOTHING_SPEAKABLE = "nothing speakable in the text (unsupported script, or no words)"


@dataclass(frozen=True)
class SynthSettings:
    """What every worker of a job needs (plain values: it is pickled to pool processes and Ray actors).

    Attributes:
        out_dir: output folder (audio files go to ``out_dir/audio/``).
        audio_format: one of :data:`AUDIO_FORMATS`.
        voice: voice of rows that name none (None: by the text's language): a name or blend, or a voice
            directory (:func:`onestep.runtime.voices.voice_ref` tells them apart).
        speed: speed of rows that give none.
        max_chars: longest text accepted, characters.
        engine: a registered engine name or device alias (:mod:`onestep.runtime.engines`).
        threads: ONNX Runtime threads per graph on CPU.
        sample_rate, gain_db: the delivered audio (:class:`onestep.runtime.output.OutputOptions`; None: the
            voice's own rate).
        voices_dirs: extra voice folders.
        lexicon: user lexicon file.
    """

    out_dir: str
    audio_format: str = "wav"
    voice: str | None = None
    speed: float = 1.0
    max_chars: int = 5000
    engine: str = DEFAULT_ENGINE
    threads: int | None = 1
    voices_dirs: tuple[str, ...] = ()
    lexicon: str | None = None
    sample_rate: int | None = None
    gain_db: float = 0.0

    def __post_init__(self) -> None:
        if self.audio_format not in AUDIO_FORMATS:
            raise ValueError(f"audio format must be one of {', '.join(AUDIO_FORMATS)}, got {self.audio_format!r}")
        if self.max_chars < 1:
            raise ValueError(f"max_chars must be >= 1, got {self.max_chars}")
        get_engine(self.engine)  # an unknown engine fails here, before any worker starts
        self.output()  # and so does a bad sample rate or gain

    def output(self) -> OutputOptions:
        """The output stage's options (sample rate, gain), as every interface takes them."""
        return OutputOptions(self.sample_rate, self.gain_db)

    def make_tts(self) -> TTS:
        from onestep.api import TTS

        return TTS(
            engine=self.engine, threads=self.threads, lexicon=self.lexicon, voices_dir=list(self.voices_dirs) or None
        )


def check_row(row: BatchRow, max_chars: int) -> str | None:
    """Why ``row`` cannot be synthesized, from the row alone (None: go ahead)."""
    if row.error:
        return row.error
    source = row.source
    if not source.strip():
        return "empty text"
    if len(source) > max_chars:
        return f"{'SSML' if row.ssml is not None else 'text'} is {len(source)} characters; the limit is {max_chars}"
    return None


def _describe(e: Exception) -> str:
    return f"{type(e).__name__}: {e}"


#: Engine passes per block of rows handed to a host pool at once (a block's manifest lines are written when it is
#: done; within a block the frontend of the next passes and the finishing of the last overlap the engine).
PASSES_PER_BLOCK = 16


def make_host_pool(settings: SynthSettings, processes: int, chunk: int) -> HostPool:
    """A host pool of ``processes`` worker processes for a :class:`RowSynthesizer` (``chunk`` rows per engine
    pass; the job's lexicon in every worker); the caller starts and closes it."""
    from onestep.runtime.host_pool import HostPool, HostPoolSettings

    return HostPool(HostPoolSettings(threads=1, processes=processes, chunk=chunk, lexicon=settings.lexicon))


class RowSynthesizer:
    """Synthesizes rows into ``settings.out_dir`` with one :class:`onestep.TTS` (loaded once).

    With ``pool`` (a :class:`~onestep.runtime.host_pool.HostPool` with ``processes``), the rows' frontend,
    timings, output stage, encoding and file writing run in its worker processes and this process only feeds
    the engine (:func:`onestep.synthesis.remote.render_in_processes`): what keeps a GPU busy.
    """

    def __init__(self, settings: SynthSettings, pool: HostPool | None = None) -> None:
        from onestep.runtime.encoders import encode_file

        if pool is not None and not pool.settings.processes:
            raise ValueError("a RowSynthesizer's pool needs worker processes")
        self.pool = pool
        self.settings = settings
        self.tts = settings.make_tts()
        self.audio_dir = Path(settings.out_dir) / AUDIO_DIR
        self.audio_dir.mkdir(parents=True, exist_ok=True)
        self._encode = encode_file

    def run(self, rows: Sequence[BatchRow], utterances: Sequence[bytes | None] | None = None) -> list[dict[str, Any]]:
        """Synthesize ``rows``; one manifest entry per row, in order. Never raises for a bad row.

        ``utterances``: per row, the pickled output of :meth:`FrontendStage.run` (then this worker skips
        the frontend), or None.
        """
        s = self.settings
        rows = [replace(r, speed=r.speed if r.speed is not None else s.speed) for r in rows]
        if self.pool is not None and utterances is None:
            return self._run_pooled(rows)
        entries: list[dict[str, Any] | None] = [None] * len(rows)
        prepared: list[tuple[int, PreparedText]] = []
        for i, row in enumerate(rows):
            error = check_row(row, s.max_chars)
            if error is None:
                try:
                    p = self._prepare(row, None if utterances is None else utterances[i])
                    if p.ids or p.plan is not None:  # an SSML plan is spoken piece by piece
                        prepared.append((i, p))
                    else:
                        error = NOTHING_SPEAKABLE
                except NothingToSpeakError as e:  # names the characters that were skipped, if any
                    error = NOTHING_SPEAKABLE + (f"; skipped: {describe_skipped(e.skipped)}" if e.skipped else "")
                except Exception as e:  # the frontend or the options reject this row: the job goes on
                    error = _describe(e)
            if error is not None:
                entries[i] = error_entry(row.id, row.source, row.voice or s.voice, row.speed, error)
        for i, audio in self._render(prepared):
            entries[i] = self._write(rows[i], audio)
        return [e for e in entries if e is not None]

    def _run_pooled(self, rows: Sequence[BatchRow]) -> list[dict[str, Any]]:
        """:meth:`run` on the pool's worker processes (each row's audio file written there)."""
        from onestep.synthesis.remote import render_in_processes

        assert self.pool is not None
        s = self.settings
        entries: list[dict[str, Any] | None] = [None] * len(rows)
        jobs: list[tuple[str, Any, float, None]] = []
        flags: list[bool] = []
        files: list[str | None] = []
        at: list[int] = []
        for i, row in enumerate(rows):
            error = check_row(row, s.max_chars)
            if error is not None:
                entries[i] = error_entry(row.id, row.source, row.voice or s.voice, row.speed, error)
                continue
            voice = row.voice if row.voice is not None else voice_ref(s.voice)
            jobs.append((row.ssml if row.ssml is not None else row.text, voice, row.speed, None))  # type: ignore[arg-type]
            flags.append(row.ssml is not None)
            files.append(str(self.audio_dir / (row.id + AUDIO_FORMATS[s.audio_format])))
            at.append(i)
        resources, max_phonemes = self.tts._resources, self.tts.max_phonemes
        done = render_in_processes(
            jobs, "word", self.pool, resources, max_phonemes, self.pool.settings.chunk, s.output(), flags, files,
            s.audio_format,
        )  # fmt: skip
        for i, audio in zip(at, done, strict=True):
            row = rows[i]
            if isinstance(audio, NothingToSpeakError):
                error = NOTHING_SPEAKABLE + (f"; skipped: {describe_skipped(audio.skipped)}" if audio.skipped else "")
                entries[i] = error_entry(row.id, row.source, row.voice or s.voice, row.speed, error)
            elif isinstance(audio, Exception) or audio.samples.size == 0:
                entries[i] = self._write(row, audio)  # the error entry
            else:
                entries[i] = self._entry(row, audio, row.id + AUDIO_FORMATS[s.audio_format])
        return [e for e in entries if e is not None]

    def _prepare(self, row: BatchRow, pickled: bytes | None) -> PreparedText:
        """The row through :meth:`onestep.TTS.prepare`, as any interface's text: the one SSML parser, the one
        voice resolver, the output stage's options."""
        s = self.settings
        voice = row.voice if row.voice is not None else voice_ref(s.voice)
        output = {"sample_rate": s.sample_rate, "gain_db": s.gain_db}
        speed = row.speed if row.speed is not None else s.speed
        if row.ssml is not None:
            return self.tts.prepare(row.ssml, voice, speed, ssml=True, **output)
        if pickled is None:
            return self.tts.prepare(row.text, voice, speed, ssml=False, **output)
        found = pickle.loads(pickled)
        if isinstance(found, str):  # the frontend stage's error
            raise ValueError(found)
        sentences: Callable[[str, int, str], list[Any]] = lambda text, max_ids, language: found  # noqa: E731
        return self.tts.prepare(row.text, voice, speed, sentences=sentences, ssml=False, **output)

    def _render(self, prepared: list[tuple[int, PreparedText]]) -> list[tuple[int, Audio | Exception]]:
        """Audio of every prepared row: one batched pass; if it fails, row by row (to find the bad one)."""
        if not prepared:
            return []
        try:
            audios = self.tts.render([p for _, p in prepared])
            return [(i, a) for (i, _), a in zip(prepared, audios, strict=True)]
        except Exception:
            out: list[tuple[int, Audio | Exception]] = []
            for i, p in prepared:
                try:
                    out.append((i, self.tts.render([p])[0]))
                except Exception as e:
                    out.append((i, e))
            return out

    def _write(self, row: BatchRow, audio: Audio | Exception) -> dict[str, Any]:
        voice = row.voice or self.settings.voice
        if isinstance(audio, Exception):
            return error_entry(row.id, row.source, voice, row.speed, _describe(audio))
        if audio.samples.size == 0:
            return error_entry(row.id, row.source, voice, row.speed, NOTHING_SPEAKABLE)
        name = row.id + AUDIO_FORMATS[self.settings.audio_format]
        path = self.audio_dir / name
        tmp = path.with_name(f".{name}.{os.getpid()}.tmp")
        try:
            tmp.write_bytes(self._encode(self.settings.audio_format, audio.samples, audio.sample_rate))
            os.replace(tmp, path)
        except Exception as e:  # e.g. the disk is full: this row fails, the job reports it
            tmp.unlink(missing_ok=True)
            return error_entry(row.id, row.source, voice, row.speed, _describe(e))
        return self._entry(row, audio, name)

    def _entry(self, row: BatchRow, audio: Audio, name: str) -> dict[str, Any]:
        """The manifest entry of a row whose audio file ``audio/<name>`` is written."""
        return {
            "id": row.id,
            "text": row.source,
            "voice": audio.voice,
            "speed": row.speed,
            "audio": f"{AUDIO_DIR}/{name}",
            "duration_s": round(audio.duration, 4),
            "sample_rate": audio.sample_rate,
            "words": [{"text": w.text, "start": round(w.start, 4), "end": round(w.end, 4)} for w in audio.words],
            "error": None,
        }


class FrontendStage:
    """The text half alone: per row, the pickled utterances its voice will speak (or the error, pickled as
    a string), so that :meth:`RowSynthesizer.run` on another worker only runs the engine."""

    def __init__(self, settings: SynthSettings) -> None:
        from onestep.frontend.pipeline import Frontend
        from onestep.runtime.voices import VoiceCatalog

        self.settings = settings
        self.catalog = VoiceCatalog(list(settings.voices_dirs) or None)
        self.frontend = Frontend(lexicon=settings.lexicon)

    def _voice(self, row: BatchRow) -> tuple[int, str]:
        """The most phoneme ids per utterance of the row's voice (as ``TTS.max_ids``: its largest bucket less
        the two pads), and its language (what digits alone are read in)."""
        from onestep.runtime.voices import load_voice_dir

        voice = row.voice if row.voice is not None else voice_ref(self.settings.voice)
        if isinstance(voice, Path):
            entry = load_voice_dir(voice)
        else:
            entry = self.catalog.resolve(voice, text=row.text)  # the one resolver, as TTS uses it
        return entry.config.phoneme_buckets[-1] - 2, entry.config.language

    def run(self, rows: Sequence[BatchRow]) -> list[bytes | None]:
        out: list[bytes | None] = []
        for row in rows:
            if row.ssml is not None or check_row(row, self.settings.max_chars) is not None:
                out.append(None)  # the engine worker reports it, or (SSML) runs the whole of TTS.prepare
                continue
            try:
                max_ids, language = self._voice(row)
                found: Any = list(self.frontend.speakable_sentences(row.text, max_ids, None, language))
            except Exception as e:
                found = _describe(e)
            out.append(pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
        return out
