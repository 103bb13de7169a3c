"""A canned HTTP server (raw asyncio on uvloop) to find the load generator's own ceiling.

It answers ``GET /v1/voices`` with one 24 kHz voice and every other request with BYTES zero bytes of "PCM"
(``Content-Length``, an ``X-Time-To-First-Audio-Ms`` header), doing no other work, so that ``onestep bench
--mode server`` against it measures the client alone::

    python lab/canned_server.py 8799 400000 &      # ~8.3 s of 24 kHz PCM a response, as the held-out pairs
    onestep bench --mode server --url http://127.0.0.1:8799 --concurrency 10 --duration 6 --pace closed --processes 1
"""

from __future__ import annotations

import asyncio
import json
import sys

import uvloop

VOICES = json.dumps({"voices": [{"id": "tiny", "sample_rate": 24000}]}).encode()


def response(body: bytes, content_type: bytes) -> bytes:
    """A whole HTTP/1.1 200 response with ``body``."""
    return (b"HTTP/1.1 200 OK\r\ncontent-type: " + content_type + b"\r\ncontent-length: " + str(len(body)).encode()
            + b"\r\nx-time-to-first-audio-ms: 1.0\r\n\r\n" + body)  # fmt: skip


class Canned(asyncio.Protocol):
    """Answers each request on a keep-alive connection as soon as its headers and body are in."""

    def __init__(self, voices: bytes, audio: bytes) -> None:
        self.voices, self.audio, self.buf = voices, audio, b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while (end := self.buf.find(b"\r\n\r\n")) >= 0:
            head = self.buf[:end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                key, _, value = line.partition(":")
                if key.strip().lower() == "content-length":
                    length = int(value)
            if len(self.buf) < end + 4 + length:
                return
            self.buf = self.buf[end + 4 + length :]
            self.transport.write(self.voices if head.startswith("GET /v1/voices") else self.audio)  # type: ignore[attr-defined]


async def serve(port: int, n_bytes: int) -> None:
    voices, audio = response(VOICES, b"application/json"), response(b"\0" * n_bytes, b"audio/pcm")
    server = await asyncio.get_running_loop().create_server(lambda: Canned(voices, audio), "127.0.0.1", port)
    await server.serve_forever()


if __name__ == "__main__":
    uvloop.run(serve(int(sys.argv[1]), int(sys.argv[2])))
