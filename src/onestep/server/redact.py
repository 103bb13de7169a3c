"""Secrets never reach the log: query-string credentials are redacted in every server log line.

Browsers cannot set headers on a WebSocket, so the API key may come as ``?api_key=...``; uvicorn logs each
request's path with its query string (``"WebSocket /v1/stream?api_key=..." [accepted]``, the access log).
:class:`RedactSecrets` rewrites such values to ``[redacted]`` in a record's message and arguments;
:func:`install` puts it on the loggers the server writes to. (Headers, ``Authorization`` included, are
never logged by uvicorn or by this package.)
"""

from __future__ import annotations

import logging
import re

#: Query parameters whose values are credentials (case-insensitive).
SECRET_PARAMS = ("api_key", "api-key", "apikey", "key", "token", "access_token", "auth", "password", "secret")
_SECRET = re.compile(r"(?i)([?&;](?:" + "|".join(re.escape(p) for p in SECRET_PARAMS) + r")=)[^&;#\s\"']*")
#: The loggers of the HTTP server (uvicorn's and ours) and the Wyoming service.
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "onestep.server", "onestep.wyoming")


def redact(text: str) -> str:
    """``text`` with every credential query parameter's value replaced by ``[redacted]``."""
    return _SECRET.sub(r"\1[redacted]", text)


class RedactSecrets(logging.Filter):
    """A filter that redacts credentials (:func:`redact`) in a record's message and string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


_FILTER = RedactSecrets()


def install(names: tuple[str, ...] = LOGGERS) -> None:
    """Add the redacting filter to the loggers ``names`` (idempotent). A logger's filters see the records
    logged through it, which is how uvicorn and this package log."""
    for name in names:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
