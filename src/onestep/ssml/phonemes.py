"""``<phoneme alphabet ph>`` -> phonemes of the voices' 114-symbol inventory.

* ``ipa``: the symbols as given, which must all be in the inventory (Kokoro's IPA-based set, as ``onestep
  phonemize`` prints it); spaces separate words.
* ``x-pinyin``: tone-numbered pinyin syllables separated by spaces (``"ni3 hao3"``), converted syllable by
  syllable exactly as the Mandarin frontend does.
"""

from __future__ import annotations

from onestep.frontend.symbols import vocab

ALPHABETS = ("ipa", "x-pinyin")


def to_inventory(alphabet: str, ph: str) -> str:
    """Inventory phonemes for ``ph`` in ``alphabet``; ValueError naming what is not readable."""
    if alphabet not in ALPHABETS:
        raise ValueError(f"alphabet must be one of {', '.join(ALPHABETS)}")
    if not ph.strip():
        raise ValueError("ph is empty")
    if alphabet == "x-pinyin":
        from onestep.frontend.zh.phonemes import syllable_phonemes

        return "".join(syllable_phonemes(s) for s in ph.split())
    table = vocab()
    phonemes = " ".join(ph.split())
    unknown = sorted({c for c in phonemes if c not in table and c != " "})
    if unknown:
        raise ValueError(f"symbols not in the voices' inventory: {' '.join(unknown)}")
    return phonemes
