"""The development commands (bench, eval, eval-frontend, train, export) come from onestep_dev through one table,
``onestep.cli.DEV_COMMANDS``: registered from it where the development distribution is installed, and an install
hint with exit status 2 where it is not."""

from __future__ import annotations

import importlib.util

import pytest

from onestep.cli import DEV_COMMANDS, build_parser, main

NAMES = ("bench", "eval", "eval-frontend", "train", "export")


def _without_dev(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: None if name == "onestep_dev" else real(name, *a))


def test_the_table_names_every_development_command() -> None:
    assert tuple(c.name for c in DEV_COMMANDS) == NAMES
    choices = build_parser()._subparsers._group_actions[0].choices  # noqa: SLF001
    assert set(NAMES) <= set(choices)


@pytest.mark.parametrize("argv", [["bench"], ["eval", "--voice", "en-heart"], ["eval-frontend"], ["train", "--help"], ["export"]])
def test_without_the_development_distribution_a_command_prints_the_install_hint_and_exits_2(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    _without_dev(monkeypatch)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"`onestep {argv[0]}` is a development tool" in err and "pip install ./dev" in err


def test_without_it_the_commands_still_show_in_help_and_the_others_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    _without_dev(monkeypatch)
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert all(name in out for name in NAMES) and "pip install ./dev" in out
    assert main(["phonemize", "hello"]) == 0  # a runtime command is not affected


def test_with_it_the_commands_are_onestep_devs_own(capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("onestep_dev")
    with pytest.raises(SystemExit) as exit_:
        main(["eval-frontend", "--help"])
    assert exit_.value.code == 0
    assert "development tool" not in capsys.readouterr().out
