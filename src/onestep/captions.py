"""Word timestamps as files: JSON (every field), SRT and WebVTT (one cue per word, for captions and lip sync).

Takes :class:`onestep.api.WordTiming`-like objects (``text``, ``start``, ``end``, ``as_dict()``); imports
nothing of the package, so every layer may use it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any, Protocol

#: File extension -> caption format.
CAPTION_FORMATS = ("json", "srt", "vtt")


class Timed(Protocol):
    text: str
    start: float
    end: float

    def as_dict(self) -> dict[str, Any]: ...


def _clock(seconds: float, decimal: str) -> str:
    ms = max(0, round(seconds * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{decimal}{ms:03d}"


def to_srt(words: Sequence[Timed]) -> str:
    """SubRip: numbered cues ``HH:MM:SS,mmm --> HH:MM:SS,mmm``, one per word."""
    cues = [f"{i}\n{_clock(w.start, ',')} --> {_clock(w.end, ',')}\n{w.text}\n" for i, w in enumerate(words, 1)]
    return "\n".join(cues)


def to_vtt(words: Sequence[Timed]) -> str:
    """WebVTT: ``WEBVTT`` then ``HH:MM:SS.mmm --> HH:MM:SS.mmm`` cues, one per word."""
    cues = [f"{_clock(w.start, '.')} --> {_clock(w.end, '.')}\n{w.text}\n" for w in words]
    return "WEBVTT\n\n" + "\n".join(cues)


def to_json(words: Sequence[Timed], text: str) -> str:
    """``{"text": input, "words": [{text, spoken, start, end, char_start, char_end, phonemes}, ...]}``."""
    return json.dumps({"text": text, "words": [w.as_dict() for w in words]}, ensure_ascii=False, indent=1) + "\n"


def caption_format(path: str | os.PathLike[str]) -> str:
    """``json``, ``srt`` or ``vtt`` from the extension; ValueError for anything else."""
    suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if suffix not in CAPTION_FORMATS:
        raise ValueError(f"timestamps file must end in .json, .srt or .vtt, got {os.fspath(path)!r}")
    return suffix


def render(fmt: str, words: Sequence[Timed], text: str) -> str:
    """The file content of ``words`` in ``fmt`` (one of :data:`CAPTION_FORMATS`)."""
    return {"json": lambda: to_json(words, text), "srt": lambda: to_srt(words), "vtt": lambda: to_vtt(words)}[fmt]()
