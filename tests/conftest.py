"""Shared fixtures: small rulesets cut from the real ones, and the default lexicon."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from engine import Lexicon, Ruleset, default_lexicon, from_words, get_ruleset
from engine.rules import RULESET_DIR


def small_rules(game: str, n: int) -> tuple[Ruleset, dict]:
    """The game's rules on the top-left n x n corner of its board, start square in the middle.

    Returns the engine's Ruleset and the JSON-shaped dict the brute-force checker reads.
    """
    full = get_ruleset(game)
    keep = [r * full.size + c for r in range(n) for c in range(n)]
    centre = n // 2
    rules = replace(
        full,
        size=n,
        premium=tuple(full.premium[i] for i in keep),
        letter_mult=tuple(full.letter_mult[i] for i in keep),
        word_mult=tuple(full.word_mult[i] for i in keep),
        start=(centre * n + centre,),
    )
    data = json.loads((RULESET_DIR / f"{game}.json").read_text())
    data["board_size"] = n
    data["center"] = [centre + 1, centre + 1]
    return rules, data


@pytest.fixture(scope="session")
def lex() -> Lexicon:
    return default_lexicon()


@contextmanager
def started(app: Any, **kwargs: Any) -> Iterator[Any]:
    """A TestClient with the lifespan run and every lexicon of the app loaded (compiled if the
    cache lacks it, as ``wordsolver compile`` does), so no request meets 503 not_ready. Lists
    that cannot be loaded are left failed (their requests answer the error)."""
    from fastapi.testclient import TestClient

    from engine import EngineError

    with TestClient(app, **kwargs) as client:
        for name in app.state.store.names():
            try:
                app.state.store.get(name)
            except EngineError:
                pass
        yield client


SMALL_ALPHABET = "AEIOSTRNLDCPQUXZ"


@pytest.fixture(scope="session")
def small_words(lex: Lexicon) -> set[str]:
    """Real words of 2-5 letters over a small alphabet (includes QI, ZA, XI...)."""
    return {w for w in lex.words() if len(w) <= 5 and set(w) <= set(SMALL_ALPHABET)}


@pytest.fixture(scope="session")
def small_lex(small_words: set[str]) -> Lexicon:
    return from_words(small_words, "small")


def random_rack(rng: random.Random, size: int, blanks: int) -> str:
    letters = "".join(rng.choice("AEIOSTRNLDCPQUXZ") for _ in range(size - blanks))
    return letters + "?" * blanks


@pytest.fixture(params=["reference", "compiled"])
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run a test against each implementation of the search seam: the pure-Python reference
    and the compiled core."""
    from engine import search

    if request.param not in search.IMPLEMENTATIONS:
        pytest.skip("the compiled core (engine._fastgen) is not built on this machine")
    with search.using(request.param):
        yield request.param
