"""The frontend benchmark's cold start reports one process with both languages and one per language."""

from __future__ import annotations

from onestep.bench import frontend_bench


def test_cold_start_reports_per_language_processes() -> None:
    cold = frontend_bench.cold_start()
    for key in ("import_s", "zh_first_call_s", "en_first_call_s", "peak_rss_mb", "load_average"):
        assert cold[key] >= 0, key
    assert set(cold["per_language"]) == {"zh", "en"}
    for lang, one in cold["per_language"].items():
        assert one[f"{lang}_first_call_s"] > 0 and 0 < one["peak_rss_mb"] <= cold["peak_rss_mb"] * 1.2
        assert {k for k in one if k.endswith("_first_call_s")} == {f"{lang}_first_call_s"}
