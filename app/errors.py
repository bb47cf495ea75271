"""Every failure becomes ``{"error": {"code", "message", "details"}}`` with a 4xx status.

One handler maps the engine's whole exception tree (``engine.errors``); the others cover what
the framework rejects before the engine sees it (bad JSON, wrong types, unknown routes,
oversized bodies). Unexpected exceptions become a bare JSON 500, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engine import (
    EngineError,
    LexiconNotReadyError,
    RulesetError,
    UnknownGameError,
    UnknownLexiconError,
)

from .request_errors import error_body
from .responses import JSON

log = logging.getLogger("wordsolver")


def error_response(status: int, code: str, message: str, details: dict[str, Any] | None = None,
                   headers: dict[str, str] | None = None) -> JSON:
    body = {"error": {"code": code, "message": message, "details": details or {}}}
    return JSON(body, status_code=status, headers=headers)


def engine_status(exc: EngineError) -> int:
    if isinstance(exc, UnknownGameError | UnknownLexiconError):
        return 404
    if isinstance(exc, RulesetError):
        return 500  # a malformed ruleset file is the server's fault, not the caller's
    if isinstance(exc, LexiconNotReadyError):
        return 503
    return 422


async def engine_error(request: Request, exc: Exception) -> JSON:
    assert isinstance(exc, EngineError)
    status = engine_status(exc)
    if status >= 500 and status != 503:
        log.error("engine error %s: %s", exc.code, exc.message)
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, LexiconNotReadyError) else None
    return JSON({"error": error_body(exc)}, status_code=status, headers=headers)


def _where(loc: tuple[Any, ...] | list[Any]) -> str:
    """('body', 'board', 3) -> 'board[3]'; the leading 'body'/'path'/'query' is dropped."""
    parts = list(loc)
    if parts and parts[0] in ("body", "path", "query", "header"):
        parts = parts[1:]
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "body"


def _is_json(request: Request) -> bool:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return ctype == "application/json" or ctype.endswith("+json")


async def validation_error(request: Request, exc: Exception) -> JSON:
    assert isinstance(exc, RequestValidationError)
    errors: list[dict[str, Any]] = [dict(e) for e in exc.errors()]
    first: dict[str, Any] = errors[0] if errors else {"type": "invalid", "loc": (), "msg": "invalid request"}
    if first.get("type") == "json_invalid":
        loc = first.get("loc", ())
        pos = loc[1] if len(loc) > 1 else None
        ctx = first.get("ctx") or {}
        reason = ctx.get("error", "invalid JSON")
        return error_response(400, "malformed_json", f"the body is not valid JSON: {reason} at character {pos}",
                              {"position": pos})
    if tuple(first.get("loc", ())) == ("body",) and not _is_json(request):
        return error_response(
            415, "unsupported_media_type",
            "send the body as JSON with the header 'Content-Type: application/json'",
            {"content_type": request.headers.get("content-type")},
        )
    items = [
        {"field": _where(e.get("loc", ())), "message": e.get("msg", ""), "type": e.get("type", "")}
        for e in errors
    ]
    message = f"{items[0]['field']}: {items[0]['message']}"
    if len(items) > 1:
        message += f" (and {len(items) - 1} more)"
    return error_response(422, "invalid_request", message, {"errors": items})


HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 408: "request_timeout", 413: "body_too_large",
              415: "unsupported_media_type"}


async def http_error(request: Request, exc: Exception) -> JSON:
    assert isinstance(exc, StarletteHTTPException)
    code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    if exc.status_code == 400 and exc.detail == "There was an error parsing the body":
        # FastAPI's answer when json.loads fails other than by syntax (bad UTF-8, deep nesting, huge numbers)
        return error_response(400, "malformed_json", "the body could not be read as JSON (invalid UTF-8, too deeply "
                              "nested, or a number of more than 4,300 digits)")
    if exc.status_code == 404 and exc.detail == "Not Found":
        path = request.url.path
        message = f"no such endpoint: {request.method} {path[:200] + ('…' if len(path) > 200 else '')} (see /docs)"
    elif exc.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path[:200]}"
    else:
        message = str(exc.detail)
    return error_response(exc.status_code, code, message, {}, headers=getattr(exc, "headers", None))


async def busy_error(request: Request, exc: Exception) -> JSON:
    from .limits import Busy

    assert isinstance(exc, Busy)
    return error_response(503, "busy", str(exc), {"slots": exc.slots, "lane": exc.lane}, headers={"Retry-After": "1"})


async def unexpected_error(request: Request, exc: Exception) -> JSON:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return error_response(500, "internal_error", "the server failed to answer this request; it has been logged",
                          headers={"Connection": "close"})


def install_error_handlers(app: FastAPI) -> None:
    from .limits import Busy

    app.add_exception_handler(EngineError, engine_error)
    app.add_exception_handler(Busy, busy_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, unexpected_error)


class _Duplicate(Exception):
    pass


def _unique_pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in items:
        if k in out:
            raise _Duplicate(k[:100])
        out[k] = v
    return out


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_pairs)
NOT_JSON = object()
BODY_JSON = "wordsolver.json"
"""Scope key: the request body parsed as JSON by :class:`BodySizeLimit` (the one parse: the hot
routes of ``app.fastroutes`` validate it as is), when it is JSON without a repeated key."""


def parse_json(body: bytes) -> tuple[Any, str | None]:
    """``(value, None)`` for a JSON body; ``(None, key)`` when a key appears twice in one object
    (JSON itself keeps the last silently); ``(NOT_JSON, None)`` for a body that is not JSON (left
    to the framework's own message). Read as ``json.loads`` reads bytes."""
    try:
        return _DECODER.decode(body.decode(json.detect_encoding(body), "surrogatepass")), None
    except _Duplicate as dup:
        return None, str(dup)
    except (ValueError, RecursionError):
        return NOT_JSON, None


class BodySizeLimit:
    """Refuse request bodies over ``max_bytes`` with 413, by Content-Length or while streaming.

    Bodies here are small (a board is ~300 bytes), so the body is read up front and replayed;
    the app never sees a partial body.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, body_timeout: float = 10.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        encoding = headers.get(b"content-encoding", b"").strip().lower()
        if encoding not in (b"", b"identity"):
            await error_response(
                415, "unsupported_media_type",
                f"send the body uncompressed: Content-Encoding {encoding.decode(errors='replace')[:40]!r} is not accepted",
                {"content_encoding": encoding.decode(errors="replace")[:40]},
            )(scope, receive, send)
            return
        declared = headers.get(b"content-length")
        if declared is None and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body (RFC 9112 6.3): nothing to read or check
            return
        if declared is not None:
            try:
                too_big = int(declared) > self.max_bytes
            except ValueError:
                await error_response(400, "bad_request", "invalid Content-Length header")(scope, receive, send)
                return
            if too_big:
                await self._refuse(scope, receive, send)
                return
        messages: list[Message] = []
        size = 0
        too_big = late = False
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    messages.append(message)
                    if message["type"] != "http.request":
                        break
                    size += len(message.get("body", b""))
                    if size > self.max_bytes:
                        too_big = True
                        break
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            late = True
        if too_big:
            await self._refuse(scope, receive, send)
            return
        if late:
            await error_response(
                408, "request_timeout", f"the request body did not arrive within {self.body_timeout:g} s",
                {"timeout": self.body_timeout}, headers={"Connection": "close"},
            )(scope, receive, send)
            return
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
        value, key = parse_json(body) if body else (NOT_JSON, None)
        if value is not NOT_JSON and key is None:
            scope[BODY_JSON] = value
        if key is not None:
            await error_response(
                422, "invalid_request", f"{key}: the key appears more than once in the body",
                {"field": key, "errors": [{"field": key, "message": "duplicate key", "type": "duplicate_key"}]},
            )(scope, receive, send)
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, "body_too_large", f"the request body is larger than {self.max_bytes} bytes",
            {"max_bytes": self.max_bytes}, headers={"Connection": "close"},
        )
        await response(scope, receive, send)


class JsonCORSMiddleware(CORSMiddleware):
    """Starlette's CORS handling, with a refused preflight answered in the error envelope
    (Starlette answers it in plain text) so a front end can show what is wrong."""

    def preflight_response(self, request_headers: Any) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        reason = bytes(response.body).decode(errors="replace")
        origin = request_headers.get("origin")
        headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
        return error_response(
            400, "cors_refused",
            f"CORS preflight refused ({reason}); the service allows origins listed in WORDSOLVER_CORS_ORIGINS",
            {"origin": origin, "method": request_headers.get("access-control-request-method")},
            headers=headers,
        )


class StripTrailingSlash:
    """``/v1/games/`` is answered as ``/v1/games`` (no redirect a client must follow)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = scope["path"]
            if len(path) > 1 and path.endswith("/"):
                scope = dict(scope, path=path.rstrip("/") or "/")
                if scope.get("raw_path"):
                    scope["raw_path"] = scope["raw_path"].rstrip(b"/") or b"/"
        await self.app(scope, receive, send)
