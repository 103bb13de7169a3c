"""ONNX export of a voice (three graphs + ``voice.json``) and weight recovery from the shipped graphs.

The graphs are the only weight files a voice ships: every parameter is an ONNX initializer named exactly as
in the PyTorch ``state_dict`` of its network, so ``load_voice_models`` rebuilds the PyTorch networks (for the
GPU engine) from ``voice.json`` + the ONNX files alone.

By default every initializer whose values are all exact in float16 is stored as float16, followed by a
``Cast`` to float32 (named ``<parameter>::float``): the training checkpoints keep fp16 weights, so this
halves the files without changing a value (float32-only weights, e.g. of a random voice, stay float32), and
ONNX Runtime folds the casts away when it loads a graph (the graphs still compute in float32).
"""

from __future__ import annotations

import dataclasses
import io
import warnings
from pathlib import Path

import numpy as np
import torch
from torch import nn

from onestep.config import ConfigError, VoiceConfig, int8_path
from onestep.model_config import ModelConfig
from onestep.model.quantize import float_state_dict, quantize_vocoder, store_fp16
from onestep.model.voice_models import PARTS, VoiceModels, build_models

OPSET = 17
_EXAMPLE_T, _EXAMPLE_F = 16, 24

# (input names, output names, dynamic axes) per graph: docs/ARCHITECTURE.md's contract.
_SIGNATURES: dict[str, tuple[list[str], list[str], dict[str, dict[int, str]]]] = {
    "acoustic": (
        ["phoneme_ids", "phoneme_mask"],
        ["durations", "hidden"],
        {
            "phoneme_ids": {0: "B", 1: "T"},
            "phoneme_mask": {0: "B", 1: "T"},
            "durations": {0: "B", 1: "T"},
            "hidden": {0: "B", 1: "T"},
        },
    ),
    "decoder": (
        ["frames", "frame_mask"],
        ["mel"],
        {"frames": {0: "B", 1: "F"}, "frame_mask": {0: "B", 1: "F"}, "mel": {0: "B", 2: "F"}},
    ),
    "vocoder": (["mel"], ["audio"], {"mel": {0: "B", 2: "F"}, "audio": {0: "B", 1: "S"}}),
}


SPEAKERS_FILE = "speakers.npy"


def signature(part: str, cfg: ModelConfig) -> tuple[list[str], list[str], dict[str, dict[int, str]]]:
    """(input names, output names, dynamic axes) of a graph; a multi-speaker model's acoustic and decoder
    graphs take one more input, ``speaker`` (B, speaker_dim) float32."""
    inputs, outputs, axes = _SIGNATURES[part]
    if cfg.multi_speaker and part in ("acoustic", "decoder"):
        return [*inputs, "speaker"], outputs, {**axes, "speaker": {0: "B"}}
    return inputs, outputs, axes


def _example_inputs(part: str, cfg: ModelConfig) -> tuple[torch.Tensor, ...]:
    speaker = (torch.randn(1, cfg.speaker_dim),) if cfg.multi_speaker else ()
    if part == "acoustic":
        return torch.randint(1, 100, (1, _EXAMPLE_T), dtype=torch.int64), torch.ones(1, _EXAMPLE_T), *speaker
    if part == "decoder":
        return torch.randn(1, _EXAMPLE_F, cfg.acoustic_dim), torch.ones(1, _EXAMPLE_F), *speaker
    return (torch.randn(1, cfg.n_mels, _EXAMPLE_F),)


def export_graph(
    module: nn.Module, part: str, cfg: ModelConfig, path: str | Path, fp16_weights: bool = True
) -> None:
    """Write one network as ONNX (opset 17, dynamic batch/time, float32 compute, weights inside the file).

    Args:
        fp16_weights: store the weights that are exact in float16 as float16 (+ Cast; see the module
            docstring and :func:`onestep.model.quantize.store_fp16`) instead of float32.
    """
    inputs, outputs, axes = signature(part, cfg)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation / tracer notices
        torch.onnx.export(
            module.eval(),
            _example_inputs(part, cfg),
            buffer,
            dynamo=False,
            opset_version=OPSET,
            input_names=inputs,
            output_names=outputs,
            dynamic_axes=axes,
            do_constant_folding=False,  # keep every parameter as an initializer under its state_dict name
            training=torch.onnx.TrainingMode.TRAINING,  # dedups initializers by storage, not by value (see below)
        )
    if not fp16_weights:
        Path(path).write_bytes(buffer.getvalue())
        return
    import onnx

    model = onnx.load_from_string(buffer.getvalue())
    store_fp16(model)
    onnx.save(model, str(path))


def export_voice(
    models: VoiceModels,
    config: VoiceConfig,
    out_dir: str | Path,
    fp16_weights: bool = True,
    int8_vocoder: bool = False,
) -> VoiceConfig:
    """Export a voice: ``acoustic.onnx``, ``decoder.onnx``, ``vocoder.onnx`` and ``voice.json`` in ``out_dir``.

    ``fp16_weights``: store the weights that are exact in float16 as float16 (see :func:`store_fp16`).
    ``int8_vocoder``: also write ``vocoder.int8.onnx`` (:func:`onestep.model.quantize.quantize_vocoder`).

    ``vocoder_context``, ``hidden_dim`` and ``model`` (the ``ModelConfig``) of the written
    ``voice.json`` come from ``models``; the rest from ``config``. A multi-speaker model also writes its
    speaker table (``speakers.npy``, float32 (n_speakers, speaker_dim)), whose rows ``config.speakers``
    names; its graphs take speaker vectors, not indices. Returns the written config.
    """
    cfg = models.config
    if cfg.hop_length != config.audio.hop_length or cfg.n_mels != config.audio.n_mels:
        raise ConfigError(
            f"model hop/mels ({cfg.hop_length}/{cfg.n_mels}) differ from voice audio config "
            f"({config.audio.hop_length}/{config.audio.n_mels})"
        )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = dict(config.files)
    if cfg.multi_speaker:
        files["speakers"] = SPEAKERS_FILE
        np.save(out / SPEAKERS_FILE, models.acoustic.speakers.table.weight.detach().cpu().float().numpy())
    config = dataclasses.replace(
        config,
        vocoder_context=cfg.vocoder_context,
        hidden_dim=cfg.acoustic_dim,
        model=cfg,
        files=files,
    )
    device_backup = {name: next(m.parameters()).device for name, m in models.parts().items()}
    try:
        for name, module in models.parts().items():
            export_graph(module.cpu().float(), name, cfg, out / config.files[name], fp16_weights)
    finally:
        for name, module in models.parts().items():
            module.to(device_backup[name])
    config.save(out / "voice.json")
    if int8_vocoder:
        vocoder = out / config.files["vocoder"]
        quantize_vocoder(vocoder, int8_path(vocoder))
    return config


def load_state_dict_from_onnx(path: str | Path) -> dict[str, torch.Tensor]:
    """The network's ``state_dict`` (parameters) behind an exported graph, float32.

    A float graph's named initializers exactly (exporter-made constants, names containing ``::``, left out;
    fp16-stored weights come back as float32). An INT8 graph (``decoder.int8.onnx``, ``vocoder.int8.onnx``:
    what a shipped voice holds) gives its INT8 weights dequantized and its rewritten convolutions back
    (:func:`onestep.model.quantize.float_state_dict`), so the float networks run the shipped weights.
    """
    import onnx

    model = onnx.load(str(path))
    return {name: torch.from_numpy(values) for name, values in float_state_dict(model).items()}


def model_config_of(voice: VoiceConfig) -> ModelConfig:
    """The voice's ``ModelConfig`` (``voice.json``'s ``model``; error if absent)."""
    if voice.model is None:
        raise ConfigError(f"voice {voice.name}: voice.json has no model config (not exported by onestep)")
    return voice.model


def load_voice_models(voice_dir: str | Path) -> tuple[VoiceConfig, VoiceModels]:
    """Rebuild a voice's PyTorch networks from its directory (``voice.json`` + the three ONNX files; a graph
    that ships only as INT8 gives its weights dequantized, see :func:`load_state_dict_from_onnx`)."""
    voice_dir = Path(voice_dir)
    voice = VoiceConfig.load(voice_dir / "voice.json")
    models = build_models(model_config_of(voice))
    for name in PARTS:
        module = getattr(models, name)
        state = load_state_dict_from_onnx(voice_dir / voice.files[name])
        if name == "acoustic" and voice.multi_speaker:  # the table travels beside the graph
            state["speakers.table.weight"] = torch.from_numpy(np.load(voice_dir / voice.files["speakers"]))
        missing = set(module.state_dict()) - set(state)
        if missing:
            raise ConfigError(f"{voice_dir / voice.files[name]}: missing weights {sorted(missing)[:5]}")
        module.load_state_dict({k: state[k] for k in module.state_dict()})
    return voice, models.eval()
