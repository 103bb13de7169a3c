"""The language and engine registries: the one place each kind of thing is named, and what reads them."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
import regex

from onestep import languages
from onestep.cli import build_parser
from onestep.config import ConfigError, VoiceConfig
from onestep.errors import UserError
from onestep.frontend.segment import split_script_runs, split_sentences
from onestep.frontend.symbols_unicode import read_symbols, reading_language
from onestep.languages import (
    LANGUAGES,
    UNSPACED_CHAR,
    UnknownLanguageError,
    detect_language,
    get_language,
    language_codes,
    language_from_tag,
    script_language,
)
from onestep.runtime import engines
from onestep.runtime.engines import (
    ENGINES,
    EngineKind,
    UnknownEngineError,
    device_aliases,
    engine_names,
    get_engine,
)
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


# --- names live in their registries: a code scan -------------------------------------------------------------

SRC = Path(__file__).resolve().parents[1] / "src" / "onestep"
REGISTRIES = (Path("languages.py"), Path("runtime") / "engines.py")  # where the names are written, once

#: String constants equal to a registered language code, device or engine name that must stay where they are,
#: as (enclosing function or class, value). Keep it short: every entry says why the registry cannot answer there.
ALLOWED_NAMES: dict[tuple[str, str], str] = {
    # The public signature's default, shown by help() and the docs: TTS() runs on the CPU. It equals
    # DEFAULT_ENGINE's device and is resolved through get_engine like any other value.
    ("TTS.__init__", "cpu"): "the public API's documented default",
}


def _strings(tree: ast.AST) -> list[tuple[str, ast.Constant, list[ast.AST]]]:
    """(enclosing qualified name, constant, ancestors) of every string constant that is not a docstring (a
    module, class or function docstring, or a bare string statement documenting an attribute)."""
    docs = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found: list[tuple[str, ast.Constant, list[ast.AST]]] = []

    def visit(node: ast.AST, scope: list[str], ancestors: list[ast.AST]) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            found.append((".".join(scope), node, ancestors))
        named = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        inner = [*scope, node.name] if named else scope
        for child in ast.iter_child_nodes(node):
            visit(child, inner, [*ancestors, node])

    visit(tree, [], [])
    return found


def _language_package(path: Path, root: Path) -> str | None:
    """The code of the per-language frontend package ``path`` is in (``frontend/ja/...`` -> ``"ja"``), else None."""
    parts = path.relative_to(root).parts
    return parts[1] if len(parts) > 2 and parts[0] == "frontend" and parts[1] in language_codes() else None


def _engine_modules(root: Path) -> dict[Path, str]:
    """Each engine's own modules (its loader's and probe's) -> its device: they may name their own hardware."""
    own: dict[Path, str] = {}
    for kind in ENGINES:
        for target in (kind.loader, kind.probe):
            if target:
                own[root.parent / (target.partition(":")[0].replace(".", "/") + ".py")] = kind.device
    return own


def names_outside_registries(root: Path = SRC) -> list[str]:
    """``path:line: 'value'`` for each string constant naming a registered language, device or engine outside
    its registry (docstrings aside). A per-language frontend package (``frontend/ja/``) holds its language's
    text data (the English pronoun "it", the plural ending "es", the top-level domain "fr" are words, not
    languages): there only a comparison with another language's code counts (``lang == "zh"`` in
    ``frontend/ja/`` would be a decision about another language). An engine's own modules may name their
    own device (``cuda_engine``'s ``"cuda"``)."""
    codes = set(language_codes())
    engines = set(engine_names()) | set(device_aliases())
    own_engine = _engine_modules(root)
    problems = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root) in REGISTRIES:
            continue
        package = _language_package(path, root)
        for scope, node, ancestors in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            value = node.value
            if (scope, value) in ALLOWED_NAMES:
                continue
            if value in codes:
                compared = bool(ancestors) and isinstance(ancestors[-1], ast.Compare)
                if package is not None and (value == package or not compared):
                    continue
            elif value in engines:
                if own_engine.get(path) == value:
                    continue
            else:
                continue
            problems.append(f"{path.relative_to(root.parent)}:{node.lineno}: {value!r} (in {scope or 'the module'})")
    return problems


def test_language_and_engine_names_only_in_their_registries() -> None:
    problems = names_outside_registries()
    assert not problems, (
        "ask the registry (onestep.languages / onestep.runtime.engines) instead of writing these names out, "
        "or justify an entry in ALLOWED_NAMES:\n" + "\n".join(problems)
    )


def test_the_name_scan_sees_a_literal_decision(tmp_path: Path) -> None:
    (tmp_path / "frontend" / "ja").mkdir(parents=True)
    (tmp_path / "frontend" / "ja" / "reader.py").write_text(
        '"""Japanese "zh" in a docstring is fine."""\nOWN = "ja"\nPRONOUNS = ("it", "es")\n'
        'def f(lang):\n    return lang == "zh"\n'
    )
    (tmp_path / "shared.py").write_text('def g(lang, device):\n    return lang == "en" or device == "cuda"\n')
    found = names_outside_registries(tmp_path)
    assert [line.split(": ", 1)[1] for line in found] == ["'zh' (in f)", "'en' (in g)", "'cuda' (in g)"]


# --- what the registries now answer ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "language", "spelled"),
    [
        ("东京½", "zh", "东京二分之一"),  # Han: Mandarin, spelled in Han words for its normalizer
        ("Half: ½", "en", "Half:  one half "),
        ("これは½です", "ja", "これは one half です"),  # kana: Japanese, Latin words read as an English run
        ("東京は½です", "ja", "東京は one half です"),  # kana and Han: Japanese (was Mandarin's 二分之一)
        ("नमस्ते ½", "hi", "नमस्ते  one half "),  # Devanagari: Hindi
        ("気温は-3℃", "ja", "気温は-3℃"),  # the Japanese normalizer reads ℃ itself (was 摄氏度)
        ("花了฿1,200", "zh", "花了฿1,200"),  # the Mandarin normalizer reads ฿ itself
        ("½", "en", " one half "),  # no script: the default language
    ],
)
def test_symbol_readings_follow_the_registry(sentence: str, language: str, spelled: str) -> None:
    assert reading_language(sentence) == language
    assert read_symbols(sentence)[0] == spelled


def test_a_registry_change_changes_the_symbol_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    hindi = get_language("hi")
    monkeypatch.setitem(languages._BY_CODE, "hi", dataclasses.replace(hindi, han_symbol_words=True))
    assert read_symbols("नमस्ते ½")[0] == "नमस्ते 二分之一"
    monkeypatch.setitem(languages._BY_CODE, "hi", dataclasses.replace(hindi, normalizer_symbols="½"))
    assert read_symbols("नमस्ते 1½")[0] == "नमस्ते 1½"


def test_unspaced_languages_let_a_sentence_start_right_after_a_mark() -> None:
    assert all(regex.fullmatch(UNSPACED_CHAR, ch) for ch in "你カな")
    assert not any(regex.fullmatch(UNSPACED_CHAR, ch) for ch in "aé नम")
    assert [s.strip() for s in split_sentences("好!カナ!ひらがな!ok!no")] == ["好!", "カナ!", "ひらがな!ok!no"]


def test_doctor_reports_each_registered_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from onestep.commands import doctor

    probe = types.ModuleType("fake_npu_probe")
    probe.probe = lambda: ({"driver": "9.9"}, "no NPU on this bus")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_npu_probe", probe)
    npu = EngineKind("npu-engine", "npu", "a test engine", "fake_npu_probe:load", probe="fake_npu_probe:probe")
    missing = EngineKind("tpu-engine", "tpu", "another", "x:load", install_hint="pip install tpu", probe="nope:p")
    monkeypatch.setattr(doctor, "ENGINES", (*ENGINES, npu, missing))
    monkeypatch.setattr(engines, "ENGINES", (*ENGINES, npu, missing))
    report = doctor.Report()
    doctor._engines(report, "npu")
    assert report.facts["npu"] == {"driver": "9.9"} and report.facts["tpu"] == {"nope": "not installed"}
    errors = [message for severity, message in report.fixes if severity == "error"]
    assert errors == ["--engine npu-engine (--device npu) cannot run here: no NPU on this bus"]  # the chosen one only
    report = doctor.Report()
    doctor._engines(report, "tpu-engine")
    assert [m for s, m in report.fixes if "tpu" in m] == [
        "--engine tpu-engine (--device tpu) cannot run here: it needs nope: pip install tpu"
    ]
    assert "cpu" not in report.facts  # ort-cpu has nothing to check beyond the base install


def test_say_as_readers_are_the_modules_the_registry_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep.ssml.say_as import reader_for, say_as

    assert [lang.code for lang in LANGUAGES if lang.say_as_module] == ["zh", "en"]
    assert say_as("digits", "907", "es") == say_as("digits", "907", "en")  # none named: the default language's
    hindi = dataclasses.replace(get_language("hi"), say_as_module=get_language("zh").say_as_module)
    monkeypatch.setitem(languages._BY_CODE, "hi", hindi)
    reader_for.cache_clear()
    try:
        assert say_as("digits", "907", "hi").strip() == say_as("digits", "907", "zh") == "九零七"
    finally:
        reader_for.cache_clear()
