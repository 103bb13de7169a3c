"""Set the per-voice mel postfilter strengths of a multi-speaker pack (``voice.json`` speakers' ``mel_sharpen``).

The graphs do not change: every engine reads the strengths at load (:mod:`onestep.runtime.mel_postfilter`), so
a pack's postfilter is a ``voice.json`` edit, checked against its speaker table before it is written.

    python -m onestep_dev.train.postfilter PACK --strength 0.75 --language zh=0   # the others 0.75, Mandarin 0
    python -m onestep_dev.train.postfilter PACK --strength 0.75 --language zh=0 --voice ja-kumo=1.1   # one voice
    python -m onestep_dev.train.postfilter PACK --strength 0                      # off
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from onestep.config import SpeakerInfo, VoiceConfig
from onestep.runtime.mel_postfilter import pack_postfilter
from onestep.runtime.speakers import load_speaker_table


def set_strengths(
    pack: Path,
    strength: float,
    by_language: dict[str, float] | None = None,
    by_voice: dict[str, float] | None = None,
) -> dict[str, float]:
    """Give every speaker of ``pack`` its entry of ``by_voice``, else its native language's entry of
    ``by_language``, else ``strength``; returns {voice: strength}. Raises ConfigError (pack unchanged) when the
    speaker table cannot carry them, ValueError for a ``by_voice`` name the pack does not have."""
    by_language, by_voice = by_language or {}, by_voice or {}
    path = pack / "voice.json"
    config = VoiceConfig.load(path)
    unknown = sorted(set(by_voice) - {s.name for s in config.speakers})
    if unknown:
        raise ValueError(f"no such voice in {pack}: {', '.join(unknown)}")

    def chosen(s: SpeakerInfo) -> float:
        return float(by_voice.get(s.name, by_language.get(s.language, strength)))

    speakers = tuple(replace(s, mel_sharpen=chosen(s)) for s in config.speakers)
    updated = replace(config, speakers=speakers)
    pack_postfilter(updated, load_speaker_table(pack, updated))  # validates before anything is written
    updated.save(path)
    return {s.name: s.mel_sharpen for s in speakers}


def main(argv: list[str] | None = None) -> int:
    doc = (__doc__ or "").split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m onestep_dev.train.postfilter", description=doc)
    parser.add_argument("pack", type=Path, help="a multi-speaker voice directory")
    parser.add_argument("--strength", type=float, required=True, help="every voice's strength (0: off)")
    parser.add_argument("--language", action="append", default=[], metavar="CODE=STRENGTH",
                        help="the voices of this native language get this strength instead (repeatable)")  # fmt: skip
    parser.add_argument("--voice", action="append", default=[], metavar="NAME=STRENGTH",
                        help="this voice gets this strength, whatever its language (repeatable)")  # fmt: skip
    args = parser.parse_args(argv)

    def pairs(items: list[str], option: str, what: str) -> dict[str, float]:
        out = {}
        for item in items:
            key, _, value = item.partition("=")
            if not value:
                parser.error(f"{option} wants {what}=STRENGTH, got {item!r}")
            out[key] = float(value)
        return out

    try:
        strengths = set_strengths(args.pack, args.strength, pairs(args.language, "--language", "CODE"),
                                  pairs(args.voice, "--voice", "NAME"))  # fmt: skip
    except ValueError as e:
        parser.error(str(e))
    groups: dict[float, list[str]] = {}
    for name, value in strengths.items():
        groups.setdefault(value, []).append(name)
    for value, names in sorted(groups.items()):
        print(f"{value:g}: {len(names)} voices ({', '.join(names)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
