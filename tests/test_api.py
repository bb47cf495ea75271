"""The HTTP API through FastAPI's TestClient: every endpoint, every error class, filters, limits."""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import started
from fastapi.testclient import TestClient

import app.deps
import app.service
from app.main import create_app
from app.settings import Settings
from engine import RulesetError, search

# A Crossplay game six plays in (greedy plays from a shuffled bag); 'e' at 6,7 is a blank.
MIDGAME = [
    ".......K.......",
    ".......U.......",
    "....G.WE.......",
    "....A.AH.......",
    "....R.V........",
    "....D.e........",
    "....A.R........",
    "..PINDER.......",
    "....T.R........",
    "....S.ST.......",
    ".......E.......",
    ".......P.......",
    ".......E.......",
    ".......F.......",
    ".STOUTLY.......",
]
EMPTY = ["." * 15] * 15
TINY_WORDS = ["QI", "ZA", "QAT", "ZAX", "AX", "XI", "TA", "AT"]


@pytest.fixture(scope="module")
def user_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("lexicons")
    (d / "tiny.txt").write_text("\n".join(TINY_WORDS) + "\n")
    return d


@pytest.fixture(scope="module")
def settings(user_dir: Path) -> Settings:
    return Settings(lexicon_dir=user_dir, cors_origins="https://front.example", max_body_bytes=16 * 1024)


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with started(create_app(settings)) as c:
        yield c


def moves(client: TestClient, game: str = "crossplay", **body: Any) -> dict[str, Any]:
    r = client.post(f"/v1/games/{game}/moves", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def error(response, status: int, code: str) -> dict:  # type: ignore[no-untyped-def]
    """Check the status and the error envelope; return the error object."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    err = body["error"]
    assert set(err) == {"code", "message", "details"}
    assert err["code"] == code
    assert "Traceback" not in response.text
    return err


# ----------------------------------------------------------------------------- games


def test_games_lists_every_game(client: TestClient) -> None:
    games = client.get("/v1/games").json()["games"]
    assert [g["name"] for g in games] == ["crossplay", "scrabble", "wwf", "upwords"]
    assert {g["name"]: g["size"] for g in games} == {"crossplay": 15, "scrabble": 15, "wwf": 15, "upwords": 10}


@pytest.mark.parametrize(
    ("game", "bonus", "points", "blanks"),
    [("crossplay", "sweep", 40, 3), ("scrabble", "bingo", 50, 2), ("wwf", "bingo", 35, 2)],
)
def test_game_ruleset_describes_board_tiles_and_bonus(
    client: TestClient, game: str, bonus: str, points: int, blanks: int
) -> None:
    g = client.get(f"/v1/games/{game}").json()
    assert g["name"] == game and g["size"] == 15 and g["rack_size"] == 7
    assert g["start"] == [[8, 8]]
    assert g["all_tiles_bonus"] == {"name": bonus, "points": points}
    assert g["blanks"] == blanks == g["tile_counts"]["?"]
    assert g["total_tiles"] == sum(g["tile_counts"].values())
    assert g["letter_values"]["Q"] == 10 and g["letter_values"]["?"] == 0
    assert set(g["premiums"]) <= {"DL", "TL", "DW", "TW"}
    assert all(1 <= r <= 15 and 1 <= c <= 15 for squares in g["premiums"].values() for r, c in squares)


def test_upwords_ruleset_has_stacks_and_no_premiums(client: TestClient) -> None:
    g = client.get("/v1/games/upwords").json()
    assert g["size"] == 10 and g["stacking"] is True and g["max_height"] == 5
    assert g["premiums"] == {} and g["blanks"] == 0 and g["qu_tile"] is True
    assert sorted(g["start"]) == [[5, 5], [5, 6], [6, 5], [6, 6]]
    assert g["all_tiles_bonus"]["points"] == 20 and g["total_tiles"] == 100


def test_unknown_game_is_404(client: TestClient) -> None:
    err = error(client.get("/v1/games/chess"), 404, "unknown_game")
    assert "chess" in err["message"] and "crossplay" in err["message"]
    error(client.post("/v1/games/chess/moves", json={"rack": "AB"}), 404, "unknown_game")


# ----------------------------------------------------------------------------- moves


def test_seed_quixote_on_empty_board_is_8F_for_110(client: TestClient) -> None:
    body = moves(client, rack="QUIXOTE")
    assert body["game"] == "crossplay" and body["lexicon"] == "word-list"
    first = body["moves"][0]
    assert (first["row"], first["col"], first["direction"], first["word"]) == (8, 6, "across", "QUIXOTE")
    assert first["score"] == 110 and first["notation"] == "8F QUIXOTE" and first["tiles_used"] == 7
    bd = first["breakdown"]
    assert bd["total"] == 110 and bd["all_tiles_bonus"] == {"name": "sweep", "points": 40}
    word = bd["words"][0]
    assert set(word) == {"word", "letters", "letter_total", "word_multiplier", "score"}
    assert set(word["letters"][0]) == {"letter", "row", "col", "new", "blank", "bonus", "points"}
    # Same score, so the documented tie-break puts across before down.
    assert body["moves"][1]["notation"] == "H6 QUIXOTE" and body["moves"][1]["score"] == 110


def test_moves_are_ranked_and_consistent(client: TestClient) -> None:
    body = moves(client, board=MIDGAME, rack="AEINRS?", limit=50)
    ms = body["moves"]
    assert len(ms) == 50
    assert [m["score"] for m in ms] == sorted((m["score"] for m in ms), reverse=True)
    for m in ms:
        assert m["breakdown"]["total"] == m["score"]
        assert m["tiles_used"] == len(m["tiles"]) == 7 - len(m["leave"])
        assert sum(w["score"] for w in m["breakdown"]["words"]) + m["breakdown"]["all_tiles_bonus"]["points"] == m["score"]
    assert ms[0]["notation"] == "1H KAISERiN" and ms[0]["score"] == 82
    # The main word includes the K already on the board; the blank is lowercase.
    assert ms[0]["tiles"][-2] == {"row": 1, "col": 14, "letter": "i", "blank": True}


def test_same_request_gives_identical_answer(client: TestClient) -> None:
    a = moves(client, board=MIDGAME, rack="DEGIOR?", limit=100)
    b = moves(client, board=MIDGAME, rack="?ROIGED", limit=100)
    assert a == b


def test_total_moves_is_null_unless_count_is_asked(client: TestClient) -> None:
    assert moves(client, rack="QUIXOTE")["total_moves"] is None
    counted = moves(client, rack="QUIXOTE", count=True, limit=1000)
    assert counted["total_moves"] == len(counted["moves"]) > 20


def test_limit_defaults_to_20_and_is_honoured(client: TestClient) -> None:
    assert len(moves(client, rack="QUIXOTE")["moves"]) == 20
    assert len(moves(client, rack="QUIXOTE", limit=3)["moves"]) == 3
    assert len(moves(client, board=MIDGAME, rack="AEINRS?", limit=1000)["moves"]) == 1000


@pytest.mark.parametrize("limit", [0, -1, 1001])
def test_limit_out_of_range_is_422(client: TestClient, limit: int) -> None:
    err = error(client.post("/v1/games/crossplay/moves", json={"rack": "QUIXOTE", "limit": limit}), 422, "invalid_request")
    assert err["message"].startswith("limit: ")
    assert err["details"]["errors"][0]["field"] == "limit"


def test_premiums_off_scores_face_values(client: TestClient) -> None:
    values = client.get("/v1/games/crossplay").json()["letter_values"]
    first = moves(client, rack="QUIXOTE", premiums=False)["moves"][0]
    assert first["score"] == sum(values[ch] for ch in "QUIXOTE") + 40
    assert all(letter["bonus"] is None for letter in first["breakdown"]["words"][0]["letters"])


def test_no_legal_play_is_an_empty_list(client: TestClient) -> None:
    body = moves(client, rack="VV", count=True)
    assert body["moves"] == [] and body["total_moves"] == 0


def test_filters_apply_before_limit(client: TestClient) -> None:
    base: dict[str, Any] = {"board": MIDGAME, "rack": "EEINRST", "limit": 200, "count": True}
    everything = moves(client, **base)
    long = moves(client, **base, filters={"min_length": 8})
    assert 0 < long["total_moves"] < everything["total_moves"]
    assert long["moves"] and all(len(m["word"]) >= 8 for m in long["moves"])

    ee = moves(client, **base, filters={"contains": "ee"})
    assert 0 < ee["total_moves"] < everything["total_moves"]
    assert ee["moves"] and all(m["word"].upper().count("E") >= 2 for m in ee["moves"])

    sq = moves(client, **base, filters={"square": [9, 6]})
    assert 0 < sq["total_moves"] < everything["total_moves"]
    assert sq["moves"] and all(any((t["row"], t["col"]) == (9, 6) for t in m["tiles"]) for m in sq["moves"])

    both = moves(client, **base, filters={"min_length": 7, "contains": "ee"})
    assert both["moves"] and all(len(m["word"]) >= 7 and m["word"].upper().count("E") >= 2 for m in both["moves"])


def test_filter_no_blanks(client: TestClient) -> None:
    nb = moves(client, board=MIDGAME, rack="AEINRS?", count=True, filters={"no_blanks": True})
    assert nb["moves"] and not any(t["blank"] for m in nb["moves"] for t in m["tiles"])
    assert nb["total_moves"] < moves(client, board=MIDGAME, rack="AEINRS?", count=True)["total_moves"]


def test_filter_square_off_the_board_is_422(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", json={"rack": "QUIXOTE", "filters": {"square": [16, 1]}})
    err = error(r, 422, "invalid_filter")
    assert "[16, 1] (square 16A)" in err["message"] and err["details"]["row"] == 16


def test_filter_contains_must_be_letters(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", json={"rack": "QUIXOTE", "filters": {"contains": "Q1"}})
    assert error(r, 422, "invalid_request")["message"].startswith("filters.contains: ")


def test_search_past_its_time_budget_is_422(user_dir: Path) -> None:
    with started(create_app(Settings(search_timeout=1e-9))) as c:
        r = c.post("/v1/games/crossplay/moves", json={"board": MIDGAME, "rack": "AEINRS?", "count": True})
        assert "time budget" in error(r, 422, "time_budget_exceeded")["message"]
        # Upwords and the ranking behind /score are bounded too
        r = c.post("/v1/games/upwords/moves", json={"rack": "QUIZEAS"})
        error(r, 422, "time_budget_exceeded")
        r = c.post("/v1/games/crossplay/score", json={"rack": "QUIXOTE", "play": "8F QUIXOTE"})
        error(r, 422, "time_budget_exceeded")


def test_plural_rule_switch_is_accepted(client: TestClient) -> None:
    board = ["." * 10] * 10
    board[4] = "....CAT..."
    for game, body in (("upwords", {"board": board}), ("crossplay", {})):
        for rule in (True, False):
            assert moves(client, game, rack="SEA", plural_rule=rule, **body)["moves"]


def test_user_lexicon_is_used_when_named(client: TestClient) -> None:
    body = moves(client, rack="QIZAXT", lexicon="tiny", limit=1000)
    assert body["lexicon"] == "tiny"
    assert {m["word"] for m in body["moves"]} <= set(TINY_WORDS)


def test_unknown_lexicon_is_404(client: TestClient) -> None:
    err = error(client.post("/v1/games/crossplay/moves", json={"rack": "QI", "lexicon": "klingon"}), 404, "unknown_lexicon")
    assert "klingon" in err["message"] and "word-list" in err["message"]


# ----------------------------------------------------------------------------- input errors, one per class


def test_board_with_wrong_row_count_is_422(client: TestClient) -> None:
    err = error(client.post("/v1/games/crossplay/moves", json={"board": EMPTY[:14], "rack": "QI"}), 422, "invalid_board")
    assert err["message"] == "board has 14 rows; crossplay needs 15"


def test_board_with_short_row_is_422(client: TestClient) -> None:
    board = list(EMPTY)
    board[4] = "." * 14
    err = error(client.post("/v1/games/crossplay/moves", json={"board": board, "rack": "QI"}), 422, "invalid_board")
    assert err["message"] == "row 5 has 14 squares; crossplay needs 15" and err["details"]["row"] == 5


def test_board_with_bad_character_names_the_square(client: TestClient) -> None:
    board = list(MIDGAME)
    board[2] = "....G.W3......."
    err = error(client.post("/v1/games/crossplay/moves", json={"board": board, "rack": "QI"}), 422, "invalid_board")
    assert "row 3, column 8" in err["message"]
    assert err["details"] == {"row": 3, "col": 8, "letter": "3"}


def test_rack_too_long_is_422(client: TestClient) -> None:
    err = error(client.post("/v1/games/crossplay/moves", json={"rack": "ABCDEFGH"}), 422, "invalid_rack")
    assert err["message"] == "rack 'ABCDEFGH' has 8 tiles; crossplay racks hold 7"


def test_rack_bad_character_is_422(client: TestClient) -> None:
    err = error(client.post("/v1/games/crossplay/moves", json={"rack": "AB*"}), 422, "invalid_rack")
    assert "rack position 3" in err["message"] and err["details"]["letter"] == "*"


def test_rack_too_many_blanks_is_422(client: TestClient) -> None:
    err = error(client.post("/v1/games/scrabble/moves", json={"rack": "???"}), 422, "invalid_rack")
    assert err["message"] == "rack has 3 blanks; scrabble has only 2"


def test_more_tiles_than_the_game_has_is_422(client: TestClient) -> None:
    board = list(EMPTY)
    board[7] = "......QI......."
    err = error(client.post("/v1/games/crossplay/moves", json={"board": board, "rack": "Q"}), 422, "too_many_tiles")
    assert err["message"].startswith("2 Q tiles on board (1) and rack (1); crossplay has only 1")
    assert err["details"]["letter"] == "Q"


def test_heights_on_a_flat_game_is_422(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", json={"rack": "QI", "heights": ["0" * 15] * 15})
    assert "has no stacks" in error(r, 422, "invalid_board")["message"]


def test_upwords_heights_must_agree_with_the_board(client: TestClient) -> None:
    board = ["." * 10] * 10
    board[4] = "....CAT..."
    heights = ["0" * 10] * 10
    heights[4] = "0000120000"  # no height under the T at 5,7
    r = client.post("/v1/games/upwords/moves", json={"board": board, "heights": heights, "rack": "S"})
    err = error(r, 422, "invalid_board")
    assert "row 5, column 7" in err["message"] and err["details"]["row"] == 5 and err["details"]["col"] == 7


def test_upwords_height_above_five_is_422(client: TestClient) -> None:
    board = ["." * 10] * 10
    board[4] = "....CAT..."
    heights = ["0" * 10] * 10
    heights[4] = "0000161000"
    r = client.post("/v1/games/upwords/moves", json={"board": board, "heights": heights, "rack": "S"})
    assert "not a height 0-5" in error(r, 422, "invalid_board")["message"]


def test_upwords_heights_with_wrong_row_count_is_422(client: TestClient) -> None:
    r = client.post("/v1/games/upwords/moves", json={"heights": ["0" * 10] * 9, "rack": "S"})
    assert error(r, 422, "invalid_board")["message"] == "heights has 9 rows; upwords needs 10"


def test_wrong_types_are_422(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", json={"rack": 7, "board": "no", "premiums": "perhaps"})
    err = error(r, 422, "invalid_request")
    fields = {e["field"] for e in err["details"]["errors"]}
    assert fields == {"rack", "board", "premiums"}
    assert err["message"].endswith("(and 2 more)")


def test_missing_rack_is_422(client: TestClient) -> None:
    assert error(client.post("/v1/games/crossplay/moves", json={}), 422, "invalid_request")["message"] == "rack: Field required"


def test_unknown_field_is_422(client: TestClient) -> None:
    err = error(client.post("/v1/games/crossplay/moves", json={"rack": "QI", "limt": 5}), 422, "invalid_request")
    assert err["message"].startswith("limt: ")


def test_absurd_board_is_refused_by_the_schema(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", json={"rack": "QI", "board": ["." * 15] * 40})
    assert error(r, 422, "invalid_request")["message"].startswith("board: ")


def test_malformed_json_is_400(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", content=b'{"rack": "QI",', headers={"Content-Type": "application/json"})
    err = error(r, 400, "malformed_json")
    assert err["message"].startswith("the body is not valid JSON")


@pytest.mark.parametrize("body", [b'{"rack": "\xff"}', b"[" * 10_000])
def test_unreadable_json_is_400(client: TestClient, body: bytes) -> None:
    r = client.post("/v1/games/crossplay/moves", content=body, headers={"Content-Type": "application/json"})
    assert "could not be read as JSON" in error(r, 400, "malformed_json")["message"]


def test_body_that_is_not_json_is_415(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", content=b"rack=QI", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert "Content-Type: application/json" in error(r, 415, "unsupported_media_type")["message"]


def test_oversized_body_is_413(client: TestClient) -> None:
    big = json.dumps({"rack": "QI", "board": ["x" * 20000]}).encode()
    err = error(client.post("/v1/games/crossplay/moves", content=big, headers={"Content-Type": "application/json"}), 413, "body_too_large")
    assert err["message"] == "the request body is larger than 16384 bytes"


def test_oversized_streamed_body_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is enforced while reading
        yield b'{"rack": "QI", "board": ["'
        for _ in range(40):
            yield b"." * 1000

    r = client.post("/v1/games/crossplay/moves", content=chunks(), headers={"Content-Type": "application/json"})
    error(r, 413, "body_too_large")


def test_unknown_route_is_404(client: TestClient) -> None:
    assert "GET /v2/nothing" in error(client.get("/v2/nothing"), 404, "not_found")["message"]


def test_wrong_method_is_405(client: TestClient) -> None:
    assert error(client.get("/v1/games/crossplay/moves"), 405, "method_not_allowed")["message"] == (
        "GET is not allowed on /v1/games/crossplay/moves"
    )


def test_unexpected_exception_is_a_json_500_without_traceback(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(app.service, "best_moves_payload", boom)
    with started(create_app(settings), raise_server_exceptions=False) as c:
        r = c.post("/v1/games/crossplay/moves", json={"rack": "QI"})
    error(r, 500, "internal_error")
    assert "secret" not in r.text
    assert r.headers["connection"] == "close"  # the server drops the connection after a 500: say so


def test_broken_ruleset_is_a_500_not_a_client_error(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game: str) -> None:
        raise RulesetError(f"ruleset {game!r}: malformed data", game=game)

    monkeypatch.setattr(app.deps, "get_ruleset", broken)
    with started(create_app(settings), raise_server_exceptions=False) as c:
        error(c.get("/v1/games/crossplay"), 500, "invalid_ruleset")


# ----------------------------------------------------------------------------- scoring one play


def score(client: TestClient, game: str = "crossplay", **body: object):  # type: ignore[no-untyped-def]
    return client.post(f"/v1/games/{game}/score", json=body)


def test_score_seed_play_with_rack_ranks_it_first(client: TestClient) -> None:
    r = score(client, rack="QUIXOTE", move={"row": 8, "col": 6, "direction": "across", "word": "QUIXOTE"})
    body = r.json()
    assert r.status_code == 200
    assert body["score"] == 110 and body["valid"] is True and body["invalid_words"] == []
    assert body["rank"] == 1 and body["best_score"] == 110 and body["total_moves"] > 1
    assert body["notation"] == "8F QUIXOTE" and body["breakdown"]["total"] == 110


def test_score_without_rack_has_no_rank(client: TestClient) -> None:
    body = score(client, move={"row": 8, "col": 8, "direction": "down", "word": "QI"}).json()
    assert body["valid"] is True and body["rank"] is None and body["best_score"] is None and body["total_moves"] is None


def test_score_through_board_tiles_and_blank(client: TestClient) -> None:
    play = {"row": 1, "col": 8, "direction": "across", "word": ".AISERiN"}
    body = score(client, board=MIDGAME, rack="AEINRS?", move=play).json()
    assert body["word"] == "KAISERiN" and body["score"] == 82 and body["rank"] == 1 and body["tiles_used"] == 7
    blank = [letter for letter in body["breakdown"]["words"][0]["letters"] if letter["blank"]]
    assert blank == [{"letter": "i", "row": 1, "col": 14, "new": True, "blank": True, "bonus": blank[0]["bonus"], "points": 0}]
    # Writing the board's K instead of '.' is the same play.
    same = score(client, board=MIDGAME, rack="AEINRS?", move={**play, "word": "KAISERiN"}).json()
    assert same["score"] == 82


def test_score_phony_is_scored_and_marked_invalid(client: TestClient) -> None:
    body = score(client, rack="QXZ", move={"row": 8, "col": 7, "direction": "across", "word": "QXZ"}).json()
    assert body["valid"] is False and body["invalid_words"] == ["QXZ"]
    assert body["score"] > 0 and body["rank"] is None


@pytest.mark.parametrize(
    ("play", "rack", "fragment", "where"),
    [
        ({"row": 8, "col": 12, "direction": "across", "word": "QUIXOTE"}, None, "runs off the 15x15 board", (8, 16)),
        ({"row": 1, "col": 1, "direction": "across", "word": "QI"}, None, "must cover the start square 8H", None),
        ({"row": 8, "col": 8, "direction": "across", "word": "Q"}, None, "at least two letters", None),
        ({"row": 8, "col": 8, "direction": "down", "word": "Q.I"}, None, "stands for a tile on the board", (9, 8)),
        ({"row": 8, "col": 6, "direction": "across", "word": "QUIXOTE"}, "QUIXOT", "the rack has no E", (8, 12)),
    ],
)
def test_score_impossible_play_on_empty_board_says_why_and_where(
    client: TestClient, play: dict, rack: str | None, fragment: str, where: tuple[int, int] | None
) -> None:
    body = {"move": play} | ({"rack": rack} if rack else {})
    err = error(client.post("/v1/games/crossplay/score", json=body), 422, "illegal_play")
    assert fragment in err["message"]
    if where:
        assert (err["details"]["row"], err["details"]["col"]) == where


@pytest.mark.parametrize(
    ("play", "fragment", "where"),
    [
        ({"row": 1, "col": 8, "direction": "across", "word": "QI"}, "already holds K, not Q", (1, 8)),
        ({"row": 13, "col": 12, "direction": "across", "word": "QI"}, "not connected to any tile", (13, 12)),
    ],
)
def test_score_impossible_play_on_a_board_says_why_and_where(
    client: TestClient, play: dict, fragment: str, where: tuple[int, int]
) -> None:
    err = error(client.post("/v1/games/crossplay/score", json={"board": MIDGAME, "move": play}), 422, "illegal_play")
    assert fragment in err["message"]
    assert (err["details"]["row"], err["details"]["col"]) == where


def test_score_direction_must_be_across_or_down(client: TestClient) -> None:
    r = score(client, move={"row": 8, "col": 8, "direction": "sideways", "word": "QI"})
    assert error(r, 422, "invalid_request")["message"].startswith("move.direction: ")


# ----------------------------------------------------------------------------- compare


def test_compare_scores_one_play_under_each_flat_game(client: TestClient) -> None:
    play = {"row": 8, "col": 6, "direction": "across", "word": "QUIXOTE"}
    body = client.post("/v1/compare", json={"move": play}).json()
    results = {x["game"]: x for x in body["results"]}
    assert list(results) == ["crossplay", "scrabble", "wwf"]
    assert results["crossplay"]["score"] == 110
    for x in results.values():
        assert x["valid"] is True and x["breakdown"]["total"] == x["score"] and x["error"] is None
    bonuses = {g: x["breakdown"]["all_tiles_bonus"]["points"] for g, x in results.items()}
    assert bonuses == {"crossplay": 40, "scrabble": 50, "wwf": 35}
    assert body["notation"] == "8F QUIXOTE"


def test_compare_reports_a_board_impossible_in_some_games(client: TestClient) -> None:
    board = list(EMPTY)
    board[7] = "......abc......"  # three blanks: Crossplay has 3, Scrabble and WWF 2
    play = {"row": 9, "col": 7, "direction": "across", "word": "AX"}
    body = client.post("/v1/compare", json={"board": board, "move": play}).json()
    results = {x["game"]: x for x in body["results"]}
    assert results["crossplay"]["score"] is not None and results["crossplay"]["error"] is None
    assert results["scrabble"]["error"]["code"] == "too_many_tiles" and results["scrabble"]["score"] is None


def test_compare_play_impossible_everywhere_is_422(client: TestClient) -> None:
    r = client.post("/v1/compare", json={"move": {"row": 1, "col": 1, "direction": "down", "word": "QI"}})
    assert "start square" in error(r, 422, "illegal_play")["message"]


# ----------------------------------------------------------------------------- end of game


def test_end_of_game_scrabble_player_out_gains_the_others_racks(client: TestClient) -> None:
    body = client.post("/v1/games/scrabble/end", json={"racks": ["", "QZ"]}).json()
    assert body["game"] == "scrabble"
    assert body["adjustments"] == [
        {"rack": "", "rack_value": 0, "adjustment": 20},
        {"rack": "QZ", "rack_value": 20, "adjustment": -20},
    ]


def test_end_of_game_per_game_rules(client: TestClient) -> None:
    cross = client.post("/v1/games/crossplay/end", json={"racks": ["", "QZ"]}).json()
    assert [a["adjustment"] for a in cross["adjustments"]] == [0, 0]
    up = client.post("/v1/games/upwords/end", json={"racks": ["AB", "C"]}).json()
    assert [a["adjustment"] for a in up["adjustments"]] == [-10, -5]


def test_end_of_game_bad_rack_is_422(client: TestClient) -> None:
    assert "rack position 2" in error(client.post("/v1/games/wwf/end", json={"racks": ["A1"]}), 422, "invalid_rack")["message"]
    error(client.post("/v1/games/wwf/end", json={"racks": []}), 422, "invalid_request")


# ----------------------------------------------------------------------------- lexicons


def test_lexicons_lists_names_counts_and_provenance(client: TestClient) -> None:
    body = client.get("/v1/lexicons").json()
    assert body["default"] == "word-list"
    lexicons = {x["name"]: x for x in body["lexicons"]}
    assert set(lexicons) == {"word-list", "tiny"}
    assert lexicons["word-list"]["word_count"] > 200_000 and "word-list 4.1.0" in lexicons["word-list"]["provenance"]
    assert lexicons["word-list"]["default"] is True
    assert lexicons["tiny"]["word_count"] == len(TINY_WORDS) and "tiny.txt" in lexicons["tiny"]["provenance"]


def test_one_lexicon(client: TestClient) -> None:
    assert client.get("/v1/lexicons/tiny").json()["word_count"] == len(TINY_WORDS)
    error(client.get("/v1/lexicons/nope"), 404, "unknown_lexicon")


def test_check_words(client: TestClient) -> None:
    body = client.post("/v1/lexicons/word-list/check", json={"words": ["quixote", "QI", "QXZ", "", "é"]}).json()
    assert body["lexicon"] == "word-list" and body["all_valid"] is False
    assert [(x["word"], x["valid"]) for x in body["results"]] == [
        ("quixote", True), ("QI", True), ("QXZ", False), ("", False), ("é", False),
    ]
    assert client.post("/v1/lexicons/tiny/check", json={"words": ["zax"]}).json()["all_valid"] is True


def test_check_words_errors(client: TestClient) -> None:
    error(client.post("/v1/lexicons/klingon/check", json={"words": ["QI"]}), 404, "unknown_lexicon")
    error(client.post("/v1/lexicons/word-list/check", json={"words": []}), 422, "invalid_request")
    error(client.post("/v1/lexicons/word-list/check", json={"words": ["A"] * 1001}), 422, "invalid_request")


# ----------------------------------------------------------------------------- health, CORS, docs, settings


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["status"] == "ready" and ready["lexicon"] == "word-list" and ready["word_count"] > 200_000
    assert ready["search"] == search.implementation()


def test_readiness_and_metrics_say_which_search_answers(settings: Settings) -> None:
    """An operator can tell the pure-Python reference (34-100x slower, thousands of times with blanks) from the compiled core:
    /readyz says which answers, and so does a gauge, set when the service starts."""
    with search.using("reference"), started(create_app(settings)) as c:
        assert c.get("/readyz").json()["search"] == "reference"
        assert "wordsolver_search_compiled 0.0" in c.get("/metrics").text
    if "compiled" in search.IMPLEMENTATIONS:
        with search.using("compiled"), started(create_app(settings)) as c:
            assert c.get("/readyz").json()["search"] == "compiled"
            assert "wordsolver_search_compiled 1.0" in c.get("/metrics").text


def test_not_ready_before_the_default_lexicon_is_loaded(settings: Settings) -> None:
    c = TestClient(create_app(settings))  # no `with`: the lifespan (which loads it) does not run
    error(c.get("/readyz"), 503, "not_ready")
    assert c.get("/healthz").status_code == 200


def test_default_lexicon_comes_from_settings(user_dir: Path) -> None:
    with started(create_app(Settings(lexicon_dir=user_dir, default_lexicon="tiny"))) as c:
        assert c.get("/readyz").json()["lexicon"] == "tiny"
        assert moves(c, rack="QIZAXT")["lexicon"] == "tiny"


def test_cors_allows_the_configured_origin(client: TestClient) -> None:
    pre = client.options(
        "/v1/games/crossplay/moves",
        headers={"Origin": "https://front.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type"},
    )
    assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "https://front.example"
    other = client.get("/v1/games", headers={"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in other.headers


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WORDSOLVER_PORT", "9123")
    monkeypatch.setenv("WORDSOLVER_WORKERS", "3")
    monkeypatch.setenv("WORDSOLVER_LEXICON_DIR", str(tmp_path))
    monkeypatch.setenv("WORDSOLVER_CORS_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("WORDSOLVER_DEFAULT_LIMIT", "5")
    monkeypatch.setenv("WORDSOLVER_SEARCH_TIMEOUT", "2.5")
    s = Settings()
    assert (s.port, s.workers, s.lexicon_dir, s.default_limit, s.search_timeout) == (9123, 3, tmp_path, 5, 2.5)
    assert s.cors_origin_list() == ["https://a.example", "https://b.example"]


def test_default_limit_setting(user_dir: Path) -> None:
    with started(create_app(Settings(default_limit=4))) as c:
        assert len(moves(c, rack="QUIXOTE")["moves"]) == 4


def test_openapi_docs_are_served(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/v1/games", "/v1/games/{game}", "/v1/games/crossplay/moves", "/v1/games/upwords/score",
            "/v1/games/scrabble/end", "/v1/compare", "/v1/lexicons", "/v1/lexicons/{name}/check", "/healthz", "/readyz"} <= set(spec["paths"])
    assert client.get("/docs").status_code == 200


def test_slow_endpoints_run_in_the_threadpool() -> None:
    # Plain `def` endpoints run in FastAPI's threadpool, so CPU-bound work never blocks the
    # event loop (health checks keep answering during a long solve).
    from app.routers import compare, games, lexicons

    for fn in (games.end_of_game, games.verify_board, compare.compare, lexicons.check_words, lexicons.list_lexicons):
        assert not inspect.iscoroutinefunction(fn), fn.__name__


def test_solving_runs_in_its_lane_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Best plays and scoring (app.deps.solve, app.limits): every search runs in a lane's
    threads, the cheap lane or the expensive one by what it will do (a one-blank /score ranks
    every legal play: cheap, not instant; issue 21). With WORDSOLVER_INLINE_SOLVING, an instant
    search with the compiled core and a loaded lexicon is answered on the event loop instead,
    within ``loop_budget``: past it, again in the cheap lane."""
    import app.limits
    from app.observability import SOLVING as solve_seconds
    from engine.strategy import leaves

    hops: list[str] = []
    real = app.limits.Lane.run

    async def counted(self: app.limits.Lane, fn: Any) -> Any:
        hops.append(self.name)
        return await real(self, fn)

    monkeypatch.setattr(app.limits.Lane, "run", counted)
    monkeypatch.setattr(app.deps.search, "instant", lambda: True)  # as with the compiled core
    board = ["." * 15] * 7 + ["...QUIXOTE....."] + ["." * 15] * 7
    quixote = {"board": board, "rack": "ERST", "limit": 5}
    cheap = [moves(client, "scrabble", **quixote),
             client.post("/v1/games/scrabble/score", json={"board": board, "rack": "ERST", "play": "8D QUIXOTES"}),
             client.post("/v1/games/scrabble/score", json={"board": board, "rack": "ERS?", "play": "8D QUIXOTEs"}),
             moves(client, "scrabble", board=board, rack="ER??")]  # two blanks: instant with the compiled core
    assert hops == ["cheap"] * 4 and cheap[1].status_code == 200 and cheap[2].status_code == 200, cheap[2].text
    expensive = [moves(client, "scrabble", **quixote, count=True), moves(client, "scrabble", board=board, rack="ER??", limit=101),
                 client.post("/v1/games/scrabble/score", json={"board": board, "rack": "E??", "play": "8D QUIXOTEs"})]
    assert hops[4:] == ["expensive"] * 3 and expensive[2].status_code == 200
    settings = client.app.state.settings  # type: ignore[attr-defined]
    monkeypatch.setattr(settings, "inline_solving", True)
    monkeypatch.setattr(settings, "loop_budget", 0.0)  # no budget: where each runs does not hang on the clock
    hops.clear()
    assert moves(client, "scrabble", **quixote) == cheap[0]
    client.post("/v1/games/scrabble/score", json={"board": board, "rack": "ERS?", "play": "8D QUIXOTEs"})
    assert hops == ["cheap"]  # instant on the loop; the one-blank /score still in its lane
    assert moves(client, "scrabble", board=board, rack="ER??") == cheap[3] and hops == ["cheap"]  # two blanks too
    three = moves(client, "crossplay", board=board, rack="E???")
    leaves.shipped("scrabble")  # as app.main's thread does at start (a ranking by equity waits for it)
    equity = moves(client, "scrabble", board=board, rack="ERS?", rank_by="equity")
    assert hops == ["cheap"]  # three blanks (Crossplay's) and by equity with a blank: instant too
    assert moves(client, "scrabble", board=board, rack="ER??", rank_by="equity") and hops == ["cheap"] * 2
    with monkeypatch.context() as m:  # by equity before the worker has loaded the leave values: a lane
        m.setattr(leaves, "_SHIPPED", {})
        assert moves(client, "scrabble", board=board, rack="ERS?", rank_by="equity") == equity
    assert hops == ["cheap"] * 3
    del hops[2:]
    over = app.limits.SOLVED.labels("loop_over_budget")
    before = over._value.get()
    timed = solve_seconds.labels("crossplay", "moves")
    observed = sum(b.get() for b in timed._buckets)
    monkeypatch.setattr(settings, "loop_budget", 1e-9)  # every search runs past it
    assert moves(client, "crossplay", board=board, rack="E???") == three
    assert moves(client, "scrabble", board=board, rack="ERS?", rank_by="equity") == equity
    assert hops == ["cheap"] * 4 and over._value.get() == before + 2  # tried on the loop, answered in the lane
    assert sum(b.get() for b in timed._buckets) == observed + 1  # the try given up is not timed
    monkeypatch.setattr(settings, "loop_budget", 0.0)
    del hops[1:]
    store = client.app.state.store  # type: ignore[attr-defined]
    with monkeypatch.context() as m:
        m.setattr(store, "status", lambda name: ("loading", None))
        assert moves(client, "scrabble", **quixote) == cheap[0]  # the same answer either way
    assert hops == ["cheap"] * 2
    monkeypatch.setattr(app.deps.search, "instant", lambda: False)  # as with the pure-Python reference
    assert moves(client, "scrabble", **quixote) == cheap[0]
    assert hops == ["cheap"] * 3


# ----------------------------------------------------------------------------- Upwords through HTTP

UP_BOARD = ["." * 10] * 4 + ["....CAT..."] + ["." * 10] * 5
UP_HEIGHTS = ["0" * 10] * 4 + ["0000121000"] + ["0" * 10] * 5


def test_upwords_moves_carry_heights_and_flatness(client: TestClient) -> None:
    body = moves(client, "upwords", board=UP_BOARD, heights=UP_HEIGHTS, rack="QUIZEAS", limit=5, count=True)
    assert body["total_moves"] > 0 and len(body["moves"]) == 5
    scores = [m["score"] for m in body["moves"]]
    assert scores == sorted(scores, reverse=True)
    for m in body["moves"]:
        bd = m["breakdown"]
        assert sum(w["score"] for w in bd["words"]) + bd["all_tiles_bonus"]["points"] == bd["total"] == m["score"]
        for w in bd["words"]:
            assert isinstance(w["flat"], bool) and all("height" in x for x in w["letters"])


def test_upwords_score_stacked_play_and_rules_by_name(client: TestClient) -> None:
    # B on the C of CAT (height 1): BAT with stacks 2, 2, 1 = 5
    r = client.post("/v1/games/upwords/score", json={"board": UP_BOARD, "heights": UP_HEIGHTS,
                                                     "move": {"row": 5, "col": 5, "direction": "across", "word": "BAT"}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["valid"] and body["score"] == 5
    assert [x["height"] for x in body["breakdown"]["words"][0]["letters"]] == [2, 2, 1]
    # CATS only pluralises CAT: refused by name, with the square
    r = client.post("/v1/games/upwords/score", json={"board": UP_BOARD, "heights": UP_HEIGHTS,
                                                     "move": {"row": 5, "col": 5, "direction": "across", "word": "CATS"}})
    err = error(r, 422, "illegal_play")
    assert "plural rule" in err["message"] and (err["details"]["row"], err["details"]["col"]) == (5, 8)
    r = client.post("/v1/games/upwords/score", json={"board": UP_BOARD, "heights": UP_HEIGHTS, "plural_rule": False,
                                                     "move": {"row": 5, "col": 5, "direction": "across", "word": "CATS"}})
    assert r.status_code == 200 and r.json()["valid"]


def test_upwords_first_play_must_cover_a_centre_square(client: TestClient) -> None:
    r = client.post("/v1/games/upwords/score", json={"move": {"row": 1, "col": 1, "direction": "across", "word": "CAT"}})
    assert "first play must cover the start square 5E or 5F or 6E or 6F" in error(r, 422, "illegal_play")["message"]


def test_moves_answers_match_the_documented_schema(client: TestClient) -> None:
    """The moves route writes plain data straight to JSON; it must still be a valid MovesOut."""
    from app.schemas import MovesOut

    for game, body in (
        ("crossplay", {"rack": "QUIXOTE", "limit": 5, "count": True}),
        ("scrabble", {"board": MIDGAME, "rack": "ES?", "limit": 30}),
        ("upwords", {"board": UP_BOARD, "heights": UP_HEIGHTS, "rack": "QUIZEAS", "limit": 5}),
    ):
        answer = moves(client, game, **body)
        assert MovesOut.model_validate(answer).model_dump(mode="json", exclude_unset=True) == answer


def test_messages_name_squares_in_the_notation(client: TestClient) -> None:
    """Issue 22 item 9: one coordinate system in every message, the notation's: a word by its
    notation square (8H across, H8 down), a square as row and column letter (8H), never 8,8."""
    board = ["." * 15] * 15
    board[7] = ".......QXZ....."
    down = ["." * 15] * 15
    down[7], down[8], down[9] = ".......Q.......", ".......X.......", ".......Z......."
    for rows, where in ((board, "8H"), (down, "H8")):
        r = client.post("/v1/games/scrabble/verify", json={"board": rows})
        assert r.json()["warnings"][0]["message"] == f"QXZ at {where} is not in lexicon word-list"
    r = client.post("/v1/games/scrabble/score", json={"board": board, "move": {"row": 8, "col": 8, "direction": "down", "word": "AB"}})
    assert error(r, 422, "illegal_play")["message"] == "square 8H already holds Q, not A"
