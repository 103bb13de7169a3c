"""Finding voices: search paths, the one voice resolver, and the default voice for a text's language.

A voice is a directory holding ``voice.json`` (:class:`onestep.config.VoiceConfig`) and its ONNX graphs.
Voices are searched, in this order (an earlier path shadows a later voice of the same name):

1. directories given by the caller (``TTS(voices_dir=...)``, ``--voices-dir``);
2. ``$ONESTEP_VOICES`` (``os.pathsep``-separated directories);
3. the voices shipped inside the package (``onestep/voices/<name>/``).

Lookup by name only ever matches names found there; a name can never be a path, so a server that passes
user input to :meth:`VoiceCatalog.get` cannot be made to open arbitrary directories.

Resolving a request to a voice happens in one place, :func:`choose_voice`, used by the Python API, HTTP,
WebSocket and Wyoming alike; voice strings are parsed in one place, :func:`parse_voice`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from onestep.config import ConfigError, VoiceConfig
from onestep.errors import UserError
from onestep.languages import detect_language, language_from_tag

ENV_VAR = "ONESTEP_VOICES"
PACKAGE_VOICES = Path(__file__).resolve().parent.parent / "voices"
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class VoiceNotFoundError(UserError, LookupError):
    """No voice matches; the message lists the voices that exist."""


class VoiceLike(Protocol):
    """What :func:`choose_voice` needs of a voice (``VoiceEntry`` here, ``VoiceInfo`` in the server)."""

    @property
    def name(self) -> str: ...

    @property
    def language(self) -> str: ...

    @property
    def default(self) -> bool: ...


V = TypeVar("V", bound=VoiceLike)


@dataclass(frozen=True)
class VoiceSpec:
    """A parsed voice string (what a request's ``voice`` names).

    Attributes:
        name: the voice's name as listed (a voice directory's ``voice.json`` name).

    The extension point for richer voice strings: a speaker inside a multi-speaker model pack or a blend
    of voices is parsed here, in :func:`parse_voice`, and nowhere else.
    """

    name: str


def parse_voice(spec: str) -> VoiceSpec:
    """Parse a request's voice string; raises :class:`VoiceNotFoundError` for a malformed one (never a
    path: a name is only ever compared with listed names)."""
    if not isinstance(spec, str) or not _NAME.fullmatch(spec):
        raise VoiceNotFoundError(f"unknown voice {_shown(spec)!r}")
    return VoiceSpec(spec)


def _shown(spec: object) -> object:
    """A voice string as error messages quote it (at most 64 characters)."""
    return spec[:64] + "..." if isinstance(spec, str) and len(spec) > 64 else spec


def choose_voice(voices: Sequence[V], name: str | None = None, *, language: str | None = None, text: str = "") -> V:
    """The voice a request gets: the one rule for every entry point (API, HTTP, WebSocket, Wyoming).

    1. ``name`` given: the voice of that name (:func:`parse_voice`), else :class:`VoiceNotFoundError` listing
       the voices.
    2. else the default voice of ``language`` (a code or a tag such as ``"en_US"``) when some voice speaks it,
    3. else the default voice of ``text``'s language (:func:`onestep.languages.detect_language`).

    A language's default voice is the first of its voices marked ``default``, else its first voice; with no
    voice of the language, the first voice of any.
    """
    if not voices:
        raise VoiceNotFoundError("no voices found")
    if name is not None:
        try:
            wanted: str | None = parse_voice(name).name
        except VoiceNotFoundError:
            wanted = None
        for voice in voices:
            if voice.name == wanted:
                return voice
        available = ", ".join(v.name for v in voices)
        raise VoiceNotFoundError(f"unknown voice {_shown(name)!r}; available voices: {available}")
    code = language_from_tag(language) if language else None
    if code is None or not any(v.language == code for v in voices):
        code = detect_language(text)
    same = [v for v in voices if v.language == code]
    marked = [v for v in same if v.default]
    return (marked or same or list(voices))[0]


@dataclass(frozen=True)
class VoiceEntry:
    """A voice found on disk.

    Attributes:
        config: its parsed ``voice.json``.
        path: its directory.
    """

    config: VoiceConfig
    path: Path

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def language(self) -> str:
        return self.config.language

    @property
    def default(self) -> bool:
        return self.config.default


def load_voice_dir(path: str | os.PathLike[str]) -> VoiceEntry:
    """Read the voice in directory ``path`` (the explicit path API; never reached from a name)."""
    directory = Path(path).expanduser()
    config_file = directory / "voice.json"
    if not config_file.is_file():
        raise VoiceNotFoundError(f"{directory} is not a voice directory (no voice.json)")
    return VoiceEntry(VoiceConfig.load(config_file), directory.resolve())


def search_paths(extra: Sequence[str | os.PathLike[str]] | str | os.PathLike[str] | None = None) -> list[Path]:
    """Directories searched for voices, in priority order (see the module docstring)."""
    if extra is None:
        given: list[str | os.PathLike[str]] = []
    elif isinstance(extra, (str, os.PathLike)):
        given = [extra]
    else:
        given = list(extra)
    env = [p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]
    paths: list[Path] = []
    for p in [*given, *env, PACKAGE_VOICES]:
        path = Path(p).expanduser().resolve()
        if path not in paths:
            paths.append(path)
    return paths


class VoiceCatalog:
    """All voices on the search paths, read once (``voice.json`` files only; no graph is loaded).

    Attributes:
        paths: the directories searched, in priority order.
        entries: voices by name, in discovery order.
        problems: one line per voice directory that could not be read (shown by ``onestep doctor``).
    """

    def __init__(self, voices_dir: Sequence[str | os.PathLike[str]] | str | os.PathLike[str] | None = None) -> None:
        self.paths = search_paths(voices_dir)
        self.entries: dict[str, VoiceEntry] = {}
        self.problems: list[str] = []
        for root in self.paths:
            for directory in _voice_dirs(root):
                try:
                    entry = VoiceEntry(VoiceConfig.load(directory / "voice.json"), directory)
                except ConfigError as e:
                    self.problems.append(f"{directory}: {e}")
                    continue
                self.entries.setdefault(entry.name, entry)

    def names(self) -> list[str]:
        return list(self.entries)

    def get(self, name: str) -> VoiceEntry:
        """The voice called ``name``; raises :class:`VoiceNotFoundError` listing the available ones."""
        return self.resolve(name)

    def resolve(self, name: str | None = None, *, language: str | None = None, text: str = "") -> VoiceEntry:
        """:func:`choose_voice` over this catalog's voices (search order)."""
        if not self.entries:
            searched = ", ".join(str(p) for p in self.paths)
            raise VoiceNotFoundError(
                f"no voices found (searched {searched}); pass voices_dir/--voices-dir or set ${ENV_VAR}"
            )
        return choose_voice(list(self.entries.values()), name, language=language, text=text)

    def default_for(self, language: str) -> VoiceEntry:
        """The default voice of ``language`` (a registry code, ``"zh"``/``"en"``; rules in :func:`choose_voice`)."""
        return self.resolve(language=language)


def _voice_dirs(root: Path) -> Iterable[Path]:
    """Sub-directories of ``root`` that hold a ``voice.json``, sorted by name (``root`` itself too)."""
    if (root / "voice.json").is_file():
        yield root
    if root.is_dir():
        for child in sorted(root.iterdir()):
            if (child / "voice.json").is_file():
                yield child
