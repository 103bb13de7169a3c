"""Code-switched rows rendered in language runs (onestep_dev.train.splice): ids, durations and audio stay aligned."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from onestep.frontend.symbols import PAD_ID, phonemes_to_ids
from onestep_dev.train.splice import CARRIER_BEFORE, MODES, language_runs, splice_render
from onestep_dev.train.teacher_data import generate_shard, read_rows, render_row

HOP = 600
ZH1, EN, ZH2 = "ni↗ pa↓", "pˈipˈitˈi", "fa→ kei↓ wo↓."
SEGMENTS = [["zh", ZH1], ["en", EN], ["zh", ZH2]]
PHONEMES = f"{ZH1} {EN} {ZH2}"


class FakeTeacher:
    """Units per id depend on the id AND on the rendered sequence's length (as a context would); each id's
    samples hold a level of its own plus a per-render offset, so the source of every sample is known."""

    def __init__(self) -> None:
        self.calls: list[list[int]] = []
        self.speeds: list[float] = []

    def units(self, ids: list[int]) -> np.ndarray:
        return np.array([1 + (i + len(ids)) % 3 for i in ids], dtype=np.int64)

    def level(self, i: int, ids: list[int]) -> float:
        return 0.001 * i + 0.1 * (len(ids) % 5)

    def __call__(self, ids: list[int], style: np.ndarray | None = None, seed: int = 0,
                 speed: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        self.calls.append(list(ids))
        self.speeds.append(speed)
        units = self.units(ids) * (2 if speed < 1 else 1)
        audio = np.concatenate([np.full(u * HOP, self.level(i, ids), np.float32) for i, u in zip(ids, units)])
        return audio, units


def test_runs_join_exactly_to_the_row_ids() -> None:
    runs = language_runs(SEGMENTS, PHONEMES)
    assert runs is not None and [lang for lang, _ in runs] == ["zh", "en", "zh"]
    space = phonemes_to_ids(" ", pad=False)
    assert runs[0][1] == phonemes_to_ids(ZH1, pad=False) + space  # the joining space ends the run before it
    assert runs[1][1] == phonemes_to_ids(EN, pad=False) + space
    assert [PAD_ID, *(i for _, ids in runs for i in ids), PAD_ID] == phonemes_to_ids(PHONEMES)


def test_runs_merge_one_language_and_refuse_what_does_not_fit() -> None:
    merged = language_runs([["zh", ZH1], ["zh", "xau↓"], ["en", EN]], f"{ZH1} xau↓ {EN}")
    assert merged is not None and [lang for lang, _ in merged] == ["zh", "en"]
    assert language_runs([["zh", ZH1], ["zh", ZH2]], f"{ZH1} {ZH2}") is None  # one language: a plain render
    assert language_runs(SEGMENTS, PHONEMES.replace(" ", "", 1)) is None  # segments that do not join to the row


@pytest.mark.parametrize("mode", MODES)
def test_spliced_row_keeps_every_id_and_sample(mode: str) -> None:
    teacher = FakeTeacher()
    runs = language_runs(SEGMENTS, PHONEMES)
    audio, units = splice_render(teacher, runs, mode, hop=HOP)
    row = phonemes_to_ids(PHONEMES)
    assert units.shape == (len(row),) and audio.size == int(units.sum()) * HOP
    # every id's samples come from the render that gave it its duration (away from the cross-faded joins)
    starts = np.concatenate([[0], np.cumsum(units)]) * HOP
    en_ids = phonemes_to_ids(EN, pad=False)
    en_at = len(runs[0][1]) + 1
    for k in (1, en_at + 1, len(row) - 2):  # an id well inside the first, the English and the last run
        sample = audio[(starts[k] + starts[k + 1]) // 2]
        assert any(abs(sample - teacher.level(row[k], c)) < 1e-6 and units[k] == teacher.units(c)[j]
                   for c in teacher.calls for j in range(len(c)) if c[j] == row[k])
    holds_english = [any(c[i : i + len(en_ids)] == en_ids for i in range(len(c))) for c in teacher.calls]
    english_render = [c for c, has in zip(teacher.calls, holds_english) if has and c != row]
    assert english_render, "the English run is rendered on its own"
    if mode == "carrier":
        before = phonemes_to_ids(CARRIER_BEFORE, pad=False)
        assert english_render[0][1 : 1 + len(before)] == before
    if mode in ("english", "carrier"):
        assert row in teacher.calls  # Mandarin keeps the whole sentence's render
        whole = teacher.units(row)
        assert units[: en_at].tolist() == whole[: en_at].tolist()
        assert units[en_at + len(runs[1][1]) :].tolist() == whole[en_at + len(runs[1][1]) :].tolist()


def test_english_runs_can_be_rendered_slower() -> None:
    teacher = FakeTeacher()
    runs = language_runs(SEGMENTS, PHONEMES)
    base = splice_render(FakeTeacher(), runs, "english", hop=HOP)[1]
    audio, units = splice_render(teacher, runs, "english", hop=HOP, english_speed=0.8)
    assert sorted(teacher.speeds) == [0.8, 1.0]  # the English run alone slower, the whole row as usual
    en = slice(len(runs[0][1]) + 1, len(runs[0][1]) + 1 + len(runs[1][1]))
    assert units[en].tolist() == (2 * base[en]).tolist()
    assert np.delete(units, np.r_[en]).tolist() == np.delete(base, np.r_[en]).tolist()
    assert audio.size == int(units.sum()) * HOP


@pytest.mark.parametrize("limit_db", [1.0, 40.0])
def test_english_runs_can_match_the_level_of_the_row(limit_db: float) -> None:
    runs = language_runs(SEGMENTS, PHONEMES)
    row = phonemes_to_ids(PHONEMES)
    as_is, units = splice_render(FakeTeacher(), runs, "english", hop=HOP)
    matched, units2 = splice_render(FakeTeacher(), runs, "english", hop=HOP, match_level_db=limit_db)
    whole_audio, whole_units = FakeTeacher()(row)
    assert np.array_equal(units, units2)
    edges = np.cumsum(np.r_[0, units]) * HOP
    en = (len(runs[0][1]) + 1, len(runs[0][1]) + 1 + len(runs[1][1]))
    inner = slice(edges[en[0]] + 200, edges[en[1]] - 200)  # the English run away from its joins
    rms = lambda x: float(np.sqrt(np.mean(x.astype(np.float64) ** 2)))  # noqa: E731
    ref = rms(whole_audio[np.cumsum(np.r_[0, whole_units])[en[0]] * HOP : np.cumsum(np.r_[0, whole_units])[en[1]] * HOP])
    gain_db = 20 * np.log10(rms(matched[inner]) / rms(as_is[inner]))
    wanted = 20 * np.log10(ref / rms(as_is[edges[en[0]] : edges[en[1]]]))
    assert abs(wanted) > 1.0  # the fake's renders differ in level
    assert gain_db == pytest.approx(np.clip(wanted, -limit_db, limit_db), abs=0.05)
    outside = np.r_[0 : edges[en[0]] - 120, edges[en[1]] + 120 : as_is.size]
    assert np.array_equal(matched[outside], as_is[outside])  # Mandarin untouched


def test_joins_are_cross_faded_without_changing_length() -> None:
    teacher = FakeTeacher()
    runs = language_runs(SEGMENTS, PHONEMES)
    hard, units = splice_render(teacher, runs, "runs", hop=HOP, crossfade=0)
    soft, units2 = splice_render(teacher, runs, "runs", hop=HOP, crossfade=240)
    assert np.array_equal(units, units2) and hard.size == soft.size
    join = int(units[: len(runs[0][1]) + 1].sum()) * HOP  # end of the first run
    assert hard[join - 1] != hard[join]  # two renders meet here
    lo, hi = sorted((hard[join - 1], hard[join]))
    assert lo - 1e-6 <= soft[join - 60] <= hi + 1e-6 and soft[join - 60] not in (hard[join - 1], hard[join])
    second = int(units[: len(runs[0][1]) + len(runs[1][1]) + 1].sum()) * HOP
    far = np.r_[0 : join - 120, join + 120 : second - 120, second + 120 : hard.size]
    assert np.array_equal(hard[far], soft[far])  # only the joins change


def test_rows_without_two_languages_render_as_before(tmp_path: Path) -> None:
    table = np.zeros((510, 256), np.float32)
    rows = [{"id": "mixed-0", "text": "t", "phonemes": PHONEMES, "segments": SEGMENTS},
            {"id": "zh-0", "text": "t", "phonemes": ZH2}]  # fmt: skip
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    rows = read_rows(path, None)
    plain = render_row(FakeTeacher(), table, rows[1], "carrier")
    assert all(np.array_equal(a, b) for a, b in zip(plain, render_row(FakeTeacher(), table, rows[1], None)))
    spliced = render_row(FakeTeacher(), table, rows[0], "carrier")
    assert not np.array_equal(spliced[1], render_row(FakeTeacher(), table, rows[0], None)[1])
    stats = generate_shard(FakeTeacher(), table, rows, tmp_path / "shard-00000.npz", "carrier")
    assert stats["spliced"] == 1
    z = np.load(tmp_path / "shard-00000.npz")
    for u, row in enumerate(rows):
        ids = z["ids"][z["ids_offsets"][u] : z["ids_offsets"][u + 1]]
        durations = z["durations"][z["ids_offsets"][u] : z["ids_offsets"][u + 1]]
        audio = z["audio"][z["audio_offsets"][u] : z["audio_offsets"][u + 1]]
        assert ids.tolist() == row["ids"] and int(durations.sum()) * 300 == audio.size


def test_frontend_segments_join_into_the_row_phonemes() -> None:
    from onestep.frontend.pipeline import Frontend

    (utterance,) = Frontend().sentences("我用iPhone拍的照片，请把PPT发给我。")
    segments = [[s.lang, s.phonemes] for s in utterance.segments if s.phonemes]
    runs = language_runs(segments, utterance.phonemes)
    assert runs is not None and [lang for lang, _ in runs] == ["zh", "en", "zh", "en", "zh"]


def test_phonemized_mixed_chunks_carry_segments_that_teacher_data_splices(tmp_path: Path) -> None:
    from onestep_dev.train.phonemize_corpus import main as phonemize

    out = tmp_path / "mixed.jsonl"
    assert phonemize(["--lang", "mixed", "--count", "3", "--out", str(out)]) == 0
    rows = read_rows(out, None)
    assert rows and all(row["id"].startswith("mixed-") for row in rows)
    with_runs = [row for row in rows if row.get("segments") and language_runs(row["segments"], row["phonemes"])]
    assert with_runs, "code-switched chunks keep their language runs"
    teacher = FakeTeacher()
    audio, units = render_row(teacher, np.zeros((510, 256), np.float32), with_runs[0], "english")
    assert len(units) == len(with_runs[0]["ids"]) and audio.size == int(units.sum()) * HOP
    runs = language_runs(with_runs[0]["segments"], with_runs[0]["phonemes"])
    assert len(teacher.calls) == 1 + len({tuple(ids) for lang, ids in runs if lang == "en"})  # row + English runs
