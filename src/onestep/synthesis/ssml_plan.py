"""SSML input as a plan: its pieces (speech, phonemes, pauses) in order, each with the voice that speaks it."""

from __future__ import annotations

from collections.abc import Sequence

from onestep.runtime.voices import VoiceEntry
from onestep.ssml.parse import Piece, SsmlError
from onestep.synthesis.resources import Resources
from onestep.synthesis.voice_choice import VoiceArg, VoiceChoice, reading
from onestep.work_limits import SECONDS_PER_PHONEME, bounded, count_phonemes, too_much_work

Plan = list[tuple[Piece, VoiceEntry | None]]
"""An SSML text's pieces in order, each with its voice (None for a pause)."""


def plan_ssml(
    text: str, voice: VoiceArg, ssml: bool | None, voices: VoiceChoice, language: str | None = None
) -> Plan | None:
    """SSML input's pieces, each with the voice that speaks it (None for pauses); None for plain text.

    Voice per piece: ``<voice name>`` (the one resolver), else for ``<lang>`` the call's voice when it
    speaks that language, else the language's default voice; else the call's voice, else by the text.
    """
    from onestep.ssml import Pause, is_ssml, parse_ssml

    if not (ssml or (ssml is None and is_ssml(text))):
        return None
    pieces = parse_ssml(text if is_ssml(text) else f"<speak>{text}</speak>")
    steps: Plan = []
    for piece in pieces:
        if isinstance(piece, Pause):
            steps.append((piece, None))
            continue
        if piece.voice is not None:
            entry = voices.entry(piece.voice, "")
        elif piece.language is not None:
            given = voices.entry(voice, "") if voice is not None or voices.default is not None else None
            same = given is not None and given.config.language == piece.language
            entry = reading(given if same else voices.catalog.resolve(language=piece.language), piece.language)
        else:
            entry = voices.entry(voice, piece.text, language)
        steps.append((piece, entry))
    return steps


def plan_rate(plan: Plan, voice: VoiceArg, voices: VoiceChoice) -> int:
    """The one native sample rate (Hz) of a plan's voices (a UserError when they differ)."""
    rates = {e.config.audio.sample_rate for _, e in plan if e is not None}
    if len(rates) > 1:
        raise SsmlError(f"the voices of this SSML differ in sample rate ({sorted(rates)}); use voices of one rate")
    return rates.pop() if rates else voices.entry(voice, "").config.audio.sample_rate


def plan_work(plan: Plan, max_phonemes: int | None, resources: Resources) -> tuple[int, int]:
    """An SSML text's work in phonemes: its pieces' phonemes plus its breaks (each second of silence counted
    as the phonemes that would fill it), bounded like a plain text's by ``max_phonemes`` (raises
    :class:`TooMuchWorkError` before any engine work, as soon as the sum passes the limit); and its first
    utterance's phonemes. Returns (total, first)."""
    from onestep.ssml import Pause, Phonemes

    limit = max_phonemes
    total, first = 0.0, 0
    for piece, entry in plan:
        if isinstance(piece, Pause):
            total += piece.seconds / SECONDS_PER_PHONEME
        elif isinstance(piece, Phonemes):
            total += count_phonemes(piece.phonemes)
            first = first or count_phonemes(piece.phonemes)
        elif entry is not None:
            budget = None if limit is None else max(limit - int(total), 0)
            for utterance in bounded(resources.sentences(piece.text, entry), budget):
                total += count_phonemes(utterance.phonemes)
                first = first or count_phonemes(utterance.phonemes)
        if limit is not None and total > limit:
            raise too_much_work(limit)
    return round(total), first


def plan_phonemes(plan: Sequence[tuple[object, VoiceEntry | None]]) -> list[str]:
    """The phonemes of a plan's ``<phoneme>`` pieces, in order."""
    from onestep.ssml import Phonemes

    return [piece.phonemes for piece, _ in plan if isinstance(piece, Phonemes)]
