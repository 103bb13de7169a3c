"""An exponential moving average (EMA) of the generator's weights (acoustic model, decoder, vocoder).

After every training step ``w_ema <- decay * w_ema + (1 - decay) * w`` for each floating-point parameter and
buffer (others are copied). With ``decay`` 0.999 the average spans the last ~1,000 steps: it smooths the step-to-step
noise of GAN training and of the vocoder's fine-tune, which the raw weights of the last step carry into an export.
The average starts from the weights the run starts (or resumes) with. It is written beside each checkpoint as a
checkpoint of its own (``step-N/ema/``: ``acoustic.pt``, ``vocoder.pt``, ``meta.json``), which ``onestep export
--checkpoint .../step-N/ema`` exports like any other; the raw weights stay the training state.
"""

from __future__ import annotations

import copy

import torch

from onestep.model.voice_models import VoiceModels


class EmaWeights:
    """The moving average of ``models``' weights with ``decay`` in (0, 1), following those same ``models``;
    :attr:`models` holds it (eval mode, no gradients, same device)."""

    def __init__(self, models: VoiceModels, decay: float) -> None:
        if not 0.0 < decay < 1.0:
            raise ValueError(f"EMA decay must be in (0, 1), got {decay}")
        self.decay = decay
        self.models: VoiceModels = copy.deepcopy(models).eval()
        # tensors paired once: a state dict's tensors share their parameters' storage, and loading a state dict
        # (a resume) copies into them
        self._averaged: list[torch.Tensor] = []
        self._live: list[torch.Tensor] = []
        self._copied: list[tuple[torch.Tensor, torch.Tensor]] = []
        sources = models.parts()
        for name, module in self.models.parts().items():
            module.requires_grad_(False)
            theirs = sources[name].state_dict()
            for key, tensor in module.state_dict().items():
                if tensor.is_floating_point():
                    self._averaged.append(tensor)
                    self._live.append(theirs[key])
                else:
                    self._copied.append((tensor, theirs[key]))

    @torch.no_grad()
    def update(self) -> None:
        """One step of the average towards the followed models' current weights."""
        torch._foreach_lerp_(self._averaged, self._live, 1.0 - self.decay)
        for dst, src in self._copied:
            dst.copy_(src)
