"""Weight storage of exported graphs (torch-free, ``onnx`` only): fp16-stored weights and the INT8 vocoder.

fp16 storage (:func:`store_fp16`): float32 weights that are exact in float16 stored as float16 + a ``Cast``.

INT8 vocoder: the pointwise layers of ``vocoder.onnx`` rewritten as integer matmuls with per-frame scales.

The vocoder's time goes into its pointwise (Linear) layers: ``pwconv1``/``pwconv2`` of every ConvNeXt block
(and, optionally, the head). Each ``MatMul(x, W)`` with a constant ``W`` becomes::

    x [.., K] -> rows [R, K] -> s = max|row| / 127 [R] -> QuantizeLinear(rows, s, 128, axis=0) uint8
      -> MatMulIntegerToFloat(., W_q int8 [K, N], w_s [N], 128) * s[:, None] -> [.., N]

with ``W`` quantized symmetrically per output column (``w_s = max|W[:, n]| / 127``). The activation scale is
computed per frame (per row), so a frame's output depends on that frame alone: streamed windows and one-shot
calls give the same samples, and a voice's output does not depend on what else is in the batch. Depthwise
convolutions, LayerNorms, the embedding convolution and the iSTFT stay float32 (dynamic INT8 on the
depthwise convolutions was measured slower); the embedding convolution is rewritten as one MatMul over
frames, whose rounding, unlike ONNX Runtime's Conv kernel's, does not depend on the input length.

The result is written as ``vocoder.int8.onnx`` next to (or apart from) ``vocoder.onnx``; the CPU engine uses
it when present (:class:`onestep.runtime.ort_engine.OrtEngine`). Derive it with::

    python -m onestep.model.quantize VOICE_DIR [--out DIR [--fp16-weights]] [--decoder] [--one-precision]

A shipped voice keeps one precision per network (CONTRIBUTING.md's binary policy): the INT8 decoder and
vocoder the CPU engine runs (``--one-precision``, :func:`keep_one_precision`). The GPU engine's float weights are derived from them at load
(:func:`float_state_dict`): every INT8 weight dequantized (``scale * (q - zero_point)``, per output column),
the frame-MatMul rewrites of dense convolutions turned back into ``Conv1d`` weights.
"""

from __future__ import annotations

import argparse
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from onestep.config import int8_path

if TYPE_CHECKING:
    import onnx

INT8_NAME = "vocoder.int8.onnx"
"""File name the engine looks for next to ``vocoder.onnx``."""

MS_DOMAIN = "com.microsoft"  # ONNX Runtime's contrib operators (MatMulIntegerToFloat)
_ZERO_POINT = 128  # activations: symmetric int8 range shifted to uint8 (the u8 x s8 kernels are the fast ones)


@dataclass(frozen=True)
class QuantizeReport:
    """What :func:`quantize_vocoder` did.

    Attributes:
        layers: names of the MatMul nodes made INT8.
        source_bytes, output_bytes: file sizes before and after.
    """

    layers: tuple[str, ...]
    source_bytes: int
    output_bytes: int


def store_fp16(model: onnx.ModelProto, exact_only: bool = True) -> int:
    """Store float32 initializers of ``model`` as float16 followed by a ``Cast`` back to float32, in place.

    The initializer keeps its name (the ``state_dict`` name); its consumers read ``<name>::float``.
    ``exact_only``: convert only initializers whose every value is an fp16 value (lossless); otherwise round
    all of them to the nearest fp16. Returns the number of initializers converted.
    """
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    casts = []
    renamed: dict[str, str] = {}
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT:
            continue
        values = numpy_helper.to_array(init)
        half = values.astype(np.float16)
        if exact_only and not np.array_equal(half.astype(np.float32), values):
            continue
        init.CopyFrom(numpy_helper.from_array(half, init.name))
        renamed[init.name] = f"{init.name}::float"
        casts.append(helper.make_node("Cast", [init.name], [renamed[init.name]], to=TensorProto.FLOAT))
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name in renamed:
                node.input[i] = renamed[name]
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    return len(casts)


def _constant_weight(graph, name: str, ndim: int = 2) -> tuple[np.ndarray, list] | None:  # noqa: ANN001
    """The constant matrix ``W`` [K, N] behind a MatMul's second input, and the nodes that only make it.

    Handles the exporter's ``Transpose(initializer)`` (a Linear layer's ``weight.T``), with or without an fp16
    ``Cast`` in between, and a plain initializer.
    """
    from onnx import numpy_helper

    producers = {out: node for node in graph.node for out in node.output}
    inits = {init.name: init for init in graph.initializer}
    chain: list = []
    transpose = False
    while name not in inits:
        node = producers.get(name)
        if node is None or node.op_type not in ("Transpose", "Cast") or len(node.input) != 1:
            return None
        if node.op_type == "Transpose":
            perm = [a.ints for a in node.attribute if a.name == "perm"]
            if transpose or (perm and list(perm[0]) != [1, 0]):
                return None
            transpose = True
        chain.append(node)
        name = node.input[0]
    weight = numpy_helper.to_array(inits[name]).astype(np.float32)
    if weight.ndim != ndim:
        return None
    return (weight.T if transpose else weight), chain


def _conv_weights(graph, node) -> tuple[np.ndarray, np.ndarray | None]:  # noqa: ANN001
    """Weight [O, C, K] and bias [O] of a dense stride-1 "same" ``Conv`` (error for anything else)."""
    attrs = {a.name: a for a in node.attribute}
    group = attrs["group"].i if "group" in attrs else 1
    strides = list(attrs["strides"].ints) if "strides" in attrs else [1]
    dilations = list(attrs["dilations"].ints) if "dilations" in attrs else [1]
    found = _constant_weight(graph, node.input[1], ndim=3)
    if found is None or group != 1 or strides != [1] or dilations != [1]:
        raise ValueError(f"{node.name}: expected a dense stride-1 Conv1d with constant weights")
    weight = found[0]
    pads = list(attrs["pads"].ints) if "pads" in attrs else [0, 0]
    if pads != [weight.shape[2] // 2] * 2 or weight.shape[2] % 2 == 0:
        raise ValueError(f"{node.name}: expected 'same' padding of an odd kernel, got pads {pads}")
    bias = _constant_weight(graph, node.input[2], ndim=1) if len(node.input) > 2 else None
    return weight, (bias[0] if bias is not None else None)


def _int8_matmul(prefix: str, x: str, y: str, weight: np.ndarray) -> tuple[list, list]:
    """Nodes and initializers computing ``y = x @ weight`` with per-row int8 activations (see module doc)."""
    from onnx import TensorProto, helper, numpy_helper

    k, n = weight.shape
    w_scale = np.maximum(np.abs(weight).max(axis=0), 1e-12) / 127.0
    w_q = np.clip(np.rint(weight / w_scale), -127, 127).astype(np.int8)
    p = f"{prefix}/int8"
    inits = [
        numpy_helper.from_array(w_q, f"{p}/weight"),
        numpy_helper.from_array(w_scale.astype(np.float32), f"{p}/weight_scale"),
        numpy_helper.from_array(np.array([-1, k], dtype=np.int64), f"{p}/rows_shape"),
        numpy_helper.from_array(np.array([n], dtype=np.int64), f"{p}/n"),
        numpy_helper.from_array(np.array(1.0 / 127.0, dtype=np.float32), f"{p}/inv127"),
        numpy_helper.from_array(np.array(1e-30, dtype=np.float32), f"{p}/tiny"),
        numpy_helper.from_array(np.array(_ZERO_POINT, dtype=np.uint8), f"{p}/zero_point"),
        numpy_helper.from_array(np.array([-1, 1], dtype=np.int64), f"{p}/column"),
        numpy_helper.from_array(np.array(1.0, dtype=np.float32), f"{p}/one"),
    ]
    zp_value = helper.make_tensor("value", TensorProto.UINT8, [1], [_ZERO_POINT])
    nodes = [
        helper.make_node("Reshape", [x, f"{p}/rows_shape"], [f"{p}/rows"]),
        helper.make_node("Abs", [f"{p}/rows"], [f"{p}/abs"]),
        helper.make_node("ReduceMax", [f"{p}/abs"], [f"{p}/amax"], axes=[1], keepdims=0),
        helper.make_node("Max", [f"{p}/amax", f"{p}/tiny"], [f"{p}/amax_pos"]),
        helper.make_node("Mul", [f"{p}/amax_pos", f"{p}/inv127"], [f"{p}/scale"]),  # [R]
        helper.make_node("Shape", [f"{p}/scale"], [f"{p}/scale_shape"]),
        helper.make_node("ConstantOfShape", [f"{p}/scale_shape"], [f"{p}/row_zero_points"], value=zp_value),
        helper.make_node(
            "QuantizeLinear", [f"{p}/rows", f"{p}/scale", f"{p}/row_zero_points"], [f"{p}/rows_q"], axis=0
        ),
        # int32 accumulation, converted to float and scaled per column inside the GEMM kernel
        helper.make_node(
            "MatMulIntegerToFloat",
            [f"{p}/rows_q", f"{p}/weight", f"{p}/one", f"{p}/weight_scale", f"{p}/zero_point"],
            [f"{p}/acc_w"],
            domain=MS_DOMAIN,
        ),
        helper.make_node("Reshape", [f"{p}/scale", f"{p}/column"], [f"{p}/scale_col"]),
        helper.make_node("Mul", [f"{p}/acc_w", f"{p}/scale_col"], [f"{p}/out_rows"]),
        helper.make_node("Shape", [x], [f"{p}/x_shape"], end=-1),
        helper.make_node("Concat", [f"{p}/x_shape", f"{p}/n"], [f"{p}/out_shape"], axis=0),
        helper.make_node("Reshape", [f"{p}/out_rows", f"{p}/out_shape"], [y]),
    ]
    return nodes, inits


def _conv_as_matmul(node, weight: np.ndarray, bias: np.ndarray | None) -> tuple[list, list]:  # noqa: ANN001
    """Nodes computing a dense 1-D ``Conv`` (stride 1, "same" zero padding) as shifted slices + one MatMul.

    ONNX Runtime's Conv kernel rounds a frame's sums differently depending on the input length; the MatMul
    over frames (rows) does not, which keeps the per-frame INT8 scales downstream independent of the window.
    """
    from onnx import helper, numpy_helper

    out_ch, in_ch, kernel = weight.shape
    pad = kernel // 2
    p = f"{node.name}/frames"
    x, y = node.input[0], node.output[0]
    # column k * in_ch + c of the stacked input is x[c, t + k - pad]; W2 rows follow the same order
    w2 = np.ascontiguousarray(weight.transpose(2, 1, 0).reshape(kernel * in_ch, out_ch), dtype=np.float32)
    inits = [
        numpy_helper.from_array(w2, f"{p}/weight"),
        numpy_helper.from_array(np.array([0, 0, pad, 0, 0, pad], dtype=np.int64), f"{p}/pads"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), f"{p}/axis"),
        numpy_helper.from_array(np.array([kernel - 1], dtype=np.int64), f"{p}/trim"),
    ]
    nodes = [helper.make_node("Pad", [x, f"{p}/pads"], [f"{p}/padded"])]
    nodes.append(helper.make_node("Shape", [f"{p}/padded"], [f"{p}/padded_len"], start=2, end=3))
    nodes.append(helper.make_node("Sub", [f"{p}/padded_len", f"{p}/trim"], [f"{p}/len"]))
    shifted = []
    for k in range(kernel):
        inits.append(numpy_helper.from_array(np.array([k], dtype=np.int64), f"{p}/start{k}"))
        nodes.append(helper.make_node("Add", [f"{p}/len", f"{p}/start{k}"], [f"{p}/end{k}"]))
        nodes.append(
            helper.make_node("Slice", [f"{p}/padded", f"{p}/start{k}", f"{p}/end{k}", f"{p}/axis"], [f"{p}/x{k}"])
        )
        shifted.append(f"{p}/x{k}")
    nodes.append(helper.make_node("Concat", shifted, [f"{p}/stacked"], axis=1))  # [B, K * C, F]
    nodes.append(helper.make_node("Transpose", [f"{p}/stacked"], [f"{p}/rows"], perm=[0, 2, 1]))
    nodes.append(helper.make_node("MatMul", [f"{p}/rows", f"{p}/weight"], [f"{p}/out"]))
    last = f"{p}/out"
    if bias is not None:
        inits.append(numpy_helper.from_array(bias.astype(np.float32), f"{p}/bias"))
        nodes.append(helper.make_node("Add", [last, f"{p}/bias"], [f"{p}/out_b"]))
        last = f"{p}/out_b"
    nodes.append(helper.make_node("Transpose", [last], [y], perm=[0, 2, 1]))
    return nodes, inits


def _live(nodes: list, outputs: set[str]) -> list:
    """``nodes`` without those whose outputs nothing reads (e.g. the Cast of a weight that was replaced)."""
    while True:
        read = outputs | {name for node in nodes for name in node.input}
        kept = [node for node in nodes if any(out in read for out in node.output)]
        if len(kept) == len(nodes):
            return kept
        nodes = kept


def quantize_vocoder(src: str | Path, dst: str | Path, include_head: bool = False) -> QuantizeReport:
    """Write an INT8 copy of the vocoder graph ``src`` to ``dst`` (see the module docstring).

    Args:
        src: ``vocoder.onnx`` (float32 or fp16-stored weights).
        dst: output path (``vocoder.int8.onnx``).
        include_head: also quantize the head Linear (log-magnitude and phase). Off: on the shipped voices
            it took log-mel L1 vs float32 from 0.011 to 0.016 for ~2 % of the vocoder's time.
    Raises:
        ValueError: ``src`` has no constant-weight MatMul to quantize (not an onestep vocoder).
    """
    prefixes = ("/backbone/", "/head/") if include_head else ("/backbone/",)
    return quantize_graph(src, dst, prefixes, dense_convs=("/embed/Conv",))


def quantize_decoder(src: str | Path, dst: str | Path) -> QuantizeReport:
    """Write an INT8 copy of the mel decoder graph ``src`` to ``dst`` (``decoder.int8.onnx``; opt-in).

    Its ConvNeXt blocks' pointwise layers as in the vocoder; the 1x1 input projection becomes a frame MatMul
    (float32) and the output projection to the mel stays float32. Measured on the shipped English voice:
    the decoder 6.6 -> 3.8 ms per 250 frames, but log-mel L1 of the audio vs float32 0.018 (0.021 together
    with the INT8 vocoder, against 0.011 for the INT8 vocoder alone): a quality call per voice, so it is
    derived only when asked (``--decoder``); ``onestep eval`` decided it for the shipped voices
    (docs/ARCHITECTURE.md).
    """
    return quantize_graph(src, dst, ("/backbone/",), dense_convs=("/input_proj/Conv",))


def quantize_graph(
    src: str | Path, dst: str | Path, prefixes: tuple[str, ...], dense_convs: tuple[str, ...] = ()
) -> QuantizeReport:
    """Per-frame INT8 for the constant-weight MatMuls whose node names start with one of ``prefixes``.

    ``dense_convs``: names of dense "same" Conv1d nodes to rewrite as frame MatMuls (float32), so that no
    length-dependent rounding reaches the per-frame scales (streamed = one-shot exactly).
    """
    import onnx

    src, dst = Path(src), Path(dst)
    model = onnx.load(str(src))
    graph = model.graph
    targets = []
    for node in graph.node:
        if node.op_type != "MatMul" or not node.name.startswith(prefixes):
            continue
        found = _constant_weight(graph, node.input[1])
        if found is not None:
            targets.append((node, *found))
    if not targets:
        raise ValueError(f"{src}: no pointwise MatMul with constant weights found (not an onestep graph?)")
    replaced = {id(node) for node, _, _ in targets}
    dropped = {id(n) for _, _, chain in targets for n in chain}
    new_nodes, new_inits = [], []
    for node in graph.node:
        if id(node) in dropped:
            continue
        if node.op_type == "Conv" and node.name in dense_convs:
            weight, bias = _conv_weights(graph, node)
            nodes, inits = _conv_as_matmul(node, weight, bias)
            new_nodes += nodes
            new_inits += inits
        elif id(node) in replaced:
            _, weight, _ = next(t for t in targets if t[0] is node)
            nodes, inits = _int8_matmul(node.name.rsplit("/", 1)[0], node.input[0], node.output[0], weight)
            new_nodes += nodes
            new_inits += inits
        else:
            new_nodes.append(node)
    new_nodes = _live(new_nodes, {out.name for out in graph.output})
    used = {name for node in new_nodes for name in node.input}
    kept_inits = [init for init in graph.initializer if init.name in used]
    del graph.node[:]
    graph.node.extend(new_nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept_inits + new_inits)
    if not any(op.domain in ("", "ai.onnx") and op.version >= 13 for op in model.opset_import):
        raise ValueError(f"{src}: needs opset >= 13 for per-axis QuantizeLinear")
    if not any(op.domain == MS_DOMAIN for op in model.opset_import):
        model.opset_import.append(onnx.helper.make_opsetid(MS_DOMAIN, 1))
    store_fp16(model)  # the float weights left (depthwise convs, norms), where exact
    onnx.checker.check_model(model)
    dst.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(dst))
    return QuantizeReport(tuple(node.name for node, _, _ in targets), src.stat().st_size, dst.stat().st_size)


def _strip_cast(name: str) -> str:
    """``w::float`` (the consumer name :func:`store_fp16` gives an fp16-stored initializer) -> ``w``."""
    return name.removesuffix("::float")


def dequantize_matmul_weight(q: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | int = 0) -> np.ndarray:
    """Float ``W`` [K, N] of a ``MatMulIntegerToFloat`` second input: ``scale * (q - zero_point)``.

    ``scale`` and ``zero_point`` are scalars or per output column ([N]: axis 1 of ``q``, how
    :func:`_int8_matmul` quantizes), as ONNX Runtime's operator reads them.
    """
    q = np.asarray(q)
    if q.ndim != 2:
        raise ValueError(f"expected an INT8 matrix [K, N], got shape {q.shape}")
    scale = np.asarray(scale, dtype=np.float32)
    zero_point = np.asarray(zero_point, dtype=np.float32)
    for name, v in (("scale", scale), ("zero_point", zero_point)):
        if v.size not in (1, q.shape[1]):
            raise ValueError(f"{name} of {v.size} values for {q.shape[1]} output columns")
    return ((q.astype(np.float32) - zero_point.reshape(1, -1)) * scale.reshape(1, -1)).astype(np.float32)


def float_state_dict(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """The float32 ``state_dict`` (parameter name -> array) behind an exported graph, INT8 or not.

    A float graph's named initializers are its parameters (fp16-stored ones cast back, exactly). A graph
    written by :func:`quantize_graph` lost some of them; they are derived back:

    - each ``MatMulIntegerToFloat`` weight ``<prefix>/int8/weight`` (q [K, N], per-column ``weight_scale``,
      ``zero_point`` 0 unless the node names one) -> ``<module>.weight`` = dequantized ``W.T`` [N, K] (a
      ``Linear``'s layout), ``<module>`` being ``<prefix>`` with ``/`` -> ``.``;
    - each dense convolution rewritten as a frame MatMul (``<node>/frames/weight`` [K*C, O], ``/bias``) ->
      the ``Conv1d``'s ``<module>.weight`` [O, C, K] and ``<module>.bias``, exactly.

    Exporter constants (names holding ``::``) and the rewrites' own helpers (names starting ``/``) are left out.
    """
    from onnx import numpy_helper

    arrays = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}

    def as_float(values: np.ndarray) -> np.ndarray:
        return values.astype(np.float32) if values.dtype != np.float32 else values.copy()

    state = {name: as_float(v) for name, v in arrays.items() if "::" not in name and not name.startswith("/")}
    for node in model.graph.node:
        if node.op_type != "MatMulIntegerToFloat":
            continue
        inputs = [_strip_cast(name) for name in node.input]
        weight_name = inputs[1]
        if not weight_name.endswith("/int8/weight") or weight_name not in arrays:
            raise ValueError(f"MatMulIntegerToFloat reads {weight_name!r}: not a weight written by quantize_graph")
        zero_point = arrays[inputs[5]] if len(inputs) > 5 and inputs[5] else 0
        w = dequantize_matmul_weight(arrays[weight_name], arrays[inputs[3]], zero_point)
        module = weight_name.removesuffix("/int8/weight").strip("/").replace("/", ".")
        state[f"{module}.weight"] = np.ascontiguousarray(w.T)
    for name, values in arrays.items():
        if not (name.startswith("/") and name.endswith("/frames/weight")):
            continue
        conv = name.removesuffix("/frames/weight")  # "/embed/Conv": the rewritten node's name
        pad = int(arrays[f"{conv}/frames/pads"][2])
        kernel = 2 * pad + 1
        rows, out_ch = values.shape
        w = as_float(values).reshape(kernel, rows // kernel, out_ch).transpose(2, 1, 0)  # inverse of _conv_as_matmul
        module = conv.rsplit("/", 1)[0].strip("/").replace("/", ".")
        state[f"{module}.weight"] = np.ascontiguousarray(w)
        if f"{conv}/frames/bias" in arrays:
            state[f"{module}.bias"] = as_float(arrays[f"{conv}/frames/bias"])
    return state


def is_int8_graph(model: onnx.ModelProto) -> bool:
    """Whether ``model`` was written by :func:`quantize_graph` (it runs ``MatMulIntegerToFloat``)."""
    return any(node.op_type == "MatMulIntegerToFloat" for node in model.graph.node)


def derive_int8_vocoder(
    voice_dir: str | Path, out_dir: str | Path | None = None, fp16_weights: bool = False, decoder: bool = False
) -> Path:
    """Quantize a voice's vocoder into ``<out_dir>/vocoder.int8.onnx`` (default: the voice directory itself).

    ``decoder``: also write ``decoder.int8.onnx`` (:func:`quantize_decoder`; a quality trade-off).

    With an ``out_dir`` other than ``voice_dir``, the voice's own files are copied there too (unless present),
    so ``out_dir`` is a complete voice directory that uses the INT8 vocoder; ``fp16_weights`` then writes its
    three graphs with fp16-exact weights stored as fp16 (:func:`store_fp16`; lossless)
    instead of copying them. Returns the written INT8 path.
    """
    import onnx

    from onestep.config import VoiceConfig

    voice_dir = Path(voice_dir)
    config = VoiceConfig.load(voice_dir / "voice.json")
    out = Path(out_dir) if out_dir is not None else voice_dir
    out.mkdir(parents=True, exist_ok=True)
    if out.resolve() != voice_dir.resolve():
        if not (out / "voice.json").exists():
            shutil.copy2(voice_dir / "voice.json", out / "voice.json")
        for name in config.files.values():
            if (out / name).exists():
                continue
            if fp16_weights:
                model = onnx.load(str(voice_dir / name))
                store_fp16(model)
                onnx.save(model, str(out / name))
            else:
                shutil.copy2(voice_dir / name, out / name)
    elif fp16_weights:
        raise ValueError("fp16_weights rewrites the graphs: give an out_dir other than the voice directory")
    if decoder:
        quantize_decoder(voice_dir / config.files["decoder"], int8_path(out / config.files["decoder"]))
    target = int8_path(out / config.files["vocoder"])
    quantize_vocoder(voice_dir / config.files["vocoder"], target)
    return target


def keep_one_precision(voice_dir: str | Path) -> list[Path]:
    """Make a voice directory ship one precision per network (CONTRIBUTING.md's binary policy).

    Where ``decoder.int8.onnx`` / ``vocoder.int8.onnx`` sit beside the float graph ``voice.json`` names, the
    ``voice.json`` is rewritten to name the INT8 graph and the float graph is deleted (the GPU engine derives its
    float weights from the INT8 one, :func:`float_state_dict`). Returns the deleted files.
    """
    import dataclasses

    from onestep.config import VoiceConfig

    voice_dir = Path(voice_dir)
    config = VoiceConfig.load(voice_dir / "voice.json")
    files, removed = dict(config.files), []
    for key in ("decoder", "vocoder"):
        named = voice_dir / files[key]
        int8 = int8_path(named)
        if int8 != named and int8.is_file():
            files[key] = int8.name
            if named.is_file():
                removed.append(named)
    dataclasses.replace(config, files=files).save(voice_dir / "voice.json")
    for path in removed:
        path.unlink()
    return removed


def main(argv: list[str] | None = None) -> int:
    """``python -m onestep.model.quantize VOICE_DIR [--out DIR] [--fp16-weights] [--decoder] [--one-precision]``."""
    parser = argparse.ArgumentParser(prog="python -m onestep.model.quantize", description=__doc__.split("\n")[0])
    parser.add_argument("voice_dir", type=Path, help="voice directory (voice.json + the three graphs)")
    parser.add_argument("--out", type=Path, help="write here (a complete voice directory) instead of VOICE_DIR")
    parser.add_argument(
        "--fp16-weights", action="store_true", help="with --out: store the graphs' fp16-exact weights as fp16"
    )
    parser.add_argument("--decoder", action="store_true", help="also write decoder.int8.onnx (lower quality)")
    parser.add_argument(
        "--one-precision",
        action="store_true",
        help="then keep only the INT8 decoder/vocoder (voice.json names them; the float graphs are deleted): a pack to ship",
    )
    args = parser.parse_args(argv)
    try:
        path = derive_int8_vocoder(args.voice_dir, args.out, args.fp16_weights, args.decoder)
        removed = keep_one_precision(args.out or args.voice_dir) if args.one_precision else []
    except (ValueError, FileNotFoundError) as e:
        parser.error(str(e))
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)" + "".join(f"; removed {p.name}" for p in removed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
