"""Voice discovery: search order, name lookup (never a path), default voice by language."""

from __future__ import annotations

from pathlib import Path

import pytest

from onestep.languages import detect_language
from onestep.runtime.voices import ENV_VAR, VoiceCatalog, VoiceNotFoundError, load_voice_dir


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Hello world.", "en"),
        ("你好，世界。", "zh"),
        ("我们用 API 测试 the engine.", "zh"),  # mixed Chinese sentence with English words -> zh
        ("12345 !?", "en"),
        ("", "en"),
        ("漢字", "zh"),
    ],
)
def test_language_detection(text: str, language: str) -> None:
    assert detect_language(text) == language


@pytest.fixture
def two_dirs(tmp_path: Path, voice_copy) -> tuple[Path, Path]:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    voice_copy("a", first, name="anna", language="en")
    voice_copy("b", second, name="anna", language="en", version="9.9.9")  # shadowed by first/anna
    voice_copy("c", second, name="lan", language="zh")
    voice_copy("d", second, name="mei", language="zh", extra={"default": True})
    return first, second


def test_earlier_paths_shadow_later_ones(two_dirs) -> None:
    catalog = VoiceCatalog(list(two_dirs))
    assert catalog.names()[:3] == ["anna", "lan", "mei"]
    assert catalog.get("anna").config.version != "9.9.9"


def test_env_var_adds_search_paths(two_dirs, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(two_dirs[1]))
    catalog = VoiceCatalog()
    assert {"anna", "lan", "mei"} <= set(catalog.names())
    assert catalog.get("anna").config.version == "9.9.9"


def test_default_voice_per_language(two_dirs, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("onestep.runtime.voices.PACKAGE_VOICES", tmp_path / "none")  # the shipped defaults would win
    catalog = VoiceCatalog(list(two_dirs))
    assert catalog.default_for("en").name == "anna"
    assert catalog.default_for("zh").name == "mei"  # extra.default wins over search order


def test_missing_language_falls_back_to_any_voice(
    voice_copy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("onestep.runtime.voices.PACKAGE_VOICES", tmp_path / "none")  # hide the shipped voices
    monkeypatch.delenv(ENV_VAR, raising=False)
    voice_copy("only-zh", name="lan", language="zh")
    assert VoiceCatalog(tmp_path).default_for("en").name == "lan"


def test_no_voices_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("onestep.runtime.voices.PACKAGE_VOICES", tmp_path / "none")
    monkeypatch.delenv(ENV_VAR, raising=False)
    with pytest.raises(VoiceNotFoundError, match="no voices found"):
        VoiceCatalog(tmp_path).default_for("en")


@pytest.mark.parametrize("name", ["nobody", "../a", "/etc", "a/../anna", "", "anna\n"])
def test_unknown_or_path_like_names_list_the_available_voices(two_dirs, name: str) -> None:
    with pytest.raises(VoiceNotFoundError, match="available voices: anna, lan, mei"):
        VoiceCatalog(list(two_dirs)).get(name)


def test_a_directory_is_loaded_only_through_the_path_api(voice_copy) -> None:
    path = voice_copy("by-path", name="pathy")
    assert load_voice_dir(path).name == "pathy"
    with pytest.raises(VoiceNotFoundError, match="not a voice directory"):
        load_voice_dir(path.parent)


def test_unreadable_voice_json_is_reported_not_fatal(voice_copy, tmp_path: Path) -> None:
    voice_copy("good", name="good")
    bad = voice_copy("bad")
    (bad / "voice.json").write_text('{"name": "bad", "language": "ko"}')
    catalog = VoiceCatalog(tmp_path)
    assert "good" in catalog.names() and "bad" not in catalog.names()
    assert any("language must be" in p for p in catalog.problems)


def test_a_voice_missing_a_graph_is_reported_not_offered(voice_copy, tmp_path: Path) -> None:
    voice_copy("whole", name="whole")
    torn = voice_copy("torn", name="torn")
    (torn / "vocoder.onnx").unlink()  # e.g. a clone without its large files
    catalog = VoiceCatalog(tmp_path)
    assert "whole" in catalog.names() and "torn" not in catalog.names()
    assert any("torn" in p and "missing vocoder.onnx" in p for p in catalog.problems)
    with pytest.raises(VoiceNotFoundError, match="available voices: whole"):
        catalog.get("torn")


def test_one_resolver_for_names_languages_and_text() -> None:
    from onestep.runtime.voices import choose_voice
    from onestep.server.backend import VoiceInfo

    voices = [VoiceInfo("anna", "en", 24000), VoiceInfo("lan", "zh", 24000), VoiceInfo("mei", "zh", 24000, default=True)]
    assert choose_voice(voices, "lan").name == "lan"
    # a requested language (Wyoming's tags too) picks that language's default voice, as text of it does
    assert choose_voice(voices, language="zh_CN").name == choose_voice(voices, text="你好").name == "mei"
    assert choose_voice(voices, language="fr", text="你好").name == "mei"  # not spoken: by the text
    assert choose_voice(voices, text="Hello").name == "anna"
    with pytest.raises(VoiceNotFoundError, match="available voices: anna, lan, mei"):
        choose_voice(voices, "../etc")
