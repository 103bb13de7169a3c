"""Frontend case tables: loading, the comparison rules, and pass rates by (lang, kind, category).

A table is ``frontend_cases/<lang>-<kind>-<category>.tsv`` (UTF-8), one case per line:
``input<TAB>expected<TAB>note (optional)``; lines starting with ``#`` and blank lines are skipped.

* kind ``norm``: ``expected`` is what a careful native reader says; the system's answer is the frontend's
  normalized text (``Utterance.normalized``). English is compared after lower-casing, dropping punctuation
  other than apostrophes and collapsing whitespace; Mandarin by its Chinese characters and its Latin letters
  (lower-cased), punctuation and spacing dropped (so an acronym spelled "G D P" matches "GDP"). Spanish, French,
  Italian, Portuguese and Hindi like English (lower case, punctuation but apostrophes dropped; Devanagari vowel
  signs kept); Japanese by its letters with spacing and punctuation dropped, katakana read as hiragana and long
  vowels written one way (じゅう, ジュー and じゅー compare equal). These six languages' answer is their
  normalizer's output alone (:data:`NORMALIZERS`), not the whole frontend's.
* kind ``pinyin``: ``expected`` is surface pinyin (neutral tone 5, sandhi applied, ``ü`` as ``v``), one
  syllable per Han character of the input, space-separated; the system's answer is the pinyin of the
  frontend's Mandarin segments. Compared syllable list to syllable list: a case passes when every syllable is
  right (the sentence-level figure); the syllable-level figure counts syllables right at their position.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import regex

from onestep.languages import language_codes

CASES_DIR = Path(__file__).parent / "frontend_cases"
KINDS = ("norm", "pinyin")
#: languages whose norm tables are scored on the whole frontend's normalized text (the two it mixes in a sentence)
WHOLE_FRONTEND = ("en", "zh")
#: every registered language (:mod:`onestep.languages`), the whole-frontend ones first
LANGS = WHOLE_FRONTEND + tuple(code for code in language_codes() if code not in WHOLE_FRONTEND)
# languages whose norm tables are scored on their normalizer alone: code -> "module:function"
NORMALIZERS = {code: f"onestep.frontend.{code}.normalize:normalize_{code}"
               for code in LANGS if code not in WHOLE_FRONTEND}

_EN_DROP = regex.compile(r"[^\p{L}\p{N}'\s]")
_ZH_DROP = regex.compile(r"[^\p{Han}\p{Latin}\p{N}']")
_ZH_UNITS = regex.compile(r"\p{Han}|[\p{Latin}\p{N}']+")
_SPACED_DROP = regex.compile(r"[^\p{L}\p{M}\p{N}'\s]")
_JA_DROP = regex.compile(r"[^\p{L}\p{M}\p{N}ー]")
_JA_LONG = regex.compile(r"(?<=[おこごそぞとどのほぼぽもよょろを])[うお]|(?<=[うくぐすずつづぬふぶぷむゆゅる])う")


@dataclass(frozen=True)
class Case:
    """One row of a case table."""

    input: str
    expected: str
    note: str = ""
    line: int = 0


@dataclass
class CaseTable:
    """A case table file.

    Attributes:
        lang: one of :data:`LANGS`.
        kind: ``"norm"`` or ``"pinyin"``.
        category: e.g. ``"dates"``, ``"polyphones"``.
        cases: its rows in file order.
    """

    lang: str
    kind: str
    category: str
    path: Path
    cases: list[Case] = field(default_factory=list)


def load_table(path: Path) -> CaseTable:
    """Read one ``<lang>-<kind>-<category>.tsv`` table.

    Raises:
        ValueError: a badly named file or a row without an input and an expected answer.
    """
    parts = path.stem.split("-", 2)
    if len(parts) != 3 or parts[0] not in LANGS or parts[1] not in KINDS or not parts[2]:
        raise ValueError(f"{path.name}: expected <lang>-<kind>-<category>.tsv with lang in {LANGS}, kind in {KINDS}")
    table = CaseTable(parts[0], parts[1], parts[2], path)
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cols = raw.split("\t")
        if len(cols) < 2 or not cols[0].strip() or not cols[1].strip():
            raise ValueError(f"{path.name}:{number}: need 'input<TAB>expected[<TAB>note]', got {raw!r}")
        table.cases.append(Case(cols[0], cols[1].strip(), cols[2].strip() if len(cols) > 2 else "", number))
    return table


def load_tables(folder: Path = CASES_DIR, langs: Iterable[str] = LANGS) -> list[CaseTable]:
    """Every table in ``folder`` of the given languages, sorted by file name."""
    wanted = set(langs)
    return [t for t in map(load_table, sorted(folder.glob("*.tsv"))) if t.lang in wanted]


def norm_key(lang: str, text: str) -> str:
    """The form in which normalized text is compared (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'")
    if lang == "en":
        return " ".join(_EN_DROP.sub(" ", text.lower()).split())
    if lang == "ja":
        text = "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in _JA_DROP.sub("", text))
        return _JA_LONG.sub("ー", text)
    if lang != "zh":
        return " ".join(_SPACED_DROP.sub(" ", text.lower()).split())
    return " ".join(_ZH_UNITS.findall(_ZH_DROP.sub("", text.lower())))


def language_normalizer(lang: str) -> Callable[[str], str]:
    """The normalizer function of one of :data:`NORMALIZERS`' languages (imported on call)."""
    import importlib

    module, _, name = NORMALIZERS[lang].partition(":")
    return getattr(importlib.import_module(module), name)


def pinyin_key(syllables: Iterable[str]) -> str:
    """Syllables in the compared form: lower case, ``ü``/``u:`` as ``v``, single spaces."""
    return " ".join(s.strip().lower().replace("ü", "v").replace("u:", "v") for s in syllables if s.strip())


@dataclass(frozen=True)
class Outcome:
    """One case's result: what the system answered, in compared form, and whether it passed."""

    table: CaseTable
    case: Case
    got: str
    want: str

    @property
    def passed(self) -> bool:
        return self.got == self.want

    def units(self) -> tuple[int, int]:
        """``(right, total)`` compared units: for pinyin the expected syllables, right where the answer has the
        same syllable at the same position (a missing or extra syllable counts against every one after it only
        up to the shorter length); for norm the whole case, 1 or 0 of 1."""
        if self.table.kind != "pinyin":
            return int(self.passed), 1
        want, got = self.want.split(), self.got.split()
        return sum(a == b for a, b in zip(want, got)), len(want)


def run_tables(
    tables: Iterable[CaseTable], normalize: Callable[[str], str], pinyin: Callable[[str], list[str]]
) -> list[Outcome]:
    """Run every case through the system.

    Args:
        normalize: input text -> normalized text (English and Mandarin; the languages of :data:`NORMALIZERS`
            are scored on their own normalizer).
        pinyin: input text -> surface pinyin syllables of its Chinese characters.
    """
    out: list[Outcome] = []
    for table in tables:
        for case in table.cases:
            if table.kind == "norm":
                answer = language_normalizer(table.lang)(case.input) if table.lang in NORMALIZERS else \
                    normalize(case.input)
                got, want = norm_key(table.lang, answer), norm_key(table.lang, case.expected)
            else:
                got, want = pinyin_key(pinyin(case.input)), pinyin_key(case.expected.split())
            out.append(Outcome(table, case, got, want))
    return out


@dataclass(frozen=True)
class Rate:
    """Pass rate of one (lang, kind, category): whole cases (for pinyin, sentences with no wrong syllable) and
    units (pinyin syllables)."""

    lang: str
    kind: str
    category: str
    passed: int
    total: int
    units_right: int = 0
    units_total: int = 0

    @property
    def rate(self) -> float:
        """Share of whole cases (sentences) passed."""
        return self.passed / self.total if self.total else 0.0

    @property
    def unit_rate(self) -> float:
        """Share of units right (pinyin: syllables; norm: cases, so equal to :attr:`rate`)."""
        return self.units_right / self.units_total if self.units_total else 0.0


def pass_rates(outcomes: Iterable[Outcome]) -> list[Rate]:
    """Pass rates grouped by (lang, kind, category), in that sort order."""
    groups: dict[tuple[str, str, str], list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault((o.table.lang, o.table.kind, o.table.category), []).append(o)
    rates = []
    for key, group in sorted(groups.items()):
        units = [o.units() for o in group]
        rates.append(Rate(*key, sum(o.passed for o in group), len(group), sum(r for r, _ in units),
                          sum(t for _, t in units)))
    return rates
