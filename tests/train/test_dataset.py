"""The device-resident teacher dataset: loading checks, padded acoustic batches, aligned vocoder segments."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from onestep.config import AudioConfig
from onestep.model.mel import LogMel
from onestep_dev.train.dataset import DatasetError, TeacherDataset


@pytest.fixture(scope="module")
def dataset(synthetic_data: Path) -> TeacherDataset:
    return TeacherDataset(synthetic_data, AudioConfig())


def test_loads_all_utterances_with_names(dataset: TeacherDataset) -> None:
    assert dataset.n == 12
    assert dataset.names[0] == "syn-0000" and dataset.names[-1] == "syn-0011"
    assert int(dataset.n_frames.sum()) == dataset.mel.shape[1]


def test_acoustic_batch_is_padded_and_consistent(dataset: TeacherDataset) -> None:
    batch = dataset.acoustic_batch(5, np.random.default_rng(0))
    assert batch.ids.shape == batch.durations.shape == batch.id_mask.shape
    assert torch.equal(batch.durations.sum(1), batch.frame_mask.sum(1).long())
    assert batch.audio.shape[1] == batch.mel.shape[2] * 300
    assert bool((batch.ids[batch.id_mask == 0] == 0).all())
    u = int(batch.index[0])
    n = int(dataset.n_frames[u])
    alone = LogMel(AudioConfig())(dataset.utterance_audio(u).unsqueeze(0))[0]
    torch.testing.assert_close(batch.mel[0, :, :n], alone, atol=2e-2, rtol=1e-2)  # stored as fp16


def test_vocoder_segments_are_aligned(dataset: TeacherDataset) -> None:
    g = torch.Generator().manual_seed(1)
    mel, audio = dataset.vocoder_batch(6, 16, g)
    assert mel.shape == (6, 100, 16) and audio.shape == (6, 16 * 300)
    recomputed = LogMel(AudioConfig())(audio)
    inner = slice(2, 14)  # the segment's own edge frames see reflect padding instead of real neighbours
    torch.testing.assert_close(recomputed[:, :, inner], mel[:, :, inner], atol=2e-2, rtol=1e-2)


def test_inconsistent_durations_are_rejected(tmp_path: Path) -> None:
    np.savez(
        tmp_path / "shard-00000.npz",
        audio=np.zeros(900, np.int16),
        audio_offsets=np.array([0, 900]),
        ids=np.array([0, 5, 0], np.int16),
        ids_offsets=np.array([0, 3]),
        durations=np.array([1, 1, 2], np.int16),
    )
    with pytest.raises(DatasetError, match="shard-00000.npz.*durations sum 4"):
        TeacherDataset(tmp_path, AudioConfig())


def test_missing_data_is_reported(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no shard"):
        TeacherDataset(tmp_path, AudioConfig())
