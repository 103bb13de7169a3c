"""Static-length buckets: choosing a bucket and padding ids with their mask."""

from __future__ import annotations

import numpy as np
import pytest

from onestep.runtime.buckets import (
    DEFAULT_BUCKETS,
    batch_to_bucket,
    bucket_for,
    pad_batch,
    pad_ids,
    to_bucket,
)
from onestep.frontend.symbols import MAX_PHONEME_IDS, phonemes_to_ids


@pytest.mark.parametrize(("n", "bucket"), [(0, 32), (2, 32), (32, 32), (33, 64), (64, 64), (65, 128), (256, 256), (257, 512), (512, 512)])
def test_bucket_for(n: int, bucket: int) -> None:
    assert bucket_for(n) == bucket


@pytest.mark.parametrize("n", [-1, 513])
def test_bucket_for_out_of_range(n: int) -> None:
    with pytest.raises(ValueError, match=str(n)):
        bucket_for(n)


def test_bucket_for_custom_buckets() -> None:
    assert bucket_for(5, (4, 8)) == 8


def test_largest_utterance_fits_the_largest_bucket() -> None:
    assert bucket_for(MAX_PHONEME_IDS + 2) == DEFAULT_BUCKETS[-1]


def test_pad_ids() -> None:
    ids = phonemes_to_ids("hɛloʊ")
    out, mask = pad_ids(ids, 32)
    assert out.shape == (1, 32) and out.dtype == np.int64
    assert mask.shape == (1, 32) and mask.dtype == np.float32
    assert out[0, : len(ids)].tolist() == ids and not out[0, len(ids) :].any()
    assert mask[0].tolist() == [1.0] * len(ids) + [0.0] * (32 - len(ids))


def test_to_bucket_picks_the_smallest_bucket() -> None:
    out, mask = to_bucket([0] + [16] * 40 + [0])
    assert out.shape == (1, 64) and mask.sum() == 42


def test_pad_batch_and_batch_to_bucket() -> None:
    batch = [[0, 5, 0], [0, 5, 6, 7, 0]]
    out, mask = pad_batch(batch, 8)
    assert out.tolist() == [[0, 5, 0, 0, 0, 0, 0, 0], [0, 5, 6, 7, 0, 0, 0, 0]]
    assert mask.sum(axis=1).tolist() == [3.0, 5.0]
    assert batch_to_bucket(batch)[0].shape == (2, 32)


def test_pad_rejects_too_long() -> None:
    with pytest.raises(ValueError, match="sequence 0 has 5 ids"):
        pad_ids([1, 2, 3, 4, 5], 4)
