"""``onestep batch --ray``: the Ray Data pipeline (frontend actors -> engine actors, or engine actors with their own
host pools), resumed, with bad rows."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import soundfile as sf

from onestep.batch.job import BatchJob, run_batch
from onestep.batch.manifest import MANIFEST_NAME, load_manifest
from onestep.batch.synth import SynthSettings
from onestep_dev.eval.heldout import load_heldout

from .conftest import FIXTURES, VOICE


def test_ray_data_job_resumes_and_reports_bad_rows(ray_cluster: object, tmp_path: Path) -> None:
    texts = [s.text for s in load_heldout("zh")[:24]]
    records = [{"id": f"r{i:02d}", "text": t} for i, t in enumerate(texts)]
    records[3] = {"id": "r03", "text": ""}
    records[7] = {"id": "r07", "text": "Привет мир"}
    records[11] = {"id": "r11", "text": "长" * 81}
    records[15] = {"id": "r15", "text": texts[15], "speed": 9}
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    out = tmp_path / "out"
    synth = SynthSettings(
        out_dir=str(out), voice=VOICE, voices_dirs=(str(FIXTURES),), max_chars=80, audio_format="opus"
    )
    # the first run stops after 10 rows (as if it had crashed), its last manifest line torn
    first = run_batch(BatchJob(src, synth, workers=1, batch_size=4, limit=10, ray=True), show_progress=False)
    assert first["rows"] == 10
    with (out / MANIFEST_NAME).open("a", encoding="utf-8") as f:
        f.write('{"id": "r2')
    # the resumed run: text frontend on its own actor ahead of the engine actor
    job = BatchJob(src, synth, workers=1, batch_size=4, ray=True, frontend_workers=1)
    second = run_batch(job, show_progress=False)
    assert (second["skipped"], second["rows"]) == (10, 14)
    manifest = load_manifest(out / MANIFEST_NAME)
    assert sorted(manifest) == [r["id"] for r in records]
    assert manifest["r03"]["error"] == "empty text"
    assert "nothing speakable" in manifest["r07"]["error"]
    assert "81 characters" in manifest["r11"]["error"]
    assert "speed must be between" in manifest["r15"]["error"]
    ok = [e for e in manifest.values() if e["error"] is None]
    assert len(ok) == 20
    for entry in ok:
        info = sf.info(out / entry["audio"])
        assert info.samplerate == 24000 and abs(info.duration - entry["duration_s"]) < 0.05
        assert entry["words"]
    # the two-stage pipeline (frontend actor + engine actor) produced what the one-stage one does
    single = tmp_path / "single"
    again = SynthSettings(**(vars(synth) | {"out_dir": str(single)}))
    run_batch(BatchJob(src, again, workers=1, batch_size=4, ray=True), show_progress=False)
    for rid, entry in load_manifest(single / MANIFEST_NAME).items():
        assert entry["duration_s"] == manifest[rid]["duration_s"] and entry["words"] == manifest[rid]["words"]


def creator(segment: str) -> int:
    """The pid that created a shared-memory segment (its name: ``onestep-shm-<pid>-<n>-<hex>``)."""
    found = re.search(r"onestep-shm-(\d+)-", segment)
    assert found, segment
    return int(found.group(1))


def test_engine_actor_with_its_own_host_pool_writes_what_the_local_runner_does(
    ray_cluster: object, tmp_path: Path
) -> None:
    """``--ray --frontend-processes 1``: the engine actor feeds its engine from a host pool of worker processes
    (frontend, timings, encoding and file there); every manifest field and every audio byte equals the local
    runner's, bad rows included, and the actor's shared memory is gone after the job."""
    from onestep.runtime.shm import leftover_segments

    texts = [s.text for s in load_heldout("en")[:10]]
    records = [{"id": f"r{i:02d}", "text": t} for i, t in enumerate(texts)]
    records[2] = {"id": "r02", "text": "   "}
    records[5] = {"id": "r05", "text": texts[5], "voice": "nobody"}
    records.append({"id": "ssml", "ssml": f"<speak><prosody rate='slow'>{texts[6]}</prosody></speak>"})
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf-8")
    runs = {}
    before = set(leftover_segments())  # another test's leftovers are not this one's to judge
    ray_pool = {"ray": True, "frontend_processes": 1, "cpus_per_worker": 0.5}
    for name, kw in (("local", {"workers": 0}), ("ray", ray_pool)):
        out = tmp_path / name
        synth = SynthSettings(out_dir=str(out), voice=VOICE, voices_dirs=(str(FIXTURES),), audio_format="flac")
        summary = run_batch(BatchJob(src, synth, batch_size=4, **kw), show_progress=False)  # type: ignore[arg-type]
        assert (summary["rows"], summary["errors"], summary["runner"]) == (11, 2, "ray" if "ray" in kw else "local")
        runs[name] = (out, load_manifest(out / MANIFEST_NAME))
    (a_dir, a), (b_dir, b) = runs["local"], runs["ray"]
    assert a == b
    assert a["r02"]["error"] == "empty text" and "nobody" in a["r05"]["error"]
    for rid, entry in a.items():
        if entry["error"] is None:
            assert (a_dir / entry["audio"]).read_bytes() == (b_dir / entry["audio"]).read_bytes(), rid
    assert not list((b_dir / "audio").glob(".*.tmp"))
    # the stage's end closes the actor's pool (EngineActor.__del__): its shared memory is unlinked
    deadline = time.monotonic() + 30
    while (left := [p for p in set(leftover_segments()) - before if creator(p) != os.getpid()]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.2)
    assert not left
