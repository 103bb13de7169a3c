"""The SSML subset of a batch row: ``<speak>`` text with ``<voice name>``, ``<prosody rate>``, ``<sub alias>``.

Everything else is read for its text (``<s>``, ``<p>``, ``<say-as>``, ...); ``<break>`` becomes a comma
pause. Documents with a DOCTYPE or entity declarations are refused (no entity expansion).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from onestep.config import SPEED_MAX, SPEED_MIN

#: Named prosody rates -> engine speed.
NAMED_RATES = {"x-slow": 0.5, "slow": 0.75, "medium": 1.0, "default": 1.0, "fast": 1.25, "x-fast": 1.5}


class SsmlError(ValueError):
    """The SSML cannot be read (not well-formed, a DOCTYPE, a bad rate)."""


@dataclass(frozen=True)
class SsmlText:
    """What a row's SSML says: the ``text`` to speak, and the ``voice`` / ``speed`` it asks for (None: not set)."""

    text: str
    voice: str | None = None
    speed: float | None = None


def parse_rate(rate: str) -> float:
    """A prosody ``rate`` (``"fast"``, ``"120%"``, ``"1.2"``) as an engine speed, clamped to the engine's range."""
    r = rate.strip().lower()
    if r in NAMED_RATES:
        value = NAMED_RATES[r]
    else:
        m = re.fullmatch(r"([0-9]*\.?[0-9]+)\s*(%?)", r)
        if not m:
            raise SsmlError(f"unsupported prosody rate {rate!r}")
        value = float(m.group(1)) / (100.0 if m.group(2) else 1.0)
        if value <= 0:
            raise SsmlError(f"prosody rate must be positive, got {rate!r}")
    return min(max(value, SPEED_MIN), SPEED_MAX)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]  # drop an XML namespace


def parse_ssml(ssml: str) -> SsmlText:
    """Read ``ssml`` (a ``<speak>`` document, or a fragment: it is wrapped in ``<speak>`` when needed)."""
    if re.search(r"<!\s*(DOCTYPE|ENTITY)", ssml, re.I):
        raise SsmlError("SSML with a DOCTYPE or entity declarations is not accepted")
    doc = ssml.strip()
    if not re.match(r"<(\w+:)?speak[\s>]", doc):
        doc = f"<speak>{doc}</speak>"
    try:
        root = ET.fromstring(doc)
    except ET.ParseError as e:
        raise SsmlError(f"SSML is not well-formed: {e}") from None
    voice: str | None = None
    speed: float | None = None
    parts: list[str] = []

    def walk(el: ET.Element) -> None:
        nonlocal voice, speed
        tag = _local(el.tag)
        if tag == "voice" and voice is None and el.get("name"):
            voice = el.get("name")
        if tag == "prosody" and speed is None and el.get("rate"):
            speed = parse_rate(el.get("rate", ""))
        if tag == "break":
            parts.append(", ")
        elif tag == "sub" and el.get("alias") is not None:
            parts.append(el.get("alias", ""))
        else:
            parts.append(el.text or "")
            for child in el:
                walk(child)
        if el is not root:
            parts.append(el.tail or "")

    walk(root)
    text = re.sub(r"\s+", " ", "".join(parts)).strip()
    return SsmlText(text, voice, speed)
