"""``onestep batch`` without Ray: input formats, SSML (the one parser: the same audio as ``onestep say``), bad rows
in the manifest and the exit status, a killed job resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import soundfile as sf

from onestep.batch.job import BatchJob, run_batch
from onestep.batch.manifest import MANIFEST_NAME, load_manifest
from onestep.batch.rows import InputError, read_rows

from .conftest import FIXTURES, VOICE, settings

SRC = Path(__file__).resolve().parents[2] / "src"


def test_txt_jsonl_and_csv_inputs(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("你好。\n\n再见。\n", encoding="utf-8")
    rows = list(read_rows(tmp_path / "a.txt"))
    assert [(r.id, r.text) for r in rows] == [("000001", "你好。"), ("000003", "再见。")]

    lines = [
        {"id": "x1", "text": "你好。", "voice": VOICE, "speed": 1.5},
        "not json",
        ["not", "an", "object"],
        {"id": "../escape", "text": "你好。"},
        {"text": "没有编号。", "speed": "fast"},
        {"id": "s1", "ssml": "<speak><prosody rate='slow'>慢慢说。</prosody></speak>"},
    ]
    (tmp_path / "b.jsonl").write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines) + "\n",
        encoding="utf-8",
    )
    rows = list(read_rows(tmp_path / "b.jsonl"))
    assert rows[0].id == "x1" and rows[0].voice == VOICE and rows[0].speed == 1.5 and rows[0].error is None
    assert "not JSON" in rows[1].error and "not an object" in rows[2].error
    assert "not a valid file name" in rows[3].error and rows[3].id.startswith("bad-id-")
    assert rows[4].id == "000005" and "not a number" in rows[4].error
    # SSML is kept as given: the one parser reads it when the row is synthesized
    assert rows[5].ssml == "<speak><prosody rate='slow'>慢慢说。</prosody></speak>" and rows[5].speed is None

    (tmp_path / "s.txt").write_text("<speak>你好<break time='1s'/>。</speak>\n", encoding="utf-8")
    (row,) = read_rows(tmp_path / "s.txt")  # text starting with <speak is SSML, as in every interface
    assert row.ssml == "<speak>你好<break time='1s'/>。</speak>" and row.source == row.ssml

    (tmp_path / "c.csv").write_text("id,text,voice\nc1,你好。,\nc2,,tiny\n", encoding="utf-8")
    rows = list(read_rows(tmp_path / "c.csv"))
    assert [(r.id, r.text, r.voice) for r in rows] == [("c1", "你好。", None), ("c2", "", "tiny")]
    (tmp_path / "d.csv").write_text("id,words\n1,x\n", encoding="utf-8")
    with pytest.raises(InputError, match="'text' or 'ssml'"):
        list(read_rows(tmp_path / "d.csv"))
    with pytest.raises(InputError, match="cannot tell the format"):
        list(read_rows(_touch(tmp_path / "e.xlsx")))


def _touch(path: Path) -> Path:
    path.write_text("", encoding="utf-8")
    return path


def test_parquet_input(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table({"id": ["p1", "p2"], "text": ["你好。", "再见。"], "speed": [1.0, None]})
    pq.write_table(table, tmp_path / "t.parquet")
    rows = list(read_rows(tmp_path / "t.parquet"))
    assert [(r.id, r.text, r.speed) for r in rows] == [("p1", "你好。", 1.0), ("p2", "再见。", None)]


#: SSML rows that exercise the parser's pieces: breaks, prosody rates (x-slow is 0.6 in docs/SSML.md), say-as,
#: sub, phoneme, paragraphs, an element it does not know.
SSML_ROWS = [
    "<speak>你好<break time='700ms'/>世界。</speak>",
    "<speak><prosody rate='x-slow'>慢慢说。</prosody><prosody rate='fast'>快点说。</prosody></speak>",
    "<speak>号码是<say-as interpret-as='digits'>4071</say-as>，<sub alias='世界卫生组织'>世卫</sub>。</speak>",
    "<speak><phoneme alphabet='x-pinyin' ph='chong2 qing4'>重庆</phoneme>到了。<p>第二段</p><emphasis>好</emphasis></speak>",
]


def test_ssml_rows_sound_as_onestep_say_reads_them(tmp_path: Path) -> None:
    """Batch and ``say`` share the one SSML parser and the one output stage: the same SSML gives the same
    samples, at the rate and gain asked for."""
    from onestep.cli import main

    src = tmp_path / "in.jsonl"
    records = [{"id": f"s{i}", "ssml": doc} for i, doc in enumerate(SSML_ROWS)]
    records.append({"id": "t", "text": SSML_ROWS[0]})  # text starting with <speak: SSML too
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    out = tmp_path / "out"
    job = BatchJob(src, settings(out, sample_rate=16000, gain_db=-3.0), workers=0, batch_size=2)
    summary = run_batch(job, show_progress=False)
    assert summary["errors"] == 0, load_manifest(out / MANIFEST_NAME)
    manifest = load_manifest(out / MANIFEST_NAME)
    for i, doc in enumerate(SSML_ROWS):
        said = tmp_path / f"say{i}.wav"
        argv = ["say", doc, "-o", str(said), "--voices-dir", str(FIXTURES), "--voice", VOICE, "--threads", "1",
                "--sample-rate", "16000", "--gain", "-3"]  # fmt: skip
        assert main(argv) == 0
        expected, rate = sf.read(said, dtype="int16")
        got, batch_rate = sf.read(out / manifest[f"s{i}"]["audio"], dtype="int16")
        assert rate == batch_rate == manifest[f"s{i}"]["sample_rate"] == 16000
        assert got.shape == expected.shape and (got == expected).all(), doc
        assert manifest[f"s{i}"]["text"] == doc  # the manifest keeps the SSML as given
    plain, _ = sf.read(out / manifest["t"]["audio"], dtype="int16")
    first, _ = sf.read(out / manifest["s0"]["audio"], dtype="int16")
    assert (plain == first).all()
    assert manifest["s0"]["duration_s"] > 0.7  # the 700 ms break is in it


def test_bad_ssml_rows_fail_with_the_parsers_message(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    records = [
        {"id": "doctype", "ssml": '<!DOCTYPE x [<!ENTITY a "aaaa">]><speak>&a;</speak>'},
        {"id": "open", "ssml": "<speak><p>你好</speak>"},
        {"id": "rate", "ssml": "<speak><prosody rate='quick'>你好。</prosody></speak>"},
        {"id": "voice", "ssml": "<speak><voice name='nobody'>你好。</voice></speak>"},
        {"id": "ok", "ssml": "你好<break time='1s'/>。"},  # a fragment in the ssml column: wrapped in <speak>
    ]
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    out = tmp_path / "out"
    summary = run_batch(BatchJob(src, settings(out), workers=0), show_progress=False)
    assert (summary["rows"], summary["errors"]) == (5, 4)
    manifest = load_manifest(out / MANIFEST_NAME)
    assert "SsmlError" in manifest["doctype"]["error"]
    assert "malformed SSML at line 1" in manifest["open"]["error"]
    assert "quick" in manifest["rate"]["error"]
    assert "nobody" in manifest["voice"]["error"]
    assert manifest["ok"]["error"] is None and manifest["ok"]["duration_s"] > 1.0


def test_local_job_writes_audio_and_reports_bad_rows(tmp_path: Path, sentences: list[str]) -> None:
    records = [
        {"id": "ok-1", "text": sentences[0]},
        {"id": "ok-2", "text": sentences[1], "speed": 1.5},
        {"id": "empty", "text": "   "},
        {"id": "cyrillic", "text": "Привет мир"},
        {"id": "too-long", "text": "长" * 301},
        {"id": "bad-voice", "text": sentences[2], "voice": "nobody"},
        {"id": "ok-1", "text": sentences[3]},  # repeated id
        {"id": "ssml", "ssml": f"<speak><prosody rate='slow'>{sentences[4]}</prosody></speak>"},
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    out = tmp_path / "out"
    job = BatchJob(src, settings(out, audio_format="flac", max_chars=300), workers=0, batch_size=3)
    summary = run_batch(job, show_progress=False)
    assert (summary["rows"], summary["errors"], summary["skipped"]) == (8, 5, 0)
    manifest = load_manifest(out / MANIFEST_NAME)
    assert manifest["empty"]["error"] == "empty text"
    assert "nothing speakable" in manifest["cyrillic"]["error"]
    assert "301 characters" in manifest["too-long"]["error"]
    assert "nobody" in manifest["bad-voice"]["error"]
    assert manifest["ok-1-dup-6"]["error"] == "duplicate id 'ok-1'"
    for rid in ("ok-1", "ok-2", "ssml"):
        entry = manifest[rid]
        assert entry["error"] is None and entry["audio"] == f"audio/{rid}.flac"
        data, rate = sf.read(out / entry["audio"])
        assert rate == entry["sample_rate"] == 24000
        assert abs(len(data) / rate - entry["duration_s"]) < 1e-3 and entry["duration_s"] > 0.3
        assert entry["words"] and all(0 <= w["start"] < w["end"] <= entry["duration_s"] + 1e-6 for w in entry["words"])
    # the speed of each row: its column, else the job's (an SSML <prosody rate> multiplies it while speaking)
    assert manifest["ssml"]["speed"] == 1.0 and manifest["ok-2"]["speed"] == 1.5

    # a re-run has nothing left to do
    again = run_batch(job, show_progress=False)
    assert (again["rows"], again["skipped"]) == (0, 8)
    assert sorted(p.name for p in (out / "audio").iterdir()) == ["ok-1.flac", "ok-2.flac", "ssml.flac"]


def test_a_rerun_removes_files_a_killed_run_left_half_written(tmp_path: Path, sentences: list[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text(sentences[0] + "\n", encoding="utf-8")
    out = tmp_path / "out"
    (out / "audio").mkdir(parents=True)
    (out / "audio" / ".000007.wav.4242.tmp").write_bytes(b"RIFF")  # a worker killed between write and rename
    (out / "audio" / "keep.wav").write_bytes(b"RIFF")  # not ours to remove
    summary = run_batch(BatchJob(src, settings(out), workers=0), show_progress=False)
    assert summary["rows"] == 1 and summary["errors"] == 0
    assert sorted(p.name for p in (out / "audio").iterdir()) == ["000001.wav", "keep.wav"]


def test_killed_job_resumes_where_it_stopped(tmp_path: Path, sentences: list[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text("\n".join(sentences[:60]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "onestep", "batch", str(src), "--out", str(out), "--voices-dir", str(FIXTURES),
           "--voice", VOICE, "--workers", "1", "--batch-size", "1", "--quiet"]  # fmt: skip
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(cmd, env=env, start_new_session=True)
    manifest = out / MANIFEST_NAME
    deadline = time.monotonic() + 120
    try:
        while not (manifest.exists() and manifest.read_text(encoding="utf-8").count("\n") >= 5):
            assert proc.poll() is None, "the job ended before it was killed"
            assert time.monotonic() < deadline, "the job made no progress"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the job and its worker process, mid-run
        proc.wait(timeout=30)
    first = load_manifest(manifest)
    assert 5 <= len(first) < 60
    with manifest.open("a", encoding="utf-8") as f:
        f.write('{"id": "000099", "text": "torn')  # a line cut short by the crash
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{len(first)} skipped as done before" in done.stdout
    final = load_manifest(manifest)
    assert sorted(final) == [f"{n:06d}" for n in range(1, 61)]
    assert all(e["error"] is None and (out / e["audio"]).is_file() for e in final.values())
    lines = manifest.read_text(encoding="utf-8").splitlines()
    assert lines.count('{"id": "000099", "text": "torn') == 1  # the torn line stays on a line of its own
    ids = [json.loads(x)["id"] for x in lines if not x.endswith("torn")]
    assert len(ids) == len(set(ids)) == 60  # no row written twice
    assert not [p for p in (out / "audio").iterdir() if p.name.startswith(".")]  # no temporary file left over


def test_cli_errors(tmp_path: Path) -> None:
    from onestep.cli import main

    assert main(["batch", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o")]) == 2
    (tmp_path / "x.txt").write_text("你好。\n", encoding="utf-8")
    assert main(["batch", str(tmp_path / "x.txt"), "--out", str(tmp_path / "o"), "--frontend-workers", "2"]) == 2
    with pytest.raises(SystemExit):  # the engine registry's names only
        main(["batch", str(tmp_path / "x.txt"), "--out", str(tmp_path / "o"), "--engine", "tpu"])


def test_cli_exit_status_and_summary_when_rows_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from onestep.cli import main

    src = tmp_path / "in.jsonl"
    records = [{"id": "ok", "text": "你好。"}, {"id": "e1", "text": ""}, {"id": "e2", "text": "Привет"},
               {"id": "e3", "ssml": "<speak><p>x</speak>"}, {"id": "e4", "text": "你好。", "speed": 9}]  # fmt: skip
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    base = ["batch", str(src), "--out", str(tmp_path / "o"), "--voices-dir", str(FIXTURES), "--voice", VOICE,
            "--workers", "0", "--quiet", "--engine", "ort-cpu"]  # fmt: skip
    assert main(base) == 1
    captured = capsys.readouterr()
    assert "5 row(s) done (4 with errors" in captured.out
    assert "error: 4 of 5 row(s) failed" in captured.err
    ok = tmp_path / "ok.txt"
    ok.write_text("你好。\n", encoding="utf-8")
    assert main(["batch", str(ok), "--out", str(tmp_path / "o2"), *base[4:], "--device", "cpu"]) == 0


@pytest.mark.parametrize("output", [{}, {"sample_rate": 16000, "gain_db": -3.0, "audio_format": "flac"}])
def test_host_pool_job_equals_the_local_one(tmp_path: Path, sentences: list[str], output: dict) -> None:
    """``--frontend-processes``: one engine here, each row's frontend, timings, output stage and file in worker
    processes; the same manifest and the same audio as the local runner (one engine pass for all rows in both)."""
    from onestep.runtime.shm import leftover_segments

    records = [
        {"id": "ok-1", "text": sentences[0]},
        {"id": "ok-2", "text": sentences[1], "speed": 1.5},
        {"id": "empty", "text": "   "},
        {"id": "cyrillic", "text": "Привет мир"},
        {"id": "bad-voice", "text": sentences[2], "voice": "nobody"},
        {"id": "ok-3", "text": sentences[3] + sentences[5]},
        {"id": "ssml", "ssml": f"<speak><prosody rate='slow'>{sentences[4]}</prosody></speak>"},
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    runs = {}
    for name, kw in (("local", {"workers": 0}), ("pool", {"frontend_processes": 2})):
        out = tmp_path / name
        job = BatchJob(src, settings(out, **output), batch_size=16, **kw)  # type: ignore[arg-type]
        summary = run_batch(job, show_progress=False)
        assert (summary["rows"], summary["errors"]) == (7, 3)
        runs[name] = (out, load_manifest(out / MANIFEST_NAME))
    (a_dir, a), (b_dir, b) = runs["local"], runs["pool"]
    assert a == b  # errors, words, durations, rates: every field of every row
    for rid, entry in a.items():
        if entry["error"] is None:
            assert (a_dir / entry["audio"]).read_bytes() == (b_dir / entry["audio"]).read_bytes(), rid
    assert not list((b_dir / "audio").glob(".*.tmp"))
    assert not leftover_segments(os.getpid())
    with pytest.raises(ValueError, match="both run the frontend"):
        BatchJob(src, settings(tmp_path / "x"), frontend_processes=2, frontend_workers=1, ray=True)
