"""External normalization suites: NeMo text processing's ``written~spoken`` test cases (English, Mandarin), scored
leniently.

The suite is not shipped (its license and size): fetch it once, outside the repository (docs/FRONTEND.md)::

    pip download nemo_toolkit==1.5.1 --no-deps --no-binary :all: -d /tmp/nemo
    tar xzf /tmp/nemo/nemo_toolkit-1.5.1.tar.gz -C /tmp/nemo
    onestep eval-frontend --lang en \\
        --external /tmp/nemo/nemo_toolkit-1.5.1/tests/nemo_text_processing/en/data_text_normalization

``PATH`` is the folder of ``test_cases_<class>.txt`` files (or one such file). Two formats are read:

- ``written~spoken``, one case a line (NeMo's deterministic tests): the *suite* figure;
- ``~written`` followed by one accepted reading a line (``*normalize_with_audio*`` files: NeMo's
  non-deterministic tests, where any listed reading is right): reported apart, as ``audio``.

Lenient scoring (the issue's rule, the same for every system): lower case, punctuation and hyphens dropped,
the word "and" dropped, runs of single letters joined ("p m" = "PM" = "P.M."). Nothing else: where NeMo's
convention differs from ours (a two-digit year "zero five", "twenty three o'clock"), the case counts as a miss.

Mandarin (issue 24): NeMo's ``tests/nemo_text_processing/zh/data_text_normalization`` (same ``written~spoken``
format; in the GitHub repository, not in any ``nemo_text_processing`` sdist: docs/FRONTEND.md says how to fetch
it). A suite is Mandarin when its readings hold Chinese characters (:func:`suite_language`). Each case is read
as one Mandarin sentence (:func:`mandarin_reader`: the frontend's symbol pass in Mandarin words, the Mandarin
normalizer, Latin runs left in it read as the frontend reads them), whatever its script: "25kg" alone would be
an English sentence, but the suite tests the Mandarin normalizer. Scored by :func:`lenient_key_zh`: only Chinese
characters, Latin letters (lower-cased) and digits compared, so punctuation and spaces are ignored ("c e o" =
"CEO"); nothing else (二/两, 零 placement, 号/日, 千克/公斤, am/上午 all count), so NeMo's conventions that we do
not share count as misses.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import regex

_DROP = re.compile(r"[^\w' ]+|_")
_AND = re.compile(r"\band\b")
_LETTER_RUN = re.compile(r"\b[a-z](?: [a-z]\b)+")
_ZH_KEEP = regex.compile(r"[^\p{Han}\p{Latin}\p{N}]+")
_HAN = regex.compile(r"\p{Han}")


@dataclass(frozen=True)
class ExternalCase:
    """One case: the written text, its accepted readings, the class (from the file name) and the source line."""

    written: str
    readings: tuple[str, ...]
    cls: str
    source: str


@dataclass
class ClassScore:
    cls: str
    passed: int = 0
    total: int = 0
    failures: list[tuple[ExternalCase, str]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.passed / max(1, self.total)


def lenient_key(text: str) -> str:
    """The compared form: case, punctuation, hyphens and "and" ignored; single letters joined."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").lower().replace("-", " ")
    text = _DROP.sub(" ", text)
    text = " ".join(text.replace("'", "").split())
    text = _AND.sub(" ", text)
    text = " ".join(text.split())
    return _LETTER_RUN.sub(lambda m: m.group(0).replace(" ", ""), text)


def lenient_key_zh(text: str) -> str:
    """The compared form of Mandarin: Chinese characters, Latin letters (lower case) and digits, nothing else
    (punctuation and spaces ignored, so single letters are joined)."""
    return _ZH_KEEP.sub("", unicodedata.normalize("NFKC", text).lower())


def suite_language(cases: Iterable[ExternalCase]) -> str:
    """``"zh"`` when a reading holds a Chinese character, else ``"en"``."""
    return "zh" if any(_HAN.search(r) for c in cases for r in c.readings) else "en"


def key_for(lang: str) -> Callable[[str], str]:
    """The lenient key of a suite's language."""
    return lenient_key_zh if lang == "zh" else lenient_key


def mandarin_reader(frontend: object) -> Callable[[str], str]:
    """``text -> normalized text`` of ``text`` read as one Mandarin sentence by ``frontend`` (a
    :class:`onestep.frontend.pipeline.Frontend`): what the frontend says for it inside a Mandarin sentence,
    even when the case has no Chinese character ("25kg", "2934ad")."""
    from onestep.frontend.script import clean
    from onestep.frontend.segment import join_segment_texts
    from onestep.frontend.symbols_unicode import read_symbols

    def read(text: str) -> str:
        text, _ = read_symbols(text, "zh")
        text, _ = clean(text)
        segments = [s for s in frontend.hosted_sentence("zh", text) if s.phonemes]  # type: ignore[attr-defined] (an object here)
        return join_segment_texts(segments)

    return read


def _class_of(path: Path) -> str:
    name = path.stem.removeprefix("test_cases_")
    return "audio" if "normalize_with_audio" in name else name


def load_file(path: Path) -> list[ExternalCase]:
    """The cases of one ``test_cases_*.txt`` file (either format; empty inputs skipped)."""
    cls = _class_of(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    cases: list[ExternalCase] = []
    if "normalize_with_audio" in path.name:
        written: str | None = None
        options: list[str] = []
        for number, line in enumerate(lines + ["~"], 1):
            if line.startswith("~"):
                if written and options:
                    cases.append(ExternalCase(written, tuple(options), cls, f"{path.name}:{number}"))
                written, options = line[1:], []
            elif line.strip():
                options.append(line)
        return cases
    for number, line in enumerate(lines, 1):
        written, sep, spoken = line.partition("~")
        if not sep or not written.strip():
            continue
        cases.append(ExternalCase(written, (spoken,), cls, f"{path.name}:{number}"))
    return cases


def load(path: Path) -> list[ExternalCase]:
    """Every case under ``path`` (a folder of ``test_cases_*.txt`` files, or one file)."""
    files = [path] if path.is_file() else sorted(path.glob("test_cases_*.txt"))
    if not files:
        raise ValueError(f"no test_cases_*.txt under {path}")
    return [case for f in files for case in load_file(f)]


def score(
    cases: Iterable[ExternalCase], normalize: Callable[[str], str], key: Callable[[str], str] = lenient_key
) -> dict[str, ClassScore]:
    """``class -> ClassScore`` (in the order the classes first appear); ``key``: the compared form
    (:func:`lenient_key`, or :func:`lenient_key_zh` for a Mandarin suite)."""
    out: dict[str, ClassScore] = {}
    for case in cases:
        got = normalize(case.written)
        s = out.setdefault(case.cls, ClassScore(case.cls))
        s.total += 1
        if key(got) in {key(r) for r in case.readings}:
            s.passed += 1
        else:
            s.failures.append((case, got))
    return out


def totals(scores: dict[str, ClassScore], audio: bool = False) -> tuple[int, int]:
    """(passed, total) over the deterministic classes (``audio=False``) or the ``audio`` files alone."""
    chosen = [s for s in scores.values() if (s.cls == "audio") == audio]
    return sum(s.passed for s in chosen), sum(s.total for s in chosen)
