"""Phonemize training sentences with OUR frontend into the JSONL that ``teacher_data`` reads.

Training text = the first lines of the corpus file given as ``--corpus`` (``<lang>_train.txt``; the last ``HELDOUT_LINES`` lines of each
file are never used for training: the evaluation set is drawn from them) + seeded template sentences
(``extra_sentences``). Each output line: ``{"id", "text", "phonemes"}``; one line per synthesized chunk. A
chunk of two languages also carries ``"segments": [[lang, phonemes], ...]`` (its language runs, joined by single
spaces into ``phonemes``), which ``teacher_data --splice-code-switch`` renders run by run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from onestep.languages import language_codes
from onestep_dev.train.extra_sentences import extra_sentences

HELDOUT_LINES = 150


def training_lines(corpus: Path, count: int) -> list[str]:
    """The first ``count`` lines of a corpus file, never touching its held-out tail."""
    lines = corpus.read_text(encoding="utf-8").splitlines()
    usable = lines[: max(len(lines) - HELDOUT_LINES, 0)]
    return [line.strip() for line in usable[:count] if line.strip()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", choices=[*language_codes(), "mixed"], required=True,
                   help="mixed: code-switched Mandarin sentences with English words (train.code_switch), no corpus")
    p.add_argument("--corpus", help="<shared>/corpus/<lang>_train.txt")
    p.add_argument("--count", type=int, default=4000, help="corpus sentences to take")
    p.add_argument("--extra", type=int, default=600, help="template sentences to add")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)

    from rich.progress import track

    from onestep.frontend.pipeline import Frontend

    frontend = Frontend()
    if args.lang == "mixed":
        from onestep_dev.train.code_switch import code_switch_sentences

        texts = [(f"mixed-{i:06d}", t) for i, t in enumerate(code_switch_sentences(args.count, "train"))]
    else:
        if not args.corpus:
            p.error("--corpus is required for a language")
        texts = [(f"{args.lang}-{i:06d}", t) for i, t in enumerate(training_lines(Path(args.corpus), args.count))]
        if args.lang in ("en", "zh"):  # the template sentences exist for these two
            texts += [(f"{args.lang}-x{i:05d}", t) for i, t in enumerate(extra_sentences(args.lang, args.extra))]
    written = 0
    with open(args.out, "w", encoding="utf-8") as f:
        for utt_id, text in track(texts, description=f"phonemizing {args.lang}"):
            language = None if args.lang == "mixed" else args.lang  # Latin text is read in the corpus's language
            for k, utt in enumerate(frontend.sentences(text, language=language)):
                if utt.phonemes.strip():
                    row = {"id": f"{utt_id}-{k}", "text": utt.normalized, "phonemes": utt.phonemes}
                    segments = [[seg.lang, seg.phonemes] for seg in utt.segments if seg.phonemes]
                    if len({lang for lang, _ in segments}) > 1:
                        row["segments"] = segments
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
                    written += 1
    print(f"{written} chunks -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
