"""The Portuguese (Brazil) frontend's hook for the language registry: ``normalize_pt`` + espeak-ng (teacher style)."""

from functools import partial

from onestep.frontend.espeak_g2p import load_espeak_tools

load_tools = partial(load_espeak_tools, "pt")
