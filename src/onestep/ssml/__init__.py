"""SSML input: a documented subset (docs/SSML.md) parsed into a plan of pieces that the API speaks in order.

    from onestep.ssml import is_ssml, parse_ssml
    plan = parse_ssml('<speak>Hello <break time="300ms"/> <say-as interpret-as="characters">TTS</say-as></speak>')
    # [Speech('Hello', ...), Pause(0.3), Speech('T T S', ...)]

Text that starts with ``<speak`` (after white space) is SSML in every interface. The parser is
``defusedxml`` (no DTDs, no entity expansion, no external entities).
"""

from onestep.ssml.parse import Pause, Phonemes, Piece, SsmlError, Speech, is_ssml, parse_ssml

__all__ = ["Pause", "Phonemes", "Piece", "Speech", "SsmlError", "is_ssml", "parse_ssml"]
