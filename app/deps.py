"""Dependencies shared by the routers, as ``Annotated`` aliases, and where solving runs.

Trivial lookups are ``async def`` (no threadpool hop); anything that may load a lexicon
is a plain ``def`` and runs in the threadpool. No request waits for a compile: a lexicon that
is not compiled yet starts compiling in the background and the request gets 503 not_ready
with Retry-After (LexiconStore.get_ready).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Path, Request

from engine import GAMES, Lexicon, LexiconStore, Ruleset, TimeBudgetExceeded, get_ruleset, search

from .limits import SOLVED, Cost, Gate, check_loop_wait, quiet
from .observability import solving
from .settings import Settings


async def app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def lexicon_store(request: Request) -> LexiconStore:
    store: LexiconStore = request.app.state.store
    return store


SettingsDep = Annotated[Settings, Depends(app_settings)]
StoreDep = Annotated[LexiconStore, Depends(lexicon_store)]


GAME_NAME_MAX = 100  # the longest game name a path may give

GamePath = Annotated[
    str,
    Path(
        max_length=GAME_NAME_MAX,
        description="The game: crossplay, scrabble, wwf or upwords (case-insensitive).",
        json_schema_extra={"enum": list(GAMES)},
    ),
]


def ruleset_named(game: str) -> Ruleset:
    """The ruleset a path names (any case); an unknown game raises UnknownGameError (a 404)."""
    return get_ruleset(game.lower() if game.isascii() else game)


async def game_rules(game: GamePath) -> Ruleset:
    """The ruleset named in the path (FastAPI's dependency over :func:`ruleset_named`)."""
    return ruleset_named(game)


RulesetDep = Annotated[Ruleset, Depends(game_rules)]


LexiconPath = Annotated[str, Path(max_length=100, description="A lexicon name (GET /v1/lexicons).")]


def path_lexicon(name: LexiconPath, store: StoreDep) -> Lexicon:
    """The lexicon named in the path, if loaded (a plain def: a cached load runs in the threadpool)."""
    return store.get_ready(name)


LexiconDep = Annotated[Lexicon, Depends(path_lexicon)]


def body_lexicon(store: LexiconStore, settings: Settings, name: str | None) -> Lexicon:
    """The lexicon a request body names, or the configured default (503 while it compiles)."""
    return store.get_ready(name or settings.default_lexicon)


T = TypeVar("T")


async def solve(store: LexiconStore, settings: Settings, gate: Gate, name: str | None, expensive: bool | Cost,
                label: tuple[str, str], answer: Callable[[Lexicon, float | None], T]) -> T:
    """``answer(lexicon, deadline)``: the work of a solving endpoint, timed as ``label`` (game,
    endpoint; app.observability.solving), run where its cost (app.limits) says; ``deadline``
    (a ``time.monotonic()`` value, or None) is the one its search must keep.

    ``expensive`` is a :class:`~app.limits.Cost`, or a bool (True: expensive; False: cheap).
    Instant work (the compiled core with its lexicon loaded) is answered at once on the event
    loop when the worker has nothing else in progress (``inline_pending``; always with
    ``inline_solving``): it takes a fraction of a millisecond, less than the hop to a thread and
    back (about 0.1 ms in process, 0.3 ms of a lone client's round trip). On the loop it gets
    ``loop_budget`` (2.5 ms) rather than the whole ``search_timeout``: the rare one that runs
    past it (a rack of three blanks on an empty board, say) stops there, within the walk's clock
    checks, and is answered again in the cheap lane with the whole budget (one that finished
    is given: app.service.SHORT_ANSWER), so the loop is held about that long at most; the
    abandoned try is neither timed nor counted as solved. Everything else
    runs in its lane's threads (cheap or expensive), admitted by the lane's bounded queue (503
    ``busy`` past it), so under load the event loop, and the probes it answers, never wait for it.
    """
    cost = expensive if isinstance(expensive, Cost) else (Cost.EXPENSIVE if expensive else Cost.CHEAP)
    check_loop_wait(settings.loop_wait)

    def run(deadline: float | None, abandoned: type[BaseException] | None = None) -> T:
        lex = body_lexicon(store, settings, name)  # loaded: get_ready returns at once
        with solving(*label, abandoned):
            return answer(lex, deadline)

    key = name or settings.default_lexicon
    if (cost is Cost.INSTANT and (settings.inline_solving or quiet(settings.inline_pending)) and search.instant()
            and store.status(key)[1] is not None):
        whole = settings.deadline()
        budget = time.monotonic() + settings.loop_budget if settings.loop_budget else None
        if budget is None or (whole is not None and whole <= budget):
            _solved("loop").inc()
            return run(whole)
        try:
            found = run(budget, TimeBudgetExceeded)
        except TimeBudgetExceeded:
            _solved("loop_over_budget").inc()  # then answered in the cheap lane, below
        except Exception:
            _solved("loop").inc()  # answered on the loop: an error in its envelope
            raise
        else:
            _solved("loop").inc()
            return found
        cost = Cost.CHEAP
    lane = gate.lane(cost)
    _solved(lane.name).inc()
    return await lane.run(lambda: run(settings.deadline()))


@functools.cache
def _solved(where: str) -> Any:
    return SOLVED.labels(where)


async def expensive_gate(request: Request) -> Gate:
    gate: Gate = request.app.state.gate
    return gate


GateDep = Annotated[Gate, Depends(expensive_gate)]
