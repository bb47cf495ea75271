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

With the compiled generator the search itself ranks by equity: every play's key is its
score x 1000 plus the value of the tiles it keeps (looked up in C from a table of the rack's
128 or fewer sub-racks), the heap of the best ``limit`` is seeded with the best exchanges
and pass, and the best-first search stays pruned by score bounds: a play scoring ``s`` is at
most ``s`` x 1000 plus the best leave a play can keep (per extent of ``k`` new tiles, the best
leave of ``k`` tiles), so anchors and extents that cannot reach the heap's minimum are skipped.
With ``count`` every play is visited for the count, and only those that can rank come back.
The pure-Python search (the reference) enumerates every play and values only those that can
reach the bar of the best ``limit + MARGIN`` plays by score.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import product
from operator import itemgetter
from typing import NamedTuple

from . import native
from .board import BLANK, LETTER_MASK
from .game import EXCHANGE, PASS, PLAY, GameRules
from .leaves import LeaveValues, leave_key
from .lexicon import Lexicon
from .movegen import RawPlay
from .solver import Move, MoveFilter, Position, _raw_matches, all_raw_plays, materialise

MARGIN = 40  # plays beyond the limit, best by score, that set the bar (pure-Python search)
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
    if rules.rack_adjustment == "going_out":
        if not any(kept):
            return 2000 * sum(face[i] * n for i, n in enumerate(unseen))
        return -2000 * sum(face[i] * n for i, n in enumerate(kept))
    if rules.rack_adjustment == "per_tile":
        return -1000 * rules.ruleset.end_penalty_per_tile * sum(kept)
    return 0


TILE_OF_CODE = [0 if code & BLANK else code & LETTER_MASK if (code & LETTER_MASK) < 27 else 0 for code in range(256)]

END_RULES = {
    "going_out": "bag empty: going out is worth twice the unseen tiles' value, tiles kept cost twice their value",
    "none": "bag empty: tiles kept are worth nothing (equal final turn, no rack penalty), equity is the score",
    "per_tile": "bag empty: each tile kept costs the game's end penalty per tile",
}


def end_rule(rules: GameRules, bag_size: int) -> str:
    if bag_size > 0:
        return f"leave values (the bag holds {bag_size} tiles)"
    return END_RULES[rules.rack_adjustment]


class LeaveTable:
    """Every sub-rack of one rack with its leave value (at most 2^7 = 128 of them)."""

    def __init__(self, values: LeaveValues, rules: GameRules, rack: Sequence[int], bag_size: int,
                 unseen: Sequence[int]) -> None:
        self.rack = list(rack)
        held = [i for i, n in enumerate(rack) if n]
        # (tiles used, leave value, tiles kept as text, tiles used as text), one per sub-rack
        self.subracks: list[tuple[tuple[int, ...], int, str, str]] = []
        # a sub-rack's index (as the compiled search has it): the sum of its tiles' strides
        strides, size = native.subrack_strides(self.rack)
        self._stride_of_code = [strides[t] for t in TILE_OF_CODE]
        by_index = [0] * size  # the leave value, by index of the tiles used
        self.kept_by_index = [""] * size  # the tiles kept, by the same index
        best = None
        for combo in product(*(range(rack[i] + 1) for i in held)):
            kept = [0] * 27
            for i, n in zip(held, combo, strict=True):
                kept[i] = n
            used = tuple(i for i in held for _ in range(rack[i] - kept[i]))
            milli = values.milli(kept) if bag_size > 0 else end_leave_milli(rules, kept, unseen)
            thrown = [a - b for a, b in zip(rack, kept, strict=True)]
            self.subracks.append((used, milli, leave_key(kept), leave_key(thrown)))
            index = sum(thrown[i] * strides[i] for i in held)
            by_index[index] = milli
            self.kept_by_index[index] = leave_key(kept)
            if used and (best is None or milli > best):  # (the last sub-rack uses none)
                best = milli
        self.max_play_leave = best if best is not None else 0
        self.by_index = by_index
        self._compiled: native.Leaves | None = None

    def of_tiles(self, tiles: Sequence[tuple[int, int]]) -> tuple[int, str]:
        """(leave value, tiles kept) of a play's ``(square, code)`` tiles, by the index of the
        tiles used: no sorting (the same multiset gives the same sum)."""
        i = sum([self._stride_of_code[code] for _, code in tiles])
        return self.by_index[i], self.kept_by_index[i]

    def of_raw(self, raw: RawPlay) -> int:
        return self.of_tiles(raw[5])[0]

    def compiled(self) -> native.Leaves:
        """The values for the compiled search (built on first use)."""
        if self._compiled is None:
            self._compiled = native.Leaves(self.rack, self.by_index)
        return self._compiled


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


def _play_candidates(pos: Position, raws: list[RawPlay], table: LeaveTable, limit: int, others: list[Candidate]
                     ) -> list[Candidate]:
    """The plays that can rank in the top ``limit`` by equity, as candidates. The best plays by
    score give a bar (the ``limit``-th best equity among them and ``others``); a play whose
    score plus the best leave any play can keep is below the bar is never valued."""
    if not raws or limit <= 0:
        return []
    by_score = heapq.nlargest(limit + MARGIN, raws, key=itemgetter(0))
    eq = sorted([r[0] * 1000 + table.of_raw(r) for r in by_score] + [c.equity_milli for c in others], reverse=True)
    bar = eq[limit - 1] if len(eq) >= limit else None
    if bar is not None:
        need = -((table.max_play_leave - bar) // 1000)  # the least score that can reach the bar
        raws = [r for r in raws if r[0] >= need]
    valued = [(r[0] * 1000 + table.of_raw(r), r) for r in raws]
    cutoff = heapq.nlargest(limit, (e for e, _ in valued))[-1]
    out = []
    for e, r in valued:
        if e >= cutoff:
            milli, kept = table.of_tiles(r[5])
            out.append(Candidate(PLAY, materialise(pos.rules, pos.cells, r), "", kept, r[0], milli))
    return out


def _native_rank(pos: Position, lex: Lexicon, table: LeaveTable, others: list[Candidate], limit: int,
                 premiums: bool, flt: MoveFilter | None, count: bool, deadline: float | None
                 ) -> tuple[list[Candidate], int | None]:
    """The compiled generator's side of :func:`rank_by_equity` (see the module docstring): one
    search by equity, its heap seeded with the best other candidates."""
    from .solver import _compiled_deadline, _ranked_move, check_deadline

    seeds = sorted((c.equity_milli for c in others), reverse=True)[:limit]
    leaves = table.compiled()
    check_deadline(deadline)
    with _compiled_deadline():
        if count:  # every play is visited for the count; only those that can rank come back
            total, raws, _ = native.search(pos.rules, lex, pos.cells, pos.rack, limit, seeds, flt,
                                           premiums=premiums, deadline=deadline, leaves=leaves)
            plays = _play_candidates(pos, raws, table, limit, others)
        else:
            total = None
            ranked = native.ranked_by_equity(pos.rules, lex, pos.cells, pos.rack, limit, leaves, seeds, flt, premiums,
                                             deadline)
            n, milli, kept = pos.rules.size, table.by_index, table.kept_by_index
            plays = [Candidate(PLAY, _ranked_move(n, r), "", kept[r[6]], r[0], milli[r[6]]) for r in ranked]
    if not others and total is None:
        return plays, None  # ranked by the search already (equity, then solver's order)
    cands = plays + others
    cands.sort(key=Candidate.sort_key)
    return cands[:limit], total


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
    filtered = flt if flt is not None and flt.active() else None
    if native.available and not pos.rules.stacking and limit > 0:
        return _native_rank(pos, lex, table, others, limit, premiums, filtered, count, deadline)
    raws = all_raw_plays(pos, lex, premiums, deadline)
    if filtered is not None:
        raws = [r for r in raws if _raw_matches(pos.rules, pos.cells, r, filtered)]
    cands = _play_candidates(pos, raws, table, limit, others) + others
    cands.sort(key=Candidate.sort_key)
    return cands[:limit], len(raws) if count else None
