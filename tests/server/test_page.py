"""The web page in headless Chromium (Debian's ``chromium`` package, driven by Playwright).

The page is served by a real ``onestep serve`` process. ``$ONESTEP_PAGE_PYTHON`` names the Python that runs it:
CI points it at a virtual environment with a plain ``pip install .`` (no test extra), so a runtime dependency
the page needs (the WebSocket library, say) that only the test extra brings fails here. Unset: this Python.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import numpy as np

import pytest

from .conftest import FIXTURES, VOICE, free_port

PAGE_PYTHON_ENV = "ONESTEP_PAGE_PYTHON"

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
MULTI = FIXTURES / "multi"  # a multi-speaker model: its voices blend

pytest.importorskip("playwright.sync_api", reason="pip package 'playwright' is not installed")
if shutil.which("chromium") is None:
    pytest.skip("Chromium is not installed (Debian: apt-get install chromium; see docs/DEVELOPMENT.md)", allow_module_level=True)

from playwright.sync_api import Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--autoplay-policy=no-user-gesture-required"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """``onestep serve`` on the fixture voice in its own process (see the module docstring); its URL."""
    python = os.environ.get(PAGE_PYTHON_ENV) or sys.executable
    env = dict(os.environ)
    if os.environ.get(PAGE_PYTHON_ENV):
        env.pop("PYTHONPATH", None)  # the install under test, not this checkout's sources
    port = free_port()
    command = [python, "-m", "onestep.cli", "serve", "--port", str(port), "--voices-dir", str(FIXTURES),
               "--voices-dir", str(MULTI), "--workers", "1", "--threads", "1", "--no-warmup",
               "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url + "/health", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"onestep serve ({python}) did not start:\n{proc.communicate()[0]}")
            time.sleep(0.2)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            log = proc.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            log = proc.communicate()[0]
        assert "No supported WebSocket library" not in log, log


@pytest.fixture
def page(browser, served: str) -> Iterator[Page]:  # noqa: ANN001
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served + "/")
    yield page
    page.close()
    assert errors == [], errors


def test_page_lists_voices_and_plays_audio_while_it_streams(page: Page) -> None:
    page.wait_for_selector(f"#voice option[value='{VOICE}']", state="attached")
    page.select_option("#voice", VOICE)
    page.fill("#text", "来自浏览器的问候。这句话边合成边播放。")
    page.fill("#speed", "1.5")
    page.dispatch_event("#speed", "input")
    assert page.inner_text("#speed-value") == "1.50×"
    page.click("#speak")
    page.wait_for_function("window.onestepStats.done || window.onestepStats.error !== null", timeout=20000)
    stats = page.evaluate("window.onestepStats")
    assert stats["error"] is None
    assert stats["chunks"] >= 1 and stats["playedSamples"] > 0
    assert page.inner_text("#ttfa").endswith(" ms")
    assert float(page.inner_text("#rtf")) > 0
    assert page.inner_text("#audio-seconds") == f"{stats['playedSamples'] / 24000:.2f} s"
    assert page.inner_text("#status") == "Done."


def test_page_shows_server_errors(page: Page) -> None:
    page.fill("#text", "   ")
    page.click("#speak")
    page.wait_for_function("window.onestepStats.error !== null", timeout=20000)
    assert page.inner_text("#status") == "Error: text must not be empty"
    page.fill("#text", "恢复了。")
    page.click("#speak")
    page.wait_for_function("window.onestepStats.done", timeout=20000)


def test_page_highlights_each_word_as_it_is_spoken(page: Page) -> None:
    text = "我有3个苹果，Dr. Smith 说你好。"
    page.wait_for_selector(f"#voice option[value='{VOICE}']", state="attached")
    page.select_option("#voice", VOICE)
    page.fill("#text", text)
    page.click("#speak")
    page.wait_for_function("window.onestepStats.done || window.onestepStats.error !== null", timeout=20000)
    assert page.evaluate("window.onestepStats.error") is None
    spans = page.eval_on_selector_all("#transcript .w", "els => els.map(e => e.textContent)")
    assert spans == ["我", "有", "3个", "苹果", "Dr.", "Smith", "说", "你好"]  # written words, at their offsets
    assert page.inner_text("#transcript") == text
    # the audio clock walks through the words: each is highlighted in turn, in order
    page.wait_for_function("window.onestepStats.highlighted.length >= 8", timeout=20000)
    assert page.evaluate("window.onestepStats.highlighted") == spans


def _server_formats(url: str) -> list[str]:
    import json

    with urllib.request.urlopen(url + "/v1/voices", timeout=10) as response:
        return json.load(response)["formats"]


def _downloaded(page: Page, tmp_path) -> tuple[object, str]:  # noqa: ANN001
    """Click Download; the saved file's path and its suggested name."""
    with page.expect_download(timeout=30000) as info:
        page.click("#download")
    download = info.value
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    return path, download.suggested_filename


def test_page_downloads_the_text_in_the_chosen_format_at_the_chosen_speed(page: Page, served: str, tmp_path) -> None:  # noqa: ANN001
    import soundfile

    from onestep import TTS

    page.wait_for_selector(f"#voice option[value='{VOICE}']", state="attached")
    formats = page.eval_on_selector_all("#format option", "els => els.map(e => e.value)")
    assert formats == _server_formats(served) and "flac" in formats
    text = "下载这一句话。"
    page.select_option("#voice", VOICE)
    page.fill("#text", text)
    page.fill("#speed", "1.5")
    page.dispatch_event("#speed", "input")
    page.select_option("#format", "flac")
    path, name = _downloaded(page, tmp_path)
    assert name == "onestep.flac" and page.evaluate("window.onestepStats.download.type") == "audio/flac"
    av = pytest.importorskip("av")
    with av.open(str(path)) as container:  # a streamed FLAC: its header leaves the length open
        stream = container.streams.audio[0]
        rate, frames = stream.rate, sum(frame.samples for frame in container.decode(stream))
    expected = TTS(voices_dir=[FIXTURES], threads=1).synthesize(text, voice=VOICE, speed=1.5)
    assert stream.codec_context.name == "flac" and rate == expected.sample_rate
    assert frames == expected.samples.size  # speed 1.5 reached the server
    if "opus" in formats:
        page.select_option("#format", "opus")
        path, name = _downloaded(page, tmp_path)
        assert name == "onestep.ogg" and soundfile.info(str(path)).format == "OGG"
    assert page.inner_text("#status").startswith("Downloaded onestep.")


def test_page_blends_two_voices_for_speech_and_download(page: Page, tmp_path) -> None:  # noqa: ANN001
    import soundfile

    from onestep import TTS

    page.wait_for_selector("#blend option[value='tiny-zh-m']", state="attached")
    assert page.is_hidden("#blend-weight-label")
    page.select_option("#voice", "tiny-zh-f")
    page.select_option("#blend", "tiny-zh-m")
    page.fill("#blend-weight", "0.3")
    page.dispatch_event("#blend-weight", "input")
    assert page.is_visible("#blend-weight-label") and page.inner_text("#blend-value") == "30%"
    text = "混合两个声音。"
    page.fill("#text", text)
    page.click("#speak")
    page.wait_for_function("window.onestepStats.done || window.onestepStats.error !== null", timeout=20000)
    stats = page.evaluate("window.onestepStats")
    blend = "tiny-zh-f:0.70+tiny-zh-m:0.30"
    assert stats["error"] is None and stats["voice"] == blend and stats["playedSamples"] > 0
    page.select_option("#format", "wav")
    path, _ = _downloaded(page, tmp_path)
    samples, _ = soundfile.read(str(path), dtype="float32")
    tts = TTS(voices_dir=[MULTI], threads=1)
    expected = tts.synthesize(text, voice=blend)
    assert samples.shape == expected.samples.shape
    np.testing.assert_allclose(samples, expected.samples, atol=2 / 32768)  # the blend, to 16-bit rounding
    plain = tts.synthesize(text, voice="tiny-zh-f").samples
    assert plain.shape != samples.shape or not np.allclose(plain, samples, atol=1e-3)  # not the first voice alone
    page.select_option("#voice", "")  # a blend needs a first voice: the page says so, nothing is sent
    page.click("#download")
    page.wait_for_function("window.onestepStats.error !== null", timeout=5000)
    assert page.inner_text("#status") == "Choose a voice to blend with tiny-zh-m"
