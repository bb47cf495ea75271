"""The requests clients send most, answered without FastAPI's per-request machinery.

``POST /v1/games/{game}/moves``, ``POST /v1/games/{game}/score`` and ``GET /healthz`` are
answered here, by the very functions their FastAPI endpoints call
(``app.routers.games.moves_answer``, ``score_answer``), with the same middleware around them
(request ID, metrics, access log, gzip, CORS, body limits) and the same error handlers. What
this skips is the framework's work per request, measured at about 0.3 ms of a 0.5 ms answer
(docs/engine.md, "Where a request's time goes"): matching the path against every route, a
second JSON parse, solving five dependencies, and validating through a generic adapter.

Only a request these can take as it is comes here: the exact path, ``Content-Type:
application/json``, a body that parsed (``app.errors.BODY_JSON``, the one parse) and validates,
a known game. Anything else (an invalid body, an unknown game, a trailing slash, another media
type) goes on to the FastAPI route untouched, which answers it as it always did, so every error
keeps its one envelope. ``WORDSOLVER_FAST_ROUTES=false`` sends every request through FastAPI
(tests/test_fastroutes.py checks that both give the same answers).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from inspect import isawaitable
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from engine import EngineError, LexiconStore, Ruleset

from .deps import GAME_NAME_MAX, ruleset_named
from .errors import BODY_JSON
from .limits import Busy, Gate
from .responses import JSON
from .routers import games, health
from .schemas import MovesIn, ScoreIn
from .settings import Settings

Answer = Callable[[Ruleset, Any, LexiconStore, Settings, Gate], Awaitable[JSON]]
HEALTHY = {"status": "ok"}  # Health(status="ok"), as FastAPI writes it


def _route(router: Any, path: str, method: str) -> APIRoute:
    """The FastAPI route object (set as ``scope["route"]``, as Starlette's router does: the
    metrics and the access log name the route by it)."""
    return next(r for r in router.routes if isinstance(r, APIRoute) and r.path == path and method in (r.methods or ()))


class FastRoutes:
    """The innermost middleware: the hot routes answered at once, everything else passed on."""

    def __init__(self, app: ASGIApp, service: FastAPI) -> None:
        self.app = app
        self.state = service.state
        self.handlers = service.exception_handlers
        self.solving: dict[str, tuple[APIRoute, type[BaseModel], Answer]] = {
            "moves": (_route(games.router, "/v1/games/{game}/moves", "POST"), MovesIn, games.moves_answer),
            "score": (_route(games.router, "/v1/games/{game}/score", "POST"), ScoreIn, games.score_answer),
        }
        self.health = _route(health.router, "/healthz", "GET")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            path: str = scope["path"]
            if path == "/healthz" and scope["method"] == "GET":
                scope["route"], scope["path_params"] = self.health, {}
                await JSON(HEALTHY)(scope, receive, send)
                return
            if scope["method"] == "POST" and path.startswith("/v1/games/"):
                parts = path.split("/")  # "", "v1", "games", game, endpoint
                if len(parts) == 5 and parts[4] in self.solving and await self._solve(scope, receive, send, parts):
                    return
        await self.app(scope, receive, send)

    async def _solve(self, scope: Scope, receive: Receive, send: Send, parts: list[str]) -> bool:
        """Answer a solving request, or False (nothing sent) for FastAPI to answer it."""
        game = parts[3]
        body = scope.get(BODY_JSON)
        if not (0 < len(game) <= GAME_NAME_MAX and isinstance(body, dict) and _json_type(scope)):
            return False
        route, model, answer = self.solving[parts[4]]
        try:
            rules = ruleset_named(game)
            req = model.model_validate(body)
        except (EngineError, ValidationError):
            return False  # FastAPI's route gives the error its envelope (and picks which error first)
        scope["route"], scope["path_params"] = route, {"game": game}
        state = self.state
        response: Response
        try:
            response = await answer(rules, req, state.store, state.settings, state.gate)
        except (EngineError, Busy) as exc:
            response = await self._handled(scope, exc)
        await response(scope, receive, send)
        return True

    async def _handled(self, scope: Scope, exc: Exception) -> Response:
        """The answer the app's exception handler for ``exc`` gives (picked as Starlette picks it)."""
        handler = next(self.handlers[c] for c in type(exc).__mro__ if c in self.handlers)
        response = handler(Request(scope), exc)
        return await response if isawaitable(response) else response


def _json_type(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            return value.split(b";", 1)[0].strip().lower() == b"application/json"
    return False

