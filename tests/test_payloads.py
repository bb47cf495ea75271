"""An answer's moves written in C (engine._fastgen.payloads, through app.service.move_payloads)
equal the Python writer's (app.service.move_payload) byte for byte, key order included: every
play of whole games of all four games and of odd boards with blanks, with and without
breakdowns and premiums, and whole answers by score and by equity."""

from __future__ import annotations

import random

import orjson
import pytest
from test_generator import odd_position, rack_text

from app import service
from app.schemas import MovesIn
from engine import GAMES, Lexicon, get_ruleset, search
from engine.board import BLANK, parse_rack
from engine.breakdowns import Breakdowns
from engine.game import game_rules, replay
from engine.plays import Move, Position, Tile
from engine.solver import find_moves
from engine.strategy.players import GreedyPlayer, RandomPlayer
from engine.strategy.selfplay import play_game

compiled = pytest.mark.skipif("compiled" not in search.IMPLEMENTATIONS, reason="the compiled core is not built")


def same_payloads(pos: Position, lex: Lexicon, premiums: bool, breakdowns: bool) -> int:
    """Every play of ``pos`` written both ways; returns how many."""
    moves = find_moves(pos, lex, limit=100_000, premiums=premiums, count=True).moves
    rack = rack_text(pos)
    with search.using("compiled"):
        fast = service.move_payloads(pos, moves, rack, Breakdowns(pos, premiums) if breakdowns else None)
    write = Breakdowns(pos, premiums) if breakdowns else None
    python = [service.move_payload(m, service.sorted_rack(rack), write) for m in moves]
    assert orjson.dumps(fast) == orjson.dumps(python), (pos.rules.name, premiums, breakdowns)
    return len(moves)


@compiled
def test_the_compiled_writer_answers_with_the_compiled_core() -> None:
    with search.using("compiled"):
        assert search.payload_writer() is not None
    with search.using("reference"):
        assert search.payload_writer() is None


@compiled
@pytest.mark.parametrize("game", GAMES)
def test_payloads_equal_the_python_writer_through_whole_games(game: str, lex: Lexicon) -> None:
    """Every turn of two games (greedy and random players), every play: Upwords' Qu tile and
    stacks too (its breakdowns are Python's, called from C)."""
    rules = game_rules(get_ruleset(game))
    plays = 0
    for seed, players in ((1, [GreedyPlayer(), GreedyPlayer()]), (2, [RandomPlayer(2), GreedyPlayer()])):
        states = replay(play_game(rules, lex, players, seed))
        for k, state in enumerate(states[:-1:3]):
            pos = state.position(rules)
            plays += same_payloads(pos, lex, premiums=k % 2 == 0, breakdowns=k % 3 != 2)
    assert plays > 1_000


@compiled
@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_payloads_equal_the_python_writer_on_odd_boards(game: str, lex: Lexicon) -> None:
    """Boards no game reaches (stray tiles, blanks on the board), racks with blanks."""
    rules = get_ruleset(game)
    rng = random.Random(game)
    plays = blanks = 0
    for _ in range(15):
        pos = odd_position(rng, rules, lex, 5, [0, 1, 2])
        plays += same_payloads(pos, lex, rng.random() < 0.8, rng.random() < 0.7)
        blanks += any(code & BLANK for code in pos.cells)
    assert plays > 500 and blanks > 0


@compiled
@pytest.mark.parametrize(("game", "rack", "rank_by"), [
    ("scrabble", "AEIRST?", "score"), ("crossplay", "RETAIN?", "equity"), ("wwf", "RETAINS", "equity"),
    ("crossplay", "EEIIU??", "score"), ("upwords", "QUEST", "score"),
])
def test_whole_answers_are_the_same_with_the_python_writer(
    game: str, rack: str, rank_by: str, lex: Lexicon, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """best_moves_payload with the C writer and with the Python loop (the equity answer merges
    its fields into the C writer's dicts, exchanges included), limit 300 and a blank board or
    not."""
    rules = get_ruleset(game)
    board = None if game == "upwords" else ["." * rules.size] * 7 + ["....QUIXOTE" + "." * (rules.size - 11)] + \
        ["." * rules.size] * (rules.size - 8)
    req = MovesIn(board=board, rack=rack, limit=300, rank_by=rank_by,
                  exchanges=rank_by == "equity")  # type: ignore[arg-type]
    with search.using("compiled"):
        fast = service.best_moves_payload(rules, lex, req, 20)
        monkeypatch.setattr(search, "payload_writer", lambda: None)
        python = service.best_moves_payload(rules, lex, req, 20)
    assert len(fast["moves"]) > 20
    assert orjson.dumps(fast) == orjson.dumps(python)


@compiled
def test_the_compiled_writer_refuses_what_is_not_a_play() -> None:
    """A tile its rack does not hold, off the board or not a letter, bad arguments: errors, not a crash."""
    rules = get_ruleset("scrabble")
    pos = Position(rules, [0] * 225, parse_rack(rules, "AB"))
    writer = search.compiled.PAYLOADS
    assert writer is not None
    squares = [["8H"] * 225, ["H8"] * 225]

    def play(*tiles: Tile) -> Move:
        return Move(8, 8, "across", "AB", tiles, 4)

    for move in (play(Tile(8, 8, "C")), play(Tile(8, 8, "A"), Tile(8, 9, "A")), play(Tile(8, 8, "A", True)),
                 play(Tile(16, 1, "A")), play(Tile(8, 8, "?")), play()):
        with pytest.raises(ValueError):
            writer([move], "AB", 15, *squares, {}, None, None)
    good = [play(Tile(8, 8, "A"), Tile(8, 9, "B"))]
    assert writer(good, "AB", 15, *squares, {}, None, None)[0]["leave"] == ""
    for args in (("AB", 15, squares[0], {}, None, None), ("AB", 0, *squares, {}, None, None),
                 ("A1", 15, *squares, {}, None, None), ("AB", 15, *squares, {}, Breakdowns(pos), (1, 2)),
                 ("AB", 2**32, [], [], {}, None, None), ("AB" * 40, 15, *squares, {}, None, None),
                 ("AB", 15, list(range(225)), squares[1], {}, None, None)):
        with pytest.raises((TypeError, ValueError)):
            writer(good, *args)
    tiles = good[0].tiles
    for bad in (Move(8, 8, "across", "AB", list(tiles), 4), Move(8, 8, None, "AB", tiles, 4),  # type: ignore[arg-type]
                Move(8, 8, "across", None, tiles, 4)):  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            writer([bad], "AB", 15, *squares, {}, None, None)
    # a cache entry that is not the writer's own is written again, never trusted (a review's find)
    for code in ("zz", -5, 5000 << 8 | 1):
        cache = {id(tiles[0]): (tiles[0], {"x": 1}, code)}
        assert writer(good, "AB?", 15, *squares, cache, None, None) == writer(good, "AB?", 15, *squares, {}, None, None)


@compiled
def test_a_short_answer_whose_search_finished_is_given_past_the_deadline(lex: Lexicon) -> None:
    """The search keeps the deadline; building a short answer after it (under 0.3 ms) does not
    throw it away: a search answered on the event loop that finished just past the loop's
    budget was solved again in a lane for that (app.deps.solve). A long one is checked once."""
    import time

    from engine import TimeBudgetExceeded, position

    pos = position(get_ruleset("scrabble"), None, "AEINRS?")
    moves = find_moves(pos, lex, limit=1000, count=False).moves
    past = time.monotonic() - 1
    with search.using("compiled"):
        short = service.move_payloads(pos, moves[: service.SHORT_ANSWER], "AEINRS?", Breakdowns(pos), past)
        assert len(short) == service.SHORT_ANSWER
        with pytest.raises(TimeBudgetExceeded):
            service.move_payloads(pos, moves[: service.SHORT_ANSWER + 1], "AEINRS?", Breakdowns(pos), past)
