"""``onestep doctor``: what this machine offers OneStep and what to fix.

Reports the ONNX Runtime version and providers, the optional pieces (mp3/opus/flac encoding without ffmpeg,
soxr, websockets, defusedxml, PyAV, psutil, matplotlib), CPU vector extensions, the thread count the engine will use,
each registered engine's own check (CUDA through torch, when installed; :data:`onestep.runtime.engines.ENGINES`),
the voices found with their load and warm-up times, and whether the text frontend works for each language.
Exits 1 when something must be fixed before synthesis can work."""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from onestep.cli import add_engine_option
from onestep.languages import LANGUAGES, language_codes
from onestep.runtime.engines import ENGINES, get_engine


@dataclass
class Report:
    """Everything ``doctor`` found.

    Attributes:
        facts: section -> key -> value, shown as tables.
        voices: one row per voice: name, language, placeholder, load_s, warmup_s, error.
        fixes: what to fix, as (severity, message); severity ``"error"`` (synthesis cannot work) or ``"warn"``.
    """

    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    voices: list[dict[str, Any]] = field(default_factory=list)
    fixes: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(severity != "error" for severity, _ in self.fixes)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("doctor", help="check the installation: runtime, CPU, engines (CUDA), voices, frontend")
    p.add_argument("--voices-dir", type=Path, action="append", help="extra directory to search for voices")
    add_engine_option(p)
    p.add_argument("--threads", type=int, help="CPU threads per graph (default: one per physical core)")
    p.add_argument("--lexicon", type=Path, help="user pronunciation lexicon (JSON) to check")
    p.add_argument("--no-load", action="store_true", help="do not load the voices (skip load/warm-up timing)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=run)


def cpu_flags() -> set[str]:
    """Flags of the first CPU in ``/proc/cpuinfo`` (empty where there is none, e.g. macOS)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def physical_cores() -> int | None:
    """Physical CPU cores: psutil's count where installed, else distinct (package, core) pairs of Linux's sysfs
    topology or of ``/proc/cpuinfo``; None where none of them tells (ONNX Runtime then still uses its own)."""
    try:
        import psutil

        count = psutil.cpu_count(logical=False)
        if count:
            return int(count)
    except ModuleNotFoundError:
        pass
    cores: set[tuple[str, str]] = set()
    for topology in Path("/sys/devices/system/cpu").glob("cpu[0-9]*/topology"):
        try:
            package = (topology / "physical_package_id").read_text().strip()
            cores.add((package, (topology / "core_id").read_text().strip()))
        except OSError:
            continue
    if cores:
        return len(cores)
    package = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "physical id":
                package = value.strip()
            elif key.strip() == "core id":
                cores.add((package, value.strip()))
    except OSError:
        pass
    return len(cores) or None


def _runtime(report: Report, threads: int | None) -> None:
    import onnxruntime as ort

    from onestep import __version__

    flags = cpu_flags()
    physical = physical_cores()
    avx512 = sorted(f for f in flags if f.startswith("avx512"))
    report.facts["system"] = {
        "onestep": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "onnxruntime": ort.__version__,
        "providers": ", ".join(ort.get_available_providers()),
        "logical cpus": os.cpu_count(),
        "physical cores": physical if physical is not None else "unknown",
        "avx2": "avx2" in flags,
        "avx512": ", ".join(avx512) if avx512 else False,
        "engine threads": threads if threads is not None else f"default ({physical or 'all'} physical cores)",
    }
    if flags and "avx2" not in flags:
        report.fixes.append(("warn", "this CPU lacks AVX2: ONNX Runtime will be several times slower"))
    if os.cpu_count() == 1:
        report.fixes.append(("warn", "one CPU: synthesis and the frontend compete for it"))


def _engines(report: Report, engine: str) -> None:
    """Each registered engine's check (:meth:`~onestep.runtime.engines.EngineKind.check`), its facts under its
    device's name; a problem of the chosen ``engine`` is an error to fix, of another one only a fact."""
    chosen = get_engine(engine)
    for kind in ENGINES:
        facts, problem = kind.check()
        if facts:
            report.facts[kind.device] = facts
        if problem and kind is chosen:
            report.fixes.append(("error", f"--engine {kind.name} (--device {kind.device}) cannot run here: {problem}"))


def _voices(report: Report, args: argparse.Namespace) -> None:
    from onestep.runtime import load_engine
    from onestep.runtime.voices import VoiceCatalog

    catalog = VoiceCatalog(args.voices_dir)
    for problem in catalog.problems:
        report.fixes.append(("warn", f"unreadable voice: {problem}"))
    if not catalog.entries:
        searched = ", ".join(str(p) for p in catalog.paths)
        report.fixes.append(("error", f"no voices found (searched {searched}); use --voices-dir or $ONESTEP_VOICES"))
    loaded: dict[Path, dict[str, Any]] = {}  # one load per voice directory (a multi-speaker model's voices share it)
    for entry in catalog.entries.values():
        row: dict[str, Any] = {
            "name": entry.name,
            "language": entry.config.language,
            "placeholder": entry.config.placeholder,
            "path": str(entry.path),
        }
        if entry.config.placeholder:
            report.fixes.append(("warn", f"voice {entry.name} is a placeholder (random weights): it speaks noise"))
        if not args.no_load and entry.path in loaded:
            row.update(loaded[entry.path])
        elif not args.no_load:
            try:
                engine = load_engine(entry.path, args.engine, args.threads)
                row["load_s"] = round(engine.load_seconds, 3)
                row["warmup_s"] = round(engine.warmup_seconds, 3)
            except Exception as e:  # noqa: BLE001 - any failure to load is what doctor reports
                row["error"] = f"{type(e).__name__}: {e}"
                report.fixes.append(("error", f"voice {entry.name} does not load: {row['error']}"))
            loaded[entry.path] = {k: row[k] for k in ("load_s", "warmup_s", "error") if k in row}
        report.voices.append(row)
    languages = {e.config.language for e in catalog.entries.values()}
    for language in language_codes():
        if catalog.entries and language not in languages:
            message = f"no {language} voice: {language} text will be read by another language's voice"
            report.fixes.append(("warn", message))


def _frontend(report: Report, lexicon: Path | None) -> None:
    facts: dict[str, Any] = {}
    try:
        from onestep.frontend.pipeline import Frontend

        frontend = Frontend(lexicon=lexicon)
    except Exception as e:  # noqa: BLE001 - reported, not raised
        report.facts["frontend"] = {"error": f"{type(e).__name__}: {e}"}
        report.fixes.append(("error", f"the text frontend does not load: {e}"))
        return
    for language, text in ((lang.code, lang.sample_text) for lang in LANGUAGES):
        t0 = time.perf_counter()
        try:
            phonemes = frontend.phonemize(text).phonemes
            facts[language] = f"{phonemes!r} (first call {time.perf_counter() - t0:.2f} s)"
        except Exception as e:  # noqa: BLE001 - reported, not raised
            facts[language] = f"error: {type(e).__name__}: {e}"
            report.fixes.append(("error", f"the {language} frontend fails: {e} (reinstall onestep-tts's dependencies)"))
    report.facts["frontend"] = facts


#: Optional pieces: (module, what it gives, how to get it). The hint names the pyproject extra that installs
#: the module, or the package itself where the base install lists it (tests/test_cli_say.py checks both
#: against pyproject.toml).
OPTIONAL_MODULES: tuple[tuple[str, str, str], ...] = (
    ("soxr", "output sample rates other than the voice's", "pip install soxr"),
    ("websockets", "the server's WebSocket /v1/stream (the web page's live synthesis)", "pip install 'onestep-tts[server]'"),
    ("defusedxml", "SSML input", "pip install defusedxml"),
    ("av", "aac output and a chosen bitrate for mp3/aac/opus", "pip install 'onestep-tts[audio]'"),
    ("psutil", "onestep bench's CPU and memory figures", "pip install './dev[bench]'"),
    ("matplotlib", "onestep bench's plots", "pip install './dev[bench]'"),
)
#: Modules whose absence is only noted in the table, not listed as something to fix.
_NICE_TO_HAVE = frozenset({"av", "psutil", "matplotlib"})


def _optional(report: Report) -> None:
    """Audio formats this libsndfile encodes without ffmpeg, and the optional modules (see OPTIONAL_MODULES)."""
    import importlib.util

    from onestep.runtime.encoders import ENCODED_FORMATS, supported_formats

    formats = supported_formats()
    facts: dict[str, Any] = {f"{fmt} encoding": fmt in formats for fmt in (*ENCODED_FORMATS, "aac")}
    for fmt in ENCODED_FORMATS:
        if fmt not in formats:
            report.fixes.append(
                ("warn", f"this libsndfile cannot encode {fmt}: pip install --upgrade soundfile (bundles libsndfile >= 1.1)")
            )
    for module, gives, hint in OPTIONAL_MODULES:
        present = importlib.util.find_spec(module) is not None
        facts[module] = "installed" if present else f"missing ({gives}: {hint})"
        if not present and module not in _NICE_TO_HAVE:
            report.fixes.append(("warn", f"{module} is missing, so {gives} will not work: {hint}"))
    report.facts["optional"] = facts


def collect(args: argparse.Namespace) -> Report:
    """Run every check (see the module docstring)."""
    report = Report()
    _runtime(report, args.threads)
    _engines(report, args.engine)
    _voices(report, args)
    _frontend(report, args.lexicon)
    _optional(report)
    return report


def run(args: argparse.Namespace) -> int:
    report = collect(args)
    if args.json:
        print(json.dumps({**asdict(report), "ok": report.ok}, ensure_ascii=False, indent=2, default=str))
        return 0 if report.ok else 1
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    for section, facts in report.facts.items():
        table = Table(title=section, show_header=False, title_justify="left")
        for key, value in facts.items():
            table.add_row(key, escape(str(value)))  # "./dev[bench]" is text, not a rich style
        console.print(table)
    table = Table("voice", "language", "placeholder", "load s", "warm-up s", title="voices", title_justify="left")
    table.add_column("path", overflow="fold")
    for v in report.voices:
        table.add_row(
            v["name"], v["language"], "yes" if v["placeholder"] else "",
            escape(str(v.get("load_s", v.get("error", "-")))), str(v.get("warmup_s", "-")), escape(v["path"]),
        )
    console.print(table)
    if not report.fixes:
        console.print("[green]all good[/]")
    for severity, message in report.fixes:
        label = "[red]fix:[/]" if severity == "error" else "[yellow]note:[/]"
        console.print(f"{label} {escape(message)}")
    return 0 if report.ok else 1
