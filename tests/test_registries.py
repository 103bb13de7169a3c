"""The language and engine registries: the one place each kind of thing is named, and what reads them."""

from __future__ import annotations

import dataclasses

import pytest

from onestep.cli import build_parser
from onestep.config import ConfigError, VoiceConfig
from onestep.errors import UserError
from onestep.frontend.segment import split_script_runs
from onestep.languages import (
    LANGUAGES,
    UnknownLanguageError,
    detect_language,
    get_language,
    language_codes,
    language_from_tag,
    script_language,
)
from onestep.runtime.engines import ENGINES, UnknownEngineError, device_aliases, engine_names, get_engine
from onestep.server.config import ServerConfig


def test_language_records() -> None:
    assert language_codes() == tuple(lang.code for lang in LANGUAGES) == ("ja", "zh", "hi", "en", "es", "fr", "it", "pt")
    assert get_language("zh").spaced is False and get_language("en").spaced is True
    assert not get_language("ja").spaced and get_language("fr").espeak_voice == "fr-fr"
    assert [lang.code for lang in LANGUAGES if not lang.detected] == ["es", "fr", "it", "pt"]  # Latin: by request
    with pytest.raises(UnknownLanguageError, match="known languages: ja, zh, hi, en, es, fr, it, pt"):
        get_language("ko")
    assert isinstance(UnknownLanguageError("x"), UserError)


@pytest.mark.parametrize(
    ("text", "script", "detected"),
    [("你好 world", "zh", "zh"), ("Hello 3", "en", "en"), ("...!", None, "en"), ("Привет", None, "en")],
)
def test_detection_follows_registry_order(text: str, script: str | None, detected: str) -> None:
    assert script_language(text) == script
    assert detect_language(text) == detected


def test_language_tags() -> None:
    assert [language_from_tag(t) for t in ("en_US", "zh-CN", "ZH", "fr_FR", "ko_KR")] == ["en", "zh", "zh", "fr", None]


def test_script_runs_use_the_registry_scripts() -> None:
    assert split_script_runs("PLC，控制 器 ok") == [("en", "PLC，"), ("zh", "控制器"), ("en", "ok")]


def test_voice_language_must_be_registered() -> None:
    voice = VoiceConfig(name="v", language="en")
    with pytest.raises(ConfigError, match="'ko'"):
        dataclasses.replace(voice, language="ko")


def test_engine_records_and_aliases() -> None:
    assert engine_names() == ("ort-cpu", "torch-cuda-graphs") and device_aliases() == ("cpu", "cuda")
    assert get_engine("cpu") is get_engine("ort-cpu") is ENGINES[0]
    assert get_engine("cuda").name == "torch-cuda-graphs" and get_engine("cuda").batches
    with pytest.raises(UnknownEngineError, match="ort-cpu .device cpu."):
        get_engine("tpu")


@pytest.mark.parametrize("command", ["say", "batch", "serve", "wyoming", "doctor", "bench"])
def test_cli_engine_option_and_device_alias(command: str) -> None:
    parser = build_parser()
    extra = {"say": ["hello"], "batch": ["rows.jsonl", "--out", "out"]}.get(command, [])
    assert parser.parse_args([command, *extra]).engine == "ort-cpu"
    assert parser.parse_args([command, *extra, "--engine", "torch-cuda-graphs"]).engine == "torch-cuda-graphs"
    assert get_engine(parser.parse_args([command, *extra, "--device", "cuda"]).engine).name == "torch-cuda-graphs"


def test_server_config_reads_engine_or_device() -> None:
    assert ServerConfig(device="cuda").engine == "torch-cuda-graphs"
    config = ServerConfig(engine="torch-cuda-graphs")
    assert config.engine_kind.device == "cuda"
    assert dataclasses.replace(ServerConfig(), engine="torch-cuda-graphs").engine == "torch-cuda-graphs"
    with pytest.raises(ConfigError, match="contradicts"):
        ServerConfig(engine="torch-cuda-graphs", device="cpu")
