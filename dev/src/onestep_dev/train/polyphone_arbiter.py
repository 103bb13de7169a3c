"""Fit the Mandarin polyphone arbiter (:mod:`onestep.frontend.zh.arbiter`) on CPP dev and write its data files.

Rerun (CPU, ~1 minute; needs the ``train`` extra: ``pypinyin-dict`` for CC-CEDICT, ``torch`` for the fit)::

    python -m onestep_dev.train.polyphone_arbiter ../shared/frontend/cpp [OUT_DIR] [--c 0.1] [--folds 5]

OUT_DIR defaults to the shipped ``onestep/frontend/zh/data``. Data used: CPP ``dev.sent``/``dev.lb`` only (the
g2pM benchmark's dev split, Apache-2.0; never ``test``) and CC-CEDICT's phrase readings as packaged by
``pypinyin-dict`` 0.9.0 (``phrase_pinyin_data.cc_cedict``; CC-CEDICT is CC BY-SA 4.0, see NOTICE).

Steps:

1. ``polyphone_context.marisa``: the CC-CEDICT phrases of 2-6 characters that hold a character g2pM treats as
   a polyphone (key ``"c" + phrase``, value the phrase's tone-numbered syllables), and for each CPP dev
   sentence whose labelled polyphone the G2P asks the arbiter about, the label counted under the character
   (``"q" + char``) and under its contexts (:func:`onestep.frontend.zh.arbiter.context_keys`).
2. Every such dev sentence becomes one training example per candidate reading (the features of
   :meth:`PolyphoneArbiter.features` with the sentence's own label taken out of the dev counts, so it cannot
   read its answer), label 1 for the right reading. An L2-regularized logistic regression (``--c`` as in
   scikit-learn: loss summed over examples plus ``|w|^2 / (2C)``) is fitted with L-BFGS.
3. ``--folds`` K: before the final fit, K-fold cross-validation over the dev sentences prints how often the
   arbiter's choice is right on the held-out folds (the figure to compare settings by). Then the weights of the
   fit on all of dev go to ``polyphone_arbiter.json``.

Measured and not kept (issue 12, 5-fold cross-validation on dev with the phrase-reading guard; 9,282 of 9,463
asked polyphones right with the shipped features, 9,283 as a mean over 3 fold seeds):

* per-character witness reliability: on the character's other dev sentences, the smoothed log-odds that
  g2pM's top reading is right, on that candidate, and the same for the dictionary's reading, plus the dev share
  of the reading in the same kind of word: 9,289 (3-seed mean 9,290; 9,293 with the statistics taken from the
  training folds only). On CPP test 97.74 % (10,022 of 10,254) against the shipped 97.76 % (10,024), and it
  lost 8 everyday pinyin cases (没 mo4, 少 shao4, 重感冒 chong2, 倒 dao4: CPP's balanced readings make g2pM
  look reliable on characters whose everyday reading it misses).
  The dictionary's reliability and the kind-of-word share alone: no gain (9,277-9,282), still 2-3 cases lost;
* Unihan reading-frequency tables (kHanyuPinlu, kMandarin_8105, kXHC1983 from pypinyin-dict) as default-reading
  features: no gain; g2pM's margin, its top reading per kind of word, × log text length: +0 to +2;
* gradient-boosted trees (scikit-learn, 150-300 trees) over these features: 9,288-9,291, no better than the
  logistic regression with them, at far higher run-time cost.

Of the 181 errors left among the asked polyphones, 88 are readings that neither the dictionary nor g2pM's top
choice gives, and only 19 of those have any other witness (a CPP dev context, a CC-CEDICT phrase); of the 29
errors among the 430 dev polyphones the G2P's guards keep from the arbiter, 16 are 黄陂 bei1 and 呵叻 he1,
labels that are not the places' readings. The gap to g2pW is knowledge a stronger context model brings, not
a better combination of these witnesses.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from onestep.frontend.zh.arbiter import (
    FEATURES,
    MAX_PHRASE,
    MIN_MODEL_CONTEXT,
    PolyphoneArbiter,
    Query,
    context_keys,
    format_counts,
    may_replace,
    support,
)

_DEFAULT_OUT = Path(sys.modules[PolyphoneArbiter.__module__].__file__).resolve().parent / "data"  # onestep/frontend/zh/data


def cedict_phrases(polyphones: set[str]) -> dict[str, str]:
    """CC-CEDICT phrases (2-6 characters) holding one of ``polyphones`` -> space-separated tone-numbered syllables."""
    from pypinyin.contrib.tone_convert import to_tone3
    from pypinyin_dict.phrase_pinyin_data import cc_cedict

    out: dict[str, str] = {}
    for phrase, readings in cc_cedict.phrases_dict.items():
        if not 2 <= len(phrase) <= MAX_PHRASE or len(readings) != len(phrase):
            continue
        if not any(c in polyphones for c in phrase):
            continue
        syllables = [to_tone3(r[0], neutral_tone_with_five=True).replace("ü", "v") for r in readings]
        if all(s[-1:].isdigit() and " " not in s for s in syllables):
            out[phrase] = " ".join(syllables)
    return out


class _Recorder:
    """Stands in for the arbiter inside the G2P: keeps the dictionary's reading and records every query."""

    def __init__(self) -> None:
        self.asked: list[tuple[Query, tuple[str, ...], dict[str, float]]] = []

    def load(self) -> None:
        pass

    def settled(self, query: Query, candidates) -> bool:  # noqa: ANN001
        return False  # record every query

    def choose(self, query: Query, candidates, probabilities) -> str:  # noqa: ANN001
        self.asked.append((query, tuple(candidates), dict(probabilities)))
        return query.dictionary

    def cedict_readings(self, query: Query) -> tuple[str | None, set[str], str]:
        return None, set(), ""  # the rule characters it reads are never asked about


def dev_queries(cpp_dir: Path, split: str = "dev") -> list[tuple[Query, tuple[str, ...], dict[str, float], str]]:
    """``(query, candidates, g2pM probabilities, label)`` for each CPP sentence whose polyphone the G2P asks about."""
    from onestep_dev.train.cpp_data import load_split
    from onestep.frontend.zh.g2p import MandarinG2P

    recorder = _Recorder()
    g2p = MandarinG2P(arbiter=recorder)  # type: ignore[arg-type]
    g2p.load()
    out = []
    for item in load_split(cpp_dir, split):
        recorder.asked.clear()
        g2p.char_readings(item.text)
        for query, candidates, probabilities in recorder.asked:
            if query.position == item.index and query.text == item.text:
                if item.label in candidates:
                    out.append((query, candidates, probabilities, item.label))
                break
    return out


def write_context(out_dir: Path, phrases: dict[str, str], examples) -> None:  # noqa: ANN001
    """Write ``polyphone_context.marisa`` from the CC-CEDICT phrases and the dev examples' labels."""
    import marisa_trie

    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for query, _, _, label in examples:
        counts["q" + query.text[query.position]][label] += 1
        for key in context_keys(query):
            if key is not None:
                counts[key][label] += 1
    items = [("c" + p, r.encode()) for p, r in phrases.items()]
    items += [(k, format_counts(c)) for k, c in counts.items()]
    out_dir.mkdir(parents=True, exist_ok=True)
    marisa_trie.BytesTrie(items).save(str(out_dir / "polyphone_context.marisa"))


def fit(rows: list[np.ndarray], labels: list[np.ndarray], c: float) -> tuple[np.ndarray, float]:
    """L2 logistic regression (scikit-learn's ``C`` convention) over all candidate rows; returns weights, bias."""
    import torch

    x = torch.from_numpy(np.vstack(rows)).double()
    y = torch.from_numpy(np.concatenate(labels)).double()
    w = torch.zeros(x.shape[1], dtype=torch.float64, requires_grad=True)
    b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], lr=1, max_iter=500, tolerance_grad=1e-9, tolerance_change=1e-12,
                            line_search_fn="strong_wolfe")

    def closure():  # noqa: ANN202
        opt.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(x @ w + b, y, reduction="sum")
        loss = loss + (w * w).sum() / (2 * c)
        loss.backward()
        return loss

    opt.step(closure)
    return w.detach().numpy(), float(b.detach())


def choices_right(rows, labels, w: np.ndarray, b: float, allowed=None) -> int:  # noqa: ANN001
    """How many examples the weights get right (``allowed``: per example, a mask of the candidates it may choose)."""
    right = 0
    for k, (r, lab) in enumerate(zip(rows, labels)):
        score = r @ w + b
        if allowed is not None:
            score = np.where(allowed[k], score, -np.inf)
        right += int(lab[int(np.argmax(score))] == 1)
    return right


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cpp_dir", type=Path, help="folder with CPP dev.sent / dev.lb")
    ap.add_argument("out_dir", type=Path, nargs="?", default=_DEFAULT_OUT)
    ap.add_argument("--c", type=float, default=0.1, help="inverse L2 strength (default 0.1)")
    ap.add_argument("--drop", action="append", default=[], choices=FEATURES, help="leave a feature out (its weight 0)")
    ap.add_argument("--folds", type=int, default=5, help="cross-validation folds to report (0: none)")
    args = ap.parse_args(argv if argv is not None else sys.argv[1:])

    from onestep.frontend.zh.polyphone import shared_model

    polyphones = set(shared_model().polyphones())
    examples = dev_queries(args.cpp_dir)
    print(f"{len(examples)} dev sentences whose polyphone the arbiter is asked about", flush=True)
    phrases = cedict_phrases(polyphones)
    print(f"{len(phrases)} CC-CEDICT phrases with a polyphone", flush=True)
    write_context(args.out_dir, phrases, examples)
    spec_path = args.out_dir / "polyphone_arbiter.json"
    spec_path.write_text(json.dumps({"features": list(FEATURES), "weights": [0.0] * len(FEATURES), "bias": 0.0}))
    arbiter = PolyphoneArbiter(args.out_dir)
    rows, labels, allowed = [], [], []
    for query, candidates, probabilities, label in examples:
        rows.append(np.array(arbiter.features(query, candidates, probabilities, exclude=label)))
        labels.append(np.array([float(c == label) for c in candidates]))
        top = max(candidates, key=lambda c: probabilities.get(c, 0.0))
        sure = len(query.text) >= MIN_MODEL_CONTEXT
        allowed.append(np.array([may_replace(query.category, c, query.dictionary, support(r), c == top and sure)
                                 for c, r in zip(candidates, rows[-1])]))
    keep = [FEATURES.index(f) for f in FEATURES if f not in args.drop]
    rows = [r[:, keep] if args.drop else r for r in rows]
    if args.folds > 1:
        order = list(range(len(rows)))
        random.Random(0).shuffle(order)
        right = right_allowed = 0
        for k in range(args.folds):
            held = set(order[k :: args.folds])
            w, b = fit([rows[i] for i in order if i not in held], [labels[i] for i in order if i not in held], args.c)
            right += choices_right([rows[i] for i in held], [labels[i] for i in held], w, b)
            right_allowed += choices_right([rows[i] for i in held], [labels[i] for i in held], w, b,
                                           [allowed[i] for i in held])
        print(f"{args.folds}-fold cross-validation: {right}/{len(rows)} asked dev polyphones right "
              f"({right / len(rows):.2%}; {right_allowed / len(rows):.2%} with phrase readings replaced only where "
              "supported)", flush=True)
    w, b = fit(rows, labels, args.c)
    print(f"fit on all of dev: {choices_right(rows, labels, w, b) / len(rows):.2%} right", flush=True)
    spec = {
        "source": f"onestep_dev.train.polyphone_arbiter on CPP dev ({len(rows)} sentences), C={args.c}",
        "features": list(FEATURES),
        "weights": [round(float(w[keep.index(i)]), 6) if i in keep else 0.0 for i in range(len(FEATURES))],
        "bias": round(b, 6),
    }
    spec_path.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {spec_path} and {args.out_dir / 'polyphone_context.marisa'}", flush=True)


if __name__ == "__main__":
    main()
