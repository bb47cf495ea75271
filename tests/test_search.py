"""The search seam (engine.search): both implementations answer every kind of query alike.

Positions come from seeded self-play in all four games (a blank added to some racks); each is
asked every combination the seam takes (by score and by equity, with and without rivals,
limits 0, 1 and 7, counted or not, filters, premiums off), of the compiled core and of the
pure-Python reference, and the answers (plays in order, totals, sub-rack indices) must be
equal; with a deadline already past, both must refuse. Skipped where the compiled core is not built: the reference alone is then the search.
"""

from __future__ import annotations

import time
from dataclasses import replace
from itertools import product

import pytest

from engine import GAMES, Lexicon, MoveFilter, Query, TimeBudgetExceeded, search
from engine.game import game_rules, replay
from engine.plays import Position
from engine.strategy.equity import leave_table, other_candidates
from engine.strategy.leaves import available, shipped
from engine.strategy.players import GreedyPlayer, RandomPlayer
from engine.strategy.selfplay import play_game, view_for

pytestmark = pytest.mark.skipif("compiled" not in search.IMPLEMENTATIONS, reason="the compiled core is not built")

# the last one as only a library caller can ask (the API refuses it): no play covers (0, 3)
FILTERS = (None, MoveFilter(min_length=4), MoveFilter(contains="E", no_blanks=True, square=(8, 8)),
           MoveFilter(square=(0, 3), contains="é"))


def positions(game: str, lex: Lexicon) -> list[tuple[Position, object]]:
    """(position, player view) pairs from two seeded games, every sixth turn."""
    rules = game_rules(game)
    out = []
    for seed in (1, 2):
        states = replay(play_game(rules, lex, [RandomPlayer(seed), GreedyPlayer()], seed))
        for state in states[::6]:
            if state.over or not state.racks[state.to_move]:
                continue
            view = view_for(rules, state, lex)
            pos = view.position
            if seed == 2 and not rules.ruleset.stacking and not pos.rack[0]:  # one tile as a blank
                rack = list(pos.rack)
                held = next(i for i in range(1, 27) if rack[i]) if any(rack[1:]) else None
                if held is not None:
                    rack[held] -= 1
                    rack[0] += 1
                    pos = replace(pos, rack=rack)
            out.append((pos, view))
    return out[:: max(1, len(out) // 8)]  # about eight, spread over both games


def both(pos: Position, lex: Lexicon, query: Query) -> None:
    answers = []
    for name in ("compiled", "reference"):
        with search.using(name):
            answers.append(search.ranked(pos, lex, query))
    assert answers[0] == answers[1], query
    past = query._replace(deadline=time.monotonic() - 1)
    for name in ("compiled", "reference"):
        with search.using(name), pytest.raises(TimeBudgetExceeded):
            search.ranked(pos, lex, past)


@pytest.mark.parametrize("game", GAMES)
def test_both_implementations_answer_every_query_alike(game: str, lex: Lexicon) -> None:
    rules = game_rules(game)
    checked = 0
    for pos, view in positions(game, lex):
        for name in ("compiled", "reference"):
            with search.using(name):
                plays = search.every_play(pos, lex)
            if name == "compiled":
                first = plays
        assert plays == first  # the same plays in the same order
        for at_least in sorted({0, *(r[0] for r in first[::max(1, len(first) // 3)]), 10**6}):
            want = (len(first), [r for r in first if r[0] >= at_least])
            for name in ("compiled", "reference"):
                with search.using(name):
                    assert search.plays_scoring(pos, lex, at_least) == want, (name, at_least)
        for name in ("compiled", "reference"):
            with search.using(name), pytest.raises(TimeBudgetExceeded):
                search.plays_scoring(pos, lex, 0, True, time.monotonic() - 1)
        for limit, count, flt in product((0, 1, 7), (False, True), FILTERS):
            both(pos, lex, Query(limit, flt, True, count, None))
        both(pos, lex, Query(5, None, False, True, None))  # premiums off
        if available(game):
            values = shipped(game)
            for bag in (view.bag_size, 0):  # type: ignore[attr-defined]
                table = leave_table(values, rules, pos.rack, bag, view.unseen)  # type: ignore[attr-defined]
                rivals = tuple(c.equity_milli for c in other_candidates(table, rules, bag, True, True, 7))
                for limit, count, flt in product((1, 7), (False, True), FILTERS[:2]):
                    both(pos, lex, Query(limit, flt, True, count, None, table.values, rivals))
                for limit, count in product((0, 7), (False, True)):
                    both(pos, lex, Query(limit, None, True, count, None, table.values))
        checked += 1
    assert checked >= 4


def test_the_seam_switches_and_says_which_answers() -> None:
    before = search.implementation()
    with search.using("reference"):
        assert search.implementation() == "reference" and not search.instant()
        with search.using("compiled"):
            assert search.implementation() == "compiled" and search.instant()
        assert search.implementation() == "reference"
    assert search.implementation() == before
    with pytest.raises(KeyError, match="available: reference, compiled"):
        search.use("wolges")
