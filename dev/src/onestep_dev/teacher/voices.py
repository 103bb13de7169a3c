"""Kokoro voice packs (``*.pt``): read without torch, pick the style vector for an utterance.

A voice pack is a ``torch.save`` zip archive of one float32 tensor [510, 1, 256]. Row ``n - 1`` is the style
for an utterance of ``n`` phoneme ids, counted WITHOUT the two boundary pads: kokoro-onnx 0.6.1 indexes
``voice[len(tokens) - 1]`` with the pads added later inside ``_infer``, and the ``kokoro`` package indexes
``pack[len(ps) - 1]`` with ``ps`` the unpadded phoneme string.

The archive's pickle is read with a restricted unpickler that only knows the three names a plain tensor needs;
the raw little-endian storage is then viewed with numpy.
"""

from __future__ import annotations

import io
import os
import pickle
import zipfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from onestep.errors import UserError

STYLE_DIM = 256
STYLE_ROWS = 510

KOKORO_VOICES: dict[str, tuple[str, ...]] = {
    "en": (
        "af_heart",
        "af_bella",
        "af_nicole",
        "af_sarah",
        "am_michael",
        "am_fenrir",
        "am_puck",
        "bf_emma",
        "bm_george",
        "af_alloy",
        "af_nova",
        "af_sky",
        "am_echo",
        "am_onyx",
        "bm_fable",
    ),
    "zh": ("zf_xiaobei", "zf_xiaoni", "zf_xiaoxiao", "zf_xiaoyi", "zm_yunjian", "zm_yunxi", "zm_yunxia", "zm_yunyang"),
    "ja": ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"),
    "es": ("ef_dora", "em_alex", "em_santa"),
    "fr": ("ff_siwis",),
    "hi": ("hf_alpha", "hf_beta", "hm_omega", "hm_psi"),
    "it": ("if_sara", "im_nicola"),
    "pt": ("pf_dora", "pm_alex", "pm_santa"),
}

_STORAGE_DTYPES = {"FloatStorage": np.float32}


class VoiceError(UserError, ValueError):
    """A voice pack is missing or not in the expected format; the message names the file."""


@dataclass(frozen=True)
class _StorageRef:
    dtype: type[np.floating[Any]]
    key: str
    numel: int


@dataclass(frozen=True)
class _TensorRef:
    storage: _StorageRef
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]


def _rebuild_tensor(
    storage: _StorageRef, offset: int, size: tuple[int, ...], stride: tuple[int, ...], *_: Any
) -> _TensorRef:
    return _TensorRef(storage, int(offset), tuple(size), tuple(stride))


class _StorageClass:
    def __init__(self, name: str) -> None:
        self.name = name


class _TensorUnpickler(pickle.Unpickler):
    """Allows exactly what ``torch.save(tensor)`` writes for a float32 tensor; anything else is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "torch" and name in _STORAGE_DTYPES:
            return _StorageClass(name)
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        raise pickle.UnpicklingError(f"unexpected object {module}.{name} in voice pack")

    def persistent_load(self, pid: Any) -> _StorageRef:
        kind, storage_class, key, _location, numel = pid
        if kind != "storage" or not isinstance(storage_class, _StorageClass):
            raise pickle.UnpicklingError(f"unexpected persistent id {pid!r} in voice pack")
        return _StorageRef(_STORAGE_DTYPES[storage_class.name], str(key), int(numel))


def read_torch_tensor(path: str | Path) -> np.ndarray:
    """Read a ``torch.save``d float32 tensor from a zip archive without importing torch.

    Returns:
        a new C-contiguous numpy array with the tensor's shape and dtype.
    Raises:
        VoiceError: the file is not a torch zip archive holding one float32 tensor.
    """
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            pkl = next((n for n in names if n.endswith("/data.pkl")), None)
            if pkl is None:
                raise VoiceError(f"{path}: no data.pkl in archive (not a torch.save file?)")
            prefix = pkl[: -len("data.pkl")]
            ref = _TensorUnpickler(io.BytesIO(zf.read(pkl))).load()
            if not isinstance(ref, _TensorRef):
                raise VoiceError(f"{path}: archive holds {type(ref).__name__}, expected one tensor")
            order = zf.read(prefix + "byteorder").decode().strip() if prefix + "byteorder" in names else "little"
            raw = zf.read(f"{prefix}data/{ref.storage.key}")
    except (zipfile.BadZipFile, pickle.UnpicklingError, KeyError, OSError) as e:
        raise VoiceError(f"cannot read voice pack {path}: {e}") from e
    dtype = np.dtype(ref.storage.dtype).newbyteorder("<" if order == "little" else ">")
    flat = np.frombuffer(raw, dtype=dtype, count=ref.storage.numel)
    itemsize = flat.itemsize
    view = np.lib.stride_tricks.as_strided(
        flat[ref.offset :], shape=ref.size, strides=tuple(s * itemsize for s in ref.stride), writeable=False
    )
    return np.ascontiguousarray(view, dtype=np.float32)


VOICES_ENV = "ONESTEP_KOKORO_VOICES"


def voices_dir() -> Path:
    """Where Kokoro voice packs are looked up by name: the folder ``$ONESTEP_KOKORO_VOICES`` names.

    Raises:
        VoiceError: the variable is not set (the packs are not part of the installed package).
    """
    env = os.environ.get(VOICES_ENV)
    if not env:
        raise VoiceError(
            f"Kokoro voice packs are looked up in ${VOICES_ENV}, which is not set: set it to the folder of "
            "the *.pt voice packs, or pass a .pt path"
        )
    return Path(env).expanduser()


def load_kokoro_voice(name_or_path: str | Path) -> np.ndarray:
    """Load a Kokoro voice pack as float32 [510, 256].

    Args:
        name_or_path: a voice name (``"af_heart"``, looked up in :func:`voices_dir`), a ``.pt`` path, or a
            blend of names (``"af_heart:0.6+af_bella:0.4"``, :func:`kokoro_blend`).
    Raises:
        VoiceError: the file is missing or its tensor is not [510, 1, 256] / [510, 256].
    """
    text = str(name_or_path)
    if "+" in text and not text.endswith(".pt"):
        return kokoro_blend(text)
    path = Path(text).expanduser()
    if not (text.endswith(".pt") or os.sep in text):
        path = voices_dir() / f"{text}.pt"
    if not path.is_file():
        raise VoiceError(f"Kokoro voice {text!r} not found at {path} (set {VOICES_ENV} to the folder of *.pt)")
    arr = read_torch_tensor(path)
    if arr.shape in ((STYLE_ROWS, 1, STYLE_DIM), (STYLE_ROWS, STYLE_DIM)):
        return arr.reshape(STYLE_ROWS, STYLE_DIM)
    raise VoiceError(f"{path}: voice tensor has shape {arr.shape}, expected ({STYLE_ROWS}, 1, {STYLE_DIM})")


def kokoro_blend(spec: str) -> np.ndarray:
    """A mix of Kokoro voice packs, float32 [510, 256]: ``"af_heart:0.6+af_bella:0.4"`` (our blend syntax,
    :func:`onestep.runtime.voices.parse_voice`; weights normalized) is the weighted sum of the packs' style
    tables, the way Kokoro mixes voices (its pipeline averages the packs' tensors). The teacher of a blended or
    seeded student voice is the same blend of its voices' teachers.

    Raises:
        VoiceError: a malformed blend, or a pack as in :func:`load_kokoro_voice`.
    """
    from onestep.runtime.voices import VoiceBlendError, VoiceNotFoundError, parse_voice

    try:
        components = parse_voice(spec).components
    except (VoiceNotFoundError, VoiceBlendError) as e:
        raise VoiceError(f"Kokoro blend {spec!r}: {e}") from e
    mixed = sum(weight * load_kokoro_voice(name).astype(np.float64) for name, weight in components)
    return np.asarray(mixed, dtype=np.float32)


def style_for(voice: np.ndarray, ids: list[int] | np.ndarray) -> np.ndarray:
    """The style vector float32 [256] for model input ``ids`` (WITH the two boundary pads).

    The row is ``n - 1`` with ``n = len(ids) - 2`` real phoneme ids (clamped to the pack's 510 rows).
    """
    n = len(ids) - 2
    if n < 1:
        raise ValueError(f"need at least one phoneme id besides the two pads, got {len(ids)} ids")
    return voice[min(n, len(voice)) - 1]


KOKORO_RELEASE = "kokoro-82m-v1.0"
_ACCENTS = {
    "a": ("en", "American"),
    "b": ("en", "British"),
    "z": ("zh", "Mandarin"),
    "j": ("ja", "Japanese"),
    "e": ("es", "Spanish"),
    "f": ("fr", "French"),
    "h": ("hi", "Hindi"),
    "i": ("it", "Italian"),
    "p": ("pt", "Brazilian"),
}
_GENDERS = {"f": "female", "m": "male"}
KEPT_NAMES = {"af_heart": "en-heart", "zf_xiaoxiao": "zh-xiaoxiao"}
"""Student voices whose names predate the naming rule (they are the rule's result too; kept for clarity)."""


def student_speaker(teacher_voice: str) -> dict[str, str]:
    """Name, language, gender, accent and teacher of the student voice distilled from Kokoro ``teacher_voice``.

    Kokoro names its voices ``<accent><gender>_<name>`` (``af_heart``: American female "heart"); the student
    voice is ``<language>-<name>`` (``en-heart``). Raises ValueError for a name outside that scheme.
    """
    prefix, _, short = teacher_voice.partition("_")
    if len(prefix) != 2 or prefix[0] not in _ACCENTS or prefix[1] not in _GENDERS or not short.isalnum():
        raise ValueError(f"{teacher_voice!r} is not a Kokoro voice name like 'af_heart'")
    language, accent = _ACCENTS[prefix[0]]
    return {
        "name": KEPT_NAMES.get(teacher_voice, f"{language}-{short}"),
        "language": language,
        "gender": _GENDERS[prefix[1]],
        "accent": accent,
        "teacher": f"{KOKORO_RELEASE}/{teacher_voice}",
    }
