"""Request bodies of the HTTP/WebSocket API and the checks that turn them into a ``SynthesisRequest``.

Voice names are only ever compared with the names the backend lists, so a name such as ``../../etc``
is rejected without any file system access.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr

from onestep.config import SPEED_MAX, SPEED_MIN
from onestep.errors import ConfigError
from onestep.languages import UnknownLanguageError, requested_language
from onestep.runtime.output import OutputOptions
from onestep.ssml import SsmlError, is_ssml, parse_ssml
from onestep.runtime.voices import OPENAI_VOICES as OPENAI_VOICE_TABLE
from onestep.runtime.voices import VoiceNotFoundError, canonical_voice, choose_voice
from onestep.server.backend import VoiceInfo
from onestep.server.errors import ApiError
from onestep.work_limits import NothingToSpeakError

#: OpenAI's built-in voice names: each is one of our voices (:data:`onestep.runtime.voices.OPENAI_VOICES`, the
#: one resolver maps them); a name whose voices are all missing gets the default voice of the input's language.
OPENAI_VOICES: frozenset[str] = frozenset(OPENAI_VOICE_TABLE)
OPENAI_SPEED_MIN, OPENAI_SPEED_MAX = 0.25, 4.0


class VoiceRef(BaseModel):
    """OpenAI's custom-voice object form: ``{"id": "<voice name>"}``."""

    model_config = ConfigDict(extra="ignore")
    id: StrictStr


class SpeechRequest(BaseModel):
    """``POST /v1/audio/speech`` (OpenAI-compatible; unknown OpenAI fields such as ``instructions`` are ignored).

    Attributes:
        model: accepted and ignored (``tts-1``, ``gpt-4o-mini-tts``, ``onestep``, ...).
        input: text to speak.
        voice: one of our voice names, an OpenAI voice name (the table in docs/VOICES.md), a seeded voice
            (``seed:1234``) or ``{"id": name}``.
        language / lang: our extra field: read the input in this language (``es``, ``ja``, ...: docs/LANGUAGES.md).
        response_format: ``mp3`` (OpenAI's default), ``wav``, ``pcm``, ``flac``, ``opus`` or ``aac``, as installed
            (``aac`` needs PyAV, the ``audio`` extra).
        bitrate: kbit/s of ``mp3``, ``aac`` or ``opus`` (8-320; default: the encoder's; needs PyAV).
        speed: OpenAI's range 0.25-4.0 is accepted and clamped to the engine's 0.5-2.0.
        stream_format: ``audio`` (raw bytes) or ``sse`` (``speech.audio.delta`` events).
        sample_rate: output Hz (8000, 16000, 22050, 24000, 44100, 48000; default the voice's 24000).
        gain_db: volume change in dB, with clipping prevention.
        timestamps: with ``stream_format="sse"``: ``speech.timestamps`` events (word times and offsets into
            ``input``) interleaved with the audio deltas; ``"char"``: Chinese words split into characters.
    """

    model_config = ConfigDict(extra="ignore")
    model: StrictStr = "onestep"
    input: StrictStr
    voice: StrictStr | VoiceRef | None = None
    response_format: StrictStr = "mp3"
    bitrate: StrictInt | None = None
    speed: StrictFloat = 1.0
    instructions: StrictStr | None = None
    stream_format: Literal["audio", "sse"] = "audio"
    sample_rate: int | None = None
    gain_db: StrictFloat | int = 0.0
    timestamps: bool | Literal["word", "char"] = False
    language: StrictStr | None = Field(default=None, validation_alias=AliasChoices("language", "lang"))


class SynthesizeBody(BaseModel):
    """``POST /synthesize``: ``{text, voice?, speed?, format?}`` (unknown fields are an error)."""

    model_config = ConfigDict(extra="forbid")
    text: StrictStr
    voice: StrictStr | None = None
    speed: StrictFloat = 1.0
    format: StrictStr = "wav"
    bitrate: StrictInt | None = None
    sample_rate: int | None = None
    gain_db: StrictFloat | int = 0.0
    timestamps: bool | Literal["word", "char"] = False
    language: StrictStr | None = None


class StreamMessage(BaseModel):
    """One WebSocket ``/v1/stream`` request: ``{text, voice?, speed?}``."""

    model_config = ConfigDict(extra="forbid")
    text: StrictStr
    voice: StrictStr | None = None
    speed: StrictFloat = 1.0
    sample_rate: int | None = None
    gain_db: StrictFloat | int = 0.0
    timestamps: bool | Literal["word", "char"] = False
    language: StrictStr | None = None
    type: Literal["synthesize"] = Field(default="synthesize")


#: A UTF-16 surrogate code point alone (JSON's ``"\\ud800"``): no UTF-8 encoding exists, so no reply could
#: quote it (the WebSocket start frame's ``skipped`` map, logs).
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(text: str) -> tuple[str, str] | None:
    """Why ``text`` cannot be synthesized before any work, as ``(message, code)``; None when it can be tried.

    Catches a lone surrogate (unencodable), a malformed SSML document and one with nothing in it
    (``<speak></speak>``: neither text, phonemes nor a break).
    """
    if (m := _LONE_SURROGATE.search(text)) is not None:
        return (f"text contains a lone surrogate U+{ord(m.group()):04X} at character {m.start()}, "
                "which is not a character (send UTF-8 text)", "invalid_text")  # fmt: skip
    if is_ssml(text):  # checked before admission: a malformed document never starts a stream
        try:
            parse_ssml(text)
        except SsmlError as e:
            return str(e), "invalid_ssml"
        except NothingToSpeakError as e:
            return str(e), "empty_input"
    return None


def check_text(text: str, max_chars: int, param: str) -> str:
    """``text`` if it has something to say, fits the limit and (SSML) parses, else a 400 naming ``param``."""
    if not text.strip():
        raise ApiError(400, f"{param} must not be empty", param=param, code="empty_input")
    if len(text) > max_chars:
        raise ApiError(
            400,
            f"{param} is {len(text)} characters; the limit is {max_chars}",
            param=param,
            code="input_too_long",
        )
    if (problem := text_problem(text)) is not None:
        raise ApiError(400, problem[0], param=param, code=problem[1])
    return text


def check_voice(voice: str | VoiceRef | None, voices: list[VoiceInfo], *, openai: bool) -> str | None:
    """Our voice name (checked by the one resolver, :func:`onestep.runtime.voices.choose_voice`), or ``None``
    for the input language's default; 400 for anything unknown."""
    name = voice.id if isinstance(voice, VoiceRef) else voice
    if name is None or name == "":
        return None
    try:
        return canonical_voice(voices, name)  # a name or a blend
    except VoiceNotFoundError:
        if openai and name.lower() in OPENAI_VOICES:
            return None
    shown = name if len(name) <= 64 else name[:64] + "..."
    available = ", ".join(sorted(v.name for v in voices)) or "none"
    extra = " (or an OpenAI voice name)" if openai else ""
    raise ApiError(
        400, f"unknown voice {shown!r}; available: {available}{extra}", param="voice", code="voice_not_found"
    )


def check_output(sample_rate: int | None, gain_db: float) -> OutputOptions:
    """The output options of a request (:mod:`onestep.runtime.output`), or a 400 naming the bad field."""
    try:
        return OutputOptions(sample_rate, float(gain_db))
    except ConfigError as e:
        param = "sample_rate" if str(e).startswith("sample_rate") else "gain_db"
        raise ApiError(400, str(e), param=param, code=f"invalid_{param}") from None


def check_language(language: str | None, param: str = "language") -> str | None:
    """A request's language (a registry code or a tag such as ``es-MX``) as a registry code, or a 400 naming
    the languages spoken here."""
    if language is None:
        return None
    try:
        return requested_language(language)
    except UnknownLanguageError as e:
        raise ApiError(400, str(e), param=param, code="unsupported_language") from None


def check_speed(speed: float, *, openai: bool) -> float:
    """The engine speed for a requested one.

    Native API: must lie in 0.5-2.0. OpenAI API: must lie in OpenAI's 0.25-4.0, then is clamped to 0.5-2.0.
    """
    speed = float(speed)
    lo, hi = (OPENAI_SPEED_MIN, OPENAI_SPEED_MAX) if openai else (SPEED_MIN, SPEED_MAX)
    if not lo <= speed <= hi:  # also rejects NaN
        raise ApiError(400, f"speed must be between {lo} and {hi}, got {speed}", param="speed", code="invalid_speed")
    return min(max(speed, SPEED_MIN), SPEED_MAX)


def openai_voice_table(voices: list[VoiceInfo]) -> dict[str, str]:
    """Each OpenAI voice name and the voice of ours it gives here (``/v1/audio/voices``, ``/info``)."""
    table: dict[str, str] = {}
    for alias in sorted(OPENAI_VOICES):
        try:
            table[alias] = choose_voice(voices, alias).name
        except VoiceNotFoundError:
            table[alias] = ""
    return table
