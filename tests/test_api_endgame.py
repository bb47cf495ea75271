"""POST /v1/games/{game}/endgame through FastAPI's TestClient: answers, budgets, errors."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from conftest import started
from fastapi.testclient import TestClient

from app.main import create_app
from app.routers.endgame import ENDGAME_BOARD, FINAL_ROUND_BOARD
from app.settings import Settings
from engine import default_lexicon
from engine.cgp import CGP, write_cgp
from engine.game import game_rules
from engine.strategy.endgame import endgame_of, solve


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with started(create_app(Settings(endgame_timeout=2.0))) as c:
        yield c


def post(client: TestClient, game: str, **body: object) -> dict:
    r = client.post(f"/v1/games/{game}/endgame", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def error(client: TestClient, game: str, status: int, code: str, **body: object) -> dict:
    r = client.post(f"/v1/games/{game}/endgame", json=body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code, err
    return err


def test_crossplay_final_round_is_proved_and_matches_the_engine(client: TestClient) -> None:
    out = post(client, "crossplay", board=FINAL_ROUND_BOARD, rack="DOORRTY", scores=[442, 490], first_moves=3)
    assert out["proved"] and out["end"] == "final turns"
    assert out["inferred_other_rack"] and out["racks"] == ["DOORRTY", "BLV"]
    assert [s["player"] for s in out["pv"]] == ["you", "opponent"]
    assert out["value"] == out["pv"][0]["score"] - out["pv"][1]["score"]
    assert out["final_scores"] == [442 + out["pv"][0]["score"], 490 + out["pv"][1]["score"]]
    assert out["first_moves"][0]["value"] == out["value"]
    eg, _ = endgame_of(game_rules("crossplay"), FINAL_ROUND_BOARD, "DOORRTY")
    assert solve(eg, default_lexicon()).value == out["value"]


def test_scrabble_endgame_within_its_budget_and_honest(client: TestClient) -> None:
    t0 = time.monotonic()
    out = post(client, "scrabble", board=ENDGAME_BOARD, rack="AEGIIO?", scores=[450, 434], budget=60)
    assert time.monotonic() - t0 < 2.0 + 1.5  # the setting caps the budget at 2 s
    assert out["racks"] == ["AEGIIO?", "DEIR"]
    assert out["best"] == out["pv"][0]
    if out["proved"]:
        assert out["end"] in ("out", "passes") and out["final_scores"] is not None
        assert out["final_scores"][0] - out["final_scores"][1] == 450 - 434 + out["value"]
    assert [d["depth"] for d in out["iterations"]] == list(range(1, len(out["iterations"]) + 1))


def test_a_forced_first_move_and_the_pass(client: TestClient) -> None:
    best = post(client, "crossplay", board=FINAL_ROUND_BOARD, rack="DOORRTY")
    forced = post(client, "crossplay", board=FINAL_ROUND_BOARD, rack="DOORRTY", first="pass")
    assert forced["pv"][0]["notation"] == "pass" and forced["pv"][0]["tiles"] == []
    assert forced["value"] <= best["value"]
    error(client, "crossplay", 422, "illegal_play", board=FINAL_ROUND_BOARD, rack="DOORRTY", first="8H ZZZZ")


def test_cgp_gives_both_racks_and_scores(client: TestClient) -> None:
    line = write_cgp(CGP(tuple(FINAL_ROUND_BOARD), ("DOORRTY", "BLV"), (442, 490), 0, ()))
    by_cgp = post(client, "crossplay", cgp=line)
    by_fields = post(client, "crossplay", board=FINAL_ROUND_BOARD, rack="DOORRTY", other_rack="BLV",
                     scores=[442, 490])
    assert by_cgp["value"] == by_fields["value"] and by_cgp["final_scores"] == by_fields["final_scores"]
    assert not by_cgp["inferred_other_rack"]


def test_errors_in_the_envelope(client: TestClient) -> None:
    err = error(client, "scrabble", 422, "illegal_play", rack="AEINRST")  # empty board: the bag is full
    assert "bag" in err["message"]
    error(client, "scrabble", 422, "too_many_tiles", board=ENDGAME_BOARD, rack="AEGIIO?", other_rack="ZZ")
    err = error(client, "scrabble", 422, "illegal_play", board=ENDGAME_BOARD, rack="AEGIIO?", other_rack="DE")
    assert "2 tiles in the bag" in err["message"]
    error(client, "scrabble", 422, "illegal_play", board=ENDGAME_BOARD, rack="AEGIIO?", scoreless=6)
    error(client, "crossplay", 422, "invalid_request", board=FINAL_ROUND_BOARD, rack="DOORRTY", final_turns_left=3)
    error(client, "chess", 404, "unknown_game", board=FINAL_ROUND_BOARD, rack="DOORRTY")


def test_documented_in_openapi(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    op = doc["paths"]["/v1/games/scrabble/endgame"]["post"]
    assert op["operationId"] == "solveEndgameScrabble"
    assert {"200", "422", "503"} <= set(op["responses"])


def test_cli_prints_a_line_per_depth_and_the_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from app.cli import main

    board = tmp_path / "board.txt"
    board.write_text("\n".join(FINAL_ROUND_BOARD) + "\n")
    assert main(["endgame", "--board", str(board), "--rack", "DOORRTY", "--scores", "442,490"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("depth  1: value +2")
    assert "1. you" in out and "2. opponent" in out and "ends: final turns" in out and "proved" in out
    assert main(["endgame", "--board", str(board), "--rack", "DOORRTY", "--first", "8H ZZZZ"]) == 2


# Crossplay, seed 1 (greedy self-play), with one tile in the bag: 8 tiles unseen.
PRE_BOARD = [
    "......OYE......", "......KIF......", "......EE....V..", ".......L...QI..", ".......D...UG..",
    "...HELPS..JA...", ".VIOLa....US...", "A....ZAG..TI...", "DORADO.E..T....", "D..HES.B..I....",
    "AW.....U.BE....", "XI.INTHRALS....", ".P..YAM..I.....", ".e....MOONER...", "GRATE.....NEWT.",
]


def test_preendgame_every_move_against_every_draw(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/preendgame",
                    json={"board": PRE_BOARD, "rack": "AEOOST?", "scores": [300, 300], "candidates": 8, "limit": 5})
    assert r.status_code == 200, r.text
    out = r.json()
    assert sum(out["draws"].values()) == 8 and out["candidates"]  # proved or not: the 2 s the settings allow
    best = out["candidates"][0]
    assert set(best["by_draw"]) == set(out["draws"])
    assert abs(best["expected"] - sum(out["draws"][ch] * v for ch, v in best["by_draw"].items()) / 8) < 1e-3
    wins = [c["wins"] for c in out["candidates"]]
    assert wins == sorted(wins, reverse=True)
    r = client.post("/v1/games/crossplay/preendgame", json={"board": FINAL_ROUND_BOARD, "rack": "DOORRTY"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_play"


def test_crossplay_final_round_is_proved_whatever_the_budget(client: TestClient) -> None:
    out = post(client, "crossplay", board=FINAL_ROUND_BOARD, rack="DOORRTY", budget=0.001)
    assert out["proved"] and out["value"] == 2
