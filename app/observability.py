"""Metrics, request IDs and the access log.

- Prometheus metrics (``prometheus_client``) at ``GET /metrics``: requests by route, game and
  status; request latency by route; requests in flight; solving time by game and endpoint;
  lexicon compiles; whether the compiled move generator answers. With several worker processes, ``wordsolver serve`` points
  ``PROMETHEUS_MULTIPROC_DIR`` at a fresh directory so any worker's ``/metrics`` reports
  the sum over all of them.
- Every answer carries ``X-Request-ID``: the client's own (when it is 1-128 characters of
  letters, digits, ``.``, ``_``, ``-``) or a new one.
- The access log is one JSON object per request on standard error (logger
  ``wordsolver.access``), with the request ID; ``WORDSOLVER_ACCESS_LOG=false`` turns it off.
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
import os
import re
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engine import GAMES

REQUESTS = Counter("wordsolver_requests", "HTTP requests answered", ["route", "game", "status"])
LATENCY = Histogram(
    "wordsolver_request_duration_seconds", "Time from request received to response sent", ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
IN_FLIGHT = Gauge("wordsolver_requests_in_flight", "Requests being answered", multiprocess_mode="livesum")
SOLVING = Histogram(
    "wordsolver_solve_duration_seconds", "Time spent finding, scoring and ranking plays", ["game", "endpoint"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SEARCH_COMPILED = Gauge(
    "wordsolver_search_compiled", "1 when the compiled move generator answers, 0 when the pure-Python reference "
    "does (34-100x slower, thousands of times with blanks); the lowest over the workers", multiprocess_mode="min",
)
COMPILES = Counter("wordsolver_lexicon_compiles", "Lexicon word lists compiled by this service", ["result"])

REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


class _RequestIds:
    """New request IDs: 32 hex digits like a UUID4's, a random per-process prefix then a counter,
    so making one costs no system call (uuid4 reads the OS's random source every time). A forked
    child draws its own prefix."""

    def __init__(self) -> None:
        self.reset()
        os.register_at_fork(after_in_child=self.reset)

    def reset(self) -> None:
        self.prefix = uuid.uuid4().hex[:20]
        self.count = itertools.count()

    def __call__(self) -> str:
        return f"{self.prefix}{next(self.count) & 0xFFFFFFFFFFFF:012x}"


new_request_id = _RequestIds()
access_log = logging.getLogger("wordsolver.access")


def metrics_text() -> tuple[bytes, str]:
    """The metrics in Prometheus' text format, summed over worker processes when there are several."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST


@contextmanager
def solving(game: str, endpoint: str, abandoned: type[BaseException] | None = None) -> Iterator[None]:
    """Time the solving inside as ``game``, ``endpoint``; not when it raises ``abandoned`` (a
    try on the event loop given up for the cheap lane, which times the request again)."""
    start, timed = time.perf_counter(), True
    try:
        yield
    except BaseException as exc:
        timed = abandoned is None or not isinstance(exc, abandoned)
        raise
    finally:
        if timed:
            _solved(game, endpoint).observe(time.perf_counter() - start)


@functools.cache
def _solved(game: str, endpoint: str) -> Any:
    return SOLVING.labels(game, endpoint)


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fields", None)
        line = {"ts": round(record.created, 3), "level": record.levelname.lower(), "logger": record.name}
        line.update(fields if isinstance(fields, dict) else {"message": record.getMessage()})
        return json.dumps(line, separators=(",", ":"))


def configure_access_log(enabled: bool) -> None:
    access_log.propagate = False
    access_log.setLevel(logging.INFO if enabled else logging.CRITICAL + 1)
    if enabled and not access_log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonLines())
        access_log.addHandler(handler)


@functools.cache
def _counted(route: str, game: str, status: int) -> Any:
    """REQUESTS' child for these labels, made once (routes, games and statuses are few)."""
    return REQUESTS.labels(route, game, str(status))


@functools.cache
def _timed(route: str) -> Any:
    return LATENCY.labels(route)


class Observe:
    """Request ID, metrics and the access log around every HTTP request; and connection
    recycling: an answer on a keep-alive connection older than ``max_age`` seconds carries
    ``Connection: close``, so long-lived clients reconnect and the kernel spreads them again
    over the workers (a worker started to replace one that died gets its share)."""

    def __init__(self, app: ASGIApp, max_age: float = 0.0) -> None:
        self.app = app
        self.max_age = max_age
        self.born: dict[tuple[str, int], float] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = ""
        for name, value in scope.get("headers") or ():
            if name == b"x-request-id":
                given = value.decode("latin-1")  # the last one, as a dict of the headers keeps
        request_id = given if given and REQUEST_ID.fullmatch(given) else new_request_id()
        start = time.perf_counter()
        status = 500

        recycle = self._too_old(scope.get("client"))

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                extra = [(b"x-request-id", request_id.encode())]
                if recycle:
                    extra.append((b"connection", b"close"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        IN_FLIGHT.inc()
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            IN_FLIGHT.dec()
            elapsed = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            game = str((scope.get("path_params") or {}).get("game", "")).lower()
            game = game if game in GAMES else ("" if not game else "unknown")
            _counted(route, game, status).inc()
            _timed(route).observe(elapsed)
            if access_log.isEnabledFor(logging.INFO):
                client = scope.get("client")
                access_log.info("request", extra={"fields": {
                    "event": "request", "request_id": request_id, "method": scope["method"],
                    "path": scope["path"][:200], "route": route, "game": game or None, "status": status,
                    "duration_ms": round(elapsed * 1000, 2), "client": client[0] if client else None,
                }})

    def _too_old(self, client: object) -> bool:
        if not self.max_age or not isinstance(client, tuple | list):
            return False
        key = (str(client[0]), int(client[1]))
        now = time.monotonic()
        born = self.born.setdefault(key, now)
        if len(self.born) > 10_000:  # forget connections long gone (their ports get reused)
            self.born = {k: t for k, t in self.born.items() if now - t < 4 * self.max_age}
        if now - born > self.max_age:
            self.born.pop(key, None)
            return True
        return False
