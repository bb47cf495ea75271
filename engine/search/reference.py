"""The search in pure Python: the reference implementation behind the seam (:mod:`engine.search`).

Plays come from :mod:`engine.movegen` (Gordon's GADDAG method on the board and its transpose)
and, for Upwords, :mod:`engine.upwords`. A query by score without ``count`` or filters is
best-first: anchors are visited in order of an upper bound of their plays' scores, and the
search stops when no bound left can reach the ``limit``-th best score found (ties included,
so the ranking is exactly the full one's). Every other query enumerates every play and ranks
them in Python (:mod:`engine.search.rank`). The compiled core must give the same answers:
the differential tests compare the two through the seam.
"""

from __future__ import annotations

import heapq

from .. import upwords
from ..lexicon import Lexicon
from ..movegen import view_search, views
from ..plays import Found, Position, Query, RawPlay, TopTurn, TurnQuery, check_deadline, top_moves
from .rank import best_turn_with, enumerated, nothing, scoring

NAME = "reference"
INSTANT = False  # a cheap query can take milliseconds


def prepare(lex: Lexicon) -> None:
    """Nothing to build: the walk reads the lexicon's automata as they are."""


def every_play(pos: Position, lex: Lexicon, premiums: bool = True, deadline: float | None = None) -> list[RawPlay]:
    """Every legal play, unranked (the across view's anchors, then the down view's).
    ``deadline`` (a ``time.monotonic()`` value) is checked between anchors."""
    out: list[RawPlay] = []

    def emit(score: int, down: bool, line: int, start: int, length: int, placed: tuple) -> None:
        out.append((score, down, line, start, length, placed))

    rack = list(pos.rack)
    if pos.rules.stacking:
        assert pos.heights is not None
        upwords.generate(pos.rules, lex, pos.cells, pos.heights, rack, emit, pos.plural_rule,
                         lambda: check_deadline(deadline))
        return out
    for view in views(pos.rules, pos.cells, premiums):
        bounds, run = view_search(pos.rules, lex, view, rack, emit, [-1])
        for _, anchor in bounds:
            check_deadline(deadline)
            run(anchor)
    return out


def plays_scoring(pos: Position, lex: Lexicon, at_least: int, premiums: bool = True,
                  deadline: float | None = None) -> tuple[int, list[RawPlay]]:
    """The number of legal plays and those scoring at least ``at_least``, from every play."""
    return scoring(every_play(pos, lex, premiums, deadline), at_least)


def ranked(pos: Position, lex: Lexicon, query: Query) -> Found:
    """The seam's question (engine.search.ranked), answered in Python."""
    if query.limit <= 0 and not query.count:
        return nothing(query)
    if query.count or query.filtered is not None or pos.rules.stacking or query.leaves is not None:
        return enumerated(pos, every_play(pos, lex, query.premiums, query.deadline), query)
    best = best_raw_plays(pos, lex, query.limit, query.premiums, query.deadline)
    return Found(top_moves(pos, best, query.limit), None)


def best_turn(pos: Position, lex: Lexicon, q: TurnQuery) -> TopTurn:
    """The single best turn by equity (engine.search.best_turn): the sub-rack values and the
    best exchange in Python, the plays ranked by :func:`ranked`."""
    return best_turn_with(pos, lex, q, ranked)


def best_raw_plays(
    pos: Position, lex: Lexicon, limit: int, premiums: bool = True, deadline: float | None = None
) -> list[RawPlay]:
    """Every play that can rank in the top ``limit`` by score (and maybe a few more), best-first."""
    found: list[RawPlay] = []
    scores: list[int] = []  # min-heap of the best ``limit`` scores so far
    floor = [-1]

    def emit(score: int, down: bool, line: int, start: int, length: int, placed: tuple) -> None:
        found.append((score, down, line, start, length, placed))
        if len(scores) < limit:
            heapq.heappush(scores, score)
        elif score > scores[0]:
            heapq.heapreplace(scores, score)
        if len(scores) == limit:
            floor[0] = scores[0]

    rack = list(pos.rack)
    tasks = []
    for view in views(pos.rules, pos.cells, premiums):
        bounds, run = view_search(pos.rules, lex, view, rack, emit, floor)
        tasks += [(bound, run, anchor) for bound, anchor in bounds]
    tasks.sort(key=lambda t: -t[0])
    for bound, run, anchor in tasks:
        if bound < floor[0]:
            break
        check_deadline(deadline)
        run(anchor)
    return [r for r in found if r[0] >= floor[0]]
