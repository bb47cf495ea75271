"""The one search seam: the ranked plays of a position.

Every question the engine asks of a generator comes here: "the best ``limit`` plays of this
position, by score or by equity, filtered or not, counted or not, before a deadline"
(:func:`ranked`), "every legal play" (:func:`every_play`: game analysis, endgames, tests) and
"how many plays, and those scoring at least s" (:func:`plays_scoring`, for ranking a given
play). ``find_moves``, equity ranking, ``/score``, game analysis, the self-play players
and the A/B runner all ask here, and none of them knows which generator answers.

Two implementations answer every query, with the same plays in the same order:

- ``compiled`` (:mod:`engine.search.compiled`): the C core, engine/_fastgen.c, built as an
  optional extension at install time;
- ``reference`` (:mod:`engine.search.reference`): pure Python, the reference the C core is
  checked against.

One is chosen once, at import: the compiled core when it was built, unless the environment
variable ``WORDSOLVER_PURE_PYTHON`` is set to a non-empty value. :func:`use` and :func:`using`
switch (tests and benchmarks run both through this seam).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from ..lexicon import Lexicon
from ..plays import Found, Position, Query, RawPlay, TopTurn, TurnQuery
from . import compiled, reference


class Implementation(Protocol):
    NAME: str
    INSTANT: bool  # a top-N query without count answers in well under a millisecond

    def ranked(self, pos: Position, lex: Lexicon, query: Query) -> Found: ...

    def every_play(self, pos: Position, lex: Lexicon, premiums: bool = True,
                   deadline: float | None = None) -> list[RawPlay]: ...

    def plays_scoring(self, pos: Position, lex: Lexicon, at_least: int, premiums: bool = True,
                      deadline: float | None = None) -> tuple[int, list[RawPlay]]: ...

    def best_turn(self, pos: Position, lex: Lexicon, q: TurnQuery) -> TopTurn: ...

    def prepare(self, lex: Lexicon) -> None: ...


IMPLEMENTATIONS: dict[str, Implementation] = {"reference": reference}
if compiled.BUILT:
    IMPLEMENTATIONS["compiled"] = compiled

_active: Implementation = (
    compiled if compiled.BUILT and not os.environ.get("WORDSOLVER_PURE_PYTHON") else reference
)

DEFAULT = Query()


def ranked(pos: Position, lex: Lexicon, query: Query = DEFAULT) -> Found:
    """The best ``query.limit`` plays of ``pos``, ranked (see :class:`engine.plays.Query`)."""
    return _active.ranked(pos, lex, query)


def every_play(pos: Position, lex: Lexicon, premiums: bool = True, deadline: float | None = None) -> list[RawPlay]:
    """Every legal play, unranked, as generated (:data:`engine.plays.RawPlay`)."""
    return _active.every_play(pos, lex, premiums, deadline)


def plays_scoring(pos: Position, lex: Lexicon, at_least: int, premiums: bool = True,
                  deadline: float | None = None) -> tuple[int, list[RawPlay]]:
    """How many legal plays there are, and those scoring at least ``at_least`` (in
    :func:`every_play`'s order): where a play ranks among them all, without handing back the
    thousands that score less (:func:`engine.solver.rank_play`)."""
    return _active.plays_scoring(pos, lex, at_least, premiums, deadline)


def best_turn(pos: Position, lex: Lexicon, q: TurnQuery) -> TopTurn:
    """The single best turn by equity (:class:`engine.plays.TurnQuery`): a rollout ply's and
    the equity player's question. The compiled core values the rack's sub-racks in C from
    the leaves it holds (loaded once per set of values), so no table is built per rack."""
    return _active.best_turn(pos, lex, q)


def prepare(lex: Lexicon) -> None:
    """Build now what searching ``lex`` needs (the compiled core packs its automata, a tenth
    of a second for the default list), so the first search does not pay for it."""
    _active.prepare(lex)


def breakdown_writer() -> Callable[..., Any] | None:
    """The compiled core's breakdown writer (``engine._fastgen.breakdown``, used by
    engine.breakdowns) while the compiled implementation answers; None with the reference."""
    return compiled.BREAKDOWN if _active is compiled else None


def payload_writer() -> Callable[..., Any] | None:
    """The compiled core's writer of an answer's moves as the service writes them
    (``engine._fastgen.payloads``, used by app.service) while the compiled implementation
    answers; None with the reference."""
    return compiled.PAYLOADS if _active is compiled else None


def board_scanner() -> Callable[[int, list[int], Lexicon], tuple[list[list[int]], list[list[int]]]] | None:
    """The compiled core's board scans (:func:`engine.search.compiled.board_scans`: groups of
    joined tiles, runs the lexicon does not hold; used by engine.verify) while the compiled
    implementation answers; None with the reference."""
    return compiled.board_scans if _active is compiled else None


def implementation() -> str:
    """The name of the implementation answering: ``compiled`` or ``reference``."""
    return _active.NAME


def why_reference() -> str | None:
    """Why the pure-Python reference answers (None while the compiled core does): the
    environment asked for it, or the core did not load, with the import's own message."""
    if _active is compiled:
        return None
    if not compiled.BUILT:
        return f"the compiled core did not load: {compiled.UNAVAILABLE}"
    if os.environ.get("WORDSOLVER_PURE_PYTHON"):
        return "WORDSOLVER_PURE_PYTHON is set"
    return "switched to it in this process by engine.search.use"


def instant() -> bool:
    """Whether a top-N query without ``count`` answers in well under a millisecond (the
    service answers such a request on its event loop)."""
    return _active.INSTANT


def use(name: str) -> str:
    """Answer with the implementation ``name`` from now on; returns the previous one's name.
    KeyError names the ones available (``compiled`` only where the C core was built)."""
    global _active
    if name not in IMPLEMENTATIONS:
        raise KeyError(f"no search implementation {name!r}; available: {', '.join(IMPLEMENTATIONS)}")
    previous, _active = _active.NAME, IMPLEMENTATIONS[name]
    return previous


@contextmanager
def using(name: str) -> Iterator[None]:
    """Answer with the implementation ``name`` inside the block, then with the one before."""
    previous = use(name)
    try:
        yield
    finally:
        use(previous)
