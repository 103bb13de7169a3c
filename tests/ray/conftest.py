"""A small local Ray cluster (2 CPUs) shared by the Ray tests of one session; skipped without ``ray``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SRC = Path(__file__).resolve().parents[2] / "src"
VOICE = "tiny"


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[object]:
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.serve")
    pytest.importorskip("ray.data")
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},  # the workers import this checkout's onestep
    )
    try:
        yield ray
    finally:
        ray.shutdown()
