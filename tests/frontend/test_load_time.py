"""The load-time measures keep behaviour: spaCy without torch, jieba's fast quiet load, the lexicon cache, preload."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from pathlib import Path

import jieba
import pytest

from onestep.frontend.en import lexicon_cache
from onestep.frontend.en.spacy_import import _HideTorch
from onestep.frontend.pipeline import Frontend, LanguageTools
from onestep.frontend.tokens import Token
from onestep.frontend.zh import jieba_dict

_CHILD = """
import json, sys
from onestep.frontend.pipeline import Frontend
fe = Frontend(lexicon={})
out = [fe.phonemize(t).phonemes for t in ("你好，世界。", "Hello world.")]
torch_loaded = "torch" in sys.modules
import thinc.compat
has_torch = thinc.compat.has_torch
try:
    import torch  # still importable afterwards, by other code
    torch_works = torch.zeros(2).sum().item() == 0.0
except ModuleNotFoundError:
    torch_works = None  # not installed
print(json.dumps({"out": out, "torch_loaded": torch_loaded, "thinc_torch": has_torch, "torch_works": torch_works}))
"""


def test_fresh_process_loads_without_torch_or_stderr_noise() -> None:
    proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout)
    assert all(result["out"])
    assert result["torch_loaded"] is False and result["thinc_torch"] is False
    assert result["torch_works"] is not False
    assert "prefix dict" not in proc.stderr and "Loading model" not in proc.stderr
    assert proc.stderr.strip() == ""


def test_torch_is_hidden_only_in_the_importing_thread() -> None:
    here = _HideTorch(threading.get_ident())
    with pytest.raises(ModuleNotFoundError):
        here.find_spec("torch", None)
    with pytest.raises(ModuleNotFoundError):
        here.find_spec("torch.utils.dlpack", None)
    assert here.find_spec("torchaudio", None) is None
    assert _HideTorch(threading.get_ident() + 1).find_spec("torch", None) is None


def test_jieba_fast_load_equals_jieba_own_load() -> None:
    fast = jieba.Tokenizer()
    jieba_dict.initialize(fast)
    own = jieba.Tokenizer()
    own.initialize()
    assert fast.initialized and fast.total == own.total and fast.FREQ == own.FREQ
    assert fast.lcut("我们在大会议室讨论发布计划") == own.lcut("我们在大会议室讨论发布计划")
    assert not logging.getLogger("jieba").isEnabledFor(logging.DEBUG)


def test_lexicon_cache_round_trip_and_corrupt_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONESTEP_CACHE", str(tmp_path))
    path = lexicon_cache.cache_file(False)
    assert path.parent == tmp_path and "us" in path.name
    built = lexicon_cache.build_lexicons(False)
    assert lexicon_cache.load_lexicons(False) == built  # built and written
    assert path.is_file()
    assert lexicon_cache.load_lexicons(False) == built  # read back
    path.write_bytes(b"\x00garbage")
    assert lexicon_cache.load_lexicons(False) == built  # rebuilt over a corrupt file


def test_probed_lexicon_has_misaki_lexicon_state() -> None:
    from onestep.frontend.en.g2p import _ProbedLexicon, misaki_en

    ours, theirs = _ProbedLexicon(False), misaki_en.Lexicon(False)
    for name, value in vars(theirs).items():
        assert getattr(ours, name) == value, name


def _counting_tools(calls: list[str], lang: str) -> LanguageTools:
    def normalize(text: str) -> str:
        calls.append(lang)
        return text

    return LanguageTools(normalize, lambda text: [Token(text, "a")])


@pytest.mark.parametrize(
    ("langs", "background", "expected"),
    [(["zh"], True, ["zh"]), (["en"], False, ["en"]), (("zh", "en"), True, ["zh", "en"])],
)
def test_preload_builds_requested_languages(langs: list[str], background: bool, expected: list[str]) -> None:
    calls: list[str] = []
    fe = Frontend(lexicon={}, zh_tools=_counting_tools(calls, "zh"), en_tools=_counting_tools(calls, "en"))
    thread = fe.preload(langs, background=background)  # type: ignore[arg-type]
    assert (thread is not None) == background
    if thread is not None:
        thread.join(timeout=30)
    assert calls == expected


def test_preload_rejects_unknown_language() -> None:
    with pytest.raises(ValueError, match="fr"):
        Frontend(lexicon={}).preload(["fr"])  # type: ignore[list-item]
