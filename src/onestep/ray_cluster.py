"""Joining or starting a Ray cluster, shared by the Ray runners (``onestep serve --ray``, ``onestep batch --ray``).

Ray is the optional ``ray`` extra (``pip install 'onestep-tts[ray]'``); nothing here imports it at module load.
"""

from __future__ import annotations

import math
import os
from typing import Any


def import_ray() -> Any:
    """``ray``, or an ImportError that says how to install it."""
    try:
        import ray
    except ImportError:
        raise ImportError("this needs Ray: pip install 'onestep-tts[ray]'") from None
    return ray


def worker_env() -> dict[str, Any]:
    """The runtime environment of a local cluster's workers: this process's ``PYTHONPATH`` (a source checkout
    run without installing finds its ``onestep`` package in the workers too)."""
    path = os.environ.get("PYTHONPATH")
    return {"env_vars": {"PYTHONPATH": path}} if path else {}


def init_ray(address: str | None, num_cpus: float, num_gpus: float = 0.0) -> Any:
    """Join the cluster at ``address``, or start a local one with ``num_cpus`` logical CPUs (and ``num_gpus``);
    reused when this process already joined one."""
    ray = import_ray()
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(
                num_cpus=max(1, math.ceil(num_cpus)),
                num_gpus=math.ceil(num_gpus) if num_gpus else None,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env=worker_env(),
            )
    return ray
