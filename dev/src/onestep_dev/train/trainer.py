"""Train a voice: acoustic model + mel decoder (regression on teacher mels/durations) and the vocoder (GAN)
together in one process, with the whole teacher dataset held on the device.

Per step: one acoustic batch (whole utterances; decoder fed teacher durations, duration predictor trained on
detached encoder states) and one vocoder batch (random 1 s segments; mel L1 ×45, and after ``gan_start`` a
least-squares GAN with multi-period + multi-resolution discriminators and feature matching). In the final
``vocoder_finetune`` part the vocoder hears the decoder's mels instead of the teacher's.

Run as ``onestep train ...`` or ``python -m onestep_dev.train.trainer ...``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import torch

from onestep.config import AudioConfig, ConfigError
from onestep.model.acoustic import length_regulate
from onestep.model.mel import LOG_MEL_FLOOR, LogMel
from onestep.model.voice_models import VoiceModels, build_models
from onestep_dev.train.checkpoint import (
    list_checkpoints,
    load_training_state,
    save_checkpoint,
)
from onestep_dev.train.dataset import AcousticBatch, TeacherDataset
from onestep_dev.train.discriminators import Discriminators
from onestep_dev.train.ema import EmaWeights
from onestep_dev.train.losses import (
    discriminator_loss,
    duration_loss,
    feature_matching_loss,
    generator_adversarial_loss,
    masked_mel_loss,
)
from onestep_dev.train.options import TrainConfig, add_arguments, config_from_args


def write_wav(path: Path, samples: np.ndarray, sample_rate: int) -> None:
    """16-bit mono WAV with the standard library (the GPU training image has no soundfile/libsndfile)."""
    import wave

    pcm = (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2")
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(sample_rate)
        f.writeframes(pcm.tobytes())


BEFORE_FINETUNE = "before-finetune"  # run subfolder of the weights kept as the vocoder fine-tune begins
_FINAL_RESERVE_S = 20.0  # time kept back from --minutes for the last checkpoint and samples
_GRAD_CLIP = {"acoustic": 1.0, "vocoder": 100.0, "discriminator": 100.0}


class Trainer:
    """Holds the data, networks, optimizers and bookkeeping of one run; ``run()`` trains until the budget ends."""

    def __init__(self, cfg: TrainConfig, started: float | None = None) -> None:
        self.cfg = cfg
        self.started = time.time() if started is None else started
        self.device = torch.device(
            ("cuda" if torch.cuda.is_available() else "cpu") if cfg.device == "auto" else cfg.device
        )
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "samples").mkdir(exist_ok=True)
        torch.manual_seed(cfg.seed)
        if self.device.type == "cuda":
            torch.backends.cuda.matmul.allow_tf32 = True
            torch.backends.cudnn.allow_tf32 = True
            torch.backends.cudnn.benchmark = True  # every step has the same shapes: autotune the convolutions once
        self.audio_cfg = AudioConfig()
        if cfg.model.hop_length != self.audio_cfg.hop_length or cfg.model.n_mels != self.audio_cfg.n_mels:
            raise ConfigError("model hop_length/n_mels must match the 24 kHz / hop 300 / 100-mel audio config")
        t0 = time.time()
        self.data = TeacherDataset(cfg.data, self.audio_cfg, self.device)
        self.log(
            f"data: {self.data.n} utterances, {self.data.total_seconds() / 3600:.2f} h on {self.device} "
            f"(loaded in {time.time() - t0:.1f} s)"
        )
        n_speakers = len(self.data.speaker_names)
        if cfg.model.n_speakers != n_speakers:
            raise ConfigError(
                f"the model has n_speakers={cfg.model.n_speakers} but {cfg.data} holds "
                f"{n_speakers or 'a single speaker'}{' (speakers.json)' if n_speakers else ''}"
            )
        self.models: VoiceModels = build_models(cfg.model, seed=cfg.seed).to(self.device)
        self.disc = Discriminators(cfg.discriminator_width).to(self.device)
        self.logmel = LogMel(self.audio_cfg).to(self.device)
        acoustic_params = [*self.models.acoustic.parameters(), *self.models.decoder.parameters()]
        fused = self.device.type == "cuda"  # one kernel per optimizer step instead of several per tensor
        self.optimizers: dict[str, torch.optim.Optimizer] = {
            "acoustic": torch.optim.AdamW(
                acoustic_params, lr=cfg.lr_acoustic, betas=(0.9, 0.98), weight_decay=0.01, fused=fused
            ),
            "vocoder": torch.optim.AdamW(
                self.models.vocoder.parameters(), lr=cfg.lr_vocoder, betas=(0.8, 0.99), weight_decay=0.01, fused=fused
            ),
            "discriminator": torch.optim.AdamW(
                self.disc.parameters(), lr=cfg.lr_discriminator, betas=(0.8, 0.99), weight_decay=0.01, fused=fused
            ),
        }
        self.base_lr = {name: opt.param_groups[0]["lr"] for name, opt in self.optimizers.items()}
        self.step = 0
        self.warmup_from = 0  # step the learning-rate warm-up counts from (fresh optimizers warm up again)
        self.elapsed_before = 0.0  # training seconds of earlier (resumed) invocations
        self.schedule_from = 0  # step this invocation's schedule counts from (restart_schedule: the resumed one)
        counts = self.models.parameter_counts()
        self.log(
            "parameters: "
            + ", ".join(f"{k} {v / 1e6:.2f} M" for k, v in counts.items())
            + f", discriminators {sum(p.numel() for p in self.disc.parameters()) / 1e6:.2f} M"
        )
        if cfg.resume:
            self._resume()
        self.ema = EmaWeights(self.models, cfg.ema) if cfg.ema else None  # from the weights it starts with
        self.generator = torch.Generator(device=self.device)  # vocoder segments, sampled on the device
        self.generator.manual_seed(cfg.seed + self.step)
        self.rng = np.random.default_rng(cfg.seed + self.step)  # acoustic batches, planned on the host
        self.sample_index = self.data.median_utterance()

    # ------------------------------------------------------------------ bookkeeping
    def log(self, message: str) -> None:
        print(f"[train] {message}", flush=True)

    def _resume(self) -> None:
        found = list_checkpoints(self.out)
        if not found:
            self.log("--resume: no checkpoint yet, starting from scratch")
            return
        meta, restored = load_training_state(found[-1], self.models, self.disc, self.optimizers)
        self.step = int(meta["step"])
        self.elapsed_before = float(meta.get("elapsed_s", 0.0))
        if not restored or self.cfg.restart_schedule:  # Adam moments at zero / a new schedule: warm up again
            self.warmup_from = self.step
        if self.cfg.restart_schedule:
            self.schedule_from = self.step
        how = "with optimizer state" if restored else "weights only (fresh optimizers)"
        self.log(f"resumed {found[-1].name} at step {self.step}, {how}")

    def _autocast(self) -> AbstractContextManager[Any]:
        if self.cfg.amp and self.device.type == "cuda":
            return torch.autocast(device_type="cuda", dtype=torch.bfloat16)
        return nullcontext()

    def progress(self, now: float) -> float:
        """Fraction of the budget used, in [0, 1] (the larger of the step and the time fractions).

        It counts the earlier (resumed) runs' steps and time too, unless ``restart_schedule``.
        """
        before = 0.0 if self.cfg.restart_schedule else self.elapsed_before
        fractions = []
        if self.cfg.steps is not None:
            fractions.append((self.step - self.schedule_from) / self.cfg.steps)
        if self.cfg.minutes is not None:
            spent = before + (now - self.loop_started)
            fractions.append(spent / max(before + self.deadline - self.loop_started, 1e-9))
        return min(max(fractions), 1.0)

    def _set_learning_rates(self, progress: float) -> None:
        warm = min(1.0, (self.step - self.warmup_from + 1) / max(self.cfg.warmup_steps, 1))
        decay = 0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress))
        for name, opt in self.optimizers.items():
            for group in opt.param_groups:
                group["lr"] = self.base_lr[name] * warm * decay

    def _clip_and_step(self, name: str, params: Any) -> None:
        torch.nn.utils.clip_grad_norm_(params, _GRAD_CLIP[name])
        self.optimizers[name].step()

    # ------------------------------------------------------------------ one step
    def acoustic_step(self) -> tuple[dict[str, torch.Tensor], AcousticBatch, torch.Tensor]:
        """Train acoustic model + decoder on one batch; returns losses, the batch and the predicted mels."""
        m = self.models
        batch = self.data.acoustic_batch(self.cfg.batch_acoustic, self.rng)
        with self._autocast():
            speaker = self._speaker_vectors(batch)
            log_d, hidden = m.acoustic.encode(batch.ids, batch.id_mask, speaker, detach_duration_input=True)
            frames, _ = length_regulate(hidden, batch.durations, batch.mel.shape[2])
            mel = m.decoder(frames, batch.frame_mask, speaker)
        l_dur = duration_loss(log_d, batch.durations, batch.id_mask)
        l_mel = masked_mel_loss(mel, batch.mel, batch.frame_mask, self.cfg.mel_l2)
        opt = self.optimizers["acoustic"]
        opt.zero_grad(set_to_none=True)
        (l_mel + l_dur).backward()
        self._clip_and_step("acoustic", [*m.acoustic.parameters(), *m.decoder.parameters()])
        return {"acoustic_mel": l_mel.detach(), "duration": l_dur.detach()}, batch, mel.detach().float()

    def _speaker_vectors(self, batch: AcousticBatch) -> torch.Tensor | None:
        """(B, S) speaker vectors of a batch's utterances, or None for a single-speaker model."""
        if not self.cfg.model.multi_speaker:
            return None
        vectors: torch.Tensor = self.models.acoustic.speakers(batch.speaker)
        return vectors

    def _predicted_segments(self, batch: AcousticBatch, mel: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Random aligned segments of the decoder's mels (B_v, M, S) and the teacher audio (B_v, S*hop)."""
        seg, hop = self.cfg.segment_frames, self.audio_cfg.hop_length
        if mel.shape[2] < seg:
            mel = torch.nn.functional.pad(mel, (0, seg - mel.shape[2]), value=LOG_MEL_FLOOR)
        audio = torch.nn.functional.pad(batch.audio, (0, mel.shape[2] * hop - batch.audio.shape[1]))
        n = self.cfg.batch_vocoder
        which = torch.randint(0, mel.shape[0], (n,), device=self.device, generator=self.generator)
        lengths = batch.frame_mask.sum(1).long()[which]
        room = (lengths - seg).clamp(min=0) + 1
        start = (torch.rand(n, device=self.device, generator=self.generator) * room).long()
        f = start[:, None] + torch.arange(seg, device=self.device)[None, :]
        seg_mel = mel[which[:, None], :, f].permute(0, 2, 1)
        s = start[:, None] * hop + torch.arange(seg * hop, device=self.device)[None, :]
        return seg_mel, audio[which[:, None], s]

    def vocoder_step(self, mel: torch.Tensor, real: torch.Tensor, gan: bool) -> dict[str, torch.Tensor]:
        """Train the vocoder (and, when ``gan``, the discriminators) on aligned (mel, audio) segments."""
        losses: dict[str, torch.Tensor] = {}
        with self._autocast():
            fake = self.models.vocoder(mel)
        l_mel = torch.nn.functional.l1_loss(self.logmel(fake), self.logmel(real))
        losses["vocoder_mel"] = l_mel.detach()
        loss = self.cfg.mel_weight * l_mel
        if gan:
            with self._autocast():
                real_logits, real_features = self.disc(real)
                fake_logits, _ = self.disc(fake.detach())
            l_d = discriminator_loss(real_logits, fake_logits)
            self.optimizers["discriminator"].zero_grad(set_to_none=True)
            l_d.backward()
            self._clip_and_step("discriminator", self.disc.parameters())
            # Feature matching reuses the real features of the discriminator pass above (taken one
            # discriminator update earlier) instead of a third discriminator pass over the real audio.
            real_features = [[f.detach() for f in maps] for maps in real_features]
            with self._autocast():
                fake_logits, fake_features = self.disc(fake)
            l_adv = generator_adversarial_loss(fake_logits)
            l_fm = feature_matching_loss(real_features, fake_features)
            loss = loss + l_adv + self.cfg.fm_weight * l_fm
            losses.update(discriminator=l_d.detach(), adversarial=l_adv.detach(), feature_matching=l_fm.detach())
        self.optimizers["vocoder"].zero_grad(set_to_none=True)
        loss.backward()
        self.disc.zero_grad(set_to_none=True)  # the generator pass left gradients in the discriminators
        self._clip_and_step("vocoder", self.models.vocoder.parameters())
        return losses

    # ------------------------------------------------------------------ outputs
    @torch.no_grad()
    def write_samples(self) -> None:
        """Vocoder on the teacher mel and full synthesis (predicted durations) of fixed utterances: one, or for a
        multi-speaker run one of each of up to four speakers (files named by speaker)."""
        m = self.models.eval()
        sr = self.audio_cfg.sample_rate
        for tag, u in self.sample_utterances():
            teacher = self.out / "samples" / f"teacher{tag}.wav"
            if not teacher.exists():
                write_wav(teacher, self.data.utterance_audio(u).cpu().numpy(), sr)
            batch = self.data.gather_utterances(np.array([u]))
            speaker = self._speaker_vectors(batch)
            resynth = m.vocoder(batch.mel)[0]
            durations, hidden = m.acoustic(batch.ids, batch.id_mask, speaker)
            frames, frame_mask = length_regulate(hidden, torch.round(durations).long())
            tts = m.vocoder(m.decoder(frames, frame_mask, speaker))[0]
            for kind, audio in (("vocoder", resynth), ("tts", tts)):
                name = f"step-{self.step:08d}{tag}-{kind}.wav"
                write_wav(self.out / "samples" / name, audio.float().cpu().numpy(), sr)
        self.models.acoustic.train(), self.models.decoder.train(), self.models.vocoder.train()

    def sample_utterances(self) -> list[tuple[str, int]]:
        """(file tag, utterance index) of the fixed sample utterances."""
        if not self.data.speaker_names:
            return [("", self.sample_index)]
        chosen = []
        step = max(1, len(self.data.speaker_names) // 4)
        for k in range(0, len(self.data.speaker_names), step)[:4]:
            of_speaker = (self.data.speaker == k).nonzero().flatten()
            chosen.append((f"-{self.data.speaker_names[k]}", int(of_speaker[len(of_speaker) // 2])))
        return chosen

    def _meta(self, now: float) -> dict[str, Any]:
        """What a checkpoint's meta.json records besides its step and model config."""
        return {
            "elapsed_s": self.elapsed_before + (now - self.loop_started),
            "train_config": {**self.cfg.to_dict(), "model": self.cfg.model.to_dict()},
            "data": str(self.cfg.data),
            "speakers": self.data.speaker_names,
        }

    def save(self, now: float) -> Path:
        path = save_checkpoint(self.out, self.step, self.models, self.disc, self.optimizers, self._meta(now),
                               ema=None if self.ema is None else self.ema.models)
        self.log(f"checkpoint {path}")
        return path

    def save_before_finetune(self) -> Path:
        """Keep the weights as the vocoder fine-tune begins (``out/before-finetune/checkpoints/step-N``, no
        optimizer state): the same lease's vocoder without the fine-tune, to measure what it does."""
        meta = {**self._meta(time.time()), "before_finetune": True}
        path = save_checkpoint(self.out / BEFORE_FINETUNE, self.step, self.models, self.disc, None, meta, keep=1)
        self.log(f"before the vocoder fine-tune: {path}")
        return path

    # ------------------------------------------------------------------ loop
    def run(self) -> Path:
        """Train until ``steps`` or ``minutes`` is reached; write a final checkpoint and samples; return it."""
        cfg = self.cfg
        self.loop_started = time.time()
        self.deadline = (
            self.started + cfg.minutes * 60.0 - _FINAL_RESERVE_S if cfg.minutes is not None else math.inf
        )
        for module in (*self.models.parts().values(), self.disc):
            module.train()
        log_file = open(self.out / "train.jsonl", "a", encoding="utf-8")  # noqa: SIM115 (closed below)
        sums: dict[str, torch.Tensor] = {}  # summed on the device: no host sync per step
        window_start, window_steps = time.time(), 0
        last_ckpt = last_sample = time.time()
        finetune_kept = False
        try:
            last = None if cfg.steps is None else self.schedule_from + cfg.steps
            while (last is None or self.step < last) and time.time() < self.deadline:
                progress = self.progress(time.time())
                self._set_learning_rates(progress)
                losses, batch, mel_pred = self.acoustic_step()
                if not cfg.freeze_vocoder:  # frozen: the vocoder and discriminators keep their weights
                    if progress >= 1.0 - cfg.vocoder_finetune:
                        if cfg.keep_before_finetune and not finetune_kept:
                            self.save_before_finetune()
                            finetune_kept = True
                        v_mel, v_audio = self._predicted_segments(batch, mel_pred)
                    else:
                        v_mel, v_audio = self.data.vocoder_batch(cfg.batch_vocoder, cfg.segment_frames, self.generator)
                    losses.update(self.vocoder_step(v_mel, v_audio, gan=progress >= cfg.gan_start))
                if self.ema is not None:
                    self.ema.update()
                self.step += 1
                window_steps += 1
                for k, v in losses.items():
                    sums[k] = sums[k] + v if k in sums else v.clone()
                now = time.time()
                if self.step % cfg.log_every == 0:
                    rate = window_steps / max(now - window_start, 1e-9)
                    record = {
                        "step": self.step,
                        "elapsed_s": round(self.elapsed_before + now - self.loop_started, 1),
                        "progress": round(progress, 4),
                        "steps_per_s": round(rate, 3),
                        "lr_vocoder": self.optimizers["vocoder"].param_groups[0]["lr"],
                        **{k: round(float(v) / window_steps, 5) for k, v in sums.items()},
                    }
                    log_file.write(json.dumps(record) + "\n")
                    log_file.flush()
                    self.log(" ".join(f"{k}={v}" for k, v in record.items()))
                    sums, window_start, window_steps = {}, now, 0
                if now - last_sample >= cfg.sample_minutes * 60:
                    self.write_samples()
                    last_sample = now
                if now - last_ckpt >= cfg.checkpoint_minutes * 60:
                    self.save(now)
                    last_ckpt = time.time()
        except KeyboardInterrupt:
            self.log(f"interrupted at step {self.step}: writing a final checkpoint")
        finally:
            log_file.close()
        self.write_samples()
        return self.save(time.time())


def train(cfg: TrainConfig, started: float | None = None) -> Path:
    """Run a training job; returns the final checkpoint directory."""
    return Trainer(cfg, started).run()


def main(argv: list[str] | None = None) -> int:
    started = time.time()
    parser = argparse.ArgumentParser(prog="python -m onestep_dev.train.trainer", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        cfg = config_from_args(args)
    except ConfigError as e:
        parser.error(str(e))
    train(cfg, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
