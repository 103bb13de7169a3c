"""The web page in headless Chromium (Debian's ``chromium`` package, driven by Playwright)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from .conftest import VOICE, LiveServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytest.importorskip("playwright.sync_api", reason="pip package 'playwright' is not installed")
if shutil.which("chromium") is None:
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

from playwright.sync_api import Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--autoplay-policy=no-user-gesture-required"])
        yield b
        b.close()


@pytest.fixture
def page(browser, server: LiveServer) -> Iterator[Page]:  # noqa: ANN001
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
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
