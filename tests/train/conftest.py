"""Fixtures of the training tests: a tiny synthetic teacher dataset (sine tones with consistent durations)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

HOP = 300
SR = 24000


@pytest.fixture(autouse=True, scope="session")
def _one_thread() -> None:
    torch.set_num_threads(1)  # far faster than 2 contended threads for these tiny networks


def frames_for(phoneme_id: int) -> int:
    """Deterministic duration of an id, frames (pads 4; others 2..8)."""
    return 4 if phoneme_id == 0 else 2 + 2 * (phoneme_id % 4)


def tone(phoneme_id: int, n_frames: int) -> np.ndarray:
    """Audio of one id: silence for the pad, else a sine whose pitch depends on the id."""
    n = n_frames * HOP
    if phoneme_id == 0:
        return np.zeros(n, dtype=np.float32)
    t = np.arange(n) / SR
    return (0.3 * np.sin(2 * np.pi * (150.0 + 40.0 * (phoneme_id % 10)) * t)).astype(np.float32)


def write_dataset(root: Path, n_utterances: int = 12, seed: int = 0, shard_size: int = 8) -> Path:
    """Write ``meta.jsonl`` + ``shard-*.npz`` (docs/ARCHITECTURE.md format) of random id sequences."""
    rng = np.random.default_rng(seed)
    root.mkdir(parents=True, exist_ok=True)
    meta = []
    for shard, first in enumerate(range(0, n_utterances, shard_size)):
        audio, ids, durs = [], [], []
        for u in range(first, min(first + shard_size, n_utterances)):
            seq = [0, *rng.integers(1, 40, size=int(rng.integers(6, 14))).tolist(), 0]
            d = [frames_for(i) for i in seq]
            audio.append(np.concatenate([tone(i, f) for i, f in zip(seq, d, strict=True)]))
            ids.append(np.array(seq, dtype=np.int16))
            durs.append(np.array(d, dtype=np.int16))
            meta.append({"id": f"syn-{u:04d}", "text": "", "phonemes": "", "shard": shard, "index": u - first})
        offsets = lambda parts: np.cumsum([0] + [p.size for p in parts]).astype(np.int64)
        np.savez(
            root / f"shard-{shard:05d}.npz",
            audio=np.round(np.concatenate(audio) * 32767).astype(np.int16),
            audio_offsets=offsets(audio),
            ids=np.concatenate(ids),
            ids_offsets=offsets(ids),
            durations=np.concatenate(durs),
        )
    (root / "meta.jsonl").write_text("".join(json.dumps(m) + "\n" for m in meta), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def synthetic_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_dataset(tmp_path_factory.mktemp("teacher"))
