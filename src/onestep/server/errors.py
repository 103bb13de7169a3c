"""Every error leaves the server as JSON in OpenAI's shape: ``{"error": {"message", "type", "param", "code"}}``."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from onestep.errors import OnestepError, UserError

log = logging.getLogger("onestep.server")

#: HTTP status -> OpenAI-style error type.
ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    404: "not_found_error",
    405: "invalid_request_error",
    413: "request_too_large",
    415: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
    500: "server_error",
    503: "server_busy",
    504: "timeout_error",
}


class ApiError(OnestepError):
    """An error answered with ``status`` and an OpenAI-shaped body.

    Attributes:
        status: HTTP status code.
        message: human-readable message naming the bad value.
        param: the request field at fault, if any.
        code: machine-readable code (e.g. ``"queue_full"``), if any.
        headers: extra response headers (e.g. ``Retry-After``).
    """

    def __init__(
        self,
        status: int,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param
        self.code = code
        self.headers = headers or {}

    @property
    def type(self) -> str:
        return ERROR_TYPES.get(self.status, "invalid_request_error" if self.status < 500 else "server_error")

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


def validation_error(exc: RequestValidationError) -> ApiError:
    """Turn FastAPI's request validation failure into one 400 naming the first bad field."""
    errors = exc.errors()
    if not errors:
        return ApiError(400, "invalid request")
    first = errors[0]
    if first.get("type") == "json_invalid":
        return ApiError(400, f"malformed JSON body: {first.get('ctx', {}).get('error', first.get('msg'))}")
    if first.get("type") == "model_attributes_type":
        return ApiError(400, "request body must be a JSON object")
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    param = loc[0] if loc else None  # the top-level field (deeper parts name union members, e.g. "voice.str")
    msg = first.get("msg", "invalid value")
    if len(errors) > 1 and all(e.get("loc", ())[:2] == first.get("loc", ())[:2] for e in errors):
        msg = "; or ".join(dict.fromkeys(e.get("msg", "") for e in errors))  # every member of a union failed
    return ApiError(400, f"{param}: {msg}" if param else msg, param=param, code=first.get("type"))


def install_error_handlers(app: FastAPI, on_error: Any = None, max_body_bytes: int | None = None) -> None:
    """Register handlers so that no error leaves as HTML or a bare string.

    ``on_error(error_type: str)`` is called for every error answered (for metrics).
    """

    def answer(err: ApiError) -> JSONResponse:
        if on_error is not None:
            on_error(err.code or err.type)
        return err.response()

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return answer(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        return answer(validation_error(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "request failed"
        if exc.status_code == 404:
            message = f"no route {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"method {request.method} not allowed on {request.url.path}"
        elif exc.status_code == 413:
            message = f"request body exceeds the {max_body_bytes}-byte limit"
            return answer(ApiError(413, message, code="body_too_large"))
        return answer(ApiError(exc.status_code, message, headers=dict(exc.headers or {})))

    @app.exception_handler(UserError)
    async def _user_error(request: Request, exc: UserError) -> JSONResponse:
        return answer(ApiError(400, str(exc), code=type(exc).__name__))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return answer(ApiError(500, f"internal error: {type(exc).__name__}", code="internal_error"))
