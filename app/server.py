"""Running the service: worker processes, each with its own listening socket, and timeouts.

- **Load spread by the kernel.** Each worker binds the port itself with ``SO_REUSEPORT``, so
  the kernel spreads new connections over the workers, and a worker started to replace one
  that died gets its share of new connections at once. (uvicorn's own ``--workers`` shares
  one socket: keep-alive clients piled onto one worker, and a replacement got no traffic.)
  The supervisor holds the port bound (not listening) for its lifetime, so another program
  cannot take it in between. Where ``SO_REUSEPORT`` does not exist, one shared socket is used.
- **TCP_NODELAY.** Sockets are created with ``IPPROTO_TCP``: asyncio sets TCP_NODELAY only on
  those, and without it every keep-alive answer waited ~40 ms for a delayed ACK (uvicorn
  issue #3149).
- **httptools and uvloop.** uvicorn parses HTTP with httptools (C) and runs on uvloop when they
  are installed (they are dependencies; on a platform without them, h11 and asyncio): measured
  with wrk on two workers, a third less CPU per cheap request. Both protocols get the head
  timeout and the JSON envelope for a request that is not HTTP.
- **Timeouts.** Idle keep-alive connections close after ``keepalive_timeout``; a connection
  that has not sent a whole request head within ``header_timeout`` is closed; a body not
  received within ``body_timeout`` gets 408 (``app.errors.BodySizeLimit``).
- **Shutdown.** SIGTERM or SIGINT: every worker stops accepting, finishes what is in flight
  for at most ``drain_timeout`` seconds and exits; the supervisor kills what is left a few
  seconds later. A worker that dies otherwise is replaced.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from typing import Any

import orjson
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # the C HTTP parser, with uvloop: a third less CPU per cheap request than h11 and asyncio
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # not installed: uvicorn's pure-Python h11
    HttpToolsProtocol = None  # type: ignore[assignment, misc]

from . import peers
from .limits import ARRIVED_AT, PENDING

log = logging.getLogger("wordsolver.server")
REUSE_PORT = hasattr(socket, "SO_REUSEPORT")


class _TcpConfig(uvicorn.Config):
    """uvicorn's config, binding its socket with ``IPPROTO_TCP`` (single-process path), and
    tuning the process that loads the app as a service worker, whichever way it runs: one
    process (``--workers 1``), uvicorn's supervisor, or ours (:func:`_worker`)."""

    def load(self) -> None:
        super().load()
        from .settings import get_settings
        from .store import settle

        # the event loop waits at most this long for the interpreter lock a solving thread
        # holds (Python's default is 5 ms: with it a single worker's /healthz waited p90 5 ms
        # behind thousand-play answers)
        sys.setswitchinterval(get_settings().switch_interval)
        settle(start=True)  # what the app built, settled; again as each list and the leave tables load

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto != socket.IPPROTO_TCP:
            sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            sock.set_inheritable(True)
        return sock


class _HeadTooLarge(Exception):
    pass


ARRIVED = "wordsolver.arrived"  # scope key: when the request's bytes reached the worker (time.monotonic)


class _HeadTimer:
    """Closing a connection whose request head does not arrive in time (uvicorn itself waits
    forever for a client that sends half a request line); a limit on the head's size (431);
    only HTTP/1.0 and 1.1 (505); the error envelope for a request that is not HTTP at all
    (uvicorn answers it in plain text); and when each request arrived (``scope[ARRIVED]``: how
    long it then waited for the event loop is what the lanes shed on). Mixed into uvicorn's
    protocols."""

    header_timeout = 10.0
    max_head = 32 * 1024
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _arrived = 0.0
    _head_bytes = 0
    _refusal: tuple[int, str, str, str] | None = None

    def _arm(self) -> None:
        self._disarm()
        self._head_timer: asyncio.TimerHandle | None = self.loop.call_later(self.header_timeout, self._head_late)

    def _disarm(self) -> None:
        if getattr(self, "_head_timer", None) is not None:
            self._head_timer.cancel()  # type: ignore[union-attr]
            self._head_timer = None

    def _waiting_for_head(self) -> bool:
        raise NotImplementedError

    # the hooks both protocols share (cooperative: the protocol class comes after this one)
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        self._arrived = time.monotonic()
        super().data_received(data)  # type: ignore[misc]

    def _count_head(self, n: int) -> None:
        self._head_bytes += n
        if self._head_bytes > self.max_head:
            self._refusal = (431, "Request Header Fields Too Large", "header_too_large",
                             f"the request head (request line and headers) is larger than {self.max_head} bytes")
            raise _HeadTooLarge

    def _stamp(self, scope: dict[str, Any]) -> None:
        self._head_bytes = 0
        scope[ARRIVED] = self._arrived or time.monotonic()

    def _arrival(self) -> None:
        """Before the request's task is made: the task copies this context (app.limits.ARRIVED_AT,
        and PENDING: the server's set of request tasks, which the new task joins)."""
        ARRIVED_AT.set(self._arrived or time.monotonic())
        PENDING.set(self.tasks)  # type: ignore[attr-defined]

    def _head_late(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        status, reason, code, message = self._refusal or (400, "Bad Request", "bad_request", f"malformed HTTP request: {msg}")
        self._refusal = None
        self._refuse(status, reason, code, message)

    def _refuse(self, status: int, reason: str, code: str, message: str) -> None:
        body = orjson.dumps({"error": {"code": code, "message": message, "details": {}}},
                            option=orjson.OPT_APPEND_NEWLINE)
        head = (f"HTTP/1.1 {status} {reason}\r\n".encode() + b"content-type: application/json\r\nconnection: close\r\n"
                b"content-length: " + str(len(body)).encode() + b"\r\n\r\n")
        if not self.transport.is_closing():
            self.transport.write(head + body)
            self.transport.close()


class HeaderTimeoutH11(_HeadTimer, H11Protocol):
    """uvicorn's h11 protocol (pure Python) with the head timeout: used when httptools is not
    installed."""

    def _waiting_for_head(self) -> bool:
        return self.cycle is None

    def handle_events(self) -> None:
        cycle = self.cycle
        self._arrival()
        super().handle_events()
        if self.cycle is not None:
            self._disarm()
            if self.cycle is not cycle:
                self._stamp(self.cycle.scope)  # type: ignore[arg-type]


if HttpToolsProtocol is not None:

    class HeaderTimeoutHttpTools(_HeadTimer, HttpToolsProtocol):
        """uvicorn's httptools protocol (the C parser of Node's llhttp) with the head timeout."""

        def _waiting_for_head(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def on_url(self, url: bytes) -> None:
            self._count_head(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count_head(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._disarm()
            version = self.parser.get_http_version()
            if version not in ("1.0", "1.1"):
                self._refusal = (505, "HTTP Version Not Supported", "http_version_not_supported",
                                 f"HTTP/{version} is not served here: send HTTP/1.1 (or 1.0)")
                raise _HeadTooLarge  # the parser stops; send_400_response answers the refusal
            self._arrival()
            super().on_headers_complete()
            if self.cycle is not None:
                self._stamp(self.cycle.scope)  # type: ignore[arg-type]

    PROTOCOL: type[asyncio.Protocol] = HeaderTimeoutHttpTools
else:
    PROTOCOL = HeaderTimeoutH11


def listen(host: str, port: int, reuse_port: bool, backlog: int = 2048) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(backlog)
    sock.set_inheritable(True)
    return sock


def _config(options: dict[str, Any]) -> uvicorn.Config:
    from .settings import get_settings

    _HeadTimer.header_timeout = options.pop("header_timeout")
    _HeadTimer.max_head = get_settings().max_head_bytes
    options.setdefault("h11_max_incomplete_event_size", _HeadTimer.max_head)
    # the service writes its own access log (JSON, with request IDs: app.observability);
    # loop "auto" is uvloop when it is installed
    return _TcpConfig("app.main:app", http=PROTOCOL, loop="auto", access_log=False, **options)


def _worker(host: str, port: int, options: dict[str, Any], slot: int) -> None:
    """One worker process: its own SO_REUSEPORT socket, one uvicorn server on it; ``slot``: its
    place among the workers, whose readiness it marks (app.peers)."""
    os.environ[peers.SLOT_ENV] = str(slot)
    sock = listen(host, port, reuse_port=True)
    config = _config(options)
    config.load()  # the app imported and the process tuned (_TcpConfig.load) before serving
    uvicorn.Server(config).run(sockets=[sock])


def run(host: str, port: int, workers: int, log_level: str, keepalive_timeout: int = 5,
        header_timeout: float = 10.0, drain_timeout: int = 10) -> None:
    # the drain time is the deadline for the whole exit: the workers stop waiting for requests
    # in flight a moment before it, leaving time to shut down
    grace = max(0.0, drain_timeout - 0.75)
    options = {"log_level": log_level, "timeout_keep_alive": keepalive_timeout,
               "timeout_graceful_shutdown": grace, "header_timeout": header_timeout}
    if workers <= 1 or not REUSE_PORT:
        if workers > 1:  # no SO_REUSEPORT here: uvicorn's supervisor on one shared socket
            _metrics_dir()
            from uvicorn.supervisors import Multiprocess

            config = _config({**options, "host": host, "port": port, "workers": workers})
            Multiprocess(config, sockets=[config.bind_socket()]).run()
            return
        uvicorn.Server(_config({**options, "host": host, "port": port})).run()
        return
    _metrics_dir()
    Supervisor(host, port, workers, options, drain_timeout).run()


def _metrics_dir() -> None:
    """Metrics summed over the workers: each writes its values to files in one directory."""
    path = tempfile.mkdtemp(prefix="wordsolver-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    atexit.register(shutil.rmtree, path, True)


def _forget(pid: int | None) -> None:
    """Drop a dead worker's live gauges (requests and expensive searches in flight): summed over
    the workers, they would otherwise count its last values for good."""
    if pid is None or not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return
    from prometheus_client import multiprocess

    try:
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
    except OSError:
        pass


class Supervisor:
    def __init__(self, host: str, port: int, workers: int, options: dict[str, Any], drain_timeout: int) -> None:
        self.host, self.port, self.workers, self.options = host, port, workers, options
        self.drain_timeout = drain_timeout
        self.context = multiprocessing.get_context("spawn")
        self.stopping = False
        # the workers' readiness marks (app.peers), in the environment the workers inherit
        self.peers = tempfile.mkdtemp(prefix="wordsolver-peers-")
        atexit.register(shutil.rmtree, self.peers, True)
        os.environ[peers.DIR_ENV], os.environ[peers.COUNT_ENV] = self.peers, str(workers)

    def spawn(self, slot: int) -> multiprocessing.process.BaseProcess:
        peers.clear(self.peers, slot)  # the new worker has loaded nothing yet: the service is not ready
        proc = self.context.Process(target=_worker, args=(self.host, self.port, dict(self.options), slot),
                                    name="wordsolver-worker")
        proc.start()
        return proc

    def run(self) -> None:
        # Hold the port (bound with SO_REUSEPORT, never listening, so it takes no connections)
        # while the workers run: a busy port fails here with a clear error, and no other
        # program can bind it between worker restarts.
        guard = socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET, socket.SOCK_STREAM)
        guard.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        guard.bind((self.host, self.port))
        procs = [self.spawn(i) for i in range(self.workers)]
        print(f"wordsolver: serving on http://{self.host}:{self.port} with {self.workers} workers "
              f"(pids {', '.join(str(p.pid) for p in procs)})", flush=True)

        def stop(signum: int, frame: object) -> None:
            self.stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            while not self.stopping:
                time.sleep(0.2)
                for i, proc in enumerate(procs):
                    if not proc.is_alive() and not self.stopping:
                        print(f"wordsolver: worker {proc.pid} exited ({proc.exitcode}); starting a new one", flush=True)
                        _forget(proc.pid)
                        procs[i] = self.spawn(i)
        finally:
            for proc in procs:
                if proc.is_alive() and proc.pid:
                    os.kill(proc.pid, signal.SIGTERM)
            deadline = time.monotonic() + self.drain_timeout + 5
            for proc in procs:
                proc.join(max(0.0, deadline - time.monotonic()))
            for proc in procs:
                if proc.is_alive():
                    proc.kill()
                    proc.join()
            guard.close()
