"""Convert the g2pM polyphone model (PyPI ``g2pM`` 0.1.2.5, Apache-2.0) to the files :mod:`.polyphone` loads.

g2pM (Park & Lee, "g2pM: A Neural Grapheme-to-Phoneme Conversion Package for Mandarin Chinese Based on a New
Open Benchmark Dataset", Interspeech 2020) ships a one-layer bidirectional LSTM as pickled numpy arrays:
character embedding [5398, 64] -> BiLSTM (hidden 32 per direction) -> Linear(64, 32) + ReLU -> Linear(32, 876)
over pinyin classes. This script rewrites it, unchanged in value, as one ONNX graph
(``ids`` int64 [T] -> ``logits`` float32 [K, 876] at ``positions`` int64 [K]) plus a JSON vocabulary
(characters, classes and the candidate readings of each polyphonic character from g2pM's CC-CEDICT digest).

Run once, with ``pip install g2pM==0.1.2.5 onnx`` (neither is needed at run time)::

    python -m onestep.frontend.zh.build_polyphone_model [OUT_DIR]
"""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

import numpy as np

BOS, EOS, UNK = "시", "끝", "<UNK>"  # g2pM's sentence-boundary and unknown tokens


def _ifgo_to_iofc(w: np.ndarray) -> np.ndarray:
    """PyTorch LSTM gate order (input, forget, cell, output) -> ONNX order (input, output, forget, cell)."""
    i, f, g, o = np.split(w, 4, axis=0)
    return np.concatenate([i, o, f, g], axis=0)


def load_g2pm() -> tuple[dict[str, np.ndarray], dict[str, object]]:
    """g2pM's weights (PyTorch parameter names -> float32 arrays) and the vocabulary JSON object."""
    import g2pM  # the package holding the weights

    src = Path(g2pM.__file__).parent

    def load(name: str):  # noqa: ANN202
        with open(src / name, "rb") as f:
            return pickle.load(f)  # noqa: S301  (the package's own files)

    state, char2idx, class2idx, cedict = (
        load("np_ckpt.pkl"), load("char2idx.pkl"), load("class2idx.pkl"), load("digest_cedict.pkl")
    )

    def norm(p: str) -> str:
        return p.replace("u:", "v")

    chars = [c for c, _ in sorted(char2idx.items(), key=lambda kv: kv[1])]
    classes = [norm(c) for c, _ in sorted(class2idx.items(), key=lambda kv: kv[1])]
    candidates = {c: [norm(p) for p in prons] for c, prons in sorted(cedict.items()) if len(prons) > 1}
    vocab = {"source": "g2pM 0.1.2.5 (Apache-2.0)", "bos": BOS, "eos": EOS, "unk": UNK, "chars": chars,
             "classes": classes, "candidates": candidates}
    return {k: np.asarray(v, np.float32) for k, v in state.items()}, vocab


def build(out_dir: Path) -> None:
    """Write g2pM's model unchanged to ``out_dir``."""
    state, vocab = load_g2pm()
    save(state, vocab, out_dir)


def save(state: dict[str, np.ndarray], vocab: dict[str, object], out_dir: Path) -> None:
    """Write ``polyphone.onnx`` and ``polyphone_vocab.json`` from g2pM-layout weights (PyTorch names)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    hidden = state["lstm.weight_hh_l0"].shape[1]
    dirs = ("", "_reverse")
    w = np.stack([_ifgo_to_iofc(state[f"lstm.weight_ih_l0{d}"]) for d in dirs])
    r = np.stack([_ifgo_to_iofc(state[f"lstm.weight_hh_l0{d}"]) for d in dirs])
    b = np.stack(
        [np.concatenate([_ifgo_to_iofc(state[f"lstm.bias_ih_l0{d}"]), _ifgo_to_iofc(state[f"lstm.bias_hh_l0{d}"])])
         for d in dirs]
    )
    emb = state["embedding.weight"]
    n_classes = state["logit_layer.2.weight"].shape[0]
    init = [
        numpy_helper.from_array(emb.astype(np.float32), "embedding"),
        numpy_helper.from_array(w.astype(np.float32), "lstm_w"),
        numpy_helper.from_array(r.astype(np.float32), "lstm_r"),
        numpy_helper.from_array(b.astype(np.float32), "lstm_b"),
        numpy_helper.from_array(state["logit_layer.0.weight"].T.astype(np.float32), "fc0_w"),
        numpy_helper.from_array(state["logit_layer.0.bias"].astype(np.float32), "fc0_b"),
        numpy_helper.from_array(state["logit_layer.2.weight"].T.astype(np.float32), "fc1_w"),
        numpy_helper.from_array(state["logit_layer.2.bias"].astype(np.float32), "fc1_b"),
        numpy_helper.from_array(np.array([-1, 1, emb.shape[1]], np.int64), "seq_shape"),
        numpy_helper.from_array(np.array([-1, 2 * hidden], np.int64), "out_shape"),
    ]
    nodes = [
        helper.make_node("Gather", ["embedding", "ids"], ["emb"]),
        helper.make_node("Reshape", ["emb", "seq_shape"], ["x"]),  # [T, 1, 64]
        helper.make_node("LSTM", ["x", "lstm_w", "lstm_r", "lstm_b"], ["y"], direction="bidirectional",
                         hidden_size=hidden),  # [T, 2, 1, 32]
        helper.make_node("Transpose", ["y"], ["y_t"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["y_t", "out_shape"], ["h"]),  # [T, 64]: forward then backward
        helper.make_node("Gather", ["h", "positions"], ["h_at"]),
        helper.make_node("MatMul", ["h_at", "fc0_w"], ["z0"]),
        helper.make_node("Add", ["z0", "fc0_b"], ["z1"]),
        helper.make_node("Relu", ["z1"], ["z2"]),
        helper.make_node("MatMul", ["z2", "fc1_w"], ["z3"]),
        helper.make_node("Add", ["z3", "fc1_b"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes, "g2pm_polyphone",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["T"]),
         helper.make_tensor_value_info("positions", TensorProto.INT64, ["K"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["K", n_classes])],
        init,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="onestep")
    model.ir_version = 8
    onnx.checker.check_model(model)
    out_dir.mkdir(parents=True, exist_ok=True)
    onnx.save(model, out_dir / "polyphone.onnx")
    (out_dir / "polyphone_vocab.json").write_text(json.dumps(vocab, ensure_ascii=False, separators=(",", ":")),
                                                  encoding="utf-8")


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "data")
