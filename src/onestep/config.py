"""Configuration dataclasses shared from training to export to runtime.

``VoiceConfig`` mirrors a shipped voice's ``voice.json``; ``SynthesisOptions`` holds the per-call knobs.
Both validate on construction so that a bad file or argument fails before anything heavy is built.

Each dimension is stored once in ``voice.json``: the signal's ``hop_length`` and ``n_mels`` in ``audio``, the
networks' sizes in ``model`` (:class:`~onestep.model_config.ModelConfig`, whose ``hop_length``/``n_mels`` are
filled from ``audio`` on load and must agree with it), the decoder's input width as ``model.acoustic_dim``
(``VoiceConfig.hidden_dim`` is derived from it). Files written before these were typed fields (model config
in ``extra.model``, default flag in ``extra.default``, ``hidden_dim`` beside ``extra.model``) load the same.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from onestep.errors import ConfigError
from onestep.languages import language_codes
from onestep.model_config import ModelConfig

__all__ = ["AudioConfig", "ConfigError", "ModelConfig", "SpeakerInfo", "SynthesisOptions", "VoiceConfig", "int8_path"]

SPEED_MIN, SPEED_MAX = 0.5, 2.0


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
    ``onestep.model.quantize``; the CPU engine prefers it when present). An INT8 path is its own variant
    (a shipped voice's ``voice.json`` names ``decoder.int8.onnx`` itself: one precision per network)."""
    path = Path(path)
    if path.name.endswith(".int8.onnx"):
        return path
    return path.with_name(path.name.removesuffix(".onnx") + ".int8.onnx")


_GENDERS = ("female", "male")
MAX_MEL_SHARPEN = 4.0
"""The largest mel postfilter strength a voice may ask for (0.75 is the one screened on all 41 voices)."""
DEFAULT_FILES = {"acoustic": "acoustic.onnx", "decoder": "decoder.onnx", "vocoder": "vocoder.onnx"}
"""The graph files of a voice directory (``VoiceConfig.files``' default)."""


@dataclass(frozen=True)
class SpeakerInfo:
    """One voice inside a multi-speaker model (a row of its speaker table, ``speakers.npy``).

    Attributes:
        name: the voice's user-facing name (``--voice``, the API), e.g. ``"en-heart"``.
        language: the registry code of its native language (the language whose text selects it by default).
        gender: ``"female"`` or ``"male"``.
        accent: e.g. ``"American"``, ``"British"``, ``"Mandarin"``.
        teacher: the teacher voice it was distilled from (e.g. ``"kokoro-82m-v1.0/af_heart"``).
        default: this voice is its language's default.
        languages: the language codes it passed the quality gate in (shown by ``onestep voices``).
        quality: measured figures (``onestep eval``), free-form, e.g. ``{"en": {"wer": 2.1, "dnsmos": 3.2}}``.
        mel_sharpen: strength of the mel postfilter every engine applies to this voice between the decoder and
            the vocoder (:mod:`onestep.runtime.mel_postfilter`; 0: none, at most :data:`MAX_MEL_SHARPEN`). Not
            written when 0.
    """

    name: str
    language: str
    gender: str = ""
    accent: str = ""
    teacher: str = ""
    default: bool = False
    languages: tuple[str, ...] = ()
    quality: dict[str, Any] = field(default_factory=dict)
    mel_sharpen: float = 0.0

    def __post_init__(self) -> None:
        import re

        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", self.name or ""):
            raise ConfigError(f"speaker name {self.name!r} must be 1-64 letters, digits, '_' or '-'")
        codes = language_codes()
        if self.language not in codes or any(code not in codes for code in self.languages):
            raise ConfigError(f"speaker {self.name}: unknown language in {self.language!r} / {list(self.languages)}")
        if self.gender and self.gender not in _GENDERS:
            raise ConfigError(f"speaker {self.name}: gender must be one of {_GENDERS}, got {self.gender!r}")
        if not isinstance(self.default, bool):
            raise ConfigError(f"speaker {self.name}: default must be true or false")
        if isinstance(self.mel_sharpen, bool) or not isinstance(self.mel_sharpen, (int, float)) or not (
            0 <= self.mel_sharpen <= MAX_MEL_SHARPEN
        ):
            raise ConfigError(
                f"speaker {self.name}: mel_sharpen must be a number 0-{MAX_MEL_SHARPEN:g}, got {self.mel_sharpen!r}"
            )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SpeakerInfo:
        if not isinstance(data, dict):
            raise ConfigError(f"voice.json: each speaker must be an object, got {data!r}")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ConfigError(f"voice.json: unknown speaker keys {sorted(unknown)}")
        data = dict(data)
        if "languages" in data:
            data["languages"] = tuple(data["languages"])
        try:
            return cls(**data)
        except TypeError as e:
            raise ConfigError(f"voice.json speaker: {e}") from e


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
        hidden_dim: channels of the acoustic encoder output fed to the decoder: ``model.acoustic_dim`` when
            ``model`` is known (giving another value is an error), else as given (default 256).
        teacher: where the training audio came from (e.g. ``"kokoro-82m-v1.0/af_heart"``).
        license: licence of the voice weights.
        placeholder: True for randomly initialized voices (development only: they speak noise).
        model: sizes of the networks behind the graphs (written by ``onestep export``); None for voices
            whose ``voice.json`` does not say (the CPU engine does not need it; the GPU engine does).
        default: this voice is its language's default (see ``VoiceCatalog.default_for``).
        extra: free-form metadata (training steps, eval numbers, ...); ``extra["model"]`` and
            ``extra["default"]`` given here (the old places) are moved into ``model`` and ``default``.
        speakers: the voices of a multi-speaker model (``model.n_speakers`` of them, in speaker-table order;
            their vectors in ``files["speakers"]``, a float32 ``.npy`` of shape (n_speakers, speaker_dim)).
            Empty for a single-speaker voice, which is one voice called ``name``.
    """

    name: str
    language: str
    version: str = "0.1.0"
    audio: AudioConfig = field(default_factory=AudioConfig)
    files: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_FILES))
    phoneme_buckets: tuple[int, ...] = (32, 64, 128, 256, 512)
    frame_buckets: tuple[int, ...] = (128, 256, 512, 1024, 2048)
    vocoder_context: int = 16
    hidden_dim: int | None = None
    teacher: str = ""
    license: str = "Apache-2.0"
    placeholder: bool = False
    model: ModelConfig | None = None
    default: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    speakers: tuple[SpeakerInfo, ...] = ()

    def __post_init__(self) -> None:
        import re

        self._adopt_legacy_extra()
        self._check_speakers()

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
        if not isinstance(self.default, bool):
            raise ConfigError(f"voice {self.name}: default must be true or false, got {self.default!r}")
        model = self.model
        if model is None:
            object.__setattr__(self, "hidden_dim", 256 if self.hidden_dim is None else self.hidden_dim)
            return
        if self.hidden_dim not in (None, model.acoustic_dim):
            raise ConfigError(
                f"voice {self.name}: hidden_dim {self.hidden_dim} differs from model.acoustic_dim {model.acoustic_dim}"
            )
        object.__setattr__(self, "hidden_dim", model.acoustic_dim)
        if (model.hop_length, model.n_mels) != (self.audio.hop_length, self.audio.n_mels):
            raise ConfigError(
                f"voice {self.name}: model hop/mels ({model.hop_length}/{model.n_mels}) differ from "
                f"audio ({self.audio.hop_length}/{self.audio.n_mels})"
            )

    def _check_speakers(self) -> None:
        """A multi-speaker model names every row of its table once, and says where the table is."""
        n = self.model.n_speakers if self.model is not None else 0
        if not self.speakers and not n:
            return
        if len(self.speakers) != n:
            raise ConfigError(f"voice {self.name}: {len(self.speakers)} speakers listed for model.n_speakers={n}")
        names = [s.name for s in self.speakers]
        if len(set(names)) != len(names):
            raise ConfigError(f"voice {self.name}: speaker names repeat: {names}")
        if "speakers" not in self.files:
            raise ConfigError(f"voice {self.name}: files.speakers (the speaker table) is missing")

    @property
    def multi_speaker(self) -> bool:
        """True for a multi-speaker model (its graphs take a speaker vector)."""
        return bool(self.speakers)

    def _adopt_legacy_extra(self) -> None:
        """Move ``extra["model"]``/``extra["default"]`` (where voice.json kept them before) into the fields."""
        if "model" not in self.extra and "default" not in self.extra:
            return
        extra = dict(self.extra)
        if "model" in extra:
            legacy = extra.pop("model")
            if isinstance(legacy, dict):
                legacy = _model_from_dict(legacy, self.audio)
            if not isinstance(legacy, ModelConfig):
                raise ConfigError(f"voice {self.name}: extra.model must be an object, got {legacy!r}")
            if self.model is not None and self.model != legacy:
                raise ConfigError(f"voice {self.name}: model and extra.model differ")
            object.__setattr__(self, "model", legacy)
        if "default" in extra:
            object.__setattr__(self, "default", extra.pop("default") is True or self.default)
        object.__setattr__(self, "extra", extra)

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
        if isinstance(data.get("model"), dict):
            data["model"] = _model_from_dict(data["model"], data.get("audio") or AudioConfig())
        for key in ("phoneme_buckets", "frame_buckets"):
            if key in data:
                data[key] = tuple(int(x) for x in data[key])
        if "speakers" in data:
            if not isinstance(data["speakers"], list):
                raise ConfigError("voice.json: speakers must be a list")
            data["speakers"] = tuple(SpeakerInfo.from_dict(s) for s in data["speakers"])
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
        """The ``voice.json`` form: each dimension once (no ``hidden_dim`` and no ``model.hop_length``/
        ``model.n_mels`` when ``model`` is known; see the module docstring)."""
        d = asdict(self)
        d["phoneme_buckets"] = list(self.phoneme_buckets)
        d["frame_buckets"] = list(self.frame_buckets)
        if not self.speakers:
            del d["speakers"]
        else:
            for speaker in d["speakers"]:
                speaker["languages"] = list(speaker["languages"])
                if not speaker["mel_sharpen"]:
                    del speaker["mel_sharpen"]
        if self.model is None:
            del d["model"]
        else:
            del d["hidden_dim"]
            d["model"] = {k: v for k, v in self.model.to_dict().items() if k not in _MODEL_KEYS_FROM_AUDIO}
        return d

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


_MODEL_KEYS_FROM_AUDIO = ("hop_length", "n_mels")  # ModelConfig fields stored once, in voice.json's audio


def _model_from_dict(data: dict[str, Any], audio: AudioConfig) -> ModelConfig:
    """A ``ModelConfig`` from ``voice.json``'s ``model`` (or legacy ``extra.model``) object; ``hop_length`` and
    ``n_mels`` come from ``audio`` when the object leaves them out."""
    if not isinstance(audio, AudioConfig):
        audio = AudioConfig(**audio)
    filled = {"hop_length": audio.hop_length, "n_mels": audio.n_mels, **data}
    return ModelConfig.from_dict(filled)


@dataclass(frozen=True)
class SynthesisOptions:
    """Per-call synthesis settings.

    Attributes:
        speed: speaking rate multiplier, 0.5-2.0 (durations are divided by it). Loudness is the output
            stage's ``gain_db`` (:class:`onestep.runtime.output.OutputOptions`).
    """

    speed: float = 1.0

    def __post_init__(self) -> None:
        try:
            speed = float(self.speed)
        except (TypeError, ValueError) as e:
            raise ConfigError(f"speed must be a number, got {self.speed!r}") from e
        if not SPEED_MIN <= speed <= SPEED_MAX:
            raise ConfigError(f"speed must be between {SPEED_MIN} and {SPEED_MAX}, got {self.speed}")
