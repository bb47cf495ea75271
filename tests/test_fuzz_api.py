"""Random and hostile input never produces a 5xx or a traceback, on any endpoint."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import started
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.main import create_app
from app.settings import Settings

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz?.0159!# QU"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with started(create_app(Settings(search_timeout=5)), raise_server_exceptions=False) as c:
        yield c


def grid(rng: random.Random, n: int, chars: str) -> list[str]:
    rows = ["".join(rng.choice(chars) for _ in range(n + rng.choice([0, 0, 0, 1, -1]))) for _ in range(n)]
    return rows[: n + rng.choice([0, 0, 0, -1])]


def sparse_board(rng: random.Random, n: int) -> list[str]:
    cells = [["."] * n for _ in range(n)]
    for _ in range(rng.randint(0, 12)):
        cells[rng.randrange(n)][rng.randrange(n)] = rng.choice("ABCDEIOSTRNLQZXez")
    return ["".join(r) for r in cells]


def body_for(rng: random.Random, game: str) -> dict[str, Any]:
    n = 10 if game == "upwords" else 15
    body: dict[str, Any] = {}
    if rng.random() < 0.8:
        body["board"] = sparse_board(rng, n) if rng.random() < 0.7 else grid(rng, n, ALPHABET)
    if game == "upwords" and rng.random() < 0.6:
        body["heights"] = grid(rng, n, "0000001234567")
    body["rack"] = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 9)))
    if rng.random() < 0.5:
        body["limit"] = rng.choice([0, 1, 20, 1000, 1001, -5, "x", None])
    if rng.random() < 0.3:
        body["filters"] = {"min_length": rng.choice([0, 3, 99, -1]), "contains": rng.choice(["", "E", "é", "??"]),
                           "square": rng.choice([None, [8, 8], [0, 0], [16, 3], "x"]), "no_blanks": rng.random() < 0.5}
    if rng.random() < 0.2:
        body["count"] = True
    if rng.random() < 0.1:
        body[rng.choice(["bogus", "lexicon"])] = rng.choice(["nope", 3, None])
    return body


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf", "upwords", "chess"]))
def test_random_requests_never_get_a_server_error(seed: int, game: str, client: TestClient) -> None:
    rng = random.Random(seed)
    body = body_for(rng, game)
    responses = [client.post(f"/v1/games/{game}/moves", json=body)]
    move = {"row": rng.randint(-1, 16), "col": rng.randint(-1, 16), "direction": rng.choice(["across", "down", "up"]),
            "word": "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 8)))}
    score = {k: v for k, v in body.items() if k in ("board", "heights", "lexicon")} | {"move": move}
    if rng.random() < 0.5:
        score["rack"] = body.get("rack", "")
    responses.append(client.post(f"/v1/games/{game}/score", json=score))
    responses.append(client.post("/v1/compare", json={"board": body.get("board"), "move": move}))
    responses.append(client.post(f"/v1/games/{game}/end", json={"racks": [body.get("rack", ""), "QZ"]}))
    for r in responses:
        assert r.status_code < 500, (r.request.url, r.text)
        assert "Traceback" not in r.text
        if r.status_code >= 400:
            assert set(r.json()) == {"error"}


@pytest.mark.parametrize("raw", [b"", b"null", b"[]", b"\"x\"", b"{", b"{\"rack\": 5}", b"\xff\xfe", b"{\"rack\": \"A\"}" * 3])
def test_malformed_bodies_are_client_errors(raw: bytes, client: TestClient) -> None:
    r = client.post("/v1/games/crossplay/moves", content=raw, headers={"Content-Type": "application/json"})
    assert 400 <= r.status_code < 500 and set(r.json()) == {"error"}
