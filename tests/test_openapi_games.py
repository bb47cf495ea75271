"""The per-game request schemas (app/openapi_games.py) say exactly what the engine checks: for
random racks, boards and stack heights, the schema accepts a value exactly when the engine's
parser does (differential, every game). And the document lists each game's operations."""

from __future__ import annotations

from typing import Any

import jsonschema
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.main import create_app
from app.openapi_games import board, heights, rack
from engine import GAMES, get_ruleset
from engine.board import parse_board, parse_heights, parse_rack
from engine.errors import EngineError

# no newline: Python's re (which jsonschema uses) lets '$' match before a final newline, ECMA-262's does not
CHARS = "AEQZaqz?.0125é "
games = st.sampled_from(GAMES)


def valid(schema: dict[str, Any] | None, value: Any) -> bool:
    return jsonschema.Draft202012Validator(schema or {"type": "null"}).is_valid(value)


def accepts(parse: Any, *args: Any) -> bool:
    try:
        parse(*args)
    except EngineError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(games, st.text(alphabet="AZaz?", max_size=9) | st.text(alphabet=CHARS, max_size=9))
def test_a_rack_the_schema_accepts_is_one_the_engine_accepts(game: str, text: str) -> None:
    r = get_ruleset(game)
    assert valid(rack(r), text) == accepts(parse_rack, r, text), (game, text)


def rows(n: int, alphabet: str) -> st.SearchStrategy[list[str]]:
    """n rows of n characters, often bent out of shape by one row or one square."""

    def bend(board: list[str], how: str) -> list[str]:
        return {"keep": board, "short row": [board[0][:-1], *board[1:]], "long row": [board[0] + ".", *board[1:]],
                "fewer": board[1:], "more": [*board, board[0]]}[how]

    exact = st.lists(st.text(alphabet=alphabet, min_size=n, max_size=n), min_size=n, max_size=n)
    return st.builds(bend, exact, st.sampled_from(["keep", "keep", "keep", "short row", "long row", "fewer", "more"]))


@settings(max_examples=300, deadline=None)
@given(games, st.data())
def test_a_board_the_schema_accepts_is_one_the_engine_reads(game: str, data: st.DataObject) -> None:
    r = get_ruleset(game)
    value = data.draw(rows(r.size, data.draw(st.sampled_from([".A", ".Aa", ".Aa?"]))))  # null (an empty board) is allowed by every request
    assert valid(board(r), value) == accepts(parse_board, r, value), (game, value)


@settings(max_examples=300, deadline=None)
@given(games, st.data())
def test_heights_the_schema_accepts_are_ones_the_engine_reads(game: str, data: st.DataObject) -> None:
    """Format only (digits 0..max_height, the board's shape, stacking games only); that a letter
    is exactly where a height is not 0 is the engine's to judge (square by square, two fields)."""
    r = get_ruleset(game)
    value = data.draw(rows(r.size, data.draw(st.sampled_from(["01", "015", "0156", "015a"]))))
    ok = accepts(parse_heights, r, value, [0] * r.size * r.size)
    if value is not None and ok is False and r.stacking and valid(heights(r), value):
        letters = [1 if ch != "0" else 0 for row in value for ch in row]  # a letter on every stack
        ok = accepts(parse_heights, r, value, letters)
    engine_ok = ok if r.stacking or value is None else False  # position(): flat games take no heights
    assert valid(heights(r), value) == engine_ok, (game, value)


def test_each_game_has_its_operations_with_its_own_body() -> None:
    spec = TestClient(create_app()).get("/openapi.json").json()
    for game in GAMES:
        r = get_ruleset(game)
        op = spec["paths"][f"/v1/games/{game}/moves"]["post"]
        assert op["operationId"] == "findMoves" + game.capitalize()
        assert "parameters" not in op or all(p["name"] != "game" for p in op["parameters"])
        name = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        body = spec["components"]["schemas"][name]
        assert body["properties"]["board"]["anyOf"][0]["maxItems"] == r.size
    assert "/v1/games/{game}/moves" not in spec["paths"]
    assert "/v1/games/upwords/simulate" not in spec["paths"]  # no leave values: not offered
    assert "/v1/games/{game}/analyze" in spec["paths"]  # the same body in every game
