"""Fixtures of the model tests: tiny networks, single-threaded torch (fast and stable on 2 shared cores)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch

from onestep.model_config import TINY
from onestep.model.voice_models import VoiceModels, build_models


@pytest.fixture(autouse=True, scope="session")
def _one_thread() -> None:
    torch.set_num_threads(1)


@pytest.fixture
def tiny_models() -> VoiceModels:
    return build_models(TINY, seed=0).eval()


@pytest.fixture(autouse=True)
def _no_grad() -> Iterator[None]:
    with torch.no_grad():
        yield
