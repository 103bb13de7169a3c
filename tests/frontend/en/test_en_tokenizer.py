"""BlankEnglishTokenizer gives exactly spaCy's blank English tokens and spaces (corpus and random strings)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from onestep.frontend.en import tokenizer as tk
from onestep.frontend.en.spacy_import import import_spacy

_ALPHABET = [
    *"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    *".,!?;:'\"()[]{}-–—…’‘“”$%&*/\\@#+=<>~^_|é°",
    *[" ", " ", " ", "  ", "\n", "\t"],
]
_WORDS = [
    "don't", "U.S.", "a.m.", "e.g.", "http://x.com/a?b=1", "www.test.org", "3.5", "1,000", "we'll", "I'm",
    "o'clock", "rock'n'roll", "'s", "n't", ":)", "<3", "'em", "Mr.", "Jan.", "ain't", "y'all", "’’", "C++",
]


@pytest.fixture(scope="module")
def spacy_tokenizer() -> Any:
    return import_spacy().blank("en").tokenizer


@pytest.fixture(scope="module")
def ours(spacy_tokenizer: Any) -> tk.BlankEnglishTokenizer:
    return tk.BlankEnglishTokenizer(tk.extract_rules(spacy_tokenizer))


def _spacy(tokenizer: Any, text: str) -> list[tuple[str, bool]]:
    return [(t.text, t.whitespace_ == " ") for t in tokenizer(text)]


def _mismatches(ours: tk.BlankEnglishTokenizer, spacy_tokenizer: Any, texts: list[str]) -> list[str]:
    return [t for t in texts if [tuple(p) for p in ours(t)] != _spacy(spacy_tokenizer, t)]


def test_equal_to_spacy_on_the_training_corpus(
    ours: tk.BlankEnglishTokenizer, spacy_tokenizer: Any, shared_file: Callable[..., Path]
) -> None:
    lines = shared_file("corpus", "en_train.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) > 1000
    assert _mismatches(ours, spacy_tokenizer, lines) == []


def test_equal_to_spacy_on_random_strings(ours: tk.BlankEnglishTokenizer, spacy_tokenizer: Any) -> None:
    rng = random.Random(4)
    specials = sorted(spacy_tokenizer.rules)
    texts = []
    for _ in range(6000):
        parts = []
        for _ in range(rng.randint(1, 12)):
            k = rng.random()
            if k < 0.3:
                parts.append(rng.choice(specials))
            elif k < 0.5:
                parts.append(rng.choice(_WORDS))
            else:
                parts.append("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 6))))
            parts.append(rng.choice(["", " ", " ", " ", "", "  ", "\n"]))
        texts.append("".join(parts))
    texts += ["", " ", "  a  ", "\n", "a\n\nb", " lead", "trail ", "’’", "(’’)", ":) :(", "a.m. p.m.", "We're done."]
    assert _mismatches(ours, spacy_tokenizer, texts) == []


def test_rules_are_cached_per_spacy_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spacy_tokenizer: Any) -> None:
    monkeypatch.setenv("ONESTEP_CACHE", str(tmp_path))
    path = tk.rules_path()
    assert path.parent == tmp_path and "spacy-" in path.name
    rules = tk.load_rules()  # extracted from spaCy and written
    assert rules == json.loads(json.dumps(tk.extract_rules(spacy_tokenizer))) == json.loads(path.read_text("utf-8"))
    path.write_text("{broken", encoding="utf-8")
    assert tk.load_rules() == rules  # rewritten over a broken file
    monkeypatch.setattr(tk, "spacy_rules", lambda: pytest.fail("spaCy used although the rules are cached"))
    assert tk.BlankEnglishTokenizer()("I can't.") == [("I", True), ("ca", False), ("n't", False), (".", False)]


def test_unusable_cache_directory_still_tokenizes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("ONESTEP_CACHE", str(blocker / "cache"))  # below a file: cannot be created
    assert tk.load_rules()["rules"]["don't"] == ["do", "n't"]


def test_shipped_rules_are_those_of_the_pinned_spacy(spacy_tokenizer: Any) -> None:
    import importlib.metadata

    if importlib.metadata.version("spacy") != tk.SHIPPED_SPACY_VERSION:
        pytest.skip("installed spaCy differs from the version the shipped rules come from")
    shipped = json.loads(tk.SHIPPED_RULES.read_text("utf-8"))
    assert shipped == json.loads(json.dumps(tk.extract_rules(spacy_tokenizer)))


def test_frontend_speaks_english_without_spacy_installed() -> None:
    """A plain install has no spaCy: misaki's `import spacy` gets a stand-in, the tokenizer the shipped rules."""
    import os
    import subprocess
    import sys

    from onestep.frontend.en.g2p import EnglishG2P

    code = (
        "import importlib.abc, sys\n"
        "class Hide(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.partition('.')[0] in ('spacy', 'thinc'):\n"
        "            raise ModuleNotFoundError(name, name=name)\n"
        "sys.meta_path.insert(0, Hide())\n"
        "from onestep.frontend.en.g2p import EnglishG2P\n"
        "from onestep.frontend.en.spacy_import import spacy_is_loaded\n"
        "print(repr(' '.join(t.phonemes for t in EnglishG2P(None)(TEXT))), spacy_is_loaded())\n"
    ).replace("TEXT", repr(SAMPLE))
    src = Path(tk.__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    with_spacy = " ".join(t.phonemes for t in EnglishG2P(None)(SAMPLE))
    assert out.stdout.strip() == f"{with_spacy!r} False"


SAMPLE = "I don't know what Dr. Smith's e-mail (smith@example.com) said at 5 p.m., do you?"
