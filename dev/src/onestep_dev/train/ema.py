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
    """The moving average of ``models``' weights with ``decay`` in (0, 1); :attr:`models` holds it (eval mode,
    no gradients, same device)."""

    def __init__(self, models: VoiceModels, decay: float) -> None:
        if not 0.0 < decay < 1.0:
            raise ValueError(f"EMA decay must be in (0, 1), got {decay}")
        self.decay = decay
        self.models: VoiceModels = copy.deepcopy(models).eval()
        for module in self.models.parts().values():
            module.requires_grad_(False)
        self._pairs: tuple[VoiceModels, list[torch.Tensor], list[torch.Tensor], list[tuple[torch.Tensor, torch.Tensor]]] | None = None

    @torch.no_grad()
    def update(self, models: VoiceModels) -> None:
        """One step of the average towards ``models``' current weights (tensors paired once, then reused: a
        state dict's tensors share their parameters' storage, and loading a state dict copies into them)."""
        if self._pairs is None or self._pairs[0] is not models:
            self._pairs = (models, *self._pair(models))
        _, averaged, live, copied = self._pairs
        torch._foreach_lerp_(averaged, live, 1.0 - self.decay)
        for dst, src in copied:
            dst.copy_(src)

    def _pair(self, models: VoiceModels) -> tuple[list[torch.Tensor], list[torch.Tensor], list[tuple[torch.Tensor, torch.Tensor]]]:
        averaged, live, copied = [], [], []
        sources = models.parts()
        for name, module in self.models.parts().items():
            mine, theirs = module.state_dict(keep_vars=False), sources[name].state_dict(keep_vars=False)
            for key, tensor in mine.items():
                if tensor.is_floating_point():
                    averaged.append(tensor)
                    live.append(theirs[key])
                else:
                    copied.append((tensor, theirs[key]))
        return averaged, live, copied
