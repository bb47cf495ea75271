"""The real service: ``wordsolver serve`` (uvicorn, two worker processes) on a loopback port,
called over HTTP with httpx."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    user_dir = tmp_path_factory.mktemp("lexicons")
    (user_dir / "mine.txt").write_text("QI\nZA\nQAT\n")
    env = {
        **os.environ,
        "WORDSOLVER_LEXICON_DIR": str(user_dir),
        "WORDSOLVER_LOG_LEVEL": "warning",
        "WORDSOLVER_CORS_ORIGINS": "https://front.example",
    }
    # Prepared as the README says, so no request meets a compile (503 not_ready) on a fresh machine.
    subprocess.run([sys.executable, "-m", "app.cli", "compile", "word-list", "mine"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    cmd = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    # output to a file, not a pipe nobody reads: a full pipe would block the server
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                out = log.read_text(errors="replace")
                pytest.fail(f"server exited with {proc.returncode}:\n{out}")
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("server not ready within 60 s")
            time.sleep(0.1)
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def retrying(call: Callable[[], httpx.Response], seconds: float = 60) -> httpx.Response:
    """Call until the answer is not 503 not_ready, waiting as its Retry-After says (a user list
    is compiled on first use, and each worker loads it on its own first use)."""
    deadline = time.monotonic() + seconds
    while True:
        r = call()
        if r.status_code != 503 or time.monotonic() > deadline:
            return r
        assert r.json()["error"]["code"] == "not_ready"
        time.sleep(min(float(r.headers["retry-after"]), 0.2))


def test_real_server_answers_the_seed_example(server: str) -> None:
    r = httpx.post(f"{server}/v1/games/crossplay/moves", json={"rack": "QUIXOTE", "limit": 1})
    assert r.status_code == 200
    first = r.json()["moves"][0]
    assert (first["row"], first["col"], first["direction"], first["score"]) == (8, 6, "across", 110)
    assert first["notation"] == "8F QUIXOTE"


def test_real_server_reports_ready_and_serves_user_lexicons(server: str) -> None:
    assert httpx.get(f"{server}/healthz").json() == {"status": "ok"}
    names = [x["name"] for x in httpx.get(f"{server}/v1/lexicons").json()["lexicons"]]
    assert names == ["word-list", "mine"]
    r = retrying(lambda: httpx.post(f"{server}/v1/lexicons/mine/check", json={"words": ["qat", "quixote"]}))
    assert [x["valid"] for x in r.json()["results"]] == [True, False]


def test_real_server_errors_are_json(server: str) -> None:
    r = httpx.post(f"{server}/v1/games/crossplay/moves", content=b"{oops", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed_json"
    r = httpx.post(f"{server}/v1/games/crossplay/moves", content=b"x" * 100_000, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    r = httpx.get(f"{server}/v1/games/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game"


def test_real_server_sends_cors_headers(server: str) -> None:
    r = httpx.get(f"{server}/v1/games", headers={"Origin": "https://front.example"})
    assert r.headers["access-control-allow-origin"] == "https://front.example"


def test_real_server_keeps_answering_concurrent_requests(server: str) -> None:
    body = {"rack": "AEINST?", "limit": 5}

    def solve(_: int) -> int:
        return httpx.post(f"{server}/v1/games/scrabble/moves", json=body, timeout=30).status_code

    with ThreadPoolExecutor(8) as pool:
        pending = [pool.submit(solve, i) for i in range(16)]
        # Solving runs in worker threads: the event loop still answers health checks meanwhile.
        assert httpx.get(f"{server}/healthz", timeout=5).status_code == 200
        assert [f.result() for f in pending] == [200] * 16


def test_real_server_solves_a_lone_instant_search_on_its_event_loop(server: str) -> None:
    """Issue 23: a worker with nothing else in progress answers an instant search on its event
    loop (no hop to a thread: app.server tells the app how many requests are in progress);
    requests that overlap go through the lanes (issue 21). One that runs past the loop's budget
    is answered again in the cheap lane. How many of a burst overlap depends on
    timing (a review found all 48 of 16 clients' requests answered on the loop: each was over
    before the next arrived), so the burst checks only that every answer is counted in
    ``wordsolver_solved_total{where}``."""

    def solved() -> dict[str, float]:
        lines = httpx.get(f"{server}/metrics").text.splitlines()
        return {x.split('"')[1]: float(x.split()[-1]) for x in lines if x.startswith("wordsolver_solved_total{")}

    before = solved()
    with httpx.Client() as c:  # one request at a time
        for _ in range(6):
            assert c.post(f"{server}/v1/games/scrabble/moves", json={"rack": "QUIXOTE", "limit": 1}).status_code == 200
    lone = solved()
    assert lone.get("loop", 0) - before.get("loop", 0) == 6, (before, lone)
    with httpx.Client() as c:  # an opening of three blanks: 10 ms, past the loop's 2.5 ms
        r = c.post(f"{server}/v1/games/crossplay/moves", json={"rack": "AEI???", "limit": 1, "breakdowns": False})
    assert r.status_code == 200 and r.json()["moves"][0]["score"] == 8, r.text
    over = solved()
    assert over.get("loop_over_budget", 0) - lone.get("loop_over_budget", 0) == 1, (lone, over)
    assert over.get("cheap", 0) - lone.get("cheap", 0) == 1 and over.get("loop") == lone.get("loop"), (lone, over)
    lone = over
    body = {"rack": "AEINST?", "limit": 20}
    with ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(lambda _: httpx.post(f"{server}/v1/games/scrabble/moves", json=body, timeout=30).status_code,
                              range(48)))
    assert set(codes) <= {200, 503}
    burst = solved()
    counted = sum(burst[k] - lone.get(k, 0) for k in burst if k != "loop_over_budget")  # a try, then a lane
    # (a request read over 1 s late is refused before it is counted)
    assert codes.count(200) <= counted <= len(codes), (lone, burst, codes)


def test_every_way_the_server_runs_tunes_the_process_that_loads_the_app() -> None:
    """The 1 ms switch interval and the settled collector (app.store.settle) come with loading
    the app through the server's config, which uvicorn does in every serving process: one
    process (``--workers 1``, which had Python's 5 ms: a lone worker's ``/healthz`` then waited
    p90 5 ms behind thousand-play answers), uvicorn's supervisor, and app.server's own workers."""
    code = (
        "import gc, sys; from app.server import _TcpConfig;"
        "before = (sys.getswitchinterval(), gc.get_threshold()[0]);"
        "_TcpConfig('app.main:app', host='127.0.0.1', port=0).load();"
        "print(before, (sys.getswitchinterval(), gc.get_threshold()[0], gc.get_freeze_count() > 1000))"
    )
    env = {k: v for k, v in os.environ.items() if k != "WORDSOLVER_SWITCH_INTERVAL"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split("\n")[0] == "(0.005, 700) (0.001, 20000, True)"


def _protocols() -> list[type]:
    from app import server

    return [p for p in (server.HeaderTimeoutH11, getattr(server, "HeaderTimeoutHttpTools", None)) if p is not None]


@pytest.mark.parametrize("protocol", _protocols(), ids=lambda p: p.__name__)
def test_both_http_protocols_close_a_stalled_head_and_answer_garbage_in_json(protocol: type) -> None:
    """The h11 protocol is the fallback when httptools is missing: both get the same hooks."""
    import threading

    import uvicorn

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    quick = type("Quick", (protocol,), {"header_timeout": 0.5})
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=quick, log_level="warning",
                                        lifespan="off"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not srv.started and time.monotonic() < deadline:
            time.sleep(0.02)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 204")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost:")  # half a head
            t = time.monotonic()
            assert s.recv(4096) == b""
            assert time.monotonic() - t < 3
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"\x16\x03\x01 not http\r\n\r\n")
            answer = b""
            while chunk := s.recv(4096):
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 400") and b'"code":"bad_request"' in answer
    finally:
        srv.should_exit = True
        thread.join(10)
