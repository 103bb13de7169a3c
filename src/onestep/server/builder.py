"""Building the synthesizer behind a server (HTTP or Wyoming) from its :class:`ServerConfig`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from onestep.errors import UserError
from onestep.server.backend import TTSBackend
from onestep.server.config import ServerConfig

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS


def build_backend(config: ServerConfig) -> TTSBackend:
    """The engine behind the server: one shared :class:`onestep.TTS` (:func:`backend_for` wraps it).

    Raises:
        UserError: a bad engine, voice directory or lexicon, or no voice found at all.
    """
    from onestep.api import TTS

    tts = TTS(
        engine=config.engine,
        threads=config.engine_threads,
        lexicon=config.lexicon,
        voices_dir=list(config.voices_dirs) or None,
        max_phonemes=config.max_phonemes,
        # the server's warm-up (after it starts listening; /health says ready when done) loads the frontends;
        # without warm-up they load in a background thread, so no request pays a first-time load
        preload=False if config.warmup else "background",
    )
    backend = backend_for(tts, config)
    if not backend.voices():
        raise UserError("no voices found: pass --voices-dir DIR or set $ONESTEP_VOICES (see `onestep voices`)")
    return backend


def backend_for(tts: TTS, config: ServerConfig) -> TTSBackend:
    """The server's backend over ``tts``: with ``config.frontend_processes`` > 0, a host pool of that many worker
    processes (:class:`onestep.runtime.host_pool.HostPool`, the user lexicon loaded in each) runs each request's
    frontend and its finishing work (:mod:`onestep.server.host_backend`); started by the backend's warm-up."""
    if not config.frontend_processes:
        return TTSBackend(tts)
    from onestep.runtime.host_pool import HostPool, HostPoolSettings

    lexicon = None if config.lexicon is None else str(config.lexicon)
    pool = HostPool(HostPoolSettings(threads=1, processes=config.frontend_processes, lexicon=lexicon))
    return TTSBackend(tts, host_pool=pool, finish_remote=config.micro_batching)
