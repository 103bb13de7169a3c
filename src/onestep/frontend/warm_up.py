"""Warming a frontend before its first request: the texts and the one function that loads everything lazy.

Used by the server (``server.backend.TTSBackend.warm_up``) and by its frontend worker processes
(``runtime.host_pool``), so that no request pays for a first-time load.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("onestep.server")

#: Mixed text, so that a warm-up loads both languages' frontends (any voice may get mixed input).
MIXED_WARM_UP_TEXT = "你好, hello."
#: Phonemized (frontend only) once at warm-up, after ``Frontend.preload`` (which loads the espeak-ng fallback
#: and the number converters): one pass through the out-of-lexicon, unit, number and date paths of both
#: languages, and the fallback's own load where a frontend has no ``preload``.
WARMUP_FRONTEND_TEXT = "Hello Zorblaxian, 3 km, 2024年5月3日."


def warm_frontend(frontend: Any) -> None:
    """Load ``frontend``'s lazily loaded parts now (its ``preload``, then :data:`WARMUP_FRONTEND_TEXT`);
    a failure (e.g. espeak-ng missing: only out-of-lexicon English words will fail) is only logged."""
    try:
        preload = getattr(frontend, "preload", None)  # the frontend's own "load everything now"
        if preload is not None:
            preload(background=False)
        list(frontend.sentences(WARMUP_FRONTEND_TEXT))
    except Exception as e:
        log.warning("warm-up of the frontend's fallbacks failed: %s: %s", type(e).__name__, e)
