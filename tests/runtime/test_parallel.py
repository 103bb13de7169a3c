"""Windows of one input run at once on several sessions give the samples of one call (tiny voice)."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from onestep.frontend.buckets import pad_batch
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.engine import frame_bucket
from onestep.runtime.ort_engine import LOG_MEL_FLOOR, OrtEngine, OrtSettings

SENTENCE = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 3)
EXACT = 1e-6  # in our runs the samples were bit-identical; allow float rounding of other CPU kernels


def test_two_workers_split_long_inputs_and_give_the_one_thread_samples(tiny_voice) -> None:
    one = OrtEngine(tiny_voice, OrtSettings(threads=1))
    two = OrtEngine(tiny_voice, OrtSettings(threads=2))
    assert two._vocoder_run.workers == 2 and one._vocoder_run.workers == 1
    a, b = one.synthesize(SENTENCE, 0.7), two.synthesize(SENTENCE, 0.7)
    assert len(two._vocoder_run.windows(int(b.frames_per_id.sum()))) == 2
    assert np.array_equal(a.frames_per_id, b.frames_per_id)
    assert np.abs(a.audio - b.audio).max() <= EXACT
    joined = np.concatenate(list(two.stream(SENTENCE, 0.7).chunks))
    assert np.abs(joined - a.audio).max() <= EXACT


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
    two = OrtEngine(tiny_voice, OrtSettings(threads=2))
    a, b = one.synthesize(long, 0.5), two.synthesize(long, 0.5)
    assert len(two._vocoder_run.windows(int(a.frames_per_id.sum()))) >= 3  # more windows than workers
    assert np.abs(a.audio - b.audio).max() <= EXACT
