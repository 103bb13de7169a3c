"""Settings of ``onestep serve`` / ``onestep wyoming`` from a TOML file and ``ONESTEP_*`` variables.

Every command-line option of the two commands is also a setting: its key is the long option's name with
``_`` for ``-`` (``--queue-size`` -> ``queue_size``), its variable ``ONESTEP_`` + the key in capitals
(``ONESTEP_QUEUE_SIZE``). Four keys differ from their option: ``--no-warmup`` / ``--no-tune-gc`` /
``--no-inline-when-idle`` are ``warmup`` / ``tune_gc`` / ``inline_when_idle`` (booleans, true by default) and
``--preload PHRASES`` is ``phrases`` (``ONESTEP_PRELOAD`` already switches the library's frontend preload). Precedence: command line > environment > file > default.

The file (``--config PATH`` or ``$ONESTEP_CONFIG``) holds keys at the top level (for both commands; a key only
the other command has is ignored) and in ``[serve]`` / ``[wyoming]`` tables (that command only)::

    workers = 2
    voices_dir = ["/srv/voices"]
    [serve]
    host = "0.0.0.0"
    port = 8000
    [wyoming]
    uri = "tcp://0.0.0.0:10200"

Values are checked against the option's type and choices here (a wrong key or type names the file or
variable); ranges are checked by :class:`~onestep.server.config.ServerConfig` as for the command line.
List options (``voices_dir``, ``cors_origin``) take a TOML array, or in a variable a list split on ``,``
(paths on ``os.pathsep``).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onestep.config import ConfigError

CONFIG_ENV = "ONESTEP_CONFIG"
ENV_PREFIX = "ONESTEP_"
COMMANDS = ("serve", "wyoming")
#: option dest -> setting key, where they differ (see the module docstring)
RENAMED = {
    "no_warmup": "warmup",
    "no_tune_gc": "tune_gc",
    "no_inline_when_idle": "inline_when_idle",
    "preload": "phrases",
}
#: dests that are not settings
NOT_SETTINGS = frozenset({"help", "config", "print_config", "func", "command"})
#: the key whose value --print-config does not show
SECRET_KEYS = frozenset({"api_key"})
_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Setting:
    """One setting, read off a command-line option.

    Attributes:
        key: name in the file (and, upper-cased after ``ONESTEP_``, in the environment).
        dest: the option's attribute on the parsed arguments.
        kind: ``str``, ``int``, ``float``, ``Path`` or ``bool``.
        default: the option's own default (used when nothing sets it).
        choices: allowed values, or None.
        is_list: the option may be given several times (a TOML array).
        inverted: a ``--no-X`` flag: the setting is ``X`` and its value is the flag's negation.
    """

    key: str
    dest: str
    kind: type
    default: Any
    choices: tuple[Any, ...] | None = None
    is_list: bool = False
    inverted: bool = False

    @property
    def env(self) -> str:
        """The environment variable of this setting."""
        return ENV_PREFIX + self.key.upper()

    def convert(self, value: Any, where: str, from_env: bool = False) -> Any:
        """``value`` (from TOML, or a string from the environment) as this setting's option value (a list
        setting takes one string as a one-item list, or in the environment a list split on ``,``, paths on
        ``os.pathsep``).

        Raises:
            ConfigError: naming ``where`` (the file and key, or the variable) when the value does not fit.
        """
        if self.is_list:
            if isinstance(value, str):
                sep = os.pathsep if self.kind is Path else ","
                value = [v for v in value.split(sep) if v.strip()] if from_env else [value]
            if not isinstance(value, list):
                raise ConfigError(f"{where}: expected a list, got {value!r}")
            return [self._one(v, where) for v in value]
        one = self._one(value, where)
        return (not one) if self.inverted else one

    def _one(self, value: Any, where: str) -> Any:
        kind = self.kind
        if kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise ConfigError(f"{where}: expected true or false, got {value!r}")
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ConfigError(f"{where}: expected an integer, got {value!r}")
            try:
                out: Any = int(value)
            except ValueError:
                raise ConfigError(f"{where}: expected an integer, got {value!r}") from None
        elif kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise ConfigError(f"{where}: expected a number, got {value!r}")
            try:
                out = float(value)
            except ValueError:
                raise ConfigError(f"{where}: expected a number, got {value!r}") from None
        else:
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a non-empty string, got {value!r}")
            out = Path(value).expanduser() if kind is Path else value
        if self.choices is not None and out not in self.choices:
            raise ConfigError(f"{where}: expected one of {', '.join(map(str, self.choices))}, got {value!r}")
        return out


def add_config_options(p: argparse.ArgumentParser) -> None:
    """Add ``--config`` and ``--print-config`` to a server command's parser and make every other option note
    on the parsed arguments (``_given``) that the command line gave it, so that :func:`resolve` can tell it
    from a default. Call it after every other option is added."""
    p.add_argument("--config", type=Path, metavar="TOML", help=f"settings file (default: ${CONFIG_ENV}); see docs/SERVER.md")
    p.add_argument(
        "--print-config", action="store_true", help="print the settings in effect (command line > env > file) and exit"
    )
    settings = settings_of(p)
    for action in p._actions:
        if action.dest in settings:
            action.__class__ = _recording(type(action))
    p.set_defaults(_settings=settings, _given=None)


_RECORDING: dict[type, type] = {}


def _recording(base: type) -> type:
    """A subclass of the argparse action class ``base`` that adds its dest to ``namespace._given``."""
    if base not in _RECORDING:

        def __call__(self: argparse.Action, parser: Any, namespace: argparse.Namespace, values: Any, option_string: Any = None) -> None:
            if getattr(namespace, "_given", None) is None:
                namespace._given = set()
            namespace._given.add(self.dest)
            base.__call__(self, parser, namespace, values, option_string)

        _RECORDING[base] = type(f"Recorded{base.__name__}", (base,), {"__call__": __call__})
    return _RECORDING[base]


def settings_of(p: argparse.ArgumentParser) -> dict[str, Setting]:
    """The settings of a parser's options, by option dest (the first option of a dest wins; an alias such as
    ``--device`` adds its choices)."""
    out: dict[str, Setting] = {}
    extra_choices: dict[str, list[Any]] = {}
    for action in p._actions:
        dest = action.dest
        if dest in NOT_SETTINGS or not action.option_strings or dest.startswith("_"):
            continue
        if dest in out:
            extra_choices.setdefault(dest, []).extend(action.choices or ())
            continue
        flag = isinstance(action, argparse._StoreTrueAction)
        kind: type = bool if flag else (action.type if action.type in (int, float, Path) else str)  # type: ignore[assignment]
        inverted = flag and dest.startswith("no_")
        out[dest] = Setting(
            key=RENAMED.get(dest, dest),
            dest=dest,
            kind=kind,
            default=action.default,
            choices=tuple(action.choices) if action.choices else None,
            is_list=isinstance(action, argparse._AppendAction),
            inverted=inverted,
        )
    for dest, more in extra_choices.items():
        s = out[dest]
        if s.choices is not None:
            out[dest] = Setting(s.key, s.dest, s.kind, s.default, s.choices + tuple(more), s.is_list, s.inverted)
    return out


def read_file(path: Path) -> dict[str, Any]:
    """The TOML file's table (ConfigError when it cannot be read or parsed)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} not found") from None
    except OSError as e:
        raise ConfigError(f"config file {str(path)!r}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {e}") from None


def _unknown(key: str, known: set[str], where: str) -> ConfigError:
    close = difflib.get_close_matches(key, sorted(known), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return ConfigError(f"{where}: unknown setting {key!r}{hint}; the settings are the long options of `onestep serve` / `onestep wyoming`")


def _keys_of_all_commands() -> dict[str, set[str]]:
    """Setting keys of each server command (from the real parsers)."""
    from onestep.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {c: {s.key for s in sub.choices[c].get_default("_settings").values()} for c in COMMANDS if c in sub.choices}


def file_values(table: Mapping[str, Any], command: str, settings: dict[str, Setting], path: Path) -> dict[str, tuple[Any, str]]:
    """Values of ``command``'s settings in a parsed file: the top level, then the command's own table.

    Returns:
        dest -> (option value, where it came from).
    """
    by_key = {s.key: s for s in settings.values()}
    all_keys = _keys_of_all_commands()
    every = set().union(*all_keys.values()) | set(by_key)
    out: dict[str, tuple[Any, str]] = {}
    for key, value in table.items():
        if key in COMMANDS:
            if not isinstance(value, dict):
                raise ConfigError(f"config file {str(path)!r}: [{key}] must be a table")
            continue
        if key not in every:
            raise _unknown(key, every, f"config file {str(path)!r}")
        if key in by_key:
            where = f"config file {str(path)!r}, {key}"
            out[by_key[key].dest] = (by_key[key].convert(value, where), where)
    own = table.get(command, {})
    for key, value in own.items():
        if key not in by_key:
            raise _unknown(key, set(by_key), f"config file {str(path)!r}, [{command}]")
        where = f"config file {str(path)!r}, [{command}] {key}"
        out[by_key[key].dest] = (by_key[key].convert(value, where), where)
    return out


def env_values(settings: dict[str, Setting], environ: Mapping[str, str]) -> dict[str, tuple[Any, str]]:
    """Values of the settings set in the environment: dest -> (option value, the variable's name)."""
    out: dict[str, tuple[Any, str]] = {}
    for s in settings.values():
        raw = environ.get(s.env)
        if raw is not None and raw != "":
            out[s.dest] = (s.convert(raw, f"${s.env}", from_env=True), f"${s.env}")
    return out


def resolve(args: argparse.Namespace, command: str, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Fill every setting of ``args`` in place: the command line's value, else the environment's, else the
    config file's, else the option's default.

    Returns:
        dest -> where its value came from (``"command line"``, ``"$ONESTEP_X"``, ``"config file ..."``,
        ``"default"``).

    Raises:
        ConfigError: an unreadable file, an unknown key in it, or a value of the wrong type.
    """
    environ = os.environ if environ is None else environ
    settings: dict[str, Setting] = args._settings
    path = args.config if getattr(args, "config", None) is not None else environ.get(CONFIG_ENV) or None
    from_file = file_values(read_file(Path(path)), command, settings, Path(path)) if path else {}
    from_env = env_values(settings, environ)
    sources: dict[str, str] = {}
    given = getattr(args, "_given", None) or set()
    for dest, s in settings.items():
        if dest in given:
            sources[dest] = "command line"
        elif dest in from_env:
            setattr(args, dest, from_env[dest][0])
            sources[dest] = from_env[dest][1]
        elif dest in from_file:
            setattr(args, dest, from_file[dest][0])
            sources[dest] = from_file[dest][1]
        else:
            setattr(args, dest, list(s.default) if isinstance(s.default, list) else s.default)
            sources[dest] = "default"
    return sources


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string


def format_config(args: argparse.Namespace, command: str, sources: dict[str, str]) -> str:
    """The settings in effect as a TOML ``[command]`` table, each line commented with its source; unset
    settings are shown commented out and secrets as ``"***"``."""
    settings: dict[str, Setting] = args._settings
    lines = [f"# onestep {command}: settings in effect (command line > environment > config file > default)", f"[{command}]"]
    for dest, s in sorted(settings.items(), key=lambda kv: kv[1].key):
        value = getattr(args, dest)
        if s.inverted and value is not None:
            value = not value
        if value is None:
            lines.append(f"# {s.key} =  (unset; {s.env})")
            continue
        shown = '"***"' if s.key in SECRET_KEYS else _toml_value(value)
        lines.append(f"{s.key} = {shown}  # {sources.get(dest, 'default')}")
    return "\n".join(lines) + "\n"
