"""Bounds on the work one request may cause, shared by the Python API and the servers.

A text's cost is its phoneme count: the engine's time and the audio's length both grow with it (about
:data:`SECONDS_PER_PHONEME` of speech per phoneme at speed 1). A few kilobytes of digits can phonemize to
tens of thousands of phonemes (half an hour of audio), so the bound is on phonemes, counted as the frontend
produces them: the text is refused as soon as the count passes the limit, before any engine work.

This module imports only :mod:`onestep.errors`; every layer may use it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from onestep.errors import UserError

#: Default cap on phonemes per request (~12 minutes of speech at speed 1): far above any 5,000-character
#: prose text (~4,500 phonemes), far below what a few kilobytes of digits or symbols expand to.
DEFAULT_MAX_PHONEMES = 10_000

#: Seconds of speech per phoneme at speed 1 (shipped voices, measured on held-out prose: ~0.07-0.08 s).
SECONDS_PER_PHONEME = 0.075

#: Default cap on the audio one server request may make, seconds (15 min): what will be spoken, counted before
#: any work as planned phonemes x :data:`SECONDS_PER_PHONEME` / speed + breaks (:func:`planned_audio_s`), and
#: enforced on the audio itself while it is made (an estimate can be short: spelled-out letters run ~1.8x).
DEFAULT_MAX_AUDIO_S = 900.0


class TooMuchWorkError(UserError, ValueError):
    """A request would phonemize to more than its limit; the message gives the limit and how to split."""

    def __init__(self, message: str, limit: int) -> None:
        super().__init__(message)
        self.limit = limit


class NothingToSpeakError(UserError, ValueError):
    """The text has nothing a voice can speak (empty, punctuation only, or only skipped characters)."""

    def __init__(self, message: str, skipped: Mapping[str, int] | None = None) -> None:
        super().__init__(message)
        self.skipped = dict(skipped or {})


class _HasPhonemes(Protocol):
    @property
    def phonemes(self) -> str: ...


def count_phonemes(phonemes: str) -> int:
    """Phoneme symbols of a phoneme string (spaces between words are not counted)."""
    return len(phonemes) - phonemes.count(" ")


def bounded(utterances: Iterable[_HasPhonemes], max_phonemes: int | None) -> Iterator[_HasPhonemes]:
    """Yield ``utterances`` lazily, raising :class:`TooMuchWorkError` as soon as their phonemes pass
    ``max_phonemes`` (None: no limit), so an oversized text is refused before its end is phonemized."""
    total = 0
    for utterance in utterances:
        total += count_phonemes(utterance.phonemes)
        if max_phonemes is not None and total > max_phonemes:
            raise too_much_work(max_phonemes)
        yield utterance


def too_much_work_message(max_phonemes: int) -> str:
    minutes = max_phonemes * SECONDS_PER_PHONEME / 60
    return (
        f"text too long to synthesize in one request: more than {max_phonemes} phonemes "
        f"(the limit, about {minutes:.0f} min of speech); split it into several requests or stream it"
    )


#: Default bound on the audio a server stream holds between the engine and its writer, seconds (~1.9 MB of
#: float32 at 48 kHz): past it the engine waits for the client to read.
DEFAULT_MAX_BUFFERED_S = 10.0


def planned_audio_s(phonemes: float, speed: float, pause_s: float = 0.0) -> float:
    """Seconds of audio a text will make: ``phonemes`` (after SSML expansion: say-as, sub, phoneme) spoken at
    ``speed`` (the slowest rate of any of its parts), plus ``pause_s`` seconds of breaks."""
    return max(0.0, phonemes) * SECONDS_PER_PHONEME / max(speed, 1e-3) + max(0.0, pause_s)


def too_much_audio_message(limit_s: float, planned_s: float | None = None) -> str:
    """The 413 message of a request over the audio cap (``planned_s``: its estimate, when refused before work)."""
    about = f" (about {planned_s / 60:.0f} min planned)" if planned_s is not None else ""
    return (
        f"this request would make more than {limit_s:g} s ({limit_s / 60:.0f} min) of audio, the limit per "
        f"request{about}; split it into several requests, or raise the speed"
    )


def too_much_work(max_phonemes: int) -> TooMuchWorkError:
    """The error for a text of more than ``max_phonemes`` phonemes."""
    return TooMuchWorkError(too_much_work_message(max_phonemes), max_phonemes)


def nothing_to_speak(skipped: Mapping[str, int]) -> NothingToSpeakError:
    """The error for a text without speakable content, naming the characters that were skipped."""
    detail = f" (skipped: {describe_skipped(skipped)})" if skipped else ""
    return NothingToSpeakError(f"nothing to speak in the text{detail}", skipped)


def describe_skipped(skipped: Mapping[str, int], limit: int = 20) -> str:
    """``"U+2605 '★' x2, U+1F600 '😀'"``: skipped characters, most frequent first (at most ``limit``)."""
    items = sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))
    parts = [f"U+{ord(c):04X} {c!r}" + (f" x{n}" if n > 1 else "") for c, n in items[:limit]]
    if len(items) > limit:
        parts.append(f"and {len(items) - limit} more")
    return ", ".join(parts)


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim  # noqa: B018 - glibc only
    except (OSError, AttributeError):
        return None
    return libc


def trim_allocator() -> bool:
    """Give the C heap's free memory back to the system (glibc ``malloc_trim(0)``); False where unavailable.

    Large requests leave big freed arenas in glibc's heap (audio buffers, ONNX Runtime's intermediate
    tensors of long windows); without a trim the process keeps them and its RSS stays at its peak.
    """
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
