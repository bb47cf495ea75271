"""The fast breakdown writer (engine.breakdowns) gives byte-identical JSON to the authoritative
scorer (engine.scoring via engine.breakdown) for every play of many positions, all four games."""

from __future__ import annotations

import random

import orjson
import pytest
from test_generator import odd_position

from engine import GAMES, Lexicon, breakdown, get_ruleset, position, search
from engine.board import BLANK, parse_rack
from engine.breakdowns import Breakdowns
from engine.game import game_rules, replay
from engine.plays import Position
from engine.solver import find_moves
from engine.strategy.players import GreedyPlayer, RandomPlayer
from engine.strategy.selfplay import play_game


def same_json(pos: Position, lex: Lexicon, premiums: bool) -> int:
    """Compare every play of ``pos`` (the reference and the fast writer); returns how many."""
    moves = find_moves(pos, lex, limit=100_000, premiums=premiums, count=True).moves
    write, python = Breakdowns(pos, premiums), Breakdowns(pos, premiums)
    for move in moves:
        reference = orjson.dumps(breakdown(pos, move, premiums).to_dict(stacking=pos.rules.stacking))
        # the writer as the service uses it (compiled where it can be) and the pure-Python one
        assert orjson.dumps(write(move)) == reference, (move.notation, premiums)
        assert orjson.dumps(python.python(move)) == reference, (move.notation, premiums)
    return len(moves)


def test_the_compiled_writer_is_used_where_it_applies() -> None:
    """It must not fall back to Python unseen: with the compiled core active, every game but the
    stacking one writes in C (the comparisons above then test the C writer)."""
    for game in GAMES:
        rules = get_ruleset(game)
        pos = Position(rules, [0] * rules.size**2, parse_rack(rules, "AB"))
        want = search.implementation() == "compiled" and not rules.stacking
        assert Breakdowns(pos).compiled == want, game
    with search.using("reference"):
        assert not Breakdowns(Position(get_ruleset("scrabble"), [0] * 225, parse_rack(get_ruleset("scrabble"), "AB"))).compiled


def test_the_compiled_writer_refuses_what_is_not_a_play() -> None:
    """Bad arguments are errors, not a crash: a tile off the board, or not a letter."""
    if search.implementation() != "compiled":
        pytest.skip("the compiled core is not built")
    from engine.plays import Tile

    rules = get_ruleset("scrabble")
    write = Breakdowns(Position(rules, [0] * 225, parse_rack(rules, "AB")))
    for tiles in ((Tile(16, 1, "A"),), (Tile(1, 0, "A"),), (Tile(1, 1, "?"),), ()):
        with pytest.raises((ValueError, TypeError)):
            write.fast(tiles, *write.args)


@pytest.mark.parametrize("game", GAMES)
def test_fast_breakdowns_equal_the_scorer_through_whole_games(game: str, lex: Lexicon) -> None:
    """Every turn of two games (greedy and random players), every play, premiums on and off."""
    rules = game_rules(get_ruleset(game))
    plays = 0
    for seed, players in ((1, [GreedyPlayer(), GreedyPlayer()]), (2, [RandomPlayer(2), GreedyPlayer()])):
        states = replay(play_game(rules, lex, players, seed))
        for state in states[:-1:2]:
            pos = state.position(rules)
            for premiums in (True, False):
                plays += same_json(pos, lex, premiums)
    assert plays > 2_000


@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_fast_breakdowns_equal_the_scorer_on_odd_boards(game: str, lex: Lexicon) -> None:
    """Boards no game reaches (stray tiles, blanks on the board), racks with blanks."""
    rules = get_ruleset(game)
    rng = random.Random(game)
    plays = blanks = 0
    for _ in range(25):
        pos = odd_position(rng, rules, lex, 6, [0, 1])
        plays += same_json(pos, lex, rng.random() < 0.8)
        blanks += any(code & BLANK for code in pos.cells)
    assert plays > 500 and blanks > 0


def test_fast_breakdowns_one_tile_plays_and_the_all_tiles_bonus(lex: Lexicon) -> None:
    """A single tile's main word is across when it has one, else down; a seven-tile play earns
    the bonus: the two writers agree on both."""
    rules = get_ruleset("scrabble")
    board = ["." * 15] * 7 + ["...QUIXOTE....."] + ["." * 15] * 7
    assert same_json(position(rules, board, "S"), lex, True) > 0
    pos = position(rules, None, "RETAINS")
    moves = find_moves(pos, lex, limit=5, count=False).moves
    assert Breakdowns(pos)(moves[0])["all_tiles_bonus"]["points"] == rules.bonus_points
    assert same_json(pos, lex, True) > 0
