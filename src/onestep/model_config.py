"""``ModelConfig``: the sizes of a voice's student networks (acoustic model, mel decoder, vocoder).

Kept free of torch so that ``voice.json`` (where it travels as ``extra["model"]``) can be validated anywhere.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from onestep.errors import ConfigError

N_SYMBOLS = 178  # phoneme ids 0..177 (Kokoro's table; 0 = pad/boundary)
VOCODER_EMBED_KERNEL = 7  # kernel of the vocoder's input conv, frames


@dataclass(frozen=True)
class ModelConfig:
    """Dimensions of the three student networks.

    Attributes:
        n_symbols: size of the phoneme embedding table (ids ``0..n_symbols-1``).
        acoustic_dim: channels of the phoneme encoder; also the ``hidden`` width ``C`` fed to the decoder.
        acoustic_ffn: inner width of the encoder's ConvNeXt blocks.
        encoder_blocks: ConvNeXt blocks of the phoneme encoder.
        encoder_kernel: depthwise kernel size (odd) of the encoder and duration predictor, in phonemes.
        duration_blocks: ConvNeXt blocks of the duration predictor (same width as the encoder).
        decoder_dim: channels of the frame-rate mel decoder.
        decoder_ffn: inner width of the decoder's ConvNeXt blocks.
        decoder_blocks: ConvNeXt blocks of the decoder.
        decoder_kernel: depthwise kernel size (odd) of the decoder, in frames.
        n_mels: mel bands produced by the decoder and consumed by the vocoder.
        vocoder_dim: channels of the vocoder backbone.
        vocoder_ffn: inner width of the vocoder's ConvNeXt blocks.
        vocoder_blocks: ConvNeXt blocks of the vocoder.
        vocoder_kernel: depthwise kernel size (odd) of the vocoder, in frames.
        hop_length: samples per frame (must equal the voice's ``audio.hop_length``).
        istft_n_fft: FFT size of the vocoder's iSTFT head, samples; a multiple of ``hop_length``. Default
            2 × hop (600, 25 ms): measured on ORT CPU it makes the vocoder ~10 % cheaper than 4 × hop (1200)
            at dim 384 (the inverse-DFT matmul is 4× smaller) and the ONNX file 4 MB smaller, while its 40 Hz
            bins still separate the harmonics of voices above ~80 Hz F0; 1200 remains a config switch.
        istft_drop_dc: the iSTFT head synthesizes no 0 Hz bin. Speech has nothing there, but a vocoder that
            learned the teacher port's low-frequency rumble put a DC offset into every frame (en-heart: mean
            sample +0.016 at a speech RMS of ~0.06) that cost 0.19 DNSMOS OVRL (TRAINING.md). A bool; voices
            whose ``voice.json`` predates this field keep the DC bin (see :meth:`from_dict`).
        n_speakers: rows of the speaker table of a multi-speaker model (one per trained voice); 0 = a
            single-speaker model whose graphs take no speaker input (voices before 0.2).
        speaker_dim: width ``S`` of a speaker vector. The acoustic and decoder graphs take one vector per
            utterance (``speaker`` (B, S) float32); a blend of voices is a weighted sum of their rows.
    """

    n_symbols: int = N_SYMBOLS
    acoustic_dim: int = 256
    acoustic_ffn: int = 768
    encoder_blocks: int = 6
    encoder_kernel: int = 5
    duration_blocks: int = 2
    decoder_dim: int = 256
    decoder_ffn: int = 768
    decoder_blocks: int = 6
    decoder_kernel: int = 7
    n_mels: int = 100
    vocoder_dim: int = 384
    vocoder_ffn: int = 1152
    vocoder_blocks: int = 8
    vocoder_kernel: int = 7
    hop_length: int = 300
    istft_n_fft: int = 600
    istft_drop_dc: bool = True
    n_speakers: int = 0
    speaker_dim: int = 64

    def __post_init__(self) -> None:
        if not isinstance(self.istft_drop_dc, bool):
            raise ConfigError(f"model.istft_drop_dc must be true or false, got {self.istft_drop_dc!r}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "istft_drop_dc":
                continue
            if f.name == "n_speakers" and isinstance(value, int) and not isinstance(value, bool) and value == 0:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigError(f"model.{f.name} must be a positive int, got {value!r}")
        if self.n_symbols < N_SYMBOLS:
            raise ConfigError(f"model.n_symbols must be >= {N_SYMBOLS}, got {self.n_symbols}")
        for name in ("encoder_kernel", "decoder_kernel", "vocoder_kernel"):
            if getattr(self, name) % 2 == 0:
                raise ConfigError(f"model.{name} must be odd, got {getattr(self, name)}")
        if self.istft_n_fft % self.hop_length or self.istft_n_fft < 2 * self.hop_length:
            raise ConfigError(
                f"model.istft_n_fft ({self.istft_n_fft}) must be a multiple >= 2 of hop_length ({self.hop_length})"
            )
        if (self.istft_n_fft - self.hop_length) % 2:
            raise ConfigError(f"model.istft_n_fft - hop_length must be even, got {self.istft_n_fft - self.hop_length}")

    @property
    def vocoder_context(self) -> int:
        """Receptive radius of the vocoder in frames (conv stack plus iSTFT overlap).

        Audio samples of frame ``t`` depend only on mel frames ``t - r .. t + r``; streaming runs the vocoder
        on windows with ``r`` frames of context on each side and the result equals the one-shot audio.
        """
        conv = VOCODER_EMBED_KERNEL // 2 + self.vocoder_blocks * (self.vocoder_kernel // 2)
        pad = (self.istft_n_fft - self.hop_length) // 2
        istft = (pad + self.hop_length - 1) // self.hop_length
        return conv + istft

    @property
    def multi_speaker(self) -> bool:
        """True when the graphs take a ``speaker`` vector (``n_speakers > 0``)."""
        return self.n_speakers > 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelConfig:
        """Build from a dict (``voice.json``'s ``extra["model"]``); unknown keys are an error.

        A dict without ``istft_drop_dc`` was written before the field existed, by a vocoder that synthesizes
        the DC bin: it gets ``False`` so that networks rebuilt from such a voice match its ONNX graphs.
        """
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise ConfigError(f"model config: unknown keys {sorted(unknown)}")
        return cls(**{"istft_drop_dc": False, **data})


TINY = ModelConfig(
    acoustic_dim=32,
    acoustic_ffn=64,
    encoder_blocks=2,
    encoder_kernel=3,
    duration_blocks=1,
    decoder_dim=32,
    decoder_ffn=64,
    decoder_blocks=2,
    decoder_kernel=3,
    vocoder_dim=32,
    vocoder_ffn=64,
    vocoder_blocks=2,
    vocoder_kernel=3,
    istft_n_fft=600,
)
"""A very small configuration for tests and the checked-in fixture voice (random weights)."""
