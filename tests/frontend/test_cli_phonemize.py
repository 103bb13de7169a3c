"""The ``onestep phonemize`` contract: inputs, output forms, errors.

In-process tests run the CLI on the fake tools (monkeypatched loaders); the subprocess test runs the real
tools and is skipped until they exist.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from onestep.cli import main
import onestep.frontend.en.tools
import onestep.frontend.zh.tools
from onestep.frontend import pipeline


@pytest.fixture(autouse=True)
def _fake_tools(monkeypatch: pytest.MonkeyPatch, fake_tools: tuple[pipeline.LanguageTools, ...]) -> None:
    fake_zh, fake_en = fake_tools
    monkeypatch.setattr(onestep.frontend.zh.tools, "load_tools", lambda lexicon=None: fake_zh)
    monkeypatch.setattr(onestep.frontend.en.tools, "load_tools", lambda lexicon=None: fake_en)
    monkeypatch.delenv("ONESTEP_LEXICON", raising=False)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["phonemize", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_argument_prints_phonemes(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, "请打开API接口") == (0, "xa→xa→xa→ a p i xa→xa→\n", "")


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "--json", "请打开API接口")
    assert code == 0 and out.count("\n") == 1
    assert "请打开" in out  # not ASCII-escaped
    obj = json.loads(out)
    assert obj == {
        "text": "请打开API接口",
        "normalized": "请打开 A P I 接口",
        "segments": [
            {"lang": "zh", "text": "请打开", "pinyin": ["ha1", "ha1", "ha1"], "phonemes": "xa→xa→xa→"},
            {"lang": "en", "text": "A P I", "phonemes": "a p i"},
            {"lang": "zh", "text": "接口", "pinyin": ["ha1", "ha1"], "phonemes": "xa→xa→"},
        ],
    }


def test_input_file_one_line_per_input_in_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = ["Hello world", "", "你好", "PLC控制器", "😀"]
    path = tmp_path / "in.txt"
    path.write_text("\r\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = _run(capsys, "--json", "--input", str(path))
    objs = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [o["text"] for o in objs] == lines
    assert [len(o["segments"]) for o in objs] == [1, 0, 1, 2, 0]
    code, out, _ = _run(capsys, "--input", str(path))
    assert out.split("\n")[:-1] == ["hello world", "", "xa→xa→", "p l c xa→xa→xa→", ""]


def test_stdin_whole_and_by_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("one\ntwo\n"))
    assert _run(capsys, "--json")[1].count("\n") == 1  # all of stdin is one input
    monkeypatch.setattr(sys, "stdin", io.StringIO("one\ntwo\n"))
    assert _run(capsys, "--input", "-")[1] == "one\ntwo\n"


def test_lexicon_option(capsys: pytest.CaptureFixture[str], write_lexicon: Callable[..., Path]) -> None:
    path = write_lexicon({"PLC": "/pi ɛl si/"})
    assert _run(capsys, "--lexicon", str(path), "PLC控制器")[1] == "pi ɛl si xa→xa→xa→\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--input", "/nonexistent/in.txt"], "cannot read input file /nonexistent/in.txt"),
        (["--lexicon", "/nonexistent/lex.json", "hi"], "cannot read lexicon /nonexistent/lex.json"),
        (["--input", "x.txt", "hi"], "not both"),
        (["--lang", "xx", "3"], "unknown language 'xx'; known languages: ja, zh, hi, en, es, fr, it, pt"),
    ],
)
def test_errors_exit_2_with_message(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("onestep: error: ") and message in err


def test_bad_lexicon_entry_is_named(capsys: pytest.CaptureFixture[str], write_lexicon: Callable[..., Path]) -> None:
    path = write_lexicon({"车库": "che1"})
    code, _, err = _run(capsys, "--lexicon", str(path), "hi")
    assert code == 2 and "entry '车库'" in err


def test_too_long_input_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "a" * (pipeline.MAX_PHONEMIZE_CHARS + 1))
    assert code == 2 and "sentences" in err


def test_subprocess_real_tools(tmp_path: Path, real_frontend: object) -> None:
    # real_frontend: skips while the Mandarin/English tools are not built
    path = tmp_path / "in.txt"
    path.write_text("请打开API接口\nI have 2 cats.\n", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("ONESTEP_LEXICON", None)
    proc = subprocess.run([sys.executable, "-m", "onestep", "phonemize", "--json", "--input", str(path)],
                          check=False, capture_output=True, text=True, encoding="utf-8", env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    zh, en = (json.loads(line) for line in proc.stdout.splitlines())
    assert [s["lang"] for s in zh["segments"]] == ["zh", "en", "zh"]
    assert all(set(s) == {"lang", "text", "pinyin", "phonemes"} for s in zh["segments"] if s["lang"] == "zh")
    assert en["segments"][0].keys() == {"lang", "text", "phonemes"}
    assert "two" in en["normalized"]
    missing = subprocess.run([sys.executable, "-m", "onestep", "phonemize", "--input", str(tmp_path / "no.txt")],
                             check=False, capture_output=True, text=True, env=env, timeout=120)
    assert missing.returncode == 2 and missing.stderr.startswith("onestep: error: cannot read input file")


def test_user_errors_exit_2_and_bugs_keep_their_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI catches user errors once (message, exit 2); anything else is a bug and is not hidden."""
    from onestep.errors import UserError

    def fail(self: pipeline.Frontend, text: str, language: str | None = None) -> None:
        raise error

    monkeypatch.setattr(pipeline.Frontend, "phonemize", fail)
    error: Exception = UserError("the user's fault")
    assert _run(capsys, "hello") == (2, "", "onestep: error: the user's fault\n")
    error = ValueError("a bug")
    with pytest.raises(ValueError, match="a bug"):
        main(["phonemize", "hello"])
