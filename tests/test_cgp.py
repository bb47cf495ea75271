"""CGP positions in and out: the protocol's examples, random positions, errors, the API."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.main import create_app
from app.settings import Settings
from engine.cgp import CGP, parse_cgp, write_cgp
from engine.errors import CGPError
from engine.game import canonical

# The two examples of the format's documentation (Woogles' open protocols).
EXAMPLES = [
    "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AELNOQT/ 0/0 0 lex NWL18; lm exchange 2;",
    "5BERGS5/4PA3U5/2QAID3R5/3BEE3F2S2/1P1ET2VIATIC2/MA1TAW3c2H2/ES3IS2E2A2/AT1FOLIA4V2/LI1L1EX1E6/"
    "1N1O1D2N2Y3/1GNU2C1JETE3/2ER2OHO2N3/2O3GOY6/1INDOW1U7/4DORR7 IKLMTZ/AEINRU? 0/0 0 lex OSPD1;",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_protocol_examples_round_trip(text: str) -> None:
    cgp = parse_cgp(text)
    assert write_cgp(cgp) == text
    assert parse_cgp(write_cgp(cgp)) == cgp


def test_example_fields() -> None:
    first, second = (parse_cgp(t) for t in EXAMPLES)
    assert first.board == ("." * 15,) * 15 and first.racks == ("AELNOQT", "") and first.scores == (0, 0)
    assert first.lexicon == "NWL18" and first.op("lm") == "exchange 2" and first.zeros == 0
    assert second.board[0] == ".....BERGS....." and second.board[5][9] == "c"  # a blank C
    assert second.racks == ("IKLMTZ", "AEINRU?") and second.lexicon == "OSPD1"


def test_operations_kept_in_order_and_aliases() -> None:
    cgp = parse_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/B 5/-3 4 bb 35; mncz 6; lm 8D QI; lm pass; gid abc;")
    assert cgp.scores == (5, -3) and cgp.zeros == 4
    assert cgp.ops == (("bb", "35"), ("mcnz", "6"), ("lm", "8D QI"), ("lm", "pass"), ("gid", "abc"))


@st.composite
def positions(draw: st.DrawFn) -> CGP:
    n = draw(st.sampled_from([10, 15, 21]))
    square = st.sampled_from(list(".........ABCDEFGHIJKLMNOPQRSTUVWXYZqxz"))
    board = tuple("".join(draw(st.lists(square, min_size=n, max_size=n))) for _ in range(n))
    rack = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ?", max_size=7).map(canonical)
    opcode = st.sampled_from(["lex", "lm", "bdn", "ld", "cr", "bb", "etl", "mcnz", "tmr"])
    operand = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789. ", min_size=1, max_size=12)
    ops = draw(st.lists(st.tuples(opcode, operand), max_size=4))
    ops = [(k, " ".join(v.split()) or "1") for k, v in ops]
    ops = [(k, str(len(v)) if k in ("bb", "etl", "mcnz") else v) for k, v in ops]
    return CGP(
        board=board,
        racks=(draw(rack), draw(rack)),
        scores=(draw(st.integers(-100, 900)), draw(st.integers(-100, 900))),
        zeros=draw(st.integers(0, 12)),
        ops=tuple(ops),
    )


@settings(max_examples=200, deadline=None)
@given(positions())
def test_random_positions_round_trip(cgp: CGP) -> None:
    assert parse_cgp(write_cgp(cgp)) == cgp


def test_selfplay_position_round_trip(lex) -> None:  # type: ignore[no-untyped-def]
    from engine.board import format_board
    from engine.game import game_rules, replay
    from engine.strategy.players import GreedyPlayer
    from engine.strategy.selfplay import play_game

    rules = game_rules("scrabble")
    game = play_game(rules, lex, [GreedyPlayer(), GreedyPlayer()], 3)
    for state in replay(game)[::5]:
        racks = (state.racks[state.to_move], state.racks[1 - state.to_move])
        scores = (state.scores[state.to_move], state.scores[1 - state.to_move])
        cgp = CGP(tuple(format_board(rules.ruleset, list(state.cells))), racks, scores, state.scoreless, (("lex", lex.name),))
        assert parse_cgp(write_cgp(cgp)) == cgp


@pytest.mark.parametrize(
    ("text", "field", "position", "char"),
    [
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/1$13 A/B 0/0 0", "board", 44, "$"),
        ("2/2/2 A/B 0/0 0", "board", 6, None),
        ("1a/2x A/B 0/0 0", "board", 4, None),
        ("0/1 A/B 0/0 0", "board", 1, "0"),
        ("1/1[CH] A/B 0/0 0", "board", 4, "["),
        ("1 A1/B 0/0 0", "racks", 4, "1"),
        ("1 A/B/C 0/0 0", "racks", 3, None),
        ("1 A/B 0/x1 0", "scores", 9, "x"),
        ("1 A/B 0 0", "scores", 7, None),
        ("1 A/B 0/0 7a", "zeros", 12, "a"),
        ("1 A/B 0/0", "zeros", 10, None),
        ("1 A/B 0/0 0 lex X", "operations", 17, "X"),
        ("1 A/B 0/0 0 ;", "operations", 13, ";"),
        ("1 A/B 0/0 0 bb many;", "operations", 13, None),
        ("", "board", 1, None),
    ],
)
def test_errors_name_the_field_and_character(text: str, field: str, position: int, char: str | None) -> None:
    with pytest.raises(CGPError) as err:
        parse_cgp(text)
    details = err.value.details
    assert (details["field"], details["position"], details.get("char")) == (field, position, char)
    assert f"cgp {field}, character {position}" in err.value.message


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Settings()))


MID = "15/15/15/15/15/15/15/3RETAINS5/15/15/15/15/15/15/15 DGOOXYZ/ABC 0/66 0 lex NWL23;"


def test_moves_accept_cgp_instead_of_board_and_rack(client: TestClient) -> None:
    board = ["." * 15] * 7 + ["...RETAINS....."] + ["." * 15] * 7
    plain = client.post("/v1/games/scrabble/moves", json={"board": board, "rack": "DGOOXYZ", "limit": 5}).json()
    via = client.post("/v1/games/scrabble/moves", json={"cgp": MID, "limit": 5})
    assert via.status_code == 200 and via.json() == plain


def test_score_gives_the_cgp_after_the_play(client: TestClient) -> None:
    move = {"row": 9, "col": 4, "direction": "across", "word": "OX"}
    r = client.post("/v1/games/scrabble/score", json={"cgp": MID, "move": move})
    assert r.status_code == 200, r.text
    body = r.json()
    after = parse_cgp(body["cgp"])
    assert after.board[8] == "...OX.........." and after.racks == ("ABC", "DGOYZ")
    assert after.scores == (66, body["score"]) and after.zeros == 0
    assert after.ops == (("lex", "NWL23"), ("lm", "9D OX"))
    assert client.post("/v1/games/scrabble/score", json={"board": None, "rack": "OX", "move": {**move, "row": 8, "col": 8}}).json().get("cgp") is None


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"cgp": "15/15 A/B 0/0 0"}, "invalid_cgp", "board"),
        ({"cgp": MID, "rack": "AB"}, "invalid_cgp", "rack"),
        ({"cgp": MID, "board": ["." * 15] * 15}, "invalid_cgp", "board"),
        ({"cgp": MID.replace("DGOOXYZ", "DGO!XYZ")}, "invalid_cgp", "racks"),
        ({"cgp": "9" * 3000}, "invalid_cgp", "cgp"),
    ],
)
def test_cgp_errors_are_422_naming_the_field(client: TestClient, body: dict, code: str, field: str) -> None:
    r = client.post("/v1/games/scrabble/moves", json=body)
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == code and err["details"]["field"] == field


def test_cli_best_and_score_take_cgp(capsys: pytest.CaptureFixture[str]) -> None:
    from app import cli

    assert cli.main(["best", "--game", "scrabble", "--cgp", MID, "--limit", "1"]) == 0
    assert "7G ZOO" in capsys.readouterr().out
    assert cli.main(["score", "--game", "scrabble", "--cgp", MID, "9F", "OXO"]) == 0
    out = capsys.readouterr().out
    assert "cgp after the play: 15/15/15/15/15/15/15/3RETAINS5/5OXO7/" in out
    assert cli.main(["best", "--game", "scrabble", "--cgp", "15/15 A/B 0/0 0"]) == 2
    assert "cgp board, character 6" in capsys.readouterr().err
    assert cli.main(["best", "--game", "scrabble"]) == 2
    assert "rack" in capsys.readouterr().err


def test_cgp_endpoint_reads_and_writes(client: TestClient) -> None:
    r = client.post("/v1/games/scrabble/cgp", json={"cgp": MID.replace("NWL23;", "NWL23; bb 50;")})
    assert r.status_code == 200, r.text
    read = r.json()
    assert read["board"][7] == "...RETAINS....." and read["rack"] == "DGOOXYZ" and read["racks"] == ["DGOOXYZ", "ABC"]
    assert read["scores"] == [0, 66] and read["zeros"] == 0 and read["lexicon"] == "NWL23"
    assert read["operations"] == [{"op": "lex", "operands": "NWL23"}, {"op": "bb", "operands": "50"}]
    back = {k: read[k] for k in ("board", "rack", "scores", "zeros")} | {"other_rack": "ABC", "lexicon": "NWL23"}
    w = client.post("/v1/games/scrabble/cgp", json=back)
    assert w.status_code == 200, w.text
    assert w.json()["cgp"] == MID
    blank = client.post("/v1/games/scrabble/cgp", json={"board": ["." * 15] * 7 + ["...RETaINS....."] + ["." * 15] * 7, "rack": "?EA"})
    assert blank.json()["cgp"] == "15/15/15/15/15/15/15/3RETaINS5/15/15/15/15/15/15/15 AE?/ 0/0 0"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"cgp": "15/15 A/B 0/0 0"}, "invalid_cgp", "board"),
        ({"cgp": MID, "rack": "AB"}, "invalid_cgp", "rack"),
        ({"cgp": MID.replace("DGOOXYZ", "DGO!XYZ")}, "invalid_cgp", "racks"),
        ({"cgp": "11/11/11/11/11/11/11/11/11/11/11 A/B 0/0 0"}, "invalid_board", None),
        ({"board": ["." * 15] * 15, "rack": "A1"}, "invalid_rack", None),
        ({"board": ["." * 15] * 15, "lexicon": "a;b"}, "invalid_request", None),
    ],
)
def test_cgp_endpoint_errors(client: TestClient, body: dict, code: str, field: str | None) -> None:
    r = client.post("/v1/games/scrabble/cgp", json=body)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["code"] == code
    if field:
        assert err["details"]["field"] == field


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789ABCDEFabcz?/ ;-[]lex", max_size=60), st.sampled_from(["moves", "score", "cgp"]))
def test_random_cgp_requests_never_get_a_server_error(text: str, endpoint: str) -> None:
    client = TestClient(create_app(Settings(search_timeout=5)), raise_server_exceptions=False)
    body: dict = {"cgp": text}
    if endpoint == "score":
        body["play"] = "8H AT"
    r = client.post(f"/v1/games/scrabble/{endpoint}", json=body)
    assert r.status_code < 500, r.text
    assert r.status_code == 200 or "error" in r.json()
