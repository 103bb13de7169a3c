"""The load-time measures keep behaviour: no spaCy/torch at run time, compact jieba/misaki tables, preload."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import jieba
import pytest

from onestep.frontend.en import lexicon_cache
from onestep.frontend.import_tools import HideModules
from onestep.frontend.pipeline import Frontend, LanguageTools
from onestep.frontend.tokens import Token
from onestep.frontend.zh import jieba_dict

_CHILD = """
import json, sys
from onestep.frontend.en.spacy_import import spacy_is_loaded
from onestep.frontend.pipeline import Frontend
fe = Frontend(lexicon={})
out = [fe.phonemize(t).phonemes for t in ("你好，世界。", "Hello world.", "I don't know, well-known U.S. firms.")]
loaded = {name: name in sys.modules for name in ("torch", "thinc", "pkg_resources")}
loaded["spacy"] = spacy_is_loaded()
import spacy  # the stand-in: the real spaCy is imported on first use, still without torch
blank_tokens = [t.text for t in spacy.blank("en").tokenizer("I don't know.")]
import thinc.compat
after = {"spacy": spacy_is_loaded(), "torch": "torch" in sys.modules, "thinc_torch": thinc.compat.has_torch}
try:
    import torch  # still importable afterwards, by other code
    torch_works = torch.zeros(2).sum().item() == 0.0
except ModuleNotFoundError:
    torch_works = None  # not installed
print(json.dumps({"out": out, "loaded": loaded, "blank": blank_tokens, "after": after, "torch_works": torch_works}))
"""


def test_fresh_process_loads_without_spacy_torch_or_stderr_noise() -> None:
    proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout)
    assert all(result["out"])
    assert result["loaded"] == {"torch": False, "thinc": False, "pkg_resources": False, "spacy": False}
    assert result["blank"] == ["I", "do", "n't", "know", "."]
    assert result["after"] == {"spacy": True, "torch": False, "thinc_torch": False}
    assert result["torch_works"] is not False
    assert "prefix dict" not in proc.stderr and "Loading model" not in proc.stderr
    assert proc.stderr.strip() == ""


def test_modules_are_hidden_only_in_the_importing_thread() -> None:
    here = HideModules(["torch"], threading.get_ident())
    with pytest.raises(ModuleNotFoundError):
        here.find_spec("torch", None)
    with pytest.raises(ModuleNotFoundError):
        here.find_spec("torch.utils.dlpack", None)
    assert here.find_spec("torchaudio", None) is None
    assert HideModules(["torch"], threading.get_ident() + 1).find_spec("torch", None) is None


def test_jieba_fast_load_equals_jieba_own_load() -> None:
    fast = jieba.Tokenizer()
    jieba_dict.initialize(fast)
    own = jieba.Tokenizer()
    own.initialize()
    assert fast.initialized and fast.total == own.total and fast.FREQ == own.FREQ
    assert fast.lcut("我们在大会议室讨论发布计划") == own.lcut("我们在大会议室讨论发布计划")
    assert not logging.getLogger("jieba").isEnabledFor(logging.DEBUG)


def test_jieba_compact_table_equals_jieba_dictionary() -> None:
    freq, total = jieba_dict.build_freq()
    table, table_total = jieba_dict.load_freq()
    assert table_total == total and len(table) == len(freq)
    assert all(table.get(k) == v for k, v in freq.items())
    assert "不存在的词语组合" not in table and table.get("不存在的词语组合") is None


def test_misaki_compact_lexicons_equal_misaki_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONESTEP_CACHE", str(tmp_path))
    golds, silvers = lexicon_cache.build_lexicons(False)
    for built, table in zip((golds, silvers), lexicon_cache.load_lexicons(False), strict=True):  # built, written
        assert len(table) == len(built)
        assert all(table[k] == v for k, v in built.items())
    assert any(tmp_path.glob("misaki-*-us-gold-*.marisa"))
    for path in tmp_path.glob("misaki-*-us-silver-*.values"):
        path.write_bytes(b"\x00garbage")
    again = lexicon_cache.load_lexicons(False)  # gold read back, silver rebuilt over a corrupt file
    assert again[0]["hello"] == golds["hello"] and dict(again[1].items()) == silvers


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
    fe = Frontend(lexicon={}, tools={"zh": _counting_tools(calls, "zh"), "en": _counting_tools(calls, "en")})
    thread = fe.preload(langs, background=background)  # type: ignore[arg-type]
    assert (thread is not None) == background
    if thread is not None:
        thread.join(timeout=30)
    assert calls == expected


def test_preload_rejects_unknown_language() -> None:
    with pytest.raises(ValueError, match="xx"):
        Frontend(lexicon={}).preload(["xx"])  # type: ignore[list-item]


_PRELOAD_CHILD = """
import json, sys
from onestep.frontend.import_tools import is_deferred
from onestep.frontend.pipeline import Frontend
fe = Frontend(lexicon={})
fe.phonemize("你好。")
before = is_deferred("cn2an")
fe.preload(background=False)
from onestep.frontend.en import g2p
from onestep.frontend.zh import an2cn
out = {"cn2an_deferred_before": before, "cn2an_deferred_after": is_deferred("cn2an"),
       "an2cn_loaded": an2cn._reader is not None,
       "espeak": g2p._shared_parts()[2].fallback._espeak is not None, "torch": "torch" in sys.modules,
       "segments_deferred": is_deferred("segments"), "csvw": "csvw" in sys.modules}
from phonemizer.backend import SegmentsBackend  # phonemizer's segments backend, used by someone else: it works
out["segments_backend"] = SegmentsBackend("japanese").phonemize(["konnichiwa"])
out["segments_deferred_after_use"] = is_deferred("segments")
print(json.dumps(out))
"""


def test_preload_loads_everything_a_request_may_need() -> None:
    proc = subprocess.run([sys.executable, "-c", _PRELOAD_CHILD], capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout) == {
        "cn2an_deferred_before": True, "espeak": True, "torch": False,
        "cn2an_deferred_after": True, "an2cn_loaded": True,  # cn2an's an2cn loaded, not its whole package
        "segments_deferred": True, "csvw": False,  # phonemizer's unused segments backend's imports not loaded
        "segments_backend": ["konnitʃiwa "], "segments_deferred_after_use": False,
    }  # fmt: skip


_AN2CN_CHILD = """
import json, random, sys
from onestep.frontend.import_tools import is_deferred
from onestep.frontend.zh import numbers  # defers cn2an (through misaki's importers) and loads an2cn lazily
from onestep.frontend.zh.an2cn import an2cn
random.seed(7)
numbers_ = ["0", "2", "10", "20", "101", "10001", "10001000", "3.5", "0.05", "12.340", "9999999999999999"]
numbers_ += [str(random.randint(0, 10 ** random.randint(1, 16))) for _ in range(3000)]
numbers_ += [f"{random.randint(0, 10**6)}.{random.randint(0, 10**4)}" for _ in range(1000)]
ours = [an2cn(n) for n in numbers_]
deferred = is_deferred("cn2an") or "cn2an" not in sys.modules
import importlib
real = importlib.import_module("cn2an")
print(json.dumps({"same": ours == [real.an2cn(n) for n in numbers_], "cn2an_untouched_before": deferred}))
"""


def test_an2cn_without_the_cn2an_package_reads_as_cn2an() -> None:
    """The frontend's an2cn (cn2an's module, loaded without the package's __init__) reads numbers as cn2an."""
    proc = subprocess.run([sys.executable, "-c", _AN2CN_CHILD], capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout) == {"same": True, "cn2an_untouched_before": True}


def test_lazy_names_of_a_deferred_module_import_it_on_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep.frontend import import_tools

    (tmp_path / "os_lazy_mod.py").write_text("class Thing:\n    def __init__(self, n):\n        self.n = n\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "os_lazy_mod", raising=False)
    import_tools.defer_import("os_lazy_mod", lazy_names=("Thing",))
    import os_lazy_mod  # type: ignore[import-not-found]

    annotation = os_lazy_mod.Thing  # what an annotation read at another module's import gets
    assert isinstance(annotation, import_tools.LazyAttribute) and import_tools.is_deferred("os_lazy_mod")
    assert annotation(7).n == 7  # the first call imports the module
    assert not import_tools.is_deferred("os_lazy_mod")
    assert os_lazy_mod.Thing is sys.modules["os_lazy_mod"].Thing  # the stand-in now forwards to the real module
    assert annotation.resolve() is os_lazy_mod.Thing


def test_deferred_module_imports_on_first_attribute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep.frontend import import_tools

    (tmp_path / "os_heavy_mod.py").write_text("VALUE = 42\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "os_heavy_mod", raising=False)
    calls: list[int] = []

    def importer():  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:
            raise ImportError("first try fails")
        import importlib

        return importlib.import_module("os_heavy_mod")

    import_tools.defer_import("os_heavy_mod", importer)
    import os_heavy_mod  # type: ignore[import-not-found]

    assert import_tools.is_deferred("os_heavy_mod") and calls == []
    assert os_heavy_mod.__file__ == str(tmp_path / "os_heavy_mod.py") and calls == []  # introspection: no import
    with pytest.raises(AttributeError):
        os_heavy_mod.__wrapped__  # noqa: B018
    with pytest.raises(ImportError):
        os_heavy_mod.VALUE  # noqa: B018
    assert import_tools.is_deferred("os_heavy_mod")  # the stand-in is back after a failed import
    assert os_heavy_mod.VALUE == 42 and calls == [1, 1]
    assert not import_tools.is_deferred("os_heavy_mod") and sys.modules["os_heavy_mod"].VALUE == 42


def test_unusable_cache_directory_gives_the_same_output(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code = (
        "from onestep.frontend.pipeline import Frontend\n"
        "fe = Frontend(lexicon={})\n"
        "print(fe.phonemize('你好，世界。').phonemes + '|' + fe.phonemize(\"I don't know.\").phonemes)\n"
    )
    env = {**os.environ, "ONESTEP_CACHE": str(blocker / "cache")}  # below a file: cannot be created
    broken = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    normal = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert broken.stdout == normal.stdout and normal.stdout.strip()
    assert "cannot write" in broken.stderr or "no usable onestep cache" in broken.stderr


_COMPILE_CHILD = """
import json
from onestep.frontend.en import normalize
from onestep.frontend.pipeline import Frontend
from onestep.frontend.zh import normalize as zh_normalize
rules = [r for p in (normalize._EARLY_PASSES, normalize._NUMBER_PASSES, normalize._LATE_PASSES) for r in p.rules]
out = {"total": len(rules), "at_import": sum(r.compiled for r in rules)}
fe = Frontend(lexicon={})
fe.phonemize("Hello world. 你好，世界。")
out["after_call"] = sum(r.compiled for r in rules)
out["zh_after_call"] = zh_normalize.compiled_rules.cache_info().currsize
fe.preload(background=False)
out["after_preload"] = sum(r.compiled for r in rules)
out["zh_after_preload"] = zh_normalize.compiled_rules.cache_info().currsize
print(json.dumps(out))
"""


def test_normalizer_patterns_compile_on_first_use_and_all_at_preload() -> None:
    """A first call compiles only the patterns its text needs; preload compiles every one, so that no call
    after a TTS() load pays for a compile."""
    proc = subprocess.run([sys.executable, "-c", _COMPILE_CHILD], capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout)
    assert result["total"] > 200
    assert result["at_import"] == 0
    assert 0 < result["after_call"] < result["total"] // 4
    assert result["zh_after_call"] == 0  # no digit or symbol: the Mandarin rules are not needed yet
    assert result["after_preload"] == result["total"]
    assert result["zh_after_preload"] == 1
