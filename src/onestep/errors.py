"""The error hierarchy: one base, :class:`OnestepError`, split into what the user can fix and what is a bug.

* :class:`UserError`: bad input or setup the user can fix (an unknown voice, an invalid config file, a text
  too long, a missing optional dependency). The CLI prints the message and exits 2; the server answers 4xx
  with the message; Wyoming sends an error event.
* :class:`InternalError`: something that should not happen (an engine bug, a broken invariant). The CLI
  shows the traceback; the server logs it and answers 500 without details.

Anything that is not an ``OnestepError`` is treated as internal. Each concrete error also keeps the builtin
base it had before this hierarchy existed (``ConfigError`` is a ``ValueError``, ``VoiceNotFoundError`` a
``LookupError``), so ``except ValueError`` callers keep working.

This module imports nothing from the package: every layer may raise these.
"""

from __future__ import annotations


class OnestepError(Exception):
    """Base of every error OneStep raises on purpose."""


class UserError(OnestepError):
    """An error the user can fix; the message says what to change (shown as is, no traceback)."""


class InternalError(OnestepError):
    """A bug or broken invariant inside OneStep (shown with its traceback; HTTP 500)."""


class ConfigError(UserError, ValueError):
    """A configuration file or option is invalid; the message names the field."""
