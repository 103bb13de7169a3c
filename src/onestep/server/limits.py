"""ASGI middleware that refuses oversized request bodies before reading them.

A declared ``Content-Length`` above the limit is answered 413 (one that is not a number, 400; white space
around it is allowed, RFC 9110) (OpenAI-shaped JSON) without reading the
body; a chunked body is counted as it arrives and stopped at the first byte over the limit by raising a
413 ``HTTPException`` from ``receive``, which the app's error handlers turn into the same JSON.

(FastAPI's own ``max_body_size`` answers a too-large ``Content-Length`` in plain text, hence this.)
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from onestep.server.errors import ApiError


class BodySizeLimit:
    """Wrap an ASGI app so that HTTP request bodies over ``max_bytes`` get a 413 JSON error."""

    def __init__(self, app: ASGIApp, max_bytes: int, on_reject: Callable[[str], None] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.on_reject = on_reject

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name != b"content-length":
                continue
            value = value.strip(b" \t")  # RFC 9110 5.5: white space around a field value is not part of it
            if not value.isdigit():
                err = ApiError(400, "Content-Length must be a decimal number of bytes", code="invalid_content_length")
            elif int(value) > self.max_bytes:
                err = ApiError(413, f"request body exceeds the {self.max_bytes}-byte limit", code="body_too_large")
            else:
                continue
            if self.on_reject is not None:
                self.on_reject(err.code or "bad_request")
            await err.response()(scope, receive, send)
            return
        seen = 0

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise HTTPException(413)
            return message

        await self.app(scope, counting_receive, send)
