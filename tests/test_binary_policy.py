"""The binary policy of CONTRIBUTING.md, as far as a checkout shows it: no training checkpoint under ``src/``
(the wheel is built from it), a shipped voice directory holds only what its ``voice.json`` names (and the INT8
graphs derived from those), each network in one precision (the file ``voice.json`` names, no float twin of an
INT8 graph), and ``lab/train_state`` keeps one checkpoint set per model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from onestep.config import int8_path

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINT_SUFFIXES = (".pt", ".pth", ".ckpt", ".safetensors", ".bin")
CHECKPOINT_SET = {"acoustic.pt", "vocoder.pt", "discriminator.pt", "meta.json"}


def test_no_checkpoint_ships_in_the_package() -> None:
    found = [p for p in (ROOT / "src").rglob("*") if p.suffix in CHECKPOINT_SUFFIXES]
    assert not found, f"training checkpoints under src/ would ship in the wheel: {found}"


@pytest.mark.parametrize("voice_json", sorted((ROOT / "src" / "onestep" / "voices").glob("*/voice.json")), ids=str)
def test_a_shipped_voice_holds_only_what_its_config_names(voice_json: Path) -> None:
    files = json.loads(voice_json.read_text(encoding="utf-8"))["files"]
    named = {voice_json.name, *files.values()}
    named |= {int8_path(Path(files[k])).name for k in ("decoder", "vocoder") if k in files}
    extra = sorted(p.name for p in voice_json.parent.iterdir() if p.name not in named and p.name != "__pycache__")
    assert not extra, f"{voice_json.parent.name} holds files its voice.json does not name (an experiment?): {extra}"


@pytest.mark.parametrize("voice_json", sorted((ROOT / "src" / "onestep" / "voices").glob("*/voice.json")), ids=str)
def test_a_shipped_voice_holds_one_precision_per_network(voice_json: Path) -> None:
    """The CPU engine's graph ships; the GPU engine derives its float weights from it (dequantized INT8)."""
    files = json.loads(voice_json.read_text(encoding="utf-8"))["files"]
    for key in ("acoustic", "decoder", "vocoder"):
        named = voice_json.parent / files[key]
        variants = {named, int8_path(named), named.with_name(named.name.replace(".int8.onnx", ".onnx"))}
        present = sorted(p.name for p in variants if p.is_file())
        assert present == [named.name], f"{voice_json.parent.name}: {key} ships as {present}, not once as {named.name}"


def test_lab_keeps_one_checkpoint_set_per_model() -> None:
    state = ROOT / "lab" / "train_state"
    if not state.is_dir():
        pytest.skip("no lab/ in this tree (an sdist or wheel)")
    for model in sorted(p for p in state.iterdir() if p.is_dir()):
        names = {p.name for p in model.iterdir()}
        assert names <= CHECKPOINT_SET, f"{model}: one set ({sorted(CHECKPOINT_SET)}), replaced in place: {sorted(names)}"
        assert not [p for p in model.rglob("*") if p.is_dir()], f"{model}: no sub-folders of older steps"
