"""``onestep serve --ray``: the same server as replicas of a Ray Serve application (``ray`` extra).

onestep serve --ray --min-replicas 1 --max-replicas 2          # a local Ray cluster, autoscaling 1-2 replicas
onestep serve --ray --replicas 4 --ray-address auto --host 0.0.0.0 --api-key "$KEY"   # join a running cluster
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import time
from dataclasses import replace

from onestep.cli import CLIError


def add_ray_arguments(p: argparse.ArgumentParser) -> None:
    """The Ray Serve options of ``onestep serve``."""
    g = p.add_argument_group("Ray Serve (--ray; pip install 'onestep-tts[ray]')")
    g.add_argument("--ray", action="store_true", help="serve through Ray Serve replicas (one engine each)")
    g.add_argument("--ray-address", help="join this Ray cluster ('auto', HOST:PORT); default: start a local one")
    g.add_argument("--replicas", type=int, help="a fixed number of replicas (instead of --min/--max-replicas)")
    g.add_argument("--min-replicas", type=int, default=1, help="autoscaling: fewest replicas (default 1)")
    g.add_argument("--max-replicas", type=int, default=1, help="autoscaling: most replicas (default 1)")
    g.add_argument("--target-ongoing", type=float, default=2.0, help="autoscaling: requests per replica (default 2)")
    g.add_argument("--max-ongoing", type=int, default=8, help="most requests one replica is sent at once (default 8)")
    g.add_argument(
        "--max-queued", type=int, default=32, help="requests the proxy holds when all replicas are full; more: 503"
    )
    g.add_argument("--cpus-per-replica", type=float, default=1.0, help="Ray CPUs per replica (default 1)")
    g.add_argument("--gpus-per-replica", type=float, default=0.0, help="GPUs per replica (e.g. 0.25: four per GPU)")


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run_ray(args: argparse.Namespace, config: object) -> int:
    """Serve ``config`` (a ServerConfig) through Ray Serve until Ctrl-C / SIGTERM."""
    from onestep.config import ConfigError
    from onestep.server.phrases import DEFAULT_MAX_BYTES
    from onestep.server.ray_serve import ReplicaSettings, ScalingOptions, build_app, describe

    try:
        import ray
        from ray import serve
    except ImportError:
        raise CLIError("--ray needs Ray: pip install 'onestep-tts[ray]'") from None
    log = logging.getLogger("onestep.server")
    lo, hi = (args.replicas, args.replicas) if args.replicas is not None else (args.min_replicas, args.max_replicas)
    try:
        scaling = ScalingOptions(
            min_replicas=lo,
            max_replicas=hi,
            target_ongoing_requests=args.target_ongoing,
            max_ongoing_requests=args.max_ongoing,
            max_queued_requests=args.max_queued,
            num_cpus=args.cpus_per_replica,
            num_gpus=args.gpus_per_replica,
        )
    except ConfigError as e:
        raise CLIError(str(e)) from e
    if args.workers is None:  # one synthesis thread per CPU of the replica, not per core of the machine
        config = replace(config, workers=max(1, int(args.cpus_per_replica)))  # type: ignore[type-var]
    if args.threads is None:
        config = replace(config, threads=1)  # type: ignore[type-var]
    # replicas may run in another working directory (or on another node): absolute paths
    config = replace(  # type: ignore[type-var]
        config,
        voices_dirs=tuple(p.resolve() for p in config.voices_dirs),  # type: ignore[attr-defined]
        lexicon=config.lexicon.resolve() if config.lexicon else None,  # type: ignore[attr-defined]
    )
    mb = args.phrase_cache_mb
    cache_bytes = int(mb * (1 << 20)) if mb is not None else (DEFAULT_MAX_BYTES if args.preload else 0)
    preload = str(args.preload.resolve()) if args.preload else None
    settings = ReplicaSettings(config, cache_bytes, preload)  # type: ignore[arg-type]
    from onestep.ray_cluster import init_ray

    gpus = hi * args.gpus_per_replica
    init_ray(args.ray_address, max(os.cpu_count() or 1, hi * args.cpus_per_replica), gpus)
    for sig in (signal.SIGINT, signal.SIGTERM):  # SIGINT too: a background job of a script starts with it ignored
        signal.signal(sig, _stop)
    try:
        serve.start(http_options={"host": settings.server.host, "port": settings.server.port})
        log.info("Ray Serve: %s", describe(settings, scaling))
        serve.run(build_app(settings, scaling), name="onestep", route_prefix="/")
        log.info("ready on http://%s:%d (%d-%d replica(s))", settings.server.host, settings.server.port, lo, hi)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        serve.shutdown()
        ray.shutdown()
    return 0
