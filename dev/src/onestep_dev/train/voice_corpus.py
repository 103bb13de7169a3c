"""Per-voice training text of a multi-speaker model: every voice reads English, Mandarin and code-switched
sentences, each voice its own deterministic sample of the phonemized pools.

    python -m onestep_dev.train.voice_corpus --pool en=data/phonemes_en.jsonl --pool zh=data/phonemes_zh.jsonl \
        --pool mixed=data/phonemes_mixed.jsonl --take en=300 --take zh=270 --take mixed=100 \
        --voices af_heart,zf_xiaoxiao,... --out data/voices

writes ``data/voices/<voice>.jsonl`` (the ``teacher_data`` input) and ``data/voices/speakers.json`` (the voice
order = the rows of the speaker table). Different voices read partly different sentences, so the shared
networks see more distinct text than one voice's share.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np


def _pair(text: str, what: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise argparse.ArgumentTypeError(f"{what} must look like NAME=VALUE, got {text!r}")
    return name, value


def takes_for(voice: str, take: dict[str, int], take_for: list[tuple[str, str, int]]) -> dict[str, int]:
    """The per-pool line counts of ``voice``: ``take``, overridden by each ``(prefix, pool, n)`` of
    ``take_for`` whose prefix starts the voice name, shorter prefixes first (``j`` for every Japanese voice,
    then ``jf_alpha`` for one)."""
    out = dict(take)
    for prefix, pool, n in sorted(take_for, key=lambda t: len(t[0])):
        if voice.startswith(prefix):
            out[pool] = n
    return out


def voice_rows(pools: dict[str, list[str]], take: dict[str, int], voice: str, draw: int = 0) -> list[str]:
    """The JSONL lines of ``voice``: ``take[pool]`` lines of each pool, sampled with a seed from the voice name.

    ``draw`` picks another deterministic sample of the same pools (0: the first leases' sample), so that a
    resumed model hears sentences it has not trained on yet."""
    key = voice if draw == 0 else f"{voice}#{draw}"
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "little")
    rng = np.random.default_rng(seed)
    rows: list[str] = []
    for name, lines in pools.items():
        n = min(take.get(name, 0), len(lines))
        rows += [lines[i] for i in sorted(rng.choice(len(lines), size=n, replace=False).tolist())]
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pool", action="append", required=True, help="NAME=phonemes.jsonl (phonemize_corpus output)")
    p.add_argument("--take", action="append", required=True, help="NAME=N lines of that pool per voice")
    p.add_argument("--take-for", action="append", default=[], metavar="PREFIX:NAME=N",
                   help="per-voice override: voices whose name starts with PREFIX read N lines of pool NAME "
                   "(e.g. j:ja=280 for the Japanese voices, which read their own language most)")
    p.add_argument("--voices", required=True, help="comma-separated teacher voice names, in speaker-table order")
    p.add_argument("--draw", type=int, default=0, help="which sample of the pools (0: the first leases' sample)")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if args.draw < 0:
        p.error("--draw must be >= 0")
    pools = {}
    for spec in args.pool:
        name, path = _pair(spec, "--pool")
        pools[name] = [line for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    take = {name: int(n) for name, n in (_pair(spec, "--take") for spec in args.take)}
    take_for = []
    for spec in args.take_for:
        prefix, sep, rest = spec.partition(":")
        if not sep or not prefix:
            p.error(f"--take-for must look like PREFIX:NAME=N, got {spec!r}")
        name, n = _pair(rest, "--take-for")
        take_for.append((prefix, name, int(n)))
    voices = [v for v in args.voices.split(",") if v]
    args.out.mkdir(parents=True, exist_ok=True)
    for voice in voices:
        rows = voice_rows(pools, takes_for(voice, take, take_for), voice, args.draw)
        (args.out / f"{voice}.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (args.out / "speakers.json").write_text(json.dumps(voices) + "\n", encoding="utf-8")
    total = sum(min(takes_for(v, take, take_for).get(n, 0), len(rows)) for v in voices for n, rows in pools.items())
    print(f"{len(voices)} voices, {total} lines -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
