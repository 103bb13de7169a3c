"""WebSocket ``/v1/stream`` with the ``websockets`` client."""

from __future__ import annotations

import asyncio
import json

import httpx
from websockets.asyncio.client import connect

from onestep.server.routes_ws import MAX_PENDING

from .conftest import TEXT, VOICE, GatedBackend, LiveServer, live_server, wait_for

FIRST, SECOND = "第一句。", "第二句话更长一些，接着说。"


async def receive_one(ws) -> tuple[dict, bytes, dict]:  # noqa: ANN001
    """Read start header, PCM chunks and the end message of one request."""
    start = json.loads(await ws.recv())
    pcm = bytearray()
    while True:
        message = await ws.recv()
        if isinstance(message, bytes):
            pcm.extend(message)
            continue
        return start, bytes(pcm), json.loads(message)


async def request_error(ws, payload: str | bytes) -> dict:  # noqa: ANN001
    await ws.send(payload)
    message = json.loads(await ws.recv())
    assert message["type"] == "error"
    return message["error"]


def test_stream_sends_header_pcm_and_end(server: LiveServer) -> None:
    async def scenario() -> tuple[dict, bytes, dict]:
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"text": TEXT, "voice": VOICE}))
            return await receive_one(ws)

    start, pcm, end = asyncio.run(scenario())
    assert start == {"type": "start", "id": None, "sample_rate": 24000, "format": "pcm_s16le", "channels": 1,
                     "skipped": {}}  # fmt: skip
    body = {"text": TEXT, "voice": VOICE, "format": "pcm"}
    expected = httpx.post(server.url + "/synthesize", json=body, timeout=60).content
    assert pcm == expected
    assert end["type"] == "end"
    assert end["audio_seconds"] == round(len(pcm) / 2 / 24000, 3)
    assert 0 <= end["first_chunk_ms"] <= end["total_ms"]
    assert end["real_time_factor"] > 0


def test_bad_messages_get_errors_and_the_connection_survives(server: LiveServer) -> None:
    async def scenario() -> tuple[list[dict], bytes]:
        async with connect(server.ws_url) as ws:
            errors = [
                await request_error(ws, "not json"),
                await request_error(ws, "[1, 2]"),
                await request_error(ws, json.dumps({"text": 5})),
                await request_error(ws, json.dumps({"text": ""})),
                await request_error(ws, json.dumps({"text": TEXT, "voice": "../../etc"})),
                await request_error(ws, json.dumps({"text": TEXT, "speed": 9})),
                await request_error(ws, b"\x00\x01binary"),
            ]
            await ws.send(json.dumps({"text": "还在这里。", "speed": 1.5}))
            _, pcm, end = await receive_one(ws)
            assert end["type"] == "end"
            return errors, pcm

    errors, pcm = asyncio.run(scenario())
    assert [e["code"] for e in errors] == [
        "json_invalid",
        "model_type",
        "string_type",
        "empty_input",
        "voice_not_found",
        "invalid_speed",
        "binary_message",
    ]
    assert all(e["type"] == "invalid_request_error" for e in errors)
    assert len(pcm) > 0


def test_requests_on_one_connection_are_served_in_order(server: LiveServer) -> None:
    async def scenario() -> list[bytes]:
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"text": FIRST, "voice": VOICE}))
            await ws.send(json.dumps({"text": SECOND, "voice": VOICE}))
            return [(await receive_one(ws))[1] for _ in range(2)]

    first, second = asyncio.run(scenario())
    synth = [
        httpx.post(server.url + "/synthesize", json={"text": t, "voice": VOICE, "format": "pcm"}, timeout=60).content
        for t in (FIRST, SECOND)
    ]
    assert [first, second] == synth


def test_api_key_for_websocket_by_query_or_header(backend) -> None:  # noqa: ANN001
    with live_server(backend, api_key="k3y", workers=1) as live:

        async def scenario() -> tuple[dict, int | None, dict, dict]:
            async with connect(live.ws_url) as ws:
                refused = json.loads(await ws.recv())
                await ws.wait_closed()
                code = ws.close_code
            async with connect(live.ws_url + "?api_key=k3y") as ws:
                await ws.send(json.dumps({"text": "你好。"}))
                by_query = (await receive_one(ws))[2]
            async with connect(live.ws_url, additional_headers={"Authorization": "Bearer k3y"}) as ws:
                await ws.send(json.dumps({"text": "你好。"}))
                by_header = (await receive_one(ws))[2]
            return refused, code, by_query, by_header

        refused, code, by_query, by_header = asyncio.run(scenario())
    assert refused["error"]["type"] == "authentication_error"
    assert code == 1008
    assert by_query["type"] == by_header["type"] == "end"


def test_a_flooding_connection_has_each_extra_request_refused_by_id(gated: GatedBackend) -> None:
    with live_server(gated, workers=1) as live:

        async def scenario() -> tuple[list, list[dict]]:
            gated.gate.clear()
            async with connect(live.ws_url) as ws:
                await ws.send(json.dumps({"text": "第0句。", "voice": VOICE, "id": "r0"}))
                assert json.loads(await ws.recv())["id"] == "r0"  # playing (held by the gate)
                for i in range(1, 1 + MAX_PENDING + 3):  # MAX_PENDING waiting, three too many
                    await ws.send(json.dumps({"text": f"第{i}句。", "voice": VOICE, "id": f"r{i}"}))
                errors = []
                while len(errors) < 3:  # the refusals come at once, while the gate is still closed
                    body = json.loads(await ws.recv())
                    if body["type"] == "error":
                        errors.append(body)
                gated.gate.set()
                ends = []
                while len(ends) < 1 + MAX_PENDING:
                    message = await ws.recv()
                    if isinstance(message, str):
                        body = json.loads(message)
                        assert "id" in body  # every JSON frame names its request
                        ends += [body["id"]] if body["type"] == "end" else []
                return ends, errors

        ends, errors = asyncio.run(scenario())
    assert ends == [f"r{i}" for i in range(1 + MAX_PENDING)]
    assert sorted((e["id"] for e in errors), key=lambda r: int(r[1:])) == [f"r{i}" for i in range(1 + MAX_PENDING, 4 + MAX_PENDING)]
    assert {e["error"]["code"] for e in errors} == {"too_many_pending"}


def test_closing_the_socket_cancels_the_stream_in_progress(gated: GatedBackend) -> None:
    long_text = " ".join([TEXT] * 4)
    gated.delay_s = 0.05  # per chunk: the stream cannot end before the client has left
    with live_server(gated, workers=1) as live:

        async def scenario() -> None:
            async with connect(live.ws_url) as ws:
                await ws.send(json.dumps({"text": long_text, "voice": VOICE}))
                assert json.loads(await ws.recv())["type"] == "start"
                assert isinstance(await ws.recv(), bytes)
                gated.gate.clear()  # hold the rest while the client leaves
            await asyncio.to_thread(lambda: wait_for(lambda: live.state.scheduler.in_flight == 1))
            gated.gate.set()

        asyncio.run(scenario())
        wait_for(lambda: live.state.scheduler.in_flight == 0)
    assert gated.closed_early == [long_text]
