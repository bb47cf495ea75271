"""The hot routes (app.fastroutes) answer exactly as the FastAPI routes do, and take the
requests they should; instant searches run on the event loop only while the worker is quiet."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import started
from fastapi.testclient import TestClient

import app.fastroutes
from app.limits import PENDING, quiet
from app.main import create_app
from app.settings import Settings

BOARD = ["." * 15] * 7 + ["...QUIXOTE....."] + ["." * 15] * 7
UP_BOARD = ["." * 10] * 4 + ["....CAT..."] + ["." * 10] * 5
UP_HEIGHTS = ["0" * 10] * 4 + ["0000121000"] + ["0" * 10] * 5

# (method, path, body: dict for JSON, bytes sent as is, None for none; extra headers; whether the fast path answers)
REQUESTS: list[tuple[str, str, Any, dict[str, str], bool]] = [
    ("GET", "/healthz", None, {}, True),
    ("GET", "/healthz?probe=1", None, {}, True),
    ("GET", "/healthz/", None, {}, True),
    ("HEAD", "/healthz", None, {}, False),
    ("POST", "/v1/games/scrabble/moves", {"board": BOARD, "rack": "ERST"}, {}, True),
    ("POST", "/v1/games/scrabble/moves", {"board": BOARD, "rack": "ERST"}, {"Accept-Encoding": "gzip"}, True),
    ("POST", "/v1/games/scrabble/moves", {"board": BOARD, "rack": "ERS?", "limit": 1, "breakdowns": False},
     {"Origin": "https://front.example"}, True),
    ("POST", "/v1/games/SCRABBLE/moves/", {"rack": "QUIXOTE", "limit": 3}, {}, True),
    ("POST", "/v1/games/crossplay/moves", {"board": BOARD, "rack": "AEINRST", "rank_by": "equity", "limit": 3},
     {}, True),
    ("POST", "/v1/games/wwf/moves", {"board": BOARD, "rack": "ERST", "count": True, "limit": 2}, {}, True),
    ("POST", "/v1/games/scrabble/moves", {"board": BOARD, "rack": "ERST", "filters": {"min_length": 5}}, {}, True),
    ("POST", "/v1/games/scrabble/moves", {"rack": "ERST", "filters": {"square": [16, 1]}}, {}, True),
    ("POST", "/v1/games/scrabble/moves", {"rack": "CAT", "lexicon": "tiny"}, {}, True),
    ("POST", "/v1/games/scrabble/moves", {"rack": "CAT", "lexicon": "nope"}, {}, True),  # the engine's 404
    ("POST", "/v1/games/scrabble/moves", {"board": BOARD, "rack": "ER1"}, {}, True),  # the engine's 422
    ("POST", "/v1/games/scrabble/moves", {"rack": "ERST", "exchanges": True}, {}, True),
    ("POST", "/v1/games/upwords/moves", {"board": UP_BOARD, "heights": UP_HEIGHTS, "rack": "QUIZEAS", "limit": 4},
     {}, True),
    ("POST", "/v1/games/scrabble/moves", {"board": BOARD[:3], "rack": "ERST"}, {}, True),
    ("POST", "/v1/games/chess/moves", {"rack": "ERST"}, {}, False),
    ("POST", "/v1/games/scrabble/moves", {"rack": "ERST", "limit": 0}, {}, False),
    ("POST", "/v1/games/scrabble/moves", {"rack": "ERST", "colour": "red"}, {}, False),
    ("POST", "/v1/games/scrabble/moves", {"rack": 7}, {}, False),
    ("POST", "/v1/games/scrabble/moves", ["ERST"], {}, False),
    ("POST", "/v1/games/scrabble/moves", b'{"rack": "ERST", "rack": "AB"}', {"Content-Type": "application/json"},
     False),
    ("POST", "/v1/games/scrabble/moves", b'{"rack": "ERST"', {"Content-Type": "application/json"}, False),
    ("POST", "/v1/games/scrabble/moves", b'{"rack": "ERST"}', {"Content-Type": "text/plain"}, False),
    ("POST", "/v1/games/scrabble/moves", b'{"rack": "ERST"}', {}, False),
    ("POST", "/v1/games/scrabble/moves", b'{"rack": "ERST"}', {"Content-Type": "application/json; charset=utf-8"},
     True),
    ("POST", "/v1/games/scrabble/score", {"board": BOARD, "rack": "ERST", "play": "8D QUIXOTES"}, {}, True),
    ("POST", "/v1/games/scrabble/score", {"board": BOARD, "rack": "ERS?", "play": "8D QUIXOTEs"}, {}, True),
    ("POST", "/v1/games/scrabble/score", {"board": BOARD, "move": {"row": 8, "col": 4, "direction": "across",
                                                                      "word": "QUIXOTES"}}, {}, True),
    ("POST", "/v1/games/scrabble/score", {"board": BOARD, "play": "8D QUIXOTES", "move": {"row": 1}}, {}, False),
    ("POST", "/v1/games/scrabble/score", {"board": BOARD, "play": "8D QUIXOTEZ"}, {}, True),
    ("POST", "/v1/games/scrabble/score", {"board": BOARD, "play": "Z9 AB"}, {}, True),
    ("POST", "/v1/games/scrabble/verify", {"board": BOARD}, {}, False),
    ("GET", "/v1/games/scrabble", None, {}, False),
]


@pytest.fixture(scope="module")
def clients(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, TestClient]]:
    d: Path = tmp_path_factory.mktemp("lexicons")
    (d / "tiny.txt").write_text("CAT\nACT\nAT\nTA\n")
    # connection recycling off: TestClient's one "connection" per app grows old in the middle of
    # the module, and one app would add Connection: close a request before the other did
    common = {"lexicon_dir": d, "cors_origins": "https://front.example", "access_log": False, "connection_max_age": 0}
    with started(create_app(Settings(**common))) as fast, started(create_app(Settings(**common, fast_routes=False))) \
            as slow:
        yield fast, slow


def _send(client: TestClient, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    if isinstance(body, bytes):
        return client.request(method, path, content=body, headers=headers)
    return client.request(method, path, json=body, headers=headers)


@pytest.mark.parametrize(("method", "path", "body", "headers", "fast"), REQUESTS,
                         ids=[f"{m} {p} {i}" for i, (m, p, *_) in enumerate(REQUESTS)])
def test_the_fast_path_answers_as_fastapi_does(clients: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch,
                                               method: str, path: str, body: Any, headers: dict[str, str],
                                               fast: bool) -> None:
    taken: list[str] = []
    solve, health = app.fastroutes.FastRoutes._solve, app.fastroutes.JSON

    async def spied(self: Any, scope: Any, receive: Any, send: Any, parts: list[str]) -> bool:
        done = await solve(self, scope, receive, send, parts)
        if done:
            taken.append(scope["path"])
        return done

    monkeypatch.setattr(app.fastroutes.FastRoutes, "_solve", spied)
    monkeypatch.setattr(app.fastroutes, "JSON", lambda content: taken.append("health") or health(content))
    got, want = (_send(c, method, path, body, headers) for c in clients)
    assert bool(taken) == fast, (taken, got.status_code, got.text[:300])
    assert (got.status_code, got.content) == (want.status_code, want.content)
    assert got.status_code < 500, got.text

    def comparable(h: Any) -> list[tuple[str, str]]:
        return sorted((k, v) for k, v in h.items() if k not in ("x-request-id", "date"))

    assert comparable(got.headers) == comparable(want.headers)


def test_metrics_name_the_route_of_a_fast_answer(clients: tuple[TestClient, TestClient]) -> None:
    fast, _ = clients
    fast.post("/v1/games/wwf/moves", json={"rack": "QUIXOTE", "limit": 1})
    text = fast.get("/metrics").text
    assert 'wordsolver_requests_total{game="wwf",route="/v1/games/{game}/moves",status="200"}' in text
    fast.get("/healthz")
    assert 'wordsolver_requests_total{game="",route="/healthz",status="200"}' in fast.get("/metrics").text


def test_instant_work_runs_on_the_loop_only_while_the_worker_is_quiet() -> None:
    """``quiet(n)``: at most n requests in progress in the worker, counted from the server's own
    set of request tasks (app.server sets PENDING); unknown (another server) is never quiet."""

    def check(pending: set[int] | None, most: int) -> bool:
        ctx = contextvars.copy_context()
        return ctx.run(lambda: (PENDING.set(pending), quiet(most))[1])

    assert not check(None, 64)
    assert check({1}, 1) and not check({1, 2}, 1) and check({1, 2}, 2)
    assert not check(set(range(128)), 4) and not check({1}, 0)
