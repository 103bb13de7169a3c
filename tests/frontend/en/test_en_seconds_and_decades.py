"""Seconds against decades: "Wait 30s" is a duration, "in her 30s" an age, "the 80s" a decade; "2m 30s" is minutes
and seconds, not meters. The table was written for this change (19/30 read right before it)."""

from __future__ import annotations

import pytest

from onestep.frontend.en.normalize import normalize_en
from onestep.frontend.symbols_unicode import read_symbols

CASES = [
    ('Retrying in 30s.', 'Retrying in thirty seconds.'),
    ('Refresh every 15s.', 'Refresh every fifteen seconds.'),
    ('Cool down for 45s.', 'Cool down for forty-five seconds.'),
    ('After a 20s pause, go again.', 'After a twenty-second pause, go again.'),
    ('Set a 5s window.', 'Set a five-second window.'),
    ('Wait 90s and try again.', 'Wait ninety seconds and try again.'),
    ('Hold 20s, then release.', 'Hold twenty seconds, then release.'),
    ('The job took 40s.', 'The job took forty seconds.'),
    ('Delay: 12s', 'Delay: twelve seconds'),
    ('Sleep 3s between requests.', 'Sleep three seconds between requests.'),
    ('A 60s countdown starts.', 'A sixty-second countdown starts.'),
    ('Each 30s interval counts.', 'Each thirty-second interval counts.'),
    ('Finish in 4m 20s.', 'Finish in four minutes twenty seconds.'),
    ('Total time 1h 12m 5s.', 'Total time one hour twelve minutes five seconds.'),
    ('The video is 2m15s long.', 'The video is two minutes fifteen seconds long.'),
    ('Plan 1h 45m for it.', 'Plan one hour forty-five minutes for it.'),
    ('It expires in 50s.', 'It expires in fifty seconds.'),
    ('The rest lasts 25s.', 'The rest lasts twenty-five seconds.'),
    ('Born in the late 60s.', 'Born in the late sixties.'),
    ('She is in her mid-30s.', 'She is in her mid-thirties.'),
    ('Music from the 80s.', 'Music from the eighties.'),
    ("He looks like he's in his 50s.", "He looks like he's in his fifties."),
    ('The 90s were wild.', 'The nineties were wild.'),
    ('Temperatures in the 70s today.', 'Temperatures in the seventies today.'),
    ('Fashion of the 20s returned.', 'Fashion of the twenties returned.'),
    ('A 20m swim.', 'A twenty meter swim.'),
    ('Their 40s were calm.', 'Their forties were calm.'),
    ('Run 400m in 55s.', 'Run four hundred meters in fifty-five seconds.'),
    ('The early 2000s.', 'The early two thousands.'),
    ('Cook for 30s on high.', 'Cook for thirty seconds on high.'),
    ("Timeout: 30s", "Timeout: thirty seconds"),
    ("The 80s ads were loud.", "The eighties ads were loud."),
    ("It lasts 1s.", "It lasts one second."),
    ("Set it to 1h 30m.", "Set it to one hour thirty minutes."),
    # session 14: bare "in" / "<duration noun> of" before the count; long unit names with zero-padded counts
    ("Back in 20s.", "Back in twenty seconds."),
    ("Done in 45s, then rest.", "Done in forty-five seconds, then rest."),
    ("A delay of 70s.", "A delay of seventy seconds."),
    ("Dressed in 70s fashion.", "Dressed in seventies fashion."),
    ("Fans of 80s music.", "Fans of eighties music."),
    ("Popular in the 20s.", "Popular in the twenties."),
    ("It took 2 hrs 05 mins.", "It took two hours five minutes."),
    ("Lap time 10 min 05 s.", "Lap time ten minutes five seconds."),
    ("Bake 1 hr. 5 min.", "Bake one hour five minutes."),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_seconds_decades_and_compound_durations(text: str, expected: str) -> None:
    assert normalize_en(read_symbols(text, "en")[0]) == expected
