"""Multi-speaker models at run time: every voice of a model is listed, resolved by the one resolver and
served by one shared engine; blends are weighted sums of speaker vectors, deterministic and free per request."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from onestep import TTS
from onestep.config import ConfigError, VoiceConfig
from onestep.runtime.ort_engine import OrtEngine
from onestep.runtime.speakers import SpeakerEngine, load_speaker_table, mix_vector
from onestep.runtime.voices import VoiceBlendError, VoiceCatalog, VoiceNotFoundError, parse_voice

MULTI_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "multi"
TINY_MULTI = MULTI_DIR / "tiny-multi"
SINGLE_DIR = Path(__file__).resolve().parents[1] / "fixtures"
IDS = [0, 43, 102, 16, 56, 83, 156, 46, 0]


@pytest.fixture(scope="module")
def tts() -> TTS:
    return TTS(voices_dir=[MULTI_DIR, SINGLE_DIR], threads=1)


@pytest.fixture(scope="module")
def engine() -> OrtEngine:
    return OrtEngine(TINY_MULTI)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("en-heart", (("en-heart", 1.0),)),
        ("en-heart:0.7+en-bella:0.3", (("en-heart", 0.7), ("en-bella", 0.3))),
        ("en-heart(2)+en-bella(1)", (("en-heart", 2 / 3), ("en-bella", 1 / 3))),
        ("a + b", (("a", 0.5), ("b", 0.5))),
        ("a:3+b:1+a:1", (("a", 0.8), ("b", 0.2))),
        ("a:0+b:2", (("b", 1.0),)),
        ("a:.5+b:1.5", (("a", 0.25), ("b", 0.75))),
    ],
)
def test_parse_voice_names_and_blends(spec: str, expected: tuple) -> None:
    got = parse_voice(spec).components
    assert [n for n, _ in got] == [n for n, _ in expected]
    np.testing.assert_allclose([w for _, w in got], [w for _, w in expected])


@pytest.mark.parametrize("spec", ["", "a:", "a:x", "a(1", "../etc", "a+", "a:1:2", "a b", "x" * 65, "a:-1+b:1"])
def test_parse_voice_rejects_malformed_strings(spec: str) -> None:
    with pytest.raises((VoiceNotFoundError, VoiceBlendError)):
        parse_voice(spec)


def test_weights_must_not_all_be_zero() -> None:
    with pytest.raises(VoiceBlendError, match="weights"):
        parse_voice("a:0+b:0")


@pytest.mark.parametrize("spec", ["a:" + "9" * 400 + "+b:1", "a(" + "9" * 400 + ")", "a:1000.5+b:1", "a:1e3"])
def test_weights_must_be_finite_and_at_most_1000(spec: str) -> None:
    # 400 nines: float() is inf, inf / inf a NaN weight, then "negative dimensions" deep in the engine (a 500)
    with pytest.raises((VoiceBlendError, VoiceNotFoundError)):
        parse_voice(spec)
    weights = [w for _, w in parse_voice("a:1000+b:0.001").components]
    assert all(np.isfinite(weights)) and sum(weights) == pytest.approx(1.0)


def test_catalog_lists_every_voice_of_a_model_with_its_language_and_default() -> None:
    catalog = VoiceCatalog([MULTI_DIR])
    names = [n for n in catalog.names() if n.startswith("tiny-")]
    assert names == ["tiny-en-f", "tiny-en-m", "tiny-zh-f", "tiny-zh-m"]
    entries = catalog.entries
    assert [entries[n].language for n in names] == ["en", "en", "zh", "zh"]
    assert {entries[n].path for n in names} == {TINY_MULTI.resolve()}
    assert catalog.resolve(language="zh").name == "tiny-zh-f"
    assert catalog.resolve(text="Hello there.").name == "tiny-en-f"
    assert entries["tiny-zh-m"].mix == ((3, 1.0),)


def test_voices_of_one_model_share_one_engine_and_differ(tts: TTS) -> None:
    a, b = tts.engine("tiny-en-f"), tts.engine("tiny-zh-m")
    assert isinstance(a, SpeakerEngine) and a.engine is b.engine
    ra, rb = a.synthesize(IDS), b.synthesize(IDS)
    assert not np.array_equal(ra.frames_per_id, rb.frames_per_id) or not np.allclose(ra.audio, rb.audio)
    again = tts.engine("tiny-en-f").synthesize(IDS)
    np.testing.assert_array_equal(again.audio, ra.audio)


def test_a_blend_is_the_weighted_sum_of_speaker_vectors(tts: TTS, engine: OrtEngine) -> None:
    table = load_speaker_table(TINY_MULTI, engine.config)
    blended = tts.engine("tiny-en-f:0.7+tiny-zh-m:0.3")
    expected = engine.synthesize(IDS, speaker=0.7 * table[0] + 0.3 * table[3])
    got = blended.synthesize(IDS)
    np.testing.assert_allclose(got.audio, expected.audio, atol=1e-5)
    same = tts.engine("tiny-en-f(7)+tiny-zh-m(3)").synthesize(IDS)
    np.testing.assert_allclose(same.audio, got.audio, atol=1e-6)
    np.testing.assert_allclose(mix_vector(table, ((0, 0.5), (0, 0.5))), table[0], atol=1e-7)


def test_blend_through_the_api_reports_its_canonical_name(tts: TTS) -> None:
    audio = tts.synthesize("Open the door.", voice="tiny-en-f(3)+tiny-en-m(1)")
    assert audio.voice == "tiny-en-f:0.75+tiny-en-m:0.25"
    assert audio.samples.size > 0 and np.all(np.isfinite(audio.samples))


def test_blends_only_within_one_multi_speaker_model(tts: TTS) -> None:
    with pytest.raises(VoiceBlendError, match="one multi-speaker model"):
        tts.synthesize("Hello.", voice="tiny-en-f:0.5+tiny:0.5")
    with pytest.raises(VoiceNotFoundError, match="nobody"):
        tts.synthesize("Hello.", voice="tiny-en-f+nobody")


def test_mixed_language_text_is_read_by_the_one_voice_asked_for(tts: TTS) -> None:
    audio = tts.synthesize("请打开设置。Open the menu, 然后点OK。", voice="tiny-zh-m")
    assert audio.voice == "tiny-zh-m"
    assert len(audio.words) >= 3


def test_streamed_equals_one_shot_for_a_voice_of_a_model(tts: TTS) -> None:
    engine = tts.engine("tiny-en-m")
    whole = engine.synthesize(IDS * 8)
    streamed = engine.stream(IDS * 8)
    np.testing.assert_array_equal(streamed.frames_per_id, whole.frames_per_id)
    np.testing.assert_allclose(np.concatenate(list(streamed.chunks)), whole.audio, atol=1e-5)


def test_a_multi_speaker_engine_without_a_speaker_speaks_its_default_voice(engine: OrtEngine) -> None:
    table = load_speaker_table(TINY_MULTI, engine.config)
    default = engine.synthesize(IDS)
    first = engine.synthesize(IDS, speaker=table[0])  # tiny-en-f: the default of the model's language (en)
    np.testing.assert_array_equal(default.audio, first.audio)
    with pytest.raises(ValueError, match="speaker vectors"):
        engine.synthesize(IDS, speaker=np.zeros(3, dtype=np.float32))


def test_a_single_speaker_engine_refuses_a_speaker_vector() -> None:
    engine = OrtEngine(SINGLE_DIR / "tiny-voice")
    with pytest.raises(ValueError, match="one speaker"):
        engine.synthesize(IDS, speaker=np.zeros(8, dtype=np.float32))


def test_voice_json_must_name_every_row_of_the_table(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(TINY_MULTI, broken)
    data = json.loads((broken / "voice.json").read_text())
    data["speakers"] = data["speakers"][:3]
    (broken / "voice.json").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="3 speakers listed"):
        VoiceConfig.load(broken / "voice.json")
    catalog = VoiceCatalog([tmp_path])
    assert "tiny-en-f" not in catalog.entries and catalog.problems
    np.save(broken / "speakers.npy", np.zeros((2, 8), dtype=np.float32))
    data["speakers"] = json.loads((TINY_MULTI / "voice.json").read_text())["speakers"]
    (broken / "voice.json").write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="shape"):
        OrtEngine(broken)


def test_the_gpu_engine_takes_one_speaker_per_row_and_matches_the_onnx_engine(engine: OrtEngine) -> None:
    torch = pytest.importorskip("torch")
    from onestep.runtime.cuda_engine import CudaEngine, CudaSettings

    del torch
    gpu = CudaEngine(TINY_MULTI, CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, batch_sizes=(1, 2, 4)))
    table = load_speaker_table(TINY_MULTI, engine.config)
    batch = [IDS, IDS[:5] + [0], IDS * 3, IDS]
    rows = table[[0, 1, 2, 3]]
    got = gpu.synthesize_batch(batch, 1.0, speaker=rows)  # one pass, every row its own voice
    for ids, row, result in zip(batch, rows, got, strict=True):
        expected = engine.synthesize(ids, speaker=row)
        np.testing.assert_array_equal(result.frames_per_id, expected.frames_per_id)
        np.testing.assert_allclose(result.audio, expected.audio, atol=2e-4)
    default = gpu.synthesize(IDS)
    np.testing.assert_allclose(default.audio, engine.synthesize(IDS).audio, atol=2e-4)
    view = SpeakerEngine(gpu, ((3, 1.0),), "tiny-zh-m")
    np.testing.assert_allclose(view.synthesize(IDS).audio, got[3].audio, atol=1e-5)


@pytest.mark.parametrize("dtype", ["fp32", "fp16"])
def test_captured_cuda_graphs_take_a_speaker_per_row_on_a_gpu(engine: OrtEngine, dtype: str) -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from onestep.runtime.cuda_engine import CudaEngine, CudaSettings

    gpu = CudaEngine(TINY_MULTI, CudaSettings(dtype=dtype, batch_sizes=(1, 4)))  # one set of graphs, every voice
    table = load_speaker_table(TINY_MULTI, engine.config)
    tolerance = {"fp32": 1e-4, "fp16": 0.05}[dtype]
    batch = [IDS, IDS[:5] + [0], IDS * 3, IDS]
    for order in ([0, 1, 2, 3], [3, 2, 1, 0]):  # graph replays with other vectors in the same rows
        rows = table[order]
        for ids, row, result in zip(batch, rows, gpu.synthesize_batch(batch, 1.0, speaker=rows), strict=True):
            expected = engine.synthesize(ids, speaker=row)
            if np.array_equal(result.frames_per_id, expected.frames_per_id):  # fp16 may move a rounding
                assert np.abs(result.audio - expected.audio).max() <= tolerance
            assert abs(int(result.frames_per_id.sum()) - int(expected.frames_per_id.sum())) <= len(ids) // 10 + 1
    alone = gpu.synthesize(IDS, speaker=table[2])  # batch size 1 graph
    want = engine.synthesize(IDS, speaker=table[2])
    if np.array_equal(alone.frames_per_id, want.frames_per_id):
        assert np.abs(alone.audio - want.audio).max() <= tolerance


def test_voices_command_shows_gender_accent_teacher_and_model(capsys: pytest.CaptureFixture[str]) -> None:
    from onestep.cli import main

    assert main(["voices", "--voices-dir", str(MULTI_DIR), "--json"]) == 0
    listing = {v["name"]: v for v in json.loads(capsys.readouterr().out)["voices"]}
    zh_m = listing["tiny-zh-m"]
    assert (zh_m["language"], zh_m["gender"], zh_m["accent"], zh_m["model"], zh_m["blends"]) == (
        "zh", "male", "test", "tiny-multi", True,
    )  # fmt: skip


def test_render_batches_each_voice_of_a_model_with_its_own_vector(tts: TTS) -> None:
    text = "Open the door, please."
    prepared = [tts.prepare(text, voice) for voice in ("tiny-en-f", "tiny-en-m", "tiny-en-f:0.5+tiny-en-m:0.5")]
    rendered = tts.render(prepared)
    for voice, audio in zip(("tiny-en-f", "tiny-en-m", "tiny-en-f:0.5+tiny-en-m:0.5"), rendered, strict=True):
        alone = tts.synthesize(text, voice=voice)
        assert audio.voice == alone.voice
        np.testing.assert_allclose(audio.samples, alone.samples, atol=1e-5)


def test_cli_says_a_blend_and_refuses_a_bad_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from onestep.cli import main

    out = tmp_path / "blend.wav"
    args = ["say", "你好。", "--voices-dir", str(MULTI_DIR), "-o", str(out)]
    assert main([*args, "--voice", "tiny-zh-f:0.3+tiny-en-m:0.7"]) == 0
    assert out.stat().st_size > 44
    assert main([*args, "--voice", "tiny-zh-f+tiny"]) == 2  # the single-speaker fixture is not on this path
    assert "tiny" in capsys.readouterr().err
