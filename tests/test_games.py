"""The game model, self-play and GCG round trips: invariants over many seeded games per game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, end_game, get_ruleset
from engine.errors import IllegalTurnError, RulesetError
from engine.game import (
    END,
    EXCHANGE,
    PASS,
    PLAY,
    Game,
    Turn,
    apply,
    board_tiles,
    can_exchange,
    end_adjustments,
    game_rules,
    replay,
    start,
    tile_counts,
)
from engine.gcg import read_gcg, write_gcg
from engine.solver import check_play
from engine.strategy.players import GreedyPlayer, RandomPlayer
from engine.strategy.selfplay import play_game, play_games

SEEDS = st.integers(min_value=0, max_value=10**9)
FEW = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def selfplay(game: str, seed: int, lex) -> Game:  # type: ignore[no-untyped-def]
    rules = game_rules(game)
    return play_game(rules, lex, [RandomPlayer(seed), GreedyPlayer()], seed, first=seed % 2)


def end_reason(game: Game, states: list) -> str:  # type: ignore[type-arg]
    """Why the game ended, worked out from the states independently of ``apply``."""
    rules = game.rules
    k = max(i for i, t in enumerate(game.turns) if t.uses_turn)
    last, after = game.turns[k], states[k + 1]
    if rules.end_on_going_out and last.kind == PLAY and after.bag_size == 0 and not after.racks[last.player]:
        return "went out"
    scoreless = 0
    for t in reversed([t for t in game.turns if t.uses_turn]):
        if t.kind not in rules.scoreless_kinds:
            break
        scoreless += 1
    if scoreless >= rules.scoreless_turns_end:
        return "scoreless turns"
    if rules.final_turns_after_bag_empty:
        emptied = next(i for i, s in enumerate(states) if s.bag_size == 0)
        turns_after = sum(1 for t in game.turns[emptied:] if t.uses_turn)
        if turns_after == rules.players * rules.final_turns_after_bag_empty:
            return "final turns"
    return "no rule"


def test_a_game_where_every_player_went_out_round_trips_as_gcg(lex) -> None:  # type: ignore[no-untyped-def]
    """Crossplay seed 514367915: both players emptied their racks in the final turns, so both
    end lines are empty; the record still carries them (as '()' lines) and reads back equal."""
    g = selfplay("crossplay", 514367915, lex)
    assert [t.rack for t in g.turns[-2:]] == ["", ""]
    assert read_gcg(write_gcg(g), g.rules).game.turns == g.turns


@pytest.mark.parametrize("game", GAMES)
@FEW
@given(seed=SEEDS)
def test_selfplay_invariants(game: str, seed: int, lex) -> None:  # type: ignore[no-untyped-def]
    g = selfplay(game, seed, lex)
    rules = g.rules
    rs = rules.ruleset
    states = replay(g, lex)  # strict: turn order, racks, draws, exchanges, scores, lexicon
    for state in states:  # tiles are never created or lost
        total = [a + b for a, b in zip(state.bag, board_tiles(state), strict=True)]
        for rack in state.racks:
            total = [a + b for a, b in zip(total, tile_counts(rack), strict=True)]
        assert total == list(rs.counts)
    for turn, before in zip(g.turns, states, strict=False):  # every play legal, re-scored independently
        if turn.kind == PLAY:
            assert turn.move is not None
            from engine.game import placements

            check = check_play(before.position(rules, turn.player), lex, placements(rs, turn.move))
            assert check.valid and check.breakdown.total == turn.score == turn.move.score
        if turn.kind == EXCHANGE:
            assert can_exchange(rules, before) and before.bag_size >= rules.exchange_min_bag
            assert 1 <= len(turn.tiles) <= rules.exchange_max_tiles
    final = states[-1]
    assert final.over
    ends = [t for t in g.turns if t.kind == END]
    assert [t.player for t in ends] == list(range(rules.players))
    before_end = states[len(g.turns) - len(ends)]
    adjustments = end_adjustments(rules, before_end.racks)
    moves = [sum(t.score for t in g.turns if t.player == p and t.kind != END) for p in range(rules.players)]
    assert list(final.scores) == g.final_scores() == [m + a for m, a in zip(moves, adjustments, strict=True)]
    assert [a.adjustment for a in end_game(rs, list(before_end.racks))] == adjustments
    assert end_reason(g, states) != "no rule"
    back = read_gcg(write_gcg(g), rules).game  # written as GCG and read again: the same game
    assert back.turns == g.turns
    assert back.initial_racks == g.initial_racks and back.first == g.first


@pytest.mark.parametrize("game", GAMES)
def test_selfplay_is_deterministic_per_seed(game: str, lex) -> None:  # type: ignore[no-untyped-def]
    a, b = selfplay(game, 7, lex), selfplay(game, 7, lex)
    assert a == b and a.turns
    assert selfplay(game, 8, lex).turns != a.turns


@pytest.mark.parametrize("game", GAMES)
def test_play_games_summary(game: str, lex) -> None:  # type: ignore[no-untyped-def]
    s1 = play_games(game_rules(game), lex, ["greedy", "greedy"], 4, seed=3)
    s2 = play_games(game_rules(game), lex, ["greedy", "greedy"], 4, seed=3)
    assert s1.games == 4 and sum(s1.wins) + s1.draws == 4
    assert (s1.wins, s1.mean_scores, s1.mean_spread) == (s2.wins, s2.mean_scores, s2.mean_spread)
    assert s1.plays_per_game > 5 and s1.moves_per_second > 0


def test_crossplay_final_turns_after_the_bag_empties(lex) -> None:  # type: ignore[no-untyped-def]
    for seed in range(5):
        g = play_game(game_rules("crossplay"), lex, [GreedyPlayer(), GreedyPlayer()], seed)
        states = replay(g, lex)
        reason = end_reason(g, states)
        assert reason in ("final turns", "scoreless turns")
        assert all(t.score == 0 for t in g.turns if t.kind == END)  # tiles left are not counted


def test_game_rules_are_data_with_sources() -> None:
    for game in GAMES:
        rules = game_rules(game)
        assert {k for k, _ in rules.sources} >= {"exchange", "scoreless_turns_end", "rack_adjustment"}
        assert all(src for _, src in rules.sources)
    assert game_rules("scrabble").exchange_min_bag == 7
    assert game_rules("upwords").exchange_max_tiles == 1
    assert game_rules("scrabble", exchange_min_bag=1).exchange_min_bag == 1
    with pytest.raises(RulesetError):
        game_rules("scrabble", no_such_rule=1)
    with pytest.raises(RulesetError):
        game_rules("scrabble", rack_adjustment="double")


def test_end_adjustments_match_end_game() -> None:
    rng = random.Random(5)
    for game in GAMES:
        rs = get_ruleset(game)
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + ("?" if rs.blanks else "")
        for _ in range(50):
            racks = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 7))) for _ in range(2)]
            want = [a.adjustment for a in end_game(rs, racks)]
            assert end_adjustments(game_rules(game), racks) == want


def _rules_state(game: str, bag_left: int, **overrides: object):  # type: ignore[no-untyped-def]
    rules = game_rules(game, **overrides)
    state = start(rules, ["AEINRST", "EEEIIOU"])
    bag = list(state.bag)
    for i in range(27):  # empty the bag down to ``bag_left`` tiles
        while sum(bag) > bag_left and bag[i]:
            bag[i] -= 1
    from dataclasses import replace

    return rules, replace(state, bag=tuple(bag))


def test_exchange_needs_enough_tiles_in_the_bag() -> None:
    rules, state = _rules_state("scrabble", 6)
    assert not can_exchange(rules, state)
    with pytest.raises(IllegalTurnError, match="needs 7 tiles in the bag"):
        apply(rules, state, Turn(0, EXCHANGE, rack="AEINRST", tiles="A", count=1, drawn="Z"), strict=True)
    rules, state = _rules_state("scrabble", 7)
    assert can_exchange(rules, state)
    rules, state = _rules_state("scrabble", 6, exchange_min_bag=1)  # a house rule
    assert can_exchange(rules, state)


def test_upwords_exchanges_one_tile() -> None:
    rules, state = _rules_state("upwords", 50)
    drawn = next(ch for ch in "ABCDEFGHIJKLMNOPRSTUVWXYZ" if state.bag[ord(ch) - 64] >= 2)
    with pytest.raises(IllegalTurnError, match="1 to 1 tiles"):
        apply(rules, state, Turn(0, EXCHANGE, rack="AEINRST", tiles="AE", count=2, drawn=drawn * 2))
    after = apply(rules, state, Turn(0, EXCHANGE, rack="AEINRST", tiles="A", count=1, drawn=drawn))
    assert sum(after.bag) == sum(state.bag) and after.scoreless == 0  # an exchange is not a pass in Upwords


def test_strict_replay_refuses_wrong_turns(lex) -> None:  # type: ignore[no-untyped-def]
    g = selfplay("scrabble", 11, lex)
    first_play = next(k for k, t in enumerate(g.turns) if t.kind == PLAY)
    from dataclasses import replace

    wrong_score = list(g.turns)
    wrong_score[first_play] = replace(g.turns[first_play], score=g.turns[first_play].score + 1)
    with pytest.raises(IllegalTurnError, match="scores"):
        replay(replace(g, turns=tuple(wrong_score)), lex)
    wrong_player = list(g.turns)
    wrong_player[0] = replace(g.turns[0], player=1 - g.turns[0].player)
    with pytest.raises(IllegalTurnError):
        replay(replace(g, turns=tuple(wrong_player)), lex)
    stolen = list(g.turns)
    stolen[first_play] = replace(g.turns[first_play], drawn="ZZZZZZZ")
    with pytest.raises(IllegalTurnError):
        replay(replace(g, turns=tuple(stolen)), lex)
    after_end = g.turns + (Turn(0, PASS, rack=replay(g)[-1].racks[0]),)
    with pytest.raises(IllegalTurnError, match="over"):
        replay(replace(g, turns=after_end))


@pytest.mark.parametrize("game", ["crossplay", "scrabble"])
def test_mirrored_pairs_swap_the_seats(game: str, lex) -> None:  # type: ignore[no-untyped-def]
    played: list[Game] = []
    s = play_games(game_rules(game), lex, ["greedy", "greedy"], 6, seed=9, on_game=lambda k, g: played.append(g),
                   mirrored=True)
    for a, b in zip(played[::2], played[1::2], strict=True):
        assert a.seed == b.seed and a.initial_racks == b.initial_racks and a.first == b.first == 0
        assert a.names == ("greedy1", "greedy2") and b.names == ("greedy2", "greedy1")
        assert a.turns == b.turns  # identical players: the same game, seats swapped
    assert s.mean_spread == 0 and s.wins[0] == s.wins[1] and s.mean_scores[0] == s.mean_scores[1]


def test_scoreless_turns_end_the_game_by_each_games_count() -> None:
    rules = game_rules("scrabble")
    state = start(rules, ["AEINRST", "EEEIIOU"])
    for k in range(6):
        assert not state.over
        state = apply(rules, state, Turn(k % 2, PASS, rack=state.racks[k % 2]))
    assert state.over and state.scoreless == 6
    assert [t.score for t in end_turns_of(rules, state)] == [-7, -7]  # nobody went out: each loses their rack
    up = game_rules("upwords")
    state = start(up, ["AEINRST", "EEEIIOU"])
    bag_letter = next(ch for ch in "BCDFGHKLMP" if state.bag[ord(ch) - 64])
    state = apply(up, state, Turn(0, PASS, rack=state.racks[0]))
    state = apply(up, state, Turn(1, EXCHANGE, rack=state.racks[1], tiles="U", count=1, drawn=bag_letter))
    state = apply(up, state, Turn(0, PASS, rack=state.racks[0]))
    assert not state.over and state.scoreless == 1  # the exchange broke the run of passes
    state = apply(up, state, Turn(1, PASS, rack=state.racks[1]))
    assert state.over
    assert [t.score for t in end_turns_of(up, state)] == [-35, -35]


def end_turns_of(rules, state):  # type: ignore[no-untyped-def]
    from engine.game import end_turns

    return end_turns(rules, state)


@pytest.mark.parametrize(("game", "row", "moves_next"), [("upwords", 5, 0), ("scrabble", 8, 1)])
def test_a_withdrawn_phony_ends_the_turn_per_game(game: str, row: int, moves_next: int, lex) -> None:  # type: ignore[no-untyped-def]
    from engine.game import WITHDRAWN
    from engine.solver import placements_from_word

    rules = game_rules(game)
    state = start(rules, ["AEINRST", "EEEIIOU"])
    placed = placements_from_word(rules.ruleset, list(state.cells), row, 4, "across", "TRAIN")
    check = check_play(state.position(rules), lex, placed)
    after = apply(rules, state, Turn(0, WITHDRAWN, rack=state.racks[0], move=check.move), lex)
    assert after.to_move == moves_next and after.cells == state.cells and after.racks == state.racks
    if moves_next == 0:  # Upwords: the player plays another word instead
        again = apply(rules, after, Turn(0, PLAY, rack=after.racks[0], move=check.move, score=check.move.score,
                                         drawn="".join(sorted(draw_five(after)))), lex)
        assert again.to_move == 1 and again.scores[0] == check.move.score


def draw_five(state) -> str:  # type: ignore[no-untyped-def]
    out = ""
    for i in range(1, 27):
        while state.bag[i] - out.count(chr(64 + i)) > 0 and len(out) < 5:
            out += chr(64 + i)
    return out
