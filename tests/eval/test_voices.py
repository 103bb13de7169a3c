"""``python -m onestep_dev.eval.voices``: every voice of a pack, resumable, one table (smoke test without Whisper)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from onestep_dev.eval.voices import figures, gate, markdown_table, run, select_voices, teacher_of, write_pack

TINY = Path(__file__).resolve().parents[1] / "fixtures" / "multi" / "tiny-multi"


class Deaf:
    """Stands in for Whisper: hears the same thing whatever is said."""

    name = "deaf"

    def __init__(self, text: str) -> None:
        self.text, self.calls = text, 0

    def transcribe(self, audio: np.ndarray, sample_rate: int, language: str) -> str:
        assert audio.size > 0 and sample_rate > 0
        self.calls += 1
        return self.text


def test_gate_follows_issue_11() -> None:
    assert gate({"wer": 3.0, "teacher_wer": 2.0, "dnsmos_ovrl": 3.2, "teacher_dnsmos_ovrl": 3.3}, "wer", 1.0, True)
    assert not gate({"wer": 3.1, "teacher_wer": 2.0, "dnsmos_ovrl": 3.3, "teacher_dnsmos_ovrl": 3.3}, "wer", 1.0, True)
    assert not gate({"cer": 10.0, "teacher_cer": 9.0, "dnsmos_ovrl": 3.19, "teacher_dnsmos_ovrl": 3.3}, "cer", 2.0, True)
    assert gate({"cer": 12.0, "teacher_cer": 9.0}, "cer", 3.0, False)
    assert gate({"cer": 12.0, "teacher_cer": None}, "cer", 3.0, False) is None
    results = {"metric": "WER", "systems": {
        "onestep:a": {"error_rate": 0.031, "dnsmos": {"ovrl": 3.214}, "sentences": 112},
        "kokoro:af_a": {"error_rate": 0.02, "dnsmos": {"ovrl": 3.3}, "sentences": 112}}}  # fmt: skip
    assert figures(results, "onestep:a", "kokoro:af_a") == {
        "wer": 3.1, "teacher_wer": 2.0, "dnsmos_ovrl": 3.21, "teacher_dnsmos_ovrl": 3.3, "lines": 112}  # fmt: skip


def test_every_voice_of_a_pack_resumable_and_written_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(TINY, pack)
    monkeypatch.setenv("ONESTEP_VOICES", str(tmp_path / "pack"))  # as the command's put_pack_first does
    entries = select_voices(pack, ["tiny-en-f", "tiny-zh-m"])
    assert [e.name for e in entries] == ["tiny-en-f", "tiny-zh-m"] and teacher_of(entries[0]) is None
    out, lines, asr = tmp_path / "out", [], Deaf("okay")
    options = dict(limit=2, cross_limit=1, cs_sentences=2, dnsmos=False, with_teacher=False, transcriber=asr,
                   word_asr=Deaf("GitHub"), sounds=str.lower, log=lines.append)  # fmt: skip
    summaries = run(entries, out, **options)
    assert [s["voice"] for s in summaries] == ["tiny-en-f", "tiny-zh-m"]
    en = summaries[0]
    assert en["quality"]["en"]["lines"] == 2 and en["quality"]["zh"]["lines"] == 1
    assert en["quality"]["en"]["wer"] > 0 and en["gates"]["en"] is None and en["languages"] == []
    assert en["quality"]["code_switch"]["words"] >= 2 and en["quality"]["code_switch"]["teacher"] is None
    for name in ("tiny-en-f", "tiny-zh-m"):
        assert (out / name / "native" / "results.json").is_file() and (out / name / "code_switch.json").is_file()
    assert any(line.startswith("[2/2] tiny-zh-m: zh CER") for line in lines)
    table = (out / "voices.md").read_text(encoding="utf-8")
    assert "| tiny-zh-m | zh | – | CER " in table
    assert json.loads((out / "voices.json").read_text(encoding="utf-8"))["voices"] == summaries

    calls = asr.calls  # a second run skips the finished voices
    again = run(entries, out, **options)
    assert asr.calls == calls and again == summaries
    assert sum("done before, skipped" in line for line in lines) == 2

    summaries[1]["languages"] = ["zh"]  # as if it had passed
    assert write_pack(pack, summaries) == 2
    speakers = {s["name"]: s for s in json.loads((pack / "voice.json").read_text(encoding="utf-8"))["speakers"]}
    assert speakers["tiny-zh-m"]["languages"] == ["zh"]
    assert speakers["tiny-zh-m"]["quality"]["zh"]["cer"] == summaries[1]["quality"]["zh"]["cer"]
    assert speakers["tiny-zh-f"]["quality"] == {} and markdown_table(summaries).count("\n| tiny") == 2


def test_a_finished_part_is_reused_only_for_the_same_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONESTEP_VOICES", str(tmp_path / "pack"))  # as the command's put_pack_first does
    pack = tmp_path / "pack"
    shutil.copytree(TINY, pack)
    entries = select_voices(pack, ["tiny-en-f"])
    out, lines, asr = tmp_path / "out", [], Deaf("okay")
    options = dict(limit=2, cross_limit=1, cs_sentences=0, dnsmos=False, with_teacher=False, transcriber=asr,
                   log=lines.append)  # fmt: skip
    first = run(entries, out, **options)
    (out / "tiny-en-f" / "summary.json").unlink()  # stopped before the voice's summary: its parts are done
    calls = asr.calls
    again = run(entries, out, **options)
    assert [{**s, "seconds": None} for s in again] == [{**s, "seconds": None} for s in first] and asr.calls == calls
    assert sum("reusing" in line for line in lines) == 2
    (out / "tiny-en-f" / "summary.json").unlink()
    more = run(entries, out, **{**options, "limit": 3})  # other lines: the own-language part runs again
    assert more[0]["quality"]["en"]["lines"] == 3 and asr.calls == calls + 3
