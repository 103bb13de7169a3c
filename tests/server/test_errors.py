"""Bad requests get 4xx JSON in OpenAI's error shape, and none of them hurts the server."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import numpy as np
import pytest

from onestep.server.backend import BackendInputError, SynthesisRequest, TTSBackend

from .conftest import TEXT, VOICE, GatedBackend, LiveServer, live_server

SPEECH = "/v1/audio/speech"
SYNTH = "/synthesize"
OK_SPEECH = {"model": "tts-1", "input": TEXT, "voice": "alloy"}

# (name, path, json body or raw bytes, expected status, expected error param or None, expected code or None)
CASES = [
    ("empty input", SPEECH, {**OK_SPEECH, "input": ""}, 400, "input", "empty_input"),
    ("blank input", SPEECH, {**OK_SPEECH, "input": " \n\t "}, 400, "input", "empty_input"),
    ("input over max_chars", SPEECH, {**OK_SPEECH, "input": "a" * 201}, 400, "input", "input_too_long"),
    ("input of wrong type", SPEECH, {**OK_SPEECH, "input": 42}, 400, "input", "string_type"),
    ("missing input", SPEECH, {"model": "tts-1", "voice": "alloy"}, 400, "input", "missing"),
    ("unknown voice", SPEECH, {**OK_SPEECH, "voice": "nobody"}, 400, "voice", "voice_not_found"),
    ("path-like voice", SPEECH, {**OK_SPEECH, "voice": "../../etc/passwd"}, 400, "voice", "voice_not_found"),
    ("absolute path voice", SYNTH, {"text": TEXT, "voice": "/etc"}, 400, "voice", "voice_not_found"),
    ("voice object without id", SPEECH, {**OK_SPEECH, "voice": {"name": "x"}}, 400, "voice", None),
    ("speed below OpenAI range", SPEECH, {**OK_SPEECH, "speed": 0.1}, 400, "speed", "invalid_speed"),
    ("speed above native range", SYNTH, {"text": TEXT, "speed": 2.5}, 400, "speed", "invalid_speed"),
    ("speed of wrong type", SYNTH, {"text": TEXT, "speed": "fast"}, 400, "speed", "float_type"),
    ("unsupported format", SPEECH, {**OK_SPEECH, "response_format": "wma"}, 400, "response_format", None),
    ("bitrate of a format without one", SPEECH, {**OK_SPEECH, "response_format": "wav", "bitrate": 64}, 400, "bitrate", "invalid_bitrate"),
    ("bitrate of wrong type", SPEECH, {**OK_SPEECH, "bitrate": "96k"}, 400, "bitrate", "int_type"),
    ("unsupported native format", SYNTH, {"text": TEXT, "format": "midi"}, 400, "format", None),
    ("unknown native field", SYNTH, {"text": TEXT, "pitch": 3}, 400, "pitch", "extra_forbidden"),
    ("bad stream_format", SPEECH, {**OK_SPEECH, "stream_format": "video"}, 400, "stream_format", None),
    ("malformed JSON", SPEECH, b'{"input": "hi",', 400, None, None),
    ("JSON array body", SYNTH, b"[1, 2, 3]", 400, None, None),
    ("empty body", SYNTH, b"", 400, None, None),
]


@pytest.mark.parametrize(("name", "path", "body", "status", "param", "code"), CASES, ids=[c[0] for c in CASES])
def test_bad_request_is_json_error(
    server: LiveServer, name: str, path: str, body: object, status: int, param: str | None, code: str | None
) -> None:
    if isinstance(body, bytes):
        r = httpx.post(server.url + path, content=body, headers={"content-type": "application/json"}, timeout=60)
    else:
        r = httpx.post(server.url + path, json=body, timeout=60)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["message"]
    if param is not None:
        assert error["param"] == param
    if code is not None:
        assert error["code"] == code


def test_oversize_body_is_refused_from_its_content_length(server: LiveServer) -> None:
    limit = server.state.config.max_body_bytes
    headers = {"content-type": "application/json"}
    r = httpx.post(server.url + SYNTH, content=b"x" * (limit + 1), headers=headers, timeout=60)
    assert r.status_code == 413
    assert r.json()["error"] == {
        "message": f"request body exceeds the {limit}-byte limit",
        "type": "request_too_large",
        "param": None,
        "code": "body_too_large",
    }


def test_oversize_chunked_body_is_cut_off(server: LiveServer) -> None:
    limit = server.state.config.max_body_bytes

    def body():  # noqa: ANN202 - no Content-Length: sent chunked
        for _ in range(limit // 1000 + 2):
            yield b"x" * 1000

    r = httpx.post(server.url + SYNTH, content=body(), headers={"content-type": "application/json"}, timeout=60)
    assert r.status_code == 413
    assert r.json()["error"]["type"] == "request_too_large"


@pytest.mark.parametrize(
    ("method", "path", "status", "error_type"),
    [("GET", "/v2/nothing", 404, "not_found_error"), ("GET", SYNTH, 405, "invalid_request_error")],
)
def test_unknown_routes_and_methods(server: LiveServer, method: str, path: str, status: int, error_type: str) -> None:
    r = httpx.request(method, server.url + path, timeout=60)
    assert r.status_code == status
    assert r.json()["error"]["type"] == error_type


@pytest.mark.parametrize("text", ["...", "★☆", "😀"])
def test_text_with_nothing_to_say_is_a_422_never_an_empty_200(server: LiveServer, text: str) -> None:
    r = httpx.post(server.url + SYNTH, json={"text": text, "voice": VOICE, "format": "pcm"}, timeout=30)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "nothing_to_speak"
    if text != "...":
        assert "skipped" in r.json()["error"]["message"]


def test_server_is_healthy_after_the_abuse_and_counted_it(server: LiveServer) -> None:
    assert httpx.get(server.url + "/health").json()["status"] == "ok"
    metrics = httpx.get(server.url + "/metrics").text
    assert 'onestep_errors_total{type="voice_not_found"}' in metrics
    assert 'onestep_errors_total{type="body_too_large"}' in metrics


class _FailingBackend(GatedBackend):
    """The real backend whose synthesis raises ``error`` (a user error, or a bug)."""

    def __init__(self, inner: TTSBackend, error: Exception) -> None:
        super().__init__(inner)
        self.error = error

    def stream(self, request: SynthesisRequest) -> Iterator[np.ndarray]:
        raise self.error
        yield  # pragma: no cover - a generator, like the real one


@pytest.mark.parametrize(
    ("error", "status"),
    [(BackendInputError("nothing to say"), 400), (ValueError("an engine bug"), 500), (RuntimeError("boom"), 500)],
)
def test_user_errors_are_4xx_and_bugs_500_with_a_logged_trace(
    backend: TTSBackend, error: Exception, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    with live_server(_FailingBackend(backend, error), warmup=False) as live:
        with caplog.at_level(logging.ERROR, logger="onestep.server"):
            r = httpx.post(live.url + SYNTH, json={"text": TEXT, "voice": VOICE, "format": "pcm"}, timeout=30)
    assert r.status_code == status
    message = r.json()["error"]["message"]
    if status == 500:
        assert str(error) not in message  # details stay in the log
        assert any(rec.exc_info and rec.exc_info[1] is error for rec in caplog.records)
    else:
        assert str(error) in message
