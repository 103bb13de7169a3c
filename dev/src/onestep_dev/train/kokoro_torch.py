"""Kokoro-82M v1.0 teacher in PyTorch, with weights read from the shipped int8 ONNX file.

Why: the int8 ONNX teacher runs at ~7.5 s of audio per wall second on the GPU machine's 16 CPU cores, too slow
to regenerate hours of training audio every time a bare GPU machine starts. Kokoro's own PyTorch modules (PyPI
``kokoro``, Apache-2.0, used as a library) run the same network on the GPU at hundreds of times real time.

The weights come from the int8 ONNX graph (the only copy we may use offline): every quantized initializer is
dequantized as ``(q - zero_point) * scale``; module paths come from initializer names where they are proper
state-dict names, otherwise from the name of the node that consumes the initializer
(``/decoder/decoder/generator/resblocks.1/convs1.0/Conv_quant`` -> ``decoder.generator.resblocks.1.convs1.0``).
Weight norm is already folded in the ONNX graph, so it is removed from the PyTorch modules before loading.
LSTM weights are reordered from ONNX's gate order (i, o, f, c) to PyTorch's (i, f, g, o).

Only ``kokoro.istftnet`` and ``kokoro.modules`` are imported (the package ``__init__`` pulls the G2P pipeline and
model-hub code, which are neither needed nor available offline).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

# Kokoro v1.0's architecture hyper-parameters (the `config.json` of kokoro-onnx 0.6.1 minus the vocabulary).
KOKORO_CONFIG: dict = {
    "istftnet": {
        "upsample_kernel_sizes": [20, 12],
        "upsample_rates": [10, 6],
        "gen_istft_hop_size": 5,
        "gen_istft_n_fft": 20,
        "resblock_dilation_sizes": [[1, 3, 5], [1, 3, 5], [1, 3, 5]],
        "resblock_kernel_sizes": [3, 7, 11],
        "upsample_initial_channel": 512,
    },
    "dim_in": 64,
    "dropout": 0.2,
    "hidden_dim": 512,
    "max_conv_dim": 512,
    "max_dur": 50,
    "n_layer": 3,
    "n_mels": 80,
    "n_token": 178,
    "style_dim": 128,
    "text_encoder_kernel_size": 5,
    "plbert": {
        "hidden_size": 768,
        "num_attention_heads": 12,
        "intermediate_size": 2048,
        "max_position_embeddings": 512,
        "num_hidden_layers": 12,
        "dropout": 0.1,
    },
}
SAMPLES_PER_UNIT = 600  # one teacher duration unit at 24 kHz


def _import_kokoro_modules() -> types.ModuleType:
    """Import ``kokoro.modules`` (and ``kokoro.istftnet``) without running ``kokoro/__init__.py``."""
    if "kokoro.modules" in sys.modules:
        return sys.modules["kokoro.modules"]
    spec = importlib.util.find_spec("kokoro")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the 'kokoro' package (PyPI kokoro==0.9.4, install with --no-deps) is required")
    if "kokoro" not in sys.modules:
        package = types.ModuleType("kokoro")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["kokoro"] = package
    import kokoro.istftnet as istftnet
    import kokoro.modules as modules  # noqa: E402  (needs transformers' AlbertModel)

    istftnet.torch = _NoiselessTorch()
    return modules


class _NoiselessTorch:
    """Stand-in for ``torch`` inside ``kokoro.istftnet``: its harmonic source draws random initial phases and
    additive noise, which the shipped ONNX graph does not (it was exported with both at zero). Zeros here make
    the port match the ONNX teacher and make generation deterministic."""

    def __getattr__(self, name: str):
        return getattr(torch, name)

    @staticmethod
    def rand(*size, **kwargs):
        return torch.zeros(*size, device=kwargs.get("device"), dtype=kwargs.get("dtype"))

    @staticmethod
    def randn_like(x, *args, **kwargs):
        return torch.zeros_like(x)


class KokoroTorch(nn.Module):
    """Kokoro v1.0 with the attribute names of ``kokoro.model.KModel`` (bert, bert_encoder, predictor, ...)."""

    def __init__(self) -> None:
        super().__init__()
        modules = _import_kokoro_modules()
        from kokoro.istftnet import Decoder
        from transformers import AlbertConfig

        cfg = KOKORO_CONFIG
        self.bert = modules.CustomAlbert(AlbertConfig(vocab_size=cfg["n_token"], **cfg["plbert"]))
        self.bert_encoder = nn.Linear(cfg["plbert"]["hidden_size"], cfg["hidden_dim"])
        self.predictor = modules.ProsodyPredictor(
            style_dim=cfg["style_dim"], d_hid=cfg["hidden_dim"], nlayers=cfg["n_layer"],
            max_dur=cfg["max_dur"], dropout=cfg["dropout"],
        )
        self.text_encoder = modules.TextEncoder(
            channels=cfg["hidden_dim"], kernel_size=cfg["text_encoder_kernel_size"],
            depth=cfg["n_layer"], n_symbols=cfg["n_token"],
        )
        self.decoder = Decoder(
            dim_in=cfg["hidden_dim"], style_dim=cfg["style_dim"], dim_out=cfg["n_mels"],
            disable_complex=True, **cfg["istftnet"],
        )
        _remove_weight_norm(self)

    @torch.no_grad()
    def forward(self, ids: torch.Tensor, style: torch.Tensor, speed: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
        """Synthesize one utterance.

        Args:
            ids: int64 [1, T] phoneme ids including the two boundary pads (T <= 512).
            style: float32 [1, 256] voice style row (decoder half [:, :128], prosody half [:, 128:]).
            speed: speaking-rate multiplier.
        Returns:
            audio float32 [N] at 24 kHz and durations int64 [T] in teacher units; N == durations.sum() * 600.
        """
        T = ids.shape[1]
        lengths = torch.full((1,), T, dtype=torch.long, device=ids.device)
        pad_mask = torch.zeros((1, T), dtype=torch.bool, device=ids.device)  # True = padding (none here)
        bert_out = self.bert(ids, attention_mask=(~pad_mask).int())
        d_en = self.bert_encoder(bert_out).transpose(-1, -2)
        prosody_style = style[:, 128:]
        d = self.predictor.text_encoder(d_en, prosody_style, lengths, pad_mask)
        x, _ = self.predictor.lstm(d)
        duration = torch.sigmoid(self.predictor.duration_proj(x)).sum(dim=-1) / speed
        units = torch.round(duration).clamp(min=1).long().squeeze(0)  # [T]
        frame_owner = torch.repeat_interleave(torch.arange(T, device=ids.device), units)  # [F]
        alignment = torch.zeros((T, frame_owner.shape[0]), device=ids.device)
        alignment[frame_owner, torch.arange(frame_owner.shape[0], device=ids.device)] = 1.0
        alignment = alignment.unsqueeze(0)
        en = d.transpose(-1, -2) @ alignment
        f0, noise = self.predictor.F0Ntrain(en, prosody_style)
        t_en = self.text_encoder(ids, lengths, pad_mask)
        audio = self.decoder(t_en @ alignment, f0, noise, style[:, :128]).reshape(-1)
        return audio, units


def _remove_weight_norm(model: nn.Module) -> None:
    """Drop weight-norm parametrizations: the ONNX graph stores the folded weights."""
    for module in model.modules():
        if hasattr(module, "weight_g") and hasattr(module, "weight_v"):
            torch.nn.utils.remove_weight_norm(module)
        elif hasattr(module, "parametrizations") and "weight" in getattr(module, "parametrizations", {}):
            torch.nn.utils.parametrize.remove_parametrizations(module, "weight")


# ----------------------------------------------------------------------------------------------- ONNX weights
def _module_path_from_node(node_name: str) -> str:
    """``/encoder/text_encoder/cnn.0/cnn.0.0/Conv_quant`` -> ``text_encoder.cnn.0.0`` (KModel naming)."""
    parts = [p for p in node_name.split("/") if p][:-1]  # drop the op name
    path: list[str] = []
    for part in parts:
        if path and part.startswith(path[-1] + "."):
            path[-1] = part
        else:
            path.append(part)
    joined = ".".join(path)
    return _kmodel_name(joined)


def _kmodel_name(onnx_path: str) -> str:
    """Map an ONNX-side dotted path to the KModel state-dict prefix."""
    if onnx_path.startswith("decoder.decoder."):
        return "decoder." + onnx_path[len("decoder.decoder."):]
    if onnx_path.startswith("encoder."):
        rest = onnx_path[len("encoder."):]
        head = rest.split(".")[0]
        if head in {"F0", "N", "F0_proj", "N_proj", "shared"}:
            return "predictor." + rest
        return rest
    return onnx_path


@dataclass
class _Quantized:
    q: np.ndarray
    scale: np.ndarray
    zero_point: np.ndarray

    def dequantize(self, channel_axis: int) -> np.ndarray:
        q = self.q.astype(np.float32)
        scale, zp = self.scale.astype(np.float32), self.zero_point.astype(np.float32)
        if scale.ndim == 1 and scale.size > 1:
            shape = [1] * q.ndim
            shape[channel_axis] = scale.size
            scale, zp = scale.reshape(shape), zp.reshape(shape)
        return (q - zp) * scale


def onnx_weights(onnx_path: str | Path) -> dict[str, np.ndarray]:
    """Read the teacher ONNX file and return KModel-named float32 weights (not yet shape-checked)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(onnx_path))
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    weights: dict[str, np.ndarray] = {}

    def dequant(base: str, zp_name: str, channel_axis: int) -> np.ndarray:
        scale = init[base + "_scale"]
        return _Quantized(init[base + "_quantized"], scale, init[zp_name]).dequantize(channel_axis)

    for node in model.graph.node:
        if node.op_type in ("MatMulInteger", "ConvInteger"):
            w_name, zp_name = node.input[1], node.input[3]
            if not w_name.endswith("_quantized"):
                continue
            base = w_name[: -len("_quantized")]
            if node.op_type == "MatMulInteger":
                w = dequant(base, zp_name, channel_axis=1).T  # [in, out] -> Linear [out, in]
            else:
                w = dequant(base, zp_name, channel_axis=0)  # Conv [out, in, k]
            name = _kmodel_name(base) if base.endswith(".weight") else _module_path_from_node(node.name) + ".weight"
            weights[name] = np.ascontiguousarray(w)
        elif node.op_type == "DynamicQuantizeLSTM":
            prefix = _module_path_from_node(node.name)
            w = _Quantized(init[node.input[1]], init[node.input[8]], init[node.input[9]]).dequantize(0)
            r = _Quantized(init[node.input[2]], init[node.input[10]], init[node.input[11]]).dequantize(0)
            b = init[node.input[3]]  # [dirs, 8H]: Wb then Rb, gates i, o, f, c
            for direction in range(w.shape[0]):
                suffix = "_l0" + ("_reverse" if direction else "")
                # quantized LSTM weights are stored [input, 4H]; PyTorch wants [4H, input]
                weights[prefix + ".weight_ih" + suffix] = _iofc_to_ifgo(w[direction].T)
                weights[prefix + ".weight_hh" + suffix] = _iofc_to_ifgo(r[direction].T)
                hidden4 = w.shape[2]
                weights[prefix + ".bias_ih" + suffix] = _iofc_to_ifgo(b[direction, :hidden4])
                weights[prefix + ".bias_hh" + suffix] = _iofc_to_ifgo(b[direction, hidden4:])
        elif node.op_type == "DequantizeLinear" and node.input[0].endswith("_quantized"):
            # quantized embedding tables (Gather on int8 + DequantizeLinear)
            base = node.input[1][: -len("_scale")]
            q_name = base + "_quantized"
            if q_name in init:
                weights[_kmodel_name(base)] = _Quantized(init[q_name], init[node.input[1]], init[node.input[2]]).dequantize(0)
        elif node.op_type in ("ConvTranspose", "Conv", "MatMul") and node.input[1] in init:
            name = node.input[1]
            if name.endswith(".weight"):
                weights[_kmodel_name(name)] = init[name]
            elif node.op_type != "MatMul" or name.startswith("onnx::"):
                w = init[name]
                weights[_module_path_from_node(node.name) + ".weight"] = w.T if node.op_type == "MatMul" else w
    for name, value in init.items():
        if value.dtype == np.float32 and (name.startswith("encoder.") or name.startswith("decoder.")):
            key = _kmodel_name(name)
            weights.setdefault(key, value)
    return weights


def _iofc_to_ifgo(x: np.ndarray) -> np.ndarray:
    """Reorder LSTM gate blocks along axis 0 from ONNX (i, o, f, c) to PyTorch (i, f, g=c, o)."""
    i, o, f, c = np.split(x, 4, axis=0)
    return np.concatenate([i, f, c, o], axis=0)


def load_teacher(onnx_path: str | Path, device: str = "cpu") -> KokoroTorch:
    """Build :class:`KokoroTorch` and fill it with the ONNX file's weights; raises if any parameter is missing."""
    model = KokoroTorch().eval()
    weights = onnx_weights(onnx_path)
    state = model.state_dict()
    missing, loaded = [], {}
    for key, ref in state.items():
        value = weights.get(key)
        if value is None:
            missing.append(key)
            continue
        tensor = torch.from_numpy(np.array(value, dtype=np.float32))  # layouts are fixed in onnx_weights
        if tensor.shape != ref.shape:
            raise ValueError(f"teacher weight {key}: ONNX shape {tuple(tensor.shape)} != model {tuple(ref.shape)}")
        loaded[key] = tensor
    missing = [k for k in missing if not _is_derived_buffer(k)]
    if missing:
        raise ValueError(f"{len(missing)} teacher weights not found in ONNX, e.g. {missing[:12]}")
    model.load_state_dict(loaded, strict=False)
    return model.to(device)


def _is_derived_buffer(key: str) -> bool:
    """Entries with no ONNX source that keep their constructor values.

    STFT bases and position ids are computed by the modules; the ALBERT pooler is unused (only the last hidden
    state is read); AdaIN's instance-norm affine parameters exist only as an export work-around in Kokoro and
    stay at their identity initialisation (the ONNX graph folds them away).
    """
    if key.startswith("bert.pooler.") or key.endswith((".norm.weight", ".norm.bias")) and ".adain" in key or (
        key.endswith((".norm.weight", ".norm.bias")) and (".norm1." in key or ".norm2." in key)
    ):
        return True
    return any(s in key for s in ("position_ids", "token_type_ids", "stft.", "num_batches_tracked"))


if __name__ == "__main__":  # pragma: no cover - manual check: python -m onestep_dev.train.kokoro_torch MODEL.onnx
    m = load_teacher(sys.argv[1])
    print(json.dumps({"parameters": sum(p.numel() for p in m.parameters())}))
