"""What front ends and client generators rely on: the OpenAPI document, play notation,
"what did I miss", board findings, compact and compressed answers, and HTTP niceties."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import started
from fastapi.testclient import TestClient
from pydantic import BaseModel

from app.main import create_app
from app.schemas import CompareOut, ErrorCode, MovesOut, ScoreOut, VerifyOut
from app.settings import Settings
from engine import GAMES, EngineError, IllegalPlayError, parse_notation
from engine import errors as engine_errors

MIDGAME = [
    ".......K.......", ".......U.......", "....G.WE.......", "....A.AH.......",
    "....R.V........", "....D.e........", "....A.R........", "..PINDER.......",
    "....T.R........", "....S.ST.......", ".......E.......", ".......P.......",
    ".......E.......", ".......F.......", ".STOUTLY.......",
]
EMPTY = ["." * 15] * 15


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with started(create_app(Settings(cors_origins="http://localhost:5173"))) as c:
        yield c


def conforms(model: type[BaseModel], answer: dict[str, Any]) -> None:
    """The plain-data answer is exactly what its documented model describes."""
    assert model.model_validate(answer).model_dump(mode="json", exclude_unset=True) == answer


# ----------------------------------------------------------------------------- notation


@pytest.mark.parametrize(("text", "expected"), [
    ("8F QUIXOTE", (8, 6, "across", "QUIXOTE")),
    ("H6 QUIXOTE", (6, 8, "down", "QUIXOTE")),
    ("h6 quixOTE", (6, 8, "down", "quixOTE")),
    ("15A QUI(X)OTE", (15, 1, "across", "QUIXOTE")),
    ("  1H  KAISERiN ", (1, 8, "across", "KAISERiN")),
])
def test_notation_parses_both_directions(text: str, expected: tuple) -> None:
    n = parse_notation(text)
    assert (n.row, n.col, n.direction, n.word) == expected


@pytest.mark.parametrize("text", ["8F", "QUIXOTE", "8 QUIXOTE", "FF QUIXOTE", "16A QI", "A16 QI", "8F QI9", "8F Q(I"])
def test_bad_notation_says_what_is_wrong(text: str) -> None:
    with pytest.raises(IllegalPlayError) as info:
        parse_notation(text)
    assert info.value.details["field"] == "play"


def test_score_accepts_notation_and_lists_better_plays(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/score", json={"rack": "QUIXOTE", "play": "8C QUIXOTE"})
    assert r.status_code == 200, r.text
    body = r.json()
    conforms(ScoreOut, body)
    assert body["notation"] == "8C QUIXOTE" and body["score"] == 104 and body["rank"] == 3
    assert body["best_score"] == 110 and body["points_missed"] == 6
    assert [(b["notation"], b["score"]) for b in body["better_plays"]] == [("8F QUIXOTE", 110), ("H6 QUIXOTE", 110)]
    best = client.post("/v1/games/crossplay/score", json={"rack": "QUIXOTE", "play": "H6 QUIXOTE"}).json()
    assert best["rank"] == 2 and best["points_missed"] == 0
    assert [b["notation"] for b in best["better_plays"]] == ["8F QUIXOTE"]  # a tie ranked before it
    top = client.post("/v1/games/crossplay/score", json={"rack": "QUIXOTE", "play": "8F QUIXOTE", "better": 3}).json()
    assert top["rank"] == 1 and top["better_plays"] == []


def test_score_notation_and_fields_give_the_same_answer(client: TestClient) -> None:
    a = client.post("/v1/games/crossplay/score", json={"board": MIDGAME, "rack": "AEINRS?", "play": "1H KAISERiN"}).json()
    b = client.post("/v1/games/crossplay/score", json={"board": MIDGAME, "rack": "AEINRS?",
                                                       "move": {"row": 1, "col": 8, "direction": "across", "word": "KAISERiN"}}).json()
    assert a == b and a["valid"]


def test_score_wants_exactly_one_of_move_and_play(client: TestClient) -> None:
    for body in ({"rack": "QI"}, {"play": "8H QI", "move": {"row": 8, "col": 8, "direction": "across", "word": "QI"}}):
        r = client.post("/v1/games/crossplay/score", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
        assert "either as 'move'" in r.json()["error"]["message"]
    r = client.post("/v1/games/crossplay/score", json={"play": "8Z QI"})
    assert r.status_code == 422 and r.json()["error"]["details"]["field"] == "play"


def test_compare_accepts_notation(client: TestClient) -> None:
    body = client.post("/v1/compare", json={"play": "8F QUIXOTE"}).json()
    conforms(CompareOut, body)
    assert [e["score"] for e in body["results"]] == [110, 98, 83]


# ----------------------------------------------------------------------------- board findings


def test_verify_reports_stray_tiles_empty_start_and_unknown_words(client: TestClient) -> None:
    ok = client.post("/v1/games/crossplay/verify", json={"board": MIDGAME}).json()
    conforms(VerifyOut, ok)
    assert ok["ok"] and ok["warnings"] == []
    board = list(MIDGAME)
    board[13] = "A" + board[13][1:]  # a stray A at 14,1
    board[4] = "....R.V...QXZ.."  # QXZ: stray and unknown
    body = client.post("/v1/games/crossplay/verify", json={"board": board}).json()
    conforms(VerifyOut, body)
    codes = {w["code"]: w for w in body["warnings"]}
    assert not body["ok"]
    assert codes["disconnected_tiles"]["squares"] == [[5, 11], [5, 12], [5, 13], [14, 1]]
    assert codes["unknown_word"]["word"] == "QXZ" and codes["unknown_word"]["squares"] == [[5, 11], [5, 12], [5, 13]]
    off_start = ["." * 15] * 2 + ["..CAT.........."] + ["." * 15] * 12
    body = client.post("/v1/games/crossplay/verify", json={"board": off_start}).json()
    assert [w["code"] for w in body["warnings"]] == ["empty_start"] and body["warnings"][0]["squares"] == [[8, 8]]


def test_solving_answers_carry_warnings_but_still_solve(client: TestClient) -> None:
    board = list(EMPTY)
    board[2] = "..CAT.........."
    body = client.post("/v1/games/crossplay/moves", json={"board": board, "rack": "S", "limit": 3}).json()
    conforms(MovesOut, body)
    assert body["moves"] and [w["code"] for w in body["warnings"]] == ["empty_start"]
    body = client.post("/v1/games/crossplay/score", json={"board": board, "play": "3C CATS"}).json()
    assert body["score"] == 6 and body["warnings"][0]["code"] == "empty_start"


# ----------------------------------------------------------------------------- compact, compressed, tidy


def test_breakdowns_false_gives_a_compact_list(client: TestClient) -> None:
    full = client.post("/v1/games/crossplay/moves", json={"rack": "QUIXOTE", "limit": 5}).json()
    compact = client.post("/v1/games/crossplay/moves", json={"rack": "QUIXOTE", "limit": 5, "breakdowns": False}).json()
    conforms(MovesOut, compact)
    assert all("breakdown" not in m for m in compact["moves"])
    assert [{k: v for k, v in m.items() if k != "breakdown"} for m in full["moves"]] == compact["moves"]


def test_large_answers_are_gzipped_when_the_client_accepts_it(client: TestClient) -> None:
    body = {"board": MIDGAME, "rack": "AEINRS?", "limit": 1000}
    r = client.post("/v1/games/crossplay/moves", json=body, headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    raw = client.post("/v1/games/crossplay/moves", json=body, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    assert int(r.headers["content-length"]) * 5 < len(raw.content)
    assert r.json() == raw.json()  # httpx decodes it
    assert json.loads(gzip.decompress(gzip.compress(raw.content))) == raw.json()
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/v1/games", None),
    ("GET", "/healthz", None),
    ("POST", "/v1/games/crossplay/moves", {"rack": "QI"}),
    ("POST", "/v1/games/crossplay/score", {"play": "8H QI"}),
    ("POST", "/v1/games/crossplay/moves", {"rack": "QUIXOTES"}),
    ("GET", "/v1/nothing", None),
    ("GET", "/openapi.json", None),
])
def test_every_json_body_ends_with_a_newline(client: TestClient, method: str, path: str, body: Any) -> None:
    r = client.request(method, path, json=body)
    assert r.headers["content-type"].startswith("application/json")
    assert r.content.endswith(b"\n") and not r.content.endswith(b"\n\n")


def test_game_names_are_case_insensitive(client: TestClient) -> None:
    r = client.post("/v1/games/CrossPlay/moves", json={"rack": "QUIXOTE", "limit": 1})
    assert r.status_code == 200 and r.json()["game"] == "crossplay"
    assert client.get("/v1/games/UPWORDS").json()["name"] == "upwords"


def test_a_trailing_slash_is_answered_like_the_path_without_it(client: TestClient) -> None:
    r = client.get("/v1/games/", follow_redirects=False)
    assert r.status_code == 200 and r.json() == client.get("/v1/games").json()
    r = client.post("/v1/games/crossplay/moves/", json={"rack": "QI", "limit": 1}, follow_redirects=False)
    assert r.status_code == 200 and r.json()["moves"][0]["word"] == "QI"
    assert client.get("/v1/nothing/").json()["error"]["code"] == "not_found"


def test_refused_cors_preflight_uses_the_error_envelope(client: TestClient) -> None:
    ok = client.options("/v1/games/crossplay/moves", headers={
        "Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert ok.status_code == 200 and ok.headers["access-control-allow-origin"] == "http://localhost:5173"
    bad = client.options("/v1/games/crossplay/moves", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert bad.status_code == 400
    err = bad.json()["error"]
    assert err["code"] == "cors_refused" and err["details"]["origin"] == "http://evil.example"
    assert "WORDSOLVER_CORS_ORIGINS" in err["message"]


# ----------------------------------------------------------------------------- OpenAPI for generators


@pytest.fixture(scope="module")
def spec(client: TestClient) -> dict[str, Any]:
    return client.get("/openapi.json").json()


def test_operations_have_readable_ids(spec: dict[str, Any]) -> None:
    ids = {op["operationId"] for path in spec["paths"].values() for op in path.values()}
    assert {"listGames", "getGame", "comparePlay", "listLexicons", "getLexicon", "checkWords", "getHealth",
            "getReadiness", "analyzeGame"} <= ids
    # one operation per game where the body depends on the game (app/openapi_games.py)
    for op in ("findMoves", "scorePlay", "endOfGame", "verifyBoard", "unseenTiles", "convertCgp", "solveEndgame"):
        assert {op + g.capitalize() for g in GAMES} <= ids, op
    assert {"simulateCrossplay", "simulateScrabble", "simulateWwf"} <= ids and "simulateUpwords" not in ids


def test_no_response_is_left_untyped(spec: dict[str, Any]) -> None:
    """Every property of every response schema has a type (no free-form 'unknown')."""
    schemas = spec["components"]["schemas"]
    untyped = []

    def typed(s: dict[str, Any]) -> bool:
        return any(k in s for k in ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"))

    for name, schema in schemas.items():
        for prop, s in schema.get("properties", {}).items():
            if not typed(s) or (s.get("type") == "object" and "properties" not in s and "additionalProperties" not in s):
                untyped.append(f"{name}.{prop}")
    assert untyped == []
    move = schemas.get("MoveOut") or schemas["MoveOut-Output"]
    assert "BreakdownOut" in json.dumps(move["properties"]["breakdown"])
    letter = schemas.get("LetterOut") or schemas["LetterOut-Output"]
    assert "Upwords" in letter["properties"]["height"]["description"]


def test_game_names_and_error_codes_are_enums(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    assert schemas["ErrorCode"]["enum"] == [c.value for c in ErrorCode]
    get = spec["paths"]["/v1/games/{game}"]["get"]
    game = next(p for p in get["parameters"] if p["name"] == "game")
    assert game["schema"]["enum"] == ["crossplay", "scrabble", "wwf", "upwords"]


def test_every_engine_error_code_is_in_the_enum() -> None:
    def subclasses(c: type) -> list[type]:
        return [c] + [s for sub in c.__subclasses__() for s in subclasses(sub)]

    codes = {cls.code for cls in subclasses(EngineError) if cls is not EngineError}
    assert codes <= {c.value for c in ErrorCode}
    assert engine_errors.TimeBudgetExceeded.code in {c.value for c in ErrorCode}


def test_operations_document_the_errors_they_send(spec: dict[str, Any]) -> None:
    for path, item in spec["paths"].items():
        for method, op in item.items():
            responses = op["responses"]
            for status, resp in responses.items():
                if status.startswith(("4", "5")):
                    assert resp["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut"), (path, status)
            if method == "post" and path.startswith("/v1/"):
                assert {"400", "413", "415", "422"} <= set(responses), path
            if "{game}" in path:
                assert "404" in responses, path
    assert "HTTPValidationError" not in json.dumps(spec)
    assert "503" in spec["paths"]["/v1/games/crossplay/moves"]["post"]["responses"]


def test_readme_requests_are_examples_and_valid(client: TestClient, spec: dict[str, Any]) -> None:
    """Every request example is answered 200 on the path it is listed under (each game's path
    lists the examples for that game)."""
    for op in ("moves", "score", "end", "verify", "unseen", "endgame"):
        assert any(spec["paths"][f"/v1/games/{g}/{op}"]["post"]["requestBody"]["content"]["application/json"]
                   .get("examples") for g in GAMES), op
    for path, item in spec["paths"].items():
        content = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json", {})
        for name, ex in content.get("examples", {}).items():
            if path.endswith(("/simulate", "/endgame", "/analyze")):
                continue  # long searches: their own tests run their examples
            url = path.replace("{game}", "crossplay").replace("{name}", "word-list")
            r = client.post(url, json=ex["value"])
            assert r.status_code == 200, (path, name, r.text)


# ----------------------------------------------------------------------------- strict requests


@pytest.mark.parametrize(("body", "field"), [
    ({"rack": "QI", "limit": "5"}, "limit"),
    ({"rack": "QI", "limit": True}, "limit"),
    ({"rack": "QI", "limit": 5.0}, "limit"),
    ({"rack": "QI", "premiums": "no"}, "premiums"),
    ({"rack": "QI", "count": 1}, "count"),
    ({"rack": 5}, "rack"),
    ({"rack": "QI", "filters": {"square": ["8", "8"]}}, "filters.square[0]"),
    ({"rack": "QI", "filters": {"square": [8]}}, "filters.square"),
])
def test_values_are_taken_as_sent_without_coercion(client: TestClient, body: dict[str, Any], field: str) -> None:
    r = client.post("/v1/games/crossplay/moves", json=body)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["code"] == "invalid_request" and err["details"]["errors"][0]["field"] == field


def test_duplicate_keys_are_refused(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", content=b'{"rack": "QI", "limit": 1, "rack": "ZA"}',
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"]["details"]["field"] == "rack" and "more than once" in r.json()["error"]["message"]
    nested = client.post("/v1/games/crossplay/moves", content=b'{"rack": "QI", "filters": {"no_blanks": true, "no_blanks": false}}',
                         headers={"Content-Type": "application/json"})
    assert nested.status_code == 422 and nested.json()["error"]["details"]["field"] == "no_blanks"


def test_a_compressed_body_is_refused_by_name(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", content=gzip.compress(b'{"rack": "QI"}'),
                    headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert r.status_code == 415 and "uncompressed" in r.json()["error"]["message"]


def test_echoed_names_are_capped(client: TestClient) -> None:
    long = "x" * 5000
    for path in (f"/v1/games/{long}", f"/v1/lexicons/{long}", f"/v1/{long}"):
        r = client.get(path)
        assert 400 <= r.status_code < 500 and len(r.content) < 1500, (path, len(r.content))
