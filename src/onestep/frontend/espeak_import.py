"""Importing misaki's espeak module (the English out-of-lexicon fallback, the espeak-read languages' G2P) without
what phonemizer imports but these never use.

phonemizer imports every one of its backends at the top, the segments backend among them: ``segments`` imports
csvw, which imports rdflib, jsonschema and language_tags (~0.13 s of a ~0.5 s English + Mandarin preload from
bytecode on a 2-core CPU, ~0.35 s when the modules run from source). Only the espeak backend is used here, so
``segments`` is deferred (:func:`onestep.frontend.import_tools.defer_import`): ``import segments`` binds a
stand-in, and ``segments.Profile`` (read by phonemizer's segments backend at import, in an annotation) and
``segments.Tokenizer`` read as lazy attributes; the first real use (phonemizer's segments backend, by anyone in
the process) imports it. joblib (phonemizer imports it for ``njobs > 1`` only; ~4 MB resident) is deferred too.
"""

from __future__ import annotations

import types

from onestep.frontend.import_tools import defer_import


def import_misaki_espeak() -> types.ModuleType:
    """``misaki.espeak`` (imported now if it is not), with ``joblib`` and ``segments`` deferred to their first use."""
    defer_import("joblib")
    defer_import("segments", lazy_names=("Profile", "Tokenizer"))
    import misaki.espeak

    return misaki.espeak
