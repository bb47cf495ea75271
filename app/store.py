"""The per-process lexicon store, built from the settings."""

from __future__ import annotations

from engine import LexiconStore, search
from engine.lexicon import CompileLimits
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
    store.on_loaded = search.prepare
    return store
