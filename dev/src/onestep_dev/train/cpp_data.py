"""The CPP polyphone corpus's files (``<split>.sent`` with the polyphone marked ``▁X▁``, ``<split>.lb`` its
pinyin): read here for fitting the arbiter on dev (:mod:`onestep_dev.train.polyphone_arbiter`) and for the test
(:mod:`onestep_dev.eval.cpp`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MARK = "▁"


@dataclass(frozen=True)
class CppItem:
    """One CPP line: the sentence without marks, the polyphone's index and its lexical pinyin (ü as v)."""

    text: str
    index: int
    label: str


def load_split(folder: Path, split: str) -> list[CppItem]:
    """Read ``<split>.sent`` / ``<split>.lb`` from ``folder``.

    Raises:
        FileNotFoundError: a file is missing.
        ValueError: the files differ in length or a line has no marked character.
    """
    sents = (folder / f"{split}.sent").read_text(encoding="utf-8").splitlines()
    labels = (folder / f"{split}.lb").read_text(encoding="utf-8").splitlines()
    if len(sents) != len(labels):
        raise ValueError(f"{split}.sent has {len(sents)} lines but {split}.lb has {len(labels)}")
    items = []
    for number, (line, label) in enumerate(zip(sents, labels), 1):
        a = line.find(MARK)
        b = line.find(MARK, a + 1)
        if a < 0 or b != a + 2:
            raise ValueError(f"{split}.sent:{number}: no character marked as {MARK}X{MARK}")
        items.append(CppItem(line[:a] + line[a + 1] + line[b + 1 :], a, normalize_label(label)))
    return items


def normalize_label(label: str) -> str:
    """CPP's label in our spelling: ``u:`` -> ``v``, erhua ``r5`` -> ``er5``."""
    label = label.strip().lower().replace("u:", "v")
    return "er5" if label == "r5" else label
