"""The Python API contract (``onestep.TTS``) on copies of the tiny random voice.

Most tests run the real pipeline on small deterministic stand-ins for the normalizers and G2Ps (so they test
the API, not the G2P); ``test_real_frontend_end_to_end`` uses the built-in frontend.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import soundfile

import onestep.frontend.en.tools
import onestep.frontend.zh.tools
from onestep import TTS, Audio, AudioChunk
from onestep.api import to_pcm16
from onestep.frontend import pipeline
from onestep.frontend.tokens import Token
from onestep.runtime.voices import ENV_VAR, VoiceNotFoundError
from onestep.work_limits import NothingToSpeakError

TINY_VOICE = Path(__file__).resolve().parent / "fixtures" / "tiny-voice"
STREAM_TOLERANCE = 1e-5  # max |streamed - synthesized| sample difference
TEXT = "Hello world, this is a test. The second sentence is here!"


def _en_g2p(text: str) -> list[Token]:
    """One token per word (phonemes: its lower-case letters), punctuation as its own token."""
    tokens = []
    for word in text.split():
        core = word.rstrip(",.!?")
        tokens.append(Token(core, core.lower(), whitespace=core == word))
        tokens += [Token(p, p, whitespace=i == len(word) - len(core) - 1) for i, p in enumerate(word[len(core) :])]
    return tokens


def _zh_g2p(text: str) -> list[Token]:
    return [Token(ch, "," if ch in "，。！？" else "ni", pinyin=[] if ch in "，。！？" else ["ni3"]) for ch in text]


@pytest.fixture
def fake_g2p(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onestep.frontend.en.tools, "load_tools", lambda lexicon=None: pipeline.LanguageTools(str.strip, _en_g2p))
    monkeypatch.setattr(onestep.frontend.zh.tools, "load_tools", lambda lexicon=None: pipeline.LanguageTools(str.strip, _zh_g2p))


@pytest.fixture
def voices_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two copies of the tiny voice: ``anna`` (en) and ``mei`` (zh); no other voice is visible."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.delenv("ONESTEP_LEXICON", raising=False)
    monkeypatch.setattr("onestep.runtime.voices.PACKAGE_VOICES", tmp_path / "no-package-voices")
    root = tmp_path / "voices"
    for name, language in (("anna", "en"), ("mei", "zh")):
        shutil.copytree(TINY_VOICE, root / name)
        config = json.loads((root / name / "voice.json").read_text())
        (root / name / "voice.json").write_text(json.dumps({**config, "name": name, "language": language}))
    return root


@pytest.fixture
def tts(voices_dir: Path, fake_g2p: None) -> TTS:
    return TTS(voices_dir=voices_dir)


def test_synthesize_returns_audio_with_timings(tts: TTS) -> None:
    audio = tts.synthesize(TEXT)
    assert isinstance(audio, Audio)
    assert audio.samples.dtype == np.float32 and audio.samples.ndim == 1 and audio.samples.size > 0
    assert audio.sample_rate == tts.sample_rate == 24000
    assert audio.voice == "anna"
    assert audio.phonemes == "hello world, this is a test. the second sentence is here!"
    assert [w.text for w in audio.words] == "Hello world this is a test The second sentence is here".split()
    stamps = audio.phoneme_timestamps
    assert "".join(p.phoneme for p in stamps) == "hello world, this is a test.the second sentence is here!"
    assert all(a.end <= b.start + 1e-9 for a, b in zip(stamps, stamps[1:], strict=False))
    assert all(p.start <= p.end for p in stamps)
    assert stamps[-1].end <= audio.duration + 1e-9
    for word in audio.words:
        assert 0 <= word.start < word.end <= audio.duration + 1e-9
    assert audio.words[6].start >= audio.words[5].end  # second sentence after the first


@pytest.mark.parametrize(
    ("text", "voice"),
    [("Hello world.", "anna"), ("你好，世界。", "mei"), ("我们用 API 测试。", "mei"), ("12 apples", "anna")],
)
def test_default_voice_follows_the_text_language(tts: TTS, text: str, voice: str) -> None:
    assert tts.synthesize(text).voice == voice


def test_named_voice_overrides_the_language_choice(voices_dir: Path, fake_g2p: None) -> None:
    assert TTS(voice="mei", voices_dir=voices_dir).synthesize("Hello.").voice == "mei"
    assert TTS(voices_dir=voices_dir).synthesize("Hello.", voice="mei").voice == "mei"


def test_voice_directory_by_path(voices_dir: Path, fake_g2p: None) -> None:
    tts = TTS(voice=voices_dir / "mei", voices_dir=voices_dir / "nothing-here")
    assert tts.synthesize("Hello.").voice == "mei"
    assert [v.name for v in tts.voices()] == ["mei"]


@pytest.mark.parametrize("name", ["nobody", "../mei", "voices/mei", "/etc/passwd"])
def test_unknown_voice_lists_the_available_ones(tts: TTS, name: str) -> None:
    with pytest.raises(VoiceNotFoundError, match="available voices: anna, mei"):
        tts.synthesize("Hello.", voice=name)


def test_path_like_names_are_never_opened(tts: TTS, voices_dir: Path) -> None:
    with pytest.raises(VoiceNotFoundError, match="pass a pathlib.Path"):
        tts.synthesize("Hello.", voice=str(voices_dir / "mei"))


@pytest.mark.parametrize("speed", [0.49, 2.01, -1.0])
def test_speed_out_of_range_is_rejected(tts: TTS, speed: float) -> None:
    with pytest.raises(ValueError, match="speed"):
        tts.synthesize("Hello.", speed=speed)
    with pytest.raises(ValueError, match="speed"):
        tts.stream("Hello.", speed=speed)


def test_speed_changes_the_length(tts: TTS) -> None:
    normal, fast = tts.synthesize(TEXT).duration, tts.synthesize(TEXT, speed=2.0).duration
    assert fast == pytest.approx(normal / 2, rel=0.15)


def test_stream_joins_to_the_synthesized_audio(tts: TTS) -> None:
    chunks = list(tts.stream(TEXT))
    assert all(isinstance(c, AudioChunk) and c.sample_rate == 24000 for c in chunks)
    assert chunks[0].samples.size / 24000 <= 0.5  # a small first chunk
    assert [c.sentence for c in chunks] == sorted(c.sentence for c in chunks)
    assert {c.sentence for c in chunks} == {0, 1}
    joined = np.concatenate([c.samples for c in chunks])
    one_shot = tts.synthesize(TEXT).samples
    assert joined.shape == one_shot.shape
    assert np.abs(joined - one_shot).max() <= STREAM_TOLERANCE
    assert len(chunks[0].pcm16) == 2 * chunks[0].samples.size


def test_stream_prepared_equals_stream_with_output_options_and_timestamps(tts: TTS) -> None:
    """The server's path (frontend at admission, then the engine) gives what ``stream`` gives: the prepared
    output options (rate, gain) and the word timings survive."""
    options = {"sample_rate": 16000, "gain_db": -6.0}
    direct = list(tts.stream(TEXT, speed=1.1, timestamps=True, **options))
    prepared = list(tts.stream_prepared(tts.prepare(TEXT, speed=1.1, **options), timestamps=True))
    assert {c.sample_rate for c in prepared} == {16000}
    assert np.array_equal(np.concatenate([c.samples for c in prepared]), np.concatenate([c.samples for c in direct]))
    words = [w for c in prepared for w in c.words]
    assert words and words == [w for c in direct for w in c.words]


def test_same_input_gives_the_same_samples(voices_dir: Path, fake_g2p: None) -> None:
    a = TTS(voices_dir=voices_dir).synthesize(TEXT, speed=1.2).samples
    b = TTS(voices_dir=voices_dir).synthesize(TEXT, speed=1.2).samples
    assert np.array_equal(a, b)


def test_batch_equals_one_by_one(tts: TTS) -> None:
    texts = [TEXT, "你好，世界。", "Short.", "Another one, spoken fast."]
    voices = [None, None, "mei", None]
    speeds = [1.0, 1.0, 1.0, 1.5]
    batch = tts.synthesize_batch(texts, voices=voices, speeds=speeds)
    for text, voice, speed, audio in zip(texts, voices, speeds, batch, strict=True):
        alone = tts.synthesize(text, voice=voice, speed=speed)
        assert audio.voice == alone.voice
        assert audio.samples.shape == alone.samples.shape
        assert np.abs(audio.samples - alone.samples).max() <= STREAM_TOLERANCE
    with pytest.raises(ValueError, match="differ in length"):
        tts.synthesize_batch(texts, speeds=[1.0])


def test_prepare_then_render_in_two_halves(tts: TTS) -> None:
    a, b, fast = tts.prepare(TEXT), tts.prepare("Short."), tts.prepare("Short.", speed=1.5)
    assert a.batch_key == b.batch_key != fast.batch_key  # same voice and speed: one engine pass
    assert a.ids and all(ids[0] == 0 == ids[-1] for ids in a.ids) and len(a.ids) == len(a.utterances)
    rendered = tts.render([a, b, fast])
    for text, speed, audio in zip((TEXT, "Short.", "Short."), (1.0, 1.0, 1.5), rendered, strict=True):
        alone = tts.synthesize(text, speed=speed)
        assert audio.samples.shape == alone.samples.shape and audio.phonemes == alone.phonemes
        assert np.abs(audio.samples - alone.samples).max() <= STREAM_TOLERANCE
    with pytest.raises(ValueError, match="speed"):
        tts.prepare("Short.", speed=9.0)


def test_text_of_digits_alone_is_read_in_the_voices_language(voices_dir: Path) -> None:
    # "3+5=8" has no letters: a Mandarin voice reads it with the Mandarin frontend, an English voice in English
    tts = TTS(voices_dir=voices_dir)  # the real frontend: its Mandarin normalizer reads the digits
    for voice, expected in (("mei", [("zh", "三加五等于八")]), ("anna", [("en", "three plus five equals eight")])):
        prepared = tts.prepare("3+5=8", voice)
        assert [(s.lang, s.text) for u in prepared.utterances for s in u.segments] == expected
        assert tts.synthesize("3+5=8", voice=voice).phonemes == prepared.utterances[0].phonemes  # the stream path too
    assert tts.prepare("Chapter 3", "mei").utterances[0].segments[0].lang == "en"  # letters decide


def test_save_writes_16_bit_wav(tts: TTS, tmp_path: Path) -> None:
    audio = tts.synthesize("Hello world.")
    audio.save(tmp_path / "out.wav")
    info = soundfile.info(str(tmp_path / "out.wav"))
    assert (info.samplerate, info.channels, info.subtype, info.frames) == (24000, 1, "PCM_16", audio.samples.size)


def test_text_with_nothing_to_speak_is_a_user_error(tts: TTS) -> None:
    for text in ("", " ... ", "★😀"):
        with pytest.raises(NothingToSpeakError):
            tts.synthesize(text)
        with pytest.raises(NothingToSpeakError):
            list(tts.stream(text))
    with pytest.raises(NothingToSpeakError, match="U\\+2605"):
        tts.synthesize("★")


def test_voices_lists_the_configs(tts: TTS) -> None:
    assert [(v.name, v.language) for v in tts.voices()] == [("anna", "en"), ("mei", "zh")]


def test_phoneme_input(tts: TTS) -> None:
    audio = tts.synthesize_phonemes("həlˈO wˈɜɹld")
    assert audio.voice == "anna" and audio.samples.size > 0 and audio.words == []
    assert "".join(p.phoneme for p in audio.phoneme_timestamps) == "həlˈO wˈɜɹld"


@pytest.mark.parametrize(
    ("samples", "expected"), [([0.0, 1.0, -1.0], [0, 32767, -32767]), ([2.0, -3.0, 0.5], [32767, -32767, 16384])]
)
def test_pcm16_is_clipped_little_endian(samples: list[float], expected: list[int]) -> None:
    assert np.frombuffer(to_pcm16(np.array(samples, dtype=np.float32)), dtype="<i2").tolist() == expected


def test_bad_device_is_rejected(voices_dir: Path) -> None:
    with pytest.raises(ValueError, match="device"):
        TTS(device="tpu", voices_dir=voices_dir)


def _real_frontend_available() -> bool:
    names = ("onestep.frontend.en.g2p", "onestep.frontend.en.normalize", "onestep.frontend.zh.g2p")
    return all(importlib.util.find_spec(n) is not None for n in names)


@pytest.mark.skipif(not _real_frontend_available(), reason="built-in G2Ps not importable")
def test_real_frontend_end_to_end(voices_dir: Path) -> None:
    tts = TTS(voices_dir=voices_dir)
    en, zh = tts.synthesize("Hello world, it works."), tts.synthesize("你好，世界。")
    assert (en.voice, zh.voice) == ("anna", "mei")
    assert en.samples.size > 0 and zh.samples.size > 0
    assert [w.text for w in en.words][:2] == ["Hello", "world"]


def test_concurrent_calls_share_engines_and_agree(tts: TTS) -> None:
    from concurrent.futures import ThreadPoolExecutor

    texts = [TEXT, "你好，世界。", "Short.", TEXT] * 2
    expected = [tts.synthesize(t).samples for t in texts[:4]] * 2
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda t: tts.synthesize(t).samples, texts))
    for got, want in zip(results, expected, strict=True):
        assert np.array_equal(got, want)


def test_tts_preloads_the_frontend_so_no_later_call_imports_anything() -> None:
    """TTS() is ready at load: a first sentence with digits, units and Latin words in either language
    imports no module (the server preloads the same way)."""
    import sys

    from onestep import TTS

    fixtures = Path(__file__).resolve().parent / "fixtures"
    tts = TTS(voice="tiny", voices_dir=[fixtures], threads=1, preload=True)
    before = set(sys.modules)
    for text in ("我买了3.5公斤苹果，用iPhone付了12元。", "On Jan. 5, 2027 at 3:30 pm the 2nd run cost $4.50."):
        tts.synthesize(text)
    assert set(sys.modules) - before == set()
