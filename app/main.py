"""The ASGI app: ``app.main:app``.

Resources are built once per process: the lexicon store (lexicons compiled on first use and
then shared by every request) and the default lexicon, loaded in the lifespan before the
server accepts requests, so ``/readyz`` is true from the first request on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi_offline import FastAPIOffline

from engine import GAMES

from .errors import BodySizeLimit, install_error_handlers
from .routers import compare, games, health, lexicons, page, tiles
from .settings import Settings, get_settings
from .store import make_store

DESCRIPTION = f"""Best plays and exact scores for crossword tile games ({", ".join(GAMES)}).

Boards are lists of row strings ('.' empty, 'A'-'Z' tile, 'a'-'z' blank); racks use '?' for a
blank; rows and columns are 1-indexed. Every error is `{{"error": {{"code", "message", "details"}}}}`.
"""


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    # Compiling (first run) or loading the cached default list is blocking work: use a thread.
    await anyio.to_thread.run_sync(app.state.store.get, settings.default_lexicon)
    yield


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    # /docs and /redoc load Swagger UI and ReDoc from assets the fastapi-offline package ships
    # (served under /docs-assets), never from a CDN; the validator badge would call out too.
    app = FastAPIOffline(
        title="wordsolver",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        static_url="/docs-assets",
        swagger_ui_parameters={"validatorUrl": None},
    )
    app.state.settings = settings
    app.state.store = make_store(settings)
    install_error_handlers(app)
    for router in (games.router, tiles.router, compare.router, lexicons.router, health.router, page.router):
        app.include_router(router)
    app.mount("/static", page.static_files(), name="static")
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    # Middleware added later wraps what was added before: CORS goes outside the size limit,
    # so even a 413 carries the CORS headers a browser needs to read it.
    origins = settings.cors_origin_list()
    if origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["*"],
        )
    return app


app = create_app()
