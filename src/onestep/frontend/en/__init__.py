"""English frontend: normalization (``normalize``), tokenizer, tagger and G2P (``g2p``).

``tools.load_tools`` is the hook the language registry (:mod:`onestep.languages`) names for English.
"""
