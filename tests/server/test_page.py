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

import pytest

from .conftest import FIXTURES, VOICE, free_port

PAGE_PYTHON_ENV = "ONESTEP_PAGE_PYTHON"

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

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
               "--workers", "1", "--threads", "1", "--no-warmup", "--log-level", "warning"]  # fmt: skip
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
