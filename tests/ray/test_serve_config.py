"""The documented Serve config (docs/ray-serve.yaml) and the application builder's validation (no cluster)."""

from __future__ import annotations

from pathlib import Path

import pytest

from onestep.config import ConfigError

pytest.importorskip("ray.serve")

DOC = Path(__file__).resolve().parents[2] / "docs" / "ray-serve.yaml"


def test_documented_serve_config_is_valid_and_builds() -> None:
    import yaml
    from ray.serve.schema import ServeDeploySchema

    from onestep.server.ray_serve import app_builder

    config = ServeDeploySchema.model_validate(yaml.safe_load(DOC.read_text(encoding="utf-8")))
    (app,) = config.applications
    assert app.import_path == "onestep.server.ray_serve:app_builder"
    built = app_builder(app.args)
    deployment = built._bound_deployment  # the one deployment: OneStepReplica, with the scaling of args
    assert deployment._deployment_config.autoscaling_config.max_replicas == app.args["max_replicas"]
    assert deployment._deployment_config.max_queued_requests == app.args["max_queued_requests"]
    assert deployment._deployment_config.backpressure_config.retry_after_s == app.args["retry_after_s"]
    settings = built._bound_deployment.init_args[0]
    assert settings.server.workers == app.args["workers"] and settings.server.max_chars == app.args["max_chars"]


def test_builder_refuses_bad_arguments() -> None:
    from onestep.server.ray_serve import ScalingOptions, app_builder

    with pytest.raises(ConfigError, match="unknown onestep Serve argument"):
        app_builder({"replicas": 2})
    with pytest.raises(ConfigError, match="min_replicas"):
        ScalingOptions(min_replicas=3, max_replicas=2)
    fixed = ScalingOptions(min_replicas=2, max_replicas=2).deployment_options()
    assert fixed["num_replicas"] == 2 and "autoscaling_config" not in fixed
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    built = app_builder({"voices_dirs": str(fixtures), "num_cpus": 2, "preload": "phrases.txt"})
    settings = built._bound_deployment.init_args[0]
    assert settings.server.voices_dirs == (fixtures,) and settings.server.workers == 2
    assert settings.phrase_cache_bytes == 64 << 20 and settings.preload == "phrases.txt"


def test_cli_rejects_bad_scaling_before_starting_ray(capsys: pytest.CaptureFixture[str]) -> None:
    from onestep.cli import main

    assert main(["serve", "--ray", "--min-replicas", "3", "--max-replicas", "2", "--no-warmup"]) == 2
    assert "min_replicas" in capsys.readouterr().err
