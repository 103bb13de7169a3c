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
from typing import TYPE_CHECKING, Literal

from onestep.runtime.engine import Engine, engine_fully_captured, engine_ready
from onestep.runtime.engines import EngineKind
from onestep.runtime.host_pool import HostPool, HostPoolSettings
from onestep.runtime.speakers import SpeakerEngine
from onestep.runtime.voices import VoiceEntry
from onestep.synthesis.preload import start_preload
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
        preload: the frontend preload :meth:`start_preload` will run (``"now"``, ``"background"``, ``"off"``);
            until it is over, :meth:`ready` is False and a GPU engine's background warm-up waits for it (up to
            :attr:`PRELOAD_PATIENCE_S`) before capturing its larger batch sizes, so the two do not share the
            interpreter while the first calls need the frontend.

    Attributes:
        frontend_preloaded: set once the preload is over (loaded or failed; at once for ``"off"``).
    """

    #: How long a GPU engine's warm-up waits for the frontend preload before capturing its larger batch sizes.
    PRELOAD_PATIENCE_S = 30.0

    def __init__(
        self,
        engine_kind: EngineKind,
        threads: int | None,
        lexicon: str | os.PathLike[str] | None,
        voices: VoiceChoice,
        preload: Literal["now", "background", "off"] = "off",
    ) -> None:
        self.engine_kind = engine_kind
        self.threads = threads
        self.lexicon = lexicon
        self.voices = voices
        self.preload = preload
        self.frontend_preloaded = threading.Event()
        if preload == "off":
            self.frontend_preloaded.set()
        self._lock = threading.Lock()
        self._engines: dict[Path, Engine] = {}
        self._speaker_engines: dict[tuple[Path, str], Engine] = {}
        self._frontend: Frontend | None = None
        self._host: HostPool | None = None

    def has_engine(self, entry: VoiceEntry) -> bool:
        """Whether :meth:`engine` of ``entry`` returns without loading anything (its directory's engine is loaded)."""
        return entry.path in self._engines

    def engine(self, entry: VoiceEntry) -> Engine:
        """The engine of ``entry``: the loaded engine of its directory (every voice of a multi-speaker model
        shares one), seen through the voice's speaker vector when it has one."""
        engine = self._engines.get(entry.path)  # loaded engines are served without waiting for a load
        if engine is None:
            with self._lock:
                engine = self._engines.get(entry.path)
                if engine is None:
                    engine = self.engine_kind.load(entry.path, self.threads)
                    if getattr(engine, "before_rest", False) is None:  # a GPU engine capturing in the background
                        engine.before_rest = self._wait_for_preload  # type: ignore[attr-defined]
                    self._engines[entry.path] = engine
        if entry.mix is None:
            return engine
        key = (entry.path, entry.name)
        view = self._speaker_engines.get(key)
        if view is None:
            view = self._speaker_engines.setdefault(key, SpeakerEngine(engine, entry.mix, entry.name))  # type: ignore[arg-type]
        return view

    def start_preload(self) -> threading.Thread | None:
        """Run the frontend preload given at construction (:func:`onestep.synthesis.preload.start_preload`);
        returns its thread when it runs in the background."""
        return start_preload(self.preload, self.frontend, self.frontend_preloaded)

    def _wait_for_preload(self) -> None:
        """A GPU engine's ``before_rest``: let the frontend preload finish (bounded) before the engine captures
        its larger batch sizes."""
        self.frontend_preloaded.wait(self.PRELOAD_PATIENCE_S)

    def ready(self) -> bool:
        """Whether the frontend preload is over and every loaded engine is ready (a GPU engine: its smallest
        batch size's CUDA graphs captured; it captures the rest in the background after that)."""
        return self.frontend_preloaded.is_set() and all(engine_ready(e) for e in list(self._engines.values()))

    def wait_ready(self, timeout: float | None = None, *, complete: bool = False) -> bool:
        """Block until :meth:`ready` (or ``timeout`` seconds in all); returns :meth:`ready`. ``complete``: also
        until every loaded GPU engine has captured all its batch sizes (``fully_captured``), so that no capture
        runs beside the requests afterwards (a server's readiness); returns whether that holds too."""
        deadline = None if timeout is None else time.monotonic() + timeout
        self.frontend_preloaded.wait(None if deadline is None else max(deadline - time.monotonic(), 0.0))
        events = ("ready", "fully_captured") if complete else ("ready",)
        engines = list(self._engines.values())
        for engine in engines:
            for name in events:
                event = getattr(engine, name, None)
                if event is not None:
                    event.wait(None if deadline is None else max(deadline - time.monotonic(), 0.0))
        return self.ready() and (not complete or all(engine_fully_captured(e) for e in engines))

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
