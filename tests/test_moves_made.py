"""Plays become Moves of shared Tiles looked up by int keys (engine.plays.tiles_at, the compiled
core's ``square << 8 | code``): the very objects the plain constructors make."""

from __future__ import annotations

import random

import pytest

from engine import Lexicon, find_moves, get_ruleset, position, search
from engine.board import BLANK
from engine.plays import Tile, tiles_at
from engine.rules import LETTERS


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
