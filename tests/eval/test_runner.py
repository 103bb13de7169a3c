"""The eval pipeline with fake systems / ASR / DNSMOS (the real models are too heavy for CI), and on the tiny
fixture voice through the real API once the frontend is importable."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jiwer")
pytest.importorskip("whisper_normalizer")
pytest.importorskip("opencc")

from onestep_dev.eval.dnsmos import Quality  # noqa: E402
from onestep_dev.eval.heldout import Sentence, load_heldout, select  # noqa: E402
from onestep_dev.eval.metrics import error_counts, total  # noqa: E402
from onestep_dev.eval.runner import EvalConfig, EvalError, resolve_lang, run_eval  # noqa: E402
from onestep_dev.eval.systems import Synthesis  # noqa: E402

TINY_VOICE = Path(__file__).parents[1] / "fixtures" / "tiny-voice"
FRONTEND_READY = all(
    importlib.util.find_spec(m) is not None for m in ("onestep.frontend.en.normalize", "onestep.frontend.en.g2p")
)


class FakeASR:
    """Returns whatever the fake system said it spoke last."""

    name = "fake-asr"

    def __init__(self) -> None:
        self.pending = ""
        self.calls: list[tuple[int, str]] = []

    def transcribe(self, audio: np.ndarray, sample_rate: int, language: str) -> str:
        self.calls.append((audio.size, language))
        return self.pending


class FakeQuality:
    def score(self, audio: np.ndarray, sample_rate: int) -> Quality:
        return Quality(3.0, 4.0, float(audio.size % 7) / 7 + 2.5, 3.5)


class FakeSystem:
    """0.1 s of tone per word; tells the fake ASR a (possibly mangled) transcript."""

    def __init__(self, name: str, kind: str, asr: FakeASR, mangle: Callable[[str], str] = lambda t: t) -> None:
        self.name, self.kind, self.asr, self.mangle = name, kind, asr, mangle

    def synthesize(self, text: str) -> Synthesis:
        if "fail" in text:
            raise RuntimeError("cannot say that")
        self.asr.pending = self.mangle(text)
        n = 2400 * max(len(text.split()), 1)
        return Synthesis(0.1 * np.sin(np.arange(n) * 0.05).astype(np.float32), 24000, "fake")


SENTENCES = [
    Sentence("en-001", "corpus", "The cat sat on the mat."),
    Sentence("en-002", "corpus", "It costs $4.99 today."),
    Sentence("en-003", "normalization", "Please fail here."),
    Sentence("en-004", "normalization", "The FBI met at 10:30 a.m."),
]


def _drop_last_word(text: str) -> str:
    return " ".join(text.split()[:-1])


def test_run_eval_scores_writes_and_survives_failures(tmp_path: Path) -> None:
    asr = FakeASR()
    perfect = FakeSystem("onestep:fake", "student", asr)
    lossy = FakeSystem("kokoro:fake", "teacher", asr, _drop_last_word)
    results = run_eval(
        SENTENCES, [perfect, lossy], asr, "en", tmp_path, quality=FakeQuality(), save_audio=True, progress=False
    )

    good = [s for s in SENTENCES if "fail" not in s.text]
    student, teacher = results["systems"]["onestep:fake"], results["systems"]["kokoro:fake"]
    assert student["error_rate"] == 0.0 and student["sentences"] == 3 and student["failures"] == 1
    expected = total([error_counts(s.text, _drop_last_word(s.text), "en") for s in good]).rate
    assert teacher["error_rate"] == pytest.approx(expected) and teacher["error_rate"] > 0
    assert set(teacher["by_section"]) == {"corpus", "normalization"}
    assert student["dnsmos"]["sig"] == pytest.approx(3.0)
    assert student["rtf"] > 0 and student["audio_s"] == pytest.approx(sum(0.1 * len(s.text.split()) for s in good))

    on_disk = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert on_disk["metric"] == "WER" and len(on_disk["sentences"]) == 4
    assert "error" in on_disk["sentences"][2]["systems"]["onestep:fake"]
    report = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "| onestep:fake |" in report and "Worst sentences: kokoro:fake" in report
    assert "Worst sentences: onestep:fake" not in report
    assert len(list((tmp_path / "audio" / "kokoro_fake").glob("*.wav"))) == 3
    assert all(lang == "en" for _, lang in asr.calls)


def test_config_validation() -> None:
    with pytest.raises(EvalError, match="English-only"):
        EvalConfig(lang="zh", teacher_voices=("zf_xiaoxiao",), asr="tiny.en")
    with pytest.raises(EvalError, match="nothing to evaluate"):
        EvalConfig(lang="en")
    with pytest.raises(EvalError, match="limit"):
        EvalConfig(lang="en", teacher_voices=("af_heart",), limit=0)


def test_resolve_lang_from_teacher_voice_name() -> None:
    assert resolve_lang(None, ("zm_yunjian",)) == "zh"
    assert resolve_lang(None, ("af_heart",)) == "en"
    assert [resolve_lang(None, (v,)) for v in ("jm_kumo", "ef_dora", "ff_siwis", "im_nicola", "pm_alex", "hf_beta")] == [
        "ja", "es", "fr", "it", "pt", "hi",
    ]  # fmt: skip


def test_config_takes_the_new_languages_only() -> None:
    for lang in ("ja", "es", "fr", "it", "pt", "hi"):
        assert EvalConfig(lang=lang, teacher_voices=("x",)).lang == lang  # type: ignore[arg-type]
    with pytest.raises(EvalError, match="lang must be one of"):
        EvalConfig(lang="de", teacher_voices=("x",))  # type: ignore[arg-type]


HI_SENTENCES = [
    Sentence("hi-001", "corpus", "मैं ठीक हूं।"),
    Sentence("hi-002", "corpus", "भारत एक बड़ा देश है।"),
]


def _drop_first_word(text: str) -> str:
    return " ".join(text.split()[1:])


def test_agreement_scores_each_pair_of_transcripts(tmp_path: Path) -> None:
    asr = FakeASR()
    student = FakeSystem("onestep:hi", "student", asr)
    own = FakeSystem("kokoro:hf_a", "teacher", asr)
    other = FakeSystem("kokoro:hm_b", "teacher", asr, _drop_first_word)
    results = run_eval(HI_SENTENCES, [student, own, other], asr, "hi", tmp_path, progress=False)

    assert results["metric"] == "CER" and all(lang == "hi" for _, lang in asr.calls)
    pairs = {(p["reference"], p["hypothesis"]): p for p in results["agreement"]}
    names = ["onestep:hi", "kokoro:hf_a", "kokoro:hm_b"]
    assert set(pairs) == {(a, b) for a in names for b in names if a != b}
    assert pairs[("kokoro:hf_a", "onestep:hi")]["rate"] == 0.0
    expected = total([error_counts(s.text, _drop_first_word(s.text), "hi") for s in HI_SENTENCES]).rate
    assert pairs[("kokoro:hf_a", "kokoro:hm_b")]["rate"] == pytest.approx(expected) and expected > 0
    assert pairs[("kokoro:hf_a", "kokoro:hm_b")]["sentences"] == 2
    report = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert f"| kokoro:hf_a | kokoro:hm_b | 2 | {100 * expected:.1f} % |" in report


@pytest.mark.skipif(not FRONTEND_READY, reason="English frontend not built yet")
def test_cli_on_tiny_voice_with_fake_asr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep import cli
    from onestep_dev.eval import asr as asr_module

    class FakeWhisper(FakeASR):
        def __init__(self, model: str = "base", **_: object) -> None:
            super().__init__()
            self.name = f"fake-{model}"

    monkeypatch.setattr(asr_module, "WhisperASR", FakeWhisper)
    out = tmp_path / "run"
    code = cli.main(
        [
            "eval",
            "--voice",
            str(TINY_VOICE),
            "--teacher-voice",
            "none",
            "--limit",
            "3",
            "--no-dnsmos",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert list(results["systems"]) == ["onestep:tiny-voice"] and results["lang"] == "en"
    rows = results["sentences"]
    assert [r["id"] for r in rows] == [s.id for s in select(load_heldout("en"), 3)]
    assert all(r["systems"]["onestep:tiny-voice"]["audio_s"] > 0 for r in rows)
    # the fake ASR hears nothing, so every reference word is a deletion
    assert results["systems"]["onestep:tiny-voice"]["error_rate"] == 1.0


@pytest.mark.skipif(not FRONTEND_READY, reason="English frontend not built yet")
def test_cli_reads_a_new_language_with_the_voice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep import cli
    from onestep_dev.eval import asr as asr_module

    heard: list[str] = []

    class FakeWhisper(FakeASR):
        def __init__(self, model: str = "base", **_: object) -> None:
            super().__init__()
            self.name = f"fake-{model}"

        def transcribe(self, audio: np.ndarray, sample_rate: int, language: str) -> str:
            heard.append(language)
            return ""

    monkeypatch.setattr(asr_module, "WhisperASR", FakeWhisper)
    out = tmp_path / "run"
    argv = ["eval", "--voice", str(TINY_VOICE), "--lang", "es", "--teacher-voice", "none", "--limit", "2"]
    assert cli.main([*argv, "--no-dnsmos", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["lang"] == "es" and results["metric"] == "WER" and set(heard) == {"es"}
    rows = results["sentences"]
    assert [r["text"] for r in rows] == [s.text for s in select(load_heldout("es"), 2)]
    from onestep_dev.eval.systems import frontend_phonemizer

    spanish = frontend_phonemizer("es")
    assert [r["systems"]["onestep:tiny-voice"]["phonemes"] for r in rows] == [" ".join(spanish(r["text"])) for r in rows]


def test_cli_refuses_a_missing_voices_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from onestep import cli

    code = cli.main(["eval", "--voices-dir", str(tmp_path / "nope"), "--voice", "x", "--out", str(tmp_path / "o")])
    assert code == 2 and "--voices-dir" in capsys.readouterr().err
