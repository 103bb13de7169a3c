"""Teacher dataset held entirely in (GPU) memory, with batch sampling done on the device.

Reads the "Teacher data" directory of docs/ARCHITECTURE.md (``shard-*.npz``; ``meta.jsonl`` only for ids and
texts). Audio stays int16 on the device; log-mels of every utterance are computed once at load (fp16) so that
acoustic batches and vocoder segments are a gather away. No DataLoader, no worker processes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from onestep.config import AudioConfig
from onestep.errors import UserError
from onestep.model.mel import LOG_MEL_FLOOR, LogMel


class DatasetError(UserError, ValueError):
    """The teacher data directory is missing or inconsistent; the message names the file."""


@dataclass
class AcousticBatch:
    """Whole utterances, right-padded.

    Attributes:
        ids: (B, T) int64 phoneme ids (pads included); id_mask: (B, T) float 1 = real id.
        durations: (B, T) int64 teacher frames per id (0 where masked).
        mel: (B, n_mels, F) float32 target log-mel; frame_mask: (B, F) float 1 = real frame.
        audio: (B, F * hop) float32 teacher audio (0 past each utterance's end).
        index: (B,) int64 utterance indices.
        speaker: (B,) int64 speaker indices.
    """

    ids: torch.Tensor
    id_mask: torch.Tensor
    durations: torch.Tensor
    mel: torch.Tensor
    frame_mask: torch.Tensor
    audio: torch.Tensor
    index: torch.Tensor
    speaker: torch.Tensor


class TeacherDataset:
    """All utterances of a teacher dataset on one device.

    A multi-speaker dataset is a directory with ``speakers.json`` (a JSON list of speaker names) and one teacher
    data directory per name; speaker ``k`` is the k-th name (the row of the model's speaker table).

    Attributes:
        speaker_names: the speakers of a multi-speaker dataset, [] for a single-speaker one;
        speaker: (n,) int64 speaker index of each utterance (all 0 for a single speaker);
        n: number of utterances; ids (K,) int64; id_offsets (n+1,); durations (K,) int64;
        audio (N,) int16; audio_offsets (n+1,); mel (n_mels, total frames) fp16; frame_offsets (n+1,);
        n_ids, n_frames: (n,) int64 lengths; names: utterance ids from meta.jsonl (or ``shard:index``).
    """

    def __init__(self, root: str | Path, audio_cfg: AudioConfig, device: torch.device | str = "cpu") -> None:
        root = Path(root)
        self.speaker_names = read_speakers(root)
        roots = [root / name for name in self.speaker_names] if self.speaker_names else [root]
        self.device = torch.device(device)
        self.hop = audio_cfg.hop_length
        self.sample_rate = audio_cfg.sample_rate
        audio, ids, durs, n_ids, n_samples, names, speakers = [], [], [], [], [], [], []
        for speaker, data_dir in enumerate(roots):
            shards = [p for p in sorted(data_dir.glob("shard-*.npz")) if not p.name.endswith(".tmp.npz")]
            if not shards:
                raise DatasetError(f"{data_dir}: no shard-*.npz files (expected teacher data, see docs/ARCHITECTURE.md)")
            names_by_key = _read_meta_names(data_dir / "meta.jsonl")
            for path in shards:
                shard_no = int(path.stem.split("-")[1])
                with np.load(path) as z:
                    a, ao, i, io, d = z["audio"], z["audio_offsets"], z["ids"], z["ids_offsets"], z["durations"]
                if len(ao) != len(io) or d.size != i.size:
                    raise DatasetError(f"{path}: audio_offsets/ids_offsets/durations sizes disagree")
                for u in range(len(ao) - 1):
                    du = d[io[u] : io[u + 1]].astype(np.int64)
                    if du.sum() * self.hop != ao[u + 1] - ao[u]:
                        raise DatasetError(
                            f"{path}: utterance {u}: durations sum {du.sum()} x {self.hop} != {ao[u + 1] - ao[u]} samples"
                        )
                    names.append(names_by_key.get((shard_no, u), f"{shard_no}:{u}"))
                audio.append(a)
                ids.append(i.astype(np.int64))
                durs.append(d.astype(np.int64))
                n_ids.append(np.diff(io))
                n_samples.append(np.diff(ao))
                speakers.append(np.full(len(ao) - 1, speaker, dtype=np.int64))
        self.speaker = torch.from_numpy(np.concatenate(speakers)).to(self.device)
        self.names = names
        self.n = len(names)
        self.n_ids = torch.from_numpy(np.concatenate(n_ids)).to(self.device)
        self.n_frames = torch.from_numpy(np.concatenate(n_samples) // self.hop).to(self.device)
        self.ids = torch.from_numpy(np.concatenate(ids)).to(self.device)
        self.durations = torch.from_numpy(np.concatenate(durs)).to(self.device)
        self.audio = torch.from_numpy(np.concatenate(audio)).to(self.device)
        self.id_offsets = _offsets(self.n_ids)
        self.frame_offsets = _offsets(self.n_frames)
        self.audio_offsets = self.frame_offsets * self.hop
        self._frame_offsets_host: list[int] = self.frame_offsets.tolist()  # python-side indexing without syncs
        self.mel = self._compute_mels(LogMel(audio_cfg).to(self.device))
        # host copies for batch planning: choosing utterances and padded sizes needs no device sync
        self._n_ids_host = self.n_ids.cpu().numpy()
        self._n_frames_host = self.n_frames.cpu().numpy()
        self._by_length = np.argsort(self._n_ids_host, kind="stable")

    def _compute_mels(self, logmel: LogMel, chunk_samples: int = 24_000_000) -> torch.Tensor:
        """Log-mel of every utterance on its own (reflect-padded edges), concatenated: (n_mels, frames) fp16.

        Utterances of similar length are stacked (each reflect-padded, then zero-filled to the longest); an
        utterance's first ``n_frames`` frames only read its own padded samples.
        """
        out = torch.empty(logmel.filterbank.shape[0], int(self.frame_offsets[-1]), dtype=torch.float16, device=self.device)
        order = torch.argsort(self.n_frames, descending=True).tolist()
        lengths = self.n_frames.tolist()
        start = 0
        while start < len(order):
            longest = lengths[order[start]]
            group = order[start : start + max(1, chunk_samples // (longest * self.hop))]
            start += len(group)
            padded = [logmel.pad(self.utterance_audio(u).unsqueeze(0))[0] for u in group]
            batch = torch.zeros(len(group), padded[0].numel(), device=self.device)
            for row, p in enumerate(padded):
                batch[row, : p.numel()] = p
            with torch.no_grad():
                mels = logmel.from_padded(batch)
            for row, u in enumerate(group):
                f0, n = self._frame_offsets_host[u], lengths[u]
                out[:, f0 : f0 + n] = mels[row, :, :n].to(torch.float16)
        return out

    def utterance_audio(self, u: int) -> torch.Tensor:
        """(samples,) float32 audio of utterance ``u`` in [-1, 1]."""
        a, b = self._frame_offsets_host[u] * self.hop, self._frame_offsets_host[u + 1] * self.hop
        return self.audio[a:b].float() / 32768.0

    def utterance(self, u: int) -> tuple[torch.Tensor, torch.Tensor]:
        """(ids (T,) int64, durations (T,) int64) of utterance ``u``."""
        a, b = int(self.id_offsets[u]), int(self.id_offsets[u + 1])
        return self.ids[a:b], self.durations[a:b]

    def median_utterance(self) -> int:
        """Index of an utterance of median phoneme length (a stable choice for audio samples)."""
        return int(self._by_length[self.n // 2])

    def total_seconds(self) -> float:
        """Seconds of teacher audio held."""
        return self.audio.numel() / self.sample_rate

    def acoustic_batch(self, batch_size: int, rng: np.random.Generator) -> AcousticBatch:
        """``batch_size`` utterances of similar length (a random window of the length-sorted order)."""
        b = min(batch_size, self.n)
        start = int(rng.integers(0, self.n - b + 1))
        return self.gather_utterances(self._by_length[start : start + b])

    def gather_utterances(self, index: np.ndarray) -> AcousticBatch:
        """Pad the utterances ``index`` (B,) into an :class:`AcousticBatch` (one host-to-device copy, gathers)."""
        t_max, f_max = int(self._n_ids_host[index].max()), int(self._n_frames_host[index].max())
        index = torch.from_numpy(np.asarray(index, dtype=np.int64)).to(self.device, non_blocking=True)
        n_ids, n_frames = self.n_ids[index], self.n_frames[index]
        t = torch.arange(t_max, device=self.device)
        id_mask = t[None, :] < n_ids[:, None]
        id_pos = (self.id_offsets[index][:, None] + t[None, :]).clamp(max=self.ids.numel() - 1)
        ids = torch.where(id_mask, self.ids[id_pos], 0)
        durations = torch.where(id_mask, self.durations[id_pos], 0)
        f = torch.arange(f_max, device=self.device)
        frame_mask = f[None, :] < n_frames[:, None]
        frame_pos = (self.frame_offsets[index][:, None] + f[None, :]).clamp(max=self.mel.shape[1] - 1)
        mel = self.mel[:, frame_pos].permute(1, 0, 2).float()  # (B, M, F)
        mel = torch.where(frame_mask[:, None, :], mel, LOG_MEL_FLOOR)
        s = torch.arange(f_max * self.hop, device=self.device)
        sample_mask = s[None, :] < (n_frames * self.hop)[:, None]
        sample_pos = (self.audio_offsets[index][:, None] + s[None, :]).clamp(max=self.audio.numel() - 1)
        audio = torch.where(sample_mask, self.audio[sample_pos].float() / 32768.0, 0.0)
        return AcousticBatch(
            ids=ids,
            id_mask=id_mask.float(),
            durations=durations,
            mel=mel,
            frame_mask=frame_mask.float(),
            audio=audio,
            index=index,
            speaker=self.speaker[index],
        )

    def vocoder_batch(
        self, batch_size: int, segment_frames: int, generator: torch.Generator | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Random aligned segments: (mel (B, n_mels, S) float32, audio (B, S * hop) float32).

        Segment starts are uniform over the concatenated data, so utterances are drawn in proportion to their
        length and a segment may run into the next utterance (both sides of the join are teacher silence).
        """
        total = self.mel.shape[1]
        if total < segment_frames:
            raise DatasetError(f"dataset has {total} frames, fewer than one segment ({segment_frames})")
        start = torch.randint(0, total - segment_frames + 1, (batch_size,), device=self.device, generator=generator)
        f = start[:, None] + torch.arange(segment_frames, device=self.device)[None, :]
        mel = self.mel[:, f].permute(1, 0, 2).float()
        s = start[:, None] * self.hop + torch.arange(segment_frames * self.hop, device=self.device)[None, :]
        audio = self.audio[s].float() / 32768.0
        return mel, audio


def read_speakers(root: Path) -> list[str]:
    """Speaker names of a multi-speaker dataset (``speakers.json``), or [] when ``root`` holds one speaker."""
    path = root / "speakers.json"
    if not path.exists():
        return []
    names = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n for n in names):
        raise DatasetError(f"{path}: expected a non-empty JSON list of speaker names")
    return names


def _offsets(lengths: torch.Tensor) -> torch.Tensor:
    return torch.cat([lengths.new_zeros(1), torch.cumsum(lengths, 0)])


def _read_meta_names(path: Path) -> dict[tuple[int, int], str]:
    if not path.exists():
        return {}
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                names[(int(row["shard"]), int(row["index"]))] = str(row["id"])
    return names
