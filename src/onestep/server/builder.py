"""Building the synthesizer behind a server (HTTP or Wyoming) from its :class:`ServerConfig`."""

from __future__ import annotations

from onestep.errors import UserError
from onestep.server.backend import TTSBackend
from onestep.server.config import ServerConfig


def build_backend(config: ServerConfig) -> TTSBackend:
    """The engine behind the server: one shared :class:`onestep.TTS` (and the frontend worker processes when
    ``config.frontend_processes`` asks for them).

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
    pool = None
    if config.frontend_processes:
        from onestep.server.frontend_pool import FrontendProcesses

        pool = FrontendProcesses(config.frontend_processes, config.lexicon)
    backend = TTSBackend(tts, frontend_pool=pool)
    if not backend.voices():
        raise UserError("no voices found: pass --voices-dir DIR or set $ONESTEP_VOICES (see `onestep voices`)")
    return backend
