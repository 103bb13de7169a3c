"""Per-voice training text: deterministic per voice, different between voices and between draws."""

from __future__ import annotations

import json

from onestep_dev.train import voice_corpus


def _pools() -> dict[str, list[str]]:
    return {
        "en": [json.dumps({"text": f"en {i}"}) for i in range(200)],
        "zh": [json.dumps({"text": f"zh {i}"}) for i in range(100)],
    }


def test_a_voice_gets_the_same_rows_each_time_and_the_counts_it_asked_for() -> None:
    take = {"en": 20, "zh": 10}
    first = voice_corpus.voice_rows(_pools(), take, "af_heart")
    assert first == voice_corpus.voice_rows(_pools(), take, "af_heart")
    assert sum(r.startswith('{"text": "en') for r in first) == 20
    assert sum(r.startswith('{"text": "zh') for r in first) == 10
    assert len(set(first)) == 30


def test_voices_and_draws_sample_different_sentences() -> None:
    take = {"en": 20, "zh": 10}
    heart = voice_corpus.voice_rows(_pools(), take, "af_heart")
    bella = voice_corpus.voice_rows(_pools(), take, "af_bella")
    heart_2 = voice_corpus.voice_rows(_pools(), take, "af_heart", draw=2)
    assert heart != bella
    assert heart != heart_2
    assert heart_2 == voice_corpus.voice_rows(_pools(), take, "af_heart", draw=2)


def test_the_command_writes_one_file_per_voice_and_the_speaker_order(tmp_path) -> None:
    pool = tmp_path / "en.jsonl"
    pool.write_text("\n".join(_pools()["en"]) + "\n", encoding="utf-8")
    out = tmp_path / "voices"
    rc = voice_corpus.main(["--pool", f"en={pool}", "--take", "en=5", "--voices", "b,a", "--draw", "1",
                            "--out", str(out)])
    assert rc == 0
    assert json.loads((out / "speakers.json").read_text()) == ["b", "a"]
    assert len((out / "a.jsonl").read_text().splitlines()) == 5
