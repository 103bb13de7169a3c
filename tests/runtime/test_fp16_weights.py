"""fp16-stored weights (``export_voice(fp16_weights=True)``, the default): same graphs, same samples, smaller."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

torch = pytest.importorskip("torch")

from onestep.config import VoiceConfig  # noqa: E402
from onestep.frontend.symbols import phonemes_to_ids  # noqa: E402
from onestep.model_config import TINY  # noqa: E402
from onestep.model.export import export_voice, load_voice_models  # noqa: E402
from onestep.model.quantize import derive_int8_vocoder  # noqa: E402
from onestep.model.voice_models import PARTS, build_models  # noqa: E402
from onestep.runtime.ort_engine import OrtEngine, OrtSettings  # noqa: E402

SENTENCE = phonemes_to_ids("hələʊ wˈɜːld, ðɪs ɪz ə tˈɛst ʌv ðə ɹˈʌntaɪm.")


@pytest.fixture(scope="module")
def fp16_exact_voices(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The tiny random voice with its weights rounded to fp16, exported with fp16 and with fp32 storage."""
    models = build_models(TINY, seed=5).eval()
    with torch.no_grad():
        for part in models.parts().values():
            for p in part.parameters():
                p.copy_(p.half().float())
    voice = VoiceConfig(name="t16", language="en", placeholder=True)
    root = tmp_path_factory.mktemp("fp16")
    export_voice(models, voice, root / "fp16", int8_vocoder=True)
    export_voice(models, voice, root / "fp32", fp16_weights=False)
    return root / "fp16", root / "fp32"


def test_fp16_storage_gives_the_fp32_storage_samples(fp16_exact_voices: tuple[Path, Path]) -> None:
    half, full = fp16_exact_voices
    for name in PARTS:
        half_inits, full_inits = (onnx.load(str(d / f"{name}.onnx")).graph.initializer for d in (half, full))
        assert {i.data_type for i in half_inits} == {onnx.TensorProto.FLOAT16}, name
        assert sum(len(i.raw_data) for i in half_inits) * 2 == sum(len(i.raw_data) for i in full_inits)
    a, b = OrtEngine(half, OrtSettings(int8=False)), OrtEngine(full)
    assert np.array_equal(a.synthesize(SENTENCE).audio, b.synthesize(SENTENCE).audio)
    assert all(np.array_equal(x, y) for x, y in zip(a.stream(SENTENCE).chunks, b.stream(SENTENCE).chunks))


def test_fp16_stored_weights_rebuild_the_same_float32_networks(fp16_exact_voices: tuple[Path, Path]) -> None:
    half, full = fp16_exact_voices
    (_, from_half), (_, from_full) = load_voice_models(half), load_voice_models(full)
    for part in PARTS:
        x, y = getattr(from_half, part).state_dict(), getattr(from_full, part).state_dict()
        assert all(x[k].dtype == torch.float32 and torch.equal(x[k], y[k]) for k in y), part


def test_weights_not_exact_in_fp16_stay_float32(tmp_path: Path) -> None:
    export_voice(build_models(TINY, seed=5), VoiceConfig(name="t", language="en", placeholder=True), tmp_path)
    stored = {i.data_type for i in onnx.load(str(tmp_path / "decoder.onnx")).graph.initializer}
    assert onnx.TensorProto.FLOAT in stored


def test_int8_vocoder_from_an_fp16_stored_vocoder_equals_the_one_from_fp32(
    fp16_exact_voices: tuple[Path, Path], tmp_path: Path
) -> None:
    half, full = fp16_exact_voices
    assert OrtEngine(half, warmup=False).vocoder_file.name == "vocoder.int8.onnx"  # export_voice(int8_vocoder=True)
    a = OrtEngine(derive_int8_vocoder(half, tmp_path / "a").parent)
    b = OrtEngine(derive_int8_vocoder(full, tmp_path / "b").parent)
    assert a.vocoder_file.name == "vocoder.int8.onnx"
    assert np.array_equal(a.synthesize(SENTENCE).audio, b.synthesize(SENTENCE).audio)
