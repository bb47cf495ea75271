"""Ranking a list of generated plays in Python, by score or by equity.

Both implementations of the search use it: the pure-Python reference for every answer, the
compiled core where it enumerates (Upwords, whose plays are few, and a board with a Qu tile).
The compiled core otherwise ranks inside its own search, in the same order.
"""

from __future__ import annotations

import heapq
from operator import itemgetter

from ..plays import Move, Position, Query, RawPlay, SubrackValues, matches, materialise, top_moves

MARGIN = 40  # plays beyond the limit, best by score, that set the bar for valuing leaves


def passing(pos: Position, raws: list[RawPlay], query: Query) -> list[RawPlay]:
    """The plays that pass the query's filters."""
    flt = query.filtered
    return raws if flt is None else [r for r in raws if matches(pos.rules, pos.cells, r, flt)]


def rank(pos: Position, raws: list[RawPlay], query: Query) -> tuple[list[Move], list[int] | None]:
    """The best ``query.limit`` of ``raws`` (already filtered): (moves, their sub-rack indices
    when ranked by equity, else None)."""
    if query.leaves is None:
        return top_moves(pos, raws, query.limit), None
    return by_equity(pos, raws, query.leaves, query.limit, query.rivals)


def by_equity(pos: Position, raws: list[RawPlay], leaves: SubrackValues, limit: int, rivals: tuple[int, ...] = ()
              ) -> tuple[list[Move], list[int]]:
    """The best ``limit`` plays by equity with their sub-rack indices. The best plays by score
    give a bar (the ``limit``-th best equity among them and ``rivals``); a play whose score plus
    the best leave any play can keep is below the bar is never valued."""
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
    best = best[:limit]
    return [m for _, _, m in best], [i for _, i, _ in best]
