"""Bounded everything (issue 21): the request head's size, HTTP versions, every integer field,
the in-flight gauge after a worker dies, and requests the worker read too late. Each test names
the defect it guards against."""

from __future__ import annotations

import contextvars
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from conftest import started
from test_operations import Service, free_port, wait_until

from app.limits import ARRIVED_AT, Busy, check_loop_wait
from app.main import create_app

BIG = 2**64
LONG = "9" * 4301
GCG = "#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS {turn} {total}\n"
EMPTY = "/".join(["15"] * 15)


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    with started(create_app(), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize(("path", "body", "code"), [
    # GCG scores of 2^64 and more overflowed the JSON encoder: 500
    ("/v1/games/scrabble/analyze", {"gcg": GCG.format(turn=f"+{BIG}", total=BIG)}, "invalid_game_record"),
    ("/v1/games/scrabble/analyze", {"gcg": GCG.format(turn="+66", total=BIG)}, "invalid_game_record"),
    # a 4,301-digit score could not even be converted: 500
    ("/v1/games/scrabble/analyze", {"gcg": GCG.format(turn=f"+{LONG}", total=66)}, "invalid_game_record"),
    ("/v1/games/scrabble/analyze", {"gcg": GCG.format(turn="+66", total=LONG)}, "invalid_game_record"),
    ("/v1/games/scrabble/analyze", {"gcg": GCG.format(turn="+66", total=66) + f">b: AEINRST -{LONG} +0 66\n"},
     "invalid_game_record"),
    # CGP scores and the zero-turn count, read and written
    ("/v1/games/scrabble/cgp", {"cgp": f"{EMPTY} AEINRST/ {BIG}/0 0"}, "invalid_cgp"),
    ("/v1/games/scrabble/cgp", {"cgp": f"{EMPTY} AEINRST/ 0/-{BIG} 0"}, "invalid_cgp"),
    ("/v1/games/scrabble/cgp", {"cgp": f"{EMPTY} AEINRST/ 0/0 {BIG}"}, "invalid_cgp"),
    ("/v1/games/scrabble/cgp", {"cgp": f"{EMPTY} AEINRST/ 0/0 ²"}, "invalid_cgp"),
    ("/v1/games/scrabble/moves", {"cgp": f"{EMPTY} AEINRST/ {BIG}/0 0"}, "invalid_cgp"),
    ("/v1/games/scrabble/score", {"play": "8D RETAINS", "cgp": f"{EMPTY} AEINRST/ 0/0 {BIG}"}, "invalid_cgp"),
    ("/v1/games/scrabble/cgp", {"rack": "AEINRST", "scores": [BIG, 0]}, "invalid_request"),
    ("/v1/games/scrabble/cgp", {"rack": "AEINRST", "scores": [0, -BIG]}, "invalid_request"),
    ("/v1/games/scrabble/cgp", {"rack": "AEINRST", "zeros": BIG}, "invalid_request"),
    ("/v1/games/scrabble/moves", {"rack": "AEINRST", "filters": {"square": [BIG, 1]}}, "invalid_request"),
    ("/v1/games/scrabble/moves", {"rack": "AEINRST", "limit": BIG}, "invalid_request"),
    ("/v1/games/scrabble/moves", {"rack": "AEINRST", "bag_size": -BIG, "rank_by": "equity"}, "invalid_request"),
])
def test_every_integer_is_range_checked_with_a_4xx(client: object, path: str, body: dict, code: str) -> None:
    r = client.post(path, json=body)  # type: ignore[attr-defined]
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["error"]["code"] == code, r.text
    if code != "invalid_request":
        assert "out of range" in r.text or "not a number" in r.text, r.text


def test_a_json_number_of_4301_digits_is_a_400_naming_the_cause(client: object) -> None:
    r = client.post("/v1/games/scrabble/moves", content=b'{"rack":"AEINRST","limit":' + LONG.encode() + b"}",  # type: ignore[attr-defined]
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed_json"
    assert "4,300 digits" in r.json()["error"]["message"]


def test_gcg_and_cgp_numbers_in_range_still_read(client: object) -> None:
    r = client.post("/v1/games/scrabble/cgp", json={"cgp": f"{EMPTY} AEINRST/ 999999/-999999 6"})  # type: ignore[attr-defined]
    assert r.status_code == 200 and r.json()["scores"] == [999999, -999999] and r.json()["zeros"] == 6


def test_a_request_read_too_late_is_shed_at_once() -> None:
    """The event loop's own backlog is a queue too: a solving request that waited longer than
    WORDSOLVER_LOOP_WAIT to be read gets 503 busy instead of being solved for a gone client."""
    def late() -> None:
        ARRIVED_AT.set(time.monotonic() - 2.0)
        check_loop_wait(0.5)

    with pytest.raises(Busy) as busy:
        contextvars.copy_context().run(late)
    assert busy.value.lane == "loop"

    def fresh() -> None:
        ARRIVED_AT.set(time.monotonic())
        check_loop_wait(0.5)

    contextvars.copy_context().run(fresh)  # read in time: no refusal
    contextvars.copy_context().run(check_loop_wait, 0.5)  # another server (no arrival time): no refusal


# ----------------------------------------------------------------------------- a real service

pytestmark_linux = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc to find the workers")


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    svc = Service(free_port(), {"WORDSOLVER_LOG_LEVEL": "warning", "WORDSOLVER_ACCESS_LOG": "false",
                                "WORDSOLVER_MAX_HEAD_BYTES": "8192", "WORDSOLVER_BODY_TIMEOUT": "30"})
    try:
        yield svc
    finally:
        svc.stop()


def exchange(port: int, data: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except OSError:  # the server may close before taking all of an oversized head
            pass
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer


@pytestmark_linux
def test_an_oversized_request_head_gets_431_in_the_envelope(service: Service) -> None:
    """A 64 MB header was answered 200 (and eight parallel 40 MB heads took ~350 MB a worker)."""
    for head in (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n",
                 b"GET /healthz?" + b"q" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Many: 1234567890\r\n" * 1000 + b"\r\n"):
        answer = exchange(service.port, head)
        status, _, rest = answer.partition(b"\r\n")
        assert status == b"HTTP/1.1 431 Request Header Fields Too Large", answer[:300]
        assert b'"code":"header_too_large"' in rest
    ok = exchange(service.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fine: " + b"a" * 4000 + b"\r\nConnection: close\r\n\r\n")
    assert ok.startswith(b"HTTP/1.1 200")


@pytestmark_linux
@pytest.mark.parametrize("line", [b"GET /healthz HTTP/2.0", b"GET /healthz HTTP/0.9", b"GET /healthz HTTP/1.2"])
def test_http_versions_other_than_1_0_and_1_1_are_refused(service: Service, line: bytes) -> None:
    """HTTP/0.9 and "HTTP/2.0" request lines were answered as HTTP/1.1."""
    answer = exchange(service.port, line + b"\r\nHost: x\r\n\r\n")
    assert answer.startswith((b"HTTP/1.1 505", b"HTTP/1.1 400")), answer[:200]
    assert b'"error"' in answer
    for good in (b"HTTP/1.0", b"HTTP/1.1"):
        assert exchange(service.port, b"GET /healthz " + good + b"\r\nHost: x\r\nConnection: close\r\n\r\n"
                        ).startswith(b"HTTP/1.1 200")


def in_flight(url: str) -> float:
    text = httpx.get(f"{url}/metrics", timeout=5).text
    line = next(x for x in text.splitlines() if x.startswith("wordsolver_requests_in_flight "))
    return float(line.split()[-1])


@pytestmark_linux
def test_the_in_flight_gauge_is_right_after_a_worker_dies(service: Service) -> None:
    """After a worker was killed, /metrics kept counting the requests it had in flight."""
    stalled = []
    try:
        for _ in range(6):  # bodies that never finish: requests in flight in both workers
            s = socket.create_connection(("127.0.0.1", service.port), timeout=10)
            s.sendall(b"POST /v1/games/crossplay/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")
            stalled.append(s)
        assert wait_until(lambda: in_flight(service.url) >= 7, 10)  # six stalled and the /metrics request
        victim = max(service.holders().items(), key=lambda kv: kv[1])[0]
        before = service.workers()
        os.kill(victim, signal.SIGKILL)
        assert wait_until(lambda: len(service.workers() - before) == 1, 30)
        # the survivor's own stalled requests and this /metrics request are all that is in flight
        held = sum(service.holders().values())
        assert wait_until(lambda: in_flight(service.url) <= held + 1, 10), (in_flight(service.url), held)
    finally:
        for s in stalled:
            s.close()
    assert wait_until(lambda: in_flight(service.url) == 1, 10)


def test_analyze_keeps_within_its_budget_on_a_long_record() -> None:
    """A maximal game record ran 11.4-12.1 s against a 10 s budget: the turns after the
    deadline, the answer and its serialization came on top (measured here before the fix:
    2.1-2.2 s through the API for a 1 s budget). Now grading stops ranking early enough for the
    turns left and the answer: grading itself ends before the deadline, and the whole request
    keeps near the budget (loosely checked: this machine's load stretches every wait)."""
    from app.settings import Settings
    from engine import LexiconStore
    from engine.analyze import grade
    from engine.game import game_rules
    from engine.gcg import read_gcg

    lines = ["#player1 a A", "#player2 b B"] + [f">{'ab'[i % 2]}: AEINRS? - +0 0" for i in range(2100)]
    text = "\n".join(lines) + "\n"
    lex = LexiconStore().get()
    imported = read_gcg(text, game_rules("scrabble"))
    grade(read_gcg("\n".join(lines[:12]) + "\n", game_rules("scrabble")), lex, 20, None)  # warm
    deadline = time.monotonic() + 1.0
    graded = grade(imported, lex, 20, deadline)
    over = time.monotonic() - deadline
    assert not graded.turns[0].cut_short and graded.turns[-1].cut_short
    with started(create_app(Settings(search_timeout=1.0, access_log=False))) as c:
        start = time.monotonic()
        r = c.post("/v1/games/scrabble/analyze", json={"gcg": text, "best": 20})
        took = time.monotonic() - start
    assert r.status_code == 200 and len(r.json()["turns"]) == 2100, r.text[:300]
    # loosely: 1.1-1.5 s measured at load average 17 (before the fix: 2.1-2.2 s unloaded); grading
    # alone ended 0.2 s early to 0.8 s late at load average 20
    # at load average 11 grading ended 1.4 s late: the allowance grows with the machine's load
    slack = 1.0 + 0.1 * os.getloadavg()[0]
    assert over < slack and took < 3.0 + slack, (over, took, slack)
