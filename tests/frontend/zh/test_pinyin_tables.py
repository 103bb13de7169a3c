"""pypinyin with the compact phrase table reads exactly as pypinyin with its own dictionaries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from onestep.frontend.compact_table import CompactTable
from onestep.frontend.zh import pinyin_tables


_CHILD = """
import json, sys
compact = sys.argv[1] == "compact"
if compact:
    from onestep.frontend.zh import pinyin_tables
    assert pinyin_tables.install()
import pypinyin
from pypinyin import Style, lazy_pinyin, pinyin
from pypinyin.constants import PHRASES_DICT, PINYIN_DICT
from pypinyin.pinyin_dict import pinyin_dict
from pypinyin.seg import mmseg
lines = [line.strip() for line in open(sys.argv[2], encoding="utf-8")][:400]
lines += ["重庆的银行行长", "长大了", "一行行代码", "朝阳", "还钱", "中国人民银行"]
out = {
    "table": [type(PHRASES_DICT).__name__, type(PINYIN_DICT).__name__, type(pinyin_dict).__name__],
    "chars": [[ord(c) in pinyin_dict, pinyin_dict.get(ord(c)), PINYIN_DICT.get(ord(c))] for c in "〇中行长a😀"],
    "lazy": [lazy_pinyin(t, style=Style.TONE3, neutral_tone_with_five=True) for t in lines],
    "heteronym": [pinyin(t, heteronym=True) for t in lines[:50]],
    "seg": [list(mmseg.seg.cut(t)) for t in lines],
    "prefix": [w in mmseg.p_set for w in ("中", "中国", "中国人民银", "银行行长", "zz", "重庆")],
}
pypinyin.load_phrases_dict({"银行行长": [["yín"], ["háng"], ["háng"], ["zhǎng"]]})
pypinyin.load_single_dict({ord("行"): "xíng", 0x10FFFF - 1: "ā"})
out["after_load"] = [lazy_pinyin("银行行长"), lazy_pinyin("行走"), list(mmseg.seg.cut("我是银行行长")),
                     "银行行长" in mmseg.p_set, PINYIN_DICT.get(0x10FFFF - 1), len(PINYIN_DICT) - len(pinyin_dict)]
print(json.dumps(out, ensure_ascii=False))
"""


def _run(mode: str, corpus: Path) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", _CHILD, mode, str(corpus)], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_phrase_table_equals_pypinyin_json() -> None:
    table = pinyin_tables.load_phrase_table()
    phrases = pinyin_tables.build_phrases()
    assert isinstance(table, CompactTable) and len(table) == len(phrases) > 40_000
    assert all(table[k] == v for k, v in phrases.items())
    chars = pinyin_tables.load_char_table()
    expected = pinyin_tables.build_chars()
    assert isinstance(chars, pinyin_tables.CodePointTable) and len(chars) == len(expected) > 40_000
    assert all(chars[k] == v for k, v in expected.items()) and set(chars) == set(expected)
    assert 0x41 not in chars and chars.get(-1) is None and "中" not in chars and chars.get(ord("中")) == "zhōng,zhòng"


def test_pypinyin_reads_the_same_with_the_compact_table(tmp_path: Path, shared_dir: Path) -> None:
    corpus = shared_dir / "corpus" / "zh_train.txt"
    if not corpus.is_file():  # a fresh clone: two lines of our own
        corpus = tmp_path / "zh.txt"
        corpus.write_text("今天下午三点我们在大会议室讨论新产品的发布计划。\n银行行长说长大了要还钱。\n", encoding="utf-8")
    plain, compact = _run("plain", corpus), _run("compact", corpus)
    assert plain.pop("table") == ["dict", "dict", "dict"]
    assert compact.pop("table") == ["CompactTable", "CodePointTable", "CodePointTable"]
    assert compact == plain
