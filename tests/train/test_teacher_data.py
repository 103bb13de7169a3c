"""Training text and teacher-data plumbing: template sentences, held-out exclusion, shard format, weight mapping."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from onestep.frontend.symbols import phonemes_to_ids
from onestep_dev.train.extra_sentences import extra_sentences
from onestep_dev.train.kokoro_torch import _iofc_to_ifgo, _kmodel_name, _module_path_from_node
from onestep_dev.train.phonemize_corpus import HELDOUT_LINES, training_lines
from onestep_dev.train.teacher_data import generate_shard, load_style_table, read_rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_template_sentences_are_seeded_and_distinct(lang: str) -> None:
    first = extra_sentences(lang, 300)
    assert first == extra_sentences(lang, 300)
    assert len(set(first)) == 300
    assert first != extra_sentences(lang, 300, seed=1)
    assert any(ch.isdigit() for s in first for ch in s)  # numbers for the normalizer to read out


def test_mandarin_templates_embed_english() -> None:
    assert any("API" in s or "PLC" in s for s in extra_sentences("zh", 400))


def test_template_language_is_checked() -> None:
    with pytest.raises(ValueError, match="'en' or 'zh'"):
        extra_sentences("fr", 3)


def test_training_lines_never_reach_the_heldout_tail(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(f"line {i}" for i in range(HELDOUT_LINES + 10)) + "\n", encoding="utf-8")
    assert training_lines(corpus, 1000) == [f"line {i}" for i in range(10)]
    assert training_lines(corpus, 3) == ["line 0", "line 1", "line 2"]


def test_rows_drop_empty_and_too_long(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    rows = [{"id": "a", "text": "x", "phonemes": "hˈɛlO"}, {"id": "b", "text": "", "phonemes": ""},
            {"id": "c", "text": "long", "phonemes": "a" * 600}]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    got = read_rows(path, None)
    assert [r["id"] for r in got] == ["a"] and got[0]["ids"] == phonemes_to_ids("hˈɛlO")


def test_style_table_loads_npy_and_kokoro_packs(tmp_path: Path) -> None:
    table = np.arange(510 * 256, dtype=np.float32).reshape(510, 256)
    np.save(tmp_path / "v.npy", table)
    assert np.array_equal(load_style_table(tmp_path / "v.npy"), table)
    torch = pytest.importorskip("torch")
    torch.save(torch.from_numpy(table.reshape(510, 1, 256)), tmp_path / "v.pt")
    assert np.array_equal(load_style_table(tmp_path / "v.pt"), table)


def test_shard_durations_account_for_every_sample(tmp_path: Path) -> None:
    def fake_teacher(ids: list[int], style: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
        units = np.array([1 + (i % 3) for i in ids])
        return np.full(int(units.sum()) * 600 + 7, 0.25, dtype=np.float32), units  # a few extra samples get cut

    rows = [{"id": f"u{i}", "ids": [0, *range(1, 5 + i), 0]} for i in range(3)]
    stats = generate_shard(fake_teacher, np.zeros((510, 256), np.float32), rows, tmp_path / "shard-00000.npz")
    z = np.load(tmp_path / "shard-00000.npz")
    assert stats["utterances"] == 3
    for u in range(3):
        ids = z["ids"][z["ids_offsets"][u] : z["ids_offsets"][u + 1]]
        durations = z["durations"][z["ids_offsets"][u] : z["ids_offsets"][u + 1]]
        audio = z["audio"][z["audio_offsets"][u] : z["audio_offsets"][u + 1]]
        assert ids.tolist() == rows[u]["ids"]
        assert int(durations.sum()) * 300 == audio.size  # frames of 300 samples
        assert audio.dtype == np.int16 and abs(int(audio[0]) - round(0.25 * 32767)) <= 1


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ("/encoder/text_encoder/cnn.0/cnn.0.0/Conv_quant", "text_encoder.cnn.0.0"),
        ("/decoder/decoder/generator/resblocks.1/convs1.0/Conv_quant", "decoder.generator.resblocks.1.convs1.0"),
        ("/encoder/F0.1/conv1/Conv_quant", "predictor.F0.1.conv1"),
        ("/encoder/shared/LSTM_quant", "predictor.shared"),
        ("/encoder/predictor/lstm/LSTM_quant", "predictor.lstm"),
        ("/encoder/bert/encoder/embedding_hidden_mapping_in/MatMul_quant", "bert.encoder.embedding_hidden_mapping_in"),
    ],
)
def test_onnx_node_names_map_to_kokoro_module_paths(node: str, expected: str) -> None:
    assert _module_path_from_node(node) == expected


def test_initializer_names_map_and_gates_reorder() -> None:
    assert _kmodel_name("decoder.decoder.generator.noise_convs.0.weight") == "decoder.generator.noise_convs.0.weight"
    assert _kmodel_name("encoder.predictor.F0_proj.weight") == "predictor.F0_proj.weight"
    gates = np.repeat(np.array([0, 1, 2, 3]), 2)  # ONNX order i, o, f, c (two rows each)
    assert _iofc_to_ifgo(gates).tolist() == [0, 0, 2, 2, 3, 3, 1, 1]  # PyTorch order i, f, g(c), o


def test_pytorch_port_matches_the_onnx_teacher_durations() -> None:
    """The GPU teacher (PyTorch port) predicts the ONNX teacher's durations (CPU here) within int8 rounding."""
    pytest.importorskip("kokoro", reason="PyPI kokoro==0.9.4 (--no-deps) provides the PyTorch modules")
    pytest.importorskip("transformers")
    import torch

    from onestep_dev.teacher.assets import kokoro_model_path
    from onestep_dev.teacher.kokoro import KokoroTeacher
    from onestep_dev.train.kokoro_torch import load_teacher

    try:
        model = kokoro_model_path()
    except Exception as e:  # noqa: BLE001 - any missing/unassembled model means: not installed here
        pytest.skip(f"Kokoro int8 model not available: {e}")
    ids = phonemes_to_ids("hˈɛlO wˈɜɹld, ðɪs ɪz ə tˈɛst.")
    style = np.random.default_rng(0).normal(0, 0.2, 256).astype(np.float32)
    _, onnx_units = KokoroTeacher(model, threads=2).synthesize(ids, style)
    torch.manual_seed(0)
    audio, units = load_teacher(model)(torch.tensor([ids]), torch.from_numpy(style)[None])
    diff = units.numpy() - np.asarray(onnx_units)
    # the ONNX graph quantizes activations to int8 at run time: a rounded duration may move by one unit
    assert np.abs(diff).max() <= 1 and np.mean(diff != 0) <= 0.1, diff
    assert audio.numel() == int(units.sum()) * 600
