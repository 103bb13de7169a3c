"""``onestep eval-frontend``: what the text frontend reads, scored.

Prints Mandarin polyphone accuracy on CPP (``--cpp DIR``, or ``$ONESTEP_CPP_DIR``; the sandhi-aware rule is
explained in :mod:`onestep_dev.eval.cpp`) and the pass rate of every case table (``onestep_dev/eval/frontend_cases``,
see :mod:`onestep_dev.eval.frontend_cases`) by (lang, kind, category): whole cases (for pinyin tables, sentences
with no wrong syllable) and, for pinyin tables, syllables right. For English it also prints the generated tables
(``frontend_cases/generated``, see :mod:`onestep_dev.eval.en_norm_generators`) by semiotic class: each table's
first-run figure (recorded when it was generated, before any rule was fitted to it) beside today's::

    onestep eval-frontend --cpp path/to/cpp            # table
    onestep eval-frontend --lang zh --failures 5       # also show up to 5 failing cases per category
    onestep eval-frontend --json                       # one JSON object
    onestep eval-frontend --lang en --external DIR     # also NeMo's English test cases (not shipped), leniently
    onestep eval-frontend --lang zh --external DIR     # NeMo's Mandarin test cases, read as Mandarin sentences

``--external DIR`` scores an external suite, NeMo text processing's ``test_cases_*.txt`` (how to fetch it:
docs/FRONTEND.md, :mod:`onestep_dev.eval.external_norm`), by class: English with case, punctuation, hyphens and
"and" ignored; Mandarin (a suite whose readings hold Chinese characters) with punctuation, spaces and case ignored.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from onestep.cli import CLIError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval-frontend", help="score the text frontend: CPP polyphone accuracy and case-table pass rates"
    )
    p.add_argument("--cpp", type=Path, metavar="DIR",
                   help="CPP folder with <split>.sent/.lb (default: $ONESTEP_CPP_DIR; skipped if neither)")
    p.add_argument("--split", default="test", help="CPP split (default: test)")
    p.add_argument("--cases", type=Path, metavar="DIR", help="case-table folder (default: the shipped tables)")
    from onestep_dev.eval.frontend_cases import LANGS, NORMALIZERS  # the language registry's codes

    p.add_argument("--lang", choices=LANGS, action="append",
                   help=f"only these languages (repeatable; {' '.join(NORMALIZERS)}: their normalization tables)")
    p.add_argument("--external", type=Path, metavar="PATH",
                   help="also score an external suite (English or Mandarin): a folder of NeMo test_cases_*.txt "
                        "('written~spoken'; how to fetch: docs/FRONTEND.md), scored leniently")
    p.add_argument("--failures", type=int, default=0, metavar="N", help="show up to N failing cases per category")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from onestep_dev.eval import cpp
    from onestep_dev.eval.en_norm_generators import GENERATED_DIR, load_generated, score
    from onestep_dev.eval.frontend_cases import CASES_DIR, LANGS, load_tables, pass_rates, run_tables
    from onestep.frontend.pipeline import Frontend

    langs = tuple(args.lang or LANGS)
    folder = args.cases or CASES_DIR
    if not folder.is_dir():
        raise CLIError(f"case-table folder not found: {folder}")
    try:
        tables = load_tables(folder, langs)
    except ValueError as e:
        raise CLIError(str(e)) from e

    external_cases = None
    external_lang = "en"
    if args.external is not None:
        from onestep_dev.eval import external_norm

        try:
            external_cases = external_norm.load(args.external)
        except (OSError, ValueError) as e:
            raise CLIError(f"cannot read the external suite at {args.external}: {e}") from e
        external_lang = external_norm.suite_language(external_cases)
        if external_lang not in langs:
            name = {"en": "English", "zh": "Mandarin"}[external_lang]
            raise CLIError(f"--external {args.external} is a {name} suite: use it with --lang {external_lang} "
                           "(or no --lang)")

    frontend = Frontend(lexicon={}) if set(langs) & {"en", "zh"} else None

    def normalize(text: str) -> str:
        assert frontend is not None
        return frontend.phonemize(text).normalized

    def pinyin(text: str) -> list[str]:
        assert frontend is not None
        return [s for seg in frontend.phonemize(text).segments if seg.lang == "zh" for s in seg.pinyin]

    outcomes = run_tables(tables, normalize, pinyin)
    rates = pass_rates(outcomes)

    generated_dir = folder / "generated" if args.cases else GENERATED_DIR
    generated = []
    if "en" in langs and generated_dir.is_dir():
        try:
            gen_tables = load_generated(generated_dir)
        except ValueError as e:
            raise CLIError(str(e)) from e
        for table in gen_tables:
            ok, total, fails = score(table.cases, normalize)[table.cls] if table.cases else (0, 0, [])
            generated.append((table, ok, total, fails))

    external = None
    if external_cases is not None:
        reader = external_norm.mandarin_reader(frontend) if external_lang == "zh" else normalize
        external = external_norm.score(external_cases, reader, external_norm.key_for(external_lang))

    cpp_dir = args.cpp or (Path(os.environ["ONESTEP_CPP_DIR"]) if os.environ.get("ONESTEP_CPP_DIR") else None)
    cpp_result = None
    if cpp_dir is not None and "zh" in langs:
        try:
            items = cpp.load_split(cpp_dir, args.split)
        except (OSError, ValueError) as e:
            raise CLIError(f"cannot read CPP {args.split} from {cpp_dir}: {e}") from e
        cpp_result = cpp.evaluate(items, frontend.tools("zh").g2p.char_readings, args.split, progress=not args.json)

    failures = [o for o in outcomes if not o.passed]
    if args.json:
        report = {
            "cpp": None if cpp_result is None else {
                "split": cpp_result.split, "sentences": cpp_result.total, "right": cpp_result.right,
                "accuracy": round(cpp_result.accuracy, 5), "ms_per_sentence": round(
                    1000 * cpp_result.seconds / max(1, cpp_result.total), 3),
            },
            "cases": [{"lang": r.lang, "kind": r.kind, "category": r.category, "passed": r.passed,
                       "total": r.total, "rate": round(r.rate, 4),
                       **({"syllables_right": r.units_right, "syllables": r.units_total,
                           "syllable_rate": round(r.unit_rate, 4)} if r.kind == "pinyin" else {})}
                      for r in rates],
            "generated": [{"class": t.cls, "seed": t.seed, "cases": total, "passed": ok,
                           "rate": round(ok / max(1, total), 4), "first_run_passed": t.first_passed,
                           "first_run_rate": round(t.first_passed / max(1, t.first_total), 4)}
                          for t, ok, total, _ in generated],
            "external": None if external is None else {
                "path": str(args.external), "lang": external_lang,
                "passed": external_norm.totals(external)[0], "total": external_norm.totals(external)[1],
                "audio_passed": external_norm.totals(external, audio=True)[0],
                "audio_total": external_norm.totals(external, audio=True)[1],
                "classes": [{"class": s.cls, "passed": s.passed, "total": s.total, "rate": round(s.rate, 4)}
                            for s in external.values()],
                "failures": [{"class": s.cls, "source": c.source, "input": c.written, "want": c.readings[0],
                              "got": got} for s in external.values() for c, got in s.failures[: args.failures]]
                if args.failures else [],
            },
            "failures": [{"table": o.table.path.name, "line": o.case.line, "input": o.case.input, "want": o.want,
                          "got": o.got} for o in failures[: args.failures * max(1, len(rates))]]
            if args.failures else [],
        }
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0

    if cpp_result is not None:
        print(f"CPP {cpp_result.split}: {cpp_result.accuracy:.2%} of {cpp_result.total} polyphones "
              f"(sandhi-aware; {1000 * cpp_result.seconds / max(1, cpp_result.total):.2f} ms per sentence)")
        print("  published: g2pW 99.08 %, g2pM 97.31 %, pypinyin 86.13 %")
    elif "zh" in langs:
        print("CPP: skipped (give --cpp DIR or set ONESTEP_CPP_DIR)")
    print(f"{'lang':<5}{'kind':<8}{'category':<20}{'pass':>6}{'cases':>7}{'rate':>9}{'syllables':>18}")

    def syllables(kind: str, right: int, total: int) -> str:
        return f"{right:>7}/{total:<5}{right / max(1, total):>6.1%}" if kind == "pinyin" else ""

    for r in rates:
        print(f"{r.lang:<5}{r.kind:<8}{r.category:<20}{r.passed:>6}{r.total:>7}{r.rate:>9.1%}"
              f"{syllables(r.kind, r.units_right, r.units_total):>18}")
    for key in sorted({(r.lang, r.kind) for r in rates}):
        sub = [r for r in rates if (r.lang, r.kind) == key]
        passed, total = sum(r.passed for r in sub), sum(r.total for r in sub)
        right, units = sum(r.units_right for r in sub), sum(r.units_total for r in sub)
        print(f"{key[0]:<5}{key[1]:<8}{'(all)':<20}{passed:>6}{total:>7}{passed / max(1, total):>9.1%}"
              f"{syllables(key[1], right, units):>18}")
    if generated:
        seeds = ", ".join(str(seed) for seed in sorted({g[0].seed for g in generated}))
        print(f"\nGenerated English tables by class (seed {seeds}; first run = when generated):")
        print(f"{'class':<14}{'cases':>7}{'first run':>12}{'now':>9}")
        for t, ok, total, _ in generated:
            print(f"{t.cls:<14}{total:>7}{t.first_passed / max(1, t.first_total):>12.1%}{ok / max(1, total):>9.1%}")
        ok_all, total_all = sum(g[1] for g in generated), sum(g[2] for g in generated)
        first_all = sum(g[0].first_passed for g in generated) / max(1, sum(g[0].first_total for g in generated))
        print(f"{'(all)':<14}{total_all:>7}{first_all:>12.1%}{ok_all / max(1, total_all):>9.1%}")
    if external is not None:
        ok, total = external_norm.totals(external)
        rule = ("read as Mandarin sentences; punctuation, spaces and case ignored" if external_lang == "zh"
                else "lenient: case, punctuation, hyphens, 'and' ignored")
        print(f"\nExternal suite {args.external} ({rule}):")
        print(f"{'class':<16}{'pass':>6}{'cases':>7}{'rate':>9}")
        for s in external.values():
            print(f"{s.cls:<16}{s.passed:>6}{s.total:>7}{s.rate:>9.1%}")
        print(f"{'(all but audio)':<16}{ok:>6}{total:>7}{ok / max(1, total):>9.1%}")
        a_ok, a_total = external_norm.totals(external, audio=True)
        if a_total:
            print(f"{'audio (any of)':<16}{a_ok:>6}{a_total:>7}{a_ok / max(1, a_total):>9.1%}")
    if args.failures:
        if external is not None:
            for s in external.values():
                for c, got in s.failures[: args.failures]:
                    print(f"FAIL external {c.source}  {c.written}\n  want: {c.readings[0]}\n  got:  {got}")
        for t, _, _, fails in generated:
            for case, got in fails[: args.failures]:
                print(f"FAIL generated en-norm-{t.cls}.tsv ({case.variant})  {case.input}\n  want: {case.readings[0]}"
                      f"\n  got:  {got}")
        shown: dict[str, int] = {}
        for o in failures:
            name = o.table.path.name
            if shown.get(name, 0) < args.failures:
                shown[name] = shown.get(name, 0) + 1
                print(f"FAIL {name}:{o.case.line}  {o.case.input}\n  want: {o.want}\n  got:  {o.got}")
    return 0
