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


@pytest.mark.skipif("compiled" not in search.IMPLEMENTATIONS, reason="the compiled core is not built")
def test_moves_made_in_c_are_the_ones_python_makes(lex: Lexicon) -> None:
    """engine._fastgen.moves (ranked_moves) makes each Move as the dataclass's __init__ does:
    equal, the same fields in the same order (so the same compact layout), still frozen; the
    tiles found by key, or made by tiles_at when a board size has none yet."""
    import sys
    from dataclasses import FrozenInstanceError

    from engine.plays import _TILES
    from engine.search import compiled

    rules = get_ruleset("scrabble")
    pos = position(rules, ["." * 15] * 7 + ["...QUIXOTE....."] + ["." * 15] * 7, "ERS?AT?")
    best = compiled.top_by_score(rules, lex, pos.cells, pos.rack, 300)
    _TILES.pop(15, None)  # no tile known: every play's tiles come from tiles_at
    for _ in range(2):  # then every tile is known
        made = compiled.ranked_moves(15, best)
        plain = [compiled.ranked_move(15, r) for r in best]
        assert made == plain and len(made) == 300
        for a, b in zip(made, plain, strict=True):
            assert type(a) is type(b) and list(vars(a).items()) == list(vars(b).items())
            assert sys.getsizeof(a) == sys.getsizeof(b) and hash(a) == hash(b)
            assert all(x is y for x, y in zip(a.tiles, b.tiles, strict=True))
    with pytest.raises(FrozenInstanceError):
        made[0].score = 1  # type: ignore[misc]
    for bad in ([(1, 2)], [(1, True, 1, 1, "A", [256])], "not a list"):
        with pytest.raises(TypeError):
            compiled.ranked_moves(15, bad)  # type: ignore[arg-type]
    # Python code it calls cannot pull the plays from under it, nor can a class without __new__
    from engine import _fastgen  # type: ignore[attr-defined]
    from engine.plays import Move

    plays = list(best[:5])

    def emptying(keys: tuple[int, ...]) -> tuple[Tile, ...]:
        plays.clear()
        return tiles_at(15, keys)

    with pytest.raises(RuntimeError, match="changed size"):
        _fastgen.moves(Move, plays, {}, emptying, compiled._MOVE_FIELDS, "across", "down")
    with pytest.raises(TypeError):
        _fastgen.moves(type(sys._getframe()), best[:1], {}, tiles_at, compiled._MOVE_FIELDS, "across", "down")
