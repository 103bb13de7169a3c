"""VoiceConfig's typed model config and default flag: read from today's and the old voice.json layout."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from onestep.config import ConfigError, VoiceConfig
from onestep.model_config import TINY

TINY_VOICE = Path(__file__).resolve().parent / "fixtures" / "tiny-voice" / "voice.json"
SHIPPED = Path(__file__).resolve().parent.parent / "src" / "onestep" / "voices"


def test_old_layout_moves_model_and_default_into_fields() -> None:
    data = json.loads(TINY_VOICE.read_text())
    assert "model" in data["extra"] and "hidden_dim" in data  # the fixture keeps the old layout on purpose
    data["extra"]["default"] = True
    voice = VoiceConfig.from_dict(data)
    assert voice.model is not None and voice.model.acoustic_dim == data["hidden_dim"] == voice.hidden_dim
    assert voice.default is True
    assert "model" not in voice.extra and "default" not in voice.extra


def test_each_dimension_is_written_once_and_reads_back_equal() -> None:
    voice = VoiceConfig.load(TINY_VOICE)
    written = voice.to_dict()
    assert "hidden_dim" not in written
    assert "hop_length" not in written["model"] and "n_mels" not in written["model"]
    assert written["audio"]["hop_length"] == voice.model.hop_length
    assert VoiceConfig.from_dict(json.loads(json.dumps(written))) == voice


@pytest.mark.parametrize("name", ["multispeaker"])
def test_shipped_voices_use_the_typed_layout(name: str) -> None:
    data = json.loads((SHIPPED / name / "voice.json").read_text())
    voice = VoiceConfig.from_dict(data)
    assert "model" in data and "model" not in data["extra"] and "hidden_dim" not in data
    assert voice.hidden_dim == voice.model.acoustic_dim


def test_contradicting_dimensions_are_rejected() -> None:
    voice = VoiceConfig.load(TINY_VOICE)
    with pytest.raises(ConfigError, match="hidden_dim"):
        dataclasses.replace(voice, hidden_dim=TINY.acoustic_dim + 1)
    with pytest.raises(ConfigError, match="hop"):
        dataclasses.replace(voice, model=dataclasses.replace(TINY, hop_length=200, istft_n_fft=400))
    with pytest.raises(ConfigError, match="default"):
        dataclasses.replace(voice, default="yes")
