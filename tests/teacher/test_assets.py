"""Split-asset assembly: order, checksum verification, atomic failure."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from onestep_dev.teacher.assets import AssetError, SplitAsset, assemble


def _fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, data: bytes) -> None:
    pkg_dir = tmp_path / "pkgs" / name
    pkg_dir.mkdir(parents=True)
    (pkg_dir / "__init__.py").write_text("")
    (pkg_dir / "part.bin").write_bytes(data)
    monkeypatch.syspath_prepend(str(tmp_path / "pkgs"))
    sys.modules.pop(name, None)


def _asset(data: bytes, names: list[str]) -> SplitAsset:
    return SplitAsset(
        filename="joined.bin",
        parts=tuple((n, "part.bin") for n in names),
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        install_hint="pip install fake",
    )


def test_assembles_in_order_and_reuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_package(tmp_path, monkeypatch, "onestep_fake_part_a", b"hello ")
    _fake_package(tmp_path, monkeypatch, "onestep_fake_part_b", b"world")
    asset = _asset(b"hello world", ["onestep_fake_part_a", "onestep_fake_part_b"])
    out = assemble(asset, tmp_path / "cache")
    assert out.read_bytes() == b"hello world"
    assert assemble(asset, tmp_path / "cache") == out
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["joined.bin"]


def test_bad_checksum_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_package(tmp_path, monkeypatch, "onestep_fake_part_c", b"abc")
    asset = _asset(b"abd", ["onestep_fake_part_c"])
    with pytest.raises(AssetError, match="sha256"):
        assemble(asset, tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []


def test_missing_package_says_how_to_install(tmp_path: Path) -> None:
    asset = _asset(b"x", ["onestep_no_such_package"])
    with pytest.raises(AssetError, match="pip install fake"):
        assemble(asset, tmp_path / "cache")


def test_cache_dir_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep_dev.teacher.assets import cache_dir

    monkeypatch.setenv("ONESTEP_CACHE", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c" and (tmp_path / "c").is_dir()
