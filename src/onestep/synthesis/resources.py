"""What one :class:`onestep.TTS` loads once and shares between its calls and threads.

An engine per voice directory (every voice of a multi-speaker model shares its model's engine, seen through
a speaker view per voice), the text frontend and the host pool: each built on first use, under one lock, so
that concurrent first uses build it once.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from onestep.runtime.engine import Engine, engine_ready
from onestep.runtime.engines import EngineKind
from onestep.runtime.host_pool import HostPool, HostPoolSettings
from onestep.runtime.speakers import SpeakerEngine
from onestep.runtime.voices import VoiceEntry
from onestep.synthesis.voice_choice import VoiceChoice

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.tokens import Utterance


def max_ids(engine: Engine) -> int:
    """The most phoneme ids per utterance for ``engine``: its largest bucket less the two boundary pads."""
    return engine.config.phoneme_buckets[-1] - 2


class Resources:
    """The engines, frontend and host pool of one TTS (each loaded on first use), and its ``voices``.

    Args:
        engine_kind: the engine every voice is loaded with; ``threads``: CPU threads per graph (None = one per
            physical core); ``lexicon``: a user pronunciation lexicon file for the frontend.
    """

    def __init__(
        self,
        engine_kind: EngineKind,
        threads: int | None,
        lexicon: str | os.PathLike[str] | None,
        voices: VoiceChoice,
    ) -> None:
        self.engine_kind = engine_kind
        self.threads = threads
        self.lexicon = lexicon
        self.voices = voices
        self._lock = threading.Lock()
        self._engines: dict[Path, Engine] = {}
        self._speaker_engines: dict[tuple[Path, str], Engine] = {}
        self._frontend: Frontend | None = None
        self._host: HostPool | None = None

    def engine(self, entry: VoiceEntry) -> Engine:
        """The engine of ``entry``: the loaded engine of its directory (every voice of a multi-speaker model
        shares one), seen through the voice's speaker vector when it has one."""
        engine = self._engines.get(entry.path)  # loaded engines are served without waiting for a load
        if engine is None:
            with self._lock:
                engine = self._engines.get(entry.path)
                if engine is None:
                    engine = self.engine_kind.load(entry.path, self.threads)
                    self._engines[entry.path] = engine
        if entry.mix is None:
            return engine
        key = (entry.path, entry.name)
        view = self._speaker_engines.get(key)
        if view is None:
            view = self._speaker_engines.setdefault(key, SpeakerEngine(engine, entry.mix, entry.name))  # type: ignore[arg-type]
        return view

    def ready(self) -> bool:
        """Whether every loaded engine has finished its warm-up (a GPU engine captures its CUDA graphs in the
        background after loading)."""
        return all(engine_ready(e) for e in list(self._engines.values()))

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until :meth:`ready` (or ``timeout`` seconds in all); returns :meth:`ready`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for engine in list(self._engines.values()):
            ready = getattr(engine, "ready", None)
            if ready is not None:
                ready.wait(None if deadline is None else max(deadline - time.monotonic(), 0.0))
        return self.ready()

    def frontend(self) -> Frontend:
        """The shared text frontend (built on first use)."""
        if self._frontend is None:
            with self._lock:
                if self._frontend is None:
                    from onestep.frontend.pipeline import Frontend

                    self._frontend = Frontend(lexicon=self.lexicon)
        return self._frontend

    def host_pool(self) -> HostPool:
        """The shared host pool: one thread per usable core, the frontend on them (started on first use)."""
        if self._host is None:
            with self._lock:
                if self._host is None:
                    self._host = HostPool(HostPoolSettings(lexicon=None if self.lexicon is None else str(self.lexicon)))
        return self._host

    def sentences(self, text: str, entry: VoiceEntry, skipped: Counter[str] | None = None) -> Iterator[Utterance]:
        """The frontend's pieces of ``text`` that fit the voice's largest phoneme bucket, lazily (``skipped``
        counts the characters that cannot be spoken; a text of digits alone is read in the voice's language)."""
        most = max_ids(self.engine(entry))
        return self.frontend().speakable_sentences(text, most, skipped, entry.config.language)
