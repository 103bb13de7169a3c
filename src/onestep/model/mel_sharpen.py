"""Mel sharpening folded into the vocoder: a fixed linear postfilter on the acoustic model's mels.

The acoustic model is trained with an L1 loss, so its mels are smoother across frequency than the teacher's
(formants and harmonics blurred); the vocoder, trained mostly on teacher mels, then renders a duller, noisier
voice (DNSMOS SIG/OVRL under the teacher's, most for the male voices). The postfilter restores contrast across
the mel bins of every frame::

    mel' = mel + strength * (mel - box(mel))        # box: a moving average over ``width`` bins, edge-padded

It is linear in the mel bins and leaves a frame that is the same in every bin (silence) unchanged, so it is
exactly a matrix ``T`` (n_mels, n_mels) with rows that sum to 1, and it folds into the vocoder's first layer (a
convolution over the mel bins): ``W'[o, i, k] = sum_j W[o, j, k] T[j, i]``. The exported graphs then carry it
with no extra operation, the same on every engine (ONNX Runtime, CUDA graphs) and in every precision. The
strength and width are written in ``voice.json`` (``extra["mel_sharpen"]``). One strength for every voice; a
strength per voice is :mod:`onestep.runtime.mel_postfilter` (``voice.json`` speakers' ``mel_sharpen``).
"""

from __future__ import annotations

import torch

from onestep.model.vocoder import Vocoder
from onestep.model.mel_box import box_difference


def sharpening_matrix(n_mels: int, strength: float, width: int) -> torch.Tensor:
    """``T`` float32 (n_mels, n_mels): ``mel' = T @ mel`` for a mel (n_mels, F).

    ``strength`` >= 0 (0: the identity); ``width`` an odd number of bins >= 3 (the moving average's span;
    bins past either edge count as the edge bin)."""
    if strength < 0:
        raise ValueError(f"mel sharpening strength must be >= 0, got {strength}")
    difference = torch.from_numpy(box_difference(n_mels, width))  # I - box
    return (torch.eye(n_mels, dtype=torch.float64) + strength * difference).float()


@torch.no_grad()
def fold_mel_sharpening(vocoder: Vocoder, strength: float, width: int) -> None:
    """Make ``vocoder(mel)`` render ``vocoder_before(T @ mel)`` (:func:`sharpening_matrix`), in place.

    Exact: the embed convolution is linear in its input channels; its bias is unchanged (``T`` maps a
    constant to itself, and the convolution's zero padding stays zero)."""
    weight = vocoder.embed.weight  # (dim, n_mels, kernel)
    t = sharpening_matrix(weight.shape[1], strength, width).to(weight.device, torch.float64)
    weight.copy_(torch.einsum("ojk,ji->oik", weight.double(), t).to(weight.dtype))
