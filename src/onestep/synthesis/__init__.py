"""The work behind :class:`onestep.TTS`, one job a module (the layer between ``runtime/`` and ``api.py``).

::

    voice_choice  which voice speaks a request (name, directory, language default; read in a language)
    resources     what one TTS loads once and shares: engines per voice, the frontend, the host pool
    preload       warming the frontend of every language ahead of the calls
    ssml_plan     SSML -> its pieces, each with its voice; their work in phonemes
    prepare       the text half: options checked, frontend run -> PreparedText
    results       Audio, AudioChunk, WordTiming, PhonemeTiming
    timings       word and phoneme timings from frames per phoneme id
    assembly      utterances' audio and timings joined into one Audio, output options applied
    render        the engine half: prepared texts -> Audio (batched passes, SSML plans, batches of texts)
    streaming     chunk-by-chunk rendering through a stateful output stage, words as they become final

Nothing here imports ``api``; ``api.TTS`` holds one :class:`~onestep.synthesis.voice_choice.VoiceChoice` and one
:class:`~onestep.synthesis.resources.Resources` and hands each call to these functions.
"""
