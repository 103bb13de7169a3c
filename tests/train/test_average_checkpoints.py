"""onestep_dev.train.average_checkpoints: the uniform average of sibling checkpoints' generator weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from onestep_dev.train.average_checkpoints import average, average_checkpoints, main


def _checkpoint(folder: Path, scale: float, step: int, counter: int = 3) -> Path:
    folder.mkdir(parents=True)
    torch.save({"acoustic": {"w": torch.full((2, 3), scale, dtype=torch.float16), "n": torch.tensor(counter)},
                "decoder": {"b": torch.arange(4, dtype=torch.float32) * scale}}, folder / "acoustic.pt")  # fmt: skip
    torch.save({"vocoder": {"g": torch.tensor([scale, -scale])}}, folder / "vocoder.pt")
    (folder / "meta.json").write_text(json.dumps({"step": step, "model_config": {"n_speakers": 2}}))
    return folder


def test_the_average_of_three_checkpoints_is_written_as_a_checkpoint(tmp_path: Path) -> None:
    sources = [_checkpoint(tmp_path / f"s{i}", scale, 100 * i) for i, scale in enumerate((1.0, 2.0, 6.0))]
    main([str(tmp_path / "avg"), *map(str, sources)])
    acoustic = torch.load(tmp_path / "avg" / "acoustic.pt", weights_only=True)
    assert acoustic["acoustic"]["w"].dtype == torch.float16  # stored in the inputs' dtype
    assert torch.equal(acoustic["acoustic"]["w"], torch.full((2, 3), 3.0, dtype=torch.float16))
    assert torch.allclose(acoustic["decoder"]["b"], torch.arange(4, dtype=torch.float32) * 3.0)
    assert int(acoustic["acoustic"]["n"]) == 3  # integer buffers copied
    vocoder = torch.load(tmp_path / "avg" / "vocoder.pt", weights_only=True)
    assert torch.allclose(vocoder["vocoder"]["g"], torch.tensor([3.0, -3.0]))
    meta = json.loads((tmp_path / "avg" / "meta.json").read_text())
    assert meta["step"] == 0 and [s["step"] for s in meta["averaged_from"]] == [0, 100, 200]


def test_checkpoints_that_disagree_are_refused(tmp_path: Path) -> None:
    a = _checkpoint(tmp_path / "a", 1.0, 1)
    with pytest.raises(ValueError, match="integer tensors differ"):
        average_checkpoints([a, _checkpoint(tmp_path / "b", 2.0, 2, counter=4)], tmp_path / "out1")
    assert not (tmp_path / "out1").exists()  # a refusal writes nothing
    with pytest.raises(ValueError, match="at least two"):
        average_checkpoints([a], tmp_path / "out2")
    with pytest.raises(ValueError, match="shapes differ"):
        average([{"w": torch.zeros(2)}, {"w": torch.zeros(3)}])
    with pytest.raises(ValueError, match="differ in their entries"):
        average([{"w": torch.zeros(2)}, {"v": torch.zeros(2)}])
