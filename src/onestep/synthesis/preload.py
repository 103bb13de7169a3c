"""Loading the text frontend of every language ahead of the calls that need it (``TTS(preload=...)``)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from onestep.frontend.warm_up import warm_frontend

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.pipeline import Frontend

PRELOAD_ENV = "ONESTEP_PRELOAD"


def preload_mode(preload: bool | str | None) -> Literal["now", "background", "off"]:
    """What :class:`onestep.TTS` does with its ``preload`` argument (None: ``$ONESTEP_PRELOAD``, else background).

    Raises:
        ValueError: a value other than True, False, "background" (argument) or 1/0/background (variable).
    """
    if preload is None:
        raw = os.environ.get(PRELOAD_ENV, "background").strip().lower()
        table = {"1": "now", "true": "now", "0": "off", "false": "off", "background": "background", "": "background"}
        if raw not in table:
            raise ValueError(f"${PRELOAD_ENV} must be 1, 0 or background, got {raw!r}")
        return table[raw]  # type: ignore[return-value]
    if preload is True:
        return "now"
    if preload is False:
        return "off"
    if preload == "background":
        return "background"
    raise ValueError(f"preload must be True, False or 'background', got {preload!r}")


def start_preload(
    mode: Literal["now", "background", "off"],
    frontend: Callable[[], Frontend],
    done: threading.Event | None = None,
) -> threading.Thread | None:
    """Warm the frontend that ``frontend()`` builds as ``mode`` says: ``"now"``, before returning; ``"background"``,
    in a daemon thread started now (returned; the frontend itself is built here, as it reads the lexicon: the
    thread only loads); ``"off"``: nothing (not even the frontend is built).

    ``done``: set once the preload is over, whether it loaded everything or failed (``"off"``: at once), so
    that nothing waiting for it waits forever."""
    if mode == "background":
        try:
            built = frontend()  # built here (it reads the lexicon): the thread only loads
        except BaseException:
            if done is not None:
                done.set()
            raise
        thread = threading.Thread(target=_warm_then_set, args=(built, done), name="onestep-preload", daemon=True)
        thread.start()
        return thread
    try:
        if mode == "now":
            warm_frontend(frontend())
    finally:
        if done is not None:
            done.set()
    return None


def _warm_then_set(frontend: Frontend, done: threading.Event | None) -> None:
    try:
        warm_frontend(frontend)
    finally:
        if done is not None:
            done.set()
