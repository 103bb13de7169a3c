"""The text half of synthesis: a request's options checked, its voice loaded, its text through the frontend
(or its SSML planned), ready for an engine pass (:class:`PreparedText`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from onestep.config import SynthesisOptions
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.engine import Engine
from onestep.runtime.host_pool import HostPool
from onestep.runtime.output import OutputOptions
from onestep.runtime.voices import VoiceEntry
from onestep.synthesis.resources import Resources, max_ids
from onestep.synthesis.ssml_plan import Plan, plan_ssml, plan_work
from onestep.synthesis.voice_choice import VoiceArg
from onestep.work_limits import (
    bounded,
    count_phonemes,
    nothing_to_speak,
    too_much_work,
)

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.tokens import Utterance


@dataclass(frozen=True)
class PreparedText:
    """A text after the frontend, ready for the engine (:meth:`onestep.TTS.prepare`; ``TTS.render`` speaks it).

    Attributes:
        entry, engine: the voice and its loaded engine.
        speed: checked speaking rate.
        output: sample rate and gain of the delivered audio (:mod:`onestep.runtime.output`).
        text: the input as given. plan: for SSML input, its pieces with their voices (``utterances`` empty).
        utterances: the frontend's speakable pieces of the text, each fitting the largest phoneme bucket.
        ids: per utterance, its phoneme ids ``[0, *ids, 0]``.
        skipped: characters of the text that could not be spoken, with their counts.
        plan_phonemes: for SSML input, (its work in phonemes: its pieces' phonemes and its breaks, its first
            utterance's phonemes), see :func:`onestep.synthesis.ssml_plan.plan_work` (what a server's admission
            costs it by).
    """

    entry: VoiceEntry
    engine: Engine
    speed: float
    utterances: list[Utterance]
    ids: list[list[int]]
    output: OutputOptions = OutputOptions()
    text: str = ""
    plan: Plan | None = None
    skipped: dict[str, int] = field(default_factory=dict)
    plan_phonemes: tuple[int, int] = (0, 0)

    @property
    def batch_key(self) -> tuple[Path, str, float]:
        """Texts with equal keys (same voice, same speed) can share one batched engine pass."""
        return (self.entry.path, self.entry.name, self.speed)


def prepare_text(
    text: str,
    voice: VoiceArg,
    speed: float,
    resources: Resources,
    max_phonemes: int | None,
    *,
    sentences: Callable[[str, int, str], list[Utterance]] | None = None,
    sample_rate: int | None = None,
    gain_db: float = 0.0,
    ssml: bool | None = None,
    language: str | None = None,
) -> PreparedText:
    """``TTS.prepare``: check the options, load the voice, run the frontend (``sentences`` in its place when
    given) or plan the SSML; no engine pass.

    Raises:
        NothingToSpeakError: nothing in the text can be spoken.
        TooMuchWorkError: the text has more than ``max_phonemes`` phonemes.
    """
    voices = resources.voices
    speed = SynthesisOptions(speed=speed).speed
    output = OutputOptions(sample_rate, gain_db)
    plan = plan_ssml(text, voice, ssml, voices, language)
    if plan is not None:
        entry = next((e for _, e in plan if e is not None), None) or voices.entry(voice, "", language)
        work = plan_work(plan, max_phonemes, resources)
        if work[0] == 0 and not _has_pause(plan):
            raise nothing_to_speak({})  # e.g. <speak>★</speak>: no phoneme, no break asked for
        return PreparedText(entry, resources.engine(entry), speed, [], [], output, text, plan, plan_phonemes=work)
    entry = voices.entry(voice, text, language)
    engine = resources.engine(entry)
    skipped: Counter[str] = Counter()
    if sentences is None:
        utterances = list(bounded(resources.sentences(text, entry, skipped), max_phonemes))
    else:
        utterances = sentences(text, max_ids(engine), entry.config.language)
        if max_phonemes is not None and sum(count_phonemes(u.phonemes) for u in utterances) > max_phonemes:
            raise too_much_work(max_phonemes)
    if not utterances:
        raise nothing_to_speak(skipped)
    ids = [phonemes_to_ids(u.phonemes) for u in utterances]
    return PreparedText(entry, engine, speed, utterances, ids, output, text, skipped=dict(skipped))


def prepare_job(
    job: tuple[str, VoiceArg, float, str | None], pool: HostPool, resources: Resources, max_phonemes: int | None
) -> PreparedText:
    """:func:`prepare_text` of one ``(text, voice, speed, language)`` (on a host pool's thread; with worker
    processes, ``TTS.synthesize_batch`` takes :mod:`onestep.synthesis.remote`'s path instead)."""
    text, voice, speed, language = job
    return prepare_text(text, voice, speed, resources, max_phonemes, language=language)


def _has_pause(plan: Plan) -> bool:
    from onestep.ssml import Pause

    return any(isinstance(piece, Pause) for piece, _ in plan)


def is_ssml_text(text: str) -> bool:
    """Whether ``text`` starts as SSML (the SSML package imported only when asked)."""
    from onestep.ssml import is_ssml

    return is_ssml(text)
