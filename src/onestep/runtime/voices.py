"""Finding voices: search paths, name lookup, and the default voice for a text's language.

A voice is a directory holding ``voice.json`` (:class:`onestep.config.VoiceConfig`) and its ONNX graphs.
Voices are searched, in this order (an earlier path shadows a later voice of the same name):

1. directories given by the caller (``TTS(voices_dir=...)``, ``--voices-dir``);
2. ``$ONESTEP_VOICES`` (``os.pathsep``-separated directories);
3. the voices shipped inside the package (``onestep/voices/<name>/``).

Lookup by name only ever matches names found there; a name can never be a path, so a server that passes
user input to :meth:`VoiceCatalog.get` cannot be made to open arbitrary directories.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from onestep.config import ConfigError, VoiceConfig

ENV_VAR = "ONESTEP_VOICES"
PACKAGE_VOICES = Path(__file__).resolve().parent.parent / "voices"
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class VoiceNotFoundError(LookupError):
    """No voice matches; the message lists the voices that exist."""


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
        if not isinstance(name, str) or not _NAME.fullmatch(name) or name not in self.entries:
            available = ", ".join(self.entries) or "none"
            raise VoiceNotFoundError(f"unknown voice {name!r}; available voices: {available}")
        return self.entries[name]

    def default_for(self, language: str) -> VoiceEntry:
        """The default voice of ``language`` (a registry code, ``"zh"``/``"en"``).

        Prefers a voice whose ``voice.json`` has ``default: true``, then the first voice of that
        language in search order; with none of that language, the first voice of any language.
        """
        if not self.entries:
            searched = ", ".join(str(p) for p in self.paths)
            raise VoiceNotFoundError(
                f"no voices found (searched {searched}); pass voices_dir/--voices-dir or set ${ENV_VAR}"
            )
        same = [e for e in self.entries.values() if e.config.language == language]
        marked = [e for e in same if e.config.default]
        return (marked or same or list(self.entries.values()))[0]


def _voice_dirs(root: Path) -> Iterable[Path]:
    """Sub-directories of ``root`` that hold a ``voice.json``, sorted by name (``root`` itself too)."""
    if (root / "voice.json").is_file():
        yield root
    if root.is_dir():
        for child in sorted(root.iterdir()):
            if (child / "voice.json").is_file():
                yield child
