"""Multi-speaker training: a dataset of several speaker folders sizes the speaker table, the networks take a
speaker vector, and a model seeded from a single-speaker voice starts out as that voice."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from onestep.config import AudioConfig, ConfigError
from onestep.model.acoustic import length_regulate
from onestep.model_config import TINY
from onestep.model.export import export_voice, load_voice_models
from onestep.model.voice_models import build_models
from onestep_dev.train.checkpoint import list_checkpoints, load_generator
from onestep_dev.train.dataset import DatasetError, TeacherDataset
from onestep_dev.train.options import TrainConfig
from onestep_dev.train.seed_checkpoint import seed_multispeaker
from onestep_dev.train.trainer import train

from .conftest import write_dataset


def _multi(root: Path, names: list[str]) -> Path:
    for k, name in enumerate(names):
        write_dataset(root / name, n_utterances=6 + 2 * k, seed=k)
    (root / "speakers.json").write_text(json.dumps(names), encoding="utf-8")
    return root


def test_dataset_labels_each_utterance_with_its_speaker(tmp_path: Path) -> None:
    data = TeacherDataset(_multi(tmp_path / "d", ["a", "b", "c"]), AudioConfig())
    assert data.speaker_names == ["a", "b", "c"]
    assert data.speaker.tolist() == [0] * 6 + [1] * 8 + [2] * 10
    batch = data.gather_utterances(np.array([0, 7, 23]))
    assert batch.speaker.tolist() == [0, 1, 2]


def test_dataset_rejects_a_bad_speaker_list(tmp_path: Path) -> None:
    root = _multi(tmp_path / "d", ["a"])
    (root / "speakers.json").write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(DatasetError, match="speakers.json"):
        TeacherDataset(root, AudioConfig())
    (root / "speakers.json").write_text('["a", "missing"]', encoding="utf-8")
    with pytest.raises(DatasetError, match="missing"):
        TeacherDataset(root, AudioConfig())


def test_speaker_changes_the_output_only_for_a_trained_multi_speaker_model() -> None:
    cfg = dataclasses.replace(TINY, n_speakers=3, speaker_dim=8)
    models = build_models(cfg, seed=1).eval()
    ids, mask = torch.randint(1, 50, (1, 9)), torch.ones(1, 9)
    a, b = models.acoustic.speakers(torch.tensor([0])), models.acoustic.speakers(torch.tensor([1]))
    with torch.no_grad():
        # fresh: the speaker projections are zero, every speaker sounds the same
        assert torch.equal(models.acoustic(ids, mask, a)[0], models.acoustic(ids, mask, b)[0])
        for bias in (models.acoustic.speaker_encoder, models.acoustic.speaker_duration, models.decoder.speaker_bias):
            torch.nn.init.normal_(bias.proj.weight, std=0.5)
        da, ha = models.acoustic(ids, mask, a)
        db, hb = models.acoustic(ids, mask, b)
        assert not torch.allclose(ha, hb) and not torch.allclose(da, db)
        frames, fmask = length_regulate(ha, torch.full((1, 9), 3))
        assert not torch.allclose(models.decoder(frames, fmask, a), models.decoder(frames, fmask, b))
    with pytest.raises(ValueError, match="speaker vector"):
        models.acoustic(ids, mask)


def test_config_rejects_a_negative_speaker_count() -> None:
    with pytest.raises(ConfigError, match="n_speakers"):
        dataclasses.replace(TINY, n_speakers=-1)


def test_train_a_multi_speaker_model_seeded_from_a_voice(tmp_path: Path) -> None:
    voice_dir = tmp_path / "voice"
    seed_models = build_models(TINY, seed=3)
    from onestep.config import VoiceConfig

    export_voice(seed_models, VoiceConfig(name="seed", language="en"), voice_dir, fp16_weights=False)
    state = tmp_path / "state"
    state.mkdir()
    from onestep_dev.train.discriminators import Discriminators

    torch.save(Discriminators(4).state_dict(), state / "discriminator.pt")
    names = ["af_one", "zm_two"]
    run = tmp_path / "run"
    seeded = seed_multispeaker(voice_dir, state, run, names)
    assert seeded.name == "step-00000000"
    models, _ = load_generator(seeded)
    assert models.config.n_speakers == 2
    _, single = load_voice_models(voice_dir)
    ids, mask = torch.randint(1, 50, (1, 7)), torch.ones(1, 7)
    with torch.no_grad():  # before training, each speaker is the seed voice
        expected = single.acoustic(ids, mask)[0]
        for k in range(2):
            got = models.acoustic(ids, mask, models.acoustic.speakers(torch.tensor([k])))[0]
            torch.testing.assert_close(got, expected, atol=2e-3, rtol=2e-3)  # fp16 checkpoint weights

    data = _multi(tmp_path / "data", names)
    cfg = TrainConfig(
        data=str(data), out=str(run), steps=4, device="cpu", resume=True,
        model=dataclasses.replace(TINY, n_speakers=2), batch_acoustic=4, batch_vocoder=2, segment_frames=16,
        warmup_steps=1, gan_start=0.5, vocoder_finetune=0.0, discriminator_width=4, log_every=2,
    )  # fmt: skip
    final = train(cfg)
    assert final.name == "step-00000004"
    assert json.loads((final / "meta.json").read_text())["speakers"] == names
    assert {p.name for p in (run / "samples").iterdir()} >= {"step-00000004-af_one-tts.wav", "step-00000004-zm_two-tts.wav"}
    assert len(list_checkpoints(run)) == 2
    with pytest.raises(ConfigError, match="n_speakers"):
        train(dataclasses.replace(cfg, model=dataclasses.replace(TINY, n_speakers=3)))
