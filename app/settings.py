"""Service settings, read from ``WORDSOLVER_*`` environment variables (see docs/operations.md, Configuration)."""

from __future__ import annotations

import os
import time
from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_workers() -> int:
    # One worker per core (solving is CPU-bound), capped: each worker holds its own lexicons.
    return max(1, min(os.cpu_count() or 1, 8))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="WORDSOLVER_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    workers: int = Field(default_factory=_default_workers, ge=1)
    log_level: str = "info"
    access_log: bool = True  # one JSON line per request on stderr (app.observability)

    lexicon_dir: Path | None = None  # users' own word lists: every *.txt becomes a lexicon
    cache_dir: Path | None = None  # compiled lexicons; None: $XDG_CACHE_HOME or ~/.cache/wordsolver
    shipped_lexicon_dir: Path | None = None  # where word-list.txt.gz lives; None: next to engine/
    default_lexicon: str = "word-list"
    max_lexicon_words: int = Field(default=1_000_000, ge=1)  # a larger word list is refused
    max_compile_seconds: float = Field(default=300.0, gt=0)  # a compile taking longer is stopped
    max_compile_mb: int = Field(default=2048, ge=0)  # address space of the compiling process; 0: no limit

    cors_origins: str = ""  # comma-separated origins, or "*"
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    default_limit: int = Field(default=20, ge=1, le=1000)
    search_timeout: float = Field(default=10.0, ge=0)  # seconds one search may take; 0: no limit
    max_expensive: int = Field(default=1, ge=0)  # expensive searches at once per worker; 0: no limit
    expensive_wait: float = Field(default=1.0, ge=0, le=30)  # seconds one more may wait for a slot
    solve_threads: int = Field(default=2, ge=1, le=64)  # cheap searches off the event loop at once per worker
    max_queued: int = Field(default=64, ge=0, le=10_000)  # per lane and worker, waiting for a slot; past it 503 busy
    queue_wait: float = Field(default=1.0, ge=0, le=30)  # seconds a cheap search may wait for a slot
    inline_solving: bool = False  # instant searches always on the event loop (a quarter less CPU; accepts and probes wait)
    inline_pending: int = Field(default=1, ge=0, le=64)  # ... and while at most this many requests are in progress
    loop_budget: float = Field(default=0.0025, ge=0, le=0.1)  # seconds an instant search may hold the loop; past it, the cheap lane; 0: no limit
    fast_routes: bool = True  # /moves, /score and /healthz skip FastAPI's per-request work (app.fastroutes)
    loop_wait: float = Field(default=1.0, ge=0, le=30)  # a solving request read this late gets 503 busy; 0: never
    lane_nice: int = Field(default=0, ge=0, le=19)  # solving threads run this much nicer than the event loop
    switch_interval: float = Field(default=0.001, gt=0, le=0.1)  # sys.setswitchinterval in each worker
    sim_seconds: float = Field(default=3.0, gt=0)  # a simulation's time budget when the request gives none
    sim_max_seconds: float = Field(default=10.0, gt=0)  # the most a request may ask for
    sim_workers: int = Field(default=0, ge=0)  # worker processes per simulation; 0: one per core
    endgame_timeout: float = Field(default=10.0, gt=0)  # the most seconds one endgame search may take
    endgame_table_entries: int = Field(default=500_000, ge=16)  # the endgame's transposition table (~150 B each)

    keepalive_timeout: int = Field(default=5, ge=1)  # idle keep-alive connections close after this
    connection_max_age: float = Field(default=3.0, ge=0)  # then answer with Connection: close; 0: never
    header_timeout: float = Field(default=10.0, gt=0)  # a request head must arrive within this
    max_head_bytes: int = Field(default=32 * 1024, ge=1024, le=16 * 1024 * 1024)  # larger request heads get 431
    body_timeout: float = Field(default=10.0, gt=0)  # a request body must arrive within this (408)
    drain_timeout: int = Field(default=10, ge=0)  # on SIGTERM, in-flight requests get this long

    def deadline(self) -> float | None:
        """The ``time.monotonic()`` value a search started now must finish by, if any."""
        return time.monotonic() + self.search_timeout if self.search_timeout else None

    def cors_origin_list(self) -> list[str]:
        return [o.strip() for o in self.cors_origins.split(",") if o.strip()]


@lru_cache
def get_settings() -> Settings:
    return Settings()
