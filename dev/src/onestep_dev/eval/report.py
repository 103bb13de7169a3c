"""Markdown summary of an evaluation's ``results.json``."""

from __future__ import annotations

from typing import Any


def _fmt(value: float | None, pct: bool = False, digits: int = 2) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f} %" if pct else f"{value:.{digits}f}"


def markdown_report(results: dict[str, Any], worst: int = 5) -> str:
    """A table per system (error rate per section, DNSMOS, RTF) and each system's worst sentences."""
    metric = results["metric"]
    systems: dict[str, dict[str, Any]] = results["systems"]
    sections = list(dict.fromkeys(s for r in systems.values() for s in r["by_section"]))
    head = ["system", "n", metric, *(f"{metric} {s}" for s in sections), "SIG", "BAK", "OVRL", "RTF", "failed"]
    lines = [
        f"# OneStep eval ({results['lang']}, {metric} by {results['asr']}, {results['created']})",
        "",
        "| " + " | ".join(head) + " |",
        "| " + " | ".join(["---"] + ["---:"] * (len(head) - 1)) + " |",
    ]
    for name, r in systems.items():
        q = r["dnsmos"] or {}
        cells = [
            name,
            str(r["sentences"]),
            _fmt(r["error_rate"], pct=True),
            *(_fmt(r["by_section"].get(s), pct=True) for s in sections),
            _fmt(q.get("sig")),
            _fmt(q.get("bak")),
            _fmt(q.get("ovrl")),
            _fmt(r["rtf"], digits=3),
            str(r["failures"]),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        f"{metric}: all unit errors / all reference units after normalization (docs/EVAL.md). "
        "RTF: synthesis seconds / audio seconds on this machine.",
        "",
    ]
    pairs = [p for p in results.get("agreement", []) if p["rate"] is not None]
    if pairs:
        lines += [
            f"## Agreement ({metric} of one system's transcripts against another's)",
            "",
            f"| reference transcripts | scored transcripts | n | {metric} |",
            "| --- | --- | ---: | ---: |",
            *(f"| {p['reference']} | {p['hypothesis']} | {p['sentences']} | {_fmt(p['rate'], pct=True)} |" for p in pairs),
            "",
        ]
    for name in systems:
        scored = [
            (row["systems"][name]["errors"]["rate"], row)
            for row in results["sentences"]
            if "errors" in row["systems"].get(name, {})
        ]
        scored = [x for x in sorted(scored, key=lambda x: -x[0]) if x[0] > 0][:worst]
        if not scored:
            continue
        lines += [
            f"## Worst sentences: {name}",
            "",
            f"| id | {metric} | reference | ASR |",
            "| --- | ---: | --- | --- |",
        ]
        for rate, row in scored:
            asr = row["systems"][name]["asr"].replace("|", "/")
            lines.append(f"| {row['id']} | {100 * rate:.0f} % | {row['text'].replace('|', '/')} | {asr} |")
        lines.append("")
    return "\n".join(lines)
