"""Generate teacher training data: Kokoro audio + per-phoneme durations for phonemized sentences.

Input: a JSONL file of ``{"id", "text", "phonemes"}`` made by our own frontend (``phonemize_corpus``), so the
teacher and the student see the same phoneme sequence. Output: the dataset directory described in
docs/ARCHITECTURE.md ("Teacher data"): ``meta.jsonl`` + ``shard-XXXXX.npz``.

Two teacher back-ends: the PyTorch port on a GPU (``--device cuda``, hundreds of times real time; what the
training machine uses) and the int8 ONNX model on CPU (``--device cpu``, slow; tests and small jobs).
Generation is deterministic (torch seeded per utterance from its id), resumable (finished shards are skipped)
and split over ``--workers`` processes, each owning every n-th shard.

``--splice-code-switch MODE`` renders code-switched rows (those whose ``segments`` hold two languages) in
language runs with the row's one style vector (:mod:`onestep_dev.train.splice`), so that their English words sound
English; ids, durations and the shard format stay as for a plain render.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from onestep.frontend.symbols import MAX_PHONEME_IDS, phonemes_to_ids
from onestep_dev.teacher.voices import load_kokoro_voice, style_for
from onestep_dev.train.splice import MODES, language_runs, splice_render

SHARD_SIZE = 500
FRAMES_PER_UNIT = 2  # teacher unit = 600 samples = 2 mel frames of 300 samples


def load_style_table(path: str | Path) -> np.ndarray:
    """Kokoro voice style table float32 [510, 256] from a ``.npy`` (as carried to the GPU machine) or a ``.pt``."""
    return np.load(path) if Path(path).suffix == ".npy" else load_kokoro_voice(path)


def _seed_for(utt_id: str) -> int:
    return int.from_bytes(hashlib.sha256(utt_id.encode()).digest()[:4], "little")


class _TorchTeacher:
    def __init__(self, onnx_path: str, device: str) -> None:
        import torch

        from onestep_dev.train.kokoro_torch import load_teacher

        self.torch = torch
        self.device = device
        self.model = load_teacher(onnx_path, device=device)

    def __call__(
        self, ids: list[int], style: np.ndarray, seed: int, speed: float = 1.0
    ) -> tuple[np.ndarray, np.ndarray]:
        torch = self.torch
        torch.manual_seed(seed)
        ids_t = torch.tensor([ids], dtype=torch.long, device=self.device)
        style_t = torch.from_numpy(style.reshape(1, 256)).to(self.device)
        audio, units = self.model(ids_t, style_t, speed)
        return audio.float().cpu().numpy(), units.cpu().numpy()


class _OnnxTeacher:
    def __init__(self, onnx_path: str, threads: int) -> None:
        from onestep_dev.teacher.kokoro import KokoroTeacher

        self.teacher = KokoroTeacher(onnx_path, threads=threads)

    def __call__(
        self, ids: list[int], style: np.ndarray, seed: int, speed: float = 1.0
    ) -> tuple[np.ndarray, np.ndarray]:
        audio, units = self.teacher.synthesize(ids, style, speed)
        return np.asarray(audio, dtype=np.float32), np.asarray(units)


def _shard_path(out: Path, shard: int) -> Path:
    return out / f"shard-{shard:05d}.npz"


def spliced_runs(row: dict, splice: str | None) -> list | None:
    """The language runs a row is rendered in with ``splice`` (:func:`onestep_dev.train.splice.language_runs`), or
    None when it is rendered whole (no splice mode, no two-language ``segments``, or runs that do not join)."""
    return language_runs(row["segments"], row["phonemes"]) if splice and row.get("segments") else None


def render_row(teacher, table: np.ndarray, row: dict, splice: str | None = None,
               english_speed: float = 1.0, match_level_db: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The teacher's audio and units per id of one row: one render of ``row["ids"]``, or with ``splice`` (a
    mode of :mod:`onestep_dev.train.splice`) a code-switched row (``segments`` of two languages that join to its
    ``phonemes``) rendered in language runs, all with the row's own style vector and seed (``english_speed``:
    the teacher's speed for the English runs' own renders; ``match_level_db``: see ``splice_render``)."""
    ids = row["ids"]
    style, seed = style_for(table, ids), _seed_for(row["id"])
    runs = spliced_runs(row, splice)
    if runs is None:
        return teacher(ids, style, seed)
    audio, units = splice_render(lambda part, **speed: teacher(part, style, seed, **speed), runs, splice,
                                 english_speed=english_speed, match_level_db=match_level_db)
    if len(units) != len(ids):  # language_runs checked the ids; a mismatch here is a bug
        raise RuntimeError(f"{row['id']}: spliced render has {len(units)} units for {len(ids)} ids")
    return audio, units


def generate_shard(teacher, table: np.ndarray, rows: list[dict], path: Path, splice: str | None = None,
                   english_speed: float = 1.0, match_level_db: float = 0.0) -> dict:
    """Synthesize ``rows`` and write one shard atomically; returns stats (utterances, seconds, spliced rows)."""
    audio_parts, id_parts, dur_parts = [], [], []
    spliced = 0
    for row in rows:
        ids = row["ids"]
        audio, units = render_row(teacher, table, row, splice, english_speed, match_level_db)
        spliced += spliced_runs(row, splice) is not None  # the test render_row made (string work, no render)
        n = int(units.sum()) * 600
        audio = audio[:n] if audio.size >= n else np.pad(audio, (0, n - audio.size))
        audio_parts.append(np.clip(np.round(audio * 32767.0), -32768, 32767).astype(np.int16))
        id_parts.append(np.asarray(ids, dtype=np.int16))
        dur_parts.append((np.asarray(units, dtype=np.int64) * FRAMES_PER_UNIT).astype(np.int16))
    offsets = lambda parts: np.cumsum([0] + [p.size for p in parts]).astype(np.int64)  # noqa: E731
    tmp = path.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        audio=np.concatenate(audio_parts), audio_offsets=offsets(audio_parts),
        ids=np.concatenate(id_parts), ids_offsets=offsets(id_parts),
        durations=np.concatenate(dur_parts),
    )
    os.replace(tmp, path)
    return {"utterances": len(rows), "seconds": sum(a.size for a in audio_parts) / 24000, "spliced": spliced}


def read_rows(phonemes_jsonl: Path, limit: int | None) -> list[dict]:
    """Load phonemized sentences; drop empty ones and those over the teacher's 510-id context."""
    rows = []
    with open(phonemes_jsonl, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            ids = phonemes_to_ids(row["phonemes"])
            if len(ids) <= 2 or len(ids) - 2 > MAX_PHONEME_IDS:
                continue
            row["ids"] = ids
            rows.append(row)
            if limit and len(rows) >= limit:
                break
    return rows


def _worker(args: argparse.Namespace, worker: int) -> None:
    out = Path(args.out)
    rows = read_rows(Path(args.phonemes), args.limit)
    shards = [rows[i : i + SHARD_SIZE] for i in range(0, len(rows), SHARD_SIZE)]
    table = load_style_table(args.style)
    todo = [s for s in range(len(shards)) if s % args.workers == worker and not _shard_path(out, s).exists()]
    if not todo:
        return
    teacher = _TorchTeacher(args.teacher, args.device) if args.device != "cpu" else _OnnxTeacher(args.teacher, args.threads)
    for s in todo:
        t0 = time.time()
        stats = generate_shard(teacher, table, shards[s], _shard_path(out, s), args.splice_code_switch,
                               args.english_speed, args.match_level_db)
        dt = time.time() - t0
        print(f"[worker {worker}] shard {s}: {stats['utterances']} utts ({stats['spliced']} spliced),"
              f" {stats['seconds']:.0f} s audio in {dt:.1f} s"
              f" ({stats['seconds'] / max(dt, 1e-9):.0f}x real time)", flush=True)


def write_meta(out: Path, rows: list[dict]) -> None:
    with open(out / "meta.jsonl", "w", encoding="utf-8") as f:
        for i, row in enumerate(rows):
            meta = {"id": row["id"], "text": row["text"], "phonemes": row["phonemes"],
                    "shard": i // SHARD_SIZE, "index": i % SHARD_SIZE}
            f.write(json.dumps(meta, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--phonemes", required=True, help="JSONL of {id, text, phonemes} from phonemize_corpus")
    p.add_argument("--style", required=True, help="Kokoro voice style table (.pt or .npy)")
    p.add_argument("--teacher", required=True, help="Kokoro int8 ONNX file")
    p.add_argument("--out", required=True)
    p.add_argument("--device", default="cuda", help="cuda (PyTorch port) or cpu (ONNX Runtime)")
    p.add_argument("--workers", type=int, default=1, help="processes (each loads its own teacher)")
    p.add_argument("--threads", type=int, default=1, help="ONNX Runtime threads per worker (cpu only)")
    p.add_argument("--limit", type=int, default=None, help="use the first N sentences")
    p.add_argument("--splice-code-switch", choices=MODES, default=None, metavar="MODE",
                   help=f"render code-switched rows in language runs ({', '.join(MODES)}; onestep_dev.train.splice)")
    p.add_argument("--english-speed", type=float, default=1.0,
                   help="with --splice-code-switch: teacher speed of the English runs' own renders")
    p.add_argument("--match-level-db", type=float, default=0.0,
                   help="with --splice-code-switch english|carrier: scale each English run towards its level inside"
                        " the row's render by at most this many dB (0: off)")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = read_rows(Path(args.phonemes), args.limit)
    write_meta(out, rows)
    print(f"{len(rows)} sentences -> {(len(rows) + SHARD_SIZE - 1) // SHARD_SIZE} shards in {out}", flush=True)
    if args.splice_code_switch:
        n = sum(bool(row.get("segments") and language_runs(row["segments"], row["phonemes"])) for row in rows)
        print(f"{n} code-switched rows rendered in language runs ({args.splice_code_switch})"
              + ("" if n else ": none has segments (phonemize_corpus writes them)"), flush=True)
    t0 = time.time()
    if args.workers == 1:
        _worker(args, 0)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        procs = [ctx.Process(target=_worker, args=(args, w)) for w in range(args.workers)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        if any(proc.exitcode for proc in procs):
            print("a worker failed", file=sys.stderr)
            return 1
    print(f"done in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
