"""End to end on CPU: train a tiny voice on synthetic data, checkpoint, resume (with and without optimizer
state), export with ``onestep export --checkpoint``, and check ONNX Runtime against PyTorch."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import onnxruntime as ort
import torch

from onestep.cli import main as cli_main
from onestep.model_config import TINY
from onestep.model.export import load_voice_models
from onestep_dev.train.checkpoint import list_checkpoints, load_generator
from onestep_dev.train.options import TrainConfig
from onestep_dev.train.trainer import BEFORE_FINETUNE, Trainer, train

ATOL = 1e-4  # ORT vs PyTorch, float32


def _records(run: Path) -> list[dict[str, float]]:
    return [json.loads(line) for line in (run / "train.jsonl").read_text().splitlines()]


def test_train_resume_export(synthetic_data: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    cfg = TrainConfig(
        data=str(synthetic_data),
        out=str(run),
        steps=30,
        device="cpu",
        model=TINY,
        batch_acoustic=4,
        batch_vocoder=4,
        segment_frames=16,
        lr_acoustic=3e-3,
        lr_vocoder=2e-3,
        lr_discriminator=1e-3,
        warmup_steps=1,
        gan_start=0.6,
        vocoder_finetune=0.0,
        discriminator_width=4,
        log_every=3,
    )
    final = train(cfg)
    assert final.name == "step-00000030"
    records = _records(run)
    first, last = records[0], records[-1]
    for loss in ("acoustic_mel", "duration", "vocoder_mel"):
        assert last[loss] < first[loss], loss
    assert "discriminator" in last and "discriminator" not in first  # the GAN started at 60 %
    assert {p.name for p in final.iterdir()} == {"acoustic.pt", "vocoder.pt", "discriminator.pt", "optimizer.pt", "meta.json"}
    assert (run / "samples" / "step-00000030-tts.wav").exists()

    # resume with optimizer state; the last 25 % trains the vocoder on the decoder's mels
    train(dataclasses.replace(cfg, steps=36, resume=True, vocoder_finetune=0.25, keep_before_finetune=True))
    assert [r["step"] for r in _records(run)][len(records) :] == [33, 36]
    # the weights as the fine-tune began are kept apart (weights only), one step before the first fine-tune step
    (kept,) = list_checkpoints(run / BEFORE_FINETUNE)
    assert 30 <= int(kept.name.split("-")[1]) < 36
    assert {p.name for p in kept.iterdir()} == {"acoustic.pt", "vocoder.pt", "discriminator.pt", "meta.json"}
    kept_vocoder = torch.load(kept / "vocoder.pt")["vocoder"]
    final_vocoder = torch.load(list_checkpoints(run)[-1] / "vocoder.pt")["vocoder"]
    assert any(not torch.equal(kept_vocoder[k], final_vocoder[k]) for k in kept_vocoder)  # the fine-tune moved it
    # resume from the small files only (optimizer state left behind): fresh optimizers, same weights
    (list_checkpoints(run)[-1] / "optimizer.pt").unlink()
    trainer_final = train(dataclasses.replace(cfg, steps=39, resume=True))
    assert trainer_final.name == "step-00000039"
    assert len(list_checkpoints(run)) == 2  # older ones pruned

    voice_dir = tmp_path / "voice"
    assert cli_main(["export", "--checkpoint", str(run), "--name", "syn", "--language", "en", "--out", str(voice_dir)]) == 0
    assert (voice_dir / "vocoder.int8.onnx").is_file()  # the CPU engine's vocoder, written by default
    voice, rebuilt = load_voice_models(voice_dir)
    assert voice.extra["training_step"] == 39 and not voice.placeholder
    models, _ = load_generator(run)
    for part in ("acoustic", "decoder", "vocoder"):  # the voice's ONNX files carry the checkpoint's weights
        want, got = getattr(models, part).state_dict(), getattr(rebuilt, part).state_dict()
        assert all(torch.equal(got[k], want[k]) for k in want), part
    sessions = {p: ort.InferenceSession(str(voice_dir / f"{p}.onnx"), providers=["CPUExecutionProvider"]) for p in ("acoustic", "decoder", "vocoder")}
    ids = torch.tensor([[0, 5, 17, 23, 9, 0, 0, 0]])
    mask = torch.tensor([[1, 1, 1, 1, 1, 1, 0, 0]], dtype=torch.float32)
    with torch.no_grad():
        ref_d, ref_h = models.acoustic(ids, mask)
        durations, hidden = sessions["acoustic"].run(None, {"phoneme_ids": ids.numpy(), "phoneme_mask": mask.numpy()})
        np.testing.assert_allclose(durations, ref_d.numpy(), atol=ATOL)
        np.testing.assert_allclose(hidden, ref_h.numpy(), atol=ATOL)
        # trained durations follow the synthetic rule (pads 4 frames, id k: 2 + 2 (k mod 4)) roughly
        assert 1.0 < float(ref_d[0, 1:5].mean()) < 10.0
        frames = torch.randn(1, 64, TINY.acoustic_dim)
        frame_mask = torch.ones(1, 64)
        (mel,) = sessions["decoder"].run(None, {"frames": frames.numpy(), "frame_mask": frame_mask.numpy()})
        np.testing.assert_allclose(mel, models.decoder(frames, frame_mask).numpy(), atol=ATOL)
        (audio,) = sessions["vocoder"].run(None, {"mel": mel})
        np.testing.assert_allclose(audio, models.vocoder(torch.from_numpy(mel)).numpy(), atol=ATOL)


def test_weights_only_resume_warms_the_learning_rate_up_again(synthetic_data: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    cfg = TrainConfig(
        data=str(synthetic_data), out=str(run), steps=6, device="cpu", model=TINY, batch_acoustic=2,
        batch_vocoder=2, segment_frames=16, warmup_steps=100, discriminator_width=4, log_every=3,
    )
    train(cfg)
    resumed = dataclasses.replace(cfg, steps=12, resume=True)

    with_state = Trainer(resumed)  # optimizer state restored: the warm-up goes on from step 6
    with_state._set_learning_rates(0.0)
    assert with_state.optimizers["vocoder"].param_groups[0]["lr"] == pytest.approx(cfg.lr_vocoder * 7 / 100)

    (list_checkpoints(run)[-1] / "optimizer.pt").unlink()
    fresh = Trainer(resumed)  # fresh Adam moments: the warm-up starts over at the resumed step
    assert fresh.step == 6
    fresh._set_learning_rates(0.0)
    for name, opt in fresh.optimizers.items():
        assert opt.param_groups[0]["lr"] == pytest.approx(fresh.base_lr[name] / 100), name


def test_restart_schedule_fine_tunes_over_this_run_only(synthetic_data: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    cfg = TrainConfig(
        data=str(synthetic_data), out=str(run), steps=6, device="cpu", model=TINY, batch_acoustic=2,
        batch_vocoder=2, segment_frames=16, warmup_steps=1, discriminator_width=4, log_every=3,
    )
    train(cfg)  # 6 steps: the whole schedule is spent

    continued = Trainer(dataclasses.replace(cfg, steps=12, resume=True))
    assert continued.progress(0.0) == pytest.approx(0.5)  # continues the old schedule: half done at step 6

    restarted = Trainer(dataclasses.replace(cfg, steps=4, resume=True, restart_schedule=True))
    assert restarted.step == 6 and restarted.progress(0.0) == 0.0  # a new schedule over 4 more steps
    restarted._set_learning_rates(restarted.progress(0.0))
    assert restarted.optimizers["vocoder"].param_groups[0]["lr"] == pytest.approx(cfg.lr_vocoder)  # peak again
    restarted.run()
    assert restarted.step == 10
    assert [r["progress"] for r in _records(run)][-1] == pytest.approx(0.5)  # logged at step 9: (9 - 6 - 1)/4


def test_freeze_vocoder_trains_the_acoustic_side_only(synthetic_data: Path, tmp_path: Path) -> None:
    """``--freeze-vocoder`` after a weights-only resume (a lease's case): the vocoder and the discriminators come
    out bit-identical, the acoustic model and decoder move, and no vocoder loss is logged."""
    import argparse

    from onestep_dev.train.options import add_arguments, config_from_args

    run = tmp_path / "run"
    cfg = TrainConfig(
        data=str(synthetic_data), out=str(run), steps=6, device="cpu", model=TINY, batch_acoustic=2,
        batch_vocoder=2, segment_frames=16, warmup_steps=1, gan_start=0.0, discriminator_width=4, log_every=3,
    )
    before = train(cfg)
    (before / "optimizer.pt").unlink()
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--data", cfg.data, "--out", cfg.out, "--resume", "--restart-schedule", "--freeze-vocoder",
                              "--tiny", "--steps", "6", "--device", "cpu", "--batch-acoustic", "2",
                              "--discriminator-width", "4", "--log-every", "3", "--warmup-steps", "1"])  # fmt: skip
    frozen = config_from_args(args)
    assert frozen.freeze_vocoder and not cfg.freeze_vocoder
    after = train(frozen)
    assert after.name == "step-00000012"

    def tensors(path: Path) -> dict[str, torch.Tensor]:  # a checkpoint file's tensors, nested dicts flattened
        def walk(prefix: str, d: dict) -> dict[str, torch.Tensor]:
            out: dict[str, torch.Tensor] = {}
            for k, v in d.items():
                out.update(walk(f"{prefix}{k}.", v) if isinstance(v, dict) else {prefix + k: v})
            return out

        return walk("", torch.load(path))

    for name, moved in (("vocoder.pt", False), ("discriminator.pt", False), ("acoustic.pt", True)):
        old, new = tensors(before / name), tensors(after / name)
        assert old.keys() == new.keys() and old
        changed = [k for k, v in old.items() if not torch.equal(v, new[k])]
        assert bool(changed) == moved, (name, changed[:3])
    records = _records(run)
    assert "vocoder_mel" in records[0] and "acoustic_mel" in records[-1]
    assert "vocoder_mel" not in records[-1] and "discriminator" not in records[-1]


def test_ema_weights_follow_the_rule_and_export_as_a_checkpoint(synthetic_data: Path, tmp_path: Path) -> None:
    """``--ema``: after each step w_ema <- d w_ema + (1 - d) w; saved as ``step-N/ema/``, exported like a checkpoint."""
    from onestep.model.voice_models import build_models
    from onestep_dev.train.ema import EmaWeights

    live = build_models(TINY, seed=1)
    ema = EmaWeights(live, 0.75)
    for _ in range(2):  # twice: the second update reuses the tensors the first one paired
        start = {n: {k: v.clone() for k, v in m.state_dict().items()} for n, m in ema.models.parts().items()}
        with torch.no_grad():
            for module in live.parts().values():
                for p in module.parameters():
                    p.add_(1.0)
        ema.update()
        for name, module in ema.models.parts().items():
            now, moved = module.state_dict(), live.parts()[name].state_dict()
            floats = [k for k, v in now.items() if v.is_floating_point()]
            assert floats and all(torch.allclose(now[k], 0.75 * start[name][k] + 0.25 * moved[k], atol=1e-5) for k in floats)
            assert not any(p.requires_grad for p in module.parameters())

    run = tmp_path / "run"
    cfg = TrainConfig(data=str(synthetic_data), out=str(run), steps=6, device="cpu", model=TINY, batch_acoustic=4,
                      batch_vocoder=4, segment_frames=16, warmup_steps=1, gan_start=0.5, vocoder_finetune=0.0,
                      discriminator_width=4, log_every=3, ema=0.9)  # fmt: skip
    final = train(cfg)
    assert {p.name for p in (final / "ema").iterdir()} == {"acoustic.pt", "vocoder.pt", "meta.json"}
    raw, _ = load_generator(final)
    averaged, extra = load_generator(final / "ema")
    assert extra["training_step"] == 6
    for part in ("acoustic", "decoder", "vocoder"):  # six steps of 0.9 keep the average between start and now
        a, b = getattr(raw, part).state_dict(), getattr(averaged, part).state_dict()
        assert any(not torch.equal(a[k], b[k]) for k in a), part
    voice_dir = tmp_path / "voice"
    assert cli_main(["export", "--checkpoint", str(final / "ema"), "--name", "syn", "--language", "en",
                     "--out", str(voice_dir)]) == 0  # fmt: skip
    assert load_voice_models(voice_dir)[0].extra["training_step"] == 6
    with pytest.raises(Exception, match="ema must be in"):
        dataclasses.replace(cfg, ema=1.0)
