"""Hash of the normalizers' output on every Nth line of the training corpora and on every input of the
shipped frontend case tables: a before/after check that a speed change of a normalizer left every output
byte-identical (the case tables' own pass rates compare a looser form).

    PYTHONPATH=src:dev/src python lab/tools/normalizer_hash.py CORPUS_DIR [--step 3] [--dump OUT_DIR]

Prints one SHA-256 per language and source (``en_train.txt`` / ``zh_train.txt`` in CORPUS_DIR, the case
tables' inputs); ``--dump`` also writes the outputs, one per line, so that two runs can be diffed when the
hashes differ.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus_dir", type=Path)
    parser.add_argument("--step", type=int, default=3, help="every Nth line (default 3)")
    parser.add_argument("--dump", type=Path, help="write <lang>.txt outputs here")
    args = parser.parse_args()

    from onestep_dev.eval.frontend_cases import load_tables
    from onestep.frontend.en.normalize import normalize_en
    from onestep.frontend.zh.normalize import normalize_zh

    for lang, normalize in (("en", normalize_en), ("zh", normalize_zh)):
        corpus = (args.corpus_dir / f"{lang}_train.txt").read_text(encoding="utf-8").splitlines()[:: args.step]
        cases = [case.input for table in load_tables(langs=[lang]) for case in table.cases]
        for source, lines in (("corpus", corpus), ("cases", cases)):
            t0 = time.perf_counter()
            outputs = [normalize(line) for line in lines]
            seconds = time.perf_counter() - t0
            digest = hashlib.sha256("\n".join(outputs).encode()).hexdigest()
            print(f"{lang} {source}: {len(lines)} lines, sha256 {digest}, {seconds * 1e3 / len(lines):.3f} ms/line")
            if args.dump:
                args.dump.mkdir(parents=True, exist_ok=True)
                (args.dump / f"{lang}-{source}.txt").write_text("\n".join(outputs) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
