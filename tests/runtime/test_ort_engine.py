"""OrtEngine on the tiny random voice: shapes, streaming = one-shot, determinism, bucket/batch invariance."""

from __future__ import annotations

import numpy as np
import pytest

from onestep.config import ConfigError
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime.engine import StreamSettings
from onestep.runtime.ort_engine import OrtEngine, OrtSettings

SENTENCE = phonemes_to_ids("hələʊ wˈɜːld, ðɪs ɪz ə tˈɛst ʌv ðə ɹˈʌntaɪm.")
LONG = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 8)  # ~400 ids
STREAM_TOLERANCE = 1e-5  # max |streamed - one-shot| sample difference (float32 rounding only)
BUCKET_TOLERANCE = 1e-4  # max sample difference when the same ids run in a larger bucket


def test_audio_length_is_frames_times_hop(engine: OrtEngine) -> None:
    result = engine.synthesize(SENTENCE)
    assert result.audio.dtype == np.float32
    assert result.frames_per_id.shape == (len(SENTENCE),)
    assert result.audio.size == result.frames_per_id.sum() * engine.config.audio.hop_length
    assert np.all(np.abs(result.audio) <= 1.0)


@pytest.mark.parametrize(("ids", "speed"), [(SENTENCE, 1.0), (SENTENCE, 2.0), (LONG, 1.0), (LONG, 0.5)])
def test_streamed_chunks_join_to_the_one_shot_audio(engine: OrtEngine, ids: list[int], speed: float) -> None:
    one_shot = engine.synthesize(ids, speed)
    streamed = engine.stream(ids, speed)
    chunks = list(streamed.chunks)
    assert np.array_equal(streamed.frames_per_id, one_shot.frames_per_id)
    joined = np.concatenate(chunks)
    assert joined.shape == one_shot.audio.shape
    assert np.abs(joined - one_shot.audio).max() <= STREAM_TOLERANCE
    hop = engine.config.audio.hop_length
    assert chunks[0].size == min(engine.stream_settings.first_chunk_frames * hop, one_shot.audio.size)


def test_long_audio_beyond_the_largest_frame_bucket_streams_identically(engine: OrtEngine) -> None:
    one_shot = engine.synthesize(LONG, 0.5)
    assert one_shot.frames_per_id.sum() > engine.config.frame_buckets[-1]  # the windowed one-shot path
    chunks = list(engine.stream(LONG, 0.5).chunks)
    assert np.abs(np.concatenate(chunks) - one_shot.audio).max() <= STREAM_TOLERANCE


def test_voice_without_decoder_reach_streams_from_the_whole_bucket(engine: OrtEngine, voice_copy) -> None:
    plain = OrtEngine(voice_copy("no-model-info", extra={}), warmup=False)
    assert engine.decoder_context == 2 and plain.decoder_context is None  # tiny: 2 blocks of kernel 3
    one_shot = engine.synthesize(SENTENCE)
    joined = np.concatenate(list(plain.stream(SENTENCE).chunks))
    assert np.abs(joined - one_shot.audio).max() <= STREAM_TOLERANCE


def test_first_chunk_size_follows_the_settings(tiny_voice) -> None:
    small = OrtEngine(tiny_voice, stream=StreamSettings(first_chunk_frames=8, chunk_frames=40))
    chunks = list(small.stream(SENTENCE).chunks)
    hop = small.config.audio.hop_length
    assert chunks[0].size == 8 * hop
    assert all(c.size == 40 * hop for c in chunks[1:-1])


def test_synthesis_is_deterministic(engine: OrtEngine) -> None:
    a = engine.synthesize(SENTENCE, 1.3).audio
    b = engine.synthesize(SENTENCE, 1.3).audio
    assert np.array_equal(a, b)


def test_speed_scales_the_durations(engine: OrtEngine) -> None:
    normal = engine.synthesize(SENTENCE, 1.0).frames_per_id.sum()
    fast = engine.synthesize(SENTENCE, 2.0).frames_per_id.sum()
    slow = engine.synthesize(SENTENCE, 0.5).frames_per_id.sum()
    assert abs(fast - normal / 2) <= len(SENTENCE) / 2  # each id rounds by at most half a frame
    assert abs(slow - normal * 2) <= len(SENTENCE) / 2


def test_padding_to_a_bigger_bucket_does_not_change_the_audio(engine: OrtEngine, voice_copy) -> None:
    big = OrtEngine(voice_copy("big-buckets", phoneme_buckets=[512], frame_buckets=[2048]), warmup=False)
    small = engine.synthesize(SENTENCE)
    padded = big.synthesize(SENTENCE)
    assert np.array_equal(small.frames_per_id, padded.frames_per_id)
    assert np.abs(small.audio - padded.audio).max() <= BUCKET_TOLERANCE


def test_batch_gives_each_utterance_its_own_audio(engine: OrtEngine) -> None:
    short = SENTENCE[:12] + [0]
    batch = engine.synthesize_batch([SENTENCE, short, LONG])
    for ids, result in zip([SENTENCE, short, LONG], batch, strict=True):
        alone = engine.synthesize(ids)
        assert np.array_equal(result.frames_per_id, alone.frames_per_id)
        assert np.abs(result.audio - alone.audio).max() <= BUCKET_TOLERANCE


@pytest.mark.parametrize(
    ("batch", "speed", "error", "match"),
    [
        ([[]], 1.0, ValueError, "at least one phoneme id"),
        ([[0] + [50] * 600 + [0]], 1.0, ValueError, "exceeds the largest bucket"),
        ([SENTENCE], 2.5, ConfigError, "speed"),
        ([SENTENCE], 0.1, ConfigError, "speed"),
    ],
)
def test_bad_input_is_rejected(engine: OrtEngine, batch, speed, error, match) -> None:
    with pytest.raises(error, match=match):
        engine.synthesize_batch(batch, speed)


def test_timings_are_collected_per_stage(engine: OrtEngine) -> None:
    timings: dict[str, float] = {}
    engine.synthesize(SENTENCE, timings=timings)
    assert set(timings) == {"acoustic", "regulate", "decoder", "vocoder"}
    assert all(t >= 0 for t in timings.values())


def test_missing_graph_is_a_clear_error(voice_copy) -> None:
    broken = voice_copy("broken")
    (broken / "vocoder.onnx").unlink()
    with pytest.raises(ConfigError, match="missing vocoder graph"):
        OrtEngine(broken)


def test_settings_are_validated() -> None:
    with pytest.raises(ConfigError, match="threads"):
        OrtSettings(threads=0)
    with pytest.raises(ConfigError, match="chunk"):
        StreamSettings(first_chunk_frames=0)
