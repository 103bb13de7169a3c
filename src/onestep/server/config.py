"""``ServerConfig``: every knob of ``onestep serve`` / ``onestep wyoming``, validated on construction."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path

from onestep.config import ConfigError
from onestep.runtime.engines import (
    DEFAULT_ENGINE,
    EngineKind,
    UnknownEngineError,
    get_engine,
)
from onestep.work_limits import DEFAULT_MAX_AUDIO_S, DEFAULT_MAX_BUFFERED_S, DEFAULT_MAX_PHONEMES

DEFAULT_MAX_CHARS = 5000


def default_workers() -> int:
    """Synthesis worker threads on CPU: one per core (each runs the ONNX engine with the GIL released)."""
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServerConfig:
    """Settings of the HTTP (and Wyoming) server.

    Attributes:
        host: interface to bind (``127.0.0.1`` keeps it local; ``0.0.0.0`` exposes it).
        port: TCP port, 1-65535 (0 = any free port, for tests).
        engine: a registered engine name (:mod:`onestep.runtime.engines`): ``"ort-cpu"`` (thread pool) or
            ``"torch-cuda-graphs"`` (one micro-batching thread); a device alias (``"cpu"``, ``"cuda"``) is
            accepted and replaced by the engine's name.
        device: alias of ``engine`` by hardware (``"cpu"``, ``"cuda"``), read at construction only (then None,
            so that ``dataclasses.replace(config, engine=...)`` works); the hardware is ``engine_kind.device``.
        workers: CPU synthesis threads (default: one per core); ignored on CUDA.
        threads: ONNX Runtime intra-op threads of the shared engine (default: cores // workers, at least 1).
        queue_size: requests admitted beyond one per worker; one more gets 503 + Retry-After.
        max_chars: longest accepted input text, characters.
        timeout: seconds a request may go without producing audio: before its first chunk (then 504) or
            between two chunks (then the stream is cut). A stream that keeps producing is never cut.
        api_key: when set, ``Authorization: Bearer <key>`` is required on the API routes.
        cors_origins: origins allowed by CORS (``"*"`` for any); empty = no CORS headers.
        voices_dirs: extra directories searched for voices, before ``$ONESTEP_VOICES`` and the package's.
        lexicon: user lexicon file passed to the frontend.
        batch_window_ms: CUDA micro-batching: the longest a batch waits for requests still in the text
            frontend, ms (a batch with none on their way starts at once).
        max_batch: CUDA micro-batching: most requests per engine call.
        scheduler_kind: ``"auto"`` (thread pool for CPU engines, micro-batching for batching engines), ``"pool"`` or ``"batch"``
            (micro-batching on CPU too: how the CUDA path is load-tested without a GPU).
        frontend_threads: CUDA: threads running the text frontend ahead of the micro-batching thread.
        frontend_processes: worker processes for each request's host work (0: none, in the server process).
            With micro-batching (CUDA, or ``scheduler_kind="batch"``) a request's frontend AND its finishing
            (timings, output stage, the whole file encoded) run in one of them (:mod:`onestep.server.host_work`);
            with the streaming thread pool (CPU) only its frontend.
        inline_when_idle: with ``frontend_processes``: a request that finds its server process idle (none in the
            frontend, none in flight) keeps its host work here (frontend on a thread, finishing on the engine
            thread), skipping the two hops to a worker and back that cost a lone request more than they save;
            under load the workers take the requests (False: always the workers).
        warmup: run one synthesis per voice before ``/health`` reports ready.
        max_phonemes: most phonemes one request may phonemize to (~0.075 s of speech each); more is
            answered 413 before any engine work (the bound on a request's time and memory).
        admission_deadline_ms: a request whose first audio could not start within this many ms (estimated
            from the phonemes waiting ahead of it, :mod:`onestep.server.admission`) gets 503 + Retry-After
            at once; 0 = count-based admission only (``queue_size``).
        drain_timeout: on SIGTERM/SIGINT, seconds to let admitted requests finish (``/health`` says
            ``draining``, new requests get 503); streams still running then are cut with an error frame.
        max_header_bytes: largest request line + headers of an HTTP request; more is answered 431.
        header_timeout: seconds a client may take to send a request's line and headers (slowloris); also
            how long a fresh connection may stay silent.
        body_timeout: seconds a client may take to send a request's body once its headers are in.
        ws_max_pending: WebSocket requests a connection may queue behind the one playing; each one more
            is refused with an error naming its ``id``.
        tune_gc: after warm-up, move every object alive into the GC's permanent generation
            (``gc.freeze``) and collect the young generation less often, so that no collection walks the
            models' and frontend's objects in the middle of a request (those walks were the latency tail).
        max_audio_s: most seconds of audio one request may make (its planned phonemes after SSML expansion
            / speed + breaks, refused 413 before any work; the audio itself is cut there too).
        max_buffered_s: seconds of audio a stream may hold between the engine and its writer; past it the
            engine waits for the client (the bound on a stream's memory, docs/SERVER.md).
        write_timeout: seconds a connection may take nothing of what the server writes (its send buffer
            full: a client that does not read) before it is closed and its request cancelled (Wyoming: the
            seconds to write one event).
        processes: HTTP server processes on the one port (``onestep serve --processes``; Linux
            ``SO_REUSEPORT``, :mod:`onestep.server.supervisor`), each with its own engine, scheduler, limits
            and phrase cache: every per-server limit above (``queue_size``, ``workers``, ...) holds per
            process, so the whole server admits ``processes`` times as much.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    engine: str = DEFAULT_ENGINE
    device: str | None = None
    workers: int = field(default_factory=default_workers)
    threads: int | None = None
    queue_size: int = 32
    max_chars: int = DEFAULT_MAX_CHARS
    timeout: float = 30.0
    api_key: str | None = None
    cors_origins: tuple[str, ...] = ()
    voices_dirs: tuple[Path, ...] = ()
    lexicon: Path | None = None
    batch_window_ms: float = 1.0
    max_batch: int = 16
    scheduler_kind: str = "auto"
    frontend_threads: int = 2
    frontend_processes: int = 0
    inline_when_idle: bool = True
    warmup: bool = True
    max_phonemes: int = DEFAULT_MAX_PHONEMES
    admission_deadline_ms: float = 2000.0
    drain_timeout: float = 30.0
    max_header_bytes: int = 16384
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    ws_max_pending: int = 8
    tune_gc: bool = True
    max_audio_s: float = DEFAULT_MAX_AUDIO_S
    max_buffered_s: float = DEFAULT_MAX_BUFFERED_S
    write_timeout: float = 30.0
    processes: int = 1

    def __post_init__(self) -> None:
        if not self.host:
            raise ConfigError("host must not be empty")
        if not 0 <= int(self.port) <= 65535:
            raise ConfigError(f"port must be 0-65535, got {self.port!r}")
        try:
            kind = get_engine(self.device if self.device is not None else self.engine)
        except UnknownEngineError as e:
            raise ConfigError(str(e)) from None
        if self.device is not None and self.engine not in (DEFAULT_ENGINE, kind.name):
            raise ConfigError(f"device {self.device!r} contradicts engine {self.engine!r}")
        object.__setattr__(self, "engine", kind.name)
        object.__setattr__(self, "device", None)
        if int(self.workers) < 1:
            raise ConfigError(f"workers must be >= 1, got {self.workers!r}")
        if self.threads is not None and int(self.threads) < 1:
            raise ConfigError(f"threads must be >= 1, got {self.threads!r}")
        if int(self.queue_size) < 1:
            raise ConfigError(f"queue_size must be >= 1, got {self.queue_size!r}")
        if not 1 <= int(self.max_chars) <= 1_000_000:
            raise ConfigError(f"max_chars must be 1-1000000, got {self.max_chars!r}")
        if not 0 < float(self.timeout) <= 3600:
            raise ConfigError(f"timeout must be in (0, 3600] seconds, got {self.timeout!r}")
        if self.api_key is not None and not self.api_key.strip():
            raise ConfigError("api_key must not be blank (leave it unset to disable authentication)")
        for origin in self.cors_origins:
            if origin != "*" and not origin.startswith(("http://", "https://")):
                raise ConfigError(f"CORS origin must be '*' or start with http:// or https://, got {origin!r}")
        if not 0 <= float(self.batch_window_ms) <= 100:
            raise ConfigError(f"batch_window_ms must be 0-100, got {self.batch_window_ms!r}")
        if not 1 <= int(self.max_batch) <= 256:
            raise ConfigError(f"max_batch must be 1-256, got {self.max_batch!r}")
        if self.scheduler_kind not in ("auto", "pool", "batch"):
            raise ConfigError(f"scheduler must be 'auto', 'pool' or 'batch', got {self.scheduler_kind!r}")
        if not 1 <= int(self.frontend_threads) <= 64:
            raise ConfigError(f"frontend_threads must be 1-64, got {self.frontend_threads!r}")
        if not 0 <= int(self.frontend_processes) <= 64:
            raise ConfigError(f"frontend_processes must be 0-64, got {self.frontend_processes!r}")
        if not 1 <= int(self.processes) <= 256:
            raise ConfigError(f"processes must be 1-256, got {self.processes!r}")
        if not 1 <= int(self.max_phonemes) <= 10_000_000:
            raise ConfigError(f"max_phonemes must be 1-10000000, got {self.max_phonemes!r}")
        if not 1 <= float(self.max_audio_s) <= 86_400:
            raise ConfigError(f"max_audio_s must be 1-86400 seconds, got {self.max_audio_s!r}")
        if not 0.5 <= float(self.max_buffered_s) <= 600:
            raise ConfigError(f"max_buffered_s must be 0.5-600 seconds, got {self.max_buffered_s!r}")
        if not 0 < float(self.write_timeout) <= 3600:
            raise ConfigError(f"write_timeout must be in (0, 3600] seconds, got {self.write_timeout!r}")
        if not 0 <= float(self.admission_deadline_ms) <= 600_000:
            raise ConfigError(f"admission_deadline_ms must be 0-600000, got {self.admission_deadline_ms!r}")
        if not 0 <= float(self.drain_timeout) <= 3600:
            raise ConfigError(f"drain_timeout must be 0-3600 seconds, got {self.drain_timeout!r}")
        if not 1024 <= int(self.max_header_bytes) <= 1 << 20:
            raise ConfigError(f"max_header_bytes must be 1024-1048576, got {self.max_header_bytes!r}")
        for name in ("header_timeout", "body_timeout"):
            if not 0 < float(getattr(self, name)) <= 3600:
                raise ConfigError(f"{name} must be in (0, 3600] seconds, got {getattr(self, name)!r}")
        if not 0 <= int(self.ws_max_pending) <= 1000:
            raise ConfigError(f"ws_max_pending must be 0-1000, got {self.ws_max_pending!r}")
        for d in self.voices_dirs:
            if not Path(d).is_dir():
                raise ConfigError(f"voices directory {str(d)!r} is not a directory")
        if self.lexicon is not None and not Path(self.lexicon).is_file():
            raise ConfigError(f"lexicon {str(self.lexicon)!r} is not a file")

    @property
    def micro_batching(self) -> bool:
        """Whether the server runs the micro-batching scheduler (else the streaming thread pool)."""
        return self.scheduler_kind == "batch" or (self.scheduler_kind == "auto" and self.engine_kind.batches)

    @property
    def engine_kind(self) -> EngineKind:
        """The registry record of :attr:`engine`."""
        return get_engine(self.engine)

    @property
    def engine_threads(self) -> int:
        """Intra-op threads for the engine: the explicit ``threads`` or an even share of the cores."""
        if self.threads is not None:
            return int(self.threads)
        return max(1, (os.cpu_count() or 1) // int(self.workers))

    @property
    def max_body_bytes(self) -> int:
        """Largest accepted request body: ``max_chars`` JSON-escaped (``\\uXXXX`` = 6 bytes) plus 4 KiB."""
        return int(self.max_chars) * 6 + 4096

    @property
    def admission_deadline_s(self) -> float | None:
        """:attr:`admission_deadline_ms` in seconds (None when off)."""
        return float(self.admission_deadline_ms) / 1000.0 if self.admission_deadline_ms else None

    @property
    def is_loopback(self) -> bool:
        """True when the server only listens on the loopback interface."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False
