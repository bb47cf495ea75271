"""The service as an operator runs it: two worker processes sharing the load through
SO_REUSEPORT, a killed worker replaced and given traffic, timeouts for slow and idle clients,
SIGTERM draining within the configured time, and expensive searches refused rather than
queued. A real ``wordsolver serve`` on a loopback port; every wait is bounded."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import started

from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc to see which worker holds a connection")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out |= {int(x) for x in text}
    return out


def socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(target[8:-1])
    return found


def established_on(port: int, state_code: str = "01") -> set[str]:
    """Inodes of TCP sockets whose local port is ``port`` in a state (01 established, 0A listening)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        local, state, inode = parts[1], parts[3], parts[9]
        if state == state_code and int(local.split(":")[1], 16) == port:
            inodes.add(inode)
    return inodes


class Service:
    def __init__(self, port: int, env: dict[str, str]) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        cmd = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
        self.log = Path(tempfile.mkdtemp()) / "server.log"  # a file: a pipe nobody reads would fill up
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env}, stdout=self.log.open("wb"),
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while True:
            assert self.proc.poll() is None, self.log.read_text(errors="replace")
            try:
                if len(self.workers()) == 2 and all(self.ready_once() for _ in range(4)):
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "service not ready in 90 s"
            time.sleep(0.2)

    def ready_once(self) -> bool:
        return httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200

    def workers(self) -> set[int]:
        return children(self.proc.pid) - {p for p in children(self.proc.pid) if "resource_tracker" in _cmdline(p)}

    def holders(self) -> dict[int, int]:
        """How many established connections each worker holds."""
        est = established_on(self.port)
        return {pid: len(socket_inodes(pid) & est) for pid in self.workers()}

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    svc = Service(free_port(), {"WORDSOLVER_LOG_LEVEL": "warning", "WORDSOLVER_ACCESS_LOG": "false",
                                "WORDSOLVER_HEADER_TIMEOUT": "1", "WORDSOLVER_BODY_TIMEOUT": "1",
                                "WORDSOLVER_KEEPALIVE_TIMEOUT": "2", "WORDSOLVER_DRAIN_TIMEOUT": "3"})
    try:
        yield svc
    finally:
        svc.stop()


def wait_until(check, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_keepalive_connections_spread_over_both_workers(service: Service) -> None:
    clients = [httpx.Client(base_url=service.url, timeout=5) for _ in range(16)]
    try:
        for c in clients:
            assert c.get("/healthz").status_code == 200
        held = service.holders()
        assert len(held) == 2 and all(n >= 2 for n in held.values()), held
    finally:
        for c in clients:
            c.close()


def test_a_killed_worker_is_replaced_and_gets_traffic(service: Service) -> None:
    before = service.workers()
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    assert wait_until(lambda: len(service.workers()) == 2 and victim not in service.workers(), 15)
    (replacement,) = service.workers() - before
    # it takes connections once its own socket listens (a loaded machine may take seconds to start it)
    assert wait_until(lambda: bool(socket_inodes(replacement) & established_on(service.port, "0A")), 60)
    assert wait_until(lambda: all(service.ready_once() for _ in range(4)), 30)
    start = time.monotonic()
    clients = [httpx.Client(base_url=service.url, timeout=5) for _ in range(16)]
    try:
        for c in clients:
            assert c.get("/healthz").status_code == 200
        held = service.holders()
        assert held.get(replacement, 0) >= 1, held  # new connections reach the new worker
        assert time.monotonic() - start < 5
    finally:
        for c in clients:
            c.close()


def test_ready_only_when_every_worker_has_its_list(service: Service) -> None:
    """/readyz is the service's readiness, not one worker's (app.peers): with a worker killed,
    the one left says 503 until the replacement has loaded the default list too, and once
    /readyz says 200 every worker does. (Before, the first worker to load said 200 while the
    other still answered 503 not_ready: a probe could pass a pod whose requests then failed.)"""
    before = service.workers()
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    # the supervisor sees the death within 0.2 s and clears the slot as it starts the replacement
    assert wait_until(lambda: len(service.workers()) == 2 and victim not in service.workers(), 15)
    waiting = []

    def replaced_and_ready() -> bool:
        answer = httpx.get(f"{service.url}/readyz", timeout=2)
        if answer.status_code == 503 and "other worker" in answer.json()["error"]["message"]:
            waiting.append(answer)
        return answer.status_code == 200

    assert wait_until(replaced_and_ready, 60)
    assert waiting, "the worker left never said that another one was still loading"
    answers = [httpx.get(f"{service.url}/readyz", timeout=2) for _ in range(20)]  # a new connection each
    assert all(a.status_code == 200 and a.json()["status"] == "ready" for a in answers)
    assert len({a.json()["word_count"] for a in answers}) == 1


def test_a_worker_waits_for_its_peers_before_it_says_ready(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """In one process: as worker 0 of 2 (the supervisor's environment), /readyz is 503 naming the
    other worker until its mark is there, then 200."""
    from fastapi.testclient import TestClient

    from app import peers

    monkeypatch.setenv(peers.DIR_ENV, str(tmp_path))
    monkeypatch.setenv(peers.COUNT_ENV, "2")
    monkeypatch.setenv(peers.SLOT_ENV, "0")
    with TestClient(create_app(Settings())) as client:
        assert wait_until(lambda: (tmp_path / "0").exists(), 60)  # its own list loaded: its slot marked
        answer = client.get("/readyz")
        assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
        assert "1 other worker(s) of the service are still loading it" in answer.json()["error"]["message"]
        (tmp_path / "1").touch()
        assert client.get("/readyz").json()["status"] == "ready"
        peers.clear(str(tmp_path), 1)  # a replacement starts in slot 1
        assert client.get("/readyz").status_code == 503


def test_a_half_sent_request_head_is_closed(service: Service) -> None:
    with socket.create_connection(("127.0.0.1", service.port), timeout=10) as s:
        s.sendall(b"POST /v1/games/crossplay/moves HTTP/1.1\r\nHost: x\r\n")  # no blank line: head never ends
        start = time.monotonic()
        assert s.recv(100) == b""  # closed by the server
        assert time.monotonic() - start < 5


def test_a_stalled_body_gets_408(service: Service) -> None:
    with socket.create_connection(("127.0.0.1", service.port), timeout=10) as s:
        s.sendall(b"POST /v1/games/crossplay/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{\"rack\": ")
        start = time.monotonic()
        answer = b""
        while chunk := s.recv(4096):  # the server answers, then closes
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408") and b'"request_timeout"' in answer
        assert time.monotonic() - start < 5


def test_idle_keepalive_connections_are_closed(service: Service) -> None:
    with socket.create_connection(("127.0.0.1", service.port), timeout=10) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while not answer.endswith(b'{"status":"ok"}\n'):
            answer += s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
        start = time.monotonic()
        assert s.recv(100) == b""
        # closed by the 1 s head timer (or the 2 s keep-alive), counted from when the server
        # finished the answer: a moment before this client had read it (it once measured 0.99996 s)
        assert 0.8 < time.monotonic() - start < 6


def test_sigterm_drains_and_exits_within_the_drain_time_despite_a_stalled_client() -> None:
    svc = Service(free_port(), {"WORDSOLVER_LOG_LEVEL": "warning", "WORDSOLVER_ACCESS_LOG": "false",
                                "WORDSOLVER_BODY_TIMEOUT": "60", "WORDSOLVER_HEADER_TIMEOUT": "60",
                                "WORDSOLVER_DRAIN_TIMEOUT": "2"})
    stalled = socket.create_connection(("127.0.0.1", svc.port), timeout=30)
    try:
        stalled.sendall(b"POST /v1/games/crossplay/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 100\r\n\r\n{")
        time.sleep(0.3)
        start = time.monotonic()
        svc.proc.send_signal(signal.SIGTERM)
        svc.proc.wait(timeout=20)
        assert time.monotonic() - start < 2 + 5
    finally:
        stalled.close()
        svc.stop()


def test_expensive_searches_beyond_the_limit_get_503_busy() -> None:
    with started(create_app(Settings(max_expensive=1, expensive_wait=0.2))) as c:
        gate = c.app.state.gate  # type: ignore[attr-defined]
        with gate.admit(True):  # one expensive search already running in this worker
            r = c.post("/v1/games/crossplay/moves", json={"rack": "AEIRST?", "count": True})
            assert r.status_code == 503 and r.headers["retry-after"] == "1"
            assert r.json()["error"]["code"] == "busy"
            cheap = c.post("/v1/games/crossplay/moves", json={"rack": "AEIRST", "limit": 5})
            assert cheap.status_code == 200
        assert c.post("/v1/games/crossplay/moves", json={"rack": "AEIRST?", "count": True}).status_code == 200


def test_an_expensive_search_waits_briefly_for_a_slot() -> None:
    import threading

    with started(create_app(Settings(max_expensive=1, expensive_wait=5))) as c:
        gate = c.app.state.gate  # type: ignore[attr-defined]
        held = threading.Event()

        def hold() -> None:
            with gate.admit(True):
                held.set()
                time.sleep(0.5)

        t = threading.Thread(target=hold)
        t.start()
        held.wait()
        start = time.monotonic()
        r = c.post("/v1/games/crossplay/moves", json={"rack": "AEIRST?", "count": True})
        t.join()
        assert r.status_code == 200 and 0.2 < time.monotonic() - start < 5


def test_malformed_http_gets_the_error_envelope(service: Service) -> None:
    with socket.create_connection(("127.0.0.1", service.port), timeout=10) as s:
        s.sendall(b"THIS IS NOT HTTP\r\n\r\n")
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head
    assert json.loads(body)["error"]["code"] == "bad_request"
