"""Request IDs, Prometheus metrics and the JSON access log."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import httpx
import pytest
from conftest import started
from fastapi.testclient import TestClient
from test_server import server  # noqa: F401  (the live two-worker service)

from app.main import create_app
from app.observability import access_log
from app.settings import Settings


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with started(create_app(Settings())) as c:
        yield c


def metric(text: str, name: str, **labels: str) -> float:
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        m = re.fullmatch(rf"{name}\{{(.*)\}} (\S+)", line)
        if m and ",".join(sorted(m.group(1).split(","))) == want:
            return float(m.group(2))
    return 0.0


def test_request_id_is_returned_or_made(client: TestClient) -> None:
    r = client.get("/healthz", headers={"X-Request-ID": "front-end.42"})
    assert r.headers["x-request-id"] == "front-end.42"
    made = client.get("/healthz", headers={"X-Request-ID": "bad id with spaces"}).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert client.get("/v1/nothing").headers["x-request-id"]  # errors too


def test_metrics_count_requests_by_route_game_and_status(client: TestClient) -> None:
    before = client.get("/metrics").text
    labels = {"route": "/v1/games/{game}/moves", "game": "crossplay", "status": "200"}
    client.post("/v1/games/CROSSPLAY/moves", json={"rack": "QI", "limit": 1})
    client.post("/v1/games/crossplay/moves", json={"rack": "QIQIQIQI"})
    text = client.get("/metrics").text
    assert metric(text, "wordsolver_requests_total", **labels) == metric(before, "wordsolver_requests_total", **labels) + 1
    assert metric(text, "wordsolver_requests_total", route="/v1/games/{game}/moves", game="crossplay", status="422") >= 1
    assert metric(text, "wordsolver_solve_duration_seconds_count", game="crossplay", endpoint="moves") >= 1
    assert "wordsolver_request_duration_seconds_bucket" in text and "wordsolver_requests_in_flight" in text
    client.get("/v1/games/chess")
    assert metric(client.get("/metrics").text, "wordsolver_requests_total", route="/v1/games/{game}", game="unknown",
                  status="404") >= 1


def test_access_log_is_one_json_line_per_request(client: TestClient) -> None:
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Keep()
    handler.setFormatter(access_log.handlers[0].formatter)
    access_log.addHandler(handler)
    try:
        client.post("/v1/games/crossplay/moves", json={"rack": "QI", "limit": 1}, headers={"X-Request-ID": "abc"})
    finally:
        access_log.removeHandler(handler)
    entry = json.loads(lines[-1])
    assert entry["request_id"] == "abc" and entry["status"] == 200 and entry["route"] == "/v1/games/{game}/moves"
    assert entry["method"] == "POST" and entry["duration_ms"] > 0


def test_access_log_can_be_turned_off() -> None:
    with started(create_app(Settings(access_log=False))):
        assert not access_log.isEnabledFor(logging.INFO)
    with started(create_app(Settings())):
        assert access_log.isEnabledFor(logging.INFO)


def test_metrics_of_a_two_worker_service_sum_every_worker(server: str) -> None:  # noqa: F811
    with httpx.Client(base_url=server) as c:  # one connection: one worker answers all of these
        before = metric(c.get("/metrics").text, "wordsolver_requests_total", route="/healthz", game="", status="200")
        for _ in range(5):
            assert c.get("/healthz").status_code == 200
    for _ in range(5):  # new connections: spread over the workers
        assert httpx.get(f"{server}/healthz").status_code == 200
    after = metric(httpx.get(f"{server}/metrics").text, "wordsolver_requests_total", route="/healthz", game="", status="200")
    assert after - before == 10


def test_old_keepalive_connections_are_told_to_close() -> None:
    """So long-lived clients reconnect and the kernel spreads them over the workers again."""
    import time

    with TestClient(create_app(Settings(connection_max_age=0.3))) as c:
        assert "connection" not in c.get("/healthz").headers
        time.sleep(0.4)
        assert c.get("/healthz").headers["connection"] == "close"
        assert "connection" not in c.get("/healthz").headers  # a new connection starts afresh
    with TestClient(create_app(Settings(connection_max_age=0))) as c:
        c.get("/healthz")
        time.sleep(0.1)
        assert "connection" not in c.get("/healthz").headers
