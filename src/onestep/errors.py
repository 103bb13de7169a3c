"""The error hierarchy: every error OneStep raises on purpose is an :class:`OnestepError`, and its kind says
who can act on it.

* :class:`UserError`: bad input or setup the user can fix (an unknown voice, an invalid config file, a text
  too long, a missing optional dependency). The CLI prints the message and exits 2; the server answers 4xx
  with the message; Wyoming sends an error event.
* :class:`Unavailable`: the work cannot be done now but may be later (a full queue, a request past its
  deadline, a server shutting down). The server answers 503/504 with ``Retry-After`` where it has one.
* :class:`OnestepError` itself, directly: signals between the server's parts that no user sees (the
  server's ``ClientGone``) and errors that carry their own HTTP answer (``server.errors.ApiError``).

Anything that is not an ``OnestepError`` is a bug: the CLI shows the traceback, the server logs it and
answers 500 without details. Each concrete error also keeps the builtin base it had before this hierarchy
existed (``ConfigError`` is a ``ValueError``, ``VoiceNotFoundError`` a ``LookupError``), so ``except
ValueError`` callers keep working. Names are unique across the package (``tests/test_error_hierarchy.py``).

This module imports nothing from the package: every layer may raise these.
"""

from __future__ import annotations


class OnestepError(Exception):
    """Base of every error OneStep raises on purpose."""


class UserError(OnestepError):
    """An error the user can fix; the message says what to change (shown as is, no traceback)."""


class Unavailable(OnestepError):
    """The work cannot be done now (overload, a deadline, a shutdown); the same request may succeed later."""


class ConfigError(UserError, ValueError):
    """A configuration file or option is invalid; the message names the field."""
