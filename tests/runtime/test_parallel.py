"""Windows of one input run at once on several sessions give the samples of one call (tiny voice)."""

from __future__ import annotations

import os

import numpy as np
import onnxruntime as ort
import pytest

from onestep.runtime.buckets import pad_batch
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.engine import frame_bucket
from onestep.runtime.ort_engine import LOG_MEL_FLOOR, OrtEngine, OrtSettings
from onestep.runtime.parallel import spare_cores

SENTENCE = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 3)
MEDIUM = SENTENCE[:60] + [0]  # ~360 frames of the tiny voice
EXACT = 1e-6  # in our runs the samples were bit-identical; allow float rounding of other CPU kernels


def _two_workers(tiny_voice, free: bool) -> OrtEngine:
    """The tiny voice on 2 workers that see free (split every long call) or busy cores (never split)."""
    engine = OrtEngine(tiny_voice, OrtSettings(threads=2))
    for run in (engine._decoder_run, engine._vocoder_run):
        run.cores_free = lambda workers: free
    return engine


@pytest.mark.parametrize("free", [True, False])
def test_two_workers_give_the_one_thread_samples(tiny_voice, free: bool) -> None:
    one = OrtEngine(tiny_voice, OrtSettings(threads=1))
    two = _two_workers(tiny_voice, free)
    assert two._vocoder_run.workers == 2 and one._vocoder_run.workers == 1
    calls = []
    session_run = two._vocoder_run._call
    two._vocoder_run._call = lambda feeds: calls.append(1) or session_run(feeds)  # type: ignore[method-assign]
    a, b = one.synthesize(MEDIUM), two.synthesize(MEDIUM)
    assert 4 * two.context < a.frames_per_id.sum() < 1024  # long enough to split, below the call cap
    assert len(calls) == (2 if free else 1)  # split in two windows only when a core is free
    assert np.array_equal(a.frames_per_id, b.frames_per_id)
    assert np.abs(a.audio - b.audio).max() <= EXACT
    a, b = one.synthesize(SENTENCE, 0.7), two.synthesize(SENTENCE, 0.7)  # beyond the cap: 2 windows anyway
    assert np.abs(a.audio - b.audio).max() <= EXACT
    joined = np.concatenate(list(two.stream(SENTENCE, 0.7).chunks))
    assert np.abs(joined - a.audio).max() <= EXACT


def test_spare_cores_reads_the_machine_where_it_can() -> None:
    spare = spare_cores()
    assert spare is None or spare <= os.cpu_count()


def test_real_length_runs_give_the_padded_bucket_samples(tiny_voice) -> None:
    """The engine's trimmed calls equal one plain run of each graph over the whole padded bucket."""
    engine = OrtEngine(tiny_voice, OrtSettings(threads=1))
    cfg = engine.config
    cpu = ["CPUExecutionProvider"]
    graphs = {k: ort.InferenceSession(str(tiny_voice / cfg.files[k]), providers=cpu) for k in cfg.files}
    ids, mask = pad_batch([SENTENCE], 256)  # the phoneme bucket
    durations, hidden = graphs["acoustic"].run(None, {"phoneme_ids": ids, "phoneme_mask": mask})
    result = engine.synthesize(SENTENCE)
    counts = result.frames_per_id
    n = int(counts.sum())
    size = frame_bucket(n, cfg.frame_buckets)
    frames = np.zeros((1, size, cfg.hidden_dim), dtype=np.float32)
    frames[0, :n] = np.repeat(hidden[0, : len(SENTENCE)], counts, axis=0)
    fmask = (np.arange(size) < n).astype(np.float32)[None]
    mel = graphs["decoder"].run(None, {"frames": frames, "frame_mask": fmask})[0]
    assert np.all(mel[:, :, n:] == LOG_MEL_FLOOR)  # the silence the engine pads with itself
    audio = graphs["vocoder"].run(None, {"mel": mel})[0][0, : n * cfg.audio.hop_length]
    assert np.abs(audio - result.audio).max() <= EXACT


def test_windows_beyond_the_call_cap_keep_their_order_on_two_workers(tiny_voice) -> None:
    long = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 8)
    one = OrtEngine(tiny_voice, OrtSettings(threads=1))
    two = _two_workers(tiny_voice, free=True)
    a, b = one.synthesize(long, 0.5), two.synthesize(long, 0.5)
    assert len(two._vocoder_run.windows(int(a.frames_per_id.sum()))) >= 3  # more windows than workers
    assert np.abs(a.audio - b.audio).max() <= EXACT
