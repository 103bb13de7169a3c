"""The frontend's output on the first 300 lines of each training corpus file is unchanged.

``frontend_reference.json`` holds, per corpus file, a SHA-256 prefix of the ``onestep phonemize --json``
object (text, normalized text, segments with pinyin and phonemes) of each line. It was written before the
load-time work (lazy spaCy without torch, fast jieba dictionary load, compact English lexicon), which must
not change any output. After a deliberate output change, rewrite it with
``python tests/frontend/test_frontend_reference.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from onestep.frontend.pipeline import Frontend, utterance_to_dict

# tests/conftest.py sets $ONESTEP_SHARED_DIR (default <checkout>/../shared); the fallback serves the __main__ run
CORPUS = Path(os.environ.get("ONESTEP_SHARED_DIR") or Path(__file__).resolve().parents[2].parent / "shared") / "corpus"
REFERENCE = Path(__file__).with_name("frontend_reference.json")
FILES = ("en_train.txt", "zh_train.txt")
LINES = 300


def _lines(name: str) -> list[str]:
    with (CORPUS / name).open(encoding="utf-8") as f:
        return [next(f).rstrip("\n") for _ in range(LINES)]


def digests(frontend: Frontend, lines: list[str]) -> list[str]:
    """16-hex-digit SHA-256 prefix of each line's JSON output."""
    out = []
    for line in lines:
        blob = json.dumps(utterance_to_dict(frontend.phonemize(line)), ensure_ascii=False, sort_keys=True)
        out.append(hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16])
    return out


@pytest.mark.parametrize("name", FILES)
def test_output_matches_reference(real_frontend: Frontend, name: str) -> None:
    if not (CORPUS / name).is_file():
        pytest.skip(f"corpus not found at {CORPUS / name}")
    expected = json.loads(REFERENCE.read_text(encoding="utf-8"))[name]
    got = digests(real_frontend, _lines(name))
    changed = [i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b]
    assert not changed, f"{name}: output changed on lines {[i + 1 for i in changed[:20]]} (of {len(changed)})"


if __name__ == "__main__":
    fe = Frontend(lexicon={})
    ref = {name: digests(fe, _lines(name)) for name in FILES}
    REFERENCE.write_text(json.dumps(ref, indent=0) + "\n", encoding="utf-8")
