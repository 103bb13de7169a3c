"""NOTICE names the shipped voices as they are: every voice folder it names exists, every shipped one is named."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VOICES = ROOT / "src" / "onestep" / "voices"


def test_notice_names_exactly_the_shipped_voice_folders_and_their_teachers() -> None:
    notice = (ROOT / "NOTICE").read_text(encoding="utf-8")
    named = set(re.findall(r"src/onestep/voices/([\w.-]+)", notice))
    shipped = {p.name for p in VOICES.iterdir() if (p / "voice.json").is_file()}
    assert named == shipped
    for folder in shipped:
        config = json.loads((VOICES / folder / "voice.json").read_text(encoding="utf-8"))
        teachers = [s["teacher"].rsplit("/", 1)[-1] for s in config.get("speakers", [])]
        assert all(re.search(rf"\b{t}\b", notice) for t in teachers), teachers


def test_the_dev_distribution_ships_the_same_license_and_notice() -> None:
    """dev/ (the onestep-tts-dev wheel) carries copies of the root's LICENSE and NOTICE and lists both."""
    for name in ("LICENSE", "NOTICE"):
        assert (ROOT / "dev" / name).read_bytes() == (ROOT / name).read_bytes(), f"dev/{name} differs from {name}"
    config = (ROOT / "dev" / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^license-files = \["LICENSE", "NOTICE"\]$', config, re.M)
