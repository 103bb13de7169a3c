"""The held-out evaluation sentences shipped with the package (``heldout_<lang>.txt`` for en, zh, ja, es, fr, it,
pt, hi).

File format: UTF-8, one sentence per line; a line ``# section: NAME (...)`` starts a section (``corpus`` lines
are held out of training, ``normalization`` lines were written to exercise numbers, dates, money, units and
acronyms). How the sets were built is in docs/EVAL.md; Tatoeba attributions are in
``heldout_zh_attribution.tsv``. The ja, es, fr, it, pt and hi sets are the last 40 lines of
``shared/corpus/<lang>_train.txt`` (inside the 150 lines training never reads, Common Voice CC0 text; the file's
header names the source).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from onestep_dev.eval.textnorm import EVAL_LANGS, Lang

_SECTION = re.compile(r"#\s*section:\s*(\w+)")


@dataclass(frozen=True)
class Sentence:
    """One evaluation sentence: ``id`` like ``"en-007"``, its ``section`` and ``text``."""

    id: str
    section: str
    text: str


def parse_sentences(lines: list[str], lang: str) -> list[Sentence]:
    """Parse held-out file lines (comments start sections; blank lines are skipped)."""
    section = "default"
    out: list[Sentence] = []
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = _SECTION.match(line)
            if m:
                section = m.group(1)
            continue
        out.append(Sentence(f"{lang}-{len(out) + 1:03d}", section, line))
    return out


def load_heldout(lang: Lang) -> list[Sentence]:
    """All held-out sentences of ``lang`` (one of :data:`~onestep_dev.eval.textnorm.EVAL_LANGS`) in file order."""
    if lang not in EVAL_LANGS:
        raise ValueError(f"no held-out set for language {lang!r}; expected one of {', '.join(EVAL_LANGS)}")
    text = resources.files("onestep_dev.eval").joinpath(f"heldout_{lang}.txt").read_text(encoding="utf-8")
    return parse_sentences(text.splitlines(), lang)


def select(sentences: list[Sentence], limit: int | None) -> list[Sentence]:
    """At most ``limit`` sentences, spread evenly over the list so every section is represented."""
    if limit is None or limit >= len(sentences):
        return list(sentences)
    if limit <= 0:
        raise ValueError(f"limit must be positive, got {limit}")
    step = len(sentences) / limit
    return [sentences[int(i * step)] for i in range(limit)]
