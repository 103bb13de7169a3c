"""Learned Mandarin polyphone disambiguation: g2pM's BiLSTM, run with ONNX Runtime.

The model (``data/polyphone.onnx``, 1.6 MB, converted unchanged from the g2pM package by
:mod:`onestep.frontend.zh.build_polyphone_model`; Apache-2.0, see NOTICE) reads a whole sentence, one id per
character with boundary tokens at both ends, and scores 876 pinyin classes at each asked position. The
scores are restricted to the readings the character can have (CC-CEDICT, shipped beside the model), so the
answer is always one of them.

Cost: ~0.07 ms per sentence of 30 characters with one ONNX Runtime thread; loading ~10 ms once numpy and
onnxruntime are imported (the engine imports both anyway; alone they take ~0.2-0.3 s to import).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Prediction:
    """The model's reading of one character.

    Attributes:
        reading: tone-numbered pinyin, one of the character's candidates (``"zhang3"``, ``"le5"``).
        probability: softmax probability of ``reading`` among the candidates (0-1).
        probabilities: every candidate's probability.
    """

    reading: str
    probability: float
    probabilities: dict[str, float]


class PolyphoneModel:
    """Predicts the reading of polyphonic characters in context. Thread-safe; loads on first use.

    Args:
        model_dir: folder with ``polyphone.onnx`` and ``polyphone_vocab.json`` (default: the shipped ones).
    """

    def __init__(self, model_dir: Path = _DATA) -> None:
        self._dir = model_dir
        self._lock = threading.Lock()
        self._session = None
        self._ids: dict[str, int] = {}
        self._candidates: dict[str, tuple[np.ndarray, tuple[str, ...]]] = {}

    def load(self) -> None:
        """Load the vocabulary and the ONNX session now (idempotent)."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort

            vocab = json.loads((self._dir / "polyphone_vocab.json").read_text(encoding="utf-8"))
            self._ids = {c: i for i, c in enumerate(vocab["chars"])}
            self._unk, self._bos, self._eos = (self._ids[vocab[k]] for k in ("unk", "bos", "eos"))
            class_index = {c: i for i, c in enumerate(vocab["classes"])}
            for char, readings in vocab["candidates"].items():
                known = tuple(r for r in readings if r in class_index)
                if len(known) > 1 and char in self._ids:
                    self._candidates[char] = (np.array([class_index[r] for r in known]), known)
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1
            options.inter_op_num_threads = 1
            options.log_severity_level = 3
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # tiny graph: ~6 ms load
            self._session = ort.InferenceSession(
                str(self._dir / "polyphone.onnx"), options, providers=["CPUExecutionProvider"]
            )

    def is_polyphone(self, char: str) -> bool:
        """Whether the model can choose among several readings of ``char``."""
        self.load()
        return char in self._candidates

    def polyphones(self) -> frozenset[str]:
        """Every character the model chooses a reading for."""
        self.load()
        return frozenset(self._candidates)

    def candidates(self, char: str) -> tuple[str, ...]:
        """The readings the model chooses among for ``char`` (empty if it is not a polyphone it knows)."""
        self.load()
        entry = self._candidates.get(char)
        return entry[1] if entry else ()

    def predict(self, text: str, positions: list[int]) -> list[Prediction]:
        """Readings of ``text[p]`` for each ``p`` in ``positions`` (each must be :meth:`is_polyphone`).

        Args:
            text: the sentence as written (any characters; unknown ones share one id).
            positions: character offsets into ``text``.
        Returns:
            one :class:`Prediction` per position, in order.
        """
        if not positions:
            return []
        self.load()
        assert self._session is not None
        ids = np.empty(len(text) + 2, np.int64)
        ids[0], ids[-1] = self._bos, self._eos
        ids[1:-1] = [self._ids.get(c, self._unk) for c in text]
        logits = self._session.run(None, {"ids": ids, "positions": np.asarray(positions, np.int64) + 1})[0]
        out: list[Prediction] = []
        for row, p in zip(logits, positions):
            classes, readings = self._candidates[text[p]]
            scores = row[classes]
            probs = np.exp(scores - scores.max())
            probs /= probs.sum()
            best = int(probs.argmax())
            out.append(Prediction(readings[best], float(probs[best]), dict(zip(readings, probs.tolist()))))
        return out


_SHARED = PolyphoneModel()  # cheap to build: it reads its files on first use


def shared_model() -> PolyphoneModel:
    """The process-wide model over the shipped files: one ONNX session however many G2Ps use it (loaded on first
    use)."""
    return _SHARED
