"""Audio format names, media types, file extensions and bitrates (no codec imported: the CLI's options read these)."""

from __future__ import annotations

import os

from onestep.errors import UserError

MEDIA_TYPES: dict[str, str] = {
    "wav": "audio/wav",
    "pcm": "audio/pcm",
    "flac": "audio/flac",
    "mp3": "audio/mpeg",
    "opus": "audio/ogg; codecs=opus",
    "aac": "audio/aac",
}


class UnsupportedFormatError(UserError, ValueError):
    """The requested response format cannot be produced here."""


#: File extension -> format (``ogg`` and ``opus`` files hold Ogg Opus).
EXTENSION_FORMATS: dict[str, str] = {
    "wav": "wav",
    "flac": "flac",
    "mp3": "mp3",
    "ogg": "opus",
    "opus": "opus",
    "aac": "aac",
    "pcm": "pcm",
    "raw": "pcm",
}


def format_name(name: str) -> str:
    """The format a ``--format``/``format=`` value names: a format (``opus``) or a file extension (``ogg``,
    ``raw``); :class:`UnsupportedFormatError` for anything else."""
    key = name.lower().lstrip(".")
    if key in MEDIA_TYPES:
        return key
    if key in EXTENSION_FORMATS:
        return EXTENSION_FORMATS[key]
    known = ", ".join(sorted(set(MEDIA_TYPES) | set(EXTENSION_FORMATS)))
    raise UnsupportedFormatError(f"unknown audio format {name!r}; use one of {known}")


def format_for_path(path: str | os.PathLike[str]) -> str:
    """The format a file name's extension names (see :data:`EXTENSION_FORMATS`); wav when it names none."""
    suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if not suffix:
        return "wav"
    if suffix not in EXTENSION_FORMATS:
        known = ", ".join(f".{e}" for e in EXTENSION_FORMATS)
        raise UnsupportedFormatError(f"cannot tell the audio format of {os.fspath(path)!r}: use {known}, or --format")
    return EXTENSION_FORMATS[suffix]


#: Formats whose bitrate can be chosen (``bitrate=`` / ``--bitrate``, kbit/s), and the range taken.
BITRATE_FORMATS = ("mp3", "aac", "opus")
BITRATE_RANGE_KBPS = (8, 320)


def check_bitrate(fmt: str, kbps: int | None) -> None:
    """Raise :class:`UnsupportedFormatError` when a bitrate is asked of a format without one (wav, flac, pcm) or
    lies outside :data:`BITRATE_RANGE_KBPS`. None (the encoder's default) always passes."""
    if kbps is None:
        return
    if fmt not in BITRATE_FORMATS:
        raise UnsupportedFormatError(f"a bitrate applies to {', '.join(BITRATE_FORMATS)}, not {fmt}")
    low, high = BITRATE_RANGE_KBPS
    if isinstance(kbps, bool) or not isinstance(kbps, int) or not low <= kbps <= high:
        raise UnsupportedFormatError(f"bitrate must be {low}-{high} kbit/s, got {kbps!r}")
