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

import dataclasses
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from onestep.config import ConfigError, SpeakerInfo, VoiceConfig, int8_path
from onestep.errors import UserError
from onestep.languages import detect_language, language_from_tag
from onestep.runtime.speakers import SpeakerMix, default_speaker

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


class VoiceBlendError(UserError, ValueError):
    """A blend that cannot be made (voices of different models, a single-speaker voice, bad weights)."""


_WEIGHT = r"(?:\d+(?:\.\d*)?|\.\d+)"
_COMPONENT = re.compile(rf"([A-Za-z0-9_-]{{1,64}})(?::({_WEIGHT})|\(({_WEIGHT})\))?")
MAX_BLEND = 8
#: Largest weight of one blend component (weights are relative: a larger one only overflows).
MAX_BLEND_WEIGHT = 1000.0


@dataclass(frozen=True)
class VoiceSpec:
    """A parsed voice string (what a request's ``voice`` names): one voice, or a blend of voices.

    Attributes:
        components: (voice name, weight) pairs, weights normalized to sum to 1; one pair for a plain name.

    Syntax (docs/VOICES.md): ``en-heart``; a blend ``en-heart:0.7+en-bella:0.3`` (weights need not sum to
    1; a component without a weight counts 1); Kokoro-FastAPI's ``en-heart(2)+en-bella(1)`` is the same.
    """

    components: tuple[tuple[str, float], ...]

    @property
    def is_blend(self) -> bool:
        return len(self.components) > 1

    @property
    def name(self) -> str:
        """The canonical string: the plain name, or ``a:0.7+b:0.3`` (weights to 4 decimals, given order)."""
        if not self.is_blend:
            return self.components[0][0]
        return "+".join(f"{n}:{w:.4f}".rstrip("0").rstrip(".") for n, w in self.components)


def parse_voice(spec: str) -> VoiceSpec:
    """Parse a request's voice string (a name or a blend, see :class:`VoiceSpec`); raises
    :class:`VoiceNotFoundError` for a malformed one (never a path: names are only compared with listed
    names) and :class:`VoiceBlendError` for bad weights."""
    if not isinstance(spec, str) or len(spec) > 600:
        raise VoiceNotFoundError(f"unknown voice {_shown(spec)!r}")
    parts = [part.strip(" ") for part in spec.split("+")]
    if len(parts) > MAX_BLEND:
        raise VoiceBlendError(f"a blend has at most {MAX_BLEND} voices, got {len(parts)}")
    weights: dict[str, float] = {}
    for part in parts:
        match = _COMPONENT.fullmatch(part)
        if match is None:
            raise VoiceNotFoundError(f"unknown voice {_shown(spec)!r}")
        name, colon, paren = match.groups()
        weight = float(colon or paren or 1.0)
        if not math.isfinite(weight) or weight > MAX_BLEND_WEIGHT:  # 400 nines: inf, then NaN weights
            raise VoiceBlendError(f"blend weights must be at most {MAX_BLEND_WEIGHT:g}: {_shown(spec)!r}")
        weights[name] = weights.get(name, 0.0) + weight
    total = sum(weights.values())
    if total <= 0 or not all(w >= 0 for w in weights.values()):
        raise VoiceBlendError(f"blend weights must be >= 0 and not all 0: {_shown(spec)!r}")
    return VoiceSpec(tuple((n, w / total) for n, w in weights.items() if w > 0))


#: OpenAI voice names -> our voices, the first one present wins (docs/VOICES.md). Kokoro ships English voices
#: named after six of them (af_alloy, af_nova, af_sky as "shimmer", am_echo, am_onyx, bm_fable); the others follow
#: Kokoro-FastAPI's alias table where its target is one of ours, and the rest take a distinct English voice.
OPENAI_VOICES: dict[str, tuple[str, ...]] = {
    "alloy": ("en-alloy", "en-heart"),
    "echo": ("en-echo", "en-michael"),
    "fable": ("en-fable", "en-george"),
    "nova": ("en-nova", "en-bella"),
    "onyx": ("en-onyx", "en-fenrir"),
    "shimmer": ("en-sky", "en-sarah"),
    "ash": ("en-nicole",),
    "coral": ("en-emma",),
    "sage": ("en-michael",),
    "ballad": ("en-george",),
    "verse": ("en-puck",),
    "marin": ("en-sarah",),
    "cedar": ("en-fenrir",),
}

SEED_PREFIX = "seed:"
_SEED = re.compile(r"seed:(\d{1,18})((?::[A-Za-z_-]{1,16}){0,2})", re.IGNORECASE)
SEED_MIX = 3  # voices mixed into one seeded voice
_GENDER_WORDS = ("female", "male")


def is_seed(name: object) -> bool:
    """True for a seeded-voice string (``seed:1234``, ``seed:1234:female``, ``seed:1234:ja:male``)."""
    return isinstance(name, str) and name[: len(SEED_PREFIX)].lower() == SEED_PREFIX


def seeded_blend(voices: Sequence[V], name: str) -> tuple[str, VoiceSpec]:
    """The voice a seed stands for: a mix of up to :data:`SEED_MIX` voices of one language (the seed's
    ``:<language>`` qualifier, else :data:`~onestep.languages.DEFAULT_LANGUAGE`) and one gender (``:female`` /
    ``:male``, else drawn by the seed), with weights, all drawn by numpy's PCG64 generator seeded with the
    number: the same voice for the same seed on every machine and engine (given the same voice list).

    Returns (the canonical seed string, the blend); :class:`VoiceNotFoundError` for a malformed seed or when
    no voice fits its qualifiers."""
    import numpy as np

    from onestep.languages import DEFAULT_LANGUAGE, language_codes

    m = _SEED.fullmatch(name.strip()) if isinstance(name, str) else None
    if m is None:
        raise VoiceNotFoundError(
            f"malformed seeded voice {_shown(name)!r}: use seed:<number>[:<language>][:female|:male], e.g. seed:1234:en"
        )
    language, gender = DEFAULT_LANGUAGE, ""
    for qualifier in [q.lower() for q in m.group(2).split(":") if q]:
        if qualifier in _GENDER_WORDS:
            gender = qualifier
        elif qualifier in language_codes():
            language = qualifier
        else:
            raise VoiceNotFoundError(
                f"seeded voice {_shown(name)!r}: {qualifier!r} is neither a language ({', '.join(language_codes())}) "
                "nor female/male"
            )
    rng = np.random.default_rng(int(m.group(1)))
    same = sorted((v for v in voices if v.language == language), key=lambda v: v.name)
    genders = sorted({getattr(v, "gender", "") for v in same} - {""})
    drawn = genders[int(rng.integers(len(genders)))] if genders else ""  # drawn always: same seed, same stream
    pool = [v for v in same if getattr(v, "gender", "") == (gender or drawn)] or same
    if not pool or (gender and getattr(pool[0], "gender", "") != gender):
        raise VoiceNotFoundError(f"no {gender + ' ' if gender else ''}voice of language {language!r} to draw {name!r} from")
    k = min(SEED_MIX, len(pool))
    picks = rng.choice(len(pool), size=k, replace=False)
    weights = rng.dirichlet(np.ones(k)) if k > 1 else np.ones(1)
    canonical = ":".join(["seed", str(int(m.group(1))), *([language] if language != DEFAULT_LANGUAGE else []),
                          *([gender] if gender else [])])
    return canonical, VoiceSpec(tuple((pool[int(i)].name, round(float(w), 4)) for i, w in zip(picks, weights)))


def canonical_voice(voices: Sequence[V], name: str) -> str:
    """Check a request's voice string against listed voices without loading anything: the canonical name
    (a blend's every component must exist); :class:`VoiceNotFoundError` / :class:`VoiceBlendError` if not.
    Whether a blend's voices share a model is checked where it is built (:meth:`VoiceCatalog.resolve`)."""
    if is_seed(name):
        return seeded_blend(voices, name)[0]
    spec = parse_voice(name)
    if not spec.is_blend:
        return choose_voice(voices, name).name
    for component, _ in spec.components:
        choose_voice(voices, component)
    return spec.name


def _shown(spec: object) -> object:
    """A voice string as error messages quote it (at most 64 characters)."""
    return spec[:64] + "..." if isinstance(spec, str) and len(spec) > 64 else spec


def choose_voice(voices: Sequence[V], name: str | None = None, *, language: str | None = None, text: str = "") -> V:
    """The voice a request gets: the one rule for every entry point (API, HTTP, WebSocket, Wyoming).

    1. ``name`` given: the voice of that name (:func:`parse_voice`), or of that OpenAI voice name
       (:data:`OPENAI_VOICES`), else :class:`VoiceNotFoundError` listing the voices.
    2. else the default voice of ``language`` (a code or a tag such as ``"en_US"``) when some voice speaks it,
    3. else the default voice of ``text``'s language (:func:`onestep.languages.detect_language`).

    A language's default voice is the first of its voices marked ``default``, else its first voice; with no
    voice of the language, the first voice of any.
    """
    if not voices:
        raise VoiceNotFoundError("no voices found")
    if name is not None:
        try:
            spec = parse_voice(name)
            wanted: str | None = None if spec.is_blend else spec.name
        except (VoiceNotFoundError, VoiceBlendError):
            wanted = None
        for voice in voices:
            if voice.name == wanted:
                return voice
        for alias in OPENAI_VOICES.get(name.lower() if isinstance(name, str) else "", ()):
            found = next((v for v in voices if v.name == alias), None)
            if found is not None:
                return found
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
    """A voice found on disk: a single-speaker voice directory, one voice of a multi-speaker model, or a
    blend of a model's voices.

    Attributes:
        config: its ``voice.json``; for a voice of a multi-speaker model, the model's with this voice's name,
            language, default flag and teacher (:func:`speaker_config`).
        path: the directory of its graphs (shared by every voice of a model).
        mix: rows of the model's speaker table and their weights; None for a single-speaker voice.
        label: a blend's canonical name (:attr:`VoiceSpec.name`); None = ``config.name``.
    """

    config: VoiceConfig
    path: Path
    mix: SpeakerMix | None = None
    label: str | None = None

    @property
    def name(self) -> str:
        return self.label or self.config.name

    @property
    def gender(self) -> str:
        """``"female"``/``"male"`` of a multi-speaker model's voice (its speaker row), else ``""``."""
        speaker = self.speaker
        return speaker.gender if speaker is not None else ""

    @property
    def speaker(self) -> SpeakerInfo | None:
        """The voice's row description in a multi-speaker model (None for a single-speaker voice or a blend)."""
        if self.mix is None or len(self.mix) != 1 or self.label is not None:
            return None
        return self.config.speakers[self.mix[0][0]]

    @property
    def language(self) -> str:
        return self.config.language

    @property
    def default(self) -> bool:
        return self.config.default


def voice_ref(value: str | os.PathLike[str] | None) -> str | Path | None:
    """A voice as a user typed it (``--voice``, a batch job's voice): a value with a path separator is a voice
    directory (a :class:`~pathlib.Path`, loaded by :func:`load_voice_dir`), anything else a name or blend for
    the catalog. The one place that tells them apart; servers never call it (their voices are names only)."""
    if value is None or isinstance(value, Path):
        return value
    text = os.fspath(value)
    if isinstance(value, os.PathLike) or "/" in text or "\\" in text or os.sep in text:
        return Path(text)
    return text


def load_voice_dir(path: str | os.PathLike[str]) -> VoiceEntry:
    """Read the voice in directory ``path`` (the explicit path API; never reached from a name)."""
    directory = Path(path).expanduser()
    config_file = directory / "voice.json"
    if not config_file.is_file():
        raise VoiceNotFoundError(f"{directory} is not a voice directory (no voice.json)")
    config = VoiceConfig.load(config_file)
    entries = entries_of(config, directory.resolve())
    return entries[default_speaker(config)] if config.multi_speaker else entries[0]


def missing_files(config: VoiceConfig, directory: Path) -> list[str]:
    """The files ``config`` names (graphs, speaker table) that ``directory`` lacks; a graph's INT8 variant
    (:func:`onestep.config.int8_path`) stands for it."""
    return [
        name
        for name in config.files.values()
        if not (directory / name).is_file() and not int8_path(directory / name).is_file()
    ]


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
                    config = VoiceConfig.load(directory / "voice.json")
                except ConfigError as e:
                    self.problems.append(f"{directory}: {e}")
                    continue
                missing = missing_files(config, directory)
                if missing:  # an interrupted copy, a clone without its large files: not a voice to offer
                    self.problems.append(f"{directory}: missing {', '.join(missing)} (named in voice.json)")
                    continue
                found = entries_of(config, directory)
                for entry in found:
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
        if name is not None and is_seed(name):
            canonical, seeded = self.seeded(name)
            return dataclasses.replace(self._blend(seeded), label=canonical)
        if name is not None:
            try:
                spec: VoiceSpec | None = parse_voice(name)
            except VoiceNotFoundError:
                spec = None  # choose_voice's message lists the voices
            if spec is not None and spec.is_blend:
                return self._blend(spec)
        return choose_voice(list(self.entries.values()), name, language=language, text=text)

    def seeded(self, name: str) -> tuple[str, VoiceSpec]:
        """:func:`seeded_blend` over the voices of the first multi-speaker model in search order: the canonical
        seed string and the blend it stands for."""
        models = [e for e in self.entries.values() if e.mix is not None]
        return seeded_blend([e for e in models if e.path == models[0].path] if models else [], name)

    def _blend(self, spec: VoiceSpec) -> VoiceEntry:
        """The voice of a blend: its components' rows, weighted (all of one multi-speaker model)."""
        voices = list(self.entries.values())
        parts = [(choose_voice(voices, name), weight) for name, weight in spec.components]
        if any(entry.mix is None for entry, _ in parts) or len({entry.path for entry, _ in parts}) > 1:
            names = ", ".join(entry.name for entry, _ in parts)
            raise VoiceBlendError(f"cannot blend {names}: only voices of one multi-speaker model blend")
        rows: dict[int, float] = {}
        for entry, weight in parts:
            for row, w in entry.mix or ():
                rows[row] = rows.get(row, 0.0) + weight * w
        heaviest = max(parts, key=lambda p: p[1])[0]
        return VoiceEntry(heaviest.config, heaviest.path, tuple(rows.items()), spec.name)

    def default_for(self, language: str) -> VoiceEntry:
        """The default voice of ``language`` (a registry code, ``"zh"``/``"en"``; rules in :func:`choose_voice`)."""
        return self.resolve(language=language)


def speaker_config(config: VoiceConfig, speaker: SpeakerInfo) -> VoiceConfig:
    """A multi-speaker model's config as one of its voices: the voice's name, language, default and teacher."""
    return dataclasses.replace(
        config, name=speaker.name, language=speaker.language, default=speaker.default,
        teacher=speaker.teacher or config.teacher,
    )  # fmt: skip


def entries_of(config: VoiceConfig, directory: Path) -> list[VoiceEntry]:
    """The voices of a voice directory: itself, or each voice of a multi-speaker model (table order)."""
    if not config.multi_speaker:
        return [VoiceEntry(config, directory)]
    return [VoiceEntry(speaker_config(config, s), directory, ((i, 1.0),)) for i, s in enumerate(config.speakers)]


def _voice_dirs(root: Path) -> Iterable[Path]:
    """Sub-directories of ``root`` that hold a ``voice.json``, sorted by name (``root`` itself too)."""
    if (root / "voice.json").is_file():
        yield root
    if root.is_dir():
        for child in sorted(root.iterdir()):
            if (child / "voice.json").is_file():
                yield child
