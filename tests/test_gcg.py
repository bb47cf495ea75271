"""GCG records in and out, and grading a whole game (hand-made fixtures, not real records)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import cli
from app.main import create_app
from app.settings import Settings
from engine.analyze import grade, table
from engine.errors import GameRecordError
from engine.game import BONUS, END, EXCHANGE, PASS, PENALTY, PLAY, WITHDRAWN, game_rules, replay
from engine.gcg import decode, parse_gcg, read_gcg, write_gcg

# Scores and words made with the engine's scorer and the default lexicon; every line type.
GAME = """\
#character-encoding UTF-8
#player1 ann Ann Example
#player2 bob Bob Example
#title a hand-made test game
#lexicon word-list
>ann: AEINRST 8B ANESTRI +66 66
#note an opening bingo
that goes on over two lines
>bob: DGOOXYZ 9A OXY +35 35
>ann: ?EHLLOW D1 WELLHOl. +84 150
>bob: BCEIKTU 3C B.UETICK +90 125
>ann: ADEIRSS 8B .......S +8 158
>ann: ADEIRSS -- -8 150
>bob: AEGINOR 7H ORIGANE +62 187
>bob: DEEINOT (challenge) +5 192
>ann: ADEIRSS -SS +0 150
>bob: EIRSTUV O2 REVUIST +101 293
>ann: ADEIRSS M2 SARDI.ES +70 220
>bob: ACFLNPT - +0 293
>ann: -3 +0 220
>bob: ACFLNPT (time) -10 283
>ann: (ACFLNPT) +28 248
"""
SCRABBLE = game_rules("scrabble")


def test_every_line_type_is_read() -> None:
    rec = parse_gcg(GAME)
    assert rec.nicks == ["ann", "bob"] and rec.names == ["Ann Example", "Bob Example"]
    assert rec.lexicon == "word-list" and rec.pragmas["title"] == "a hand-made test game"
    kinds = [e.kind for e in rec.entries]
    assert kinds == [PLAY, PLAY, PLAY, PLAY, PLAY, WITHDRAWN, PLAY, BONUS, EXCHANGE, PLAY, PLAY, PASS,
                     EXCHANGE, PENALTY, END]
    assert rec.notes[0] == "an opening bingo\nthat goes on over two lines"
    assert rec.entries[8].tiles == "SS" and rec.entries[12].count == 3 and rec.entries[12].rack is None
    assert rec.entries[14].tiles == "ACFLNPT" and rec.entries[14].rack == ""


def test_record_to_game_and_back() -> None:
    imported = read_gcg(GAME, SCRABBLE)
    game = imported.game
    assert game.final_scores() == [248, 283]
    phony = game.turns[4]
    assert phony.kind == WITHDRAWN and phony.score == 0 and phony.move is not None
    assert phony.move.word == "ANESTRIS"
    down = game.turns[2].move
    assert down is not None and down.direction == "down" and (down.row, down.col) == (1, 4)
    assert [t.tiles for t in game.turns if t.kind == END] == ["", ""]  # bob has no end line: nothing kept
    again = read_gcg(write_gcg(game), SCRABBLE).game
    assert again.turns == game.turns and again.final_scores() == [248, 283]


def test_grade_every_turn(lex) -> None:  # type: ignore[no-untyped-def]
    result = grade(read_gcg(GAME, SCRABBLE), lex)
    assert result.scores_agree and result.first_difference is None
    assert [p.rescored for p in result.players] == [248, 283]
    first = result.turns[0]
    assert (first.rank, first.points_left, first.valid) == (1, 0, True)
    assert first.best[0].play == "8B ANESTRI" and first.best[0].score == 66
    phony = result.turns[4]
    assert phony.kind == WITHDRAWN and phony.valid is False and phony.invalid_words == ("ANESTRIS",)
    assert phony.recorded_score == 8 and phony.points_left == phony.best[0].score
    assert result.turns[9].play == "pass" and result.turns[9].points_left == result.turns[9].best[0].score
    unknown = result.turns[10]
    assert unknown.rack is None and unknown.rank is None and not unknown.best
    assert "first difference" not in table(result)


def test_first_differing_line_is_named(lex) -> None:  # type: ignore[no-untyped-def]
    wrong = GAME.replace(">bob: BCEIKTU 3C B.UETICK +90 125", ">bob: BCEIKTU 3C B.UETICK +92 127")
    wrong = wrong.replace("+62 187", "+62 189").replace("+5 192", "+5 194").replace("+101 293", "+101 295")
    wrong = wrong.replace("- +0 293", "- +0 295").replace("-10 283", "-10 285")
    result = grade(read_gcg(wrong, SCRABBLE), lex)
    assert not result.scores_agree
    d = result.first_difference
    assert d is not None and (d.line, d.turn, d.recorded, d.rescored) == (11, 4, 127, 125)
    assert result.turns[3].recorded_score == 92 and result.turns[3].score == 90


def test_arithmetic_slip_in_a_cumulative_score_is_found(lex) -> None:  # type: ignore[no-untyped-def]
    result = grade(read_gcg(GAME.replace("+35 35", "+35 36"), SCRABBLE), lex)
    assert result.first_difference is not None and result.first_difference.line == 9


def test_end_lines_both_conventions(lex) -> None:  # type: ignore[no-untyped-def]
    box = GAME.replace(">ann: (ACFLNPT) +28 248", ">ann: (ACFLNPT) +14 234\n>bob: ACFLNPT (ACFLNPT) -14 269")
    result = grade(read_gcg(box, SCRABBLE), lex)
    assert result.scores_agree, result.first_difference
    bad = GAME.replace(">ann: (ACFLNPT) +28 248", ">ann: (ACFLNPT) +20 240")
    result = grade(read_gcg(bad, SCRABBLE), lex)
    assert result.first_difference is not None and result.first_difference.rescored == 248


@pytest.mark.parametrize("name", ["scrabble", "upwords"])
def test_each_graded_turn_gives_the_board_before_it(lex, name: str) -> None:  # type: ignore[no-untyped-def]
    from engine.board import format_board
    from engine.strategy.players import GreedyPlayer
    from engine.strategy.selfplay import play_game

    rules = game_rules(name)
    game = play_game(rules, lex, [GreedyPlayer(), GreedyPlayer()], seed=3)
    states = replay(game)
    graded = grade(read_gcg(write_gcg(game), rules), lex, best=0)
    turns = [k for k, t in enumerate(game.turns) if t.uses_turn]
    assert len(graded.turns) == len(turns) > 5
    n = rules.ruleset.size
    for k, g in zip(turns, graded.turns, strict=True):
        before = states[k]
        assert list(g.board) == format_board(rules.ruleset, list(before.cells))
        if name == "upwords":
            assert before.heights is not None and g.heights is not None
            assert [int(ch) for row in g.heights for ch in row] == list(before.heights)
        else:
            assert g.heights is None
        after = states[k + 1].cells
        if game.turns[k].kind == PLAY:
            assert {((t.row - 1) * n + t.col - 1) for t in g.tiles} == {i for i in range(n * n) if after[i] != before.cells[i]}
        else:
            assert g.tiles == ()


def test_grade_cut_short_by_the_time_budget(lex) -> None:  # type: ignore[no-untyped-def]
    import time

    result = grade(read_gcg(GAME, SCRABBLE), lex, deadline=time.monotonic() - 1)
    searched = [t for t in result.turns if t.rack]
    assert result.cut_short == len(searched) and all(t.cut_short and t.rank is None for t in searched)
    assert result.scores_agree  # re-scoring does not need the search


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("#player1 a A\n#player2 b B\n>a: AB 8D\n", 3, "not a number"),
        ("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS 66 66\n", 3, "signed"),
        ("#player1 a A\n#player2 b B\n>a: AEINRST Z99 RETAINS +66 66\n", 3, "not a square"),
        ("#player1 a A\n#player2 b B\n>a: AE1NRST 8D RETAINS +66 66\n", 3, "not a tile"),
        ("#player1 a A\n#player2 b B\n>c: AEINRST 8D RETAINS +66 66\n", 3, "not one of"),
        ("#player1 a A\n#player2 b B\nhello\n", 3, "must start with"),
        ("#player1 a A\n#player2 b B\n>a AEINRST 8D RETAINS +66 66\n", 3, "'>nick: ...'"),
        ("#player1 a A\n#player2 b B\n>a: AEINRST 8D RET-AINS +66 66\n", 3, "only letters"),
        ("#player1 a A\n#player2 b B\n>a: AEINRST 8A RETAINS +66 66\n", 3, "start square"),
        ("#player1 a A\n#player2 b B\n>a: AEINRST 8J RETAINS +66 66\n", 3, "runs off"),
        ("#player1 a A\n#player2 b B\n>a: AEINRSX 8D RETAINS +66 66\n", 3, "does not hold"),
        ("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n>b: ABC -- -66 0\n", 4, "not a play"),
        ("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n>a: ABC 8D ..TOO +1 1\n", 4, "holds another"),
    ],
)
def test_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(GameRecordError, match=words) as err:
        read_gcg(text, SCRABBLE)
    assert err.value.details["line"] == line and f"line {line}" in err.value.message


def test_played_through_letters_may_be_spelled_and_positions_lowercase() -> None:
    spelled = GAME.replace("3C B.UETICK", "3c BLUETICK").replace("M2 SARDI.ES", "M2 SARDINES")
    assert read_gcg(spelled, SCRABBLE).game.turns == read_gcg(GAME, SCRABBLE).game.turns


def test_iso_8859_1_names_and_rack_pragmas() -> None:
    data = "#player1 ren\xe9 Ren\xe9\n#player2 b B\n>ren\xe9: AEINRST 8D RETAINS +66 66\n#rack2 ABCDEFG\n".encode("iso-8859-1")
    rec = parse_gcg(decode(data))
    assert rec.nicks[0] == "ren\xe9" and rec.final_racks == {1: "ABCDEFG"}
    assert decode("\ufeff#player1 a A\n".encode()) == "#player1 a A\n"


def test_players_named_only_by_their_lines() -> None:
    game = read_gcg(">x: AEINRST 8D RETAINS +66 66\n>y: ABC - +0 0\n", SCRABBLE).game
    assert game.names == ("x", "y") and [t.player for t in game.turns] == [0, 1]


def test_cli_analyze_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(GAME, encoding="utf-8")
    assert cli.main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "8B ANESTRI" in out and "agree" in out and "(withdrawn)" in out
    assert cli.main(["analyze", str(path), "--json", "--best", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores_agree"] is True and len(data["turns"]) == 11 and len(data["turns"][0]["best"]) == 1
    path.write_text(">a: AEINRST 8D RETAINS 66 66\n", encoding="utf-8")
    assert cli.main(["analyze", str(path)]) == 2
    assert "line 1" in capsys.readouterr().err


def test_cli_selfplay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["selfplay", "--game", "scrabble", "--games", "2", "--seed", "5", "--json", "--out", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["players"] == ["greedy", "greedy"]
    files = sorted(tmp_path.glob("*.gcg"))
    assert [f.name for f in files] == ["scrabble-5.gcg", "scrabble-6.gcg"]
    assert read_gcg(files[0].read_text(), SCRABBLE).game.turns
    assert cli.main(["selfplay", "--game", "wwf", "--games", "1"]) == 0
    assert "1 wwf games" in capsys.readouterr().out
    assert cli.main(["selfplay", "--players", "greedy,nobody"]) == 2
    assert "unknown player" in capsys.readouterr().err


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Settings()))


def test_api_analyze(client: TestClient) -> None:
    r = client.post("/v1/games/scrabble/analyze", json={"gcg": GAME, "best": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["scores_agree"] and body["first_difference"] is None
    assert [p["rescored"] for p in body["players"]] == [248, 283]
    assert body["turns"][4]["kind"] == "withdrawn" and body["turns"][4]["valid"] is False
    assert len(body["turns"][0]["best"]) == 2
    first, second = body["turns"][0], body["turns"][1]
    assert first["board"] == ["." * 15] * 15 and first["heights"] is None
    assert [t["letter"] for t in first["tiles"]] == list("ANESTRI") and first["tiles"][0] == {"row": 8, "col": 2, "letter": "A", "blank": False}
    assert second["board"][7] == ".ANESTRI......."


def test_api_analyze_errors(client: TestClient) -> None:
    r = client.post("/v1/games/scrabble/analyze", json={"gcg": "#player1 a A\n>a: XYZ 8D +1 1\n"})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "invalid_game_record" and err["details"]["line"] == 2
    r = client.post("/v1/games/chess/analyze", json={"gcg": GAME})
    assert r.status_code == 404
    r = client.post("/v1/games/scrabble/analyze", json={"gcg": GAME, "bogus": 1})
    assert r.status_code == 422
    assert "/v1/games/{game}/analyze" in client.get("/openapi.json").json()["paths"]
