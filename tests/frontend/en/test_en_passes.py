"""The pass list of the English normalizer: one trigger scan, only triggered passes run, rescans after a
change, patterns compiled on first use (and all at preload)."""

from __future__ import annotations

import random
import re
from functools import reduce

import pytest

from onestep_dev.eval.frontend_cases import load_tables
from onestep.frontend.en import normalize as normalize_module
from onestep.frontend.en.passes import PassList, TriggerScan
from onestep.frontend.en.rules import Rule, rule


def _one_by_one(rules: list[Rule], text: str) -> str:
    return reduce(lambda t, r: r.apply(t), rules, text)


def test_a_trigger_written_by_an_earlier_pass_runs_the_later_pass() -> None:
    passes = PassList([rule(r"\bone\b", lambda m: "1", "one"), rule(r"1", lambda m: "<digit>", "1")])
    assert passes.apply("one cat") == "<digit> cat"


def test_a_trigger_removed_by_an_earlier_pass_skips_the_later_pass() -> None:
    seen: list[str] = []
    later = rule(r"x|$", lambda m: seen.append(m.string) or m.group(0), "#")  # would see the text if it ran
    passes = PassList([rule(r"#", lambda m: "hash ", "#"), later])
    assert passes.apply("#tag") == "hash tag"
    assert seen == []  # "#" was gone by then
    assert PassList([later]).apply("#tag") == "#tag" and seen == ["#tag"]


def test_a_pass_never_sees_the_text_of_a_later_one() -> None:
    # order is kept: the second pass's output is not given back to the first
    passes = PassList([rule(r"b", lambda m: "c", "b"), rule(r"a", lambda m: "b", "a")])
    assert passes.apply("a") == "b"


def test_passes_without_triggers_always_run_and_case_insensitive_triggers_are_lowered() -> None:
    passes = PassList([rule(r"q", lambda m: "Q"), rule(r"www\.", lambda m: "W ", "www.", flags=re.IGNORECASE)])
    assert passes.apply("q WWW.site") == "Q W site"


@pytest.mark.parametrize("seed", range(5))
def test_scan_finds_exactly_the_triggers_present(seed: int) -> None:
    """Random triggers over a small alphabet, so that they overlap, nest and chain; the scan must agree with
    looking for each one."""
    rng = random.Random(seed)
    triggers = {"".join(rng.choices("ab c", k=rng.randint(1, 5))) for _ in range(40)}
    masks = {t: 1 << i for i, t in enumerate(sorted(triggers))}
    scan = TriggerScan(masks)
    for _ in range(300):
        text = "".join(rng.choices("ab cd", k=rng.randint(0, 30)))
        want = 0
        for trigger, mask in masks.items():
            if trigger in text:
                want |= mask
        assert scan.scan(text) == want, text


def test_partly_overlapping_triggers_are_both_found() -> None:
    scan = TriggerScan({"abc": 1, "cde": 2, "bcd": 4, "e": 8})
    assert scan.scan("xabcdex") == 15
    assert scan.scan("abcd") == 5


def test_normalizer_pass_lists_equal_running_each_pass_with_its_own_check() -> None:
    inputs = [case.input for table in load_tables(langs=["en"]) for case in table.cases][::4]
    assert len(inputs) > 500
    for passes in (normalize_module._EARLY_PASSES, normalize_module._NUMBER_PASSES, normalize_module._LATE_PASSES):
        for text in inputs:
            text = normalize_module._clean(text)
            assert passes.apply(text) == _one_by_one(list(passes.rules), text), text


def test_a_pattern_is_compiled_on_first_use_and_once() -> None:
    calls: list[str] = []
    lazy = rule(r"(\d+) apples", lambda m: calls.append(m.group(1)) or "apples", "apples")
    passes = PassList([lazy])
    assert not lazy.compiled
    assert passes.apply("no fruit here") == "no fruit here"
    assert not lazy.compiled  # not triggered: never compiled
    assert passes.apply("3 apples") == "apples"
    assert lazy.compiled
    first = lazy.pattern
    passes.apply("4 apples")
    assert lazy.pattern is first and calls == ["3", "4"]


def test_compile_compiles_every_pass_and_the_scan() -> None:
    rules = [rule(r"a", lambda m: "b", "a"), rule(r"c", lambda m: "d"), rule(r"e", lambda m: "f", "e", flags=re.I)]
    passes = PassList(rules)
    assert not any(r.compiled for r in rules)
    passes.compile()
    assert all(r.compiled for r in rules)
    assert passes._cased.compiled and passes._lowered is not None and passes._lowered.compiled
