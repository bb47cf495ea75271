"""Ranking a list of generated plays in Python, by score or by equity: shared by both
implementations of the search.

The pure-Python reference ranks every answer here; the compiled core ranks here where it
enumerates instead of ranking inside C (Upwords, whose plays are few; a counted query by
equity, whose plays come back from C unranked; a filter C cannot express). Both trim the
plays a query's rivals beat (:func:`beside_rivals`), so the two give the same answer.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections.abc import Callable
from operator import itemgetter

from ..lexicon import Lexicon
from ..plays import (
    Found,
    Move,
    Position,
    Query,
    RawPlay,
    SubrackValues,
    TopTurn,
    TurnQuery,
    best_exchange,
    check_deadline,
    matches,
    materialise,
    subrack_values,
    top_moves,
    top_turn,
)

MARGIN = 40  # plays beyond the limit, best by score, that set the bar for valuing leaves


def nothing(query: Query) -> Found:
    """The answer to a query for no play and no count (the deadline is still checked)."""
    check_deadline(query.deadline)
    return Found([], None, None if query.leaves is None else [])


def enumerated(pos: Position, raws: list[RawPlay], query: Query) -> Found:
    """The answer from every play of the position: filtered, counted, ranked here."""
    flt = query.filtered
    if flt is not None:
        raws = [r for r in raws if matches(pos.rules, pos.cells, r, flt)]
    total = len(raws) if query.count else None
    if query.leaves is None:
        return Found(top_moves(pos, raws, query.limit), total)
    moves, subracks = by_equity(pos, raws, query.leaves, query.limit, query.rivals)
    return Found(moves, total, subracks)


def scoring(raws: list[RawPlay], at_least: int) -> tuple[int, list[RawPlay]]:
    """From every play: their number, and those scoring at least ``at_least`` (in order)."""
    return len(raws), [r for r in raws if r[0] >= at_least]


def by_equity(pos: Position, raws: list[RawPlay], leaves: SubrackValues, limit: int, rivals: tuple[int, ...] = ()
              ) -> tuple[list[Move], list[int]]:
    """The best ``limit`` plays by equity with their sub-rack indices, less those the rivals
    beat. The best plays by score give a bar (the ``limit``-th best equity among them and
    ``rivals``); a play whose score plus the best leave any play can keep is below the bar is
    never valued."""
    if not raws or limit <= 0:
        return [], []
    values, index = leaves.values, leaves.index
    by_score = heapq.nlargest(limit + MARGIN, raws, key=itemgetter(0))
    eq = sorted([r[0] * 1000 + values[index(r[5])] for r in by_score] + list(rivals), reverse=True)
    if len(eq) >= limit:
        need = -((leaves.best_play_leave - eq[limit - 1]) // 1000)  # the least score that can reach the bar
        raws = [r for r in raws if r[0] >= need]
    valued = [(r[0] * 1000 + values[i], i, r) for r in raws for i in (index(r[5]),)]
    if not valued:
        return [], []
    cutoff = heapq.nlargest(limit, (e for e, _, _ in valued))[-1]
    best = [(e, i, materialise(pos.rules, pos.cells, r)) for e, i, r in valued if e >= cutoff]
    best.sort(key=lambda x: (-x[0], -x[2].score, *x[2].sort_key()[1:]))
    moves, subracks = [m for _, _, m in best[:limit]], [i for _, i, _ in best[:limit]]
    return beside_rivals(moves, subracks, leaves, rivals, limit)


def beside_rivals(moves: list[Move], subracks: list[int], leaves: SubrackValues, rivals: tuple[int, ...],
                  limit: int) -> tuple[list[Move], list[int]]:
    """Of plays ranked by equity, those that rank among the best ``limit`` of the plays and
    the rivals together (a play ranks before a rival of the same equity)."""
    if not rivals:
        return moves, subracks
    keys = sorted(rivals)
    values = leaves.values
    keep = 0
    for j, (m, i) in enumerate(zip(moves, subracks, strict=True)):
        better = len(keys) - bisect_left(keys, m.score * 1000 + values[i] + 1)  # rivals above this play
        if j + better >= limit:
            break  # the plays come ranked: none after this one can stay
        keep += 1
    return moves[:keep], subracks[:keep]


def best_turn_with(pos: Position, lex: Lexicon, q: TurnQuery,
                   ranked: Callable[[Position, Lexicon, Query], Found]) -> TopTurn:
    """The single best turn by equity (:func:`engine.search.best_turn`) from an
    implementation's ``ranked``, with the sub-rack values and the best exchange made in Python."""
    leaves = subrack_values(pos.rack, q, pos.rules.values)
    exchange = best_exchange(leaves, q.exchange_max) if q.exchange_max > 0 else None
    found = ranked(pos, lex, Query(limit=1, deadline=q.deadline, leaves=leaves,
                                   rivals=(exchange[0],) if exchange is not None else ()))
    assert found.subracks is not None
    play = found.moves[0] if found.moves else None
    return top_turn(play, leaves.values[found.subracks[0]] if play is not None else 0, exchange, leaves.values[0])
