"""``onestep bench --mode soak`` (issue 14, item 8): duration parsing, the RSS slope, and a few seconds of the
real thing (fresh ``serve`` + ``wyoming`` on the tiny voice, every interface)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from onestep_dev.bench.soak import (
    SoakError,
    format_soak,
    parse_duration,
    rss_mb,
    run_soak,
    slope_mb_per_h,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize(("text", "seconds"), [("90", 90.0), ("90s", 90.0), ("10m", 600.0), ("1h", 3600.0), ("1.5h", 5400.0)])
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "h", "-1m", "0", "ten"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(SoakError):
        parse_duration(text)


def test_slope_is_mb_per_hour() -> None:
    assert slope_mb_per_h([(0, 100.0), (1800, 101.0), (3600, 102.0)]) == pytest.approx(2.0)
    assert slope_mb_per_h([(0, 100.0)]) == 0.0
    assert rss_mb(os.getpid()) > 10


def test_a_short_soak_runs_every_interface_without_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = Path(__file__).resolve().parents[1]
    paths = [str(root / "src"), str(root / "dev" / "src"), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    report = run_soak(4.0, concurrency=2, voices_dir=[FIXTURES], voice="tiny", sample_s=1.0, log_dir=tmp_path)
    assert report["errors"] == 0, report["errors_by_kind"]
    assert {"wyoming", "synthesize-wav", "speech-sse"} <= set(report["requests_by_interface"])
    assert report["exit_status"] == {"serve": 0, "wyoming": 0}  # both drained cleanly on SIGTERM
    assert "RSS serve" in format_soak(report)
