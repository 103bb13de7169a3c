"""Which voice speaks a request: the one it names (a name or a voice directory), else the instance's, else the
default voice of the text's language; read in a requested language when one is given."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from onestep.config import VoiceConfig
from onestep.languages import DEFAULT_LANGUAGE, get_language
from onestep.runtime.voices import VoiceCatalog, VoiceEntry, VoiceNotFoundError, load_voice_dir, voice_ref

VoiceArg = str | os.PathLike[str] | None


class VoiceChoice:
    """The voices of one :class:`onestep.TTS`: its ``catalog``, and ``default``, the voice given at construction
    (every call that names none speaks with it; None: each text's language chooses)."""

    def __init__(self, catalog: VoiceCatalog, voice: VoiceArg = None) -> None:
        self.catalog = catalog
        self.default: VoiceEntry | None = None
        if voice is not None:
            self.default = self.entry(voice, "")

    def configs(self) -> list[VoiceConfig]:
        """Configs of the voices this instance can use (the one given by path first)."""
        configs = [e.config for e in self.catalog.entries.values()]
        if self.default is not None and self.default.name not in self.catalog.entries:
            configs.insert(0, self.default.config)
        return configs

    @property
    def sample_rate(self) -> int:
        """Hz of the default voice (all shipped voices share one rate)."""
        entry = self.default or self.catalog.default_for(DEFAULT_LANGUAGE)
        return entry.config.audio.sample_rate

    def entry(self, voice: VoiceArg, text: str, language: str | None = None) -> VoiceEntry:
        """The voice of a call; with ``language`` (a registry code), that voice reading the language: with no
        voice given, the language's default voice; else the given voice, its text read in ``language``."""
        if language is None:
            return self.named(voice, text)
        get_language(language)  # an unknown code is a UserError naming the known ones
        if voice is None and self.default is None:
            entry = self.catalog.resolve(language=language)
        else:
            entry = self.named(voice, text)
        return reading(entry, language)

    def named(self, voice: VoiceArg, text: str) -> VoiceEntry:
        """The voice ``voice`` names (None: the default voice, else the one of ``text``'s language).

        Raises:
            VoiceNotFoundError: no voice of that name.
            TypeError: ``voice`` is neither a name, a path nor None.
        """
        if voice is None:
            return self.default or self.catalog.resolve(text=text)
        if isinstance(voice, os.PathLike):
            return load_voice_dir(voice)
        if isinstance(voice, str):
            if self.default is not None and voice == self.default.name:
                return self.default
            try:
                return self.catalog.resolve(voice)
            except VoiceNotFoundError as e:
                if isinstance(voice_ref(voice), Path):  # the one name-or-path rule
                    raise VoiceNotFoundError(f"{e} (to load a voice directory pass a pathlib.Path)") from None
                raise
        raise TypeError(f"voice must be a name, a pathlib.Path or None, got {type(voice).__name__}")


def reading(entry: VoiceEntry, language: str) -> VoiceEntry:
    """``entry`` reading its text in ``language`` (every voice of a multi-speaker model reads every language:
    the frontend reads Latin-script text, Han characters, digits, in that language)."""
    if entry.config.language == language:
        return entry
    return dataclasses.replace(entry, config=dataclasses.replace(entry.config, language=language))
