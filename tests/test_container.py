"""The Dockerfile agrees with the package: its entry point, command, settings, ports and build context are real.

Building and running the image is ``.ci/container`` (buildah + podman, minutes); it runs here only with
``ONESTEP_TEST_CONTAINER=1``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest

from onestep.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(instruction, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text(encoding="utf-8"))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def one(name: str) -> str:
    found = [rest for word, rest in instructions() if word == name]
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def env_vars() -> dict[str, str]:
    out: dict[str, str] = {}
    for word, rest in instructions():
        if word == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                out[key] = value
    return out


def test_entry_point_and_command_are_real() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    entry = json.loads(one("ENTRYPOINT"))
    cmd = json.loads(one("CMD"))
    assert entry == ["onestep"] and entry[0] in project["project"]["scripts"]
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert cmd[0] in sub.choices and "serve" == cmd[0]
    assert any('"/src[server]"' in rest for word, rest in instructions() if word == "RUN")
    assert "server" in project["project"]["optional-dependencies"]


def test_environment_names_real_settings_and_ports_match() -> None:
    from onestep.commands.server_settings import ENV_PREFIX

    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    serve_envs = {s.env for s in sub.choices["serve"].get_default("_settings").values()}
    envs = env_vars()
    ours = {k for k in envs if k.startswith(ENV_PREFIX)}
    assert ours <= serve_envs | {"ONESTEP_CACHE"}, ours - serve_envs
    assert envs["ONESTEP_HOST"] == "0.0.0.0"
    exposed = one("EXPOSE").split()
    assert envs["ONESTEP_PORT"] in exposed
    wyoming_default = sub.choices["wyoming"].get_default("_settings")["uri"].default
    assert wyoming_default.rsplit(":", 1)[1] in exposed


def test_build_context_keeps_what_the_install_needs() -> None:
    """.dockerignore lets through every file pyproject.toml names (readme, license) and the constraints."""
    kept = {line[1:].rstrip("/") for line in (ROOT / ".dockerignore").read_text().splitlines() if line.startswith("!")}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert {"pyproject.toml", "src", "constraints.txt", project["readme"]} <= kept
    assert "/src/constraints.txt" in " ".join(rest for w, rest in instructions() if w == "RUN")
    assert (ROOT / "constraints.txt").is_file()


@pytest.mark.skipif(os.environ.get("ONESTEP_TEST_CONTAINER") != "1", reason="builds and runs the image (minutes): ONESTEP_TEST_CONTAINER=1")
def test_image_builds_and_answers_http() -> None:
    subprocess.run([str(ROOT / ".ci" / "container")], check=True, timeout=3600)
