"""Ranking by equity: a turn's score plus the value of the tiles it keeps.

``equity = score + leave value``, both in integer thousandths of a point (``equity_milli``),
so ordering is exact. Candidates are plays, and on request exchanges (every set of tiles the
game allows to throw back, valued by the tiles kept) and the pass (keeps the whole rack).

Leave values apply while tiles remain in the bag. Once the bag is empty each game's end
rules decide what kept tiles are worth (``end_leave_milli``):

- ``going_out`` games (Scrabble, Words With Friends): going out is worth twice the face
  value of the unseen tiles (the opponent's rack: they lose it and the player going out
  gains it); a play that keeps tiles is charged twice their face value (the opponent may go
  out next and the same swing goes the other way);
- ``none`` (Crossplay: each player gets one equal final turn, no rack penalty, no going-out
  bonus): kept tiles are worth nothing, so equity is the score;
- ``per_tile`` (Upwords, which has no leave values yet): the penalty per tile kept.

Ties are broken deterministically: higher equity first, then plays before exchanges before
the pass, then higher score, then the score ranking's own order (direction, row, column,
word) for plays and the tiles thrown (alphabetical) for exchanges.

The plays come from the search seam (:mod:`engine.search`), asked to rank by equity with the
values of the rack's 128 or fewer sub-racks (:class:`engine.plays.SubrackValues`) and the
exchanges' and the pass's equities as rivals: it answers the plays that rank among the best
``limit`` with the rivals, ranked, and they are merged here.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import product
from typing import NamedTuple

from .. import search
from ..game import EXCHANGE, PASS, PLAY, GameRules
from ..lexicon import Lexicon
from ..plays import Move, MoveFilter, Position, Query, SubrackValues, TopTurn, TurnQuery, end_milli, subrack_strides
from .leaves import LeaveValues, tile_char

KIND_ORDER = {PLAY: 0, EXCHANGE: 1, PASS: 2}


class Candidate(NamedTuple):
    """A turn to rank: a play, an exchange or the pass (a tuple: cheap to make by the hundred)."""

    kind: str  # "play", "exchange" or "pass"
    move: Move | None  # plays only
    thrown: str  # exchanges: the tiles thrown back (canonical)
    kept: str  # the tiles left on the rack (canonical)
    score: int
    leave_milli: int

    @property
    def equity_milli(self) -> int:
        return self.score * 1000 + self.leave_milli

    def sort_key(self) -> tuple:
        rest = self.move.sort_key()[1:] if self.move is not None else (self.thrown,)
        return (-self.equity_milli, KIND_ORDER[self.kind], -self.score, *rest)


def default_bag_size(rules: GameRules, unseen_total: int) -> int:
    """Tiles in the bag as the position shows them: the unseen tiles less full racks for the
    other players (they hold a full rack while the bag has tiles)."""
    return max(0, unseen_total - (rules.players - 1) * rules.ruleset.rack_size)


def end_leave_milli(rules: GameRules, kept: Sequence[int], unseen: Sequence[int]) -> int:
    """What ``kept`` is worth once the bag is empty (see the module docstring)."""
    face = rules.ruleset.values
    return end_milli(rules.rack_adjustment, kept, sum(face[i] * n for i, n in enumerate(unseen)), face,
                     rules.ruleset.end_penalty_per_tile)


END_RULE_TEXT = {
    "going_out": "bag empty: going out is worth twice the unseen tiles' value, tiles kept cost twice their value",
    "none": "bag empty: tiles kept are worth nothing (equal final turn, no rack penalty), equity is the score",
    "per_tile": "bag empty: each tile kept costs the game's end penalty per tile",
}


def end_rule(rules: GameRules, bag_size: int) -> str:
    if bag_size > 0:
        return f"leave values (the bag holds {bag_size} tiles)"
    return END_RULE_TEXT[rules.rack_adjustment]


class LeaveTable:
    """Every sub-rack of one rack with its leave value (at most 2^7 = 128 of them)."""

    def __init__(self, values: LeaveValues, rules: GameRules, rack: Sequence[int], bag_size: int,
                 unseen: Sequence[int]) -> None:
        self.rack = list(rack)
        # the held tiles in canonical order (letters A-Z, then the blank), so keys are built by joining
        held = [i for i in range(1, 27) if rack[i]] + ([0] if rack[0] else [])
        chars = [tile_char(i) for i in held]
        # (tiles used, leave value, tiles kept as text, tiles used as text), one per sub-rack
        self.subracks: list[tuple[tuple[int, ...], int, str, str]] = []
        # a sub-rack's index (as the search has it): the sum of its tiles' strides
        strides, size = subrack_strides(self.rack)
        steps = [strides[i] for i in held]
        by_index = [0] * size  # the leave value, by index of the tiles used
        self.kept_by_index = [""] * size  # the tiles kept, by the same index
        memo = _milli_memo(values) if bag_size > 0 else None
        full = sum(rack[i] * strides[i] for i in held)
        by_tile = sorted(range(len(held)), key=held.__getitem__)  # the blank first, as tile indices go
        for combo in product(*(range(rack[i] + 1) for i in held)):
            kept_key = "".join([ch * n for ch, n in zip(chars, combo, strict=True)])
            thrown_key = "".join([ch * (rack[i] - n) for ch, i, n in zip(chars, held, combo, strict=True)])
            if memo is not None:
                milli = memo.get(kept_key)
                if milli is None:
                    milli = memo[kept_key] = values.milli(_counts(held, combo))
            else:
                milli = end_leave_milli(rules, _counts(held, combo), unseen)
            used = tuple([held[k] for k in by_tile for _ in range(rack[held[k]] - combo[k])])
            self.subracks.append((used, milli, kept_key, thrown_key))
            index = full - sum([k * n for k, n in zip(steps, combo, strict=True)])
            by_index[index] = milli
            self.kept_by_index[index] = kept_key
        self.values = SubrackValues(self.rack, by_index)  # what the search ranks by


def _counts(held: list[int], combo: Sequence[int]) -> list[int]:
    counts = [0] * 27
    for i, n in zip(held, combo, strict=True):
        counts[i] = n
    return counts


# Leave values by canonical key, per LeaveValues object (a rollout builds a table for each new
# rack; most of its sub-racks' leaves were valued before).
_MEMO: dict[int, tuple[LeaveValues, dict[str, int]]] = {}
MAX_MEMO = 500_000


def _milli_memo(values: LeaveValues) -> dict[str, int]:
    hit = _MEMO.get(id(values))
    if hit is not None and hit[0] is values:
        if len(hit[1]) > MAX_MEMO:
            hit[1].clear()
        return hit[1]
    if len(_MEMO) > 16:
        _MEMO.clear()
    memo: dict[str, int] = {}
    _MEMO[id(values)] = (values, memo)
    return memo


_TABLES: dict[tuple, tuple[LeaveValues, LeaveTable]] = {}
MAX_TABLES = 4096


def leave_table(values: LeaveValues, rules: GameRules, rack: Sequence[int], bag_size: int,
                unseen: Sequence[int]) -> LeaveTable:
    """A :class:`LeaveTable`, kept for the racks seen recently (self-play and the API ask for
    the same racks again and again)."""
    # while the bag has tiles a leave's value is the learned one, whatever the rules and the unseen
    # tiles (hashing GameRules alone took 2 us); once it is empty, the end rules decide
    key = (id(values), tuple(rack)) if bag_size > 0 else (id(values), tuple(rack), rules, tuple(unseen))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is values:
        return hit[1]
    if len(_TABLES) >= MAX_TABLES:
        _TABLES.clear()
    table = LeaveTable(values, rules, rack, bag_size, unseen)
    _TABLES[key] = (values, table)
    return table


def other_candidates(table: LeaveTable, rules: GameRules, bag_size: int, exchanges: bool,
                     passes: bool, limit: int | None = None) -> list[Candidate]:
    """Exchanges (when the game and the bag allow one) and the pass; with ``limit`` only the
    exchanges that can rank in the best ``limit`` (ties broken as :meth:`Candidate.sort_key`)."""
    out: list[Candidate] = []
    can = exchanges and rules.exchange_allowed and bag_size >= max(rules.exchange_min_bag, 1)
    if can:
        swaps = [(milli, thrown, kept) for used, milli, kept, thrown in table.subracks
                 if 1 <= len(used) <= rules.exchange_max_tiles]
        if limit is not None:
            swaps = heapq.nsmallest(limit, swaps, key=lambda x: (-x[0], x[1]))
        out += [Candidate(EXCHANGE, None, thrown, kept, 0, milli) for milli, thrown, kept in swaps]
    if passes:
        _, milli, kept, _ = table.subracks[-1]  # the last sub-rack keeps every tile
        out.append(Candidate(PASS, None, "", kept, 0, milli))
    return out


def rank_by_equity(
    pos: Position,
    lex: Lexicon,
    values: LeaveValues,
    rules: GameRules,
    bag_size: int,
    unseen: Sequence[int],
    limit: int = 20,
    exchanges: bool = False,
    passes: bool | None = None,
    premiums: bool = True,
    flt: MoveFilter | None = None,
    count: bool = True,
    deadline: float | None = None,
) -> tuple[list[Candidate], int | None]:
    """The best ``limit`` candidates by equity and (when ``count``) the number of legal plays.
    ``passes`` defaults to ``exchanges`` (both are the non-play turns)."""
    table = leave_table(values, rules, pos.rack, bag_size, unseen)
    others = other_candidates(table, rules, bag_size, exchanges, exchanges if passes is None else passes, limit)
    rivals = tuple(c.equity_milli for c in others)
    query = Query(limit=limit, filters=flt, premiums=premiums, count=count, deadline=deadline, leaves=table.values,
                  rivals=rivals)
    found = search.ranked(pos, lex, query)
    assert found.subracks is not None
    milli, kept = table.values.values, table.kept_by_index
    cands = [Candidate(PLAY, m, "", kept[i], m.score, milli[i]) for m, i in zip(found.moves, found.subracks, strict=True)]
    if others:  # the plays come ranked (equity, then the score order); the others join them
        cands += others
        cands.sort(key=Candidate.sort_key)
    return cands[:limit], found.total


def turn_query(values: LeaveValues, rules: GameRules, bag_size: int, unseen: Sequence[int], exchanges: bool,
               deadline: float | None = None) -> TurnQuery:
    """The search's question for the single best turn by equity (``engine.search.best_turn``):
    the same turn as ``rank_by_equity(limit=1, exchanges=exchanges, passes=False)`` (or the
    pass when that finds nothing), without a leave table built in Python for the rack."""
    can = exchanges and rules.exchange_allowed and bag_size >= max(rules.exchange_min_bag, 1)
    face = rules.ruleset.values
    return TurnQuery(values, bag_size, rules.exchange_max_tiles if can else 0, rules.rack_adjustment,
                     sum(face[i] * n for i, n in enumerate(unseen)) if bag_size == 0 else 0,
                     rules.ruleset.end_penalty_per_tile, deadline)


def best_turn(pos: Position, lex: Lexicon, values: LeaveValues, rules: GameRules, bag_size: int,
              unseen: Sequence[int], exchanges: bool, deadline: float | None = None) -> TopTurn:
    """The single best turn by equity, through the search seam (see :func:`turn_query`)."""
    return search.best_turn(pos, lex, turn_query(values, rules, bag_size, unseen, exchanges, deadline))
