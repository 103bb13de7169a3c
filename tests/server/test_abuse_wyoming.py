"""Wyoming abuse suite with the real ``wyoming`` client (issue 14, item 4): every bad event gets an error
event and the connection stays usable; a missing text is named; client disconnects are logged at INFO
without a traceback."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from wyoming.client import AsyncTcpClient
from wyoming.event import Event
from wyoming.info import Describe

from .conftest import VOICE
from .test_wyoming import TEXT_ZH, wyoming_port  # noqa: F401 - the shared Wyoming server fixture

BAD_EVENTS = [
    (Event("synthesize", {"text": 5}), "'text' must be a string"),
    (Event("synthesize", {"text": ["a"]}), "'text' must be a string"),
    (Event("synthesize", {"text": "你好。", "voice": {"name": 5}}), "'voice.name' must be a string"),
    (Event("synthesize", {"text": "你好。", "voice": "tiny"}), "'voice' must be an object"),
    (Event("synthesize", {"text": "你好。", "voice": {"language": ["zh"]}}), "'voice.language' must be a string"),
    (Event("synthesize", {}), "missing 'text'"),
    (Event("synthesize-start", {"voice": 3}), "'voice' must be an object"),
    (Event("synthesize-chunk", {"text": None}), "'text' must be a string"),
    (Event("synthesize", {"text": "★"}), "nothing to speak"),
]


async def _error_then_usable(port: int, event: Event) -> tuple[str, str]:
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(event)
        error = await asyncio.wait_for(client.read_event(), 30)
        assert error is not None and error.type == "error", error
        await client.write_event(Describe().event())  # the same connection still answers
        info = await asyncio.wait_for(client.read_event(), 30)
        return error.data["text"], info.type if info is not None else "closed"


@pytest.mark.parametrize(("event", "message"), BAD_EVENTS, ids=[json.dumps(e.data)[:40] for e, _ in BAD_EVENTS])
def test_a_bad_event_gets_an_error_and_the_connection_stays_usable(wyoming_port: int, event: Event, message: str) -> None:  # noqa: F811
    text, after = asyncio.run(_error_then_usable(wyoming_port, event))
    assert message in text and after == "info"


@pytest.mark.parametrize(
    "raw",
    [b"not json\n", b"[1, 2]\n", b'{"type": 5}\n', b'{"type": "synthesize", "data": [1]}\n',
     b'{"type": "synthesize", "data_length": 999999999}\n', b'{"type": "synthesize", "data_length": 3}\n[1]'],
)  # fmt: skip
def test_unreadable_frames_get_an_error_and_the_connection_stays_usable(wyoming_port: int, raw: bytes) -> None:  # noqa: F811
    async def scenario() -> tuple[str, str]:
        reader, writer = await asyncio.open_connection("127.0.0.1", wyoming_port)
        writer.write(raw)
        await writer.drain()
        error = json.loads(await asyncio.wait_for(reader.readline(), 30))
        if error.get("data_length"):
            error["data"] = json.loads(await reader.readexactly(error["data_length"]))
        writer.write(b'{"type": "describe"}\n')
        await writer.drain()
        info = json.loads(await asyncio.wait_for(reader.readline(), 30))
        writer.close()
        return error["type"], info["type"]

    assert asyncio.run(scenario()) == ("error", "info")


def test_a_client_that_leaves_mid_audio_is_logged_at_info_without_a_traceback(
    wyoming_port: int, caplog: pytest.LogCaptureFixture  # noqa: F811
) -> None:
    async def scenario() -> None:
        client = AsyncTcpClient("127.0.0.1", wyoming_port)
        await client.connect()
        await client.write_event(Event("synthesize", {"text": " ".join([TEXT_ZH] * 20), "voice": {"name": VOICE}}))
        assert (await asyncio.wait_for(client.read_event(), 30)).type == "audio-start"  # type: ignore[union-attr]
        client._writer.transport.abort()  # type: ignore[union-attr]  # a reset, as a crashed client does
        await asyncio.sleep(1.0)

    with caplog.at_level(logging.INFO, logger="onestep.wyoming"):
        asyncio.run(scenario())
        asyncio.run(asyncio.sleep(1.0))
    records = [r for r in caplog.records if r.name.startswith("onestep") or r.levelno >= logging.ERROR]
    assert all(r.levelno < logging.WARNING and r.exc_info is None for r in records), [r.getMessage() for r in records]
    assert any("disconnected" in r.getMessage() for r in records)
