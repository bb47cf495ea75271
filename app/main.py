"""The ASGI app: ``app.main:app``.

Resources are built once per process: the lexicon store (lexicons compiled on first use and
then shared by every request) and the default lexicon, whose loading the lifespan starts in a
background thread: the port is bound at once, ``/healthz`` answers, and ``/readyz`` and the
solving endpoints answer 503 ``not_ready`` (with ``Retry-After``) until it is loaded. With
several workers one process compiles (a lock file in the cache directory) and the others
load its file.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from engine import GAMES, LexiconStore, search
from engine.errors import EngineError
from engine.lexicon import cache_writable, default_cache_dir, native_available
from engine.strategy import leaves

from . import VERSION, peers
from .errors import BodySizeLimit, JsonCORSMiddleware, StripTrailingSlash, install_error_handlers
from .fastroutes import FastRoutes
from .limits import Gate
from .observability import COMPILES, SEARCH_COMPILED, Observe, configure_access_log
from .openapi import install_openapi
from .responses import JSON
from .routers import analyze, cgp, compare, docs, endgame, games, health, lexicons, page, tiles
from .routers import simulate as simulate_router
from .settings import Settings, get_settings
from .store import make_store, settle

DESCRIPTION = f"""Best plays and exact scores for crossword tile games ({", ".join(GAMES)}).

Boards are lists of row strings ('.' empty, 'A'-'Z' tile, 'a'-'z' blank); racks use '?' for a
blank; rows and columns are 1-indexed. Every error is `{{"error": {{"code", "message", "details"}}}}`.
"""


log = logging.getLogger("wordsolver")


class _Format(logging.Formatter):
    """Lines like uvicorn's own: ``INFO:     message``."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname + ':':<10}{record.getMessage()}"


def configure_logging(level: str) -> None:
    """Send the service's own log lines (lexicon progress, warnings) to stderr beside uvicorn's,
    unless the host application configured logging already."""
    if log.handlers or logging.getLogger().handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Format())
    log.addHandler(handler)
    log.setLevel(level.upper())


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    configure_logging(settings.log_level)
    cache = settings.cache_dir or default_cache_dir()
    if not cache_writable(cache):
        log.warning(
            "!!! the lexicon cache directory %s is not writable: every worker compiles every list at every "
            "start (slow, and more memory). Set WORDSOLVER_CACHE_DIR to a writable directory.", cache,
        )
    why = search.why_reference()
    SEARCH_COMPILED.set(why is None)
    if why is not None:
        log.warning("!!! the pure-Python move generator answers (%s): searches are 34-100x slower, thousands "
                    "of times with blanks, and those with two or more blanks wait for the expensive lane. "
                    "/readyz reports \"search\".", why)
    if not native_available():
        log.warning("the compiled lexicon builder (engine._fastlex) is not built: compiling a list takes 8-30 s")
    # Loading (or, on the first run, compiling) the default list runs in a background thread:
    # the server binds its port at once and reports 503 not_ready until the lexicon is loaded.
    log.info("loading lexicon %r in the background (/readyz answers 503 until it is loaded)", settings.default_lexicon)
    app.state.store.start(settings.default_lexicon, keep=True)  # tried again by itself if it fails
    if peers.active():  # one of several workers: say when this one is ready (app.peers)
        threading.Thread(target=mark_when_loaded, args=(app.state.store, settings.default_lexicon),
                         name="peers", daemon=True).start()
    # the leave values too (a table of 130,000 leaves takes most of a second of CPU to check), so
    # the first request ranked by equity does not pay for them within its budget
    threading.Thread(target=warm_leaves, name="warm-leaves", daemon=True).start()
    yield


def mark_when_loaded(store: LexiconStore, name: str) -> None:
    """Mark this worker's slot (app.peers) once its default list is loaded (asked every 50 ms: a
    list that failed for good keeps this thread waiting, cheaply, for a fixed file)."""
    while not store.loaded(name):
        time.sleep(0.05)
    peers.mark_loaded()


def warm_leaves() -> None:
    """Load and check every game's shipped leave values (each is cached once loaded)."""
    for game in GAMES:
        try:
            if leaves.available(game):
                leaves.shipped(game)
        except EngineError:  # a bad file is reported by the request that needs it
            log.warning("the leave values of %s did not load", game)
    settle()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(
        title="wordsolver",
        version=VERSION,
        description=DESCRIPTION,
        lifespan=lifespan,
        default_response_class=JSON,
        redirect_slashes=False,
        docs_url=None,  # /docs and /redoc come from routers/docs.py, with local assets
        redoc_url=None,
        # the service's metrics are Prometheus' (app.observability); FastAPI's OpenTelemetry
        # bridge, unused, looked up the global providers (reading the environment) on every request
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )
    app.state.settings = settings
    app.state.store = make_store(settings)
    app.state.gate = Gate(settings.max_expensive, settings.expensive_wait, cheap_slots=settings.solve_threads,
                          queue=settings.max_queued, cheap_wait=settings.queue_wait, nice=settings.lane_nice)
    app.state.store.on_compiled = lambda result: COMPILES.labels(result=result).inc()
    install_error_handlers(app)
    for router in (games.router, tiles.router, analyze.router, cgp.router, compare.router, lexicons.router, health.router,
                   page.router, docs.router, simulate_router.router, endgame.router):
        app.include_router(router)
    app.mount("/static", page.static_files(), name="static")
    app.mount(docs.ASSETS_URL, docs.static_files(), name="docs-assets")
    install_openapi(app)
    if settings.fast_routes:  # innermost: the hot routes skip FastAPI's per-request work (app.fastroutes)
        app.add_middleware(FastRoutes, service=app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes, body_timeout=settings.body_timeout)
    # Middleware added later wraps what was added before: CORS goes outside the size limit,
    # so even a 413 carries the CORS headers a browser needs to read it; gzip outside that
    # (answers over 2 KB, when the client accepts it: a limit-1000 answer shrinks ~26x).
    origins = settings.cors_origin_list()
    if origins:
        app.add_middleware(
            JsonCORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["*"],
        )
    app.add_middleware(GZipMiddleware, minimum_size=2048, compresslevel=5)  # level 9: 6x the time for 20% less
    app.add_middleware(Observe, max_age=settings.connection_max_age)  # request ID, metrics, access log
    app.add_middleware(StripTrailingSlash)
    configure_access_log(settings.access_log and settings.log_level.lower() in ("trace", "debug", "info"))
    return app


app = create_app()
