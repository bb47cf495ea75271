"""The per-process lexicon store, built from the settings."""

from __future__ import annotations

import gc

from engine import LexiconStore, search
from engine.lexicon import CompileLimits, Lexicon
from engine.lexicons import SHIPPED_DIR

from .settings import Settings


def make_store(settings: Settings) -> LexiconStore:
    """Lexicons by name: the shipped default plus every ``*.txt`` in ``settings.lexicon_dir``,
    each compiled on first use (cached on disk in ``settings.cache_dir``) and then kept, and
    prepared for the search as it loads (a tenth of a second for the default list, in the
    loading thread, not in the first request)."""
    store = LexiconStore(
        settings.lexicon_dir,
        settings.cache_dir,
        settings.shipped_lexicon_dir or SHIPPED_DIR,
        limits=CompileLimits(settings.max_lexicon_words, settings.max_compile_seconds, settings.max_compile_mb),
    )
    store.on_loaded = loaded
    return store


def loaded(lex: Lexicon) -> None:
    """A list just loaded: packed for the search, then settled (:func:`settle`)."""
    search.prepare(lex)
    settle()


_settling = False  # set by settle(start=True): only in a service worker (app.server)


def settle(start: bool = False) -> None:
    """Keep the cyclic garbage collector short in a service worker: called with ``start`` once
    the worker has built its app (app.server), then again as each list loads and once the leave
    tables are in (app.main); elsewhere (tests, an app embedded in another program, ``uvicorn
    app.main:app``) it does nothing, as it changes the whole process's collector. A collection
    runs in whichever thread allocates, holding the interpreter lock, so the event loop (probes,
    new connections) waits behind it.

    What the worker holds for good is frozen (``gc.freeze``; young garbage is collected first,
    so it is not frozen with them): a full collection walked it all, the default list and its
    leave tables too, 28-47 ms measured in one process. And the young generation is collected
    after 20,000 new objects rather than 700, so most of a request's objects are gone (freed by
    their counts) before a collection would walk them. Under the soak's probe load (16 one-blank
    ``/score`` and 8 thousand-play clients) a worker spent 400-470 ms of CPU in 3.5 s
    collecting; with this, the C core's plays left untracked and ``/score`` handed only the
    plays that can rank above, 35-120 ms. A list replaced later holds no cycles, so it is still
    freed by its count once frozen."""
    global _settling
    _settling = _settling or start
    if _settling:
        gc.collect(1)
        gc.freeze()
        gc.set_threshold(20_000, 10, 10)
