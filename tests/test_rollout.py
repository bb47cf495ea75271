"""Rollouts at the compiled core's speed: the single best turn by equity through the search
seam (engine.search.best_turn), leave values held in C, and the flat rollout of
engine.strategy.simulate, each against its reference.

- the C core's sub-rack values equal engine.strategy.leaves' (every sub-rack of random racks,
  table entries and model alike) and each game's end rule once the bag is empty;
- ``best_turn`` of both implementations is the turn ``rank_by_equity(limit=1)`` ranks first
  (ties alike), on self-play positions of three games, with and without exchanges;
- leave values C cannot hold fall back to the Python sub-rack values, with the same answers;
- the flat rollout plays the same turns (plays, scores, racks, bag, the game's end) and gives
  the same figures as the strict one (whole-game turns applied by engine.game.apply), on
  positions through to the end of the game, on both implementations; whole simulations too;
- the equity player plays the same games as one choosing by ``rank_by_equity``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Lexicon, search
from engine.game import EXCHANGE, PASS, PLAY, State, game_rules, replay
from engine.plays import END_RULES, TopTurn, TurnQuery, best_exchange, subrack_values
from engine.strategy import simulate as sm
from engine.strategy.equity import best_turn, leave_table, other_candidates, rank_by_equity, turn_query
from engine.strategy.leaves import LeaveValues, shipped
from engine.strategy.players import Action, EquityPlayer, GreedyPlayer, PlayerView, RandomPlayer
from engine.strategy.selfplay import play_game, view_for

GAMES = ("crossplay", "scrabble", "wwf")
IMPLEMENTATIONS = tuple(search.IMPLEMENTATIONS)
needs_c = pytest.mark.skipif("compiled" not in search.IMPLEMENTATIONS, reason="the compiled core is not built")


def states(game: str, lex: Lexicon, seeds: tuple[int, ...] = (1, 2), every: int = 3) -> list[State]:
    """States of seeded games (a random and a greedy player), to the end, every ``every`` turns."""
    rules = game_rules(game)
    out = []
    for seed in seeds:
        played = replay(play_game(rules, lex, [RandomPlayer(seed), GreedyPlayer()], seed))
        out += [s for s in played[::every] + played[-3:] if not s.over and s.racks[s.to_move]]
    return out


def random_rack(rng: random.Random, size: int) -> list[int]:
    rack = [0] * 27
    for _ in range(size):
        rack[rng.choice([0, 1, 5, 5, 9, 17, 19, 21, 26] + list(range(1, 27)))] += 1
    return rack


@needs_c
@pytest.mark.parametrize("game", GAMES)
def test_the_c_cores_sub_rack_values_are_the_leave_values(game: str) -> None:
    from engine.search import compiled

    rules = game_rules(game)
    values = shipped(game)
    model = compiled.compiled_leaves(values)
    assert model is not None
    rng = random.Random(game)
    face = rules.ruleset.values
    for k in range(300):
        rack = random_rack(rng, 1 + k % 9)
        unseen = random_rack(rng, rng.randrange(0, 15))
        bag = rng.choice([0, 0, 5, 40])
        q = turn_query(values, rules, bag, unseen, True)
        if bag == 0:  # every end rule (Upwords' per-tile penalty has no leaves, so no game of these has it)
            q = q._replace(end_rule=END_RULES[k % 3], penalty=k % 4)
        leave, strides, drops, exchange = compiled._fastgen.subracks(
            model, compiled.array("i", rack), compiled.array("i", face), q.bag_size, END_RULES.index(q.end_rule),
            q.unseen_face, q.penalty, q.exchange_max)
        expect = subrack_values(rack, q, face)
        assert list(memoryview(leave).cast("i")) == expect.values
        assert exchange == best_exchange(expect, q.exchange_max)
        assert list(memoryview(strides).cast("i")) == expect.strides
        if q.end_rule == rules.rack_adjustment:
            table = leave_table(values, rules, rack, bag, unseen)  # and the equity ranking's own table
            assert table.values.values == expect.values
        prepared = compiled._leave_args(expect)
        assert list(memoryview(drops).cast("i")) == list(prepared[2])


def same_turn(ref: list, got: TopTurn) -> bool:
    if not ref:
        return got[0] == PASS
    c = ref[0]
    return (got[0], got[1], got[2], got[3], got[4]) == (c.kind, c.move, c.thrown, c.score, c.leave_milli)


@pytest.mark.parametrize("game", GAMES)
def test_best_turn_is_the_first_of_rank_by_equity_on_both_implementations(game: str, lex: Lexicon) -> None:
    rules = game_rules(game)
    values = shipped(game)
    kinds = set()
    for state in states(game, lex):
        view = view_for(rules, state, lex)
        for exchanges in (False, view.can_exchange):
            ref, _ = rank_by_equity(view.position, lex, values, rules, view.bag_size, view.unseen, limit=1,
                                    exchanges=exchanges, passes=False, count=False)
            for name in IMPLEMENTATIONS:
                with search.using(name):
                    got = best_turn(view.position, lex, values, rules, view.bag_size, view.unseen, exchanges)
                assert same_turn(ref, got), (name, view.bag_size, ref[:1], got)
                kinds.add((got.kind, view.bag_size == 0))
    assert (PLAY, False) in kinds and (PLAY, True) in kinds  # the learned leaves and the end rule both ranked


def test_best_turn_weighs_an_exchange_against_the_plays(lex: Lexicon) -> None:
    """A rack that plays badly exchanges, and the exchange is the one rank_by_equity ranks first."""
    from engine import position

    rules = game_rules("scrabble")
    values = shipped("scrabble")
    pos = position(rules.ruleset, None, "QVVWWUU")
    ref, _ = rank_by_equity(pos, lex, values, rules, 80, rules.ruleset.counts, limit=1, exchanges=True, passes=False,
                            count=False)
    assert ref[0].kind == EXCHANGE
    for name in IMPLEMENTATIONS:
        with search.using(name):
            assert same_turn(ref, best_turn(pos, lex, values, rules, 80, rules.ruleset.counts, True))


@needs_c
def test_leave_values_c_cannot_hold_fall_back_to_python(lex: Lexicon) -> None:
    from engine.search import compiled

    rules = game_rules("crossplay")
    base = shipped("crossplay")
    odd = replace(base, weights={**base.weights, "A4": 5000})  # a feature the C core does not know
    long = replace(base, table={**base.table, "AAAAAAAAAAAAA": 9000})  # 13 tiles
    unordered = replace(base, table={**base.table, "TSE": 99000})  # Python looks up "EST" only
    for values in (odd, long, unordered):
        assert compiled.compiled_leaves(values) is None
    for state in states("crossplay", lex, (3,), 6)[:6]:
        view = view_for(rules, state, lex)
        for values in (odd, long, unordered):
            ref, _ = rank_by_equity(view.position, lex, values, rules, view.bag_size, view.unseen, limit=1,
                                    exchanges=view.can_exchange, passes=False, count=False)
            got = best_turn(view.position, lex, values, rules, view.bag_size, view.unseen, view.can_exchange)
            assert same_turn(ref, got)


def test_a_rack_longer_than_the_c_buffers_is_answered_as_the_reference_answers(lex: Lexicon) -> None:
    """Found by review: 128 tiles with exchanges of up to 100 overran the C core's sub-rack text
    buffer (a bus error). No game deals such a rack; the library answers it all the same."""
    from array import array

    from engine.plays import Position
    from engine.search import compiled

    rules = game_rules("scrabble").ruleset
    rack = [0] * 27
    rack[1] = rack[2] = 64
    pos = Position(rules, [0] * rules.size * rules.size, rack)
    q = TurnQuery(shipped("scrabble"), 50, exchange_max=100)
    answers = []
    for name in IMPLEMENTATIONS:
        with search.using(name):
            answers.append(search.best_turn(pos, lex, q))
    assert all(a == answers[0] for a in answers), answers
    if "compiled" in IMPLEMENTATIONS:
        model = compiled.compiled_leaves(q.leaves)
        with pytest.raises(ValueError, match="0..64 tiles"):
            compiled._fastgen.subracks(model, array("i", rack), array("i", [0] * 27), 50, 0, 0, 0, 100)


def test_a_past_deadline_stops_best_turn(lex: Lexicon) -> None:
    from engine import TimeBudgetExceeded, position

    rules = game_rules("wwf")
    pos = position(rules.ruleset, None, "RETAINS")
    for name in IMPLEMENTATIONS:
        with search.using(name), pytest.raises(TimeBudgetExceeded):
            search.best_turn(pos, lex, TurnQuery(shipped("wwf"), 80, 7, deadline=0.0))


@pytest.mark.parametrize(("game", "implementation", "every"),
                         [(g, "compiled", 4) for g in GAMES] + [("scrabble", "reference", 12)])
def test_the_flat_rollout_plays_the_strict_rollouts_turns(game: str, implementation: str, every: int,
                                                          lex: Lexicon) -> None:
    if implementation not in search.IMPLEMENTATIONS:
        pytest.skip("the compiled core is not built")
    with search.using(implementation):
        check_rollouts(game, every, lex)


def check_rollouts(game: str, every: int, lex: Lexicon) -> None:
    """Every rollout of a few candidates (plays, the best exchange, the pass) from positions
    of a seeded game through to its end: the same turns (plays, scores, racks, bag, end)
    and the same figures."""
    rules = game_rules(game)
    values = shipped(game)
    win = sm.win_model(game)
    ended = kinds = 0
    for state in states(game, lex, (1,), every):
        view = view_for(rules, state, lex)
        me = view.me
        s = sm.setup(rules, view.position, (state.scores[me], state.scores[1 - me]), view.bag_size,
                     final_turns_left=view.final_turns_left, scoreless=state.scoreless)
        table = leave_table(values, rules, view.position.rack, view.bag_size, view.unseen)
        cands = sm.candidates_for(s, lex, values, 4) + other_candidates(table, rules, view.bag_size, True, True, 1)
        kinds += any(c.kind == EXCHANGE for c in cands)
        ctx = sm._context(s, lex, values, cands, 3, "flat", win)
        for i in range(2):
            opp, order = sm.deal(s, "flat", i)
            for c in cands:
                strict_turns: sm.Trace = []
                flat_turns: sm.Trace = []
                strict = sm.strict_rollout(ctx, c, opp, order, random.Random(i), None, strict_turns)
                flat = sm._rollout(ctx, c, opp, order, random.Random(i), None, flat_turns)
                assert flat_turns == strict_turns, (view.bag_size, sm.describe(c))
                assert flat == strict, (view.bag_size, sm.describe(c))
                ended += strict[1] in (0.0, 0.5, 1.0) and view.bag_size < 7
    assert kinds and ended  # exchanges or passes among the candidates, games played to their end


@pytest.mark.parametrize("game", GAMES)
def test_a_simulation_is_the_same_with_the_strict_rollout(game: str, lex: Lexicon) -> None:
    rules = game_rules(game)
    values = shipped(game)
    mid = states(game, lex, (2,), 1)
    for state in (mid[len(mid) // 3], mid[-2]):
        view = view_for(rules, state, lex)
        s = sm.setup(rules, view.position, (state.scores[view.me], state.scores[1 - view.me]), view.bag_size,
                     final_turns_left=view.final_turns_left, scoreless=state.scoreless)
        params = sm.Params(candidates=4, plies=2, iterations=16, seed=3, checkpoint=4, min_samples=8)
        flat = sm.simulate(s, lex, values, params)
        strict = sm.simulate(s, lex, values, params, strict=True)
        assert [x.to_dict() for x in flat.lines] == [x.to_dict() for x in strict.lines]
        assert flat.reason == strict.reason and flat.iterations == strict.iterations


class RankingEquityPlayer:
    """The equity player as it chose before best_turn: the first of rank_by_equity(limit=1)."""

    name = "equity"

    def __init__(self, values: LeaveValues | None = None) -> None:
        self.values = values

    def choose(self, view: PlayerView) -> Action:
        values = self.values or shipped(view.rules.name)
        found, _ = rank_by_equity(view.position, view.lexicon, values, view.rules, view.bag_size, view.unseen,
                                  limit=1, exchanges=view.can_exchange, passes=False, count=False)
        if not found:
            return Action(PASS)
        best = found[0]
        return Action(PLAY, best.move) if best.kind == PLAY else Action(EXCHANGE, tiles=best.thrown)


@pytest.mark.parametrize("game", GAMES)
def test_the_equity_player_plays_the_games_it_played_before(game: str, lex: Lexicon) -> None:
    rules = game_rules(game)
    for seed in (5, 6):
        now = play_game(rules, lex, [EquityPlayer(), EquityPlayer()], seed)
        before = play_game(rules, lex, [RankingEquityPlayer(), RankingEquityPlayer()], seed)
        assert now.turns == before.turns
