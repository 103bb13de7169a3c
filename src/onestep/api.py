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
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Literal

from onestep.config import SynthesisOptions, VoiceConfig
from onestep.runtime.engine import Engine
from onestep.runtime.engines import get_engine
from onestep.runtime.host_pool import HostPool
from onestep.runtime.output import OutputOptions, OutputStage
from onestep.runtime.pcm import to_pcm16
from onestep.runtime.voices import VoiceCatalog, VoiceNotFoundError
from onestep.synthesis.preload import PRELOAD_ENV, preload_mode
from onestep.synthesis.prepare import PreparedText, prepare_text
from onestep.synthesis.render import render_batch, render_phonemes, render_prepared, synthesize_prepared, timestamp_mode
from onestep.synthesis.resources import Resources, max_ids
from onestep.synthesis.results import Audio, AudioChunk, PhonemeTiming, WordTiming
from onestep.synthesis.ssml_plan import plan_rate, plan_ssml
from onestep.synthesis.streaming import stream_plan, stream_prepared, stream_text
from onestep.synthesis.timings import word_timings
from onestep.synthesis.voice_choice import VoiceArg, VoiceChoice
from onestep.work_limits import DEFAULT_MAX_PHONEMES

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.tokens import Utterance

__all__ = [
    "TTS", "Audio", "AudioChunk", "PhonemeTiming", "PreparedText", "VoiceNotFoundError", "WordTiming", "to_pcm16",
    "word_timings",
]  # fmt: skip
# also re-exported for their importers: PRELOAD_ENV, preload_mode, VoiceArg


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
        self._voices = VoiceChoice(self.catalog, voice)
        self._resources = Resources(self.engine_kind, threads, lexicon, self._voices, preload_mode(preload))
        if self._voices.default is not None:
            self._resources.engine(self._voices.default)
        self.preload_thread: threading.Thread | None = self._resources.start_preload()

    # --- voices and engines --------------------------------------------------------------------------

    def voices(self) -> list[VoiceConfig]:
        """Configs of the voices this instance can use (the one given by path first)."""
        return self._voices.configs()

    @property
    def sample_rate(self) -> int:
        """Hz of the default voice (all shipped voices share one rate)."""
        return self._voices.sample_rate

    def voice_language(self, voice: VoiceArg, text: str, language: str | None = None) -> str:
        """The language a call with these arguments reads Latin-script text and digits in (the requested one,
        else the voice's native language): what :meth:`synthesize` passes to the frontend."""
        return self._voices.entry(voice, text, language).config.language

    def engine(self, voice: VoiceArg = None, text: str = "") -> Engine:
        """The loaded engine of ``voice`` (or of the default voice for ``text``), loading it on first use."""
        return self._resources.engine(self._voices.entry(voice, text))

    def ready(self) -> bool:
        """Whether the frontend preload (if any) is over and every loaded engine is ready. A GPU engine
        (``device="cuda"``) captures its CUDA graphs in the background after loading and serves meanwhile,
        eagerly and slower; it is ready once its smallest batch size's graphs are captured (every call then
        runs on graphs; larger batches as several passes until their own sizes are captured, which goes on in
        the background after the preload). A server reports ready (``/health``) only once this is True."""
        return self._resources.ready()

    def wait_ready(self, timeout: float | None = None, *, complete: bool = False) -> bool:
        """Block until :meth:`ready` (or ``timeout`` seconds in all); returns :meth:`ready`. ``complete=True``
        also waits until a GPU engine has captured every batch size (a capture running beside requests stalls
        them; ``onestep serve`` reports ready only then) and returns whether it has."""
        return self._resources.wait_ready(timeout, complete=complete)

    def frontend(self) -> Frontend:
        """The shared text frontend (built on first use)."""
        return self._resources.frontend()

    # --- synthesis -----------------------------------------------------------------------------------

    max_ids = staticmethod(max_ids)  # TTS.max_ids(engine): its largest phoneme bucket less the two pads

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
        return synthesize_prepared(p, "char" if characters else "word", self._resources)

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
        return render_batch(
            texts, voices, speeds, languages, timestamps, pool, errors, self._resources, self.max_phonemes
        )

    def host_pool(self) -> HostPool:
        """The pool :meth:`synthesize_batch` uses when given none: one thread per usable core, the frontend on
        them (:mod:`onestep.runtime.host_pool`; started on first use, shared by every call)."""
        return self._resources.host_pool()

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
        ``onestep.runtime.host_pool``).

        Raises:
            NothingToSpeakError, TooMuchWorkError: as :meth:`synthesize`.
        """
        return prepare_text(
            text, voice, speed, self._resources, self.max_phonemes,
            sentences=sentences, sample_rate=sample_rate, gain_db=gain_db, ssml=ssml, language=language,
        )  # fmt: skip

    def render(self, prepared: Sequence[PreparedText], *, timestamps: bool | str = True) -> list[Audio]:
        """The engine half: one batched pass per (voice, speed) over every utterance of ``prepared``.

        Returns one :class:`Audio` per prepared text, in order. ``timestamps=False`` leaves the word and
        phoneme timings empty (a server that only sends audio skips their cost: ~0.25 ms a text on a CPU core);
        ``"char"`` splits Chinese words into characters.
        """
        return render_prepared(prepared, timestamp_mode(timestamps), self._resources)

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
        plan = plan_ssml(text, voice, ssml, self._voices, language)
        if plan is not None:
            rate = plan_rate(plan, voice, self._voices)
            return stream_plan(plan, speed, OutputStage(output, rate), words, self._resources, text)
        entry = self._voices.entry(voice, text, language)
        stage = OutputStage(output, self._resources.engine(entry).sample_rate)
        return stream_text(text, entry, speed, stage, self._resources, words)

    def stream_prepared(self, prepared: PreparedText, *, timestamps: bool | str = False) -> Iterator[AudioChunk]:
        """Yield the audio of a :meth:`prepare` d text in chunks, as :meth:`stream` does (no frontend work left).

        Output options come from :meth:`prepare`; ``timestamps`` as in :meth:`render` (``"char"`` splits
        Chinese words into characters).
        """
        return stream_prepared(prepared, timestamp_mode(timestamps), self._resources)

    def synthesize_phonemes(self, phonemes: str, voice: VoiceArg = None, speed: float = 1.0) -> Audio:
        """Synthesize one utterance given as phonemes of the 114-symbol inventory (no text frontend).

        Without ``voice``, the instance's voice or the default English voice is used. Raises ``ValueError``
        when the phonemes exceed the largest phoneme bucket.
        """
        return render_phonemes(phonemes, voice, speed, self._resources)
