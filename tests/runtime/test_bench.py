"""``onestep bench``: the engine benchmark on the tiny voice, and the dispatch to the other modes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from onestep_dev.bench import engine_bench
from onestep.cli import main




pytestmark = pytest.mark.usefixtures("only_fixture_voices")


def test_builtin_sentence_sets_have_the_stated_sizes() -> None:
    assert len(engine_bench.EN_SENTENCES) == len(engine_bench.ZH_SENTENCES) == 20
    assert all(10 <= len(s.split()) <= 20 for s in engine_bench.EN_SENTENCES)
    assert all(20 <= len(s) <= 30 for s in engine_bench.ZH_SENTENCES)


def test_engine_bench_writes_json_markdown_and_plot(
    tmp_path: Path, tiny_voice: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(engine_bench.BENCH_SENTENCES, "en", engine_bench.EN_SENTENCES[:4])
    monkeypatch.setattr(engine_bench, "UNSEEN_PER_LANGUAGE", 3)
    out = tmp_path / "bench"
    args = ["--voices-dir", str(tiny_voice.parent), "--lang", "en", "--repeat", "2", "--out-dir", str(out)]
    assert main(["bench", *args]) == 0
    report = json.loads((out / "engine.json").read_text())
    assert len(report["runs"]) == 8  # 4 sentences x 2 warm runs
    first_sight = report["first_sight_runs"]  # then 3 held-out sentences, once each, at first sight
    assert len(first_sight) == 3 and all(r["sight"] == "first" for r in first_sight)
    assert report["summary"]["en first sight"]["runs"] == 3
    assert not {r["text"] for r in first_sight} & {r["text"] for r in report["runs"]}
    assert report["summary"]["all"]["runs"] == 8
    assert "en first sight" in (out / "engine.md").read_text()
    run = report["runs"][0]
    for key in ("frontend_ms", "acoustic_ms", "regulate_ms", "decoder_ms", "vocoder_ms", "first_chunk_ms", "rtf"):
        assert run[key] > 0
    assert run["total_ms"] >= run["frontend_ms"] + run["vocoder_ms"]
    assert set(report["targets"]) == {"rtf", "first_chunk_p50_ms", "load_to_first_audio_s", "peak_rss_mb"}
    assert report["cold"]["voices"]["tiny"]["placeholder"] is True
    assert report["summary"]["all"]["total_ms"]["p50"] <= report["summary"]["all"]["total_ms"]["p99"]
    assert "| goal | target | measured | met |" in (out / "engine.md").read_text()
    assert (out / "engine.png").read_bytes()[:4] == b"\x89PNG"


def _record(calls: list[tuple[str, tuple, dict]], name: str, result: Any):
    def fake(*args: Any, **kwargs: Any) -> Any:
        calls.append((name, args, kwargs))
        return result

    return fake


def test_modes_dispatch_to_their_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep_dev.bench import frontend_bench, load_test, peers

    calls: list[tuple[str, tuple, dict]] = []
    monkeypatch.setattr(frontend_bench, "run_frontend_bench", _record(calls, "frontend", {"cases": {}}))
    monkeypatch.setattr(load_test, "run_load_test", _record(calls, "server", {}))
    monkeypatch.setattr(load_test, "format_table", lambda result: "table")
    monkeypatch.setattr(peers, "run_peers", _record(calls, "peers", {"peers": {}}))
    out = str(tmp_path)
    assert main(["bench", "--mode", "frontend", "--no-cold", "--out-dir", out]) == 0
    assert main(["bench", "--mode", "server", "--concurrency", "3", "--duration", "5", "--out-dir", out]) == 0
    assert main(["bench", "--mode", "peers", "--peer", "piper", "--threads", "2", "--out-dir", out]) == 0
    assert [c[0] for c in calls] == ["frontend", "server", "peers"]
    assert calls[0][2]["cold"] is False
    assert calls[1][1] == ("http://127.0.0.1:8000", 3, 5.0)
    assert calls[2][1][0]["en"] and calls[2][2]["peers"] == ("piper",) and calls[2][2]["threads"] == 2
    assert (tmp_path / "frontend.json").exists() and (tmp_path / "server.json").exists()


def test_bad_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["bench", "--repeat", "0", "--out-dir", str(tmp_path)]) == 2
    assert main(["bench", "--threads", "0", "--out-dir", str(tmp_path)]) == 2
    assert "--threads must be >= 1" in capsys.readouterr().err


def test_engine_bench_without_matplotlib_writes_json_and_markdown_and_says_how_to_plot(
    tmp_path: Path, tiny_voice: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed: import and find_spec fail
    monkeypatch.setitem(engine_bench.BENCH_SENTENCES, "en", engine_bench.EN_SENTENCES[:1])
    out = tmp_path / "bench"
    args = ["--voices-dir", str(tiny_voice.parent), "--lang", "en", "--repeat", "1", "--out-dir", str(out)]
    assert main(["bench", *args]) == 0
    assert json.loads((out / "engine.json").read_text())["runs"]
    assert (out / "engine.md").exists() and not (out / "engine.png").exists()
    err = capsys.readouterr().err
    assert "matplotlib is not installed" in err and "pip install" in err
