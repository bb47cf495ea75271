"""POST /v1/games/{game}/simulate: the answer, the stream, the limits, and the CLI's wordsolver sim."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.schemas_sim import SimulateOut
from app.settings import Settings
from engine import default_lexicon, position
from engine.game import game_rules
from engine.strategy import simulate as sim
from engine.strategy.leaves import shipped

BOARD = ["." * 15] * 7 + [".....GROANED..."] + ["." * 15] * 7
BODY = {"board": BOARD, "rack": "OTLECOA", "candidates": 5, "plies": 1, "iterations": 16, "seconds": 9, "seed": 3}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(sim_workers=2))) as c:
        yield c


def without_time(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "seconds"}


def test_an_answer_is_the_engines_for_the_same_seed(client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/simulate", json=BODY)
    assert r.status_code == 200, r.text
    out = SimulateOut.model_validate(r.json())
    assert out.done and out.iterations == 16 and out.reason in ("iterations", "one_left")
    assert out.leader == out.candidates[0].play and len(out.candidates) == 5
    assert out.workers == 2 and out.game == "crossplay" and out.bag_size == 100 - 7 - 7 - 7
    rules = game_rules("crossplay")
    s = sim.setup(rules, position(rules.ruleset, BOARD, "OTLECOA"))
    snap = sim.simulate(s, default_lexicon(), shipped("crossplay"),
                        sim.Params(candidates=5, plies=1, iterations=16, seed=3, workers=1))
    assert [c.model_dump(exclude_none=True) for c in out.candidates] == [
        {k: v for k, v in line.to_dict().items() if v is not None} for line in snap.lines]
    again = client.post("/v1/games/crossplay/simulate", json=BODY).json()
    assert without_time(again) == without_time(r.json())


@pytest.mark.parametrize("how", ["field", "accept"])
def test_a_stream_is_ndjson_progress_ending_with_the_answer(client: TestClient, how: str) -> None:
    body = BODY | {"iterations": 24} | ({"stream": True} if how == "field" else {})
    headers = {"Accept": "application/x-ndjson"} if how == "accept" else {}
    r = client.post("/v1/games/crossplay/simulate", json=body, headers=headers)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    lines = [SimulateOut.model_validate(json.loads(x)) for x in r.text.splitlines()]
    assert [x.iterations for x in lines] == [0, 8, 16, 24]
    assert [x.done for x in lines] == [False, False, False, True]
    plain = client.post("/v1/games/crossplay/simulate", json=BODY | {"iterations": 24}).json()
    assert without_time(lines[-1].model_dump()) == without_time(SimulateOut.model_validate(plain).model_dump())


def test_a_position_from_cgp_brings_its_scores_and_the_opponents_tiles(client: TestClient) -> None:
    cgp = "15/15/15/15/15/15/15/5GROANED3/15/15/15/15/15/15/15 ACELOOT/QZ 40/100 0"
    r = client.post("/v1/games/crossplay/simulate", json={"cgp": cgp, "candidates": 3, "plies": 1, "iterations": 8})
    assert r.status_code == 200, r.text
    # the opponent holds Q and Z in every iteration, and we trail by 60
    rules = game_rules("crossplay")
    s = sim.setup(rules, position(rules.ruleset, BOARD, "ACELOOT"), (40, 100), opponent="QZ")
    snap = sim.simulate(s, default_lexicon(), shipped("crossplay"), sim.Params(candidates=3, plies=1, iterations=8))
    assert r.json()["candidates"][0]["spread"] == round(snap.lines[0].value, 3)
    assert r.json()["candidates"][0]["spread"] < 0


@pytest.mark.parametrize(("game", "body", "status", "code"), [
    ("upwords", {"rack": "AEINRST"}, 422, "no_leave_values"),
    ("crossplay", {"rack": "AEINRST", "seconds": 11}, 422, "invalid_request"),
    ("crossplay", {"rack": "AEINRST", "opponent_rack": "QQ"}, 422, "invalid_rack"),
    ("crossplay", {"rack": "AEINRST", "bag_size": 100}, 422, "too_many_tiles"),
    ("crossplay", {"rack": "AEINRST", "plies": 11}, 422, "invalid_request"),
    ("crossplay", {"rack": "AEINRST", "candidates": 0}, 422, "invalid_request"),
    ("chess", {"rack": "AEINRST"}, 404, "unknown_game"),
])
def test_refusals_are_4xx_in_the_error_envelope(client: TestClient, game: str, body: dict, status: int,
                                                code: str) -> None:
    r = client.post(f"/v1/games/{game}/simulate", json=body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code


def test_a_busy_worker_answers_503_before_starting(client: TestClient) -> None:
    lane = client.app.state.gate.expensive  # type: ignore[attr-defined]
    wait, lane.wait = lane.wait, 0
    try:
        with lane.hold():  # the worker's one expensive slot is taken
            for body in (BODY, BODY | {"stream": True}):
                r = client.post("/v1/games/crossplay/simulate", json=body)
                assert r.status_code == 503 and r.json()["error"]["code"] == "busy", r.text
                # a game that can never be simulated is refused as such, not "busy, retry"
                # (a page test met that while a stopped run still held the slot)
                r = client.post("/v1/games/upwords/simulate", json={"rack": "AEINRST"} | body)
                assert r.status_code == 422 and r.json()["error"]["code"] == "no_leave_values", r.text
    finally:
        lane.wait = wait
    assert client.post("/v1/games/crossplay/simulate", json=BODY).status_code == 200  # the slot came back
    r = client.post("/v1/games/crossplay/simulate", json=BODY | {"stream": True})
    assert r.status_code == 200 and lane.running == 0  # and the stream gave it back too


def test_the_default_budget_is_the_setting() -> None:
    with TestClient(create_app(Settings(sim_seconds=0.5, sim_workers=1))) as c:
        r = c.post("/v1/games/scrabble/simulate", json={"rack": "AEINRST", "iterations": 100_000, "plies": 4})
        assert r.status_code == 200, r.text
        assert r.json()["reason"] == "time" and r.json()["seconds"] < 0.7


def test_openapi_documents_the_json_and_the_ndjson_answers(client: TestClient) -> None:
    op = client.get("/openapi.json").json()["paths"]["/v1/games/scrabble/simulate"]["post"]
    assert set(op["responses"]["200"]["content"]) == {"application/json", "application/x-ndjson"}
    assert {"422", "503", "404"} <= set(op["responses"])


# ----------------------------------------------------------------------------- wordsolver sim


def test_the_cli_prints_the_table_and_its_json_is_the_apis(client: TestClient, capsys: pytest.CaptureFixture,
                                                          tmp_path: object) -> None:
    from pathlib import Path

    from app import cli

    board = Path(str(tmp_path)) / "board.txt"
    board.write_text("\n".join(BOARD) + "\n")
    args = ["sim", "--game", "crossplay", "--board", str(board), "--rack", "OTLECOA", "-k", "5", "--plies", "1",
            "--iterations", "16", "--seed", "3", "--workers", "1"]
    assert cli.main([*args, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    api = client.post("/v1/games/crossplay/simulate", json=BODY).json()
    assert without_time(got) | {"workers": 2} == without_time(api)
    assert cli.main([*args, "--progress"]) == 0
    out, err = capsys.readouterr()
    head = out.splitlines()[0].split()
    assert head == ["play", "win", "%", "±", "spread", "±", "iterations"]
    assert out.splitlines()[2].startswith(api["leader"])
    assert "16 iterations, 1 plies, seed 3" in out
    progress = err.splitlines()
    assert progress[0].startswith("[....") and " 0 it " in progress[0] and progress[-1].startswith("[####")
    assert f"leader {api['leader']}" in progress[-1]


def test_the_cli_refuses_bad_input_with_the_apis_message(capsys: pytest.CaptureFixture) -> None:
    from app import cli

    assert cli.main(["sim", "--game", "upwords", "--rack", "AEINRST"]) == 2
    assert "no leave values" in capsys.readouterr().err
    assert cli.main(["sim", "--rack", "AEINRST", "--opponent", "QQ", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "invalid_rack"


def test_a_client_that_goes_away_stops_the_run() -> None:
    """Against a live server: a 10 s run gives its expensive slot back within a few seconds of
    the client closing the connection, streamed or not."""
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    app = create_app(Settings(sim_workers=1))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not srv.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.05)
        url = f"http://127.0.0.1:{port}/v1/games/crossplay/simulate"
        # 20 candidates, 4 plies: no pruning before 16 iterations, which take seconds here
        body = BODY | {"iterations": 100_000, "seconds": 10, "plies": 4, "candidates": 20}
        lane = app.state.gate.expensive
        with httpx.Client(timeout=60) as c:
            assert c.get(f"http://127.0.0.1:{port}/readyz").status_code in (200, 503)
            while c.get(f"http://127.0.0.1:{port}/readyz").status_code != 200:
                time.sleep(0.2)
            with c.stream("POST", url, json=body | {"stream": True}) as r:
                lines = r.iter_lines()
                assert json.loads(next(lines))["iterations"] == 0
                assert lane.running == 1
            t0 = time.monotonic()
            while lane.running and time.monotonic() - t0 < 8:
                time.sleep(0.05)
            assert lane.running == 0, "the streamed run went on after the client left"
            with pytest.raises(httpx.ReadTimeout):
                c.post(url, json=body, timeout=0.3)
            t0 = time.monotonic()
            while lane.running and time.monotonic() - t0 < 8:
                time.sleep(0.05)
            assert lane.running == 0, "the run went on after the client left"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
