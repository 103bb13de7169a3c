"""Mandarin polyphone accuracy on CPP ("Chinese Polyphones with Pinyin", the g2pM benchmark).

CPP files: ``<split>.sent`` marks one polyphonic character per line as ``▁X▁``; ``<split>.lb`` holds its
*lexical* pinyin (``u:`` for ``ü``; erhua written ``r5``). Our G2P outputs *surface* pinyin (tone sandhi and
neutral tones applied), so a reading is judged **sandhi-aware**:

The marked character is right when the label equals either its *citation* reading (the reading the G2P
chose from the user lexicon, the phrase dictionaries or the polyphone model, before tone rules) or its
*surface* reading. A wrong choice of reading (xing2 for hang2, le5 for liao3, zhe5 for zhao2) fails under
both; a right reading whose tone the sandhi rules changed as speech demands (3rd tone before 3rd tone:
展览 zhan2 lan3 for zhan3; 一 yi2 before a 4th tone; 不 bu2; a neutral directional complement) passes on its
citation tone, which is the character's lexical tone. Erhua ``r5`` counts as ``er5``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from onestep_dev.train.cpp_data import MARK, CppItem, load_split, normalize_label

__all__ = ["MARK", "CppItem", "CppResult", "Readings", "evaluate", "is_right", "load_split", "normalize_label"]

Readings = Callable[[str], Sequence[tuple[str, str, str] | None]]  # text -> per char (char, citation, surface)


def is_right(label: str, reading: tuple[str, str, str] | None) -> bool:
    """The sandhi-aware rule of the module docstring; ``reading`` = ``(char, citation, surface)``."""
    return reading is not None and label in (reading[1], reading[2])


@dataclass
class CppResult:
    """Accuracy on one split, with the misses for inspection."""

    split: str
    total: int
    right: int
    seconds: float
    misses: list[tuple[CppItem, tuple[str, str, str] | None]] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0


def evaluate(items: Sequence[CppItem], readings: Readings, split: str = "test", progress: bool = True) -> CppResult:
    """Score ``readings`` (e.g. ``MandarinG2P().char_readings``) on ``items``; progress goes to stderr."""
    result = CppResult(split, len(items), 0, 0.0)
    start = time.perf_counter()
    for k, item in enumerate(items, 1):
        got = readings(item.text)[item.index]
        if is_right(item.label, got):
            result.right += 1
        else:
            result.misses.append((item, got))
        if progress and (k % 1000 == 0 or k == len(items)):
            print(f"\rCPP {split}: {k}/{len(items)} sentences, {result.right / k:.2%}", end="", file=sys.stderr,
                  flush=True)
    if progress and items:
        print(file=sys.stderr)
    result.seconds = time.perf_counter() - start
    return result
