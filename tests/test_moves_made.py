"""The fast ways plays become Moves (engine.plays.new_move, tiles_at; the compiled core's int tile
keys) make the very objects the plain constructors make."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import Lexicon, find_moves, get_ruleset, position, search
from engine.board import BLANK
from engine.plays import Move, Tile, new_move, tiles_at
from engine.rules import LETTERS


def test_new_move_is_the_dataclasss_move() -> None:
    tiles = (Tile(8, 8, "A"), Tile(8, 9, "B", True))
    made, plain = new_move(8, 8, "across", "Ab", tiles, 7), Move(8, 8, "across", "Ab", tiles, 7)
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert dataclasses.asdict(made) == dataclasses.asdict(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.score = 8  # type: ignore[misc]


def test_tiles_at_gives_each_square_and_code_its_one_tile() -> None:
    rng = random.Random(3)
    for n in (15, 10, 21):
        for _ in range(300):
            squares = sorted(rng.sample(range(n * n), rng.randint(1, 7)))
            pairs = [(i, rng.randint(1, 26) | (BLANK if rng.random() < 0.2 else 0)) for i in squares]
            keys = [i << 8 | c for i, c in pairs]
            got = tiles_at(n, keys)
            assert got == tuple(Tile(i // n + 1, i % n + 1, LETTERS[(c & 31) - 1], bool(c & BLANK)) for i, c in pairs)
            assert all(a is b for a, b in zip(got, tiles_at(n, keys), strict=True))


@pytest.mark.skipif("compiled" not in search.IMPLEMENTATIONS, reason="the compiled core is not built")
def test_the_compiled_top_plays_are_the_references(lex: Lexicon) -> None:
    rules = get_ruleset("scrabble")
    board = ["." * 15] * 7 + ["...QUIXOTE....."] + ["." * 15] * 7
    for rack in ("AEINRST", "ERS?AT?", "ZJKVWYY"):
        pos = position(rules, board, rack)
        with search.using("compiled"):
            fast = find_moves(pos, lex, limit=30, count=False).moves
        with search.using("reference"):
            assert find_moves(pos, lex, limit=30, count=False).moves == fast
