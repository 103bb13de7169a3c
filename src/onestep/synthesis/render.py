"""The engine half of synthesis: prepared texts rendered into whole :class:`Audio` s.

Plain texts' utterances share batched engine passes per (voice, speed); an SSML text's pieces run one after
the other. :func:`render_batch` pipelines many texts: the frontend before and the assembly after each pass run
on a host pool while the calling thread feeds the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from onestep.config import SynthesisOptions
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.host_pool import HostPool, run_ordered
from onestep.synthesis.assembly import apply_output, assemble
from onestep.synthesis.passes import EngineResults, engine_pass, engine_pass_or_errors, render_plan
from onestep.synthesis.prepare import PreparedText, prepare_job, prepare_text
from onestep.synthesis.resources import Resources
from onestep.synthesis.results import Audio
from onestep.synthesis.timings import phoneme_timings, seconds_per_frame, utterance_spans
from onestep.synthesis.voice_choice import VoiceArg


def timestamp_mode(timestamps: bool | str) -> str:
    """``render``'s ``timestamps`` argument as :func:`assemble`'s: ``"char"``, ``"word"`` or ``""`` (none)."""
    return "char" if timestamps == "char" else ("word" if timestamps else "")


def synthesize_prepared(p: PreparedText, words: str, resources: Resources) -> Audio:
    """``TTS.synthesize`` of a prepared text: an engine pass per utterance (or the SSML plan's pieces), joined,
    timed (``words``: ``"word"``, ``"char"`` or ``""``) and through the output options."""
    if p.plan is not None:
        return render_plan(p, words, resources)
    results = [p.engine.synthesize(ids, p.speed) for ids in p.ids]
    frames, audio = [r.frames_per_id for r in results], [r.audio for r in results]
    out = apply_output(assemble(p.utterances, frames, audio, p.engine, p.entry, words, p.text), p.output)
    out.skipped = p.skipped
    return out


def render_prepared(prepared: Sequence[PreparedText], words: str, resources: Resources) -> list[Audio]:
    """``TTS.render``: one batched pass per (voice, speed) over every utterance of ``prepared``, then each
    text's :class:`Audio`, in order."""
    return [finish(p, parts, words, resources) for p, parts in zip(prepared, engine_pass(prepared), strict=True)]


def render_batch(
    texts: Sequence[str],
    voices: Sequence[VoiceArg] | None,
    speeds: Sequence[float] | None,
    languages: Sequence[str | None] | None,
    timestamps: bool | str,
    pool: HostPool | None,
    errors: str,
    resources: Resources,
    max_phonemes: int | None,
) -> list[Audio]:
    """``TTS.synthesize_batch`` (its arguments as documented there)."""
    n = len(texts)
    voices = list(voices) if voices is not None else [None] * n
    speeds = list(speeds) if speeds is not None else [1.0] * n
    langs = list(languages) if languages is not None else [None] * n
    if not len(voices) == len(speeds) == len(langs) == n:
        raise ValueError(
            f"texts, voices, speeds and languages differ in length: {n}, {len(voices)}, {len(speeds)}, {len(langs)}"
        )
    if errors not in ("raise", "return"):
        raise ValueError(f"errors must be 'raise' or 'return', got {errors!r}")
    jobs = list(zip(texts, voices, speeds, langs, strict=True))
    words = timestamp_mode(timestamps)
    if n < 2 and (pool is None or pool.settings.processes):  # one text: serially here (no handing over)
        try:
            prepared = [prepare_text(t, v, s, resources, max_phonemes, language=lang) for t, v, s, lang in jobs]
            return render_prepared(prepared, words, resources)
        except Exception as e:
            if errors == "raise":
                raise
            return [e]  # type: ignore[list-item]
    pool = pool or resources.host_pool()
    if pool.settings.processes:  # the frontend and the finishing work in worker processes
        from onestep.synthesis.remote import render_in_processes

        done = render_in_processes(jobs, words, pool, resources, max_phonemes, pool.settings.chunk)
        if errors == "raise":
            for result in done:
                if isinstance(result, Exception):
                    raise result
        return done  # type: ignore[return-value]
    if errors == "raise":
        return run_ordered(
            jobs,
            lambda job: prepare_job(job, pool, resources, max_phonemes),
            engine_pass,
            lambda p, q: finish(p, q, words, resources),
            pool,
        )

    def prepare(job: tuple[str, VoiceArg, float, str | None]) -> PreparedText | Exception:
        try:
            return prepare_job(job, pool, resources, max_phonemes)
        except Exception as e:
            return e

    def finish_or_error(p: PreparedText | Exception, q: EngineResults | Exception) -> Audio | Exception:
        if isinstance(p, Exception) or isinstance(q, Exception):
            return p if isinstance(p, Exception) else q  # type: ignore[return-value]
        try:
            return finish(p, q, words, resources)
        except Exception as e:
            return e

    return run_ordered(jobs, prepare, engine_pass_or_errors, finish_or_error, pool)  # type: ignore[arg-type]


def finish(p: PreparedText, parts: Sequence[tuple[np.ndarray, np.ndarray]], words: str, resources: Resources) -> Audio:
    """A prepared text's :class:`Audio` from its utterances' engine results (assembly, timings, output)."""
    if p.plan is not None:  # SSML: its pieces one after the other (not batched)
        return render_plan(p, words, resources)
    frames, samples = [q[0] for q in parts], [q[1] for q in parts]
    audio = apply_output(assemble(p.utterances, frames, samples, p.engine, p.entry, words, p.text), p.output)
    audio.skipped = p.skipped
    return audio


def render_phonemes(phonemes: str, voice: VoiceArg, speed: float, resources: Resources) -> Audio:
    """``TTS.synthesize_phonemes``: one utterance given as phonemes, with its phoneme timings."""
    speed = SynthesisOptions(speed=speed).speed
    entry = resources.voices.entry(voice, "")
    engine = resources.engine(entry)
    result = engine.synthesize(phonemes_to_ids(phonemes), speed)
    spans = utterance_spans(phonemes, result.frames_per_id, result.audio)
    stamps = phoneme_timings(phonemes, spans, seconds_per_frame(engine), 0.0)
    return Audio(result.audio, engine.sample_rate, phonemes, [], stamps, entry.name)
