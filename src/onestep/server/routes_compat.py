"""Endpoints that OpenAI-style clients probe: ``/v1/models`` (OpenAI's list) and ``/v1/audio/voices``
(Kokoro-FastAPI's path, beside our ``/v1/voices``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from onestep.server.routes_http import get_state, require_api_key
from onestep.server.schemas import OPENAI_VOICES, openai_voice_table

router = APIRouter()

#: Model ids the speech endpoint accepts (it ignores the field; these are what clients pick from).
MODEL_IDS: tuple[str, ...] = ("onestep", "tts-1", "tts-1-hd", "gpt-4o-mini-tts")
_CREATED = 1735689600  # 2025-01-01: a fixed creation time (OpenAI's list has one per model)


@router.get("/v1/models", dependencies=[Depends(require_api_key)])
async def models() -> JSONResponse:
    """OpenAI's model list format: ``{"object": "list", "data": [{"id", "object": "model", ...}]}``."""
    data = [{"id": m, "object": "model", "created": _CREATED, "owned_by": "onestep"} for m in MODEL_IDS]
    return JSONResponse({"object": "list", "data": data})


@router.get("/v1/models/{model_id}", dependencies=[Depends(require_api_key)])
async def model(model_id: str) -> JSONResponse:
    """One model, or OpenAI's 404 error shape."""
    if model_id not in MODEL_IDS:
        error = {"message": f"model {model_id!r} does not exist", "type": "invalid_request_error",
                 "param": "model", "code": "model_not_found"}  # fmt: skip
        return JSONResponse({"error": error}, status_code=404)
    return JSONResponse({"id": model_id, "object": "model", "created": _CREATED, "owned_by": "onestep"})


@router.get("/v1/audio/voices", dependencies=[Depends(require_api_key)])
async def audio_voices(request: Request) -> JSONResponse:
    """Kokoro-FastAPI's shape: ``{"voices": [name, ...]}`` (our voices, then the OpenAI names), and
    ``"openai_voices"``: which of our voices each OpenAI name gives."""
    voices = get_state(request).voices
    names = [v.name for v in voices]
    return JSONResponse({"voices": names + sorted(OPENAI_VOICES), "openai_voices": openai_voice_table(voices)})
