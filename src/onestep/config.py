"""Configuration dataclasses shared from training to export to runtime.

``VoiceConfig`` mirrors a shipped voice's ``voice.json``; ``SynthesisOptions`` holds the per-call knobs.
Both validate on construction so that a bad file or argument fails before anything heavy is built.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from onestep.languages import language_codes

SPEED_MIN, SPEED_MAX = 0.5, 2.0


class ConfigError(ValueError):
    """A configuration file or option is invalid; the message names the field."""


@dataclass(frozen=True)
class AudioConfig:
    """Signal parameters of a voice.

    Attributes:
        sample_rate: Hz (24000 for voices distilled from Kokoro).
        hop_length: samples per mel frame (300 = 12.5 ms; one teacher duration unit = 2 frames).
        n_fft: FFT size of the mel analysis / iSTFT synthesis, samples.
        win_length: analysis window, samples.
        n_mels: mel bands.
        f_min, f_max: mel filterbank range, Hz.
    """

    sample_rate: int = 24000
    hop_length: int = 300
    n_fft: int = 1200
    win_length: int = 1200
    n_mels: int = 100
    f_min: float = 0.0
    f_max: float = 12000.0

    def __post_init__(self) -> None:
        for name in ("sample_rate", "hop_length", "n_fft", "win_length", "n_mels"):
            if int(getattr(self, name)) <= 0:
                raise ConfigError(f"audio.{name} must be positive, got {getattr(self, name)!r}")
        if self.win_length > self.n_fft:
            raise ConfigError("audio.win_length must be <= audio.n_fft")
        if not 0 <= self.f_min < self.f_max <= self.sample_rate / 2:
            raise ConfigError("audio.f_min/f_max must satisfy 0 <= f_min < f_max <= sample_rate/2")


def int8_path(path: str | Path) -> Path:
    """``vocoder.onnx`` -> ``vocoder.int8.onnx``: where a voice keeps a graph's INT8 variant (written by
    ``onestep.model.quantize``; the CPU engine prefers it when present)."""
    path = Path(path)
    return path.with_name(path.name.removesuffix(".onnx") + ".int8.onnx")


@dataclass(frozen=True)
class VoiceConfig:
    """Model-bound description of a voice (the ``voice.json`` beside its ONNX files).

    Attributes:
        name: voice id used by ``--voice`` and the API (letters, digits, ``_`` and ``-``).
        language: a code of the language registry (``"zh"``, ``"en"``): the language whose text selects this
            voice by default.
        version: voice version string.
        audio: signal parameters.
        files: ONNX file names relative to the voice directory: keys ``acoustic``, ``decoder``, ``vocoder``.
        phoneme_buckets: static phoneme-id lengths (pads included) the acoustic graph is run at.
        frame_buckets: static frame counts the decoder/vocoder graphs are run at.
        vocoder_context: frames of left/right context streaming needs for a seamless vocoder join.
        hidden_dim: channels of the acoustic encoder output fed to the decoder.
        teacher: where the training audio came from (e.g. ``"kokoro-82m-v1.0/af_heart"``).
        license: licence of the voice weights.
        placeholder: True for randomly initialized voices (development only: they speak noise).
        extra: free-form metadata (training steps, eval numbers, ...).
    """

    name: str
    language: str
    version: str = "0.1.0"
    audio: AudioConfig = field(default_factory=AudioConfig)
    files: dict[str, str] = field(
        default_factory=lambda: {"acoustic": "acoustic.onnx", "decoder": "decoder.onnx", "vocoder": "vocoder.onnx"}
    )
    phoneme_buckets: tuple[int, ...] = (32, 64, 128, 256, 512)
    frame_buckets: tuple[int, ...] = (128, 256, 512, 1024, 2048)
    vocoder_context: int = 16
    hidden_dim: int = 256
    teacher: str = ""
    license: str = "Apache-2.0"
    placeholder: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import re

        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", self.name or ""):
            raise ConfigError(f"voice name {self.name!r} must be 1-64 letters, digits, '_' or '-'")
        if self.language not in language_codes():
            known = " or ".join(repr(code) for code in language_codes())
            raise ConfigError(f"voice {self.name}: language must be {known}, got {self.language!r}")
        for key in ("acoustic", "decoder", "vocoder"):
            if key not in self.files:
                raise ConfigError(f"voice {self.name}: files.{key} is missing")
        for label, buckets in (("phoneme_buckets", self.phoneme_buckets), ("frame_buckets", self.frame_buckets)):
            if not buckets or list(buckets) != sorted(set(buckets)) or buckets[0] <= 0:
                raise ConfigError(f"voice {self.name}: {label} must be strictly increasing positive ints")
        if self.vocoder_context < 0:
            raise ConfigError(f"voice {self.name}: vocoder_context must be >= 0")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VoiceConfig:
        """Build from parsed ``voice.json``; unknown keys are an error (they are usually typos)."""
        data = dict(data)
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"voice.json: unknown keys {sorted(unknown)}")
        if "audio" in data:
            data["audio"] = AudioConfig(**data["audio"])
        for key in ("phoneme_buckets", "frame_buckets"):
            if key in data:
                data[key] = tuple(int(x) for x in data[key])
        try:
            return cls(**data)
        except TypeError as e:
            raise ConfigError(f"voice.json: {e}") from e

    @classmethod
    def load(cls, path: str | Path) -> VoiceConfig:
        """Read and validate a ``voice.json`` file."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise ConfigError(f"cannot read voice config {path}: {e}") from e
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["phoneme_buckets"] = list(self.phoneme_buckets)
        d["frame_buckets"] = list(self.frame_buckets)
        return d

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class SynthesisOptions:
    """Per-call synthesis settings.

    Attributes:
        speed: speaking rate multiplier, 0.5-2.0 (durations are divided by it).
        volume: linear gain applied to the output samples.
    """

    speed: float = 1.0
    volume: float = 1.0

    def __post_init__(self) -> None:
        try:
            speed = float(self.speed)
        except (TypeError, ValueError) as e:
            raise ConfigError(f"speed must be a number, got {self.speed!r}") from e
        if not SPEED_MIN <= speed <= SPEED_MAX:
            raise ConfigError(f"speed must be between {SPEED_MIN} and {SPEED_MAX}, got {self.speed}")
        if not 0.0 <= float(self.volume) <= 4.0:
            raise ConfigError(f"volume must be between 0 and 4, got {self.volume}")
