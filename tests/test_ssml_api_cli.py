"""SSML through the Python API and ``onestep say`` on the tiny voice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile

from onestep import TTS
from onestep.cli import main
from onestep.ssml import SsmlError

FIXTURES = Path(__file__).resolve().parent / "fixtures"

pytestmark = pytest.mark.usefixtures("only_fixture_voices")


@pytest.fixture(scope="module")
def tts() -> TTS:
    return TTS(voice="tiny", voices_dir=[FIXTURES], threads=1)


def test_a_break_adds_exactly_its_silence(tts: TTS) -> None:
    one, two = tts.synthesize("你好。"), tts.synthesize("再见。")
    audio = tts.synthesize('<speak>你好。<break time="500ms"/>再见。</speak>')
    assert audio.samples.size == one.samples.size + 12000 + two.samples.size
    silence = audio.samples[one.samples.size : one.samples.size + 12000]
    assert not silence.any()
    np.testing.assert_allclose(audio.samples[: one.samples.size], one.samples, atol=1e-6)  # streamed vs one-shot


def test_prosody_rate_changes_the_duration_of_its_text_only(tts: TTS) -> None:
    plain = tts.synthesize("<speak>你好，世界。</speak>")
    fast = tts.synthesize('<speak><prosody rate="200%">你好，世界。</prosody></speak>')
    np.testing.assert_allclose(plain.samples, tts.synthesize("你好，世界。").samples, atol=1e-6)
    assert fast.duration < 0.7 * plain.duration
    assert fast.samples.size == tts.synthesize("你好，世界。", speed=2.0).samples.size


def test_stream_equals_synthesize_and_timestamps_follow_the_plan(tts: TTS) -> None:
    doc = '<speak>你好。<break time="1s"/><phoneme alphabet="x-pinyin" ph="zai4 jian4">再见</phoneme></speak>'
    whole = tts.synthesize(doc, sample_rate=16000)
    chunks = list(tts.stream(doc, sample_rate=16000, timestamps=True))
    np.testing.assert_allclose(np.concatenate([c.samples for c in chunks]), whole.samples, atol=1e-4)
    words = [w for c in chunks for w in c.words]
    assert [w.text for w in words] == ["你好", "再见"] == [w.text for w in whole.words]
    assert words[1].start - words[0].end >= 1.0  # the break lies between them
    assert chunks[0].samples.size < whole.samples.size  # the first sentence streams before the break


def test_ssml_flag_forces_and_false_reads_markup_as_text(tts: TTS) -> None:
    forced = tts.synthesize('你好<break time="300ms"/>', ssml=True)
    assert forced.samples.size == tts.synthesize("你好").samples.size + 7200
    with pytest.raises(SsmlError, match="line 1, column"):
        tts.synthesize("<speak><p>你好</speak>")


def test_voice_element_goes_through_the_one_resolver(tts: TTS) -> None:
    audio = tts.synthesize('<speak><voice name="tiny">你好</voice></speak>')
    assert audio.voice == "tiny" and audio.samples.size
    with pytest.raises(LookupError, match="unknown voice 'nobody'"):
        tts.synthesize('<speak><voice name="nobody">你好</voice></speak>')


def test_cli_ssml(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "a.wav"
    assert main(["say", '你好<break time="1s"/>', "--ssml", "-o", str(out), "--voices-dir", str(FIXTURES)]) == 0
    samples, _ = soundfile.read(str(out))
    assert not samples[-24000:].any()  # the break's second of silence ends the file
    assert main(["say", "<speak>\n<s>你好</speak>", "-o", str(out), "--voices-dir", str(FIXTURES)]) == 2
    assert "malformed SSML at line 2, column" in capsys.readouterr().err


def test_ssml_words_have_offsets_into_the_markup_as_given(tts: TTS) -> None:
    doc = (
        '<speak>Tom &amp; Jerry <break time="200ms"/>met <sub alias="Doctor">Dr.</sub> Smith'
        ' <!-- a comment --><prosody rate="slow">at 5 pm</prosody>. 我用<lang xml:lang="en-US">iPhone</lang>拍的。</speak>'
    )
    whole = tts.synthesize(doc)
    written = [doc[w.char_start : w.char_end] for w in whole.words]
    assert all(w.char_start >= 0 for w in whole.words)
    for expected in ("Tom", "Jerry", "met", "Dr.", "Smith", "iPhone", "拍"):
        assert expected in written
    assert "&amp;" in doc[whole.words[0].char_end : whole.words[2].char_start + 1]  # "&" read "and" lies between
    assert all(a.char_end <= b.char_start for a, b in zip(whole.words, whole.words[1:]))  # in order, no overlap
    assert not any("<" in doc[w.char_start : w.char_end] and w.text.strip() in ("Smith", "at", "pm") for w in whole.words)
    streamed = [w for c in tts.stream(doc, timestamps=True) for w in c.words]
    assert [(w.text, w.char_start, w.char_end) for w in streamed] == [
        (w.text, w.char_start, w.char_end) for w in whole.words
    ]


def test_cli_timestamps_of_a_break_between_two_words(tmp_path: Path) -> None:
    import json

    doc = '<speak>Hello<break time="1s"/>world</speak>'
    out = tmp_path / "b.json"
    assert main(["say", doc, "--timestamps", str(out), "--voices-dir", str(FIXTURES)]) == 0  # timestamps alone
    assert list(tmp_path.iterdir()) == [out]
    words = json.loads(out.read_text(encoding="utf-8"))["words"]
    assert [w["text"] for w in words] == ["Hello", "world"]
    assert [doc[w["char_start"] : w["char_end"]] for w in words] == ["Hello", "world"]
    assert words[1]["start"] >= words[0]["end"] + 1.0  # the break lies between them


@pytest.mark.parametrize(
    "document", ["<speak></speak>", "<speak> </speak>", '<speak><sub alias="">x</sub></speak>', "<speak>★😀</speak>"]
)
def test_an_empty_document_is_an_error_not_empty_audio(tts: TTS, document: str) -> None:
    from onestep.work_limits import NothingToSpeakError

    for call in (tts.synthesize, lambda text: list(tts.stream(text)), tts.prepare):
        with pytest.raises(NothingToSpeakError, match="nothing to speak"):
            call(document)


def test_a_document_of_only_a_break_is_silence_not_an_error(tts: TTS) -> None:
    audio = tts.synthesize('<speak><break time="200ms"/></speak>')
    assert audio.samples.size == pytest.approx(0.2 * audio.sample_rate, abs=audio.sample_rate * 0.02)
