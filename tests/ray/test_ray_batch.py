"""``onestep batch --ray``: the Ray Data pipeline (frontend actors -> engine actors), resumed, with bad rows."""

from __future__ import annotations

import json
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
