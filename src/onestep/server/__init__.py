"""The HTTP/WebSocket server (``onestep serve``) and the Wyoming server (``onestep wyoming``).

Their libraries (FastAPI, uvicorn, pydantic, prometheus-client, websockets, wyoming) come with the ``server``
extra, not with a plain ``pip install onestep-tts``: the commands call :func:`require_server_stack` first and
say which extra to install instead of failing on an import deep inside.
"""

from __future__ import annotations

import importlib.util

#: Import names of the ``server`` extra's libraries the servers cannot run without (uvloop and httptools are
#: optional speed-ups: uvicorn falls back to asyncio and h11).
SERVER_MODULES: tuple[str, ...] = ("fastapi", "uvicorn", "pydantic", "prometheus_client", "websockets", "wyoming")
SERVER_EXTRA_HINT = 'pip install "onestep-tts[server]"'


def missing_server_modules(modules: tuple[str, ...] | None = None) -> list[str]:
    """The names in ``modules`` (default :data:`SERVER_MODULES`) that cannot be imported here (found by spec,
    nothing is imported)."""
    return [name for name in (SERVER_MODULES if modules is None else modules) if importlib.util.find_spec(name) is None]


def require_server_stack(command: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise :class:`~onestep.errors.UserError` naming the ``server`` extra when any of ``modules`` (default
    :data:`SERVER_MODULES`) is missing."""
    missing = missing_server_modules(modules)
    if missing:
        from onestep.errors import UserError

        raise UserError(
            f"{command} needs the server libraries, which a plain install leaves out (missing: {', '.join(missing)}): "
            f"{SERVER_EXTRA_HINT}"
        )
