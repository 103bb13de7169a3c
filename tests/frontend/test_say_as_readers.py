"""``<say-as>`` readers found through the language registry: each language's words come from its own frontend
package; a registered language without a reader reads with the default language's."""

from __future__ import annotations

from dataclasses import replace

import pytest

from onestep import languages
from onestep.ssml import say_as as say_as_module
from onestep.ssml.say_as import reader_for, say_as


@pytest.mark.parametrize("code", languages.language_codes())
def test_every_registered_language_has_a_reader(code: str) -> None:
    reader = reader_for(code)
    for text in (reader.cardinal(12), reader.ordinal(3), reader.digits("907"), reader.characters(["a", "1"]),
                 reader.date({"y": 2024, "m": 3, "d": 5}), reader.time(14, 30, False)):  # fmt: skip
        assert text.strip() and not any(c.isdigit() for c in text), (code, text)


def test_readings_per_language() -> None:
    assert say_as("characters", "a1", "zh") == "a，一"
    assert say_as("telephone", "110-120", "zh") == "一一零，一二零"
    assert say_as("time", "14:30", "en") == " fourteen thirty "  # words of a spaced language stand apart
    assert say_as("time", "14:00", "en").strip() == "fourteen hundred"
    assert say_as("time", "2:30pm", "zh") == "十四点三十分"  # Mandarin says the 24-hour time
    assert say_as("date", "2024-03", "en", "ym").strip() == "March twenty twenty-four"
    assert say_as("date", "5/3/2024", "en", "dmy").strip() == "March fifth, twenty twenty-four"


def test_a_language_without_a_reader_reads_with_the_default_one(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = replace(languages.get_language(languages.DEFAULT_LANGUAGE), code="xx")
    real = say_as_module.get_language
    monkeypatch.setattr(say_as_module, "get_language", lambda code: fake if code == "xx" else real(code))
    reader_for.cache_clear()
    try:
        assert say_as("digits", "907", "xx") == say_as("digits", "907", languages.DEFAULT_LANGUAGE)
    finally:
        reader_for.cache_clear()


def test_an_unregistered_language_is_refused() -> None:
    with pytest.raises(languages.UnknownLanguageError):
        say_as("digits", "1", "qq")
