"""The frontend benchmark: cold start per process and per language, held-out text at first sight and again."""

from __future__ import annotations

from onestep_dev.bench import frontend_bench


def test_cold_start_reports_per_language_processes() -> None:
    cold = frontend_bench.cold_start()
    for key in ("import_s", "zh_first_call_s", "en_first_call_s", "peak_rss_mb", "load_average"):
        assert cold[key] >= 0, key
    assert set(cold["per_language"]) == {"zh", "en"}
    for lang, one in cold["per_language"].items():
        assert one[f"{lang}_first_call_s"] > 0 and 0 < one["peak_rss_mb"] <= cold["peak_rss_mb"] * 1.2
        assert {k for k in one if k.endswith("_first_call_s")} == {f"{lang}_first_call_s"}


def test_cold_start_reports_the_frontends_own_cost_after_runtime_imports() -> None:
    cold = frontend_bench.cold_start()
    loaded = cold["per_language_runtime_loaded"]
    assert set(loaded) == {"zh", "en"}
    for lang, one in loaded.items():
        assert one[f"{lang}_first_call_s"] > 0 and one["import_s"] >= 0


def test_heldout_lines_are_timed_at_first_sight_and_again() -> None:
    result = frontend_bench.run_frontend_bench(repeats=3, warmup=1, cold=False, show=False)
    texts = frontend_bench.heldout_texts()
    for lang in ("en", "zh", "mixed"):
        case = result["cases"][f"{lang}-heldout"]
        assert case["lines"] == len(texts[lang]) > 50
        assert case["first_sight"]["p50_ms"] == case["p50_ms"] > 0
        assert case["again"]["p50_ms"] > 0
        assert case["target_p50_ms"] is None  # the targets are for the fixed-length sentences
    assert {"zh", "en", "mixed"} <= set(result["cases"])


def test_a_sentence_repeated_is_not_first_sight() -> None:
    calls: list[str] = []

    class Recorder:
        def phonemize(self, text: str) -> None:
            calls.append(text)

    out = frontend_bench.unseen_latency(["a", "b"], Recorder())
    assert calls == ["a", "b", "a", "b"] and out["lines"] == 2
