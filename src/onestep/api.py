"""The Python API: ``TTS`` turns text into audio with the voices it finds.

::

    from onestep import TTS
    tts = TTS()                                   # voices chosen by the text's language, ONNX Runtime on CPU
    audio = tts.synthesize("你好，世界。")          # Audio: samples, sample_rate, phonemes, words, timestamps
    for chunk in tts.stream("A long text ..."):   # AudioChunk as soon as each piece is ready
        ...
    audio.save("out.wav")

Text is split into sentences by the frontend; each sentence is one engine pass. Streaming yields a sentence's
first chunk while its later chunks (and later sentences) are still to be computed.
"""

from __future__ import annotations

import dataclasses

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from onestep.config import SPEED_MAX, SPEED_MIN, SynthesisOptions, VoiceConfig
from onestep.frontend.offsets import MarkupOffsetAligner, OffsetAligner
from onestep.frontend.symbols import phonemes_to_ids, vocab
from onestep.frontend.tokens import Token
from onestep.frontend.warm_up import warm_frontend
from onestep.languages import DEFAULT_LANGUAGE, get_language
from onestep.runtime.engine import Engine, engine_ready
from onestep.runtime.engines import get_engine
from onestep.runtime.host_pool import HostPool, HostPoolSettings, run_ordered
from onestep.runtime.output import OutputOptions, OutputStage
from onestep.runtime.pcm import to_pcm16
from onestep.runtime.sounding import FrameSpans, frame_spans
from onestep.runtime.speakers import SpeakerEngine
from onestep.runtime.voices import (
    VoiceCatalog,
    VoiceEntry,
    VoiceNotFoundError,
    load_voice_dir,
    voice_ref,
)
from onestep.ssml.parse import Piece, SsmlError
from onestep.work_limits import (
    DEFAULT_MAX_PHONEMES,
    NothingToSpeakError,
    SECONDS_PER_PHONEME,
    TooMuchWorkError,
    bounded,
    count_phonemes,
    nothing_to_speak,
    too_much_work_message,
)

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.tokens import Segment, Utterance

VoiceArg = str | os.PathLike[str] | None

__all__ = [
    "TTS", "Audio", "AudioChunk", "PhonemeTiming", "PreparedText", "VoiceNotFoundError", "WordTiming", "to_pcm16",
    "word_timings",
]  # fmt: skip


@dataclass(frozen=True)
class PhonemeTiming:
    """One phoneme symbol and when it sounds, in seconds from the start of the audio."""

    phoneme: str
    start: float
    end: float


@dataclass(frozen=True)
class WordTiming:
    """One word (or Chinese word, or character) with its phonemes and when it sounds.

    Attributes:
        text: the word as written in the input (``"Dr."``, ``"3个"``); the normalized form when it could
            not be found in the input.
        phonemes: its phonemes (words of a rewritten run joined by spaces).
        start, end: seconds from the start of the audio; ``end`` is where the word stops sounding: a pause after
            it (punctuation, a sentence's end, an SSML break) lies between words and belongs to none (measured
            on the audio, :mod:`onestep.runtime.sounding`). Words are in order and do not overlap.
        spoken: what is read (``"Doctor"``, ``"三个"``).
        char_start, char_end: ``text``'s offsets in the ORIGINAL input, ``input[char_start:char_end]``
            (-1 when it could not be placed).
    """

    text: str
    phonemes: str
    start: float
    end: float
    spoken: str = ""
    char_start: int = -1
    char_end: int = -1

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form (seconds rounded to 0.1 ms)."""
        return {
            "text": self.text, "spoken": self.spoken, "start": round(self.start, 4), "end": round(self.end, 4),
            "char_start": self.char_start, "char_end": self.char_end, "phonemes": self.phonemes,
        }  # fmt: skip


@dataclass
class Audio:
    """A synthesized text.

    Attributes:
        samples: float32 [N] mono PCM in [-1, 1].
        sample_rate: Hz.
        phonemes: the phonemes spoken, sentences joined by a space.
        words: per word timing (from the predicted durations; a word before a pause ends where its sound does);
            empty for phoneme input.
        phoneme_timestamps: per phoneme symbol timing; they tile each sentence: a pause's frames belong to its
            punctuation symbol (or to the sentence's closing pad, which has no entry), not to the phoneme before.
        voice: name of the voice used.
        skipped: characters of the text that could not be spoken (removed), with their counts.
    """

    samples: np.ndarray
    sample_rate: int
    phonemes: str = ""
    words: list[WordTiming] = field(default_factory=list)
    phoneme_timestamps: list[PhonemeTiming] = field(default_factory=list)
    voice: str = ""
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return self.samples.size / self.sample_rate

    @property
    def pcm16(self) -> bytes:
        """16-bit little-endian PCM of :attr:`samples`."""
        return to_pcm16(self.samples)

    def save(self, path: str | os.PathLike[str], format: str | None = None, bitrate: int | None = None) -> None:
        """Write an audio file through the one encoder module (:mod:`onestep.runtime.encoders`, the server's).

        ``format`` (``wav``, ``flac``, ``mp3``, ``opus``, ``pcm``, or an extension such as ``ogg``) defaults to
        the one the extension names
        (``.ogg`` and ``.opus``: Ogg Opus; ``.raw``/``.pcm``: raw 16-bit PCM).
        ``bitrate``: kbit/s for mp3, aac and opus (None: the encoder's default; a chosen one and aac need PyAV,
        the ``audio`` extra).
        """
        from onestep.runtime.encoders import encode_file
        from onestep.runtime.formats import format_for_path, format_name

        fmt = format_name(format) if format else format_for_path(path)
        data = encode_file(fmt, self.samples, self.sample_rate, bitrate)
        Path(path).write_bytes(data)


@dataclass
class AudioChunk:
    """A piece of streamed audio.

    Attributes:
        samples: float32 [n] mono PCM in [-1, 1].
        sample_rate: Hz.
        sentence: index of the sentence (of the frontend's split) the chunk belongs to.
        words: with ``stream(..., timestamps=True)``: words (times in seconds from the start of the stream,
            offsets into the input text) as soon as their timing is final, each at the latest with the chunk in
            which it starts; else empty.
    """

    samples: np.ndarray
    sample_rate: int
    sentence: int = 0
    words: list[WordTiming] = field(default_factory=list)

    @cached_property
    def pcm16(self) -> bytes:
        """16-bit little-endian PCM of :attr:`samples` (computed on first access)."""
        return to_pcm16(self.samples)


@dataclass(frozen=True)
class PreparedText:
    """A text after the frontend, ready for the engine (:meth:`TTS.prepare`; :meth:`TTS.render` speaks it).

    Attributes:
        entry, engine: the voice and its loaded engine.
        speed: checked speaking rate.
        output: sample rate and gain of the delivered audio (:mod:`onestep.runtime.output`).
        text: the input as given. plan: for SSML input, its pieces with their voices (``utterances`` empty).
        utterances: the frontend's speakable pieces of the text, each fitting the largest phoneme bucket.
        ids: per utterance, its phoneme ids ``[0, *ids, 0]``.
        skipped: characters of the text that could not be spoken, with their counts.
        plan_phonemes: for SSML input, (its work in phonemes: its pieces' phonemes and its breaks, its first
            utterance's phonemes), see :meth:`TTS._check_plan_work` (what a server's admission costs it by).
        placed: per utterance, its words placed in ``text`` for word timestamps, when a frontend worker
            process computed them (:meth:`TTS.synthesize_batch`); None: placed when the audio is assembled.
    """

    entry: VoiceEntry
    engine: Engine
    speed: float
    utterances: list[Utterance]
    ids: list[list[int]]
    output: OutputOptions = OutputOptions()
    text: str = ""
    plan: list[tuple[Piece, VoiceEntry | None]] | None = None
    skipped: dict[str, int] = field(default_factory=dict)
    plan_phonemes: tuple[int, int] = (0, 0)
    placed: list[list[_Placed]] | None = field(default=None, repr=False, compare=False)

    @property
    def batch_key(self) -> tuple[Path, str, float]:
        """Texts with equal keys (same voice, same speed) can share one batched engine pass."""
        return (self.entry.path, self.entry.name, self.speed)


PRELOAD_ENV = "ONESTEP_PRELOAD"


def preload_mode(preload: bool | str | None) -> Literal["now", "background", "off"]:
    """What :class:`TTS` does with its ``preload`` argument (None: ``$ONESTEP_PRELOAD``, else background).

    Raises:
        ValueError: a value other than True, False, "background" (argument) or 1/0/background (variable).
    """
    if preload is None:
        raw = os.environ.get(PRELOAD_ENV, "background").strip().lower()
        table = {"1": "now", "true": "now", "0": "off", "false": "off", "background": "background", "": "background"}
        if raw not in table:
            raise ValueError(f"${PRELOAD_ENV} must be 1, 0 or background, got {raw!r}")
        return table[raw]  # type: ignore[return-value]
    if preload is True:
        return "now"
    if preload is False:
        return "off"
    if preload == "background":
        return "background"
    raise ValueError(f"preload must be True, False or 'background', got {preload!r}")


class TTS:
    """Text-to-speech with one or more voices.

    Args:
        voice: the voice for every call that names none: a voice name, or a ``pathlib.Path`` to a voice
            directory. None: chosen per text by language (Han characters -> default zh voice, else en).
        device: the engine by its hardware: ``"cpu"`` (``ort-cpu``) or ``"cuda"`` (``torch-cuda-graphs``,
            needs torch with CUDA); an engine name is accepted too.
        threads: CPU threads per graph (None = one per physical core).
        lexicon: a user pronunciation lexicon file for the frontend.
        voices_dir: extra directories to search for voices (before ``$ONESTEP_VOICES`` and the package's).
        engine: a registered engine name (:mod:`onestep.runtime.engines`); overrides ``device``.
        preload: when to load the text frontend of every language (imports, dictionary tables, number
            readers, the English espeak fallback; ~60 MB), so that no call pays for a first-time load:
            ``True``: now, before returning (~0.4-0.5 s here); ``"background"``: in a daemon thread started now
            (construction returns at once; a call that needs a language still loading waits for it, never loads
            it twice); ``False``: on first use, only what each text needs (a one-off process such as
            ``onestep say``). Default: ``$ONESTEP_PRELOAD`` (``1``, ``background`` or ``0``, what the test
            suite sets), else ``"background"``.
        max_phonemes: most phonemes :meth:`synthesize` / :meth:`prepare` accept per text (more raises
            :class:`onestep.work_limits.TooMuchWorkError`, before any engine work); None = no limit.
            :meth:`stream` has no limit: it holds one sentence at a time.

    Engines are loaded on first use of a voice (a named ``voice`` is loaded now) and then shared; all
    methods may be called from several threads.
    """

    def __init__(
        self,
        voice: VoiceArg = None,
        device: str = "cpu",
        threads: int | None = None,
        lexicon: str | os.PathLike[str] | None = None,
        voices_dir: Sequence[str | os.PathLike[str]] | str | os.PathLike[str] | None = None,
        *,
        engine: str | None = None,
        preload: bool | Literal["background"] | None = None,
        max_phonemes: int | None = DEFAULT_MAX_PHONEMES,
    ) -> None:
        if max_phonemes is not None and max_phonemes < 1:
            raise ValueError(f"max_phonemes must be >= 1 or None, got {max_phonemes!r}")
        self.max_phonemes = max_phonemes
        self.engine_kind = get_engine(engine if engine is not None else device)
        self.device = self.engine_kind.device
        self.threads = threads
        self.lexicon = lexicon
        self.catalog = VoiceCatalog(voices_dir)
        self._lock = threading.Lock()
        self._engines: dict[Path, Engine] = {}
        self._speaker_engines: dict[tuple[Path, str], Engine] = {}
        self._frontend: Frontend | None = None
        self._host: HostPool | None = None
        self._voice: VoiceEntry | None = None
        if voice is not None:
            self._voice = self._entry(voice, "")
            self._engine(self._voice)
        self.preload_thread: threading.Thread | None = None
        mode = preload_mode(preload)
        if mode == "now":
            warm_frontend(self.frontend())
        elif mode == "background":
            self.frontend()  # built here (it reads the lexicon): the thread only loads
            self.preload_thread = threading.Thread(
                target=warm_frontend, args=(self._frontend,), name="onestep-preload", daemon=True
            )
            self.preload_thread.start()

    # --- voices and engines --------------------------------------------------------------------------

    def voices(self) -> list[VoiceConfig]:
        """Configs of the voices this instance can use (the one given by path first)."""
        configs = [e.config for e in self.catalog.entries.values()]
        if self._voice is not None and self._voice.name not in self.catalog.entries:
            configs.insert(0, self._voice.config)
        return configs

    @property
    def sample_rate(self) -> int:
        """Hz of the default voice (all shipped voices share one rate)."""
        entry = self._voice or self.catalog.default_for(DEFAULT_LANGUAGE)
        return entry.config.audio.sample_rate

    def _entry(self, voice: VoiceArg, text: str, language: str | None = None) -> VoiceEntry:
        """The voice of a call; with ``language`` (a registry code), that voice reading the language: with no
        voice given, the language's default voice; else the given voice, its text read in ``language``."""
        if language is None:
            return self._voice_entry(voice, text)
        get_language(language)  # an unknown code is a UserError naming the known ones
        if voice is None and self._voice is None:
            entry = self.catalog.resolve(language=language)
        else:
            entry = self._voice_entry(voice, text)
        return _reading(entry, language)

    def voice_language(self, voice: VoiceArg, text: str, language: str | None = None) -> str:
        """The language a call with these arguments reads Latin-script text and digits in (the requested one,
        else the voice's native language): what :meth:`synthesize` passes to the frontend."""
        return self._entry(voice, text, language).config.language

    def _voice_entry(self, voice: VoiceArg, text: str) -> VoiceEntry:
        if voice is None:
            return self._voice or self.catalog.resolve(text=text)
        if isinstance(voice, os.PathLike):
            return load_voice_dir(voice)
        if isinstance(voice, str):
            if self._voice is not None and voice == self._voice.name:
                return self._voice
            try:
                return self.catalog.resolve(voice)
            except VoiceNotFoundError as e:
                if isinstance(voice_ref(voice), Path):  # the one name-or-path rule
                    raise VoiceNotFoundError(f"{e} (to load a voice directory pass a pathlib.Path)") from None
                raise
        raise TypeError(f"voice must be a name, a pathlib.Path or None, got {type(voice).__name__}")

    def engine(self, voice: VoiceArg = None, text: str = "") -> Engine:
        """The loaded engine of ``voice`` (or of the default voice for ``text``), loading it on first use."""
        return self._engine(self._entry(voice, text))

    def _engine(self, entry: VoiceEntry) -> Engine:
        """The engine of ``entry``: the loaded engine of its directory (every voice of a multi-speaker model
        shares one), seen through the voice's speaker vector when it has one."""
        engine = self._engines.get(entry.path)  # loaded engines are served without waiting for a load
        if engine is None:
            with self._lock:
                engine = self._engines.get(entry.path)
                if engine is None:
                    engine = self.engine_kind.load(entry.path, self.threads)
                    self._engines[entry.path] = engine
        if entry.mix is None:
            return engine
        key = (entry.path, entry.name)
        view = self._speaker_engines.get(key)
        if view is None:
            view = self._speaker_engines.setdefault(key, SpeakerEngine(engine, entry.mix, entry.name))  # type: ignore[arg-type]
        return view

    def ready(self) -> bool:
        """Whether every loaded engine has finished its warm-up. A GPU engine (``device="cuda"``) captures its
        CUDA graphs in the background after loading and serves meanwhile, eagerly and slower; a server reports
        ready (``/health``) only once this is True."""
        return all(engine_ready(e) for e in list(self._engines.values()))

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until :meth:`ready` (or ``timeout`` seconds in all); returns :meth:`ready`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for engine in list(self._engines.values()):
            ready = getattr(engine, "ready", None)
            if ready is not None:
                ready.wait(None if deadline is None else max(deadline - time.monotonic(), 0.0))
        return self.ready()

    def frontend(self) -> Frontend:
        """The shared text frontend (built on first use)."""
        if self._frontend is None:
            with self._lock:
                if self._frontend is None:
                    from onestep.frontend.pipeline import Frontend

                    self._frontend = Frontend(lexicon=self.lexicon)
        return self._frontend

    # --- synthesis -----------------------------------------------------------------------------------

    def _sentences(self, text: str, entry: VoiceEntry, skipped: Counter[str] | None = None) -> Iterator[Utterance]:
        """The frontend's pieces of ``text`` that fit the voice's largest phoneme bucket, lazily (``skipped``
        counts the characters that cannot be spoken; a text of digits alone is read in the voice's language)."""
        max_ids = self.max_ids(self._engine(entry))
        return self.frontend().speakable_sentences(text, max_ids, skipped, entry.config.language)

    @staticmethod
    def max_ids(engine: Engine) -> int:
        """The most phoneme ids per utterance for ``engine``: its largest bucket less the two boundary pads."""
        return engine.config.phoneme_buckets[-1] - 2

    def synthesize(
        self,
        text: str,
        voice: VoiceArg = None,
        speed: float = 1.0,
        *,
        sample_rate: int | None = None,
        gain_db: float = 0.0,
        characters: bool = False,
        ssml: bool | None = None,
        language: str | None = None,
    ) -> Audio:
        """Synthesize ``text`` (split into sentences).

        ``sample_rate`` (8000, 16000, 22050, 24000, 44100 or 48000; None: the voice's) and ``gain_db`` (with
        clipping prevention) shape the delivered audio (:mod:`onestep.runtime.output`). ``Audio.words`` holds
        every word with its time and its offsets in ``text``; ``characters=True`` splits Chinese words into
        characters. SSML (docs/SSML.md): text starting with ``<speak`` is SSML; ``ssml=True`` forces it (a
        ``<speak>`` root is added when missing), ``ssml=False`` reads such text as plain text.
        ``Audio.skipped`` names the characters that could not be spoken. ``language`` (a registry code: ``"es"``,
        ``"ja"``, ...) reads the text in that language: Latin-script text in Spanish/French/... (their letters
        cannot be told from English), Han characters as Japanese; with no ``voice``, the language's default
        voice speaks (docs/LANGUAGES.md). None: the voice's native language, else the script's.

        Raises:
            NothingToSpeakError: nothing in the text can be spoken (a :class:`onestep.errors.UserError`).
            TooMuchWorkError: the text has more than ``max_phonemes`` phonemes (use :meth:`stream`).
        """
        p = self.prepare(text, voice, speed, sample_rate=sample_rate, gain_db=gain_db, ssml=ssml, language=language)
        if p.plan is not None:
            return self._render_plan(p, "char" if characters else "word")
        results = [p.engine.synthesize(ids, p.speed) for ids in p.ids]
        frames, audio = [r.frames_per_id for r in results], [r.audio for r in results]
        words = "char" if characters else "word"
        out = _apply_output(_assemble(p.utterances, frames, audio, p.engine, p.entry, words, p.text), p.output)
        out.skipped = p.skipped
        return out

    def synthesize_batch(
        self,
        texts: Sequence[str],
        voices: Sequence[VoiceArg] | None = None,
        speeds: Sequence[float] | None = None,
        *,
        timestamps: bool | str = True,
        pool: HostPool | None = None,
        errors: str = "raise",
        languages: Sequence[str | None] | None = None,
    ) -> list[Audio]:
        """Synthesize several texts, batching the sentences that share a voice and a speed into one engine pass.

        The work around the engine (the frontend before; word timings, assembly and output after) runs on
        ``pool`` (default :meth:`host_pool`: a thread per core), chunk by chunk, while this thread feeds the one
        engine (:func:`onestep.runtime.host_pool.run_ordered`); a :class:`~onestep.runtime.host_pool.HostPool`
        with ``processes`` runs the frontend in worker processes.

        Args:
            texts: N texts.
            voices: N voice names/paths (None entries: chosen by language), or None for all default.
            speeds: N speeds, or None for 1.0.
            languages: N language codes (None entries: the voice's), or None: as :meth:`synthesize`'s ``language``.
            timestamps: as in :meth:`render` (False skips the word and phoneme timings).
            errors: ``"raise"``: the error of the first text (in input order) that fails is raised;
                ``"return"``: a text that fails gets its exception in place of its :class:`Audio` and the
                others go on (what a batch job of many rows wants).
        Returns:
            N :class:`Audio`, in input order (the same audio as :meth:`synthesize` of each text).
        """
        n = len(texts)
        voices = list(voices) if voices is not None else [None] * n
        speeds = list(speeds) if speeds is not None else [1.0] * n
        langs = list(languages) if languages is not None else [None] * n
        if not len(voices) == len(speeds) == len(langs) == n:
            raise ValueError(
                f"texts, voices, speeds and languages differ in length: {n}, {len(voices)}, {len(speeds)}, {len(langs)}"
            )
        if errors not in ("raise", "return"):
            raise ValueError(f"errors must be 'raise' or 'return', got {errors!r}")
        jobs = list(zip(texts, voices, speeds, langs, strict=True))
        words = _timestamp_mode(timestamps)
        if pool is None and n < 2 and errors == "raise":
            return self.render([self.prepare(t, v, s, language=lang) for t, v, s, lang in jobs], timestamps=timestamps)
        pool = pool or self.host_pool()
        if errors == "raise":
            return run_ordered(
                jobs, lambda job: self._prepare_job(job, pool), self._engine_pass, lambda p, q: self._finish(p, q, words), pool
            )

        def prepare(job: tuple[str, VoiceArg, float, str | None]) -> PreparedText | Exception:
            try:
                return self._prepare_job(job, pool)
            except Exception as e:
                return e

        def finish(p: PreparedText | Exception, q: list[tuple[np.ndarray, np.ndarray]] | Exception) -> Audio | Exception:
            if isinstance(p, Exception) or isinstance(q, Exception):
                return p if isinstance(p, Exception) else q  # type: ignore[return-value]
            try:
                return self._finish(p, q, words)
            except Exception as e:
                return e

        return run_ordered(jobs, prepare, self._engine_pass_or_errors, finish, pool)  # type: ignore[arg-type]

    def _engine_pass_or_errors(
        self, prepared: Sequence[PreparedText | Exception]
    ) -> list[list[tuple[np.ndarray, np.ndarray]] | Exception]:
        """:meth:`_engine_pass` over the texts that were prepared (an error stays in its place); when the
        batched pass fails, each text alone, so that only the bad one gets the error."""
        good = [p for p in prepared if not isinstance(p, Exception)]
        try:
            done: list[list[tuple[np.ndarray, np.ndarray]] | Exception] = list(self._engine_pass(good))
        except Exception:
            done = []
            for p in good:
                try:
                    done += self._engine_pass([p])
                except Exception as e:
                    done.append(e)
        results = iter(done)
        return [p if isinstance(p, Exception) else next(results) for p in prepared]

    def host_pool(self) -> HostPool:
        """The pool :meth:`synthesize_batch` uses when given none: one thread per usable core, the frontend on
        them (:mod:`onestep.runtime.host_pool`; started on first use, shared by every call)."""
        if self._host is None:
            with self._lock:
                if self._host is None:
                    self._host = HostPool(HostPoolSettings(lexicon=None if self.lexicon is None else str(self.lexicon)))
        return self._host

    def _prepare_job(self, job: tuple[str, VoiceArg, float, str | None], pool: HostPool) -> PreparedText:
        """:meth:`prepare` of one ``(text, voice, speed, language)``; with the pool's frontend processes, a plain
        text's frontend pass runs in one of them (the same utterances and skipped characters as here)."""
        text, voice, speed, language = job
        if not pool.settings.processes or _is_ssml(text):
            return self.prepare(text, voice, speed, language=language)
        entry = self._entry(voice, text, language)
        job = pool.submit(_frontend_job, text, self.max_ids(self._engine(entry)), entry.config.language)
        found, skipped, placed = job.result()
        try:
            p = self.prepare(text, voice, speed, sentences=lambda _text, _max, _lang: found, language=language)
        except NothingToSpeakError:
            raise nothing_to_speak(Counter(skipped)) from None
        return replace(p, skipped=dict(skipped), placed=placed)

    def prepare(
        self,
        text: str,
        voice: VoiceArg = None,
        speed: float = 1.0,
        *,
        sentences: Callable[[str, int, str], list[Utterance]] | None = None,
        sample_rate: int | None = None,
        gain_db: float = 0.0,
        ssml: bool | None = None,
        language: str | None = None,
    ) -> PreparedText:
        """The text half of synthesis: check the options, load the voice, run the frontend (no engine pass).

        A server runs this on its frontend threads and :meth:`render` on the engine's, batching requests.
        ``sentences(text, max_ids, language)``, when given, replaces this instance's frontend pass: it must return
        the speakable utterances of ``text`` of at most ``max_ids`` ids each (digits alone read in the voice's
        ``language``), as this instance's frontend would (the GPU server's worker processes,
        ``onestep.server.frontend_pool``).

        Raises:
            NothingToSpeakError, TooMuchWorkError: as :meth:`synthesize`.
        """
        speed = SynthesisOptions(speed=speed).speed
        output = OutputOptions(sample_rate, gain_db)
        plan = self._plan(text, voice, ssml, language)
        if plan is not None:
            entry = next((e for _, e in plan if e is not None), None) or self._entry(voice, "", language)
            work = self._check_plan_work(plan)
            return PreparedText(entry, self._engine(entry), speed, [], [], output, text, plan, plan_phonemes=work)
        entry = self._entry(voice, text, language)
        engine = self._engine(entry)
        skipped: Counter[str] = Counter()
        if sentences is None:
            utterances = list(bounded(self._sentences(text, entry, skipped), self.max_phonemes))
        else:
            utterances = sentences(text, self.max_ids(engine), entry.config.language)
            if self.max_phonemes is not None and sum(count_phonemes(u.phonemes) for u in utterances) > self.max_phonemes:
                raise TooMuchWorkError(too_much_work_message(self.max_phonemes), self.max_phonemes)
        if not utterances:
            raise nothing_to_speak(skipped)
        ids = [phonemes_to_ids(u.phonemes) for u in utterances]
        return PreparedText(entry, engine, speed, utterances, ids, output, text, skipped=dict(skipped))

    def render(self, prepared: Sequence[PreparedText], *, timestamps: bool | str = True) -> list[Audio]:
        """The engine half: one batched pass per (voice, speed) over every utterance of ``prepared``.

        Returns one :class:`Audio` per prepared text, in order. ``timestamps=False`` leaves the word and
        phoneme timings empty (a server that only sends audio skips their cost: ~0.25 ms a text on a CPU core);
        ``"char"`` splits Chinese words into characters.
        """
        words = _timestamp_mode(timestamps)
        return [self._finish(p, parts, words) for p, parts in zip(prepared, self._engine_pass(prepared), strict=True)]

    @staticmethod
    def _engine_pass(prepared: Sequence[PreparedText]) -> list[list[tuple[np.ndarray, np.ndarray]]]:
        """One batched engine pass per (voice, speed) over every utterance of ``prepared``: per prepared text,
        per utterance, (frames per id, native audio); SSML texts get none (their pieces run in :meth:`_finish`)."""
        groups: dict[tuple[Path, str, float], list[tuple[int, int]]] = {}
        for i, p in enumerate(prepared):
            if p.plan is None:
                for j in range(len(p.ids)):
                    groups.setdefault(p.batch_key, []).append((i, j))
        out: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in prepared]
        for (_, _, speed), members in groups.items():
            engine = prepared[members[0][0]].engine
            batch = [prepared[i].ids[j] for i, j in members]
            for (i, _), result in zip(members, engine.synthesize_batch(batch, speed), strict=True):
                out[i].append((result.frames_per_id, result.audio))  # members are in (i, j) order
        return out

    def _finish(self, p: PreparedText, parts: Sequence[tuple[np.ndarray, np.ndarray]], words: str) -> Audio:
        """A prepared text's :class:`Audio` from its utterances' engine results (assembly, timings, output)."""
        if p.plan is not None:  # SSML: its pieces one after the other (not batched)
            return self._render_plan(p, words)
        frames, samples = [q[0] for q in parts], [q[1] for q in parts]
        placed = p.placed if words == "word" else None
        audio = _apply_output(
            _assemble(p.utterances, frames, samples, p.engine, p.entry, words, p.text, placed), p.output
        )
        audio.skipped = p.skipped
        return audio

    def stream(
        self,
        text: str,
        voice: VoiceArg = None,
        speed: float = 1.0,
        *,
        sample_rate: int | None = None,
        gain_db: float = 0.0,
        timestamps: bool = False,
        characters: bool = False,
        ssml: bool | None = None,
        language: str | None = None,
    ) -> Iterator[AudioChunk]:
        """Yield the audio of ``text`` in chunks, each as soon as it is ready (sentence by sentence).

        The voice, speed and output options (as in :meth:`synthesize`) are checked now; the work happens while
        the returned iterator is consumed, one sentence at a time, so memory stays bounded for any length of
        text. Resampling is stateful across chunks and sentences: the joined chunks equal :meth:`synthesize`'s
        samples. ``timestamps=True``: the words (as in :attr:`Audio.words`; ``characters=True`` splits Chinese
        words) come in order with the chunks, each as soon as its timing is final: at once from the durations,
        but a word before a pause (and so the words after it) waits for the audio through its end, where its end
        is measured; a word comes at the latest with the chunk in which it starts (that chunk is held back until
        then, usually until the next chunk is made). SSML as in :meth:`synthesize` (parsed and its voices
        resolved now; breaks and rate changes keep streaming). The iterator raises
        :class:`~onestep.work_limits.NothingToSpeakError` at its end if nothing in the text could be spoken.
        """
        speed = SynthesisOptions(speed=speed).speed
        output = OutputOptions(sample_rate, gain_db)
        words = ("char" if characters else "word") if timestamps else ""
        plan = self._plan(text, voice, ssml, language)
        if plan is not None:
            rate = self._plan_rate(plan, voice)
            return self._stream_plan(plan, speed, OutputStage(output, rate), words, text)
        entry = self._entry(voice, text, language)
        return self._stream(text, entry, speed, OutputStage(output, self._engine(entry).sample_rate), words)

    # --- SSML ----------------------------------------------------------------------------------------

    def _plan(
        self, text: str, voice: VoiceArg, ssml: bool | None, language: str | None = None
    ) -> list[tuple[Piece, VoiceEntry | None]] | None:
        """SSML input's pieces, each with the voice that speaks it (None for pauses); None for plain text.

        Voice per piece: ``<voice name>`` (the one resolver), else for ``<lang>`` the call's voice when it
        speaks that language, else the language's default voice; else the call's voice, else by the text.
        """
        from onestep.ssml import Pause, is_ssml, parse_ssml

        if not (ssml or (ssml is None and is_ssml(text))):
            return None
        pieces = parse_ssml(text if is_ssml(text) else f"<speak>{text}</speak>")
        steps: list[tuple[Piece, VoiceEntry | None]] = []
        for piece in pieces:
            if isinstance(piece, Pause):
                steps.append((piece, None))
                continue
            if piece.voice is not None:
                entry = self._entry(piece.voice, "")
            elif piece.language is not None:
                given = self._entry(voice, "") if voice is not None or self._voice is not None else None
                same = given is not None and given.config.language == piece.language
                entry = _reading(given if same else self.catalog.resolve(language=piece.language), piece.language)
            else:
                entry = self._entry(voice, piece.text, language)
            steps.append((piece, entry))
        return steps

    def _plan_rate(self, plan: list[tuple[Piece, VoiceEntry | None]], voice: VoiceArg) -> int:
        """The one native sample rate of a plan's voices (a UserError when they differ)."""
        rates = {e.config.audio.sample_rate for _, e in plan if e is not None}
        if len(rates) > 1:
            raise SsmlError(f"the voices of this SSML differ in sample rate ({sorted(rates)}); use voices of one rate")
        return rates.pop() if rates else self._entry(voice, "").config.audio.sample_rate

    def _check_plan_work(self, plan: list[tuple[Piece, VoiceEntry | None]]) -> tuple[int, int]:
        """An SSML text's work in phonemes: its pieces' phonemes plus its breaks (each second of silence counted
        as the phonemes that would fill it), bounded like a plain text's by ``max_phonemes`` (raises
        :class:`TooMuchWorkError` before any engine work, as soon as the sum passes the limit); and its first
        utterance's phonemes. Returns (total, first)."""
        from onestep.ssml import Pause, Phonemes

        limit = self.max_phonemes
        total, first = 0.0, 0
        for piece, entry in plan:
            if isinstance(piece, Pause):
                total += piece.seconds / SECONDS_PER_PHONEME
            elif isinstance(piece, Phonemes):
                total += count_phonemes(piece.phonemes)
                first = first or count_phonemes(piece.phonemes)
            elif entry is not None:
                budget = None if limit is None else max(limit - int(total), 0)
                for utterance in bounded(self._sentences(piece.text, entry), budget):
                    total += count_phonemes(utterance.phonemes)
                    first = first or count_phonemes(utterance.phonemes)
            if limit is not None and total > limit:
                raise TooMuchWorkError(too_much_work_message(limit), limit)
        return round(total), first

    def _plan_chunks(
        self, plan: list[tuple[Piece, VoiceEntry | None]], speed: float, rate: int, timestamps: str, source: str = ""
    ) -> Iterator[tuple[np.ndarray, list[WordTiming]]]:
        """Native-rate audio of a plan, piece by piece and chunk by chunk, with each sentence's words (with
        offsets into ``source``, the SSML as given, when it is given)."""
        from onestep.ssml import Pause, Phonemes

        done = 0  # samples so far
        aligner = MarkupOffsetAligner(source) if source and timestamps else None
        for piece, entry in plan:
            if isinstance(piece, Pause):
                silence = np.zeros(round(piece.seconds * rate), dtype=np.float32)
                done += silence.size
                yield silence, []
                continue
            assert entry is not None
            engine = self._engine(entry)
            spf = _seconds_per_frame(engine)
            piece_speed = min(max(speed * piece.rate, SPEED_MIN), SPEED_MAX)
            if isinstance(piece, Phonemes):
                ids = phonemes_to_ids(piece.phonemes)
                if len(ids) > self.max_ids(engine) + 2:
                    raise SsmlError(f"<phoneme> ph is too long for one utterance ({len(ids) - 2} > {self.max_ids(engine)} ids)")
                utterances = [(piece.phonemes, [Token(piece.text or piece.phonemes, piece.phonemes)], piece.text)]
            else:
                utterances = [
                    (u.phonemes, _timed_tokens(u.segments, timestamps == "char"), u.text)
                    for u in self._sentences(piece.text, entry)
                ]
            for phonemes, tokens, raw in utterances:
                streamed = engine.stream(phonemes_to_ids(phonemes), piece_speed)
                if not timestamps:
                    for samples in streamed.chunks:
                        done += samples.size
                        yield samples, []
                    continue
                placed = _placed_words(phonemes, tokens, aligner, raw)
                hop = engine.config.audio.hop_length
                timed = _timed_chunks(streamed.chunks, phonemes, streamed.frames_per_id, placed, spf, hop, done / rate)
                for samples, words in timed:
                    done += samples.size
                    yield samples, words

    def _stream_plan(
        self,
        plan: list[tuple[Piece, VoiceEntry | None]],
        speed: float,
        stage: OutputStage,
        timestamps: str,
        source: str = "",
    ) -> Iterator[AudioChunk]:
        pending: list[WordTiming] = []
        chunks = self._plan_chunks(plan, speed, stage.native_rate, timestamps, source)
        for index, (samples, words) in enumerate(chunks):
            pending += words
            out = stage.process(samples)
            if out.size:
                yield AudioChunk(out, stage.sample_rate, index, pending)
                pending = []
        tail = stage.flush()
        if tail.size or pending:
            yield AudioChunk(tail, stage.sample_rate, 0, pending)

    def _render_plan(self, p: PreparedText, timestamps: str) -> Audio:
        """The whole audio of a prepared SSML text (the same samples as :meth:`stream` of it)."""
        assert p.plan is not None
        rate = self._plan_rate(p.plan, p.entry.path)
        parts, words = [], []
        for samples, w in self._plan_chunks(p.plan, p.speed, rate, timestamps, p.text):
            parts.append(samples)
            words += w
        samples = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
        audio = Audio(samples, rate, " ".join(_plan_phonemes(p.plan)), words, [], p.entry.name)
        return _apply_output(audio, p.output)

    def _stream(
        self, text: str, entry: VoiceEntry, speed: float, stage: OutputStage, timestamps: str = ""
    ) -> Iterator[AudioChunk]:
        skipped: Counter[str] = Counter()
        spoken = yield from self._stream_utterances(
            self._sentences(text, entry, skipped), text, self._engine(entry), speed, stage, timestamps
        )
        if not spoken:
            raise nothing_to_speak(skipped)

    def stream_prepared(self, prepared: PreparedText, *, timestamps: bool | str = False) -> Iterator[AudioChunk]:
        """Yield the audio of a :meth:`prepare` d text in chunks, as :meth:`stream` does (no frontend work left).

        Output options come from :meth:`prepare`; ``timestamps`` as in :meth:`render` (``"char"`` splits
        Chinese words into characters).
        """
        words = "char" if timestamps == "char" else ("word" if timestamps else "")
        if prepared.plan is not None:
            rate = self._plan_rate(prepared.plan, prepared.entry.path)
            stage = OutputStage(prepared.output, rate)
            return self._stream_plan(prepared.plan, prepared.speed, stage, words, prepared.text)
        stage = OutputStage(prepared.output, prepared.engine.sample_rate)
        return self._stream_utterances(
            prepared.utterances, prepared.text, prepared.engine, prepared.speed, stage, words
        )

    def _stream_utterances(
        self,
        utterances: Iterable[Utterance],
        text: str,
        engine: Engine,
        speed: float,
        stage: OutputStage,
        timestamps: str = "",
    ) -> Generator[AudioChunk, None, bool]:
        """The chunks of ``utterances`` (of ``text``) through ``stage``; returns whether any audio was made."""
        index = -1
        spoken = False
        aligner = OffsetAligner(text) if timestamps else None
        spf = _seconds_per_frame(engine)
        native_samples = 0  # of the sentences before this one: their duration sets this sentence's offset
        pending: list[WordTiming] = []  # words not yet handed out (the resampler may hold a first chunk back)
        hop = engine.config.audio.hop_length
        for index, utterance in enumerate(utterances):
            streamed = engine.stream(phonemes_to_ids(utterance.phonemes), speed)
            timed: Iterable[tuple[np.ndarray, list[WordTiming]]] = ((c, []) for c in streamed.chunks)
            if aligner is not None:
                tokens = _timed_tokens(utterance.segments, timestamps == "char")
                placed = _placed_words(utterance.phonemes, tokens, aligner, utterance.text)
                offset = native_samples / engine.sample_rate
                counts = streamed.frames_per_id
                timed = _timed_chunks(streamed.chunks, utterance.phonemes, counts, placed, spf, hop, offset)
            for samples, words in timed:
                spoken = spoken or samples.size > 0
                native_samples += samples.size
                pending += words
                out = stage.process(samples)
                if out.size:
                    yield AudioChunk(out, stage.sample_rate, index, pending)
                    pending = []
        tail = stage.flush()
        if tail.size or pending:
            yield AudioChunk(tail, stage.sample_rate, max(index, 0), pending)
        return spoken

    def synthesize_phonemes(self, phonemes: str, voice: VoiceArg = None, speed: float = 1.0) -> Audio:
        """Synthesize one utterance given as phonemes of the 114-symbol inventory (no text frontend).

        Without ``voice``, the instance's voice or the default English voice is used. Raises ``ValueError``
        when the phonemes exceed the largest phoneme bucket.
        """
        speed = SynthesisOptions(speed=speed).speed
        entry = self._entry(voice, "")
        engine = self._engine(entry)
        result = engine.synthesize(phonemes_to_ids(phonemes), speed)
        spans = _spans(phonemes, result.frames_per_id, result.audio)
        stamps = _phoneme_timings(phonemes, spans, _seconds_per_frame(engine), 0.0)
        return Audio(result.audio, engine.sample_rate, phonemes, [], stamps, entry.name)


# --- timing alignment --------------------------------------------------------------------------------------


def _timestamp_mode(timestamps: bool | str) -> str:
    """``render``'s ``timestamps`` argument as ``_assemble``'s: ``"char"``, ``"word"`` or ``""`` (none)."""
    return "char" if timestamps == "char" else ("word" if timestamps else "")


def _is_ssml(text: str) -> bool:
    from onestep.ssml import is_ssml

    return is_ssml(text)


def _seconds_per_frame(engine: Engine) -> float:
    return engine.config.audio.hop_length / engine.config.audio.sample_rate


def _phoneme_timings(phonemes: str, spans: FrameSpans, spf: float, offset: float) -> list[PhonemeTiming]:
    """Timing of each inventory symbol of ``phonemes`` (symbol ``k`` is model id ``k + 1``, after the pad)."""
    table = vocab()
    kept = [c for c in phonemes if c in table]
    n = len(kept)
    starts = (offset + spans.starts[1 : n + 1].astype(np.float64) * spf).tolist()  # the same sums as per symbol
    ends = (offset + spans.ends[1 : n + 1].astype(np.float64) * spf).tolist()
    return [PhonemeTiming(c, a, z) for c, a, z in zip(kept, starts, ends, strict=True)]


def _timed_tokens(segments: Sequence[Segment], characters: bool) -> list[Token]:
    """The tokens of an utterance's ``segments`` that word timestamps are made of (Chinese words split into
    characters when ``characters``)."""
    tokens = [t for segment in segments for t in segment.tokens]
    return _character_tokens(tokens) if characters else tokens


def _character_tokens(tokens: Sequence[Token]) -> list[Token]:
    """Chinese words split into one token per character (its pinyin syllable's phonemes); others as they are.

    A word whose syllables' phonemes do not join to its own phonemes (a lexicon override) stays whole.
    """
    from onestep.frontend.zh.phonemes import syllable_phonemes

    out: list[Token] = []
    for token in tokens:
        if len(token.pinyin) > 1 and len(token.pinyin) == len(token.text):
            try:
                parts = [syllable_phonemes(p) for p in token.pinyin]
            except ValueError:
                parts = []
            if parts and "".join(parts) == token.phonemes:
                out += [Token(ch, ph, [py]) for ch, ph, py in zip(token.text, parts, token.pinyin, strict=True)]
                continue
        out.append(token)
    return out


@dataclass(frozen=True)
class _Placed:
    """A word placed in the text, not yet timed: its entry (times 0) and the model ids it spans."""

    word: WordTiming
    first: int
    last: int

    def timed(self, spans: FrameSpans, spf: float, offset: float) -> WordTiming:
        start, end = offset + float(spans.starts[self.first]) * spf, offset + float(spans.ends[self.last]) * spf
        w = self.word  # a new entry with the times (as dataclasses.replace, ~4x cheaper)
        return WordTiming(w.text, w.phonemes, start, end, w.spoken, w.char_start, w.char_end)


def _placed_words(
    phonemes: str, tokens: Sequence[Token], aligner: OffsetAligner | None = None, raw: str | None = None
) -> list[_Placed]:
    """The word tokens, found in order in the utterance's phoneme string, with the model ids they span; with
    ``aligner``, tokens are placed in the original text (``raw``: the utterance's own original text, which
    bounds it) and a rewritten run ("Dr." read "Doctor", "Jan. 5" read "January fifth") becomes one entry."""
    table = vocab()
    kept_before = np.concatenate([[0], np.cumsum([c in table for c in phonemes])])  # [len+1]
    found: list[tuple[Token, int, int]] = []  # (token, first id, last id); ids -1 for punctuation
    cursor = 0
    for token in tokens:
        if not token.phonemes:
            continue
        at = phonemes.find(token.phonemes, cursor)
        if at < 0:
            continue
        cursor = at + len(token.phonemes)
        first, last = int(kept_before[at]) + 1, int(kept_before[cursor])  # model ids of the token's symbols
        if first <= last and any(ch.isalnum() for ch in token.text):
            found.append((token, first, last))
        elif not any(ch.isalnum() for ch in token.text):
            found.append((token, -1, -1))  # punctuation: anchors the alignment, gets no entry
    if aligner is None:
        return [_Placed(WordTiming(t.text, t.phonemes, 0.0, 0.0, t.text), a, b) for t, a, b in found if a >= 0]
    words: list[_Placed] = []
    placed: set[int] = set()
    spans = {span.tokens[0]: span for span in aligner.align([t.text for t, _, _ in found], raw)}
    for i, (token, first, last) in enumerate(found):
        if i in placed or first < 0:
            continue
        span = spans.get(i)
        if span is None:
            words.append(_Placed(WordTiming(token.text, token.phonemes, 0.0, 0.0, token.text), first, last))
            continue
        group = [found[k] for k in span.tokens if found[k][1] >= 0]
        placed.update(span.tokens)
        entry = WordTiming(
            aligner.written(span),
            " ".join(t.phonemes for t, _, _ in group),
            0.0,
            0.0,
            " ".join(t.text for t, _, _ in group),
            span.start,
            span.end,
        )
        words.append(_Placed(entry, min(a for _, a, _ in group), max(b for _, _, b in group)))
    return words


def _timed_chunks(
    chunks: Iterable[np.ndarray],
    phonemes: str,
    counts: np.ndarray,
    placed: Sequence[_Placed],
    spf: float,
    hop: int,
    offset: float,
) -> Iterator[tuple[np.ndarray, list[WordTiming]]]:
    """An utterance's native ``chunks``, each with the words handed out with it.

    A word is handed out as soon as its timing is final: at once from the durations, but a word before a pause
    ends where its sound does (:func:`onestep.runtime.sounding.frame_spans`), so it waits for the audio through its
    frames. Every word comes at the latest with the chunk in which it starts: a chunk in which a word not yet
    final starts is held back until the next chunk's audio has made it final. The words are those of
    :func:`word_timings` on the whole audio.
    """
    provisional = frame_spans(phonemes, counts)
    needs = [int(provisional.need[p.first : p.last + 1].max()) * hop for p in placed]
    starts = [int(provisional.starts[p.first]) * hop for p in placed]
    parts: list[np.ndarray] = []
    held: list[np.ndarray] = []
    have = given = handed = 0  # samples made, words handed out, samples handed out

    def release(done: bool) -> Iterator[tuple[np.ndarray, list[WordTiming]]]:
        nonlocal given, handed
        while held:
            final = given
            while final < len(placed) and (done or needs[final] <= have):
                final += 1
            end = handed + held[0].size
            if final < len(placed) and starts[final] < end:
                return  # a word starting in this chunk waits for more audio
            words: list[WordTiming] = []
            if final > given:
                spans = frame_spans(phonemes, counts, np.concatenate(parts), hop)
                words = [p.timed(spans, spf, offset) for p in placed[given:final]]
            given, handed = final, end
            yield held.pop(0), words

    for samples in chunks:
        parts.append(samples)
        held.append(samples)
        have += samples.size
        yield from release(False)
    yield from release(True)
    if given < len(placed):  # no audio at all
        spans = frame_spans(phonemes, counts)
        yield np.zeros(0, dtype=np.float32), [p.timed(spans, spf, offset) for p in placed[given:]]


def word_timings(
    utterances: Sequence[Utterance],
    frames_per_id: Sequence[np.ndarray],
    seconds_per_frame: float,
    text: str = "",
    *,
    characters: bool = False,
    audio: Sequence[np.ndarray] | None = None,
) -> list[WordTiming]:
    """Word timestamps of ``utterances`` spoken one after another, from each one's frames per phoneme id.

    This is the alignment behind ``Audio.words``, public so that other durations of the same phonemes are
    timed exactly alike (the teacher's, in :mod:`onestep_dev.eval.code_switch`): ``frames_per_id[i]`` holds a count
    per id of ``[0, *phonemes_to_ids(utterances[i].phonemes), 0]`` (boundary pads included), and utterance
    ``i`` starts where the frames before it end. ``seconds_per_frame``: hop length / sample rate.

    With ``text`` (the input the utterances came from) words are placed in it as ``Audio.words`` are: the
    word as written, its offsets, and a rewritten run ("Dr." read "Doctor", "117px") as one entry. Without
    ``text``, one entry per frontend token (``text`` and ``spoken`` are the token as read). ``characters``
    splits Chinese words into characters (``TTS.synthesize(characters=True)``).

    With ``audio`` (each utterance's samples, exactly its frames x hop, as ``Audio.words`` has them) a word
    that a pause (punctuation, or the utterance's end) follows ends where its sound does
    (:func:`onestep.runtime.sounding.frame_spans`): the pause lies between words and belongs to none. Without it,
    a word's end is the end of its last phoneme's frames, pause included.
    """
    if len(utterances) != len(frames_per_id):
        raise ValueError(f"{len(utterances)} utterances but {len(frames_per_id)} frame counts")
    if audio is not None and len(audio) != len(utterances):
        raise ValueError(f"{len(utterances)} utterances but {len(audio)} audio arrays")
    spans = []
    for i, (utterance, counts) in enumerate(zip(utterances, frames_per_id, strict=True)):
        counts = np.asarray(counts, dtype=np.int64)
        if counts.size != len(phonemes_to_ids(utterance.phonemes)):
            raise ValueError(f"{counts.size} frame counts for {len(phonemes_to_ids(utterance.phonemes))} ids")
        spans.append(_spans(utterance.phonemes, counts, None if audio is None else audio[i]))
    phonemes = [u.phonemes for u in utterances]
    return _words_of_spans(utterances, phonemes, frames_per_id, spans, seconds_per_frame, text, characters)


def _words_of_spans(
    utterances: Sequence[Utterance],
    phonemes: Sequence[str],
    frames_per_id: Sequence[np.ndarray],
    spans: Sequence[FrameSpans],
    seconds_per_frame: float,
    text: str,
    characters: bool,
) -> list[WordTiming]:
    """:func:`word_timings` from each utterance's frame spans (measured once, shared with the phoneme timings);
    ``phonemes``: each utterance's phoneme string (``Utterance.phonemes``, joined anew on every access)."""
    return _timed_words(_placements(text, utterances, characters, phonemes), frames_per_id, spans, seconds_per_frame)


def _placements(
    text: str, utterances: Sequence[Utterance], characters: bool, phonemes: Sequence[str] | None = None
) -> list[list[_Placed]]:
    """Per utterance, its words placed in ``text`` (:func:`_placed_words`, one aligner through the text). They
    depend on the text and the frontend's output only (no durations, no audio): a frontend worker process
    computes them with the utterances (:func:`_frontend_job`)."""
    aligner = OffsetAligner(text) if text else None
    phonemes = phonemes if phonemes is not None else [u.phonemes for u in utterances]
    return [
        _placed_words(ph, _timed_tokens(u.segments, characters), aligner, u.text)
        for u, ph in zip(utterances, phonemes, strict=True)
    ]


def _timed_words(
    placed: Sequence[Sequence[_Placed]], frames_per_id: Sequence[np.ndarray], spans: Sequence[FrameSpans], spf: float
) -> list[WordTiming]:
    """The placed words of utterances spoken one after another, timed by each one's frame spans."""
    words: list[WordTiming] = []
    offset = 0.0
    for ps, counts, s in zip(placed, frames_per_id, spans, strict=True):
        words += [p.timed(s, spf, offset) for p in ps]
        offset += float(np.sum(counts)) * spf
    return words


def _reading(entry: VoiceEntry, language: str) -> VoiceEntry:
    """``entry`` reading its text in ``language`` (every voice of a multi-speaker model reads every language:
    the frontend reads Latin-script text, Han characters, digits, in that language)."""
    if entry.config.language == language:
        return entry
    return dataclasses.replace(entry, config=dataclasses.replace(entry.config, language=language))


def _frontend_job(text: str, max_ids: int, language: str | None) -> tuple[list[Utterance], dict[str, int], list[list[_Placed]]]:
    """A frontend worker process's part of :meth:`TTS.synthesize_batch` (:class:`HostPool` with processes): the
    speakable utterances of ``text``, the characters skipped, and the words placed in the text (the Python
    half of the word timings, off the caller's GIL)."""
    from onestep.runtime.host_pool import worker_frontend

    skipped: Counter[str] = Counter()
    found = list(worker_frontend().speakable_sentences(text, max_ids, skipped, language))
    return found, dict(skipped), _placements(text, found, False)


def _spans(phonemes: str, counts: np.ndarray, samples: np.ndarray | None) -> FrameSpans:
    """An utterance's frame spans, measured on ``samples`` (its whole audio: frames x hop) when given."""
    n = int(np.sum(counts))
    if samples is None or n == 0:
        return frame_spans(phonemes, counts)
    samples = np.asarray(samples).reshape(-1)
    hop, rest = divmod(samples.size, n)
    if rest or hop == 0:
        raise ValueError(f"{samples.size} samples are not a whole number of hops for {n} frames")
    return frame_spans(phonemes, counts, samples, hop)


def _plan_phonemes(plan: Sequence[tuple[object, VoiceEntry | None]]) -> list[str]:
    from onestep.ssml import Phonemes

    return [piece.phonemes for piece, _ in plan if isinstance(piece, Phonemes)]


def _apply_output(audio: Audio, output: OutputOptions) -> Audio:
    """``audio`` at the options' sample rate and gain (timings are in seconds: unchanged)."""
    stage = OutputStage(output, audio.sample_rate)
    if stage.identity:
        return audio
    audio.samples = stage.whole(audio.samples)
    audio.sample_rate = stage.sample_rate
    return audio


def _assemble(
    utterances: Sequence[Utterance],
    counts: Sequence[np.ndarray],
    audios: Sequence[np.ndarray],
    engine: Engine,
    entry: VoiceEntry,
    timestamps: str = "word",
    text: str = "",
    placed: Sequence[Sequence[_Placed]] | None = None,
) -> Audio:
    """Join sentences' audio and timings into one :class:`Audio`.

    ``timestamps``: ``"word"``, ``"char"`` (Chinese words split into characters) or ``""`` (no timings).
    ``text``: the original input, which word offsets refer to (none when empty). ``placed``: the words of
    ``timestamps``' kind already placed in ``text`` (:func:`_placements`), else they are placed here.
    """
    spf = _seconds_per_frame(engine)
    words: list[WordTiming] = []
    stamps: list[PhonemeTiming] = []
    phonemes = [u.phonemes for u in utterances]
    if timestamps:  # an utterance's audio is exactly its frames x hop: sentences start where frames end
        spans = [_spans(ph, c, a) for ph, c, a in zip(phonemes, counts, audios, strict=True)]
        if placed is None:
            placed = _placements(text, utterances, timestamps == "char", phonemes)
        words = _timed_words(placed, counts, spans, spf)
        offset = 0.0
        for ph, c, s in zip(phonemes, counts, spans, strict=True):
            stamps += _phoneme_timings(ph, s, spf, offset)
            offset += float(np.sum(c)) * spf
    if len(audios) == 1:  # one sentence: its own array, no copy
        samples = np.asarray(audios[0])
    else:
        samples = np.concatenate(audios) if audios else np.zeros(0, dtype=np.float32)
    return Audio(samples.astype(np.float32, copy=False), engine.sample_rate, " ".join(phonemes), words, stamps, entry.name)
