"""The OneStep server as a Ray Serve application (``pip install 'onestep-tts[ray]'``).

Every replica is one ``onestep serve`` app: one engine (:class:`~onestep.server.backend.TTSBackend`), its
scheduler, its metrics and its phrase cache, behind the app of :func:`onestep.server.app.create_app` as
the replica's FastAPI ingress. Ray Serve's proxy spreads requests over the replicas, so the HTTP surface
(``/v1/audio/speech`` streaming, ``/synthesize``, ``/v1/stream``, ``/v1/voices``, ``/health``, ``/metrics``)
is exactly that of ``onestep serve``. ``/health`` and ``/metrics`` answer for the replica the request
reached (Ray's own metrics cover the whole deployment).

Scaling and backpressure are Serve's:

- a replica gets at most ``max_ongoing_requests`` requests at once; the autoscaler keeps about
  ``target_ongoing_requests`` per replica, between ``min_replicas`` and ``max_replicas``;
- when every replica is full, each proxy queues up to ``max_queued_requests``; beyond that it answers
  503 with ``Retry-After`` (``retry_after_s``);
- a replica whose process dies is replaced by the controller; requests it was serving fail (an error
  status, or a cut stream) instead of hanging, and new requests go to the live replicas.

Three ways to run it:

    onestep serve --ray --min-replicas 1 --max-replicas 2          # the CLI (starts or joins a cluster)
    serve run onestep.server.ray_serve:app_builder threads=1       # Ray's CLI, arguments as key=value
    serve run docs/ray-serve.yaml                                  # a Serve config file (see docs/SCALING.md)
"""

from __future__ import annotations

import logging
import sys
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from onestep.config import ConfigError
from onestep.server.config import ServerConfig

log = logging.getLogger("onestep.server")

#: GIL switch interval of a replica, ms (as ``onestep serve``'s default).
SWITCH_INTERVAL_MS = 0.5


def build_backend(config: ServerConfig) -> Any:
    """The engine of one replica. The one import of the server's backend builder in this module (it
    lives in :mod:`onestep.server.builder`)."""
    from onestep.server.builder import build_backend as build

    return build(config)


@dataclass(frozen=True)
class ScalingOptions:
    """How the deployment scales and sheds load (validated on construction).

    Attributes:
        min_replicas / max_replicas: the autoscaler's range; equal = a fixed number of replicas.
        target_ongoing_requests: requests in flight per replica the autoscaler aims at.
        max_ongoing_requests: most requests one replica is sent at once.
        max_queued_requests: requests each proxy holds while every replica is full; more get 503.
        retry_after_s: the ``Retry-After`` of those 503s, seconds.
        num_cpus / num_gpus: Ray resources per replica (a fraction of a GPU shares one GPU).
        health_check_period_s: how often the controller probes each replica.
    """

    min_replicas: int = 1
    max_replicas: int = 1
    target_ongoing_requests: float = 2.0
    max_ongoing_requests: int = 8
    max_queued_requests: int = 32
    retry_after_s: float = 1.0
    num_cpus: float = 1.0
    num_gpus: float = 0.0
    health_check_period_s: float = 2.0

    def __post_init__(self) -> None:
        if not 0 <= self.min_replicas <= self.max_replicas or self.max_replicas < 1:
            raise ConfigError(f"need 0 <= min_replicas <= max_replicas, max >= 1; got {self.min_replicas}, "
                              f"{self.max_replicas}")  # fmt: skip
        if self.target_ongoing_requests <= 0 or self.max_ongoing_requests < 1:
            raise ConfigError("target_ongoing_requests must be > 0 and max_ongoing_requests >= 1")
        if self.max_queued_requests < 0 and self.max_queued_requests != -1:
            raise ConfigError(f"max_queued_requests must be >= 0 (or -1: no limit), got {self.max_queued_requests}")
        if self.num_cpus < 0 or self.num_gpus < 0 or self.retry_after_s < 0 or self.health_check_period_s <= 0:
            raise ConfigError("num_cpus, num_gpus and retry_after_s must be >= 0, health_check_period_s > 0")

    def deployment_options(self) -> dict[str, Any]:
        """Keyword arguments of ``serve.deployment`` / ``Deployment.options``."""
        from ray.serve.config import BackpressureConfig

        options: dict[str, Any] = {
            "max_ongoing_requests": self.max_ongoing_requests,
            "max_queued_requests": self.max_queued_requests,
            "backpressure_config": BackpressureConfig(status_code=503, retry_after_s=self.retry_after_s),
            "ray_actor_options": {"num_cpus": self.num_cpus, "num_gpus": self.num_gpus},
            "health_check_period_s": self.health_check_period_s,
            "health_check_timeout_s": max(10.0, 5 * self.health_check_period_s),
            "graceful_shutdown_timeout_s": 30.0,
        }
        if self.min_replicas == self.max_replicas:
            options["num_replicas"] = self.max_replicas
        else:
            options["autoscaling_config"] = {
                "min_replicas": self.min_replicas,
                "max_replicas": self.max_replicas,
                "target_ongoing_requests": self.target_ongoing_requests,
                "upscale_delay_s": 2.0,
                "downscale_delay_s": 60.0,
            }
        return options


@dataclass(frozen=True)
class ReplicaSettings:
    """What each replica is built from: the server's config and its phrase cache.

    Attributes:
        server: the ``onestep serve`` settings of each replica (``host``/``port`` are the proxy's).
        phrase_cache_bytes: per-replica phrase cache budget (0: off).
        preload: phrases file synthesized into each replica's cache at start (needs a cache).
    """

    server: ServerConfig = field(default_factory=ServerConfig)
    phrase_cache_bytes: int = 0
    preload: str | None = None


class OneStepReplica:
    """One replica: builds the engine, warms it up (before Serve sends it traffic), preloads the phrase
    cache, and serves :func:`~onestep.server.app.create_app` 's app as its ASGI ingress."""

    def __init__(self, settings: ReplicaSettings) -> None:
        from onestep.server.app import create_app
        from onestep.server.phrases import PhraseCache, preload, read_phrases

        sys.setswitchinterval(SWITCH_INTERVAL_MS / 1000.0)
        config = settings.server
        backend = build_backend(config)
        if config.warmup:
            backend.warm_up()  # synchronously: the replica counts as started only when it is warm
        cache = PhraseCache(settings.phrase_cache_bytes) if settings.phrase_cache_bytes else None
        if cache is not None and settings.preload:
            preload(cache, backend, read_phrases(settings.preload))
        self._app = create_app(replace(config, warmup=False), backend, phrases=cache)

    def __serve_build_asgi_app__(self) -> Any:
        return self._app

    def check_health(self) -> None:
        """Serve's health probe: a replica whose warm-up failed is replaced."""
        state = self._app.state.onestep
        if state.warmup_error:
            raise RuntimeError(f"warm-up failed: {state.warmup_error}")


def build_app(settings: ReplicaSettings, scaling: ScalingOptions, name: str = "onestep") -> Any:
    """The bound Serve application (``serve.run(build_app(...))``)."""
    from ray import serve

    deployment = serve.deployment(serve.ingress()(OneStepReplica), name=name)
    return deployment.options(**scaling.deployment_options()).bind(settings)


#: ``ServerConfig`` fields that ``app_builder`` accepts by name.
_SERVER_FIELDS = {f.name for f in fields(ServerConfig)} - {"host", "port"}
_SCALING_FIELDS = {f.name for f in fields(ScalingOptions)}


def app_builder(args: dict[str, Any]) -> Any:
    """Serve's application builder: ``import_path: onestep.server.ray_serve:app_builder`` with ``args``.

    ``args`` takes :class:`ScalingOptions` fields (``min_replicas``, ``max_replicas``, ``num_cpus``, ...),
    :class:`~onestep.server.config.ServerConfig` fields (``workers``, ``threads``, ``queue_size``,
    ``max_chars``, ``timeout``, ``device``, ``voices_dirs`` (a list), ``api_key``, ...), ``phrase_cache_mb``
    and ``preload`` (a phrases file). Unknown keys are an error. A Serve config's ``deployments:`` section
    may still override the replica count and resources afterwards.
    """
    args = dict(args)
    unknown = set(args) - _SERVER_FIELDS - _SCALING_FIELDS - {"phrase_cache_mb", "preload"}
    if unknown:
        raise ConfigError(f"unknown onestep Serve argument(s): {', '.join(sorted(unknown))}")
    server: dict[str, Any] = {k: v for k, v in args.items() if k in _SERVER_FIELDS}
    for key in ("voices_dirs", "cors_origins"):
        if key in server:
            value = server[key]
            server[key] = tuple([value] if isinstance(value, str) else value)
    if "voices_dirs" in server:
        server["voices_dirs"] = tuple(Path(p) for p in server["voices_dirs"])
    if server.get("lexicon"):
        server["lexicon"] = Path(server["lexicon"])
    cpus = float(args.get("num_cpus", ScalingOptions.num_cpus))
    server.setdefault("workers", max(1, int(cpus)))
    server.setdefault("threads", 1)
    scaling = ScalingOptions(**{k: v for k, v in args.items() if k in _SCALING_FIELDS})
    from onestep.server.phrases import DEFAULT_MAX_BYTES

    mb = args.get("phrase_cache_mb")
    cache_bytes = int(float(mb) * (1 << 20)) if mb is not None else (DEFAULT_MAX_BYTES if args.get("preload") else 0)
    settings = ReplicaSettings(ServerConfig(**server), cache_bytes, args.get("preload"))
    return build_app(settings, scaling)


def describe(settings: ReplicaSettings, scaling: ScalingOptions) -> dict[str, Any]:
    """A JSON-able summary (for logs)."""
    server = {k: str(v) if isinstance(v, Path) else v for k, v in asdict(settings.server).items() if k != "api_key"}
    return {"server": server, "scaling": asdict(scaling), "phrase_cache_bytes": settings.phrase_cache_bytes}
