"""Error rates over scoring units (word error rate for English, character error rate for Mandarin)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from onestep_dev.eval.textnorm import Lang, scoring_units


@dataclass(frozen=True)
class ErrorCounts:
    """Levenshtein alignment counts of a hypothesis against a reference, in scoring units.

    Attributes:
        substitutions, deletions, insertions: edit operations.
        ref_units: number of reference units (words for en, characters / Latin words for zh).
    """

    substitutions: int = 0
    deletions: int = 0
    insertions: int = 0
    ref_units: int = 0

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def rate(self) -> float:
        """errors / ref_units (0 for an empty reference with an empty hypothesis, 1 per inserted unit otherwise)."""
        if self.ref_units == 0:
            return float(self.errors)
        return self.errors / self.ref_units

    def __add__(self, other: ErrorCounts) -> ErrorCounts:
        return ErrorCounts(
            self.substitutions + other.substitutions,
            self.deletions + other.deletions,
            self.insertions + other.insertions,
            self.ref_units + other.ref_units,
        )

    def to_dict(self) -> dict[str, float]:
        return {**asdict(self), "errors": self.errors, "rate": self.rate}


def error_counts(reference: str, hypothesis: str, lang: Lang) -> ErrorCounts:
    """Normalize both texts for ``lang`` and count unit edits (jiwer's Levenshtein alignment)."""
    import jiwer

    ref = scoring_units(reference, lang)
    hyp = scoring_units(hypothesis, lang)
    if not ref:
        return ErrorCounts(insertions=len(hyp))
    if not hyp:
        return ErrorCounts(deletions=len(ref), ref_units=len(ref))
    out = jiwer.process_words(" ".join(ref), " ".join(hyp))
    return ErrorCounts(out.substitutions, out.deletions, out.insertions, len(ref))


def total(counts: list[ErrorCounts]) -> ErrorCounts:
    """Sum of counts: its ``rate`` is the corpus-level WER/CER (errors over all reference units)."""
    out = ErrorCounts()
    for c in counts:
        out = out + c
    return out
