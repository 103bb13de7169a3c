"""The engine passes of prepared texts: one batched pass per (voice, speed) over their utterances, and an SSML
text's plan rendered piece by piece (what :mod:`onestep.synthesis.render` and :mod:`onestep.synthesis.remote`
share)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from onestep.synthesis.assembly import apply_output
from onestep.synthesis.prepare import PreparedText
from onestep.synthesis.resources import Resources
from onestep.synthesis.results import Audio
from onestep.synthesis.ssml_plan import plan_phonemes, plan_rate
from onestep.synthesis.streaming import plan_chunks

EngineResults = list[tuple[np.ndarray, np.ndarray]]
"""Per utterance of a text, the engine's (frames per id int [ids + 2], native-rate audio float32 [frames x hop])."""


def engine_pass(prepared: Sequence[PreparedText]) -> list[EngineResults]:
    """One batched engine pass per (voice, speed) over every utterance of ``prepared``: per prepared text,
    per utterance, (frames per id, native audio); SSML texts get none (their pieces run in :func:`finish`)."""
    groups: dict[tuple[Path, str, float], list[tuple[int, int]]] = {}
    for i, p in enumerate(prepared):
        if p.plan is None:
            for j in range(len(p.ids)):
                groups.setdefault(p.batch_key, []).append((i, j))
    out: list[EngineResults] = [[] for _ in prepared]
    for (_, _, speed), members in groups.items():
        engine = prepared[members[0][0]].engine
        batch = [prepared[i].ids[j] for i, j in members]
        for (i, _), result in zip(members, engine.synthesize_batch(batch, speed), strict=True):
            out[i].append((result.frames_per_id, result.audio))  # members are in (i, j) order
    return out


def engine_pass_or_errors(prepared: Sequence[PreparedText | Exception]) -> list[EngineResults | Exception]:
    """:func:`engine_pass` over the texts that were prepared (an error stays in its place); when the
    batched pass fails, each text alone, so that only the bad one gets the error."""
    good = [p for p in prepared if not isinstance(p, Exception)]
    try:
        done: list[EngineResults | Exception] = list(engine_pass(good))
    except Exception:
        done = []
        for p in good:
            try:
                done += engine_pass([p])
            except Exception as e:
                done.append(e)
    results = iter(done)
    return [p if isinstance(p, Exception) else next(results) for p in prepared]


def render_plan(p: PreparedText, timestamps: str, resources: Resources) -> Audio:
    """The whole audio of a prepared SSML text (the same samples as streaming it)."""
    assert p.plan is not None
    rate = plan_rate(p.plan, p.entry.path, resources.voices)
    parts, words = [], []
    for samples, w in plan_chunks(p.plan, p.speed, rate, timestamps, resources, p.text):
        parts.append(samples)
        words += w
    samples = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
    audio = Audio(samples, rate, " ".join(plan_phonemes(p.plan)), words, [], p.entry.name)
    return apply_output(audio, p.output)
