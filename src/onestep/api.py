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

import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from onestep.config import SynthesisOptions, VoiceConfig
from onestep.frontend.symbols import phonemes_to_ids, vocab
from onestep.languages import DEFAULT_LANGUAGE
from onestep.runtime.engine import Engine
from onestep.runtime.engines import get_engine
from onestep.runtime.pcm import to_pcm16
from onestep.runtime.voices import (
    VoiceCatalog,
    VoiceEntry,
    VoiceNotFoundError,
    load_voice_dir,
)
from onestep.work_limits import (
    DEFAULT_MAX_PHONEMES,
    TooMuchWorkError,
    bounded,
    count_phonemes,
    nothing_to_speak,
    too_much_work_message,
)

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.tokens import Token, Utterance

VoiceArg = str | os.PathLike[str] | None

__all__ = ["TTS", "Audio", "AudioChunk", "PhonemeTiming", "PreparedText", "VoiceNotFoundError", "WordTiming", "to_pcm16"]


@dataclass(frozen=True)
class PhonemeTiming:
    """One phoneme symbol and when it sounds, in seconds from the start of the audio."""

    phoneme: str
    start: float
    end: float


@dataclass(frozen=True)
class WordTiming:
    """One word (or Chinese word) with its phonemes and when it sounds, in seconds from the start."""

    text: str
    phonemes: str
    start: float
    end: float


@dataclass
class Audio:
    """A synthesized text.

    Attributes:
        samples: float32 [N] mono PCM in [-1, 1].
        sample_rate: Hz.
        phonemes: the phonemes spoken, sentences joined by a space.
        words: per word timing (from the predicted durations); empty for phoneme input.
        phoneme_timestamps: per phoneme symbol timing.
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

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a 16-bit PCM file; the format follows the extension (``.wav``, ``.flac``, ``.ogg``)."""
        import soundfile

        soundfile.write(str(path), self.samples, self.sample_rate, subtype="PCM_16")


@dataclass
class AudioChunk:
    """A piece of streamed audio.

    Attributes:
        samples: float32 [n] mono PCM in [-1, 1].
        sample_rate: Hz.
        sentence: index of the sentence (of the frontend's split) the chunk belongs to.
    """

    samples: np.ndarray
    sample_rate: int
    sentence: int = 0

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
        utterances: the frontend's speakable pieces of the text, each fitting the largest phoneme bucket.
        ids: per utterance, its phoneme ids ``[0, *ids, 0]``.
        skipped: characters of the text that could not be spoken, with their counts.
    """

    entry: VoiceEntry
    engine: Engine
    speed: float
    utterances: list[Utterance]
    ids: list[list[int]]
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def batch_key(self) -> tuple[Path, float]:
        """Texts with equal keys (same voice, same speed) can share one batched engine pass."""
        return (self.entry.path, self.speed)


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
        self._frontend: Frontend | None = None
        self._voice: VoiceEntry | None = None
        if voice is not None:
            self._voice = self._entry(voice, "")
            self._engine(self._voice)

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

    def _entry(self, voice: VoiceArg, text: str) -> VoiceEntry:
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
                if os.sep in voice or "/" in voice:
                    raise VoiceNotFoundError(f"{e} (to load a voice directory pass a pathlib.Path)") from None
                raise
        raise TypeError(f"voice must be a name, a pathlib.Path or None, got {type(voice).__name__}")

    def engine(self, voice: VoiceArg = None, text: str = "") -> Engine:
        """The loaded engine of ``voice`` (or of the default voice for ``text``), loading it on first use."""
        return self._engine(self._entry(voice, text))

    def _engine(self, entry: VoiceEntry) -> Engine:
        engine = self._engines.get(entry.path)  # loaded engines are served without waiting for a load
        if engine is None:
            with self._lock:
                engine = self._engines.get(entry.path)
                if engine is None:
                    engine = self.engine_kind.load(entry.path, self.threads)
                    self._engines[entry.path] = engine
        return engine

    def frontend(self) -> Frontend:
        """The shared text frontend (built on first use)."""
        if self._frontend is None:
            with self._lock:
                if self._frontend is None:
                    from onestep.frontend.pipeline import Frontend

                    self._frontend = Frontend(lexicon=self.lexicon)
        return self._frontend

    # --- synthesis -----------------------------------------------------------------------------------

    def _sentences(self, text: str, engine: Engine, skipped: Counter[str] | None = None) -> Iterator[Utterance]:
        """The frontend's pieces of ``text`` that fit the voice's largest phoneme bucket, lazily (``skipped``
        counts the characters that cannot be spoken)."""
        return self.frontend().speakable_sentences(text, self.max_ids(engine), skipped)

    @staticmethod
    def max_ids(engine: Engine) -> int:
        """The most phoneme ids per utterance for ``engine``: its largest bucket less the two boundary pads."""
        return engine.config.phoneme_buckets[-1] - 2

    def synthesize(self, text: str, voice: VoiceArg = None, speed: float = 1.0) -> Audio:
        """Synthesize ``text`` (split into sentences).

        Raises:
            NothingToSpeakError: nothing in the text can be spoken (a :class:`onestep.errors.UserError`).
            TooMuchWorkError: the text has more than ``max_phonemes`` phonemes (use :meth:`stream`).
        """
        p = self.prepare(text, voice, speed)
        results = [p.engine.synthesize(ids, p.speed) for ids in p.ids]
        frames, audio = [r.frames_per_id for r in results], [r.audio for r in results]
        out = _assemble(p.utterances, frames, audio, p.engine, p.entry)
        out.skipped = p.skipped
        return out

    def synthesize_batch(
        self,
        texts: Sequence[str],
        voices: Sequence[VoiceArg] | None = None,
        speeds: Sequence[float] | None = None,
    ) -> list[Audio]:
        """Synthesize several texts, batching the sentences that share a voice and a speed into one engine pass.

        Args:
            texts: N texts.
            voices: N voice names/paths (None entries: chosen by language), or None for all default.
            speeds: N speeds, or None for 1.0.
        Returns:
            N :class:`Audio`, in input order (the same audio as :meth:`synthesize` of each text).
        """
        n = len(texts)
        voices = list(voices) if voices is not None else [None] * n
        speeds = list(speeds) if speeds is not None else [1.0] * n
        if not len(voices) == len(speeds) == n:
            raise ValueError(f"texts, voices and speeds differ in length: {n}, {len(voices)}, {len(speeds)}")
        return self.render([self.prepare(t, v, s) for t, v, s in zip(texts, voices, speeds, strict=True)])

    def prepare(
        self,
        text: str,
        voice: VoiceArg = None,
        speed: float = 1.0,
        *,
        sentences: Callable[[str, int], list[Utterance]] | None = None,
    ) -> PreparedText:
        """The text half of synthesis: check the options, load the voice, run the frontend (no engine pass).

        A server runs this on its frontend threads and :meth:`render` on the engine's, batching requests.
        ``sentences(text, max_ids)``, when given, replaces this instance's frontend pass: it must return the
        speakable utterances of ``text`` of at most ``max_ids`` ids each, as this instance's frontend
        would (the GPU server's worker processes, ``onestep.server.frontend_pool``).

        Raises:
            NothingToSpeakError, TooMuchWorkError: as :meth:`synthesize`.
        """
        speed = SynthesisOptions(speed=speed).speed
        entry = self._entry(voice, text)
        engine = self._engine(entry)
        skipped: Counter[str] = Counter()
        if sentences is None:
            utterances = list(bounded(self._sentences(text, engine, skipped), self.max_phonemes))
        else:
            utterances = sentences(text, self.max_ids(engine))
            if self.max_phonemes is not None and sum(count_phonemes(u.phonemes) for u in utterances) > self.max_phonemes:
                raise TooMuchWorkError(too_much_work_message(self.max_phonemes), self.max_phonemes)
        if not utterances:
            raise nothing_to_speak(skipped)
        ids = [phonemes_to_ids(u.phonemes) for u in utterances]
        return PreparedText(entry, engine, speed, utterances, ids, dict(skipped))

    def render(self, prepared: Sequence[PreparedText], *, timestamps: bool = True) -> list[Audio]:
        """The engine half: one batched pass per (voice, speed) over every utterance of ``prepared``.

        Returns one :class:`Audio` per prepared text, in order. ``timestamps=False`` leaves the word and
        phoneme timings empty (a server that only sends audio skips their cost: ~0.25 ms a text on a CPU core).
        """
        groups: dict[tuple[Path, float], list[tuple[int, int]]] = {}
        for i, p in enumerate(prepared):
            for j in range(len(p.ids)):
                groups.setdefault(p.batch_key, []).append((i, j))
        out: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        for (_, speed), members in groups.items():
            engine = prepared[members[0][0]].engine
            batch = [prepared[i].ids[j] for i, j in members]
            for key, result in zip(members, engine.synthesize_batch(batch, speed), strict=True):
                out[key] = (result.frames_per_id, result.audio)
        audios = []
        for i, p in enumerate(prepared):
            parts = [out[(i, j)] for j in range(len(p.ids))]
            audio = _assemble(p.utterances, [q[0] for q in parts], [q[1] for q in parts], p.engine, p.entry, timestamps)
            audio.skipped = p.skipped
            audios.append(audio)
        return audios

    def stream(self, text: str, voice: VoiceArg = None, speed: float = 1.0) -> Iterator[AudioChunk]:
        """Yield the audio of ``text`` in chunks, each as soon as it is ready (sentence by sentence).

        The voice and speed are checked now; the work happens while the returned iterator is consumed, one
        sentence at a time, so memory stays bounded for any length of text. The iterator raises
        :class:`~onestep.work_limits.NothingToSpeakError` at its end if nothing in the text could be spoken.
        """
        speed = SynthesisOptions(speed=speed).speed
        engine = self.engine(voice, text)
        return self._stream(text, engine, speed)

    def _stream(self, text: str, engine: Engine, speed: float) -> Iterator[AudioChunk]:
        skipped: Counter[str] = Counter()
        spoken = False
        for index, utterance in enumerate(self._sentences(text, engine, skipped)):
            streamed = engine.stream(phonemes_to_ids(utterance.phonemes), speed)
            for samples in streamed.chunks:
                spoken = True
                yield AudioChunk(samples, engine.sample_rate, index)
        if not spoken:
            raise nothing_to_speak(skipped)

    def stream_prepared(self, prepared: PreparedText) -> Iterator[AudioChunk]:
        """Yield the audio of a :meth:`prepare` d text in chunks, as :meth:`stream` does (no frontend work left)."""
        engine = prepared.engine
        for index, ids in enumerate(prepared.ids):
            for samples in engine.stream(ids, prepared.speed).chunks:
                yield AudioChunk(samples, engine.sample_rate, index)

    def synthesize_phonemes(self, phonemes: str, voice: VoiceArg = None, speed: float = 1.0) -> Audio:
        """Synthesize one utterance given as phonemes of the 114-symbol inventory (no text frontend).

        Without ``voice``, the instance's voice or the default English voice is used. Raises ``ValueError``
        when the phonemes exceed the largest phoneme bucket.
        """
        speed = SynthesisOptions(speed=speed).speed
        entry = self._entry(voice, "")
        engine = self._engine(entry)
        result = engine.synthesize(phonemes_to_ids(phonemes), speed)
        stamps = _phoneme_timings(phonemes, result.frames_per_id, _seconds_per_frame(engine), 0.0)
        return Audio(result.audio, engine.sample_rate, phonemes, [], stamps, entry.name)


# --- timing alignment --------------------------------------------------------------------------------------


def _seconds_per_frame(engine: Engine) -> float:
    return engine.config.audio.hop_length / engine.config.audio.sample_rate


def _phoneme_timings(phonemes: str, counts: np.ndarray, spf: float, offset: float) -> list[PhonemeTiming]:
    """Timing of each inventory symbol of ``phonemes`` (symbol ``k`` is model id ``k + 1``, after the pad)."""
    table = vocab()
    ends = np.cumsum(counts)
    starts = ends - counts
    kept = [c for c in phonemes if c in table]
    return [
        PhonemeTiming(c, offset + float(starts[k + 1]) * spf, offset + float(ends[k + 1]) * spf)
        for k, c in enumerate(kept)
    ]


def _word_timings(
    phonemes: str, tokens: Sequence[Token], counts: np.ndarray, spf: float, offset: float
) -> list[WordTiming]:
    """Timing of each word token, found in order in the utterance's phoneme string."""
    table = vocab()
    kept_before = np.concatenate([[0], np.cumsum([c in table for c in phonemes])])  # [len+1]
    ends = np.cumsum(counts)
    starts = ends - counts
    words: list[WordTiming] = []
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
            start, end = offset + float(starts[first]) * spf, offset + float(ends[last]) * spf
            words.append(WordTiming(token.text, token.phonemes, start, end))
    return words


def _assemble(
    utterances: Sequence[Utterance],
    counts: Sequence[np.ndarray],
    audios: Sequence[np.ndarray],
    engine: Engine,
    entry: VoiceEntry,
    timestamps: bool = True,
) -> Audio:
    """Join sentences' audio and (unless ``timestamps`` is False) timings into one :class:`Audio`."""
    spf = _seconds_per_frame(engine)
    words: list[WordTiming] = []
    stamps: list[PhonemeTiming] = []
    offset = 0.0
    for utterance, c, a in zip(utterances, counts, audios, strict=True):
        if not timestamps:
            continue
        tokens = [t for segment in utterance.segments for t in segment.tokens]
        words += _word_timings(utterance.phonemes, tokens, c, spf, offset)
        stamps += _phoneme_timings(utterance.phonemes, c, spf, offset)
        offset += a.size / engine.sample_rate
    samples = np.concatenate(audios) if audios else np.zeros(0, dtype=np.float32)
    phonemes = " ".join(u.phonemes for u in utterances)
    return Audio(samples.astype(np.float32, copy=False), engine.sample_rate, phonemes, words, stamps, entry.name)
