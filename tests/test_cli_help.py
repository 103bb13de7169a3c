"""Per-command help lists only that command's options."""

from __future__ import annotations

import argparse

import pytest

from onestep.cli import main

HTTP_OPTIONS = ("--max-header-bytes", "--header-timeout", "--body-timeout", "--ws-max-pending")


def _help(command: str, capsys: pytest.CaptureFixture) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_wyoming_help_lists_no_http_options_and_serve_keeps_them(capsys: pytest.CaptureFixture) -> None:
    wyoming = _help("wyoming", capsys)
    assert "--uri" in wyoming and "--queue-size" in wyoming
    assert not [o for o in HTTP_OPTIONS if o in wyoming]
    serve = _help("serve", capsys)
    assert all(o in serve for o in HTTP_OPTIONS) and "--uri" not in serve and "--samples-per-chunk" not in serve


def test_wyoming_takes_no_http_option_and_its_config_keeps_the_defaults() -> None:
    from onestep.commands.server_options import add_server_arguments, build_config
    from onestep.server.config import ServerConfig

    parser = argparse.ArgumentParser()
    add_server_arguments(parser, http=False)
    with pytest.raises(SystemExit):
        parser.parse_args(["--ws-max-pending", "3"])
    config = build_config(parser.parse_args(["--queue-size", "5"]))
    assert config.queue_size == 5 and config.ws_max_pending == ServerConfig.ws_max_pending
