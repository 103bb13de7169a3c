"""Mandarin frontend: normalization (``normalize``), G2P (``g2p``) and their tables.

``tools.load_tools`` is the hook the language registry (:mod:`onestep.languages`) names for Mandarin.
"""
