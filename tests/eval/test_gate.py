"""Issue 21's per-voice gate on results built by the eval pipeline with fake systems, ASR and DNSMOS."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jiwer")
pytest.importorskip("whisper_normalizer")

from onestep_dev.eval.dnsmos import Quality  # noqa: E402
from onestep_dev.eval.gate import gate, main, markdown_table  # noqa: E402
from onestep_dev.eval.heldout import Sentence  # noqa: E402
from onestep_dev.eval.runner import run_eval  # noqa: E402
from onestep_dev.eval.systems import Synthesis  # noqa: E402


class EchoASR:
    """Hears what the last fake system said."""

    name = "echo"
    said = ""

    def transcribe(self, audio: np.ndarray, sample_rate: int, language: str) -> str:
        return self.said


class LoudnessQuality:
    """OVRL = the clip's peak amplitude (so each fake system picks its own score)."""

    def score(self, audio: np.ndarray, sample_rate: int) -> Quality:
        peak = float(np.abs(audio).max())
        return Quality(peak, peak, peak, peak)


class Fake:
    def __init__(self, name: str, kind: str, asr: EchoASR, ovrl: float, say: Callable[[str], str]) -> None:
        self.name, self.kind, self.asr, self.ovrl, self.say = name, kind, asr, ovrl, say

    def synthesize(self, text: str) -> Synthesis:
        self.asr.said = self.say(text)
        audio = np.full(2400, self.ovrl, np.float32)
        audio[0] = -self.ovrl
        return Synthesis(audio, 24000)


ES = [Sentence("es-001", "corpus", "uno dos tres cuatro cinco"), Sentence("es-002", "corpus", "seis siete ocho nueve")]
HI = [Sentence("hi-001", "corpus", "मैं ठीक हूं।"), Sentence("hi-002", "corpus", "भारत एक बड़ा देश है।")]


def same(text: str) -> str:
    return text


def drop_first(text: str) -> str:
    return " ".join(text.split()[1:])


Spec = tuple[str, str, float, Callable[[str], str]]
"""A fake system: name, kind, OVRL, what it says for a text."""


def _run(tmp_path: Path, sentences: list[Sentence], lang: str, *specs: Spec) -> dict:
    asr = EchoASR()
    systems = [Fake(name, kind, asr, ovrl, say) for name, kind, ovrl, say in specs]
    return run_eval(sentences, systems, asr, lang, tmp_path, quality=LoudnessQuality(), progress=False)  # type: ignore[arg-type]


def test_student_within_two_points_and_a_tenth_passes(tmp_path: Path) -> None:
    results = _run(tmp_path, ES, "es", ("onestep:es", "student", 3.0, same), ("kokoro:ef", "teacher", 3.09, same))
    row = gate(results)
    assert row.passed and row.student_rate == 0.0 and row.metric == "WER" and row.sentences == 2
    assert row.student_ovrl == pytest.approx(3.0) and row.teacher_ovrl == pytest.approx(3.09)


def test_worse_words_or_quality_fail_with_reasons(tmp_path: Path) -> None:
    student, teacher = ("onestep:es", "student", 2.8, drop_first), ("kokoro:ef", "teacher", 3.0, same)
    row = gate(_run(tmp_path, ES, "es", student, teacher))
    assert not row.passed and row.student_rate == pytest.approx(2 / 9)
    assert any(r.startswith("WER") for r in row.reasons) and any(r.startswith("OVRL") for r in row.reasons)
    assert "FAIL" in markdown_table([row])


def test_hindi_is_judged_by_agreement_with_the_teacher(tmp_path: Path) -> None:
    own, other = ("kokoro:hf", "teacher", 3.0, same), ("kokoro:hm", "teacher", 3.0, drop_first)
    row = gate(_run(tmp_path / "good", HI, "hi", ("onestep:hi", "student", 3.0, same), own, other))
    assert row.passed and row.agreement == 0.0 and row.teacher_agreement is not None and row.teacher_agreement > 0
    bad = _run(tmp_path / "bad", HI, "hi", ("onestep:hi", "student", 3.0, lambda t: ""), own, other)
    assert not gate(bad).passed and gate(bad).agreement == 1.0
    lone = _run(tmp_path / "lone", HI, "hi", ("onestep:hi", "student", 3.0, same), own)
    with pytest.raises(ValueError, match="second teacher"):
        gate(lone)


def test_main_prints_a_row_per_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(tmp_path, ES, "es", ("onestep:es", "student", 3.0, same), ("kokoro:ef", "teacher", 3.0, same))
    assert main([str(tmp_path / "results.json")]) == 0
    out = capsys.readouterr().out
    assert "| onestep:es (kokoro:ef) | es | 2 | WER 0.0 % | 0.0 % | 3.00 | 3.00 |  | pass |" in out


def test_write_pack_stores_figures_and_the_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from onestep.config import VoiceConfig

    pack = tmp_path / "pack"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "multi" / "tiny-multi", pack)
    (pack / "voice.json").write_text(  # tiny-zh-m "passed" es once: a failed run now takes it back
        (pack / "voice.json").read_text().replace('"name": "tiny-zh-m"', '"name": "tiny-zh-m", "languages": ["es"]')
    )
    teacher = ("kokoro:ef", "teacher", 3.0, same)
    _run(tmp_path / "good", ES, "es", ("onestep:tiny-en-f", "student", 3.0, same), teacher)
    _run(tmp_path / "bad", ES, "es", ("onestep:tiny-zh-m", "student", 2.5, drop_first), teacher)
    assert main([str(tmp_path / "good" / "results.json"), str(tmp_path / "bad" / "results.json"),
                 "--write-pack", str(pack), "--measured", "two fake lines"]) == 0  # fmt: skip
    assert "wrote 2 voices' quality" in capsys.readouterr().out
    config = VoiceConfig.load(pack / "voice.json")
    speakers = {s.name: s for s in config.speakers}
    assert speakers["tiny-en-f"].languages == ("es",)
    assert speakers["tiny-en-f"].quality["es"] == {"lines": 2, "dnsmos_ovrl": 3.0, "teacher_dnsmos_ovrl": 3.0,
                                                   "wer": 0.0, "teacher_wer": 0.0}  # fmt: skip
    assert speakers["tiny-zh-m"].languages == () and speakers["tiny-zh-m"].quality["es"]["wer"] == 22.2
    assert speakers["tiny-en-m"].quality == {} and config.extra["measured"] == "two fake lines"
    _run(tmp_path / "x", ES, "es", ("onestep:nobody", "student", 3.0, same), teacher)
    with pytest.raises(ValueError, match="no voice 'nobody'"):
        main([str(tmp_path / "x" / "results.json"), "--write-pack", str(pack)])
