"""Unseen tiles: the engine function and POST /v1/games/{game}/unseen."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app import cli
from app.main import create_app
from app.schemas import UnseenOut
from app.settings import Settings
from engine import get_ruleset, position, unseen_tiles

MIDGAME = [
    ".......K.......", ".......U.......", "....G.WE.......", "....A.AH.......", "....R.V........",
    "....D.e........", "....A.R........", "..PINDER.......", "....T.R........", "....S.ST.......",
    ".......E.......", ".......P.......", ".......E.......", ".......F.......", ".STOUTLY.......",
]
UPWORDS_BOARD = ["." * 10] * 4 + ["....CAT..."] + ["." * 10] * 5
UPWORDS_HEIGHTS = ["0" * 10] * 4 + ["0000121000"] + ["0" * 10] * 5


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as c:
        yield c


def test_empty_board_and_rack_leave_every_tile_unseen() -> None:
    for game in ("crossplay", "scrabble", "wwf", "upwords"):
        rules = get_ruleset(game)
        u = unseen_tiles(position(rules, None, ""))
        assert u.total == rules.total_tiles == sum(u.counts.values())
        assert u.blanks == rules.blanks and u.buried == 0
        assert u.vowels + u.consonants + u.blanks == u.total


def test_rack_and_board_tiles_are_subtracted_blanks_as_blanks() -> None:
    rules = get_ruleset("crossplay")
    u = unseen_tiles(position(rules, MIDGAME, "AEINRS?"))
    on_board = sum(ch != "." for row in MIDGAME for ch in row)  # 36 tiles, one a blank
    assert u.total == 100 - on_board - 7
    assert u.blanks == 3 - 1 - 1  # the lowercase e at 6,7 and the rack's ?
    # E: 12 in Crossplay; on the board E x6 as real tiles (the blank e does not count), 1 on the rack
    real_e = sum(row.count("E") for row in MIDGAME)
    assert u.counts["E"] == rules.counts[5] - real_e - 1
    assert u.counts["K"] == 0  # Crossplay has one K, on the board
    assert u.vowels == sum(u.counts[v] for v in "AEIOU")
    assert sum(u.counts.values()) == u.total


def test_upwords_counts_visible_tops_and_reports_buried_tiles() -> None:
    rules = get_ruleset("upwords")
    u = unseen_tiles(position(rules, UPWORDS_BOARD, "QUIZEAS", UPWORDS_HEIGHTS))
    assert u.buried == 1  # the A sits on one tile of unknown letter
    assert u.total == 100 - 4 - 7  # four tiles in stacks, seven on the rack
    assert sum(u.counts.values()) == u.total + u.buried  # per-letter counts are upper bounds
    assert u.counts["A"] == rules.counts[1] - 1 - 1
    assert u.counts["Q"] == 0


def test_endpoint(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/unseen", json={"board": MIDGAME, "rack": "AEINRS?"})
    assert r.status_code == 200, r.text
    body = r.json()
    UnseenOut.model_validate(body)
    assert set(body) == {"game", "unseen", "total", "vowels", "consonants", "blanks", "buried"}
    assert list(body["unseen"]) == [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "?"]
    assert body["total"] == 100 - 36 - 7 and body["blanks"] == 1 and body["unseen"]["K"] == 0

    r = client.post("/v1/games/upwords/unseen",
                    json={"board": UPWORDS_BOARD, "heights": UPWORDS_HEIGHTS, "rack": "QUIZEAS"})
    assert r.status_code == 200, r.text
    assert r.json()["buried"] == 1 and r.json()["total"] == 89

    r = client.post("/v1/games/crossplay/unseen", json={})
    assert r.status_code == 200 and r.json()["total"] == 100


@pytest.mark.parametrize(
    ("game", "body", "status", "code", "details"),
    [
        ("crossplay", {"rack": "QUIXOTES"}, 422, "invalid_rack", {"length": 8}),
        ("crossplay", {"rack": "QQ"}, 422, "too_many_tiles", {"letter": "Q"}),
        ("crossplay", {"board": ["." * 15] * 14}, 422, "invalid_board", {"rows": 14}),
        ("crossplay", {"board": ["." * 15] * 7 + ["......#........"] + ["." * 15] * 7}, 422, "invalid_board",
         {"row": 8, "col": 7}),
        ("upwords", {"board": UPWORDS_BOARD, "heights": ["0" * 10] * 10}, 422, "invalid_board", {"row": 5, "col": 5}),
        ("scrabble", {"heights": ["0" * 15] * 15}, 422, "invalid_board", {"field": "heights"}),
        ("crossplay", {"rack": "A", "limit": 3}, 422, "invalid_request", {}),
        ("chess", {}, 404, "unknown_game", {"game": "chess"}),
    ],
)
def test_endpoint_errors(client: TestClient, game: str, body: dict, status: int, code: str, details: dict) -> None:
    r = client.post(f"/v1/games/{game}/unseen", json=body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code
    for k, v in details.items():
        assert err["details"][k] == v, err


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["unseen", "--game", "crossplay", "--rack", "QUIXOTE"]) == 0
    tiles, summary = capsys.readouterr().out.splitlines()
    assert tiles.startswith("AAAAAAAAA BB CC DDDD ") and tiles.endswith(" YY Z ???") and " Q" not in tiles
    assert summary == "93 tiles unseen: 36 vowels, 54 consonants, 3 blanks"
    board, heights = tmp_path / "board.txt", tmp_path / "heights.txt"
    board.write_text("\n".join(UPWORDS_BOARD) + "\n")
    heights.write_text("\n".join(UPWORDS_HEIGHTS) + "\n")
    argv = ["unseen", "--game", "upwords", "--board", str(board), "--heights", str(heights), "--rack", "QUIZEAS"]
    assert cli.main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["buried"] == 1
    assert cli.main(argv) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "89 tiles unseen: 29 vowels, 61 consonants; 1 buried under stacks (letters unknown, so counts per letter are at most)"
    )
    assert cli.main(["unseen", "--rack", "QQ"]) == 2
    assert "crossplay has only 1" in capsys.readouterr().err
