"""Word timestamps as files: JSON (every field), SRT and WebVTT captions (one cue per word, or per sentence).

Takes :class:`onestep.api.WordTiming`-like objects (``text``, ``start``, ``end``, ``char_start``, ``char_end``,
``as_dict()``); imports nothing of the package, so every layer may use it.

Caption cues come in two sizes (:data:`CUE_UNITS`): ``words`` (the default: one cue per word, for lip sync and
karaoke-style highlighting) and ``sentences`` (one cue per sentence, cut further where a sentence would make a
cue longer than :data:`MAX_CUE_CHARS` characters or :data:`MAX_CUE_SECONDS` seconds, for subtitles).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

#: File extension -> caption format.
CAPTION_FORMATS = ("json", "srt", "vtt")
#: What one SRT/VTT cue holds.
CUE_UNITS = ("words", "sentences")
#: A sentence cue is cut before it grows past this many characters (two subtitle lines of ~42)...
MAX_CUE_CHARS = 84
#: ...or lasts longer than this, seconds.
MAX_CUE_SECONDS = 7.0
_SENTENCE_END = frozenset(".!?。！？…;；")
_CLOSERS = frozenset("\"')]}»”’」』）")


class Timed(Protocol):
    text: str
    start: float
    end: float

    def as_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Cue:
    """One caption: its text and its time span, seconds from the start of the audio."""

    text: str
    start: float
    end: float


def _clock(seconds: float, decimal: str) -> str:
    ms = max(0, round(seconds * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{decimal}{ms:03d}"


def _offsets(word: Timed) -> tuple[int, int]:
    return getattr(word, "char_start", -1), getattr(word, "char_end", -1)


def _is_cjk(ch: str) -> bool:
    return "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\u3000" <= ch <= "\u303f"


def _join(words: Sequence[Timed]) -> str:
    """Word texts joined: no space between two CJK words, one space otherwise."""
    out = ""
    for w in words:
        text = w.text.strip()
        if out and text and not (_is_cjk(out[-1]) and _is_cjk(text[0])):
            out += " "
        out += text
    return out


def _cue_text(words: Sequence[Timed], text: str) -> str:
    """The cue's words as written: the input from the first word to the last (with the punctuation that
    closes the sentence), or the word texts joined where offsets are missing or the input is markup."""
    first, _ = _offsets(words[0])
    _, last = _offsets(words[-1])
    if text and "<" not in text and 0 <= first < last <= len(text) and all(_offsets(w)[0] >= 0 for w in words):
        end = last
        while end < len(text) and (text[end] in _SENTENCE_END or text[end] in _CLOSERS or text[end] in ",，、"):
            end += 1
        return " ".join(text[first:end].split())
    return _join(words)


def _ends_sentence(word: Timed, following: Timed | None, text: str) -> bool:
    """True when a sentence ends after ``word``: sentence punctuation between it and the next word."""
    if following is None:
        return True
    _, end = _offsets(word)
    start, _ = _offsets(following)
    if text and 0 <= end <= start <= len(text):
        between = text[end:start]
    else:
        between = word.text[-1:]
    return any(ch in _SENTENCE_END for ch in between)


def sentence_cues(
    words: Sequence[Timed], text: str = "", max_chars: int = MAX_CUE_CHARS, max_seconds: float = MAX_CUE_SECONDS
) -> list[Cue]:
    """One cue per sentence of ``words`` (sentences end at ``.!?。！？…;`` in ``text`` between two words),
    a long sentence cut into cues of at most ``max_chars`` characters and ``max_seconds`` seconds (a single
    word longer than that is a cue of its own). ``text``: the input the words' offsets point into."""
    cues: list[Cue] = []
    group: list[Timed] = []
    for i, word in enumerate(words):
        if group and (
            len(_cue_text([*group, word], text)) > max_chars or word.end - group[0].start > max_seconds
        ):  # fmt: skip
            cues.append(Cue(_cue_text(group, text), group[0].start, group[-1].end))
            group = []
        group.append(word)
        if _ends_sentence(word, words[i + 1] if i + 1 < len(words) else None, text):
            cues.append(Cue(_cue_text(group, text), group[0].start, group[-1].end))
            group = []
    return cues


def word_cues(words: Sequence[Timed]) -> list[Cue]:
    """One cue per word."""
    return [Cue(w.text, w.start, w.end) for w in words]


def cues(words: Sequence[Timed], text: str = "", unit: str = "words") -> list[Cue]:
    """The cues of ``words`` per ``unit`` (one of :data:`CUE_UNITS`); ValueError for another unit."""
    if unit not in CUE_UNITS:
        raise ValueError(f"caption cues are per {' or '.join(CUE_UNITS)}, got {unit!r}")
    return sentence_cues(words, text) if unit == "sentences" else word_cues(words)


def to_srt(words: Sequence[Timed], text: str = "", unit: str = "words") -> str:
    """SubRip: numbered cues ``HH:MM:SS,mmm --> HH:MM:SS,mmm``, one per word or per sentence (``unit``)."""
    timed = enumerate(cues(words, text, unit), 1)
    return "\n".join(f"{i}\n{_clock(c.start, ',')} --> {_clock(c.end, ',')}\n{c.text}\n" for i, c in timed)


def to_vtt(words: Sequence[Timed], text: str = "", unit: str = "words") -> str:
    """WebVTT: ``WEBVTT`` then ``HH:MM:SS.mmm --> HH:MM:SS.mmm`` cues, one per word or per sentence (``unit``)."""
    body = [f"{_clock(c.start, '.')} --> {_clock(c.end, '.')}\n{c.text}\n" for c in cues(words, text, unit)]
    return "WEBVTT\n\n" + "\n".join(body)


def to_json(words: Sequence[Timed], text: str) -> str:
    """``{"text": input, "words": [{text, spoken, start, end, char_start, char_end, phonemes}, ...]}``."""
    return json.dumps({"text": text, "words": [w.as_dict() for w in words]}, ensure_ascii=False, indent=1) + "\n"


def caption_format(path: str | os.PathLike[str]) -> str:
    """``json``, ``srt`` or ``vtt`` from the extension; ValueError for anything else."""
    suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if suffix not in CAPTION_FORMATS:
        raise ValueError(f"timestamps file must end in .json, .srt or .vtt, got {os.fspath(path)!r}")
    return suffix


def render(fmt: str, words: Sequence[Timed], text: str, unit: str = "words") -> str:
    """The file content of ``words`` in ``fmt`` (one of :data:`CAPTION_FORMATS`); ``unit`` sizes SRT/VTT cues
    (JSON always lists every word)."""
    renderers = {
        "json": lambda: to_json(words, text),
        "srt": lambda: to_srt(words, text, unit),
        "vtt": lambda: to_vtt(words, text, unit),
    }
    return renderers[fmt]()
