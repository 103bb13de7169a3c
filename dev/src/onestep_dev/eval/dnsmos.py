"""DNSMOS P.835 (signal, background, overall) and P.808 quality estimates via ``speechmos``.

DNSMOS rates how clean and natural speech sounds, not whether it is intelligible (garbled speech can score like
clean speech): always read it next to WER/CER.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Protocol

import numpy as np

from onestep_dev.eval.audio import to_rate

DNSMOS_SAMPLE_RATE = 16000


@dataclass(frozen=True)
class Quality:
    """DNSMOS scores on a 1-5 scale: ``sig`` speech signal, ``bak`` background, ``ovrl`` overall, ``p808``."""

    sig: float
    bak: float
    ovrl: float
    p808: float

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


class QualityScorer(Protocol):
    """Anything that scores audio quality (DNSMOS, or a fake in tests)."""

    def score(self, audio: np.ndarray, sample_rate: int) -> Quality:
        """Quality of float32 [N] audio at ``sample_rate`` Hz."""
        ...


class DNSMOS:
    """The non-personalized DNSMOS models shipped in ``speechmos==0.0.1.1``."""

    def __init__(self) -> None:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        from speechmos import dnsmos

        self._run = dnsmos.run

    def score(self, audio: np.ndarray, sample_rate: int) -> Quality:
        """Score float32 [N] audio (resampled to 16 kHz; clips shorter than 9 s are looped by speechmos)."""
        clip = to_rate(audio, sample_rate, DNSMOS_SAMPLE_RATE)
        if clip.size == 0 or not np.any(clip):
            return Quality(float("nan"), float("nan"), float("nan"), float("nan"))
        out = self._run(clip, DNSMOS_SAMPLE_RATE)
        return Quality(float(out["sig_mos"]), float(out["bak_mos"]), float(out["ovrl_mos"]), float(out["p808_mos"]))
